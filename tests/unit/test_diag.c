/* Error text, errno meanings, the probe's encoding and verdicts, tracing. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <uvio.h>
#include "fake_sysfs.h"
#include "wrap.h"

static int answer;
static struct ib_uverbs_attr seen;
static struct ib_uverbs_ioctl_hdr seen_hdr;
static uint32_t right_driver_id = 14;

/* A kernel whose device has driver id right_driver_id: a wrong id answers
 * EINVAL to everything, before any object is looked up; an object no kernel
 * has (0x3ff) answers EPROTONOSUPPORT; anything else answers `answer`. */
static int kernel(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	if (hdr->driver_id != right_driver_id)
		return EINVAL;
	if (hdr->object_id == 0x3ff)
		return EPROTONOSUPPORT;
	seen_hdr = *hdr;
	if (hdr->num_attrs)
		seen = hdr->attrs[0];
	return answer;
}

static void probe_encoding_and_verdicts(void **state)
{
	(void)state;
	fake_reset();
	fake.on_ioctl = kernel;

	answer = EINVAL;
	assert_int_equal(uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY), 1);
	assert_int_equal(seen_hdr.object_id, UVERBS_OBJECT_CQ);
	assert_int_equal(seen_hdr.method_id, UVERBS_METHOD_CQ_DESTROY);
	assert_int_equal(seen_hdr.driver_id, 14);
	assert_int_equal(seen_hdr.num_attrs, 1);
	assert_int_equal(seen.attr_id, UVERBS_ATTR_DESTROY_CQ_HANDLE);
	assert_int_equal(seen.flags, UVERBS_ATTR_F_MANDATORY);
	assert_int_not_equal(seen.attr_data.reserved, 0);	/* refused before any handler */

	answer = EPROTONOSUPPORT;
	assert_int_equal(uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, 9), 0);
	assert_int_equal(uvio_probe_attr(3, 14, UVERBS_OBJECT_CQ, 0, 0x3f), 0);
	assert_int_equal(seen.attr_id, 0x3f);
	answer = ENOTTY;
	assert_int_equal(uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, 0), -ENOTTY);
	answer = EOPNOTSUPP;	/* the method is there, the driver says no */
	assert_int_equal(uvio_probe_method(3, 14, UVERBS_OBJECT_DEVICE,
					   UVERBS_METHOD_QUERY_CONTEXT), 1);
	/* a control command first, then the probe */
	assert_int_equal(fake.ioctl_calls, 10);
}

static int kernel_yes(unsigned long request, void *arg)
{
	(void)request; (void)arg;
	return 0;
}

/* With a wrong driver id the kernel answers EINVAL to every command, which
 * the probe's form would read as "present": the probe must say it cannot
 * tell instead. Likewise when even an unknown object seems to exist. */
static void probe_unreliable(void **state)
{
	(void)state;
	fake_reset();
	fake.on_ioctl = kernel;
	answer = EINVAL;
	assert_int_equal(uvio_probe_method(3, 99, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE),
			 -EINVAL);
	assert_int_equal(uvio_probe_attr(3, 99, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 0),
			 -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "driver id"));
	fake.on_ioctl = NULL;	/* no verbs ioctl at all */
	assert_int_equal(uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, 0), -ENOTTY);
	fake.on_ioctl = kernel_yes;	/* accepts even an unknown object */
	assert_int_equal(uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, 0), -EPROTO);
	assert_non_null(strstr(uvio_last_error(), "unknown object"));
}

static void known_tables(void **state)
{
	uint16_t obj, meth, attr;
	unsigned int n = 0, cq_create_attrs = 0;
	(void)state;

	while (!uvio_known_method(n, &obj, &meth)) {
		assert_non_null(uvio_object_name(obj));
		assert_non_null(uvio_method_name(obj, meth));
		n++;
	}
	assert_true(n >= 30);
	while (!uvio_known_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, cq_create_attrs, &attr))
		cq_create_attrs++;
	assert_int_equal(cq_create_attrs, 13);	/* as Linux 7.2 has them */
	assert_int_equal(uvio_known_attr(0x3ff, 0, 0, &attr), -ENOENT);
	assert_string_equal(uvio_write_cmd_name(18), "CREATE_CQ");
	assert_string_equal(uvio_write_cmd_name(0), "GET_CONTEXT");
	assert_null(uvio_write_cmd_name(1000));
}

static void meanings(void **state)
{
	static const int errs[] = { 0, ENOTTY, EPROTONOSUPPORT, EINVAL, ENOSPC, ENOENT, EFAULT,
				    EOPNOTSUPP, EIO, EACCES, EBADF, ENOMEM, EMFILE, EEXIST,
				    E2BIG, ENXIO };
	(void)state;

	for (unsigned int i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		for (int p = UVIO_PATH_AUTO; p <= UVIO_PATH_WRITE; p++) {
			const char *m = uvio_errno_meaning(-errs[i], (enum uvio_path)p);

			assert_non_null(m);
			assert_true(strlen(m) > 3);
		}
	assert_non_null(strstr(uvio_errno_meaning(-ENOTTY, UVIO_PATH_IOCTL), "seccomp"));
	assert_non_null(strstr(uvio_errno_meaning(-ENOSPC, UVIO_PATH_WRITE), "out_words"));
	assert_non_null(strstr(uvio_errno_meaning(EPROTONOSUPPORT, UVIO_PATH_IOCTL), "lacks"));
	/* A driver's EACCES (irdma's REREG_MR) is no credential check: only
	 * write() makes that one, and the driver may answer it on any path. */
	assert_null(strstr(uvio_errno_meaning(-EACCES, UVIO_PATH_IOCTL), "credentials"));
	assert_non_null(strstr(uvio_errno_meaning(-EACCES, UVIO_PATH_IOCTL), "driver"));
	assert_non_null(strstr(uvio_errno_meaning(-EACCES, UVIO_PATH_WRITE), "credentials"));
	assert_non_null(strstr(uvio_errno_meaning(-EACCES, UVIO_PATH_WRITE), "driver"));
}

/* The library's own errno names: right for every number, never NULL, and the
 * same as the C library's where it has strerrorname_np (glibc 2.32). */
static void errno_names(void **state)
{
	(void)state;
	assert_string_equal(uvio_errno_name(EPROTONOSUPPORT), "EPROTONOSUPPORT");
	assert_string_equal(uvio_errno_name(-ENOTTY), "ENOTTY");
	assert_string_equal(uvio_errno_name(EWOULDBLOCK), "EAGAIN");
	assert_string_equal(uvio_errno_name(EHWPOISON), "EHWPOISON");
	assert_string_equal(uvio_errno_name(0), "0");
	assert_string_equal(uvio_errno_name(4242), "errno 4242");
	assert_string_equal(uvio_errno_name(-4243), "errno 4243");
	assert_string_equal(uvio_errno_name(INT32_MIN), "errno 2147483648");
	assert_string_equal(uvio_errno_name(41), "errno 41");	/* no errno has 41 */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
	for (int e = 1; e < 200; e++) {
		const char *libc = strerrorname_np(e);

		if (libc)
			assert_string_equal(uvio_errno_name(e), libc);
		else
			assert_non_null(strstr(uvio_errno_name(e), "errno "));
	}
#endif
}

static void last_error_names_verb_path_attr(void **state)
{
	struct uvio_device *dev;
	int fd = fake_uverbs_fd();
	(void)state;

	assert_string_equal(uvio_last_error(), "");
	{	/* a builder error: names object, method, attribute */
		UVIO_CMD_DEFINE(cmd, 1, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, 1);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 1);
		assert_int_equal(uvio_cmd_exec(3, &cmd), -ENOSPC);
		assert_string_equal(uvio_last_error(),
				    "CQ.CREATE: not sent: attribute 0x0004 (COMP_VECTOR): more "
				    "attributes than the command buffer holds (ENOSPC)");
	}
	{	/* a kernel answer to a verb: names device, verb, path, meaning */
		fake_reset();
		fake.on_ioctl = kernel;
		answer = ENOENT;
		assert_int_equal(uvio_device_adopt(fd, 14, &dev), 0);
		assert_int_equal(uvio_destroy_cq(dev, 77, NULL, NULL), -ENOENT);
		char want[128];
		snprintf(want, sizeof(want), "fd%d: CQ.DESTROY over ioctl: ENOENT: no object", fd);
		assert_memory_equal(uvio_last_error(), want, strlen(want));
		uvio_device_close(dev);
	}
}

static char logged[8192];
static void collect(int level, const char *msg, void *ctx)
{
	(void)level; (void)ctx;
	strncat(logged, msg, sizeof(logged) - strlen(logged) - 2);
	strcat(logged, "\n");
}

static ssize_t kernel_write(const void *buf, size_t len)
{
	(void)buf;
	return (ssize_t)len;
}

static void trace_by_environment(void **state)
{
	struct uvio_device *dev;
	uint32_t pd;
	int fd = fake_uverbs_fd();
	(void)state;

	fake_reset();
	fake.on_ioctl = kernel;
	fake.on_write = kernel_write;
	answer = 0;
	uvio_set_log(collect, NULL, NULL);
	setenv("UVERBS_IOCTL_TRACE", "1", 1);
	assert_int_equal(uvio_device_adopt(fd, 14, &dev), 0);
	unsetenv("UVERBS_IOCTL_TRACE");
	assert_int_equal(uvio_dealloc_pd(dev, 5, NULL), 0);
	uvio_device_set_path(dev, UVIO_PATH_WRITE);
	assert_int_equal(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	uvio_set_log(NULL, NULL, NULL);
	assert_non_null(strstr(logged, " ioctl: PD.DESTROY (object 1, method 0) layout current "
				       "driver_id 14(rxe), 1 attrs, length 40 -> 0 in "));
	assert_non_null(strstr(logged, "[0] 0x0000 HANDLE           idr     len 0 mandatory PD handle 5"));
	assert_non_null(strstr(logged, "hex 2800010000000100"));
	assert_non_null(strstr(logged, " write: ALLOC_PD (command 3) in_words 4 out_words 17, "
				       "16 bytes: "));
	uvio_device_close(dev);

	/* no trace without the variable */
	logged[0] = 0;
	uvio_set_log(collect, NULL, NULL);
	assert_int_equal(uvio_device_adopt(fd, 14, &dev), 0);
	assert_int_equal(uvio_dealloc_pd(dev, 5, NULL), 0);
	uvio_set_log(NULL, NULL, NULL);
	assert_string_equal(logged, "");
	uvio_device_close(dev);
}

/* The words a libibverbs user has from ibv_port_state_str() and friends. */
static void port_and_device_words(void **state)
{
	char fw[32];
	(void)state;

	assert_string_equal(uvio_port_state_name(4), "ACTIVE");
	assert_string_equal(uvio_port_state_name(1), "DOWN");
	assert_null(uvio_port_state_name(9));
	assert_int_equal(uvio_mtu_bytes(UVIO_MTU_1024), 1024);
	assert_int_equal(uvio_mtu_bytes(UVIO_MTU_4096), 4096);
	assert_int_equal(uvio_mtu_bytes(0), 0);
	assert_int_equal(uvio_mtu_bytes(6), 0);
	assert_string_equal(uvio_link_layer_name(2), "Ethernet");
	assert_string_equal(uvio_link_layer_name(1), "InfiniBand");
	assert_string_equal(uvio_link_layer_name(0), "unspecified");
	assert_null(uvio_link_layer_name(7));
	/* QUERY_DEVICE's 64-bit fw_ver as major.minor.sub-minor */
	assert_int_equal(uvio_fw_ver_str(0x0000000e00230fa0ull, fw, sizeof(fw)), 0);
	assert_string_equal(fw, "14.35.4000");
	assert_int_equal(uvio_fw_ver_str(0, fw, sizeof(fw)), 0);
	assert_string_equal(fw, "0.0.000");
	assert_int_equal(uvio_fw_ver_str(0x0000ffffffffffffull, fw, 5), -ENOSPC);
	assert_int_equal(uvio_fw_ver_str(0, NULL, 0), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* first: no call has failed yet, the text is empty */
		cmocka_unit_test(last_error_names_verb_path_attr),
		cmocka_unit_test(probe_encoding_and_verdicts),
		cmocka_unit_test(known_tables),
		cmocka_unit_test(meanings),
		cmocka_unit_test(errno_names),
		cmocka_unit_test(trace_by_environment),
		cmocka_unit_test(port_and_device_words),
		cmocka_unit_test(probe_unreliable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
