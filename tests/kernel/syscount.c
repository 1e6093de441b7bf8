#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "syscount.h"

int syscount_fd = -1;
_Atomic long syscount_ioctls, syscount_writes;

int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	if (fd == syscount_fd) {
		const uint16_t *h = arg;

		syscount_ioctls++;
		if (getenv("KT_TRACE"))
			printf("  ioctl 0x%lx object %u method %u\n", req, h[1], h[2]);
	}
	return real(fd, req, arg);
}

ssize_t write(int fd, const void *buf, size_t len);
ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*real)(int, const void *, size_t);

	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd == syscount_fd)
		syscount_writes++;
	return real(fd, buf, len);
}
