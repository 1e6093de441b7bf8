/* SPDX-License-Identifier: MIT */
/*
 * mana's driver data (<rdma/mana-abi.h>, Linux 6.2 on) as Linux 6.12 lays
 * it out: Debian 12's headers (6.1) have no such file, so the library's
 * half and its tests read this copy; where the system's header exists
 * (UVIO_HAVE_MANA_ABI, lib/CMakeLists.txt), sizes and offsets are checked
 * against it.
 */
#ifndef UVIO_LIB_HW_MANA_ABI_H
#define UVIO_LIB_HW_MANA_ABI_H

#include <stddef.h>
#include <stdint.h>

/* CREATE_CQ's request: the CQ's buffer in the process's memory. 6.12's
 * kernel reads it up to flags at least (8 bytes: rdma-core 44's libmana
 * sends only buf_addr). */
struct uvio_mana_create_cq {
	uint64_t buf_addr;
	uint16_t flags;		/* MANA_IB_CREATE_RNIC_CQ */
	uint16_t reserved0;
	uint32_t reserved1;
};

struct uvio_mana_create_cq_resp {
	uint32_t cqid;
	uint32_t reserved;
};

/* CREATE_QP of a RAW_PACKET QP without an indirection table: its send
 * queue's buffer and the port (the IB port, from 1). */
struct uvio_mana_create_qp {
	uint64_t sq_buf_addr;
	uint32_t sq_buf_size;
	uint32_t port;
};

struct uvio_mana_create_qp_resp {
	uint32_t sqid;
	uint32_t cqid;
	uint32_t tx_vp_offset;
	uint32_t reserved;
};

/* CREATE_QP of an RC QP (6.12): four queue buffers. */
struct uvio_mana_create_rc_qp {
	uint64_t queue_buf[4];
	uint32_t queue_size[4];
};

struct uvio_mana_create_wq {
	uint64_t wq_buf_addr;
	uint32_t wq_buf_size;
	uint32_t reserved;
};

/* CREATE_QP of a RAW_PACKET QP over an indirection table (RSS). */
struct uvio_mana_create_qp_rss {
	uint64_t rx_hash_fields_mask;
	uint8_t rx_hash_function;	/* MANA_IB_RX_HASH_FUNC_TOEPLITZ */
	uint8_t reserved[7];
	uint32_t rx_hash_key_len;
	uint8_t rx_hash_key[40];
	uint32_t port;
};

_Static_assert(sizeof(struct uvio_mana_create_cq) == 16 &&
		       offsetof(struct uvio_mana_create_cq, flags) == 8 &&
		       sizeof(struct uvio_mana_create_cq_resp) == 8 &&
		       sizeof(struct uvio_mana_create_qp) == 16 &&
		       sizeof(struct uvio_mana_create_qp_resp) == 16 &&
		       sizeof(struct uvio_mana_create_rc_qp) == 48 &&
		       sizeof(struct uvio_mana_create_wq) == 16 &&
		       sizeof(struct uvio_mana_create_qp_rss) == 64,
	       "mana's driver data as Linux 6.12 lays it out");

#define UVIO_MANA_CREATE_RNIC_CQ 1u	/* MANA_IB_CREATE_RNIC_CQ */
#define UVIO_MANA_RX_HASH_FUNC_TOEPLITZ 1u	/* MANA_IB_RX_HASH_FUNC_TOEPLITZ */
#define UVIO_MANA_UVERBS_ABI_VERSION 1	/* MANA_IB_UVERBS_ABI_VERSION */
#define UVIO_MANA_RSS_RESP_LEN 520	/* sizeof(struct mana_ib_create_qp_rss_resp) */

#ifdef UVIO_HAVE_MANA_ABI
#include <rdma/mana-abi.h>
#define UVIO_MANA_SAME(ours, theirs, f)                                        \
	(offsetof(struct ours, f) == offsetof(struct theirs, f))
_Static_assert(sizeof(struct uvio_mana_create_cq) == sizeof(struct mana_ib_create_cq) &&
		       UVIO_MANA_SAME(uvio_mana_create_cq, mana_ib_create_cq, flags) &&
		       sizeof(struct uvio_mana_create_cq_resp) ==
			       sizeof(struct mana_ib_create_cq_resp) &&
		       sizeof(struct uvio_mana_create_qp) == sizeof(struct mana_ib_create_qp) &&
		       UVIO_MANA_SAME(uvio_mana_create_qp, mana_ib_create_qp, port) &&
		       sizeof(struct uvio_mana_create_qp_resp) ==
			       sizeof(struct mana_ib_create_qp_resp) &&
		       UVIO_MANA_SAME(uvio_mana_create_qp_resp, mana_ib_create_qp_resp,
				      tx_vp_offset) &&
		       sizeof(struct uvio_mana_create_rc_qp) == sizeof(struct mana_ib_create_rc_qp) &&
		       sizeof(struct uvio_mana_create_wq) == sizeof(struct mana_ib_create_wq) &&
		       sizeof(struct uvio_mana_create_qp_rss) ==
			       sizeof(struct mana_ib_create_qp_rss) &&
		       UVIO_MANA_SAME(uvio_mana_create_qp_rss, mana_ib_create_qp_rss, port) &&
		       UVIO_MANA_RSS_RESP_LEN == sizeof(struct mana_ib_create_qp_rss_resp),
	       "mana's driver data as the system's header has it");
_Static_assert(UVIO_MANA_CREATE_RNIC_CQ == MANA_IB_CREATE_RNIC_CQ &&
		       UVIO_MANA_RX_HASH_FUNC_TOEPLITZ == MANA_IB_RX_HASH_FUNC_TOEPLITZ &&
		       UVIO_MANA_UVERBS_ABI_VERSION == MANA_IB_UVERBS_ABI_VERSION,
	       "mana's ids as the system's header has them");
#undef UVIO_MANA_SAME
#endif

#endif
