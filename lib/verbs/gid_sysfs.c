// SPDX-License-Identifier: MIT
/*
 * GID entries read from sysfs, where no command can ask the kernel: on the
 * write() path (there is no GID write() command) and on kernels without the
 * GID methods. Each entry is what QUERY_GID_ENTRY would answer, from
 * /sys/class/infiniband/DEV/ports/PORT/{gids,gid_attrs/types,
 * gid_attrs/ndevs}/INDEX, the port's link_layer and the node type. Several files per entry:
 * a fallback, not the one-syscall command path.
 */
#include <net/if.h>
#include <stdio.h>
#include "verb.h"
#include "gid_sysfs.h"
#include "device/discover.h"

/*
 * The IB device's name, which the sysfs paths need: known when the device
 * was opened by name; for an adopted fd read now from its uverbs class
 * entry (nothing is cached: a shared handle stays unchanged, and this is
 * the fallback path).
 */
static int ibdev_name(const struct uvio_device *dev, char name[64])
{
	char uverbs[32], p[320];

	if (dev->ibdev[0]) {
		snprintf(name, 64, "%s", dev->ibdev);
		return 0;
	}
	if (uvio_uverbs_fd_check(dev->fd, uverbs, sizeof(uverbs)))
		return -EOPNOTSUPP;
	snprintf(p, sizeof(p), "%s/class/infiniband_verbs/%s/ibdev", uvio_sysfs_root, uverbs);
	return uvio_sysfs_read(p, name, 64) || !name[0] ? -EOPNOTSUPP : 0;
}

static int port_file(const char *ibdev, uint32_t port, const char *file, char *buf, size_t size)
{
	char p[384];

	snprintf(p, sizeof(p), "%s/class/infiniband/%s/ports/%u/%s", uvio_sysfs_root, ibdev, port,
		 file);
	return uvio_sysfs_read(p, buf, size);
}

static bool node_is_rnic(const char *ibdev)
{
	char p[320], v[32];

	snprintf(p, sizeof(p), "%s/class/infiniband/%s/node_type", uvio_sysfs_root, ibdev);
	return !uvio_sysfs_read(p, v, sizeof(v)) && v[0] == '4';	/* "4: RNIC" */
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "fe80:0000:0000:0000:5054:00ff:fe12:3456": eight groups of four digits. */
static int parse_gid(const char *s, uint8_t gid[16])
{
	for (int i = 0; i < 16; i++) {
		int hi, lo;

		if (i && !(i & 1) && *s++ != ':')
			return -EIO;
		hi = hexval(s[0]);
		lo = hi < 0 ? -1 : hexval(s[1]);
		if (lo < 0)
			return -EIO;
		gid[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
	}
	return *s ? -EIO : 0;
}

static int entry_of(const char *ibdev, uint32_t port, uint32_t index, struct uvio_gid_entry *e)
{
	static const uint8_t zero[16];
	char file[64], v[64];
	uint8_t gid[16];
	bool roce;
	int ret;

	snprintf(file, sizeof(file), "gids/%u", index);
	ret = port_file(ibdev, port, file, v, sizeof(v));
	/* No such port or index: what the method answers. */
	if (ret == -ENOENT)
		return -EINVAL;
	if (ret)
		return ret;
	ret = parse_gid(v, gid);
	if (ret)
		return ret;
	if (!memcmp(gid, zero, sizeof(gid)))
		return -ENODATA;	/* an empty slot, as the method says */
	memset(e, 0, sizeof(*e));
	memcpy(e->gid, gid, sizeof(gid));
	e->gid_index = index;
	e->port_num = port;
	/* sysfs writes "IB/RoCE v1" for IB and RoCE v1 alike: RoCE v1 is an
	 * Ethernet port of a CA; iWARP (an RNIC, node type 4) is IB. */
	roce = !port_file(ibdev, port, "link_layer", v, sizeof(v)) && !strcmp(v, "Ethernet") &&
	       !node_is_rnic(ibdev);
	snprintf(file, sizeof(file), "gid_attrs/types/%u", index);
	if (!port_file(ibdev, port, file, v, sizeof(v)) && !strcmp(v, "RoCE v2"))
		e->gid_type = IB_UVERBS_GID_TYPE_ROCE_V2;
	else
		e->gid_type = roce ? IB_UVERBS_GID_TYPE_ROCE_V1 : IB_UVERBS_GID_TYPE_IB;
	snprintf(file, sizeof(file), "gid_attrs/ndevs/%u", index);
	if (!port_file(ibdev, port, file, v, sizeof(v)))
		e->netdev_ifindex = if_nametoindex(v);
	return 0;
}

int gid_sysfs_entry(const struct uvio_device *dev, uint32_t port, uint32_t index,
		    struct uvio_gid_entry *e)
{
	char ibdev[64];
	int ret = ibdev_name(dev, ibdev);

	return ret ? ret : entry_of(ibdev, port, index, e);
}

/* Ports are numbered from 1 without gaps, GID indexes from 0: both end
 * where the files do, as QUERY_GID_TABLE walks them. */
int gid_sysfs_table(const struct uvio_device *dev, struct uvio_gid_entry *entries,
		    size_t max, size_t *n)
{
	struct uvio_gid_entry e;
	uint32_t port, index;
	char ibdev[64];
	int ret;

	*n = 0;
	ret = ibdev_name(dev, ibdev);
	if (ret)
		return ret;
	for (port = 1;; port++) {
		for (index = 0;; index++) {
			ret = entry_of(ibdev, port, index, &e);
			if (ret == -ENODATA)
				continue;
			if (ret)
				break;
			/* More entries than room: the method's answer too. */
			if (*n == max)
				return -EINVAL;
			entries[(*n)++] = e;
		}
		if (ret != -EINVAL)
			return ret;
		if (!index)	/* no gids/0: no such port, the walk is over */
			return 0;
	}
}
