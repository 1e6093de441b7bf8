/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: device memory (on-chip memory of the adapter) and its
 * registration as an MR.
 *
 * All three exist only as native ioctl methods: DM/ALLOC, DM/FREE and
 * MR/DM_MR_REG. Where the device takes write() they fail with -EOPNOTSUPP.
 */
#ifndef UVIO_DM_H
#define UVIO_DM_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>
#include <uvio/mr.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

/* Sized: sz first. alignment is log2 of the byte alignment (0: none). */
struct uvio_dm_attr {
	size_t sz;
	uint64_t length;
	uint32_t log_align;
	uint32_t reserved;		/* zero; room a later field may take */
};

UVIO_API int uvio_alloc_dm(struct uvio_device *dev, const struct uvio_dm_attr *attr,
			   const struct uvio_drv *drv, uint32_t *dm_handle,
			   enum uvio_path *path);
UVIO_API int uvio_free_dm(struct uvio_device *dev, uint32_t dm_handle,
			  enum uvio_path *path);

/* DM_MR_REG: access must include IB_UVERBS_ACCESS_ZERO_BASED. */
struct uvio_dm_mr_attr {
	size_t sz;
	uint32_t pd_handle;
	uint32_t dm_handle;
	uint64_t offset;
	uint64_t length;
	uint32_t access;
	uint32_t reserved;		/* zero; room a later field may take */
};

UVIO_API int uvio_reg_dm_mr(struct uvio_device *dev, const struct uvio_dm_mr_attr *attr,
			    const struct uvio_drv *drv, struct uvio_mr *mr,
			    enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
