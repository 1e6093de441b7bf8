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
 * the system's header where it has one). CREATE_QP's answer is shown as
 * bytes: a raw QP's (struct mana_ib_create_qp_resp, 16 bytes), an RSS
 * QP's (mana_ib_create_qp_rss_resp, 520) and an RC QP's
 * (mana_ib_create_rc_qp_resp, 16) differ by the QP, and so does an RC
 * QP's request (mana_ib_create_rc_qp, 48 bytes), which is shown by the raw
 * QP's layout with the bytes past it counted. libmana 44 sends CREATE_CQ's
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
	VT_MANA_CREATE_WQ,
	VT_MANA__END
};

#define UD_ALT(key, in, alt_in, alt, out)                                      \
	{ key, VT_##in, VT_##out, VT_##alt_in, UD_ALT_##alt, 0 }
#define EX(cmd) (IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_##cmd)

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
};

static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, NONE),
	UD_WRITE(GET_CONTEXT, NONE, NONE),
	UD_WRITE(ALLOC_PD, NONE, NONE),
	UD_METHOD(CQ, CQ_CREATE, MANA_CREATE_CQ, MANA_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, MANA_CREATE_CQ, MANA_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, MANA_CREATE_CQ, MANA_CREATE_CQ_RESP),
	UD_ALT(ABI_UD_METHOD(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE), MANA_CREATE_QP,
	       MANA_CREATE_QP_RSS, RSS, BYTES),
	UD_ALT(ABI_UD_WRITE(IB_USER_VERBS_CMD_CREATE_QP), MANA_CREATE_QP, MANA_CREATE_QP_RSS, RSS,
	       BYTES),
	UD_ALT(ABI_UD_WRITE(EX(CREATE_QP)), MANA_CREATE_QP, MANA_CREATE_QP_RSS, RSS, BYTES),
	UD_METHOD(WQ, WQ_CREATE, MANA_CREATE_WQ, NONE),
	UD_WRITE_EX(CREATE_WQ, MANA_CREATE_WQ, NONE),
};

const struct abi_driver abi_drv_mana = {
	UVIO_RDMA_DRIVER_MANA, N(mana), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
