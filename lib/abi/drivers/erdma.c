// SPDX-License-Identifier: MIT
/*
 * erdma (RDMA_DRIVER_ERDMA, Alibaba Elastic RDMA) described as data: its
 * driver data (<rdma/erdma-abi.h>, 5.17 on), as erdma uses it: the
 * context's answer (device id, doorbell offsets), the CQ and QP requests
 * (queue and doorbell record addresses) and answers (ids, doorbell
 * offsets). No ioctl namespace. Every struct by offset, as 6.1's header
 * lays it out (5.10 has none), checked against the system's header where it
 * has one.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include "abi/uapi.h"
#if __has_include(<rdma/erdma-abi.h>)
#include <rdma/erdma-abi.h>
#define UVIO_HAVE_ERDMA_ABI_H 1
#endif

/* RDMA_DRIVER_ERDMA: 19, from 5.17's headers on */
#define UVIO_RDMA_DRIVER_ERDMA 19
#if UVIO_SYS_UAPI_6_1
UVIO_UAPI_CHECK(RDMA_DRIVER_ERDMA, UVIO_RDMA_DRIVER_ERDMA);
#endif

#include "abi/abi.h"



/* Structs by offset, as of the headers that last changed them; checked
 * against the system header where it has them. */
#if defined(UVIO_HAVE_ERDMA_ABI_H)
_Static_assert(sizeof(struct erdma_uresp_alloc_ctx) >= 40 &&
	       offsetof(struct erdma_uresp_alloc_ctx, dev_id) == 0 &&
	       offsetof(struct erdma_uresp_alloc_ctx, pad) == 4 &&
	       offsetof(struct erdma_uresp_alloc_ctx, sdb_type) == 8 &&
	       offsetof(struct erdma_uresp_alloc_ctx, sdb_offset) == 12 &&
	       offsetof(struct erdma_uresp_alloc_ctx, sdb) == 16 &&
	       offsetof(struct erdma_uresp_alloc_ctx, rdb) == 24 &&
	       offsetof(struct erdma_uresp_alloc_ctx, cdb) == 32, "erdma_uresp_alloc_ctx");
_Static_assert(sizeof(struct erdma_ureq_create_cq) >= 24 &&
	       offsetof(struct erdma_ureq_create_cq, db_record_va) == 0 &&
	       offsetof(struct erdma_ureq_create_cq, qbuf_va) == 8 &&
	       offsetof(struct erdma_ureq_create_cq, qbuf_len) == 16 &&
	       offsetof(struct erdma_ureq_create_cq, rsvd0) == 20, "erdma_ureq_create_cq");
_Static_assert(sizeof(struct erdma_uresp_create_cq) >= 8 &&
	       offsetof(struct erdma_uresp_create_cq, cq_id) == 0 &&
	       offsetof(struct erdma_uresp_create_cq, num_cqe) == 4, "erdma_uresp_create_cq");
_Static_assert(sizeof(struct erdma_ureq_create_qp) >= 24 &&
	       offsetof(struct erdma_ureq_create_qp, db_record_va) == 0 &&
	       offsetof(struct erdma_ureq_create_qp, qbuf_va) == 8 &&
	       offsetof(struct erdma_ureq_create_qp, qbuf_len) == 16 &&
	       offsetof(struct erdma_ureq_create_qp, rsvd0) == 20, "erdma_ureq_create_qp");
_Static_assert(sizeof(struct erdma_uresp_create_qp) >= 16 &&
	       offsetof(struct erdma_uresp_create_qp, qp_id) == 0 &&
	       offsetof(struct erdma_uresp_create_qp, num_sqe) == 4 &&
	       offsetof(struct erdma_uresp_create_qp, num_rqe) == 8 &&
	       offsetof(struct erdma_uresp_create_qp, rq_offset) == 12, "erdma_uresp_create_qp");
#endif


enum {
	VT_ERDMA_FIRST = ABI_VT_DRIVER_BASE(14),
	VT_ERDMA_URESP_ALLOC_CTX = VT_ERDMA_FIRST,
	VT_ERDMA_UREQ_CREATE_CQ,
	VT_ERDMA_URESP_CREATE_CQ,
	VT_ERDMA_UREQ_CREATE_QP,
	VT_ERDMA_URESP_CREATE_QP,
	VT_ERDMA__END
};

static const struct abi_vtype vtypes[VT_ERDMA__END - VT_ERDMA_FIRST] = {
	STRUCT_SZ(ERDMA_URESP_ALLOC_CTX, erdma_uresp_alloc_ctx, 40,
		  FO(dev_id, 0, 4, U32),
		  FO(pad, 4, 4, RSVD),
		  FO(sdb_type, 8, 4, U32),
		  FO(sdb_offset, 12, 4, U32),
		  FO(sdb, 16, 8, X64),
		  FO(rdb, 24, 8, X64),
		  FO(cdb, 32, 8, X64)),
	STRUCT_SZ(ERDMA_UREQ_CREATE_CQ, erdma_ureq_create_cq, 24,
		  FO(db_record_va, 0, 8, X64),
		  FO(qbuf_va, 8, 8, X64),
		  FO(qbuf_len, 16, 4, U32),
		  FO(rsvd0, 20, 4, RSVD)),
	STRUCT_SZ(ERDMA_URESP_CREATE_CQ, erdma_uresp_create_cq, 8,
		  FO(cq_id, 0, 4, U32),
		  FO(num_cqe, 4, 4, U32)),
	STRUCT_SZ(ERDMA_UREQ_CREATE_QP, erdma_ureq_create_qp, 24,
		  FO(db_record_va, 0, 8, X64),
		  FO(qbuf_va, 8, 8, X64),
		  FO(qbuf_len, 16, 4, U32),
		  FO(rsvd0, 20, 4, RSVD)),
	STRUCT_SZ(ERDMA_URESP_CREATE_QP, erdma_uresp_create_qp, 16,
		  FO(qp_id, 0, 4, U32),
		  FO(num_sqe, 4, 4, U32),
		  FO(num_rqe, 8, 4, U32),
		  FO(rq_offset, 12, 4, U32)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, ERDMA_URESP_ALLOC_CTX),
	UD_WRITE(GET_CONTEXT, NONE, ERDMA_URESP_ALLOC_CTX),
	UD_METHOD(CQ, CQ_CREATE, ERDMA_UREQ_CREATE_CQ, ERDMA_URESP_CREATE_CQ),
	UD_WRITE(CREATE_CQ, ERDMA_UREQ_CREATE_CQ, ERDMA_URESP_CREATE_CQ),
	UD_WRITE_EX(CREATE_CQ, ERDMA_UREQ_CREATE_CQ, ERDMA_URESP_CREATE_CQ),
	UD_METHOD(QP, QP_CREATE, ERDMA_UREQ_CREATE_QP, ERDMA_URESP_CREATE_QP),
	UD_WRITE(CREATE_QP, ERDMA_UREQ_CREATE_QP, ERDMA_URESP_CREATE_QP),
	UD_WRITE_EX(CREATE_QP, ERDMA_UREQ_CREATE_QP, ERDMA_URESP_CREATE_QP),
};

const struct abi_driver abi_drv_erdma = {
	UVIO_RDMA_DRIVER_ERDMA, N(erdma), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
