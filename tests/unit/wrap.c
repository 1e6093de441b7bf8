#include <errno.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "wrap.h"

struct fake_kernel fake;

void fake_reset(void)
{
	memset(&fake, 0, sizeof(fake));
}

int __wrap_ioctl(int fd, unsigned long request, ...);
int __wrap_ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	int err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	(void)fd;
	fake.ioctl_calls++;
	fake.last_request = request;
	err = fake.on_ioctl ? fake.on_ioctl(request, arg) : ENOTTY;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

ssize_t __wrap_write(int fd, const void *buf, size_t len);
ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	ssize_t r;

	(void)fd;
	fake.write_calls++;
	r = fake.on_write ? fake.on_write(buf, len) : -EBADF;
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

int __real_close(int fd);
int __wrap_close(int fd);
int __wrap_close(int fd)
{
	struct stat st;

	/* Closes of device nodes (a uverbs fd, the stand-in /dev/null), not
	 * of the sysfs files the library reads. */
	if (!fstat(fd, &st) && S_ISCHR(st.st_mode))
		fake.close_calls++;
	return __real_close(fd);
}

int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = va_arg(ap, int);
	va_end(ap);
	if (fake.on_open)
		path = fake.on_open(path);
	return __real_open(path, flags, mode);
}
