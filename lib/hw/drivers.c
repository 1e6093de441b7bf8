// SPDX-License-Identifier: MIT
/* Which driver has a half in the library, and which needs one it lacks. */
#include <rdma/ib_user_ioctl_verbs.h>
#include "abi/uapi.h"
#include "hw/hw.h"

extern const struct hw_ops uvio_hw_mlx5;
extern const struct hw_ops uvio_hw_mlx4;
extern const struct hw_ops uvio_hw_efa;
extern const struct hw_ops uvio_hw_bnxt_re;
extern const struct hw_ops uvio_hw_mana;
#ifdef UVIO_HAVE_IRDMA_ABI
extern const struct hw_ops uvio_hw_irdma;
#endif

const struct hw_ops *uvio_hw_ops(uint32_t driver_id)
{
	switch (driver_id) {
	case RDMA_DRIVER_MLX5:
		return &uvio_hw_mlx5;
	case RDMA_DRIVER_MLX4:
		return &uvio_hw_mlx4;
	case RDMA_DRIVER_EFA:
		return &uvio_hw_efa;
	case RDMA_DRIVER_BNXT_RE:
		return &uvio_hw_bnxt_re;
	case RDMA_DRIVER_MANA:
		return &uvio_hw_mana;
#ifdef UVIO_HAVE_IRDMA_ABI
	case RDMA_DRIVER_I40IW:		/* RDMA_DRIVER_IRDMA */
		return &uvio_hw_irdma;
#endif
	default:
		return NULL;
	}
}

/* Hardware drivers whose kernel half requires the provider's request in a
 * context, CQ or QP command (their rdma/<driver>-abi.h), and which have no
 * half here yet. The ids are the kernel's enum rdma_driver_id (erdma's, 19,
 * is past Debian 11's headers; abi/uapi.h has the later ones). */
const char *uvio_hw_unbuilt_driver(uint32_t driver_id, const char **abi_header)
{
	static const struct {
		uint32_t id;
		const char *name, *header;
	} unbuilt[] = {
		{ RDMA_DRIVER_CXGB4, "cxgb4", "rdma/cxgb4-abi.h" },
		{ RDMA_DRIVER_MTHCA, "mthca", "rdma/mthca-abi.h" },
		{ RDMA_DRIVER_OCRDMA, "ocrdma", "rdma/ocrdma-abi.h" },
		{ RDMA_DRIVER_VMW_PVRDMA, "vmw_pvrdma", "rdma/vmw_pvrdma-abi.h" },
		{ RDMA_DRIVER_QEDR, "qedr", "rdma/qedr-abi.h" },
#ifndef UVIO_HAVE_IRDMA_ABI	/* built without irdma-abi.h (5.10's headers) */
		{ RDMA_DRIVER_I40IW, "irdma", "rdma/irdma-abi.h" },
#endif
		{ RDMA_DRIVER_HNS, "hns", "rdma/hns-abi.h" },
		{ 19, "erdma", "rdma/erdma-abi.h" },
		{ RDMA_DRIVER_IONIC, "ionic", "rdma/ionic-abi.h" },
	};

	for (size_t i = 0; i < sizeof(unbuilt) / sizeof(unbuilt[0]); i++)
		if (unbuilt[i].id == driver_id) {
			*abi_header = unbuilt[i].header;
			return unbuilt[i].name;
		}
	return NULL;
}
