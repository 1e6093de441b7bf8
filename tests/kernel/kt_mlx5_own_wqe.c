/*
 * A transport author's route on mlx5: the objects made with the library's
 * verbs (uvio_create_cq, uvio_create_qp: the library's mlx5 half allocates
 * the queues, doorbell records and the UAR page), the data moved by this
 * program's own WQEs, doorbells and CQE reads, knowing only <uvio/mlx5.h>
 * (where the library put things) and the PRM's public segment layouts
 * (written out below, from the ConnectX programming manual's tables; no
 * code of the library's data path and no libmlx5). On the kernel suite's
 * emulated ConnectX (tests/standin/mlx5) this shows that what
 * uvio_mlx5_query_object() and uvio_mlx5_query_context() hand out is
 * enough: the rings, the doorbell records, the register and its blue-flame
 * size, the QP's user index and the CQ's number.
 *
 * Two RC QPs of one device (GID 0) on one CQ, connected by hand:
 *  - receives written on B's receive queue (a data segment, then the
 *    terminator), its record stepped;
 *  - from A: a SEND of 300 bytes from a data segment, rung with the 8-byte
 *    doorbell; a SEND of 40 bytes inline and an RDMA WRITE of 4 KiB, each
 *    rung with a blue-flame copy of the whole WQE where the page is
 *    write-combining (bf_wc; the 8-byte doorbell where it is not), the
 *    register's half toggled at every doorbell; then runs of 3 unsignalled
 *    WRITEs and a signalled one under one doorbell, over the send queue's
 *    wrap;
 *  - the CQEs read by owner bit: requester ones (opcode, WQE counter, the
 *    QP's user index), responder ones (byte count, the source QPN); the
 *    consumer index written back; every byte checked.
 * The CQ is armed through its register and the completion event read from
 * the channel. Every object destroyed and the kernel's tables empty after.
 *
 *   kt_mlx5_own_wqe [DEVICE]     (default mlx5_0)
 */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <uvio.h>
#include <uvio/mlx5.h>
#include "kt.h"

/* The PRM's layouts (send WQE segments, receive WQE, CQE64, UAR page). */
enum {
	BB = 64,			/* send WQE basic block */
	SEG = 16,
	OP_RDMA_WRITE = 0x08,
	OP_SEND = 0x0a,
	CTRL_CQ_UPDATE = 0x08,		/* fm_ce_se: a CQE for this WQE */
	INLINE_SEG = 0x80000000u,
	INVALID_LKEY = 0x100,		/* ends a receive's scatter list */
	CQE_REQ = 0,
	CQE_RESP_SEND = 2,
	CQE_INVALID = 15,
	CQE_FLAGS_RQPN = 24,
	CQE_SRQN_UIDX = 32,
	CQE_BYTE_CNT = 44,
	CQE_SYNDROME = 55,
	CQE_SOP_QPN = 56,
	CQE_WQE_COUNTER = 60,
	CQE_OP_OWN = 63,
	DBR_RCV = 0,
	DBR_SND = 1,
	CQ_DBR_CI = 0,
	CQ_DBR_ARM = 1,
};

#define BUF_LEN (1u << 20)
#define GIDX 0
#define A_SRC 0			/* A's sources */
#define B_RX (256u << 10)	/* B's receive slots, 1 KiB apart */
#define B_TGT (512u << 10)	/* the WRITEs' target */

struct qp {
	struct uvio_qp q;
	struct uvio_mlx5_object o;
	uint8_t *sq;
	uint32_t cur;			/* BBs posted */
	uint32_t rq_head;
	uint32_t bf_off;		/* the register's half in use */
};

static struct uvio_device *dev;
static struct uvio_context ctx;
static struct uvio_comp_channel chan;
static uint32_t pd;
static struct uvio_mr mr;
static uint8_t *buf, gid[16];
static struct uvio_cq cq;
static struct uvio_mlx5_object cqo;
static struct uvio_mlx5_context mctx;
static uint32_t ci, arm_sn;
static struct qp qa, qb;

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void fill(uint8_t *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 29 + i * 3 + (i >> 8));
}

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* ---- the queues, written by hand --------------------------------------- */

/* A receive WQE on the QP's receive queue: one data segment, then the
 * terminator when the WQE has room for another. */
static void post_recv(struct qp *q, uint64_t addr, uint32_t len)
{
	uint32_t stride = 1u << q->o.rq_wqe_shift;
	uint8_t *w = (uint8_t *)q->o.buf + (size_t)(q->rq_head & (q->o.rq_wqe_cnt - 1)) * stride;

	put32(w, len);
	put32(w + 4, mr.lkey);
	put64(w + 8, addr);
	if (stride >= 2 * SEG) {
		put32(w + SEG, 0);
		put32(w + SEG + 4, INVALID_LKEY);
		put64(w + SEG + 8, 0);
	}
	q->rq_head++;
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* the WQE before its record */
	__atomic_store_n(&q->o.dbrec[DBR_RCV], htobe32(q->rq_head & 0xffff), __ATOMIC_RELAXED);
}

/* The 16-byte unit after p in the send queue, wrapping to BB 0. */
static uint8_t *sq_next(struct qp *q, uint8_t *p)
{
	p += SEG;
	return p == q->sq + (size_t)q->o.sq_wqe_cnt * BB ? q->sq : p;
}

/*
 * One send WQE at cur: the control segment, a remote address segment for
 * an RDMA WRITE, then inline data or one data segment. Returns the WQE's
 * control segment; the caller rings the doorbell.
 */
static uint8_t *post_send(struct qp *q, uint8_t op, int signaled, uint64_t raddr, uint32_t rkey,
			  const uint8_t *src, uint32_t len, int inl, uint32_t *ds_out)
{
	uint8_t *ctrl = q->sq + (size_t)(q->cur & (q->o.sq_wqe_cnt - 1)) * BB, *p;
	uint32_t ds = 1 + (op == OP_RDMA_WRITE) + (inl ? (4 + len + SEG - 1) / SEG : 1);

	put32(ctrl, (q->cur & 0xffff) << 8 | op);
	put32(ctrl + 4, q->q.qp_num << 8 | ds);
	memset(ctrl + 8, 0, 8);
	ctrl[11] = signaled ? CTRL_CQ_UPDATE : 0;
	p = sq_next(q, ctrl);
	if (op == OP_RDMA_WRITE) {
		put64(p, raddr);
		put32(p + 8, rkey);
		memset(p + 12, 0, 4);
		p = sq_next(q, p);
	}
	if (inl) {
		/* Within one BB here (ds * 16 <= 64): no wrap inside. */
		put32(p, len | INLINE_SEG);
		memcpy(p + 4, src, len);
		memset(p + 4 + len, 0, (SEG - (4 + len) % SEG) % SEG);
	} else {
		put32(p, len);
		put32(p + 4, mr.lkey);
		put64(p + 8, (uintptr_t)src);
	}
	q->cur += (ds * SEG + BB - 1) / BB;
	*ds_out = ds;
	return ctrl;
}

/*
 * The doorbell: the record (the BBs posted), then the register. With
 * bf: the whole WQE (ds units) copied into the register's current half,
 * 64 bits at a time; else the control segment's first 8 bytes. Either way
 * the half toggles, as the PRM's blue-flame register asks of a writer.
 */
static void doorbell(struct qp *q, const uint8_t *ctrl, uint32_t ds, int bf)
{
	volatile uint64_t *reg = (volatile uint64_t *)((volatile uint8_t *)q->o.reg + q->bf_off);
	uint64_t w;

	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&q->o.dbrec[DBR_SND], htobe32(q->cur & 0xffff), __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (bf) {
		/* A blue-flame copy never wraps: the WQE is one BB or fits
		 * before the end of the queue (checked by the caller). */
		for (uint32_t i = 0; i < (ds * SEG + 7) / 8; i++) {
			memcpy(&w, ctrl + 8 * i, 8);
			reg[i] = w;
		}
	} else {
		memcpy(&w, ctrl, 8);
		reg[0] = w;
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (q->o.bf_size)
		q->bf_off ^= q->o.bf_size;
}

/* The next CQE of software's, or NULL (the PRM's owner bit: the entry's
 * owner equals the lap of the consumer index). */
static const uint8_t *next_cqe(void)
{
	const uint8_t *e = (const uint8_t *)cqo.buf + (size_t)(ci & (cqo.ncqe - 1)) * cqo.cqe_size;
	const uint8_t *c64 = e + cqo.cqe_size - 64;
	uint8_t op_own = __atomic_load_n(&c64[CQE_OP_OWN], __ATOMIC_ACQUIRE);

	if ((op_own >> 4) == CQE_INVALID || (op_own & 1) != !!(ci & cqo.ncqe))
		return NULL;
	return c64;
}

/* Waits up to 5 s for the next CQE and consumes it (record written). */
static int take_cqe(uint8_t out[64])
{
	uint64_t end = now_ms() + 5000;
	const uint8_t *c;

	while (!(c = next_cqe())) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		usleep(200);
	}
	memcpy(out, c, 64);
	ci++;
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* read before freed */
	__atomic_store_n(&cqo.dbrec[CQ_DBR_CI], htobe32(ci & 0xffffff), __ATOMIC_RELAXED);
	return 0;
}

static void check_req(const uint8_t *c, struct qp *q, uint32_t wqe_index, uint8_t wqe_op,
		      const char *what)
{
	KT_CHECK(c[CQE_OP_OWN] >> 4 == CQE_REQ && (get32(c + CQE_SOP_QPN) & 0xffffff) ==
		 q->q.qp_num && get32(c + CQE_SOP_QPN) >> 24 == wqe_op &&
		 get16(c + CQE_WQE_COUNTER) == (wqe_index & 0xffff) &&
		 (get32(c + CQE_SRQN_UIDX) & 0xffffff) == q->o.uidx,
		 "%s: CQE opcode %u syndrome %#x qpn %#x wqe op %#x counter %u uidx %#x; expected "
		 "qpn %#x counter %u uidx %#x", what, c[CQE_OP_OWN] >> 4, c[CQE_SYNDROME],
		 get32(c + CQE_SOP_QPN) & 0xffffff, get32(c + CQE_SOP_QPN) >> 24,
		 get16(c + CQE_WQE_COUNTER), get32(c + CQE_SRQN_UIDX) & 0xffffff,
		 q->q.qp_num, wqe_index & 0xffff, q->o.uidx);
}

static void check_resp(const uint8_t *c, struct qp *q, uint32_t len, uint32_t src_qpn,
		       const char *what)
{
	KT_CHECK(c[CQE_OP_OWN] >> 4 == CQE_RESP_SEND && get32(c + CQE_BYTE_CNT) == len &&
		 (get32(c + CQE_SOP_QPN) & 0xffffff) == q->q.qp_num &&
		 (get32(c + CQE_FLAGS_RQPN) & 0xffffff) == src_qpn &&
		 (get32(c + CQE_SRQN_UIDX) & 0xffffff) == q->o.uidx,
		 "%s: CQE opcode %u syndrome %#x byte_cnt %u qpn %#x source %#x uidx %#x", what,
		 c[CQE_OP_OWN] >> 4, c[CQE_SYNDROME], get32(c + CQE_BYTE_CNT),
		 get32(c + CQE_SOP_QPN) & 0xffffff, get32(c + CQE_FLAGS_RQPN) & 0xffffff,
		 get32(c + CQE_SRQN_UIDX) & 0xffffff);
}

/* The requester's CQE for A's WQE wqe_index. */
static void expect_req(struct qp *q, uint32_t wqe_index, uint8_t wqe_op, const char *what)
{
	uint8_t c[64];

	if (take_cqe(c))
		KT_CHECK(0, "%s: no CQE in 5 s", what);
	else
		check_req(c, q, wqe_index, wqe_op, what);
}

/* A SEND's two CQEs on the one CQ, in whichever order the device wrote
 * them: the requester's (A) and the responder's (B). */
static void expect_send(uint32_t wqe_index, uint32_t len, const char *what)
{
	uint8_t c[2][64];

	if (take_cqe(c[0]) || take_cqe(c[1])) {
		KT_CHECK(0, "%s: not two CQEs in 5 s", what);
		return;
	}
	for (int i = 0; i < 2; i++) {
		if (c[i][CQE_OP_OWN] >> 4 == CQE_REQ)
			check_req(c[i], &qa, wqe_index, OP_SEND, what);
		else
			check_resp(c[i], &qb, len, qa.q.qp_num, what);
	}
	KT_CHECK(c[0][CQE_OP_OWN] >> 4 != c[1][CQE_OP_OWN] >> 4, "%s: one of each", what);
}

/* ---- objects, by the library's verbs ----------------------------------- */

static int make_qp(struct qp *q)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
		  .send_cq_handle = cq.handle, .recv_cq_handle = cq.handle,
		  .cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
			   .max_recv_sge = 1, .max_inline_data = 64 });
	int err;

	memset(q, 0, sizeof(*q));
	q->q.sz = sizeof(q->q);
	err = uvio_create_qp(dev, &a, NULL, &q->q, NULL);
	KT_EQ(err, 0);
	if (err)
		return err;
	q->o.sz = sizeof(q->o);
	err = uvio_mlx5_query_object(dev, UVERBS_OBJECT_QP, q->q.handle, &q->o);
	KT_EQ(err, 0);
	if (err)
		return err;
	printf("QP %#x: %u send BBs at +%u, %u receives of %u bytes, uidx %#x, register %p "
	       "(+%#lx), blue flame %u bytes, %s\n", q->q.qp_num, q->o.sq_wqe_cnt, q->o.sq_offset,
	       q->o.rq_wqe_cnt, 1u << q->o.rq_wqe_shift, q->o.uidx, (void *)q->o.reg,
	       (long)((volatile uint8_t *)q->o.reg - (uint8_t *)mctx.uar), q->o.bf_size,
	       q->o.bf_wc ? "write-combining: whole WQEs copied" : "non-cached: 8-byte doorbells");
	KT_CHECK(q->o.reg && q->o.sq_wqe_cnt >= 8 && q->o.rq_wqe_cnt >= 8 && q->o.dbrec,
		 "the QP's register, rings and record");
	if (!q->o.reg || q->o.sq_wqe_cnt < 8 || q->o.rq_wqe_cnt < 8 || !q->o.dbrec)
		return -EPROTO;
	/* The register lies in the mapped page; a blue-flame half holds a BB. */
	KT_CHECK((volatile uint8_t *)q->o.reg >= (uint8_t *)mctx.uar &&
		 (volatile uint8_t *)q->o.reg + 2 * q->o.bf_size <= (uint8_t *)mctx.uar + 4096,
		 "register inside the UAR page");
	KT_CHECK(q->o.bf_size == 0 || q->o.bf_size >= BB, "bf_size %u", q->o.bf_size);
	q->sq = (uint8_t *)q->o.buf + q->o.sq_offset;
	return 0;
}

static int connect_qp(struct qp *q, uint32_t peer)
{
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_INIT, .port_num = 1,
		  .qp_access_flags = IB_UVERBS_ACCESS_REMOTE_WRITE,
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
			       UVIO_QP_ACCESS_FLAGS);
	int err = uvio_modify_qp(dev, q->q.handle, &a, NULL, NULL);

	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTR,
		.path_mtu = UVIO_MTU_1024, .dest_qp_num = peer, .min_rnr_timer = 1,
		.rq_psn = 0x100,
		.ah = { .is_global = 1, .sgid_index = GIDX, .hop_limit = 64, .port_num = 1 },
		.attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN |
			     UVIO_QP_RQ_PSN | UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER };
	memcpy(a.ah.dgid, gid, 16);
	if (!err)
		err = uvio_modify_qp(dev, q->q.handle, &a, NULL, NULL);
	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTS, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 7, .sq_psn = 0x100,
		.attr_mask = UVIO_QP_STATE | UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT |
			     UVIO_QP_RNR_RETRY | UVIO_QP_SQ_PSN | UVIO_QP_MAX_QP_RD_ATOMIC };
	if (!err)
		err = uvio_modify_qp(dev, q->q.handle, &a, NULL, NULL);
	KT_EQ(err, 0);
	if (err)
		printf("connect: %s\n", uvio_last_error());
	return err;
}

/* Arm for the next completion through the CQ's register (the PRM's CQ
 * doorbell: the arm sequence number, the command, the consumer index into
 * the record's second word, then {that, cqn} as one 64-bit store). */
static void arm_cq(void)
{
	uint32_t v = (arm_sn++ & 3) << 28 | (ci & 0xffffff);
	uint64_t reg = htobe64((uint64_t)v << 32 | cqo.num);

	__atomic_store_n(&cqo.dbrec[CQ_DBR_ARM], htobe32(v), __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*(volatile uint64_t *)cqo.reg = reg;
}

static int setup(const char *name)
{
	struct uvio_gid_entry g;
	int err;

	KT_EQ(uvio_device_open(name, &dev), 0);
	if (!dev)
		return -1;
	ctx.sz = sizeof(ctx);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	chan.sz = sizeof(chan);
	KT_EQ(uvio_create_comp_channel(dev, &chan, NULL), 0);
	buf = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -1;
	{
		UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = pd, .addr = buf, .length = BUF_LEN,
			  .iova = (uintptr_t)buf,
			  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE);

		mr.sz = sizeof(mr);
		KT_EQ(uvio_reg_mr(dev, &ma, NULL, &mr, NULL), 0);
	}
	KT_EQ(uvio_query_gid_entry(dev, 1, GIDX, &g, NULL), 0);
	memcpy(gid, g.gid, 16);
	mctx.sz = sizeof(mctx);
	err = uvio_mlx5_query_context(dev, &mctx);
	KT_EQ(err, 0);
	if (err)
		return err;
	printf("context: CQE version %u, UAR %p (%s, page %u), bf_reg_size %u\n",
	       mctx.cqe_version, mctx.uar, mctx.dynamic_uar ? "dynamic" : "static",
	       mctx.uar_page_id, mctx.bf_reg_size);
	{
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 16, .user_handle = 0x6f, .channel = &chan);

		cq.sz = sizeof(cq);
		err = uvio_create_cq(dev, &a, NULL, &cq, NULL);
		KT_EQ(err, 0);
		if (err)
			return err;
	}
	cqo.sz = sizeof(cqo);
	err = uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &cqo);
	KT_EQ(err, 0);
	if (err)
		return err;
	printf("CQ %#x: %u CQEs of %u bytes, arm register +%#lx\n", cqo.num, cqo.ncqe,
	       cqo.cqe_size, (long)((volatile uint8_t *)cqo.reg - (uint8_t *)mctx.uar));
	KT_CHECK(cqo.reg && cqo.ncqe >= 16 && (cqo.ncqe & (cqo.ncqe - 1)) == 0 &&
		 (cqo.cqe_size == 64 || cqo.cqe_size == 128), "the CQ's ring and register");
	if (!cqo.reg || cqo.ncqe < 16 || (cqo.ncqe & (cqo.ncqe - 1)))
		return -EPROTO;
	if (make_qp(&qa) || make_qp(&qb))
		return -1;
	if (connect_qp(&qa, qb.q.qp_num) || connect_qp(&qb, qa.q.qp_num))
		return -1;
	return 0;
}

static void teardown(const char *name)
{
	KT_EQ(uvio_destroy_qp(dev, qa.q.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, qb.q.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	close(chan.fd);
	close(ctx.async_fd);
	uvio_device_close(dev);
	munmap(buf, BUF_LEN);
	KT_EQ(kt_rdma_res_count("qp", name, getpid()), 0);
	KT_EQ(kt_rdma_res_count("cq", name, getpid()), 0);
	KT_EQ(kt_rdma_res_count("mr", name, getpid()), 0);
}

/* ---- the traffic ------------------------------------------------------- */

static void sends(void)
{
	uint32_t ds, idx;
	uint8_t *ctrl;

	post_recv(&qb, (uintptr_t)buf + B_RX, 1024);
	post_recv(&qb, (uintptr_t)buf + B_RX + 1024, 1024);
	/* A SEND from a data segment, the 8-byte doorbell. */
	fill(buf + A_SRC, 300, 1);
	idx = qa.cur;
	ctrl = post_send(&qa, OP_SEND, 1, 0, 0, buf + A_SRC, 300, 0, &ds);
	doorbell(&qa, ctrl, ds, 0);
	expect_send(idx, 300, "SEND, 8-byte doorbell");
	KT_CHECK(!memcmp(buf + B_RX, buf + A_SRC, 300), "SEND: the 300 bytes arrived");
	/* A SEND inline, the whole WQE by blue flame. */
	fill(buf + A_SRC + 4096, 40, 2);
	idx = qa.cur;
	ctrl = post_send(&qa, OP_SEND, 1, 0, 0, buf + A_SRC + 4096, 40, 1, &ds);
	KT_CHECK(ds * SEG <= qa.o.bf_size || !qa.o.bf_wc, "the WQE fits a blue-flame half");
	doorbell(&qa, ctrl, ds, qa.o.bf_wc);
	expect_send(idx, 40, "inline SEND, blue flame");
	KT_CHECK(!memcmp(buf + B_RX + 1024, buf + A_SRC + 4096, 40),
		 "inline SEND: the 40 bytes arrived");
}

static void writes(void)
{
	uint32_t ds, idx, laps = 0;
	uint8_t *ctrl;

	/* One WRITE of 4 KiB by blue flame, then runs of four (three
	 * unsignalled) under one doorbell until the send queue wrapped. */
	fill(buf + A_SRC, 4096, 3);
	idx = qa.cur;
	ctrl = post_send(&qa, OP_RDMA_WRITE, 1, (uintptr_t)buf + B_TGT, mr.rkey, buf + A_SRC, 4096,
			 0, &ds);
	doorbell(&qa, ctrl, ds, qa.o.bf_wc);
	expect_req(&qa, idx, OP_RDMA_WRITE, "RDMA WRITE, blue flame");
	KT_CHECK(!memcmp(buf + B_TGT, buf + A_SRC, 4096), "WRITE: the 4 KiB arrived");
	for (unsigned run = 0; qa.cur < 3 * qa.o.sq_wqe_cnt && run < 64; run++) {
		uint32_t first = qa.cur;

		for (int i = 0; i < 4; i++) {
			size_t off = (size_t)(i + 1) * 8192;

			fill(buf + A_SRC + off, 2048, 10 + run * 4 + (unsigned)i);
			idx = qa.cur;
			ctrl = post_send(&qa, OP_RDMA_WRITE, i == 3, (uintptr_t)buf + B_TGT + off,
					 mr.rkey, buf + A_SRC + off, 2048, 0, &ds);
		}
		doorbell(&qa, ctrl, ds, 0);
		expect_req(&qa, idx, OP_RDMA_WRITE, "a run of four WRITEs");
		for (int i = 0; i < 4; i++) {
			size_t off = (size_t)(i + 1) * 8192;

			KT_CHECK(!memcmp(buf + B_TGT + off, buf + A_SRC + off, 2048),
				 "run %u WRITE %d arrived", run, i);
		}
		laps += (first & (qa.o.sq_wqe_cnt - 1)) > (qa.cur & (qa.o.sq_wqe_cnt - 1));
	}
	KT_CHECK(laps >= 2, "the send queue wrapped %u times", laps);
	printf("%u BBs posted on A, the queue of %u wrapped %u times; CQ consumer index %u\n",
	       qa.cur, qa.o.sq_wqe_cnt, laps, ci);
}

static void armed(void)
{
	struct pollfd p = { .fd = chan.fd, .events = POLLIN };
	struct uvio_comp_event ev = { .sz = sizeof(ev) };
	uint32_t ds, idx;
	uint8_t *ctrl;
	int n;

	arm_cq();
	fill(buf + A_SRC, 512, 7);
	idx = qa.cur;
	ctrl = post_send(&qa, OP_RDMA_WRITE, 1, (uintptr_t)buf + B_TGT, mr.rkey, buf + A_SRC, 512,
			 0, &ds);
	doorbell(&qa, ctrl, ds, 0);
	n = poll(&p, 1, 5000);
	KT_EQ(n, 1);
	if (n == 1) {
		KT_EQ(uvio_get_comp_event(chan.fd, &ev), 0);
		KT_EQ(ev.cq_user_handle, 0x6f);
	}
	expect_req(&qa, idx, OP_RDMA_WRITE, "WRITE after arming");
	KT_CHECK(!memcmp(buf + B_TGT, buf + A_SRC, 512), "the armed WRITE arrived");
}

int main(int argc, char **argv)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	const char *name = argc > 1 ? argv[1] : "mlx5_0";

	KT_EQ(setrlimit(RLIMIT_MEMLOCK, &unlimited), 0);
	if (setup(name))
		return kt_exit();
#define RUN(f)                                                                 \
	do {                                                                   \
		int before = kt_failures;                                      \
		f();                                                           \
		printf("%s %s\n", kt_failures == before ? "ok" : "not ok", #f); \
	} while (0)
	RUN(sends);
	RUN(writes);
	RUN(armed);
	teardown(name);
	return kt_exit();
}
