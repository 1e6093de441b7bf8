// SPDX-License-Identifier: MIT
/*
 * rxe (RDMA_DRIVER_RXE, soft RoCE) described as data: its driver data
 * (<rdma/rdma_user_rxe.h>), as rdma_rxe uses it. rxe reads no request of
 * its own except on MODIFY_SRQ (where to write the new queue's mmap info)
 * and answers where the kernel mapped its queues: CREATE_CQ, RESIZE_CQ,
 * CREATE_QP, CREATE_SRQ, and the AH number of CREATE_AH. It has no ioctl
 * namespace. Layouts are those of 5.10's header, unchanged since.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "abi/abi.h"

typedef struct mminfo rxe_mminfo;
typedef struct rxe_create_cq_resp rxe_create_cq_resp;
typedef struct rxe_resize_cq_resp rxe_resize_cq_resp;
typedef struct rxe_create_qp_resp rxe_create_qp_resp;
typedef struct rxe_create_srq_resp rxe_create_srq_resp;
typedef struct rxe_modify_srq_cmd rxe_modify_srq_cmd;

_Static_assert(sizeof(rxe_mminfo) == 16 &&
	       sizeof(rxe_create_cq_resp) == 16 &&
	       sizeof(rxe_resize_cq_resp) == 16 &&
	       sizeof(rxe_create_qp_resp) == 32 &&
	       sizeof(rxe_create_srq_resp) == 24 &&
	       sizeof(rxe_modify_srq_cmd) == 8,
	       "rdma_user_rxe.h struct sizes");
/* rxe_create_ah_resp came after 5.10's header: by offset, checked against
 * the header where it has it. */
#ifdef UVIO_HAVE_RXE_AH_RESP
_Static_assert(sizeof(struct rxe_create_ah_resp) == 8 &&
	       offsetof(struct rxe_create_ah_resp, ah_num) == 0, "rxe_create_ah_resp");
#endif


enum {
	VT_RXE_FIRST = ABI_VT_DRIVER_BASE(2),
	VT_RXE_MMINFO = VT_RXE_FIRST,
	VT_RXE_CREATE_AH_RESP,
	VT_RXE_CREATE_CQ_RESP,
	VT_RXE_RESIZE_CQ_RESP,
	VT_RXE_CREATE_QP_RESP,
	VT_RXE_CREATE_SRQ_RESP,
	VT_RXE_MODIFY_SRQ_CMD,
	VT_RXE__END
};

static const struct abi_vtype vtypes[VT_RXE__END - VT_RXE_FIRST] = {
	STRUCT(RXE_MMINFO, rxe_mminfo,
	       F(rxe_mminfo, offset, X64),
	       F(rxe_mminfo, size, U32),
	       F(rxe_mminfo, pad, RSVD)),
	STRUCT_SZ(RXE_CREATE_AH_RESP, rxe_create_ah_resp, 8,
		  FO(ah_num, 0, 4, U32), FO(reserved, 4, 4, RSVD)),
	STRUCT(RXE_CREATE_CQ_RESP, rxe_create_cq_resp,
	       F(rxe_create_cq_resp, mi, RXE_MMINFO)),
	STRUCT(RXE_RESIZE_CQ_RESP, rxe_resize_cq_resp,
	       F(rxe_resize_cq_resp, mi, RXE_MMINFO)),
	STRUCT(RXE_CREATE_QP_RESP, rxe_create_qp_resp,
	       F(rxe_create_qp_resp, rq_mi, RXE_MMINFO),
	       F(rxe_create_qp_resp, sq_mi, RXE_MMINFO)),
	STRUCT(RXE_CREATE_SRQ_RESP, rxe_create_srq_resp,
	       F(rxe_create_srq_resp, mi, RXE_MMINFO),
	       F(rxe_create_srq_resp, srq_num, U32),
	       F(rxe_create_srq_resp, reserved, RSVD)),
	STRUCT(RXE_MODIFY_SRQ_CMD, rxe_modify_srq_cmd,
	       F(rxe_modify_srq_cmd, mmap_info_addr, X64)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(CQ, CQ_CREATE, NONE, RXE_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, NONE, RXE_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, NONE, RXE_CREATE_CQ_RESP),
	UD_WRITE(RESIZE_CQ, NONE, RXE_RESIZE_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, NONE, RXE_CREATE_QP_RESP),
	UD_WRITE(CREATE_QP, NONE, RXE_CREATE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, NONE, RXE_CREATE_QP_RESP),
	UD_METHOD(SRQ, SRQ_CREATE, NONE, RXE_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, NONE, RXE_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, NONE, RXE_CREATE_SRQ_RESP),
	UD_WRITE(MODIFY_SRQ, RXE_MODIFY_SRQ_CMD, NONE),
	UD_WRITE(CREATE_AH, NONE, RXE_CREATE_AH_RESP),
};

const struct abi_driver abi_drv_rxe = {
	RDMA_DRIVER_RXE, N(rxe), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
