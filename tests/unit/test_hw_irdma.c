/*
 * The irdma half (lib/hw/irdma.c) against a stand-in kernel: the commands
 * the library sends for each verb, in order and byte by byte, for requests
 * whose sizes come out differently under irdma's rules; the regions it
 * registers (REG_MR with irdma's request) before each CQ and QP and
 * deregisters after them, or when the kernel refuses them; and its
 * refusals before any command. The expected values are worked out here
 * from libirdma's rules (CQ: (cqe + 1) x 2 CQEs of 32 bytes on GEN_2, at
 * least 4, in 4 KiB pages, the shadow area a page of its own with
 * CQ_RESIZE; QP: WQE shift from the fragments, one more for the send
 * queue's immediate data, and the inline bytes; depths (wr << shift) + 258
 * or + 1 rounded up to a power of two, at least 8 << shift; queues of
 * 32-byte quanta in 4 KiB pages), not taken from the library. The kernel
 * suite (kernel/6.1-irdma) runs the same half against a real kernel's
 * stand-in driver and libirdma.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <rdma/irdma-abi.h>
#include <uvio.h>
#include "wrap.h"
#include "hw_query.h"
#include "hw_fake.h"

/* The doorbell page the stand-in kernel offers: anonymous memory; the
 * offsets asked for are kept. */
static off_t map_offsets[8];
static unsigned int maps;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd == fake_uverbs_fd()) {
		if (maps < 8)
			map_offsets[maps++] = off;
		return __real_mmap(addr, len, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

/* One command as the stand-in kernel saw it. */
struct seen {
	uint16_t object, method;
	uint32_t write_cmd;		/* INVOKE_WRITE's command, else 0 */
	uint8_t uhw_in[64];
	uint32_t uhw_in_len, uhw_out_len;
	uint64_t core_in[8];		/* a write command's core request */
	uint32_t cqe;			/* CQ.CREATE's CQE */
	uint32_t cap[5];		/* QP.CREATE's CAP */
	uint32_t handle;		/* a destroy's handle; a create's new one */
};

static struct {
	struct seen log[64];
	unsigned int n;
	int answer;			/* errno for the next CQ or QP create */
	uint32_t next_handle;
	struct irdma_alloc_ucontext_resp ctx;
} k;

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	const struct ib_uverbs_attr *a;
	struct seen *s;

	(void)request;
	assert_true(k.n < 64);
	s = &k.log[k.n++];
	memset(s, 0, sizeof(*s));
	s->object = h->object_id;
	s->method = h->method_id;
	if ((a = find(h, UVERBS_ATTR_UHW_IN))) {
		assert_true(a->len <= sizeof(s->uhw_in));
		memcpy(s->uhw_in, a->len > 8 ? (void *)(uintptr_t)a->data : (void *)&a->data,
		       a->len);
		s->uhw_in_len = a->len;
	}
	if ((a = find(h, UVERBS_ATTR_UHW_OUT)))
		s->uhw_out_len = a->len;
	if (h->object_id == UVERBS_OBJECT_DEVICE && h->method_id == UVERBS_METHOD_INVOKE_WRITE) {
		struct ib_uverbs_attr *out = (struct ib_uverbs_attr *)find(h, UVERBS_ATTR_CORE_OUT);

		a = find(h, UVERBS_ATTR_WRITE_CMD);
		s->write_cmd = (uint32_t)a->data;
		if ((a = find(h, UVERBS_ATTR_CORE_IN)))
			memcpy(s->core_in, a->len > 8 ? (void *)(uintptr_t)a->data :
							(void *)&a->data,
			       a->len < sizeof(s->core_in) ? a->len : sizeof(s->core_in));
		if (s->write_cmd == IB_USER_VERBS_CMD_REG_MR) {
			struct ib_uverbs_reg_mr_resp r = { .mr_handle = ++k.next_handle };

			s->handle = r.mr_handle;
			put_out(out, &r, sizeof(r));
		} else if (s->write_cmd == IB_USER_VERBS_CMD_ALLOC_PD) {
			struct ib_uverbs_alloc_pd_resp r = { .pd_handle = ++k.next_handle };

			s->handle = r.pd_handle;
			put_out(out, &r, sizeof(r));
		} else if (s->write_cmd == IB_USER_VERBS_CMD_DEREG_MR ||
			   s->write_cmd == IB_USER_VERBS_CMD_DEALLOC_PD) {
			memcpy(&s->handle, s->core_in, sizeof(s->handle));	/* the handle */
		} else if (s->write_cmd == IB_USER_VERBS_CMD_DESTROY_CQ) {
			/* after the response address */
			memcpy(&s->handle, (uint8_t *)s->core_in + 8, sizeof(s->handle));
		}
		return 0;
	}
	for (unsigned int i = 0; i < h->num_attrs; i++) {
		struct ib_uverbs_attr *x = &h->attrs[i];

		switch (h->object_id) {
		case UVERBS_OBJECT_DEVICE:
			if (h->method_id == UVERBS_METHOD_GET_CONTEXT &&
			    x->attr_id == UVERBS_ATTR_UHW_OUT)
				put_out(x, &k.ctx, sizeof(k.ctx));
			break;
		case UVERBS_OBJECT_ASYNC_EVENT:
			x->data = (uint64_t)dup(fake_uverbs_fd());
			break;
		case UVERBS_OBJECT_MR:
		case UVERBS_OBJECT_PD:
			if (x->attr_id == 0)	/* the destroyed handle */
				s->handle = (uint32_t)x->data;
			break;
		case UVERBS_OBJECT_CQ:
		case UVERBS_OBJECT_QP:
			if (h->method_id != 0) {	/* destroys */
				if (x->attr_id == 0)
					s->handle = (uint32_t)x->data;
				break;
			}
			if (k.answer)
				return k.answer;
			if (x->attr_id == 0)	/* the new handle */
				x->data = s->handle = ++k.next_handle;
			else if (h->object_id == UVERBS_OBJECT_CQ &&
				 x->attr_id == UVERBS_ATTR_CREATE_CQ_CQE)
				s->cqe = (uint32_t)x->data;
			else if (h->object_id == UVERBS_OBJECT_QP &&
				 x->attr_id == UVERBS_ATTR_CREATE_QP_CAP)
				memcpy(s->cap, (void *)(uintptr_t)x->data, sizeof(s->cap));
			else if (x->attr_id == UVERBS_ATTR_UHW_OUT)
				put_out(x, &(uint32_t){ 7 }, 4);	/* cq_id, qp_id */
			else if (x->attr_id != UVERBS_ATTR_UHW_IN &&
				 (x->flags & UVERBS_ATTR_F_MANDATORY) && x->len == 4 &&
				 (x->attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE ||
				  x->attr_id == UVERBS_ATTR_CREATE_QP_RESP_QP_NUM))
				put_out(x, &(uint32_t){ 1 }, 4);
			break;
		}
	}
	return 0;
}

/* An E810-like context: GEN_2, CQ_RESIZE and RTS_AE, doorbell key 0x3000. */
static struct uvio_device *irdma_device(void)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	maps = 0;
	fake.on_ioctl = kernel_ioctl;
	k.ctx.kernel_ver = 5;
	k.ctx.feature_flags = 3;
	k.ctx.db_mmap_key = 0x3000;
	k.ctx.max_hw_wq_frags = 13;
	k.ctx.max_hw_read_sges = 13;
	k.ctx.max_hw_inline = 101;
	k.ctx.max_hw_rq_quanta = 32768;
	k.ctx.max_hw_wq_quanta = 32768;
	k.ctx.max_hw_sq_chunk = 8;
	k.ctx.min_hw_cq_size = 1;
	k.ctx.max_hw_cq_size = 1048575;
	k.ctx.hw_rev = 2;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_IRDMA, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	return dev;
}

static struct uvio_device *with_context(int *async_fd)
{
	struct uvio_device *dev = irdma_device();
	UVIO_OPTS(uvio_context, ctx);

	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	*async_fd = ctx.async_fd;
	k.n = 0;
	return dev;
}

static void done(struct uvio_device *dev, int async_fd)
{
	uvio_device_close(dev);
	if (async_fd >= 0)
		close(async_fd);
}

static struct irdma_mem_reg_req reg_req(const struct seen *s)
{
	struct irdma_mem_reg_req r;

	assert_int_equal(s->write_cmd, IB_USER_VERBS_CMD_REG_MR);
	assert_int_equal(s->uhw_in_len, sizeof(r));
	memcpy(&r, s->uhw_in, sizeof(r));
	return r;
}

/* struct ib_uverbs_reg_mr: response, start, length, hca_va, pd_handle,
 * access_flags (the core request of the write command). */
static void reg_core(const struct seen *s, uint64_t *start, uint64_t *len, uint32_t *pd)
{
	struct ib_uverbs_reg_mr c;

	memcpy(&c, s->core_in, sizeof(c) < sizeof(s->core_in) ? sizeof(c) : sizeof(s->core_in));
	*start = c.start;
	*len = c.length;
	*pd = c.pd_handle;
	assert_int_equal(c.hca_va, c.start);
	assert_int_equal(c.access_flags, IB_UVERBS_ACCESS_LOCAL_WRITE);
}

/* userspace_ver 5 in libirdma 44's 8-byte request, room for its 64-byte
 * answer; the doorbell page mapped at the key answered; a PD of the
 * context's own allocated (PD.ALLOC, irdma's answer asked), and freed at
 * close. */
static void context(void **state)
{
	struct uvio_device *dev = irdma_device();
	UVIO_OPTS(uvio_context, ctx);
	struct irdma_alloc_ucontext_req r;
	unsigned int n;

	(void)state;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(k.log[0].object, UVERBS_OBJECT_DEVICE);
	assert_int_equal(k.log[0].method, UVERBS_METHOD_GET_CONTEXT);
	assert_int_equal(k.log[0].uhw_in_len, 8);
	assert_int_equal(k.log[0].uhw_out_len, 64);
	memcpy(&r, k.log[0].uhw_in, 8);
	assert_int_equal(r.userspace_ver, 5);
	assert_int_equal(r.rsvd32, 0);
	assert_int_equal(maps, 1);
	assert_int_equal(map_offsets[0], 0x3000);
	n = k.n;
	assert_int_equal(k.log[n - 1].write_cmd, IB_USER_VERBS_CMD_ALLOC_PD);
	assert_int_equal(k.log[n - 1].uhw_out_len, sizeof(struct irdma_alloc_pd_resp));
	uvio_device_close(dev);
	assert_int_equal(k.log[k.n - 1].write_cmd, IB_USER_VERBS_CMD_DEALLOC_PD);	/* freed at close */
	assert_int_equal(k.log[k.n - 1].handle, k.log[n - 1].handle);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);

	/* a legacy i40iw answer (no hw_rev): no doorbell page, CQs refused */
	dev = irdma_device();
	k.ctx.hw_rev = 0;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(maps, 0);
	{
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
		UVIO_OPTS(uvio_cq, cq);

		n = k.n;
		assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EOPNOTSUPP);
		assert_int_equal(k.n, n);
		assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: irdma: EOPNOTSUPP"));
	}
	done(dev, ctx.async_fd);
}

/* REG_MR of the buffer (reg_type CQ, its pages) and of the shadow area
 * (cq_pages 1, 64 bytes on a page of its own) in the context's PD, then
 * CQ.CREATE with cq_size and both addresses; destroyed: both deregistered. */
static void cq_regions(void **state)
{
	static const struct { uint32_t cqe, cq_size, pages; } t[] = {
		{ 16, 34, 1 },		/* 34 x 32 = 1088 */
		{ 1, 4, 1 },		/* (1 + 1) x 2 = 4 */
		{ 100, 202, 2 },	/* 6464 bytes */
		{ 1000, 2002, 16 },	/* 64064 bytes */
	};
	int afd;
	struct uvio_device *dev = with_context(&afd);
	uint32_t ctx_pd = k.next_handle;	/* the context's PD: the one handle so far */

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		UVIO_OPTS(uvio_cq_attr, a, .cqe = t[i].cqe);
		UVIO_OPTS(uvio_cq, cq);
		struct irdma_mem_reg_req rb, rs;
		struct irdma_create_cq_req c;
		uint64_t bstart, blen, sstart, slen;
		uint32_t bpd, spd, bh, sh;

		k.n = 0;
		assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
		assert_int_equal(k.n, 3);
		rb = reg_req(&k.log[0]);
		rs = reg_req(&k.log[1]);
		reg_core(&k.log[0], &bstart, &blen, &bpd);
		reg_core(&k.log[1], &sstart, &slen, &spd);
		assert_int_equal(rb.reg_type, IRDMA_MEMREG_TYPE_CQ);
		assert_int_equal(rb.cq_pages, t[i].pages);
		assert_int_equal(rb.sq_pages + rb.rq_pages, 0);
		assert_int_equal(blen, t[i].pages * 4096);
		assert_int_equal(rs.reg_type, IRDMA_MEMREG_TYPE_CQ);
		assert_int_equal(rs.cq_pages, 1);
		assert_int_equal(slen, 64);
		assert_int_equal(bpd, ctx_pd);
		assert_int_equal(spd, ctx_pd);
		assert_true((bstart & 4095) == 0 && (sstart & 4095) == 0);
		bh = k.log[0].handle;
		sh = k.log[1].handle;
		assert_int_equal(k.log[2].object, UVERBS_OBJECT_CQ);
		assert_int_equal(k.log[2].cqe, t[i].cq_size);
		assert_int_equal(k.log[2].uhw_in_len, sizeof(c));
		assert_int_equal(k.log[2].uhw_out_len, sizeof(struct irdma_create_cq_resp));
		memcpy(&c, k.log[2].uhw_in, sizeof(c));
		assert_int_equal(c.user_cq_buf, bstart);
		assert_int_equal(c.user_shadow_area, sstart);
		assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_CQ,
			      (const void *)(uintptr_t)bstart, false);
		assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_SHADOW,
			      (const void *)(uintptr_t)sstart, false);
		k.n = 0;
		assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
		assert_int_equal(k.n, 3);
		assert_int_equal(k.log[0].object, UVERBS_OBJECT_CQ);
		assert_int_equal(k.log[1].write_cmd, IB_USER_VERBS_CMD_DEREG_MR);
		assert_int_equal(k.log[1].handle, bh);
		assert_int_equal(k.log[2].write_cmd, IB_USER_VERBS_CMD_DEREG_MR);
		assert_int_equal(k.log[2].handle, sh);
	}
	/* the kernel refuses the CQ: both regions deregistered at once */
	{
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
		UVIO_OPTS(uvio_cq, cq);

		k.n = 0;
		k.answer = EPROTO;
		assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EPROTO);
		assert_int_equal(k.n, 5);
		assert_int_equal(k.log[3].write_cmd, IB_USER_VERBS_CMD_DEREG_MR);
		assert_int_equal(k.log[3].handle, k.log[0].handle);
		assert_int_equal(k.log[4].handle, k.log[1].handle);
		k.answer = 0;
	}
	/* without CQ_RESIZE the shadow area follows the buffer in one region */
	done(dev, afd);
	dev = irdma_device();
	k.ctx.feature_flags = 1;
	{
		UVIO_OPTS(uvio_context, ctx);
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
		UVIO_OPTS(uvio_cq, cq);
		struct irdma_create_cq_req c;
		uint64_t start, len;
		uint32_t pd;

		assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
		k.n = 0;
		assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
		assert_int_equal(k.n, 2);
		assert_int_equal(reg_req(&k.log[0]).cq_pages, 1);
		reg_core(&k.log[0], &start, &len, &pd);
		assert_int_equal(len, 4096 + 64);
		memcpy(&c, k.log[1].uhw_in, sizeof(c));
		assert_int_equal(c.user_cq_buf, start);
		assert_int_equal(c.user_shadow_area, start + 4096);
		done(dev, ctx.async_fd);
	}
}

/* REG_MR of the queues (reg_type QP, sq_pages, rq_pages) in the QP's PD,
 * then QP.CREATE with the depths in quanta; destroyed: deregistered. */
static void qp_regions(void **state)
{
	static const struct {
		struct ib_uverbs_qp_cap cap;
		uint32_t send, recv, sq_pages, rq_pages;
	} t[] = {
		/* 1 SGE + imm = 2 fragments: shift 1; 16 x 2 + 258 -> 512 (4
		 * pages), 256 sent; receive shift 0: 17 -> 32 (1 page) */
		{ { 16, 16, 1, 1, 0 }, 256, 32, 4, 1 },
		/* no send SGE + imm = 1 fragment, 8 bytes inline: shift 0;
		 * 1 + 258 -> 512 (4 pages); receive 1 + 1 -> 2, at least 8 */
		{ { 1, 1, 0, 1, 8 }, 512, 8, 4, 1 },
		/* 5 SGEs + imm = 6: shift 2; 100 x 4 + 258 = 658 -> 1024 (8
		 * pages), 256 sent; receive 5 SGEs: shift 2, 401 -> 512 (4 pages),
		 * 128 sent */
		{ { 100, 100, 5, 5, 0 }, 256, 128, 8, 4 },
		/* 2 fragments, 60 bytes inline: shift 2; 10 x 4 + 258 = 298 ->
		 * 512 (4 pages), 128 sent; no receive SGEs: shift 0, 11 -> 16 */
		{ { 10, 10, 1, 0, 60 }, 128, 16, 4, 1 },
		/* 8 SGEs + imm = 9: shift 3; 4 x 8 + 258 = 290 -> 512, 64 sent;
		 * receive 8 SGEs: shift 3, 4 x 8 + 1 = 33 -> 64, at least 64 */
		{ { 4, 4, 8, 8, 0 }, 64, 8, 4, 1 },
	};
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		UVIO_OPTS(uvio_qp_init_attr, a, .type = i % 2 ? IB_UVERBS_QPT_UD : IB_UVERBS_QPT_RC,
			  .pd_handle = 42, .send_cq_handle = 2, .recv_cq_handle = 2, .cap = t[i].cap);
		UVIO_OPTS(uvio_qp, qp);
		struct irdma_mem_reg_req r;
		struct irdma_create_qp_req c;
		uint64_t start, len;
		uint32_t pd, h;

		k.n = 0;
		assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
		assert_int_equal(k.n, 2);
		r = reg_req(&k.log[0]);
		reg_core(&k.log[0], &start, &len, &pd);
		assert_int_equal(r.reg_type, IRDMA_MEMREG_TYPE_QP);
		assert_int_equal(r.sq_pages, t[i].sq_pages);
		assert_int_equal(r.rq_pages, t[i].rq_pages);
		assert_int_equal(r.cq_pages, 0);
		assert_int_equal(len, (t[i].sq_pages + t[i].rq_pages) * 4096 + 64);
		assert_int_equal(pd, 42);
		assert_true((start & 4095) == 0);
		h = k.log[0].handle;
		assert_int_equal(k.log[1].object, UVERBS_OBJECT_QP);
		assert_int_equal(k.log[1].cap[0], t[i].send);
		assert_int_equal(k.log[1].cap[1], t[i].recv);
		assert_int_equal(k.log[1].cap[2], t[i].cap.max_send_sge);
		assert_int_equal(k.log[1].cap[3], t[i].cap.max_recv_sge);
		assert_int_equal(k.log[1].cap[4], t[i].cap.max_inline_data);
		assert_int_equal(k.log[1].uhw_in_len, sizeof(c));
		assert_int_equal(k.log[1].uhw_out_len, sizeof(struct irdma_create_qp_resp));
		memcpy(&c, k.log[1].uhw_in, sizeof(c));
		assert_int_equal(c.user_wqe_bufs, start);
		assert_int_not_equal(c.user_compl_ctx, 0);
		k.n = 0;
		assert_int_equal(uvio_destroy_qp(dev, qp.handle, NULL, NULL), 0);
		assert_int_equal(k.n, 2);
		assert_int_equal(k.log[1].write_cmd, IB_USER_VERBS_CMD_DEREG_MR);
		assert_int_equal(k.log[1].handle, h);
	}
	done(dev, afd);
}

/* A plain MR without the caller's driver data: irdma's request of reg_type
 * MEM (8 zero bytes), as libirdma sends it; the caller's own request goes
 * as given. */
static void mr_request(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	static uint8_t mem[8192];
	UVIO_OPTS(uvio_mr_attr, a, .pd_handle = 1, .addr = mem, .length = sizeof(mem),
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	UVIO_OPTS(uvio_mr, mr);
	struct irdma_mem_reg_req r, mine = { .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = 1 };
	UVIO_OPTS(uvio_drv, d, .in = &mine, .in_len = sizeof(mine));

	(void)state;
	assert_int_equal(uvio_reg_mr(dev, &a, NULL, &mr, NULL), 0);
	assert_int_equal(k.n, 1);
	r = reg_req(&k.log[0]);
	assert_int_equal(r.reg_type, IRDMA_MEMREG_TYPE_MEM);
	assert_int_equal(r.cq_pages + r.rq_pages + r.sq_pages, 0);
	k.n = 0;
	assert_int_equal(uvio_reg_mr(dev, &a, &d, &mr, NULL), 0);
	r = reg_req(&k.log[0]);
	assert_int_equal(r.reg_type, IRDMA_MEMREG_TYPE_QP);
	assert_int_equal(r.sq_pages, 1);
	done(dev, afd);
}

/* Refused before any command, in irdma's words. */
static void refusals(void **state)
{
	int afd;
	struct uvio_device *dev = irdma_device();
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = IB_UVERBS_QPT_UC, .pd_handle = 1,
		  .cap = { .max_send_wr = 1, .max_send_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);
	UVIO_OPTS(uvio_srq, srq);
	UVIO_OPTS(uvio_srq_attr, s, .pd_handle = 1, .max_wr = 16, .max_sge = 1);
	unsigned int n;

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EOPNOTSUPP);
	assert_int_equal(k.n, 0);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: irdma: EOPNOTSUPP: this handle has "
					       "no context the library made"));
	uvio_device_close(dev);

	dev = with_context(&afd);
	n = k.n;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: irdma: EOPNOTSUPP: irdma's QPs are RC and UD"));
	q.type = IB_UVERBS_QPT_RC;
	q.cap.max_send_sge = 14;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: irdma: EINVAL: cap.max_send_sge past the context's max_hw_wq_frags"));
	q.cap.max_send_sge = 1;
	q.cap.max_send_wr = 16384;	/* 16384 x 2 + 258 -> 65536 quanta */
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: irdma: EINVAL: cap.max_send_wr past the context's max_hw_wq_quanta"));
	a.cqe = 1048576;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: irdma: EINVAL: cqe: outside"));
	a.cqe = 0;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(uvio_create_srq(dev, &s, NULL, &srq, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "SRQ.CREATE: irdma: EOPNOTSUPP: irdma has no SRQs"));
	assert_int_equal(k.n, n);
	done(dev, afd);
}

/* A handle over an fd that outlives it (adopted): at close the CQ the
 * library made is destroyed, then its regions deregistered, then the
 * context's own PD let go, so that nothing stays registered or pinned on
 * the file. (The library once unmapped the regions and left them and the
 * CQ registered on the fd.) */
static void close_adopted(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	uint32_t ctx_pd = k.next_handle;
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	uint32_t bh, sh;

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	bh = k.log[0].handle;
	sh = k.log[1].handle;
	k.n = 0;
	done(dev, afd);
	assert_int_equal(k.n, 4);
	assert_int_equal(k.log[0].write_cmd, IB_USER_VERBS_CMD_DESTROY_CQ);
	assert_int_equal(k.log[0].handle, cq.handle);
	assert_int_equal(k.log[1].write_cmd, IB_USER_VERBS_CMD_DEREG_MR);
	assert_int_equal(k.log[1].handle, bh);
	assert_int_equal(k.log[2].write_cmd, IB_USER_VERBS_CMD_DEREG_MR);
	assert_int_equal(k.log[2].handle, sh);
	assert_int_equal(k.log[3].write_cmd, IB_USER_VERBS_CMD_DEALLOC_PD);
	assert_int_equal(k.log[3].handle, ctx_pd);
}

/* Every number of the caller's that enters a size is held to the
 * context's limits first (2^31, 2^32 - 1 and each limit plus one: 13
 * fragments, 101 bytes inline, queues of 32768 quanta, CQs of
 * max_hw_cq_size): refused before anything is sent, the field named. */
static void limits(void **state)
{
	/* send: (WRs + 258 reserved) rounded up to a power of two, past
	 * 32768 quanta from 32511; receive: WRs + 1, from 32768 */
	static const uint32_t plus_one[5] = { 32511, 32768, 14, 14, 102 };
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	assert_qp_limits(dev, IB_UVERBS_QPT_RC, 0x1f, plus_one);
	assert_cq_limits(dev, 1048576);
	done(dev, afd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(context),
		cmocka_unit_test(cq_regions),
		cmocka_unit_test(qp_regions),
		cmocka_unit_test(mr_request),
		cmocka_unit_test(refusals),
		cmocka_unit_test(limits),
		cmocka_unit_test(close_adopted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
