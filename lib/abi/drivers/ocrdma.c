// SPDX-License-Identifier: MIT
/*
 * ocrdma (RDMA_DRIVER_OCRDMA, Emulex OneConnect) described as data: its
 * driver data (<rdma/ocrdma-abi.h>), as ocrdma uses it: the context's
 * device answer, ALLOC_PD's request (which the kernel does not read) and
 * answer, the CQ, QP and SRQ requests and answers (page addresses, doorbell
 * offsets, queue sizes). No ioctl namespace. The header is 5.10's.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ocrdma-abi.h>

#include "abi/abi.h"

typedef struct ocrdma_alloc_ucontext_resp ocrdma_alloc_ucontext_resp;
typedef struct ocrdma_alloc_pd_ureq ocrdma_alloc_pd_ureq;
typedef struct ocrdma_alloc_pd_uresp ocrdma_alloc_pd_uresp;
typedef struct ocrdma_create_cq_ureq ocrdma_create_cq_ureq;
typedef struct ocrdma_create_cq_uresp ocrdma_create_cq_uresp;
typedef struct ocrdma_create_qp_ureq ocrdma_create_qp_ureq;
typedef struct ocrdma_create_qp_uresp ocrdma_create_qp_uresp;
typedef struct ocrdma_create_srq_uresp ocrdma_create_srq_uresp;

_Static_assert(sizeof(ocrdma_alloc_ucontext_resp) == 80 &&
	       sizeof(ocrdma_alloc_pd_ureq) == 8 &&
	       sizeof(ocrdma_alloc_pd_uresp) == 24 &&
	       sizeof(ocrdma_create_cq_ureq) == 8 &&
	       sizeof(ocrdma_create_cq_uresp) == 112 &&
	       sizeof(ocrdma_create_qp_ureq) == 8 &&
	       sizeof(ocrdma_create_qp_uresp) == 280 &&
	       sizeof(ocrdma_create_srq_uresp) == 120,
	       "ocrdma-abi.h struct sizes");


enum {
	VT_OCRDMA_FIRST = ABI_VT_DRIVER_BASE(7),
	VT_OCRDMA_ALLOC_UCONTEXT_RESP = VT_OCRDMA_FIRST,
	VT_OCRDMA_ALLOC_PD_UREQ,
	VT_OCRDMA_ALLOC_PD_URESP,
	VT_OCRDMA_CREATE_CQ_UREQ,
	VT_OCRDMA_CREATE_CQ_URESP,
	VT_OCRDMA_CREATE_QP_UREQ,
	VT_OCRDMA_CREATE_QP_URESP,
	VT_OCRDMA_CREATE_SRQ_URESP,
	VT_OCRDMA__END
};

static const struct abi_vtype vtypes[VT_OCRDMA__END - VT_OCRDMA_FIRST] = {
	STRUCT(OCRDMA_ALLOC_UCONTEXT_RESP, ocrdma_alloc_ucontext_resp,
	       F(ocrdma_alloc_ucontext_resp, dev_id, U32),
	       F(ocrdma_alloc_ucontext_resp, wqe_size, U32),
	       F(ocrdma_alloc_ucontext_resp, max_inline_data, U32),
	       F(ocrdma_alloc_ucontext_resp, dpp_wqe_size, U32),
	       F(ocrdma_alloc_ucontext_resp, ah_tbl_page, X64),
	       F(ocrdma_alloc_ucontext_resp, ah_tbl_len, U32),
	       F(ocrdma_alloc_ucontext_resp, rqe_size, U32),
	       F(ocrdma_alloc_ucontext_resp, fw_ver, BYTES),
	       F(ocrdma_alloc_ucontext_resp, rsvd1, RSVD),
	       F(ocrdma_alloc_ucontext_resp, rsvd2, RSVD)),
	STRUCT(OCRDMA_ALLOC_PD_UREQ, ocrdma_alloc_pd_ureq,
	       F(ocrdma_alloc_pd_ureq, rsvd, RSVD)),
	STRUCT(OCRDMA_ALLOC_PD_URESP, ocrdma_alloc_pd_uresp,
	       F(ocrdma_alloc_pd_uresp, id, U32),
	       F(ocrdma_alloc_pd_uresp, dpp_enabled, U32),
	       F(ocrdma_alloc_pd_uresp, dpp_page_addr_hi, U32),
	       F(ocrdma_alloc_pd_uresp, dpp_page_addr_lo, U32),
	       F(ocrdma_alloc_pd_uresp, rsvd, RSVD)),
	STRUCT(OCRDMA_CREATE_CQ_UREQ, ocrdma_create_cq_ureq,
	       F(ocrdma_create_cq_ureq, dpp_cq, U32),
	       F(ocrdma_create_cq_ureq, rsvd, RSVD)),
	STRUCT(OCRDMA_CREATE_CQ_URESP, ocrdma_create_cq_uresp,
	       F(ocrdma_create_cq_uresp, cq_id, U32),
	       F(ocrdma_create_cq_uresp, page_size, U32),
	       F(ocrdma_create_cq_uresp, num_pages, U32),
	       F(ocrdma_create_cq_uresp, max_hw_cqe, U32),
	       F(ocrdma_create_cq_uresp, page_addr, BYTES),
	       F(ocrdma_create_cq_uresp, db_page_addr, X64),
	       F(ocrdma_create_cq_uresp, db_page_size, U32),
	       F(ocrdma_create_cq_uresp, phase_change, U32),
	       F(ocrdma_create_cq_uresp, rsvd1, RSVD),
	       F(ocrdma_create_cq_uresp, rsvd2, RSVD)),
	STRUCT(OCRDMA_CREATE_QP_UREQ, ocrdma_create_qp_ureq,
	       F(ocrdma_create_qp_ureq, enable_dpp_cq, U8),
	       F(ocrdma_create_qp_ureq, rsvd, RSVD),
	       F(ocrdma_create_qp_ureq, dpp_cq_id, U16),
	       F(ocrdma_create_qp_ureq, rsvd1, RSVD)),
	STRUCT(OCRDMA_CREATE_QP_URESP, ocrdma_create_qp_uresp,
	       F(ocrdma_create_qp_uresp, qp_id, U16),
	       F(ocrdma_create_qp_uresp, sq_dbid, U16),
	       F(ocrdma_create_qp_uresp, rq_dbid, U16),
	       F(ocrdma_create_qp_uresp, resv0, RSVD),
	       F(ocrdma_create_qp_uresp, sq_page_size, U32),
	       F(ocrdma_create_qp_uresp, rq_page_size, U32),
	       F(ocrdma_create_qp_uresp, num_sq_pages, U32),
	       F(ocrdma_create_qp_uresp, num_rq_pages, U32),
	       F(ocrdma_create_qp_uresp, sq_page_addr, BYTES),
	       F(ocrdma_create_qp_uresp, rq_page_addr, BYTES),
	       F(ocrdma_create_qp_uresp, db_page_addr, X64),
	       F(ocrdma_create_qp_uresp, db_page_size, U32),
	       F(ocrdma_create_qp_uresp, dpp_credit, U32),
	       F(ocrdma_create_qp_uresp, dpp_offset, U32),
	       F(ocrdma_create_qp_uresp, num_wqe_allocated, U32),
	       F(ocrdma_create_qp_uresp, num_rqe_allocated, U32),
	       F(ocrdma_create_qp_uresp, db_sq_offset, U32),
	       F(ocrdma_create_qp_uresp, db_rq_offset, U32),
	       F(ocrdma_create_qp_uresp, db_shift, U32),
	       F(ocrdma_create_qp_uresp, rsvd, RSVD)),
	STRUCT(OCRDMA_CREATE_SRQ_URESP, ocrdma_create_srq_uresp,
	       F(ocrdma_create_srq_uresp, rq_dbid, U16),
	       F(ocrdma_create_srq_uresp, resv0, RSVD),
	       F(ocrdma_create_srq_uresp, resv1, RSVD),
	       F(ocrdma_create_srq_uresp, rq_page_size, U32),
	       F(ocrdma_create_srq_uresp, num_rq_pages, U32),
	       F(ocrdma_create_srq_uresp, rq_page_addr, BYTES),
	       F(ocrdma_create_srq_uresp, db_page_addr, X64),
	       F(ocrdma_create_srq_uresp, db_page_size, U32),
	       F(ocrdma_create_srq_uresp, num_rqe_allocated, U32),
	       F(ocrdma_create_srq_uresp, db_rq_offset, U32),
	       F(ocrdma_create_srq_uresp, db_shift, U32),
	       F(ocrdma_create_srq_uresp, rsvd2, RSVD),
	       F(ocrdma_create_srq_uresp, rsvd3, RSVD)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, OCRDMA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, NONE, OCRDMA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, OCRDMA_ALLOC_PD_UREQ, OCRDMA_ALLOC_PD_URESP),
	UD_METHOD(CQ, CQ_CREATE, OCRDMA_CREATE_CQ_UREQ, OCRDMA_CREATE_CQ_URESP),
	UD_WRITE(CREATE_CQ, OCRDMA_CREATE_CQ_UREQ, OCRDMA_CREATE_CQ_URESP),
	UD_WRITE_EX(CREATE_CQ, OCRDMA_CREATE_CQ_UREQ, OCRDMA_CREATE_CQ_URESP),
	UD_METHOD(QP, QP_CREATE, OCRDMA_CREATE_QP_UREQ, OCRDMA_CREATE_QP_URESP),
	UD_WRITE(CREATE_QP, OCRDMA_CREATE_QP_UREQ, OCRDMA_CREATE_QP_URESP),
	UD_WRITE_EX(CREATE_QP, OCRDMA_CREATE_QP_UREQ, OCRDMA_CREATE_QP_URESP),
	UD_METHOD(SRQ, SRQ_CREATE, NONE, OCRDMA_CREATE_SRQ_URESP),
	UD_WRITE(CREATE_SRQ, NONE, OCRDMA_CREATE_SRQ_URESP),
	UD_WRITE(CREATE_XSRQ, NONE, OCRDMA_CREATE_SRQ_URESP),
};

const struct abi_driver abi_drv_ocrdma = {
	RDMA_DRIVER_OCRDMA, N(ocrdma), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
