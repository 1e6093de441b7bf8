/*
 * The library's mlx5 WQEs against libmlx5's, as the emulated ConnectX read
 * them: the same scripted work requests run on mlx5_0 through the
 * library's data path (uvio_dp_* on queues the library created,
 * providers/mlx5.c writing the WQEs) and through libibverbs on Debian's
 * stock libmlx5 (ibv_post_send with the same work requests), each with the
 * mlx5 stand-in's record on (debugfs mlx5_standin/record: every send WQE
 * the engine took, in ring order, and every CQE it wrote). The two records
 * are then compared WQE by WQE, field by field, and the two programs'
 * work completions entry by entry.
 *
 * The script: RC SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM,
 * RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD; one, two and three
 * SGEs, a zero-length SGE among others, no SGE; inline data of 1, 8 and 60
 * bytes; signalled and unsignalled, fenced, solicited; enough of them to
 * wrap the send ring more than twice, one two-block WQE placed to run past
 * the ring's end; UD SEND and SEND_WITH_IMM through an address handle of
 * GID 0 (RoCE v1) and one of GID 1 (the same address as RoCE v2).
 * Posted in batches of 8 (one doorbell each), each batch's last WR
 * signalled, and each batch's completions awaited before the next, so that
 * both sides' rings hold the same WQEs at the same places.
 *
 * Fields are compared by role: the QPN in a control segment as "the QP's
 * own", a UD destination as "the peer UD QP", an lkey and address as "SRC
 * + 0x10" (the MR, by its key, and the offset in it), a remote address and
 * rkey likewise, WQE indexes and CQE positions from each QP's and CQ's
 * start (both start at 0). Where libmlx5 legitimately differs the
 * difference is listed as known, with its reason (known()); any other
 * difference is a failure, printed by field. What the record cannot show
 * is not compared: how each side rings the doorbell (libmlx5 copies a lone
 * WQE to its BlueFlame register, the library writes the control segment's
 * first 8 bytes to the UAR page: both publish the WQE in the ring first and
 * move the doorbell record, which is all the engine reads, as a ConnectX
 * reads the ring whenever BlueFlame's copy is not taken).
 *
 * The record itself is checked once at the byte level: the first WQE (a
 * SEND of one SGE) and the first CQE against bytes built here from the
 * hardware's layout, and the WQE placed across the ring's end read back
 * whole, in ring order.
 *
 *   kt_mlx5_wqe_compare [DEVICE [DEBUGFS_DIR]]
 *	(default mlx5_0 /sys/kernel/debug/mlx5_standin)
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <uvio.h>
#include <uvio/dp.h>
#include "kt.h"
#include "kt_dp_lib.h"

/* ---- the script --------------------------------------------------------------- */

enum { SRC, DST, RX, NMR };			/* the MRs, by role */
enum { QA, QB, UA, UB, NQP };			/* RC requester, responder; UD */
static const char *const mr_name[NMR] = { "SRC", "DST", "RX" };
static const char *const qp_name[NQP] = { "RC A", "RC B", "UD A", "UD B" };

#define BUF_LEN (64u << 10)
#define RX_SLOT 2048u
#define UD_RX_BASE (32u << 10)
#define QKEY 0x11111111u
#define SEND_WR 16			/* each send queue's max_send_wr */
#define RECV_WR 64
#define MAX_INLINE 60
#define BATCH 8
#define MAX_STEPS 256

struct sg {
	uint8_t mr;
	uint32_t off, len;
};

struct step {
	const char *what;
	uint8_t qp;			/* QA or UA */
	uint8_t op;			/* IB_UVERBS_WR_* (libibverbs' IBV_WR_* alike) */
	uint8_t nsge;
	struct sg sg[3];
	bool inl, sig, fence, sol;
	uint32_t imm;			/* host order here, big-endian in the WR */
	uint32_t roff;			/* remote: DST + roff */
	uint64_t cmp_add, swap;
	uint8_t ah;			/* UD: the AH of GID 0 (RoCE v1) or of GID 1 (v2) */
	uint64_t wr_id;
};

#define S1(o, l) .nsge = 1, .sg = { { SRC, o, l } }
static const struct step rc_base[] = {
	{ "SEND 1 SGE", QA, IB_UVERBS_WR_SEND, S1(0, 100), .sig = true },
	{ "SEND 2 SGEs", QA, IB_UVERBS_WR_SEND, .nsge = 2,
	  .sg = { { SRC, 16, 64 }, { SRC, 256, 200 } } },
	{ "SEND 3 SGEs, fenced", QA, IB_UVERBS_WR_SEND, .nsge = 3,
	  .sg = { { SRC, 0, 300 }, { SRC, 1024, 17 }, { SRC, 2048, 333 } }, .sig = true,
	  .fence = true },
	{ "SEND 3 SGEs, the middle one empty", QA, IB_UVERBS_WR_SEND, .nsge = 3,
	  .sg = { { SRC, 64, 32 }, { SRC, 128, 0 }, { SRC, 512, 48 } } },
	{ "SEND of no SGE", QA, IB_UVERBS_WR_SEND, .sig = true },
	{ "SEND inline 1", QA, IB_UVERBS_WR_SEND, S1(7, 1), .inl = true, .sig = true },
	{ "SEND inline 8", QA, IB_UVERBS_WR_SEND, S1(8, 8), .inl = true },
	{ "SEND inline 60 of 2 SGEs", QA, IB_UVERBS_WR_SEND, .nsge = 2,
	  .sg = { { SRC, 100, 20 }, { SRC, 300, 40 } }, .inl = true, .sig = true },
	{ "SEND_WITH_IMM 1 SGE", QA, IB_UVERBS_WR_SEND_WITH_IMM, S1(4096, 128), .sig = true,
	  .imm = 0x12345678 },
	{ "SEND_WITH_IMM inline 8, solicited", QA, IB_UVERBS_WR_SEND_WITH_IMM, S1(40, 8),
	  .inl = true, .sig = true, .sol = true, .imm = 0xa5a5 },
	{ "RDMA_WRITE 1 SGE", QA, IB_UVERBS_WR_RDMA_WRITE, S1(0, 512), .sig = true, .roff = 0 },
	{ "RDMA_WRITE 2 SGEs", QA, IB_UVERBS_WR_RDMA_WRITE, .nsge = 2,
	  .sg = { { SRC, 512, 100 }, { SRC, 2000, 28 } }, .roff = 4096 },
	{ "RDMA_WRITE inline 60", QA, IB_UVERBS_WR_RDMA_WRITE, S1(600, 60), .inl = true,
	  .sig = true, .roff = 8192 + 4 },
	{ "RDMA_WRITE_WITH_IMM 1 SGE", QA, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM, S1(1000, 256),
	  .sig = true, .imm = 0xdeadbeef, .roff = 12288 },
	{ "RDMA_WRITE_WITH_IMM inline 1", QA, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM, S1(3, 1),
	  .inl = true, .imm = 7, .roff = 12288 + 1000 },
	{ "RDMA_READ 1 SGE", QA, IB_UVERBS_WR_RDMA_READ, .nsge = 1,
	  .sg = { { SRC, 32768, 256 } }, .sig = true, .roff = 0 },
	{ "RDMA_READ 3 SGEs, fenced", QA, IB_UVERBS_WR_RDMA_READ, .nsge = 3,
	  .sg = { { SRC, 33000, 100 }, { SRC, 34000, 100 }, { SRC, 35000, 56 } }, .sig = true,
	  .fence = true, .roff = 4096 },
	{ "ATOMIC_CMP_AND_SWP", QA, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, .nsge = 1,
	  .sg = { { SRC, 40960, 8 } }, .sig = true, .roff = 16384, .cmp_add = 0,
	  .swap = 0x1111222233334444ull },
	{ "ATOMIC_FETCH_AND_ADD", QA, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD, .nsge = 1,
	  .sg = { { SRC, 40968, 8 } }, .sig = true, .roff = 16392, .cmp_add = 5 },
	{ "ATOMIC_FETCH_AND_ADD unsignalled, fenced", QA, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
	  .nsge = 1, .sg = { { SRC, 40976, 8 } }, .fence = true, .roff = 16392,
	  .cmp_add = 0x100000000ull },
	{ "ATOMIC_CMP_AND_SWP that fails", QA, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, .nsge = 1,
	  .sg = { { SRC, 40984, 8 } }, .sig = true, .roff = 16384, .cmp_add = 99, .swap = 1 },
};

static const struct step ud_base[] = {
	{ "UD SEND 1 SGE", UA, IB_UVERBS_WR_SEND, S1(0, 200), .sig = true },
	{ "UD SEND 3 SGEs", UA, IB_UVERBS_WR_SEND, .nsge = 3,
	  .sg = { { SRC, 0, 10 }, { SRC, 100, 20 }, { SRC, 200, 30 } } },
	{ "UD SEND inline 8", UA, IB_UVERBS_WR_SEND, S1(16, 8), .inl = true, .sig = true },
	{ "UD SEND_WITH_IMM inline 60", UA, IB_UVERBS_WR_SEND_WITH_IMM, S1(64, 60), .inl = true,
	  .sig = true, .imm = 0x55aa },
	{ "UD SEND_WITH_IMM 2 SGEs, solicited", UA, IB_UVERBS_WR_SEND_WITH_IMM, .nsge = 2,
	  .sg = { { SRC, 1, 1 }, { SRC, 4000, 500 } }, .sol = true, .imm = 0x1234 },
};

static struct step script[MAX_STEPS];
static int nscript;
static int ud_ahs = 1;			/* 2 when GID 1 is GID 0's address as RoCE v2 */
static int cross_step = -1;		/* the step placed across the ring's end */

static bool is_rdma(uint8_t op)
{
	return op == IB_UVERBS_WR_RDMA_WRITE || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM ||
	       op == IB_UVERBS_WR_RDMA_READ;
}

static bool is_atomic(uint8_t op)
{
	return op == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP || op == IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD;
}

static bool takes_recv(uint8_t op)
{
	return op == IB_UVERBS_WR_SEND || op == IB_UVERBS_WR_SEND_WITH_IMM ||
	       op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM;
}

/* The basic blocks a step's WQE takes (the hardware's rule, as both
 * writers apply it). */
static uint32_t step_nbb(const struct step *s)
{
	uint32_t ds = 1 + is_rdma(s->op) + 2 * is_atomic(s->op) + (s->qp == UA ? 3 : 0), len = 0;

	for (int i = 0; i < s->nsge; i++) {
		len += s->sg[i].len;
		if (!s->inl && s->sg[i].len)
			ds++;
	}
	if (s->inl && len)
		ds += (4 + len + 15) / 16;
	return (ds * 16 + 63) / 64;
}

static void add_step(const struct step *s)
{
	if (nscript == MAX_STEPS) {
		KT_CHECK(0, "the script is longer than %d steps", MAX_STEPS);
		return;
	}
	script[nscript] = *s;
	script[nscript].wr_id = 0x1000 + (uint64_t)nscript;
	nscript++;
}

/* The steps posted together from step k on: up to BATCH, of one QP. */
static int batch_len(int k)
{
	int n = 0;

	while (k + n < nscript && n < BATCH && script[k + n].qp == script[k].qp)
		n++;
	return n;
}

/*
 * The RC script on a send ring of ring blocks: the base list, then
 * one-block SENDs until the next WQE starts at the ring's last block, then a
 * two-block inline SEND there (it runs past the end), then the base list
 * again until the ring has wrapped twice; then the UD list, four times,
 * every other time through the AH of GID 1 (RoCE v2) where there is one.
 * The last WR of every batch is signalled (it retires the batch).
 */
static void make_script(uint32_t ring)
{
	static const struct step filler = { "SEND 1 SGE, unsignalled (filler)", QA,
					    IB_UVERBS_WR_SEND, S1(200, 16) };
	static const struct step cross = { "SEND inline 60 across the ring's end", QA,
					   IB_UVERBS_WR_SEND, S1(700, 60), .inl = true,
					   .sig = true };
	uint32_t pos = 0;
	size_t i;

	for (i = 0; i < sizeof(rc_base) / sizeof(rc_base[0]); i++) {
		add_step(&rc_base[i]);
		pos += step_nbb(&rc_base[i]);
	}
	while (pos % ring != ring - 1) {
		add_step(&filler);
		pos++;
	}
	cross_step = nscript;
	add_step(&cross);
	pos += step_nbb(&cross);
	while (pos < 2 * ring + 8) {
		for (i = 0; i < sizeof(rc_base) / sizeof(rc_base[0]); i++) {
			add_step(&rc_base[i]);
			pos += step_nbb(&rc_base[i]);
		}
	}
	for (int r = 0; r < 4; r++) {
		for (i = 0; i < sizeof(ud_base) / sizeof(ud_base[0]); i++) {
			add_step(&ud_base[i]);
			script[nscript - 1].ah = (uint8_t)(r & 1) % ud_ahs;
		}
	}
	for (int k = 0; k < nscript; k += batch_len(k))
		script[k + batch_len(k) - 1].sig = true;
}

/* ---- what each side keeps ------------------------------------------------------- */

struct wc1 {
	int qp;				/* whose CQ */
	uint64_t wr_id;
	uint32_t status, opcode, byte_len, imm, qp_num, src_qp, wc_flags;
};

struct wqe_rec {
	uint32_t idx, ring, ds, nbb;
	uint8_t b[1024];
};

struct cqe_rec {
	int qp;				/* the QP it names */
	bool req;
	uint32_t idx, ring;
	uint8_t b[64];
};

#define MAX_WQE 512
#define MAX_CQE 1024
#define MAX_WC 1024

struct side {
	const char *name;
	uint32_t qpn[NQP];
	uint8_t *buf[NMR];
	uint32_t lkey[NMR], rkey[NMR];
	uint8_t gid[16];
	uint32_t sq_ring;			/* RC A's send ring, in blocks, as created */
	struct wc1 wc[MAX_WC];
	int nwc;
	struct wqe_rec w[2][MAX_WQE];	/* RC A's, UD A's */
	int nw[2];
	struct cqe_rec c[MAX_CQE];
	int nc;
	uint64_t lost;
	int records;
	bool ran;
	/* the backend */
	int (*post)(struct side *s, const struct step *st, int n);
	int (*recv)(struct side *s, int qp, uint64_t wr_id, uint32_t off);
	int (*poll)(struct side *s, int qp, struct wc1 *wc, int n);
};

static struct side lib = { .name = "library" }, ibv = { .name = "libmlx5" };
static const char *dev_name = "mlx5_0";
static char dbgdir[256] = "/sys/kernel/debug/mlx5_standin";

static void fill_bufs(struct side *s)
{
	for (uint32_t i = 0; i < BUF_LEN; i++)
		s->buf[SRC][i] = (uint8_t)(i * 7 + (i >> 8) + 1);
	memset(s->buf[DST], 0, BUF_LEN);
	memset(s->buf[RX], 0, BUF_LEN);
}

/* ---- the library's side ------------------------------------------------------------ */

static struct {
	struct uvio_device *dev;
	struct uvio_context ctx;
	uint32_t pd;
	struct uvio_mr mr[NMR];
	struct uvio_dp_cq cq[NQP];
	struct uvio_dp_qp qp[NQP];
	struct uvio_dp_ah ah[2];
	int nah;
	int nqp, ncq, nmr;
} L;

static int lib_post(struct side *s, const struct step *st, int n)
{
	struct uvio_dp_send_wr wr[BATCH];
	struct uvio_dp_sge sges[BATCH][3];
	uint32_t bad = 0;
	int err;

	for (int i = 0; i < n; i++) {
		const struct step *t = &st[i];

		for (int k = 0; k < t->nsge; k++)
			sges[i][k] = (struct uvio_dp_sge){ .addr = (uintptr_t)(s->buf[t->sg[k].mr] +
									     t->sg[k].off),
							  .length = t->sg[k].len,
							  .lkey = s->lkey[t->sg[k].mr] };
		memset(&wr[i], 0, sizeof(wr[i]));
		wr[i].wr_id = t->wr_id;
		wr[i].opcode = t->op;
		wr[i].sg_list = t->nsge ? sges[i] : NULL;
		wr[i].num_sge = t->nsge;
		wr[i].flags = (t->sig ? UVIO_DP_SEND_SIGNALED : 0) |
			      (t->inl ? UVIO_DP_SEND_INLINE : 0) |
			      (t->fence ? UVIO_DP_SEND_FENCE : 0) |
			      (t->sol ? UVIO_DP_SEND_SOLICITED : 0);
		wr[i].imm_data = htonl(t->imm);
		if (is_atomic(t->op)) {
			wr[i].atomic.remote_addr = (uintptr_t)(s->buf[DST] + t->roff);
			wr[i].atomic.rkey = s->rkey[DST];
			wr[i].atomic.compare_add = t->cmp_add;
			wr[i].atomic.swap = t->swap;
		} else if (is_rdma(t->op)) {
			wr[i].rdma.remote_addr = (uintptr_t)(s->buf[DST] + t->roff);
			wr[i].rdma.rkey = s->rkey[DST];
		} else if (t->qp == UA) {
			wr[i].ud.ah = &L.ah[t->ah];
			wr[i].ud.remote_qpn = s->qpn[UB];
			wr[i].ud.remote_qkey = QKEY;
		}
	}
	err = uvio_dp_post_send(&L.qp[st[0].qp], wr, (uint32_t)n, &bad);
	if (err)
		printf("library: post_send of %d WRs: %d at WR %u: %s\n", n, err, bad,
		       uvio_last_error());
	return err;
}

static int lib_recv(struct side *s, int qp, uint64_t wr_id, uint32_t off)
{
	struct uvio_dp_sge g = { .addr = (uintptr_t)(s->buf[RX] + off), .length = RX_SLOT,
				 .lkey = s->lkey[RX] };
	struct uvio_dp_recv_wr r = { .wr_id = wr_id, .sg_list = &g, .num_sge = 1 };
	int err = uvio_dp_post_recv(&L.qp[qp], &r, 1, NULL);

	if (err)
		printf("library: post_recv: %d: %s\n", err, uvio_last_error());
	return err;
}

static int lib_poll(struct side *s, int qp, struct wc1 *out, int n)
{
	struct uvio_dp_wc wc[16];
	int got;

	(void)s;
	memset(wc, 0, sizeof(wc));
	got = uvio_dp_poll_cq(&L.cq[qp], wc, n < 16 ? n : 16);
	for (int i = 0; i < got; i++)
		out[i] = (struct wc1){ .qp = qp, .wr_id = wc[i].wr_id, .status = wc[i].status,
				       .opcode = wc[i].opcode, .byte_len = wc[i].byte_len,
				       .imm = ntohl(wc[i].imm_data), .qp_num = wc[i].qp_num,
				       .src_qp = wc[i].src_qp, .wc_flags = wc[i].wc_flags };
	return got;
}

/* To RTS as kt_mlx5_dp's QPs go (kt_dp_lib.c), through GID 0; ud: no peer. */
static int lib_modify(int qp, bool ud, uint32_t peer, const uint8_t *gid)
{
	int err = dp_modify_to_rts(L.dev, L.qp[qp].handle,
				   ud ? IB_UVERBS_QPT_UD : IB_UVERBS_QPT_RC, peer, gid, 0);

	if (err)
		printf("library: modify %s: %s\n", qp_name[qp], uvio_last_error());
	return err;
}

static int lib_open(struct side *s)
{
	struct uvio_gid_entry g;
	int err;

	s->post = lib_post;
	s->recv = lib_recv;
	s->poll = lib_poll;
	err = uvio_device_open(dev_name, &L.dev);
	if (err || !L.dev) {
		printf("library: open %s: %d: %s\n", dev_name, err, uvio_last_error());
		return -1;
	}
	L.ctx.sz = sizeof(L.ctx);
	if (uvio_get_context(L.dev, NULL, &L.ctx, NULL) || uvio_alloc_pd(L.dev, NULL, &L.pd, NULL) ||
	    uvio_query_gid_entry(L.dev, 1, 0, &g, NULL)) {
		printf("library: context, PD or GID: %s\n", uvio_last_error());
		return -1;
	}
	memcpy(s->gid, g.gid, 16);
	for (int m = 0; m < NMR; m++) {
		UVIO_OPTS(uvio_mr_attr, a, .pd_handle = L.pd, .addr = s->buf[m], .length = BUF_LEN,
			  .iova = (uintptr_t)s->buf[m], .access = DP_ACCESS_ALL);

		L.mr[m].sz = sizeof(L.mr[m]);
		if (uvio_reg_mr(L.dev, &a, NULL, &L.mr[m], NULL)) {
			printf("library: reg_mr %s: %s\n", mr_name[m], uvio_last_error());
			return -1;
		}
		L.nmr++;
		s->lkey[m] = L.mr[m].lkey;
		s->rkey[m] = L.mr[m].rkey;
	}
	for (int q = 0; q < NQP; q++) {
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 64, .user_handle = (uint64_t)q);

		if (uvio_dp_create_cq(L.dev, &ca, &L.cq[q])) {
			printf("library: create CQ: %s\n", uvio_last_error());
			return -1;
		}
		L.ncq++;
	}
	for (int q = 0; q < NQP; q++) {
		UVIO_OPTS(uvio_qp_init_attr, a, .type = q < UA ? IB_UVERBS_QPT_RC : IB_UVERBS_QPT_UD,
			  .user_handle = (uint64_t)q, .pd_handle = L.pd,
			  .send_cq_handle = L.cq[q].handle, .recv_cq_handle = L.cq[q].handle,
			  .cap = { .max_send_wr = SEND_WR, .max_recv_wr = RECV_WR, .max_send_sge = 3,
				   .max_recv_sge = 1, .max_inline_data = MAX_INLINE });

		if (uvio_dp_create_qp(L.dev, &a, NULL, &L.qp[q])) {
			printf("library: create %s: %s\n", qp_name[q], uvio_last_error());
			return -1;
		}
		L.nqp++;
		s->qpn[q] = L.qp[q].qp_num;
	}
	s->sq_ring = uvio_dp_queue_capacity(&L.qp[QA].sq);
	/* GID 1: GID 0's address as RoCE v2 (the core adds both types)? */
	if (!uvio_query_gid_entry(L.dev, 1, 1, &g, NULL) && g.gid_type == 2 &&
	    !memcmp(g.gid, s->gid, 16))
		ud_ahs = 2;
	else
		printf("library: GID 1 is not GID 0's address as RoCE v2: UD through GID 0 alone\n");
	for (int i = 0; i < ud_ahs; i++) {
		UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = L.pd,
			  .av = { .is_global = 1, .port_num = 1, .sgid_index = (uint8_t)i,
				  .hop_limit = 64 });

		memcpy(aa.av.dgid, s->gid, 16);
		if (uvio_dp_create_ah(L.dev, &aa, &L.ah[i])) {
			printf("library: create AH of GID %d: %s\n", i, uvio_last_error());
			return -1;
		}
		L.nah++;
	}
	if (lib_modify(QA, false, s->qpn[QB], s->gid) || lib_modify(QB, false, s->qpn[QA], s->gid) ||
	    lib_modify(UA, true, 0, NULL) || lib_modify(UB, true, 0, NULL))
		return -1;
	return 0;
}

static void lib_close(void)
{
	while (L.nah)
		KT_EQ(uvio_dp_destroy_ah(&L.ah[--L.nah]), 0);
	while (L.nqp)
		KT_EQ(uvio_dp_destroy_qp(&L.qp[--L.nqp], NULL), 0);
	while (L.ncq)
		KT_EQ(uvio_dp_destroy_cq(&L.cq[--L.ncq], NULL), 0);
	while (L.nmr) {
		L.nmr--;
		KT_EQ(uvio_dereg_mr(L.dev, L.mr[L.nmr].handle, NULL), 0);
	}
	if (L.dev) {
		KT_EQ(uvio_dealloc_pd(L.dev, L.pd, NULL), 0);
		close(L.ctx.async_fd);
		uvio_device_close(L.dev);
	}
}

/* ---- libibverbs on the stock libmlx5 ------------------------------------------------- */

static struct {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr[NMR];
	struct ibv_cq *cq[NQP];
	struct ibv_qp *qp[NQP];
	struct ibv_ah *ah[2];
} V;

static int ibv_side_post(struct side *s, const struct step *st, int n)
{
	struct ibv_send_wr wr[BATCH], *bad = NULL;
	struct ibv_sge sges[BATCH][3];
	int err;

	for (int i = 0; i < n; i++) {
		const struct step *t = &st[i];

		for (int k = 0; k < t->nsge; k++)
			sges[i][k] = (struct ibv_sge){ .addr = (uintptr_t)(s->buf[t->sg[k].mr] +
									  t->sg[k].off),
						      .length = t->sg[k].len,
						      .lkey = s->lkey[t->sg[k].mr] };
		memset(&wr[i], 0, sizeof(wr[i]));
		wr[i].wr_id = t->wr_id;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
		wr[i].opcode = (enum ibv_wr_opcode)t->op;
		wr[i].sg_list = t->nsge ? sges[i] : NULL;
		wr[i].num_sge = t->nsge;
		wr[i].send_flags = (t->sig ? IBV_SEND_SIGNALED : 0) | (t->inl ? IBV_SEND_INLINE : 0) |
				   (t->fence ? IBV_SEND_FENCE : 0) |
				   (t->sol ? IBV_SEND_SOLICITED : 0);
		wr[i].imm_data = htonl(t->imm);
		if (is_atomic(t->op)) {
			wr[i].wr.atomic.remote_addr = (uintptr_t)(s->buf[DST] + t->roff);
			wr[i].wr.atomic.rkey = s->rkey[DST];
			wr[i].wr.atomic.compare_add = t->cmp_add;
			wr[i].wr.atomic.swap = t->swap;
		} else if (is_rdma(t->op)) {
			wr[i].wr.rdma.remote_addr = (uintptr_t)(s->buf[DST] + t->roff);
			wr[i].wr.rdma.rkey = s->rkey[DST];
		} else if (t->qp == UA) {
			wr[i].wr.ud.ah = V.ah[t->ah];
			wr[i].wr.ud.remote_qpn = s->qpn[UB];
			wr[i].wr.ud.remote_qkey = QKEY;
		}
	}
	err = ibv_post_send(V.qp[st[0].qp], wr, &bad);
	if (err)
		printf("libmlx5: ibv_post_send of %d WRs: %s at WR %td\n", n, strerror(err),
		       bad ? bad - wr : -1);
	return err;
}

static int ibv_side_recv(struct side *s, int qp, uint64_t wr_id, uint32_t off)
{
	struct ibv_sge g = { .addr = (uintptr_t)(s->buf[RX] + off), .length = RX_SLOT,
			     .lkey = s->lkey[RX] };
	struct ibv_recv_wr r = { .wr_id = wr_id, .sg_list = &g, .num_sge = 1 }, *bad;
	int err = ibv_post_recv(V.qp[qp], &r, &bad);

	if (err)
		printf("libmlx5: ibv_post_recv: %s\n", strerror(err));
	return err;
}

static int ibv_side_poll(struct side *s, int qp, struct wc1 *out, int n)
{
	struct ibv_wc wc[16];
	int got;

	(void)s;
	memset(wc, 0, sizeof(wc));
	got = ibv_poll_cq(V.cq[qp], n < 16 ? n : 16, wc);
	for (int i = 0; i < got; i++)
		out[i] = (struct wc1){ .qp = qp, .wr_id = wc[i].wr_id, .status = wc[i].status,
				       .opcode = wc[i].opcode, .byte_len = wc[i].byte_len,
				       .imm = ntohl(wc[i].imm_data), .qp_num = wc[i].qp_num,
				       .src_qp = wc[i].src_qp, .wc_flags = wc[i].wc_flags };
	return got;
}

static int vside_modify(int qp, bool ud, uint32_t peer, const uint8_t *gid)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT, err;

	if (ud) {
		a.qkey = QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
				    IBV_ACCESS_REMOTE_ATOMIC;
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	err = ibv_modify_qp(V.qp[qp], &a, mask);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	mask = IBV_QP_STATE;
	if (!ud) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = peer;
		a.rq_psn = 0x100;
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.sgid_index = 0;
		a.ah_attr.grh.hop_limit = 64;
		memcpy(a.ah_attr.grh.dgid.raw, gid, 16);
		a.ah_attr.port_num = 1;
		a.max_dest_rd_atomic = 4;
		a.min_rnr_timer = 1;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	if (!err)
		err = ibv_modify_qp(V.qp[qp], &a, mask);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x100;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (!ud) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 4;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			IBV_QP_MAX_QP_RD_ATOMIC;
	}
	if (!err)
		err = ibv_modify_qp(V.qp[qp], &a, mask);
	if (err)
		printf("libmlx5: modify %s: %s\n", qp_name[qp], strerror(err));
	return err;
}

static int vside_open(struct side *s)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	union ibv_gid gid;

	s->post = ibv_side_post;
	s->recv = ibv_side_recv;
	s->poll = ibv_side_poll;
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev_name))
			V.ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!V.ctx) {
		printf("libmlx5: no device %s opened\n", dev_name);
		return -1;
	}
	V.pd = ibv_alloc_pd(V.ctx);
	if (!V.pd || ibv_query_gid(V.ctx, 1, 0, &gid)) {
		printf("libmlx5: PD or GID: %s\n", strerror(errno));
		return -1;
	}
	memcpy(s->gid, gid.raw, 16);
	for (int m = 0; m < NMR; m++) {
		V.mr[m] = ibv_reg_mr(V.pd, s->buf[m], BUF_LEN,
				     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				     IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
		if (!V.mr[m]) {
			printf("libmlx5: reg_mr %s: %s\n", mr_name[m], strerror(errno));
			return -1;
		}
		s->lkey[m] = V.mr[m]->lkey;
		s->rkey[m] = V.mr[m]->rkey;
	}
	for (int q = 0; q < NQP; q++) {
		V.cq[q] = ibv_create_cq(V.ctx, 64, NULL, NULL, 0);
		if (!V.cq[q]) {
			printf("libmlx5: create CQ: %s\n", strerror(errno));
			return -1;
		}
	}
	for (int q = 0; q < NQP; q++) {
		struct ibv_qp_init_attr a = {
			.send_cq = V.cq[q], .recv_cq = V.cq[q],
			.qp_type = q < UA ? IBV_QPT_RC : IBV_QPT_UD,
			.cap = { .max_send_wr = SEND_WR, .max_recv_wr = RECV_WR, .max_send_sge = 3,
				 .max_recv_sge = 1, .max_inline_data = MAX_INLINE } };

		V.qp[q] = ibv_create_qp(V.pd, &a);
		if (!V.qp[q]) {
			printf("libmlx5: create %s: %s\n", qp_name[q], strerror(errno));
			return -1;
		}
		s->qpn[q] = V.qp[q]->qp_num;
	}
	for (int i = 0; i < ud_ahs; i++) {
		struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1,
					  .grh = { .sgid_index = (uint8_t)i, .hop_limit = 64 } };

		memcpy(aa.grh.dgid.raw, s->gid, 16);
		V.ah[i] = ibv_create_ah(V.pd, &aa);
		if (!V.ah[i]) {
			printf("libmlx5: create AH of GID %d: %s\n", i, strerror(errno));
			return -1;
		}
	}
	if (vside_modify(QA, false, s->qpn[QB], s->gid) || vside_modify(QB, false, s->qpn[QA], s->gid) ||
	    vside_modify(UA, true, 0, NULL) || vside_modify(UB, true, 0, NULL))
		return -1;
	return 0;
}

static void vside_close(void)
{
	for (int i = 0; i < 2; i++)
		if (V.ah[i])
			KT_EQ(ibv_destroy_ah(V.ah[i]), 0);
	for (int q = NQP - 1; q >= 0; q--)
		if (V.qp[q])
			KT_EQ(ibv_destroy_qp(V.qp[q]), 0);
	for (int q = NQP - 1; q >= 0; q--)
		if (V.cq[q])
			KT_EQ(ibv_destroy_cq(V.cq[q]), 0);
	for (int m = 0; m < NMR; m++)
		if (V.mr[m])
			KT_EQ(ibv_dereg_mr(V.mr[m]), 0);
	if (V.pd)
		KT_EQ(ibv_dealloc_pd(V.pd), 0);
	if (V.ctx)
		KT_EQ(ibv_close_device(V.ctx), 0);
}

/* ---- the record ------------------------------------------------------------------------ */

static int dbg_write(const char *file, const char *text)
{
	char p[320];
	FILE *f;
	int err = 0;

	snprintf(p, sizeof(p), "%s/%s", dbgdir, file);
	f = fopen(p, "w");
	if (!f || fputs(text, f) < 0)
		err = -1;
	if (f && fclose(f))
		err = -1;
	if (err)
		printf("record: cannot write '%s' to %s: %s\n", text, p, strerror(errno));
	return err;
}

/* The whole record file, NUL-terminated (malloc'd), or NULL. */
static char *dbg_read(void)
{
	char p[320];
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	FILE *f;

	snprintf(p, sizeof(p), "%s/record", dbgdir);
	f = fopen(p, "r");
	if (!f || !buf) {
		printf("record: cannot read %s: %s\n", p, strerror(errno));
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	buf[len] = 0;
	return buf;
}

/* The header: its counts; -1 when it is not the record's. */
static int rec_header(const char *text, int *enabled, int *records, unsigned long long *lost)
{
	unsigned int used, cap;

	if (sscanf(text, "# mlx5_standin record v1: enabled %d records %d lost %llu bytes %u of %u",
		   enabled, records, lost, &used, &cap) != 5) {
		printf("record: the first line is not the record's header: %.80s\n", text);
		return -1;
	}
	return 0;
}

static int unhex(const char *h, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned int v;

		if (sscanf(h + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

static int qp_role(const struct side *s, uint32_t qpn)
{
	for (int q = 0; q < NQP; q++)
		if (s->qpn[q] == qpn)
			return q;
	return -1;
}

/* This side's WQEs and CQEs out of the record (the device's only). */
static void take_record(struct side *s)
{
	char *text = dbg_read(), *line, *save = NULL;
	int enabled = 0, records = 0, n = 0, scattered = 0;
	unsigned long long lost = 0;

	if (!text) {
		KT_CHECK(0, "%s: no record", s->name);
		return;
	}
	if (rec_header(text, &enabled, &records, &lost)) {
		KT_CHECK(0, "%s: the record's header", s->name);
		free(text);
		return;
	}
	s->lost = lost;
	s->records = records;
	KT_CHECK(enabled == 1 && lost == 0, "%s: record enabled %d, %llu records lost", s->name,
		 enabled, lost);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[64];
		unsigned long long seq;
		unsigned int num, idx, ring, a, b;
		int off = 0;

		if (line[0] == '#')
			continue;
		n++;
		if (line[0] == 'W' &&
		    sscanf(line, "W %llu %63s %u %u %u %u %u %n", &seq, dev, &num, &idx, &ring, &a, &b,
			   &off) == 7 && off) {
			int which = num == s->qpn[QA] ? 0 : num == s->qpn[UA] ? 1 : -1;
			struct wqe_rec *w;

			if (strcmp(dev, dev_name) || which < 0)
				continue;
			KT_CHECK(strlen(line + off) == (size_t)b * 128 && b <= 16,
				 "%s: record %llu: %zu hex digits for %u blocks", s->name, seq,
				 strlen(line + off), b);
			if (strlen(line + off) != (size_t)b * 128 || b > 16 || s->nw[which] == MAX_WQE)
				continue;
			w = &s->w[which][s->nw[which]++];
			w->idx = idx;
			w->ring = ring;
			w->ds = a;
			w->nbb = b;
			if (unhex(line + off, w->b, (size_t)b * 64))
				KT_CHECK(0, "%s: record %llu: bad hex", s->name, seq);
		} else if (line[0] == 'C' &&
			   sscanf(line, "C %llu %63s %u %u %u %u %n", &seq, dev, &num, &idx, &ring, &a,
				  &off) == 6 && off) {
			struct cqe_rec *c;
			uint8_t b64[64];
			int q;

			if (strcmp(dev, dev_name))
				continue;
			if (strlen(line + off) != 128 || unhex(line + off, b64, 64)) {
				KT_CHECK(0, "%s: record %llu: a CQE of %zu hex digits", s->name, seq,
					 strlen(line + off));
				continue;
			}
			q = qp_role(s, (uint32_t)b64[57] << 16 | (uint32_t)b64[58] << 8 | b64[59]);
			if (q < 0 || s->nc == MAX_CQE)
				continue;
			c = &s->c[s->nc++];
			c->qp = q;
			c->req = (b64[63] >> 4) == 0 || (b64[63] >> 4) == 13;
			c->idx = idx;
			c->ring = ring;
			memcpy(c->b, b64, 64);
		} else {
			KT_CHECK(0, "%s: a record line not understood: %.60s", s->name, line);
		}
	}
	KT_CHECK(n == records, "%s: %d record lines, the header says %d", s->name, n, records);
	for (int i = 0; i < s->nc; i++)
		scattered += !!(s->c[i].b[63] & 0x0c);
	printf("%s: record: %d records (%d RC A WQEs, %d UD A WQEs, %d CQEs of its QPs, %d with "
	       "data scattered to the CQE), %llu lost\n", s->name, records, s->nw[0], s->nw[1],
	       s->nc, scattered, lost);
	free(text);
}

/* ---- running the script on one side ---------------------------------------------------- */

static int run_side(struct side *s)
{
	uint64_t rx_id = 0x9000;
	uint32_t rx_n[NQP] = { 0 };

	fill_bufs(s);
	for (int k = 0; k < nscript;) {
		int n = batch_len(k), want[NQP] = { 0 }, got[NQP] = { 0 };
		uint64_t end;

		for (int i = 0; i < n; i++) {
			const struct step *t = &script[k + i];
			int peer = t->qp == QA ? QB : UB;

			if (t->sig)
				want[t->qp]++;
			if (takes_recv(t->op)) {
				uint32_t slot = rx_n[peer]++ % 16;
				uint32_t off = (peer == UB ? UD_RX_BASE : 0) + slot * RX_SLOT;

				if (s->recv(s, peer, rx_id++, off))
					return -1;
				want[peer]++;
			}
		}
		if (s->post(s, &script[k], n))
			return -1;
		end = dp_now_ms() + 20000;
		for (int q = 0; q < NQP; q++) {
			while (got[q] < want[q] && dp_now_ms() < end) {
				int r;

				if (s->nwc == MAX_WC)
					return -1;
				r = s->poll(s, q, &s->wc[s->nwc], want[q] - got[q]);
				if (r < 0) {
					printf("%s: poll %s: %d\n", s->name, qp_name[q], r);
					return -1;
				}
				for (int i = 0; i < r; i++)
					KT_CHECK(s->wc[s->nwc + i].status == 0,
						 "%s: %s: wr_id %#llx status %u", s->name, qp_name[q],
						 (unsigned long long)s->wc[s->nwc + i].wr_id,
						 s->wc[s->nwc + i].status);
				s->nwc += r;
				got[q] += r;
				if (!r)
					usleep(100);
			}
			if (got[q] < want[q]) {
				printf("%s: steps %d-%d: %d of %d completions on %s's CQ in 20 s\n",
				       s->name, k, k + n - 1, got[q], want[q], qp_name[q]);
				return -1;
			}
		}
		k += n;
	}
	/* nothing more came */
	for (int q = 0; q < NQP; q++) {
		struct wc1 extra[4];

		KT_EQ(s->poll(s, q, extra, 4), 0);
	}
	s->ran = true;
	return 0;
}

/* ---- comparison ------------------------------------------------------------------------ */

struct field {
	char name[40];
	char val[200];
};

#define MAX_FIELDS 64

struct fields {
	struct field f[MAX_FIELDS];
	int n;
};

static void put(struct fields *fs, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(struct fields *fs, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (fs->n == MAX_FIELDS)
		return;
	snprintf(fs->f[fs->n].name, sizeof(fs->f[0].name), "%s", name);
	va_start(ap, fmt);
	vsnprintf(fs->f[fs->n].val, sizeof(fs->f[0].val), fmt, ap);
	va_end(ap);
	fs->n++;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static void hexs(char *out, size_t size, const uint8_t *p, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	for (size_t i = 0; i < n && o + 3 < size; i++)
		o += (size_t)snprintf(out + o, size - o, "%02x", p[i]);
}

/* A key and an address by role: "SRC+0x40", as an lkey (or rkey) names it. */
static void by_role(char *out, size_t size, const struct side *s, uint32_t key, uint64_t addr,
		    bool remote)
{
	for (int m = 0; m < NMR; m++) {
		if ((remote ? s->rkey[m] : s->lkey[m]) != key)
			continue;
		if (addr >= (uintptr_t)s->buf[m] && addr - (uintptr_t)s->buf[m] < BUF_LEN)
			snprintf(out, size, "%s+%#llx", mr_name[m],
				 (unsigned long long)(addr - (uintptr_t)s->buf[m]));
		else
			snprintf(out, size, "%s key, address %#llx outside it", mr_name[m],
				 (unsigned long long)addr);
		return;
	}
	snprintf(out, size, "key %#x of no MR here, address %#llx", key, (unsigned long long)addr);
}

static void qpn_role(char *out, size_t size, const struct side *s, uint32_t qpn)
{
	int q = qp_role(s, qpn & 0xffffff);

	if (q >= 0)
		snprintf(out, size, "%s%s", qp_name[q], qpn >> 24 ? " | top byte set" : "");
	else
		snprintf(out, size, "QPN %#x of no QP here", qpn);
}

/* The WQE's fields by role, in the order the hardware reads them. */
static void decode_wqe(const struct side *s, bool ud, const struct wqe_rec *w, struct fields *fs)
{
	const uint8_t *b = w->b;
	uint32_t end = w->ds * 16, off = 16, v = be32(b);
	uint8_t op = b[3];
	char t[200];
	int nd = 0;

	fs->n = 0;
	put(fs, "record.ring", "%u", w->ring);
	put(fs, "record.nbb", "%u", w->nbb);
	put(fs, "record.wraps", "%s",
	    (w->idx & (w->ring - 1)) + w->nbb > w->ring ? "yes" : "no");
	put(fs, "ctrl.opmod", "%#x", v >> 24);
	put(fs, "ctrl.idx", "%u%s", (v >> 8) & 0xffff,
	    ((v >> 8) & 0xffff) == (w->idx & 0xffff) ? "" : " (not the engine's counter)");
	put(fs, "ctrl.opcode", "0x%02x", op);
	qpn_role(t, sizeof(t), s, be32(b + 4) >> 8);
	put(fs, "ctrl.qpn", "%s", t);
	put(fs, "ctrl.ds", "%u", b[7] & 0x3f);
	put(fs, "ctrl.ds_top_bits", "%#x", b[7] & 0xc0);
	put(fs, "ctrl.signature", "0x%02x", b[8]);
	put(fs, "ctrl.reserved_9_10", "%02x%02x", b[9], b[10]);
	put(fs, "ctrl.fm_ce_se", "0x%02x", b[11]);
	put(fs, "ctrl.imm", "0x%08x", be32(b + 12));
	if (end > w->nbb * 64u)
		end = w->nbb * 64u;
	if (ud && off + 48 <= end) {
		put(fs, "av.qkey", "0x%08x", be32(b + off));
		put(fs, "av.reserved_4", "0x%08x", be32(b + off + 4));
		qpn_role(t, sizeof(t), s, be32(b + off + 8));
		put(fs, "av.dqpn", "%s, extended AV bit %u", t, b[off + 8] >> 7);
		put(fs, "av.stat_rate_sl", "0x%02x", b[off + 12]);
		put(fs, "av.fl_mlid", "0x%02x", b[off + 13]);
		put(fs, "av.rlid", "0x%04x", (unsigned)b[off + 14] << 8 | b[off + 15]);
		put(fs, "av.reserved_16", "0x%08x", be32(b + off + 16));
		hexs(t, sizeof(t), b + off + 20, 6);
		put(fs, "av.rmac", "%s", t);
		put(fs, "av.tclass", "0x%02x", b[off + 26]);
		put(fs, "av.hop_limit", "%u", b[off + 27]);
		put(fs, "av.grh_gid_fl", "0x%08x", be32(b + off + 28));
		if (!memcmp(b + off + 32, s->gid, 16))
			snprintf(t, sizeof(t), "the port's GID 0");
		else
			hexs(t, sizeof(t), b + off + 32, 16);
		put(fs, "av.rgid", "%s", t);
		off += 48;
	}
	if ((op == 0x08 || op == 0x09 || op == 0x10 || op == 0x11 || op == 0x12) && off + 16 <= end) {
		by_role(t, sizeof(t), s, be32(b + off + 8), be64(b + off), true);
		put(fs, "raddr.addr_rkey", "%s", t);
		put(fs, "raddr.reserved", "0x%08x", be32(b + off + 12));
		off += 16;
	}
	if ((op == 0x11 || op == 0x12) && off + 16 <= end) {
		put(fs, "atomic.swap_add", "%#llx", (unsigned long long)be64(b + off));
		put(fs, "atomic.compare", "%#llx", (unsigned long long)be64(b + off + 8));
		off += 16;
	}
	while (off + 4 <= end) {
		uint32_t bc = be32(b + off);
		char name[40];

		if (bc & 0x80000000u) {
			uint32_t len = bc & 0x7fffffff, pad_end = (off + 4 + len + 15) & ~15u;
			bool zero = true;

			put(fs, "inline.byte_count", "%u | 0x80000000", len);
			if (off + 4 + len > end) {
				put(fs, "inline.bytes", "past ds");
				break;
			}
			/* the bytes: the same source pattern on both sides */
			hexs(t, sizeof(t), b + off + 4, len);
			put(fs, "inline.bytes", "%s", t);
			for (uint32_t i = off + 4 + len; i < pad_end && i < end; i++)
				zero &= !b[i];
			hexs(t, sizeof(t), b + off + 4 + len, pad_end - (off + 4 + len));
			put(fs, "inline.pad", "%s%s", zero ? "zero " : "", t);
			off = pad_end;
		} else {
			if (off + 16 > end) {
				put(fs, "data.tail", "a data segment past ds");
				break;
			}
			snprintf(name, sizeof(name), "data[%d].byte_count", nd);
			put(fs, name, "%u", bc);
			by_role(t, sizeof(t), s, be32(b + off + 4), be64(b + off + 8), false);
			snprintf(name, sizeof(name), "data[%d].lkey_addr", nd);
			put(fs, name, "%s", t);
			nd++;
			off += 16;
		}
	}
}

static void decode_cqe(const struct side *s, const struct cqe_rec *c, struct fields *fs)
{
	const uint8_t *b = c->b;
	uint8_t op = b[63] >> 4;
	char t[200];

	fs->n = 0;
	put(fs, "cq.entries", "%u", c->ring);
	put(fs, "cqe.position", "%u", c->idx);
	put(fs, "cqe.opcode", "%u", op);
	put(fs, "cqe.se_owner", "se %u owner %u", (b[63] >> 1) & 1, b[63] & 1);
	put(fs, "cqe.owner_of_lap", "%s", (b[63] & 1) == !!(c->idx & c->ring) ? "yes" : "no");
	qpn_role(t, sizeof(t), s, be32(b + 56) & 0xffffff);
	put(fs, "cqe.qpn", "%s", t);
	put(fs, "cqe.wqe_opcode", "0x%02x", b[56]);
	put(fs, "cqe.wqe_counter", "%u", (unsigned)b[60] << 8 | b[61]);
	put(fs, "cqe.srqn_uidx", "%#x", be32(b + 32));
	if (op == 13 || op == 14) {
		put(fs, "cqe.syndrome", "0x%02x vendor 0x%02x", b[55], b[54]);
		return;
	}
	put(fs, "cqe.byte_cnt", "%u", be32(b + 44));
	put(fs, "cqe.imm", "0x%08x", be32(b + 36));
	/* scatter to CQE: 1, the data in the CQE's first 32 bytes (over
	 * flags_rqpn); 2, in the 64 bytes before it (not recorded) */
	put(fs, "cqe.inline_scatter", "%u", (b[63] >> 2) & 3);
	if (b[63] & 0x04) {
		uint32_t n = be32(b + 44) < 32 ? be32(b + 44) : 32;

		for (uint32_t i = 0; i < n; i++)
			snprintf(t + 2 * i, sizeof(t) - 2 * i, "%02x", b[i]);
		t[2 * n] = 0;
		put(fs, "cqe.inline_data", "%s", t);
	} else if (!c->req) {
		qpn_role(t, sizeof(t), s, be32(b + 24) & 0xffffff);
		put(fs, "cqe.src_qp", "%s, flags 0x%02x", t, b[24]);
	}
}

static void decode_wc(const struct side *s, const struct wc1 *w, struct fields *fs)
{
	char t[200];

	fs->n = 0;
	put(fs, "wc.cq", "%s's", qp_name[w->qp]);
	put(fs, "wc.wr_id", "%#llx", (unsigned long long)w->wr_id);
	put(fs, "wc.status", "%u", w->status);
	put(fs, "wc.opcode", "%u", w->opcode);
	/* libmlx5 sets byte_len for receives, READ and atomics only (the
	 * others keep what the caller's array held): compared there alone */
	if (w->opcode >= IBV_WC_RECV || w->opcode == IBV_WC_RDMA_READ ||
	    w->opcode == IBV_WC_COMP_SWAP || w->opcode == IBV_WC_FETCH_ADD)
		put(fs, "wc.byte_len", "%u", w->byte_len);
	put(fs, "wc.wc_flags", "%#x", w->wc_flags);
	/* the immediate is valid on receives that carry one */
	if ((w->wc_flags & IBV_WC_WITH_IMM) && w->opcode >= IBV_WC_RECV)
		put(fs, "wc.imm", "0x%08x", w->imm);
	qpn_role(t, sizeof(t), s, w->qp_num);
	put(fs, "wc.qp_num", "%s", t);
	if (w->opcode >= IBV_WC_RECV) {
		qpn_role(t, sizeof(t), s, w->src_qp);
		put(fs, "wc.src_qp", "%s", t);
	}
}

/*
 * The differences libmlx5 legitimately has, and why the library keeps its
 * own: NULL when the difference is not one of them.
 */
static const char *known(const char *field, uint8_t opcode, const char *vlib, const char *vibv)
{
	if (!strcmp(field, "atomic.compare") && opcode == 0x12 && !strcmp(vlib, "0"))
		return "FETCH_AND_ADD has no compare operand: libmlx5 writes only swap_add and "
		       "leaves what the ring held there, the library writes 0; the device reads "
		       "swap_add alone for this opcode";
	if (!strcmp(field, "inline.pad") && !strncmp(vlib, "zero", 4))
		return "the bytes after inline data up to the 16-byte unit: libmlx5 leaves what "
		       "the ring held, the library writes zeros; the device takes byte_count "
		       "bytes and ignores the rest";
	if (!strcmp(field, "av.rlid") && strtoul(vlib, NULL, 0) >= 0xc000 &&
	    strtoul(vibv, NULL, 0) >= 0xc000)
		return "RoCE v2's UDP source port (entropy for ECMP): libmlx5 draws a random one "
		       "per AH, the library derives one from the AH; both in 0xc000-0xffff";
	if (!strcmp(field, "cqe.srqn_uidx"))
		return "the QP's user index (CQE version 1): each provider's own number for the "
		       "QP, given at create, which the device only echoes";
	return NULL;
}

static int n_same, n_known, n_diff;

/* Both sides' fields of one item; differences printed by field. */
static void compare_fields(const char *what, uint8_t opcode, const struct fields *a,
			   const struct fields *b)
{
	int i;

	if (a->n != b->n) {
		n_diff++;
		KT_CHECK(0, "%s: %d fields (library) against %d (libmlx5)", what, a->n, b->n);
	}
	for (i = 0; i < a->n && i < b->n; i++) {
		const char *why;

		if (strcmp(a->f[i].name, b->f[i].name)) {
			n_diff++;
			KT_CHECK(0, "%s: field %d is %s (library) and %s (libmlx5)", what, i,
				 a->f[i].name, b->f[i].name);
			break;
		}
		if (!strcmp(a->f[i].val, b->f[i].val)) {
			n_same++;
			continue;
		}
		why = known(a->f[i].name, opcode, a->f[i].val, b->f[i].val);
		if (why) {
			n_known++;
			printf("  known: %s: %s: library %s, libmlx5 %s\n", what, a->f[i].name,
			       a->f[i].val, b->f[i].val);
			continue;
		}
		n_diff++;
		KT_CHECK(0, "%s: %s: library %s, libmlx5 %s", what, a->f[i].name, a->f[i].val,
			 b->f[i].val);
	}
	if (a->n != b->n || i < a->n)
		for (int k = 0; k < a->n || k < b->n; k++)
			printf("    %-22s %-40s %s\n", k < a->n ? a->f[k].name : "-",
			       k < a->n ? a->f[k].val : "-", k < b->n ? b->f[k].val : "-");
}

static void compare(void)
{
	static struct fields fa, fb;
	char what[160];
	int n;

	/* WQEs: RC A's in script order, then UD A's */
	for (int which = 0; which < 2; which++) {
		KT_CHECK(lib.nw[which] == ibv.nw[which], "%s WQEs: library %d, libmlx5 %d",
			 which ? "UD A" : "RC A", lib.nw[which], ibv.nw[which]);
		n = lib.nw[which] < ibv.nw[which] ? lib.nw[which] : ibv.nw[which];
		for (int i = 0, k = -1; i < n; i++) {
			/* the script step this is: the i-th of that QP */
			int seen = -1;

			for (k = 0; k < nscript; k++)
				if (script[k].qp == (which ? UA : QA) && ++seen == i)
					break;
			snprintf(what, sizeof(what), "%s WQE %d (step %d: %s)", which ? "UD A" : "RC A",
				 i, k, k < nscript ? script[k].what : "not in the script");
			decode_wqe(&lib, which, &lib.w[which][i], &fa);
			decode_wqe(&ibv, which, &ibv.w[which][i], &fb);
			compare_fields(what, lib.w[which][i].b[3], &fa, &fb);
		}
	}
	/* CQEs, per QP and kind, in the order each CQ got them */
	for (int q = 0; q < NQP; q++) {
		for (int req = 0; req < 2; req++) {
			int ia = 0, ib = 0, k = 0;

			for (;;) {
				while (ia < lib.nc && (lib.c[ia].qp != q || lib.c[ia].req != req))
					ia++;
				while (ib < ibv.nc && (ibv.c[ib].qp != q || ibv.c[ib].req != req))
					ib++;
				if (ia == lib.nc || ib == ibv.nc)
					break;
				snprintf(what, sizeof(what), "%s %s CQE %d", qp_name[q],
					 req ? "requester" : "responder", k++);
				decode_cqe(&lib, &lib.c[ia], &fa);
				decode_cqe(&ibv, &ibv.c[ib], &fb);
				compare_fields(what, 0, &fa, &fb);
				ia++;
				ib++;
			}
			KT_CHECK(ia == lib.nc && ib == ibv.nc,
				 "%s %s CQEs: one side has more", qp_name[q],
				 req ? "requester" : "responder");
		}
	}
	/* work completions, per CQ, in order */
	KT_CHECK(lib.nwc == ibv.nwc, "work completions: library %d, libmlx5 %d", lib.nwc, ibv.nwc);
	for (int q = 0; q < NQP; q++) {
		int ia = 0, ib = 0, k = 0;

		for (;;) {
			while (ia < lib.nwc && lib.wc[ia].qp != q)
				ia++;
			while (ib < ibv.nwc && ibv.wc[ib].qp != q)
				ib++;
			if (ia == lib.nwc || ib == ibv.nwc)
				break;
			snprintf(what, sizeof(what), "%s's CQ completion %d", qp_name[q], k++);
			decode_wc(&lib, &lib.wc[ia], &fa);
			decode_wc(&ibv, &ibv.wc[ib], &fb);
			compare_fields(what, 0, &fa, &fb);
			ia++;
			ib++;
		}
	}
	/* the same effect in memory */
	KT_EQ(memcmp(lib.buf[DST], ibv.buf[DST], BUF_LEN), 0);
	KT_EQ(memcmp(lib.buf[RX], ibv.buf[RX], BUF_LEN), 0);
	KT_EQ(memcmp(lib.buf[SRC], ibv.buf[SRC], BUF_LEN), 0);
	printf("compared: %d fields equal, %d known differences, %d differences\n", n_same, n_known,
	       n_diff);
}

/* ---- the record checked at the byte level ----------------------------------------------- */

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void byte_checks(const struct side *s)
{
	uint8_t want[32] = { 0 };
	const struct wqe_rec *w = &s->w[0][0];
	int crossed = 0;

	if (!s->nw[0] || !s->nc) {
		KT_CHECK(0, "%s: no WQE or CQE recorded", s->name);
		return;
	}
	/* step 0: SEND of SRC+0, 100 bytes, signalled, at index 0 */
	put_be32(want, 0x0a);
	put_be32(want + 4, s->qpn[QA] << 8 | 2);
	want[11] = 0x08;
	put_be32(want + 16, 100);
	put_be32(want + 20, s->lkey[SRC]);
	put_be32(want + 24, (uint32_t)((uintptr_t)s->buf[SRC] >> 32));
	put_be32(want + 28, (uint32_t)(uintptr_t)s->buf[SRC]);
	KT_CHECK(w->idx == 0 && w->ds == 2 && w->nbb == 1 && !memcmp(w->b, want, 32),
		 "%s: the first WQE's record (idx %u ds %u nbb %u) is not the SEND built here",
		 s->name, w->idx, w->ds, w->nbb);
	/* the WQE across the ring's end: both blocks, in ring order */
	for (int i = 0; i < s->nw[0]; i++) {
		const struct wqe_rec *x = &s->w[0][i];

		if ((x->idx & (x->ring - 1)) + x->nbb <= x->ring)
			continue;
		crossed++;
		if (crossed == 1) {
			uint8_t inl[4];

			put_be32(inl, 60 | 0x80000000u);
			KT_CHECK(x->nbb == 2 && x->ds == 5 && !memcmp(x->b + 16, inl, 4) &&
				 !memcmp(x->b + 20, s->buf[SRC] + 700, 60),
				 "%s: the WQE at block %u of %u (ds %u) is not the inline SEND of "
				 "SRC+700 read whole", s->name, x->idx & (x->ring - 1), x->ring, x->ds);
		}
	}
	KT_CHECK(crossed >= 1, "%s: no WQE ran past the send ring's end", s->name);
	/* its first CQE: REQ for the SEND, WQE 0, owner 0 */
	for (int i = 0; i < s->nc; i++) {
		const struct cqe_rec *c = &s->c[i];
		uint8_t sop[4];

		if (c->qp != QA || !c->req)
			continue;
		put_be32(sop, 0x0au << 24 | s->qpn[QA]);
		KT_CHECK(c->idx == 0 && c->b[63] == 0x00 && !memcmp(c->b + 56, sop, 4) &&
			 c->b[60] == 0 && c->b[61] == 0,
			 "%s: RC A's first CQE (position %u, op_own %#x) is not REQ of WQE 0",
			 s->name, c->idx, c->b[63]);
		break;
	}
	printf("%s: the first WQE and CQE recorded byte for byte as built here; %d WQE(s) across "
	       "the ring's end read whole\n", s->name, crossed);
}

/* ---- main -------------------------------------------------------------------------------- */

static int side_buffers(struct side *s)
{
	for (int m = 0; m < NMR; m++) {
		s->buf[m] = mmap(NULL, BUF_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				 -1, 0);
		if (s->buf[m] == MAP_FAILED) {
			s->buf[m] = NULL;
			return -1;
		}
	}
	return 0;
}

static int record_empty(const char *when)
{
	char *text = dbg_read();
	int enabled = -1, records = -1, err = -1;
	unsigned long long lost = 0;

	if (text && !rec_header(text, &enabled, &records, &lost)) {
		KT_CHECK(records == 0 && lost == 0, "%s: the record holds %d records, %llu lost",
			 when, records, lost);
		err = records == 0 ? 0 : -1;
	}
	free(text);
	return err;
}

int main(int argc, char **argv)
{
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1)
		dev_name = argv[1];
	if (argc > 2)
		snprintf(dbgdir, sizeof(dbgdir), "%s", argv[2]);
	if (side_buffers(&lib) || side_buffers(&ibv)) {
		printf("mmap: %s\n", strerror(errno));
		return 1;
	}
	if (dbg_write("enable", "1") || dbg_write("record", "clear") ||
	    record_empty("after a clear")) {
		KT_CHECK(0, "the record cannot be enabled and cleared in %s", dbgdir);
		return kt_exit();
	}

	/* the library first: its send ring's size places the WQE across the end */
	err = lib_open(&lib);
	KT_EQ(err, 0);
	if (!err) {
		KT_CHECK(lib.sq_ring >= 2 * BATCH, "send ring of %u blocks", lib.sq_ring);
		make_script(lib.sq_ring);
		printf("script: %d work requests (RC A's send ring: %u blocks; step %d placed across "
		       "its end), in batches of %d\n", nscript, lib.sq_ring, cross_step, BATCH);
		KT_EQ(dbg_write("record", "clear"), 0);
		KT_EQ(run_side(&lib), 0);
		take_record(&lib);
	}
	lib_close();

	KT_EQ(dbg_write("record", "clear"), 0);
	KT_EQ(record_empty("cleared after the library's run"), 0);
	if (!err) {
		err = vside_open(&ibv);
		KT_EQ(err, 0);
		if (!err) {
			KT_EQ(run_side(&ibv), 0);
			take_record(&ibv);
		}
	}
	vside_close();
	KT_EQ(dbg_write("enable", "0"), 0);
	KT_EQ(dbg_write("record", "clear"), 0);

	if (lib.ran && ibv.ran) {
		printf("QPNs: library RC %#x -> %#x, UD %#x -> %#x; libmlx5 RC %#x -> %#x, UD %#x -> "
		       "%#x\n", lib.qpn[QA], lib.qpn[QB], lib.qpn[UA], lib.qpn[UB], ibv.qpn[QA],
		       ibv.qpn[QB], ibv.qpn[UA], ibv.qpn[UB]);
		byte_checks(&lib);
		byte_checks(&ibv);
		compare();
	} else {
		KT_CHECK(0, "a side did not run its script (library %d, libmlx5 %d)", lib.ran,
			 ibv.ran);
	}
	printf("kt_mlx5_wqe_compare: %s\n", kt_failures ? "FAIL" : "PASS");
	return kt_exit();
}
