/* SPDX-License-Identifier: MIT */
/*
 * rxe's queue formats, as Linux 5.10 to 7.2 lay them out in memory shared
 * with user space (rdma/rdma_user_rxe.h). Declared here because the system's
 * header differs by release: 5.10's has no ring header struct, no AH number
 * and keeps the UD address vector outside the send WR, at the offset where
 * later headers put it inside. One layout serves every kernel; rxe.c checks
 * it against whichever header the system has.
 */
#ifndef UVIO_PROVIDERS_RXE_ABI_H
#define UVIO_PROVIDERS_RXE_ABI_H

#include <stdint.h>
#include <rdma/rdma_user_rxe.h>

/* The header of every ring (struct rxe_queue_buf); the indices sit in cache
 * lines of their own. */
struct dp_rxe_ring {
	uint32_t log2_elem_size;
	uint32_t index_mask;
	uint32_t pad_1[30];
	uint32_t producer_index;
	uint32_t pad_2[31];
	uint32_t consumer_index;
	uint32_t pad_3[31];
	uint8_t data[];
};

struct dp_rxe_send_wr {
	uint64_t wr_id;
	uint32_t reserved;
	uint32_t opcode;		/* enum ib_uverbs_wr_opcode */
	uint32_t send_flags;
	union {
		uint32_t imm_data;	/* big-endian */
		uint32_t invalidate_rkey;
	} ex;
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
			uint32_t reserved;
		} rdma;
		struct {
			uint64_t remote_addr;
			uint64_t compare_add;
			uint64_t swap;
			uint32_t rkey;
			uint32_t reserved;
		} atomic;
		struct {
			uint32_t remote_qpn;
			uint32_t remote_qkey;
			uint16_t pkey_index;
			uint16_t reserved;
			uint32_t ah_num;	/* 5.13+; 0: use av */
			uint32_t pad[4];
			struct rxe_av av;	/* 5.10: struct rxe_send_wqe's av */
		} ud;
		struct {
			uint64_t addr;
			uint64_t length;
			uint32_t mr_lkey;
			uint32_t mw_rkey;
			uint32_t rkey;
			uint32_t access;
		} mw;
	} wr;
} __attribute__((aligned(8)));

struct dp_rxe_dma {
	uint32_t length;
	uint32_t resid;
	uint32_t cur_sge;
	uint32_t num_sge;
	uint32_t sge_offset;
	uint32_t reserved;
	/* then the SGEs (struct rxe_sge), or the inline bytes */
};

struct dp_rxe_send_wqe {
	struct dp_rxe_send_wr wr;
	uint32_t status;
	uint32_t state;
	uint64_t iova;			/* remote address of RDMA and atomics */
	uint32_t mask;
	uint32_t first_psn;
	uint32_t last_psn;
	uint32_t ack_length;
	uint32_t ssn;
	uint32_t has_rd_atomic;
	struct dp_rxe_dma dma;
};

struct dp_rxe_recv_wqe {
	uint64_t wr_id;
	uint32_t reserved;
	uint32_t padding;
	struct dp_rxe_dma dma;
};

#endif
