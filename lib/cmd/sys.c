// SPDX-License-Identifier: MIT
/* System calls, each converted to 0/length or a negative errno in one place. */
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sys.h"

int uvio_sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? -errno : 0;
}

ssize_t uvio_sys_write(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	return n < 0 ? -errno : n;
}
