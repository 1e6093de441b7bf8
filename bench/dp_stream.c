/*
 * A loopback RDMA WRITE stream on one rxe device, through this library's
 * data-path layer (uvio) and through libibverbs with rdma-core's rxe
 * provider (ibv), in one process, rounds interleaved ABBA.
 *
 *   dp_stream DEVICE ROUNDS MSGS [SIZE]   messages per second, each round
 *   dp_stream DEVICE insn uvio|ibv MSGS   one stream, for callgrind: run it
 *                                         with --toggle-collect=post_uvio
 *                                         (poll_uvio, post_ibv, poll_ibv)
 *
 * Each stream: two RC QPs at RTS against each other (GID index 1, rxe's
 * RoCE v2 IPv4 GID), one registered buffer; MSGS signaled RDMA WRITEs of
 * SIZE bytes (default 64) from one into the other, at most WINDOW in
 * flight, one WR per post call, completions polled 16 at a time. Every
 * completion is checked (status, wr_id in order). The post and poll calls
 * sit in functions of their own (noinline) so that callgrind can count
 * exactly them, the same way for both.
 *
 * Output: "DP ROUND r uvio|ibv msgs_per_s polls empty_polls" lines, and in
 * insn mode "DP INSN uvio|ibv posts N polls N completions N".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

#include <uvio.h>
#include <uvio/dp.h>
#include "dp_bench_lib.h"

#define WINDOW 64
#define BUF (1u << 20)

/* Writes only: no receive to speak of, nothing inline; rxe's RoCE v2 IPv4
 * GID (index 1); PSNs 0. */
static const struct dp_bench_shape shape = { .buf_len = BUF, .window = WINDOW, .recv_wr = 1,
					     .inline_len = 0, .gid_index = 1, .psn = 0 };

struct stats {
	unsigned long posts, polls, empty, done;
	double secs;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- this library ---------------------------------------------------- */

__attribute__((noinline)) int post_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
__attribute__((noinline)) int post_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	return uvio_dp_post_send(qp, wr, 1, NULL);
}

__attribute__((noinline)) int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
__attribute__((noinline)) int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

static struct stats uvio_stream(struct uvio_side *s, unsigned long msgs, uint32_t size)
{
	struct uvio_dp_sge sge = { (uintptr_t)s->buf, size, s->mr.lkey };
	struct uvio_dp_send_wr wr = { .opcode = IB_UVERBS_WR_RDMA_WRITE,
				      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &sge,
				      .num_sge = 1,
				      .rdma = { (uintptr_t)s->buf + BUF / 2, s->mr.rkey } };
	struct uvio_dp_wc wc[16];
	struct stats st = { 0 };
	double t0 = now();

	while (st.done < msgs) {
		while (st.posts < msgs && st.posts - st.done < WINDOW) {
			wr.wr_id = st.posts;
			int err = post_uvio(&s->qp[0], &wr);

			if (err)
				dp_bench_die("uvio post", err);
			st.posts++;
		}
		int n = poll_uvio(&s->cq[0], wc);

		st.polls++;
		if (n < 0)
			dp_bench_die("uvio poll", n);
		if (!n)
			st.empty++;
		for (int i = 0; i < n; i++, st.done++)
			if (wc[i].status || wc[i].wr_id != st.done)
				dp_bench_die("uvio completion", -EIO);
	}
	st.secs = now() - t0;
	return st;
}

/* ---- libibverbs and rdma-core's rxe provider ------------------------- */

__attribute__((noinline)) int post_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr);
__attribute__((noinline)) int post_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, wr, &bad);
}

__attribute__((noinline)) int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
__attribute__((noinline)) int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

static struct stats ibv_stream(struct ibv_side *s, unsigned long msgs, uint32_t size)
{
	struct ibv_sge sge = { (uintptr_t)s->buf, size, s->mr->lkey };
	struct ibv_send_wr wr = { .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1,
				  .wr.rdma = { (uintptr_t)s->buf + BUF / 2, s->mr->rkey } };
	struct ibv_wc wc[16];
	struct stats st = { 0 };
	double t0 = now();

	while (st.done < msgs) {
		while (st.posts < msgs && st.posts - st.done < WINDOW) {
			wr.wr_id = st.posts;
			int err = post_ibv(s->qp[0], &wr);

			if (err)
				dp_bench_die("ibv post", err);
			st.posts++;
		}
		int n = poll_ibv(s->cq[0], wc);

		st.polls++;
		if (n < 0)
			dp_bench_die("ibv poll", n);
		if (!n)
			st.empty++;
		for (int i = 0; i < n; i++, st.done++)
			if (wc[i].status || wc[i].wr_id != st.done)
				dp_bench_die("ibv completion", EIO);
	}
	st.secs = now() - t0;
	return st;
}

static void print(const char *what, int round, const struct stats *st)
{
	printf("DP ROUND %d %s %.0f msgs/s polls %lu empty %lu\n", round, what,
	       (double)st->done / st->secs, st->polls, st->empty);
}

int main(int argc, char **argv)
{
	struct uvio_side u;
	struct ibv_side v;
	struct stats st;

	if (argc < 4) {
		fprintf(stderr, "usage: dp_stream DEVICE ROUNDS MSGS [SIZE] | "
			"DEVICE insn uvio|ibv MSGS\n");
		return 2;
	}
	if (!strcmp(argv[2], "insn") && argc >= 5) {
		unsigned long msgs = strtoul(argv[4], NULL, 0);

		if (!strcmp(argv[3], "uvio")) {
			uvio_side_open(&u, argv[1], &shape);
			st = uvio_stream(&u, msgs, 64);
			uvio_side_close(&u);
		} else {
			ibv_side_open(&v, argv[1], &shape);
			st = ibv_stream(&v, msgs, 64);
			ibv_side_close(&v);
		}
		printf("DP INSN %s posts %lu polls %lu completions %lu\n", argv[3], st.posts,
		       st.polls, st.done);
		return 0;
	}
	int rounds = atoi(argv[2]);
	unsigned long msgs = strtoul(argv[3], NULL, 0);
	uint32_t size = argc > 4 ? (uint32_t)atoi(argv[4]) : 64;

	uvio_side_open(&u, argv[1], &shape);
	ibv_side_open(&v, argv[1], &shape);
	uvio_stream(&u, msgs / 10, size);	/* warm both */
	ibv_stream(&v, msgs / 10, size);
	for (int r = 0; r < rounds; r++) {
		/* ABBA: a drift in load falls on both */
		if (r % 2 == 0) {
			st = uvio_stream(&u, msgs, size);
			print("uvio", r, &st);
			st = ibv_stream(&v, msgs, size);
			print("ibv", r, &st);
		} else {
			st = ibv_stream(&v, msgs, size);
			print("ibv", r, &st);
			st = uvio_stream(&u, msgs, size);
			print("uvio", r, &st);
		}
	}
	uvio_side_close(&u);
	ibv_side_close(&v);
	return 0;
}
