// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_engine: what a ConnectX does with the user queues of the mlx5
 * stand-in (mlx5_verbs.c), so that libmlx5's own data path, unmodified,
 * moves data through it. A test fixture of libuverbs-ioctl, GPL-2.0 as the
 * rest of the stand-in. The rules are those libmlx5 (rdma-core 44) writes
 * and reads and that mlx5_ib's headers (include/linux/mlx5) lay out; the
 * code is written anew.
 *
 * One kernel thread per device (named after the module) polls, under the
 * eng_lock that all the module's devices share (a message may cross from
 * one to another), what the hardware would be told by doorbells it cannot
 * trap here (the UAR pages are plain memory):
 *  - each QP in RTS: its send doorbell record (dbrec[1], the producer
 *    counter in 64-byte basic blocks). Each WQE from the engine's counter
 *    on is read out of the pinned ring (it may wrap to block 0) after a
 *    read barrier, and checked as the hardware checks it: the control
 *    segment's WQE index equals the counter, its QPN is the QP's, its ds
 *    (16-byte units) is not 0 and fits the ring, the opcode is one the QP's
 *    type has, the segments fit in ds, each data segment's lkey names an MR
 *    of the device (mkey index and variant), of the QP's PD, covering the
 *    range, with local write where data is written. A malformed WQE is a
 *    requester error CQE, "local QP operation" (0x02), and a kernel log
 *    line naming the field; a bad lkey is "local protection" (0x04); either
 *    moves the QP to ERR.
 *  - each QP in ERR: every WQE posted and not yet done, send and receive,
 *    completes with "flushed" (0x05), one CQE each (the IB rule: error
 *    completions are never suppressed), later posts too.
 *  - each CQ: its arm request. libmlx5 writes the request (sequence number,
 *    solicited-only bit, consumer index) in dbrec[1] and then, as a 64-bit
 *    {request, cqn}, at offset 0x20 of the CQ's UAR page, which is this
 *    module's own page: the engine takes that word (exchanging it with 0)
 *    and watches dbrec[1] as well (the first request of a CQ writes 0 there,
 *    the value it had). An armed CQ fires (its comp_handler: the
 *    completion channel's event) at the next CQE, or at once when CQEs lie
 *    past the request's consumer index; solicited-only fires on a CQE with
 *    the SE bit or an error CQE.
 * Transport, RC and UC between QPs of the module's devices, in one process
 * or several: the peer is the QP the RTR modify's dest_qp_num names on the
 * device whose GID table holds the path's destination GID (RoCE routes by
 * GID; no device holds it: the peer is absent):
 *  - SEND, SEND_IMM: the peer's next receive WQE (its RQ by dbrec[0], or
 *    its SRQ's list by the SRQ record: each WQE's next segment names the
 *    next), scatter entries up to the 0x100 lkey terminator, each checked
 *    for local write in the peer's PD; a message longer than the entries:
 *    "local length" (0x01) at the responder and "remote invalid request"
 *    (0x12) at the requester; a bad scatter entry: "local protection" at
 *    the responder, "remote operation" (0x14) at the requester; both QPs
 *    to ERR (RC). Responder CQE: RESP_SEND or RESP_SEND_IMM, byte count,
 *    immediate, source QPN, the SE bit when the WQE asked for it.
 *  - RDMA_WRITE, RDMA_WRITE_IMM, RDMA_READ: the remote range checked
 *    against the peer's access flags and the MR of its rkey (PD, bounds,
 *    remote write or read); a violation is "remote access" (0x13) at the
 *    requester, its QP to ERR, and (RC) the responder's QP to ERR with
 *    IB_EVENT_QP_ACCESS_ERR (IB_EVENT_QP_REQ_ERR for a misaligned atomic).
 *    WRITE_IMM takes a receive WQE of the peer (RESP_WR_IMM, the write's
 *    length). UC has no READ. Error CQEs carry ConnectX's vendor syndrome.
 *  - ATOMIC_CS, ATOMIC_FA (RC): the remote address segment, then the
 *    atomic segment (swap or add, compare); 8 bytes at an 8-byte aligned
 *    remote address (else "remote invalid request", 0x12) in an MR with
 *    remote atomic access granted by the peer QP too (else 0x13), on the
 *    value in host byte order; the former value to the data segments
 *    (8 bytes, else "local length", 0x01); byte count 8 in the CQE.
 *  - NOP: a completion only.
 *  - Inline data and data segments alike; zero-length segments are
 *    skipped as libmlx5 skips them.
 *  - No receive WQE (RC): the requester waits, rnr_retry 7 for ever, else
 *    rnr_retry + 1 of the peer's min_rnr_timer (IBA's table), then "RNR
 *    retry exceeded" (0x16). A peer absent or not in RTR/RTS (RC): the
 *    requester waits 4.096 us << timeout, times retry_cnt + 1 (timeout 0:
 *    for ever), then "transport retry exceeded" (0x15). UC drops the
 *    message and completes the send.
 *  - UD: SEND and SEND_IMM after the 48-byte address vector; the receiver
 *    is the vector's QPN on the device that holds the vector's destination
 *    GID, a UD QP in RTR or RTS whose Q_Key matches (the
 *    WQE's, or the sender's own when its top bit is set); its buffer gets
 *    a 40-byte GRH (IB format: the sender's GID at the vector's GID index,
 *    the vector's destination GID) before the data, its CQE the GRH flag
 *    and the byte count with the GRH. A message no one can take is
 *    dropped (a log line) and the send completes, as on a wire.
 *  - Requester CQE (signalled WQEs, fm_ce_se 0x08): REQ with the WQE's
 *    opcode in sop_drop_qpn's top byte and its index in wqe_counter; byte
 *    count for READ.
 * CQEs: the 64-byte CQE (the second half of a 128-byte one) at the
 * producer index, user index with CQE version 1 (libmlx5's), written whole
 * before a write barrier and then op_own: opcode, SE, owner bit = lap & 1.
 * Scatter to CQE, as a ConnectX does it for the QPs whose create asked for
 * it (mlx5_verbs.c's sd_scatter_decide sets the QP's limits as mlx5_ib
 * sets cs_res and cs_req; module parameter scatter_cqe=0: never):
 *  - responder (RC, UC; RQ or SRQ): a SEND, SEND_IMM or SEND_INV of 1 to
 *    32 bytes (64 where the receive CQ has 128-byte CQEs) goes into the
 *    CQE instead of the receive buffer, op_own's inline scatter bit set:
 *    0x04 (32) with the data in the CQE's first 32 bytes, over the fields
 *    that lie there (flags_rqpn: source QP, GRH flag; slid, ml_path), or
 *    0x08 (64) with the data in the 64 bytes before the CQE, the first half
 *    of its 128-byte entry; the byte count as usual, the bytes past it
 *    zero. The receive WQE is taken and its scatter list checked (bad key,
 *    too short) all the same: the library copies the data there from the
 *    CQE. WRITE_IMM's data is at its remote address: nothing to scatter.
 *    A zero-length message: no data, no bit (the emulator's choice; the
 *    sources read say nothing). UD: never, as mlx5_ib sets cs_res for
 *    RC and UC QPs alone.
 *  - requester (RC): the response of a signalled RDMA_READ of 1 to 32
 *    bytes (64 with a send CQ of 128-byte CQEs), or an atomic's former
 *    value, goes into the requester's CQE in the same two forms, and the
 *    WQE's data segments are not written (the keys are checked as before):
 *    the library copies the bytes to them. An unsignalled READ has no CQE
 *    to carry its data and writes its segments (without ALLOW_SCATTER_CQE
 *    mlx5_ib turns the requester side on only for QPs that signal every
 *    WR, so it never arises; with it the caller promised to signal the
 *    WRs whose data it wants in the CQE; what a ConnectX does with an
 *    unsignalled one was not found).
 *  - under the 64 limit, data of 32 bytes or less takes the 64-byte form
 *    too: which form a ConnectX uses there is not written in the sources
 *    read, but libmlx5's tag-matching receive (cq.c, rdma-core 44) copies
 *    out of the 64-byte form alone ("inline scatter 32 not supported for
 *    TM"). A CQ resized to 64-byte CQEs under a QP of the 64 limit gets
 *    no data in its CQEs.
 *  - libmlx5 up to rdma-core 63 and the stable releases before 2026's fix
 *    (Debian 12's 44.0 among them: fixed in 44.12, upstream commit
 *    45184d2c, "Fix inline-scatter source address on 128B CQE REQ
 *    completions") reads a requester CQE's 64-byte form one byte early: a
 *    READ or atomic on a QP with sq_sig_all and a send CQ of 128-byte CQEs
 *    gets its bytes shifted, here as on a ConnectX. The tests do not take
 *    that path through libmlx5.
 *  - error CQEs never carry data.
 * A CQ full to the consumer index its record shows is an overrun: the CQ
 * is in error from then on (IB_EVENT_CQ_ERR, every later CQE dropped, one
 * log line) and the QP whose CQE it was goes to ERR with IB_EVENT_QP_FATAL;
 * a CQ created with IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN is written regardless.
 * Other events: IB_EVENT_QP_LAST_WQE_REACHED when a QP on an SRQ enters ERR
 * (a modify or an error), IB_EVENT_SRQ_LIMIT_REACHED when an armed SRQ's
 * posted and untaken WQEs fall below its limit (then disarmed: limit 0).
 * All go through the object's event_handler (the core's dispatch to the
 * uverbs async file), from the engine's thread or the modify under
 * eng_lock.
 * The engine sleeps 20-60 us between passes while it has had work in the
 * last 100 ms, 0.5-1 ms while QPs are live and idle, and waits for a QP to
 * reach RTS or ERR otherwise.
 * Memory windows (sd_umr): UMR WQEs bind and invalidate them; SEND_INV
 * (RC) invalidates one bound to the receiving QP (RESP_SEND_INV CQE).
 * Not done (yet): zero-based windows, masked atomics (their opcodes are refused
 * as a local QP operation error with a log line), packet pacing, RoCE v2's
 * IPv4 header in a UD receiver's GRH area.
 */
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <rdma/ib_cache.h>
#include <linux/mlx5/cq.h>
#include <linux/mlx5/doorbell.h>
#include <linux/mlx5/qp.h>
#include <rdma/mlx5-abi.h>
#include "mlx5_standin.h"

enum {
	SD_CQ_SET_CI = 0,	/* the CQ record's words: consumer index, arm */
	SD_CQ_ARM_DB = 1,
	SD_BB = 64,		/* a send WQE basic block */
	SD_SEG = 16,		/* ds unit, data segment */
	SD_CQE64 = 64,
	SD_RNR_FOREVER = 7,
	SD_GRH = 40,
	/* op_own's inline scatter bits (mlx5dv.h's MLX5_INLINE_SCATTER_32 and
	 * _64; the kernel's headers do not name them) */
	SD_CQE_SCATTER_32 = 0x04,
	SD_CQE_SCATTER_64 = 0x08,
};
/* flags_rqpn: a GRH came (bits 28-29 not 0), L3 type 0 in bits 24-25 (a GRH, not IPv4/6) */
#define SD_CQE_GRH (1u << 28)

/* The kernel view of a pinned user range, page by page in one mapping. */
void *sd_umem_vmap(struct ib_umem *umem)
{
	size_t n = ib_umem_num_pages(umem), i = 0;
	struct sg_page_iter it;
	struct page **pages;
	void *va = NULL;

	if (!n)
		return NULL;
	pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return NULL;
	for_each_sgtable_page(&umem->sgt_append.sgt, &it, 0) {
		if (i == n)
			break;
		pages[i++] = sg_page_iter_page(&it);
	}
	if (i == n)
		va = vmap(pages, n, VM_MAP, PAGE_KERNEL);
	kvfree(pages);
	return va;
}

static u32 sd_rd32(const __be32 *p)
{
	return be32_to_cpu(READ_ONCE(*p));
}

/* ---- completions ----------------------------------------------------------- */

union sd_cqe {
	struct mlx5_cqe64 ok;
	struct mlx5_err_cqe err;
	u8 b[SD_CQE64];
};

/*
 * Data scattered to a CQE in place of the buffer (see the header): form 32
 * puts it in the CQE's first 32 bytes (over the fields that lie there,
 * flags_rqpn among them), form 64 in the 64 bytes before the CQE (the
 * first half of a 128-byte entry); the bytes past len are zero.
 */
struct sd_scat {
	u8 form;		/* 0: none, 32 or 64 */
	u8 b[64];
};

/* The form a message of len bytes takes under a QP's limit (scat_res or
 * scat_req) on CQ cq; 0: to the buffer. A CQ resized to 64-byte CQEs
 * after the QP was made has no room for the 64-byte form. */
static u8 sd_scat_form(struct sd_scat *sc, u8 limit, struct sd_cq *cq, u64 len)
{
	sc->form = 0;
	if (!limit || !len || len > limit || (limit == 64 && cq->cqe_size < 2 * SD_CQE64))
		return 0;
	sc->form = limit;
	memset(sc->b, 0, sizeof(sc->b));
	return sc->form;
}

/* ---- asynchronous events ------------------------------------------------------ */

/* The events the HCA reports through the core's dispatch (the uverbs
 * async file), under eng_lock: the handlers only queue. */
void sd_qp_event(struct sd_qp *qp, enum ib_event_type type)
{
	struct ib_event ev = { .device = qp->ibqp.device, .event = type, .element.qp = &qp->ibqp };

	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

static void sd_cq_event(struct sd_cq *cq, enum ib_event_type type)
{
	struct ib_event ev = { .device = cq->ibcq.device, .event = type, .element.cq = &cq->ibcq };

	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

static void sd_srq_event(struct sd_srq *srq, enum ib_event_type type)
{
	struct ib_event ev = { .device = srq->ibsrq.device, .event = type,
			       .element.srq = &srq->ibsrq };

	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

/* The QP to ERR (by the engine or by a modify): a QP on an SRQ takes no
 * more of its WQEs, which the HCA says with "last WQE reached". */
static void sd_qp_to_err(struct sd_qp *qp)
{
	bool was = qp->state == IB_QPS_ERR;

	qp->state = IB_QPS_ERR;
	qp->stalled = false;
	if (!was && qp->ibqp.srq)
		sd_qp_event(qp, IB_EVENT_QP_LAST_WQE_REACHED);
}

static void sd_cq_fire(struct sd_cq *cq)
{
	cq->armed = false;
	if (cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

/* The CQE at the producer index: body, barrier, then op_own with the
 * owner bit of this lap. A CQ full to its consumer index overruns: unless
 * it was made to ignore that, it is in error from then on (CQ error event,
 * every later CQE dropped) and the QP whose CQE it was goes to ERR with a
 * QP fatal event. Returns false when the CQE was dropped. */
static bool sd_cq_push(struct sd_cq *cq, struct sd_qp *qp, union sd_cqe *c, u8 opcode, bool se,
		       const struct sd_scat *sc)
{
	u32 nent = cq->ibcq.cqe + 1;
	u32 ci = sd_rd32(&cq->dbrec[SD_CQ_SET_CI]) & 0xffffff;
	bool err = opcode == MLX5_CQE_REQ_ERR || opcode == MLX5_CQE_RESP_ERR;
	u8 *e;

	if (cq->cqe_size < SD_CQE64) {	/* a resize may name any size */
		pr_notice_ratelimited("mlx5_standin: CQ 0x%x has %d-byte CQEs: CQE dropped\n",
				      cq->cqn, cq->cqe_size);
		return false;
	}
	if (cq->overrun)
		return false;
	if (((cq->produced - ci) & 0xffffff) >= nent && !cq->ignore_overrun) {
		pr_notice("mlx5_standin: CQ 0x%x overrun (consumer index 0x%x, %u entries): CQ error, QP 0x%x fatal\n",
			  cq->cqn, ci, nent, qp->qpn);
		cq->overrun = true;
		sd_cq_event(cq, IB_EVENT_CQ_ERR);
		if (qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET) {
			sd_qp_to_err(qp);
			sd_qp_event(qp, IB_EVENT_QP_FATAL);
		}
		return false;
	}
	e = cq->buf + (size_t)(cq->produced & (nent - 1)) * cq->cqe_size + cq->cqe_size - SD_CQE64;
	c->b[SD_CQE64 - 1] = opcode << 4 | (se ? 2 : 0) | !!(cq->produced & nent);
	if (sc && sc->form == 32) {
		memcpy(c->b, sc->b, 32);
		c->b[SD_CQE64 - 1] |= SD_CQE_SCATTER_32;
	} else if (sc && sc->form == 64) {
		memcpy(e - SD_CQE64, sc->b, 64);
		c->b[SD_CQE64 - 1] |= SD_CQE_SCATTER_64;
	}
	memcpy(e, c->b, SD_CQE64 - 1);
	wmb();			/* the CQE's body before its ownership */
	WRITE_ONCE(e[SD_CQE64 - 1], c->b[SD_CQE64 - 1]);
	sd_rec_cqe(cq, cq->produced, c->b);
	cq->produced++;
	if (cq->armed && (!cq->arm_solicited || se || err))
		sd_cq_fire(cq);
	return true;
}

static __be32 sd_srqn_uidx(struct sd_qp *qp)
{
	if (qp->cqe_v1)
		return cpu_to_be32(qp->uidx);
	return cpu_to_be32(qp->ibqp.srq ? to_sdsrq(qp->ibqp.srq)->srqn : 0);
}

static void sd_cqe_req(struct sd_qp *qp, u8 wqe_op, u16 idx, u32 bytes, const struct sd_scat *sc)
{
	union sd_cqe c = {};

	c.ok.srqn = sd_srqn_uidx(qp);
	c.ok.byte_cnt = cpu_to_be32(bytes);
	c.ok.sop_drop_qpn = cpu_to_be32((u32)wqe_op << 24 | qp->qpn);
	c.ok.wqe_counter = cpu_to_be16(idx);
	sd_cq_push(to_sdcq(qp->ibqp.send_cq), qp, &c, MLX5_CQE_REQ, false, sc);
}

static void sd_cqe_resp(struct sd_qp *qp, u8 cqe_op, u16 ctr, u32 bytes, __be32 imm,
			u32 src_qpn, bool se, const struct sd_scat *sc)
{
	union sd_cqe c = {};

	c.ok.srqn = sd_srqn_uidx(qp);
	c.ok.immediate = imm;
	c.ok.byte_cnt = cpu_to_be32(bytes);
	c.ok.flags_rqpn = cpu_to_be32(src_qpn);
	c.ok.sop_drop_qpn = cpu_to_be32(qp->qpn);
	c.ok.wqe_counter = cpu_to_be16(ctr);
	sd_cq_push(to_sdcq(qp->ibqp.recv_cq), qp, &c, cqe_op, se, sc);
}

/*
 * The vendor syndrome a ConnectX writes beside the syndrome of an error CQE
 * (byte 54, which libmlx5 hands on as ibv_wc.vendor_err). The public PRM
 * does not list them; these are the values ConnectX-4 to -7 give in public
 * reports (libmlx5's "got completion with error" dumps, UCX's "synd 0x..
 * vend 0x.." lines, mlx5_ib's "vendor syndrome" log): local protection
 * 0x51 at the requester and 0x52 at the responder (a receive WQE), flushed
 * 0xf9 on both, remote access 0x88, remote invalid request 0x8a, remote
 * operation 0x89, transport retry exceeded 0x81. No report was found of
 * the others (local length, local QP operation, RNR retry exceeded): 0.
 */
static u8 sd_vendor_synd(bool req, u8 syndrome)
{
	switch (syndrome) {
	case MLX5_CQE_SYNDROME_LOCAL_PROT_ERR:
		return req ? 0x51 : 0x52;
	case MLX5_CQE_SYNDROME_WR_FLUSH_ERR:
		return 0xf9;
	case MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR:
		return 0x88;
	case MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR:
		return 0x8a;
	case MLX5_CQE_SYNDROME_REMOTE_OP_ERR:
		return 0x89;
	case MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR:
		return 0x81;
	default:
		return 0;
	}
}

static void sd_cqe_err(struct sd_qp *qp, bool req, u8 wqe_op, u16 ctr, u8 syndrome)
{
	union sd_cqe c = {};

	c.err.srqn = sd_srqn_uidx(qp);
	c.err.syndrome = syndrome;
	c.err.vendor_err_synd = sd_vendor_synd(req, syndrome);
	c.err.s_wqe_opcode_qpn = cpu_to_be32((req ? (u32)wqe_op << 24 : 0) | qp->qpn);
	c.err.wqe_counter = cpu_to_be16(ctr);
	sd_cq_push(to_sdcq(req ? qp->ibqp.send_cq : qp->ibqp.recv_cq), qp, &c,
		   req ? MLX5_CQE_REQ_ERR : MLX5_CQE_RESP_ERR, false, NULL);
}


/* ---- memory keys ------------------------------------------------------------ */

/*
 * The kernel address of [addr, addr + len) in the MR that key names, in pd,
 * with the access need; NULL and *why when it is not allowed. A zero
 * length needs no key.
 */
static u8 *sd_key_range(struct sd_dev *dev, struct ib_pd *pd, u32 key, u64 addr, u64 len,
			int need, const char **why)
{
	struct sd_mr *mr;

	if (!len)
		return (u8 *)ZERO_SIZE_PTR;
	mr = xa_load(&dev->mrs, key >> 8);
	if (!mr || mr->ibmr.lkey != key) {
		*why = "no MR has this key";
		return NULL;
	}
	if (mr->pd != pd) {
		*why = "the MR is of another PD";
		return NULL;
	}
	if (addr < mr->iova || len > mr->length || addr - mr->iova > mr->length - len) {
		*why = "the range is outside the MR";
		return NULL;
	}
	if ((mr->access & need) != need) {
		*why = "the MR lacks the access";
		return NULL;
	}
	return mr->kva + (addr - mr->iova);
}

static void sd_copy(const struct sd_eng_sge *dst, const struct sd_eng_sge *src, u64 len)
{
	u32 doff = 0, soff = 0, n;

	while (len) {
		while (doff == dst->len) {
			dst++;
			doff = 0;
		}
		while (soff == src->len) {
			src++;
			soff = 0;
		}
		n = min3((u64)(dst->len - doff), (u64)(src->len - soff), len);
		memcpy(dst->kva + doff, src->kva + soff, n);
		doff += n;
		soff += n;
		len -= n;
	}
}

/* ---- send queue ---------------------------------------------------------------- */

/* Blocks [start, start + n) of the send ring into dst, wrapping. */
static void sd_sq_read(struct sd_qp *qp, u16 start, u8 *dst, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		memcpy(dst + i * SD_BB, qp->sq + (size_t)((u16)(start + i) & (qp->sq_wqe_cnt - 1)) * SD_BB,
		       SD_BB);
}

struct sd_wqe {
	u16 idx;
	u8 opcode;
	u8 fm_ce_se;
	unsigned int ds, nbb;
	__be32 imm;
	u64 raddr;
	u32 rkey;
	u64 swap_add, compare;	/* an atomic's operands */
	int nsge;
	u64 len;
};

enum sd_step { SD_DONE, SD_STALL };

#define sd_wqe_log(qp, w, fmt, ...)						\
	pr_notice_ratelimited("mlx5_standin: QP 0x%x send WQE 0x%04x (opcode 0x%02x): " fmt "\n", \
			      (qp)->qpn, (w)->idx, (w)->opcode, ##__VA_ARGS__)

/* The requester's own error: its CQE, the QP to ERR. */
static enum sd_step sd_req_fail(struct sd_qp *qp, struct sd_wqe *w, u8 syndrome)
{
	sd_cqe_err(qp, true, w->opcode, w->idx, syndrome);
	sd_qp_to_err(qp);
	qp->sq_cons += w->nbb;
	return SD_DONE;
}

static void sd_req_done_scat(struct sd_qp *qp, struct sd_wqe *w, u32 bytes,
			     const struct sd_scat *sc)
{
	if (w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE)
		sd_cqe_req(qp, w->opcode, w->idx, bytes, sc);
	qp->stalled = false;
	qp->sq_cons += w->nbb;
}

static void sd_req_done(struct sd_qp *qp, struct sd_wqe *w, u32 bytes)
{
	sd_req_done_scat(qp, w, bytes, NULL);
}

/*
 * A READ's or atomic's response in the requester's CQE (cs_req): only for
 * a signalled WQE, which alone gets a CQE to carry it (an unsignalled one
 * writes its data segments; see the header).
 */
static u8 sd_scat_req(struct sd_scat *sc, struct sd_qp *qp, struct sd_wqe *w, u64 len)
{
	sc->form = 0;
	if (!(w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE))
		return 0;
	return sd_scat_form(sc, qp->scat_req, to_sdcq(qp->ibqp.send_cq), len);
}

/*
 * The data segments from off to the WQE's end into dev->gather: inline
 * data, or data segments whose keys are checked with the access need.
 * Returns 0, 1 for a malformed WQE (logged), 2 for a key refused (logged).
 */
static int sd_gather(struct sd_dev *dev, struct sd_qp *qp, struct sd_wqe *w, unsigned int off,
		     int need)
{
	unsigned int end = w->ds * SD_SEG;
	const char *why = NULL;
	u8 *p = dev->wqe;

	w->nsge = 0;
	w->len = 0;
	while (off < end) {
		u32 bc = be32_to_cpu(*(__be32 *)(p + off));
		struct sd_eng_sge *s = &dev->gather[w->nsge];

		if (w->nsge == SD_ENG_MAX_SGE) {
			sd_wqe_log(qp, w, "more than %d data segments", SD_ENG_MAX_SGE);
			return 1;
		}
		if (bc & MLX5_INLINE_SEG) {
			u32 len = bc & ~MLX5_INLINE_SEG;

			if (need) {
				sd_wqe_log(qp, w, "inline data in a WQE that writes locally");
				return 1;
			}
			if (len > end - off - 4) {
				sd_wqe_log(qp, w, "inline byte count %u past ds %u", len, w->ds);
				return 1;
			}
			s->kva = p + off + 4;
			s->len = len;
			off += ALIGN(4 + len, SD_SEG);
		} else {
			struct mlx5_wqe_data_seg *d = (void *)(p + off);
			u32 lkey = be32_to_cpu(d->lkey);
			u64 addr = be64_to_cpu(d->addr);

			if (end - off < SD_SEG) {
				sd_wqe_log(qp, w, "data segment past ds %u", w->ds);
				return 1;
			}
			s->len = bc;
			s->kva = sd_key_range(dev, qp->ibqp.pd, lkey, addr, bc, need, &why);
			if (!s->kva) {
				sd_wqe_log(qp, w, "data segment %d: lkey 0x%x addr 0x%llx length %u: %s",
					   w->nsge, lkey, addr, bc, why);
				return 2;
			}
			off += SD_SEG;
		}
		w->len += s->len;
		if (s->len)
			w->nsge++;
	}
	return 0;
}

/* ---- the responder ------------------------------------------------------------ */

/* IBA's RNR timer encodings, in microseconds (0 is the longest). */
static const u32 sd_rnr_us[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
	2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920, 122880,
	163840, 245760, 327680, 491520,
};

/* The QP the path names: dest_qp_num on the device that holds the
 * destination GID (this one or another of the module: RoCE routes by GID). */
static struct sd_qp *sd_peer(struct sd_qp *qp)
{
	struct sd_qp *d = qp->dest_dev ? xa_load(&qp->dest_dev->qps, qp->attr.dest_qp_num) : NULL;

	if (!d || d->ibqp.qp_type != qp->ibqp.qp_type)
		return NULL;
	if (d->state != IB_QPS_RTR && d->state != IB_QPS_RTS && d->state != IB_QPS_SQD &&
	    d->state != IB_QPS_SQE)
		return NULL;
	return d;
}

/* A receive WQE of the peer, found and checked but not yet taken. */
struct sd_rwqe {
	u8 *wqe;		/* its first byte in the ring */
	u16 ctr;		/* the CQE's wqe_counter */
	int nsge;
	u64 room;
	bool bad;		/* a scatter entry refused */
};

/* Its next receive WQE into dev->scatter; false when none is posted. */
static bool sd_recv_peek(struct sd_dev *dev, struct sd_qp *d, struct sd_rwqe *r)
{
	unsigned int i, nseg;
	const char *why = NULL;
	u8 *segs;

	if (d->ibqp.srq) {
		struct sd_srq *srq = to_sdsrq(d->ibqp.srq);

		if ((sd_rd32(srq->dbrec) & 0xffff) == srq->hw_cons)
			return false;
		rmb();		/* the WQE after its record */
		r->ctr = srq->hw_head & (srq->max - 1);
		r->wqe = srq->buf + ((size_t)r->ctr << srq->wqe_shift);
		segs = r->wqe + sizeof(struct mlx5_wqe_srq_next_seg);
		nseg = ((1u << srq->wqe_shift) - sizeof(struct mlx5_wqe_srq_next_seg)) / SD_SEG;
	} else {
		if (!d->has_rq || !d->rq || !d->rq_wqe_cnt ||
		    (sd_rd32(&d->dbrec[MLX5_RCV_DBR]) & 0xffff) == d->rq_cons)
			return false;
		rmb();
		r->ctr = d->rq_cons;
		r->wqe = d->rq + ((size_t)(d->rq_cons & (d->rq_wqe_cnt - 1)) << d->rq_wqe_shift);
		segs = r->wqe;
		nseg = (1u << d->rq_wqe_shift) / SD_SEG;
		if (d->flags_en & MLX5_QP_FLAG_SIGNATURE) {	/* a signature segment first */
			segs += SD_SEG;
			nseg--;
		}
	}
	r->nsge = 0;
	r->room = 0;
	r->bad = false;
	nseg = min_t(unsigned int, nseg, SD_ENG_MAX_SGE);	/* the library's shift may be larger */
	for (i = 0; i < nseg; i++) {
		struct mlx5_wqe_data_seg *s = (void *)(segs + i * SD_SEG);
		u32 lkey = be32_to_cpu(s->lkey), len = be32_to_cpu(s->byte_count);
		u64 addr = be64_to_cpu(s->addr);
		struct sd_eng_sge *g = &dev->scatter[r->nsge];

		if (lkey == SD_INVALID_LKEY)
			break;
		if (!len)
			continue;
		g->kva = sd_key_range(to_sddev(d->ibqp.device), d->ibqp.pd, lkey, addr, len,
				      IB_ACCESS_LOCAL_WRITE, &why);
		if (!g->kva) {
			pr_notice_ratelimited("mlx5_standin: QP 0x%x receive WQE 0x%04x: scatter entry %u: lkey 0x%x addr 0x%llx length %u: %s\n",
					      d->qpn, r->ctr, i, lkey, addr, len, why);
			r->bad = true;
			return true;
		}
		g->len = len;
		r->room += len;
		r->nsge++;
	}
	return true;
}

static void sd_recv_take(struct sd_qp *d, struct sd_rwqe *r)
{
	if (d->ibqp.srq) {
		struct sd_srq *srq = to_sdsrq(d->ibqp.srq);
		struct mlx5_wqe_srq_next_seg *next = (void *)r->wqe;

		srq->hw_head = be16_to_cpu(READ_ONCE(next->next_wqe_index));
		srq->hw_cons++;
		/* armed: fewer WQEs left than the limit, one event, disarmed */
		if (srq->limit && (u16)(sd_rd32(srq->dbrec) - srq->hw_cons) < srq->limit) {
			srq->limit = 0;
			sd_srq_event(srq, IB_EVENT_SRQ_LIMIT_REACHED);
		}
	} else {
		d->rq_cons++;
	}
}

/* The responder's error on a receive WQE: its CQE, the QP to ERR. */
static void sd_resp_fail(struct sd_qp *d, struct sd_rwqe *r, u8 syndrome)
{
	sd_recv_take(d, r);
	sd_cqe_err(d, false, 0, r->ctr, syndrome);
	sd_qp_to_err(d);
}

/*
 * An RDMA or atomic request the RC responder refuses, which takes no
 * receive WQE and so gives no CQE there: IBA's responder class C errors
 * NAK it and put the responder QP in the error state with an affiliated
 * asynchronous error. A ConnectX raises WQ_ACCESS_ERROR for an R_Key,
 * bounds or rights violation and WQ_INVAL_REQ_ERROR for an invalid request
 * (a misaligned atomic), which mlx5_ib's mlx5_ib_qp_event reports as
 * IB_EVENT_QP_ACCESS_ERR and IB_EVENT_QP_REQ_ERR.
 */
static void sd_resp_refuse(struct sd_qp *d, enum ib_event_type ev)
{
	if (d->state == IB_QPS_ERR)
		return;
	sd_qp_to_err(d);
	sd_qp_event(d, ev);
}

/* The requester waits: for a receive WQE (rnr) or for its peer. */
static enum sd_step sd_stall(struct sd_qp *qp, struct sd_wqe *w, bool rnr, u8 min_rnr_timer)
{
	u64 us;

	if (!qp->stalled) {
		qp->stalled = true;
		qp->stall_start = jiffies;
	}
	if (rnr) {
		if (qp->attr.rnr_retry == SD_RNR_FOREVER)
			return SD_STALL;
		us = (u64)(qp->attr.rnr_retry + 1) * sd_rnr_us[min_rnr_timer & 31];
	} else {
		if (!qp->attr.timeout)
			return SD_STALL;
		us = div_u64(4096ULL << min_t(u8, qp->attr.timeout, 31), 1000) * (qp->attr.retry_cnt + 1);
	}
	if (time_before(jiffies, qp->stall_start + usecs_to_jiffies(us) + 1))
		return SD_STALL;
	if (rnr)
		sd_wqe_log(qp, w, "RNR retries exceeded (rnr_retry %u)", qp->attr.rnr_retry);
	else
		sd_wqe_log(qp, w, "transport retries exceeded: peer QP 0x%x absent or not ready",
			   qp->attr.dest_qp_num);
	return sd_req_fail(qp, w, rnr ? MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR :
				  MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
}

/* SEND_INV at the responder d: the window key names, of type 2, bound to
 * d and of its PD, becomes free (IBA's invalidation of a type 2B window);
 * false (logged) when there is no such window. */
static bool sd_mw_invalidate(struct sd_qp *d, u32 key)
{
	struct sd_mw *mw = xa_load(&to_sddev(d->ibqp.device)->mws, key >> 8);

	if (!mw || !mw->bound || mw->key != key || mw->ibmw.type != IB_MW_TYPE_2 ||
	    mw->qpn != d->qpn || mw->ibmw.pd != d->ibqp.pd) {
		pr_notice_ratelimited("mlx5_standin: QP 0x%x: SEND with invalidate of key 0x%x: no type 2 window bound to the QP has it\n",
				      d->qpn, key);
		return false;
	}
	mw->bound = false;
	return true;
}

/* SEND, SEND_IMM, SEND_INVAL, RDMA_WRITE_IMM: a message that takes a
 * receive WQE. */
static enum sd_step sd_deliver(struct sd_dev *dev, struct sd_qp *qp, struct sd_wqe *w,
			       struct sd_qp *d, const struct sd_eng_sge *wdst)
{
	bool uc = qp->ibqp.qp_type == IB_QPT_UC;
	bool write = w->opcode == MLX5_OPCODE_RDMA_WRITE_IMM;
	struct sd_scat sc;
	struct sd_rwqe r;
	u8 cqe_op;

	if (!sd_recv_peek(dev, d, &r)) {
		if (uc) {		/* UC: the message is dropped */
			sd_req_done(qp, w, w->len);
			return SD_DONE;
		}
		return sd_stall(qp, w, true, d->attr.min_rnr_timer);
	}
	if (r.bad && !write) {
		sd_resp_fail(d, &r, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
		if (uc) {
			sd_req_done(qp, w, w->len);
			return SD_DONE;
		}
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
	}
	if (!write && w->len > r.room) {
		pr_notice_ratelimited("mlx5_standin: QP 0x%x receive WQE 0x%04x: %llu bytes arrived for %llu\n",
				      d->qpn, r.ctr, w->len, r.room);
		sd_resp_fail(d, &r, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
		if (uc) {
			sd_req_done(qp, w, w->len);
			return SD_DONE;
		}
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	}
	/* an invalid key to invalidate: the request is invalid (the emulator's
	 * reading of IBA; not compared with a ConnectX) */
	if (w->opcode == MLX5_OPCODE_SEND_INVAL && !sd_mw_invalidate(d, be32_to_cpu(w->imm))) {
		sd_resp_refuse(d, IB_EVENT_QP_REQ_ERR);
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	}
	/* a WRITE_IMM's data is at its remote address: none to scatter */
	if (write) {
		sc.form = 0;
		sd_copy(wdst, dev->gather, w->len);
	} else if (sd_scat_form(&sc, d->scat_res, to_sdcq(d->ibqp.recv_cq), w->len)) {
		struct sd_eng_sge to = { .kva = sc.b, .len = w->len };

		sd_copy(&to, dev->gather, w->len);
	} else {
		sd_copy(dev->scatter, dev->gather, w->len);
	}
	sd_recv_take(d, &r);
	switch (w->opcode) {
	case MLX5_OPCODE_SEND_IMM:
		cqe_op = MLX5_CQE_RESP_SEND_IMM;
		break;
	case MLX5_OPCODE_SEND_INVAL:	/* the CQE's immediate: the key invalidated */
		cqe_op = MLX5_CQE_RESP_SEND_INV;
		break;
	case MLX5_OPCODE_RDMA_WRITE_IMM:
		cqe_op = MLX5_CQE_RESP_WR_IMM;
		break;
	default:
		cqe_op = MLX5_CQE_RESP_SEND;
		break;
	}
	sd_cqe_resp(d, cqe_op, r.ctr, w->len, w->opcode == MLX5_OPCODE_SEND ? 0 : w->imm, qp->qpn,
		    w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED, &sc);
	sd_req_done(qp, w, w->len);
	return SD_DONE;
}

/*
 * [addr, addr + len) through the memory window that key names at the
 * responder d, with the access need: the window bound with this key, to d
 * when it is of type 2 (IBA's type 2B), of d's PD, covering the range,
 * granting the access; the MR under it is checked again (it may be gone).
 * NULL and *why otherwise; NULL with *why untouched when no window has the
 * key's index.
 */
static u8 *sd_mw_range(struct sd_dev *dev, struct sd_qp *d, u32 key, u64 addr, u64 len, int need,
		       const char **why)
{
	struct sd_mw *mw = xa_load(&dev->mws, key >> 8);

	if (!mw)
		return NULL;
	if (!mw->bound || mw->key != key)
		*why = "the memory window is not bound with this key";
	else if (mw->ibmw.type == IB_MW_TYPE_2 && mw->qpn != d->qpn)
		*why = "the memory window is bound to another QP";
	else if (mw->ibmw.pd != d->ibqp.pd)
		*why = "the memory window is of another PD";
	else if (addr < mw->addr || len > mw->length || addr - mw->addr > mw->length - len)
		*why = "the range is outside the memory window";
	else if ((mw->access & need) != need)
		*why = "the memory window lacks the access";
	else
		return sd_key_range(dev, d->ibqp.pd, mw->mr_key, addr, len, 0, why);
	return NULL;
}

/* The remote range of an RDMA WQE at the peer, or NULL (logged). */
static u8 *sd_remote(struct sd_dev *dev, struct sd_qp *qp, struct sd_wqe *w, struct sd_qp *d,
		     int need)
{
	const char *why = "the peer QP's access flags lack it";
	u8 *kva = NULL;

	if ((d->hw_access & need) == need) {
		kva = sd_key_range(to_sddev(d->ibqp.device), d->ibqp.pd, w->rkey, w->raddr, w->len,
				   need, &why);
		if (!kva && w->len)
			kva = sd_mw_range(to_sddev(d->ibqp.device), d, w->rkey, w->raddr, w->len,
					  need, &why);
	}
	if (!kva)
		sd_wqe_log(qp, w, "rkey 0x%x addr 0x%llx length %llu at QP 0x%x: %s", w->rkey,
			   w->raddr, w->len, d->qpn, why);
	return kva;
}

/*
 * ATOMIC_CS, ATOMIC_FA: 8 bytes at the peer, 8-byte aligned, in an MR with
 * remote atomic access (and the peer QP's rights); compare-and-swap or
 * fetch-and-add on the value in host byte order (the mode mlx5_ib sets the
 * HCA to before it advertises IB_ATOMIC_HCA); the former value goes to the
 * requester's data segments (8 bytes in all). Requests of one device are
 * carried one at a time by the engine: each is atomic against the others.
 */
static enum sd_step sd_atomic(struct sd_dev *dev, struct sd_qp *qp, struct sd_wqe *w,
			      struct sd_qp *d)
{
	struct sd_eng_sge old = { .len = 8 };
	u64 len = w->len, v, nv;
	struct sd_scat sc;
	u8 *p;

	if (len != 8) {
		sd_wqe_log(qp, w, "atomic response of %llu bytes, not 8", len);
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
	}
	if (w->raddr & 7) {
		sd_wqe_log(qp, w, "atomic at 0x%llx: not 8-byte aligned", w->raddr);
		sd_resp_refuse(d, IB_EVENT_QP_REQ_ERR);
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
	}
	p = sd_remote(dev, qp, w, d, IB_ACCESS_REMOTE_ATOMIC);
	if (!p) {
		sd_resp_refuse(d, IB_EVENT_QP_ACCESS_ERR);
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	}
	memcpy(&v, p, 8);	/* the MR's pages need not share the iova's alignment */
	if (w->opcode == MLX5_OPCODE_ATOMIC_CS)
		nv = v == w->compare ? w->swap_add : v;
	else
		nv = v + w->swap_add;
	memcpy(p, &nv, 8);
	old.kva = (u8 *)&v;
	if (sd_scat_req(&sc, qp, w, 8))	/* the former value in the CQE */
		memcpy(sc.b, &v, 8);
	else
		sd_copy(dev->gather, &old, 8);
	sd_req_done_scat(qp, w, 8, &sc);
	return SD_DONE;
}

/*
 * UD SEND, SEND_IMM: the address vector's QPN and Q_Key pick the receiver
 * (a Q_Key with its top bit set means the sender's own); a message it
 * cannot take is dropped and the send completes. The receiver's buffer
 * gets the 40-byte GRH first (IB format: the sender's GID at the vector's
 * GID index, the vector's destination GID), its CQE the GRH flag.
 */
static enum sd_step sd_deliver_ud(struct sd_dev *dev, struct sd_qp *qp, struct sd_wqe *w,
				  const struct mlx5_av *av)
{
	u32 dqpn = be32_to_cpu(av->dqp_dct) & 0xffffff;
	u32 qkey = be32_to_cpu(av->key.qkey.qkey);
	u32 gidx = (be32_to_cpu(av->grh_gid_fl) >> 20) & 0xff;
	struct sd_dev *ddev = sd_route_gid(av->rgid);
	struct sd_qp *d = ddev ? xa_load(&ddev->qps, dqpn) : NULL;
	const char *drop = NULL;
	union ib_gid sgid = {};
	struct sd_rwqe r;
	u8 *grh = dev->grh;

	if (qkey & 0x80000000)
		qkey = qp->attr.qkey;
	if (!d || d->ibqp.qp_type != IB_QPT_UD ||
	    (d->state != IB_QPS_RTR && d->state != IB_QPS_RTS))
		drop = "no UD QP ready there";
	else if (d->attr.qkey != qkey)
		drop = "Q_Key mismatch";
	else if (!sd_recv_peek(dev, d, &r))
		drop = "no receive WQE";
	if (drop) {
		pr_notice_ratelimited("mlx5_standin: QP 0x%x UD send WQE 0x%04x to QP 0x%x dropped: %s\n",
				      qp->qpn, w->idx, dqpn, drop);
		sd_req_done(qp, w, w->len);
		return SD_DONE;
	}
	if (r.bad) {
		sd_resp_fail(d, &r, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
		sd_req_done(qp, w, w->len);
		return SD_DONE;
	}
	if (w->len + SD_GRH > r.room) {
		pr_notice_ratelimited("mlx5_standin: QP 0x%x receive WQE 0x%04x: %llu bytes and the GRH arrived for %llu\n",
				      d->qpn, r.ctr, w->len, r.room);
		sd_resp_fail(d, &r, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
		sd_req_done(qp, w, w->len);
		return SD_DONE;
	}
	rdma_query_gid(&dev->ibdev, 1, gidx, &sgid);
	memset(grh, 0, SD_GRH);
	*(__be32 *)grh = cpu_to_be32(6u << 28 | (u32)av->tclass << 20 |
				     (be32_to_cpu(av->grh_gid_fl) & 0xfffff));
	*(__be16 *)(grh + 4) = cpu_to_be16((u16)w->len);
	grh[6] = 0x1b;		/* next header: the IBA transport */
	grh[7] = av->hop_limit;
	memcpy(grh + 8, sgid.raw, 16);
	memcpy(grh + 24, av->rgid, 16);
	/* the GRH as the message's first piece */
	memmove(&dev->gather[1], &dev->gather[0], w->nsge * sizeof(dev->gather[0]));
	dev->gather[0].kva = grh;
	dev->gather[0].len = SD_GRH;
	sd_copy(dev->scatter, dev->gather, w->len + SD_GRH);
	sd_recv_take(d, &r);
	sd_cqe_resp(d, w->opcode == MLX5_OPCODE_SEND_IMM ? MLX5_CQE_RESP_SEND_IMM : MLX5_CQE_RESP_SEND,
		    r.ctr, w->len + SD_GRH, w->opcode == MLX5_OPCODE_SEND ? 0 : w->imm,
		    qp->qpn | SD_CQE_GRH, w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED, NULL);
	sd_req_done(qp, w, w->len);
	return SD_DONE;
}

/*
 * UMR (0x25) as libmlx5 writes it to bind or invalidate a memory window
 * (qp.c set_bind_wr, for IBV_WR_BIND_MW and IBV_WR_LOCAL_INV): the control
 * segment's immediate is the window's key in force; then a UMR control
 * segment (48 bytes: flags, KLM octowords, mkey mask), an mkey context (64:
 * the free bit, access flags, QPN << 8 | the new key's tag, start address,
 * length) and, for a bind, one KLM (byte count, the MR's lkey, address) in
 * a 64-byte block. A bind needs a window of the QP's PD, free when it is of
 * type 2 (and then bound to this QP), its range inside an MR of that PD
 * that allows MW_BIND, and local write when it grants remote write or
 * atomic (IBA's bind rules). An invalidation needs a window bound to this
 * QP. A refused one is "memory window bind error" (0x06), the QP to ERR,
 * and a log line.
 */
static enum sd_step sd_umr(struct sd_dev *dev, struct sd_qp *qp, struct sd_wqe *w,
			   unsigned int off)
{
	struct mlx5_wqe_umr_ctrl_seg *uc = (void *)(dev->wqe + off);
	struct mlx5_mkey_seg *mk = (void *)(dev->wqe + off + sizeof(*uc));
	struct mlx5_klm *klm = (void *)(dev->wqe + off + sizeof(*uc) + sizeof(*mk));
	u32 key = be32_to_cpu(w->imm), qm = be32_to_cpu(mk->qpn_mkey7_0);
	bool bind = !(mk->status & MLX5_MKEY_STATUS_FREE);
	unsigned int room = off + sizeof(*uc) + sizeof(*mk) + (bind ? 64 : 0);
	struct sd_mw *mw = xa_load(&dev->mws, key >> 8);
	const char *why = NULL;

	if (w->ds * SD_SEG < room) {
		sd_wqe_log(qp, w, "ds %u leaves no room for the UMR segments (%u bytes)", w->ds, room);
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	}
	if (!mw || mw->key != key) {
		why = "no memory window has this key";
	} else if (mw->ibmw.pd != qp->ibqp.pd) {
		why = "the window is of another PD";
	} else if (!bind) {
		if (!mw->bound || (mw->ibmw.type == IB_MW_TYPE_2 && mw->qpn != qp->qpn))
			why = "the window is not bound to this QP";
	} else {
		u64 addr = be64_to_cpu(klm->va), len = be32_to_cpu(klm->bcount);
		u32 mr_key = be32_to_cpu(klm->key);
		int access = (mk->flags & MLX5_PERM_REMOTE_READ ? IB_ACCESS_REMOTE_READ : 0) |
			     (mk->flags & MLX5_PERM_REMOTE_WRITE ? IB_ACCESS_REMOTE_WRITE : 0) |
			     (mk->flags & MLX5_PERM_ATOMIC ? IB_ACCESS_REMOTE_ATOMIC : 0);
		int mr_need = IB_ACCESS_MW_BIND |
			      (access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC) ?
			       IB_ACCESS_LOCAL_WRITE : 0);

		if (mw->ibmw.type == IB_MW_TYPE_2 && mw->bound)
			why = "the window is bound (a type 2 window must be free)";
		else if (mw->ibmw.type == IB_MW_TYPE_2 && qm >> 8 != qp->qpn)
			why = "the mkey context's QPN is not the QP's";
		else if (!len || be64_to_cpu(mk->start_addr) != addr || be64_to_cpu(mk->len) != len)
			why = "a zero-based window, or one unlike its KLM (not carried here)";
		else if (sd_key_range(dev, qp->ibqp.pd, mr_key, addr, len, mr_need, &why)) {
			mw->key = (key & ~0xffu) | (qm & 0xff);	/* the new tag */
			mw->qpn = qp->qpn;
			mw->mr_key = mr_key;
			mw->addr = addr;
			mw->length = len;
			mw->access = access;
		}
	}
	if (why) {
		sd_wqe_log(qp, w, "memory window key 0x%x: %s", key, why);
		return sd_req_fail(qp, w, MLX5_CQE_SYNDROME_MW_BIND_ERR);
	}
	mw->bound = bind;
	sd_req_done(qp, w, 0);
	return SD_DONE;
}

/* One WQE at sq_cons: SD_DONE when it is finished (done or failed; the
 * counter moved past it), SD_STALL when it must wait. */
static enum sd_step sd_sq_one(struct sd_dev *dev, struct sd_qp *qp)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)dev->wqe;
	bool uc = qp->ibqp.qp_type == IB_QPT_UC;
	struct sd_wqe w = { .idx = qp->sq_cons, .nbb = 1 };
	bool ud = qp->ibqp.qp_type == IB_QPT_UD;
	unsigned int data = sizeof(*ctrl);
	struct mlx5_av *av = NULL;
	struct sd_eng_sge remote;
	struct sd_scat sc;
	u32 v, qpn;
	struct sd_qp *d;
	int need = 0, err;

	sd_sq_read(qp, w.idx, dev->wqe, 1);
	v = be32_to_cpu(ctrl->opmod_idx_opcode);
	w.opcode = v & MLX5_WQE_CTRL_OPCODE_MASK;
	w.ds = be32_to_cpu(ctrl->qpn_ds) & MLX5_WQE_CTRL_DS_MASK;
	qpn = be32_to_cpu(ctrl->qpn_ds) >> MLX5_WQE_CTRL_QPN_SHIFT;
	w.fm_ce_se = ctrl->fm_ce_se;
	w.imm = ctrl->imm;
	if (w.ds && DIV_ROUND_UP(w.ds * SD_SEG, SD_BB) <= qp->sq_wqe_cnt)
		w.nbb = DIV_ROUND_UP(w.ds * SD_SEG, SD_BB);
	if (w.nbb > 1)
		sd_sq_read(qp, w.idx + 1, dev->wqe + SD_BB, w.nbb - 1);
	if (!qp->stalled)	/* once: a waiting WQE is read again at each pass */
		sd_rec_wqe(qp, w.idx, dev->wqe, w.ds, w.nbb);
	if (((v >> MLX5_WQE_CTRL_WQE_INDEX_SHIFT) & 0xffff) != w.idx) {
		sd_wqe_log(qp, &w, "index field 0x%04x, expected 0x%04x",
			   (v >> MLX5_WQE_CTRL_WQE_INDEX_SHIFT) & 0xffff, w.idx);
		return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	}
	if (qpn != qp->qpn) {
		sd_wqe_log(qp, &w, "QPN field 0x%x", qpn);
		return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	}
	if (!w.ds || DIV_ROUND_UP(w.ds * SD_SEG, SD_BB) > qp->sq_wqe_cnt) {
		sd_wqe_log(qp, &w, "ds %u for a ring of %u basic blocks", w.ds, qp->sq_wqe_cnt);
		return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
	}

	switch (w.opcode) {
	case MLX5_OPCODE_NOP:
		sd_req_done(qp, &w, 0);
		return SD_DONE;
	case MLX5_OPCODE_UMR:
		if (ud)
			goto bad_opcode;
		return sd_umr(dev, qp, &w, data);
	case MLX5_OPCODE_SEND_INVAL:
		if (qp->ibqp.qp_type != IB_QPT_RC)
			goto bad_opcode;
		break;
	case MLX5_OPCODE_SEND:
	case MLX5_OPCODE_SEND_IMM:
		if (!ud)
			break;
		av = (void *)(dev->wqe + data);
		if (w.ds * SD_SEG < data + sizeof(*av)) {
			sd_wqe_log(qp, &w, "ds %u leaves no room for the address vector", w.ds);
			return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		}
		data += sizeof(*av);
		break;
	case MLX5_OPCODE_ATOMIC_CS:
	case MLX5_OPCODE_ATOMIC_FA:
	case MLX5_OPCODE_RDMA_READ:
		if (uc || ud)
			goto bad_opcode;
		need = IB_ACCESS_LOCAL_WRITE;
		fallthrough;
	case MLX5_OPCODE_RDMA_WRITE:
	case MLX5_OPCODE_RDMA_WRITE_IMM: {
		struct mlx5_wqe_raddr_seg *ra = (void *)(dev->wqe + data);

		if (ud)
			goto bad_opcode;
		if (w.ds * SD_SEG < data + sizeof(*ra)) {
			sd_wqe_log(qp, &w, "ds %u leaves no room for the remote address segment", w.ds);
			return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
		}
		w.raddr = be64_to_cpu(ra->raddr);
		w.rkey = be32_to_cpu(ra->rkey);
		data += sizeof(*ra);
		if (w.opcode == MLX5_OPCODE_ATOMIC_CS || w.opcode == MLX5_OPCODE_ATOMIC_FA) {
			struct mlx5_wqe_atomic_seg *as = (void *)(dev->wqe + data);

			if (w.ds * SD_SEG < data + sizeof(*as)) {
				sd_wqe_log(qp, &w, "ds %u leaves no room for the atomic segment", w.ds);
				return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
			}
			w.swap_add = be64_to_cpu(as->swap_add);
			w.compare = be64_to_cpu(as->compare);
			data += sizeof(*as);
		}
		break;
	}
	default:
		goto bad_opcode;
	}

	err = sd_gather(dev, qp, &w, data, need);
	if (err)
		return sd_req_fail(qp, &w, err == 1 ? MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR :
					      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
	if (ud)
		return sd_deliver_ud(dev, qp, &w, av);

	d = sd_peer(qp);
	if (!d) {
		if (uc) {
			sd_req_done(qp, &w, w.len);
			return SD_DONE;
		}
		return sd_stall(qp, &w, false, 0);
	}

	switch (w.opcode) {
	case MLX5_OPCODE_SEND:
	case MLX5_OPCODE_SEND_IMM:
	case MLX5_OPCODE_SEND_INVAL:
		return sd_deliver(dev, qp, &w, d, NULL);
	case MLX5_OPCODE_RDMA_WRITE:
	case MLX5_OPCODE_RDMA_WRITE_IMM:
		remote.kva = sd_remote(dev, qp, &w, d, IB_ACCESS_REMOTE_WRITE);
		if (!remote.kva) {
			if (uc) {
				sd_req_done(qp, &w, w.len);
				return SD_DONE;
			}
			sd_resp_refuse(d, IB_EVENT_QP_ACCESS_ERR);
			return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		}
		remote.len = w.len;
		if (w.opcode == MLX5_OPCODE_RDMA_WRITE_IMM)
			return sd_deliver(dev, qp, &w, d, &remote);
		sd_copy(&remote, dev->gather, w.len);
		sd_req_done(qp, &w, w.len);
		return SD_DONE;
	case MLX5_OPCODE_ATOMIC_CS:
	case MLX5_OPCODE_ATOMIC_FA:
		return sd_atomic(dev, qp, &w, d);
	case MLX5_OPCODE_RDMA_READ:
		remote.kva = sd_remote(dev, qp, &w, d, IB_ACCESS_REMOTE_READ);
		if (!remote.kva) {
			sd_resp_refuse(d, IB_EVENT_QP_ACCESS_ERR);
			return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
		}
		remote.len = w.len;
		if (sd_scat_req(&sc, qp, &w, w.len)) {	/* the response in the CQE */
			struct sd_eng_sge to = { .kva = sc.b, .len = w.len };

			sd_copy(&to, &remote, w.len);
		} else {
			sd_copy(dev->gather, &remote, w.len);
		}
		sd_req_done_scat(qp, &w, w.len, &sc);
		return SD_DONE;
	}
bad_opcode:
	sd_wqe_log(qp, &w, "opcode not carried by a %s QP here",
		   qp->ibqp.qp_type == IB_QPT_RC ? "RC" : qp->ibqp.qp_type == IB_QPT_UC ? "UC" : "UD");
	return sd_req_fail(qp, &w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
}

static bool sd_sq_run(struct sd_dev *dev, struct sd_qp *qp)
{
	u16 prod;
	bool work = false;

	if (!qp->sq || !qp->sq_wqe_cnt)
		return false;
	prod = sd_rd32(&qp->dbrec[MLX5_SND_DBR]) & 0xffff;
	rmb();			/* the WQEs after the record */
	while (qp->sq_cons != prod && qp->state == IB_QPS_RTS) {
		if (sd_sq_one(dev, qp) == SD_STALL)
			break;
		work = true;
	}
	return work;
}

/* ERR: every WQE posted and not done completes "flushed". */
static bool sd_flush(struct sd_dev *dev, struct sd_qp *qp)
{
	struct mlx5_wqe_ctrl_seg *ctrl = (void *)dev->wqe;
	bool work = false;
	u16 prod;

	if (qp->sq && qp->sq_wqe_cnt) {
		prod = sd_rd32(&qp->dbrec[MLX5_SND_DBR]) & 0xffff;
		rmb();
		while (qp->sq_cons != prod) {
			unsigned int ds, nbb = 1;

			sd_sq_read(qp, qp->sq_cons, dev->wqe, 1);
			ds = be32_to_cpu(ctrl->qpn_ds) & MLX5_WQE_CTRL_DS_MASK;
			if (ds && DIV_ROUND_UP(ds * SD_SEG, SD_BB) <= qp->sq_wqe_cnt)
				nbb = DIV_ROUND_UP(ds * SD_SEG, SD_BB);
			sd_cqe_err(qp, true, be32_to_cpu(ctrl->opmod_idx_opcode) & 0xff, qp->sq_cons,
				   MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
			qp->sq_cons += nbb;
			work = true;
		}
	}
	if (!qp->ibqp.srq && qp->has_rq && qp->rq) {
		prod = sd_rd32(&qp->dbrec[MLX5_RCV_DBR]) & 0xffff;
		while (qp->rq_cons != prod) {
			sd_cqe_err(qp, false, 0, qp->rq_cons, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
			qp->rq_cons++;
			work = true;
		}
	}
	return work;
}

/* ---- arming -------------------------------------------------------------------- */

static void sd_cq_arm(struct sd_cq *cq, u32 req)
{
	cq->arm_req_last = req;
	cq->armed = true;
	cq->arm_solicited = req & MLX5_CQ_DB_REQ_NOT_SOL;
	/* CQEs already past the consumer index the request carries */
	if (!cq->arm_solicited && ((cq->produced - req) & 0xffffff))
		sd_cq_fire(cq);
}

static void sd_cq_poll_arm(struct sd_dev *dev, struct sd_cq *cq)
{
	u32 db;

	if (cq->uar_page) {
		u64 *slot = page_address(cq->uar_page) + MLX5_CQ_DOORBELL;

		if (READ_ONCE(*slot)) {
			u64 word = be64_to_cpu((__force __be64)xchg(slot, 0));
			struct sd_cq *t = xa_load(&dev->cqs, word & 0xffffff);
			u32 req = word >> 32;

			if (t && t->uar_page == cq->uar_page && req != t->arm_req_last)
				sd_cq_arm(t, req);
		}
	}
	db = sd_rd32(&cq->dbrec[SD_CQ_ARM_DB]);
	if (db != cq->arm_db_last) {
		cq->arm_db_last = db;
		if (db != cq->arm_req_last)
			sd_cq_arm(cq, db);
	}
}

/* ---- the thread ----------------------------------------------------------------- */

static bool sd_engine_pass(struct sd_dev *dev, bool *live)
{
	struct sd_qp *qp;
	struct sd_cq *cq;
	unsigned long i;
	bool work = false;

	*live = false;
	xa_for_each(&dev->cqs, i, cq)
		sd_cq_poll_arm(dev, cq);
	xa_for_each(&dev->qps, i, qp) {
		if (qp->state == IB_QPS_RTS) {
			*live = true;
			work |= sd_sq_run(dev, qp);
		}
		if (qp->state == IB_QPS_ERR) {
			*live = true;
			work |= sd_flush(dev, qp);
		}
	}
	return work;
}

static int sd_engine_main(void *arg)
{
	struct sd_dev *dev = arg;
	unsigned long last_work = jiffies;
	bool live, work;

	while (!kthread_should_stop()) {
		mutex_lock(dev->eng_lock);
		work = sd_engine_pass(dev, &live);
		dev->eng_live = live;
		mutex_unlock(dev->eng_lock);
		if (work)
			last_work = jiffies;
		if (!live && !work)
			wait_event_idle_timeout(dev->eng_wait,
						READ_ONCE(dev->eng_live) || kthread_should_stop(), HZ);
		else if (time_before(jiffies, last_work + HZ / 10))
			usleep_range_state(20, 60, TASK_IDLE);
		else
			usleep_range_state(500, 1000, TASK_IDLE);
	}
	return 0;
}

/* Under eng_lock: a QP's state as modify_qp sets it. */
void sd_engine_qp_state(struct sd_dev *dev, struct sd_qp *qp, enum ib_qp_state next)
{
	if (next == IB_QPS_RESET) {
		qp->sq_cons = 0;
		qp->rq_cons = 0;
		qp->stalled = false;
	}
	if (next == IB_QPS_ERR)
		sd_qp_to_err(qp);
	qp->state = next;
	if (next == IB_QPS_RTS || next == IB_QPS_ERR) {
		dev->eng_live = true;
		wake_up(&dev->eng_wait);
	}
}

int sd_engine_start(struct sd_dev *dev)
{
	struct task_struct *t;

	xa_init(&dev->qps);
	xa_init(&dev->cqs);
	xa_init(&dev->mrs);
	xa_init(&dev->mws);
	init_waitqueue_head(&dev->eng_wait);
	t = kthread_run(sd_engine_main, dev, "mlx5_standin");
	if (IS_ERR(t))
		return PTR_ERR(t);
	dev->eng_thread = t;
	return 0;
}

/* After the device is unregistered: no object is left. */
void sd_engine_stop(struct sd_dev *dev)
{
	kthread_stop(dev->eng_thread);
	xa_destroy(&dev->qps);
	xa_destroy(&dev->cqs);
	xa_destroy(&dev->mrs);
	xa_destroy(&dev->mws);
}
