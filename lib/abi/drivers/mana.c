// SPDX-License-Identifier: MIT
/*
 * mana (RDMA_DRIVER_MANA, 20: Microsoft Azure Network Adapter, mana_ib from
 * 6.2) described as data: its driver data as Linux 6.12's
 * <rdma/mana-abi.h> lays it out (7.2's is the same), as mana_ib uses it:
 * GET_CONTEXT and ALLOC_PD carry none either way; CREATE_CQ's buffer and
 * flags, and its answer (the CQ id); CREATE_QP's send queue buffer (the
 * RSS request when the QP is made over an indirection table); CREATE_WQ's
 * buffer. Debian 12's headers (6.1) lack the file, so every struct is by
 * offset (lib/hw/mana_abi.h is the library half's copy, checked against
 * the system's header where it has one). CREATE_QP has three layouts each
 * way: over an indirection table the RSS request (its answer the CQ and WQ
 * ids of each table entry); an RC QP's (four queues) where the request is
 * its 48 bytes; otherwise a raw packet QP's send queue (16). mana_ib picks
 * by the QP type, which the core struct holds; the lengths differ as the
 * types do, so the decoder needs only the driver data. libmana 44 sends CREATE_CQ's
 * request cut to buf_addr (8 bytes), which 6.12 takes.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>

#include "abi/abi.h"

/* enum rdma_driver_id's RDMA_DRIVER_MANA (6.2's headers on) */
#define UVIO_RDMA_DRIVER_MANA 20

enum {
	VT_MANA_FIRST = ABI_VT_DRIVER_BASE(15),
	VT_MANA_CQ_FLAGS = VT_MANA_FIRST, VT_MANA_RX_HASH_FUNC,
	VT_MANA_CREATE_CQ, VT_MANA_CREATE_CQ_RESP, VT_MANA_CREATE_QP, VT_MANA_CREATE_QP_RSS,
	VT_MANA_CREATE_WQ, VT_MANA_CREATE_QP_RESP, VT_MANA_CREATE_RC_QP,
	VT_MANA_CREATE_RC_QP_RESP, VT_MANA_RSS_RESP_ENTRY, VT_MANA_CREATE_QP_RSS_RESP,
	VT_MANA__END
};


static const struct abi_vtype vtypes[VT_MANA__END - VT_MANA_FIRST] = {
	FLAGS(MANA_CQ_FLAGS, mana_ib_create_cq_flags, B(0x1, RNIC_CQ)),
	FLAGS(MANA_RX_HASH_FUNC, mana_ib_rx_hash_function_flags, B(0x1, TOEPLITZ)),
	STRUCT_SZ(MANA_CREATE_CQ, mana_ib_create_cq, 16,
		  FO(buf_addr, 0, 8, X64), FO(flags, 8, 2, MANA_CQ_FLAGS),
		  FO(reserved0, 10, 2, RSVD), FO(reserved1, 12, 4, RSVD)),
	STRUCT_SZ(MANA_CREATE_CQ_RESP, mana_ib_create_cq_resp, 8,
		  FO(cqid, 0, 4, U32), FO(reserved, 4, 4, RSVD)),
	STRUCT_SZ(MANA_CREATE_QP, mana_ib_create_qp, 16,
		  FO(sq_buf_addr, 0, 8, X64), FO(sq_buf_size, 8, 4, U32), FO(port, 12, 4, U32)),
	STRUCT_SZ(MANA_CREATE_QP_RSS, mana_ib_create_qp_rss, 64,
		  FO(rx_hash_fields_mask, 0, 8, X64), FO(rx_hash_function, 8, 1, MANA_RX_HASH_FUNC),
		  FO(reserved, 9, 7, RSVD), FO(rx_hash_key_len, 16, 4, U32),
		  FO(rx_hash_key, 20, 40, BYTES), FO(port, 60, 4, U32)),
	STRUCT_SZ(MANA_CREATE_WQ, mana_ib_create_wq, 16,
		  FO(wq_buf_addr, 0, 8, X64), FO(wq_buf_size, 8, 4, U32), FO(reserved, 12, 4, RSVD)),
	STRUCT_SZ(MANA_CREATE_QP_RESP, mana_ib_create_qp_resp, 16,
		  FO(sqid, 0, 4, U32), FO(cqid, 4, 4, U32), FO(tx_vp_offset, 8, 4, U32),
		  FO(reserved, 12, 4, RSVD)),
	STRUCT_SZ(MANA_CREATE_RC_QP, mana_ib_create_rc_qp, 48,
		  FO(queue_buf, 0, 32, X64), FO(queue_size, 32, 16, U32)),
	STRUCT_SZ(MANA_CREATE_RC_QP_RESP, mana_ib_create_rc_qp_resp, 16,
		  FO(queue_id, 0, 16, U32)),
	STRUCT_SZ(MANA_RSS_RESP_ENTRY, rss_resp_entry, 8, FO(cqid, 0, 4, U32), FO(wqid, 4, 4, U32)),
	/* entries: 64 whatever the table's size; num_entries says how many count */
	STRUCT_SZ(MANA_CREATE_QP_RSS_RESP, mana_ib_create_qp_rss_resp, 520,
		  FO(num_entries, 0, 8, U64), FO(entries, 8, 0, MANA_RSS_RESP_ENTRY)),
};

static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, NONE),
	UD_WRITE(GET_CONTEXT, NONE, NONE),
	UD_WRITE(ALLOC_PD, NONE, NONE),
	UD_METHOD(CQ, CQ_CREATE, MANA_CREATE_CQ, MANA_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, MANA_CREATE_CQ, MANA_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, MANA_CREATE_CQ, MANA_CREATE_CQ_RESP),
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), RSS, MANA_CREATE_QP_RSS, MANA_CREATE_QP_RSS_RESP),
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), LEN, MANA_CREATE_RC_QP, MANA_CREATE_RC_QP_RESP),
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), ALWAYS, MANA_CREATE_QP, MANA_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), RSS, MANA_CREATE_QP_RSS, MANA_CREATE_QP_RSS_RESP),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), LEN, MANA_CREATE_RC_QP, MANA_CREATE_RC_QP_RESP),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), ALWAYS, MANA_CREATE_QP, MANA_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), RSS, MANA_CREATE_QP_RSS, MANA_CREATE_QP_RSS_RESP),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), LEN, MANA_CREATE_RC_QP, MANA_CREATE_RC_QP_RESP),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), ALWAYS, MANA_CREATE_QP, MANA_CREATE_QP_RESP),
	UD_METHOD(WQ, WQ_CREATE, MANA_CREATE_WQ, NONE),
	UD_WRITE_EX(CREATE_WQ, MANA_CREATE_WQ, NONE),
};

const struct abi_driver abi_drv_mana = {
	UVIO_RDMA_DRIVER_MANA, N(mana), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
