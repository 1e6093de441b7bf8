/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: address handles.
 *
 * Encodings the kernel has: create is write() CREATE_AH only (INVOKE_WRITE
 * on the ioctl path); destroy is native AH/DESTROY and write() DESTROY_AH.
 * RoCE needs a global route (is_global 1) whose sgid_index names a GID of
 * the port; on rxe that is the RoCE v2 GID, index 1 in the test VM.
 */
#ifndef UVIO_AH_H
#define UVIO_AH_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;

/* Sized (see UVIO_OPTS): sz first. av is the kernel's address vector. */
struct uvio_ah_attr {
	size_t sz;
	uint32_t pd_handle;
	uint64_t user_handle;
	struct ib_uverbs_ah_attr av;
};

UVIO_API int uvio_create_ah(struct uvio_device *dev, const struct uvio_ah_attr *attr,
			    const struct uvio_drv *drv, uint32_t *ah_handle,
			    enum uvio_path *path);
UVIO_API int uvio_destroy_ah(struct uvio_device *dev, uint32_t ah_handle,
			     enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
