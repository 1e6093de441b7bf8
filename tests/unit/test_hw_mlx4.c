/*
 * The mlx4 half (lib/hw/mlx4.c) against a stand-in kernel: what the library
 * sends for each verb, byte by byte, for requests whose sizes come out
 * differently under mlx4's rules, what it lays out in the queues it hands
 * the kernel, and its refusals before any command. The expected values are
 * worked out here from libmlx4's rules (send WQE: control 16 + the larger of
 * 16 per gather entry and the inline data in 60-byte pieces with a 4-byte
 * header each, + remote address 16 (RC: at least 48 with it) or datagram
 * 48, at least a 32-byte bind, in a power of two of at least 64 bytes; send
 * WQEs: max_send_wr + 2048 / stride + 1 rounded up to a power of two; ...),
 * not taken from the library. The kernel suite (kernel/6.1-mlx4) runs the
 * same half against a real kernel's stand-in driver and libmlx4.
 */
#include <endian.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <rdma/mlx4-abi.h>
#include <uvio.h>
#include "wrap.h"
#include "hw_query.h"
#include "hw_fake.h"

/* The pages the stand-in kernel offers: anonymous memory; the offsets
 * asked for are kept. */
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

/* What the stand-in kernel saw, and what it answers. */
static struct {
	uint16_t object, method;
	uint8_t uhw_in[256];
	uint32_t uhw_in_len;
	bool uhw_in_sent, uhw_out_sent;
	uint32_t uhw_out_len;
	uint32_t cqe;			/* CQ.CREATE's CQE */
	uint32_t cap[5];		/* QP.CREATE's CAP */
	uint32_t srq_max_wr, srq_max_sge;
	int ioctls, answer;
	uint32_t next_handle;
	struct mlx4_ib_alloc_ucontext_resp ctx;
} k;

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	const struct ib_uverbs_attr *a;

	(void)request;
	k.ioctls++;
	k.object = h->object_id;
	k.method = h->method_id;
	k.uhw_in_sent = k.uhw_out_sent = false;
	if ((a = find(h, UVERBS_ATTR_UHW_IN))) {
		assert_true(a->len <= sizeof(k.uhw_in));
		memcpy(k.uhw_in, a->len > 8 ? (void *)(uintptr_t)a->data : (void *)&a->data,
		       a->len);
		k.uhw_in_len = a->len;
		k.uhw_in_sent = true;
	}
	if ((a = find(h, UVERBS_ATTR_UHW_OUT))) {
		k.uhw_out_len = a->len;
		k.uhw_out_sent = true;
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
		case UVERBS_OBJECT_CQ:
		case UVERBS_OBJECT_QP:
		case UVERBS_OBJECT_SRQ:
			if (h->method_id != 0)	/* destroys */
				break;
			if (x->attr_id == 0)	/* the new handle */
				x->data = ++k.next_handle;
			else if (h->object_id == UVERBS_OBJECT_CQ &&
				 x->attr_id == UVERBS_ATTR_CREATE_CQ_CQE)
				k.cqe = (uint32_t)x->data;
			else if (h->object_id == UVERBS_OBJECT_QP &&
				 x->attr_id == UVERBS_ATTR_CREATE_QP_CAP)
				memcpy(k.cap, (void *)(uintptr_t)x->data, sizeof(k.cap));
			else if (h->object_id == UVERBS_OBJECT_SRQ &&
				 x->attr_id == UVERBS_ATTR_CREATE_SRQ_MAX_WR)
				k.srq_max_wr = (uint32_t)x->data;
			else if (h->object_id == UVERBS_OBJECT_SRQ &&
				 x->attr_id == UVERBS_ATTR_CREATE_SRQ_MAX_SGE)
				k.srq_max_sge = (uint32_t)x->data;
			else if (x->attr_id == UVERBS_ATTR_UHW_OUT)
				put_out(x, &(uint32_t){ 7 }, 4);	/* cqn, srqn */
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

/* A ConnectX-3-like context: 64-byte CQEs, blue flame. */
static struct uvio_device *mlx4_device(void)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	maps = 0;
	fake.on_ioctl = kernel_ioctl;
	k.ctx.dev_caps = MLX4_USER_DEV_CAP_LARGE_CQE;
	k.ctx.qp_tab_size = 1 << 17;
	k.ctx.bf_reg_size = 512;
	k.ctx.bf_regs_per_page = 8;
	k.ctx.cqe_size = 64;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_MLX4, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	return dev;
}

static struct uvio_device *with_context(int *async_fd)
{
	struct uvio_device *dev = mlx4_device();
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

/* No request; room for the ABI-4 answer; the UAR page (offset 0) and the
 * blue-flame page (offset one page) mapped, the latter only where the
 * device has blue flame. */
static void context(void **state)
{
	struct uvio_device *dev = mlx4_device();
	UVIO_OPTS(uvio_context, ctx);

	(void)state;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_false(k.uhw_in_sent);
	assert_int_equal(k.uhw_out_len, sizeof(struct mlx4_ib_alloc_ucontext_resp));
	assert_int_equal(maps, 2);
	assert_int_equal(map_offsets[0], 0);
	assert_int_equal(map_offsets[1], sysconf(_SC_PAGESIZE));
	done(dev, ctx.async_fd);

	dev = mlx4_device();
	k.ctx.bf_reg_size = 0;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(maps, 1);
	assert_int_equal(map_offsets[0], 0);
	done(dev, ctx.async_fd);
}

/* A device without user capabilities: uverbs ABI 3 in sysfs, the 8-byte
 * v3 answer asked for and read as v3 (its blue-flame register size says
 * whether the blue-flame page is mapped). */
static void context_abi3(void **state)
{
	struct mlx4_ib_alloc_ucontext_resp_v3 v3 = {
		.qp_tab_size = 1 << 17, .bf_reg_size = 512, .bf_regs_per_page = 8,
	};
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);

	(void)state;
	dev = mlx4_device();
	fake_sysfs_put("class/infiniband_verbs/uverbs0/abi_version", "3\n");
	memset(&k.ctx, 0, sizeof(k.ctx));
	memcpy(&k.ctx, &v3, sizeof(v3));
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(k.uhw_out_len, sizeof(v3));
	assert_int_equal(maps, 2);
	done(dev, ctx.async_fd);

	dev = mlx4_device();
	v3.bf_reg_size = 0;
	memset(&k.ctx, 0, sizeof(k.ctx));
	memcpy(&k.ctx, &v3, sizeof(v3));
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(k.uhw_out_len, sizeof(v3));
	assert_int_equal(maps, 1);
	done(dev, ctx.async_fd);
	fake_sysfs_put("class/infiniband_verbs/uverbs0/abi_version", "4\n");
}

/* entries = cqe + 1 rounded up to a power of two, told the kernel less
 * one; the buffer zeroed on a page; CQ records 8 bytes apart in one page.
 * Without the large-CQE capability the CQEs are 32 bytes. */
static void cq_request(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 100);
	UVIO_OPTS(uvio_cq, cq);
	struct mlx4_ib_create_cq r, r2;
	const uint8_t *buf;
	uint32_t nonzero = 0;

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(k.cqe, 127);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_int_equal(k.uhw_out_len, sizeof(struct mlx4_ib_create_cq_resp));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.buf_addr & 4095) == 0 && (r.db_addr & 7) == 0);
	buf = (const uint8_t *)(uintptr_t)r.buf_addr;
	for (size_t i = 0; i < 128 * 64; i++)
		nonzero += buf[i] != 0;
	assert_int_equal(nonzero, 0);
	assert_int_equal(assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_CQ, buf, false),
			 128 * 64);
	assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_DBREC,
		      (const void *)(uintptr_t)r.db_addr, false);
	a.cqe = 1;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(k.cqe, 1);
	memcpy(&r2, k.uhw_in, sizeof(r2));
	assert_int_equal(r2.db_addr, r.db_addr + 8);
	/* the CQ of 127 is destroyed: the next takes its record back */
	assert_int_equal(uvio_destroy_cq(dev, 1, NULL, NULL), 0);
	assert_no_record(dev, UVERBS_OBJECT_CQ, 1);
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	memcpy(&r2, k.uhw_in, sizeof(r2));
	assert_int_equal(r2.db_addr, r.db_addr);
	/* a failed create keeps nothing (memcheck sees no leak) */
	k.answer = EINVAL;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	done(dev, afd);
}

static struct mlx4_ib_create_qp qp_req(struct uvio_device *dev, uint32_t type,
				       struct ib_uverbs_qp_cap cap, const uint32_t *srq)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = 1, .send_cq_handle = 2,
		  .recv_cq_handle = 2, .cap = cap);
	UVIO_OPTS(uvio_qp, qp);
	struct mlx4_ib_create_qp r;

	if (srq) {
		a.fields = UVIO_QP_INIT_SRQ;
		a.srq_handle = *srq;
	}
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_int_equal(k.object, UVERBS_OBJECT_QP);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_false(k.uhw_out_sent);	/* mlx4 answers in the core response */
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.buf_addr & 4095) == 0);
	assert_true((r.db_addr & 3) == 0);
	assert_int_equal(r.sq_no_prefetch, 0);
	assert_int_equal(r.reserved, 0);
	assert_int_equal(r.inl_recv_sz, 0);
	return r;
}

/* The send WQE's first word (owner bit), its size in 16-byte units, and
 * the first word of each further 64 bytes stamped, as libmlx4 leaves a
 * QP's send queue when it goes to INIT. */
static void check_sq(const struct mlx4_ib_create_qp *r, size_t sq_offset)
{
	const uint8_t *sq = (const uint8_t *)(uintptr_t)r->buf_addr + sq_offset;
	uint32_t n = 1u << r->log_sq_bb_count, stride = 1u << r->log_sq_stride;

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *w = sq + (size_t)i * stride;
		uint32_t word;

		memcpy(&word, w, 4);
		assert_int_equal(be32toh(word), 1u << 31);
		assert_int_equal(w[7], stride / 16);
		for (uint32_t at = 64; at < stride; at += 64) {
			memcpy(&word, w + at, 4);
			assert_int_equal(word, 0xffffffffu);
		}
	}
}

static void qp_sizes(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	struct mlx4_ib_create_qp r;
	uint32_t srq = 9;

	(void)state;
	/* RC 16 x 1 SGE: 16 + 16 + 16 -> 48, + 16 = 64-byte WQEs; 16 + 33 -> 64 */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 }, NULL);
	assert_int_equal(r.log_sq_stride, 6);
	assert_int_equal(r.log_sq_bb_count, 6);
	assert_int_not_equal(r.db_addr, 0);
	assert_int_equal(k.cap[1], 16);	/* max_recv_wr, max_recv_sge sent as asked */
	assert_int_equal(k.cap[3], 1);
	check_sq(&r, 0);	/* 64-byte send WQEs before 16-byte receives */
	/* UD 16 x 1: 16 + 48 + 16 = 80 -> 128; 16 + 17 -> 64 */
	r = qp_req(dev, IB_UVERBS_QPT_UD, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 }, NULL);
	assert_int_equal(r.log_sq_stride, 7);
	assert_int_equal(r.log_sq_bb_count, 6);
	check_sq(&r, 0);
	/* RC, 200 bytes inline: 200 + 32 -> 4 pieces of 60: 216 -> 224, + 16
	 * + 16 = 256; 10 + 2048 / 256 + 1 = 19 -> 32 */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 10, 5, 1, 3, 200 }, NULL);
	assert_int_equal(r.log_sq_stride, 8);
	assert_int_equal(r.log_sq_bb_count, 5);
	assert_int_equal(k.cap[4], 200);	/* the inline data as asked */
	check_sq(&r, 0);
	/* UC, 4 gather entries: 64 + 16 + 16 = 96 -> 128; 1 + 17 -> 32; no
	 * receives asked: one of one SGE */
	r = qp_req(dev, IB_UVERBS_QPT_UC, (struct ib_uverbs_qp_cap){ 1, 0, 4, 0, 0 }, NULL);
	assert_int_equal(r.log_sq_stride, 7);
	assert_int_equal(r.log_sq_bb_count, 5);
	assert_int_equal(k.cap[1], 1);
	assert_int_equal(k.cap[3], 1);
	/* UD with 20 receive SGEs: 320 -> 512-byte receive WQEs, before the
	 * 128-byte send WQEs: 4 x 512 */
	r = qp_req(dev, IB_UVERBS_QPT_UD, (struct ib_uverbs_qp_cap){ 1, 3, 1, 20, 0 }, NULL);
	assert_int_equal(r.log_sq_stride, 7);
	check_sq(&r, 4 * 512);
	/* On an SRQ: no receive queue, no receive record, none told */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 }, &srq);
	assert_int_equal(r.db_addr, 0);
	assert_int_equal(k.cap[1], 0);
	assert_int_equal(k.cap[3], 0);
	done(dev, afd);
}

/* max_wr + 1 rounded up descriptors of 16 + 16 x max_sge rounded up (at
 * least 32), linked in order, every scatter lkey invalid; the kernel is
 * told what was asked. */
static void srq_layout(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_srq, srq);
	UVIO_OPTS(uvio_srq_attr, a, .pd_handle = 1, .max_wr = 100, .max_sge = 3);
	struct mlx4_ib_create_srq r;
	const uint8_t *buf;

	(void)state;
	assert_int_equal(uvio_create_srq(dev, &a, NULL, &srq, NULL), 0);
	assert_int_equal(k.srq_max_wr, 100);
	assert_int_equal(k.srq_max_sge, 3);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_int_equal(k.uhw_out_len, sizeof(struct mlx4_ib_create_srq_resp));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.buf_addr & 4095) == 0 && (r.db_addr & 3) == 0);
	buf = (const uint8_t *)(uintptr_t)r.buf_addr;
	for (uint32_t i = 0; i < 128; i++) {	/* 101 -> 128 of 64 bytes */
		const uint8_t *d = buf + (size_t)i * 64;
		uint16_t next;
		uint32_t lkey;

		memcpy(&next, d + 2, 2);
		assert_int_equal(be16toh(next), (i + 1) % 128);
		for (unsigned int s = 16; s < 64; s += 16) {
			memcpy(&lkey, d + s + 4, 4);
			assert_int_equal(be32toh(lkey), 0x100);
		}
	}
	done(dev, afd);
}

/* Refused before any command, in mlx4's words. */
static void refusals(void **state)
{
	int afd;
	struct uvio_device *dev = mlx4_device();
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = IB_UVERBS_QPT_RAW_PACKET,
		  .cap = { .max_send_wr = 1, .max_send_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);
	UVIO_OPTS(uvio_srq, srq);

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EOPNOTSUPP);
	assert_int_equal(k.ioctls, 0);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: mlx4: EOPNOTSUPP: this handle has "
					       "no context the library made"));
	uvio_device_close(dev);

	dev = with_context(&afd);
	k.ioctls = 0;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: mlx4: EOPNOTSUPP: the library's "
					       "mlx4 half makes RC, UC and UD QPs"));
	q.type = IB_UVERBS_QPT_RC;
	q.cap.max_inline_data = 1025;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: mlx4: EINVAL: cap.max_inline_data past mlx4's 1024"));
	a.cqe = 0x400000;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: mlx4: EINVAL: cqe: more than 2^22 - 1"));
	{
		UVIO_OPTS(uvio_srq_attr, s, .pd_handle = 1, .max_wr = 16, .max_sge = 65);

		assert_int_equal(uvio_create_srq(dev, &s, NULL, &srq, NULL), -EINVAL);
		assert_non_null(strstr(uvio_last_error(), "SRQ.CREATE: mlx4: EINVAL"));
	}
	assert_int_equal(k.ioctls, 0);
	done(dev, afd);
}

/* Every number of the caller's that enters a size is held to mlx4's
 * limits first (2^31, 2^32 - 1 and each limit plus one): refused before
 * anything is sent, the field named. */
static void limits(void **state)
{
	static const uint32_t plus_one[5] = { 65537, 65537, 65, 65, 1025 };
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	assert_qp_limits(dev, IB_UVERBS_QPT_RC, 0x1f, plus_one);
	assert_cq_limits(dev, 0x400000);
	assert_srq_limits(dev, 65537, 65);
	done(dev, afd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(context),
		cmocka_unit_test(context_abi3),
		cmocka_unit_test(cq_request),
		cmocka_unit_test(qp_sizes),
		cmocka_unit_test(srq_layout),
		cmocka_unit_test(refusals),
		cmocka_unit_test(limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
