// SPDX-License-Identifier: MIT
/*
 * cxgb4 (RDMA_DRIVER_CXGB4, Chelsio T4 and later, iw_cxgb4) described as
 * data: its driver data (<rdma/cxgb4-abi.h>), as iw_cxgb4 uses it: the
 * context's status page key, the PD id, CREATE_CQ's flags in and the queue
 * keys, ids and sizes of CREATE_CQ, CREATE_QP and CREATE_SRQ out. No ioctl
 * namespace. The header is 5.10's, unchanged since.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/cxgb4-abi.h>

#include "abi/abi.h"

typedef struct c4iw_alloc_ucontext_resp c4iw_alloc_ucontext_resp;
typedef struct c4iw_alloc_pd_resp c4iw_alloc_pd_resp;
typedef struct c4iw_create_cq c4iw_create_cq;
typedef struct c4iw_create_cq_resp c4iw_create_cq_resp;
typedef struct c4iw_create_qp_resp c4iw_create_qp_resp;
typedef struct c4iw_create_srq_resp c4iw_create_srq_resp;

_Static_assert(sizeof(c4iw_alloc_ucontext_resp) == 16 &&
	       sizeof(c4iw_alloc_pd_resp) == 4 &&
	       sizeof(c4iw_create_cq) == 8 &&
	       sizeof(c4iw_create_cq_resp) == 40 &&
	       sizeof(c4iw_create_qp_resp) == 80 &&
	       sizeof(c4iw_create_srq_resp) == 48,
	       "cxgb4-abi.h struct sizes");


enum {
	VT_CXGB4_FIRST = ABI_VT_DRIVER_BASE(5),
	VT_C4IW_ALLOC_UCONTEXT_RESP = VT_CXGB4_FIRST,
	VT_C4IW_ALLOC_PD_RESP,
	VT_C4IW_CREATE_CQ,
	VT_C4IW_CREATE_CQ_RESP,
	VT_C4IW_CREATE_QP_RESP,
	VT_C4IW_CREATE_SRQ_RESP,
	VT_CXGB4__END
};

static const struct abi_vtype vtypes[VT_CXGB4__END - VT_CXGB4_FIRST] = {
	STRUCT(C4IW_ALLOC_UCONTEXT_RESP, c4iw_alloc_ucontext_resp,
	       F(c4iw_alloc_ucontext_resp, status_page_key, X64),
	       F(c4iw_alloc_ucontext_resp, status_page_size, U32),
	       F(c4iw_alloc_ucontext_resp, reserved, RSVD)),
	STRUCT(C4IW_ALLOC_PD_RESP, c4iw_alloc_pd_resp,
	       F(c4iw_alloc_pd_resp, pdid, U32)),
	STRUCT(C4IW_CREATE_CQ, c4iw_create_cq,
	       F(c4iw_create_cq, flags, X32),
	       F(c4iw_create_cq, reserved, RSVD)),
	STRUCT(C4IW_CREATE_CQ_RESP, c4iw_create_cq_resp,
	       F(c4iw_create_cq_resp, key, X64),
	       F(c4iw_create_cq_resp, gts_key, X64),
	       F(c4iw_create_cq_resp, memsize, X64),
	       F(c4iw_create_cq_resp, cqid, U32),
	       F(c4iw_create_cq_resp, size, U32),
	       F(c4iw_create_cq_resp, qid_mask, X32),
	       F(c4iw_create_cq_resp, flags, X32)),
	STRUCT(C4IW_CREATE_QP_RESP, c4iw_create_qp_resp,
	       F(c4iw_create_qp_resp, ma_sync_key, X64),
	       F(c4iw_create_qp_resp, sq_key, X64),
	       F(c4iw_create_qp_resp, rq_key, X64),
	       F(c4iw_create_qp_resp, sq_db_gts_key, X64),
	       F(c4iw_create_qp_resp, rq_db_gts_key, X64),
	       F(c4iw_create_qp_resp, sq_memsize, X64),
	       F(c4iw_create_qp_resp, rq_memsize, X64),
	       F(c4iw_create_qp_resp, sqid, U32),
	       F(c4iw_create_qp_resp, rqid, U32),
	       F(c4iw_create_qp_resp, sq_size, U32),
	       F(c4iw_create_qp_resp, rq_size, U32),
	       F(c4iw_create_qp_resp, qid_mask, X32),
	       F(c4iw_create_qp_resp, flags, X32)),
	STRUCT(C4IW_CREATE_SRQ_RESP, c4iw_create_srq_resp,
	       F(c4iw_create_srq_resp, srq_key, X64),
	       F(c4iw_create_srq_resp, srq_db_gts_key, X64),
	       F(c4iw_create_srq_resp, srq_memsize, X64),
	       F(c4iw_create_srq_resp, srqid, U32),
	       F(c4iw_create_srq_resp, srq_size, U32),
	       F(c4iw_create_srq_resp, rqt_abs_idx, U32),
	       F(c4iw_create_srq_resp, qid_mask, X32),
	       F(c4iw_create_srq_resp, flags, X32),
	       F(c4iw_create_srq_resp, reserved, RSVD)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, C4IW_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, NONE, C4IW_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, C4IW_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, C4IW_CREATE_CQ, C4IW_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, C4IW_CREATE_CQ, C4IW_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, C4IW_CREATE_CQ, C4IW_CREATE_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, NONE, C4IW_CREATE_QP_RESP),
	UD_WRITE(CREATE_QP, NONE, C4IW_CREATE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, NONE, C4IW_CREATE_QP_RESP),
	UD_METHOD(SRQ, SRQ_CREATE, NONE, C4IW_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, NONE, C4IW_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, NONE, C4IW_CREATE_SRQ_RESP),
};

const struct abi_driver abi_drv_cxgb4 = {
	RDMA_DRIVER_CXGB4, N(cxgb4), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
