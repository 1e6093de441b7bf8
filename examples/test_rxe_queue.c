/* SPDX-License-Identifier: MIT */
/*
 * The rxe ring module against rings laid out as rxe lays them out, in a
 * memfd instead of the device fd: header checks, full and empty, wrap
 * around, the WQE layout, and reading completions the "kernel" (this test)
 * publishes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "rxe_queue.h"

struct fake {
	int fd;
	struct mminfo mi;
};

/* A ring of 2^log2_entries elements of 2^shift bytes in a memfd at page 1
 * (offset non-zero, as the kernel's are), size extra bytes short or long. */
static struct fake make_ring(uint32_t shift, uint32_t mask, long size_delta)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = sizeof(struct rxe_ring_hdr) + ((size_t)(mask + 1) << shift);
	struct rxe_ring_hdr hdr = { .log2_elem_size = shift, .index_mask = mask };
	struct fake f = { .fd = memfd_create("ring", MFD_CLOEXEC) };

	assert_true(f.fd >= 0);
	assert_int_equal(ftruncate(f.fd, (off_t)(page + len + 4096)), 0);
	assert_int_equal(pwrite(f.fd, &hdr, sizeof(hdr), (off_t)page), (ssize_t)sizeof(hdr));
	f.mi.offset = page;
	f.mi.size = (uint32_t)((long)len + size_delta);
	return f;
}

static void test_map_checks_header(void **state)
{
	struct rxe_ring r;
	struct fake f;

	(void)state;
	f = make_ring(7, 15, 0);
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 128), 0);
	assert_int_equal(rxe_ring_elem_size(&r), 128);
	assert_int_equal(rxe_ring_capacity(&r), 15);
	rxe_ring_unmap(&r);
	assert_null(r.buf);
	/* elements smaller than the caller needs */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 129), -EINVAL);
	assert_null(r.buf);
	close(f.fd);

	f = make_ring(7, 15, -1);		/* last element past the mapping */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 32), -EINVAL);
	close(f.fd);
	f = make_ring(7, 14, 0);		/* not a power of two */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 32), -EINVAL);
	close(f.fd);
	f = make_ring(7, 0, 0);			/* no room at all */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 32), -EINVAL);
	close(f.fd);
	f = make_ring(17, 1, 0);		/* absurd element size */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 32), -EINVAL);
	close(f.fd);

	f = make_ring(7, 15, 0);
	f.mi.size = sizeof(struct rxe_ring_hdr) - 1;	/* not even a header */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 32), -EINVAL);
	assert_int_equal(rxe_ring_map(&r, f.fd, NULL, 32), -EINVAL);
	f.mi.size = 4096;
	f.mi.offset = 3;			/* mmap refuses an unaligned offset */
	assert_int_equal(rxe_ring_map(&r, f.fd, &f.mi, 32), -EINVAL);
	f.mi.offset = 0;
	assert_int_equal(rxe_ring_map(&r, -1, &f.mi, 32), -EBADF);
	close(f.fd);
}

static void *elem(struct rxe_ring *r, uint32_t i)
{
	return r->buf->data + ((size_t)(i & r->mask) << r->shift);
}

static void kernel_consume(struct rxe_ring *r, uint32_t n)
{
	r->buf->consumer_index = (r->buf->consumer_index + n) & r->mask;
}

static void test_rq_fills_wraps_and_lays_out(void **state)
{
	struct fake f = make_ring(6, 3, 0);	/* 4 slots of 64 bytes: holds 3 */
	struct rxe_rq rq = { .max_sge = 2 };
	struct rxe_seg seg[2] = { { 0x1000, 100, 7 }, { 0x2000, 28, 8 } };
	struct rxe_recv_wqe *w;

	(void)state;
	assert_int_equal(rxe_ring_map(&rq.ring, f.fd, &f.mi, sizeof(*w)), 0);
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(rxe_rq_post(&rq, 10 + i, seg, 1), 0);
	assert_int_equal(rxe_rq_post(&rq, 99, seg, 1), -ENOSPC);
	assert_int_equal(rq.ring.buf->producer_index, 3);
	w = elem(&rq.ring, 1);
	assert_int_equal(w->wr_id, 11);
	assert_int_equal(w->dma.num_sge, 1);
	assert_int_equal(w->dma.length, 100);
	assert_int_equal(w->dma.resid, 100);
	assert_int_equal(w->dma.cur_sge, 0);
	assert_int_equal(w->dma.sge[0].addr, 0x1000);
	assert_int_equal(w->dma.sge[0].lkey, 7);

	/* The kernel takes two; the producer wraps past the end. */
	kernel_consume(&rq.ring, 2);
	assert_int_equal(rxe_rq_post(&rq, 13, NULL, 0), 0);	/* no segments: fine */
	assert_int_equal(rq.ring.buf->producer_index, 0);
	/* Two segments do not fit a 64-byte element (40 + 2 * 16 > 64). */
	assert_int_equal(rxe_rq_post(&rq, 14, seg, 2), -EINVAL);
	assert_int_equal(rxe_rq_post(&rq, 14, seg, 3), -EINVAL);	/* over max_sge */
	assert_int_equal(rxe_rq_post(&rq, 14, NULL, 1), -EINVAL);
	assert_int_equal(rxe_rq_post(&rq, 14, seg, 1), 0);
	w = elem(&rq.ring, 0);
	assert_int_equal(w->wr_id, 14);
	assert_int_equal(rxe_rq_post(&rq, 15, seg, 1), -ENOSPC);
	rxe_ring_unmap(&rq.ring);
	assert_int_equal(rxe_rq_post(&rq, 15, seg, 1), -EINVAL);	/* unmapped */
	close(f.fd);
}

static void test_sq_inline_and_gather(void **state)
{
	struct fake f = make_ring(9, 7, 0);	/* 512-byte WQEs: 208 + 304 of data */
	struct rxe_sq sq = { .max_sge = 1, .max_inline = 64 };
	uint8_t msg[80];
	struct rxe_seg seg = { (uintptr_t)msg, 64, 5 };
	struct rxe_send_wqe *w;

	(void)state;
	for (unsigned int i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 7 + 1);
	assert_int_equal(rxe_ring_map(&sq.ring, f.fd, &f.mi, sizeof(*w)), 0);
	/* Stale bytes from an earlier WQE must not survive. */
	memset(elem(&sq.ring, 0), 0xee, 512);
	assert_int_equal(rxe_sq_post(&sq, 42, IB_UVERBS_WR_SEND,
				     RXE_SEND_SIGNALED | RXE_SEND_INLINE, &seg, 1), 0);
	w = elem(&sq.ring, 0);
	assert_int_equal(w->wr.wr_id, 42);
	assert_int_equal(w->wr.opcode, IB_UVERBS_WR_SEND);
	assert_int_equal(w->wr.send_flags, RXE_SEND_SIGNALED | RXE_SEND_INLINE);
	assert_int_equal(w->dma.length, 64);
	assert_int_equal(w->dma.resid, 64);
	assert_int_equal(w->status, 0);
	assert_int_equal(w->state, 0);
	assert_int_equal(w->iova, 0);
	assert_memory_equal(w->dma.inline_data, msg, 64);
	/* The buffer may change at once: the bytes are in the WQE. */
	msg[0] ^= 0xff;
	assert_int_not_equal(w->dma.inline_data[0], msg[0]);

	seg.length = 65;			/* more than max_inline */
	assert_int_equal(rxe_sq_post(&sq, 43, IB_UVERBS_WR_SEND, RXE_SEND_INLINE, &seg, 1),
			 -EINVAL);
	seg.length = sizeof(msg);
	assert_int_equal(rxe_sq_post(&sq, 43, IB_UVERBS_WR_SEND, RXE_SEND_SIGNALED, &seg, 1), 0);
	w = elem(&sq.ring, 1);
	assert_int_equal(w->dma.num_sge, 1);
	assert_int_equal(w->dma.length, sizeof(msg));
	assert_int_equal(w->dma.sge[0].addr, (uintptr_t)msg);
	assert_int_equal(w->dma.sge[0].length, sizeof(msg));
	assert_int_equal(w->dma.sge[0].lkey, 5);
	struct rxe_seg two[2] = { seg, seg };
	assert_int_equal(rxe_sq_post(&sq, 44, IB_UVERBS_WR_SEND, 0, two, 2), -EINVAL);
	assert_int_equal(sq.ring.buf->producer_index, 2);
	rxe_ring_unmap(&sq.ring);
	close(f.fd);
}

static void kernel_complete(struct rxe_ring *cq, uint64_t wr_id, uint32_t status)
{
	uint32_t p = cq->buf->producer_index & cq->mask;
	struct ib_uverbs_wc wc = { .wr_id = wr_id, .status = status, .byte_len = 64,
				   .qp_num = 0x11 };

	memcpy(elem(cq, p), &wc, sizeof(wc));
	cq->buf->producer_index = (p + 1) & cq->mask;
}

static void test_cq_poll_in_order_with_wrap(void **state)
{
	struct fake f = make_ring(6, 3, 0);
	struct ib_uverbs_wc wc[4];
	struct rxe_ring cq;

	(void)state;
	assert_int_equal(rxe_ring_map(&cq, f.fd, &f.mi, sizeof(wc[0])), 0);
	assert_int_equal(rxe_cq_poll(&cq, wc, 4), 0);
	kernel_complete(&cq, 1, 0);
	kernel_complete(&cq, 2, 12);
	kernel_complete(&cq, 3, 0);
	assert_int_equal(rxe_cq_poll(&cq, wc, 2), 2);
	assert_int_equal(wc[0].wr_id, 1);
	assert_int_equal(wc[1].wr_id, 2);
	assert_int_equal(wc[1].status, 12);
	assert_int_equal(cq.buf->consumer_index, 2);
	kernel_complete(&cq, 4, 0);		/* wraps to slot 3, then 0 */
	kernel_complete(&cq, 5, 0);
	assert_int_equal(cq.buf->producer_index, 1);
	assert_int_equal(rxe_cq_poll(&cq, wc, 4), 3);
	assert_int_equal(wc[0].wr_id, 3);
	assert_int_equal(wc[2].wr_id, 5);
	assert_int_equal(wc[2].qp_num, 0x11);
	assert_int_equal(cq.buf->consumer_index, 1);
	assert_int_equal(rxe_cq_poll(&cq, wc, 4), 0);
	/* Indices are masked: stray high bits cannot move a read outside. */
	cq.buf->producer_index |= 0x100;
	assert_int_equal(rxe_cq_poll(&cq, wc, 4), 0);
	assert_int_equal(rxe_cq_poll(&cq, NULL, 1), -EINVAL);
	assert_int_equal(rxe_cq_poll(&cq, wc, -1), -EINVAL);
	rxe_ring_unmap(&cq);
	close(f.fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_checks_header),
		cmocka_unit_test(test_rq_fills_wraps_and_lays_out),
		cmocka_unit_test(test_sq_inline_and_gather),
		cmocka_unit_test(test_cq_poll_in_order_with_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
