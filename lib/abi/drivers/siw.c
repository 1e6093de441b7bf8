// SPDX-License-Identifier: MIT
/*
 * siw (RDMA_DRIVER_SIW, soft iWARP) described as data: its driver data
 * (<rdma/siw-abi.h>), as siw uses it: the context's device id, the mmap keys
 * and sizes of the queues it makes (CREATE_CQ, CREATE_QP, CREATE_SRQ), and
 * REG_MR's key byte in and STag out. No ioctl namespace. The header is
 * 5.10's, unchanged since.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/siw-abi.h>

#include "abi/abi.h"

typedef struct siw_uresp_alloc_ctx siw_uresp_alloc_ctx;
typedef struct siw_uresp_create_cq siw_uresp_create_cq;
typedef struct siw_uresp_create_qp siw_uresp_create_qp;
typedef struct siw_ureq_reg_mr siw_ureq_reg_mr;
typedef struct siw_uresp_reg_mr siw_uresp_reg_mr;
typedef struct siw_uresp_create_srq siw_uresp_create_srq;

_Static_assert(sizeof(siw_uresp_alloc_ctx) == 8 &&
	       sizeof(siw_uresp_create_cq) == 16 &&
	       sizeof(siw_uresp_create_qp) == 32 &&
	       sizeof(siw_ureq_reg_mr) == 8 &&
	       sizeof(siw_uresp_reg_mr) == 8 &&
	       sizeof(siw_uresp_create_srq) == 16,
	       "siw-abi.h struct sizes");


enum {
	VT_SIW_FIRST = ABI_VT_DRIVER_BASE(3),
	VT_SIW_URESP_ALLOC_CTX = VT_SIW_FIRST,
	VT_SIW_URESP_CREATE_CQ,
	VT_SIW_URESP_CREATE_QP,
	VT_SIW_UREQ_REG_MR,
	VT_SIW_URESP_REG_MR,
	VT_SIW_URESP_CREATE_SRQ,
	VT_SIW__END
};

static const struct abi_vtype vtypes[VT_SIW__END - VT_SIW_FIRST] = {
	STRUCT(SIW_URESP_ALLOC_CTX, siw_uresp_alloc_ctx,
	       F(siw_uresp_alloc_ctx, dev_id, U32),
	       F(siw_uresp_alloc_ctx, pad, RSVD)),
	STRUCT(SIW_URESP_CREATE_CQ, siw_uresp_create_cq,
	       F(siw_uresp_create_cq, cq_id, U32),
	       F(siw_uresp_create_cq, num_cqe, U32),
	       F(siw_uresp_create_cq, cq_key, X64)),
	STRUCT(SIW_URESP_CREATE_QP, siw_uresp_create_qp,
	       F(siw_uresp_create_qp, qp_id, U32),
	       F(siw_uresp_create_qp, num_sqe, U32),
	       F(siw_uresp_create_qp, num_rqe, U32),
	       F(siw_uresp_create_qp, pad, RSVD),
	       F(siw_uresp_create_qp, sq_key, X64),
	       F(siw_uresp_create_qp, rq_key, X64)),
	STRUCT(SIW_UREQ_REG_MR, siw_ureq_reg_mr,
	       F(siw_ureq_reg_mr, stag_key, U8),
	       F(siw_ureq_reg_mr, reserved, RSVD),
	       F(siw_ureq_reg_mr, pad, RSVD)),
	STRUCT(SIW_URESP_REG_MR, siw_uresp_reg_mr,
	       F(siw_uresp_reg_mr, stag, U32),
	       F(siw_uresp_reg_mr, pad, RSVD)),
	STRUCT(SIW_URESP_CREATE_SRQ, siw_uresp_create_srq,
	       F(siw_uresp_create_srq, num_rqe, U32),
	       F(siw_uresp_create_srq, pad, RSVD),
	       F(siw_uresp_create_srq, srq_key, X64)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, SIW_URESP_ALLOC_CTX),
	UD_WRITE(GET_CONTEXT, NONE, SIW_URESP_ALLOC_CTX),
	UD_METHOD(CQ, CQ_CREATE, NONE, SIW_URESP_CREATE_CQ),
	UD_WRITE(CREATE_CQ, NONE, SIW_URESP_CREATE_CQ),
	UD_WRITE_EX(CREATE_CQ, NONE, SIW_URESP_CREATE_CQ),
	UD_METHOD(QP, QP_CREATE, NONE, SIW_URESP_CREATE_QP),
	UD_WRITE(CREATE_QP, NONE, SIW_URESP_CREATE_QP),
	UD_WRITE_EX(CREATE_QP, NONE, SIW_URESP_CREATE_QP),
	UD_METHOD(SRQ, SRQ_CREATE, NONE, SIW_URESP_CREATE_SRQ),
	UD_WRITE(CREATE_SRQ, NONE, SIW_URESP_CREATE_SRQ),
	UD_WRITE(CREATE_XSRQ, NONE, SIW_URESP_CREATE_SRQ),
	UD_WRITE(REG_MR, SIW_UREQ_REG_MR, SIW_URESP_REG_MR),
};

const struct abi_driver abi_drv_siw = {
	RDMA_DRIVER_SIW, N(siw), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
