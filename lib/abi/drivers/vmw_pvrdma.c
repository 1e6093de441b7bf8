// SPDX-License-Identifier: MIT
/*
 * vmw_pvrdma (RDMA_DRIVER_VMW_PVRDMA, VMware paravirtual RDMA) described as
 * data: its driver data (<rdma/vmw_pvrdma-abi.h>), as vmw_pvrdma uses it:
 * the context's QP table size, the PD number, the ring buffers of CREATE_CQ,
 * CREATE_SRQ and CREATE_QP in and the CQ, SRQ and QP numbers out. No ioctl
 * namespace. The header is 5.10's.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/vmw_pvrdma-abi.h>

#include "abi/abi.h"

typedef struct pvrdma_alloc_ucontext_resp pvrdma_alloc_ucontext_resp;
typedef struct pvrdma_alloc_pd_resp pvrdma_alloc_pd_resp;
typedef struct pvrdma_create_cq pvrdma_create_cq;
typedef struct pvrdma_create_cq_resp pvrdma_create_cq_resp;
typedef struct pvrdma_create_srq pvrdma_create_srq;
typedef struct pvrdma_create_srq_resp pvrdma_create_srq_resp;
typedef struct pvrdma_create_qp pvrdma_create_qp;
typedef struct pvrdma_create_qp_resp pvrdma_create_qp_resp;

_Static_assert(sizeof(pvrdma_alloc_ucontext_resp) == 8 &&
	       sizeof(pvrdma_alloc_pd_resp) == 8 &&
	       sizeof(pvrdma_create_cq) == 16 &&
	       sizeof(pvrdma_create_cq_resp) == 8 &&
	       sizeof(pvrdma_create_srq) == 16 &&
	       sizeof(pvrdma_create_srq_resp) == 8 &&
	       sizeof(pvrdma_create_qp) == 32 &&
	       sizeof(pvrdma_create_qp_resp) == 8,
	       "vmw_pvrdma-abi.h struct sizes");


enum {
	VT_VMW_PVRDMA_FIRST = ABI_VT_DRIVER_BASE(9),
	VT_PVRDMA_ALLOC_UCONTEXT_RESP = VT_VMW_PVRDMA_FIRST,
	VT_PVRDMA_ALLOC_PD_RESP,
	VT_PVRDMA_CREATE_CQ,
	VT_PVRDMA_CREATE_CQ_RESP,
	VT_PVRDMA_CREATE_SRQ,
	VT_PVRDMA_CREATE_SRQ_RESP,
	VT_PVRDMA_CREATE_QP,
	VT_PVRDMA_CREATE_QP_RESP,
	VT_VMW_PVRDMA__END
};

static const struct abi_vtype vtypes[VT_VMW_PVRDMA__END - VT_VMW_PVRDMA_FIRST] = {
	STRUCT(PVRDMA_ALLOC_UCONTEXT_RESP, pvrdma_alloc_ucontext_resp,
	       F(pvrdma_alloc_ucontext_resp, qp_tab_size, U32),
	       F(pvrdma_alloc_ucontext_resp, reserved, RSVD)),
	STRUCT(PVRDMA_ALLOC_PD_RESP, pvrdma_alloc_pd_resp,
	       F(pvrdma_alloc_pd_resp, pdn, U32),
	       F(pvrdma_alloc_pd_resp, reserved, RSVD)),
	STRUCT(PVRDMA_CREATE_CQ, pvrdma_create_cq,
	       F(pvrdma_create_cq, buf_addr, X64),
	       F(pvrdma_create_cq, buf_size, U32),
	       F(pvrdma_create_cq, reserved, RSVD)),
	STRUCT(PVRDMA_CREATE_CQ_RESP, pvrdma_create_cq_resp,
	       F(pvrdma_create_cq_resp, cqn, U32),
	       F(pvrdma_create_cq_resp, reserved, RSVD)),
	STRUCT(PVRDMA_CREATE_SRQ, pvrdma_create_srq,
	       F(pvrdma_create_srq, buf_addr, X64),
	       F(pvrdma_create_srq, buf_size, U32),
	       F(pvrdma_create_srq, reserved, RSVD)),
	STRUCT(PVRDMA_CREATE_SRQ_RESP, pvrdma_create_srq_resp,
	       F(pvrdma_create_srq_resp, srqn, U32),
	       F(pvrdma_create_srq_resp, reserved, RSVD)),
	STRUCT(PVRDMA_CREATE_QP, pvrdma_create_qp,
	       F(pvrdma_create_qp, rbuf_addr, X64),
	       F(pvrdma_create_qp, sbuf_addr, X64),
	       F(pvrdma_create_qp, rbuf_size, U32),
	       F(pvrdma_create_qp, sbuf_size, U32),
	       F(pvrdma_create_qp, qp_addr, X64)),
	STRUCT(PVRDMA_CREATE_QP_RESP, pvrdma_create_qp_resp,
	       F(pvrdma_create_qp_resp, qpn, U32),
	       F(pvrdma_create_qp_resp, qp_handle, U32)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, PVRDMA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, NONE, PVRDMA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, PVRDMA_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, PVRDMA_CREATE_CQ, PVRDMA_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, PVRDMA_CREATE_CQ, PVRDMA_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, PVRDMA_CREATE_CQ, PVRDMA_CREATE_CQ_RESP),
	UD_METHOD(SRQ, SRQ_CREATE, PVRDMA_CREATE_SRQ, PVRDMA_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, PVRDMA_CREATE_SRQ, PVRDMA_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, PVRDMA_CREATE_SRQ, PVRDMA_CREATE_SRQ_RESP),
	UD_METHOD(QP, QP_CREATE, PVRDMA_CREATE_QP, PVRDMA_CREATE_QP_RESP),
	UD_WRITE(CREATE_QP, PVRDMA_CREATE_QP, PVRDMA_CREATE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, PVRDMA_CREATE_QP, PVRDMA_CREATE_QP_RESP),
};

const struct abi_driver abi_drv_vmw_pvrdma = {
	RDMA_DRIVER_VMW_PVRDMA, N(vmw_pvrdma), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
