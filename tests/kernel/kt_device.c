/*
 * Device and context queries on the real kernel, on each device, three ways
 * (ioctl as the library picks it, write() pinned, write() by fallback under
 * the seccomp ENOTTY filter): GET_CONTEXT's core-support bits,
 * QUERY_CONTEXT, QUERY_DEVICE and its extended form, QUERY_PORT with every
 * field, the GID table against sysfs, and INFO_HANDLES against the CQs made
 * here. One syscall per verb, counted from outside. And the node numbers
 * the library trusts without sysfs, against sysfs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <uvio.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include "kt.h"
#include "syscount.h"

enum mode { M_IOCTL, M_WRITE, M_FILTER };
static const char *const mode_name[] = { "ioctl", "write", "filter" };

/* The GID at index i of port 1, as sysfs prints it; 0 when readable. */
static int sysfs_port_file(const char *dev, const char *file, char *out, size_t size)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/%s", dev, file);
	return kt_sysfs_line(path, out, size);
}

static int sysfs_gid(const char *dev, unsigned int i, char *out, size_t size)
{
	char file[32];

	snprintf(file, sizeof(file), "gids/%u", i);
	return sysfs_port_file(dev, file, out, size);
}

/* The GID type sysfs states: "RoCE v2", or "IB/RoCE v1", which is RoCE v1
 * on an Ethernet port of a CA and IB otherwise (iWARP, node type 4: siw,
 * whose GIDs the method types IB). */
static unsigned int sysfs_gid_type(const char *dev, unsigned int i)
{
	char file[40], v[32], ll[32], nt[32], p[160];
	FILE *f;
	bool rnic = false;

	snprintf(file, sizeof(file), "gid_attrs/types/%u", i);
	if (!sysfs_port_file(dev, file, v, sizeof(v)) && !strcmp(v, "RoCE v2"))
		return IB_UVERBS_GID_TYPE_ROCE_V2;
	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/node_type", dev);
	f = fopen(p, "r");
	if (f) {
		rnic = fgets(nt, sizeof(nt), f) && nt[0] == '4';
		fclose(f);
	}
	return !sysfs_port_file(dev, "link_layer", ll, sizeof(ll)) && !strcmp(ll, "Ethernet") &&
	       !rnic ? IB_UVERBS_GID_TYPE_ROCE_V1 : IB_UVERBS_GID_TYPE_IB;
}

static void gid_text(const struct uvio_gid_entry *e, char *out, size_t size)
{
	const uint8_t *b = (const uint8_t *)e->gid;
	size_t n = 0;

	for (int i = 0; i < 16; i += 2)
		n += (size_t)snprintf(out + n, size - n, "%s%02x%02x", i ? ":" : "", b[i], b[i + 1]);
}

static void queries(const struct uvio_device_info *info, enum mode m)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_context_info, ci);
	UVIO_OPTS(uvio_port_attr, port);
	UVIO_OPTS(uvio_port_attr, port_w);
	struct ib_uverbs_query_device_resp qd;
	struct ib_uverbs_ex_query_device_resp qx;
	struct uvio_gid_entry gid, table[16];
	enum uvio_path p;
	bool ioctl = m == M_IOCTL;
	int n, empty_probe = 0;	/* one more GID query where the table has room */

	if (m == M_WRITE)
		setenv("UVERBS_IOCTL_PATH", "write", 1);
	if (m == M_FILTER)
		KT_EQ(kt_filter_verbs_ioctl(), 0);
	KT_EQ(uvio_device_open(info->name, &dev), 0);
	if (!dev)
		return;
	syscount_fd = uvio_device_fd(dev);
	syscount_ioctls = syscount_writes = 0;

	/* GET_CONTEXT asks for the core-support bits; the 6.1 core always
	 * reports optional MR access flags. write() has no field for them. */
	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	KT_EQ(ctx.core_support, ioctl ? IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS : 0);
	/* rxe and siw lack QUERY_CONTEXT; write() has no such command. */
	KT_EQ(uvio_query_context(dev, &ci, &p), -EOPNOTSUPP);
	KT_CHECK(strstr(uvio_last_error(), "DEVICE.QUERY_CONTEXT") != NULL, "%s",
		 uvio_last_error());

	KT_EQ(uvio_query_device(dev, &qd, &p), 0);
	KT_EQ(p, ioctl ? UVIO_PATH_INVOKE_WRITE : UVIO_PATH_WRITE);
	KT_EQ(uvio_query_device_ex(dev, &qx, sizeof(qx), &p), 0);
	KT_EQ(p, ioctl ? UVIO_PATH_INVOKE_WRITE : UVIO_PATH_WRITE);
	KT_CHECK(!memcmp(&qx.base, &qd, sizeof(qd)), "EX_QUERY_DEVICE base differs");
	KT_CHECK(qx.response_length >= offsetof(struct ib_uverbs_ex_query_device_resp, odp_caps),
		 "response_length %u", qx.response_length);
	/* A roomier struct than any kernel's (a newer header), full of junk:
	 * what the kernel did not fill reads zero, on every path. */
	{
		uint8_t big[1024];
		struct ib_uverbs_ex_query_device_resp *bx = (void *)big;
		size_t junk = 0;

		memset(big, 0xa5, sizeof(big));
		KT_EQ(uvio_query_device_ex(dev, bx, sizeof(big), &p), 0);
		KT_EQ(bx->response_length, qx.response_length);
		for (size_t i = bx->response_length; i < sizeof(big); i++)
			junk += big[i] != 0;
		KT_CHECK(!junk, "%zu bytes past response_length %u not zero", junk,
			 bx->response_length);
	}
	printf("  %s %s: max_qp %u max_cqe %u, ex response %u bytes, caps_ex 0x%llx\n",
	       mode_name[m], info->name, qd.max_qp, qd.max_cqe, qx.response_length,
	       (unsigned long long)qx.device_cap_flags_ex);

	KT_EQ(uvio_query_port(dev, 1, &port, &p), 0);
	KT_EQ(p, ioctl ? UVIO_PATH_IOCTL : UVIO_PATH_WRITE);
	KT_EQ(port.core.state, 4);
	KT_EQ(uvio_query_port(dev, 2, &port_w, &p), -EINVAL);	/* one port */
	printf("  %s %s: port 1 state %u speed %u cap_flags 0x%x cap_flags2 0x%x speed_ex %u\n",
	       mode_name[m], info->name, port.core.state, port.core.active_speed,
	       port.core.port_cap_flags, port.port_cap_flags2, port.active_speed_ex);

	/* GID table: the methods on the ioctl path, sysfs on write() (which
	 * has no GID command). Either way every entry is the one sysfs shows
	 * at that index, with the type sysfs states. */
	n = uvio_query_gid_table(dev, table, 16, &p);
	KT_CHECK(n >= 1, "gid table: %d", n);
	KT_EQ(p, ioctl ? UVIO_PATH_IOCTL : UVIO_PATH_SYSFS);
	for (int i = 0; i < n; i++) {
		char want[64], got[64];

		gid_text(&table[i], got, sizeof(got));
		KT_EQ(sysfs_gid(info->name, table[i].gid_index, want, sizeof(want)), 0);
		KT_CHECK(!strcmp(got, want), "gid %u: %s, sysfs %s", table[i].gid_index,
			 got, want);
		KT_EQ(table[i].port_num, 1);
		KT_EQ(table[i].gid_type, sysfs_gid_type(info->name, table[i].gid_index));
	}
	if (n >= 1) {
		KT_EQ(uvio_query_gid_entry(dev, 1, table[0].gid_index, &gid, &p), 0);
		KT_EQ(p, ioctl ? UVIO_PATH_IOCTL : UVIO_PATH_SYSFS);
		KT_CHECK(!memcmp(&gid, &table[0], sizeof(gid)), "entry differs from table");
		printf("  %s %s: %d GIDs (%s), [0] type %u ifindex %u\n", mode_name[m], info->name,
		       n, uvio_path_name(p), gid.gid_type, gid.netdev_ifindex);
	}
	/* Past the table: EINVAL; inside it but empty: ENODATA (rxe has 1024
	 * slots, siw a single one). */
	KT_EQ(uvio_query_gid_entry(dev, 1, port.core.gid_tbl_len, &gid, &p), -EINVAL);
	if (port.core.gid_tbl_len > (uint32_t)n && ++empty_probe)
		KT_EQ(uvio_query_gid_entry(dev, 1, port.core.gid_tbl_len - 1, &gid, &p), -ENODATA);

	/* INFO_HANDLES sees the CQs this context made. */
	{
		UVIO_OPTS(uvio_cq_attr, attr, .cqe = 8);
		UVIO_OPTS(uvio_cq, cq1);
		UVIO_OPTS(uvio_cq, cq2);
		uint32_t h[8];

		KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq1, NULL), 0);
		KT_EQ(uvio_create_cq(dev, &attr, NULL, &cq2, NULL), 0);
		n = uvio_info_handles(dev, UVERBS_OBJECT_CQ, h, 8, &p);
		if (ioctl) {
			KT_EQ(n, 2);
			KT_CHECK(n == 2 && ((h[0] == cq1.handle && h[1] == cq2.handle) ||
					    (h[1] == cq1.handle && h[0] == cq2.handle)),
				 "handles %u %u, made %u %u", h[0], h[1], cq1.handle, cq2.handle);
			/* the kernel stops at the room it was given */
			KT_EQ(uvio_info_handles(dev, UVERBS_OBJECT_CQ, h, 1, NULL), 1);
			KT_EQ(uvio_info_handles(dev, UVERBS_OBJECT_PD, h, 8, NULL), 0);
		} else {
			KT_EQ(n, -EOPNOTSUPP);
		}
		KT_EQ(uvio_destroy_cq(dev, cq1.handle, NULL, NULL), 0);
		KT_EQ(uvio_destroy_cq(dev, cq2.handle, NULL, NULL), 0);
	}
	printf("  %s on %s: %d ioctl + %d write syscalls\n", mode_name[m], info->name,
	       (int)syscount_ioctls, (int)syscount_writes);
	/* ioctl: GET_CONTEXT 2, QUERY_CONTEXT 1, QUERY_DEVICE(_EX) 3, QUERY_PORT 2,
	 * GID table + entries 3 (4 with the empty slot), CQs 4, INFO_HANDLES 3.
	 * write(): GET_CONTEXT, QUERY_DEVICE(_EX) 3, QUERY_PORT x2, CQs 4 = 10;
	 * the filter adds its one refused ioctl; the method-only verbs cost
	 * nothing there. */
	KT_EQ(syscount_ioctls, m == M_IOCTL ? 18 + empty_probe : m == M_FILTER ? 1 : 0);
	KT_EQ(syscount_writes, m == M_IOCTL ? 0 : 10);
	close(ctx.async_fd);
	uvio_device_close(dev);
}

/* The library takes uverbs0-31 by their numbers, 231:192+N, without
 * asking sysfs: they must be the kernel's, as sysfs states them. */
static void node_numbers(const struct uvio_device_info *d)
{
	char p[160], got[32] = "", want[32];
	unsigned int n = (unsigned int)atoi(d->uverbs + strlen("uverbs"));
	struct stat st;
	FILE *f;

	KT_CHECK(!stat(d->path, &st) && S_ISCHR(st.st_mode), "%s: %s", d->path, strerror(errno));
	snprintf(p, sizeof(p), "/sys/class/infiniband_verbs/%s/dev", d->uverbs);
	f = fopen(p, "r");
	KT_CHECK(f && fgets(got, sizeof(got), f), "%s unreadable", p);
	if (f)
		fclose(f);
	got[strcspn(got, "\n")] = 0;
	snprintf(want, sizeof(want), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	KT_CHECK(!strcmp(got, want), "%s is %s, sysfs says %s", d->path, want, got);
	if (n < 32)
		KT_CHECK(major(st.st_rdev) == 231 && minor(st.st_rdev) == 192 + n,
			 "%s is %s, not 231:%u", d->uverbs, want, 192 + n);
	printf("%s: %s, %s\n", d->name, d->uverbs, want);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device listed: %d", n);
	for (int i = 0; i < n && i < 8; i++) {
		node_numbers(&devs[i]);
		for (int m = M_IOCTL; m <= M_FILTER; m++) {
			pid_t pid = fork();
			int status;

			if (pid == 0) {
				kt_failures = 0;	/* this child's own failures only */
				queries(&devs[i], (enum mode)m);
				_exit(kt_failures ? 1 : 0);
			}
			waitpid(pid, &status, 0);
			KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				 "%s on %s failed", mode_name[m], devs[i].name);
		}
	}
	return kt_exit();
}
