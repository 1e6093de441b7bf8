// SPDX-License-Identifier: MIT
/* Logging through the application's callback; silent without one. */
#include <stdarg.h>
#include <stdio.h>

#include "private.h"

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
