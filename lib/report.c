// SPDX-License-Identifier: MIT
/* What went wrong, told two ways: the last error of this thread, in words,
 * and the application's log callback (silent without one). The bottom layer
 * of the library: it calls nothing else in it. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>

#include <uvio/device.h>
#include <uvio/diag.h>
#include "report.h"

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

static _Atomic(uvio_log_fn) log_fn;
static void *_Atomic log_ctx;

UVIO_API uvio_log_fn uvio_set_log(uvio_log_fn fn, void *ctx)
{
	atomic_store(&log_ctx, ctx);
	return atomic_exchange(&log_fn, fn);
}

void uvio_log(int level, const char *fmt, ...)
{
	uvio_log_fn fn = atomic_load(&log_fn);
	char msg[512];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(level, msg, atomic_load(&log_ctx));
}

bool uvio_log_enabled(void)
{
	return atomic_load(&log_fn) != NULL;
}
