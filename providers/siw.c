// SPDX-License-Identifier: MIT
/*
 * siw's queues (rdma/siw-abi.h). Each is a plain array of elements in memory
 * mapped from the uverbs fd at the key the create verb answered; a CQ's
 * array is followed by its control word (struct siw_cq_ctrl). There are no
 * indices: an element belongs to whoever its SIW_WQE_VALID flag says. This
 * process fills a free send or receive element and then sets VALID with
 * release; the kernel clears it when it is done with the element. The
 * kernel sets VALID on a completion it wrote; this process reads it after
 * an acquire load of the flag and clears the flag with release.
 *
 * A CQ is armed without a system call: the kernel reads the control word
 * when it adds a completion, raises the event if the word asks for one and
 * clears it.
 */
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/siw-abi.h>

#include "dp.h"

_Static_assert(sizeof(struct siw_sge) == sizeof(struct uvio_dp_sge), "SGE layout");

/* A bound on the entries the kernel's answer may name, against a corrupt
 * answer: above siw's largest queue, its CQ of 3276800 entries (100 times
 * its 32768 work requests a QP; 6.1 and later grant that much). */
#define SIW_MAX_ENTRIES (1u << 22)

/* entries elements of elem bytes at key, and extra bytes after them. */
static int queue_map(struct uvio_dp_queue *q, struct uvio_device *dev, uint64_t key,
		     uint32_t entries, size_t elem, size_t extra)
{
	int err;

	if (!entries || key == SIW_INVAL_UOBJ_KEY || entries > SIW_MAX_ENTRIES)
		return -EPROTO;
	err = uvio_dp_map(&q->ring, dev, key, (size_t)entries * elem + extra);
	if (err)
		return err;
	q->ring.slots = q->ring.map;
	q->ring.entries = entries;
	q->ring.elem_size = (uint32_t)elem;
	q->next = 0;
	return 0;
}

static int siw_cq_map(struct uvio_dp_cq *cq, const void *resp)
{
	const struct siw_uresp_create_cq *r = resp;
	int err = queue_map(&cq->q, cq->dev, r->cq_key, r->num_cqe, sizeof(struct siw_cqe),
			    sizeof(struct siw_cq_ctrl));

	if (!err)	/* the control word follows the CQEs */
		cq->notify = &((struct siw_cq_ctrl *)(cq->q.ring.slots +
						       (size_t)r->num_cqe *
							       sizeof(struct siw_cqe)))->flags;
	return err;
}

static int siw_qp_map(struct uvio_dp_qp *qp, const void *resp)
{
	const struct siw_uresp_create_qp *r = resp;
	int err = queue_map(&qp->sq, qp->dev, r->sq_key, r->num_sqe, sizeof(struct siw_sqe), 0);

	if (!err && !qp->srq)
		err = queue_map(&qp->rq, qp->dev, r->rq_key, r->num_rqe, sizeof(struct siw_rqe), 0);
	if (err)
		uvio_dp_unmap(&qp->sq.ring);
	/* Inline bytes ride in the SGE array after the first entry. */
	if (qp->sq.max_inline > SIW_MAX_INLINE)
		qp->sq.max_inline = SIW_MAX_INLINE;
	return err;
}

static int siw_srq_map(struct uvio_dp_srq *srq, const void *resp)
{
	const struct siw_uresp_create_srq *r = resp;

	return queue_map(&srq->q, srq->dev, r->srq_key, r->num_rqe, sizeof(struct siw_rqe), 0);
}

static inline void *slot(struct uvio_dp_queue *q)
{
	return q->ring.slots + (size_t)(q->next % q->ring.entries) * q->ring.elem_size;
}

static int opcode_of(uint32_t wr_opcode)
{
	switch (wr_opcode) {
	case IB_UVERBS_WR_SEND:
		return SIW_OP_SEND;
	case IB_UVERBS_WR_SEND_WITH_INV:
		return SIW_OP_SEND_REMOTE_INV;
	case IB_UVERBS_WR_RDMA_WRITE:
		return SIW_OP_WRITE;
	case IB_UVERBS_WR_RDMA_READ:
		return SIW_OP_READ;
	default:
		/* Immediate data, atomics, LOCAL_INV and BIND_MW: siw runs
		 * them for kernel users or not at all. */
		return -EOPNOTSUPP;
	}
}

/* What opcode_of() maps. siw's QPs are RC, all of them (the kernel
 * refuses the other types at create), so the type changes nothing. */
static uint32_t siw_opcodes(uint32_t type)
{
	(void)type;
	return 1u << IB_UVERBS_WR_SEND | 1u << IB_UVERBS_WR_SEND_WITH_INV |
	       1u << IB_UVERBS_WR_RDMA_WRITE | 1u << IB_UVERBS_WR_RDMA_READ;
}

static int siw_post_send(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	struct uvio_dp_queue *q = &qp->sq;
	struct siw_sqe *sqe = slot(q);
	int op = opcode_of(wr->opcode);
	uint16_t flags = 0;
	int64_t len;

	if (op < 0)
		return op;
	if (wr->num_sge > q->max_sge || wr->num_sge > SIW_MAX_SGE || (wr->num_sge && !wr->sg_list))
		return -EINVAL;
	len = uvio_dp_sge_bytes(wr->sg_list, wr->num_sge);
	if (len < 0)
		return -EINVAL;
	if ((wr->flags & UVIO_DP_SEND_INLINE) && (uint64_t)len > q->max_inline)
		return -EINVAL;
	if (__atomic_load_n(&sqe->flags, __ATOMIC_ACQUIRE) & SIW_WQE_VALID)
		return -ENOSPC;

	sqe->id = wr->wr_id;
	sqe->opcode = (uint8_t)op;
	sqe->rkey = op == SIW_OP_SEND_REMOTE_INV ? wr->invalidate_rkey : wr->rdma.rkey;
	sqe->raddr = op == SIW_OP_WRITE || op == SIW_OP_READ ? wr->rdma.remote_addr : 0;
	if (wr->flags & UVIO_DP_SEND_SIGNALED)
		flags |= SIW_WQE_SIGNALLED;
	if (wr->flags & UVIO_DP_SEND_SOLICITED)
		flags |= SIW_WQE_SOLICITED;
	if (wr->flags & UVIO_DP_SEND_FENCE)
		flags |= SIW_WQE_READ_FENCE;
	if (wr->flags & UVIO_DP_SEND_INLINE) {
		/* The bytes follow the first SGE, which points at them. */
		uvio_dp_copy_inline((uint8_t *)&sqe->sge[1], wr->sg_list, wr->num_sge);
		sqe->sge[0].laddr = (uintptr_t)&sqe->sge[1];
		sqe->sge[0].length = (uint32_t)len;
		sqe->sge[0].lkey = 0;
		sqe->num_sge = len ? 1 : 0;
		flags |= SIW_WQE_INLINE;
	} else {
		if (wr->num_sge)
			memcpy(sqe->sge, wr->sg_list, wr->num_sge * sizeof(struct siw_sge));
		sqe->num_sge = (uint8_t)wr->num_sge;
	}
	__atomic_store_n(&sqe->flags, (uint16_t)(flags | SIW_WQE_VALID), __ATOMIC_RELEASE);
	q->next++;
	return 0;
}

static int siw_post_recv(struct uvio_dp_queue *q, const struct uvio_dp_recv_wr *wr)
{
	struct siw_rqe *rqe = slot(q);

	if (wr->num_sge > SIW_MAX_SGE || uvio_dp_sge_bytes(wr->sg_list, wr->num_sge) < 0)
		return -EINVAL;
	if (__atomic_load_n(&rqe->flags, __ATOMIC_ACQUIRE) & SIW_WQE_VALID)
		return -ENOSPC;
	rqe->id = wr->wr_id;
	rqe->num_sge = (uint8_t)wr->num_sge;
	if (wr->num_sge)
		memcpy(rqe->sge, wr->sg_list, wr->num_sge * sizeof(struct siw_sge));
	__atomic_store_n(&rqe->flags, (uint16_t)SIW_WQE_VALID, __ATOMIC_RELEASE);
	q->next++;
	return 0;
}

/* siw's completion codes in the IB numbering every caller knows. */
static uint32_t status_of(uint16_t s)
{
	static const uint8_t map[SIW_NUM_WC_STATUS] = {
		[SIW_WC_SUCCESS] = UVIO_WC_SUCCESS,
		[SIW_WC_LOC_LEN_ERR] = UVIO_WC_LOC_LEN_ERR,
		[SIW_WC_LOC_PROT_ERR] = UVIO_WC_LOC_PROT_ERR,
		[SIW_WC_LOC_QP_OP_ERR] = UVIO_WC_LOC_QP_OP_ERR,
		[SIW_WC_WR_FLUSH_ERR] = UVIO_WC_WR_FLUSH_ERR,
		[SIW_WC_BAD_RESP_ERR] = UVIO_WC_BAD_RESP_ERR,
		[SIW_WC_LOC_ACCESS_ERR] = UVIO_WC_LOC_ACCESS_ERR,
		[SIW_WC_REM_ACCESS_ERR] = UVIO_WC_REM_ACCESS_ERR,
		[SIW_WC_REM_INV_REQ_ERR] = UVIO_WC_REM_INV_REQ_ERR,
		[SIW_WC_GENERAL_ERR] = UVIO_WC_GENERAL_ERR,
	};

	return s < SIW_NUM_WC_STATUS ? map[s] : UVIO_WC_GENERAL_ERR;
}

static uint32_t wc_opcode_of(uint8_t op)
{
	switch (op) {
	case SIW_OP_WRITE:
		return UVIO_WC_RDMA_WRITE;
	case SIW_OP_READ:
	case SIW_OP_READ_LOCAL_INV:
		return UVIO_WC_RDMA_READ;
	case SIW_OP_COMP_AND_SWAP:
		return UVIO_WC_COMP_SWAP;
	case SIW_OP_FETCH_AND_ADD:
		return UVIO_WC_FETCH_ADD;
	case SIW_OP_INVAL_STAG:
		return UVIO_WC_LOCAL_INV;
	case SIW_OP_RECEIVE:
		return UVIO_WC_RECV;
	default:
		return UVIO_WC_SEND;
	}
}

static int siw_poll(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	struct uvio_dp_queue *q = &cq->q;
	int got = 0;

	while (got < n) {
		struct siw_cqe *c = slot(q);
		uint8_t f = __atomic_load_n(&c->flags, __ATOMIC_ACQUIRE);
		struct uvio_dp_wc *w = &wc[got];

		if (!(f & SIW_WQE_VALID))
			break;
		*w = (struct uvio_dp_wc){
			.wr_id = c->id,
			.status = status_of(c->status),
			.opcode = wc_opcode_of(c->opcode),
			.byte_len = c->bytes,
			.qp_num = (uint32_t)c->qp_id,
		};
		if (f & SIW_WQE_REM_INVAL) {
			w->wc_flags = UVIO_WC_WITH_INVALIDATE;
			w->invalidated_rkey = c->inval_stag;
		}
		__atomic_store_n(&c->flags, (uint8_t)0, __ATOMIC_RELEASE);
		q->next++;
		got++;
	}
	return got;
}

static int siw_arm(struct uvio_dp_cq *cq, int solicited_only)
{
	uint32_t want = solicited_only ? SIW_NOTIFY_SOLICITED
				       : SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION;

	/* Sequentially consistent: the caller looks at the ring next, and the
	 * kernel writes a CQE, then (after a full barrier) reads this word.
	 * A release store could still sit in the store buffer while the ring
	 * looks empty to us and the word unarmed to the kernel: no event,
	 * and a waiter sleeps with a completion in the ring (seen as a
	 * rping round that never ended, 3 of 12 runs on siw). */
	__atomic_store_n(cq->notify, want, __ATOMIC_SEQ_CST);
	return 0;
}

const struct dp_ops uvio_dp_siw_ops = {
	.name = "siw",
	.driver_id = RDMA_DRIVER_SIW,
	.cq_resp_len = sizeof(struct siw_uresp_create_cq),
	.qp_resp_len = sizeof(struct siw_uresp_create_qp),
	.srq_resp_len = sizeof(struct siw_uresp_create_srq),
	.cq_map = siw_cq_map,
	.qp_map = siw_qp_map,
	.srq_map = siw_srq_map,
	.post_send = siw_post_send,
	.opcodes = siw_opcodes,
	.post_recv = siw_post_recv,
	.poll = siw_poll,
	.arm = siw_arm,
};
