// SPDX-License-Identifier: MIT
/*
 * qedr (RDMA_DRIVER_QEDR, Marvell/QLogic FastLinQ) described as data: its
 * driver data (<rdma/qedr-abi.h>), as qedr uses it: the context's request
 * (context flags) and answer, ALLOC_PD's request (not read by the kernel)
 * and answer, the CQ, QP and SRQ requests (buffer addresses and lengths,
 * doorbell recovery) and answers (doorbell offsets, ids). No ioctl
 * namespace. The header is 5.10's.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/qedr-abi.h>

#include "abi/abi.h"

typedef struct qedr_alloc_ucontext_req qedr_alloc_ucontext_req;
typedef struct qedr_alloc_ucontext_resp qedr_alloc_ucontext_resp;
typedef struct qedr_alloc_pd_ureq qedr_alloc_pd_ureq;
typedef struct qedr_alloc_pd_uresp qedr_alloc_pd_uresp;
typedef struct qedr_create_cq_ureq qedr_create_cq_ureq;
typedef struct qedr_create_cq_uresp qedr_create_cq_uresp;
typedef struct qedr_create_qp_ureq qedr_create_qp_ureq;
typedef struct qedr_create_qp_uresp qedr_create_qp_uresp;
typedef struct qedr_create_srq_ureq qedr_create_srq_ureq;
typedef struct qedr_create_srq_uresp qedr_create_srq_uresp;

_Static_assert(sizeof(qedr_alloc_ucontext_req) == 8 &&
	       sizeof(qedr_alloc_ucontext_resp) == 56 &&
	       sizeof(qedr_alloc_pd_ureq) == 8 &&
	       sizeof(qedr_alloc_pd_uresp) == 8 &&
	       sizeof(qedr_create_cq_ureq) == 16 &&
	       sizeof(qedr_create_cq_uresp) == 16 &&
	       sizeof(qedr_create_qp_ureq) == 40 &&
	       sizeof(qedr_create_qp_uresp) == 48 &&
	       sizeof(qedr_create_srq_ureq) == 24 &&
	       sizeof(qedr_create_srq_uresp) == 8,
	       "qedr-abi.h struct sizes");


enum {
	VT_QEDR_FIRST = ABI_VT_DRIVER_BASE(8),
	VT_QEDR_ALLOC_UCONTEXT_REQ = VT_QEDR_FIRST,
	VT_QEDR_ALLOC_UCONTEXT_RESP,
	VT_QEDR_ALLOC_PD_UREQ,
	VT_QEDR_ALLOC_PD_URESP,
	VT_QEDR_CREATE_CQ_UREQ,
	VT_QEDR_CREATE_CQ_URESP,
	VT_QEDR_CREATE_QP_UREQ,
	VT_QEDR_CREATE_QP_URESP,
	VT_QEDR_CREATE_SRQ_UREQ,
	VT_QEDR_CREATE_SRQ_URESP,
	VT_QEDR__END
};

static const struct abi_vtype vtypes[VT_QEDR__END - VT_QEDR_FIRST] = {
	STRUCT(QEDR_ALLOC_UCONTEXT_REQ, qedr_alloc_ucontext_req,
	       F(qedr_alloc_ucontext_req, context_flags, X32),
	       F(qedr_alloc_ucontext_req, reserved, RSVD)),
	STRUCT(QEDR_ALLOC_UCONTEXT_RESP, qedr_alloc_ucontext_resp,
	       F(qedr_alloc_ucontext_resp, db_pa, X64),
	       F(qedr_alloc_ucontext_resp, db_size, U32),
	       F(qedr_alloc_ucontext_resp, max_send_wr, U32),
	       F(qedr_alloc_ucontext_resp, max_recv_wr, U32),
	       F(qedr_alloc_ucontext_resp, max_srq_wr, U32),
	       F(qedr_alloc_ucontext_resp, sges_per_send_wr, U32),
	       F(qedr_alloc_ucontext_resp, sges_per_recv_wr, U32),
	       F(qedr_alloc_ucontext_resp, sges_per_srq_wr, U32),
	       F(qedr_alloc_ucontext_resp, max_cqes, U32),
	       F(qedr_alloc_ucontext_resp, dpm_flags, U8),
	       F(qedr_alloc_ucontext_resp, wids_enabled, U8),
	       F(qedr_alloc_ucontext_resp, wid_count, U16),
	       F(qedr_alloc_ucontext_resp, ldpm_limit_size, U16),
	       F(qedr_alloc_ucontext_resp, edpm_trans_size, U8),
	       F(qedr_alloc_ucontext_resp, reserved, RSVD),
	       F(qedr_alloc_ucontext_resp, edpm_limit_size, U16),
	       F(qedr_alloc_ucontext_resp, padding, BYTES)),
	STRUCT(QEDR_ALLOC_PD_UREQ, qedr_alloc_pd_ureq,
	       F(qedr_alloc_pd_ureq, rsvd1, RSVD)),
	STRUCT(QEDR_ALLOC_PD_URESP, qedr_alloc_pd_uresp,
	       F(qedr_alloc_pd_uresp, pd_id, U32),
	       F(qedr_alloc_pd_uresp, reserved, RSVD)),
	STRUCT(QEDR_CREATE_CQ_UREQ, qedr_create_cq_ureq,
	       F(qedr_create_cq_ureq, addr, X64),
	       F(qedr_create_cq_ureq, len, X64)),
	STRUCT(QEDR_CREATE_CQ_URESP, qedr_create_cq_uresp,
	       F(qedr_create_cq_uresp, db_offset, U32),
	       F(qedr_create_cq_uresp, icid, U16),
	       F(qedr_create_cq_uresp, reserved, RSVD),
	       F(qedr_create_cq_uresp, db_rec_addr, X64)),
	STRUCT(QEDR_CREATE_QP_UREQ, qedr_create_qp_ureq,
	       F(qedr_create_qp_ureq, qp_handle_hi, U32),
	       F(qedr_create_qp_ureq, qp_handle_lo, U32),
	       F(qedr_create_qp_ureq, sq_addr, X64),
	       F(qedr_create_qp_ureq, sq_len, X64),
	       F(qedr_create_qp_ureq, rq_addr, X64),
	       F(qedr_create_qp_ureq, rq_len, X64)),
	STRUCT(QEDR_CREATE_QP_URESP, qedr_create_qp_uresp,
	       F(qedr_create_qp_uresp, qp_id, U32),
	       F(qedr_create_qp_uresp, atomic_supported, U32),
	       F(qedr_create_qp_uresp, sq_db_offset, U32),
	       F(qedr_create_qp_uresp, sq_icid, U16),
	       F(qedr_create_qp_uresp, rq_db_offset, U32),
	       F(qedr_create_qp_uresp, rq_icid, U16),
	       F(qedr_create_qp_uresp, rq_db2_offset, U32),
	       F(qedr_create_qp_uresp, reserved, RSVD),
	       F(qedr_create_qp_uresp, sq_db_rec_addr, X64),
	       F(qedr_create_qp_uresp, rq_db_rec_addr, X64)),
	STRUCT(QEDR_CREATE_SRQ_UREQ, qedr_create_srq_ureq,
	       F(qedr_create_srq_ureq, prod_pair_addr, X64),
	       F(qedr_create_srq_ureq, srq_addr, X64),
	       F(qedr_create_srq_ureq, srq_len, X64)),
	STRUCT(QEDR_CREATE_SRQ_URESP, qedr_create_srq_uresp,
	       F(qedr_create_srq_uresp, srq_id, U16),
	       F(qedr_create_srq_uresp, reserved0, RSVD),
	       F(qedr_create_srq_uresp, reserved1, RSVD)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, QEDR_ALLOC_UCONTEXT_REQ, QEDR_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, QEDR_ALLOC_UCONTEXT_REQ, QEDR_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, QEDR_ALLOC_PD_UREQ, QEDR_ALLOC_PD_URESP),
	UD_METHOD(CQ, CQ_CREATE, QEDR_CREATE_CQ_UREQ, QEDR_CREATE_CQ_URESP),
	UD_WRITE(CREATE_CQ, QEDR_CREATE_CQ_UREQ, QEDR_CREATE_CQ_URESP),
	UD_WRITE_EX(CREATE_CQ, QEDR_CREATE_CQ_UREQ, QEDR_CREATE_CQ_URESP),
	UD_METHOD(QP, QP_CREATE, QEDR_CREATE_QP_UREQ, QEDR_CREATE_QP_URESP),
	UD_WRITE(CREATE_QP, QEDR_CREATE_QP_UREQ, QEDR_CREATE_QP_URESP),
	UD_WRITE_EX(CREATE_QP, QEDR_CREATE_QP_UREQ, QEDR_CREATE_QP_URESP),
	UD_METHOD(SRQ, SRQ_CREATE, QEDR_CREATE_SRQ_UREQ, QEDR_CREATE_SRQ_URESP),
	UD_WRITE(CREATE_SRQ, QEDR_CREATE_SRQ_UREQ, QEDR_CREATE_SRQ_URESP),
	UD_WRITE(CREATE_XSRQ, QEDR_CREATE_SRQ_UREQ, QEDR_CREATE_SRQ_URESP),
};

const struct abi_driver abi_drv_qedr = {
	RDMA_DRIVER_QEDR, N(qedr), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
