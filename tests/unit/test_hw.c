/*
 * The hardware drivers' halves (lib/hw) against a stand-in kernel: what the
 * library's mlx5 half sends for each verb, byte by byte, for requests whose
 * sizes come out differently under mlx5's rules; its refusals before any
 * command; and what a hardware driver without a half is told. The expected
 * values are worked out here from mlx5's rules (send WQE: transport
 * overhead, RC 192 and UD 64 bytes, plus 16 per gather entry or 4 + the
 * inline data rounded to 16, in 64-byte blocks; ...), not taken from the
 * library. The kernel suite (kernel/6.1-mlx5) runs the same half against a
 * real kernel's stand-in driver and libmlx5.
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

#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <uvio.h>
#include <uvio/mlx5.h>
#include "wrap.h"
#include "hw_fake.h"

/* The doorbell pages the stand-in kernel offers: anonymous memory; the
 * offsets asked for are kept. */
static off_t uar_offsets[32];
static unsigned int uar_maps;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd == fake_uverbs_fd()) {
		if (uar_maps < 32)
			uar_offsets[uar_maps++] = off;
		return __real_mmap(addr, len, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

/* What the stand-in kernel saw, and what it answers. */
static struct {
	uint16_t object, method;
	uint8_t uhw_in[256];
	uint32_t uhw_in_len;
	uint32_t uar_type_len;		/* UAR.ALLOC's TYPE attribute */
	uint32_t cap[5];		/* QP.CREATE's CAP */
	uint32_t srq_max_wr, srq_max_sge;
	int ioctls, answer;
	uint32_t next_handle;
	struct mlx5_ib_alloc_ucontext_resp ctx;
	/* Another thread's create, run inside the kernel's CQ destroy once
	 * the handle is free: it gets the same handle, as a real kernel's
	 * next create may. */
	struct uvio_device *dev;
	bool create_on_destroy;
	uint32_t created_in_destroy;
	uint64_t created_buf;
} k;

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	const struct ib_uverbs_attr *a;

	(void)request;
	k.ioctls++;
	k.object = h->object_id;
	k.method = h->method_id;
	if ((a = find(h, UVERBS_ATTR_UHW_IN)) && h->object_id < 0x1000) {
		assert_true(a->len <= sizeof(k.uhw_in));
		memcpy(k.uhw_in, a->len > 8 ? (void *)(uintptr_t)a->data : (void *)&a->data,
		       a->len);
		k.uhw_in_len = a->len;
	}
	if (k.answer)
		return k.answer;
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
		case MLX5_IB_OBJECT_UAR:
			if (x->attr_id == MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE)
				k.uar_type_len = x->len;
			else if (x->attr_id == MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE)
				x->data = 3;
			else if (x->attr_id == MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH)
				put_out(x, &(uint32_t){ 4096 }, 4);
			else if (x->attr_id == MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET)
				put_out(x, &(uint64_t){ 0x900000 }, 8);
			else if (x->attr_id == MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID)
				put_out(x, &(uint32_t){ 5 }, 4);
			break;
		case UVERBS_OBJECT_CQ:
		case UVERBS_OBJECT_QP:
		case UVERBS_OBJECT_SRQ:
			if (h->method_id == UVERBS_METHOD_CQ_DESTROY &&
			    h->object_id == UVERBS_OBJECT_CQ && k.create_on_destroy &&
			    x->attr_id == UVERBS_ATTR_DESTROY_CQ_HANDLE) {
				UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8);
				UVIO_OPTS(uvio_cq, cq);
				struct mlx5_ib_create_cq r;

				k.create_on_destroy = false;
				k.next_handle = (uint32_t)x->data - 1;	/* free again */
				assert_int_equal(uvio_create_cq(k.dev, &ca, NULL, &cq, NULL), 0);
				memcpy(&r, k.uhw_in, sizeof(r));
				k.created_in_destroy = cq.handle;
				k.created_buf = r.buf_addr;
			}
			if (h->method_id != 0)	/* destroys */
				break;
			if (x->attr_id == 0)	/* the new handle */
				x->data = ++k.next_handle;
			else if (h->object_id == UVERBS_OBJECT_QP &&
				 x->attr_id == UVERBS_ATTR_CREATE_QP_CAP)
				memcpy(k.cap, (void *)(uintptr_t)x->data, sizeof(k.cap));
			else if (h->object_id == UVERBS_OBJECT_SRQ &&
				 x->attr_id == UVERBS_ATTR_CREATE_SRQ_MAX_WR)
				k.srq_max_wr = (uint32_t)x->data;
			else if (h->object_id == UVERBS_OBJECT_SRQ &&
				 x->attr_id == UVERBS_ATTR_CREATE_SRQ_MAX_SGE)
				k.srq_max_sge = (uint32_t)x->data;
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

/* A 6.1 ConnectX-like context: dynamic UARs, CQE version 1. */
static struct uvio_device *mlx5_device(void)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	uar_maps = 0;
	fake.on_ioctl = kernel_ioctl;
	k.ctx.cqe_version = 1;
	k.ctx.bf_reg_size = 512;
	k.ctx.cache_line_size = 64;
	k.ctx.max_sq_desc_sz = 1024;
	k.ctx.max_rq_desc_sz = 512;
	k.ctx.max_send_wqebb = 32768;
	k.ctx.max_recv_wr = 32768;
	k.ctx.max_srq_recv_wr = 32768;
	k.ctx.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_MLX5, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	return dev;
}

static struct uvio_device *with_context(int *async_fd)
{
	struct uvio_device *dev = mlx5_device();
	UVIO_OPTS(uvio_context, ctx);

	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	*async_fd = ctx.async_fd;
	return dev;
}

static void done(struct uvio_device *dev, int async_fd)
{
	uvio_device_close(dev);
	if (async_fd >= 0)
		close(async_fd);
}

/* The context's request as libmlx5 sends it; the UAR object asked with
 * its type as the 8 bytes the kernel's "const" attribute takes (sent as 4,
 * the kernel refused it, and every QP after). */
static void context_request(void **state)
{
	struct mlx5_ib_alloc_ucontext_req_v2 want = {
		.total_num_bfregs = 16, .num_low_latency_bfregs = 4, .max_cqe_version = 1,
		.lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR,
	};
	struct uvio_device *dev = mlx5_device();
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_mlx5_context, m);

	(void)state;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(k.uhw_in_len, sizeof(want));
	assert_memory_equal(k.uhw_in, &want, sizeof(want));
	assert_int_equal(k.uar_type_len, 8);
	assert_int_equal(uvio_mlx5_query_context(dev, &m), 0);
	assert_int_equal(m.dynamic_uar, 1);
	assert_int_equal(m.uar_page_id, 5);
	assert_non_null(m.uar);
	done(dev, ctx.async_fd);
}

static struct mlx5_ib_create_qp qp_req(struct uvio_device *dev, uint32_t type,
				       struct ib_uverbs_qp_cap cap)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = 1, .send_cq_handle = 2,
		  .recv_cq_handle = 2, .cap = cap);
	UVIO_OPTS(uvio_qp, qp);
	struct mlx5_ib_create_qp r;

	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_int_equal(k.object, UVERBS_OBJECT_QP);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.buf_addr & 4095) == 0);
	assert_true((r.db_addr & 63) == 0);
	assert_int_equal(r.flags, MLX5_QP_FLAG_SCATTER_CQE | (1 << 10) /* UAR_PAGE_INDEX */);
	assert_int_equal(r.bfreg_index, 5);
	{
		/* Its register: the page's first blue-flame one, two halves of
		 * 256 bytes; an output sized before those fields keeps them. */
		UVIO_OPTS(uvio_mlx5_context, m);
		UVIO_OPTS(uvio_mlx5_object, o);
		struct uvio_mlx5_object old;

		assert_int_equal(uvio_mlx5_query_context(dev, &m), 0);
		assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_QP, qp.handle, &o), 0);
		assert_ptr_equal(o.reg, (uint8_t *)m.uar + 0x800);
		assert_int_equal(o.bf_size, 256);
		assert_int_equal(o.bf_wc, 0);	/* the non-cached page, asked first */
		memset(&old, 0x77, sizeof(old));
		old.sz = offsetof(struct uvio_mlx5_object, reg);
		assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_QP, qp.handle, &old), 0);
		assert_int_equal(old.sq_wqe_cnt, o.sq_wqe_cnt);
		assert_int_equal(old.bf_size, 0x77777777);
	}
	return r;
}

/* Send and receive queues sized by mlx5's rules, and what the kernel is
 * told of the inline data a WQE holds. */
static void qp_sizes(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	struct mlx5_ib_create_qp r;

	(void)state;
	/* RC, 16 x 1 SGE: 192 + 16 -> 256-byte WQEs, 4 KiB, 64 blocks; RQ 16 x 16 */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 });
	assert_int_equal(r.sq_wqe_count, 64);
	assert_int_equal(r.rq_wqe_count, 16);
	assert_int_equal(r.rq_wqe_shift, 4);
	assert_int_equal(r.uidx, 0);
	assert_int_equal(k.cap[4], 256 - 192 - 4);	/* max_inline_data sent */
	/* UD: 64 + 16 -> 128-byte WQEs, 2 KiB, 32 blocks */
	r = qp_req(dev, IB_UVERBS_QPT_UD, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 });
	assert_int_equal(r.sq_wqe_count, 32);
	assert_int_equal(r.uidx, 1);
	/* RC, 200 bytes inline: 192 + (4 + 200 -> 208) = 400 -> 448-byte WQEs;
	 * 10 x 448 = 4480 -> 8 KiB, 128 blocks; 3 scatter entries: 48 -> 64-byte
	 * receive WQEs, 5 WRs -> 8 */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 10, 5, 1, 3, 200 });
	assert_int_equal(r.sq_wqe_count, 128);
	assert_int_equal(r.rq_wqe_count, 8);
	assert_int_equal(r.rq_wqe_shift, 6);
	assert_int_equal(k.cap[4], 448 - 192 - 4);
	/* UC, 4 gather entries: 192 + 64 = 256; one receive WR of one SGE: 16
	 * bytes, but the queue is at least 64: 4 WQEs */
	r = qp_req(dev, IB_UVERBS_QPT_UC, (struct ib_uverbs_qp_cap){ 1, 1, 4, 1, 0 });
	assert_int_equal(r.sq_wqe_count, 4);
	assert_int_equal(r.rq_wqe_count, 4);
	assert_int_equal(r.rq_wqe_shift, 4);
	done(dev, afd);
}

/* 2 x max_wr + 1 entries where the device allows (a wait queue), else
 * max_wr + 1; the kernel is told the rounded sizes. */
static void srq_sizes(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_srq, srq);
	struct mlx5_ib_create_srq r;

	(void)state;
	UVIO_OPTS(uvio_srq_attr, a, .pd_handle = 1, .max_wr = 100, .max_sge = 3);
	assert_int_equal(uvio_create_srq(dev, &a, NULL, &srq, NULL), 0);
	assert_int_equal(k.srq_max_wr, 255);	/* 201 -> 256 entries */
	assert_int_equal(k.srq_max_sge, 3);	/* 16 + 48 = 64-byte WQEs */
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_true((r.buf_addr & 4095) == 0 && (r.db_addr & 63) == 0);
	assert_int_equal(r.flags, 0);
	done(dev, afd);

	/* A device with room for 100 receives per SRQ. */
	dev = mlx5_device();
	k.ctx.max_srq_recv_wr = 100;
	{
		UVIO_OPTS(uvio_context, ctx);

		assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
		afd = ctx.async_fd;
	}
	a.max_wr = 60;
	a.max_sge = 1;
	assert_int_equal(uvio_create_srq(dev, &a, NULL, &srq, NULL), 0);
	assert_int_equal(k.srq_max_wr, 63);	/* 121 > 100: 61 -> 64 entries */
	assert_int_equal(k.srq_max_sge, 1);	/* 32-byte WQEs at least */
	done(dev, afd);
}

/* The CQ: 64-byte CQEs, the entries its buffer holds told the kernel, the
 * UAR page by index; what was kept goes with the destroy. */
static void cq_kept_and_freed(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 100);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mlx5_object, o);
	struct mlx5_ib_create_cq r;

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_int_equal(r.cqe_size, 64);
	assert_int_equal(r.flags, MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX);
	assert_int_equal(r.uar_page_index, 5);
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), 0);
	assert_int_equal(o.ncqe, 128);
	assert_int_equal(o.buf_len, 128 * 64);
	assert_ptr_equal(o.buf, (void *)(uintptr_t)r.buf_addr);
	assert_int_equal(((uint8_t *)o.buf)[127 * 64 + 63], 0xf0);
	{
		UVIO_OPTS(uvio_mlx5_context, m);

		assert_int_equal(uvio_mlx5_query_context(dev, &m), 0);
		assert_ptr_equal(o.reg, (uint8_t *)m.uar + 0x20);	/* the arm's */
		assert_int_equal(o.bf_size, 0);
	}
	assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), -ENOENT);
	/* A failed create keeps nothing. */
	k.answer = EINVAL;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	done(dev, afd);
}

/* A destroyed CQ's handle given to another create before the destroy
 * returned (the kernel frees it the moment it answers): the new CQ keeps
 * its record, its buffer stays mapped and is the one the query names. The
 * library once dropped the record after the kernel's answer and took the
 * new CQ's (the first of that handle), unmapping a live queue. */
static void destroy_handle_reused(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 100);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mlx5_object, o);
	UVIO_OPTS(uvio_mlx5_object, before);

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &before), 0);
	k.dev = dev;
	k.create_on_destroy = true;
	assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	assert_int_equal(k.created_in_destroy, cq.handle);
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), 0);
	assert_ptr_equal(o.buf, (void *)(uintptr_t)k.created_buf);
	assert_ptr_not_equal(o.buf, before.buf);
	assert_int_equal(o.ncqe, 16);
	/* Still the CQ's: mapped, and the hardware's (the last byte of each
	 * CQE "invalid"). */
	assert_int_equal(((uint8_t *)o.buf)[15 * 64 + 63], 0xf0);
	((uint8_t *)o.buf)[0] = 1;
	assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), -ENOENT);
	/* A destroy the kernel refuses keeps the record. */
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	k.answer = EBUSY;
	assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), -EBUSY);
	k.answer = 0;
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), 0);
	assert_int_equal(o.ncqe, 128);
	done(dev, afd);
}

/* A resize would free the buffer a poller reads, with completions in it
 * not yet polled: without the caller's driver data it is refused before
 * anything is sent, and the CQ keeps its buffer; with it, it goes out. */
static void resize_refused(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mlx5_object, o);
	void *buf;

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), 0);
	buf = o.buf;
	memset(buf, 0x5a, 64);	/* a completion not yet polled */
	k.ioctls = 0;
	{
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = cq.handle, .cqe = 100);

		assert_int_equal(uvio_resize_cq(dev, &ra, NULL, &cq, NULL), -EOPNOTSUPP);
		assert_int_equal(k.ioctls, 0);
		assert_non_null(strstr(uvio_last_error(), "CQ.RESIZE: mlx5: EOPNOTSUPP: only the "
						       "CQ's poller can carry"));
	}
	assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &o), 0);
	assert_ptr_equal(o.buf, buf);
	assert_int_equal(o.ncqe, 32);
	assert_int_equal(((uint8_t *)o.buf)[0], 0x5a);
	{
		struct mlx5_ib_resize_cq req = { .buf_addr = (uintptr_t)buf, .cqe_size = 64 };
		UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req));
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = cq.handle, .cqe = 31);

		assert_int_equal(uvio_resize_cq(dev, &ra, &drv, &cq, NULL), 0);
		assert_true(k.ioctls > 0);
	}
	done(dev, afd);
}

/* Every number of the caller's that enters a size is held to the device's
 * limit first: 2^31, 2^32 - 1 and the limit plus one are refused before
 * anything is sent, with the field named; none wraps into a small queue
 * granted in its place. */
static void limits(void **state)
{
	static const uint32_t big[] = { 1u << 31, 0xffffffffu, 0xfffffff0u };
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_qp, qp);

	(void)state;
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]) + 1; i++) {
		/* the last round: the device's limit plus one (max_sq_desc_sz
		 * 1024, max_send_wqebb 32768, max_recv_wr 32768, ...) */
		bool edge = i == sizeof(big) / sizeof(big[0]);
		uint32_t v = edge ? 0 : big[i];
		struct {
			const char *field;
			struct ib_uverbs_qp_cap cap;
		} qps[] = {
			{ "cap.max_inline_data", { .max_send_wr = 1, .max_send_sge = 1,
						  .max_inline_data = edge ? 1024 - 192 - 4 + 1 : v } },
			{ "cap.max_send_wr", { .max_send_wr = edge ? 32768 + 1 : v, .max_send_sge = 1 } },
			{ "cap.max_send_sge", { .max_send_wr = 1, .max_send_sge = edge ? (1024 - 192) / 16 + 1 : v } },
			{ "cap.max_recv_wr", { .max_recv_wr = edge ? 32768 + 1 : v, .max_recv_sge = 1 } },
			{ "cap.max_recv_sge", { .max_recv_wr = 1, .max_recv_sge = edge ? 512 / 16 + 1 : v } },
		};

		for (size_t q = 0; q < sizeof(qps) / sizeof(qps[0]); q++) {
			UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = 1,
				  .send_cq_handle = 2, .recv_cq_handle = 2, .cap = qps[q].cap);

			k.ioctls = 0;
			assert_int_equal(uvio_create_qp(dev, &qa, NULL, &qp, NULL), -EINVAL);
			assert_int_equal(k.ioctls, 0);
			if (!strstr(uvio_last_error(), qps[q].field))
				fail_msg("%s = %u: %s", qps[q].field, edge ? 0 : v, uvio_last_error());
		}
		{
			UVIO_OPTS(uvio_cq_attr, a, .cqe = edge ? 1u << 24 : v);
			UVIO_OPTS(uvio_cq, cq);

			k.ioctls = 0;
			assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
			assert_int_equal(k.ioctls, 0);
			assert_non_null(strstr(uvio_last_error(), "cqe: "));
		}
		{
			UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = 1, .max_wr = edge ? 32768 + 1 : v,
				  .max_sge = 1);
			UVIO_OPTS(uvio_srq, srq);

			k.ioctls = 0;
			assert_int_equal(uvio_create_srq(dev, &sa, NULL, &srq, NULL), -EINVAL);
			assert_int_equal(k.ioctls, 0);
			assert_non_null(strstr(uvio_last_error(), "max_wr past"));
			sa.max_wr = 16;
			sa.max_sge = edge ? 512 / 16 + 1 : v;
			assert_int_equal(uvio_create_srq(dev, &sa, NULL, &srq, NULL), -EINVAL);
			assert_int_equal(k.ioctls, 0);
			assert_non_null(strstr(uvio_last_error(), "max_sge past"));
		}
	}
	/* At the limit itself: granted, and never less than asked. */
	{
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = 1,
			  .send_cq_handle = 2, .recv_cq_handle = 2,
			  .cap = { .max_send_wr = 1, .max_send_sge = 1, .max_inline_data = 828 });

		assert_int_equal(uvio_create_qp(dev, &qa, NULL, &qp, NULL), 0);
		assert_true(k.cap[4] >= 828);	/* max_inline_data as the kernel was told */
	}
	done(dev, afd);
}

/* A kernel without dynamic UARs (before 5.1) answers with static
 * blue-flame registers: their pages are mapped by index (mmap command 0),
 * no UAR object is asked for, and CQs and QPs name no UAR: the kernel
 * picks (the first page; a blue-flame register of its choice). */
static void static_uars(void **state)
{
	struct uvio_device *dev = mlx5_device();
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_mlx5_context, m);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	struct mlx5_ib_create_cq r;
	struct mlx5_ib_create_qp q;

	(void)state;
	k.ctx.tot_bfregs = 16;
	k.ctx.num_uars_per_page = 1;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(k.uar_type_len, 0);	/* no UAR.ALLOC */
	assert_int_equal(uar_maps, 8);		/* 16 registers, 2 per page */
	for (unsigned int i = 0; i < 8; i++)
		assert_int_equal(uar_offsets[i], (off_t)i * sysconf(_SC_PAGESIZE));
	assert_int_equal(uvio_mlx5_query_context(dev, &m), 0);
	assert_int_equal(m.dynamic_uar, 0);
	assert_non_null(m.uar);
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.uar_page_index, 0);
	{
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = 1,
			  .send_cq_handle = 2, .recv_cq_handle = 2,
			  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
				   .max_recv_sge = 1 });
		UVIO_OPTS(uvio_qp, qp);

		assert_int_equal(uvio_create_qp(dev, &qa, NULL, &qp, NULL), 0);
		memcpy(&q, k.uhw_in, sizeof(q));
		assert_int_equal(q.flags, MLX5_QP_FLAG_SCATTER_CQE);
		assert_int_equal(q.bfreg_index, 0);
	}
	done(dev, ctx.async_fd);
}

/* Refused before any command, in mlx5's words. */
static void refusals(void **state)
{
	int afd;
	struct uvio_device *dev = mlx5_device();
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = IB_UVERBS_QPT_RAW_PACKET,
		  .cap = { .max_send_wr = 1, .max_send_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);

	(void)state;
	/* No context made by the library (an adopted fd's is libibverbs'). */
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EOPNOTSUPP);
	assert_int_equal(k.ioctls, 0);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: mlx5: EOPNOTSUPP: this handle has "
					       "no context the library made"));
	uvio_device_close(dev);

	dev = with_context(&afd);
	k.ioctls = 0;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_int_equal(k.ioctls, 0);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: mlx5: EOPNOTSUPP: the library's "
					       "mlx5 half makes RC, UC and UD QPs"));
	a.cqe = 1u << 24;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(k.ioctls, 0);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: mlx5: EINVAL: cqe: more than"));
	/* The queries say why they answer nothing. */
	{
		UVIO_OPTS(uvio_mlx5_object, o);

		assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, 77, &o), -ENOENT);
		assert_non_null(strstr(uvio_last_error(), "uvio_mlx5_query_object: "));
		assert_non_null(strstr(uvio_last_error(), "ENOENT: argument handle"));
		assert_int_equal(uvio_mlx5_query_object(dev, UVERBS_OBJECT_MW, 1, &o), -EINVAL);
		assert_non_null(strstr(uvio_last_error(), "argument object"));
	}
	done(dev, afd);
}

/* A hardware driver the library builds no request for: the kernel's
 * refusal says which driver and where its request is laid out. */
static void unbuilt_driver(void **state)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);

	(void)state;
	fake_reset();
	memset(&k, 0, sizeof(k));
	fake.on_ioctl = kernel_ioctl;
	k.answer = EINVAL;
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_QEDR, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "DEVICE.GET_CONTEXT over ioctl: EINVAL"));
	assert_non_null(strstr(uvio_last_error(), "the qedr driver takes its own request"));
	assert_non_null(strstr(uvio_last_error(), "rdma/qedr-abi.h"));
	/* rxe needs none: its refusal is the kernel's alone. */
	uvio_device_close(dev);
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_RXE, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), -EINVAL);
	assert_null(strstr(uvio_last_error(), "takes its own request"));
	uvio_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(context_request),
		cmocka_unit_test(qp_sizes),
		cmocka_unit_test(srq_sizes),
		cmocka_unit_test(cq_kept_and_freed),
		cmocka_unit_test(destroy_handle_reused),
		cmocka_unit_test(resize_refused),
		cmocka_unit_test(limits),
		cmocka_unit_test(static_uars),
		cmocka_unit_test(refusals),
		cmocka_unit_test(unbuilt_driver),
	};

	fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
