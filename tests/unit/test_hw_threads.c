/*
 * Threads sharing one handle of an mlx5 device (a stand-in kernel that
 * hands out the lowest free handle, as the kernel's handle table does, so
 * that a handle one thread destroys comes back in another thread's create
 * at once): each thread creates a CQ, asks where its buffer lies, writes a
 * mark there, asks again, destroys it. Every answer must name the thread's
 * own buffer, with its mark. Built with -DUVIO_TSAN=ON (as CI does),
 * ThreadSanitizer also reports any access to the driver half's records
 * that the layer's lock does not cover. The interleaving that took a live
 * CQ's record (a destroy dropping its record after the kernel's answer)
 * shows here in some runs only (2 of 8 with the old order put back);
 * unit/test_hw destroy_handle_reused makes it every time.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <uvio.h>
#include <uvio/hw.h>
#include "hw_fake.h"
#include "wrap.h"

#define THREADS 4
#define ROUNDS 5000
#define HANDLES 64

/* The device's fd, found once before the threads start (fake_uverbs_fd()
 * itself is the single-threaded tests' helper). */
static int uverbs_fd = -1;

/* The kernel's handle table: the lowest free handle first. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t table_used;

static uint32_t handle_new(void)
{
	uint32_t h;

	pthread_mutex_lock(&table_lock);
	h = (uint32_t)__builtin_ctzll(~table_used);
	table_used |= 1ULL << h;
	pthread_mutex_unlock(&table_lock);
	return h;
}

static void handle_free(uint32_t h)
{
	pthread_mutex_lock(&table_lock);
	table_used &= ~(1ULL << h);
	pthread_mutex_unlock(&table_lock);
}

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	struct ib_uverbs_attr *a;

	(void)request;
	switch (h->object_id) {
	case UVERBS_OBJECT_DEVICE:
		if (h->method_id == UVERBS_METHOD_GET_CONTEXT &&
		    (a = (struct ib_uverbs_attr *)find(h, UVERBS_ATTR_UHW_OUT))) {
			struct mlx5_ib_alloc_ucontext_resp r = {
				.cqe_version = 1, .cache_line_size = 64, .max_sq_desc_sz = 1024,
				.max_rq_desc_sz = 512, .max_send_wqebb = 32768,
				.max_recv_wr = 32768, .max_srq_recv_wr = 32768,
			};

			put_out(a, &r, sizeof(r));
		}
		return 0;
	case UVERBS_OBJECT_ASYNC_EVENT:
		if ((a = (struct ib_uverbs_attr *)find(h, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE)))
			a->data = (uint64_t)dup(uverbs_fd);
		return 0;
	case MLX5_IB_OBJECT_UAR:
		if ((a = (struct ib_uverbs_attr *)find(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE)))
			a->data = 1;
		if ((a = (struct ib_uverbs_attr *)find(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH)))
			put_out(a, &(uint32_t){ 4096 }, 4);
		if ((a = (struct ib_uverbs_attr *)find(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET)))
			put_out(a, &(uint64_t){ 0 }, 8);
		if ((a = (struct ib_uverbs_attr *)find(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID)))
			put_out(a, &(uint32_t){ 1 }, 4);
		return 0;
	case UVERBS_OBJECT_CQ:
		if (h->method_id == UVERBS_METHOD_CQ_CREATE) {
			a = (struct ib_uverbs_attr *)find(h, UVERBS_ATTR_CREATE_CQ_HANDLE);
			a->data = handle_new();
			if ((a = (struct ib_uverbs_attr *)find(h, UVERBS_ATTR_CREATE_CQ_RESP_CQE)))
				put_out(a, &(uint32_t){ 1 }, 4);
		} else if (h->method_id == UVERBS_METHOD_CQ_DESTROY) {
			/* The handle is free again the moment the kernel answers:
			 * another thread's create may get it before this destroy
			 * has returned to its caller. */
			handle_free((uint32_t)find(h, UVERBS_ATTR_DESTROY_CQ_HANDLE)->data);
			usleep(20);	/* this thread descheduled on its way back */
			if ((a = (struct ib_uverbs_attr *)find(h, UVERBS_ATTR_DESTROY_CQ_RESP)))
				put_out(a, &(uint64_t){ 0 }, 8);
		}
		return 0;
	default:
		return 0;
	}
}

/* The UAR page: anonymous memory in its place. */
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd >= 0 && fd == uverbs_fd)
		return __real_mmap(addr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				   -1, 0);
	return __real_mmap(addr, len, prot, flags, fd, off);
}

static struct uvio_device *dev;
static atomic_uint wrong, failed;

static bool where(uint32_t handle, struct uvio_hw_object *o)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	return uvio_hw_query_object(dev, UVERBS_OBJECT_CQ, handle, o) == 0 && o->nregions &&
	       o->regions[0].kind == UVIO_HW_MEM_CQ;
}

static void *racer(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;

	for (unsigned int r = 0; r < ROUNDS; r++) {
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 8u << id);	/* sizes differ by thread */
		UVIO_OPTS(uvio_cq, cq);
		struct uvio_hw_object was, now;
		uint32_t mark = id << 24 | r;

		if (uvio_create_cq(dev, &a, NULL, &cq, NULL)) {
			atomic_fetch_add(&failed, 1);
			continue;
		}
		if (!where(cq.handle, &was)) {
			atomic_fetch_add(&wrong, 1);
		} else {
			memcpy(was.regions[0].addr, &mark, sizeof(mark));
			if (!where(cq.handle, &now) || now.regions[0].addr != was.regions[0].addr ||
			    now.regions[0].len != (1024u << id) ||	/* (16 << id) CQEs */
			    memcmp(now.regions[0].addr, &mark, sizeof(mark)))
				atomic_fetch_add(&wrong, 1);
		}
		if (uvio_destroy_cq(dev, cq.handle, NULL, NULL))
			atomic_fetch_add(&failed, 1);
	}
	return NULL;
}

static void cq_records_under_threads(void **state)
{
	UVIO_OPTS(uvio_context, ctx);
	pthread_t t[THREADS];

	(void)state;
	fake_reset();
	fake.on_ioctl = kernel_ioctl;
	unsetenv("UVERBS_IOCTL_PATH");
	uverbs_fd = fake_uverbs_fd();
	assert_int_equal(uvio_device_adopt(uverbs_fd, RDMA_DRIVER_MLX5, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	for (uintptr_t i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, racer, (void *)i), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(atomic_load(&failed), 0);
	assert_int_equal(atomic_load(&wrong), 0);
	uvio_device_close(dev);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	assert_int_equal(table_used, 0);	/* every CQ destroyed, at close none left */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cq_records_under_threads),
	};

	fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
