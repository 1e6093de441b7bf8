/*
 * Concurrency on the real kernel.
 *  - 8 threads x 5,000 CQ create+destroy on one device fd: four on a handle
 *    that takes the ioctl path, four on a second handle adopted on the same
 *    fd and pinned to write(). Zero errors, and no CQ left behind.
 *  - 8 threads racing the first command of a fresh handle agree on one path:
 *    ioctl normally, write() under the seccomp filter that refuses the ioctl.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uvio.h>
#include "kt.h"

#define THREADS 8
#define PAIRS (getenv("KT_QUICK") ? 200 : 5000)	/* KT_QUICK: under valgrind */

struct worker {
	struct uvio_device *dev;
	long pairs;
	int errors;
	int first_err;
	enum uvio_path path;
};

static pthread_barrier_t start;

static void *work(void *arg)
{
	struct worker *w = arg;
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 8);
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;

	pthread_barrier_wait(&start);
	for (long i = 0; i < w->pairs; i++) {
		int err = uvio_create_cq(w->dev, &attr, NULL, &cq, &p);

		if (!err)
			err = uvio_destroy_cq(w->dev, cq.handle, NULL, NULL);
		if (err) {
			if (!w->errors++)
				w->first_err = err;
		}
		if (i == 0)
			w->path = p;
	}
	return NULL;
}

static double run_threads(struct worker *w, int n)
{
	pthread_t th[THREADS];
	struct timespec t0, t1;

	pthread_barrier_init(&start, NULL, (unsigned int)n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, work, &w[i]);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	pthread_barrier_destroy(&start);
	return (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

static void shared_fd_both_paths(const char *name)
{
	struct uvio_device *a, *b;
	UVIO_OPTS(uvio_context, ctx);
	struct worker w[THREADS];
	int errors = 0;
	double secs;

	KT_EQ(uvio_device_open(name, &a), 0);
	KT_EQ(uvio_get_context(a, NULL, &ctx, NULL), 0);
	KT_EQ(uvio_device_adopt(uvio_device_fd(a), uvio_device_driver_id(a), &b), 0);
	uvio_device_set_path(b, UVIO_PATH_WRITE);
	for (int i = 0; i < THREADS; i++)
		w[i] = (struct worker){ .dev = i % 2 ? b : a, .pairs = PAIRS };
	secs = run_threads(w, THREADS);
	for (int i = 0; i < THREADS; i++) {
		errors += w[i].errors;
		KT_CHECK(!w[i].errors, "thread %d: %d errors, first %d", i, w[i].errors,
			 w[i].first_err);
		KT_EQ(w[i].path, i % 2 ? UVIO_PATH_WRITE : UVIO_PATH_IOCTL);
	}
	printf("  %s: %d threads x %ld CQ create+destroy on one fd (half write()): %d errors, "
	       "%.1f s, %.0f pairs/s\n", name, THREADS, (long)PAIRS, errors, secs,
	       THREADS * PAIRS / secs);
	KT_EQ(kt_rdma_res_count("cq", name, getpid()), 0);
	uvio_device_close(b);
	close(ctx.async_fd);
	uvio_device_close(a);
}

/* In a child, so that the filter goes away with it. */
static void race_first_command(const char *name, bool filtered)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct uvio_device *ctx_dev, *fresh;
		UVIO_OPTS(uvio_context, ctx);
		struct uvio_device_stats st;
		struct worker w[THREADS];
		int agree = 1;

		if (filtered && kt_filter_verbs_ioctl())
			_exit(2);
		if (uvio_device_open(name, &ctx_dev) || uvio_get_context(ctx_dev, NULL, &ctx, NULL))
			_exit(3);
		/* A fresh handle on a fd with a context: its first command is
		 * a CQ CREATE, raced by all threads. */
		if (uvio_device_adopt(uvio_device_fd(ctx_dev), uvio_device_driver_id(ctx_dev), &fresh))
			_exit(4);
		for (int i = 0; i < THREADS; i++)
			w[i] = (struct worker){ .dev = fresh, .pairs = 20 };
		run_threads(w, THREADS);
		uvio_device_get_stats(fresh, &st);
		for (int i = 0; i < THREADS; i++)
			if (w[i].errors || w[i].path != w[0].path)
				agree = 0;
		printf("  %s%s: %d threads raced the first command: all %s, path %s, "
		       "%llu fallback(s)\n", name, filtered ? " (ioctl filtered)" : "", THREADS,
		       agree ? "agree" : "DISAGREE", uvio_path_name(w[0].path),
		       (unsigned long long)st.fallbacks);
		if (!agree || w[0].path != (filtered ? UVIO_PATH_WRITE : UVIO_PATH_IOCTL) ||
		    st.fallbacks > THREADS || (filtered && !st.fallbacks))
			_exit(1);
		_exit(0);
	}
	int status;

	waitpid(pid, &status, 0);
	KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "race on %s (filtered %d): %d",
		 name, filtered, status);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device");
	for (int i = 0; i < n && i < 8; i++) {
		shared_fd_both_paths(devs[i].name);
		race_first_command(devs[i].name, false);
		race_first_command(devs[i].name, true);
	}
	return kt_exit();
}
