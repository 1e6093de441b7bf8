/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: protection domains. Every QP, SRQ, MR, MW and AH is made
 * in one; ALLOC_PD and DEALLOC_PD (native PD/DESTROY on the ioctl path).
 */
#ifndef UVIO_PD_H
#define UVIO_PD_H

#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

UVIO_API int uvio_alloc_pd(struct uvio_device *dev, const struct uvio_drv *drv,
			   uint32_t *pd_handle, enum uvio_path *path);
UVIO_API int uvio_dealloc_pd(struct uvio_device *dev, uint32_t pd_handle,
			     enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
