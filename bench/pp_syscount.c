/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD counter for bench/pingpong.sh: how many system calls, by libc
 * wrapper, a program makes, whatever library it uses. Counts ioctl, write,
 * read, poll and the clock reads (clock_gettime, gettimeofday: system calls
 * in guests whose clock source is the HPET) on every fd, and writes one
 * line "ioctl N write N read N poll N clock N" to the file named by
 * PP_SYSCOUNT_OUT when the program exits normally.
 */
#include <dlfcn.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static atomic_ulong n_ioctl, n_write, n_read, n_poll, n_clock;

/* libc's own function behind ours, looked up once. */
#define REAL(name) ({                                                         \
	static __typeof__(&name) real_;                                        \
	if (!real_)                                                            \
		real_ = (__typeof__(&name))dlsym(RTLD_NEXT, #name);            \
	real_; })

int ioctl(int fd, unsigned long request, ...);
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	n_ioctl++;
	return REAL(ioctl)(fd, request, arg);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	n_write++;
	return REAL(write)(fd, buf, len);
}

ssize_t read(int fd, void *buf, size_t len)
{
	n_read++;
	return REAL(read)(fd, buf, len);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	n_poll++;
	return REAL(poll)(fds, n, timeout);
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	n_clock++;
	return REAL(clock_gettime)(clk, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	n_clock++;
	return REAL(gettimeofday)(tv, tz);
}

__attribute__((destructor)) static void report(void)
{
	const char *out = getenv("PP_SYSCOUNT_OUT");
	FILE *f = out ? fopen(out, "w") : NULL;

	if (!f)
		return;
	fprintf(f, "ioctl %lu write %lu read %lu poll %lu clock %lu\n", (unsigned long)n_ioctl,
		(unsigned long)n_write, (unsigned long)n_read, (unsigned long)n_poll,
		(unsigned long)n_clock);
	fclose(f);
}
