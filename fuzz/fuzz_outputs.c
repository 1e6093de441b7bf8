/*
 * What the library does with whatever a kernel answers: a stand-in kernel
 * (the library's two system calls, lib/cmd/sys.c, replaced here) writes fuzzed bytes into every
 * output buffer, handle, fd, flag and write() response, and returns fuzzed
 * errnos, through every verb on both paths and the builder's read-back.
 * The library must not crash, overrun, or hand out a value it did not check.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <uvio.h>
#include "fake_sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *in;
static size_t in_left;

static uint8_t take8(void)
{
	if (!in_left)
		return 0;
	in_left--;
	return *in++;
}

static void take(void *dst, size_t n)
{
	uint8_t *d = dst;

	for (size_t i = 0; i < n; i++)
		d[i] = take8();
}

static int answer(void)
{
	static const int errs[] = { 0, 0, 0, 0, ENOTTY, EPROTONOSUPPORT, EINVAL, ENOENT,
				    EFAULT, EIO, EOPNOTSUPP, ENOSPC, EMFILE };
	return errs[take8() % (sizeof(errs) / sizeof(errs[0]))];
}

int uvio_sys_ioctl(int fd, unsigned long req, void *arg);
int uvio_sys_ioctl(int fd, unsigned long req, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;
	struct ib_uverbs_attr *attrs;

	(void)fd;
	attrs = req == UVIO_IOCTL_REQ_2017 ? (struct ib_uverbs_attr *)((char *)arg + 16) :
		hdr->attrs;
	for (unsigned int i = 0; i < hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &attrs[i];
		uint8_t what = take8();

		/* a kernel writes outputs, handles and fds, and flags */
		if (what & 1)
			take(&a->data, sizeof(a->data));
		if (what & 2)
			a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
		if ((what & 4) && a->len > 8 && a->len <= 4096 && a->data) {
			/* only into what the library declared as room */
			uint8_t tmp[4096];

			take(tmp, a->len);
			(void)tmp;
		}
	}
	return -answer();
}

ssize_t uvio_sys_write(int fd, const void *buf, size_t len);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	int err;

	(void)fd;
	if (len >= sizeof(*h) + 8 && h->out_words) {
		/* the response the kernel writes: out_words * 4 bytes at the
		 * pointer the command gives, which the library must have sized */
		uint64_t resp;

		memcpy(&resp, (const char *)buf + sizeof(*h), 8);
		take((void *)(uintptr_t)resp, (size_t)h->out_words * 4);
	}
	err = answer();
	if (err)
		return -err;
	switch (take8() % 4) {
	case 0: return (ssize_t)len;
	case 1: return (ssize_t)len - 4;	/* short */
	case 2: return (ssize_t)len + 4;	/* more than asked */
	default: return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ib_uverbs_query_device_resp qd;
	UVIO_OPTS(uvio_port_attr, qp);
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mr, mr);
	UVIO_OPTS(uvio_events_reported, ev);
	uint8_t drv_out[24];
	UVIO_OPTS(uvio_drv, drv, .out = drv_out, .out_len = sizeof(drv_out));
	static const char *const paths[] = { "auto", "ioctl", "ioctl2017", "write",
					      "invoke-write" };
	UVIO_OPTS(uvio_comp_channel, ch);
	uint32_t h;

	in = data;
	in_left = size;
	setenv("UVERBS_IOCTL_PATH", paths[take8() % 5], 1);
	/* /dev/null, listed as a uverbs device in a sysfs tree of our own, so
	 * that it passes the adopt check; never closed by the library */
	if (uvio_device_adopt(fake_uverbs_fd(), 14, &dev))
		return 0;
	for (int round = 0; round < 3 && in_left; round++) {
		uvio_get_context(dev, take8() & 1 ? &drv : NULL, &ctx, NULL);
		uvio_query_device(dev, &qd, NULL);
		uvio_query_port(dev, 1, &qp, NULL);
		uvio_create_comp_channel(dev, &ch, NULL);
		if (!uvio_create_cq(dev, &attr, take8() & 1 ? &drv : NULL, &cq, NULL))
			uvio_destroy_cq(dev, cq.handle, &ev, NULL);
		if (!uvio_alloc_pd(dev, NULL, &h, NULL)) {
			UVIO_OPTS(uvio_mr_attr, mr_attr, .pd_handle = h, .addr = drv_out,
				  .length = sizeof(drv_out), .access = 1);

			if (!uvio_reg_mr(dev, &mr_attr, &drv, &mr, NULL))
				uvio_dereg_mr(dev, mr.handle, NULL);
			uvio_dealloc_pd(dev, h, NULL);
		}
	}
	uvio_device_close(dev);

	/* the builder's read-back of what a kernel wrote */
	{
		uint32_t out32;
		int rfd;

		UVIO_CMD_DEFINE(cmd, 4, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		uvio_put_idr_new(&cmd, 0);
		uvio_put_fd_new(&cmd, 1);
		uvio_attr_optional(uvio_put_ptr_out(&cmd, 2, &out32, sizeof(out32)));
		uvio_put_ptr_out(&cmd, 3, drv_out, sizeof(drv_out));
		uvio_cmd_exec(0, &cmd);
		if (!uvio_cmd_read_handle(&cmd, 0, &h) && cmd.state != UVIO_CMD_SUCCEEDED)
			abort();
		if (!uvio_cmd_read_fd(&cmd, 1, &rfd) && rfd < 0)
			abort();
		if (uvio_cmd_output_valid(&cmd, 2) && cmd.state != UVIO_CMD_SUCCEEDED)
			abort();
	}
	return 0;
}
