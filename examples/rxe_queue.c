/* SPDX-License-Identifier: MIT */
/*
 * rxe's user-space rings: mapping, indices, WQE and CQE layouts. See
 * rxe_queue.h for the contract with the kernel.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <uvio.h>

#include "rxe_queue.h"

#ifdef UVIO_HAVE_RXE_QUEUE_BUF
/* Our copy of the ring header against the system's, where it has one. */
#define SAME(field) offsetof(struct rxe_ring_hdr, field) == offsetof(struct rxe_queue_buf, field)
_Static_assert(sizeof(struct rxe_ring_hdr) == sizeof(struct rxe_queue_buf) &&
	       SAME(log2_elem_size) && SAME(index_mask) && SAME(producer_index) &&
	       SAME(consumer_index) && SAME(data), "struct rxe_queue_buf differs");
#undef SAME
#endif

/* The element sizes rxe uses are a few hundred bytes, rings a few thousand
 * entries; anything far outside means the header is not what we think. */
#define RXE_MAX_SHIFT 16u
#define RXE_MAX_ENTRIES (1u << 20)

int rxe_ring_map(struct rxe_ring *r, int cmd_fd, const struct mminfo *mi,
		 size_t min_elem)
{
	struct rxe_ring_hdr *q;
	uint32_t shift, mask;
	void *p;

	memset(r, 0, sizeof(*r));
	if (!mi || mi->size < sizeof(struct rxe_ring_hdr))
		return -EINVAL;
	p = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED, cmd_fd,
		 (off_t)mi->offset);
	if (p == MAP_FAILED)
		return -errno;
	q = p;
	/* The geometry is read once: the kernel never changes it for a live
	 * mapping (a resize hands out a new one). */
	shift = __atomic_load_n(&q->log2_elem_size, __ATOMIC_RELAXED);
	mask = __atomic_load_n(&q->index_mask, __ATOMIC_RELAXED);
	if (shift > RXE_MAX_SHIFT || ((size_t)1 << shift) < min_elem ||
	    mask == 0 || mask >= RXE_MAX_ENTRIES || (mask & (mask + 1)) ||
	    sizeof(*q) + ((size_t)(mask + 1) << shift) > mi->size) {
		munmap(p, mi->size);
		return -EINVAL;
	}
	r->buf = q;
	r->map_len = mi->size;
	r->mask = mask;
	r->shift = shift;
	return 0;
}

void rxe_ring_unmap(struct rxe_ring *r)
{
	if (r->buf)
		munmap(r->buf, r->map_len);
	memset(r, 0, sizeof(*r));
}

static inline void *slot(const struct rxe_ring *r, uint32_t index)
{
	return r->buf->data + ((size_t)(index & r->mask) << r->shift);
}

/*
 * Producer side. Our own index needs no ordering (only we write it); the
 * consumer's needs acquire, so that its reads of the slot we are about to
 * reuse are finished before we write it.
 */
static void *produce_begin(struct rxe_ring *r)
{
	uint32_t prod = __atomic_load_n(&r->buf->producer_index, __ATOMIC_RELAXED) & r->mask;
	uint32_t cons = __atomic_load_n(&r->buf->consumer_index, __ATOMIC_ACQUIRE) & r->mask;

	if (((prod + 1) & r->mask) == cons)
		return NULL;
	return slot(r, prod);
}

/* Publish the element: everything written to it before this store is seen
 * by a consumer that loads the index with acquire. */
static void produce_commit(struct rxe_ring *r)
{
	uint32_t prod = __atomic_load_n(&r->buf->producer_index, __ATOMIC_RELAXED);

	__atomic_store_n(&r->buf->producer_index, (prod + 1) & r->mask, __ATOMIC_RELEASE);
}

static int seg_total(const struct rxe_seg *seg, uint32_t nseg, uint64_t *total)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i < nseg; i++)
		t += seg[i].length;
	*total = t;
	return t <= UINT32_MAX;
}

int rxe_sq_post(struct rxe_sq *sq, uint64_t wr_id, uint32_t opcode, uint32_t flags,
		const struct rxe_seg *seg, uint32_t nseg)
{
	struct rxe_ring *r = &sq->ring;
	size_t room = rxe_ring_elem_size(r) - sizeof(struct rxe_send_wqe);
	struct rxe_send_wqe *wqe;
	uint64_t len;

	/* The count first: the segments are read only once it is in bounds. */
	if (!r->buf || nseg > sq->max_sge || (nseg && !seg) || !seg_total(seg, nseg, &len))
		return -EINVAL;
	if (flags & RXE_SEND_INLINE) {
		if (len > sq->max_inline || len > room)
			return -EINVAL;
	} else if (nseg * sizeof(struct rxe_sge) > room) {
		return -EINVAL;
	}
	wqe = produce_begin(r);
	if (!wqe)
		return -ENOSPC;

	/* The kernel fills status, state, PSNs and the rest as it works the
	 * WQE; start from zeros so that nothing of an older WQE lingers. */
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr_id;
	wqe->wr.opcode = opcode;
	wqe->wr.send_flags = flags;
	wqe->dma.length = (uint32_t)len;
	wqe->dma.resid = (uint32_t)len;
	if (flags & RXE_SEND_INLINE) {
		uint8_t *to = wqe->dma.inline_data;

		for (uint32_t i = 0; i < nseg; i++) {
			memcpy(to, (const void *)(uintptr_t)seg[i].addr, seg[i].length);
			to += seg[i].length;
		}
		wqe->dma.num_sge = nseg;
	} else {
		for (uint32_t i = 0; i < nseg; i++) {
			wqe->dma.sge[i].addr = seg[i].addr;
			wqe->dma.sge[i].length = seg[i].length;
			wqe->dma.sge[i].lkey = seg[i].lkey;
		}
		wqe->dma.num_sge = nseg;
	}
	produce_commit(r);
	return 0;
}

int rxe_rq_post(struct rxe_rq *rq, uint64_t wr_id, const struct rxe_seg *seg,
		uint32_t nseg)
{
	struct rxe_ring *r = &rq->ring;
	struct rxe_recv_wqe *wqe;
	uint64_t len;

	if (!r->buf || nseg > rq->max_sge || (nseg && !seg) || !seg_total(seg, nseg, &len) ||
	    sizeof(*wqe) + nseg * sizeof(struct rxe_sge) > rxe_ring_elem_size(r))
		return -EINVAL;
	wqe = produce_begin(r);
	if (!wqe)
		return -ENOSPC;
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr_id = wr_id;
	for (uint32_t i = 0; i < nseg; i++) {
		wqe->dma.sge[i].addr = seg[i].addr;
		wqe->dma.sge[i].length = seg[i].length;
		wqe->dma.sge[i].lkey = seg[i].lkey;
	}
	wqe->dma.length = (uint32_t)len;
	wqe->dma.resid = (uint32_t)len;
	wqe->dma.num_sge = nseg;
	produce_commit(r);
	return 0;
}

/*
 * Consumer side (the CQ): the kernel's producer index with acquire, so the
 * completion it published is visible; our index with release after the
 * copy, so the kernel cannot overwrite the slot while we still read it.
 */
int rxe_cq_poll(struct rxe_ring *cq, struct ib_uverbs_wc *wc, int n)
{
	uint32_t cons, prod;
	int got = 0;

	if (!cq->buf || n < 0 || (n && !wc))
		return -EINVAL;
	cons = __atomic_load_n(&cq->buf->consumer_index, __ATOMIC_RELAXED) & cq->mask;
	prod = __atomic_load_n(&cq->buf->producer_index, __ATOMIC_ACQUIRE) & cq->mask;
	while (got < n && cons != prod) {
		memcpy(&wc[got++], slot(cq, cons), sizeof(*wc));
		cons = (cons + 1) & cq->mask;
	}
	if (got)
		__atomic_store_n(&cq->buf->consumer_index, cons, __ATOMIC_RELEASE);
	return got;
}

/*
 * The doorbell. rxe reads no work requests from the command (it runs its
 * send queue from the ring), but the kernel checks the command as it would
 * one with work requests: see uvio_post_send() for the encoding.
 */
int rxe_sq_doorbell(struct rxe_sq *sq)
{
	return uvio_post_send(sq->dev, sq->qp_handle, NULL, 0, NULL, 0, NULL, NULL);
}
