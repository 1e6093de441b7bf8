/*
 * Every verb of the library on the real kernel, on each device, three ways:
 *   ioctl  - the path the library picks by itself on this kernel;
 *   write  - pinned with UVERBS_IOCTL_PATH=write;
 *   filter - a seccomp filter makes the verbs ioctl answer ENOTTY, and the
 *            library must fall back to write() on its own, once.
 * Each way runs in a child process. Syscalls are counted by syscount.c,
 * in front of libc, not by the library; `rdma resource show` is the witness of what the kernel holds.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uvio.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include "kt.h"
#include "syscount.h"

enum mode { M_IOCTL, M_WRITE, M_FILTER };
static const char *const mode_name[] = { "ioctl", "write", "filter" };

static bool is_siw(const char *name)
{
	return !strncmp(name, "siw", 3);
}

/* On the ioctl path a verb uses its own method, or INVOKE_WRITE where the
 * kernel has only its write() command. */
static void check_path(enum mode m, const char *verb, enum uvio_path got, bool has_native)
{
	enum uvio_path want = m != M_IOCTL ? UVIO_PATH_WRITE :
			      has_native ? UVIO_PATH_IOCTL : UVIO_PATH_INVOKE_WRITE;

	KT_CHECK(got == want, "%s ran over %s, expected %s", verb, uvio_path_name(got),
		 uvio_path_name(want));
}

static void all_verbs(const struct uvio_device_info *info, enum mode m)
{
	struct ib_uverbs_query_device_resp qd;
	UVIO_OPTS(uvio_port_attr, qp);
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_events_reported, ev);
	UVIO_OPTS(uvio_mr, mr);
	enum uvio_path p;
	uint32_t pd;
	UVIO_OPTS(uvio_comp_channel, channel);
	int pid = getpid();
	char want[64];
	void *buf;

	if (m == M_WRITE)
		setenv("UVERBS_IOCTL_PATH", "write", 1);
	if (m == M_FILTER)
		KT_EQ(kt_filter_verbs_ioctl(), 0);
	KT_EQ(uvio_device_open(info->name, &dev), 0);
	if (!dev)
		return;
	KT_EQ(uvio_device_driver_id(dev), info->driver_id);
	syscount_fd = uvio_device_fd(dev);
	syscount_ioctls = syscount_writes = 0;

	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	check_path(m, "GET_CONTEXT", p, true);
	KT_CHECK(ctx.async_fd > 2, "async fd %d", ctx.async_fd);
	KT_CHECK(ctx.num_comp_vectors > 0, "num_comp_vectors %u", ctx.num_comp_vectors);
	/* the kernel's own list of contexts, on every path (5.10's netlink has
	 * none to show: `rdma resource show ctx` lists nothing there) */
	KT_EQ(kt_rdma_res_count("ctx", info->name, pid), kt_per_kernel(0, 1, 1, 1));

	KT_EQ(uvio_query_device(dev, &qd, &p), 0);
	check_path(m, "QUERY_DEVICE", p, false);
	KT_CHECK(qd.max_cqe >= 16, "max_cqe %u", qd.max_cqe);
	KT_EQ(uvio_query_port(dev, 1, &qp, &p), 0);
	check_path(m, "QUERY_PORT", p, true);
	KT_EQ(qp.core.state, 4);	/* IB_PORT_ACTIVE */

	KT_EQ(uvio_create_comp_channel(dev, &channel, &p), 0);
	check_path(m, "CREATE_COMP_CHANNEL", p, false);

	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16, .user_handle = 0xabc, .channel = &channel);
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	check_path(m, "CQ.CREATE", p, true);
	KT_EQ(cq.cqe, is_siw(info->name) ? 16 : 31);
	snprintf(want, sizeof(want), "cqe %u ", cq.cqe);
	KT_EQ(kt_rdma_res_find("cq", info->name, pid, want), 1);

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, &p), 0);
	check_path(m, "PD.ALLOC", p, false);
	buf = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* siw wants its request (struct siw_ureq_reg_mr, 8 bytes) as driver
	 * input, as its libibverbs provider sends it; rxe wants none. */
	uint64_t siw_req = 0, siw_resp = 0;
	UVIO_OPTS(uvio_drv, siw_drv, .in = &siw_req, .in_len = sizeof(siw_req),
		  .out = &siw_resp, .out_len = sizeof(siw_resp));
	UVIO_OPTS(uvio_mr_attr, mr_attr, .pd_handle = pd, .addr = buf, .length = 65536,
		  .iova = (uintptr_t)buf, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(dev, &mr_attr, is_siw(info->name) ? &siw_drv : NULL, &mr, &p), 0);
	check_path(m, "MR.REG", p, false);
	KT_EQ(kt_rdma_res_count("pd", info->name, pid), 1);
	KT_EQ(kt_rdma_res_count("mr", info->name, pid), 1);

	KT_EQ(uvio_dereg_mr(dev, mr.handle, &p), 0);
	check_path(m, "MR.DESTROY", p, true);
	KT_EQ(uvio_dealloc_pd(dev, pd, &p), 0);
	check_path(m, "PD.DESTROY", p, true);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, &ev, &p), 0);
	check_path(m, "CQ.DESTROY", p, true);
	KT_EQ(ev.comp_events_reported, 0);

	/* Counted here: 10 verbs. ioctl: GET_CONTEXT takes 2 ioctls (the
	 * async fd is a second command), 5 more verbs by their methods, 4 by
	 * INVOKE_WRITE. write: 10 writes. filter: 10 writes and the one
	 * refused ioctl. */
	printf("  %s on %s: %d ioctl + %d write syscalls for 10 verbs\n", mode_name[m],
	       info->name, (int)syscount_ioctls, (int)syscount_writes);
	KT_EQ(syscount_ioctls, m == M_IOCTL ? 11 : m == M_FILTER ? 1 : 0);
	KT_EQ(syscount_writes, m == M_IOCTL ? 0 : 10);
	KT_EQ(uvio_device_path(dev), m == M_IOCTL ? UVIO_PATH_IOCTL : UVIO_PATH_WRITE);

	KT_EQ(kt_rdma_res_count("cq", info->name, pid), 0);
	KT_EQ(kt_rdma_res_count("pd", info->name, pid), 0);
	KT_EQ(kt_rdma_res_count("mr", info->name, pid), 0);
	close(channel.fd);
	close(ctx.async_fd);
	munmap(buf, 65536);
	uvio_device_close(dev);
	/* the context goes with the last fd */
	KT_EQ(kt_rdma_res_count("ctx", info->name, pid), 0);
}

static void log_line(int level, const char *msg, void *ctx)
{
	(void)level; (void)ctx;
	printf("  log: %s\n", msg);
}

/* Bad requests: the kernel's errno comes through, with a log line. */
static void bad_requests(const struct uvio_device_info *info)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	uint8_t small[4];
	UVIO_OPTS(uvio_drv, tiny, .out = small, .out_len = 4);
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);

	uvio_set_log(log_line, NULL, NULL);
	KT_EQ(uvio_device_open(info->path, &dev), 0);
	if (!dev)
		return;
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq, &p), -EINVAL);	/* no context yet */
	if (is_siw(info->name))	/* siw needs 8 bytes of driver response */
		KT_EQ(uvio_get_context(dev, &tiny, &ctx, &p), -EINVAL);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), -EINVAL);	/* twice */
	KT_EQ(uvio_create_cq(dev, &attr, &tiny, &cq, &p), -EINVAL);	/* 4 < 16 bytes */
	attr.cqe = 1u << 30;
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq, &p), -EINVAL);
	KT_EQ(uvio_destroy_cq(dev, 4242, NULL, &p), -ENOENT);
	attr.cqe = 16;
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, &p), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, &p), -ENOENT);	/* twice */
	/* Flags on write(): the extended command carries them. Bit 0 (the
	 * completion timestamp) is refused by these drivers, so the kernel's
	 * answer shows the flag reached it rather than being dropped. */
	attr.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
	uvio_device_set_path(dev, UVIO_PATH_WRITE);
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq, &p), -EOPNOTSUPP);
	KT_EQ(p, UVIO_PATH_WRITE);
	close(ctx.async_fd);
	uvio_device_close(dev);
	uvio_set_log(NULL, NULL, NULL);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n;

	uvio_set_log(log_line, NULL, NULL);
	n = uvio_list_devices(devs, 8);
	uvio_set_log(NULL, NULL, NULL);

	KT_CHECK(n > 0, "no device listed: %d", n);
	for (int i = 0; i < n && i < 8; i++) {
		const struct uvio_device_info *d = &devs[i];

		printf("device %s %s index %u driver_id %u (%s) abi %u ports %u node_type %u\n",
		       d->name, d->path, d->index, d->driver_id,
		       d->driver_id_known ? "netlink" : "unknown", d->abi_version,
		       d->num_ports, d->node_type);
		KT_EQ(d->source, UVIO_SOURCE_NETLINK);
		KT_EQ(d->driver_id_known, 1);
		KT_EQ(d->driver_id, is_siw(d->name) ? 18 : 14);
		KT_EQ(d->num_ports, 1);
		for (int m = M_IOCTL; m <= M_FILTER; m++) {
			pid_t pid = fork();
			int status;

			if (pid == 0) {
				kt_failures = 0;	/* this child's own failures only */
				all_verbs(d, (enum mode)m);
				_exit(kt_failures ? 1 : 0);
			}
			waitpid(pid, &status, 0);
			KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				 "%s on %s failed", mode_name[m], d->name);
			/* the child's objects went with its fds */
			KT_EQ(kt_rdma_res_count("cq", d->name, pid), 0);
		}
		bad_requests(d);
	}
	/* sysfs as the second source lists the same nodes */
	{
		struct uvio_device_info s[8];

		setenv("UVERBS_IOCTL_DISCOVERY", "sysfs", 1);
		KT_EQ(uvio_list_devices(s, 8), n);
		for (int i = 0; i < n && i < 8; i++) {
			KT_CHECK(!strcmp(s[i].name, devs[i].name) && !strcmp(s[i].path, devs[i].path),
				 "sysfs %s %s vs netlink %s %s", s[i].name, s[i].path,
				 devs[i].name, devs[i].path);
			KT_EQ(s[i].source, UVIO_SOURCE_SYSFS);
			KT_EQ(s[i].abi_version, devs[i].abi_version);
			KT_EQ(s[i].num_ports, devs[i].num_ports);
		}
		unsetenv("UVERBS_IOCTL_DISCOVERY");
	}
	return kt_exit();
}
