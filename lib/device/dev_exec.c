// SPDX-License-Identifier: MIT
/*
 * Running a laid-out command on a device handle: the traced ioctl (the
 * untraced one is inline in dev.h) and the write() of a legacy command,
 * traced or not.
 */
#include <time.h>

#include "private.h"

uint64_t uvio_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int uvio_dev_exec_traced(struct uvio_device *dev, struct uvio_cmd *cmd)
{
	uint64_t t0 = uvio_now_ns();
	int ret = uvio_cmd_exec(dev->fd, cmd);

	uvio_trace_ioctl(dev, cmd, ret, uvio_now_ns() - t0);
	return ret;
}

/* Out of line, so that the untraced write saves no registers for it (a
 * data-path doorbell is mostly this function). */
static __attribute__((noinline, cold)) ssize_t traced_write(struct uvio_device *dev, void *buf,
							    size_t len)
{
	uint64_t t0 = uvio_now_ns();
	ssize_t n = uvio_sys_write(dev->fd, buf, len);

	uvio_trace_write(dev, buf, len, (int)n, uvio_now_ns() - t0);
	return n;
}

int uvio_dev_write(struct uvio_device *dev, void *buf, size_t len)
{
	ssize_t n = __builtin_expect(dev->trace, 0) ? traced_write(dev, buf, len)
						    : uvio_sys_write(dev->fd, buf, len);

	if (n < 0)
		return (int)n;
	/* The kernel answers with the bytes it consumed: all of them. */
	return (size_t)n == len ? 0 : -EIO;
}
