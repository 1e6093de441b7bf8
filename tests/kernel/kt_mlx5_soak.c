// SPDX-License-Identifier: MIT
/*
 * kt_mlx5_soak: two processes, four threads each, each thread owning one RC
 * QP connected to the same-numbered thread's QP in the other process, on
 * the mlx5 stand-in's emulated ConnectX (tests/standin/mlx5) through the
 * stock libmlx5. Both directions of every QP carry, for the given time,
 * messages of three kinds in turn: a SEND, an RDMA WRITE into a slot of the
 * peer's buffer followed by a SEND that names it, an RDMA WRITE with
 * immediate into a slot. Every message is 16 to 4096 bytes of a pattern of
 * its thread, its sequence number and its length; the receiver checks
 * every byte, the sequence (RC keeps order: each message the one after the
 * last), every completion's wr_id, status and opcode, each receive's
 * length; the sender checks that each signalled WQE completes once, in
 * order. A last SEND
 * carries the count; at the end each process tells the other what it
 * received, and the counts must agree: nothing lost, nothing doubled.
 * (kernel/6.1-mlx5-data and 6.12 run it from tests/kernel/kt_mlx5_data.sh.)
 *
 *   kt_mlx5_soak [DEVICE [SECONDS]]    (default mlx5_0, 8 s)
 *
 * Prints one line per thread and process, and "kt_mlx5_soak: PASS" or
 * "kt_mlx5_soak: FAIL" last; the exit status is 0 for PASS.
 *
 * Flow: a slot is reused only after its message was checked. Each message
 * takes one receive WQE of the peer, which reposts it only after checking
 * the message; with rnr_retry 7 a message that finds no receive WQE waits
 * (RNR), and the WQEs behind it wait too (RC order), so at most RECVS
 * messages are written and not yet checked: SLOTS > RECVS + 1 is enough.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#define THREADS 4
#define MSG 4096		/* the largest message, a slot's and a receive buffer's size */
#define RECVS 16		/* receive WQEs of a QP */
#define SLOTS (2 * RECVS)	/* WRITE targets in a QP's buffer */
#define INFLIGHT 16		/* messages posted and not completed, per thread */
#define SQ_DEPTH 64
#define MAGIC 0x5a0a0000u
#define FLAG_NOTE 0x1u		/* a SEND naming the slot a WRITE filled */
#define FLAG_FIN 0x2u		/* the last message: seq is the count sent */
#define GRACE 60		/* seconds past the end for the last messages */

struct hdr {			/* the first 16 bytes of each SEND */
	uint32_t tag;		/* MAGIC | tid << 8 | flags */
	uint32_t seq;
	uint32_t len;		/* FLAG_NOTE: the WRITE's length */
	uint32_t slot;		/* FLAG_NOTE: its slot */
};

/* One thread's buffer, registered once: receive buffers, WRITE slots,
 * send buffers (one per message in flight). */
struct layout {
	uint8_t recv[RECVS][MSG];
	uint8_t slot[SLOTS][MSG];
	uint8_t send[INFLIGHT][MSG];
};

struct peer_info {		/* what the other process needs of one thread */
	uint32_t qpn;
	uint32_t rkey;
	uint64_t slots;		/* the address of its slot[0] */
};

struct result {			/* one thread's counts */
	uint64_t sent, recvd, sends, writes, write_imms, bytes_sent, bytes_checked;
	uint64_t wqes, send_cqes, recv_cqes;
	int failed;
	char why[200];
};

struct thr {
	int tid;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct layout *buf;
	struct peer_info peer;
	struct result r;
	/* wr_ids of the signalled WQEs posted and not completed, in order */
	uint64_t fifo[SQ_DEPTH];
	unsigned int head, tail;
	uint32_t msgs_done;	/* messages whose last WQE completed */
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static union ibv_gid gid;
static double t_end;
static const char *side;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* A message's length (16..MSG) and its bytes: its thread, number, offset. */
static uint32_t msg_len(uint32_t seq)
{
	return 16 + (seq * 2654435761u >> 7) % (MSG - 15);
}

static uint8_t pat(int tid, uint32_t seq, uint32_t i)
{
	return (uint8_t)(seq * 131 + tid * 17 + i * 7 + (i >> 8) + 1);
}

static void fail(struct thr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct thr *t, const char *fmt, ...)
{
	va_list ap;

	if (t->r.failed++)
		return;
	va_start(ap, fmt);
	vsnprintf(t->r.why, sizeof(t->r.why), fmt, ap);
	va_end(ap);
}

static int post_recv(struct thr *t, unsigned int i)
{
	struct ibv_sge sge = { (uintptr_t)t->buf->recv[i], MSG, t->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(t->qp, &wr, &bad);
}

/* Fill the send buffer of message seq: for a SEND the header first. */
static uint8_t *fill_msg(struct thr *t, uint32_t seq, uint32_t len, int with_hdr)
{
	uint8_t *p = t->buf->send[seq % INFLIGHT];
	uint32_t i = 0;

	if (with_hdr) {
		struct hdr h = { MAGIC | t->tid << 8, seq, len, 0 };

		memcpy(p, &h, sizeof(h));
		i = sizeof(h);
	}
	for (; i < len; i++)
		p[i] = pat(t->tid, seq, i);
	return p;
}

/* Post message seq (or the FIN, a SEND whose seq is the count). */
static int post_msg(struct thr *t, uint32_t seq, int fin)
{
	uint32_t len = fin ? 16 : msg_len(seq), slot = seq % SLOTS;
	int kind = fin ? 0 : seq % 3;
	struct ibv_sge sge = { 0, len, t->mr->lkey };
	struct hdr note = { MAGIC | t->tid << 8 | FLAG_NOTE, seq, len, slot };
	struct ibv_sge nsge = { (uintptr_t)&note, sizeof(note), 0 };
	struct ibv_send_wr wr[2] = {}, *bad;

	sge.addr = (uintptr_t)fill_msg(t, seq, len, kind == 0);
	if (fin)
		((struct hdr *)(uintptr_t)sge.addr)->tag |= FLAG_FIN;
	wr[0] = (struct ibv_send_wr){ .wr_id = (uint64_t)seq << 2 | kind, .sg_list = &sge,
				      .num_sge = 1, .send_flags = IBV_SEND_SIGNALED };
	switch (kind) {
	case 0:
		wr[0].opcode = IBV_WR_SEND;
		break;
	case 1:		/* the WRITE, then the SEND that names its slot (inline) */
		wr[0].opcode = IBV_WR_RDMA_WRITE;
		wr[0].next = &wr[1];
		wr[1] = (struct ibv_send_wr){ .wr_id = (uint64_t)seq << 2 | 3, .sg_list = &nsge,
					      .num_sge = 1, .opcode = IBV_WR_SEND,
					      .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE };
		break;
	default:
		wr[0].opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
		wr[0].imm_data = htobe32(seq);
		break;
	}
	if (kind) {
		wr[0].wr.rdma.remote_addr = t->peer.slots + (uint64_t)slot * MSG;
		wr[0].wr.rdma.rkey = t->peer.rkey;
	}
	if (ibv_post_send(t->qp, wr, &bad))
		return -1;
	for (int i = 0; i <= (kind == 1); i++) {
		t->fifo[t->tail++ % SQ_DEPTH] = wr[i].wr_id;
		t->r.wqes++;
	}
	t->r.sent += !fin;
	t->r.bytes_sent += fin ? 0 : len;
	t->r.sends += !fin && kind == 0;
	t->r.writes += kind == 1;
	t->r.write_imms += kind == 2;
	return 0;
}

/* Bytes [from, len) of message seq at p: its pattern; 0, or -1 (why says). */
static int check_bytes(struct thr *t, const uint8_t *p, uint32_t seq, uint32_t from, uint32_t len)
{
	int ptid = t->tid;	/* the peer's thread has this thread's number */

	for (uint32_t i = from; i < len; i++)
		if (p[i] != pat(ptid, seq, i)) {
			fail(t, "message %u (%u bytes): byte %u is 0x%02x, not 0x%02x", seq, len, i,
			     p[i], pat(ptid, seq, i));
			return -1;
		}
	return 0;
}

/* A receive completion: the message it brings, checked. 1 for the FIN. */
static int on_recv(struct thr *t, struct ibv_wc *wc, uint32_t *fin_count)
{
	uint32_t want = (uint32_t)t->r.recvd;
	unsigned int i = (unsigned int)wc->wr_id;
	const uint8_t *p;
	uint32_t seq, len;

	t->r.recv_cqes++;
	if (i >= RECVS) {
		fail(t, "a receive completion with wr_id %llu", (unsigned long long)wc->wr_id);
		return -1;
	}
	if (wc->opcode == IBV_WC_RECV_RDMA_WITH_IMM) {
		seq = be32toh(wc->imm_data);
		len = msg_len(seq);
		if (!(wc->wc_flags & IBV_WC_WITH_IMM) || seq != want || want % 3 != 2 ||
		    wc->byte_len != len) {
			fail(t, "WRITE with immediate: seq %u (want %u) byte_len %u (want %u) flags 0x%x",
			     seq, want, wc->byte_len, len, wc->wc_flags);
			return -1;
		}
		p = t->buf->slot[seq % SLOTS];
		if (check_bytes(t, p, seq, 0, len))
			return -1;
	} else if (wc->opcode == IBV_WC_RECV) {
		struct hdr h;

		p = t->buf->recv[i];
		if (wc->byte_len < sizeof(h)) {
			fail(t, "a SEND of %u bytes", wc->byte_len);
			return -1;
		}
		memcpy(&h, p, sizeof(h));
		if ((h.tag & 0xffff0000u) != MAGIC || (h.tag >> 8 & 0xff) != (uint32_t)t->tid) {
			fail(t, "a SEND with tag 0x%08x (want 0x%08x | flags)", h.tag,
			     MAGIC | t->tid << 8);
			return -1;
		}
		if (h.tag & FLAG_FIN) {
			if (wc->byte_len != 16 || h.seq != want) {
				fail(t, "the last SEND says %u messages, %u came (byte_len %u)", h.seq,
				     want, wc->byte_len);
				return -1;
			}
			*fin_count = h.seq;
			return 1;
		}
		seq = h.seq;
		if (seq != want) {
			fail(t, "a SEND of message %u, %u expected (lost or doubled)", seq, want);
			return -1;
		}
		len = msg_len(seq);
		if (h.tag & FLAG_NOTE) {
			if (seq % 3 != 1 || wc->byte_len != 16 || h.len != len || h.slot != seq % SLOTS) {
				fail(t, "the note of WRITE %u: len %u slot %u byte_len %u", seq, h.len,
				     h.slot, wc->byte_len);
				return -1;
			}
			if (check_bytes(t, t->buf->slot[h.slot], seq, 0, len))
				return -1;
		} else {
			if (seq % 3 != 0 || wc->byte_len != len || h.len != len) {
				fail(t, "SEND %u: byte_len %u, header len %u, want %u", seq, wc->byte_len,
				     h.len, len);
				return -1;
			}
			if (check_bytes(t, p, seq, sizeof(h), len))
				return -1;
		}
	} else {
		fail(t, "a receive completion of opcode %d", wc->opcode);
		return -1;
	}
	t->r.recvd++;
	t->r.bytes_checked += len;
	if (post_recv(t, i)) {
		fail(t, "ibv_post_recv: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* A send completion: the oldest signalled WQE, with its opcode. */
static int on_send(struct thr *t, struct ibv_wc *wc)
{
	static const enum ibv_wc_opcode op[4] = { IBV_WC_SEND, IBV_WC_RDMA_WRITE,
						  IBV_WC_RDMA_WRITE, IBV_WC_SEND };

	t->r.send_cqes++;
	if (t->head == t->tail) {
		fail(t, "a send completion (wr_id 0x%llx) with none outstanding",
		     (unsigned long long)wc->wr_id);
		return -1;
	}
	if (wc->wr_id != t->fifo[t->head % SQ_DEPTH] || wc->opcode != op[wc->wr_id & 3]) {
		fail(t, "send completion wr_id 0x%llx opcode %d, want wr_id 0x%llx (lost, doubled or out of order)",
		     (unsigned long long)wc->wr_id, wc->opcode,
		     (unsigned long long)t->fifo[t->head % SQ_DEPTH]);
		return -1;
	}
	t->head++;
	t->msgs_done += (wc->wr_id & 3) != 1;	/* a WRITE's note comes after it */
	return 0;
}

static void *run(void *arg)
{
	struct thr *t = arg;
	struct ibv_wc wc[16];
	uint32_t seq = 0, fin_count = 0;
	int fin_sent = 0, fin_got = 0;
	double deadline = t_end + GRACE;
	struct timespec nap = { 0, 50000 };

	while (!t->r.failed) {
		int n, busy = 0;

		/* a message needs its send buffer: fewer than INFLIGHT in flight */
		if (!fin_sent && seq - t->msgs_done < INFLIGHT) {
			int fin = now_s() >= t_end;

			if (post_msg(t, seq, fin)) {
				fail(t, "ibv_post_send of message %u: %s", seq, strerror(errno));
				break;
			}
			fin_sent = fin;
			seq += !fin;
			busy = 1;
		}
		n = ibv_poll_cq(t->cq, 16, wc);
		if (n < 0) {
			fail(t, "ibv_poll_cq: %d", n);
			break;
		}
		for (int i = 0; i < n && !t->r.failed; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fail(t, "completion wr_id 0x%llx: %s (vendor_err 0x%x)",
				     (unsigned long long)wc[i].wr_id, ibv_wc_status_str(wc[i].status),
				     wc[i].vendor_err);
				break;
			}
			if (wc[i].opcode & IBV_WC_RECV) {
				if (on_recv(t, &wc[i], &fin_count) == 1)
					fin_got = 1;
			} else {
				on_send(t, &wc[i]);
			}
		}
		if (fin_sent && fin_got && t->head == t->tail)
			break;
		if (now_s() > deadline) {
			fail(t, "not done %d s after the end: last sent %s, last received %s, %u WQEs outstanding",
			     GRACE, fin_sent ? "posted" : "not posted", fin_got ? "yes" : "no",
			     t->tail - t->head);
			break;
		}
		if (!n && !busy)
			nanosleep(&nap, NULL);	/* two vCPUs under TCG: leave the engine room */
	}
	/* nothing more may come: a doubled completion would show here */
	if (!t->r.failed) {
		double until = now_s() + 0.3;

		while (now_s() < until) {
			int n = ibv_poll_cq(t->cq, 16, wc);

			if (n) {
				fail(t, "%d completion(s) after the last (wr_id 0x%llx)", n,
				     (unsigned long long)wc[0].wr_id);
				break;
			}
			nanosleep(&nap, NULL);
		}
	}
	if (!t->r.failed && fin_count != t->r.recvd)
		fail(t, "the last message says %u, %llu came", fin_count,
		     (unsigned long long)t->r.recvd);
	return NULL;
}

static int setup(struct thr *t)
{
	struct ibv_qp_init_attr ia = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = SQ_DEPTH, .max_recv_wr = RECVS, .max_send_sge = 1,
			 .max_recv_sge = 1, .max_inline_data = 64 },
	};

	t->buf = aligned_alloc(4096, sizeof(*t->buf));
	if (!t->buf)
		return -1;
	memset(t->buf, 0, sizeof(*t->buf));
	t->mr = ibv_reg_mr(pd, t->buf, sizeof(*t->buf), IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE);
	t->cq = t->mr ? ibv_create_cq(ctx, 2 * SQ_DEPTH + RECVS, NULL, NULL, 0) : NULL;
	if (!t->cq)
		return -1;
	ia.send_cq = ia.recv_cq = t->cq;
	t->qp = ibv_create_qp(pd, &ia);
	return t->qp ? 0 : -1;
}

static int connect_qp(struct thr *t)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };

	if (ibv_modify_qp(t->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		return -1;
	for (unsigned int i = 0; i < RECVS; i++)
		if (post_recv(t, i))
			return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = t->peer.qpn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(t->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return -1;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;	/* wait for the peer's receive WQEs for ever: the flow control */
	a.max_rd_atomic = 1;
	return ibv_modify_qp(t->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static void teardown(struct thr *t)
{
	if (t->qp)
		ibv_destroy_qp(t->qp);
	if (t->cq)
		ibv_destroy_cq(t->cq);
	if (t->mr)
		ibv_dereg_mr(t->mr);
	free(t->buf);
}

static int xfer(int fd, void *p, size_t n, int out)
{
	uint8_t *b = p;

	while (n) {
		ssize_t r = out ? write(fd, b, n) : read(fd, b, n);

		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
	}
	return 0;
}

/* One process's half: its four QPs against the other's; 0 when it passed. */
static int half(const char *name, int fd, double secs, int parent)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct thr t[THREADS] = {};
	struct peer_info mine[THREADS], theirs[THREADS];
	struct result peer_r[THREADS];
	pthread_t th[THREADS];
	double t0;
	int bad = 0, i;
	char go = 'g';

	for (i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (!ctx || !(pd = ibv_alloc_pd(ctx)) || ibv_query_gid(ctx, 1, 0, &gid)) {
		printf("kt_mlx5_soak %s: no %s, PD or GID: %s\n", side, name, strerror(errno));
		return 1;
	}
	for (i = 0; i < THREADS; i++) {
		t[i].tid = i;
		if (setup(&t[i])) {
			printf("kt_mlx5_soak %s: thread %d: MR, CQ or QP not made: %s\n", side, i,
			       strerror(errno));
			return 1;
		}
		mine[i] = (struct peer_info){ t[i].qp->qp_num, t[i].mr->rkey,
					      (uintptr_t)t[i].buf->slot[0] };
	}
	if (xfer(fd, mine, sizeof(mine), 1) || xfer(fd, theirs, sizeof(theirs), 0)) {
		printf("kt_mlx5_soak %s: the exchange of QPNs failed\n", side);
		return 1;
	}
	for (i = 0; i < THREADS; i++) {
		t[i].peer = theirs[i];
		if (connect_qp(&t[i])) {
			printf("kt_mlx5_soak %s: thread %d: QP 0x%x to 0x%x not connected: %s\n", side,
			       i, t[i].qp->qp_num, t[i].peer.qpn, strerror(errno));
			return 1;
		}
	}
	/* both sides in RTR with their receive WQEs before either sends */
	if (xfer(fd, &go, 1, 1) || xfer(fd, &go, 1, 0)) {
		printf("kt_mlx5_soak %s: no start from the other process\n", side);
		return 1;
	}
	t0 = now_s();
	t_end = t0 + secs;
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&th[i], NULL, run, &t[i])) {
			printf("kt_mlx5_soak %s: pthread_create failed\n", side);
			return 1;
		}
	for (i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < THREADS; i++) {
		struct result *r = &t[i].r;

		printf("kt_mlx5_soak %s thread %d (QP 0x%x): sent %llu messages (%llu SEND, %llu WRITE+note, %llu WRITE_IMM; %llu bytes) in %llu WQEs, %llu send completions; received %llu messages, %llu bytes checked, %llu receive completions%s%s\n",
		       side, i, t[i].qp->qp_num, (unsigned long long)r->sent,
		       (unsigned long long)r->sends, (unsigned long long)r->writes,
		       (unsigned long long)r->write_imms, (unsigned long long)r->bytes_sent,
		       (unsigned long long)r->wqes, (unsigned long long)r->send_cqes,
		       (unsigned long long)r->recvd, (unsigned long long)r->bytes_checked,
		       (unsigned long long)r->recv_cqes, r->failed ? ": FAIL: " : "", r->why);
		bad += r->failed != 0;
		if (!r->failed && (r->send_cqes != r->wqes || r->recv_cqes != r->recvd + 1)) {
			printf("kt_mlx5_soak %s thread %d: %llu send completions of %llu WQEs, %llu receive completions for %llu messages and the last\n",
			       side, i, (unsigned long long)r->send_cqes, (unsigned long long)r->wqes,
			       (unsigned long long)r->recv_cqes, (unsigned long long)r->recvd);
			bad++;
		}
	}
	/* each side's counts against the other's: received what was sent */
	{
		struct result out[THREADS];

		for (i = 0; i < THREADS; i++)
			out[i] = t[i].r;
		if (xfer(fd, out, sizeof(out), 1) || xfer(fd, peer_r, sizeof(peer_r), 0)) {
			printf("kt_mlx5_soak %s: the exchange of counts failed\n", side);
			bad++;
		} else {
			for (i = 0; i < THREADS; i++)
				if (peer_r[i].sent != t[i].r.recvd ||
				    peer_r[i].bytes_sent != t[i].r.bytes_checked) {
					printf("kt_mlx5_soak %s thread %d: the other sent %llu messages (%llu bytes), this one checked %llu (%llu bytes)\n",
					       side, i, (unsigned long long)peer_r[i].sent,
					       (unsigned long long)peer_r[i].bytes_sent,
					       (unsigned long long)t[i].r.recvd,
					       (unsigned long long)t[i].r.bytes_checked);
					bad++;
				}
		}
	}
	if (parent) {
		uint64_t msgs = 0, bytes = 0;

		for (i = 0; i < THREADS; i++) {
			msgs += t[i].r.recvd + peer_r[i].recvd;
			bytes += t[i].r.bytes_checked + peer_r[i].bytes_checked;
		}
		printf("kt_mlx5_soak: %d QPs, %llu messages and %llu bytes checked in %.1f s\n",
		       2 * THREADS, (unsigned long long)msgs, (unsigned long long)bytes, now_s() - t0);
	}
	for (i = 0; i < THREADS; i++)
		teardown(&t[i]);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "mlx5_0";
	double secs = argc > 2 ? atof(argv[2]) : 8;
	int sv[2], st = 0, rc;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (secs <= 0 || secs > 3600) {
		printf("kt_mlx5_soak: SECONDS must be in (0, 3600]\nkt_mlx5_soak: FAIL\n");
		return 2;
	}
	/* fork before any verbs call: the child opens its own context */
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		printf("kt_mlx5_soak: socketpair: %s\nkt_mlx5_soak: FAIL\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		printf("kt_mlx5_soak: fork: %s\nkt_mlx5_soak: FAIL\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		close(sv[0]);
		side = "child";
		_exit(half(name, sv[1], secs, 0));
	}
	close(sv[1]);
	side = "parent";
	rc = half(name, sv[0], secs, 1);
	close(sv[0]);	/* a child waiting on the parent sees the end */
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("kt_mlx5_soak: the child process ended with status 0x%x\n", st);
		rc = 1;
	}
	printf("kt_mlx5_soak: %s\n", rc ? "FAIL" : "PASS");
	return rc;
}
