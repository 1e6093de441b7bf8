// SPDX-License-Identifier: MIT
/* System calls, each converted to 0/length or a negative errno in one place. */
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
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

#if defined(__x86_64__) && !defined(__ILP32__) && defined(SYS_fstat)
/* The kernel's x86-64 struct stat is glibc's, field for field. */
_Static_assert(sizeof(struct stat) == 144, "x86-64 struct stat");
int uvio_sys_fstat(int fd, struct stat *st)
{
	return syscall(SYS_fstat, fd, st) ? -errno : 0;
}
#else
int uvio_sys_fstat(int fd, struct stat *st)
{
	return fstat(fd, st) ? -errno : 0;
}
#endif
