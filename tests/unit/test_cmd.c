/*
 * The command builder and executor, byte for byte.
 *
 * Expected encodings are written out field by field from the UAPI
 * definitions (struct ib_uverbs_ioctl_hdr: length, object_id, method_id,
 * num_attrs as u16, reserved1 u64, driver_id u32, reserved2 u32; struct
 * ib_uverbs_attr: attr_id, len, flags, attr_data as u16, data u64; all
 * little-endian), never produced by the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <uvio/cmd.h>
#include "wrap.h"

/* An expected byte string, appended to field by field. */
struct bytes {
	uint8_t b[UVIO_CMD_MAX_BYTES];
	size_t n;
};

static void le(struct bytes *e, uint64_t v, int width)
{
	for (int i = 0; i < width; i++)
		e->b[e->n++] = (uint8_t)(v >> (8 * i));
}

static void hdr_current(struct bytes *e, uint16_t nattrs, uint16_t obj, uint16_t meth,
			uint32_t driver_id)
{
	le(e, 24 + 16 * nattrs, 2);	/* length */
	le(e, obj, 2);
	le(e, meth, 2);
	le(e, nattrs, 2);
	le(e, 0, 8);			/* reserved1 */
	le(e, driver_id, 4);
	le(e, 0, 4);			/* reserved2 */
}

static void hdr_2017(struct bytes *e, uint16_t nattrs, uint16_t obj, uint16_t meth)
{
	le(e, 16 + 16 * nattrs, 2);
	le(e, obj, 2);
	le(e, meth, 2);
	le(e, nattrs, 2);
	le(e, 0, 8);			/* reserved */
}

static void attr(struct bytes *e, uint16_t id, uint16_t len, uint16_t flags,
		 uint16_t attr_data, uint64_t data)
{
	le(e, id, 2);
	le(e, len, 2);
	le(e, flags, 2);
	le(e, attr_data, 2);
	le(e, data, 8);
}

#define MAND 1 /* UVERBS_ATTR_F_MANDATORY */

static void assert_cmd_bytes(const struct uvio_cmd *cmd, const struct bytes *e)
{
	int len = uvio_cmd_finish(cmd);

	assert_int_equal(len, (int)e->n);
	if (memcmp(cmd->hdr, e->b, e->n)) {
		const uint8_t *got = (const uint8_t *)cmd->hdr;

		for (size_t i = 0; i < e->n; i++)
			if (got[i] != e->b[i])
				print_error("byte %zu: got 0x%02x want 0x%02x\n", i, got[i], e->b[i]);
		fail_msg("encoding differs");
	}
}

/* The CQ CREATE a provider sends: all 9 attributes. */
struct cq_bufs {
	uint32_t resp_cqe;
	uint8_t uhw_in[12];
	uint8_t uhw_out[16];
};

static void build_cq_create(struct uvio_cmd *cmd, struct cq_bufs *b)
{
	uvio_put_idr_new(cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uvio_put_u32(cmd, UVERBS_ATTR_CREATE_CQ_CQE, 16);
	uvio_put_u64(cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0x1122334455667788ULL);
	uvio_put_fd(cmd, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 5);
	uvio_put_u32(cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0);
	uvio_attr_optional(uvio_put_flags(cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, 0));
	uvio_put_ptr_out(cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &b->resp_cqe, sizeof(b->resp_cqe));
	uvio_put_uhw_in(cmd, b->uhw_in, sizeof(b->uhw_in));
	uvio_put_uhw_out(cmd, b->uhw_out, sizeof(b->uhw_out));
}

static void expect_cq_create_attrs(struct bytes *e, struct cq_bufs *b)
{
	attr(e, 0, 0, MAND, 0, 0);				/* HANDLE, new */
	attr(e, 1, 4, MAND, 0, 16);				/* CQE, inline */
	attr(e, 2, 8, MAND, 0, 0x1122334455667788ULL);		/* USER_HANDLE */
	attr(e, 3, 0, MAND, 0, 5);				/* COMP_CHANNEL fd */
	attr(e, 4, 4, MAND, 0, 0);				/* COMP_VECTOR */
	attr(e, 5, 8, 0, 0, 0);					/* FLAGS, optional */
	attr(e, 6, 4, MAND, 0, (uintptr_t)&b->resp_cqe);	/* RESP_CQE */
	attr(e, 0x1000, 12, MAND, 0, (uintptr_t)b->uhw_in);	/* UHW_IN */
	attr(e, 0x1001, 16, MAND, 0, (uintptr_t)b->uhw_out);	/* UHW_OUT */
}

static void cq_create_current(void **state)
{
	static struct bytes e;
	struct cq_bufs b;
	(void)state;

	e.n = 0;
	UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	uvio_cmd_set_driver_id(&cmd, 14);
	build_cq_create(&cmd, &b);
	assert_int_equal(uvio_cmd_error(&cmd), 0);
	hdr_current(&e, 9, 3, 0, 14);
	expect_cq_create_attrs(&e, &b);
	assert_int_equal(e.n, 24 + 9 * 16);
	assert_cmd_bytes(&cmd, &e);
}

static void cq_create_2017(void **state)
{
	static struct bytes e;
	struct cq_bufs b;
	(void)state;

	e.n = 0;
	UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	assert_int_equal(uvio_cmd_set_layout(&cmd, UVIO_LAYOUT_2017), 0);
	uvio_cmd_set_driver_id(&cmd, 14);	/* no such field: must not show */
	build_cq_create(&cmd, &b);
	hdr_2017(&e, 9, 3, 0);
	expect_cq_create_attrs(&e, &b);
	assert_int_equal(e.n, 16 + 9 * 16);
	assert_cmd_bytes(&cmd, &e);
}

/* The 2017 header has no driver_id: setting one after the attributes were
 * added must leave every byte as it was (the first attribute sits where
 * today's header keeps driver_id). */
static void driver_id_ignored_in_2017(void **state)
{
	static struct bytes e;
	struct cq_bufs b;
	(void)state;

	e.n = 0;
	UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	assert_int_equal(uvio_cmd_set_layout(&cmd, UVIO_LAYOUT_2017), 0);
	build_cq_create(&cmd, &b);
	uvio_cmd_set_driver_id(&cmd, 14);
	hdr_2017(&e, 9, 3, 0);
	expect_cq_create_attrs(&e, &b);
	assert_cmd_bytes(&cmd, &e);
}

static void cq_destroy_both_layouts(void **state)
{
	struct ib_uverbs_destroy_cq_resp { uint32_t comp, async; } resp;
	static struct bytes e;
	(void)state;

	for (int layout = 0; layout < 2; layout++) {
		e.n = 0;
		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_cmd_set_layout(&cmd, (enum uvio_layout)layout);
		uvio_cmd_set_driver_id(&cmd, 18);
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, 7);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &resp, sizeof(resp));
		if (layout == UVIO_LAYOUT_CURRENT)
			hdr_current(&e, 2, 3, 1, 18);
		else
			hdr_2017(&e, 2, 3, 1);
		attr(&e, 0, 0, MAND, 0, 7);
		attr(&e, 1, 8, MAND, 0, (uintptr_t)&resp);
		assert_cmd_bytes(&cmd, &e);
	}
}

static void every_kind(void **state)
{
	static struct bytes e;
	uint8_t small[3] = { 0xa1, 0xb2, 0xc3 };
	uint8_t big[12] = { 0 };
	uint32_t two[2] = { 0x11, 0x22 }, three[3] = { 1, 2, 3 };
	uint8_t out[4];
	(void)state;

	e.n = 0;
	UVIO_CMD_DEFINE(cmd, 12, 0x3ff, 0x7);
	uvio_put_ptr_in(&cmd, 0, small, sizeof(small));
	uvio_put_ptr_in(&cmd, 1, big, sizeof(big));
	uvio_put_ptr_out(&cmd, 2, out, sizeof(out));
	uvio_put_idr(&cmd, 3, 0xdeadbeef);
	uvio_put_idr_new(&cmd, 4);
	uvio_put_fd(&cmd, 5, 42);
	uvio_put_fd_new(&cmd, 6);
	uvio_put_enum(&cmd, 7, 3, small, 2);
	uvio_put_idrs(&cmd, 8, two, 2);
	uvio_put_idrs(&cmd, 9, three, 3);
	uvio_put_flags(&cmd, 10, 0x8000000000000001ULL);
	uvio_attr_optional(uvio_put_u32(&cmd, UVIO_DRIVER_ATTR(5), 0xabcd));
	assert_int_equal(uvio_cmd_error(&cmd), 0);

	hdr_current(&e, 12, 0x3ff, 7, 0);
	attr(&e, 0, 3, MAND, 0, 0xc3b2a1);		/* inline, zero padded */
	attr(&e, 1, 12, MAND, 0, (uintptr_t)big);
	attr(&e, 2, 4, MAND, 0, (uintptr_t)out);
	attr(&e, 3, 0, MAND, 0, 0xdeadbeef);
	attr(&e, 4, 0, MAND, 0, 0);
	attr(&e, 5, 0, MAND, 0, 42);
	attr(&e, 6, 0, MAND, 0, 0xffffffffffffffffULL);	/* -1 */
	attr(&e, 7, 2, MAND, 3, 0xb2a1);			/* elem_id in the low byte */
	attr(&e, 8, 8, MAND, 0, 0x0000002200000011ULL);	/* two handles inline */
	attr(&e, 9, 12, MAND, 0, (uintptr_t)three);
	attr(&e, 10, 8, MAND, 0, 0x8000000000000001ULL);
	attr(&e, 0x1005, 4, 0, 0, 0xabcd);
	assert_cmd_bytes(&cmd, &e);
}

static void inline_boundary(void **state)
{
	static struct bytes e;
	uint8_t eight[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t nine[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	(void)state;

	e.n = 0;
	UVIO_CMD_DEFINE(cmd, 3, 1, 2);
	uvio_put_ptr_in(&cmd, 0, eight, 8);
	uvio_put_ptr_in(&cmd, 1, nine, 9);
	uvio_put_ptr_in(&cmd, 2, NULL, 0);
	hdr_current(&e, 3, 1, 2, 0);
	attr(&e, 0, 8, MAND, 0, 0x0807060504030201ULL);
	attr(&e, 1, 9, MAND, 0, (uintptr_t)nine);
	attr(&e, 2, 0, MAND, 0, 0);
	assert_cmd_bytes(&cmd, &e);
}

/* ---- misuse: sticky, named, nothing sent ---- */

static int ioctl_ok(unsigned long request, void *arg)
{
	(void)request; (void)arg;
	return 0;
}

static void assert_sticky(struct uvio_cmd *cmd, int err, uint16_t attr_id)
{
	uint16_t id = 0xffff;
	const char *msg = uvio_cmd_error_msg(cmd, &id);

	assert_int_equal(uvio_cmd_error(cmd), err);
	assert_non_null(msg);
	assert_int_equal(id, attr_id);
	fake_reset();
	fake.on_ioctl = ioctl_ok;
	assert_int_equal(uvio_cmd_exec(3, cmd), err);
	assert_int_equal(fake.ioctl_calls, 0);
	assert_false(uvio_cmd_output_valid(cmd, 0));
}

static void misuse_capacity(void **state)
{
	(void)state;
	UVIO_CMD_DEFINE(cmd, 2, 1, 0);
	uvio_put_u32(&cmd, 0, 1);
	uvio_put_u32(&cmd, 1, 1);
	struct ib_uverbs_attr *a = uvio_put_u32(&cmd, 2, 1);
	a->flags = 0xffff;	/* the scratch record: harmless */
	uvio_put_u32(&cmd, 3, 1);	/* ignored: error already recorded */
	assert_int_equal(cmd.num_attrs, 2);
	assert_sticky(&cmd, -ENOSPC, 2);
}

static void misuse_page(void **state)
{
	uint64_t buf[8192 / 8];
	struct uvio_cmd cmd;
	(void)state;

	uvio_cmd_init(&cmd, buf, sizeof(buf), 1, 0);
	assert_int_equal(cmd.capacity, UVIO_MAX_ATTRS);
	for (unsigned int i = 0; i < UVIO_MAX_ATTRS; i++)
		uvio_put_u32(&cmd, (uint16_t)(0x2000 + i), i);
	assert_int_equal(uvio_cmd_error(&cmd), 0);
	assert_true(uvio_cmd_finish(&cmd) <= 4096);
	uvio_put_u32(&cmd, 0x3000, 0);
	assert_sticky(&cmd, -E2BIG, 0x3000);
}

static void misuse_duplicate(void **state)
{
	static const uint16_t ids[] = { 5, UVERBS_ATTR_UHW_OUT, 0x2abc };
	(void)state;

	for (unsigned int i = 0; i < 3; i++) {
		UVIO_CMD_DEFINE(cmd, 4, 1, 0);
		uvio_put_u32(&cmd, ids[i], 1);
		uvio_put_u32(&cmd, 9, 1);
		uvio_put_u64(&cmd, ids[i], 2);
		assert_sticky(&cmd, -EEXIST, ids[i]);
	}
}

static void misuse_length(void **state)
{
	static uint8_t big[70000];
	(void)state;
	{
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_ptr_in(&cmd, 4, big, 65536);
		assert_sticky(&cmd, -E2BIG, 4);
	}
	{
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_ptr_out(&cmd, 4, big, 65536);
		assert_sticky(&cmd, -E2BIG, 4);
	}
	{
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_idrs(&cmd, 6, (const uint32_t *)big, 16384);
		assert_sticky(&cmd, -E2BIG, 6);
	}
	{	/* the largest length the ABI carries is fine */
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_ptr_in(&cmd, 4, big, 65535);
		assert_int_equal(uvio_cmd_error(&cmd), 0);
		assert_int_equal(cmd.attrs[0].len, 65535);
	}
}

static void misuse_null(void **state)
{
	(void)state;
	{
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_ptr_in(&cmd, 1, NULL, 4);
		assert_sticky(&cmd, -EFAULT, 1);
	}
	{
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_ptr_out(&cmd, 2, NULL, 16);
		assert_sticky(&cmd, -EFAULT, 2);
	}
	{
		UVIO_CMD_DEFINE(cmd, 2, 1, 0);
		uvio_put_enum(&cmd, 3, 1, NULL, 9);
		assert_sticky(&cmd, -EFAULT, 3);
	}
}

static void misuse_overlap(void **state)
{
	uint8_t a[64];
	(void)state;
	{	/* the second output starts inside the first */
		UVIO_CMD_DEFINE(cmd, 3, 1, 0);
		uvio_put_ptr_out(&cmd, 1, a, 16);
		uvio_put_ptr_out(&cmd, 2, a + 15, 4);
		assert_sticky(&cmd, -EINVAL, 2);
	}
	{	/* inside the hull of two outputs, but in the gap: fine */
		UVIO_CMD_DEFINE(cmd, 3, 1, 0);
		uvio_put_ptr_out(&cmd, 1, a, 8);
		uvio_put_ptr_out(&cmd, 2, a + 32, 8);
		uvio_put_ptr_out(&cmd, 3, a + 8, 24);
		assert_int_equal(uvio_cmd_error(&cmd), 0);
	}
	{	/* gap, then one that straddles the second */
		UVIO_CMD_DEFINE(cmd, 3, 1, 0);
		uvio_put_ptr_out(&cmd, 1, a, 8);
		uvio_put_ptr_out(&cmd, 2, a + 32, 8);
		uvio_put_ptr_out(&cmd, 3, a + 16, 17);
		assert_sticky(&cmd, -EINVAL, 3);
	}
	{	/* inputs may alias outputs and each other: the kernel reads
		 * them before it writes */
		UVIO_CMD_DEFINE(cmd, 3, 1, 0);
		uvio_put_ptr_out(&cmd, 1, a, 16);
		uvio_put_ptr_in(&cmd, 2, a, 16);
		uvio_put_ptr_in(&cmd, 3, a, 16);
		assert_int_equal(uvio_cmd_error(&cmd), 0);
	}
}

static void misuse_layout_and_buffer(void **state)
{
	uint64_t buf[2];
	struct uvio_cmd cmd;
	(void)state;
	{
		UVIO_CMD_DEFINE(c2, 2, 1, 0);
		uvio_put_u32(&c2, 1, 1);
		assert_int_equal(uvio_cmd_set_layout(&c2, UVIO_LAYOUT_2017), -EINVAL);
		assert_sticky(&c2, -EINVAL, 0);
	}
	{
		UVIO_CMD_DEFINE(c2, 2, 1, 0);
		assert_int_equal(uvio_cmd_set_layout(&c2, (enum uvio_layout)7), -EINVAL);
	}
	uvio_cmd_init(&cmd, buf, sizeof(buf), 1, 0);	/* 16 bytes < 24 */
	uvio_put_u32(&cmd, 1, 1);
	assert_sticky(&cmd, -ENOSPC, 0);
	uvio_cmd_init(&cmd, (char *)buf + 1, 24, 1, 0);	/* misaligned */
	assert_sticky(&cmd, -ENOSPC, 0);
	uvio_cmd_init(&cmd, NULL, 0, 1, 0);
	assert_sticky(&cmd, -ENOSPC, 0);
}

/* ---- execution against a stand-in kernel ---- */

static struct {
	int err;
	uint32_t new_handle;
	int new_fd;
	bool set_valid_on_optional;
	uint32_t cqe;
} k;

/* Plays a kernel's CQ CREATE: writes the handle, the response, and the
 * VALID_OUTPUT bits as told. */
static int kernel_cq_create(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;
	struct ib_uverbs_attr *attrs = request == UVIO_IOCTL_REQ_2017 ?
		(struct ib_uverbs_attr *)((char *)arg + 16) : hdr->attrs;

	for (unsigned int i = 0; i < hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &attrs[i];

		switch (a->attr_id) {
		case UVERBS_ATTR_CREATE_CQ_HANDLE:
			a->data = k.new_handle;
			break;
		case UVERBS_ATTR_CREATE_CQ_RESP_CQE:
			memcpy((void *)(uintptr_t)a->data, &k.cqe, 4);
			a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
			break;
		case UVERBS_ATTR_UHW_OUT:
			/* old kernels: written, never flagged */
			memset((void *)(uintptr_t)a->data, 0x5a, a->len);
			break;
		case 0x20:
			a->data = (uint64_t)(int64_t)k.new_fd;
			break;
		case 0x21:
			if (k.set_valid_on_optional)
				a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
			break;
		}
	}
	return k.err;
}

static void exec_success_rules(void **state)
{
	struct cq_bufs b = { 0 };
	uint32_t h = 0, opt_out = 0;
	int fd = -5;
	(void)state;

	for (int layout = 0; layout < 2; layout++) {
		for (int valid = 0; valid < 2; valid++) {
			UVIO_CMD_DEFINE(cmd, 12, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
			uvio_cmd_set_layout(&cmd, (enum uvio_layout)layout);
			build_cq_create(&cmd, &b);
			uvio_put_fd_new(&cmd, 0x20);
			uvio_attr_optional(uvio_put_ptr_out(&cmd, 0x21, &opt_out, 4));

			fake_reset();
			fake.on_ioctl = kernel_cq_create;
			memset(&k, 0, sizeof(k));
			k.new_handle = 77;
			k.new_fd = 9;
			k.cqe = 31;
			k.set_valid_on_optional = valid;

			assert_int_equal(uvio_cmd_exec(3, &cmd), 0);
			assert_int_equal(fake.ioctl_calls, 1);
			assert_int_equal(fake.last_request, layout ? 0xc0101b01UL : 0xc0181b01UL);
			assert_int_equal(uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h), 0);
			assert_int_equal(h, 77);
			assert_int_equal(uvio_cmd_read_fd(&cmd, 0x20, &fd), 0);
			assert_int_equal(fd, 9);
			assert_int_equal(b.resp_cqe, 31);
			assert_true(uvio_cmd_output_valid(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE));
			/* mandatory and never flagged: filled all the same */
			assert_true(uvio_cmd_output_valid(&cmd, UVERBS_ATTR_UHW_OUT));
			assert_int_equal(b.uhw_out[15], 0x5a);
			/* optional: only with the kernel's bit */
			assert_int_equal(uvio_cmd_output_valid(&cmd, 0x21), valid);
			/* wrong kind or unknown id */
			assert_int_equal(uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, &h), -ENOENT);
			assert_int_equal(uvio_cmd_read_fd(&cmd, 0x33, &fd), -ENOENT);
			assert_false(uvio_cmd_output_valid(&cmd, 0x33));
		}
	}
}

/* What a second run of the same command sees: the kernel gets outputs
 * without the last run's VALID_OUTPUT bits and new fds and handles reset,
 * and validity afterwards is the second run's alone. */
static struct ib_uverbs_attr rerun_seen[12];

static int kernel_record_then_cq_create(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	memcpy(rerun_seen, hdr->attrs, hdr->num_attrs * sizeof(hdr->attrs[0]));
	return kernel_cq_create(request, arg);
}

static void exec_rerun_resets_outputs(void **state)
{
	struct cq_bufs b = { 0 };
	uint32_t opt_out = 0;
	(void)state;

	UVIO_CMD_DEFINE(cmd, 12, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	build_cq_create(&cmd, &b);
	uvio_put_fd_new(&cmd, 0x20);
	uvio_attr_optional(uvio_put_ptr_out(&cmd, 0x21, &opt_out, 4));
	fake_reset();
	fake.on_ioctl = kernel_record_then_cq_create;
	memset(&k, 0, sizeof(k));
	k.new_handle = 77;
	k.new_fd = 9;
	k.set_valid_on_optional = true;
	assert_int_equal(uvio_cmd_exec(3, &cmd), 0);
	assert_true(uvio_cmd_output_valid(&cmd, 0x21));

	k.set_valid_on_optional = false;	/* this run leaves 0x21 unfilled */
	assert_int_equal(uvio_cmd_exec(3, &cmd), 0);
	assert_false(uvio_cmd_output_valid(&cmd, 0x21));
	for (unsigned int i = 0; i < cmd.num_attrs; i++) {
		const struct ib_uverbs_attr *a = &rerun_seen[i];

		assert_int_equal(a->flags & UVERBS_ATTR_F_VALID_OUTPUT, 0);
		if (a->attr_id == 0x20)
			assert_int_equal(a->data_s64, -1);	/* FD NEW, as put */
		if (a->attr_id == UVERBS_ATTR_CREATE_CQ_HANDLE)
			assert_int_equal(a->data, 0);		/* IDR NEW, as put */
	}
	/* and in the 2017 layout */
	{
		UVIO_CMD_DEFINE(c17, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		uvio_cmd_set_layout(&c17, UVIO_LAYOUT_2017);
		uvio_put_idr_new(&c17, UVERBS_ATTR_CREATE_CQ_HANDLE);
		uvio_attr_optional(uvio_put_ptr_out(&c17, 0x21, &opt_out, 4));
		fake.on_ioctl = kernel_cq_create;
		k.set_valid_on_optional = true;
		assert_int_equal(uvio_cmd_exec(3, &c17), 0);
		assert_true(uvio_cmd_output_valid(&c17, 0x21));
		k.set_valid_on_optional = false;
		assert_int_equal(uvio_cmd_exec(3, &c17), 0);
		assert_false(uvio_cmd_output_valid(&c17, 0x21));
	}
}

static void exec_failure_rules(void **state)
{
	static const int errs[] = { EINVAL, EPROTONOSUPPORT, ENOENT, EFAULT, ENOTTY, EIO, EOPNOTSUPP };
	struct cq_bufs b = { 0 };
	uint32_t h = 12345;
	(void)state;

	for (unsigned int i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		build_cq_create(&cmd, &b);
		fake_reset();
		fake.on_ioctl = kernel_cq_create;
		memset(&k, 0, sizeof(k));
		k.err = errs[i];
		k.new_handle = 5;
		assert_int_equal(uvio_cmd_exec(3, &cmd), -errs[i]);
		assert_int_equal(fake.ioctl_calls, 1);
		/* the stand-in wrote outputs before failing: none counts */
		assert_false(uvio_cmd_output_valid(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE));
		assert_false(uvio_cmd_output_valid(&cmd, UVERBS_ATTR_UHW_OUT));
		assert_int_equal(uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h), -ENODATA);
		assert_int_equal(h, 12345);
	}
}

static void zero_attrs(void **state)
{
	static struct bytes e;
	(void)state;

	/* a command with no attributes still carries its driver_id */
	e.n = 0;
	UVIO_CMD_DEFINE(cmd, 0, 0x3ff, 0);
	uvio_cmd_set_driver_id(&cmd, 18);
	hdr_current(&e, 0, 0x3ff, 0, 18);
	assert_cmd_bytes(&cmd, &e);
}

static void exec_not_run(void **state)
{
	uint32_t h;
	(void)state;
	UVIO_CMD_DEFINE(cmd, 1, 1, 0);
	uvio_put_idr_new(&cmd, 0);
	assert_int_equal(uvio_cmd_read_handle(&cmd, 0, &h), -ENODATA);
	assert_false(uvio_cmd_output_valid(&cmd, 0));
	assert_null(uvio_cmd_error_msg(&cmd, NULL));
}

static int kernel_bad_handle(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;
	(void)request;
	hdr->attrs[0].data = 1ULL << 40;	/* not a u32 */
	hdr->attrs[1].data_s64 = -3;		/* not an fd */
	return 0;
}

static void exec_checks_kernel_values(void **state)
{
	uint32_t h = 1;
	int fd = 1;
	(void)state;
	UVIO_CMD_DEFINE(cmd, 2, 1, 0);
	uvio_put_idr_new(&cmd, 0);
	uvio_put_fd_new(&cmd, 1);
	fake_reset();
	fake.on_ioctl = kernel_bad_handle;
	assert_int_equal(uvio_cmd_exec(3, &cmd), 0);
	assert_int_equal(uvio_cmd_read_handle(&cmd, 0, &h), -ERANGE);
	assert_int_equal(uvio_cmd_read_fd(&cmd, 1, &fd), -ERANGE);
	assert_int_equal(h, 1);
	assert_int_equal(fd, 1);
}

/* The struct can grow: init records the size the caller was built with and
 * zeroes the reserved room; a command that did not come through init (its
 * size short) is refused without a system call. */
static void cmd_size_and_room(void **state)
{
	(void)state;
	UVIO_CMD_DEFINE(cmd, 1, 1, 0);
	assert_int_equal(cmd.size, sizeof(struct uvio_cmd));
	for (size_t i = 0; i < sizeof(cmd.reserved) / sizeof(cmd.reserved[0]); i++)
		assert_int_equal(cmd.reserved[i], 0);
	uvio_put_u32(&cmd, 0, 7);
	fake_reset();
	cmd.size = 0;
	assert_int_equal(uvio_cmd_exec(3, &cmd), -EINVAL);
	assert_int_equal(uvio_cmd_finish(&cmd), -EINVAL);
	assert_int_equal(fake.ioctl_calls, 0);
	assert_non_null(strstr(uvio_cmd_error_msg(&cmd, NULL), "uvio_cmd_init"));
	/* A good one of the same shape is 24 + 16 bytes. */
	UVIO_CMD_DEFINE(good, 1, 1, 0);
	uvio_put_u32(&good, 0, 7);
	assert_int_equal(uvio_cmd_finish(&good), 24 + 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cq_create_current),
		cmocka_unit_test(cq_create_2017),
		cmocka_unit_test(driver_id_ignored_in_2017),
		cmocka_unit_test(cq_destroy_both_layouts),
		cmocka_unit_test(every_kind),
		cmocka_unit_test(inline_boundary),
		cmocka_unit_test(misuse_capacity),
		cmocka_unit_test(misuse_page),
		cmocka_unit_test(misuse_duplicate),
		cmocka_unit_test(misuse_length),
		cmocka_unit_test(misuse_null),
		cmocka_unit_test(misuse_overlap),
		cmocka_unit_test(misuse_layout_and_buffer),
		cmocka_unit_test(exec_success_rules),
		cmocka_unit_test(exec_rerun_resets_outputs),
		cmocka_unit_test(exec_failure_rules),
		cmocka_unit_test(zero_attrs),
		cmocka_unit_test(exec_not_run),
		cmocka_unit_test(exec_checks_kernel_values),
		cmocka_unit_test(cmd_size_and_room),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
