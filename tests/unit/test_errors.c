/*
 * uvio_last_error() after every kind of failure: a public function that
 * returns a negative errno leaves a line naming itself (or its command) and
 * the argument or cause, so that the text never belongs to an older failure.
 * A success leaves the text as it was; so does the end of an iteration
 * (uvio_known_*: -ENOENT past the last index), which is no failure.
 *
 * Each case sets an older message first and then makes one call fail; every
 * case is tried and the ones that leave the older text (or name neither the
 * function nor the argument) are listed together.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <rdma/rdma_user_cm.h>

#include <uvio.h>
#include <uvio/dp.h>
#include "report/report.h"
#include "../../providers/dp.h"
#include "fake_sysfs.h"
#include "wrap.h"

#define OLDER "an older failure of another call"

ssize_t __real_write(int fd, const void *buf, size_t len);

static int failures;

/* ret must be err, and uvio_last_error() name what (the function or the
 * command) and arg (the argument or the cause), and not be the older text. */
static void expect(const char *call, int ret, int err, const char *what, const char *arg)
{
	const char *m = uvio_last_error();

	if (ret == err && strstr(m, what) && (!arg || strstr(m, arg)) && !strstr(m, OLDER))
		return;
	failures++;
	print_error("%s\n    returned %d (expected %d); uvio_last_error() \"%s\"\n"
		    "    (expected it to name \"%s\"%s%s%s)\n",
		    call, ret, err, m, what, arg ? " and \"" : "", arg ? arg : "",
		    arg ? "\"" : "");
}

#define FAILS(err, what, arg, call)                                            \
	do {                                                                   \
		uvio_set_last_error("%s", OLDER);                              \
		expect(#call, (call), (err), (what), (arg));                   \
	} while (0)

/* The text is left as it was. */
static void keeps(const char *call, int ret, int want)
{
	if (ret == want && !strcmp(uvio_last_error(), OLDER))
		return;
	failures++;
	print_error("%s\n    returned %d (expected %d); uvio_last_error() \"%s\" "
		    "(expected the older text)\n", call, ret, want, uvio_last_error());
}

#define KEEPS(want, call)                                                      \
	do {                                                                   \
		uvio_set_last_error("%s", OLDER);                              \
		keeps(#call, (call), (want));                                  \
	} while (0)

static void report(void)
{
	if (failures)
		fail_msg("%d call(s) above left uvio_last_error() wrong", failures);
}

static int busy(unsigned long request, void *arg)
{
	(void)request; (void)arg;
	return EBUSY;
}

static int wrong_id(unsigned long request, void *arg)
{
	(void)request; (void)arg;
	return EINVAL;
}

/* A kernel with driver id 14 that has no method: EINVAL for another driver
 * id, EPROTONOSUPPORT for an unknown object, EINVAL for the probe's form of
 * a method it has (CQ.CREATE); EPROTONOSUPPORT for any other. */
static int knows_nothing_but_id_14(unsigned long request, void *arg)
{
	const struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	if (hdr->driver_id != 14)
		return EINVAL;
	if (hdr->object_id == UVERBS_OBJECT_CQ && hdr->method_id == UVERBS_METHOD_CQ_CREATE)
		return EINVAL;
	return EPROTONOSUPPORT;
}

static struct uvio_device *device(uint32_t driver_id)
{
	struct uvio_device *dev;

	fake_reset();
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), driver_id, &dev), 0);
	return dev;
}

/* providers/: every argument check of the data path. */
static void data_path(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE);
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8);
	UVIO_OPTS(uvio_srq_attr, sa, .max_wr = 8);
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC);
	UVIO_OPTS(uvio_ah_attr, aa);
	UVIO_OPTS(uvio_srq_modify, sm, .attr_mask = UVIO_SRQ_LIMIT, .srq_limit = 1);
	uint64_t ring;		/* a "mapped" ring: the checks fail before using it */
	struct uvio_dp_cq cq, gone_cq = { 0 };
	struct uvio_dp_cq live_cq = { .dev = dev, .driver_id = RDMA_DRIVER_RXE,
				      .q = { .ring = { .map = &ring } } };
	struct uvio_dp_srq srq, gone_srq = { 0 };
	struct uvio_dp_srq live_srq = { .dev = dev, .driver_id = RDMA_DRIVER_RXE,
					.q = { .ring = { .map = &ring } } };
	struct uvio_dp_qp qp, gone_qp = { 0 };
	struct uvio_dp_qp live_qp = { .dev = dev, .driver_id = RDMA_DRIVER_RXE,
				      .sq = { .ring = { .map = &ring } },
				      .rq = { .ring = { .map = &ring } } };
	struct uvio_dp_ah ah;
	struct uvio_dp_send_wr swr = { .opcode = IB_UVERBS_WR_SEND };
	struct uvio_dp_recv_wr rwr = { .wr_id = 1 };
	struct uvio_dp_wc wc[1];
	uint32_t bad;
	(void)state;

	/* Live as create leaves them: bound to their driver's ops. */
	dp_cq_set_ops(&live_cq, &uvio_dp_rxe_ops);
	dp_srq_set_ops(&live_srq, &uvio_dp_rxe_ops);
	dp_qp_set_ops(&live_qp, &uvio_dp_rxe_ops);
	failures = 0;
	FAILS(-EINVAL, "uvio_dp_create_cq", "argument dev", uvio_dp_create_cq(NULL, &ca, &cq));
	FAILS(-EINVAL, "uvio_dp_create_cq", "argument attr", uvio_dp_create_cq(dev, NULL, &cq));
	FAILS(-EINVAL, "uvio_dp_create_cq", "argument cq", uvio_dp_create_cq(dev, &ca, NULL));
	FAILS(-EINVAL, "uvio_dp_destroy_cq", "argument cq", uvio_dp_destroy_cq(NULL, NULL));
	FAILS(-EINVAL, "uvio_dp_destroy_cq", "argument cq", uvio_dp_destroy_cq(&gone_cq, NULL));
	FAILS(-EINVAL, "uvio_dp_resize_cq", "argument cq", uvio_dp_resize_cq(&gone_cq, 16));
	FAILS(-EINVAL, "uvio_dp_poll_cq", "argument cq", uvio_dp_poll_cq(NULL, wc, 1));
	FAILS(-EINVAL, "uvio_dp_poll_cq", "argument cq", uvio_dp_poll_cq(&gone_cq, wc, 1));
	FAILS(-EINVAL, "uvio_dp_poll_cq", "argument n", uvio_dp_poll_cq(&live_cq, wc, -1));
	FAILS(-EINVAL, "uvio_dp_poll_cq", "argument wc", uvio_dp_poll_cq(&live_cq, NULL, 1));
	FAILS(-EINVAL, "uvio_dp_arm_cq", "argument cq", uvio_dp_arm_cq(&gone_cq, 0));
	FAILS(-EINVAL, "uvio_dp_create_srq", "argument dev", uvio_dp_create_srq(NULL, &sa, &srq));
	FAILS(-EINVAL, "uvio_dp_create_srq", "argument attr", uvio_dp_create_srq(dev, NULL, &srq));
	FAILS(-EINVAL, "uvio_dp_create_srq", "argument srq", uvio_dp_create_srq(dev, &sa, NULL));
	FAILS(-EINVAL, "uvio_dp_destroy_srq", "argument srq", uvio_dp_destroy_srq(&gone_srq, NULL));
	FAILS(-EINVAL, "uvio_dp_modify_srq", "argument srq", uvio_dp_modify_srq(NULL, &sm));
	FAILS(-EINVAL, "uvio_dp_modify_srq", "argument attr", uvio_dp_modify_srq(&live_srq, NULL));
	FAILS(-EINVAL, "uvio_dp_create_qp", "argument dev", uvio_dp_create_qp(NULL, &qa, NULL, &qp));
	FAILS(-EINVAL, "uvio_dp_create_qp", "argument attr", uvio_dp_create_qp(dev, NULL, NULL, &qp));
	FAILS(-EINVAL, "uvio_dp_create_qp", "argument qp", uvio_dp_create_qp(dev, &qa, NULL, NULL));
	FAILS(-EINVAL, "uvio_dp_destroy_qp", "argument qp", uvio_dp_destroy_qp(&gone_qp, NULL));
	FAILS(-EINVAL, "uvio_dp_post_send", "argument qp", uvio_dp_post_send(NULL, &swr, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_post_send", "argument qp", uvio_dp_post_send(&gone_qp, &swr, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_post_send", "argument wr", uvio_dp_post_send(&live_qp, NULL, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_post_recv", "argument qp", uvio_dp_post_recv(&gone_qp, &rwr, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_post_recv", "argument wr", uvio_dp_post_recv(&live_qp, NULL, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_post_srq_recv", "argument srq",
	      uvio_dp_post_srq_recv(&gone_srq, &rwr, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_post_srq_recv", "argument wr",
	      uvio_dp_post_srq_recv(&live_srq, NULL, 1, &bad));
	FAILS(-EINVAL, "uvio_dp_create_ah", "argument dev", uvio_dp_create_ah(NULL, &aa, &ah));
	FAILS(-EINVAL, "uvio_dp_create_ah", "argument attr", uvio_dp_create_ah(dev, NULL, &ah));
	FAILS(-EINVAL, "uvio_dp_create_ah", "argument ah", uvio_dp_create_ah(dev, &aa, NULL));
	FAILS(-EINVAL, "uvio_dp_destroy_ah", "argument ah", uvio_dp_destroy_ah(NULL));
	/* Successes leave the text. */
	KEEPS(0, uvio_dp_post_send(&live_qp, NULL, 0, &bad));
	KEEPS(0, uvio_device_set_path(dev, UVIO_PATH_AUTO));
	uvio_device_close(dev);
	report();
}

/* lib/cm: the handle, and each command's arguments. */
static void connection_manager(void **state)
{
	struct uvio_cm *cm = (struct uvio_cm *)1;
	struct ib_uverbs_qp_attr k = { 0 };
	struct uvio_qp_attr a = { .sz = sizeof(a) }, small = { .sz = 4 };
	struct rdma_ucm_event_resp ev;
	struct uvio_device *dev;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	uint32_t id;
	(void)state;

	failures = 0;
	fake_reset();
	FAILS(-EINVAL, "uvio_cm_open", "argument cm", uvio_cm_open(NULL));
	FAILS(-EINVAL, "uvio_cm_adopt", "argument cm", uvio_cm_adopt(3, NULL));
	FAILS(-EINVAL, "uvio_cm_adopt", "argument fd", uvio_cm_adopt(-1, &cm));
	FAILS(-EINVAL, "uvio_cm_fd", "argument cm", uvio_cm_fd(NULL));
	FAILS(-EINVAL, "CREATE_ID", "argument cm", uvio_cm_create_id(NULL, 1, RDMA_PS_TCP, 2, &id));
	FAILS(-EINVAL, "CREATE_ID", "argument id", uvio_cm_create_id(NULL, 1, RDMA_PS_TCP, 2, NULL));
	FAILS(-EINVAL, "DESTROY_ID", "argument cm", uvio_cm_destroy_id(NULL, 1, NULL));
	FAILS(-EINVAL, "BIND", "argument cm", uvio_cm_bind(NULL, 1, (struct sockaddr *)&sin,
							   sizeof(sin)));
	FAILS(-EINVAL, "LISTEN", "argument cm", uvio_cm_listen(NULL, 1, 1));
	FAILS(-EINVAL, "DISCONNECT", "argument cm", uvio_cm_disconnect(NULL, 1));
	FAILS(-EINVAL, "QUERY", "argument cm", uvio_cm_device_open(NULL, 1, &dev));
	FAILS(-EINVAL, "INIT_QP_ATTR", "argument cm", uvio_cm_modify_qp(NULL, 1, 3, NULL, 0));
	FAILS(-EINVAL, "GET_EVENT", "argument cm", uvio_cm_get_event(NULL, &ev, sizeof(ev)));
	FAILS(-EINVAL, "uvio_cm_qp_attr", "argument k", uvio_cm_qp_attr(NULL, &a));
	FAILS(-EINVAL, "uvio_cm_qp_attr", "argument attr", uvio_cm_qp_attr(&k, NULL));
	FAILS(-EINVAL, "uvio_cm_qp_attr", "argument attr", uvio_cm_qp_attr(&k, &small));
	KEEPS(0, uvio_cm_qp_attr(&k, &a));
	report();
}

/* lib/device: handles, discovery, the path setting. */
static void devices(void **state)
{
	struct uvio_device *dev = device(RDMA_DRIVER_RXE), *d;
	struct uvio_device_info info;
	(void)state;

	failures = 0;
	fake_sysfs();
	setenv("UVERBS_IOCTL_DISCOVERY", "sysfs", 1);
	FAILS(-EINVAL, "uvio_device_open", "argument dev", uvio_device_open("fake0", NULL));
	FAILS(-EINVAL, "uvio_device_adopt", "argument dev", uvio_device_adopt(fake_uverbs_fd(), 0,
										 NULL));
	FAILS(-EINVAL, "uvio_device_adopt", "argument fd", uvio_device_adopt(-1, 0, &d));
	FAILS(-EBADF, "fd1000", "EBADF", uvio_device_adopt(1000, 0, &d));
	FAILS(-EINVAL, "uvio_device_set_path", "argument path", uvio_device_set_path(dev, 42));
	FAILS(-EINVAL, "uvio_find_device", "argument name", uvio_find_device(NULL, &info));
	FAILS(-EINVAL, "uvio_find_device", "argument info", uvio_find_device("fake0", NULL));
	FAILS(-ENODEV, "uvio_find_device", "nosuchdev", uvio_find_device("nosuchdev", &info));
	FAILS(-EINVAL, "uvio_find_device", "shorter than 1.0's",
	      uvio_find_device_sz("fake0", &info, sizeof(info) - 1));
	FAILS(-EINVAL, "uvio_list_devices", "shorter than 1.0's", uvio_list_devices_sz(&info, 1, 4));
	struct uvio_device_stats st;
	FAILS(-EINVAL, "uvio_device_get_stats", "argument stats",
	      uvio_device_get_stats_sz(dev, &st, 4));
	FAILS(-EINVAL, "uvio_device_get_stats", "argument stats", uvio_device_get_stats(dev, NULL));
	setenv("UVERBS_IOCTL_PATH", "sideways", 1);
	FAILS(-EINVAL, "UVERBS_IOCTL_PATH", "sideways", uvio_device_adopt(fake_uverbs_fd(), 0, &d));
	unsetenv("UVERBS_IOCTL_PATH");
	/* A kernel that refuses every driver id. */
	fake.on_ioctl = wrong_id;
	FAILS(-ENOENT, "driver id", "ENOENT", uvio_device_adopt(fake_uverbs_fd(),
								  UVIO_DRIVER_ID_PROBE, &d));
	/* Found by refused commands: no failure. */
	fake.on_ioctl = knows_nothing_but_id_14;
	KEEPS(0, uvio_device_adopt(fake_uverbs_fd(), UVIO_DRIVER_ID_PROBE, &d));
	if (d)
		assert_int_equal(uvio_device_driver_id(d), 14);
	uvio_device_close(d);
	unsetenv("UVERBS_IOCTL_DISCOVERY");
	uvio_device_close(dev);
	report();
}

static int inner_ret;
static char inner_msg[384];

static void set_log_inside(int level, const char *msg, void *ctx)
{
	(void)level; (void)msg; (void)ctx;
	uvio_set_last_error("%s", OLDER);
	inner_ret = uvio_set_log(NULL, NULL, NULL);
	snprintf(inner_msg, sizeof(inner_msg), "%s", uvio_last_error());
}

/* lib/cmd, lib/diag, lib/report and the connection manager's decoder. */
static void commands_and_diagnostics(void **state)
{
	uint8_t cm_buf[64] = { 0 };
	struct uvio_attr_desc desc = { .sz = sizeof(desc) };
	struct uvio_write_desc wdesc = { .sz = sizeof(wdesc) };
	uint16_t o, m, at;
	uint64_t addr;
	uint32_t len, h;
	char out[64];
	int fd;
	(void)state;

	failures = 0;
	fake_reset();
	{
		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);

		FAILS(-EINVAL, "uvio_cmd_set_layout", "layout", uvio_cmd_set_layout(&cmd, 9));
		FAILS(-EINVAL, "uvio_cmd_finish", "layout", uvio_cmd_finish(&cmd));
	}
	{
		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);

		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
		uvio_put_fd_new(&cmd, 0x77);
		fake.on_ioctl = busy;
		FAILS(-EBUSY, "CQ.CREATE", "EBUSY", uvio_cmd_exec(3, &cmd));
		FAILS(-ENOENT, "uvio_cmd_read_handle", "0x0009", uvio_cmd_read_handle(&cmd, 9, &h));
		FAILS(-ENODATA, "uvio_cmd_read_handle", "ENODATA",
		      uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h));
		FAILS(-ENOENT, "uvio_cmd_read_fd", "0x0009", uvio_cmd_read_fd(&cmd, 9, &fd));
		FAILS(-ENODATA, "uvio_cmd_read_fd", "ENODATA", uvio_cmd_read_fd(&cmd, 0x77, &fd));
	}
	fake.on_ioctl = NULL;	/* ENOTTY: no verbs ioctl */
	FAILS(-ENOTTY, "probe on fd 3", "ENOTTY",
	      uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE));
	FAILS(-EINVAL, "uvio_fw_ver_str", "argument buf", uvio_fw_ver_str(1, NULL, 0));
	FAILS(-ENOSPC, "uvio_fw_ver_str", "argument len", uvio_fw_ver_str(1, out, 3));
	FAILS(-ENOENT, "uvio_describe_attr", "0x03ff", uvio_describe_attr(0x3ff, 0, 0, &desc));
	FAILS(-EINVAL, "uvio_describe_attr", "argument desc",
	      uvio_describe_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 0, NULL));
	FAILS(-ENOENT, "uvio_driver_describe_attr", "0x03ff",
	      uvio_driver_describe_attr(RDMA_DRIVER_RXE, 0x3ff, 0, 0, &desc));
	FAILS(-ENOENT, "uvio_describe_write_cmd", "9999", uvio_describe_write_cmd(9999, &wdesc));
	FAILS(-EINVAL, "uvio_describe_write_cmd", "argument desc",
	      uvio_describe_write_cmd(IB_USER_VERBS_CMD_CREATE_CQ, NULL));
	/* The end of an iteration is no failure. */
	KEEPS(-ENOENT, uvio_known_method(1u << 20, &o, &m));
	KEEPS(-ENOENT, uvio_known_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 1000, &at));
	KEEPS(-ENOENT, uvio_known_write_cmd(1u << 20, &len));
	/* A probe's commands are refused on purpose: its answer is no failure. */
	fake.on_ioctl = knows_nothing_but_id_14;
	KEEPS(0, uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, 0x77));
	KEEPS(1, uvio_probe_method(3, 14, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE));

	FAILS(-EINVAL, "uvio_cm_cmd_response", "argument buf",
	      uvio_cm_cmd_response(NULL, 0, &addr, &len));
	cm_buf[0] = 0xee;	/* no rdma_cm command has this number */
	FAILS(-EINVAL, "uvio_cm_cmd_response", "238",
	      uvio_cm_cmd_response(cm_buf, sizeof(cm_buf), &addr, &len));
	FAILS(-EFAULT, "uvio_decode_cm", "argument buf", uvio_decode_cm(NULL, 8, NULL, 0, 0, out,
									sizeof(out)));
	FAILS(-EINVAL, "uvio_decode_cm", "argument flags",
	      uvio_decode_cm(cm_buf, sizeof(cm_buf), NULL, 0, 0x80, out, sizeof(out)));
	FAILS(-EINVAL, "uvio_decode_cm", "argument len", uvio_decode_cm(cm_buf, 2, NULL, 0, 0, out,
									sizeof(out)));

	/* The decoders: bytes too few for a header, and arguments refused. */
	{
		struct uvio_decode_opts dopts = { .sz = sizeof(dopts) };

		FAILS(-EINVAL, "uvio_decode", "argument len",
		      uvio_decode(cm_buf, 10, UVIO_LAYOUT_CURRENT, out, sizeof(out)));
		FAILS(-EINVAL, "uvio_decode", "layout 7",
		      uvio_decode(cm_buf, 24, (enum uvio_layout)7, out, sizeof(out)));
		FAILS(-EFAULT, "uvio_decode_cmd", "argument buf",
		      uvio_decode_cmd(NULL, 24, NULL, out, sizeof(out)));
		FAILS(-EFAULT, "uvio_decode_cmd", "argument out",
		      uvio_decode_cmd(cm_buf, 24, NULL, NULL, 8));
		dopts.flags = 0x100;
		FAILS(-EINVAL, "uvio_decode_cmd", "flags 0x100",
		      uvio_decode_cmd(cm_buf, 24, &dopts, out, sizeof(out)));
		dopts.flags = 0;
		dopts.reserved = 1;
		FAILS(-EINVAL, "uvio_decode_cmd", "reserved",
		      uvio_decode_cmd(cm_buf, 24, &dopts, out, sizeof(out)));
		dopts.reserved = 0;
		dopts.sz = 2;
		FAILS(-EINVAL, "uvio_decode_cmd", "argument opts",
		      uvio_decode_cmd(cm_buf, 24, &dopts, out, sizeof(out)));
		/* an older caller's struct, up to layout: checked the same */
		dopts.sz = offsetof(struct uvio_decode_opts, flags);
		dopts.layout = (enum uvio_layout)7;
		FAILS(-EINVAL, "uvio_decode_cmd", "layout 7",
		      uvio_decode_cmd(cm_buf, 24, &dopts, out, sizeof(out)));
		dopts.layout = UVIO_LAYOUT_CURRENT;
		dopts.sz = sizeof(dopts);
		dopts.flags = UVIO_DECODE_WRITE;
		FAILS(-EINVAL, "uvio_decode_cmd", "a write() command",
		      uvio_decode_cmd(cm_buf, 4, &dopts, out, sizeof(out)));
		FAILS(-EINVAL, "uvio_decode_write", "argument len",
		      uvio_decode_write(cm_buf, 4, NULL, 0, out, sizeof(out)));
		FAILS(-EFAULT, "uvio_decode_write", "argument resp",
		      uvio_decode_write(cm_buf, 16, NULL, 8, out, sizeof(out)));
		FAILS(-EINVAL, "uvio_cmd_format", "argument cmd", uvio_cmd_format(NULL, out, 8));
	}
	{
		UVIO_CMD_DEFINE(cmd, 1, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);

		FAILS(-EFAULT, "uvio_cmd_format", "argument out", uvio_cmd_format(&cmd, NULL, 8));
		/* the text of a decoded command is no failure */
		KEEPS(1, uvio_cmd_format(&cmd, out, sizeof(out)) > 0);
	}

	/* The event fds (read() is not wrapped: fds of this process). */
	{
		struct uvio_async_event aev = { .sz = sizeof(aev) };
		struct uvio_comp_event cev = { .sz = sizeof(cev) };
		int pipefd[2];

		FAILS(-EINVAL, "uvio_decode_async_event", "argument buf",
		      uvio_decode_async_event(NULL, 16, &aev));
		FAILS(-EINVAL, "uvio_decode_async_event", "argument len",
		      uvio_decode_async_event(cm_buf, 15, &aev));
		FAILS(-EINVAL, "uvio_decode_comp_event", "argument ev",
		      uvio_decode_comp_event(cm_buf, 8, NULL));
		FAILS(-EINVAL, "uvio_get_async_event", "argument ev", uvio_get_async_event(0, NULL));
		FAILS(-EBADF, "uvio_get_comp_event", "argument fd", uvio_get_comp_event(-1, &cev));
		assert_int_equal(pipe(pipefd), 0);
		assert_int_equal(uvio_event_fd_set_nonblock(pipefd[0], true), 0);
		FAILS(-EAGAIN, "uvio_get_comp_event", "EAGAIN", uvio_get_comp_event(pipefd[0], &cev));
		assert_int_equal(__real_write(pipefd[1], "abc", 3), 3);
		FAILS(-EIO, "uvio_get_comp_event", "short", uvio_get_comp_event(pipefd[0], &cev));
		close(pipefd[0]);
		close(pipefd[1]);
		FAILS(-EBADF, "uvio_event_fd_set_nonblock", "EBADF",
		      uvio_event_fd_set_nonblock(pipefd[0], true));
	}
	/* Caller-built commands run as verbs, without a device. */
	{
		UVIO_CMD_DEFINE(cmd, 1, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);

		FAILS(-EINVAL, "uvio_device_cmd_prepare", "argument dev",
		      uvio_device_cmd_prepare(NULL, &cmd));
		FAILS(-EINVAL, "uvio_device_exec", "argument dev", uvio_device_exec(NULL, &cmd, NULL));
		FAILS(-EINVAL, "uvio_device_write", "argument dev",
		      uvio_device_write(NULL, IB_USER_VERBS_CMD_ALLOC_PD, NULL, 0, NULL, 0, NULL,
					NULL));
	}

	/* From inside the log callback, uvio_set_log() would wait for itself. */
	uvio_set_log(set_log_inside, NULL, NULL);
	uvio_log(LOG_ERR, "line");
	uvio_set_log(NULL, NULL, NULL);
	expect("uvio_set_log() from the callback", inner_ret, -EDEADLK, "uvio_set_log", "EDEADLK");
	if (!strstr(inner_msg, "uvio_set_log")) {
		failures++;
		print_error("uvio_set_log() from the callback left \"%s\"\n", inner_msg);
	}
	report();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(data_path),
		cmocka_unit_test(connection_manager),
		cmocka_unit_test(devices),
		cmocka_unit_test(commands_and_diagnostics),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
