// SPDX-License-Identifier: MIT
/*
 * Running a laid-out command on a device handle: the traced ioctl (the
 * untraced one is inline in dev.h), a fixed command's slow path (the fast
 * one is inline in dev_fixed.h) and the write() of a legacy command,
 * traced or not.
 */
#include <string.h>

#include "device/dev.h"
#include "device/trace.h"
#include "device/dev_fixed.h"

int uvio_dev_exec_traced(struct uvio_device *dev, struct uvio_cmd *cmd)
{
	uint64_t t0 = uvio_now_ns();
	int ret = uvio_cmd_run(dev->fd, cmd);

	uvio_trace_ioctl(dev->name, cmd, ret, uvio_now_ns() - t0);
	return ret;
}

/* A fixed command traced, or on the 2017 layout: its records become a
 * struct uvio_cmd in place (moved 8 bytes down for the 16-byte header,
 * and back after, so that its outputs are read where the fast path leaves
 * them). */
int uvio_fx_send_slow(struct uvio_device *dev, enum uvio_path p, struct uvio_fx_cmd *c,
		      uint16_t object, uint16_t method)
{
	const size_t records = c->n * sizeof(struct ib_uverbs_attr);
	struct uvio_cmd cmd;
	int ret;

	uvio_cmd_init(&cmd, c->buf, sizeof(c->buf), object, method);
	uvio_dev_cmd_setup(dev, &cmd, p);
	if (p == UVIO_PATH_IOCTL_2017)
		memmove(cmd.attrs, uvio_fx_attr(c, 0), records);
	cmd.num_attrs = c->n;
	memcpy(cmd.kind, c->kind, c->n);
	ret = uvio_dev_exec(dev, &cmd);
	if (p == UVIO_PATH_IOCTL_2017)
		memmove(uvio_fx_attr(c, 0), cmd.attrs, records);
	return ret;
}

/* Out of line, so that the untraced write (inline in dev.h) saves no
 * registers for it. */
ssize_t uvio_dev_write_traced(struct uvio_device *dev, void *buf, size_t len)
{
	uint64_t t0 = uvio_now_ns();
	ssize_t n = uvio_sys_write(dev->fd, buf, len);

	uvio_trace_write(dev->name, buf, len, (int)n, uvio_now_ns() - t0);
	return n;
}
