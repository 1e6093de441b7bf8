// SPDX-License-Identifier: MIT
/*
 * kt_mlx5_data: the mlx5 stand-in's data path (tests/standin/mlx5,
 * mlx5_engine.c) driven by Debian's libmlx5 through libibverbs, two RC QPs
 * of one process connected to each other (kernel/6.1-mlx5-data runs it,
 * tests/kernel/kt_mlx5_data.sh). Each step prints "ok N - what" or "not
 * ok N - what: why"; the last line is "kt_mlx5_data: PASS" or "FAIL".
 *
 *   kt_mlx5_data [DEVICE]    (default mlx5_0)
 *
 * Steps: a SEND of three SGEs into two scatter entries; SEND with
 * immediate, inline; RDMA WRITE; RDMA WRITE with immediate; RDMA READ;
 * fetch-and-add and compare-and-swap (former values, the remote word);
 * 48 messages of one and two basic blocks through a 16-entry send ring
 * (WQEs that wrap to block 0), data checked each; three WQEs of which only
 * the last asks for a completion; a completion event through a channel
 * (ibv_req_notify_cq); a SEND whose lkey names no MR (local protection
 * error, the QP in ERR, a later WQE flushed); an RDMA WRITE past the
 * remote MR's end and one with an rkey of no MR (remote access error, the
 * responder's QP in ERR with the QP access error event); an RDMA READ past
 * the remote MR's end (the same, and the WQEs behind it, the responder's
 * receive WQE and a later WQE flushed); RDMA READs into a bad lkey, past
 * the end of the local MR and into an MR without local write (local
 * protection error); a peer QP moved to ERR (its receive WQEs
 * flushed); a message longer than the receive WQE (local length at the
 * responder, remote invalid request at the requester); atomics on an MR
 * without remote atomic access and at an unaligned address (the
 * responder's event: QP access error, invalid request); every error
 * completion's vendor_err is ConnectX's where public reports show it
 * (find_v); a memory window of type 2 bound by BIND_MW, written through,
 * invalidated by a SEND with invalidate, then refused; a SEND before
 * its receive (waits, then completes) and with rnr_retry 0 (RNR retry
 * exceeded); a SEND to a QPN no QP has (transport retry exceeded); the asynchronous events: SRQ limit, last WQE reached, CQ
 * error and QP fatal on a CQ overrun, none on a CQ that ignores overrun;
 * WQEs written into
 * the ring by hand (mlx5dv): a wrong index field, a wrong QPN, an RDMA
 * WRITE too short for its remote address (local QP operation errors), a
 * NOP (a completion); scatter to CQE read raw (mlx5dv) and copied by
 * libmlx5: a small SEND, and with sq_sig_all a small READ and an atomic.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>
#include <infiniband/mlx5dv.h>

#define BUF 65536
#define RING 16

static int step, failed;

static void report(int good, const char *what, const char *why)
{
	step++;
	if (good) {
		printf("ok %d - %s\n", step, what);
	} else {
		printf("not ok %d - %s: %s\n", step, what, why);
		failed++;
	}
}

struct side {
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static struct ibv_comp_channel *chan;
static union ibv_gid gid;

/* The RTS attribute the next pairs get (7: wait for a receive for ever). */
static uint8_t rnr_retry = 7;

/* A QP whose completions go to scq and rcq, on srq when not NULL; every
 * send WR signalled when sig_all. */
static int make_side_on(struct side *s, struct ibv_cq *scq, struct ibv_cq *rcq, struct ibv_srq *srq,
			int sig_all)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = scq, .recv_cq = rcq, .srq = srq, .qp_type = IBV_QPT_RC, .sq_sig_all = sig_all,
		.cap = { .max_send_wr = RING, .max_recv_wr = srq ? 0 : RING, .max_send_sge = 4,
			 .max_recv_sge = srq ? 0 : 4, .max_inline_data = 64 },
	};

	s->buf = aligned_alloc(4096, BUF);
	if (!s->buf)
		return -1;
	memset(s->buf, 0, BUF);
	s->mr = ibv_reg_mr(pd, s->buf, BUF, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
	s->qp = s->mr ? ibv_create_qp(pd, &ia) : NULL;
	return s->qp ? 0 : -1;
}

static int make_side(struct side *s)
{
	return make_side_on(s, cq, cq, NULL, 0);
}

static int connect_to(struct side *s, uint32_t dest)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
						    IBV_ACCESS_REMOTE_ATOMIC };

	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = rnr_retry;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(s->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static int pair(struct side *a, struct side *b)
{
	return make_side(a) || make_side(b) || connect_to(a, b->qp->qp_num) ||
	       connect_to(b, a->qp->qp_num);
}

static void unpair(struct side *a, struct side *b)
{
	struct side *s[2] = { a, b };

	for (int i = 0; i < 2; i++) {
		if (s[i]->qp)
			ibv_destroy_qp(s[i]->qp);
		if (s[i]->mr)
			ibv_dereg_mr(s[i]->mr);
		free(s[i]->buf);
		memset(s[i], 0, sizeof(*s[i]));
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Up to n completions within secs (the engine polls, under TCG). */
static int reap_for(struct ibv_wc *wc, int n, double secs)
{
	double end = now_s() + secs;
	int got = 0;

	while (got < n && now_s() < end) {
		int r = ibv_poll_cq(cq, n - got, wc + got);

		if (r < 0)
			return r;
		got += r;
	}
	return got;
}

static int reap(struct ibv_wc *wc, int n)
{
	return reap_for(wc, n, 10);
}

static int post_recv(struct side *s, uint64_t id, uint32_t off, uint32_t len1, uint32_t len2)
{
	struct ibv_sge sge[2] = {
		{ (uintptr_t)s->buf + off, len1, s->mr->lkey },
		{ (uintptr_t)s->buf + off + 8192, len2, s->mr->lkey },
	};
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = len2 ? 2 : 1 }, *bad;

	return ibv_post_recv(s->qp, &wr, &bad);
}

static int post_send(struct side *s, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(s->qp, wr, &bad);
}

static void fill(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + 1);
}

static char why[256];

/* wc[0..n) holds exactly the expected (wr_id, status, opcode) somewhere */
static int find(struct ibv_wc *wc, int n, uint64_t id, enum ibv_wc_status st, int opcode)
{
	for (int i = 0; i < n; i++)
		if (wc[i].wr_id == id) {
			if (wc[i].status != st || (opcode >= 0 && (int)wc[i].opcode != opcode)) {
				snprintf(why, sizeof(why), "wr_id %llu: status %s, opcode %d",
					 (unsigned long long)id, ibv_wc_status_str(wc[i].status),
					 wc[i].opcode);
				return -1;
			}
			return i;
		}
	snprintf(why, sizeof(why), "no completion of wr_id %llu among %d", (unsigned long long)id, n);
	return -1;
}

/*
 * As find, and the completion's vendor_err is ven: the vendor syndrome a
 * ConnectX writes in an error CQE (byte 54), which libmlx5 hands on as it
 * is. The values are those ConnectX-4 to -7 give in public reports
 * (mlx5_engine.c's sd_vendor_synd lists them): local protection 0x51 at
 * the requester, flushed 0xf9, remote access 0x88, remote invalid request
 * 0x8a.
 */
static int find_v(struct ibv_wc *wc, int n, uint64_t id, enum ibv_wc_status st, uint32_t ven)
{
	int r = find(wc, n, id, st, -1);

	if (r >= 0 && wc[r].vendor_err != ven) {
		snprintf(why, sizeof(why), "wr_id %llu: %s, vendor_err 0x%x (want 0x%x)",
			 (unsigned long long)id, ibv_wc_status_str(st), wc[r].vendor_err, ven);
		return -1;
	}
	return r;
}

static int expect_event(enum ibv_event_type type, void *obj, double secs);

static enum ibv_qp_state state_of(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	if (ibv_query_qp(qp, &a, IBV_QP_STATE, &ia))
		return (enum ibv_qp_state)-1;
	return a.qp_state;
}

/* The responder qp refused a request: the event type came for it and it
 * is in ERR; 1, or 0 (why says which not). */
static int refused(enum ibv_event_type type, struct ibv_qp *qp)
{
	if (!expect_event(type, qp, 5))
		return 0;
	if (state_of(qp) != IBV_QPS_ERR) {
		snprintf(why, sizeof(why), "the responder's QP is in state %d", state_of(qp));
		return 0;
	}
	return 1;
}

static void t_send_sges(struct side *a, struct side *b)
{
	struct ibv_sge sge[3] = {
		{ (uintptr_t)a->buf + 100, 1000, a->mr->lkey },
		{ (uintptr_t)a->buf + 5000, 3000, a->mr->lkey },
		{ (uintptr_t)a->buf + 20000, 96, a->mr->lkey },
	};
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = sge, .num_sge = 3, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[2];
	uint8_t want[4096];
	int n, r;

	fill(a->buf, BUF, 1);
	memcpy(want, a->buf + 100, 1000);
	memcpy(want + 1000, a->buf + 5000, 3000);
	memcpy(want + 4000, a->buf + 20000, 96);
	if (post_recv(b, 2, 0, 2048, 4096) || post_send(a, &wr)) {
		report(0, "SEND, 3 SGEs into 2 scatter entries", "post failed");
		return;
	}
	n = reap(wc, 2);
	if (find(wc, n, 1, IBV_WC_SUCCESS, IBV_WC_SEND) < 0 ||
	    (r = find(wc, n, 2, IBV_WC_SUCCESS, IBV_WC_RECV)) < 0) {
		report(0, "SEND, 3 SGEs into 2 scatter entries", why);
		return;
	}
	if (wc[r].byte_len != 4096 || wc[r].src_qp != a->qp->qp_num || wc[r].qp_num != b->qp->qp_num)
		snprintf(why, sizeof(why), "byte_len %u src_qp %u qp_num %u", wc[r].byte_len,
			 wc[r].src_qp, wc[r].qp_num);
	else if (memcmp(b->buf, want, 2048) || memcmp(b->buf + 8192, want + 2048, 2048))
		snprintf(why, sizeof(why), "the data differ");
	else
		why[0] = 0;
	report(!why[0], "SEND, 3 SGEs (4096 bytes) into 2 scatter entries: data, byte_len, src_qp", why);
}

static void t_send_imm_inline(struct side *a, struct side *b)
{
	char msg[40] = "inline data of a SEND with immediate";
	struct ibv_sge sge = { (uintptr_t)msg, sizeof(msg), 0 };
	struct ibv_send_wr wr = { .wr_id = 3, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND_WITH_IMM, .imm_data = htobe32(0x12345678),
				  .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE };
	struct ibv_wc wc[2];
	int n, r;

	memset(b->buf, 0, 64);
	if (post_recv(b, 4, 0, 64, 0) || post_send(a, &wr)) {
		report(0, "SEND with immediate, inline", "post failed");
		return;
	}
	memset(msg, 'x', sizeof(msg));	/* inline: the bytes went with the WQE */
	n = reap(wc, 2);
	if (find(wc, n, 3, IBV_WC_SUCCESS, IBV_WC_SEND) < 0 ||
	    (r = find(wc, n, 4, IBV_WC_SUCCESS, IBV_WC_RECV)) < 0) {
		report(0, "SEND with immediate, inline", why);
		return;
	}
	if (!(wc[r].wc_flags & IBV_WC_WITH_IMM) || be32toh(wc[r].imm_data) != 0x12345678 ||
	    wc[r].byte_len != 40 || strcmp((char *)b->buf, "inline data of a SEND with immediate"))
		snprintf(why, sizeof(why), "flags 0x%x imm 0x%x byte_len %u data '%.40s'",
			 wc[r].wc_flags, be32toh(wc[r].imm_data), wc[r].byte_len, (char *)b->buf);
	else
		why[0] = 0;
	report(!why[0], "SEND with immediate, inline (40 bytes): immediate, data", why);
}

static void t_write(struct side *a, struct side *b, int imm)
{
	struct ibv_sge sge = { (uintptr_t)a->buf + 4096, 10000, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 5, .sg_list = &sge, .num_sge = 1,
				  .opcode = imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE,
				  .imm_data = htobe32(0xabcd),
				  .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { (uintptr_t)b->buf + 30000, b->mr->rkey } };
	const char *what = imm ? "RDMA WRITE with immediate (10000 bytes): data, immediate, byte_len" :
				 "RDMA WRITE (10000 bytes): data";
	struct ibv_wc wc[2];
	int n, r = -1;

	fill(a->buf, BUF, 2 + imm);
	memset(b->buf, 0, BUF);
	if ((imm && post_recv(b, 6, 0, 16, 0)) || post_send(a, &wr)) {
		report(0, what, "post failed");
		return;
	}
	n = reap(wc, imm ? 2 : 1);
	if (find(wc, n, 5, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE) < 0 ||
	    (imm && (r = find(wc, n, 6, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM)) < 0)) {
		report(0, what, why);
		return;
	}
	if (memcmp(b->buf + 30000, a->buf + 4096, 10000) || b->buf[29999] || b->buf[40000])
		snprintf(why, sizeof(why), "the data differ");
	else if (imm && (be32toh(wc[r].imm_data) != 0xabcd || wc[r].byte_len != 10000))
		snprintf(why, sizeof(why), "imm 0x%x byte_len %u", be32toh(wc[r].imm_data),
			 wc[r].byte_len);
	else
		why[0] = 0;
	report(!why[0], what, why);
}

static void t_read(struct side *a, struct side *b)
{
	struct ibv_sge sge[2] = { { (uintptr_t)a->buf + 100, 3000, a->mr->lkey },
				  { (uintptr_t)a->buf + 9000, 5000, a->mr->lkey } };
	struct ibv_send_wr wr = { .wr_id = 7, .sg_list = sge, .num_sge = 2,
				  .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED,
				  .wr.rdma = { (uintptr_t)b->buf + 1234, b->mr->rkey } };
	struct ibv_wc wc[1];
	int n, r;

	fill(b->buf, BUF, 4);
	memset(a->buf, 0, BUF);
	if (post_send(a, &wr)) {
		report(0, "RDMA READ", "post failed");
		return;
	}
	n = reap(wc, 1);
	if ((r = find(wc, n, 7, IBV_WC_SUCCESS, IBV_WC_RDMA_READ)) < 0) {
		report(0, "RDMA READ", why);
		return;
	}
	if (wc[r].byte_len != 8000)
		snprintf(why, sizeof(why), "byte_len %u", wc[r].byte_len);
	else if (memcmp(a->buf + 100, b->buf + 1234, 3000) ||
		 memcmp(a->buf + 9000, b->buf + 4234, 5000))
		snprintf(why, sizeof(why), "the data differ");
	else
		why[0] = 0;
	report(!why[0], "RDMA READ (8000 bytes into 2 SGEs): data, byte_len", why);
}

static uint32_t last_vendor;	/* the vendor_err of atomic1's completion */

/* One atomic WQE from a to the 8 bytes at b->buf + roff, the former value
 * to a->buf + 8; its completion's status, or -1 (why says). */
static int atomic1(struct side *a, struct side *b, uint64_t id, int cs, uint64_t roff,
		   uint32_t rkey, uint64_t op, uint64_t cmp, uint64_t *old)
{
	struct ibv_sge sge = { (uintptr_t)a->buf + 8, 8, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1,
				  .opcode = cs ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[1];
	int n, r;

	wr.wr.atomic.remote_addr = (uintptr_t)b->buf + roff;
	wr.wr.atomic.rkey = rkey;
	wr.wr.atomic.compare_add = cs ? cmp : op;
	wr.wr.atomic.swap = cs ? op : 0;
	memset(a->buf + 8, 0xee, 8);
	if (post_send(a, &wr)) {
		snprintf(why, sizeof(why), "post failed");
		return -1;
	}
	n = reap(wc, 1);
	if (n != 1 || wc[0].wr_id != id) {
		snprintf(why, sizeof(why), "no completion of wr_id %llu", (unsigned long long)id);
		return -1;
	}
	r = 0;
	if (wc[r].status == IBV_WC_SUCCESS &&
	    ((int)wc[r].opcode != (cs ? IBV_WC_COMP_SWAP : IBV_WC_FETCH_ADD) || wc[r].byte_len != 8)) {
		snprintf(why, sizeof(why), "opcode %d byte_len %u", wc[r].opcode, wc[r].byte_len);
		return -1;
	}
	memcpy(old, a->buf + 8, 8);
	last_vendor = wc[r].vendor_err;
	return wc[r].status;
}

/* Fetch-and-add, then compare-and-swap that matches and one that does not:
 * the former values come back, the remote word changes as IB says. */
static void t_atomic(struct side *a, struct side *b)
{
	const char *what = "ATOMIC_FA, ATOMIC_CS (match, mismatch): former values, remote word, opcodes";
	uint64_t v = 100, old[3], now;
	int st[3];

	memcpy(b->buf + 64, &v, 8);
	st[0] = atomic1(a, b, 800, 0, 64, b->mr->rkey, 5, 0, &old[0]);
	st[1] = st[0] ? -1 : atomic1(a, b, 801, 1, 64, b->mr->rkey, 7, 105, &old[1]);
	st[2] = st[1] ? -1 : atomic1(a, b, 802, 1, 64, b->mr->rkey, 9, 1, &old[2]);
	memcpy(&now, b->buf + 64, 8);
	if (st[0] || st[1] || st[2]) {
		if (!why[0])
			snprintf(why, sizeof(why), "status %d %d %d", st[0], st[1], st[2]);
	} else if (old[0] != 100 || old[1] != 105 || old[2] != 7 || now != 7) {
		snprintf(why, sizeof(why), "former %llu %llu %llu, remote now %llu (want 100 105 7, 7)",
			 (unsigned long long)old[0], (unsigned long long)old[1],
			 (unsigned long long)old[2], (unsigned long long)now);
	} else {
		why[0] = 0;
	}
	report(!why[0], what, why);
}

/* An atomic on an MR without remote atomic access, one at an address not
 * 8-byte aligned: remote access, remote invalid request. */
static void t_atomic_bad(void)
{
	struct side a = {}, b = {};
	struct ibv_mr *ro = NULL;
	uint64_t old;
	int st;

	why[0] = 0;
	if (pair(&a, &b) || !(ro = ibv_reg_mr(pd, b.buf + 4096, 4096, IBV_ACCESS_LOCAL_WRITE |
					       IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE))) {
		report(0, "ATOMIC_FA on an MR without remote atomic access", "QPs or MR not made");
		goto out;
	}
	st = atomic1(&a, &b, 810, 0, 4096, ro->rkey, 1, 0, &old);
	if (st >= 0)
		snprintf(why, sizeof(why), "%s, vendor_err 0x%x", ibv_wc_status_str(st), last_vendor);
	report(st == IBV_WC_REM_ACCESS_ERR && last_vendor == 0x88 && state_of(a.qp) == IBV_QPS_ERR,
	       "ATOMIC_FA on an MR without remote atomic access: remote access error (vendor 0x88), the QP in ERR",
	       why);
	/* the responder NAKs it: its QP in ERR, local access violation event */
	report(refused(IBV_EVENT_QP_ACCESS_ERR, b.qp),
	       "the responder of that atomic: QP access error event, its QP in ERR", why);
	unpair(&a, &b);
	if (pair(&a, &b)) {
		report(0, "ATOMIC_CS at an address not 8-byte aligned", "QPs not made");
		goto out;
	}
	st = atomic1(&a, &b, 811, 1, 68, b.mr->rkey, 1, 0, &old);
	if (st >= 0)
		snprintf(why, sizeof(why), "%s, vendor_err 0x%x", ibv_wc_status_str(st), last_vendor);
	report(st == IBV_WC_REM_INV_REQ_ERR && last_vendor == 0x8a,
	       "ATOMIC_CS at an address not 8-byte aligned: remote invalid request (vendor 0x8a)",
	       why);
	report(refused(IBV_EVENT_QP_REQ_ERR, b.qp),
	       "the responder of that atomic: invalid request event, its QP in ERR", why);
out:
	if (ro)
		ibv_dereg_mr(ro);
	unpair(&a, &b);
}

/* WQEs of one basic block (SEND, one SGE) and two (RDMA WRITE, three SGEs)
 * in turn through the ring: some straddle its end. */
static void t_wrap(struct side *a, struct side *b)
{
	int i, bad = 0;

	why[0] = 0;
	for (i = 0; i < 48 && !bad; i++) {
		struct ibv_sge sge[3] = { { (uintptr_t)a->buf + 64 * i, 100, a->mr->lkey },
					  { (uintptr_t)a->buf + 8192, 50, a->mr->lkey },
					  { (uintptr_t)a->buf + 16384, 30, a->mr->lkey } };
		struct ibv_send_wr wr = { .wr_id = 100 + i, .sg_list = sge, .send_flags = IBV_SEND_SIGNALED };
		struct ibv_wc wc[2];
		int two = i % 3 == 1, n, want = two ? 1 : 2;

		fill(a->buf, BUF, 10 + i);
		memset(b->buf, 0, 32768);
		if (two) {
			wr.opcode = IBV_WR_RDMA_WRITE;
			wr.num_sge = 3;
			wr.wr.rdma.remote_addr = (uintptr_t)b->buf + 20000;
			wr.wr.rdma.rkey = b->mr->rkey;
		} else {
			wr.opcode = IBV_WR_SEND;
			wr.num_sge = 1;
			if (post_recv(b, 1000 + i, 0, 128, 0)) {
				snprintf(why, sizeof(why), "post_recv %d failed", i);
				bad = 1;
				break;
			}
		}
		if (post_send(a, &wr)) {
			snprintf(why, sizeof(why), "post_send %d failed", i);
			bad = 1;
			break;
		}
		n = reap(wc, want);
		if (find(wc, n, 100 + i, IBV_WC_SUCCESS, -1) < 0 ||
		    (!two && find(wc, n, 1000 + i, IBV_WC_SUCCESS, IBV_WC_RECV) < 0)) {
			bad = 1;
			break;
		}
		if (two ? memcmp(b->buf + 20000, a->buf + 64 * i, 100) ||
			  memcmp(b->buf + 20100, a->buf + 8192, 50) ||
			  memcmp(b->buf + 20150, a->buf + 16384, 30) :
			  memcmp(b->buf, a->buf + 64 * i, 100)) {
			snprintf(why, sizeof(why), "message %d: the data differ", i);
			bad = 1;
		}
	}
	report(!bad, "48 WQEs of 1 and 2 basic blocks through a 16-entry ring (wrapping)", why);
}

static void t_unsignalled(struct side *a, struct side *b)
{
	struct ibv_sge sge = { (uintptr_t)a->buf, 8, a->mr->lkey };
	struct ibv_send_wr wr[3];
	struct ibv_wc wc[8];
	int i, n, sends = 0;

	for (i = 0; i < 3; i++) {
		wr[i] = (struct ibv_send_wr){ .wr_id = 200 + i, .sg_list = &sge, .num_sge = 1,
					      .opcode = IBV_WR_SEND,
					      .send_flags = i == 2 ? IBV_SEND_SIGNALED : 0,
					      .next = i < 2 ? &wr[i + 1] : NULL };
		post_recv(b, 300 + i, 0, 64, 0);
	}
	if (post_send(a, wr)) {
		report(0, "three SENDs, the last signalled", "post failed");
		return;
	}
	n = reap(wc, 4);
	n += reap_for(wc + n, 1, 0.5);	/* nothing more may come */
	for (i = 0; i < n; i++)
		sends += wc[i].opcode == IBV_WC_SEND;
	if (n != 4 || sends != 1 || find(wc, n, 202, IBV_WC_SUCCESS, IBV_WC_SEND) < 0 ||
	    find(wc, n, 300, IBV_WC_SUCCESS, IBV_WC_RECV) < 0 ||
	    find(wc, n, 302, IBV_WC_SUCCESS, IBV_WC_RECV) < 0) {
		if (!why[0] || n != 4)
			snprintf(why, sizeof(why), "%d completions, %d of sends", n, sends);
		report(0, "three SENDs, the last signalled: one send completion, three receives", why);
		return;
	}
	report(1, "three SENDs, the last signalled: one send completion, three receives", "");
}

static void t_event(struct side *a, struct side *b)
{
	struct ibv_sge sge = { (uintptr_t)a->buf, 8, a->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 400, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct pollfd pfd = { .fd = chan->fd, .events = POLLIN };
	struct ibv_cq *ev_cq;
	struct ibv_wc wc[2];
	void *ev_ctx;
	int n;

	if (ibv_req_notify_cq(cq, 0) || post_recv(b, 401, 0, 64, 0) || post_send(a, &wr)) {
		report(0, "a completion event (ibv_req_notify_cq)", "arm or post failed");
		return;
	}
	if (poll(&pfd, 1, 10000) != 1 || ibv_get_cq_event(chan, &ev_cq, &ev_ctx) || ev_cq != cq) {
		report(0, "a completion event (ibv_req_notify_cq)", "no event within 10 s");
		return;
	}
	ibv_ack_cq_events(cq, 1);
	n = reap(wc, 2);
	report(n == 2, "a completion event after ibv_req_notify_cq, then both completions",
	       "the completions did not follow");
}

static void t_bad_lkey(void)
{
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 64, 0 };
	struct ibv_send_wr wr = { .wr_id = 500, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[4];
	int n;

	if (pair(&a, &b)) {
		report(0, "bad lkey", "QPs not made");
		unpair(&a, &b);
		return;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey ^ 0x5500;
	post_recv(&b, 501, 0, 64, 0);
	post_send(&a, &wr);
	n = reap(wc, 1);
	report(find_v(wc, n, 500, IBV_WC_LOC_PROT_ERR, 0x51) >= 0 && state_of(a.qp) == IBV_QPS_ERR,
	       "SEND with an lkey of no MR: local protection error (vendor 0x51), the QP in ERR", why);
	/* a requester's local error stays local: the peer saw no packet */
	report(state_of(b.qp) == IBV_QPS_RTS, "its peer still in RTS", "the peer left RTS");
	wr.wr_id = 502;
	sge.lkey = a.mr->lkey;
	post_send(&a, &wr);
	n = reap(wc, 1);
	report(find_v(wc, n, 502, IBV_WC_WR_FLUSH_ERR, 0xf9) >= 0,
	       "a WQE posted to the QP in ERR: flushed (vendor 0xf9)", why);
	/* the peer's receive WQE is still there: ERR flushes it */
	{
		struct ibv_qp_attr at = { .qp_state = IBV_QPS_ERR };

		ibv_modify_qp(b.qp, &at, IBV_QP_STATE);
	}
	n = reap(wc, 1);
	report(find_v(wc, n, 501, IBV_WC_WR_FLUSH_ERR, 0xf9) >= 0,
	       "the peer moved to ERR: its receive WQE flushed (vendor 0xf9)", why);
	unpair(&a, &b);
}

/*
 * An RDMA WRITE past the end of the remote MR, or with an rkey that names no
 * MR: the responder NAKs it (IBA's responder class C error), so the
 * requester completes with remote access error (vendor 0x88) and its QP is
 * in ERR, and the responder's QP goes to ERR with the affiliated "local
 * access violation work queue error" (mlx5's WQ_ACCESS_ERROR, which
 * mlx5_ib_qp_event reports as IB_EVENT_QP_ACCESS_ERR); no data lands.
 */
static void t_bad_rkey(int past_end)
{
	const char *what = past_end ? "RDMA WRITE past the remote MR's end" :
				      "RDMA WRITE with an rkey of no MR";
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 64, 0 };
	struct ibv_send_wr wr = { .wr_id = 600, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[2];
	int n;

	if (pair(&a, &b)) {
		report(0, what, "QPs not made");
		unpair(&a, &b);
		return;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	fill(a.buf, 64, 60);
	wr.wr.rdma.remote_addr = (uintptr_t)b.buf + (past_end ? BUF - 32 : 0);
	wr.wr.rdma.rkey = past_end ? b.mr->rkey : b.mr->rkey ^ 0x5500;
	post_send(&a, &wr);
	n = reap(wc, 1);
	why[0] = 0;
	report(find_v(wc, n, 600, IBV_WC_REM_ACCESS_ERR, 0x88) >= 0 && state_of(a.qp) == IBV_QPS_ERR,
	       past_end ? "RDMA WRITE past the remote MR's end: remote access error (vendor 0x88), the QP in ERR" :
			  "RDMA WRITE with an rkey of no MR: remote access error (vendor 0x88), the QP in ERR",
	       why);
	report(refused(IBV_EVENT_QP_ACCESS_ERR, b.qp) &&
	       !b.buf[past_end ? BUF - 32 : 0],
	       past_end ? "its responder: QP access error event, its QP in ERR, no byte written" :
			  "its responder (bad rkey): QP access error event, its QP in ERR, no byte written",
	       why);
	unpair(&a, &b);
}

/*
 * An RDMA READ past the end of the remote MR, with a SEND and an RDMA WRITE
 * posted behind it and a receive WQE waiting at the responder: the READ
 * completes with remote access error (vendor 0x88), nothing is placed in
 * the local buffer; the responder NAKs it and goes to ERR with the QP
 * access error event; the WQEs behind the READ, the responder's receive
 * WQE and a WQE posted afterwards are all flushed (vendor 0xf9).
 */
static void t_read_past_end(void)
{
	const char *what = "RDMA READ past the remote MR's end";
	struct side a = {}, b = {};
	struct ibv_sge rsge = { 0, 64, 0 }, ssge = { 0, 8, 0 };
	struct ibv_send_wr wr[3];
	struct ibv_wc wc[4];
	int n, i, clean = 1;

	if (pair(&a, &b)) {
		report(0, what, "QPs not made");
		unpair(&a, &b);
		return;
	}
	rsge.addr = (uintptr_t)a.buf + 1024;
	rsge.lkey = ssge.lkey = a.mr->lkey;
	ssge.addr = (uintptr_t)a.buf;
	memset(a.buf + 1024, 0xa5, 64);
	fill(b.buf, BUF, 61);
	wr[0] = (struct ibv_send_wr){ .wr_id = 610, .sg_list = &rsge, .num_sge = 1,
				      .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED,
				      .wr.rdma = { (uintptr_t)b.buf + BUF - 32, b.mr->rkey },
				      .next = &wr[1] };
	wr[1] = (struct ibv_send_wr){ .wr_id = 611, .sg_list = &ssge, .num_sge = 1,
				      .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
				      .next = &wr[2] };
	wr[2] = (struct ibv_send_wr){ .wr_id = 612, .sg_list = &ssge, .num_sge = 1,
				      .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				      .wr.rdma = { (uintptr_t)b.buf, b.mr->rkey } };
	if (post_recv(&b, 613, 0, 64, 0) || post_send(&a, wr)) {
		report(0, what, "post failed");
		unpair(&a, &b);
		return;
	}
	n = reap(wc, 4);
	for (i = 0; i < 64; i++)
		clean &= a.buf[1024 + i] == 0xa5;
	if (find_v(wc, n, 610, IBV_WC_REM_ACCESS_ERR, 0x88) < 0)
		;
	else if (state_of(a.qp) != IBV_QPS_ERR)
		snprintf(why, sizeof(why), "the requester's QP is in state %d", state_of(a.qp));
	else if (!clean)
		snprintf(why, sizeof(why), "bytes were placed in the local buffer");
	else
		why[0] = 0;
	report(!why[0], "RDMA READ past the remote MR's end: remote access error (vendor 0x88), the QP in ERR, nothing placed",
	       why);
	report(refused(IBV_EVENT_QP_ACCESS_ERR, b.qp),
	       "its responder: QP access error event, its QP in ERR", why);
	report(find_v(wc, n, 611, IBV_WC_WR_FLUSH_ERR, 0xf9) >= 0 &&
	       find_v(wc, n, 612, IBV_WC_WR_FLUSH_ERR, 0xf9) >= 0 &&
	       find_v(wc, n, 613, IBV_WC_WR_FLUSH_ERR, 0xf9) >= 0 && b.buf[0] == (uint8_t)(61 * 31 + 1),
	       "the SEND and WRITE behind the READ and the responder's receive WQE: flushed (vendor 0xf9), nothing written",
	       why);
	wr[0].next = NULL;
	wr[0].wr_id = 614;
	post_send(&a, wr);
	n = reap(wc, 1);
	report(find_v(wc, n, 614, IBV_WC_WR_FLUSH_ERR, 0xf9) >= 0 && reap_for(wc, 1, 0.3) == 0,
	       "a READ posted afterwards: flushed (vendor 0xf9), and nothing more", why);
	unpair(&a, &b);
}

/*
 * An RDMA READ whose local side is wrong: an lkey of no MR, a scatter entry
 * that runs past the end of its MR (a local buffer too small), an MR
 * without local write. ConnectX checks the local key before it places the
 * response: local protection error (vendor 0x51), the requester's QP in
 * ERR; the responder saw a valid request and stays in RTS.
 */
static void t_read_local(int how)
{
	static const char *const what[] = {
		"RDMA READ into an lkey of no MR: local protection error (vendor 0x51), the QP in ERR, the peer in RTS",
		"RDMA READ into a scatter entry past its MR's end: local protection error (vendor 0x51), the QP in ERR, the peer in RTS",
		"RDMA READ into an MR without local write: local protection error (vendor 0x51), the QP in ERR, the peer in RTS",
	};
	struct side a = {}, b = {};
	struct ibv_mr *mr = NULL;
	struct ibv_sge sge = { 0, 256, 0 };
	struct ibv_send_wr wr = { .wr_id = 620 + how, .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[1];
	int n, good;

	if (pair(&a, &b) || (how && !(mr = ibv_reg_mr(pd, a.buf + 8192, 4096,
							 how == 1 ? IBV_ACCESS_LOCAL_WRITE : 0)))) {
		report(0, what[how], "QPs or MR not made");
		goto out;
	}
	sge.addr = (uintptr_t)a.buf + (how == 1 ? 8192 + 4096 - 100 : 8192);
	sge.lkey = how ? mr->lkey : a.mr->lkey ^ 0x5500;
	wr.wr.rdma.remote_addr = (uintptr_t)b.buf;
	wr.wr.rdma.rkey = b.mr->rkey;
	post_send(&a, &wr);
	n = reap(wc, 1);
	good = find_v(wc, n, 620 + how, IBV_WC_LOC_PROT_ERR, 0x51) >= 0;
	if (good && (state_of(a.qp) != IBV_QPS_ERR || state_of(b.qp) != IBV_QPS_RTS)) {
		snprintf(why, sizeof(why), "the QPs are in states %d and %d", state_of(a.qp),
			 state_of(b.qp));
		good = 0;
	}
	report(good, what[how], why);
out:
	if (mr)
		ibv_dereg_mr(mr);
	unpair(&a, &b);
}

static void t_short_recv(void)
{
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 256, 0 };
	struct ibv_send_wr wr = { .wr_id = 700, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[2];
	int n, good;

	if (pair(&a, &b)) {
		report(0, "short receive", "QPs not made");
		unpair(&a, &b);
		return;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	post_recv(&b, 701, 0, 100, 0);
	post_send(&a, &wr);
	n = reap(wc, 2);
	/* the responder's local length CQE has a vendor syndrome no public
	 * report shows: only its status is checked */
	good = find(wc, n, 701, IBV_WC_LOC_LEN_ERR, -1) >= 0 &&
	       find_v(wc, n, 700, IBV_WC_REM_INV_REQ_ERR, 0x8a) >= 0;
	if (good && (state_of(a.qp) != IBV_QPS_ERR || state_of(b.qp) != IBV_QPS_ERR)) {
		snprintf(why, sizeof(why), "the QPs are in states %d and %d", state_of(a.qp),
			 state_of(b.qp));
		good = 0;
	}
	report(good,
	       "256 bytes into a 100-byte receive: local length error at the responder, remote invalid request (vendor 0x8a) at the requester, both QPs in ERR",
	       why);
	unpair(&a, &b);
}

/*
 * A memory window of type 2 over part of b's buffer: bound by a BIND_MW WQE
 * on b's QP (libmlx5's UMR WQE, IBV_WC_BIND_MW), an RDMA WRITE of a through
 * its key lands inside it; a SEND with
 * invalidate of a frees it (b's receive completion says so and names the
 * key); then a WRITE through the key is a remote access error, the
 * responder in ERR with its QP access error event.
 */
static void t_mw(void)
{
	const char *what = "memory window type 2";
	struct side a = {}, b = {};
	struct ibv_mr *mr = NULL;
	struct ibv_mw *mw = NULL;
	struct ibv_sge sge = { 0, 64, 0 };
	struct ibv_send_wr wr = {};
	struct ibv_wc wc[2];
	uint32_t rkey;
	int n, r;

	why[0] = 0;
	if (pair(&a, &b) ||
	    !(mr = ibv_reg_mr(pd, b.buf, BUF, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_READ | IBV_ACCESS_MW_BIND)) ||
	    !(mw = ibv_alloc_mw(pd, IBV_MW_TYPE_2))) {
		report(0, what, "QPs, MR or window not made");
		goto out;
	}
	rkey = ibv_inc_rkey(mw->rkey);
	wr = (struct ibv_send_wr){ .wr_id = 950, .opcode = IBV_WR_BIND_MW,
				   .send_flags = IBV_SEND_SIGNALED };
	wr.bind_mw.mw = mw;
	wr.bind_mw.rkey = rkey;
	wr.bind_mw.bind_info = (struct ibv_mw_bind_info){ .mr = mr,
							  .addr = (uintptr_t)b.buf + 4096,
							  .length = 4096,
							  .mw_access_flags = IBV_ACCESS_REMOTE_WRITE |
									     IBV_ACCESS_REMOTE_READ };
	if (post_send(&b, &wr)) {
		report(0, "BIND_MW of a type 2 window", "post failed");
		goto out;
	}
	n = reap(wc, 1);
	report(find(wc, n, 950, IBV_WC_SUCCESS, IBV_WC_BIND_MW) >= 0,
	       "BIND_MW of a type 2 window over 4096 bytes of an MR: completes (IBV_WC_BIND_MW)", why);
	mw->rkey = rkey;	/* IB: the new key is the one the bind gave */

	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	fill(a.buf, 64, 95);
	memset(b.buf, 0, BUF);
	wr = (struct ibv_send_wr){ .wr_id = 951, .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				   .wr.rdma = { (uintptr_t)b.buf + 4096 + 1000, rkey } };
	post_send(&a, &wr);
	n = reap(wc, 1);
	if (find(wc, n, 951, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE) < 0)
		;
	else if (memcmp(b.buf + 5096, a.buf, 64))
		snprintf(why, sizeof(why), "the data differ");
	else
		why[0] = 0;
	report(!why[0], "RDMA WRITE through the window's key: data in place", why);

	post_recv(&b, 952, 0, 64, 0);
	wr = (struct ibv_send_wr){ .wr_id = 953, .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_SEND_WITH_INV, .send_flags = IBV_SEND_SIGNALED,
				   .invalidate_rkey = rkey };
	post_send(&a, &wr);
	n = reap(wc, 2);
	if (find(wc, n, 953, IBV_WC_SUCCESS, IBV_WC_SEND) < 0 ||
	    (r = find(wc, n, 952, IBV_WC_SUCCESS, IBV_WC_RECV)) < 0)
		;
	else if (!(wc[r].wc_flags & IBV_WC_WITH_INV) || wc[r].invalidated_rkey != rkey)
		snprintf(why, sizeof(why), "flags 0x%x, invalidated_rkey 0x%x (want 0x%x)",
			 wc[r].wc_flags, wc[r].invalidated_rkey, rkey);
	else
		why[0] = 0;
	report(!why[0], "SEND with invalidate of the window's key: IBV_WC_WITH_INV, the key named",
	       why);
	why[0] = 0;

	wr = (struct ibv_send_wr){ .wr_id = 954, .sg_list = &sge, .num_sge = 1,
				   .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				   .wr.rdma = { (uintptr_t)b.buf + 4096, rkey } };
	memset(b.buf + 4096, 0, 64);
	post_send(&a, &wr);
	n = reap(wc, 1);
	report(find_v(wc, n, 954, IBV_WC_REM_ACCESS_ERR, 0x88) >= 0 && refused(IBV_EVENT_QP_ACCESS_ERR, b.qp) &&
	       !b.buf[4096],
	       "RDMA WRITE through the invalidated key: remote access error (vendor 0x88), the responder in ERR",
	       why);
out:
	if (mw)
		ibv_dealloc_mw(mw);
	if (mr)
		ibv_dereg_mr(mr);
	unpair(&a, &b);
}

/* ---- receiver not ready, asynchronous events ---------------------------- */

/* A SEND before its receive: nothing completes while no receive WQE is
 * posted (rnr_retry 7 waits for ever); once one is, both complete. */
static void t_rnr_late(void)
{
	const char *what = "SEND before its receive (rnr_retry 7): waits, completes once the receive is posted";
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 64, 0 };
	struct ibv_send_wr wr = { .wr_id = 900, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[2];
	int n;

	why[0] = 0;
	if (pair(&a, &b)) {
		report(0, what, "QPs not made");
		unpair(&a, &b);
		return;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	fill(a.buf, 64, 9);
	post_send(&a, &wr);
	n = reap_for(wc, 1, 0.5);
	if (n)
		snprintf(why, sizeof(why), "a completion (status %s) with no receive posted",
			 ibv_wc_status_str(wc[0].status));
	else if (post_recv(&b, 901, 0, 64, 0))
		snprintf(why, sizeof(why), "post_recv failed");
	else if ((n = reap(wc, 2)), find(wc, n, 900, IBV_WC_SUCCESS, IBV_WC_SEND) < 0 ||
		 find(wc, n, 901, IBV_WC_SUCCESS, IBV_WC_RECV) < 0)
		;
	else if (memcmp(a.buf, b.buf, 64))
		snprintf(why, sizeof(why), "the data differ");
	else
		why[0] = 0;
	report(!why[0], what, why);
	unpair(&a, &b);
}

/* rnr_retry 0: a SEND with no receive fails, RNR retry exceeded (mlx5's
 * syndrome 0x16), the QP in ERR. */
static void t_rnr_exceeded(void)
{
	const char *what = "SEND with no receive, rnr_retry 0: RNR retry exceeded, the QP in ERR";
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 64, 0 };
	struct ibv_send_wr wr = { .wr_id = 910, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[1];
	int n, r;

	rnr_retry = 0;
	r = pair(&a, &b);
	rnr_retry = 7;
	if (r) {
		report(0, what, "QPs not made");
		unpair(&a, &b);
		return;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	post_send(&a, &wr);
	n = reap(wc, 1);
	report(find(wc, n, 910, IBV_WC_RNR_RETRY_EXC_ERR, -1) >= 0 && state_of(a.qp) == IBV_QPS_ERR,
	       what, why);
	unpair(&a, &b);
}

/* A QP whose path names a QPN no QP has: no ACK ever comes, so after
 * retry_cnt + 1 timeouts (7 + 1 of 4.096 us << 14, about 0.5 s) the SEND
 * fails with transport retry exceeded (vendor 0x81) and the QP is in ERR. */
static void t_retry_exceeded(void)
{
	const char *what = "SEND to a QPN no QP has: transport retry exceeded (vendor 0x81), the QP in ERR";
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 64, 0 };
	struct ibv_send_wr wr = { .wr_id = 915, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_wc wc[1];
	int n;

	if (make_side(&a) || make_side(&b) || connect_to(&a, b.qp->qp_num + 0x1000)) {
		report(0, what, "QP not made");
		unpair(&a, &b);
		return;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	post_send(&a, &wr);
	n = reap(wc, 1);
	if (find_v(wc, n, 915, IBV_WC_RETRY_EXC_ERR, 0x81) < 0)
		;
	else if (state_of(a.qp) != IBV_QPS_ERR)
		snprintf(why, sizeof(why), "the QP is in state %d", state_of(a.qp));
	else
		why[0] = 0;
	report(!why[0], what, why);
	unpair(&a, &b);
}

/* The next asynchronous event within secs, acknowledged; 0, or -1 (none). */
static int async_event(struct ibv_async_event *ev, double secs)
{
	struct pollfd pfd = { .fd = ctx->async_fd, .events = POLLIN };

	if (poll(&pfd, 1, (int)(secs * 1000)) != 1 || ibv_get_async_event(ctx, ev))
		return -1;
	ibv_ack_async_event(ev);
	return 0;
}

/* An event of type on the object obj (QP, CQ or SRQ) among those that
 * come within secs; 1 found, 0 not (why names what came). */
static int expect_event(enum ibv_event_type type, void *obj, double secs)
{
	struct ibv_async_event ev;
	double end = now_s() + secs;

	snprintf(why, sizeof(why), "no %s event", ibv_event_type_str(type));
	while (now_s() < end && async_event(&ev, end - now_s()) == 0) {
		void *o = ev.event_type == IBV_EVENT_CQ_ERR ? (void *)ev.element.cq :
			  ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED ||
			  ev.event_type == IBV_EVENT_SRQ_ERR ? (void *)ev.element.srq :
			  (void *)ev.element.qp;

		if (ev.event_type == type && o == obj)
			return 1;
		snprintf(why, sizeof(why), "%s event (not %s)", ibv_event_type_str(ev.event_type),
			 ibv_event_type_str(type));
	}
	return 0;
}

/*
 * A QP on an SRQ: SRQ limit (armed at 3 of 4 posted WQEs, reached after
 * the second message, then disarmed), and last WQE reached when the QP is
 * moved to ERR.
 */
static void t_srq_events(void)
{
	struct side a = {}, b = {};
	struct ibv_srq_init_attr sia = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct ibv_srq_attr sa = { .srq_limit = 3 };
	struct ibv_qp_attr at = { .qp_state = IBV_QPS_ERR };
	struct ibv_sge sge = { 0, 16, 0 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_srq *srq = ibv_create_srq(pd, &sia);
	struct ibv_wc wc[16];
	int i, n, n2, early;

	why[0] = 0;
	if (!srq || make_side(&a) || make_side_on(&b, cq, cq, srq, 0) ||
	    connect_to(&a, b.qp->qp_num) || connect_to(&b, a.qp->qp_num)) {
		report(0, "SRQ limit", "SRQ or QPs not made");
		goto out;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	for (i = 0; i < 4; i++) {
		struct ibv_sge rs = { (uintptr_t)b.buf + 64 * i, 64, b.mr->lkey };
		struct ibv_recv_wr rw = { .wr_id = 920 + i, .sg_list = &rs, .num_sge = 1 }, *bad;

		if (ibv_post_srq_recv(srq, &rw, &bad)) {
			report(0, "SRQ limit", "post_srq_recv failed");
			goto out;
		}
	}
	if (ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT)) {
		report(0, "SRQ limit", "ibv_modify_srq(IBV_SRQ_LIMIT) failed");
		goto out;
	}
	wr.wr_id = 930;
	post_send(&a, &wr);
	n = reap(wc, 2);
	early = n == 2 && expect_event(IBV_EVENT_SRQ_LIMIT_REACHED, srq, 0.3);
	wr.wr_id = 931;
	post_send(&a, &wr);
	n2 = reap(wc, 2);
	if (n != 2)
		snprintf(why, sizeof(why), "%d completions of the first message", n);
	else if (early)
		snprintf(why, sizeof(why), "an SRQ limit event after the first message (3 left, limit 3)");
	else if (n2 != 2)
		snprintf(why, sizeof(why), "%d completions of the second message", n2);
	else if (!expect_event(IBV_EVENT_SRQ_LIMIT_REACHED, srq, 5))
		;	/* why says what came */
	else if (ibv_query_srq(srq, &sa) || sa.srq_limit)
		snprintf(why, sizeof(why), "limit %u after the event (want 0: disarmed)", sa.srq_limit);
	else
		why[0] = 0;
	report(!why[0], "SRQ limit 3 of 4 WQEs: no event at 3 left, one at 2, then disarmed (limit 0)",
	       why);
	ibv_modify_qp(b.qp, &at, IBV_QP_STATE);
	report(expect_event(IBV_EVENT_QP_LAST_WQE_REACHED, b.qp, 5),
	       "a QP on an SRQ moved to ERR: last WQE reached", why);
	reap_for(wc, 16, 0.3);	/* the SRQ's WQEs are not the QP's: nothing is flushed */
out:
	unpair(&a, &b);
	if (srq)
		ibv_destroy_srq(srq);
}

/*
 * CQ overrun: a QP whose send CQ has two entries posts four signalled
 * WRITEs and nobody polls: CQ error on that CQ, QP fatal on the QP, which
 * is in ERR. The same on a CQ created to ignore overrun (as UCX asks): no
 * event, the QP stays in RTS.
 */
static void t_cq_overrun(int ignore)
{
	const char *what = ignore ? "CQ overrun on a CQ that ignores it: no event, the QP in RTS" :
				    "CQ overrun: CQ error event, QP fatal event, the QP in ERR";
	struct ibv_cq_init_attr_ex cia = { .cqe = 1, .wc_flags = IBV_WC_STANDARD_FLAGS,
					   .comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS,
					   .flags = IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN };
	struct side a = {}, b = {};
	struct ibv_sge sge = { 0, 8, 0 };
	struct ibv_send_wr wr[4];
	struct ibv_async_event ev;
	struct ibv_cq *small;
	struct ibv_wc wc[4];
	int i;

	why[0] = 0;
	small = ignore ? ibv_cq_ex_to_cq(ibv_create_cq_ex(ctx, &cia)) : ibv_create_cq(ctx, 1, NULL,
										    NULL, 0);
	if (!small || make_side_on(&a, small, cq, NULL, 0) || make_side(&b) ||
	    connect_to(&a, b.qp->qp_num) || connect_to(&b, a.qp->qp_num)) {
		report(0, what, "CQ or QPs not made");
		goto out;
	}
	sge.addr = (uintptr_t)a.buf;
	sge.lkey = a.mr->lkey;
	for (i = 0; i < 4; i++)
		wr[i] = (struct ibv_send_wr){ .wr_id = 940 + i, .sg_list = &sge, .num_sge = 1,
					      .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
					      .wr.rdma = { (uintptr_t)b.buf, b.mr->rkey },
					      .next = i < 3 ? &wr[i + 1] : NULL };
	if (post_send(&a, wr)) {
		report(0, what, "post failed");
		goto out;
	}
	if (ignore) {
		if (async_event(&ev, 1.5) == 0)
			snprintf(why, sizeof(why), "%s event", ibv_event_type_str(ev.event_type));
		else if (state_of(a.qp) != IBV_QPS_RTS)
			snprintf(why, sizeof(why), "the QP is in state %d", state_of(a.qp));
		report(!why[0], what, why);
	} else {
		int cq_err = 0, fatal = 0;
		double end = now_s() + 10;

		while (now_s() < end && (!cq_err || !fatal) && async_event(&ev, end - now_s()) == 0) {
			if (ev.event_type == IBV_EVENT_CQ_ERR && ev.element.cq == small)
				cq_err = 1;
			else if (ev.event_type == IBV_EVENT_QP_FATAL && ev.element.qp == a.qp)
				fatal = 1;
		}
		snprintf(why, sizeof(why), "CQ error %s, QP fatal %s, QP state %d", cq_err ? "seen" : "not seen",
			 fatal ? "seen" : "not seen", state_of(a.qp));
		report(cq_err && fatal && state_of(a.qp) == IBV_QPS_ERR, what, why);
	}
	reap_for(wc, 4, 0.1);
out:
	unpair(&a, &b);
	if (small)
		ibv_destroy_cq(small);
}

/*
 * A WQE written into the send ring by hand (mlx5dv's view of the QP), as a
 * faulty writer would: the engine must refuse it with an error CQE and a
 * log line, or run it (NOP). Returns the completion's status, or -1.
 */
static int raw_wqe(uint16_t index, uint8_t opcode, int qpn_delta, uint8_t ds, const char *what)
{
	struct side a = {}, b = {};
	struct mlx5dv_qp dv = {};
	struct mlx5dv_obj obj = { .qp = { .out = &dv } };
	struct ibv_wc wc;
	uint32_t *w;
	int n, st = -1;

	if (pair(&a, &b)) {
		report(0, what, "QPs not made");
		unpair(&a, &b);
		return -1;
	}
	obj.qp.in = a.qp;
	if (mlx5dv_init_obj(&obj, MLX5DV_OBJ_QP)) {
		report(0, what, "mlx5dv_init_obj failed");
		unpair(&a, &b);
		return -1;
	}
	w = dv.sq.buf;
	memset(w, 0, 64);
	w[0] = htobe32((uint32_t)index << 8 | opcode);
	w[1] = htobe32((a.qp->qp_num + qpn_delta) << 8 | ds);
	w[2] = htobe32(MLX5_WQE_CTRL_CQ_UPDATE);	/* fm_ce_se: byte 11 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	dv.dbrec[MLX5_SND_DBR] = htobe32(1);
	n = reap(&wc, 1);
	if (n == 1)
		st = wc.status;
	unpair(&a, &b);
	return st;
}

static void t_raw(void)
{
	int st;

	st = raw_wqe(5, MLX5_OPCODE_SEND, 0, 1, "a WQE whose index field is 5 at counter 0");
	report(st == IBV_WC_LOC_QP_OP_ERR,
	       "a WQE whose index field is 5 at counter 0: local QP operation error",
	       st < 0 ? "no completion" : ibv_wc_status_str(st));
	st = raw_wqe(0, MLX5_OPCODE_SEND, 1, 1, "a WQE naming another QPN");
	report(st == IBV_WC_LOC_QP_OP_ERR, "a WQE naming another QPN: local QP operation error",
	       st < 0 ? "no completion" : ibv_wc_status_str(st));
	st = raw_wqe(0, MLX5_OPCODE_RDMA_WRITE, 0, 1, "an RDMA WRITE of ds 1 (no remote address)");
	report(st == IBV_WC_LOC_QP_OP_ERR,
	       "an RDMA WRITE of ds 1 (no room for its remote address): local QP operation error",
	       st < 0 ? "no completion" : ibv_wc_status_str(st));
	st = raw_wqe(0, MLX5_OPCODE_NOP, 0, 1, "a NOP");
	report(st == IBV_WC_SUCCESS, "a NOP: a successful completion",
	       st < 0 ? "no completion" : ibv_wc_status_str(st));
}

/* The CQ's CQE k (counted from its first), raw (its 64-byte CQE), once
 * the device wrote it (10 s at most). */
static const uint8_t *raw_cqe(const struct mlx5dv_cq *d, uint32_t k)
{
	const uint8_t *e = (const uint8_t *)d->buf + (size_t)(k & (d->cqe_cnt - 1)) * d->cqe_size;
	const uint8_t *c = e + d->cqe_size - 64;
	double end = now_s() + 10;

	while (now_s() < end) {
		uint8_t v = __atomic_load_n(&c[63], __ATOMIC_ACQUIRE);

		if (v >> 4 != MLX5_CQE_INVALID && (v & 1) == !!(k & d->cqe_cnt))
			break;
	}
	return c;
}

/*
 * The CQ's CQE k, raw: opcode op, op_own's inline scatter bit 0x04 (the
 * data in the CQE's first 32 bytes), the byte count len and those bytes
 * equal to data. 0, or -1 with why.
 */
static int raw_cqe_scattered(const struct mlx5dv_cq *d, uint32_t k, uint8_t op,
			     const uint8_t *data, uint32_t len)
{
	const uint8_t *c = raw_cqe(d, k);
	uint8_t v = c[63];

	if (v >> 4 != op || (v & 0x0c) != 0x04)
		snprintf(why, sizeof(why), "CQE %u: op_own 0x%02x, want opcode %u with bit 0x04", k,
			 v, op);
	else if (be32toh(*(const uint32_t *)(c + 44)) != len || memcmp(c, data, len))
		snprintf(why, sizeof(why), "CQE %u: byte count %u, or not the %u bytes sent", k,
			 be32toh(*(const uint32_t *)(c + 44)), len);
	else
		return 0;
	return -1;
}

static int zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/*
 * Scatter to CQE through libmlx5 (its copies out of the CQE into the
 * receive WQE's and the send WQE's scatter entries): a pair on a CQ of its
 * own (64-byte CQEs, libmlx5's default), a's QP made with sq_sig_all,
 * which mlx5_ib needs to scatter READ and atomic responses. A SEND of 20
 * bytes into a receive of two entries (8 + 4096), an RDMA READ of 16 bytes
 * into two SGEs (4 + 12) and a fetch-and-add: each CQE read raw (mlx5dv)
 * before the poll carries the bit and the bytes while the target buffer is
 * still untouched; after ibv_poll_cq the bytes are where the WR put them.
 */
static void t_scatter(void)
{
	const char *what = "scatter to CQE through libmlx5: a SEND of 20 bytes into 2 scatter "
			   "entries, with sq_sig_all a READ of 16 into 2 SGEs and FETCH_AND_ADD: "
			   "in the CQE (bit 0x04), then where the WR put them";
	struct ibv_cq *saved = cq, *own = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct mlx5dv_cq d = {};
	struct mlx5dv_obj obj = { .cq = { .in = own, .out = &d } };
	struct side a = {}, b = {};
	struct ibv_wc wc[2];
	uint32_t k = 0;
	uint64_t was = 0x0123456789abcdefull, old;
	int n, r;

	why[0] = 0;
	if (!own || mlx5dv_init_obj(&obj, MLX5DV_OBJ_CQ)) {
		report(0, what, "no CQ of its own");
		if (own)
			ibv_destroy_cq(own);
		return;
	}
	cq = own;	/* reap() polls it */
	if (make_side_on(&a, own, own, NULL, 1) || make_side_on(&b, own, own, NULL, 0) ||
	    connect_to(&a, b.qp->qp_num) || connect_to(&b, a.qp->qp_num)) {
		snprintf(why, sizeof(why), "QPs not made: %s", strerror(errno));
		goto out;
	}
	/* a SEND of 20 bytes to b: 8 in the first entry, 12 in the second */
	fill(a.buf, 256, 11);
	{
		struct ibv_sge sge = { (uintptr_t)a.buf, 20, a.mr->lkey };
		struct ibv_send_wr wr = { .wr_id = 1100, .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_SEND };

		if (post_recv(&b, 1101, 0, 8, 4096) || post_send(&a, &wr)) {
			snprintf(why, sizeof(why), "SEND: post failed");
			goto out;
		}
	}
	/* the receive's CQE and the send's, in either order */
	if (raw_cqe_scattered(&d, k + (raw_cqe(&d, k)[63] >> 4 == MLX5_CQE_REQ), MLX5_CQE_RESP_SEND,
			      a.buf, 20))
		goto out;
	if (!zero(b.buf, 64) || !zero(b.buf + 8192, 64)) {
		snprintf(why, sizeof(why), "SEND: the device wrote the receive's buffer");
		goto out;
	}
	k += 2;
	n = reap(wc, 2);
	if (find(wc, n, 1100, IBV_WC_SUCCESS, IBV_WC_SEND) < 0 ||
	    (r = find(wc, n, 1101, IBV_WC_SUCCESS, IBV_WC_RECV)) < 0)
		goto out;
	if (wc[r].byte_len != 20 || memcmp(b.buf, a.buf, 8) || memcmp(b.buf + 8192, a.buf + 8, 12) ||
	    b.buf[8] || b.buf[8192 + 12]) {
		snprintf(why, sizeof(why), "SEND: byte_len %u, or the data not where the receive "
			 "put them", wc[r].byte_len);
		goto out;
	}
	/* a READ of 16 bytes from b, not flagged: sq_sig_all signals it */
	fill(b.buf + 1024, 16, 12);
	{
		struct ibv_sge sge[2] = { { (uintptr_t)a.buf + 1024, 4, a.mr->lkey },
					  { (uintptr_t)a.buf + 1056, 12, a.mr->lkey } };
		struct ibv_send_wr wr = { .wr_id = 1102, .sg_list = sge, .num_sge = 2,
					  .opcode = IBV_WR_RDMA_READ,
					  .wr.rdma = { (uintptr_t)b.buf + 1024, b.mr->rkey } };

		memset(a.buf + 1024, 0, 64);
		if (post_send(&a, &wr)) {
			snprintf(why, sizeof(why), "READ: post failed");
			goto out;
		}
	}
	if (raw_cqe_scattered(&d, k++, MLX5_CQE_REQ, b.buf + 1024, 16))
		goto out;
	if (!zero(a.buf + 1024, 64)) {
		snprintf(why, sizeof(why), "READ: the device wrote the local SGEs");
		goto out;
	}
	n = reap(wc, 1);
	if ((r = find(wc, n, 1102, IBV_WC_SUCCESS, IBV_WC_RDMA_READ)) < 0)
		goto out;
	if (wc[r].byte_len != 16 || memcmp(a.buf + 1024, b.buf + 1024, 4) ||
	    memcmp(a.buf + 1056, b.buf + 1028, 12) || a.buf[1028] || a.buf[1068]) {
		snprintf(why, sizeof(why), "READ: byte_len %u, or the data not in the SGEs",
			 wc[r].byte_len);
		goto out;
	}
	/* FETCH_AND_ADD: the former value in the CQE */
	memcpy(b.buf + 2048, &was, 8);
	memset(a.buf + 2048, 0, 8);
	{
		struct ibv_sge sge = { (uintptr_t)a.buf + 2048, 8, a.mr->lkey };
		struct ibv_send_wr wr = { .wr_id = 1103, .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD };

		wr.wr.atomic.remote_addr = (uintptr_t)b.buf + 2048;
		wr.wr.atomic.rkey = b.mr->rkey;
		wr.wr.atomic.compare_add = 2;
		if (post_send(&a, &wr)) {
			snprintf(why, sizeof(why), "FETCH_AND_ADD: post failed");
			goto out;
		}
	}
	if (raw_cqe_scattered(&d, k++, MLX5_CQE_REQ, (const uint8_t *)&was, 8))
		goto out;
	if (!zero(a.buf + 2048, 8)) {
		snprintf(why, sizeof(why), "FETCH_AND_ADD: the device wrote the local SGE");
		goto out;
	}
	n = reap(wc, 1);
	if ((r = find(wc, n, 1103, IBV_WC_SUCCESS, IBV_WC_FETCH_ADD)) < 0)
		goto out;
	memcpy(&old, a.buf + 2048, 8);
	if (old != was || memcmp(b.buf + 2048, &(uint64_t){ was + 2 }, 8))
		snprintf(why, sizeof(why), "FETCH_AND_ADD: former value %#llx (want %#llx)",
			 (unsigned long long)old, (unsigned long long)was);
out:
	report(!why[0], what, why);
	unpair(&a, &b);
	cq = saved;
	ibv_destroy_cq(own);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "mlx5_0";
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct side a = {}, b = {};

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (!ctx || !(pd = ibv_alloc_pd(ctx)) || !(chan = ibv_create_comp_channel(ctx)) ||
	    !(cq = ibv_create_cq(ctx, 256, NULL, chan, 0)) || ibv_query_gid(ctx, 1, 0, &gid)) {
		printf("kt_mlx5_data: no %s, PD, channel, CQ or GID: %s\nkt_mlx5_data: FAIL\n", name,
		       strerror(errno));
		return 1;
	}
	if (pair(&a, &b)) {
		printf("kt_mlx5_data: two connected RC QPs: %s\nkt_mlx5_data: FAIL\n", strerror(errno));
		return 1;
	}
	printf("QPs 0x%x and 0x%x connected\n", a.qp->qp_num, b.qp->qp_num);
	t_send_sges(&a, &b);
	t_send_imm_inline(&a, &b);
	t_write(&a, &b, 0);
	t_write(&a, &b, 1);
	t_read(&a, &b);
	t_atomic(&a, &b);
	t_wrap(&a, &b);
	t_unsignalled(&a, &b);
	t_event(&a, &b);
	unpair(&a, &b);
	t_scatter();
	t_bad_lkey();
	t_bad_rkey(1);
	t_bad_rkey(0);
	t_read_past_end();
	t_read_local(0);
	t_read_local(1);
	t_read_local(2);
	t_mw();
	t_short_recv();
	t_atomic_bad();
	t_rnr_late();
	t_rnr_exceeded();
	t_retry_exceeded();
	t_srq_events();
	t_cq_overrun(0);
	t_cq_overrun(1);
	t_raw();
	ibv_destroy_cq(cq);
	ibv_destroy_comp_channel(chan);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	printf("kt_mlx5_data: %s\n", failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}
