/*
 * Sized structs: a caller built against an older, shorter header keeps
 * working with this library, nothing past its sz is read or written, and a
 * newer caller that sets a field this library does not know is refused
 * rather than half served. Also the provider doors: driver attributes joined
 * to a verb, and caller-built commands run on a device.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <uvio.h>
#include "fake_sysfs.h"
#include "wrap.h"

static struct ib_uverbs_ioctl_hdr seen;		/* header of the last command */
static struct ib_uverbs_attr seen_attrs[32];

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	seen = *hdr;
	memcpy(seen_attrs, hdr->attrs, hdr->num_attrs * sizeof(*hdr->attrs));
	for (unsigned int i = 0; i < hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &hdr->attrs[i];

		if (a->attr_id == UVERBS_ATTR_CREATE_CQ_HANDLE)
			a->data = 3;
		if (a->attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE)
			*(uint32_t *)(uintptr_t)a->data = 64;
		if (a->attr_id == UVIO_DRIVER_ATTR(5)) {	/* a driver's new object */
			a->data = 77;
			a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
		}
	}
	return 0;
}

static struct uvio_device *fresh(void)
{
	struct uvio_device *dev;

	fake_reset();
	fake.on_ioctl = kernel_ioctl;
	memset(&seen, 0, sizeof(seen));
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 14, &dev), 0);
	return dev;
}

/* What a header of an earlier release might have held. */
struct old_cq_attr {
	size_t sz;
	uint32_t cqe;
	uint64_t user_handle;
};
struct old_cq {
	size_t sz;
	uint32_t handle;
};

static const struct ib_uverbs_attr *find(uint16_t id)
{
	for (unsigned int i = 0; i < seen.num_attrs; i++)
		if (seen_attrs[i].attr_id == id)
			return &seen_attrs[i];
	return NULL;
}

static void old_caller_works(void **state)
{
	struct uvio_device *dev = fresh();
	/* The old struct sits in a larger buffer full of garbage: the
	 * library must not read the garbage as channel, vector or flags. */
	union {
		struct old_cq_attr a;
		unsigned char bytes[sizeof(struct uvio_cq_attr) + 16];
	} in;
	union {
		struct old_cq c;
		unsigned char bytes[sizeof(struct uvio_cq) + 16];
	} out;
	(void)state;

	memset(&in, 0xa5, sizeof(in));
	memset(&in.a, 0, sizeof(in.a));
	in.a.sz = sizeof(in.a);
	in.a.cqe = 16;
	in.a.user_handle = 9;
	memset(&out, 0xa5, sizeof(out));
	out.c.sz = offsetof(struct old_cq, handle) + sizeof(out.c.handle);
	assert_int_equal(uvio_create_cq(dev, (const struct uvio_cq_attr *)&in, NULL,
					(struct uvio_cq *)&out, NULL), 0);
	assert_int_equal(out.c.handle, 3);
	/* cqe lies past the old sz: untouched */
	for (size_t i = out.c.sz; i < sizeof(out); i++)
		assert_int_equal(out.bytes[i], 0xa5);
	assert_null(find(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL));
	assert_null(find(UVERBS_ATTR_CREATE_CQ_FLAGS));
	assert_int_equal(find(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR)->data, 0);
	assert_int_equal(find(UVERBS_ATTR_CREATE_CQ_USER_HANDLE)->data, 9);
	uvio_device_close(dev);
}

static void newer_caller_refused(void **state)
{
	struct uvio_device *dev = fresh();
	union {
		struct uvio_cq_attr a;
		unsigned char bytes[sizeof(struct uvio_cq_attr) + 8];
	} in;
	UVIO_OPTS(uvio_cq, cq);
	(void)state;

	memset(&in, 0, sizeof(in));
	in.a.sz = sizeof(in);
	in.a.cqe = 16;
	/* a zero tail is a field the caller did not set: fine */
	assert_int_equal(uvio_create_cq(dev, &in.a, NULL, &cq, NULL), 0);
	/* a set field this library does not know: refused, nothing sent */
	in.bytes[sizeof(struct uvio_cq_attr) + 3] = 1;
	fake.ioctl_calls = 0;
	assert_int_equal(uvio_create_cq(dev, &in.a, NULL, &cq, NULL), -E2BIG);
	assert_int_equal(fake.ioctl_calls, 0);
	/* sz missing */
	in.a.sz = 0;
	assert_int_equal(uvio_create_cq(dev, &in.a, NULL, &cq, NULL), -EINVAL);
	in.a.sz = sizeof(in.a);
	cq.sz = 0;
	assert_int_equal(uvio_create_cq(dev, &in.a, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls, 0);
	uvio_device_close(dev);
}

/* A zeroed attr means no completion channel: fd 0 is never sent. */
static void zeroed_attr_has_no_channel(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 4);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_comp_channel, ch);
	(void)state;

	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, NULL), 0);
	assert_null(find(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL));
	attr.channel = &ch;	/* fd 0 on purpose: sent as given */
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, NULL), 0);
	assert_non_null(find(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL));
	assert_int_equal(find(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL)->data, 0);
	uvio_device_close(dev);
}

/* The calls that were positional or unsized before 1.0 check their structs
 * before any system call, and write outputs only inside sz. */
static void sized_calls_checked(void **state)
{
	struct uvio_device *dev = fresh();
	struct {
		struct uvio_events_reported ev;
		uint32_t guard;
	} out;
	struct {
		struct uvio_mw_attr a;
	} mw;
	UVIO_OPTS(uvio_mw, w);
	UVIO_OPTS(uvio_comp_channel, ch);
	UVIO_OPTS(uvio_cq_resize_attr, grow, .cq_handle = 3, .cqe = 100);
	UVIO_OPTS(uvio_cq_moderation, mod, .cq_handle = 3, .count = 1);
	(void)state;

	/* Events of a destroy: an sz too small for the size field is refused
	 * for every object that reports them, before anything is sent. */
	memset(&out, 0, sizeof(out));
	assert_int_equal(uvio_destroy_cq(dev, 3, &out.ev, NULL), -EINVAL);
	assert_int_equal(uvio_destroy_qp(dev, 3, &out.ev, NULL), -EINVAL);
	assert_int_equal(uvio_destroy_srq(dev, 3, &out.ev, NULL), -EINVAL);
	assert_int_equal(uvio_destroy_wq(dev, 3, &out.ev, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	/* An older caller whose struct ends after the completion count: the
	 * async count past it is not written. */
	out.ev.sz = offsetof(struct uvio_events_reported, async_events_reported);
	out.ev.comp_events_reported = 9;
	out.ev.async_events_reported = 0x5a5a5a5a;
	assert_int_equal(uvio_destroy_cq(dev, 3, &out.ev, NULL), 0);
	assert_int_equal(out.ev.comp_events_reported, 0);
	assert_int_equal(out.ev.async_events_reported, 0x5a5a5a5a);

	/* A memory window's attributes: reserved bytes must be zero. */
	memset(&mw, 0, sizeof(mw));
	mw.a.sz = sizeof(mw.a);
	mw.a.type = 2;
	mw.a.reserved[1] = 1;
	fake.ioctl_calls = 0;
	assert_int_equal(uvio_alloc_mw(dev, &mw.a, NULL, &w, NULL), -E2BIG);
	assert_int_equal(uvio_alloc_mw(dev, NULL, NULL, &w, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls, 0);

	/* A QP modify of this header's size: its reserved word must be zero
	 * too (checked without the caller's struct being copied). */
	{
		UVIO_OPTS(uvio_qp_attr, m, .attr_mask = UVIO_QP_STATE, .qp_state = UVIO_QPS_INIT,
			  .reserved = 1);

		fake.ioctl_calls = fake.write_calls = 0;
		assert_int_equal(uvio_modify_qp(dev, 1, &m, NULL, NULL), -E2BIG);
		assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	}

	/* CQ resize and moderation take their CQ in the struct. */
	assert_int_equal(uvio_resize_cq(dev, NULL, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(uvio_modify_cq(dev, NULL, NULL), -EINVAL);
	grow.sz = 0;
	assert_int_equal(uvio_resize_cq(dev, &grow, NULL, NULL, NULL), -EINVAL);
	mod.sz = 2;
	assert_int_equal(uvio_modify_cq(dev, &mod, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls, 0);

	/* A channel struct too short for its fd cannot receive it. */
	ch.sz = offsetof(struct uvio_comp_channel, fd);
	assert_int_equal(uvio_create_comp_channel(dev, &ch, NULL), -EINVAL);
	assert_int_equal(uvio_create_comp_channel(dev, NULL, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls, 0);
	uvio_device_close(dev);
}

static void driver_attrs_joined(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 4);
	UVIO_OPTS(uvio_cq, cq);
	uint32_t h = 0;
	uint64_t knob = 0x1234;
	(void)state;

	UVIO_CMD_DEFINE(extra, 2, 0, 0);
	uvio_put_u64(&extra, UVIO_DRIVER_ATTR(2), knob);
	uvio_put_idr_new(&extra, UVIO_DRIVER_ATTR(5));
	UVIO_OPTS(uvio_drv, drv, .attrs = &extra);
	assert_int_equal(uvio_create_cq(dev, &attr, &drv, &cq, NULL), 0);
	assert_int_equal(find(UVIO_DRIVER_ATTR(2))->data, 0x1234);
	assert_non_null(find(UVERBS_ATTR_UHW_OUT));	/* default response space */
	/* the new handle comes back in the caller's own command */
	assert_int_equal(uvio_cmd_read_handle(&extra, UVIO_DRIVER_ATTR(5), &h), 0);
	assert_int_equal(h, 77);

	/* a core id, or UHW_IN, cannot be joined */
	{
		UVIO_CMD_DEFINE(bad, 1, 0, 0);
		uvio_put_u32(&bad, UVERBS_ATTR_CREATE_CQ_CQE, 1);
		drv.attrs = &bad;
		fake.ioctl_calls = 0;
		assert_int_equal(uvio_create_cq(dev, &attr, &drv, &cq, NULL), -EINVAL);
		assert_int_equal(fake.ioctl_calls, 0);
	}
	/* write() cannot carry them */
	drv.attrs = &extra;
	uvio_device_set_path(dev, UVIO_PATH_WRITE);
	assert_int_equal(uvio_create_cq(dev, &attr, &drv, &cq, NULL), -EOPNOTSUPP);
	assert_int_equal(fake.write_calls, 0);
	uvio_device_close(dev);
}

static void caller_built_command(void **state)
{
	struct uvio_device *dev = fresh();
	enum uvio_path p;
	(void)state;

	UVIO_DEVICE_CMD_DEFINE(dev, cmd, 2, 0x3ff, 1);
	uvio_put_u32(&cmd, UVIO_DRIVER_ATTR(2), 1);
	assert_int_equal(uvio_device_exec(dev, &cmd, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(seen.driver_id, 14);
	assert_int_equal(seen.object_id, 0x3ff);
	assert_int_equal(fake.ioctl_calls, 1);
	uvio_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_caller_works),
		cmocka_unit_test(newer_caller_refused),
		cmocka_unit_test(zeroed_attr_has_no_channel),
		cmocka_unit_test(sized_calls_checked),
		cmocka_unit_test(driver_attrs_joined),
		cmocka_unit_test(caller_built_command),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
