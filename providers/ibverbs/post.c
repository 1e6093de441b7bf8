// SPDX-License-Identifier: MIT
/*
 * The plug-in's data path: libibverbs' work requests and completions in the
 * data-path layer's form. Posting and polling never enter the kernel (rxe's
 * send doorbell apart, which the layer rings once per post call).
 */
#include <stdlib.h>
#include <string.h>

#include "uvp.h"

/* Same bytes, so lists pass through unconverted. */
_Static_assert(sizeof(struct ibv_sge) == sizeof(struct uvio_dp_sge) &&
	       offsetof(struct ibv_sge, lkey) == offsetof(struct uvio_dp_sge, lkey),
	       "ibv_sge");
#define SAME_WC(f) (offsetof(struct ibv_wc, f) == offsetof(struct uvio_dp_wc, f))
_Static_assert(sizeof(struct ibv_wc) == sizeof(struct uvio_dp_wc) && SAME_WC(wr_id) &&
	       SAME_WC(status) && SAME_WC(opcode) && SAME_WC(vendor_err) && SAME_WC(byte_len) &&
	       SAME_WC(imm_data) && SAME_WC(qp_num) && SAME_WC(src_qp) && SAME_WC(wc_flags) &&
	       SAME_WC(pkey_index) && SAME_WC(slid) && SAME_WC(sl) && SAME_WC(dlid_path_bits),
	       "ibv_wc");
#undef SAME_WC
_Static_assert((int)IBV_WC_RECV == (int)UVIO_WC_RECV && (int)IBV_WC_LOCAL_INV == (int)UVIO_WC_LOCAL_INV &&
	       (int)IBV_WC_GENERAL_ERR == (int)UVIO_WC_GENERAL_ERR, "completion numbers");
_Static_assert((int)IBV_WR_SEND_WITH_INV == (int)IB_UVERBS_WR_SEND_WITH_INV &&
	       (int)IBV_WR_BIND_MW == (int)IB_UVERBS_WR_BIND_MW, "work request opcodes");
_Static_assert((int)IBV_SEND_INLINE == (int)UVIO_DP_SEND_INLINE && (int)IBV_SEND_FENCE == (int)UVIO_DP_SEND_FENCE,
	       "send flags");

/*
 * The kernel numbers a completion's "invalidated" flag 4 and "IP checksum
 * ok" 8; libibverbs the other way round (IBV_WC_WITH_INV 8,
 * IBV_WC_IP_CSUM_OK 4).
 */
static inline uint32_t wc_flags_to_ibv(uint32_t f)
{
	if (!(f & 0xc))
		return f;
	return (f & ~0xcu) | ((f & 4u) ? (uint32_t)IBV_WC_WITH_INV : 0) |
	       ((f & 8u) ? (uint32_t)IBV_WC_IP_CSUM_OK : 0);
}

int uvp_poll_cq(struct ibv_cq *ibcq, int n, struct ibv_wc *wc)
{
	int got = uvio_dp_poll_cq(&uvp_cq(ibcq)->dp, (struct uvio_dp_wc *)wc, n);
	unsigned int any = 0;

	/* Few completions carry either flag (a receive with invalidate, or
	 * with a checksum): one read each to find out, rewrites only then. */
	for (int i = 0; i < got; i++)
		any |= wc[i].wc_flags;
	if (__builtin_expect(any & 0xc, 0))
		for (int i = 0; i < got; i++)
			wc[i].wc_flags = wc_flags_to_ibv(wc[i].wc_flags);
	/* libibverbs' poll answers the count or a negative value on error. */
	return got;
}

int uvp_req_notify_cq(struct ibv_cq *ibcq, int solicited_only)
{
	return -uvio_dp_arm_cq(&uvp_cq(ibcq)->dp, solicited_only);
}

/* One libibverbs send WR in the layer's form; -EINVAL for what rxe and siw
 * cannot carry. */
static inline int send_wr_from(struct uvio_dp_send_wr *w, const struct ibv_send_wr *wr)
{
	memset(w, 0, sizeof(*w));
	w->wr_id = wr->wr_id;
	w->opcode = wr->opcode;
	w->flags = wr->send_flags & (IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |
				     IBV_SEND_INLINE);
	if (wr->num_sge < 0)
		return -EINVAL;
	w->sg_list = (const struct uvio_dp_sge *)wr->sg_list;
	w->num_sge = (uint32_t)wr->num_sge;
	switch (wr->opcode) {
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
		w->imm_data = wr->imm_data;
		break;
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		w->invalidate_rkey = wr->invalidate_rkey;
		break;
	default:
		break;
	}
	switch (wr->opcode) {
	case IBV_WR_RDMA_WRITE:
	case IBV_WR_RDMA_WRITE_WITH_IMM:
	case IBV_WR_RDMA_READ:
		w->rdma.remote_addr = wr->wr.rdma.remote_addr;
		w->rdma.rkey = wr->wr.rdma.rkey;
		break;
	case IBV_WR_ATOMIC_CMP_AND_SWP:
	case IBV_WR_ATOMIC_FETCH_AND_ADD:
		w->atomic.remote_addr = wr->wr.atomic.remote_addr;
		w->atomic.compare_add = wr->wr.atomic.compare_add;
		w->atomic.swap = wr->wr.atomic.swap;
		w->atomic.rkey = wr->wr.atomic.rkey;
		break;
	case IBV_WR_BIND_MW:
		if (!wr->bind_mw.mw || !wr->bind_mw.bind_info.mr)
			return -EINVAL;
		w->bind_mw.mw_rkey = wr->bind_mw.mw->rkey;
		w->bind_mw.new_rkey = wr->bind_mw.rkey;
		w->bind_mw.mr_lkey = wr->bind_mw.bind_info.mr->lkey;
		w->bind_mw.access = wr->bind_mw.bind_info.mw_access_flags;
		w->bind_mw.addr = wr->bind_mw.bind_info.addr;
		w->bind_mw.length = wr->bind_mw.bind_info.length;
		if (wr->bind_mw.mw->type == IBV_MW_TYPE_1)
			w->flags |= UVIO_DP_SEND_MW_TYPE_1;	/* mlx5 writes the type */
		break;
	case IBV_WR_SEND:
	case IBV_WR_SEND_WITH_IMM:
	case IBV_WR_SEND_WITH_INV:
	case IBV_WR_LOCAL_INV:
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static void ud_from(struct uvio_dp_send_wr *w, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey)
{
	w->ud.ah = ah ? &((struct uvp_ah *)ah)->dp : NULL;
	w->ud.remote_qpn = qpn;
	w->ud.remote_qkey = qkey;
}

/* Converted in batches on the stack; the layer rings rxe's doorbell once per
 * batch, so a list of up to POST_BATCH WRs is one system call. */
#define POST_BATCH 16u

/* A post's failure as libibverbs' providers answer it: a positive errno,
 * and ENOMEM for a full queue (the library's data path says ENOSPC, which
 * callers of ibv_post_*() do not expect: rdma-core's own tests check for
 * ENOMEM). */
static inline int post_errno(int err)
{
	return err == -ENOSPC ? ENOMEM : -err;
}

/* A list of WRs, POST_BATCH at a time (uvp_post_send has checked the
 * QP's state). */
static __attribute__((noinline)) int post_send_list(struct uvp_qp *qp, struct ibv_send_wr *wr,
						    struct ibv_send_wr **bad)
{
	struct ibv_qp *ibqp = &qp->vqp.qp;
	struct uvio_dp_send_wr w[POST_BATCH];
	struct ibv_send_wr *first[POST_BATCH];
	int err = 0;

	while (wr) {
		uint32_t n = 0, failed = 0;

		for (; wr && n < POST_BATCH; wr = wr->next, n++) {
			first[n] = wr;
			err = send_wr_from(&w[n], wr);
			if (err)
				break;
			if (ibqp->qp_type == IBV_QPT_UD)
				ud_from(&w[n], wr->wr.ud.ah, wr->wr.ud.remote_qpn,
					wr->wr.ud.remote_qkey);
		}
		if (n) {
			int perr = uvio_dp_post_send(&qp->dp, w, n, &failed);

			if (perr) {
				*bad = first[failed < n ? failed : 0];
				return post_errno(perr);
			}
		}
		if (err) {
			*bad = wr;
			return -err;
		}
	}
	return 0;
}

int uvp_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct uvp_qp *qp = uvp_qp(ibqp);
	struct uvio_dp_send_wr w;
	int err;

	/* As wr_complete: a send to a QP in RESET is an error. */
	if (wr && __atomic_load_n(&qp->in_reset, __ATOMIC_RELAXED)) {
		*bad = wr;
		return EINVAL;
	}
	if (!wr || wr->next)
		return post_send_list(qp, wr, bad);
	/* One WR, what most callers post: converted on the stack and posted
	 * without the list's batching. */
	err = send_wr_from(&w, wr);
	if (__builtin_expect(err, 0)) {
		*bad = wr;
		return -err;
	}
	if (ibqp->qp_type == IBV_QPT_UD)
		ud_from(&w, wr->wr.ud.ah, wr->wr.ud.remote_qpn, wr->wr.ud.remote_qkey);
	err = uvio_dp_post_send(&qp->dp, &w, 1, NULL);
	if (__builtin_expect(err, 0)) {
		*bad = wr;
		return post_errno(err);
	}
	return 0;
}

static __attribute__((noinline)) int post_recv_list(struct uvp_qp *qp, struct uvp_srq *srq, struct ibv_recv_wr *wr,
			  struct ibv_recv_wr **bad)
{
	struct uvio_dp_recv_wr w[POST_BATCH];
	struct ibv_recv_wr *first[POST_BATCH];

	/* A receive posted to a QP in RESET is an error (IBTA C10-97.2.1). */
	if (qp && wr && __atomic_load_n(&qp->in_reset, __ATOMIC_RELAXED)) {
		*bad = wr;
		return EINVAL;
	}
	while (wr) {
		uint32_t n = 0, failed = 0;
		int err;

		for (; wr && n < POST_BATCH; wr = wr->next, n++) {
			if (wr->num_sge < 0) {
				*bad = wr;
				return EINVAL;
			}
			first[n] = wr;
			w[n] = (struct uvio_dp_recv_wr){
				.wr_id = wr->wr_id,
				.sg_list = (const struct uvio_dp_sge *)wr->sg_list,
				.num_sge = (uint32_t)wr->num_sge,
			};
		}
		err = srq ? uvio_dp_post_srq_recv(&srq->dp, w, n, &failed)
			  : uvio_dp_post_recv(&qp->dp, w, n, &failed);
		if (err) {
			*bad = first[failed < n ? failed : 0];
			return post_errno(err);
		}
	}
	return 0;
}

int uvp_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct uvp_qp *qp = uvp_qp(ibqp);
	struct uvio_dp_recv_wr w;
	int err;

	/* One WR, what most callers post: no batch, no list (a list, a
	 * negative SGE count or a QP in RESET take the list's checks). */
	if (!wr || wr->next || wr->num_sge < 0 ||
	    __atomic_load_n(&qp->in_reset, __ATOMIC_RELAXED))
		return post_recv_list(qp, NULL, wr, bad);
	w = (struct uvio_dp_recv_wr){ .wr_id = wr->wr_id,
				      .sg_list = (const struct uvio_dp_sge *)wr->sg_list,
				      .num_sge = (uint32_t)wr->num_sge };
	err = uvio_dp_post_recv(&qp->dp, &w, 1, NULL);
	if (__builtin_expect(err, 0)) {
		*bad = wr;
		return post_errno(err);
	}
	return 0;
}

int uvp_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	return post_recv_list(NULL, uvp_srq(srq), wr, bad);
}

/* A type 1 window: bound through the send queue with the next rkey, which
 * the window takes once the post succeeded. */
int uvp_bind_mw(struct ibv_qp *ibqp, struct ibv_mw *mw, struct ibv_mw_bind *bind)
{
	struct uvio_dp_send_wr w;
	uint32_t new_rkey = ibv_inc_rkey(mw->rkey);
	int err;

	if (!bind->bind_info.mr && bind->bind_info.length)
		return EINVAL;
	memset(&w, 0, sizeof(w));
	w.wr_id = bind->wr_id;
	w.opcode = IB_UVERBS_WR_BIND_MW;
	w.flags = (bind->send_flags & (IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED)) |
		  UVIO_DP_SEND_MW_TYPE_1;	/* ibv_bind_mw() binds type 1 windows only */
	w.bind_mw.mw_rkey = mw->rkey;
	w.bind_mw.new_rkey = new_rkey;
	w.bind_mw.mr_lkey = bind->bind_info.mr ? bind->bind_info.mr->lkey : 0;
	w.bind_mw.access = bind->bind_info.mw_access_flags;
	w.bind_mw.addr = bind->bind_info.addr;
	w.bind_mw.length = bind->bind_info.length;
	err = uvio_dp_post_send(&uvp_qp(ibqp)->dp, &w, 1, NULL);
	if (err)
		return post_errno(err);
	mw->rkey = new_rkey;
	return 0;
}

/* ---- the extended CQ: one completion read per start/next ---- */

static struct uvp_cq *cq_of(struct ibv_cq_ex *ex)
{
	return (struct uvp_cq *)ex;
}

static int cq_next_poll(struct ibv_cq_ex *ex)
{
	struct uvp_cq *cq = cq_of(ex);
	int n = uvio_dp_poll_cq(&cq->dp, &cq->cur, 1);

	if (n < 0)
		return -n;
	if (n == 0)
		return ENOENT;
	ex->wr_id = cq->cur.wr_id;
	ex->status = (enum ibv_wc_status)cq->cur.status;
	return 0;
}

static int cq_start_poll(struct ibv_cq_ex *ex, struct ibv_poll_cq_attr *attr)
{
	if (attr->comp_mask)
		return EINVAL;
	return cq_next_poll(ex);
}

static void cq_end_poll(struct ibv_cq_ex *ex)
{
	(void)ex;
}

static enum ibv_wc_opcode cq_read_opcode(struct ibv_cq_ex *ex)
{
	return (enum ibv_wc_opcode)cq_of(ex)->cur.opcode;
}

static uint32_t cq_read_vendor_err(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.vendor_err;
}

static uint32_t cq_read_byte_len(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.byte_len;
}

static __be32 cq_read_imm_data(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.imm_data;
}

static uint32_t cq_read_qp_num(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.qp_num;
}

static uint32_t cq_read_src_qp(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.src_qp;
}

static unsigned int cq_read_wc_flags(struct ibv_cq_ex *ex)
{
	return wc_flags_to_ibv(cq_of(ex)->cur.wc_flags);
}

static uint32_t cq_read_slid(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.slid;
}

static uint8_t cq_read_sl(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.sl;
}

static uint8_t cq_read_dlid_path_bits(struct ibv_cq_ex *ex)
{
	return cq_of(ex)->cur.dlid_path_bits;
}

void uvp_cq_ex_init(struct uvp_cq *cq, uint64_t wc_flags)
{
	struct ibv_cq_ex *ex = &cq->ex;

	ex->start_poll = cq_start_poll;
	ex->next_poll = cq_next_poll;
	ex->end_poll = cq_end_poll;
	ex->read_opcode = cq_read_opcode;
	ex->read_vendor_err = cq_read_vendor_err;
	ex->read_wc_flags = cq_read_wc_flags;
	if (wc_flags & IBV_WC_EX_WITH_BYTE_LEN)
		ex->read_byte_len = cq_read_byte_len;
	if (wc_flags & IBV_WC_EX_WITH_IMM)
		ex->read_imm_data = cq_read_imm_data;
	if (wc_flags & IBV_WC_EX_WITH_QP_NUM)
		ex->read_qp_num = cq_read_qp_num;
	if (wc_flags & IBV_WC_EX_WITH_SRC_QP)
		ex->read_src_qp = cq_read_src_qp;
	if (wc_flags & IBV_WC_EX_WITH_SLID)
		ex->read_slid = cq_read_slid;
	if (wc_flags & IBV_WC_EX_WITH_SL)
		ex->read_sl = cq_read_sl;
	if (wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS)
		ex->read_dlid_path_bits = cq_read_dlid_path_bits;
}

/* ---- the extended QP: work requests gathered until wr_complete ---- */

static struct uvp_qp *qp_of(struct ibv_qp_ex *ex)
{
	return (struct uvp_qp *)ex;
}

static void wr_flush_full(struct uvp_qp *qp);

/* The next WR of the batch, its common fields from ex->wr_id/wr_flags. */
static struct uvio_dp_send_wr *wr_new(struct ibv_qp_ex *ex, uint32_t opcode)
{
	struct uvp_qp *qp = qp_of(ex);
	struct uvp_wr_batch *b = qp->batch;
	struct uvio_dp_send_wr *w;

	if (b->n == UVP_WR_BATCH)
		wr_flush_full(qp);
	w = &b->wr[b->n];
	memset(w, 0, sizeof(*w));
	w->wr_id = ex->wr_id;
	w->opcode = opcode;
	w->flags = ex->wr_flags & (IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED |
				   IBV_SEND_INLINE);
	w->sg_list = b->sge[b->n];
	b->n++;
	return w;
}

static struct uvio_dp_send_wr *wr_cur(struct ibv_qp_ex *ex)
{
	struct uvp_wr_batch *b = qp_of(ex)->batch;

	if (!b->n) {
		if (!b->err)
			b->err = EINVAL;	/* a setter before any operation */
		return NULL;
	}
	return &b->wr[b->n - 1];
}

/* A full batch goes to the queue now; the caller's later WRs follow it. */
static void wr_flush_full(struct uvp_qp *qp)
{
	struct uvp_wr_batch *b = qp->batch;
	int err = 0;

	if (!b->err)
		err = uvio_dp_post_send(&qp->dp, b->wr, b->n, NULL);
	if (err)
		b->err = post_errno(err);
	b->n = 0;
	b->inline_used = 0;
}

static void wr_start(struct ibv_qp_ex *ex)
{
	struct uvp_wr_batch *b = qp_of(ex)->batch;

	b->n = 0;
	b->err = 0;
	b->inline_used = 0;
}

static int wr_complete(struct ibv_qp_ex *ex)
{
	struct uvp_qp *qp = qp_of(ex);
	struct uvp_wr_batch *b = qp->batch;
	int err = b->err;

	/* A send posted to a QP in RESET is an error, as for receives
	 * (IBTA C10-97.2.1): libmlx5 answers EINVAL, and mlx5's doorbell
	 * would take the WQEs without a word. */
	if (!err && b->n && __atomic_load_n(&qp->in_reset, __ATOMIC_RELAXED))
		err = EINVAL;
	if (!err && b->n) {
		err = post_errno(uvio_dp_post_send(&qp->dp, b->wr, b->n, NULL));
	}
	b->n = 0;
	b->err = 0;
	b->inline_used = 0;
	return err;
}

static void wr_abort(struct ibv_qp_ex *ex)
{
	wr_start(ex);
}

static void wr_send(struct ibv_qp_ex *ex)
{
	wr_new(ex, IB_UVERBS_WR_SEND);
}

static void wr_send_imm(struct ibv_qp_ex *ex, __be32 imm)
{
	wr_new(ex, IB_UVERBS_WR_SEND_WITH_IMM)->imm_data = imm;
}

static void wr_send_inv(struct ibv_qp_ex *ex, uint32_t rkey)
{
	wr_new(ex, IB_UVERBS_WR_SEND_WITH_INV)->invalidate_rkey = rkey;
}

static void wr_local_inv(struct ibv_qp_ex *ex, uint32_t rkey)
{
	wr_new(ex, IB_UVERBS_WR_LOCAL_INV)->invalidate_rkey = rkey;
}

static void wr_rdma(struct ibv_qp_ex *ex, uint32_t opcode, uint32_t rkey, uint64_t addr)
{
	struct uvio_dp_send_wr *w = wr_new(ex, opcode);

	w->rdma.rkey = rkey;
	w->rdma.remote_addr = addr;
}

static void wr_rdma_write(struct ibv_qp_ex *ex, uint32_t rkey, uint64_t addr)
{
	wr_rdma(ex, IB_UVERBS_WR_RDMA_WRITE, rkey, addr);
}

static void wr_rdma_write_imm(struct ibv_qp_ex *ex, uint32_t rkey, uint64_t addr, __be32 imm)
{
	wr_rdma(ex, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM, rkey, addr);
	qp_of(ex)->batch->wr[qp_of(ex)->batch->n - 1].imm_data = imm;
}

static void wr_rdma_read(struct ibv_qp_ex *ex, uint32_t rkey, uint64_t addr)
{
	wr_rdma(ex, IB_UVERBS_WR_RDMA_READ, rkey, addr);
}

static void wr_atomic(struct ibv_qp_ex *ex, uint32_t opcode, uint32_t rkey, uint64_t addr,
		      uint64_t compare_add, uint64_t swap)
{
	struct uvio_dp_send_wr *w = wr_new(ex, opcode);

	w->atomic.rkey = rkey;
	w->atomic.remote_addr = addr;
	w->atomic.compare_add = compare_add;
	w->atomic.swap = swap;
}

static void wr_atomic_cmp_swp(struct ibv_qp_ex *ex, uint32_t rkey, uint64_t addr,
			      uint64_t compare, uint64_t swap)
{
	wr_atomic(ex, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare, swap);
}

static void wr_atomic_fetch_add(struct ibv_qp_ex *ex, uint32_t rkey, uint64_t addr, uint64_t add)
{
	wr_atomic(ex, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
}

static void wr_set_inline_data(struct ibv_qp_ex *ex, void *addr, size_t length);

/* The 8 bytes are copied now, as libibverbs' callers expect: they may reuse
 * atomic_wr before ibv_wr_complete(). */
static void wr_atomic_write(struct ibv_qp_ex *ex, uint32_t rkey, uint64_t addr,
			    const void *atomic_wr)
{
	wr_rdma(ex, UVIO_DP_WR_ATOMIC_WRITE, rkey, addr);
	wr_set_inline_data(ex, (void *)(uintptr_t)atomic_wr, 8);
}

static void wr_bind_mw(struct ibv_qp_ex *ex, struct ibv_mw *mw, uint32_t rkey,
		       const struct ibv_mw_bind_info *info)
{
	struct uvio_dp_send_wr *w = wr_new(ex, IB_UVERBS_WR_BIND_MW);

	w->bind_mw.mw_rkey = mw->rkey;
	w->bind_mw.new_rkey = rkey;
	w->bind_mw.mr_lkey = info->mr ? info->mr->lkey : 0;
	w->bind_mw.access = info->mw_access_flags;
	w->bind_mw.addr = info->addr;
	w->bind_mw.length = info->length;
	if (mw->type == IBV_MW_TYPE_1)
		w->flags |= UVIO_DP_SEND_MW_TYPE_1;
}

static void wr_set_ud_addr(struct ibv_qp_ex *ex, struct ibv_ah *ah, uint32_t qpn, uint32_t qkey)
{
	struct uvio_dp_send_wr *w = wr_cur(ex);

	if (w)
		ud_from(w, ah, qpn, qkey);
}

static void wr_set_sge(struct ibv_qp_ex *ex, uint32_t lkey, uint64_t addr, uint32_t length)
{
	struct uvp_wr_batch *b = qp_of(ex)->batch;
	struct uvio_dp_send_wr *w = wr_cur(ex);

	if (!w)
		return;
	b->sge[b->n - 1][0] = (struct uvio_dp_sge){ .addr = addr, .length = length, .lkey = lkey };
	w->num_sge = 1;
}

static void wr_set_sge_list(struct ibv_qp_ex *ex, size_t num, const struct ibv_sge *list)
{
	struct uvp_wr_batch *b = qp_of(ex)->batch;
	struct uvio_dp_send_wr *w = wr_cur(ex);

	if (!w)
		return;
	if (num > UVP_WR_SGE) {
		if (!b->err)
			b->err = EINVAL;
		return;
	}
	memcpy(b->sge[b->n - 1], list, num * sizeof(*list));
	w->num_sge = (uint32_t)num;
}

/* Inline bytes are copied now (the caller may reuse its buffer at once) and
 * handed to the queue as one SGE over the copy. */
static void wr_set_inline_data_list(struct ibv_qp_ex *ex, size_t num,
				    const struct ibv_data_buf *list)
{
	struct uvp_wr_batch *b = qp_of(ex)->batch;
	struct uvio_dp_send_wr *w = wr_cur(ex);
	uint32_t start = b->inline_used;

	if (!w)
		return;
	for (size_t i = 0; i < num; i++) {
		if (list[i].length > UVP_WR_INLINE - b->inline_used) {
			if (!b->err)
				b->err = ENOMEM;
			return;
		}
		memcpy(b->inline_buf + b->inline_used, list[i].addr, list[i].length);
		b->inline_used += (uint32_t)list[i].length;
	}
	b->sge[b->n - 1][0] = (struct uvio_dp_sge){
		.addr = (uintptr_t)(b->inline_buf + start),
		.length = b->inline_used - start,
	};
	w->num_sge = 1;
	w->flags |= UVIO_DP_SEND_INLINE;
}

static void wr_set_inline_data(struct ibv_qp_ex *ex, void *addr, size_t length)
{
	const struct ibv_data_buf one = { .addr = addr, .length = length };

	wr_set_inline_data_list(ex, 1, &one);
}

/* Each wr_*() operation and the work request opcode it posts. */
static const struct {
	uint64_t op;		/* IBV_QP_EX_WITH_* */
	uint32_t opcode;	/* IB_UVERBS_WR_* */
} ex_opcodes[] = {
	{ IBV_QP_EX_WITH_RDMA_WRITE, IB_UVERBS_WR_RDMA_WRITE },
	{ IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM, IB_UVERBS_WR_RDMA_WRITE_WITH_IMM },
	{ IBV_QP_EX_WITH_SEND, IB_UVERBS_WR_SEND },
	{ IBV_QP_EX_WITH_SEND_WITH_IMM, IB_UVERBS_WR_SEND_WITH_IMM },
	{ IBV_QP_EX_WITH_RDMA_READ, IB_UVERBS_WR_RDMA_READ },
	{ IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP, IB_UVERBS_WR_ATOMIC_CMP_AND_SWP },
	{ IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD, IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD },
	{ IBV_QP_EX_WITH_LOCAL_INV, IB_UVERBS_WR_LOCAL_INV },
	{ IBV_QP_EX_WITH_BIND_MW, IB_UVERBS_WR_BIND_MW },
	{ IBV_QP_EX_WITH_SEND_WITH_INV, IB_UVERBS_WR_SEND_WITH_INV },
	{ IBV_QP_EX_WITH_ATOMIC_WRITE, UVIO_DP_WR_ATOMIC_WRITE },
};

int uvp_qp_ex_init(struct uvp_qp *qp, uint64_t ops)
{
	struct ibv_qp_ex *ex = &qp->vqp.qp_ex;
	uint64_t have = 0;

	/* An operation the driver's data path cannot post for this QP type
	 * is refused here, at create, as the stock providers refuse it; not
	 * at the first wr_complete(). */
	if (uvio_dp_qp_opcodes(&qp->dp, &have))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(ex_opcodes) / sizeof(ex_opcodes[0]); i++)
		if ((ops & ex_opcodes[i].op) && !((have >> ex_opcodes[i].opcode) & 1))
			return -EOPNOTSUPP;
	qp->batch = calloc(1, sizeof(*qp->batch));
	if (!qp->batch)
		return -ENOMEM;
	qp->vqp.comp_mask |= VERBS_QP_EX;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE)
		ex->wr_rdma_write = wr_rdma_write;
	if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM)
		ex->wr_rdma_write_imm = wr_rdma_write_imm;
	if (ops & IBV_QP_EX_WITH_SEND)
		ex->wr_send = wr_send;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM)
		ex->wr_send_imm = wr_send_imm;
	if (ops & IBV_QP_EX_WITH_RDMA_READ)
		ex->wr_rdma_read = wr_rdma_read;
	if (ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP)
		ex->wr_atomic_cmp_swp = wr_atomic_cmp_swp;
	if (ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD)
		ex->wr_atomic_fetch_add = wr_atomic_fetch_add;
	if (ops & IBV_QP_EX_WITH_ATOMIC_WRITE)
		ex->wr_atomic_write = wr_atomic_write;
	if (ops & IBV_QP_EX_WITH_LOCAL_INV)
		ex->wr_local_inv = wr_local_inv;
	if (ops & IBV_QP_EX_WITH_BIND_MW)
		ex->wr_bind_mw = wr_bind_mw;
	if (ops & IBV_QP_EX_WITH_SEND_WITH_INV)
		ex->wr_send_inv = wr_send_inv;
	ex->wr_set_ud_addr = wr_set_ud_addr;
	ex->wr_set_sge = wr_set_sge;
	ex->wr_set_sge_list = wr_set_sge_list;
	ex->wr_set_inline_data = wr_set_inline_data;
	ex->wr_set_inline_data_list = wr_set_inline_data_list;
	ex->wr_start = wr_start;
	ex->wr_complete = wr_complete;
	ex->wr_abort = wr_abort;
	return 0;
}
