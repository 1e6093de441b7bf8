/* A stand-in kernel for unit tests: ioctl() and write() on any fd go to the
 * hooks a test installs; other fds are not expected. */
#ifndef UVIO_TEST_WRAP_H
#define UVIO_TEST_WRAP_H

#include <stddef.h>
#include <sys/types.h>

struct fake_kernel {
	_Atomic unsigned long last_request;
	_Atomic int ioctl_calls, write_calls, close_calls;
	/* Return 0 or an errno; may edit the command in place as a kernel would. */
	int (*on_ioctl)(unsigned long request, void *arg);
	ssize_t (*on_write)(const void *buf, size_t len);
	/* May name another file for open() to open instead of path. */
	const char *(*on_open)(const char *path);
};

extern struct fake_kernel fake;
void fake_reset(void);

#endif
