// SPDX-License-Identifier: MIT
/*
 * mthca (RDMA_DRIVER_MTHCA, Mellanox InfiniHost) described as data: its
 * driver data (<rdma/mthca-abi.h>), as ib_mthca uses it: the context's QP
 * table and UAR context sizes, the PD number, REG_MR's DMA attributes, the
 * doorbell pages and indexes and lkeys of CREATE_CQ, RESIZE_CQ, CREATE_SRQ
 * and CREATE_QP, and the CQ and SRQ numbers back. No ioctl namespace.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mthca-abi.h>

#include "abi/abi.h"

typedef struct mthca_alloc_ucontext_resp mthca_alloc_ucontext_resp;
typedef struct mthca_alloc_pd_resp mthca_alloc_pd_resp;
typedef struct mthca_reg_mr mthca_reg_mr;
typedef struct mthca_create_cq mthca_create_cq;
typedef struct mthca_create_cq_resp mthca_create_cq_resp;
typedef struct mthca_resize_cq mthca_resize_cq;
typedef struct mthca_create_srq mthca_create_srq;
typedef struct mthca_create_srq_resp mthca_create_srq_resp;
typedef struct mthca_create_qp mthca_create_qp;

_Static_assert(sizeof(mthca_alloc_ucontext_resp) == 8 &&
	       sizeof(mthca_alloc_pd_resp) == 8 &&
	       sizeof(mthca_reg_mr) == 8 &&
	       sizeof(mthca_create_cq) == 32 &&
	       sizeof(mthca_create_cq_resp) == 8 &&
	       sizeof(mthca_resize_cq) == 8 &&
	       sizeof(mthca_create_srq) == 16 &&
	       sizeof(mthca_create_srq_resp) == 8 &&
	       sizeof(mthca_create_qp) == 32,
	       "mthca-abi.h struct sizes");


enum {
	VT_MTHCA_FIRST = ABI_VT_DRIVER_BASE(4),
	VT_MTHCA_ALLOC_UCONTEXT_RESP = VT_MTHCA_FIRST,
	VT_MTHCA_ALLOC_PD_RESP,
	VT_MTHCA_REG_MR,
	VT_MTHCA_CREATE_CQ,
	VT_MTHCA_CREATE_CQ_RESP,
	VT_MTHCA_RESIZE_CQ,
	VT_MTHCA_CREATE_SRQ,
	VT_MTHCA_CREATE_SRQ_RESP,
	VT_MTHCA_CREATE_QP,
	VT_MTHCA__END
};

static const struct abi_vtype vtypes[VT_MTHCA__END - VT_MTHCA_FIRST] = {
	STRUCT(MTHCA_ALLOC_UCONTEXT_RESP, mthca_alloc_ucontext_resp,
	       F(mthca_alloc_ucontext_resp, qp_tab_size, U32),
	       F(mthca_alloc_ucontext_resp, uarc_size, U32)),
	STRUCT(MTHCA_ALLOC_PD_RESP, mthca_alloc_pd_resp,
	       F(mthca_alloc_pd_resp, pdn, U32),
	       F(mthca_alloc_pd_resp, reserved, RSVD)),
	STRUCT(MTHCA_REG_MR, mthca_reg_mr,
	       F(mthca_reg_mr, mr_attrs, X32),
	       F(mthca_reg_mr, reserved, RSVD)),
	STRUCT(MTHCA_CREATE_CQ, mthca_create_cq,
	       F(mthca_create_cq, lkey, U32),
	       F(mthca_create_cq, pdn, U32),
	       F(mthca_create_cq, arm_db_page, X64),
	       F(mthca_create_cq, set_db_page, X64),
	       F(mthca_create_cq, arm_db_index, U32),
	       F(mthca_create_cq, set_db_index, U32)),
	STRUCT(MTHCA_CREATE_CQ_RESP, mthca_create_cq_resp,
	       F(mthca_create_cq_resp, cqn, U32),
	       F(mthca_create_cq_resp, reserved, RSVD)),
	STRUCT(MTHCA_RESIZE_CQ, mthca_resize_cq,
	       F(mthca_resize_cq, lkey, U32),
	       F(mthca_resize_cq, reserved, RSVD)),
	STRUCT(MTHCA_CREATE_SRQ, mthca_create_srq,
	       F(mthca_create_srq, lkey, U32),
	       F(mthca_create_srq, db_index, U32),
	       F(mthca_create_srq, db_page, X64)),
	STRUCT(MTHCA_CREATE_SRQ_RESP, mthca_create_srq_resp,
	       F(mthca_create_srq_resp, srqn, U32),
	       F(mthca_create_srq_resp, reserved, RSVD)),
	STRUCT(MTHCA_CREATE_QP, mthca_create_qp,
	       F(mthca_create_qp, lkey, U32),
	       F(mthca_create_qp, reserved, RSVD),
	       F(mthca_create_qp, sq_db_page, X64),
	       F(mthca_create_qp, rq_db_page, X64),
	       F(mthca_create_qp, sq_db_index, U32),
	       F(mthca_create_qp, rq_db_index, U32)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, MTHCA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, NONE, MTHCA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, MTHCA_ALLOC_PD_RESP),
	UD_WRITE(REG_MR, MTHCA_REG_MR, NONE),
	UD_METHOD(CQ, CQ_CREATE, MTHCA_CREATE_CQ, MTHCA_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, MTHCA_CREATE_CQ, MTHCA_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, MTHCA_CREATE_CQ, MTHCA_CREATE_CQ_RESP),
	UD_WRITE(RESIZE_CQ, MTHCA_RESIZE_CQ, NONE),
	UD_METHOD(SRQ, SRQ_CREATE, MTHCA_CREATE_SRQ, MTHCA_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, MTHCA_CREATE_SRQ, MTHCA_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, MTHCA_CREATE_SRQ, MTHCA_CREATE_SRQ_RESP),
	UD_METHOD(QP, QP_CREATE, MTHCA_CREATE_QP, NONE),
	UD_WRITE(CREATE_QP, MTHCA_CREATE_QP, NONE),
	UD_WRITE_EX(CREATE_QP, MTHCA_CREATE_QP, NONE),
};

const struct abi_driver abi_drv_mthca = {
	RDMA_DRIVER_MTHCA, N(mthca), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
