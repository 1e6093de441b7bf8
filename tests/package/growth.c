// SPDX-License-Identifier: MIT
/*
 * A program of the kind users build against <uvio/cmd.h>, for
 * tests/package/growth.sh: built once with 1.0's header and once with a
 * later release's (whose struct uvio_cmd has a field more), and run on the
 * library of either. Every function that takes the caller's struct
 * uvio_cmd is called on it: a command built and finished, rendered,
 * issued (on no fd: EBADF), a misuse recorded and reported. Prints the
 * library it ran on and the size of its struct; exits 1 on the first
 * answer that differs from the one expected.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <uvio.h>
#include <uvio/decode.h>

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
	printf("growth: %s\n", failed ? "FAIL" : "PASS");
	return failed;
}
