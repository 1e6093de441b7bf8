/* The log callback: fn and ctx swapped as one pair, the previous pair given
 * back, and an old callback never running once uvio_set_log() returned. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <cmocka.h>

#include <uvio.h>
#include "report/report.h"

static void fn_a(int level, const char *msg, void *ctx);
static void fn_b(int level, const char *msg, void *ctx);
static char ctx_a, ctx_b;
static _Atomic long calls, mismatches;

static void fn_a(int level, const char *msg, void *ctx)
{
	(void)level; (void)msg;
	calls++;
	if (ctx != &ctx_a)
		mismatches++;
}

static void fn_b(int level, const char *msg, void *ctx)
{
	(void)level; (void)msg;
	calls++;
	if (ctx != &ctx_b)
		mismatches++;
}

static void previous_pair_given_back(void **state)
{
	struct uvio_log_handler old = { fn_b, &ctx_b };
	(void)state;

	assert_int_equal(uvio_set_log(NULL, NULL, &old), 0);
	assert_null(old.fn);		/* nothing set at start */
	assert_null(old.ctx);
	assert_int_equal(uvio_set_log(fn_a, &ctx_a, NULL), 0);
	assert_int_equal(uvio_set_log(fn_b, &ctx_b, &old), 0);
	assert_ptr_equal(old.fn, fn_a);
	assert_ptr_equal(old.ctx, &ctx_a);
	/* restore what was there */
	assert_int_equal(uvio_set_log(old.fn, old.ctx, &old), 0);
	assert_ptr_equal(old.fn, fn_b);
	assert_ptr_equal(old.ctx, &ctx_b);
	calls = 0;
	uvio_log(LOG_ERR, "x");
	assert_int_equal(calls, 1);
	assert_int_equal(mismatches, 0);
	assert_true(uvio_log_enabled());
	assert_int_equal(uvio_set_log(NULL, NULL, NULL), 0);
	assert_false(uvio_log_enabled());
	uvio_log(LOG_ERR, "silent");
	assert_int_equal(calls, 1);
}

/* One thread swaps the pair back and forth while another logs: every call
 * must see a fn with its own ctx. */
static _Atomic bool stop;

static void *logger(void *arg)
{
	(void)arg;
	while (!stop)
		uvio_log(LOG_INFO, "line");
	return NULL;
}

static void pair_never_torn(void **state)
{
	pthread_t t[2];
	(void)state;

	calls = mismatches = 0;
	stop = false;
	uvio_set_log(fn_a, &ctx_a, NULL);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, logger, NULL), 0);
	/* On a loaded machine the loggers may start late: swap only once
	 * they run, and go on until they have logged during the swaps. */
	while (calls == 0)
		sched_yield();
	calls = 0;
	for (long i = 0; i < 200000 || (calls < 1000 && i < 20000000); i++) {
		uvio_set_log(fn_b, &ctx_b, NULL);
		uvio_set_log(fn_a, &ctx_a, NULL);
	}
	stop = true;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	uvio_set_log(NULL, NULL, NULL);
	print_message("%ld calls during the swaps\n", (long)calls);
	assert_true(calls > 0);
	assert_int_equal(mismatches, 0);
}

/* A callback still running when uvio_set_log() returns could use a ctx the
 * caller frees right after: set_log must wait for it. */
static _Atomic int inside;

static void slow_fn(int level, const char *msg, void *ctx)
{
	struct timespec ms50 = { 0, 50 * 1000 * 1000 };
	(void)level; (void)msg; (void)ctx;
	inside = 1;
	nanosleep(&ms50, NULL);
	inside = 2;
}

static void *log_once(void *arg)
{
	(void)arg;
	uvio_log(LOG_ERR, "slow");
	return NULL;
}

static void old_callback_done_on_return(void **state)
{
	pthread_t t;
	(void)state;

	inside = 0;
	uvio_set_log(slow_fn, NULL, NULL);
	assert_int_equal(pthread_create(&t, NULL, log_once, NULL), 0);
	while (inside == 0)
		sched_yield();
	assert_int_equal(uvio_set_log(NULL, NULL, NULL), 0);
	assert_int_equal(inside, 2);	/* finished before set_log returned */
	pthread_join(t, NULL);
}

/* From inside a callback, uvio_set_log() would wait for itself. */
static int inner_ret = 1;

static int depth, deepest;

static void reentrant_fn(int level, const char *msg, void *ctx)
{
	(void)level; (void)msg; (void)ctx;
	depth++;
	if (depth > deepest)
		deepest = depth;
	if (depth == 1) {
		inner_ret = uvio_set_log(NULL, NULL, NULL);
		uvio_log(LOG_DEBUG, "nested");	/* logging from a callback is fine */
	}
	depth--;
}

static void set_log_from_callback(void **state)
{
	(void)state;
	uvio_set_log(reentrant_fn, NULL, NULL);
	uvio_log(LOG_ERR, "outer");
	assert_int_equal(inner_ret, -EDEADLK);
	assert_int_equal(deepest, 2);
	assert_true(uvio_log_enabled());	/* unchanged */
	assert_int_equal(uvio_set_log(NULL, NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(previous_pair_given_back),
		cmocka_unit_test(pair_never_torn),
		cmocka_unit_test(old_callback_done_on_return),
		cmocka_unit_test(set_log_from_callback),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
