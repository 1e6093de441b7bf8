/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: counters objects. They count for the flow rules they are
 * attached to (a spec of type UVIO_FLOW_SPEC_ACTION_COUNT in
 * uvio_create_flow(), see <uvio/flow.h>); a read before any attachment
 * answers -EINVAL.
 *
 * All three verbs exist only as native ioctl methods (COUNTERS/CREATE,
 * DESTROY, READ): -EOPNOTSUPP where the device takes write().
 */
#ifndef UVIO_COUNTERS_H
#define UVIO_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

UVIO_API int uvio_create_counters(struct uvio_device *dev, const struct uvio_drv *drv,
				  uint32_t *counters_handle, enum uvio_path *path);
UVIO_API int uvio_destroy_counters(struct uvio_device *dev, uint32_t counters_handle,
				   enum uvio_path *path);
/* Up to n values into values[]; flags: enum ib_uverbs_read_counters_flags. */
UVIO_API int uvio_read_counters(struct uvio_device *dev, uint32_t counters_handle,
				uint64_t *values, size_t n, uint32_t flags,
				enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
