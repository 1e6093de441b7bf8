/* SPDX-License-Identifier: MIT */
/*
 * What the stand-in boots' witnesses share (kt_mlx5_witness.c,
 * kt_mlx4_witness.c, kt_efa_witness.c, kt_bnxt_re_witness.c,
 * kt_irdma_witness.c: rdma-core's provider driving a stand-in through
 * libibverbs): a step name, its verdicts, the checks of a verb's answer,
 * and the pages the kernel pinned for the process. Each witness is one
 * file including this once; the first failure ends the program.
 */
#ifndef UVIO_TESTS_WITNESS_H
#define UVIO_TESTS_WITNESS_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char *program_invocation_short_name;

static const char *step = "start";	/* what the program is doing, for the verdicts */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn, unused));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: FAIL at %s: ", program_invocation_short_name, step);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void ok(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void ok(const char *fmt, ...)
{
	va_list ap;

	printf("ok %s: ", step);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A verb that returns 0 or an errno value (some set errno instead). */
static void __attribute__((unused)) check_rc(int rc, const char *what)
{
	if (rc)
		fail("%s: %s (%d)", what, strerror(rc > 0 ? rc : errno), rc > 0 ? rc : errno);
}

static void *__attribute__((unused)) check_ptr(void *p, const char *what)
{
	if (!p)
		fail("%s: %s (errno %d)", what, strerror(errno), errno);
	return p;
}

/* ---- the pages the kernel pinned for this process ---- */

static long page_size;	/* set by main() before any of these */

static long __attribute__((unused)) vmpin_pages(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		fail("/proc/self/status: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb < 0)
		fail("no VmPin in /proc/self/status");
	return kb * 1024 / page_size;
}

/* The pages [p, p + len) touches. */
static long __attribute__((unused)) pages_of(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;

	return len ? (long)((a + len + (size_t)page_size - 1) / (size_t)page_size -
			    a / (size_t)page_size) : 0;
}

#endif
