// SPDX-License-Identifier: MIT
/*
 * The mlx5 data path, the same work-request stream two ways: through this
 * library's <uvio/dp.h> (providers/mlx5.c writing the WQEs on the queues
 * its mlx5 half allocated) or through libibverbs and rdma-core's libmlx5.
 * Under callgrind (bench/mlx5-dp.sh, in the guest with the mlx5 stand-in's
 * emulated ConnectX) each noinline function below is counted whole, the
 * rest of the program not at all (--collect-atstart=no, --toggle-collect
 * of each): their inclusive counts divided by their calls are the
 * instructions per post and per polled completion.
 *
 *   mlx5_dp uvio|ibv|plugin DEVICE MSGS
 *
 * ibv and plugin run the same libibverbs calls; they differ in who serves
 * them: ibv asks that rdma-core's libmlx5 does, plugin that this library's
 * libibverbs plug-in (libuvio-rdmav34.so, named by RDMAV_DRIVERS) does.
 * The program does not link libmlx5 (its provider would register first and
 * claim mlx5 whatever RDMAV_DRIVERS says), so libibverbs loads whichever
 * provider the environment names; which one served the QP is read from
 * the QP's post_send entry (the shared object holding it) and checked.
 *
 * Two RC QPs of one device at RTS against each other (GID 0, RoCE), one
 * registered buffer, each QP with a CQ of its own; WINDOW work requests in
 * flight, one per post call, every one signalled:
 *  1. MSGS SENDs of 64 bytes inline from QP 0 into receives posted on QP 1
 *     (send_*; the receives: recv_*);
 *  2. MSGS RDMA WRITEs of 4 KiB from one SGE (write_*).
 * QP 0's completions are polled by poll_* (the requester's), QP 1's by
 * rpoll_* (the responder's), 16 at most a call. A poll that finds nothing
 * (the emulator had not written the CQE yet) costs the same every time:
 * empty_* polls an empty CQ EMPTY times so that those can be taken out.
 * Every completion is checked (status, wr_id in order, opcode, length) and
 * every byte that moved.
 *
 * Output: "MLX5DP-PROVIDER lib FILE" (the object serving the QP), "MLX5DP lib send N write N recv N poll N rpoll N empty N
 * completions N rcompletions N pempty N rempty N", and 0; or a message and
 * 1. (pempty, rempty: the polls of poll_* and rpoll_* that found nothing.)
 */
/* dladdr: _GNU_SOURCE is the build's (CMakeLists.txt) */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include <uvio.h>
#include <uvio/dp.h>
#include "dp_bench_lib.h"

#define WINDOW 32
#define BUF (4u << 20)
#define SEND_LEN 64
#define WRITE_LEN 4096
#define RX_OFF (1u << 20)	/* QP 1's receive slots, SEND_LEN apart */
#define TGT_OFF (2u << 20)	/* the WRITEs' target: WINDOW slots of WRITE_LEN */
#define GIDX 0
#define EMPTY 64

/* QP 1 takes WINDOW receives; SENDs of SEND_LEN go inline. */
static const struct dp_bench_shape shape = { .buf_len = BUF, .window = WINDOW,
					     .recv_wr = WINDOW, .inline_len = SEND_LEN,
					     .gid_index = GIDX, .psn = 0x100 };

struct count {
	unsigned long send, write, recv, poll, rpoll, empty, done, rdone, pempty, rempty;
};

static struct count c;

/* The bytes of message i (SEND) or of write i, at offset k. */
static uint8_t pattern(unsigned long i, size_t k)
{
	return (uint8_t)(i * 13 + k * 7 + (k >> 8));
}

static void fill(uint8_t *p, size_t len, unsigned long i)
{
	for (size_t k = 0; k < len; k++)
		p[k] = pattern(i, k);
}

static void check_bytes(const uint8_t *p, size_t len, unsigned long i, const char *what)
{
	for (size_t k = 0; k < len; k++)
		if (p[k] != pattern(i, k)) {
			fprintf(stderr, "mlx5_dp: %s %lu: byte %zu is %#x, expected %#x\n", what, i,
				k, p[k], pattern(i, k));
			exit(1);
		}
}

/* ---- this library ---------------------------------------------------- */

#define COUNTED __attribute__((noinline, used))
COUNTED int send_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
COUNTED int send_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	return uvio_dp_post_send(qp, wr, 1, NULL);
}

COUNTED int write_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
COUNTED int write_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	return uvio_dp_post_send(qp, wr, 1, NULL);
}

COUNTED int recv_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_recv_wr *wr);
COUNTED int recv_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_recv_wr *wr)
{
	return uvio_dp_post_recv(qp, wr, 1, NULL);
}

COUNTED int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
COUNTED int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

COUNTED int rpoll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
COUNTED int rpoll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

COUNTED int empty_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
COUNTED int empty_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

static void uvio_recv(struct uvio_side *s, unsigned long i)
{
	struct uvio_dp_sge g = { (uintptr_t)s->buf + RX_OFF + (i % WINDOW) * SEND_LEN, SEND_LEN,
				 s->mr.lkey };
	struct uvio_dp_recv_wr r = { .wr_id = i, .sg_list = &g, .num_sge = 1 };
	int err = recv_uvio(&s->qp[1], &r);

	if (err)
		dp_bench_die("uvio post_recv", err);
	c.recv++;
}

/* Poll QP 0's CQ (and QP 1's when rx) until done reaches posted. */
static void uvio_drain(struct uvio_side *s, unsigned long posted, unsigned long *done,
		       unsigned long *rdone, int rx, uint32_t opcode, uint32_t len)
{
	struct uvio_dp_wc wc[16];

	while (*done < posted || (rx && *rdone < posted)) {
		int n = 0, m = 0;

		if (*done < posted) {
			n = poll_uvio(&s->cq[0], wc);
			c.poll++;
			if (n < 0)
				dp_bench_die("uvio poll", n);
			c.pempty += !n;
			for (int i = 0; i < n; i++, (*done)++)
				if (wc[i].status || wc[i].wr_id != *done || wc[i].opcode != opcode)
					dp_bench_die("uvio completion", -EIO);
			c.done += n;
		}
		if (rx && *rdone < posted) {
			m = rpoll_uvio(&s->cq[1], wc);
			c.rpoll++;
			if (m < 0)
				dp_bench_die("uvio rpoll", m);
			c.rempty += !m;
			for (int i = 0; i < m; i++, (*rdone)++) {
				const uint8_t *p = s->buf + RX_OFF + (*rdone % WINDOW) * SEND_LEN;

				if (wc[i].status || wc[i].wr_id != *rdone ||
				    wc[i].opcode != UVIO_WC_RECV || wc[i].byte_len != len)
					dp_bench_die("uvio receive", -EIO);
				check_bytes(p, SEND_LEN, *rdone, "received message");
				uvio_recv(s, *rdone + WINDOW);
			}
			c.rdone += m;
		}
		if (!n && !m)
			usleep(50);	/* the emulator's kernel thread runs meanwhile */
	}
}

static void uvio_run(const char *dev, unsigned long msgs)
{
	struct uvio_side s;
	struct uvio_dp_wc wc[16];
	unsigned long posted = 0, done = 0, rdone = 0;

	uvio_side_open(&s, dev, &shape);
	for (unsigned long i = 0; i < WINDOW; i++)
		uvio_recv(&s, i);
	/* 1. SEND 64 bytes inline */
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * SEND_LEN;
			struct uvio_dp_sge g = { (uintptr_t)src, SEND_LEN, s.mr.lkey };
			struct uvio_dp_send_wr wr = { .wr_id = posted, .opcode = IB_UVERBS_WR_SEND,
				.flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
				.sg_list = &g, .num_sge = 1 };
			int err;

			fill(src, SEND_LEN, posted);
			err = send_uvio(&s.qp[0], &wr);
			if (err)
				dp_bench_die("uvio post_send SEND", err);
			c.send++;
		}
		uvio_drain(&s, posted, &done, &rdone, 1, UVIO_WC_SEND, SEND_LEN);
	}
	/* 2. RDMA WRITE 4 KiB */
	posted = done = 0;
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * WRITE_LEN;
			struct uvio_dp_sge g = { (uintptr_t)src, WRITE_LEN, s.mr.lkey };
			struct uvio_dp_send_wr wr = { .wr_id = posted,
				.opcode = IB_UVERBS_WR_RDMA_WRITE, .flags = UVIO_DP_SEND_SIGNALED,
				.sg_list = &g, .num_sge = 1,
				.rdma = { (uintptr_t)s.buf + TGT_OFF + (posted % WINDOW) * WRITE_LEN,
					  s.mr.rkey } };
			int err;

			fill(src, WRITE_LEN, posted + msgs);
			err = write_uvio(&s.qp[0], &wr);
			if (err)
				dp_bench_die("uvio post_send RDMA WRITE", err);
			c.write++;
		}
		uvio_drain(&s, posted, &done, &rdone, 0, UVIO_WC_RDMA_WRITE, 0);
		for (unsigned long i = base; i < posted; i++)
			check_bytes(s.buf + TGT_OFF + (i % WINDOW) * WRITE_LEN, WRITE_LEN, i + msgs,
				    "written block");
	}
	for (int i = 0; i < EMPTY; i++, c.empty++)
		if (empty_uvio(&s.cq[0], wc) != 0)
			dp_bench_die("uvio: a completion more than posted", -EIO);
	uvio_side_close(&s);
}

/* ---- libibverbs and rdma-core's libmlx5 -------------------------------- */

COUNTED int send_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr);
COUNTED int send_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, wr, &bad);
}

COUNTED int write_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr);
COUNTED int write_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, wr, &bad);
}

COUNTED int recv_ibv(struct ibv_qp *qp, struct ibv_recv_wr *wr);
COUNTED int recv_ibv(struct ibv_qp *qp, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, wr, &bad);
}

COUNTED int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
COUNTED int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

COUNTED int rpoll_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
COUNTED int rpoll_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

COUNTED int empty_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
COUNTED int empty_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

static void ibv_recv(struct ibv_side *s, unsigned long i)
{
	struct ibv_sge g = { (uintptr_t)s->buf + RX_OFF + (i % WINDOW) * SEND_LEN, SEND_LEN,
			     s->mr->lkey };
	struct ibv_recv_wr r = { .wr_id = i, .sg_list = &g, .num_sge = 1 };
	int err = recv_ibv(s->qp[1], &r);

	if (err)
		dp_bench_die("ibv post_recv", err);
	c.recv++;
}

static void ibv_drain(struct ibv_side *s, unsigned long posted, unsigned long *done,
		      unsigned long *rdone, int rx, enum ibv_wc_opcode opcode, uint32_t len)
{
	struct ibv_wc wc[16];

	while (*done < posted || (rx && *rdone < posted)) {
		int n = 0, m = 0;

		if (*done < posted) {
			n = poll_ibv(s->cq[0], wc);
			c.poll++;
			if (n < 0)
				dp_bench_die("ibv poll", n);
			c.pempty += !n;
			for (int i = 0; i < n; i++, (*done)++)
				if (wc[i].status || wc[i].wr_id != *done || wc[i].opcode != opcode)
					dp_bench_die("ibv completion", EIO);
			c.done += n;
		}
		if (rx && *rdone < posted) {
			m = rpoll_ibv(s->cq[1], wc);
			c.rpoll++;
			if (m < 0)
				dp_bench_die("ibv rpoll", m);
			c.rempty += !m;
			for (int i = 0; i < m; i++, (*rdone)++) {
				const uint8_t *p = s->buf + RX_OFF + (*rdone % WINDOW) * SEND_LEN;

				if (wc[i].status || wc[i].wr_id != *rdone ||
				    wc[i].opcode != IBV_WC_RECV || wc[i].byte_len != len)
					dp_bench_die("ibv receive", EIO);
				check_bytes(p, SEND_LEN, *rdone, "received message");
				ibv_recv(s, *rdone + WINDOW);
			}
			c.rdone += m;
		}
		if (!n && !m)
			usleep(50);
	}
}

/* The file name of the shared object whose post_send serves qp: libmlx5's
 * or the plug-in's. A run on the other one has nothing to say. */
static void ibv_check_provider(struct ibv_qp *qp, const char *want, const char *mode)
{
	Dl_info info;
	const char *file, *base;

	if (!dladdr((void *)qp->context->ops.post_send, &info) || !info.dli_fname) {
		fprintf(stderr, "mlx5_dp: %s: no shared object holds the QP's post_send\n", mode);
		exit(1);
	}
	file = info.dli_fname;
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	printf("MLX5DP-PROVIDER %s %s\n", mode, file);
	if (strncmp(base, want, strlen(want))) {
		fprintf(stderr, "mlx5_dp: %s: the QP is served by %s, not %s*\n", mode, file, want);
		exit(1);
	}
}

static void ibv_run(const char *dev, unsigned long msgs, const char *want, const char *mode)
{
	struct ibv_side s;
	struct ibv_wc wc[16];
	unsigned long posted = 0, done = 0, rdone = 0;

	ibv_side_open(&s, dev, &shape);
	ibv_check_provider(s.qp[0], want, mode);
	for (unsigned long i = 0; i < WINDOW; i++)
		ibv_recv(&s, i);
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * SEND_LEN;
			struct ibv_sge g = { (uintptr_t)src, SEND_LEN, s.mr->lkey };
			struct ibv_send_wr wr = { .wr_id = posted, .opcode = IBV_WR_SEND,
				.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
				.sg_list = &g, .num_sge = 1 };
			int err;

			fill(src, SEND_LEN, posted);
			err = send_ibv(s.qp[0], &wr);
			if (err)
				dp_bench_die("ibv post_send SEND", err);
			c.send++;
		}
		ibv_drain(&s, posted, &done, &rdone, 1, IBV_WC_SEND, SEND_LEN);
	}
	posted = done = 0;
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * WRITE_LEN;
			struct ibv_sge g = { (uintptr_t)src, WRITE_LEN, s.mr->lkey };
			struct ibv_send_wr wr = { .wr_id = posted, .opcode = IBV_WR_RDMA_WRITE,
				.send_flags = IBV_SEND_SIGNALED, .sg_list = &g, .num_sge = 1,
				.wr.rdma = { (uintptr_t)s.buf + TGT_OFF + (posted % WINDOW) * WRITE_LEN,
					     s.mr->rkey } };
			int err;

			fill(src, WRITE_LEN, posted + msgs);
			err = write_ibv(s.qp[0], &wr);
			if (err)
				dp_bench_die("ibv post_send RDMA WRITE", err);
			c.write++;
		}
		ibv_drain(&s, posted, &done, &rdone, 0, IBV_WC_RDMA_WRITE, 0);
		for (unsigned long i = base; i < posted; i++)
			check_bytes(s.buf + TGT_OFF + (i % WINDOW) * WRITE_LEN, WRITE_LEN, i + msgs,
				    "written block");
	}
	for (int i = 0; i < EMPTY; i++, c.empty++)
		if (empty_ibv(s.cq[0], wc) != 0)
			dp_bench_die("ibv: a completion more than posted", EIO);
	ibv_side_close(&s);
}

int main(int argc, char **argv)
{
	unsigned long msgs;

	if (argc != 4 ||
	    (strcmp(argv[1], "uvio") && strcmp(argv[1], "ibv") && strcmp(argv[1], "plugin")) ||
	    (msgs = strtoul(argv[3], NULL, 0)) == 0) {
		fprintf(stderr, "usage: mlx5_dp uvio|ibv|plugin DEVICE MSGS\n");
		return 2;
	}
	if (!strcmp(argv[1], "uvio"))
		uvio_run(argv[2], msgs);
	else if (!strcmp(argv[1], "ibv"))
		ibv_run(argv[2], msgs, "libmlx5", "ibv");
	else
		ibv_run(argv[2], msgs, "libuvio-rdmav34", "plugin");
	printf("MLX5DP %s send %lu write %lu recv %lu poll %lu rpoll %lu empty %lu completions %lu "
	       "rcompletions %lu pempty %lu rempty %lu\n", argv[1], c.send, c.write, c.recv, c.poll,
	       c.rpoll, c.empty, c.done, c.rdone, c.pempty, c.rempty);
	return 0;
}
