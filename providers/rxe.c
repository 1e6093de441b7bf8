// SPDX-License-Identifier: MIT
/*
 * rxe's queues. Every ring is a struct dp_rxe_ring followed by its elements:
 * WQEs that this process produces (send and receive queues, SRQs), and
 * completions (struct ib_uverbs_wc) that the kernel produces into CQs. The
 * indices stay within [0, index_mask]; a ring is empty when they are equal
 * and full when the producer is one behind the consumer.
 *
 * Memory ordering, the whole contract with the kernel: a producer writes the
 * element, then stores its index with release; a consumer loads the other
 * side's index with acquire before it reads the element, and releases its
 * own index once it is done reading.
 *
 * Sends need the doorbell (dp.c rings it), receives nothing: rxe reads its
 * receive queue when a packet arrives.
 */
#include <stddef.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "dp.h"
#include "rxe-abi.h"

/* The layouts against the system's header, field by field where it has them. */
#define SAME(ours, theirs, field) (offsetof(ours, field) == offsetof(theirs, field))
_Static_assert(SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr_id) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.opcode) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.send_flags) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.ex) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.rdma.rkey) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.atomic.swap) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.atomic.rkey) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.ud.remote_qkey) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.ud.pkey_index) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, status) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, iova) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, has_rd_atomic) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, dma) &&
	       sizeof(struct dp_rxe_send_wqe) == sizeof(struct rxe_send_wqe) &&
	       SAME(struct dp_rxe_recv_wqe, struct rxe_recv_wqe, dma) &&
	       sizeof(struct dp_rxe_recv_wqe) == sizeof(struct rxe_recv_wqe) &&
	       sizeof(struct dp_rxe_dma) == sizeof(struct rxe_dma_info) &&
	       SAME(struct dp_rxe_dma, struct rxe_dma_info, num_sge),
	       "rxe's WQE layout differs from the system's header");
#ifdef UVIO_HAVE_RXE_AH_RESP
/* 5.13+ headers: the address vector and the AH number inside the UD WR. */
_Static_assert(SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.ud.ah_num) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.ud.av) &&
	       SAME(struct dp_rxe_send_wqe, struct rxe_send_wqe, wr.wr.mw.access),
	       "rxe's UD WR differs from the system's header");
#else
/* 5.10's header: the address vector after the WR, where 5.13 moved it in. */
_Static_assert(offsetof(struct dp_rxe_send_wqe, wr.wr.ud.av) ==
		       offsetof(struct rxe_send_wqe, av),
	       "rxe's address vector moved");
#endif
#ifdef UVIO_HAVE_RXE_QUEUE_BUF
_Static_assert(SAME(struct dp_rxe_ring, struct rxe_queue_buf, producer_index) &&
	       SAME(struct dp_rxe_ring, struct rxe_queue_buf, consumer_index) &&
	       SAME(struct dp_rxe_ring, struct rxe_queue_buf, data) &&
	       sizeof(struct dp_rxe_ring) == sizeof(struct rxe_queue_buf),
	       "rxe's ring header differs from the system's header");
#endif
#undef SAME
_Static_assert(sizeof(struct rxe_sge) == sizeof(struct uvio_dp_sge), "SGE layout");

/* The kernel's CQE is struct ib_uverbs_wc; older rings could be no smaller. */
#define RXE_MAX_SHIFT 16u
#define RXE_MAX_ENTRIES (1u << 20)

/* Map the ring that mi describes and check its header against the mapping. */
static int ring_map(struct uvio_dp_ring *q, struct uvio_device *dev, const struct mminfo *mi,
		    size_t min_elem)
{
	struct dp_rxe_ring *r;
	uint32_t shift, mask;
	int err;

	if (mi->size < sizeof(*r))
		return -EPROTO;
	err = uvio_dp_map(q, dev, mi->offset, mi->size);
	if (err)
		return err;
	r = q->map;
	/* Read once: the kernel never changes a live ring's geometry (a
	 * resize hands out a new mapping). */
	shift = __atomic_load_n(&r->log2_elem_size, __ATOMIC_RELAXED);
	mask = __atomic_load_n(&r->index_mask, __ATOMIC_RELAXED);
	if (shift > RXE_MAX_SHIFT || ((size_t)1 << shift) < min_elem || mask == 0 ||
	    mask >= RXE_MAX_ENTRIES || (mask & (mask + 1)) ||
	    sizeof(*r) + ((size_t)(mask + 1) << shift) > mi->size) {
		uvio_dp_unmap(q);
		return -EPROTO;
	}
	q->slots = r->data;
	q->producer = &r->producer_index;
	q->consumer = &r->consumer_index;
	q->mask = mask;
	q->entries = mask;	/* one slot always stays free */
	q->elem_size = 1u << shift;
	return 0;
}

static inline void *slot(const struct uvio_dp_ring *q, uint32_t index)
{
	return q->slots + (size_t)(index & q->mask) * q->elem_size;
}

/* Producer side: the consumer's index with acquire, so that its reads of
 * the slot we are about to reuse are finished before we write it. */
static inline __attribute__((always_inline)) void *produce_begin(struct uvio_dp_ring *q)
{
	uint32_t prod = __atomic_load_n(q->producer, __ATOMIC_RELAXED) & q->mask;
	uint32_t cons = __atomic_load_n(q->consumer, __ATOMIC_ACQUIRE) & q->mask;

	if (((prod + 1) & q->mask) == cons)
		return NULL;
	return slot(q, prod);
}

static inline __attribute__((always_inline)) void produce_commit(struct uvio_dp_ring *q)
{
	uint32_t prod = __atomic_load_n(q->producer, __ATOMIC_RELAXED);

	__atomic_store_n(q->producer, (prod + 1) & q->mask, __ATOMIC_RELEASE);
}

/* SGEs into a WQE: the same 16 bytes, field by field (cheaper than a call
 * to memcpy for the one or two a WR usually has). */
static inline void copy_sges(struct rxe_sge *to, const struct uvio_dp_sge *from, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		to[i].addr = from[i].addr;
		to[i].length = from[i].length;
		to[i].lkey = from[i].lkey;
	}
}

static int rxe_cq_map(struct uvio_dp_cq *cq, const void *resp)
{
	const struct rxe_create_cq_resp *r = resp;

	return ring_map(&cq->q.ring, cq->dev, &r->mi, sizeof(struct ib_uverbs_wc));
}

static int rxe_qp_map(struct uvio_dp_qp *qp, const void *resp)
{
	const struct rxe_create_qp_resp *r = resp;
	int err = ring_map(&qp->sq.ring, qp->dev, &r->sq_mi,
			   sizeof(struct dp_rxe_send_wqe) + sizeof(struct rxe_sge));

	/* A QP on an SRQ has no receive queue: its size reads 0. */
	if (!err && !qp->srq && r->rq_mi.size)
		err = ring_map(&qp->rq.ring, qp->dev, &r->rq_mi,
			       sizeof(struct dp_rxe_recv_wqe) + sizeof(struct rxe_sge));
	if (err)
		uvio_dp_unmap(&qp->sq.ring);
	return err;
}

static int rxe_srq_map(struct uvio_dp_srq *srq, const void *resp)
{
	const struct rxe_create_srq_resp *r = resp;

	srq->srq_num = r->srq_num;
	return ring_map(&srq->q.ring, srq->dev, &r->mi,
			sizeof(struct dp_rxe_recv_wqe) + sizeof(struct rxe_sge));
}

/* Which opcodes each QP type carries (rxe's own table says the same), a
 * bit per enum ib_uverbs_wr_opcode. */
#define OP(x) (1u << IB_UVERBS_WR_##x)
#define UD_OPS (OP(SEND) | OP(SEND_WITH_IMM))
#define UC_OPS (UD_OPS | OP(RDMA_WRITE) | OP(RDMA_WRITE_WITH_IMM))
#define RC_OPS (UC_OPS | OP(RDMA_READ) | OP(ATOMIC_CMP_AND_SWP) | OP(ATOMIC_FETCH_AND_ADD) | \
		OP(SEND_WITH_INV) | OP(LOCAL_INV) | OP(BIND_MW) | (1u << UVIO_DP_WR_ATOMIC_WRITE))
#ifdef UVIO_HAVE_WR_ATOMIC_WRITE
_Static_assert(IB_UVERBS_WR_ATOMIC_WRITE == UVIO_DP_WR_ATOMIC_WRITE, "ATOMIC_WRITE opcode");
#endif

static inline uint32_t rxe_opcodes(uint32_t type)
{
	return type == IB_UVERBS_QPT_RC ? RC_OPS :
	       type == IB_UVERBS_QPT_UC ? UC_OPS :
	       type == IB_UVERBS_QPT_UD ? UD_OPS : 0;
}

static inline bool opcode_ok(uint32_t type, uint32_t opcode)
{
	return opcode < 32 && (rxe_opcodes(type) >> opcode) & 1;
}

/*
 * Only what the kernel reads for this opcode is written: the WR's header,
 * the union member of the opcode, the kernel's progress fields (zero) and
 * the DMA state. The rest of the slot keeps an older WQE's bytes, which no
 * kernel reads for this opcode; zeroing all of it was a quarter of a post.
 */
static int rxe_post_send(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	struct uvio_dp_ring *q = &qp->sq.ring;
	size_t room = q->elem_size - sizeof(struct dp_rxe_send_wqe);
	uint32_t op = wr->opcode, nsge = wr->num_sge;
	struct dp_rxe_send_wqe *wqe;
	int64_t len;
	uint64_t iova = 0;

	if (!opcode_ok(qp->type, op))
		return -EOPNOTSUPP;
	if (nsge > qp->sq.max_sge || (nsge && !wr->sg_list))
		return -EINVAL;
	len = uvio_dp_sge_bytes(wr->sg_list, nsge);
	if (len < 0)
		return -EINVAL;
	if (wr->flags & UVIO_DP_SEND_INLINE) {
		if ((uint64_t)len > qp->sq.max_inline || (uint64_t)len > room)
			return -EINVAL;
	} else if (nsge * sizeof(struct rxe_sge) > room) {
		return -EINVAL;
	}
	if (op == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP || op == IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD) {
		/* One 8-byte SGE: where the remote's old value lands. */
		if (nsge != 1 || len != 8 || (wr->flags & UVIO_DP_SEND_INLINE))
			return -EINVAL;
	} else if (op == UVIO_DP_WR_ATOMIC_WRITE) {
		/* One 8-byte SGE: the value, which travels in the WQE. */
		if (nsge != 1 || len != 8)
			return -EINVAL;
	} else if (qp->type == IB_UVERBS_QPT_UD && !wr->ud.ah) {
		return -EINVAL;
	}
	wqe = produce_begin(q);
	if (!wqe)
		return -ENOSPC;

	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.reserved = 0;
	wqe->wr.opcode = op;
	wqe->wr.send_flags = wr->flags & (UVIO_DP_SEND_FENCE | UVIO_DP_SEND_SIGNALED |
					  UVIO_DP_SEND_SOLICITED | UVIO_DP_SEND_INLINE);
	wqe->wr.ex.imm_data = op == IB_UVERBS_WR_SEND_WITH_INV || op == IB_UVERBS_WR_LOCAL_INV ?
				      wr->invalidate_rkey : wr->imm_data;
	switch (op) {
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
	case IB_UVERBS_WR_RDMA_READ:
	case UVIO_DP_WR_ATOMIC_WRITE:
		wqe->wr.wr.rdma.remote_addr = wr->rdma.remote_addr;
		wqe->wr.wr.rdma.rkey = wr->rdma.rkey;
		wqe->wr.wr.rdma.reserved = 0;
		iova = wr->rdma.remote_addr;	/* where the kernel works from */
		break;
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.wr.atomic.remote_addr = wr->atomic.remote_addr;
		wqe->wr.wr.atomic.compare_add = wr->atomic.compare_add;
		wqe->wr.wr.atomic.swap = wr->atomic.swap;
		wqe->wr.wr.atomic.rkey = wr->atomic.rkey;
		wqe->wr.wr.atomic.reserved = 0;
		iova = wr->atomic.remote_addr;
		break;
	case IB_UVERBS_WR_BIND_MW:
		wqe->wr.wr.mw.addr = wr->bind_mw.addr;
		wqe->wr.wr.mw.length = wr->bind_mw.length;
		wqe->wr.wr.mw.mr_lkey = wr->bind_mw.mr_lkey;
		wqe->wr.wr.mw.mw_rkey = wr->bind_mw.mw_rkey;
		wqe->wr.wr.mw.rkey = wr->bind_mw.new_rkey;
		wqe->wr.wr.mw.access = wr->bind_mw.access;
		break;
	default:
		if (qp->type == IB_UVERBS_QPT_UD) {
			wqe->wr.wr.ud.remote_qpn = wr->ud.remote_qpn;
			wqe->wr.wr.ud.remote_qkey = wr->ud.remote_qkey;
			wqe->wr.wr.ud.pkey_index = 0;
			wqe->wr.wr.ud.reserved = 0;
			wqe->wr.wr.ud.ah_num = wr->ud.ah->ah_num;
		}
		break;
	}
	/* The kernel's progress, from zero: status to the end of the DMA
	 * state, in one constant-sized clear the compiler does with a few
	 * vector stores. */
	memset(&wqe->status, 0, sizeof(*wqe) - offsetof(struct dp_rxe_send_wqe, status));
	wqe->iova = iova;
	wqe->dma.length = (uint32_t)len;
	wqe->dma.resid = (uint32_t)len;
	wqe->dma.num_sge = nsge;
	if (op == UVIO_DP_WR_ATOMIC_WRITE) {
		/* The kernel sends the 8 bytes of the WQE's data area, whatever
		 * the flags say; it reads no SGE. */
		wqe->wr.send_flags &= ~(uint32_t)UVIO_DP_SEND_INLINE;
		wqe->dma.num_sge = 0;
		uvio_dp_copy_inline((uint8_t *)(wqe + 1), wr->sg_list, nsge);
	} else if (wr->flags & UVIO_DP_SEND_INLINE)
		uvio_dp_copy_inline((uint8_t *)(wqe + 1), wr->sg_list, nsge);
	else
		copy_sges((struct rxe_sge *)(wqe + 1), wr->sg_list, nsge);
	produce_commit(q);
	return 0;
}

static int rxe_post_recv(struct uvio_dp_queue *queue, const struct uvio_dp_recv_wr *wr)
{
	struct uvio_dp_ring *q = &queue->ring;
	struct dp_rxe_recv_wqe *wqe;
	int64_t len = uvio_dp_sge_bytes(wr->sg_list, wr->num_sge);

	if (len < 0 || sizeof(*wqe) + wr->num_sge * sizeof(struct rxe_sge) > q->elem_size)
		return -EINVAL;
	wqe = produce_begin(q);
	if (!wqe)
		return -ENOSPC;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr->wr_id;
	wqe->dma.length = (uint32_t)len;
	wqe->dma.resid = (uint32_t)len;
	wqe->dma.num_sge = wr->num_sge;
	copy_sges((struct rxe_sge *)(wqe + 1), wr->sg_list, wr->num_sge);
	produce_commit(q);
	return 0;
}

/* Our completion is the kernel's, byte for byte: polling is a copy. */
#define SAME_WC(f) (offsetof(struct uvio_dp_wc, f) == offsetof(struct ib_uverbs_wc, f))
_Static_assert(sizeof(struct uvio_dp_wc) == sizeof(struct ib_uverbs_wc) && SAME_WC(status) &&
	       SAME_WC(byte_len) && offsetof(struct uvio_dp_wc, imm_data) ==
	       offsetof(struct ib_uverbs_wc, ex) && SAME_WC(qp_num) && SAME_WC(wc_flags) &&
	       SAME_WC(pkey_index) && SAME_WC(sl) && SAME_WC(port_num),
	       "struct uvio_dp_wc is not struct ib_uverbs_wc");
#undef SAME_WC

/* Consumer side: the kernel's producer index with acquire, so that the
 * completions it published are visible; ours with release after the copy,
 * so that the kernel cannot overwrite a slot we still read. */
static int rxe_poll(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	struct uvio_dp_ring *q = &cq->q.ring;
	uint32_t cons = __atomic_load_n(q->consumer, __ATOMIC_RELAXED) & q->mask;
	uint32_t prod = __atomic_load_n(q->producer, __ATOMIC_ACQUIRE) & q->mask;
	int got = 0;

	while (got < n && cons != prod) {
		memcpy(&wc[got++], slot(q, cons), sizeof(*wc));
		cons = (cons + 1) & q->mask;
	}
	if (got)
		__atomic_store_n(q->consumer, cons, __ATOMIC_RELEASE);
	return got;
}

static int rxe_arm(struct uvio_dp_cq *cq, int solicited_only)
{
	return uvio_req_notify_cq(cq->dev, cq->handle, solicited_only, NULL);
}

/* The kernel copies the completions not yet polled into the new ring and
 * answers where it is; the old mapping stays valid until we unmap it. */
static int rxe_resize_cq(struct uvio_dp_cq *cq, uint32_t cqe)
{
	struct rxe_resize_cq_resp resp = { { 0, 0, 0 } };
	struct uvio_dp_ring old = cq->q.ring;
	int err;
	UVIO_OPTS(uvio_drv, drv, .out = &resp, .out_len = sizeof(resp));
	UVIO_OPTS(uvio_cq_resize_attr, attr, .cq_handle = cq->handle, .cqe = cqe);
	UVIO_OPTS(uvio_cq, granted);

	err = uvio_resize_cq(cq->dev, &attr, &drv, &granted, NULL);
	if (err)
		return err;
	err = ring_map(&cq->q.ring, cq->dev, &resp.mi, sizeof(struct ib_uverbs_wc));
	if (err) {
		/* The kernel has moved on: the old ring receives nothing more. */
		cq->q.ring = old;
		return uvio_dp_map_failed(cq->dev, "CQ.RESIZE (data path)", err);
	}
	uvio_dp_unmap(&old);
	cq->cqe = granted.cqe;
	return 0;
}

/* rxe takes its modify command always (a missing one is EINVAL), and
 * writes the new ring's place through the pointer in it. */
static int rxe_modify_srq(struct uvio_dp_srq *srq, const struct uvio_srq_modify *attr)
{
	struct mminfo mi = { 0, 0, 0 };
	struct rxe_modify_srq_cmd cmd = { .mmap_info_addr = (uintptr_t)&mi };
	struct uvio_dp_ring old = srq->q.ring;
	int err;
	UVIO_OPTS(uvio_drv, drv, .in = &cmd, .in_len = sizeof(cmd));

	err = uvio_modify_srq(srq->dev, srq->handle, attr, &drv, NULL);
	if (err || !(attr->attr_mask & UVIO_SRQ_MAX_WR))
		return err;
	err = ring_map(&srq->q.ring, srq->dev, &mi,
		       sizeof(struct dp_rxe_recv_wqe) + sizeof(struct rxe_sge));
	if (err) {
		srq->q.ring = old;
		return uvio_dp_map_failed(srq->dev, "SRQ.MODIFY (data path)", err);
	}
	uvio_dp_unmap(&old);
	srq->max_wr = srq->q.ring.entries;
	return 0;
}

/*
 * rxe names the AH in the WQE by the number CREATE_AH answered (Linux 5.13
 * on). Older kernels read an address vector from the WQE instead; UD sends
 * built that way never completed on 5.10 in the suite's runs, so such a
 * kernel is refused here rather than given an AH that sends nothing.
 */
static int rxe_ah_init(struct uvio_dp_ah *ah, const struct uvio_ah_attr *attr, const void *resp,
		       const char **why)
{
	const struct {
		uint32_t ah_num, reserved;
	} *r = resp;

	(void)attr;
	ah->ah_num = r->ah_num;
	if (ah->ah_num)
		return 0;
	*why = "EOPNOTSUPP: this kernel's rxe gives AHs no number (Linux 5.13 does), and UD "
	       "sends with an address vector in the WQE are not supported";
	return -EOPNOTSUPP;
}

const struct dp_ops uvio_dp_rxe_ops = {
	.name = "rxe",
	.driver_id = RDMA_DRIVER_RXE,
	.cq_resp_len = sizeof(struct rxe_create_cq_resp),
	.qp_resp_len = sizeof(struct rxe_create_qp_resp),
	.srq_resp_len = sizeof(struct rxe_create_srq_resp),
	.ah_resp_len = 8,	/* struct rxe_create_ah_resp, 5.13+ */
	.cq_map = rxe_cq_map,
	.qp_map = rxe_qp_map,
	.srq_map = rxe_srq_map,
	.ah_init = rxe_ah_init,
	.post_send = rxe_post_send,
	.opcodes = rxe_opcodes,
	.post_recv = rxe_post_recv,
	.poll = rxe_poll,
	.arm = rxe_arm,
	.resize_cq = rxe_resize_cq,
	.modify_srq = rxe_modify_srq,
};
