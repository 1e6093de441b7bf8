/*
 * The library's mana half (lib/hw/mana.c) against a stand-in kernel: what
 * it sends for each verb, byte by byte, the doorbell page it maps after
 * the context (and unmaps at close), the buffers it hands the kernel to
 * pin, and its refusals before any command. The expected values are worked
 * out here from libmana's rules (rdma-core 44: no driver data for the
 * context and the PD; a CQ's buffer entries x 64 bytes rounded up to a
 * power of two and to a 4 KiB page, the request cut to buf_addr; a raw
 * QP's WQE SGEs x 16 + 16 bytes rounded up to 32, its buffer WRs x WQE
 * rounded up to a page and then to a power of two; 256 WRs at most), not
 * taken from the library. The kernel suite (kernel/6.12-mana) runs the
 * same half against a real kernel's stand-in driver and libmana.
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

#include <uvio.h>
#include "hw/mana_abi.h"
#include "wrap.h"
#include "hw_query.h"
#define HW_FAKE_MAPS 8
#include "hw_fake.h"

#define RDMA_DRIVER_MANA_ID 20	/* RDMA_DRIVER_MANA: past Debian 12's headers */
#define QPT_RAW_PACKET 8	/* IB_UVERBS_QPT_RAW_PACKET */


/* What the stand-in kernel saw, and what it answers. */
static struct {
	uint8_t uhw_in[128];
	uint32_t uhw_in_len, uhw_out_len;
	bool uhw_in_seen, uhw_out_seen;
	uint32_t cqe;
	int ioctls, answer;
	uint32_t next_handle;
} k;

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	const struct ib_uverbs_attr *a;

	(void)request;
	k.ioctls++;
	k.uhw_in_seen = k.uhw_out_seen = false;
	k.uhw_in_len = k.uhw_out_len = 0;
	if ((a = find(h, UVERBS_ATTR_UHW_IN))) {
		assert_true(a->len <= sizeof(k.uhw_in));
		memcpy(k.uhw_in, a->len > 8 ? (void *)(uintptr_t)a->data : (void *)&a->data,
		       a->len);
		k.uhw_in_len = a->len;
		k.uhw_in_seen = true;
	}
	if ((a = find(h, UVERBS_ATTR_UHW_OUT))) {
		k.uhw_out_len = a->len;
		k.uhw_out_seen = true;
	}
	if (k.answer)
		return k.answer;
	for (unsigned int i = 0; i < h->num_attrs; i++) {
		struct ib_uverbs_attr *x = &h->attrs[i];

		switch (h->object_id) {
		case UVERBS_OBJECT_ASYNC_EVENT:
			x->data = (uint64_t)dup(fake_uverbs_fd());
			break;
		case UVERBS_OBJECT_CQ:
			if (h->method_id != UVERBS_METHOD_CQ_CREATE)
				break;
			if (x->attr_id == UVERBS_ATTR_CREATE_CQ_HANDLE)
				x->data = ++k.next_handle;
			else if (x->attr_id == UVERBS_ATTR_CREATE_CQ_CQE)
				k.cqe = (uint32_t)x->data;
			else if (x->attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE)
				put_out(x, &k.cqe, 4);
			break;
		case UVERBS_OBJECT_QP:
			if (h->method_id != UVERBS_METHOD_QP_CREATE)
				break;
			if (x->attr_id == UVERBS_ATTR_CREATE_QP_HANDLE)
				x->data = ++k.next_handle;
			else if (x->attr_id == UVERBS_ATTR_UHW_OUT) {
				struct uvio_mana_create_qp_resp r = { .sqid = 5, .cqid = 6,
								      .tx_vp_offset = 0x10 };

				put_out(x, &r, sizeof(r));
			}
			break;
		}
	}
	return 0;
}

static struct uvio_device *mana_device(void)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	memset(maps, 0, sizeof(maps));
	nmaps = nunmaps = 0;
	fake.on_ioctl = kernel_ioctl;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_MANA_ID, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	return dev;
}

static struct uvio_device *with_context(int *async_fd)
{
	struct uvio_device *dev = mana_device();
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

/* The context carries no driver data either way; the doorbell page is
 * mapped at offset 0, one page, writable, and unmapped at close. The PD
 * carries none either. */
static void context_and_pd(void **state)
{
	struct uvio_device *dev = mana_device();
	UVIO_OPTS(uvio_context, ctx);
	uint32_t pd = 0;

	(void)state;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(nmaps, 1);
	assert_int_equal(maps[0].off, 0);
	assert_int_equal(maps[0].len, 4096);
	assert_int_equal(maps[0].prot, PROT_WRITE);
	k.ioctls = 0;
	assert_int_equal(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	assert_int_equal(k.ioctls, 1);
	assert_false(k.uhw_in_seen);
	assert_true(!k.uhw_out_seen || k.uhw_out_len != 0);	/* the library's default space at most */
	done(dev, ctx.async_fd);
	assert_true(maps[0].unmapped);
}

/* CQ: the request is libmana 44's 8 bytes, buf_addr a page-aligned buffer
 * of entries x 64 rounded up to a power of two and a page; the entries
 * sent as asked. */
static void cq_requests(void **state)
{
	static const struct { uint32_t cqe; size_t len; } c[] = {
		{ 64, 4096 }, { 20, 4096 }, { 100, 8192 }, { 256, 16384 },
	};
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		UVIO_OPTS(uvio_cq_attr, a, .cqe = c[i].cqe);
		UVIO_OPTS(uvio_cq, cq);
		uint64_t addr;
		uint8_t *buf;

		assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
		assert_int_equal(k.uhw_in_len, 8);
		memcpy(&addr, k.uhw_in, 8);
		assert_int_equal(addr % 4096, 0);
		assert_int_equal(k.cqe, c[i].cqe);
		assert_false(k.uhw_out_seen);
		buf = (uint8_t *)(uintptr_t)addr;	/* the whole length is the process's */
		assert_int_equal(buf[0], 0);
		buf[c[i].len - 1] = 1;
		assert_int_equal(assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_CQ, buf,
					       false), c[i].len);
		assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
		assert_no_record(dev, UVERBS_OBJECT_CQ, cq.handle);
	}
	done(dev, afd);
}

/* A raw QP: the send buffer WRs x WQE (SGEs x 16 + 16, rounded up to 32)
 * rounded up to a page and a power of two, port 1; the answer kept. */
static void qp_requests(void **state)
{
	static const struct { uint32_t wr, sge, len; } q[] = {
		{ 64, 1, 4096 },	/* 64 x 32 = 2048 -> a page */
		{ 64, 8, 16384 },	/* 64 x 160 = 10240 -> 12288 -> 16384 */
		{ 256, 31, 131072 },	/* 256 x 512 */
		{ 3, 2, 4096 },
	};
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		UVIO_OPTS(uvio_qp_init_attr, a, .type = QPT_RAW_PACKET, .pd_handle = 1,
			  .send_cq_handle = 2, .recv_cq_handle = 2,
			  .cap = { .max_send_wr = q[i].wr, .max_send_sge = q[i].sge });
		UVIO_OPTS(uvio_qp, qp);
		struct uvio_mana_create_qp r;

		assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
		assert_int_equal(k.uhw_in_len, sizeof(r));
		memcpy(&r, k.uhw_in, sizeof(r));
		assert_int_equal(r.sq_buf_size, q[i].len);
		assert_int_equal(r.port, 1);
		assert_int_equal(r.sq_buf_addr % 4096, 0);
		((uint8_t *)(uintptr_t)r.sq_buf_addr)[q[i].len - 1] = 1;
		assert_int_equal(k.uhw_out_len, sizeof(struct uvio_mana_create_qp_resp));
		assert_int_equal(uvio_destroy_qp(dev, qp.handle, NULL, NULL), 0);
	}
	done(dev, afd);
}

/* What the half refuses before anything is sent, naming mana; a failed
 * create keeps nothing. */
static void refusals(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 257);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = QPT_RAW_PACKET, .pd_handle = 1,
		  .send_cq_handle = 2, .recv_cq_handle = 2,
		  .cap = { .max_send_wr = 257, .max_send_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);

	(void)state;
	k.ioctls = 0;
	assert_int_equal(uvio_create_cq(dev, &ca, NULL, &cq, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: mana: EINVAL: cqe: mana's CQs hold 1 to 256"));
	ca.cqe = 0;
	assert_int_equal(uvio_create_cq(dev, &ca, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: mana: EINVAL: cap.max_send_wr: more than 256"));
	q.cap.max_send_wr = 16;
	q.cap.max_send_sge = 32;	/* 32 x 16 + 16 = 528: past 512 */
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "past mana's 512-byte WQE"));
	q.cap.max_send_sge = 1;
	q.type = IB_UVERBS_QPT_RC;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "RAW_PACKET QPs only"));
	q.type = QPT_RAW_PACKET;
	q.fields = UVIO_QP_INIT_IND_TABLE;
	q.ind_table_handle = 1;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "mana_ib_create_qp_rss"));
	q.fields = UVIO_QP_INIT_SRQ;
	q.srq_handle = 1;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "mana has no SRQ"));
	{
		UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = 1, .max_wr = 16, .max_sge = 1);
		UVIO_OPTS(uvio_srq, srq);

		assert_int_equal(uvio_create_srq(dev, &sa, NULL, &srq, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "SRQ.CREATE: mana: EOPNOTSUPP"));
	}
	{
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = 1, .cqe = 100);

		assert_int_equal(uvio_resize_cq(dev, &ra, NULL, &cq, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "mana does not resize CQs"));
	}
	{
		UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = 1);
		uint32_t ah;

		assert_int_equal(uvio_create_ah(dev, &aa, NULL, &ah, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "mana has no address handles"));
	}
	assert_int_equal(k.ioctls, 0);
	/* the kernel's refusal: the buffer the half allocated is freed */
	k.answer = EINVAL;
	ca.cqe = 16;
	assert_int_equal(uvio_create_cq(dev, &ca, NULL, &cq, NULL), -EINVAL);
	k.answer = 0;
	done(dev, afd);
}

/* A handle with no context the library made: the half says so. */
static void no_context(void **state)
{
	struct uvio_device *dev = mana_device();
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);

	(void)state;
	assert_int_equal(uvio_create_cq(dev, &ca, NULL, &cq, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "no context the library made"));
	uvio_device_close(dev);
}

/* Every number of the caller's that enters a size is held to libmana's
 * limits first (2^31, 2^32 - 1; 256 send WRs and CQEs, a 512-byte WQE: 31
 * SGEs); a raw QP has no receive queue or inline data of its own to size.
 * Refused before anything is sent, the field named. */
static void limits(void **state)
{
	static const uint32_t plus_one[5] = { 257, 0, 32, 0, 0 };
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	assert_qp_limits(dev, 8 /* IB_UVERBS_QPT_RAW_PACKET */, 0x5, plus_one);
	assert_cq_limits(dev, 257);
	done(dev, afd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(context_and_pd),
		cmocka_unit_test(cq_requests),
		cmocka_unit_test(qp_requests),
		cmocka_unit_test(refusals),
		cmocka_unit_test(limits),
		cmocka_unit_test(no_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
