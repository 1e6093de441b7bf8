// SPDX-License-Identifier: MIT
/*
 * bnxt_re (RDMA_DRIVER_BNXT_RE, Broadcom NetXtreme-E) described as data: its
 * driver data (<rdma/bnxt_re-abi.h>), as bnxt_re uses it: the context's
 * answer (chip, page and queue limits; the WQE mode from 6.1's header on),
 * the PD's doorbell page, the CQ, QP and SRQ requests (buffers, handles)
 * and answers (ids). Its ioctl namespace (BNXT_RE_OBJECT_ALLOC_PAGE,
 * NOTIFY_DRV, GET_TOGGLE_MEM) came after 6.1's header and is not
 * described. bnxt_re_uctx_resp by offset (5.10's lacks mode).
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/bnxt_re-abi.h>
#include "abi/uapi.h"

#include "abi/abi.h"

typedef struct bnxt_re_pd_resp bnxt_re_pd_resp;
typedef struct bnxt_re_cq_req bnxt_re_cq_req;
typedef struct bnxt_re_cq_resp bnxt_re_cq_resp;
typedef struct bnxt_re_qp_req bnxt_re_qp_req;
typedef struct bnxt_re_qp_resp bnxt_re_qp_resp;
typedef struct bnxt_re_srq_req bnxt_re_srq_req;
typedef struct bnxt_re_srq_resp bnxt_re_srq_resp;

_Static_assert(sizeof(bnxt_re_pd_resp) == 16 &&
	       sizeof(bnxt_re_cq_req) == 16 &&
	       sizeof(bnxt_re_cq_resp) == 16 &&
	       sizeof(bnxt_re_qp_req) == 24 &&
	       sizeof(bnxt_re_qp_resp) == 8 &&
	       sizeof(bnxt_re_srq_req) == 16 &&
	       sizeof(bnxt_re_srq_resp) == 4,
	       "bnxt_re-abi.h struct sizes");

/* Structs by offset, as of the headers that last changed them; checked
 * against the system header where it has them. */
#if UVIO_SYS_UAPI_6_1
_Static_assert(sizeof(struct bnxt_re_uctx_resp) >= 48 &&
	       offsetof(struct bnxt_re_uctx_resp, dev_id) == 0 &&
	       offsetof(struct bnxt_re_uctx_resp, max_qp) == 4 &&
	       offsetof(struct bnxt_re_uctx_resp, pg_size) == 8 &&
	       offsetof(struct bnxt_re_uctx_resp, cqe_sz) == 12 &&
	       offsetof(struct bnxt_re_uctx_resp, max_cqd) == 16 &&
	       offsetof(struct bnxt_re_uctx_resp, rsvd) == 20 &&
	       offsetof(struct bnxt_re_uctx_resp, comp_mask) == 24 &&
	       offsetof(struct bnxt_re_uctx_resp, chip_id0) == 32 &&
	       offsetof(struct bnxt_re_uctx_resp, chip_id1) == 36 &&
	       offsetof(struct bnxt_re_uctx_resp, mode) == 40 &&
	       offsetof(struct bnxt_re_uctx_resp, rsvd1) == 44, "bnxt_re_uctx_resp");
#endif


enum {
	VT_BNXT_RE_FIRST = ABI_VT_DRIVER_BASE(10),
	VT_BNXT_RE_UCTX_RESP = VT_BNXT_RE_FIRST,
	VT_BNXT_RE_PD_RESP,
	VT_BNXT_RE_CQ_REQ,
	VT_BNXT_RE_CQ_RESP,
	VT_BNXT_RE_QP_REQ,
	VT_BNXT_RE_QP_RESP,
	VT_BNXT_RE_SRQ_REQ,
	VT_BNXT_RE_SRQ_RESP,
	VT_BNXT_RE__END
};

static const struct abi_vtype vtypes[VT_BNXT_RE__END - VT_BNXT_RE_FIRST] = {
	STRUCT_SZ(BNXT_RE_UCTX_RESP, bnxt_re_uctx_resp, 48,
		  FO(dev_id, 0, 4, U32),
		  FO(max_qp, 4, 4, U32),
		  FO(pg_size, 8, 4, U32),
		  FO(cqe_sz, 12, 4, U32),
		  FO(max_cqd, 16, 4, U32),
		  FO(rsvd, 20, 4, RSVD),
		  FO(comp_mask, 24, 8, X64),
		  FO(chip_id0, 32, 4, U32),
		  FO(chip_id1, 36, 4, U32),
		  FO(mode, 40, 4, U32),
		  FO(rsvd1, 44, 4, RSVD)),
	STRUCT(BNXT_RE_PD_RESP, bnxt_re_pd_resp,
	       F(bnxt_re_pd_resp, pdid, U32),
	       F(bnxt_re_pd_resp, dpi, U32),
	       F(bnxt_re_pd_resp, dbr, X64)),
	STRUCT(BNXT_RE_CQ_REQ, bnxt_re_cq_req,
	       F(bnxt_re_cq_req, cq_va, X64),
	       F(bnxt_re_cq_req, cq_handle, X64)),
	STRUCT(BNXT_RE_CQ_RESP, bnxt_re_cq_resp,
	       F(bnxt_re_cq_resp, cqid, U32),
	       F(bnxt_re_cq_resp, tail, U32),
	       F(bnxt_re_cq_resp, phase, U32),
	       F(bnxt_re_cq_resp, rsvd, RSVD)),
	STRUCT(BNXT_RE_QP_REQ, bnxt_re_qp_req,
	       F(bnxt_re_qp_req, qpsva, X64),
	       F(bnxt_re_qp_req, qprva, X64),
	       F(bnxt_re_qp_req, qp_handle, X64)),
	STRUCT(BNXT_RE_QP_RESP, bnxt_re_qp_resp,
	       F(bnxt_re_qp_resp, qpid, U32),
	       F(bnxt_re_qp_resp, rsvd, RSVD)),
	STRUCT(BNXT_RE_SRQ_REQ, bnxt_re_srq_req,
	       F(bnxt_re_srq_req, srqva, X64),
	       F(bnxt_re_srq_req, srq_handle, X64)),
	STRUCT(BNXT_RE_SRQ_RESP, bnxt_re_srq_resp,
	       F(bnxt_re_srq_resp, srqid, U32)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, BNXT_RE_UCTX_RESP),
	UD_WRITE(GET_CONTEXT, NONE, BNXT_RE_UCTX_RESP),
	UD_WRITE(ALLOC_PD, NONE, BNXT_RE_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, BNXT_RE_CQ_REQ, BNXT_RE_CQ_RESP),
	UD_WRITE(CREATE_CQ, BNXT_RE_CQ_REQ, BNXT_RE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, BNXT_RE_CQ_REQ, BNXT_RE_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, BNXT_RE_QP_REQ, BNXT_RE_QP_RESP),
	UD_WRITE(CREATE_QP, BNXT_RE_QP_REQ, BNXT_RE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, BNXT_RE_QP_REQ, BNXT_RE_QP_RESP),
	UD_METHOD(SRQ, SRQ_CREATE, BNXT_RE_SRQ_REQ, BNXT_RE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, BNXT_RE_SRQ_REQ, BNXT_RE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, BNXT_RE_SRQ_REQ, BNXT_RE_SRQ_RESP),
};

const struct abi_driver abi_drv_bnxt_re = {
	RDMA_DRIVER_BNXT_RE, N(bnxt_re), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
