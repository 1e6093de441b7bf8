/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: CQ verbs beyond create and destroy (those are in
 * <uvio/verbs.h>).
 *
 * Encodings the kernel has: RESIZE_CQ is a write() command, MODIFY_CQ an
 * extended write() command (IB_USER_VERBS_EX_CMD_MODIFY_CQ); both travel as
 * INVOKE_WRITE on the ioctl path. CQ create with flags on write() uses the
 * extended command IB_USER_VERBS_EX_CMD_CREATE_CQ, which carries them.
 */
#ifndef UVIO_CQ_H
#define UVIO_CQ_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;

/* RESIZE_CQ: *granted (may be NULL) gets the size the kernel made. */
UVIO_API int uvio_resize_cq(struct uvio_device *dev, uint32_t cq_handle, uint32_t cqe,
			    const struct uvio_drv *drv, uint32_t *granted,
			    enum uvio_path *path);

/* MODIFY_CQ (moderation): an event after count completions or period
 * microseconds, whichever first. */
UVIO_API int uvio_modify_cq(struct uvio_device *dev, uint32_t cq_handle, uint16_t count,
			    uint16_t period, enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
