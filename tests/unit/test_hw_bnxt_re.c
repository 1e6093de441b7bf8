/*
 * The bnxt_re half (lib/hw/bnxt_re.c) against a stand-in kernel: what the
 * library sends for each verb, for requests whose sizes come out
 * differently under libbnxt_re's rules, the queue memory it maps for them,
 * and its refusals before any command. The expected values are worked out
 * here from libbnxt_re's rules (static WQE mode: every WQE 128 bytes; send
 * WRs max_send_wr + 1 + 128 rounded up to a power of two, and a PSN entry
 * of 8 bytes each (16 on a gen P5 chip) after them; receive WRs
 * max_recv_wr + 1 rounded up; CQ depth cqe + 1 rounded up, of the
 * context's CQE size; all in whole pages), not taken from the library. The
 * kernel suite (kernel/6.1-bnxt_re) runs the same half against a real
 * kernel's stand-in driver and libbnxt_re.
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

#include <rdma/bnxt_re-abi.h>
#include "hw/bnxt_re_abi.h"
#include <uvio.h>
#include "wrap.h"
#include "hw_query.h"
#include "hw_fake.h"

/* The pages the stand-in kernel offers: anonymous memory; the offsets
 * asked for are kept. The lengths of anonymous maps (the queues) too. */
static off_t map_offsets[8];
static unsigned int maps;
static size_t anon_len[8];
static void *anon_at[8];
static unsigned int anons;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p;

	if (fd == fake_uverbs_fd()) {
		if (maps < 8)
			map_offsets[maps++] = off;
		return __real_mmap(addr, len, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	p = __real_mmap(addr, len, prot, flags, fd, off);
	if (fd < 0 && (flags & MAP_ANONYMOUS) && p != MAP_FAILED) {
		anon_len[anons % 8] = len;
		anon_at[anons % 8] = p;
		anons++;
	}
	return p;
}

/* The length of the anonymous map at p, or 0. */
static size_t len_at(uint64_t p)
{
	for (unsigned int i = 0; i < 8 && i < anons; i++)
		if ((uintptr_t)anon_at[i] == p)
			return anon_len[i];
	return 0;
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
	struct uvio_bnxt_re_uctx_resp ctx;
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
				put_out(x, &(uint32_t){ 7 }, 4);	/* cqid, qpid, srqid */
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

/* A BCM57414-like context: static WQE mode, 32-byte CQEs. */
static struct uvio_device *bnxt_device(uint32_t chip, uint32_t mode)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	maps = anons = 0;
	fake.on_ioctl = kernel_ioctl;
	k.ctx.max_qp = 65536;
	k.ctx.pg_size = (uint32_t)sysconf(_SC_PAGESIZE);
	k.ctx.cqe_sz = 32;
	k.ctx.max_cqd = 65535;
	k.ctx.comp_mask = UVIO_BNXT_RE_CMASK_HAVE_CCTX | UVIO_BNXT_RE_CMASK_HAVE_MODE;
	k.ctx.chip_id0 = chip;
	k.ctx.mode = mode;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_BNXT_RE, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	return dev;
}

static struct uvio_device *with_context(uint32_t chip, uint32_t mode, int *async_fd)
{
	struct uvio_device *dev = bnxt_device(chip, mode);
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

/* No request; room for bnxt_re's 48-byte answer; the shared page (offset
 * 0) mapped. */
static void context(void **state)
{
	struct uvio_device *dev = bnxt_device(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC);
	UVIO_OPTS(uvio_context, ctx);

	(void)state;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_false(k.uhw_in_sent);
	assert_int_equal(k.uhw_out_len, 48);
	assert_int_equal(maps, 1);
	assert_int_equal(map_offsets[0], 0);
	done(dev, ctx.async_fd);
}

/* depth = cqe + 1 rounded up to a power of two (at most max_cqd + 1) of
 * 32 bytes, in whole pages, zeroed; the kernel is sent the count asked;
 * 16 bytes each way. */
static void cq_request(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC, &afd);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 200);
	UVIO_OPTS(uvio_cq, cq);
	struct bnxt_re_cq_req r;
	const uint8_t *buf;
	uint32_t nonzero = 0;

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(k.cqe, 200);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_int_equal(k.uhw_out_len, sizeof(struct bnxt_re_cq_resp));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.cq_va & 4095) == 0);
	assert_int_not_equal(r.cq_handle, 0);
	assert_int_equal(len_at(r.cq_va), 256 * 32);	/* 201 -> 256 CQEs: two pages */
	assert_int_equal(assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_CQ,
				       (const void *)(uintptr_t)r.cq_va, false), 256 * 32);
	buf = (const uint8_t *)(uintptr_t)r.cq_va;
	for (size_t i = 0; i < 256 * 32; i++)
		nonzero += buf[i] != 0;
	assert_int_equal(nonzero, 0);
	a.cqe = 65535;		/* 65536 -> 65536, at max_cqd + 1 */
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_int_equal(len_at(r.cq_va), 65536 * 32);
	/* a failed create keeps nothing (memcheck sees no leak) */
	k.answer = EINVAL;
	a.cqe = 1;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	done(dev, afd);
}

static struct bnxt_re_qp_req qp_req(struct uvio_device *dev, uint32_t type,
				    struct ib_uverbs_qp_cap cap, const uint32_t *srq)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = 1, .send_cq_handle = 2,
		  .recv_cq_handle = 2, .cap = cap);
	UVIO_OPTS(uvio_qp, qp);
	struct bnxt_re_qp_req r;

	if (srq) {
		a.fields = UVIO_QP_INIT_SRQ;
		a.srq_handle = *srq;
	}
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_int_equal(k.object, UVERBS_OBJECT_QP);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_int_equal(k.uhw_out_len, sizeof(struct bnxt_re_qp_resp));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.qpsva & 4095) == 0 && (r.qprva & 4095) == 0);
	assert_int_not_equal(r.qp_handle, 0);
	return r;
}

static void qp_sizes(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC, &afd);
	long page = sysconf(_SC_PAGESIZE);
	struct bnxt_re_qp_req r;
	uint32_t srq = 9;

	(void)state;
	/* RC 16 x 1: 16 + 1 + 128 -> 256 WQEs of 128 + 256 x 8 = 34816 ->
	 * nine pages; 17 -> 32 receive WQEs of 128: one page */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 }, NULL);
	assert_int_equal(len_at(r.qpsva), 9 * 4096);
	assert_int_equal(len_at(r.qprva), 4096);
	assert_int_equal(k.cap[0], 16);		/* the WRs sent as asked */
	assert_int_equal(k.cap[4], 0);
	/* UD 200 x 3, 40 bytes inline: 329 -> 512 WQEs (65536 + 4096 bytes);
	 * inline told as 96; 100 receives -> 128 x 128 */
	r = qp_req(dev, IB_UVERBS_QPT_UD, (struct ib_uverbs_qp_cap){ 200, 100, 3, 3, 40 }, NULL);
	assert_int_equal(len_at(r.qpsva), 65536 + 4096);
	assert_int_equal(len_at(r.qprva), 128 * 128);
	assert_int_equal(k.cap[4], 96);
	/* On an SRQ: no receive queue */
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 16, 0, 1, 0, 0 }, &srq);
	assert_int_equal(r.qprva, 0);
	assert_int_equal(len_at(r.qpsva), 9 * 4096);
	done(dev, afd);

	/* gen P5 (57508) in static mode: PSN entries of 16 bytes: 256 x 144 =
	 * 36864 bytes, nine pages of 4 KiB */
	dev = with_context(0x1750, UVIO_BNXT_RE_WQE_MODE_STATIC, &afd);
	r = qp_req(dev, IB_UVERBS_QPT_RC, (struct ib_uverbs_qp_cap){ 16, 16, 1, 1, 0 }, NULL);
	assert_int_equal(len_at(r.qpsva), (size_t)((36864 + page - 1) / page * page));
	done(dev, afd);
}

/* max_wr + 1 rounded up WQEs of 128 bytes, in whole pages; the kernel is
 * told what was asked. */
static void srq_layout(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC, &afd);
	UVIO_OPTS(uvio_srq, srq);
	UVIO_OPTS(uvio_srq_attr, a, .pd_handle = 1, .max_wr = 100, .max_sge = 3);
	struct bnxt_re_srq_req r;

	(void)state;
	assert_int_equal(uvio_create_srq(dev, &a, NULL, &srq, NULL), 0);
	assert_int_equal(k.srq_max_wr, 100);
	assert_int_equal(k.srq_max_sge, 3);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	assert_int_equal(k.uhw_out_len, sizeof(struct bnxt_re_srq_resp));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_true((r.srqva & 4095) == 0);
	assert_int_not_equal(r.srq_handle, 0);
	assert_int_equal(len_at(r.srqva), 128 * 128);
	done(dev, afd);
}

/* Refused before any command, in bnxt_re's words. */
static void refusals(void **state)
{
	int afd;
	struct uvio_device *dev = bnxt_device(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = IB_UVERBS_QPT_UC,
		  .cap = { .max_send_wr = 1, .max_send_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EOPNOTSUPP);
	assert_int_equal(k.ioctls, 0);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: bnxt_re: EOPNOTSUPP: this handle "
					       "has no context the library made"));
	uvio_device_close(dev);

	dev = with_context(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC, &afd);
	k.ioctls = 0;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: bnxt_re: EOPNOTSUPP: bnxt_re makes "
					       "RC and UD QPs only"));
	q.type = IB_UVERBS_QPT_RC;
	q.cap.max_send_sge = 7;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: bnxt_re: EINVAL: cap.max_send_sge: more than 6 SGEs"));
	q.cap.max_send_sge = 1;
	q.cap.max_inline_data = 97;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: bnxt_re: EINVAL: cap.max_inline_data: more than 96 bytes"));
	a.cqe = 65536;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: bnxt_re: EINVAL"));
	a.cqe = 0;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(k.ioctls, 0);
	done(dev, afd);

	/* a variable-mode context: QPs and SRQs are not sized here */
	dev = with_context(0x1750, UVIO_BNXT_RE_WQE_MODE_VARIABLE, &afd);
	k.ioctls = 0;
	q.cap.max_inline_data = 0;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: bnxt_re: EOPNOTSUPP: the library's "
					       "bnxt_re half sizes static-mode WQEs only"));
	assert_int_equal(k.ioctls, 0);
	done(dev, afd);
}

/* Every number of the caller's that enters a size is held to a limit
 * first (2^31, 2^32 - 1; 6 SGEs, 96 bytes inline, the context's max_cqd;
 * WR counts past the device's are the kernel's to refuse): refused before
 * anything is sent, the field named. */
static void limits(void **state)
{
	static const uint32_t plus_one[5] = { 0, 0, 7, 7, 97 };
	int afd;
	struct uvio_device *dev = with_context(0x16d7, UVIO_BNXT_RE_WQE_MODE_STATIC, &afd);

	(void)state;
	assert_qp_limits(dev, IB_UVERBS_QPT_RC, 0x1f, plus_one);
	assert_cq_limits(dev, 65536);
	assert_srq_limits(dev, 0, 7);
	done(dev, afd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(context),
		cmocka_unit_test(cq_request),
		cmocka_unit_test(qp_sizes),
		cmocka_unit_test(srq_layout),
		cmocka_unit_test(refusals),
		cmocka_unit_test(limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
