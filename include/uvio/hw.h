/* SPDX-License-Identifier: MIT */
/*
 * What the library made for an object on a hardware NIC, whatever the
 * driver: on mlx5, mlx4, efa, bnxt_re, irdma and mana, a verb given no
 * driver data has the library allocate the object's queues (in the
 * process's memory for the kernel to pin, or mapped from the device), and
 * this tells a caller who writes its own data path where each of them
 * lies, with the driver's own number for the object. The layout of each
 * queue's entries is the driver's (its ABI and the hardware's manuals);
 * <uvio/mlx5.h> says more of mlx5's.
 */
#ifndef UVIO_HW_H
#define UVIO_HW_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_device;

/* What a region holds. */
enum uvio_hw_mem {
	UVIO_HW_MEM_CQ = 1,		/* the completion queue's entries */
	UVIO_HW_MEM_SQ,			/* a QP's send queue */
	UVIO_HW_MEM_RQ,			/* a QP's receive queue */
	UVIO_HW_MEM_QUEUES,		/* a QP's queues in one buffer (the driver's order) */
	UVIO_HW_MEM_SRQ,		/* a shared receive queue */
	UVIO_HW_MEM_DBREC,		/* a doorbell record in the process's memory */
	UVIO_HW_MEM_DOORBELL,		/* a doorbell page of the device's, mapped */
	UVIO_HW_MEM_SQ_DOORBELL,	/* the send queue's own doorbell page */
	UVIO_HW_MEM_LLQ,		/* efa: the send queue's descriptors in the device */
	UVIO_HW_MEM_SHADOW,		/* irdma: the CQ's shadow area */
};

/* A region's flags. */
#define UVIO_HW_MEM_OF_DEVICE 1u	/* mapped from the device (else the process's memory,
					 * pinned by the kernel) */

struct uvio_hw_region {
	uint32_t kind;			/* enum uvio_hw_mem */
	uint32_t flags;			/* UVIO_HW_MEM_OF_DEVICE */
	void *addr;
	uint64_t len;
};

#define UVIO_HW_MAX_REGIONS 6

struct uvio_hw_object {
	size_t sz;
	uint32_t driver_id;		/* enum rdma_driver_id */
	uint32_t num;			/* the driver's number: pdn, cqn, qpn, srqn, AH number;
					 * 0 where it gives none */
	uint32_t nregions;
	uint32_t reserved;
	struct uvio_hw_region regions[UVIO_HW_MAX_REGIONS];
};

/*
 * Where the queues of object handle (object: UVERBS_OBJECT_PD, _CQ, _QP,
 * _SRQ or _AH) lie, as the library made them. -ENOENT for an object the
 * library keeps nothing for (made with the caller's driver data,
 * destroyed, or a driver without a half), -ENODEV on a device without a
 * half (rxe, siw: see <uvio/dp.h>), -EINVAL for a bad argument. The
 * regions stay valid until the object is destroyed or the device closed.
 */
UVIO_API int uvio_hw_query_object(struct uvio_device *dev, uint16_t object, uint32_t handle,
				  struct uvio_hw_object *out);

#ifdef __cplusplus
}
#endif

#endif
