/*
 * The data-path layer's queue code on queues laid out as rxe and siw lay
 * them out, in a memfd that stands in for the device fd (mmap() of the fake
 * uverbs fd is redirected to it): mapping checks, WQE layouts, full and
 * wrapping queues, completion conversion, arming, the doorbell count, and
 * the refusal of other drivers. The kernel suite (kt_dp) runs the same
 * code against the real drivers.
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
#include <rdma/siw-abi.h>

#include <uvio.h>
#include "../../providers/dp.h"
#include "../../providers/rxe-abi.h"
#include "fake_sysfs.h"
#include "wrap.h"

#define PAGE 4096u
static int memfd = -1;
static uint8_t *mem;		/* the memfd, mapped once for the test's side */
#define MEM_LEN (64u * PAGE)

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd == fake_uverbs_fd())
		fd = memfd;
	return __real_mmap(addr, len, prot, flags, fd, off);
}

static ssize_t accept_write(const void *buf, size_t len)
{
	(void)buf;
	return (ssize_t)len;
}

static struct uvio_device *device(uint32_t driver_id)
{
	struct uvio_device *dev;

	fake_reset();
	fake.on_write = accept_write;
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), driver_id, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_WRITE), 0);
	if (memfd < 0) {
		memfd = memfd_create("queues", MFD_CLOEXEC);
		assert_true(memfd >= 0);
		assert_int_equal(ftruncate(memfd, MEM_LEN), 0);
		mem = __real_mmap(NULL, MEM_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
		assert_true(mem != MAP_FAILED);
	}
	memset(mem, 0, MEM_LEN);
	return dev;
}

/* An rxe ring at page `page` of the memfd: 2^shift-byte elements, mask. */
static struct mminfo rxe_ring(unsigned page, uint32_t shift, uint32_t mask, long delta)
{
	struct dp_rxe_ring *r = (struct dp_rxe_ring *)(mem + page * PAGE);

	r->log2_elem_size = shift;
	r->index_mask = mask;
	return (struct mminfo){ .offset = page * PAGE,
				.size = (uint32_t)((long)sizeof(*r) +
						   (long)((size_t)(mask + 1) << shift) + delta) };
}

static void rxe_map_checks(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE);
	struct uvio_dp_cq cq = { .dev = dev };
	struct rxe_create_cq_resp r;
	(void)state;

	r.mi = rxe_ring(1, 6, 15, 0);
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), 0);
	assert_int_equal(uvio_dp_queue_capacity(&cq.q), 15);
	assert_int_equal(cq.q.ring.elem_size, 64);
	uvio_dp_unmap(&cq.q.ring);
	assert_null(cq.q.ring.map);

	r.mi = rxe_ring(1, 5, 15, 0);		/* elements smaller than a completion */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EPROTO);
	assert_null(cq.q.ring.map);
	r.mi = rxe_ring(1, 6, 15, -1);		/* last element past the mapping */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EPROTO);
	r.mi = rxe_ring(1, 6, 14, 0);		/* not a power of two */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EPROTO);
	r.mi = rxe_ring(1, 6, 0, 0);		/* no room */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EPROTO);
	r.mi = rxe_ring(1, 17, 1, 0);		/* absurd element size */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EPROTO);
	r.mi = rxe_ring(1, 6, 15, 0);
	r.mi.size = sizeof(struct dp_rxe_ring) - 1;	/* not even a header */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EPROTO);
	r.mi.size = PAGE;
	r.mi.offset = 3;			/* mmap refuses an unaligned offset */
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), -EINVAL);
	assert_null(cq.q.ring.map);
	uvio_device_close(dev);
}

/* An RC QP whose send ring (4 slots) is at page 8 and receive ring at 1. */
static void rxe_qp(struct uvio_device *dev, struct uvio_dp_qp *qp, uint32_t type)
{
	struct rxe_create_qp_resp r = {
		.rq_mi = rxe_ring(1, 7, 3, 0),
		.sq_mi = rxe_ring(8, 9, 3, 0),
	};

	memset(qp, 0, sizeof(*qp));
	qp->dev = dev;
	qp->type = type;
	qp->handle = 16;
	qp->driver_id = RDMA_DRIVER_RXE;
	qp->sq.max_sge = 2;
	qp->sq.max_inline = 64;
	qp->rq.max_sge = 2;
	dp_qp_set_ops(qp, &uvio_dp_rxe_ops);	/* as create does */
	assert_int_equal(uvio_dp_rxe_ops.qp_map(qp, &r), 0);
}

static struct dp_rxe_ring *hdr(const struct uvio_dp_queue *q)
{
	return q->ring.map;
}

static void rxe_receives(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE);
	struct uvio_dp_qp qp;
	struct uvio_dp_sge sg[3] = { { 0x1000, 100, 7 }, { 0x2000, 50, 8 }, { 0x3000, 1, 9 } };
	struct uvio_dp_recv_wr wr[4];
	const struct dp_rxe_recv_wqe *w;
	const struct rxe_sge *ws;
	uint32_t bad = 9;
	(void)state;

	rxe_qp(dev, &qp, IB_UVERBS_QPT_RC);
	for (int i = 0; i < 4; i++)
		wr[i] = (struct uvio_dp_recv_wr){ .wr_id = 10 + (uint64_t)i, .sg_list = sg,
						  .num_sge = 2 };
	/* Three fit (one slot stays free); the fourth says where it stopped. */
	assert_int_equal(uvio_dp_post_recv(&qp, wr, 4, &bad), -ENOSPC);
	assert_int_equal(bad, 3);
	assert_int_equal(hdr(&qp.rq)->producer_index, 3);
	w = (const void *)(hdr(&qp.rq)->data + 128);
	ws = (const void *)(w + 1);
	assert_int_equal(w->wr_id, 11);
	assert_int_equal(w->dma.num_sge, 2);
	assert_int_equal(w->dma.length, 150);
	assert_int_equal(w->dma.resid, 150);
	assert_int_equal(ws[0].addr, 0x1000);
	assert_int_equal(ws[1].lkey, 8);
	assert_int_equal(fake.write_calls + fake.ioctl_calls, 0);	/* no syscall */

	/* The kernel takes two; the producer wraps. */
	hdr(&qp.rq)->consumer_index = 2;
	assert_int_equal(uvio_dp_post_recv(&qp, wr, 1, NULL), 0);
	assert_int_equal(hdr(&qp.rq)->producer_index, 0);
	wr[0].num_sge = 3;			/* over max_sge: checked before reading */
	assert_int_equal(uvio_dp_post_recv(&qp, wr, 1, &bad), -EINVAL);
	assert_int_equal(bad, 0);
	assert_non_null(strstr(uvio_last_error(), "QP.POST_RECV"));
	wr[0].num_sge = 1;
	wr[0].sg_list = NULL;
	assert_int_equal(uvio_dp_post_recv(&qp, wr, 1, &bad), -EINVAL);
	uvio_dp_unmap(&qp.sq.ring);
	uvio_dp_unmap(&qp.rq.ring);
	uvio_device_close(dev);
}

static const struct dp_rxe_send_wqe *sq_wqe(const struct uvio_dp_qp *qp, unsigned i)
{
	return (const void *)(hdr(&qp->sq)->data + i * 512);
}

static void rxe_sends(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE);
	struct uvio_dp_qp qp;
	uint8_t msg[64];
	struct uvio_dp_sge one = { (uintptr_t)msg, sizeof(msg), 5 };
	struct uvio_dp_sge two[2] = { { 0x10, 8, 1 }, { 0x20, 8, 2 } };
	struct uvio_dp_sge eight = { 0x40, 8, 3 };
	uint32_t bad = 9;
	(void)state;

	for (unsigned i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	rxe_qp(dev, &qp, IB_UVERBS_QPT_RC);
	struct uvio_dp_send_wr wr[3] = {
		{ .wr_id = 42, .opcode = IB_UVERBS_WR_SEND_WITH_IMM,
		  .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE, .sg_list = &one,
		  .num_sge = 1, .imm_data = 0x01020304 },
		{ .wr_id = 43, .opcode = IB_UVERBS_WR_RDMA_WRITE, .sg_list = two, .num_sge = 2,
		  .rdma = { .remote_addr = 0xabc000, .rkey = 0x77 } },
		{ .wr_id = 44, .opcode = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP, .sg_list = &eight,
		  .num_sge = 1, .atomic = { 0xdef000, 5, 6, 0x88 } },
	};
	assert_int_equal(uvio_dp_post_send(&qp, wr, 3, &bad), 0);
	assert_int_equal(bad, 0);
	assert_int_equal(fake.write_calls, 1);		/* one doorbell for the three */
	assert_int_equal(hdr(&qp.sq)->producer_index, 3);

	const struct dp_rxe_send_wqe *w = sq_wqe(&qp, 0);
	assert_int_equal(w->wr.wr_id, 42);
	assert_int_equal(w->wr.opcode, IB_UVERBS_WR_SEND_WITH_IMM);
	assert_int_equal(w->wr.send_flags, UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE);
	assert_int_equal(w->wr.ex.imm_data, 0x01020304);
	assert_int_equal(w->dma.length, 64);
	assert_memory_equal(w + 1, msg, 64);		/* copied: msg may change now */
	w = sq_wqe(&qp, 1);
	assert_int_equal(w->iova, 0xabc000);		/* where the kernel writes from */
	assert_int_equal(w->wr.wr.rdma.rkey, 0x77);
	assert_int_equal(w->dma.num_sge, 2);
	assert_int_equal(w->dma.length, 16);
	assert_int_equal(((const struct rxe_sge *)(w + 1))[1].addr, 0x20);
	w = sq_wqe(&qp, 2);
	assert_int_equal(w->iova, 0xdef000);
	assert_int_equal(w->wr.wr.atomic.compare_add, 5);
	assert_int_equal(w->wr.wr.atomic.swap, 6);
	assert_int_equal(w->wr.wr.atomic.rkey, 0x88);

	/* The ring is full (3 of 4 slots): nothing posted, no doorbell. */
	assert_int_equal(uvio_dp_post_send(&qp, wr, 1, &bad), -ENOSPC);
	assert_int_equal(bad, 0);
	assert_int_equal(fake.write_calls, 1);
	hdr(&qp.sq)->consumer_index = 3;
	/* A good WR, then one with too many inline bytes: the first is posted
	 * and rung, the second named. */
	one.length = 65;
	wr[1].flags = 0;
	struct uvio_dp_send_wr mixed[2] = { wr[1], wr[0] };
	assert_int_equal(uvio_dp_post_send(&qp, mixed, 2, &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(fake.write_calls, 2);
	assert_int_equal(hdr(&qp.sq)->producer_index, 0);
	/* An atomic needs one 8-byte SGE. */
	eight.length = 4;
	assert_int_equal(uvio_dp_post_send(&qp, &wr[2], 1, &bad), -EINVAL);
	uvio_dp_unmap(&qp.sq.ring);
	uvio_dp_unmap(&qp.rq.ring);

	/* UC has no READ and no atomics; UD needs an AH. */
	rxe_qp(dev, &qp, IB_UVERBS_QPT_UC);
	wr[1].opcode = IB_UVERBS_WR_RDMA_READ;
	assert_int_equal(uvio_dp_post_send(&qp, &wr[1], 1, &bad), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "no such opcode"));
	uvio_dp_unmap(&qp.sq.ring);
	uvio_dp_unmap(&qp.rq.ring);
	rxe_qp(dev, &qp, IB_UVERBS_QPT_UD);
	one.length = 8;
	wr[0].flags = 0;
	assert_int_equal(uvio_dp_post_send(&qp, &wr[0], 1, &bad), -EINVAL);
	struct uvio_dp_ah ah = { .handle = 3, .ah_num = 9 };
	wr[0].ud.ah = &ah;
	wr[0].ud.remote_qpn = 0x99;
	wr[0].ud.remote_qkey = 0x1111;
	assert_int_equal(uvio_dp_post_send(&qp, &wr[0], 1, &bad), 0);
	w = sq_wqe(&qp, 0);
	assert_int_equal(w->wr.wr.ud.ah_num, 9);
	assert_int_equal(w->wr.wr.ud.remote_qpn, 0x99);
	assert_int_equal(w->wr.wr.ud.remote_qkey, 0x1111);
	uvio_dp_unmap(&qp.sq.ring);
	uvio_dp_unmap(&qp.rq.ring);
	/* ATOMIC_WRITE: the 8 bytes travel in the WQE, with no SGE, and the
	 * kernel works from the remote address. */
	uint64_t value = 0x1122334455667788ull;
	struct uvio_dp_sge val = { (uintptr_t)&value, 8, 0 };
	struct uvio_dp_send_wr aw = { .wr_id = 45, .opcode = UVIO_DP_WR_ATOMIC_WRITE,
				      .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
				      .sg_list = &val, .num_sge = 1,
				      .rdma = { .remote_addr = 0xfe000, .rkey = 0x99 } };
	rxe_qp(dev, &qp, IB_UVERBS_QPT_RC);
	unsigned slot = hdr(&qp.sq)->producer_index;
	assert_int_equal(uvio_dp_post_send(&qp, &aw, 1, &bad), 0);
	w = sq_wqe(&qp, slot);
	assert_int_equal(w->wr.opcode, 15);
	assert_int_equal(w->wr.send_flags, UVIO_DP_SEND_SIGNALED);
	assert_int_equal(w->wr.wr.rdma.remote_addr, 0xfe000);
	assert_int_equal(w->wr.wr.rdma.rkey, 0x99);
	assert_int_equal(w->iova, 0xfe000);
	assert_int_equal(w->dma.length, 8);
	assert_int_equal(w->dma.resid, 8);
	assert_int_equal(w->dma.num_sge, 0);
	assert_memory_equal(w + 1, &value, 8);
	val.length = 4;		/* not 8 bytes */
	assert_int_equal(uvio_dp_post_send(&qp, &aw, 1, &bad), -EINVAL);
	uvio_dp_unmap(&qp.sq.ring);
	uvio_dp_unmap(&qp.rq.ring);
	/* UC cannot carry it. */
	rxe_qp(dev, &qp, IB_UVERBS_QPT_UC);
	val.length = 8;
	assert_int_equal(uvio_dp_post_send(&qp, &aw, 1, &bad), -EOPNOTSUPP);
	uvio_device_close(dev);
}

static void rxe_poll(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE);
	struct uvio_dp_cq cq = { .dev = dev, .driver_id = RDMA_DRIVER_RXE };
	struct rxe_create_cq_resp r = { .mi = rxe_ring(1, 6, 3, 0) };
	struct dp_rxe_ring *h = (struct dp_rxe_ring *)(mem + PAGE);
	struct uvio_dp_wc wc[4];
#define K(i) (*(struct ib_uverbs_wc *)(h->data + (i) * 64))
	(void)state;

	dp_cq_set_ops(&cq, &uvio_dp_rxe_ops);
	assert_int_equal(uvio_dp_rxe_ops.cq_map(&cq, &r), 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 0);
	/* The kernel publishes three, starting at slot 2 (a wrap). */
	h->consumer_index = h->producer_index = 2;
	K(2) = (struct ib_uverbs_wc){ .wr_id = 1, .opcode = UVIO_WC_RECV, .byte_len = 9,
				      .wc_flags = UVIO_WC_WITH_IMM, .ex = { .imm_data = 0xaa },
				      .qp_num = 0x11, .src_qp = 0x22 };
	K(3) = (struct ib_uverbs_wc){ .wr_id = 2, .opcode = UVIO_WC_RECV,
				      .wc_flags = UVIO_WC_WITH_INVALIDATE,
				      .ex = { .invalidate_rkey = 0xbb } };
	K(0) = (struct ib_uverbs_wc){ .wr_id = 3, .status = UVIO_WC_REM_ACCESS_ERR };
	h->producer_index = 1;
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 2), 2);
	assert_int_equal(wc[0].wr_id, 1);
	assert_int_equal(wc[0].imm_data, 0xaa);
	assert_int_equal(wc[0].byte_len, 9);
	assert_int_equal(wc[0].src_qp, 0x22);
	assert_int_equal(wc[1].invalidated_rkey, 0xbb);
	assert_int_equal(h->consumer_index, 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 1);
	assert_string_equal(uvio_wc_status_name(wc[0].status), "REM_ACCESS_ERR");
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, NULL, 1), -EINVAL);
	assert_int_equal(fake.write_calls + fake.ioctl_calls, 0);
	uvio_dp_unmap(&cq.q.ring);
	uvio_device_close(dev);
}

static void siw_queues(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_SIW);
	struct uvio_dp_qp qp = { .dev = dev, .type = IB_UVERBS_QPT_RC, .handle = 5,
				 .driver_id = RDMA_DRIVER_SIW,
				 .sq = { .max_sge = 2, .max_inline = 200 },
				 .rq = { .max_sge = 2 } };
	struct uvio_dp_cq cq = { .dev = dev, .driver_id = RDMA_DRIVER_SIW };
	struct siw_uresp_create_qp qr = { .num_sqe = 2, .num_rqe = 2, .sq_key = PAGE,
					  .rq_key = 4 * PAGE };
	struct siw_uresp_create_cq cr = { .num_cqe = 4, .cq_key = 8 * PAGE };
	struct siw_sqe *sq = (struct siw_sqe *)(mem + PAGE);
	struct siw_rqe *rq = (struct siw_rqe *)(mem + 4 * PAGE);
	struct siw_cqe *cqe = (struct siw_cqe *)(mem + 8 * PAGE);
	uint8_t msg[32] = "inline bytes";
	struct uvio_dp_sge s = { (uintptr_t)msg, sizeof(msg), 3 };
	struct uvio_dp_send_wr w = { .wr_id = 7, .opcode = IB_UVERBS_WR_SEND,
				     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
				     .sg_list = &s, .num_sge = 1 };
	struct uvio_dp_recv_wr r = { .wr_id = 8, .sg_list = &s, .num_sge = 1 };
	struct uvio_dp_wc wc[4];
	uint32_t bad;
	(void)state;

	dp_qp_set_ops(&qp, &uvio_dp_siw_ops);
	dp_cq_set_ops(&cq, &uvio_dp_siw_ops);
	assert_int_equal(uvio_dp_siw_ops.qp_map(&qp, &qr), 0);
	assert_int_equal(qp.sq.max_inline, SIW_MAX_INLINE);	/* capped */
	assert_int_equal(uvio_dp_siw_ops.cq_map(&cq, &cr), 0);
	/* the control word follows the CQEs */
	assert_int_equal((uint8_t *)cq.notify - (uint8_t *)cq.q.ring.map, 4 * sizeof(*cqe));

	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
	assert_int_equal(fake.write_calls, 1);
	assert_int_equal(sq[0].flags, SIW_WQE_VALID | SIW_WQE_SIGNALLED | SIW_WQE_INLINE);
	assert_int_equal(sq[0].opcode, SIW_OP_SEND);
	assert_int_equal(sq[0].num_sge, 1);
	assert_int_equal(sq[0].sge[0].length, 32);
	assert_memory_equal(&sq[0].sge[1], msg, 32);
	w.flags = 0;
	w.opcode = IB_UVERBS_WR_RDMA_READ;
	w.rdma.remote_addr = 0x5000;
	w.rdma.rkey = 0x66;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
	assert_int_equal(sq[1].flags, SIW_WQE_VALID);
	assert_int_equal(sq[1].opcode, SIW_OP_READ);
	assert_int_equal(sq[1].raddr, 0x5000);
	assert_int_equal(sq[1].rkey, 0x66);
	assert_int_equal(sq[1].sge[0].laddr, (uintptr_t)msg);
	/* Both slots are the kernel's until it clears VALID. */
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -ENOSPC);
	sq[0].flags = 0;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
	w.opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EOPNOTSUPP);

	assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, NULL), 0);
	assert_int_equal(rq[0].flags, SIW_WQE_VALID);
	assert_int_equal(rq[0].id, 8);
	assert_int_equal(rq[0].sge[0].lkey, 3);

	/* Completions: siw's codes in the IB numbering; the slot is freed. */
	cqe[0] = (struct siw_cqe){ .id = 7, .flags = SIW_WQE_VALID, .opcode = SIW_OP_SEND,
				   .bytes = 32, .qp_id = 5 };
	cqe[1] = (struct siw_cqe){ .id = 8, .flags = SIW_WQE_VALID | SIW_WQE_REM_INVAL,
				   .opcode = SIW_OP_RECEIVE, .status = SIW_WC_REM_ACCESS_ERR,
				   .inval_stag = 0x1234 };
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 2);
	assert_int_equal(wc[0].opcode, UVIO_WC_SEND);
	assert_int_equal(wc[0].byte_len, 32);
	assert_int_equal(wc[0].qp_num, 5);
	assert_int_equal(wc[1].opcode, UVIO_WC_RECV);
	assert_int_equal(wc[1].status, UVIO_WC_REM_ACCESS_ERR);
	assert_int_equal(wc[1].wc_flags, UVIO_WC_WITH_INVALIDATE);
	assert_int_equal(wc[1].invalidated_rkey, 0x1234);
	assert_int_equal(cqe[0].flags, 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 0);

	/* Arming writes the control word, no system call. */
	int calls = fake.write_calls + fake.ioctl_calls;
	assert_int_equal(uvio_dp_arm_cq(&cq, 1), 0);
	assert_int_equal(*cq.notify, SIW_NOTIFY_SOLICITED);
	assert_int_equal(uvio_dp_arm_cq(&cq, 0), 0);
	assert_int_equal(*cq.notify, SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION);
	assert_int_equal(fake.write_calls + fake.ioctl_calls, calls);

	/* What siw lacks is refused in its name, taken from its table. */
	assert_int_equal(uvio_dp_resize_cq(&cq, 8), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "CQ.RESIZE (data path): EOPNOTSUPP: siw "
				"cannot resize a CQ"));
	assert_int_equal(fake.write_calls + fake.ioctl_calls, calls);
	uvio_dp_unmap(&qp.sq.ring);
	uvio_dp_unmap(&qp.rq.ring);
	uvio_dp_unmap(&cq.q.ring);
	uvio_device_close(dev);
}

static ssize_t busy_write(const void *buf, size_t len)
{
	(void)buf; (void)len;
	return -EBUSY;
}

/*
 * The transport author's case: a CQ destroy refused (EBUSY), then a post to
 * a QP destroyed meanwhile. The post's -EINVAL must come with its own text,
 * not the destroy's.
 */
static void a_refused_post_names_itself(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE);
	struct uvio_dp_sge sg = { 0x1000, 8, 1 };
	struct uvio_dp_send_wr wr = { .wr_id = 1, .opcode = IB_UVERBS_WR_SEND, .sg_list = &sg,
				      .num_sge = 1 };
	struct uvio_dp_recv_wr rwr = { .wr_id = 2, .sg_list = &sg, .num_sge = 1 };
	struct uvio_dp_qp qp;
	uint32_t bad = 7;
	(void)state;

	rxe_qp(dev, &qp, IB_UVERBS_QPT_RC);
	fake.on_write = busy_write;
	assert_int_equal(uvio_destroy_cq(dev, 3, NULL, NULL), -EBUSY);
	assert_non_null(strstr(uvio_last_error(), "CQ.DESTROY"));
	fake.on_write = accept_write;
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_null(qp.sq.ring.map);

	assert_int_equal(uvio_dp_post_send(&qp, &wr, 1, &bad), -EINVAL);
	assert_int_equal(bad, 0);
	assert_null(strstr(uvio_last_error(), "CQ.DESTROY"));
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_post_send"));
	assert_non_null(strstr(uvio_last_error(), "argument qp"));
	assert_int_equal(uvio_dp_post_recv(&qp, &rwr, 1, &bad), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_post_recv"));
	assert_non_null(strstr(uvio_last_error(), "argument qp"));
	uvio_device_close(dev);
}

/*
 * uvio_dp_qp_opcodes() against post_send itself: every opcode 0..31 on a
 * fresh QP of each driver and type, with what the opcode needs (an 8-byte
 * SGE, an AH for UD), is posted (0) where the mask has its bit and refused
 * with -EOPNOTSUPP where it has not.
 */
static void opcodes_agree_with_post(void **state)
{
	static const uint32_t types[] = { IB_UVERBS_QPT_RC, IB_UVERBS_QPT_UC, IB_UVERBS_QPT_UD };
	static const uint32_t drivers[] = { RDMA_DRIVER_RXE, RDMA_DRIVER_SIW };
	uint64_t buf = 0;
	struct uvio_dp_sge sg = { (uintptr_t)&buf, 8, 1 };
	struct uvio_dp_ah ah = { .handle = 3, .ah_num = 9 };
	uint64_t mask;
	(void)state;

	for (size_t d = 0; d < 2; d++) {
		struct uvio_device *dev = device(drivers[d]);

		for (size_t t = 0; t < (drivers[d] == RDMA_DRIVER_SIW ? 1u : 3u); t++) {
			int accepted = 0;

			for (uint32_t op = 0; op < 32; op++) {
				struct uvio_dp_send_wr wr = { .wr_id = op, .opcode = op,
							      .sg_list = &sg, .num_sge = 1 };
				struct uvio_dp_qp qp;
				int ret;

				memset(mem, 0, MEM_LEN);	/* empty rings */
				if (drivers[d] == RDMA_DRIVER_RXE) {
					rxe_qp(dev, &qp, types[t]);
				} else {
					struct siw_uresp_create_qp qr = {
						.num_sqe = 2, .num_rqe = 2, .sq_key = PAGE,
						.rq_key = 4 * PAGE };

					memset(&qp, 0, sizeof(qp));
					qp.dev = dev;
					qp.type = types[t];
					qp.driver_id = RDMA_DRIVER_SIW;
					dp_qp_set_ops(&qp, &uvio_dp_siw_ops);
					qp.sq.max_sge = 2;
					qp.rq.max_sge = 2;
					assert_int_equal(uvio_dp_siw_ops.qp_map(&qp, &qr), 0);
				}
				wr.ud.ah = types[t] == IB_UVERBS_QPT_UD ? &ah : NULL;
				assert_int_equal(uvio_dp_qp_opcodes(&qp, &mask), 0);
				ret = uvio_dp_post_send(&qp, &wr, 1, NULL);
				if ((mask >> op) & 1) {
					assert_int_equal(ret, 0);
					accepted++;
				} else {
					assert_int_equal(ret, -EOPNOTSUPP);
				}
				uvio_dp_unmap(&qp.sq.ring);
				uvio_dp_unmap(&qp.rq.ring);
			}
			/* rxe: RC 11 (ATOMIC_WRITE among them), UC 4, UD 2; siw 4 */
			assert_int_equal(accepted, drivers[d] == RDMA_DRIVER_SIW ? 4 :
						   types[t] == IB_UVERBS_QPT_RC ? 11 :
						   types[t] == IB_UVERBS_QPT_UC ? 4 : 2);
		}
		uvio_device_close(dev);
	}
	assert_int_equal(uvio_dp_qp_opcodes(NULL, &mask), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_qp_opcodes"));
}

/*
 * The objects are sized: a size below 1.0's is refused before anything is
 * touched, with the function named; a longer struct (a later release's) is
 * cleared whole and keeps its size; nothing past the size is written.
 */
static void sizes_checked(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_MLX5);
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8);
	UVIO_OPTS(uvio_srq_attr, sa, .max_wr = 8);
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC);
	UVIO_OPTS(uvio_ah_attr, aa);
	struct {
		struct uvio_dp_cq cq;
		uint64_t later[2];	/* a later release's fields */
		uint64_t past;		/* not the object's */
	} big;
	struct uvio_dp_srq srq;
	struct uvio_dp_qp qp;
	struct uvio_dp_ah ah;
	(void)state;

	memset(&big, 0xa5, sizeof(big));
	assert_int_equal(uvio_dp_create_cq_sz(dev, &ca, &big.cq, offsetof(struct uvio_dp_cq, q)),
			 -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_create_cq: EINVAL: argument cq"));
	assert_non_null(strstr(uvio_last_error(), "shorter than 1.0's"));
	assert_int_equal(big.cq.handle, 0xa5a5a5a5);	/* untouched */
	assert_int_equal(uvio_dp_create_srq_sz(dev, &sa, &srq, 8), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_create_srq"));
	assert_int_equal(uvio_dp_create_qp_sz(dev, &qa, NULL, &qp, sizeof(qp) - 8), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_create_qp"));
	assert_int_equal(uvio_dp_create_ah_sz(dev, &aa, &ah, 0), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_dp_create_ah"));
	assert_int_equal(uvio_dp_create_ah_sz(dev, &aa, &ah, SIZE_MAX), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "far longer than 1.0's"));

	/* longer: accepted (mlx5 then refused by driver), cleared to its end */
	assert_int_equal(uvio_dp_create_cq_sz(dev, &ca, &big.cq, sizeof(big.cq) + sizeof(big.later)),
			 -EOPNOTSUPP);
	assert_int_equal(big.cq.size, sizeof(big.cq) + sizeof(big.later));
	assert_int_equal(big.cq.handle, 0);
	assert_int_equal(big.later[1], 0);
	assert_int_equal(big.past, 0xa5a5a5a5a5a5a5a5ull);
	assert_int_equal(uvio_dp_create_cq(dev, &ca, &big.cq), -EOPNOTSUPP);
	assert_int_equal(big.cq.size, sizeof(big.cq));
	assert_int_equal(fake.write_calls + fake.ioctl_calls, 0);
	uvio_device_close(dev);
}

/* Each driver id finds its own table, and no other id finds one. */
static void ops_by_driver_id(void **state)
{
	char served[64];
	(void)state;

	assert_ptr_equal(uvio_dp_ops_of(RDMA_DRIVER_RXE), &uvio_dp_rxe_ops);
	assert_ptr_equal(uvio_dp_ops_of(RDMA_DRIVER_SIW), &uvio_dp_siw_ops);
	assert_int_equal(uvio_dp_rxe_ops.driver_id, RDMA_DRIVER_RXE);
	assert_string_equal(uvio_dp_siw_ops.name, "siw");
	assert_ptr_equal(uvio_dp_ops_of(RDMA_DRIVER_MLX5), &uvio_dp_mlx5_ops);
	assert_null(uvio_dp_ops_of(RDMA_DRIVER_MLX4));
	assert_null(uvio_dp_ops_of(RDMA_DRIVER_UNKNOWN));
	uvio_dp_served(served, sizeof(served));
	assert_string_equal(served, "rxe, siw and mlx5");
	uvio_dp_served(served, 5);
	assert_string_equal(served, "rxe,");
}

/* A driver without AHs: refused in its name before any system call. */
static void siw_has_no_ah(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_SIW);
	UVIO_OPTS(uvio_ah_attr, aa);
	struct uvio_dp_ah ah;
	(void)state;

	assert_int_equal(uvio_dp_create_ah(dev, &aa, &ah), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "AH.CREATE (data path): EOPNOTSUPP: siw has "
				"no UD QPs, so no address handles"));
	assert_int_equal(fake.write_calls + fake.ioctl_calls, 0);
	uvio_device_close(dev);
}

/* Other drivers: refused by name, before any system call. */
static void other_drivers(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_MLX4);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8);
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC);
	(void)state;

	assert_int_equal(uvio_dp_create_cq(dev, &ca, &cq), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "serves rxe, siw and mlx5"));
	assert_int_equal(uvio_dp_create_qp(dev, &qa, NULL, &qp), -EOPNOTSUPP);
	assert_int_equal(fake.write_calls + fake.ioctl_calls, 0);
	assert_int_equal(uvio_dp_destroy_cq(NULL, NULL), -EINVAL);
	assert_null(uvio_wc_status_name(22));
	assert_string_equal(uvio_wc_opcode_name(UVIO_WC_RECV_RDMA_WITH_IMM), "RECV_RDMA_WITH_IMM");
	uvio_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rxe_map_checks),
		cmocka_unit_test(rxe_receives),
		cmocka_unit_test(rxe_sends),
		cmocka_unit_test(rxe_poll),
		cmocka_unit_test(siw_queues),
		cmocka_unit_test(other_drivers),
		cmocka_unit_test(ops_by_driver_id),
		cmocka_unit_test(siw_has_no_ah),
		cmocka_unit_test(a_refused_post_names_itself),
		cmocka_unit_test(opcodes_agree_with_post),
		cmocka_unit_test(sizes_checked),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	if (mem)
		munmap(mem, MEM_LEN);
	if (memfd >= 0)
		close(memfd);
	return rc;
}
