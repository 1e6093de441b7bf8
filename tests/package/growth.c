// SPDX-License-Identifier: MIT
/*
 * A program of the kind users build against <uvio/cmd.h>, <uvio/dp.h> and
 * <uvio/device.h>, for tests/package/growth.sh: built once with 1.0's
 * headers and once with a later release's (whose struct uvio_cmd, data-path
 * objects and struct uvio_device_info each have a field more), and run on
 * the library of either. Every function that takes the caller's struct
 * uvio_cmd is called on it: a command built and finished, rendered,
 * issued (on no fd: EBADF), a misuse recorded and reported. Each data-path
 * create is called on an object with a guard after it (no device: the
 * object is cleared to its size and its size kept, the guard untouched),
 * and the device list is read into an array with a guard after it (on the
 * sysfs tree growth.sh makes, when the library reads it). Prints the
 * library it ran on and the size of its structs; exits 1 on the first
 * answer that differs from the one expected.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <uvio.h>
#include <uvio/decode.h>
#include <uvio/dp.h>

#define GUARD 0xa5a5a5a5a5a5a5a5ull

static int failed;

#define EXPECT(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("growth: FAIL line %d: ", __LINE__);           \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
			failed = 1;                                            \
		}                                                              \
	} while (0)

/* A create on no device: refused (-EINVAL, argument dev) after the object
 * was cleared to the size the caller's header gives it; nothing past it
 * written; the grown library sets the grown field where the caller has it. */
#ifdef UVIO_GROWTH_MARK
#define GROWN_SET(obj) EXPECT((obj).grown == UVIO_GROWTH_MARK, #obj ": grown field not set")
#else
#define GROWN_SET(obj) ((void)0)
#endif
#define CREATE_ON_NO_DEVICE(type, call, fn)                                    \
	do {                                                                   \
		struct {                                                       \
			struct type obj;                                       \
			uint64_t guard[2];                                     \
		} o;                                                           \
		memset(&o, 0xa5, sizeof(o));                                   \
		ret = call;                                                    \
		EXPECT(ret == -EINVAL && strstr(uvio_last_error(), fn ": EINVAL: argument dev"), \
		       fn " on no device: %d (%s)", ret, uvio_last_error());  \
		EXPECT(o.obj.size == sizeof(o.obj), fn ": size %u, not %zu", o.obj.size, \
		       sizeof(o.obj));                                         \
		EXPECT(o.obj.handle == 0 && !o.obj.dev, fn ": the object not cleared"); \
		EXPECT(o.guard[0] == GUARD && o.guard[1] == GUARD,             \
		       fn ": bytes past the caller's struct written");        \
		GROWN_SET(o.obj);                                              \
	} while (0)

static void data_path(void)
{
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 4);
	UVIO_OPTS(uvio_srq_attr, sa, .max_wr = 4);
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC);
	UVIO_OPTS(uvio_ah_attr, aa);
	struct uvio_dp_cq cq;
	int ret;

	printf("growth: struct uvio_dp_cq of %zu bytes, uvio_dp_qp of %zu\n",
	       sizeof(struct uvio_dp_cq), sizeof(struct uvio_dp_qp));
	CREATE_ON_NO_DEVICE(uvio_dp_cq, uvio_dp_create_cq(NULL, &ca, &o.obj), "uvio_dp_create_cq");
	CREATE_ON_NO_DEVICE(uvio_dp_srq, uvio_dp_create_srq(NULL, &sa, &o.obj),
			    "uvio_dp_create_srq");
	CREATE_ON_NO_DEVICE(uvio_dp_qp, uvio_dp_create_qp(NULL, &qa, NULL, &o.obj),
			    "uvio_dp_create_qp");
	CREATE_ON_NO_DEVICE(uvio_dp_ah, uvio_dp_create_ah(NULL, &aa, &o.obj), "uvio_dp_create_ah");
	/* shorter than 1.0's: refused, the function named */
	ret = uvio_dp_create_cq_sz(NULL, &ca, &cq, 16);
	EXPECT(ret == -EINVAL && strstr(uvio_last_error(), "shorter than 1.0's"),
	       "a 16-byte CQ: %d (%s)", ret, uvio_last_error());
}

/* The device list into an array with a guard after it: the library's
 * stride is the caller's struct. With UVIO_GROWTH_DEVICES set, growth.sh's
 * sysfs tree must be what was listed. */
static void devices(void)
{
	struct {
		struct uvio_device_info d[2];
		uint64_t guard[2];
	} l;
	const char *want = getenv("UVIO_GROWTH_DEVICES");
	int n;

	memset(&l, 0xa5, sizeof(l));
	n = uvio_list_devices(l.d, 2);
	printf("growth: struct uvio_device_info of %zu bytes, %d devices listed\n",
	       sizeof(struct uvio_device_info), n);
	EXPECT(n >= 0, "uvio_list_devices: %d (%s)", n, uvio_last_error());
	EXPECT(l.guard[0] == GUARD && l.guard[1] == GUARD,
	       "uvio_list_devices wrote past the caller's array");
	for (int i = 0; i < n && i < 2; i++) {
		printf("growth:   %s: %s, netdev %s (ifindex %u)\n", l.d[i].name,
		       uvio_transport_name(l.d[i].transport), l.d[i].netdev, l.d[i].netdev_ifindex);
		EXPECT(l.d[i].name[0] && (unsigned char)l.d[i].name[0] != 0xa5,
		       "entry %d has no name", i);
		GROWN_SET(l.d[i]);
	}
	if (want && *want) {
		EXPECT(n == atoi(want), "%d devices listed, not %s", n, want);
		EXPECT(n < 2 || (!strcmp(l.d[0].name, "fake0") && !strcmp(l.d[1].name, "fake1") &&
				 l.d[0].transport == UVIO_TRANSPORT_ROCE &&
				 l.d[1].transport == UVIO_TRANSPORT_IWARP &&
				 !strcmp(l.d[1].netdev, "lo") && l.d[1].netdev_ifindex == 1),
		       "the tree's devices read wrong");
	}
}

int main(void)
{
	uint32_t cqe = 16;
	uint64_t user_handle = 7;
	struct ib_uverbs_create_cq_resp resp_unused;
	uint32_t out_cqe = 0;
	char text[512];
	uint16_t attr = 0;
	Dl_info info;
	int ret;

	(void)resp_unused;
	if (!dladdr((void *)uvio_cmd_finish, &info) || !info.dli_fname) {
		printf("growth: FAIL: cannot tell which library uvio_cmd_finish is in\n");
		return 1;
	}
	printf("growth: struct uvio_cmd of %zu bytes, library %s\n", sizeof(struct uvio_cmd),
	       info.dli_fname);

	{	/* a command as the verbs build one */
		UVIO_CMD_DEFINE(cmd, 4, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, cqe);
		uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, user_handle);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &out_cqe, sizeof(out_cqe));
		ret = uvio_cmd_finish(&cmd);
		EXPECT(ret == 24 + 4 * 16, "uvio_cmd_finish: %d, not %d", ret, 24 + 4 * 16);
		ret = uvio_cmd_format(&cmd, text, sizeof(text));
		EXPECT(ret > 0 && strstr(text, "CQ.CREATE"), "uvio_cmd_format: %d: %.80s", ret, text);
		EXPECT(!uvio_cmd_output_valid(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE),
		       "an output valid before any run");
		ret = uvio_cmd_exec(-1, &cmd);
		EXPECT(ret == -EBADF, "uvio_cmd_exec on no fd: %d, not -EBADF", ret);
		uint32_t h;
		ret = uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h);
		EXPECT(ret == -ENODATA, "uvio_cmd_read_handle after a failure: %d", ret);
	}
	{	/* the 2017 layout, chosen before the first attribute */
		UVIO_CMD_DEFINE(cmd, 1, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
		ret = uvio_cmd_set_layout(&cmd, UVIO_LAYOUT_2017);
		EXPECT(ret == 0, "uvio_cmd_set_layout: %d", ret);
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_PD_HANDLE, 3);
		ret = uvio_cmd_finish(&cmd);
		EXPECT(ret == 16 + 16, "uvio_cmd_finish in the 2017 layout: %d", ret);
	}
	{	/* a misuse: the same attribute twice */
		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, 1);
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, 2);
		ret = uvio_cmd_finish(&cmd);
		EXPECT(ret == -EEXIST, "a duplicate attribute: %d, not -EEXIST", ret);
		const char *msg = uvio_cmd_error_msg(&cmd, &attr);
		EXPECT(msg && strstr(msg, "twice") && attr == UVERBS_ATTR_DESTROY_CQ_HANDLE,
		       "the misuse reported as %s (attribute %u)", msg ? msg : "nothing", attr);
		ret = uvio_cmd_exec(-1, &cmd);
		EXPECT(ret == -EEXIST, "uvio_cmd_exec of a refused command: %d", ret);
	}
	data_path();
	devices();
	printf("growth: %s\n", failed ? "FAIL" : "PASS");
	return failed;
}
