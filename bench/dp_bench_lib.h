/*
 * What the data-path benches (dp_stream on rxe, mlx5_dp on the mlx5
 * stand-in) share: one device opened twice over, through this library's
 * <uvio/dp.h> and through libibverbs, each with one registered buffer and
 * two RC QPs of their own CQs at RTS against each other, brought up the
 * same way on both sides. None of it is counted: the programs' post and
 * poll functions, and their streams, stay in their own files.
 */
#ifndef UVIO_DP_BENCH_LIB_H
#define UVIO_DP_BENCH_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include <uvio.h>
#include <uvio/dp.h>

/* What a bench asks of its queues and its buffer. */
struct dp_bench_shape {
	size_t buf_len;		/* one buffer, LOCAL_WRITE and REMOTE_WRITE */
	uint32_t window;	/* work requests in flight: max_send_wr; CQs of 2 * window */
	uint32_t recv_wr;	/* max_recv_wr */
	uint32_t inline_len;	/* max_inline_data */
	uint8_t gid_index;	/* the GID of port 1 the QPs connect through */
	uint32_t psn;		/* both directions' first PSN */
};

struct uvio_side {
	struct uvio_device *dev;
	struct uvio_context ctx;
	uint32_t pd;
	struct uvio_mr mr;
	struct uvio_dp_cq cq[2];
	struct uvio_dp_qp qp[2];
	uint8_t gid[16];
	uint8_t *buf;
	size_t buf_len;
};

struct ibv_side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq[2];
	struct ibv_qp *qp[2];
	union ibv_gid gid;
	uint8_t *buf;
	size_t buf_len;
};

/* "PROGRAM: WHAT: ERR (strerror) uvio_last_error()" on stderr, and exit
 * 1: a bench that cannot run its stream has no number to give. err may be
 * a negative (the library's) or a positive (libibverbs') errno. */
__attribute__((noreturn)) void dp_bench_die(const char *what, int err);

/* Open DEVICE, its PD, buffer and GID, two CQs and two RC QPs, both QPs at
 * RTS against each other; any failure dies. */
void uvio_side_open(struct uvio_side *s, const char *device, const struct dp_bench_shape *sh);
void uvio_side_close(struct uvio_side *s);
void ibv_side_open(struct ibv_side *s, const char *device, const struct dp_bench_shape *sh);
void ibv_side_close(struct ibv_side *s);

#endif
