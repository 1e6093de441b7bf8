/* SPDX-License-Identifier: MIT */
/*
 * The QP bring-up every way of the benchmarks performs: an RC QP on port 1,
 * RESET -> INIT -> RTR -> RTS, connected to itself (its own QPN, the port's
 * RoCE v2 GID), as a loopback program on rxe does. Values and masks in the
 * kernel's numbering (enum ib_qp_attr_mask, enum ib_qp_state, enum ib_mtu),
 * which libibverbs shares.
 */
#ifndef UVIO_BENCH_QP_STEPS_H
#define UVIO_BENCH_QP_STEPS_H

#include <stdint.h>

enum {
	BQ_STATE = 1u << 0,
	BQ_ACCESS_FLAGS = 1u << 3,
	BQ_PKEY_INDEX = 1u << 4,
	BQ_PORT = 1u << 5,
	BQ_AV = 1u << 7,
	BQ_PATH_MTU = 1u << 8,
	BQ_TIMEOUT = 1u << 9,
	BQ_RETRY_CNT = 1u << 10,
	BQ_RNR_RETRY = 1u << 11,
	BQ_RQ_PSN = 1u << 12,
	BQ_MAX_QP_RD_ATOMIC = 1u << 13,
	BQ_MIN_RNR_TIMER = 1u << 15,
	BQ_SQ_PSN = 1u << 16,
	BQ_MAX_DEST_RD_ATOMIC = 1u << 17,
	BQ_DEST_QPN = 1u << 20,
};

#define BQ_INIT_MASK (BQ_STATE | BQ_PKEY_INDEX | BQ_PORT | BQ_ACCESS_FLAGS)
#define BQ_RTR_MASK (BQ_STATE | BQ_AV | BQ_PATH_MTU | BQ_DEST_QPN | BQ_RQ_PSN |             \
		     BQ_MAX_DEST_RD_ATOMIC | BQ_MIN_RNR_TIMER)
#define BQ_RTS_MASK (BQ_STATE | BQ_TIMEOUT | BQ_RETRY_CNT | BQ_RNR_RETRY | BQ_SQ_PSN |      \
		     BQ_MAX_QP_RD_ATOMIC)

enum {
	BQ_PORT_NUM = 1,
	BQ_GID_INDEX = 1,	/* rxe on an IPv4 netdev: the IPv4-mapped RoCE v2 GID */
	BQ_ACCESS = 1 | 2 | 4,	/* local write, remote write, remote read */
	BQ_MTU = 3,		/* 1024 */
	BQ_RNR_TIMER = 12,
	BQ_TIMEOUT_VAL = 14,
	BQ_RETRIES = 7,
	BQ_CAP_WR = 16,
	BQ_CAP_SGE = 1,
};

#endif
