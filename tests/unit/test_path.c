/*
 * Path selection against a stand-in kernel: what the real kernel cannot be
 * made to do on demand (EPROTONOSUPPORT for one method, as 4.16-5.8 kernels
 * answer for CQ methods) and exact syscall counts under a race.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <uvio.h>
#include "wrap.h"

static int answer;			/* errno the stand-in's ioctl gives */
static int cq_enoproto;		/* CQ methods unknown on ioctl */

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	if (answer)
		return answer;
	if (cq_enoproto && hdr->object_id == UVERBS_OBJECT_CQ)
		return EPROTONOSUPPORT;
	if (hdr->object_id == UVERBS_OBJECT_CQ && hdr->method_id == UVERBS_METHOD_CQ_CREATE) {
		for (unsigned int i = 0; i < hdr->num_attrs; i++) {
			struct ib_uverbs_attr *a = &hdr->attrs[i];

			if (a->attr_id == UVERBS_ATTR_CREATE_CQ_HANDLE)
				a->data = 3;
			if (a->attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE)
				*(uint32_t *)(uintptr_t)a->data = 64;
		}
	}
	return 0;
}

static ssize_t kernel_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;

	if (h->command == IB_USER_VERBS_CMD_CREATE_CQ) {
		const struct ib_uverbs_create_cq *c = (const void *)(h + 1);
		struct ib_uverbs_create_cq_resp *r = (void *)(uintptr_t)c->response;

		assert_int_equal(len, h->in_words * 4u);
		assert_true(h->out_words * 4u >= sizeof(*r) + UVIO_DEFAULT_DRV_OUT);
		r->cq_handle = 9;
		r->cqe = c->cqe;
	}
	return (ssize_t)len;
}

static struct uvio_device *fresh(void)
{
	static int pipefd[2] = { -1, -1 };
	struct uvio_device *dev;

	if (pipefd[0] < 0)
		assert_int_equal(pipe(pipefd), 0);
	fake_reset();
	fake.on_ioctl = kernel_ioctl;
	fake.on_write = kernel_write;
	answer = 0;
	cq_enoproto = 0;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(pipefd[0], 14, &dev), 0);
	return dev;
}

static const struct uvio_cq_attr attr = { .cqe = 16, .channel_fd = -1 };

static void ioctl_when_present(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_cq cq;
	enum uvio_path p;
	(void)state;

	assert_int_equal(uvio_device_path(dev), UVIO_PATH_AUTO);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(cq.handle, 3);
	assert_int_equal(cq.cqe, 64);
	assert_int_equal(fake.ioctl_calls, 1);
	assert_int_equal(fake.last_request, 0xc0181b01UL);
	assert_int_equal(fake.write_calls, 0);
	assert_int_equal(uvio_device_path(dev), UVIO_PATH_IOCTL);
	uvio_device_close(dev);
	assert_int_equal(fake.close_calls, 0);	/* adopted fd stays open */
}

static void enotty_once_per_device(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_device_stats st;
	struct uvio_cq cq;
	enum uvio_path p;
	(void)state;

	answer = ENOTTY;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(cq.handle, 9);
	assert_int_equal(fake.ioctl_calls, 1);
	assert_int_equal(fake.write_calls, 1);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(uvio_destroy_cq(dev, 9, NULL, &p), 0);
		assert_int_equal(p, UVIO_PATH_WRITE);
	}
	assert_int_equal(fake.ioctl_calls, 1);	/* never again */
	assert_int_equal(fake.write_calls, 6);
	uvio_device_get_stats(dev, &st);
	assert_int_equal(st.fallbacks, 1);
	uvio_device_close(dev);
}

static void enoprotoopt_per_verb(void **state)
{
	struct uvio_device *dev = fresh();
	enum uvio_path p;
	struct uvio_cq cq;
	(void)state;

	cq_enoproto = 1;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(fake.ioctl_calls, 1);	/* remembered for CQ CREATE */
	/* other verbs keep the ioctl */
	assert_int_equal(uvio_dealloc_pd(dev, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(uvio_device_path(dev), UVIO_PATH_IOCTL);
	uvio_device_close(dev);
}

static void pinned_paths(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_cq cq;
	struct uvio_cq_attr flagged = attr;
	enum uvio_path p;
	(void)state;

	/* pinned ioctl: ENOTTY is the answer, no fallback */
	uvio_device_set_path(dev, UVIO_PATH_IOCTL);
	answer = ENOTTY;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), -ENOTTY);
	assert_int_equal(fake.write_calls, 0);
	/* pinned 2017 layout: its own request number */
	uvio_device_set_path(dev, UVIO_PATH_IOCTL_2017);
	answer = 0;
	assert_int_equal(uvio_dealloc_pd(dev, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL_2017);
	assert_int_equal(fake.last_request, 0xc0101b01UL);
	uvio_device_close(dev);

	/* pinned by the environment */
	setenv("UVERBS_IOCTL_PATH", "write", 1);
	assert_int_equal(uvio_device_adopt(3, 14, &dev), 0);
	fake_reset();
	fake.on_write = kernel_write;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(fake.ioctl_calls, 0);
	/* flags cannot travel by write(): refused, nothing sent */
	flagged.flags = 1;
	assert_int_equal(uvio_create_cq(dev, &flagged, NULL, &cq, &p), -EOPNOTSUPP);
	assert_int_equal(fake.write_calls, 1);
	uvio_device_close(dev);
	setenv("UVERBS_IOCTL_PATH", "bogus", 1);
	assert_int_equal(uvio_device_adopt(3, 14, &dev), -EINVAL);
	unsetenv("UVERBS_IOCTL_PATH");
}

static void bad_driver_data(void **state)
{
	struct uvio_device *dev = fresh();
	static uint8_t big[UVIO_MAX_DRV_DATA + 1];
	struct uvio_drv too_big = { .out = big, .out_len = sizeof(big) };
	struct uvio_drv null_in = { .in = NULL, .in_len = 4 };
	struct uvio_cq cq;
	(void)state;

	assert_int_equal(uvio_create_cq(dev, &attr, &too_big, &cq, NULL), -E2BIG);
	assert_int_equal(uvio_create_cq(dev, &attr, &null_in, &cq, NULL), -EFAULT);
	assert_int_equal(uvio_create_cq(dev, NULL, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	uvio_device_close(dev);
	assert_int_equal(uvio_device_adopt(-1, 14, &dev), -EINVAL);
	assert_null(dev);
	assert_int_equal(uvio_device_adopt(999, 14, &dev), -EBADF);
	assert_null(dev);
}

static int async_fails;
static int get_context_calls, async_calls;

static int kernel_context(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	if (hdr->object_id == UVERBS_OBJECT_DEVICE) {
		get_context_calls++;
		return 0;
	}
	if (hdr->object_id == UVERBS_OBJECT_ASYNC_EVENT) {
		async_calls++;
		if (async_fails)
			return EMFILE;
		hdr->attrs[0].data = 7;	/* the new fd */
	}
	return 0;
}

static void get_context_recovers_from_emfile(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_context ctx;
	(void)state;

	fake.on_ioctl = kernel_context;
	get_context_calls = async_calls = 0;
	async_fails = 1;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), -EMFILE);
	assert_int_equal(get_context_calls, 1);
	assert_int_equal(async_calls, 1);
	async_fails = 0;
	/* the context exists: only the async fd is asked for again */
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(get_context_calls, 1);
	assert_int_equal(async_calls, 2);
	assert_int_equal(ctx.async_fd, 7);
	uvio_device_close(dev);
}

static struct uvio_device *shared;
static _Atomic int wrong_path;

static void *racer(void *arg)
{
	struct uvio_cq cq;
	enum uvio_path p;
	(void)arg;

	for (int i = 0; i < 100; i++) {
		if (uvio_create_cq(shared, &attr, NULL, &cq, &p) || p != UVIO_PATH_WRITE)
			wrong_path++;
	}
	return NULL;
}

static void threads_agree(void **state)
{
	pthread_t t[8];
	(void)state;

	shared = fresh();
	answer = ENOTTY;
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, racer, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(wrong_path, 0);
	assert_int_equal(uvio_device_path(shared), UVIO_PATH_WRITE);
	/* at most one refused ioctl per thread that raced the first command */
	assert_true(fake.ioctl_calls >= 1 && fake.ioctl_calls <= 8);
	uvio_device_close(shared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ioctl_when_present),
		cmocka_unit_test(enotty_once_per_device),
		cmocka_unit_test(enoprotoopt_per_verb),
		cmocka_unit_test(pinned_paths),
		cmocka_unit_test(bad_driver_data),
		cmocka_unit_test(threads_agree),
		cmocka_unit_test(get_context_recovers_from_emfile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
