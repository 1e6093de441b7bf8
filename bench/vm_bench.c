/*
 * CQ create+destroy pairs per second on one device, in one process, five
 * ways interleaved round by round so that drift hits them all alike:
 *   floor    - hand-filled ioctl commands, no library at all;
 *   ioctl    - this library, ioctl path;
 *   write    - this library, write() path;
 *   ibvcmd   - libibverbs' command layer (ibv_cmd_create_cq/_destroy_cq) on
 *              a context opened by libibverbs;
 *   ibv      - libibverbs' public ibv_create_cq/ibv_destroy_cq, which also
 *              maps the CQ ring through the provider.
 * Then: syscalls and heap allocations per verb (counted here, by
 * interposing ioctl, write and malloc), the cost of path discovery, and the
 * library's throughput with 1, 2, 4 and 8 threads on one device handle.
 *
 *   vm_bench DEVICE [ROUNDS] [PAIRS]
 *
 * Prints "RESULT <key> <value>" lines for bench/run.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include <uvio.h>
#include "../tests/kernel/kt.h"
#include "../tests/kernel/syscount.h"
#include "ibv_cmd.h"
#include "stats.h"

/* ---- counting: syscalls by tests/kernel/syscount.c, heap here ---- */
static _Atomic long n_malloc;
void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *malloc(size_t n) { n_malloc++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { n_malloc++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { n_malloc++; return __libc_realloc(p, n); }

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "vm_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

/* ---- the five ways ---- */
static struct uvio_device *dev_ioctl, *dev_write;
static struct ibv_context *ibctx;
static int floor_fd;
static uint32_t driver_id;

static void pairs_floor(long n)
{
	/* What a program without any library writes by hand. */
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr a[6];	/* the same six the library sends */
	} c;
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr a[2];
	} d;
	uint64_t drv[8];
	uint32_t cqe;
	struct ib_uverbs_destroy_cq_resp dresp;

	for (long i = 0; i < n; i++) {
		memset(&c, 0, sizeof(c));
		c.hdr.length = sizeof(c);
		c.hdr.object_id = UVERBS_OBJECT_CQ;
		c.hdr.method_id = UVERBS_METHOD_CQ_CREATE;
		c.hdr.num_attrs = 6;
		c.hdr.driver_id = driver_id;
		c.a[0].attr_id = UVERBS_ATTR_CREATE_CQ_HANDLE;
		c.a[1].attr_id = UVERBS_ATTR_CREATE_CQ_CQE;
		c.a[1].len = 4;
		c.a[1].data = 16;
		c.a[2].attr_id = UVERBS_ATTR_CREATE_CQ_USER_HANDLE;
		c.a[2].len = 8;
		c.a[3].attr_id = UVERBS_ATTR_CREATE_CQ_COMP_VECTOR;
		c.a[3].len = 4;
		c.a[4].attr_id = UVERBS_ATTR_CREATE_CQ_RESP_CQE;
		c.a[4].len = 4;
		c.a[4].data = (uintptr_t)&cqe;
		c.a[5].attr_id = UVERBS_ATTR_UHW_OUT;
		c.a[5].len = sizeof(drv);
		c.a[5].data = (uintptr_t)drv;
		for (int k = 0; k < 6; k++)
			c.a[k].flags = UVERBS_ATTR_F_MANDATORY;
		if (ioctl(floor_fd, RDMA_VERBS_IOCTL, &c))
			die("floor create", errno);
		memset(&d, 0, sizeof(d));
		d.hdr.length = sizeof(d);
		d.hdr.object_id = UVERBS_OBJECT_CQ;
		d.hdr.method_id = UVERBS_METHOD_CQ_DESTROY;
		d.hdr.num_attrs = 2;
		d.hdr.driver_id = driver_id;
		d.a[0].attr_id = UVERBS_ATTR_DESTROY_CQ_HANDLE;
		d.a[0].flags = UVERBS_ATTR_F_MANDATORY;
		d.a[0].data = c.a[0].data;
		d.a[1].attr_id = UVERBS_ATTR_DESTROY_CQ_RESP;
		d.a[1].flags = UVERBS_ATTR_F_MANDATORY;
		d.a[1].len = sizeof(dresp);
		d.a[1].data = (uintptr_t)&dresp;
		if (ioctl(floor_fd, RDMA_VERBS_IOCTL, &d))
			die("floor destroy", errno);
	}
}

static void pairs_lib(struct uvio_device *dev, long n)
{
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	int err;

	for (long i = 0; i < n; i++) {
		if ((err = uvio_create_cq(dev, &attr, NULL, &cq, NULL)))
			die("uvio_create_cq", err);
		if ((err = uvio_destroy_cq(dev, cq.handle, NULL, NULL)))
			die("uvio_destroy_cq", err);
	}
}

static void pairs_ibvcmd(long n)
{
	struct bench_ibv_create_cq cmd;
	struct {
		struct ib_uverbs_create_cq_resp core;
		uint64_t drv[8];
	} resp;
	struct ibv_cq cq;
	int err;

	memset(&cq, 0, sizeof(cq));
	pthread_mutex_init(&cq.mutex, NULL);
	pthread_cond_init(&cq.cond, NULL);
	for (long i = 0; i < n; i++) {
		memset(&cmd, 0, sizeof(cmd));
		err = ibv_cmd_create_cq(ibctx, 16, NULL, 0, &cq, &cmd, sizeof(cmd), &resp.core,
					sizeof(resp));
		if (err)
			die("ibv_cmd_create_cq", err);	/* a positive errno */
		cq.context = ibctx;
		if ((err = ibv_cmd_destroy_cq(&cq)))
			die("ibv_cmd_destroy_cq", err);
	}
}

static void pairs_ibv(long n)
{
	for (long i = 0; i < n; i++) {
		struct ibv_cq *cq = ibv_create_cq(ibctx, 16, NULL, NULL, 0);

		if (!cq)
			die("ibv_create_cq", errno);
		if (ibv_destroy_cq(cq))
			die("ibv_destroy_cq", errno);
	}
}

enum { FLOOR, IOCTL, WRITE, IBVCMD, IBV, WAYS };
static const char *const way_name[] = { "floor", "ioctl", "write", "ibvcmd", "ibv" };

static void run_way(int w, long n)
{
	switch (w) {
	case FLOOR: pairs_floor(n); break;
	case IOCTL: pairs_lib(dev_ioctl, n); break;
	case WRITE: pairs_lib(dev_write, n); break;
	case IBVCMD: pairs_ibvcmd(n); break;
	case IBV: pairs_ibv(n); break;
	}
}

/* ---- threads on one handle ---- */
static long thread_pairs;
static void *thread_body(void *arg)
{
	(void)arg;
	pairs_lib(dev_ioctl, thread_pairs);
	return NULL;
}

/* ---- discovery cost: a fresh device under a filter that makes the verbs
 * ioctl answer ENOTTY; counted in a child, the filter cannot be removed ---- */
static void discovery_cost(const char *name)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		die("pipe", errno);
	pid = fork();
	if (pid == 0) {
		struct uvio_device *dev;
		UVIO_OPTS(uvio_context, ctx);
		long counts[2];

		if (kt_filter_verbs_ioctl())
			_exit(1);
		if (uvio_device_open(name, &dev))
			_exit(2);
		/* From the first command of a fresh device: GET_CONTEXT meets
		 * the refused ioctl, falls back, and the path is decided. */
		syscount_fd = uvio_device_fd(dev);
		syscount_ioctls = syscount_writes = 0;
		if (uvio_get_context(dev, NULL, &ctx, NULL))
			_exit(3);
		pairs_lib(dev, 100);
		counts[0] = syscount_ioctls;
		counts[1] = syscount_writes;
		if (write(pfd[1], counts, sizeof(counts)) != sizeof(counts))
			_exit(3);
		_exit(0);
	}
	long counts[2] = { -1, -1 };
	int status;

	close(pfd[1]);
	if (read(pfd[0], counts, sizeof(counts)) != sizeof(counts))
		counts[0] = counts[1] = -1;
	waitpid(pid, &status, 0);
	close(pfd[0]);
	/* 201 commands (GET_CONTEXT and 100 pairs): 201 writes, and the one
	 * refused ioctl is the whole cost of discovery. */
	printf("RESULT discovery_commands 201\n");
	printf("RESULT discovery_ioctls %ld\n", counts[0]);
	printf("RESULT discovery_writes %ld\n", counts[1]);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "rxe0";
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	long pairs = argc > 3 ? atol(argv[3]) : 2000;
	UVIO_OPTS(uvio_context, c1);
	UVIO_OPTS(uvio_context, c2);
	struct ibv_device **list;
	double t[WAYS][64], ratio_floor[64], ratio_ibvcmd[64];
	double user_s[WAYS] = { 0 }, sys_s[WAYS] = { 0 };	/* where the time goes */
	int err;

	/* Three contexts on the device: libibverbs', and two of ours. */
	list = ibv_get_device_list(NULL);
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ibctx = ibv_open_device(list[i]);
	if (!ibctx)
		die("ibv_open_device", ENODEV);
	if ((err = uvio_device_open(name, &dev_ioctl)) || (err = uvio_get_context(dev_ioctl, NULL, &c1, NULL)))
		die("open (ioctl)", err);
	if ((err = uvio_device_open(name, &dev_write)) || (err = uvio_get_context(dev_write, NULL, &c2, NULL)))
		die("open (write)", err);
	uvio_device_set_path(dev_write, UVIO_PATH_WRITE);
	floor_fd = uvio_device_fd(dev_ioctl);	/* same context, no library */
	driver_id = uvio_device_driver_id(dev_ioctl);

	if (rounds > 64)
		rounds = 64;
	for (int w = 0; w < WAYS; w++)
		run_way(w, pairs / 10);	/* warm up */
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < WAYS; k++) {
			int w = (k + r) % WAYS;	/* rotate the order every round */
			struct rusage u0, u1;
			double t0 = now();

			getrusage(RUSAGE_SELF, &u0);
			run_way(w, pairs);
			getrusage(RUSAGE_SELF, &u1);
			t[w][r] = now() - t0;
			user_s[w] += (u1.ru_utime.tv_sec - u0.ru_utime.tv_sec) +
				     (u1.ru_utime.tv_usec - u0.ru_utime.tv_usec) * 1e-6;
			sys_s[w] += (u1.ru_stime.tv_sec - u0.ru_stime.tv_sec) +
				    (u1.ru_stime.tv_usec - u0.ru_stime.tv_usec) * 1e-6;
		}
		ratio_floor[r] = t[IOCTL][r] / t[FLOOR][r];
		ratio_ibvcmd[r] = t[IOCTL][r] / t[IBVCMD][r];
		printf("round %d:", r + 1);
		for (int w = 0; w < WAYS; w++)
			printf(" %s %.0f/s", way_name[w], pairs / t[w][r]);
		printf("  ioctl/floor %.3f ioctl/ibvcmd %.3f\n", ratio_floor[r], ratio_ibvcmd[r]);
	}
	printf("RESULT device %s\nRESULT rounds %d\nRESULT pairs_per_round %ld\n", name, rounds,
	       pairs);
	for (int w = 0; w < WAYS; w++) {
		double rate[64];

		for (int r = 0; r < rounds; r++)
			rate[r] = pairs / t[w][r];
		printf("RESULT pairs_per_s_%s %.0f\n", way_name[w], stats_median(rate, rounds));
		printf("RESULT user_us_per_pair_%s %.2f\n", way_name[w],
		       user_s[w] * 1e6 / ((double)pairs * rounds));
		printf("RESULT sys_us_per_pair_%s %.2f\n", way_name[w],
		       sys_s[w] * 1e6 / ((double)pairs * rounds));
	}
	printf("RESULT ratio_ioctl_to_floor %.3f\n", stats_median(ratio_floor, rounds));
	printf("RESULT ratio_ioctl_to_ibvcmd %.3f\n", stats_median(ratio_ibvcmd, rounds));

	/* Syscalls and heap allocations per verb, after discovery. */
	for (int w = IOCTL; w <= WRITE; w++) {
		struct uvio_device *dev = w == IOCTL ? dev_ioctl : dev_write;

		syscount_fd = uvio_device_fd(dev);
		syscount_ioctls = syscount_writes = n_malloc = 0;
		pairs_lib(dev, 1000);
		printf("RESULT syscalls_per_verb_%s %.3f\n", way_name[w],
		       (double)(syscount_ioctls + syscount_writes) / 2000);
		printf("RESULT heap_allocs_per_verb_%s %.3f\n", way_name[w], (double)n_malloc / 2000);
	}
	syscount_fd = ibctx->cmd_fd;
	syscount_ioctls = syscount_writes = n_malloc = 0;
	pairs_ibvcmd(1000);
	printf("RESULT syscalls_per_verb_ibvcmd %.3f\n", (double)(syscount_ioctls + syscount_writes) / 2000);
	printf("RESULT heap_allocs_per_verb_ibvcmd %.3f\n", (double)n_malloc / 2000);
	syscount_ioctls = syscount_writes = n_malloc = 0;
	pairs_ibv(1000);
	printf("RESULT syscalls_per_verb_ibv %.3f\n", (double)(syscount_ioctls + syscount_writes) / 2000);
	printf("RESULT heap_allocs_per_verb_ibv %.3f\n", (double)n_malloc / 2000);
	syscount_fd = -1;
	discovery_cost(name);

	/* Threads sharing one device handle. */
	for (int nt = 1; nt <= 8; nt *= 2) {
		pthread_t th[8];
		double t0;

		thread_pairs = pairs / nt;
		t0 = now();
		for (int i = 0; i < nt; i++)
			pthread_create(&th[i], NULL, thread_body, NULL);
		for (int i = 0; i < nt; i++)
			pthread_join(th[i], NULL);
		printf("RESULT threads_%d_pairs_per_s %.0f\n", nt, thread_pairs * nt / (now() - t0));
	}
	return 0;
}
