// SPDX-License-Identifier: MIT
/*
 * The out-of-line half of the command builder and the executor. The puts in
 * <uvio/cmd.h> stay inline and branch here only for what goes wrong.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

/* The one copy of the puts' slow paths inside the library. */
#define UVIO__DEFINE_SLOW 1

#include <uvio/cmd.h>
#include <uvio/decode.h>
#include <uvio/diag.h>
#include "report/report.h"
#include "cmd/run.h"
#include "cmd/sys.h"
#include "cmd/memcheck.h"

_Static_assert(sizeof(struct ib_uverbs_ioctl_hdr) == 24, "current header is 24 bytes");
_Static_assert(sizeof(struct uvio_ioctl_hdr_2017) == 16, "2017 header is 16 bytes");
_Static_assert(sizeof(struct ib_uverbs_attr) == 16, "an attribute is 16 bytes");
_Static_assert(UVIO_DRIVER_NS == 1u << UVERBS_ID_NS_SHIFT, "driver namespace bit");
#ifdef UVERBS_UDATA_DRIVER_DATA_FLAG
_Static_assert(UVIO_DRIVER_NS == UVERBS_UDATA_DRIVER_DATA_FLAG, "driver namespace, old name");
#endif
_Static_assert(offsetof(struct ib_uverbs_ioctl_hdr, driver_id) == 16, "driver_id at 16");
_Static_assert(offsetof(struct ib_uverbs_ioctl_hdr, attrs) == 24, "attrs at 24");
_Static_assert(offsetof(struct ib_uverbs_attr, attr_data) == 6, "attr_data at 6");
_Static_assert(offsetof(struct ib_uverbs_attr, data) == 8, "data at 8");
_Static_assert(UVIO_IOCTL_REQ_CURRENT == RDMA_VERBS_IOCTL, "request number of today's layout");
_Static_assert(UVIO_IOCTL_REQ_2017 == _IOWR(RDMA_IOCTL_MAGIC, 1, struct uvio_ioctl_hdr_2017),
	       "request number of the 2017 layout");
_Static_assert(UVIO_MAX_ATTRS == 254, "a page holds 254 attributes");

/*
 * The end of 1.0's struct uvio_cmd: every caller's struct is at least this
 * long, whichever release's header it was built with, and cmd->size says
 * how long it is. A later release appends fields after reserved[] (or
 * names reserved words); the library reads a field past this end only
 * where the caller's cmd->size covers it (CMD_HAS below), as a program
 * built against 1.0 keeps a 1.0-sized struct on its stack.
 */
#define CMD_SIZE_1_0 (offsetof(struct uvio_cmd, reserved) + sizeof(((struct uvio_cmd *)0)->reserved))
#define CMD_HAS(cmd, field) \
	((cmd)->size >= offsetof(struct uvio_cmd, field) + sizeof((cmd)->field))
#ifndef UVIO_GROWTH_TEST
_Static_assert(sizeof(struct uvio_cmd) == CMD_SIZE_1_0, "1.0's struct uvio_cmd ends at reserved[]");
#endif

/* The object and method a command names, for messages: "CQ.CREATE", or
 * the numbers where the library has no name. */
static void cmd_names(const struct uvio_cmd *cmd, char *buf, size_t len)
{
	uint16_t o = cmd->hdr ? cmd->hdr->object_id : 0, m = cmd->hdr ? cmd->hdr->method_id : 0;
	const char *obj = cmd->hdr ? uvio_object_name(o) : NULL;
	const char *meth = cmd->hdr ? uvio_method_name(o, m) : NULL;

	if (!cmd->hdr)
		snprintf(buf, len, "?.?");
	else if (obj && meth)
		snprintf(buf, len, "%s.%s", obj, meth);
	else
		snprintf(buf, len, "object 0x%x method 0x%x", o, m);
}

/* A command refused before sending, or a builder call that found its
 * sticky error: say which (what: "not sent", or the function), with the
 * builder's reason. Returns the error. */
static __attribute__((noinline, cold)) int uvio_cmd_note_error(const struct uvio_cmd *cmd,
							       const char *what)
{
	const char *attr = cmd->hdr ? uvio_attr_name(cmd->hdr->object_id, cmd->hdr->method_id,
						     cmd->error_attr) : NULL;
	char names[64];

	cmd_names(cmd, names, sizeof(names));
	uvio_set_last_error("%s: %s: attribute 0x%04x%s%s%s: %s (%s)", names, what,
			    cmd->error_attr, attr ? " (" : "", attr ? attr : "", attr ? ")" : "",
			    cmd->error_msg, uvio_errno_name(cmd->error));
	return cmd->error;
}

/* The layout refused: no attribute is to blame. */
static __attribute__((noinline, cold)) int layout_failed(const struct uvio_cmd *cmd,
							 const char *why)
{
	char names[64];

	cmd_names(cmd, names, sizeof(names));
	uvio_set_last_error("%s: uvio_cmd_set_layout: EINVAL: %s", names, why);
	return cmd->error;
}

UVIO_API int uvio_cmd_set_layout(struct uvio_cmd *cmd, enum uvio_layout layout)
{
	if (cmd->error)
		return uvio_cmd_note_error(cmd, "uvio_cmd_set_layout");
	if (layout != UVIO_LAYOUT_CURRENT && layout != UVIO_LAYOUT_2017) {
		uvio__cmd_fail(cmd, -EINVAL, 0, "unknown header layout");
		return layout_failed(cmd, "argument layout: no enum uvio_layout value");
	}
	if (cmd->num_attrs) {
		uvio__cmd_fail(cmd, -EINVAL, 0, "header layout changed after attributes were added");
		return layout_failed(cmd, "argument cmd: it has attributes already");
	}
	cmd->layout = (uint8_t)layout;
	/* Capacity stays the one computed for the longer header: the 2017
	 * layout just leaves 8 bytes of the buffer unused. */
	cmd->attrs = layout == UVIO_LAYOUT_2017 ?
		(struct ib_uverbs_attr *)((char *)cmd->hdr + sizeof(struct uvio_ioctl_hdr_2017)) :
		(struct ib_uverbs_attr *)((char *)cmd->hdr + sizeof(struct ib_uverbs_ioctl_hdr));
	if (layout == UVIO_LAYOUT_2017) {
		/* The 2017 header ends with one reserved u64 at byte 8. */
		cmd->hdr->reserved1 = 0;
	}
	return 0;
}

static inline int finish(const struct uvio_cmd *cmd)
{
	size_t hdr_len = cmd->layout == UVIO_LAYOUT_2017 ?
		sizeof(struct uvio_ioctl_hdr_2017) : sizeof(struct ib_uverbs_ioctl_hdr);
	size_t len = hdr_len + (size_t)cmd->num_attrs * sizeof(struct ib_uverbs_attr);

	if (cmd->error)
		return cmd->error;
	/* A struct shorter than 1.0's was not set up by uvio_cmd_init();
	 * a longer one may be (a program built with a later release's
	 * header). */
	if (__builtin_expect(cmd->size < CMD_SIZE_1_0, 0)) {
		uvio__cmd_fail((struct uvio_cmd *)cmd, -EINVAL, 0,
			       "command not set up by uvio_cmd_init()");
		return -EINVAL;
	}
#ifdef UVIO_GROWTH_TEST
	/* tests/package/growth: this build's header has a field 1.0's lacks,
	 * set by its uvio_cmd_init(); read only from callers that have it. */
	if (CMD_HAS(cmd, grown) && cmd->grown != UVIO_GROWTH_MARK) {
		uvio__cmd_fail((struct uvio_cmd *)cmd, -EINVAL, 0, "grown field not set");
		return -EINVAL;
	}
#endif
	cmd->hdr->length = (__u16)len;
	cmd->hdr->num_attrs = cmd->num_attrs;
	return (int)len;
}

UVIO_API int uvio_cmd_finish(const struct uvio_cmd *cmd)
{
	int ret = finish(cmd);

	return __builtin_expect(ret < 0, 0) ? uvio_cmd_note_error(cmd, "uvio_cmd_finish") : ret;
}

#ifdef UVIO_HAVE_VALGRIND
#include <stdatomic.h>
#include <valgrind/memcheck.h>

/* Memcheck answers its client requests with -1, other tools (callgrind,
 * which measures the command path) with 0: annotate under memcheck only.
 * 0 unknown, 1 no, 2 yes; found once, then one load per command. */
_Atomic int uvio_memcheck_state;

static __attribute__((noinline, cold)) int find_memcheck(void)
{
	char probe = 0;
	int s = RUNNING_ON_VALGRIND && (long)VALGRIND_MAKE_MEM_DEFINED(&probe, 1) == -1 ? 2 : 1;

	atomic_store_explicit(&uvio_memcheck_state, s, memory_order_relaxed);
	return s;
}

static inline bool under_memcheck(void)
{
	int s = atomic_load_explicit(&uvio_memcheck_state, memory_order_relaxed);

	return __builtin_expect((s ? s : find_memcheck()) == 2, 0);
}

static __attribute__((noinline, cold)) void check_defined(const struct uvio_cmd *cmd, int len)
{
	VALGRIND_CHECK_MEM_IS_DEFINED(cmd->hdr, len);
	for (unsigned int i = 0; i < cmd->num_attrs; i++) {
		const struct ib_uverbs_attr *a = &cmd->attrs[i];

		if (a->len > sizeof(a->data) && cmd->kind[i] != UVIO_KIND_PTR_OUT)
			VALGRIND_CHECK_MEM_IS_DEFINED((const void *)(uintptr_t)a->data, a->len);
	}
}

static __attribute__((noinline, cold)) void mark_written(const struct uvio_cmd *cmd, int len)
{
	VALGRIND_MAKE_MEM_DEFINED(cmd->hdr, len);
	for (unsigned int i = 0; i < cmd->num_attrs; i++) {
		const struct ib_uverbs_attr *a = &cmd->attrs[i];

		if (cmd->kind[i] == UVIO_KIND_PTR_OUT && a->len)
			VALGRIND_MAKE_MEM_DEFINED((void *)(uintptr_t)a->data, a->len);
	}
}

/* memcheck does not know what RDMA_VERBS_IOCTL reads and writes: tell it.
 * Every byte the kernel will read must be defined (this is the check that
 * no stack garbage reaches the kernel), and after success what it wrote is. */
static inline bool valgrind_before(const struct uvio_cmd *cmd, int len)
{
	bool mc = under_memcheck();

	if (mc)
		check_defined(cmd, len);
	return mc;
}

static inline void valgrind_after(bool mc, const struct uvio_cmd *cmd, int len)
{
	if (mc)
		mark_written(cmd, len);
}

void uvio_memcheck_written_slow(void *p, size_t len)
{
	if (len && under_memcheck())
		VALGRIND_MAKE_MEM_DEFINED(p, len);
}

void uvio_memcheck_records_slow(const struct ib_uverbs_attr *a, const uint8_t *kind,
				unsigned int n)
{
	if (!under_memcheck())
		return;
	for (unsigned int i = 0; i < n; i++)
		if (kind[i] == UVIO_KIND_PTR_OUT && a[i].len)
			VALGRIND_MAKE_MEM_DEFINED((void *)(uintptr_t)a[i].data, a[i].len);
}
#else
void uvio_memcheck_written_slow(void *p, size_t len)
{
	(void)p; (void)len;
}

_Atomic int uvio_memcheck_state = 1;

void uvio_memcheck_records_slow(const struct ib_uverbs_attr *a, const uint8_t *kind,
				unsigned int n)
{
	(void)a; (void)kind; (void)n;
}

static inline bool valgrind_before(const struct uvio_cmd *cmd, int len)
{
	(void)cmd; (void)len;
	return false;
}
static inline void valgrind_after(bool mc, const struct uvio_cmd *cmd, int len)
{
	(void)mc; (void)cmd; (void)len;
}
#endif

/* Before a run: the outputs as they were put, so that what the kernel
 * returns is this run's alone (a command may be issued more than once). */
static inline void reset_outputs(struct uvio_cmd *cmd)
{
	for (unsigned int i = 0; i < cmd->num_attrs; i++) {
		struct ib_uverbs_attr *a = &cmd->attrs[i];

		switch (cmd->kind[i]) {
		case UVIO_KIND_PTR_OUT:
			a->flags &= (__u16)~UVERBS_ATTR_F_VALID_OUTPUT;
			break;
		case UVIO_KIND_IDR_NEW:
			a->data = 0;
			break;
		case UVIO_KIND_FD_NEW:
			a->data_s64 = -1;
			break;
		}
	}
}

static inline __attribute__((always_inline)) int run(int fd, struct uvio_cmd *cmd)
{
	int ret = finish(cmd);

	if (__builtin_expect(ret < 0, 0)) {
		cmd->state = UVIO_CMD_FAILED;
		cmd->result = ret;
		return uvio_cmd_note_error(cmd, "not sent");
	}
	if (cmd->state != UVIO_CMD_NOT_RUN)
		reset_outputs(cmd);
	{
		int len = ret;
		bool mc = valgrind_before(cmd, len);

		ret = uvio_sys_ioctl(fd, uvio_layout_request((enum uvio_layout)cmd->layout),
				     cmd->hdr);
		if (!ret)
			valgrind_after(mc, cmd, len);
	}
	cmd->state = ret ? UVIO_CMD_FAILED : UVIO_CMD_SUCCEEDED;
	cmd->result = ret;
	return ret;
}

int uvio_cmd_run(int fd, struct uvio_cmd *cmd)
{
	return run(fd, cmd);
}

/* The kernel refused a command: its answer in words. */
static __attribute__((noinline, cold)) int exec_failed(int fd, const struct uvio_cmd *cmd,
						       int ret)
{
	char names[64];

	cmd_names(cmd, names, sizeof(names));
	uvio_set_last_error("%s: ioctl on fd %d: %s: %s", names, fd, uvio_errno_name(ret),
			    uvio_errno_meaning(ret, cmd->layout == UVIO_LAYOUT_2017 ?
						    UVIO_PATH_IOCTL_2017 : UVIO_PATH_IOCTL));
	return ret;
}

UVIO_API int uvio_cmd_exec(int fd, struct uvio_cmd *cmd)
{
	int ret = run(fd, cmd);

	/* A refusal before sending is said already. */
	if (__builtin_expect(ret < 0, 0) && !cmd->error)
		return exec_failed(fd, cmd, ret);
	return ret;
}

/* The attribute with this id, if it was added as the given kind (0: any). */
static const struct ib_uverbs_attr *find_attr(const struct uvio_cmd *cmd,
					      uint16_t attr_id, int kind)
{
	unsigned int i;

	for (i = 0; i < cmd->num_attrs; i++)
		if (cmd->attrs[i].attr_id == attr_id)
			return !kind || cmd->kind[i] == kind ? &cmd->attrs[i] : NULL;
	return NULL;
}

UVIO_API bool uvio_cmd_output_valid(const struct uvio_cmd *cmd, uint16_t attr_id)
{
	const struct ib_uverbs_attr *a = find_attr(cmd, attr_id, 0);

	if (!a || cmd->state != UVIO_CMD_SUCCEEDED)
		return false;
	return (a->flags & (UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT)) != 0;
}

/* A read-back that has nothing to read: the function, the command and the
 * attribute. */
static __attribute__((noinline, cold)) int read_failed(const struct uvio_cmd *cmd, const char *fn,
						       uint16_t attr_id, int err, const char *why)
{
	const char *attr = cmd->hdr ? uvio_attr_name(cmd->hdr->object_id, cmd->hdr->method_id,
						     attr_id) : NULL;
	char names[64];

	cmd_names(cmd, names, sizeof(names));
	uvio_set_last_error("%s: %s: %s: attribute 0x%04x%s%s%s: %s", fn, names,
			    uvio_errno_name(err), attr_id, attr ? " (" : "", attr ? attr : "",
			    attr ? ")" : "", why);
	return err;
}

UVIO_API int uvio_cmd_read_handle(const struct uvio_cmd *cmd, uint16_t attr_id,
				  uint32_t *handle)
{
	const struct ib_uverbs_attr *a = find_attr(cmd, attr_id, UVIO_KIND_IDR_NEW);

	if (!a)
		return read_failed(cmd, "uvio_cmd_read_handle", attr_id, -ENOENT,
				   "not put with uvio_put_idr_new()");
	if (cmd->state != UVIO_CMD_SUCCEEDED)
		return read_failed(cmd, "uvio_cmd_read_handle", attr_id, -ENODATA,
				   "the command has not succeeded");
	/* Handles are u32 in the ABI; anything above is not one. */
	if (a->data > UINT32_MAX)
		return read_failed(cmd, "uvio_cmd_read_handle", attr_id, -ERANGE,
				   "the kernel's value is no 32-bit handle");
	*handle = (uint32_t)a->data;
	return 0;
}

UVIO_API int uvio_cmd_read_fd(const struct uvio_cmd *cmd, uint16_t attr_id, int *fd)
{
	const struct ib_uverbs_attr *a = find_attr(cmd, attr_id, UVIO_KIND_FD_NEW);

	if (!a)
		return read_failed(cmd, "uvio_cmd_read_fd", attr_id, -ENOENT,
				   "not put with uvio_put_fd_new()");
	if (cmd->state != UVIO_CMD_SUCCEEDED)
		return read_failed(cmd, "uvio_cmd_read_fd", attr_id, -ENODATA,
				   "the command has not succeeded");
	if (a->data_s64 < 0 || a->data_s64 > INT32_MAX)
		return read_failed(cmd, "uvio_cmd_read_fd", attr_id, -ERANGE,
				   "the kernel's value is no fd");
	*fd = (int)a->data_s64;
	return 0;
}

UVIO_API const char *uvio_cmd_error_msg(const struct uvio_cmd *cmd, uint16_t *attr_id)
{
	if (!cmd->error)
		return NULL;
	if (attr_id)
		*attr_id = cmd->error_attr;
	return cmd->error_msg;
}
