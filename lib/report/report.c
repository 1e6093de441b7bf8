// SPDX-License-Identifier: MIT
/* What went wrong, told two ways: the last error of this thread, in words,
 * and the application's log callback (silent without one). The bottom layer
 * of the library: it calls nothing else in it. */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include <uvio/device.h>
#include <uvio/diag.h>
#include "report/report.h"

static __thread char last_error[384];

UVIO_API const char *uvio_last_error(void)
{
	return last_error;
}

void uvio_set_last_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

int uvio_fail(int level, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	uvio_log(level, "%s", last_error);
	return err;
}

/*
 * The callback and its ctx are one pair, read and replaced under a small
 * readers-writer lock of C11 atomics (no libpthread on older glibc):
 * loggers hold it shared while the callback runs, uvio_set_log() holds it
 * alone. So no thread ever sees one pair's fn with another's ctx, and once
 * uvio_set_log() returns no thread runs, or will run, the previous
 * callback: its ctx may be freed. Setting the log is rare, and waits by
 * yielding.
 */
static struct uvio_log_handler handler;	/* under the lock */
static _Atomic unsigned int readers;
static _Atomic bool writing;
static _Atomic bool log_on;		/* handler.fn != NULL, read without the lock */
static __thread unsigned int in_callback;	/* this thread holds the lock shared */

static void read_lock(void)
{
	for (;;) {
		atomic_fetch_add(&readers, 1);
		if (!atomic_load(&writing))
			return;
		atomic_fetch_sub(&readers, 1);
		while (atomic_load(&writing))
			sched_yield();
	}
}

static void read_unlock(void)
{
	atomic_fetch_sub(&readers, 1);
}

UVIO_API int uvio_set_log(uvio_log_fn fn, void *ctx, struct uvio_log_handler *old)
{
	/* It would wait for the callback it is called from. Not logged:
	 * the callback would run again, inside itself. */
	if (in_callback) {
		uvio_set_last_error("uvio_set_log: EDEADLK: called from the log callback, which "
				    "it would wait for");
		return -EDEADLK;
	}
	while (atomic_exchange(&writing, true))	/* one writer at a time */
		sched_yield();
	while (atomic_load(&readers))		/* callbacks in flight finish */
		sched_yield();
	if (old)
		*old = handler;
	handler.fn = fn;
	handler.ctx = ctx;
	atomic_store(&log_on, fn != NULL);
	atomic_store(&writing, false);
	return 0;
}

void uvio_log(int level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!atomic_load_explicit(&log_on, memory_order_relaxed))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A callback that logs (through the library) already holds the lock:
	 * taking it again could wait behind a writer that waits for us. */
	if (!in_callback)
		read_lock();
	if (handler.fn) {
		in_callback++;
		handler.fn(level, msg, handler.ctx);
		in_callback--;
	}
	if (!in_callback)
		read_unlock();
}

bool uvio_log_enabled(void)
{
	return atomic_load_explicit(&log_on, memory_order_relaxed);
}
