/*
 * What discovery says of each device's port 1 against what the guest's own
 * tools say: the netdev's name against `rdma link show DEV/1`, its ifindex
 * against /sys/class/net/NAME/ifindex, the transport against sysfs's
 * node_type and link_layer, and uvio_netdev_addrs() against
 * `ip -o addr show dev NAME`. Once as the library finds devices (RDMA
 * netlink) and once from sysfs alone (UVERBS_IOCTL_DISCOVERY=sysfs: siw's
 * GID entries name no netdev on 6.1, so the fallback must find it another
 * way).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <uvio.h>
#include "kt.h"

/* The transport the guest's sysfs implies. */
static uint32_t sysfs_transport(const char *dev)
{
	char p[160], nt[32], ll[32];

	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/node_type", dev);
	if (kt_sysfs_line(p, nt, sizeof(nt)))
		return UVIO_TRANSPORT_UNKNOWN;
	if (nt[0] == '4')
		return UVIO_TRANSPORT_IWARP;
	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/1/link_layer", dev);
	if (kt_sysfs_line(p, ll, sizeof(ll)))
		return UVIO_TRANSPORT_UNKNOWN;
	return !strcmp(ll, "Ethernet") ? UVIO_TRANSPORT_ROCE : UVIO_TRANSPORT_IB;
}

/* The netdev `rdma link show DEV/1` names ("... netdev eth0 ..."). */
static void rdma_link_netdev(const char *dev, char *out, size_t size)
{
	char cmd[128], buf[1024];
	const char *at;

	out[0] = 0;
	snprintf(cmd, sizeof(cmd), "rdma link show %s/1 2>&1", dev);
	kt_run(cmd, buf, sizeof(buf));
	at = strstr(buf, " netdev ");
	if (at)
		snprintf(out, size, "%.*s", (int)strcspn(at + 8, " \n"), at + 8);
}

static void check_device(const struct uvio_device_info *d, const char *how)
{
	char want[32], p[160], v[32], cmd[128], ip[8192], text[INET6_ADDRSTRLEN];
	struct sockaddr_storage a[16];
	int n, lines = 0;

	rdma_link_netdev(d->name, want, sizeof(want));
	printf("%s: %s port 1: netdev %s (ifindex %u), %s; rdma link says netdev %s\n", how,
	       d->name, d->netdev[0] ? d->netdev : "(none)", d->netdev_ifindex,
	       uvio_transport_name(d->transport), want[0] ? want : "(none)");
	KT_CHECK(want[0], "rdma link show %s/1 names no netdev", d->name);
	KT_CHECK(!strcmp(d->netdev, want), "%s: netdev %s, rdma link says %s", d->name, d->netdev,
		 want);
	snprintf(p, sizeof(p), "/sys/class/net/%s/ifindex", want);
	KT_CHECK(!kt_sysfs_line(p, v, sizeof(v)), "%s unreadable", p);
	KT_EQ(d->netdev_ifindex, strtoul(v, NULL, 10));
	KT_EQ(d->transport, sysfs_transport(d->name));
	KT_CHECK(d->transport == (d->driver_id == RDMA_DRIVER_SIW ? UVIO_TRANSPORT_IWARP
								  : UVIO_TRANSPORT_ROCE) ||
		 !d->driver_id_known, "%s: transport %s", d->name,
		 uvio_transport_name(d->transport));

	n = uvio_netdev_addrs(d->netdev_ifindex, a, 16);
	KT_CHECK(n >= 0, "uvio_netdev_addrs(%u): %d (%s)", d->netdev_ifindex, n,
		 uvio_last_error());
	snprintf(cmd, sizeof(cmd), "ip -o addr show dev %s", want);
	KT_EQ(kt_run(cmd, ip, sizeof(ip)), 0);
	for (const char *l = ip; (l = strstr(l, " inet")); l++)
		lines++;
	printf("%s: %s has %d addresses (ip lists %d):", how, want, n, lines);
	KT_EQ(n, lines);
	for (int i = 0; i < n && i < 16; i++) {
		const void *raw = a[i].ss_family == AF_INET
					  ? (const void *)&((struct sockaddr_in *)&a[i])->sin_addr
					  : (const void *)&((struct sockaddr_in6 *)&a[i])->sin6_addr;
		char needle[INET6_ADDRSTRLEN + 3];

		KT_CHECK(inet_ntop(a[i].ss_family, raw, text, sizeof(text)), "inet_ntop");
		printf(" %s", text);
		snprintf(needle, sizeof(needle), " %s/", text);
		KT_CHECK(strstr(ip, needle), "%s is not among ip's addresses of %s", text, want);
	}
	printf("\n");
}

static void check_all(const char *how)
{
	struct uvio_device_info devs[8], one;
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "%s: no device: %d", how, n);
	for (int i = 0; i < n && i < 8; i++) {
		check_device(&devs[i], how);
		KT_EQ(uvio_find_device(devs[i].name, &one), 0);
		KT_CHECK(!strcmp(one.netdev, devs[i].netdev) &&
			 one.netdev_ifindex == devs[i].netdev_ifindex &&
			 one.transport == devs[i].transport,
			 "%s: uvio_find_device and uvio_list_devices disagree", devs[i].name);
	}
}

int main(void)
{
	printf("kernel %s\n", kt_kernel_release());
	check_all("netlink");
	setenv("UVERBS_IOCTL_DISCOVERY", "sysfs", 1);
	check_all("sysfs");
	return kt_exit();
}
