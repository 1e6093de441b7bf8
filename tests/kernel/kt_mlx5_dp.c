/*
 * The data-path layer (<uvio/dp.h>) on mlx5: the library's own WQEs, CQEs,
 * doorbell records and UAR stores (providers/mlx5.c), on the queues its
 * mlx5 half allocates (lib/hw/mlx5.c), against a kernel driver that moves
 * data as a ConnectX does. In the suite that is the mlx5 stand-in's engine
 * (tests/standin/mlx5/mlx5_engine.c), an emulation: this shows the library
 * and the emulator agree, and both are written from libmlx5's formats.
 *
 * uvio_dp_* alone, on two RC QPs of one device connected by hand (GID 0):
 * SEND of three SGEs, inline SEND with immediate, RDMA WRITE, WRITE with
 * immediate, RDMA READ into two SGEs, fetch-and-add and compare-and-swap
 * (the old values and the remote word), unsignalled sends (one completion
 * for three), a WRITE to an MR without remote write (remote access error,
 * then the flush); the rings wrapped many times by WQEs of every shape
 * (one to four SGEs, inline data of one to three basic blocks, unsignalled
 * runs) on a small send queue, receive queue and CQ, every byte checked;
 * a CQ armed for the next completion and for solicited ones only, the
 * events read from the channel; UD through an address handle (the 40-byte
 * GRH, the source QP, the immediate); an SRQ's list taken and given back
 * until it has wrapped; a QP moved to ERR flushing its receives; two
 * threads posting inline SENDs on one QP while two others poll its CQ and
 * the peer's (reposting each receive). Every object destroyed and the
 * kernel's tables empty after.
 *
 *   kt_mlx5_dp [DEVICE]     (default mlx5_0)
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <uvio.h>
#include <uvio/dp.h>
#include <uvio/mlx5.h>
#include "kt.h"

#define BUF_LEN (1u << 20)
#define ACCESS_ALL (IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE | \
		    IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC)
#define GIDX 0

struct env {
	const char *name;
	struct uvio_device *dev;
	struct uvio_context ctx;
	struct uvio_comp_channel chan;
	uint32_t pd;
	uint8_t *buf;			/* BUF_LEN bytes, registered as mr */
	struct uvio_mr mr;
	uint8_t gid[16];		/* the port's GID GIDX */
};

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static int reg_mr(struct env *e, void *addr, size_t len, uint32_t access, struct uvio_mr *mr)
{
	UVIO_OPTS(uvio_mr_attr, a, .pd_handle = e->pd, .addr = addr, .length = len,
		  .iova = (uintptr_t)addr, .access = access);

	mr->sz = sizeof(*mr);
	return uvio_reg_mr(e->dev, &a, NULL, mr, NULL);
}

static int env_open(struct env *e, const char *name)
{
	struct uvio_gid_entry g;

	memset(e, 0, sizeof(*e));
	e->name = name;
	KT_EQ(uvio_device_open(name, &e->dev), 0);
	if (!e->dev)
		return -1;
	KT_EQ(uvio_device_driver_id(e->dev), RDMA_DRIVER_MLX5);
	e->ctx.sz = sizeof(e->ctx);
	KT_EQ(uvio_get_context(e->dev, NULL, &e->ctx, NULL), 0);
	KT_EQ(uvio_alloc_pd(e->dev, NULL, &e->pd, NULL), 0);
	e->chan.sz = sizeof(e->chan);
	KT_EQ(uvio_create_comp_channel(e->dev, &e->chan, NULL), 0);
	e->buf = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(e->buf != MAP_FAILED, "mmap");
	if (e->buf == MAP_FAILED)
		return -1;
	KT_EQ(reg_mr(e, e->buf, BUF_LEN, ACCESS_ALL, &e->mr), 0);
	KT_EQ(uvio_query_gid_entry(e->dev, 1, GIDX, &g, NULL), 0);
	memcpy(e->gid, g.gid, 16);
	printf("%s: GID %d type %u, MR lkey %#x rkey %#x\n", name, GIDX, g.gid_type, e->mr.lkey,
	       e->mr.rkey);
	return 0;
}

static void env_close(struct env *e)
{
	KT_EQ(uvio_dereg_mr(e->dev, e->mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(e->dev, e->pd, NULL), 0);
	munmap(e->buf, BUF_LEN);
	close(e->chan.fd);
	close(e->ctx.async_fd);
	uvio_device_close(e->dev);
}

static void make_cq(struct env *e, struct uvio_dp_cq *cq, uint32_t cqe, uint64_t uh)
{
	UVIO_OPTS(uvio_cq_attr, a, .cqe = cqe, .user_handle = uh, .channel = &e->chan);

	KT_EQ(uvio_dp_create_cq(e->dev, &a, cq), 0);
}

static void make_qp_cap(struct env *e, struct uvio_dp_qp *qp, uint32_t type,
			struct uvio_dp_cq *scq, struct uvio_dp_cq *rcq, struct uvio_dp_srq *srq,
			uint64_t uh, uint32_t wr, uint32_t inl)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .user_handle = uh, .pd_handle = e->pd,
		  .send_cq_handle = scq->handle, .recv_cq_handle = rcq->handle,
		  .cap = { .max_send_wr = wr, .max_recv_wr = wr, .max_send_sge = 4,
			   .max_recv_sge = 4, .max_inline_data = inl });

	if (srq) {
		a.fields = UVIO_QP_INIT_SRQ;
		a.srq_handle = srq->handle;
	}
	KT_EQ(uvio_dp_create_qp(e->dev, &a, srq, qp), 0);
}

static void make_qp(struct env *e, struct uvio_dp_qp *qp, uint32_t type, struct uvio_dp_cq *cq,
		    struct uvio_dp_srq *srq, uint64_t uh)
{
	make_qp_cap(e, qp, type, cq, cq, srq, uh, 64, 64);
}

/* RESET -> INIT -> RTR -> RTS against the peer's QPN (UD: no peer). */
static int connect_qp(struct env *e, struct uvio_dp_qp *qp, uint32_t peer)
{
	bool ud = qp->type == IB_UVERBS_QPT_UD;
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_INIT, .port_num = 1,
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT);
	int err;

	if (ud) {
		a.qkey = 0x11111111;
		a.attr_mask |= UVIO_QP_QKEY;
	} else {
		a.qp_access_flags = ACCESS_ALL & ~(uint32_t)IB_UVERBS_ACCESS_LOCAL_WRITE;
		a.attr_mask |= UVIO_QP_ACCESS_FLAGS;
	}
	err = uvio_modify_qp(e->dev, qp->handle, &a, NULL, NULL);
	memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.qp_state = UVIO_QPS_RTR;
	a.attr_mask = UVIO_QP_STATE;
	if (!ud) {
		a.path_mtu = UVIO_MTU_1024;
		a.dest_qp_num = peer;
		a.rq_psn = 0x100;
		a.ah = (struct uvio_av){ .is_global = 1, .sgid_index = GIDX, .hop_limit = 64,
					 .port_num = 1 };
		memcpy(a.ah.dgid, e->gid, 16);
		a.attr_mask |= UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN | UVIO_QP_RQ_PSN;
		a.max_dest_rd_atomic = 4;
		a.min_rnr_timer = 1;
		a.attr_mask |= UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER;
	}
	if (!err)
		err = uvio_modify_qp(e->dev, qp->handle, &a, NULL, NULL);
	memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.qp_state = UVIO_QPS_RTS;
	a.sq_psn = 0x100;
	a.attr_mask = UVIO_QP_STATE | UVIO_QP_SQ_PSN;
	if (!ud) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 4;
		a.attr_mask |= UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT | UVIO_QP_RNR_RETRY |
			       UVIO_QP_MAX_QP_RD_ATOMIC;
	}
	if (!err)
		err = uvio_modify_qp(e->dev, qp->handle, &a, NULL, NULL);
	KT_EQ(err, 0);
	if (err)
		printf("connect: %s\n", uvio_last_error());
	return err;
}

static int to_err(struct env *e, struct uvio_dp_qp *qp)
{
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_ERR, .attr_mask = UVIO_QP_STATE);

	return uvio_modify_qp(e->dev, qp->handle, &a, NULL, NULL);
}

/* Poll until n completions came or ms passed; returns how many. */
static int wait_wc_ms(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	int got = 0;

	while (got < n && now_ms() < end) {
		int r = uvio_dp_poll_cq(cq, wc + got, n - got);

		KT_CHECK(r >= 0, "poll: %d", r);
		if (r < 0)
			break;
		got += r;
		if (!r)
			usleep(200);
	}
	return got;
}

static int wait_wc(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	return wait_wc_ms(cq, wc, n, 5000);
}

static void expect_wc(const struct uvio_dp_wc *w, uint64_t wr_id, uint32_t status,
		      uint32_t opcode, const char *what)
{
	KT_CHECK(w->wr_id == wr_id && w->status == status && w->opcode == opcode,
		 "%s: wc wr_id %llu status %s (vendor %#x) opcode %s, expected %llu %s %s", what,
		 (unsigned long long)w->wr_id, uvio_wc_status_name(w->status), w->vendor_err,
		 uvio_wc_opcode_name(w->opcode), (unsigned long long)wr_id,
		 uvio_wc_status_name(status), uvio_wc_opcode_name(opcode));
}

static struct uvio_dp_sge sge(struct env *e, size_t off, uint32_t len)
{
	return (struct uvio_dp_sge){ .addr = (uintptr_t)(e->buf + off), .length = len,
				     .lkey = e->mr.lkey };
}

static void fill(uint8_t *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

static int post1(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	uint32_t bad = 99;
	int err = uvio_dp_post_send(qp, wr, 1, &bad);

	if (err)
		printf("post_send: %d: %s\n", err, uvio_last_error());
	return err;
}

static void recv1(struct uvio_dp_qp *qp, struct uvio_dp_sge s, uint64_t id)
{
	struct uvio_dp_recv_wr r = { .wr_id = id, .sg_list = &s, .num_sge = 1 };

	KT_EQ(uvio_dp_post_recv(qp, &r, 1, NULL), 0);
}

/* Buffer areas: A's send area at 0, B's receive area at 256 KiB, B's
 * RDMA target at 512 KiB, atomics at 768 KiB. */
#define A_OFF 0
#define B_RX (256u << 10)
#define B_TGT (512u << 10)
#define ATOM (768u << 10)

static void rc_opcodes(struct env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	struct uvio_dp_sge s[3];
	uint64_t *remote = (uint64_t *)(e->buf + ATOM), *old = (uint64_t *)(e->buf + ATOM + 64);
	uint64_t mask = 0;

	make_cq(e, &ca, 64, 0xa);
	make_cq(e, &cb, 64, 0xb);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &ca, NULL, 0x1a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cb, NULL, 0x1b);
	KT_EQ(uvio_dp_qp_opcodes(&a, &mask), 0);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	printf("rc: QPs %#x and %#x at RTS; send queue %u BBs, inline %u, opcodes %#llx\n",
	       a.qp_num, b.qp_num, uvio_dp_queue_capacity(&a.sq), a.cap.max_inline_data,
	       (unsigned long long)mask);

	/* SEND of three SGEs into one receive. */
	fill(e->buf + A_OFF, 3000, 1);
	memset(e->buf + B_RX, 0, 4096);
	recv1(&b, sge(e, B_RX, 4096), 100);
	s[0] = sge(e, A_OFF, 1000);
	s[1] = sge(e, A_OFF + 1000, 1000);
	s[2] = sge(e, A_OFF + 2000, 1000);
	{
		struct uvio_dp_send_wr w = { .wr_id = 1, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 3 };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 1, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 100, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SEND's receive");
	KT_EQ(wc[0].byte_len, 3000);
	KT_EQ(wc[0].qp_num, b.qp_num);
	KT_EQ(wc[0].src_qp, a.qp_num);
	KT_EQ(memcmp(e->buf + B_RX, e->buf + A_OFF, 3000), 0);
	printf("rc: SEND of 3 SGEs, 3000 bytes: ok\n");

	/* Inline SEND with immediate data; the buffer is reused at once. */
	fill(e->buf + A_OFF, 48, 2);
	recv1(&b, sge(e, B_RX, 4096), 101);
	s[0] = sge(e, A_OFF, 48);
	{
		struct uvio_dp_send_wr w = { .wr_id = 2, .opcode = IB_UVERBS_WR_SEND_WITH_IMM,
					     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
					     .sg_list = s, .num_sge = 1, .imm_data = htonl(0xfeed) };
		KT_EQ(post1(&a, &w), 0);
	}
	uint8_t want[48];
	memcpy(want, e->buf + A_OFF, 48);
	memset(e->buf + A_OFF, 0xee, 48);
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 2, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND_WITH_IMM inline");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 101, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SEND_WITH_IMM's receive");
	KT_EQ(wc[0].byte_len, 48);
	KT_CHECK(wc[0].wc_flags & UVIO_WC_WITH_IMM, "flags %#x", wc[0].wc_flags);
	KT_EQ(ntohl(wc[0].imm_data), 0xfeed);
	KT_EQ(memcmp(e->buf + B_RX, want, 48), 0);
	printf("rc: inline SEND_WITH_IMM: ok\n");

	/* RDMA WRITE: no receive consumed. */
	fill(e->buf + A_OFF, 8192, 3);
	memset(e->buf + B_TGT, 0, 8192);
	s[0] = sge(e, A_OFF, 8192);
	{
		struct uvio_dp_send_wr w = { .wr_id = 3, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 3, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "RDMA_WRITE");
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 8192), 0);
	KT_EQ(uvio_dp_poll_cq(&cb, wc, 8), 0);

	/* RDMA WRITE with immediate: the bytes, and a receive that says so. */
	fill(e->buf + A_OFF, 512, 4);
	recv1(&b, sge(e, B_RX, 16), 102);
	s[0] = sge(e, A_OFF, 512);
	{
		struct uvio_dp_send_wr w = { .wr_id = 4, .opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1, .imm_data = htonl(0xabcd),
					     .rdma = { (uintptr_t)(e->buf + B_TGT + 4096), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 4, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "RDMA_WRITE_WITH_IMM");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 102, UVIO_WC_SUCCESS, UVIO_WC_RECV_RDMA_WITH_IMM,
		  "RDMA_WRITE_WITH_IMM's receive");
	KT_EQ(ntohl(wc[0].imm_data), 0xabcd);
	KT_EQ(wc[0].byte_len, 512);
	KT_EQ(memcmp(e->buf + B_TGT + 4096, e->buf + A_OFF, 512), 0);
	printf("rc: RDMA_WRITE 8192 bytes, RDMA_WRITE_WITH_IMM 512: ok\n");

	/* RDMA READ back into A, into two SGEs. */
	fill(e->buf + B_TGT, 5000, 5);
	memset(e->buf + A_OFF, 0, 8192);
	s[0] = sge(e, A_OFF, 3000);
	s[1] = sge(e, A_OFF + 4096, 2000);
	{
		struct uvio_dp_send_wr w = { .wr_id = 5, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 2,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 5, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "RDMA_READ");
	KT_EQ(wc[0].byte_len, 5000);
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 3000), 0);
	KT_EQ(memcmp(e->buf + B_TGT + 3000, e->buf + A_OFF + 4096, 2000), 0);
	KT_EQ(e->buf[A_OFF + 3000], 0);
	/* and a small READ (the half asked for no scatter-to-CQE: the bytes
	 * are in the buffer) */
	fill(e->buf + B_TGT, 24, 6);
	memset(e->buf + A_OFF, 0, 64);
	s[0] = sge(e, A_OFF, 24);
	{
		struct uvio_dp_send_wr w = { .wr_id = 55, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 55, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "RDMA_READ of 24 bytes");
	KT_EQ(wc[0].byte_len, 24);
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 24), 0);
	printf("rc: RDMA_READ 5000 bytes into 2 SGEs, 24 bytes: ok\n");

	/* Atomics: the remote's old value comes back, the remote changes. */
	*remote = 100;
	*old = 0;
	s[0] = sge(e, ATOM + 64, 8);
	{
		struct uvio_dp_send_wr w = { .wr_id = 6, .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .atomic = { .remote_addr = (uintptr_t)remote,
							 .compare_add = 5, .rkey = e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 6, UVIO_WC_SUCCESS, UVIO_WC_FETCH_ADD, "FETCH_AND_ADD");
	KT_EQ(wc[0].byte_len, 8);
	KT_EQ(*old, 100);
	KT_EQ(*remote, 105);
	for (int i = 0; i < 2; i++) {	/* a compare that matches, then one that does not */
		struct uvio_dp_send_wr w = { .wr_id = 7 + i, .opcode = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .atomic = { .remote_addr = (uintptr_t)remote,
							 .compare_add = 105, .swap = 7 + (uint64_t)i,
							 .rkey = e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
		KT_EQ(wait_wc(&ca, wc, 1), 1);
		expect_wc(&wc[0], 7 + (uint64_t)i, UVIO_WC_SUCCESS, UVIO_WC_COMP_SWAP, "CMP_AND_SWP");
		KT_EQ(*old, i ? 7 : 105);
		KT_EQ(*remote, 7);
	}
	printf("rc: FETCH_AND_ADD, CMP_AND_SWP (a match, a mismatch): ok\n");

	/* Unsignaled WRs complete silently: three posted, one completion. */
	for (uint64_t i = 0; i < 3; i++)
		recv1(&b, sge(e, B_RX + i * 64, 64), 103 + i);
	fill(e->buf + A_OFF, 3 * 64, 7);
	{
		struct uvio_dp_send_wr w[3];
		struct uvio_dp_sge g[3];

		for (int i = 0; i < 3; i++) {
			g[i] = sge(e, A_OFF + (size_t)i * 64, 64);
			w[i] = (struct uvio_dp_send_wr){ .wr_id = 10 + (uint64_t)i,
							 .opcode = IB_UVERBS_WR_SEND,
							 .flags = i == 2 ? UVIO_DP_SEND_SIGNALED : 0,
							 .sg_list = &g[i], .num_sge = 1 };
		}
		KT_EQ(uvio_dp_post_send(&a, w, 3, NULL), 0);
	}
	KT_EQ(wait_wc(&cb, wc, 3), 3);
	for (int i = 0; i < 3; i++)
		expect_wc(&wc[i], 103 + (uint64_t)i, UVIO_WC_SUCCESS, UVIO_WC_RECV, "unsignaled's receive");
	KT_EQ(memcmp(e->buf + B_RX, e->buf + A_OFF, 3 * 64), 0);
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 12, UVIO_WC_SUCCESS, UVIO_WC_SEND, "the signaled one of three");
	usleep(20000);
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 8), 0);
	printf("rc: three SENDs, the last signaled: one completion: ok\n");

	/* A WRITE to an MR without remote write: the remote access error,
	 * and the QP goes to ERR: what is posted after it flushes. */
	{
		struct uvio_mr ro;
		uint8_t *page = e->buf + BUF_LEN - 4096;

		KT_EQ(reg_mr(e, page, 4096, IB_UVERBS_ACCESS_LOCAL_WRITE, &ro), 0);
		s[0] = sge(e, A_OFF, 64);
		struct uvio_dp_send_wr w[2] = {
			{ .wr_id = 30, .opcode = IB_UVERBS_WR_RDMA_WRITE,
			  .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s, .num_sge = 1,
			  .rdma = { (uintptr_t)page, ro.rkey } },
			{ .wr_id = 31, .opcode = IB_UVERBS_WR_SEND, .flags = UVIO_DP_SEND_SIGNALED,
			  .sg_list = s, .num_sge = 1 },
		};
		KT_EQ(uvio_dp_post_send(&a, w, 2, NULL), 0);
		KT_EQ(wait_wc(&ca, wc, 2), 2);
		expect_wc(&wc[0], 30, UVIO_WC_REM_ACCESS_ERR, wc[0].opcode, "WRITE without access");
		expect_wc(&wc[1], 31, UVIO_WC_WR_FLUSH_ERR, wc[1].opcode, "the WR after it");
		printf("rc: WRITE without remote access: %s (vendor %#x), then %s\n",
		       uvio_wc_status_name(wc[0].status), wc[0].vendor_err,
		       uvio_wc_status_name(wc[1].status));
		KT_EQ(uvio_dereg_mr(e->dev, ro.handle, NULL), 0);
	}
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cb, NULL), 0);
}

/*
 * The rings wrapped: a send queue of 8 WRs, a receive queue of 8, CQs of 8
 * entries; ROUNDS batches of one to four WRs of every shape (one to four
 * SGEs of odd lengths; inline data of 1 to 160 bytes, up to three basic
 * blocks, starting anywhere in the ring; the last WR of a batch signaled,
 * the others not, some with immediate data), each message checked byte for
 * byte at the receiver.
 */
#define ROUNDS 300
static void wrap(struct env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	uint32_t sent = 0, msgs = 0, inl_bbs[4] = { 0 }, cap;
	uint32_t pos = 0, wrapped_inl = 0, wrapped_sge = 0;	/* in BBs, from the formats */
	int bad = 0;

	make_cq(e, &ca, 8, 0x2a);
	make_cq(e, &cb, 8, 0x2b);
	make_qp_cap(e, &a, IB_UVERBS_QPT_RC, &ca, &ca, NULL, 0x2a, 8, 160);
	make_qp_cap(e, &b, IB_UVERBS_QPT_RC, &cb, &cb, NULL, 0x2b, 8, 0);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	printf("wrap: send queue %u BBs, receive queue %u, CQs %u and %u entries, inline %u\n",
	       uvio_dp_queue_capacity(&a.sq), uvio_dp_queue_capacity(&b.rq),
	       uvio_dp_queue_capacity(&ca.q), uvio_dp_queue_capacity(&cb.q),
	       a.cap.max_inline_data);
	cap = uvio_dp_queue_capacity(&a.sq);
	for (uint32_t round = 0; round < ROUNDS && !bad && cap; round++) {
		uint32_t n = 1 + round % 4, len[4];
		struct uvio_dp_sge g[4][4];
		struct uvio_dp_send_wr w[4];
		uint32_t posted = 0;

		memset(w, 0, sizeof(w));
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = sent + i;
			size_t src = A_OFF + (size_t)(k % 64) * 2048, dst = B_RX + (size_t)i * 4096;
			/* a WQE that starts in the ring's last BB is made one
			 * of two BBs: inline data and data segments in turn,
			 * so that both cross the ring's end */
			bool edge = cap && pos % cap == cap - 1;
			bool inl = edge ? (pos / cap) % 2 : k % 3 == 0;
			uint32_t nsge = edge ? (inl ? 2 : 4) : inl ? 1 + k % 2 : 1 + k % 4, total = 0;

			for (uint32_t j = 0; j < nsge; j++) {
				uint32_t l = inl ? (edge ? 40 + (k + j) % 40
							 : 1 + (k * 37 + j * 11) % (160 / nsge))
						 : 1 + (k * 131 + j * 57) % 500;

				g[i][j] = sge(e, src + total + j * 3, l);
				total += l + j * 3;
			}
			len[i] = 0;
			for (uint32_t j = 0; j < nsge; j++)
				len[i] += g[i][j].length;
			fill(e->buf + src, 2048, k);
			memset(e->buf + dst, 0, 4096);
			recv1(&b, sge(e, dst, 4096), 0x10000 + k);
			w[i] = (struct uvio_dp_send_wr){
				.wr_id = k, .sg_list = g[i], .num_sge = nsge,
				.opcode = k % 5 == 1 ? IB_UVERBS_WR_SEND_WITH_IMM : IB_UVERBS_WR_SEND,
				.imm_data = htonl(k),
				.flags = (inl ? UVIO_DP_SEND_INLINE : 0) |
					 (i == n - 1 ? UVIO_DP_SEND_SIGNALED : 0) };
			{	/* where the WQE lies: control, then inline data
				 * (4 + bytes, whole 16s) or a segment per SGE */
				uint32_t ds = 1 + (inl ? (4 + len[i] + 15) / 16 : nsge);
				uint32_t bbs = (ds + 3) / 4;

				if (inl)
					inl_bbs[bbs]++;
				if (pos % cap + bbs > cap)
					*(inl ? &wrapped_inl : &wrapped_sge) += 1;
				pos += bbs;
			}
		}
		{
			int err = uvio_dp_post_send(&a, w, n, &posted);

			KT_EQ(err, 0);
			if (err) {
				printf("wrap: round %u: %s\n", round, uvio_last_error());
				break;
			}
		}
		/* the inline sources are the WQE's: overwrite them at once */
		for (uint32_t i = 0; i < n; i++) {
			KT_EQ(wait_wc(&cb, wc, 1), 1);
			expect_wc(&wc[0], 0x10000 + sent + i, UVIO_WC_SUCCESS, UVIO_WC_RECV,
				  "wrapped receive");
			KT_EQ(wc[0].byte_len, len[i]);
			if ((sent + i) % 5 == 1)
				KT_CHECK((wc[0].wc_flags & UVIO_WC_WITH_IMM) &&
					 ntohl(wc[0].imm_data) == sent + i, "immediate %#x flags %#x",
					 ntohl(wc[0].imm_data), wc[0].wc_flags);
			else
				KT_CHECK(!(wc[0].wc_flags & UVIO_WC_WITH_IMM), "flags %#x",
					 wc[0].wc_flags);
			/* the SGEs' bytes, one after the other */
			size_t at = 0;

			for (uint32_t j = 0; j < w[i].num_sge; j++) {
				const struct uvio_dp_sge *gg = &w[i].sg_list[j];

				if (memcmp(e->buf + B_RX + (size_t)i * 4096 + at,
					   (const void *)(uintptr_t)gg->addr, gg->length)) {
					bad++;
					KT_CHECK(0, "round %u WR %u SGE %u: bytes differ", round, i, j);
				}
				at += gg->length;
			}
			if (e->buf[B_RX + (size_t)i * 4096 + at] != 0) {
				bad++;
				KT_CHECK(0, "round %u WR %u: a byte past %zu written", round, i, at);
			}
			msgs++;
		}
		KT_EQ(wait_wc(&ca, wc, 1), 1);
		expect_wc(&wc[0], sent + n - 1, UVIO_WC_SUCCESS, UVIO_WC_SEND, "the batch's signaled");
		sent += n;
	}
	usleep(20000);
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 8), 0);
	KT_EQ(uvio_dp_poll_cq(&cb, wc, 8), 0);
	printf("wrap: %u messages in %u rounds checked (inline WQEs of 1/2/3 BBs: %u/%u/%u); "
	       "%u BBs posted: the send queue went round %u times, %u inline WQEs and %u of "
	       "data segments wrapped to BB 0; the receive queue went round %u times, the "
	       "receive CQ %u\n", msgs, ROUNDS, inl_bbs[1], inl_bbs[2], inl_bbs[3], pos,
	       cap ? pos / cap : 0, wrapped_inl, wrapped_sge,
	       msgs / (uvio_dp_queue_capacity(&b.rq) ? uvio_dp_queue_capacity(&b.rq) : 1),
	       msgs / (uvio_dp_queue_capacity(&cb.q) ? uvio_dp_queue_capacity(&cb.q) : 1));
	KT_EQ(msgs, ROUNDS / 4 * 10);
	KT_CHECK(wrapped_inl > 0 && wrapped_sge > 0, "WQEs across the ring's end: %u inline, %u "
		 "data segments", wrapped_inl, wrapped_sge);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cb, NULL), 0);
}

/* A completion event within ms, for the CQ with user handle uh. */
static int comp_event(struct env *e, uint64_t uh, int ms)
{
	struct pollfd p = { .fd = e->chan.fd, .events = POLLIN };
	struct uvio_comp_event ev = { .sz = sizeof(ev) };

	if (poll(&p, 1, ms) != 1)
		return -ETIMEDOUT;
	KT_EQ(uvio_get_comp_event(e->chan.fd, &ev), 0);
	KT_EQ(ev.cq_user_handle, uh);
	return 0;
}

/* Arm (next, then solicited only) and wait on the channel; then many
 * rounds of arm, event, poll as a program that sleeps does. */
static void arm_and_wait(struct env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[4];
	struct uvio_dp_sge s = sge(e, A_OFF, 32);
	uint32_t events = 0;

	make_cq(e, &ca, 16, 0x6a);
	make_cq(e, &cb, 16, 0x6b);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &ca, NULL, 0x6a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cb, NULL, 0x6b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	for (uint64_t i = 0; i < 3; i++)
		recv1(&b, sge(e, B_RX, 64), 500 + i);
	struct uvio_dp_send_wr w = { .wr_id = 90, .opcode = IB_UVERBS_WR_SEND, .sg_list = &s,
				     .num_sge = 1 };

	KT_EQ(uvio_dp_arm_cq(&cb, 0), 0);
	KT_EQ(comp_event(e, 0x6b, 200), -ETIMEDOUT);	/* nothing yet */
	KT_EQ(post1(&a, &w), 0);
	KT_EQ(comp_event(e, 0x6b, 3000), 0);
	events++;
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 500, UVIO_WC_SUCCESS, UVIO_WC_RECV, "armed receive");

	/* Solicited only: an unsolicited send raises nothing, a solicited one
	 * does. */
	KT_EQ(uvio_dp_arm_cq(&cb, 1), 0);
	KT_EQ(post1(&a, &w), 0);
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	KT_EQ(comp_event(e, 0x6b, 300), -ETIMEDOUT);
	w.flags = UVIO_DP_SEND_SOLICITED;
	KT_EQ(post1(&a, &w), 0);
	KT_EQ(comp_event(e, 0x6b, 3000), 0);
	events++;
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 502, UVIO_WC_SUCCESS, UVIO_WC_RECV, "solicited receive");
	printf("arm: next and solicited-only events: ok\n");

	/* 40 rounds: poll empty, arm, poll again, sleep for the event. */
	w.flags = 0;
	for (uint64_t i = 0; i < 40; i++) {
		int got;

		recv1(&b, sge(e, B_RX, 64), 600 + i);
		KT_EQ(post1(&a, &w), 0);
		got = uvio_dp_poll_cq(&cb, wc, 1);
		if (!got) {
			KT_EQ(uvio_dp_arm_cq(&cb, 0), 0);
			got = uvio_dp_poll_cq(&cb, wc, 1);
			if (!got) {
				KT_EQ(comp_event(e, 0x6b, 3000), 0);
				events++;
				got = wait_wc(&cb, wc, 1);
			}
		}
		KT_EQ(got, 1);
		expect_wc(&wc[0], 600 + i, UVIO_WC_SUCCESS, UVIO_WC_RECV, "event-driven receive");
	}
	printf("arm: 40 event-driven rounds, %u events read in all\n", events);
	/* The send CQ: unsignaled sends left its ring empty. */
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 4), 0);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	{	/* the events read: the destroy says so */
		UVIO_OPTS(uvio_events_reported, rep);

		KT_EQ(uvio_dp_destroy_cq(&cb, &rep), 0);
		KT_EQ(rep.comp_events_reported, events);
	}
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
}

/* UD through an address handle: the receive starts with the 40-byte GRH. */
static void ud_send(struct env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_ah ah;
	struct uvio_dp_wc wc[2];
	struct uvio_dp_sge s = sge(e, A_OFF, 512);
	int err;
	UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = e->pd,
		  .av = { .is_global = 1, .port_num = 1, .sgid_index = GIDX, .hop_limit = 64 });

	memcpy(aa.av.dgid, e->gid, 16);
	make_cq(e, &cq, 64, 0xd);
	make_qp(e, &a, IB_UVERBS_QPT_UD, &cq, NULL, 0x3a);
	make_qp(e, &b, IB_UVERBS_QPT_UD, &cq, NULL, 0x3b);
	err = uvio_dp_create_ah(e->dev, &aa, &ah);
	KT_EQ(err, 0);
	if (err) {
		printf("ud: create_ah: %s\n", uvio_last_error());
		goto out_qps;
	}
	if (connect_qp(e, &a, 0) || connect_qp(e, &b, 0))
		goto out;
	for (uint32_t round = 0; round < 3; round++) {
		uint32_t len = round == 0 ? 512 : round == 1 ? 1 : 100;
		bool inl = round == 2;

		s.length = len;
		fill(e->buf + A_OFF, 512, 11 + round);
		memset(e->buf + B_RX, 0, 1024);
		recv1(&b, sge(e, B_RX, 40 + 512), 300 + round);
		struct uvio_dp_send_wr w = {
			.wr_id = 50 + round,
			.opcode = round == 1 ? IB_UVERBS_WR_SEND : IB_UVERBS_WR_SEND_WITH_IMM,
			.flags = UVIO_DP_SEND_SIGNALED | (inl ? UVIO_DP_SEND_INLINE : 0),
			.sg_list = &s, .num_sge = 1, .imm_data = htonl(5 + round),
			.ud = { .ah = &ah, .remote_qpn = b.qp_num, .remote_qkey = 0x11111111 } };
		KT_EQ(post1(&a, &w), 0);
		KT_EQ(wait_wc(&cq, wc, 2), 2);
		for (int i = 0; i < 2; i++) {
			if (wc[i].wr_id == 50 + round) {
				expect_wc(&wc[i], 50 + round, UVIO_WC_SUCCESS, UVIO_WC_SEND, "UD send");
			} else {
				expect_wc(&wc[i], 300 + round, UVIO_WC_SUCCESS, UVIO_WC_RECV,
					  "UD receive");
				KT_EQ(wc[i].byte_len, 40 + len);
				KT_EQ(wc[i].src_qp, a.qp_num);
				KT_EQ(wc[i].qp_num, b.qp_num);
				if (round != 1)
					KT_EQ(ntohl(wc[i].imm_data), 5 + round);
				KT_CHECK(wc[i].wc_flags & UVIO_WC_GRH, "flags %#x", wc[i].wc_flags);
			}
		}
		KT_EQ(memcmp(e->buf + B_RX + 40, e->buf + A_OFF, len), 0);
		KT_EQ(e->buf[B_RX + 40 + len], 0);
		/* the GRH: the destination GID at 24, the source's at 8 */
		KT_EQ(memcmp(e->buf + B_RX + 24, e->gid, 16), 0);
		KT_EQ(memcmp(e->buf + B_RX + 8, e->gid, 16), 0);
	}
	{	/* A UD send needs its AH. */
		struct uvio_dp_send_wr n = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &s, .num_sge = 1 };
		KT_EQ(uvio_dp_post_send(&a, &n, 1, NULL), -EINVAL);
	}
	printf("ud: SEND_WITH_IMM of 512 bytes, SEND of 1, inline SEND_WITH_IMM of 100 through an "
	       "AH: ok\n");
out:
	KT_EQ(uvio_dp_destroy_ah(&ah), 0);
out_qps:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* SRQ: receives through its list, taken and given back until the list has
 * wrapped twice; completions out of order of posting need no order here. */
static void srq_list(struct env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_srq srq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[16];
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = e->pd, .user_handle = 0x5e, .max_wr = 8,
		  .max_sge = 2);
	uint32_t cap, done = 0, next = 0;

	make_cq(e, &cq, 64, 0x10);
	KT_EQ(uvio_dp_create_srq(e->dev, &sa, &srq), 0);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x5a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cq, &srq, 0x5b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	KT_EQ(uvio_dp_post_recv(&b, NULL, 0, NULL), -EINVAL);	/* receives go to the SRQ */
	cap = uvio_dp_queue_capacity(&srq.q);
	printf("srq: %#x, %u receives at once, %u SGEs\n", srq.srq_num, cap, srq.max_sge);
	KT_CHECK(cap >= 8, "capacity %u", cap);
	/* fill it; the one more is refused */
	for (; next < cap; next++) {
		struct uvio_dp_sge r[2] = { sge(e, B_RX + (next % 64) * 256, 100),
					    sge(e, B_RX + (next % 64) * 256 + 128, 100) };
		struct uvio_dp_recv_wr w = { .wr_id = 400 + next, .sg_list = r, .num_sge = 2 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &w, 1, NULL), 0);
	}
	{
		struct uvio_dp_sge r = sge(e, B_RX, 100);
		struct uvio_dp_recv_wr w = { .wr_id = 1, .sg_list = &r, .num_sge = 1 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &w, 1, NULL), -ENOSPC);
	}
	/* 4 * cap messages of 150 bytes (over both SGEs); each receive
	 * completed is posted again */
	while (done < 4 * cap) {
		uint32_t k = done;
		struct uvio_dp_sge s = sge(e, A_OFF + (k % 64) * 256, 150);
		struct uvio_dp_send_wr w = { .wr_id = k, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1 };
		int got, recvs = 0;

		fill(e->buf + A_OFF + (k % 64) * 256, 150, k);
		if (post1(&a, &w))
			break;
		got = wait_wc(&cq, wc, 2);
		KT_EQ(got, 2);
		for (int i = 0; i < got; i++) {
			if (wc[i].opcode == UVIO_WC_SEND) {
				expect_wc(&wc[i], k, UVIO_WC_SUCCESS, UVIO_WC_SEND, "send to the SRQ");
				continue;
			}
			recvs++;
			expect_wc(&wc[i], 400 + k, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SRQ receive");
			KT_EQ(wc[i].byte_len, 150);
			uint8_t *rx = e->buf + B_RX + (k % 64) * 256;
			KT_EQ(memcmp(rx, e->buf + A_OFF + (k % 64) * 256, 100), 0);
			KT_EQ(memcmp(rx + 128, e->buf + A_OFF + (k % 64) * 256 + 100, 50), 0);
			memset(rx, 0, 256);
		}
		KT_EQ(recvs, 1);
		{
			struct uvio_dp_sge r[2] = { sge(e, B_RX + (next % 64) * 256, 100),
						    sge(e, B_RX + (next % 64) * 256 + 128, 100) };
			struct uvio_dp_recv_wr rw = { .wr_id = 400 + next, .sg_list = r,
						      .num_sge = 2 };

			KT_EQ(uvio_dp_post_srq_recv(&srq, &rw, 1, NULL), 0);
			next++;
		}
		done++;
	}
	printf("srq: %u messages through an SRQ of %u, each receive given back: ok\n", done, cap);
	/* B to ERR: the SRQ's receives stay (they are the SRQ's, not B's) */
	KT_EQ(to_err(e, &b), 0);
	usleep(50000);
	KT_EQ(uvio_dp_poll_cq(&cq, wc, 16), 0);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_srq(&srq, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* A QP moved to ERR: its posted receives and sends come back flushed. */
static void flush(struct env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a;
	struct uvio_dp_wc wc[8];

	make_cq(e, &cq, 16, 0x70);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x7a);
	if (connect_qp(e, &a, a.qp_num))
		goto out;
	for (uint64_t i = 0; i < 4; i++)
		recv1(&a, sge(e, B_RX + i * 64, 64), 700 + i);
	KT_EQ(to_err(e, &a), 0);
	KT_EQ(wait_wc(&cq, wc, 4), 4);
	for (int i = 0; i < 4; i++)
		expect_wc(&wc[i], 700 + (uint64_t)i, UVIO_WC_WR_FLUSH_ERR, UVIO_WC_RECV, "flushed");
	{
		struct uvio_dp_sge s = sge(e, A_OFF, 64);
		struct uvio_dp_send_wr w = { .wr_id = 77, .opcode = IB_UVERBS_WR_SEND,
					     .sg_list = &s, .num_sge = 1 };

		KT_EQ(post1(&a, &w), 0);	/* unsignaled: flushed all the same */
		KT_EQ(wait_wc(&cq, wc, 1), 1);
		expect_wc(&wc[0], 77, UVIO_WC_WR_FLUSH_ERR, wc[0].opcode, "flushed send");
	}
	printf("flush: 4 receives and an unsignaled send flushed in ERR: ok\n");
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/*
 * Resize with completions not yet polled: one QP sends to itself, SENDs
 * and their receives complete into a CQ of 16 entries. Eight pending do
 * not fit in 4 entries: refused before the kernel is asked. Then with two
 * of twelve polled, the CQ grows to 64 entries while the device has ten
 * written in the old buffer: the ten come out first, in order, each
 * receive with its message's bytes; then a round written into the new
 * buffer alone; then the CQ shrinks to 32 with nothing pending.
 */
static int rounds_done, cqes_written;

/* Until the device has written CQE p of the half's buffer (the CQ's first):
 * its entry leaves "invalid" with the owner bit of p's lap. */
static void wait_written(struct env *e, struct uvio_dp_cq *cq, uint32_t p)
{
	struct uvio_mlx5_object o = { .sz = sizeof(o) };
	const uint8_t *own;
	uint64_t end = now_ms() + 5000;

	KT_EQ(uvio_mlx5_query_object(e->dev, UVERBS_OBJECT_CQ, cq->handle, &o), 0);
	if (!o.buf || !o.ncqe)
		return;
	own = (const uint8_t *)o.buf + (size_t)(p & (o.ncqe - 1)) * o.cqe_size + o.cqe_size - 1;
	while (now_ms() < end) {
		uint8_t v = __atomic_load_n(own, __ATOMIC_ACQUIRE);

		if (v >> 4 != 15 && (v & 1) == !!(p & o.ncqe))
			return;
		usleep(1000);
	}
	KT_CHECK(0, "resize: CQE %u not written in 5 s", p);
}

static void resize_round(struct env *e, struct uvio_dp_qp *a, struct uvio_dp_cq *cq, int n,
			 int poll_first, uint32_t new_cqe, int want, bool half_buffer)
{
	struct uvio_dp_wc wc[16];
	int base = rounds_done * 8, got;

	for (int i = 0; i < n; i++) {
		recv1(a, sge(e, B_RX + (size_t)(base + i) * 64, 64), 1000 + (uint64_t)(base + i));
		fill(e->buf + A_OFF + (size_t)(base + i) * 64, 64, (unsigned)(base + i));
	}
	for (int i = 0; i < n; i++) {
		struct uvio_dp_sge s = sge(e, A_OFF + (size_t)(base + i) * 64, 64);
		struct uvio_dp_send_wr w = { .wr_id = 2000 + (uint64_t)(base + i),
					     .opcode = IB_UVERBS_WR_SEND, .sg_list = &s,
					     .num_sge = 1, .flags = UVIO_DP_SEND_SIGNALED };

		KT_EQ(post1(a, &w), 0);
	}
	got = poll_first ? wait_wc(cq, wc, poll_first) : 0;
	KT_EQ(got, poll_first);
	if (half_buffer)
		wait_written(e, cq, (uint32_t)(cqes_written + 2 * n - 1));
	cqes_written += 2 * n;
	if (new_cqe) {
		int err = uvio_dp_resize_cq(cq, new_cqe);

		KT_CHECK(err == want, "resize to %u with %d unpolled: %d, wanted %d (%s)", new_cqe,
			 2 * n - got, err, want, err ? uvio_last_error() : "");
		if (want)
			KT_CHECK(strstr(uvio_last_error(), "not yet polled") != NULL,
				 "the refusal says why: %s", uvio_last_error());
		else
			KT_CHECK(cq->cqe == new_cqe, "CQ of %u after the resize to %u", cq->cqe,
				 new_cqe);
	}
	got += wait_wc(cq, wc + got, 2 * n - got);
	KT_EQ(got, 2 * n);
	/* Sends and receives interleave; each kind comes in its own order. */
	for (int i = 0, ns = 0, nr = 0; i < got; i++) {
		if (wc[i].opcode == UVIO_WC_SEND) {
			expect_wc(&wc[i], 2000 + (uint64_t)(base + ns), UVIO_WC_SUCCESS, UVIO_WC_SEND,
				  "resize: send");
			ns++;
		} else {
			uint8_t want_bytes[64];

			expect_wc(&wc[i], 1000 + (uint64_t)(base + nr), UVIO_WC_SUCCESS, UVIO_WC_RECV,
				  "resize: receive");
			fill(want_bytes, 64, (unsigned)(base + nr));
			KT_CHECK(wc[i].byte_len == 64 &&
				 !memcmp(e->buf + B_RX + (size_t)(base + nr) * 64, want_bytes, 64),
				 "resize: message %d: %u bytes, or not its bytes", base + nr,
				 wc[i].byte_len);
			nr++;
		}
	}
	rounds_done++;
}

static void resize(struct env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a;

	rounds_done = cqes_written = 0;
	make_cq(e, &cq, 15, 0x80);
	KT_EQ(cq.cqe, 15);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x8a);
	if (connect_qp(e, &a, a.qp_num))
		goto out;
	resize_round(e, &a, &cq, 4, 0, 3, -EINVAL, true);	/* 8 pending, 4 entries */
	resize_round(e, &a, &cq, 6, 2, 63, 0, true);	/* 10 carried into 64 entries */
	resize_round(e, &a, &cq, 6, 0, 0, 0, false);	/* the new buffer on its own */
	resize_round(e, &a, &cq, 4, 8, 31, 0, false);	/* nothing pending: 32 entries */
	printf("resize: 8 pending refused 4 entries; 10 carried from 16 entries to 64; "
	       "64 to 32 with none pending\n");
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* Two threads post SENDs on one QP while one thread polls its CQ and
 * another the peer's, reposting each receive; each message carries its
 * wr_id, which the receiver checks. */
#define PER_THREAD 1000u
#define MSG 16u
struct mt {
	struct env *e;
	struct uvio_dp_qp *a, *b;
	struct uvio_dp_cq *ca, *cb;
	uint8_t seen_send[2 * PER_THREAD];
	uint8_t seen_recv[2 * PER_THREAD];
	_Atomic unsigned sends_done, recvs_done, full;
	_Atomic int errors;
};
static struct mt mt;

static void *mt_post(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg;
	uint64_t end = now_ms() + 60000;

	for (unsigned i = 0; i < PER_THREAD && now_ms() < end;) {
		uint64_t id = t * PER_THREAD + i;
		uint64_t payload[MSG / 8] = { id, ~id };
		struct uvio_dp_sge s = { (uintptr_t)payload, MSG, 0 };
		struct uvio_dp_send_wr w = { .wr_id = id, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
					     .sg_list = &s, .num_sge = 1 };
		int err = uvio_dp_post_send(mt.a, &w, 1, NULL);

		if (err == -ENOSPC) {
			mt.full++;
			usleep(50);
			continue;
		}
		if (err) {
			mt.errors++;
			break;
		}
		i++;
	}
	return NULL;
}

static void *mt_poll_sends(void *arg)
{
	struct uvio_dp_wc wc[16];
	uint64_t end = now_ms() + 60000;
	(void)arg;

	while (mt.sends_done < 2 * PER_THREAD && now_ms() < end) {
		int n = uvio_dp_poll_cq(mt.ca, wc, 16);

		for (int i = 0; i < n; i++) {
			if (wc[i].status || wc[i].wr_id >= 2 * PER_THREAD || mt.seen_send[wc[i].wr_id]++)
				mt.errors++;
			mt.sends_done++;
		}
		if (n < 0)
			mt.errors++;
		if (n <= 0)
			usleep(20);
	}
	return NULL;
}

static void *mt_poll_recvs(void *arg)
{
	struct uvio_dp_wc wc[16];
	uint64_t end = now_ms() + 60000;
	(void)arg;

	while (mt.recvs_done < 2 * PER_THREAD && now_ms() < end) {
		int m = uvio_dp_poll_cq(mt.cb, wc, 16);

		for (int i = 0; i < m; i++) {
			uint64_t slot = wc[i].wr_id;
			uint64_t *p = (uint64_t *)(mt.e->buf + B_RX + slot * MSG);

			if (wc[i].status || wc[i].byte_len != MSG || p[0] >= 2 * PER_THREAD ||
			    p[1] != ~p[0] || mt.seen_recv[p[0]]++)
				mt.errors++;
			mt.recvs_done++;
			memset(p, 0xff, MSG);
			/* the slot takes the next message */
			struct uvio_dp_sge s = { (uintptr_t)p, MSG, mt.e->mr.lkey };
			struct uvio_dp_recv_wr r = { .wr_id = slot, .sg_list = &s, .num_sge = 1 };
			if (uvio_dp_post_recv(mt.b, &r, 1, NULL))
				mt.errors++;
		}
		if (m < 0)
			mt.errors++;
		if (m <= 0)
			usleep(20);
	}
	return NULL;
}

static void threads(struct env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	pthread_t t[4];
	uint64_t t0 = now_ms();

	make_cq(e, &ca, 256, 0x7a);
	make_cq(e, &cb, 256, 0x7b);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &ca, NULL, 0x7a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cb, NULL, 0x7b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	memset(&mt, 0, sizeof(mt));
	mt.e = e;
	mt.a = &a;
	mt.b = &b;
	mt.ca = &ca;
	mt.cb = &cb;
	for (uint64_t i = 0; i < 48; i++) {
		struct uvio_dp_sge s = sge(e, B_RX + i * MSG, MSG);
		struct uvio_dp_recv_wr r = { .wr_id = i, .sg_list = &s, .num_sge = 1 };

		KT_EQ(uvio_dp_post_recv(&b, &r, 1, NULL), 0);
	}
	pthread_create(&t[0], NULL, mt_post, (void *)0);
	pthread_create(&t[1], NULL, mt_post, (void *)1);
	pthread_create(&t[2], NULL, mt_poll_sends, NULL);
	pthread_create(&t[3], NULL, mt_poll_recvs, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	KT_EQ(mt.errors, 0);
	KT_EQ(mt.sends_done, 2 * PER_THREAD);
	KT_EQ(mt.recvs_done, 2 * PER_THREAD);
	printf("threads: 2 posters x %u inline SENDs, 2 pollers: %u send and %u receive "
	       "completions, %d errors, the send queue full %u times, %llu ms\n", PER_THREAD,
	       (unsigned)mt.sends_done, (unsigned)mt.recvs_done, mt.errors, (unsigned)mt.full,
	       (unsigned long long)(now_ms() - t0));
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cb, NULL), 0);
}

int main(int argc, char **argv)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	const char *name = argc > 1 ? argv[1] : "mlx5_0";
	const char *only = getenv("KT_MLX5_DP_ONLY");
	struct env e;

	KT_EQ(setrlimit(RLIMIT_MEMLOCK, &unlimited), 0);
	if (env_open(&e, name))
		return kt_exit();
	printf("device %s on %s\n", name, kt_kernel_release());
#define RUN(f)                                                                 \
	do {                                                                   \
		if (!only || strstr(only, #f)) {                               \
			int before = kt_failures;                              \
			uint64_t t0 = now_ms();                                \
			f(&e);                                                 \
			printf("%s %s (%llu ms)\n", kt_failures == before ? "ok" : "not ok", #f, \
			       (unsigned long long)(now_ms() - t0));           \
		}                                                              \
	} while (0)
	RUN(rc_opcodes);
	RUN(wrap);
	RUN(arm_and_wait);
	RUN(ud_send);
	RUN(srq_list);
	RUN(flush);
	RUN(resize);
	RUN(threads);
	env_close(&e);
	KT_EQ(kt_rdma_res_count("qp", name, getpid()), 0);
	KT_EQ(kt_rdma_res_count("cq", name, getpid()), 0);
	KT_EQ(kt_rdma_res_count("mr", name, getpid()), 0);
	return kt_exit();
}
