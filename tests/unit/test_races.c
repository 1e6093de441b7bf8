/*
 * A device handle shared by threads, as the library promises it may be:
 * contexts fetched, the path pinned and unpinned, and verbs run, all at
 * once, against a stand-in kernel. Built with -DUVIO_TSAN=ON (as CI does)
 * ThreadSanitizer reports any access to the handle's state that is not
 * atomic; in other builds this is a smoke test of the same traffic.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <uvio.h>
#include "fake_sysfs.h"
#include "wrap.h"

#define ROUNDS 300

/* Every command succeeds; a new fd attribute gets a real fd (of /dev/null's
 * kind: a dup of stderr), which the test closes. */
static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	for (unsigned int i = 0; i < hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &hdr->attrs[i];

		if (hdr->object_id == UVERBS_OBJECT_ASYNC_EVENT &&
		    a->attr_id == UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE)
			a->data = (uint64_t)dup(2);
	}
	return 0;
}

static ssize_t kernel_write(const void *buf, size_t len)
{
	(void)buf;
	return (ssize_t)len;
}

static void *contexts(void *arg)
{
	struct uvio_device *dev = arg;

	for (int i = 0; i < ROUNDS; i++) {
		struct uvio_context ctx = { .sz = sizeof(ctx), .async_fd = -1 };

		if (!uvio_get_context(dev, NULL, &ctx, NULL) && ctx.async_fd >= 0)
			close(ctx.async_fd);
	}
	return NULL;
}

static void *pins(void *arg)
{
	struct uvio_device *dev = arg;

	for (int i = 0; i < ROUNDS; i++) {
		uvio_device_set_path(dev, i & 1 ? UVIO_PATH_WRITE : UVIO_PATH_AUTO);
		(void)uvio_device_path(dev);
	}
	return NULL;
}

static void *verbs(void *arg)
{
	struct uvio_device *dev = arg;

	for (int i = 0; i < ROUNDS; i++) {
		uint32_t pd;

		if (!uvio_alloc_pd(dev, NULL, &pd, NULL))
			uvio_dealloc_pd(dev, pd, NULL);
	}
	return NULL;
}

static void shared_handle(void **state)
{
	struct uvio_device *dev;
	void *(*const work[])(void *) = { contexts, contexts, pins, verbs, verbs };
	pthread_t t[sizeof(work) / sizeof(work[0])];
	(void)state;

	fake_reset();
	fake.on_ioctl = kernel_ioctl;
	fake.on_write = kernel_write;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_RXE, &dev), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		assert_int_equal(pthread_create(&t[i], NULL, work[i], dev), 0);
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		pthread_join(t[i], NULL);
	assert_true(fake.ioctl_calls + fake.write_calls > 0);
	uvio_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_handle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
