// SPDX-License-Identifier: MIT
/*
 * ionic (RDMA_DRIVER_IONIC, 21: AMD Pensando, from Linux 7.0's headers)
 * described as data: its driver data as Linux 7.2's <rdma/ionic-abi.h>
 * lays it out, as ionic uses it: GET_CONTEXT's request (reserved words the
 * driver requires zero) and answer (the doorbell page, queue types,
 * opcodes, the strides and doorbell sizes it takes), CREATE_AH's AH id,
 * CREATE_CQ's two queue descriptors and answer (CQ ids), CREATE_QP's send
 * and receive queue descriptors (spec, controller memory) and answer. ionic
 * has no SRQ in 7.2, and the header's SRQ structs go unused. No supported
 * system has the header: every struct by offset.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>

#include "abi/uapi.h"

#include "abi/abi.h"

enum {
	VT_IONIC_FIRST = ABI_VT_DRIVER_BASE(16),
	VT_IONIC_CTX_REQ = VT_IONIC_FIRST, VT_IONIC_CTX_RESP, VT_IONIC_QDESC, VT_IONIC_AH_RESP,
	VT_IONIC_CQ_REQ, VT_IONIC_CQ_RESP, VT_IONIC_QP_REQ, VT_IONIC_QP_RESP, VT_IONIC_CMB,
	VT_IONIC_EXPDB,
	VT_IONIC__END
};

static const struct abi_vtype vtypes[VT_IONIC__END - VT_IONIC_FIRST] = {
	STRUCT_SZ(IONIC_CTX_REQ, ionic_ctx_req, 8, FO(rsvd, 0, 8, RSVD)),
	STRUCT_SZ(IONIC_CTX_RESP, ionic_ctx_resp, 32,
		  FO(rsvd, 0, 4, RSVD),
		  FO(page_shift, 4, 4, U32),
		  FO(dbell_offset, 8, 8, X64),
		  FO(version, 16, 2, U16),
		  FO(qp_opcodes, 18, 1, U8),
		  FO(admin_opcodes, 19, 1, U8),
		  FO(sq_qtype, 20, 1, U8),
		  FO(rq_qtype, 21, 1, U8),
		  FO(cq_qtype, 22, 1, U8),
		  FO(admin_qtype, 23, 1, U8),
		  FO(max_stride, 24, 1, U8),
		  FO(max_spec, 25, 1, U8),
		  FO(udma_count, 26, 1, U8),
		  FO(expdb_mask, 27, 1, IONIC_EXPDB),
		  FO(expdb_qtypes, 28, 1, U8),
		  FO(rsvd2, 29, 3, RSVD)),
	STRUCT_SZ(IONIC_QDESC, ionic_qdesc, 16,
		  FO(addr, 0, 8, X64),
		  FO(size, 8, 4, U32),
		  FO(mask, 12, 2, U16),
		  FO(depth_log2, 14, 1, U8),
		  FO(stride_log2, 15, 1, U8)),
	STRUCT_SZ(IONIC_AH_RESP, ionic_ah_resp, 8, FO(ahid, 0, 4, U32), FO(pad, 4, 4, RSVD)),
	STRUCT_SZ(IONIC_CQ_REQ, ionic_cq_req, 40,
		  FO(cq0, 0, 16, IONIC_QDESC),
		  FO(cq1, 16, 16, IONIC_QDESC),
		  FO(udma_mask, 32, 1, U8),
		  FO(rsvd, 33, 7, RSVD)),
	STRUCT_SZ(IONIC_CQ_RESP, ionic_cq_resp, 16,
		  FO(cqid, 0, 8, U32),
		  FO(udma_mask, 8, 1, U8),
		  FO(rsvd, 9, 7, RSVD)),
	STRUCT_SZ(IONIC_QP_REQ, ionic_qp_req, 40,
		  FO(sq, 0, 16, IONIC_QDESC),
		  FO(rq, 16, 16, IONIC_QDESC),
		  FO(sq_spec, 32, 1, U8),
		  FO(rq_spec, 33, 1, U8),
		  FO(sq_cmb, 34, 1, IONIC_CMB),
		  FO(rq_cmb, 35, 1, IONIC_CMB),
		  FO(udma_mask, 36, 1, U8),
		  FO(rsvd, 37, 3, RSVD)),
	STRUCT_SZ(IONIC_QP_RESP, ionic_qp_resp, 24,
		  FO(qpid, 0, 4, U32),
		  FO(sq_cmb, 4, 1, IONIC_CMB),
		  FO(rq_cmb, 5, 1, IONIC_CMB),
		  FO(udma_idx, 6, 1, U8),
		  FO(rsvd, 7, 1, RSVD),
		  FO(sq_cmb_offset, 8, 8, X64),
		  FO(rq_cmb_offset, 16, 8, X64)),
	/* IONIC_CMB_*: a queue in the device's controller memory */
	FLAGS(IONIC_CMB, ionic_cmb,
	      B(0x1, ENABLE), B(0x2, REQUIRE), B(0x4, EXPDB), B(0x8, WC), B(0x10, UC)),
	/* IONIC_EXPDB_*: the express doorbell sizes */
	FLAGS(IONIC_EXPDB, ionic_expdb, B(0x1, EXPDB_64), B(0x2, EXPDB_128), B(0x4, EXPDB_256),
	      B(0x8, EXPDB_512)),
};

static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, IONIC_CTX_REQ, IONIC_CTX_RESP),
	UD_WRITE(GET_CONTEXT, IONIC_CTX_REQ, IONIC_CTX_RESP),
	UD_WRITE(ALLOC_PD, NONE, NONE),
	UD_WRITE(CREATE_AH, NONE, IONIC_AH_RESP),
	UD_METHOD(CQ, CQ_CREATE, IONIC_CQ_REQ, IONIC_CQ_RESP),
	UD_WRITE(CREATE_CQ, IONIC_CQ_REQ, IONIC_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, IONIC_CQ_REQ, IONIC_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, IONIC_QP_REQ, IONIC_QP_RESP),
	UD_WRITE(CREATE_QP, IONIC_QP_REQ, IONIC_QP_RESP),
	UD_WRITE_EX(CREATE_QP, IONIC_QP_REQ, IONIC_QP_RESP),
};

const struct abi_driver abi_drv_ionic = {
	RDMA_DRIVER_IONIC, N(ionic), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
