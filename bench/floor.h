/* SPDX-License-Identifier: MIT */
/*
 * The bare floor of the benchmarks: commands as a program without any
 * library writes them by hand. A struct on the stack, filled field by
 * field, one system call. No checks beyond the syscall's result, no path
 * choice, no bookkeeping: what is left is the least user-space work a
 * command can cost, so "library / floor" is the library's own overhead.
 *
 * Only the kernel's UAPI headers and libc: the cold-start floor program
 * links nothing else.
 */
#ifndef UVIO_BENCH_FLOOR_H
#define UVIO_BENCH_FLOOR_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl.h>

/* Driver response space that every verb with driver data offers (the
 * library's default, UVIO_DEFAULT_DRV_OUT). */
#define FL_DRV_OUT 64

/* An ioctl command of N attributes. */
#define FL_CMD(name, n)                                                         \
	struct {                                                               \
		struct ib_uverbs_ioctl_hdr hdr;                                \
		struct ib_uverbs_attr a[n];                                    \
	} name

static inline void fl_begin(void *cmd, size_t size, uint16_t object, uint16_t method,
			    uint32_t driver_id)
{
	struct ib_uverbs_ioctl_hdr *h = cmd;

	memset(cmd, 0, size);
	h->length = (uint16_t)size;
	h->object_id = object;
	h->method_id = method;
	h->num_attrs = (uint16_t)((size - sizeof(*h)) / sizeof(struct ib_uverbs_attr));
	h->driver_id = driver_id;
}

/* Handles, fds, inline values and output pointers: data as given. */
static inline void fl_attr(struct ib_uverbs_attr *a, uint16_t id, uint16_t len, uint64_t data)
{
	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->data = data;
}

/* An input buffer: inline when 8 bytes or fewer, as the kernel reads it. */
static inline void fl_attr_in(struct ib_uverbs_attr *a, uint16_t id, const void *p, uint16_t len)
{
	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	if (len <= sizeof(a->data))
		memcpy(&a->data, p, len);
	else
		a->data = (uintptr_t)p;
}

static inline void fl_attr_out(struct ib_uverbs_attr *a, uint16_t id, void *p, uint16_t len)
{
	fl_attr(a, id, len, (uintptr_t)p);
}

static inline int fl_ioctl(int fd, void *cmd)
{
	return ioctl(fd, RDMA_VERBS_IOCTL, cmd) ? -errno : 0;
}

/*
 * A write() command: header, core struct (whose first 8 bytes, for commands
 * with a response, hold the response address), driver input. resp is
 * resp_len bytes of core response followed by drv_len bytes of driver
 * response space.
 */
static inline int fl_write(int fd, uint32_t command, const void *core, size_t core_len,
			   const void *drv_in, size_t drv_in_len, void *resp, size_t resp_len,
			   size_t drv_len)
{
	uint64_t buf[32];
	struct ib_uverbs_cmd_hdr *h = (struct ib_uverbs_cmd_hdr *)buf;
	size_t len = sizeof(*h) + core_len + drv_in_len;

	h->command = command;
	h->in_words = (uint16_t)(len / 4);
	h->out_words = (uint16_t)((resp_len + drv_len) / 4);
	memcpy(h + 1, core, core_len);
	if (resp_len) {
		uint64_t at = (uintptr_t)resp;

		memcpy(h + 1, &at, sizeof(at));
	}
	if (drv_in_len)
		memcpy((char *)(h + 1) + core_len, drv_in, drv_in_len);
	return write(fd, buf, len) == (ssize_t)len ? 0 : -errno;
}

/* An extended write() command (8-byte words, the ex header). */
static inline int fl_write_ex(int fd, uint32_t command, const void *core, size_t core_len,
			      void *resp, size_t resp_len, size_t drv_len)
{
	uint64_t buf[32];
	struct ib_uverbs_cmd_hdr *h = (struct ib_uverbs_cmd_hdr *)buf;
	struct ib_uverbs_ex_cmd_hdr *x = (struct ib_uverbs_ex_cmd_hdr *)(h + 1);
	size_t len = sizeof(*h) + sizeof(*x) + core_len;

	h->command = IB_USER_VERBS_CMD_FLAG_EXTENDED | command;
	h->in_words = (uint16_t)(core_len / 8);
	h->out_words = (uint16_t)(resp_len / 8);
	x->response = resp_len ? (uintptr_t)resp : 0;
	x->provider_in_words = 0;
	x->provider_out_words = (uint16_t)(drv_len / 8);
	x->cmd_hdr_reserved = 0;
	memcpy(x + 1, core, core_len);
	return write(fd, buf, len) == (ssize_t)len ? 0 : -errno;
}

/*
 * The same command carried by DEVICE/INVOKE_WRITE: the core struct as
 * CORE_IN (its response field is not read there), the response as CORE_OUT,
 * the driver response space as UHW_OUT.
 */
static inline int fl_invoke(int fd, uint32_t driver_id, uint32_t command, const void *core,
			    size_t core_len, const void *drv_in, size_t drv_in_len, void *resp,
			    size_t resp_len, size_t drv_len)
{
	FL_CMD(c, 5);
	uint16_t n = 0;

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, driver_id);
	fl_attr(&c.a[n++], UVERBS_ATTR_WRITE_CMD, 8, command);
	if (core_len)
		fl_attr_in(&c.a[n++], UVERBS_ATTR_CORE_IN, core, (uint16_t)core_len);
	if (resp_len)
		fl_attr_out(&c.a[n++], UVERBS_ATTR_CORE_OUT, resp, (uint16_t)resp_len);
	if (drv_in_len)
		fl_attr_in(&c.a[n++], UVERBS_ATTR_UHW_IN, drv_in, (uint16_t)drv_in_len);
	if (resp_len && drv_len)
		fl_attr_out(&c.a[n++], UVERBS_ATTR_UHW_OUT, (char *)resp + resp_len,
			    (uint16_t)drv_len);
	c.hdr.num_attrs = n;
	c.hdr.length = (uint16_t)(sizeof(c.hdr) + n * sizeof(c.a[0]));
	return fl_ioctl(fd, &c);
}

/* A write() command on either path: INVOKE_WRITE (ioctl) or write(). The
 * core's response field is left zero by the caller: write() fills it,
 * INVOKE_WRITE does not read it. */
static inline int fl_cmd(int fd, uint32_t driver_id, int use_write, uint32_t command,
			 const void *core, size_t core_len, void *resp, size_t resp_len,
			 size_t drv_len)
{
	if (use_write)
		return fl_write(fd, command, core, core_len, NULL, 0, resp, resp_len, drv_len);
	return fl_invoke(fd, driver_id, command, core, core_len, NULL, 0, resp, resp_len,
			 drv_len);
}

static inline int fl_cmd_ex(int fd, uint32_t driver_id, int use_write, uint32_t command,
			    const void *core, size_t core_len, void *resp, size_t resp_len,
			    size_t drv_len)
{
	if (use_write)
		return fl_write_ex(fd, command, core, core_len, resp, resp_len, drv_len);
	return fl_invoke(fd, driver_id, IB_USER_VERBS_CMD_FLAG_EXTENDED | command, core,
			 core_len, NULL, 0, resp, resp_len, drv_len);
}

#endif
