// SPDX-License-Identifier: MIT
/*
 * hns (RDMA_DRIVER_HNS, HiSilicon RoCE) described as data: its driver data
 * (<rdma/hns-abi.h>), as hns_roce uses it: the context's request (config,
 * 5.19) and answer (QP table size, CQE size, SRQ table, config, inline size
 * from 5.19), the PD number, the CQ, QP and SRQ requests (buffers, record
 * doorbells) and answers (numbers, capability flags, the direct WQE key of
 * 5.18). No ioctl namespace. What 5.10's header lacks, by offset.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/hns-abi.h>
#include "abi/uapi.h"

#include "abi/abi.h"

typedef struct hns_roce_ib_alloc_pd_resp hns_alloc_pd_resp;
typedef struct hns_roce_ib_create_cq hns_create_cq;
typedef struct hns_roce_ib_create_cq_resp hns_create_cq_resp;
typedef struct hns_roce_ib_create_qp hns_create_qp;
typedef struct hns_roce_ib_create_srq hns_create_srq;
typedef struct hns_roce_ib_create_srq_resp hns_create_srq_resp;

_Static_assert(sizeof(hns_alloc_pd_resp) == 4 &&
	       sizeof(hns_create_cq) == 24 &&
	       sizeof(hns_create_cq_resp) == 16 &&
	       sizeof(hns_create_qp) == 32 &&
	       sizeof(hns_create_srq) == 24 &&
	       sizeof(hns_create_srq_resp) == 8,
	       "hns-abi.h struct sizes");

/* Structs by offset, as of the headers that last changed them; checked
 * against the system header where it has them. */
#if UVIO_SYS_UAPI_6_1
_Static_assert(sizeof(struct hns_roce_ib_alloc_ucontext) >= 8 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext, config) == 0 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext, reserved) == 4, "hns_roce_ib_alloc_ucontext");
_Static_assert(sizeof(struct hns_roce_ib_alloc_ucontext_resp) >= 24 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext_resp, qp_tab_size) == 0 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext_resp, cqe_size) == 4 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext_resp, srq_tab_size) == 8 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext_resp, reserved) == 12 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext_resp, config) == 16 &&
	       offsetof(struct hns_roce_ib_alloc_ucontext_resp, max_inline_data) == 20, "hns_roce_ib_alloc_ucontext_resp");
_Static_assert(sizeof(struct hns_roce_ib_create_qp_resp) >= 16 &&
	       offsetof(struct hns_roce_ib_create_qp_resp, cap_flags) == 0 &&
	       offsetof(struct hns_roce_ib_create_qp_resp, dwqe_mmap_key) == 8, "hns_roce_ib_create_qp_resp");
#endif


enum {
	VT_HNS_FIRST = ABI_VT_DRIVER_BASE(12),
	VT_HNS_ALLOC_UCONTEXT = VT_HNS_FIRST,
	VT_HNS_ALLOC_UCONTEXT_RESP,
	VT_HNS_ALLOC_PD_RESP,
	VT_HNS_CREATE_CQ,
	VT_HNS_CREATE_CQ_RESP,
	VT_HNS_CREATE_QP,
	VT_HNS_CREATE_QP_RESP,
	VT_HNS_CREATE_SRQ,
	VT_HNS_CREATE_SRQ_RESP,
	VT_HNS__END
};

static const struct abi_vtype vtypes[VT_HNS__END - VT_HNS_FIRST] = {
	STRUCT_SZ(HNS_ALLOC_UCONTEXT, hns_alloc_ucontext, 8,
		  FO(config, 0, 4, U32),
		  FO(reserved, 4, 4, RSVD)),
	STRUCT_SZ(HNS_ALLOC_UCONTEXT_RESP, hns_alloc_ucontext_resp, 24,
		  FO(qp_tab_size, 0, 4, U32),
		  FO(cqe_size, 4, 4, U32),
		  FO(srq_tab_size, 8, 4, U32),
		  FO(reserved, 12, 4, RSVD),
		  FO(config, 16, 4, U32),
		  FO(max_inline_data, 20, 4, U32)),
	STRUCT(HNS_ALLOC_PD_RESP, hns_alloc_pd_resp,
	       F(hns_alloc_pd_resp, pdn, U32)),
	STRUCT(HNS_CREATE_CQ, hns_create_cq,
	       F(hns_create_cq, buf_addr, X64),
	       F(hns_create_cq, db_addr, X64),
	       F(hns_create_cq, cqe_size, U32),
	       F(hns_create_cq, reserved, RSVD)),
	STRUCT(HNS_CREATE_CQ_RESP, hns_create_cq_resp,
	       F(hns_create_cq_resp, cqn, U64),
	       F(hns_create_cq_resp, cap_flags, X64)),
	STRUCT(HNS_CREATE_QP, hns_create_qp,
	       F(hns_create_qp, buf_addr, X64),
	       F(hns_create_qp, db_addr, X64),
	       F(hns_create_qp, log_sq_bb_count, U8),
	       F(hns_create_qp, log_sq_stride, U8),
	       F(hns_create_qp, sq_no_prefetch, U8),
	       F(hns_create_qp, reserved, RSVD),
	       F(hns_create_qp, sdb_addr, X64)),
	STRUCT_SZ(HNS_CREATE_QP_RESP, hns_create_qp_resp, 16,
		  FO(cap_flags, 0, 8, X64),
		  FO(dwqe_mmap_key, 8, 8, X64)),
	STRUCT(HNS_CREATE_SRQ, hns_create_srq,
	       F(hns_create_srq, buf_addr, X64),
	       F(hns_create_srq, db_addr, X64),
	       F(hns_create_srq, que_addr, X64)),
	STRUCT(HNS_CREATE_SRQ_RESP, hns_create_srq_resp,
	       F(hns_create_srq_resp, srqn, U32),
	       F(hns_create_srq_resp, reserved, RSVD)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, HNS_ALLOC_UCONTEXT, HNS_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, HNS_ALLOC_UCONTEXT, HNS_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, HNS_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, HNS_CREATE_CQ, HNS_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, HNS_CREATE_CQ, HNS_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, HNS_CREATE_CQ, HNS_CREATE_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, HNS_CREATE_QP, HNS_CREATE_QP_RESP),
	UD_WRITE(CREATE_QP, HNS_CREATE_QP, HNS_CREATE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, HNS_CREATE_QP, HNS_CREATE_QP_RESP),
	UD_METHOD(SRQ, SRQ_CREATE, HNS_CREATE_SRQ, HNS_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, HNS_CREATE_SRQ, HNS_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, HNS_CREATE_SRQ, HNS_CREATE_SRQ_RESP),
};

const struct abi_driver abi_drv_hns = {
	RDMA_DRIVER_HNS, N(hns), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
