/*
 * ENOTTY on a fresh device, on a kernel whose release is one of the three
 * that had the 2017 experimental layout (4.14-4.16): the device tries that
 * layout before write(). The release is asked when ENOTTY comes, not at
 * open, and once per process (which is why this is a program of its own:
 * test_path's fallbacks run on the host's release).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <cmocka.h>
#include <uvio.h>
#include "fake_sysfs.h"
#include "wrap.h"

static int uname_calls;

int __wrap_uname(struct utsname *u);
int __wrap_uname(struct utsname *u)
{
	uname_calls++;
	memset(u, 0, sizeof(*u));
	snprintf(u->sysname, sizeof(u->sysname), "Linux");
	snprintf(u->release, sizeof(u->release), "4.15.0-213-generic");
	return 0;
}

static unsigned long requests[8];
static int nrequests;

/* A 4.15 kernel built with the experimental verbs ioctl: today's request
 * number is unknown to it, the 16-byte header's is served. */
static int kernel_4_15(unsigned long request, void *arg)
{
	(void)arg;
	if (nrequests < 8)
		requests[nrequests++] = request;
	return request == 0xc0101b01UL ? 0 : ENOTTY;
}

static void enotty_tries_2017_layout(void **state)
{
	struct uvio_device *dev, *dev2;
	enum uvio_path p;
	(void)state;

	fake_reset();
	fake.on_ioctl = kernel_4_15;
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 0, &dev), 0);
	assert_int_equal(uname_calls, 0);	/* nothing asked at open */

	assert_int_equal(uvio_dealloc_pd(dev, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL_2017);
	assert_int_equal(nrequests, 2);
	assert_int_equal(requests[0], 0xc0181b01UL);
	assert_int_equal(requests[1], 0xc0101b01UL);
	assert_int_equal(uname_calls, 1);
	assert_int_equal(uvio_device_path(dev), UVIO_PATH_IOCTL_2017);
	assert_int_equal(fake.write_calls, 0);

	/* A second device meets ENOTTY too: the release is not asked again. */
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 0, &dev2), 0);
	assert_int_equal(uvio_dealloc_pd(dev2, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL_2017);
	assert_int_equal(uname_calls, 1);
	uvio_device_close(dev2);
	uvio_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enotty_tries_2017_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
