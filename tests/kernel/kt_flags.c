/*
 * What each kernel accepts as the length of every core FLAGS attribute, and
 * that the library's uvio_put_flags() sends one it takes.
 *
 * Measured two ways, on every device:
 *  - the spec check: the FLAGS attribute first, then an unknown mandatory
 *    attribute. The kernel checks attributes in the order given, so a
 *    length it refuses answers EINVAL, one it takes goes on to the unknown
 *    attribute and answers EPROTONOSUPPORT. No handler runs, nothing is
 *    created; a method the driver lacks answers EPROTONOSUPPORT at once
 *    (reported as "no method": the bare method is probed first).
 *  - the value check: a real CQ CREATE with FLAGS of each length, which the
 *    handler must also read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <uvio.h>
#include "kt.h"

static const struct flags_attr {
	uint16_t object, method, attr;
	const char *name;
} attrs[] = {
	{ UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, UVERBS_ATTR_CREATE_CQ_FLAGS,
	  "CQ.CREATE FLAGS" },
	{ UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, UVERBS_ATTR_CREATE_QP_FLAGS,
	  "QP.CREATE FLAGS" },
	{ UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE, UVERBS_ATTR_CREATE_WQ_FLAGS,
	  "WQ.CREATE FLAGS" },
	{ UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS,
	  "MR.DM_MR_REG ACCESS_FLAGS" },
	{ UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, UVERBS_ATTR_ADVISE_MR_FLAGS,
	  "MR.ADVISE_MR FLAGS" },
	{ UVERBS_OBJECT_MR, 4 /* REG_DMABUF_MR, 5.12 */, 6 /* ACCESS_FLAGS */,
	  "MR.REG_DMABUF_MR ACCESS_FLAGS" },
	{ UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_READ, UVERBS_ATTR_READ_COUNTERS_FLAGS,
	  "COUNTERS.READ FLAGS" },
};
static const size_t lens[] = { 0, 2, 4, 6, 8, 12, 16 };

static int fd;
static uint32_t driver_id;

/* The bare method: EPROTONOSUPPORT when this kernel and driver lack it,
 * EINVAL (missing mandatory attributes) when present. */
static int method_present(const struct flags_attr *f)
{
	UVIO_CMD_DEFINE(cmd, 0, f->object, f->method);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	return uvio_cmd_exec(fd, &cmd) != -EPROTONOSUPPORT;
}

static int spec_check(const struct flags_attr *f, size_t len)
{
	uint64_t v[2] = { 0, 0 };

	UVIO_CMD_DEFINE(cmd, 2, f->object, f->method);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	uvio_put_ptr_in(&cmd, f->attr, v, len);
	uvio_put_ptr_in(&cmd, 0x3e, NULL, 0);	/* unknown, mandatory */
	return uvio_cmd_exec(fd, &cmd);
}

static int cq_with_flags(size_t len, bool by_put_flags)
{
	uint64_t v[2] = { 0, 0 }, drv[8];
	uint32_t cqe, h;
	int ret;

	UVIO_CMD_DEFINE(cmd, 7, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, 8);
	uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 1);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0);
	if (by_put_flags)
		uvio_put_flags(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, 0);
	else
		uvio_put_ptr_in(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, v, len);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
	uvio_put_uhw_out(&cmd, drv, sizeof(drv));
	ret = uvio_cmd_exec(fd, &cmd);
	if (!ret && !uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h)) {
		UVIO_CMD_DEFINE(d, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		struct ib_uverbs_destroy_cq_resp resp;

		uvio_cmd_set_driver_id(&d, driver_id);
		uvio_put_idr(&d, UVERBS_ATTR_DESTROY_CQ_HANDLE, h);
		uvio_put_ptr_out(&d, UVERBS_ATTR_DESTROY_CQ_RESP, &resp, sizeof(resp));
		KT_EQ(uvio_cmd_exec(fd, &d), 0);
	}
	return ret;
}

static void measure(const struct uvio_device_info *info)
{
	struct uvio_device *dev;
	struct uvio_context ctx = { .sz = sizeof(ctx) };

	printf("== %s (driver id %u)\n", info->name, info->driver_id);
	if (uvio_device_open(info->name, &dev)) {
		KT_CHECK(0, "open %s", info->name);
		return;
	}
	fd = uvio_device_fd(dev);
	driver_id = uvio_device_driver_id(dev);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	printf("  %-30s", "length (bytes):");
	for (size_t j = 0; j < sizeof(lens) / sizeof(lens[0]); j++)
		printf(" %-6zu", lens[j]);
	printf("\n");
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		const struct flags_attr *f = &attrs[i];

		printf("  %-30s", f->name);
		if (!method_present(f)) {
			printf(" no method on this kernel and driver\n");
			continue;
		}
		for (size_t j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
			int r = spec_check(f, lens[j]);
			bool taken = r == -EPROTONOSUPPORT;

			printf(" %-6s", taken ? "ok" : uvio_errno_name(r));
			/* what the kernel's FLAGS spec promises: 4 to 8 bytes */
			KT_CHECK(taken == (lens[j] >= 4 && lens[j] <= 8), "%s, %zu bytes: %s",
				 f->name, lens[j], uvio_errno_name(r));
		}
		printf("\n");
	}
	printf("  CQ.CREATE with FLAGS of:     ");
	for (size_t j = 0; j < sizeof(lens) / sizeof(lens[0]); j++) {
		int r = cq_with_flags(lens[j], false);

		printf(" %-6s", r ? uvio_errno_name(r) : "ok");
		/* the handler reads a u32 or a u64, nothing else */
		KT_CHECK(!r == (lens[j] == 4 || lens[j] == 8), "CQ.CREATE, FLAGS of %zu bytes: %s",
			 lens[j], uvio_errno_name(r));
	}
	printf("\n  CQ.CREATE with uvio_put_flags: %s\n",
	       cq_with_flags(0, true) ? "refused" : "ok");
	KT_EQ(cq_with_flags(0, true), 0);
	close(ctx.async_fd);
	uvio_device_close(dev);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	if (n <= 0) {
		printf("SKIP: no uverbs device\n");
		return 77;
	}
	for (int i = 0; i < n && i < 8; i++)
		measure(&devs[i]);
	return kt_exit();
}
