// SPDX-License-Identifier: MIT
/*
 * What reached the kernel, as a signature per command, so that the
 * benchmark can prove that this library and the bare floor sent the same
 * commands: the program interposes ioctl() and write() in front of libc
 * (the library's calls resolve to these, as the floor's do).
 *   ioctl:   I<object>.<method>[<attr>:<len>,...]   attributes sorted by id;
 *            INVOKE_WRITE adds =<write command>
 *   write(): W<command>:<in_words>:<out_words>[:<provider in>:<provider out>]
 * Heap allocations are counted too (malloc, calloc, realloc). Outside
 * capture_start()/capture_stop() the wrappers only pass the call on.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl.h>

#include "bench.h"

static int capturing;
static char sig[2048];
static size_t sig_len;
static long allocations;

void capture_start(void)
{
	sig_len = 0;
	sig[0] = 0;
	allocations = 0;
	capturing = 1;
}

long capture_allocations(void)
{
	return allocations;
}

const char *capture_stop(void)
{
	capturing = 0;
	if (sig_len && sig[sig_len - 1] == ' ')
		sig[--sig_len] = 0;
	return sig;
}

/* The instruction counts (uverbs_insn) leave the wrappers out: libc's own
 * ioctl() and write() are then all that stands between caller and kernel. */
#ifndef BENCH_NO_CAPTURE
static void add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void add(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (sig_len >= sizeof(sig) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sig + sig_len, sizeof(sig) - sig_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		sig_len += (size_t)n;
	if (sig_len > sizeof(sig) - 1)
		sig_len = sizeof(sig) - 1;
}

static int by_id(const void *a, const void *b)
{
	const struct ib_uverbs_attr *x = a, *y = b;

	return (int)x->attr_id - (int)y->attr_id;
}

static void add_ioctl(const struct ib_uverbs_ioctl_hdr *h)
{
	struct ib_uverbs_attr a[64];
	unsigned int n = h->num_attrs < 64 ? h->num_attrs : 64;
	uint64_t invoked = 0;

	memcpy(a, h->attrs, n * sizeof(a[0]));
	qsort(a, n, sizeof(a[0]), by_id);
	add("I%u.%u[", h->object_id, h->method_id);
	for (unsigned int i = 0; i < n; i++) {
		add("%s%u:%u", i ? "," : "", a[i].attr_id, a[i].len);
		if (h->object_id == UVERBS_OBJECT_DEVICE &&
		    h->method_id == UVERBS_METHOD_INVOKE_WRITE &&
		    a[i].attr_id == UVERBS_ATTR_WRITE_CMD)
			invoked = a[i].data;
	}
	add("]");
	if (h->object_id == UVERBS_OBJECT_DEVICE && h->method_id == UVERBS_METHOD_INVOKE_WRITE)
		add("=%llx", (unsigned long long)invoked);
	add(" ");
}

static void add_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;

	if (len < sizeof(*h))
		return;
	add("W%x:%u:%u", h->command, h->in_words, h->out_words);
	if ((h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) &&
	    len >= sizeof(*h) + sizeof(struct ib_uverbs_ex_cmd_hdr)) {
		const struct ib_uverbs_ex_cmd_hdr *x = (const void *)(h + 1);

		add(":%u:%u", x->provider_in_words, x->provider_out_words);
	}
	add(" ");
}

static int (*real_ioctl)(int, unsigned long, ...);
static ssize_t (*real_write)(int, const void *, size_t);

/* Resolved before main: dlsym may allocate, which must not count. */
__attribute__((constructor)) static void capture_init(void)
{
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
}

int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (capturing && req == RDMA_VERBS_IOCTL)
		add_ioctl(arg);
	return real_ioctl(fd, req, arg);
}

ssize_t write(int fd, const void *buf, size_t len);
ssize_t write(int fd, const void *buf, size_t len)
{
	if (capturing && fd > 2)
		add_write(buf, len);
	return real_write(fd, buf, len);
}

/* Heap allocations while capturing (glibc's own entry points behind). */
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *malloc(size_t n);
void *malloc(size_t n)
{
	allocations += capturing;
	return __libc_malloc(n);
}

void *calloc(size_t a, size_t b);
void *calloc(size_t a, size_t b)
{
	allocations += capturing;
	return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n);
void *realloc(void *p, size_t n)
{
	allocations += capturing;
	return __libc_realloc(p, n);
}
#endif
