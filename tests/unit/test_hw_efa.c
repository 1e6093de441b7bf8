/*
 * The library's efa half (lib/hw/efa.c) against a stand-in kernel: what it
 * sends for each verb, byte by byte, what it maps of the memory the kernel
 * answers with (keys, lengths, protections), what it unmaps at destroy and
 * at close, and its refusals before any command. The expected values are
 * worked out here from libefa's rules (rdma-core 44: CQ entries rounded up
 * to a power of two, 16-byte entries; send WRs max(asked, min_sq_wr) rounded
 * up to a power of two, 64-byte LLQ descriptors; receive descriptors
 * (SGEs x WRs) rounded up to a power of two, 16 bytes each), not taken from
 * the library. The kernel suite (kernel/6.1-efa) runs the same half against
 * a real kernel's stand-in driver and libefa.
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

#include <rdma/efa-abi.h>
#include <uvio.h>
#include "wrap.h"
#include "hw_query.h"
#define HW_FAKE_MAPS 32
#include "hw_fake.h"


/* Ids Debian 11's efa-abi.h (5.10) lacks. */
enum {
	CTX_COMP_TX_BATCH = 1,		/* EFA_ALLOC_UCONTEXT_CMD_COMP_TX_BATCH */
	CTX_COMP_MIN_SQ_WR = 2,		/* EFA_ALLOC_UCONTEXT_CMD_COMP_MIN_SQ_WR */
	CQ_RESP_DB_OFF = 1,		/* EFA_CREATE_CQ_RESP_DB_OFF */
};

/* The answers' keys: distinct, page multiples. */
enum {
	CQ_Q_KEY = 0x10000, CQ_DB_KEY = 0x11000, CQ_DB_OFF = 0x18,
	RQ_KEY = 0x20000, RQ_DB_KEY = 0x21000, SQ_DB_KEY = 0x22000, LLQ_KEY = 0x23000,
	LLQ_OFF = 0x100,
};

/* What the stand-in kernel saw, and what it answers. */
static struct {
	uint16_t object, method;
	uint8_t uhw_in[256];
	uint32_t uhw_in_len;
	uint32_t cqe;			/* CQ.CREATE's CQE */
	uint32_t cap[5];		/* QP.CREATE's CAP */
	uint32_t qp_type;
	int ioctls, answer;
	uint32_t next_handle;
	uint64_t q_mmap_size;		/* the CQ ring's length answered */
	struct efa_ibv_alloc_ucontext_resp ctx;
	struct efa_ibv_ex_query_device_resp dev;	/* EX_QUERY_DEVICE's driver data */
	int dev_queries;
} k;

static void answer_cq(struct ib_uverbs_attr *x)
{
	struct {	/* efa_ibv_create_cq_resp, 6.1's layout */
		uint32_t comp_mask;
		uint8_t r0[4];
		uint64_t q_mmap_key, q_mmap_size;
		uint16_t cq_idx;
		uint8_t r1[2];
		uint32_t db_off;
		uint64_t db_mmap_key;
	} r = { .comp_mask = CQ_RESP_DB_OFF, .q_mmap_key = CQ_Q_KEY,
		.q_mmap_size = k.q_mmap_size, .cq_idx = 3, .db_off = CQ_DB_OFF,
		.db_mmap_key = CQ_DB_KEY };

	put_out(x, &r, sizeof(r));
}

static void answer_qp(struct ib_uverbs_attr *x)
{
	struct efa_ibv_create_qp_resp r = {
		.rq_db_offset = 0x40, .sq_db_offset = 0x48, .llq_desc_offset = LLQ_OFF,
		.rq_mmap_key = RQ_KEY, .rq_mmap_size = 4096, .rq_db_mmap_key = RQ_DB_KEY,
		.sq_db_mmap_key = SQ_DB_KEY, .llq_desc_mmap_key = LLQ_KEY,
	};

	put_out(x, &r, sizeof(r));
}

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	const struct ib_uverbs_attr *a;

	(void)request;
	k.ioctls++;
	k.object = h->object_id;
	k.method = h->method_id;
	if ((a = find(h, UVERBS_ATTR_UHW_IN))) {
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
			if (h->method_id == UVERBS_METHOD_INVOKE_WRITE &&
			    find(h, UVERBS_ATTR_WRITE_CMD)->data ==
				    (IB_USER_VERBS_CMD_FLAG_EXTENDED |
				     IB_USER_VERBS_EX_CMD_QUERY_DEVICE)) {
				struct ib_uverbs_ex_query_device_resp r = {
					.response_length = sizeof(r) };

				if (x->attr_id == UVERBS_ATTR_CORE_OUT)
					put_out(x, &r, sizeof(r));
				else if (x->attr_id == UVERBS_ATTR_UHW_OUT) {
					put_out(x, &k.dev, sizeof(k.dev));
					k.dev_queries++;
				}
			}
			break;
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
			else if (x->attr_id == UVERBS_ATTR_UHW_OUT)
				answer_cq(x);
			break;
		case UVERBS_OBJECT_QP:
			if (h->method_id != UVERBS_METHOD_QP_CREATE)
				break;
			if (x->attr_id == UVERBS_ATTR_CREATE_QP_HANDLE)
				x->data = ++k.next_handle;
			else if (x->attr_id == UVERBS_ATTR_CREATE_QP_CAP)
				memcpy(k.cap, (void *)(uintptr_t)x->data, sizeof(k.cap));
			else if (x->attr_id == UVERBS_ATTR_CREATE_QP_TYPE)
				k.qp_type = (uint32_t)x->data;
			else if (x->attr_id == UVERBS_ATTR_CREATE_QP_RESP_QP_NUM)
				put_out(x, &(uint32_t){ 7 }, 4);
			else if (x->attr_id == UVERBS_ATTR_CREATE_QP_RESP_CAP)
				put_out(x, k.cap, sizeof(k.cap));
			else if (x->attr_id == UVERBS_ATTR_UHW_OUT)
				answer_qp(x);
			break;
		}
	}
	return 0;
}

/* An EFA as 6.1 answers for one: one sub-CQ, 32 KiB of LLQ, a TX batch and
 * a minimum SQ depth of 16. */
static struct uvio_device *efa_device(void)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	memset(maps, 0, sizeof(maps));
	nmaps = nunmaps = 0;
	fake.on_ioctl = kernel_ioctl;
	k.ctx.cmds_supp_udata_mask = EFA_USER_CMDS_SUPP_UDATA_QUERY_DEVICE |
				     EFA_USER_CMDS_SUPP_UDATA_CREATE_AH;
	k.ctx.sub_cqs_per_cq = 1;
	k.ctx.inline_buf_size = 32;
	k.ctx.max_llq_size = 32768;
	k.ctx.max_tx_batch = 16;
	k.ctx.min_sq_wr = 16;
	k.q_mmap_size = 4096;
	k.dev.max_sq_wr = 512;
	k.dev.max_rq_wr = 512;
	k.dev.max_sq_sge = 2;
	k.dev.max_rq_sge = 2;
	k.dev.device_caps = EFA_QUERY_DEVICE_CAPS_RDMA_READ;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_EFA, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	return dev;
}

static struct uvio_device *with_context(int *async_fd)
{
	struct uvio_device *dev = efa_device();
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

static long page(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* The mapping i: key, length, protection. */
static void assert_map(unsigned int i, off_t key, size_t len, int prot)
{
	assert_true(i < nmaps);
	assert_int_equal(maps[i].off, key);
	assert_int_equal(maps[i].len, len);
	assert_int_equal(maps[i].prot, prot);
}

/* The context's request acknowledges the TX batch and the minimum SQ
 * depth, as libefa's does; nothing is mapped. */
static void context_request(void **state)
{
	struct efa_ibv_alloc_ucontext_cmd want = {
		.comp_mask = CTX_COMP_TX_BATCH | CTX_COMP_MIN_SQ_WR,
	};
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	assert_int_equal(k.uhw_in_len, sizeof(want));
	assert_memory_equal(k.uhw_in, &want, sizeof(want));
	assert_int_equal(nmaps, 0);
	/* and then the device's limits, as libefa asks them */
	assert_int_equal(k.dev_queries, 1);
	done(dev, afd);
}

/* Completion events asked for where the device has event queues; the
 * device's WR and SGE limits applied before anything is sent. */
static void channel_and_limits(void **state)
{
	struct uvio_device *dev = efa_device();
	struct uvio_comp_channel ch = { .sz = sizeof(ch), .fd = 0 };
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16, .channel = &ch);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = IB_UVERBS_QPT_UD, .pd_handle = 1,
		  .send_cq_handle = 2, .recv_cq_handle = 2,
		  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 3,
			   .max_recv_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);

	(void)state;
	k.dev.device_caps |= 4u;	/* EFA_QUERY_DEVICE_CAPS_CQ_NOTIFICATIONS: not in 5.10's header */
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(k.uhw_in[10], 1);	/* flags: WITH_COMPLETION_CHANNEL */
	k.ioctls = 0;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);	/* 3 > 2 SGEs */
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: efa: EINVAL: cap.max_send_sge past the device's max_sq_sge"));
	q.cap.max_send_sge = 1;
	q.cap.max_recv_wr = 513;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_int_equal(k.ioctls, 0);
	done(dev, ctx.async_fd);
}

/* CQ: entries rounded up to a power of two, 16-byte entries, the
 * context's sub-CQs; the ring mapped read-only by its key and length, the
 * doorbell page writable; both unmapped at destroy. A failed create maps
 * nothing. */
static void cq_mapped_and_unmapped(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 20);
	UVIO_OPTS(uvio_cq, cq);
	struct {
		uint32_t comp_mask, cq_entry_size;
		uint16_t num_sub_cqs;
		uint8_t flags, reserved[5];
	} want = { .cq_entry_size = 16, .num_sub_cqs = 1 };

	(void)state;
	k.q_mmap_size = 2 * (uint64_t)page();
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), 0);
	assert_int_equal(k.cqe, 32);
	assert_int_equal(cq.cqe, 32);
	assert_int_equal(k.uhw_in_len, sizeof(want));
	assert_memory_equal(k.uhw_in, &want, sizeof(want));
	assert_int_equal(nmaps, 2);
	assert_map(0, CQ_Q_KEY, 2 * (size_t)page(), PROT_READ);
	assert_map(1, CQ_DB_KEY, (size_t)page(), PROT_WRITE);
	assert_int_equal(assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_CQ, maps[0].p,
				       true), 2 * (uint64_t)page());
	assert_region(dev, UVERBS_OBJECT_CQ, cq.handle, UVIO_HW_MEM_DOORBELL, maps[1].p, true);
	assert_int_equal(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	assert_int_equal(nunmaps, 2);
	assert_no_record(dev, UVERBS_OBJECT_CQ, cq.handle);

	k.answer = EINVAL;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(nmaps, 2);
	k.answer = 0;
	done(dev, afd);
}

static struct efa_ibv_create_qp qp_req(struct uvio_device *dev, uint32_t type,
				       struct ib_uverbs_qp_cap cap, struct uvio_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = 1, .send_cq_handle = 2,
		  .recv_cq_handle = 2, .cap = cap);
	struct efa_ibv_create_qp r;

	memset(qp, 0, sizeof(*qp));
	qp->sz = sizeof(*qp);
	assert_int_equal(uvio_create_qp(dev, &a, NULL, qp, NULL), 0);
	assert_int_equal(k.object, UVERBS_OBJECT_QP);
	assert_int_equal(k.qp_type, type);
	assert_int_equal(k.uhw_in_len, sizeof(r));
	memcpy(&r, k.uhw_in, sizeof(r));
	assert_int_equal(r.comp_mask, 0);
	assert_int_equal(r.driver_qp_type, EFA_QP_DRIVER_TYPE_SRD);
	return r;
}

/* QP: ring sizes by libefa's rules, the counts the kernel is told; SQ
 * doorbell, LLQ (the ring plus the descriptors' offset, in pages), RQ
 * doorbell and RQ ring mapped writable, all unmapped at destroy; UD and
 * DRIVER (SRD) alike. */
static void qp_sizes_and_maps(void **state)
{
	int afd;
	struct uvio_device *dev = with_context(&afd);
	struct efa_ibv_create_qp r;
	struct uvio_qp qp;
	size_t pg = (size_t)page();

	(void)state;
	/* 5 sends -> min_sq_wr 16 -> 1 KiB; 10 receives of 2 SGEs -> 32
	 * descriptors, 512 bytes, 16 WRs */
	r = qp_req(dev, IB_UVERBS_QPT_UD, (struct ib_uverbs_qp_cap){ 5, 10, 1, 2, 0 }, &qp);
	assert_int_equal(r.sq_ring_size, 16 * 64);
	assert_int_equal(r.rq_ring_size, 32 * 16);
	assert_int_equal(k.cap[0], 16);
	assert_int_equal(k.cap[1], 16);
	assert_int_equal(nmaps, 4);
	assert_map(0, RQ_DB_KEY, pg, PROT_WRITE);
	assert_map(1, RQ_KEY, 4096, PROT_WRITE);
	assert_map(2, SQ_DB_KEY, pg, PROT_WRITE);
	assert_map(3, LLQ_KEY, (16 * 64 + LLQ_OFF + pg - 1) / pg * pg, PROT_WRITE);
	assert_int_equal(uvio_destroy_qp(dev, qp.handle, NULL, NULL), 0);
	assert_int_equal(nunmaps, 4);

	/* SRD: 100 sends -> 128 x 64 = 8 KiB (and the offset: 3 pages of 4 KiB);
	 * no receive queue: nothing of it asked or mapped */
	r = qp_req(dev, IB_UVERBS_QPT_DRIVER, (struct ib_uverbs_qp_cap){ 100, 0, 2, 0, 0 }, &qp);
	assert_int_equal(r.sq_ring_size, 128 * 64);
	assert_int_equal(r.rq_ring_size, 0);
	assert_int_equal(k.cap[0], 128);
	assert_int_equal(k.cap[1], 0);
	assert_int_equal(nmaps, 6);
	assert_map(4, SQ_DB_KEY, pg, PROT_WRITE);
	assert_map(5, LLQ_KEY, (128 * 64 + LLQ_OFF + pg - 1) / pg * pg, PROT_WRITE);
	/* Left for the close: unmapped then. */
	done(dev, afd);
	assert_int_equal(nunmaps, 6);
}

/* Refused before any command, in efa's words. */
static void refusals(void **state)
{
	int afd;
	struct uvio_device *dev = efa_device();
	UVIO_OPTS(uvio_cq_attr, a, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp_init_attr, q, .type = IB_UVERBS_QPT_RC, .pd_handle = 1,
		  .send_cq_handle = 2, .recv_cq_handle = 2,
		  .cap = { .max_send_wr = 1, .max_send_sge = 1 });
	UVIO_OPTS(uvio_qp, qp);

	(void)state;
	/* No context made by the library. */
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EOPNOTSUPP);
	assert_int_equal(k.ioctls, 0);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: efa: EOPNOTSUPP: this handle has "
					       "no context the library made"));
	uvio_device_close(dev);

	/* A device that takes more send WRs than its LLQ holds descriptors. */
	dev = efa_device();
	k.dev.max_sq_wr = 4096;
	{
		UVIO_OPTS(uvio_context, ctx);

		assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
		afd = ctx.async_fd;
	}
	k.ioctls = 0;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: efa: EOPNOTSUPP: efa makes UD QPs "
					       "and SRD QPs"));
	/* 600 sends: 1024 x 64 bytes, past the 32 KiB of LLQ */
	q.type = IB_UVERBS_QPT_UD;
	q.cap.max_send_wr = 600;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "QP.CREATE: efa: EINVAL: cap.max_send_wr past the device's LLQ"));
	q.cap.max_send_wr = 1;
	q.fields = UVIO_QP_INIT_SRQ;
	assert_int_equal(uvio_create_qp(dev, &q, NULL, &qp, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "efa has no SRQ"));
	{
		UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = 1, .max_wr = 16, .max_sge = 1);
		UVIO_OPTS(uvio_srq, srq);

		assert_int_equal(uvio_create_srq(dev, &sa, NULL, &srq, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "SRQ.CREATE: efa: EOPNOTSUPP"));
	}
	{
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = 1, .cqe = 100);

		assert_int_equal(uvio_resize_cq(dev, &ra, NULL, &cq, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "efa does not resize CQs"));
	}
	{	/* completions on a channel, where the device has no event queues */
		struct uvio_comp_channel ch = { .sz = sizeof(ch), .fd = 0 };
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 16, .channel = &ch);

		assert_int_equal(uvio_create_cq(dev, &ca, NULL, &cq, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: efa: EOPNOTSUPP: the "
						       "device has no event queues"));
	}
	a.cqe = 1u << 31;
	assert_int_equal(uvio_create_cq(dev, &a, NULL, &cq, NULL), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "CQ.CREATE: efa: EINVAL"));
	assert_int_equal(k.ioctls, 0);
	assert_int_equal(nmaps, 0);
	done(dev, afd);
}

/* Every number of the caller's that enters a size is held to the
 * device's limits first (2^31, 2^32 - 1 and each limit plus one: 512 WRs,
 * 2 SGEs, 32 bytes inline, rings of 2^30 bytes): refused before anything
 * is sent, the field named. */
static void limits(void **state)
{
	static const uint32_t plus_one[5] = { 513, 513, 3, 3, 33 };
	int afd;
	struct uvio_device *dev = with_context(&afd);

	(void)state;
	assert_qp_limits(dev, IB_UVERBS_QPT_UD, 0x1f, plus_one);
	assert_cq_limits(dev, (1u << 26) + 1);
	done(dev, afd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(context_request),
		cmocka_unit_test(cq_mapped_and_unmapped),
		cmocka_unit_test(qp_sizes_and_maps),
		cmocka_unit_test(channel_and_limits),
		cmocka_unit_test(refusals),
		cmocka_unit_test(limits),
	};

	fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
