/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: CQ verbs: create, destroy, resize, modify. A CQ reports
 * completions on a completion channel of <uvio/events.h>.
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
#include <uvio/events.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

struct uvio_cq_attr {
	size_t sz;
	uint32_t cqe;
	uint64_t user_handle;
	/* NULL: completions are not reported on a channel. */
	const struct uvio_comp_channel *channel;
	uint32_t comp_vector;
	uint32_t flags;			/* enum ib_uverbs_ex_create_cq_flags */
};

struct uvio_cq {
	size_t sz;
	uint32_t handle;
	uint32_t cqe;			/* what the kernel granted */
};

UVIO_API int uvio_create_cq(struct uvio_device *dev, const struct uvio_cq_attr *attr,
			    const struct uvio_drv *drv, struct uvio_cq *cq,
			    enum uvio_path *path);

UVIO_API int uvio_destroy_cq(struct uvio_device *dev, uint32_t handle,
			     struct uvio_events_reported *events, enum uvio_path *path);

/* Sized inputs (UVIO_OPTS): sz first. */
struct uvio_cq_resize_attr {
	size_t sz;
	uint32_t cq_handle;
	uint32_t cqe;			/* room asked for */
};

/* RESIZE_CQ: cq (may be NULL) then describes the CQ: its handle and the
 * size the kernel made. */
UVIO_API int uvio_resize_cq(struct uvio_device *dev, const struct uvio_cq_resize_attr *attr,
			    const struct uvio_drv *drv, struct uvio_cq *cq,
			    enum uvio_path *path);

/* Completion event moderation: an event after count completions or period
 * microseconds, whichever first. */
struct uvio_cq_moderation {
	size_t sz;
	uint32_t cq_handle;
	uint16_t count;
	uint16_t period;
};

/* MODIFY_CQ. */
UVIO_API int uvio_modify_cq(struct uvio_device *dev, const struct uvio_cq_moderation *attr,
			    enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
