// SPDX-License-Identifier: MIT
/*
 * Device discovery: RDMA netlink first (its answers parsed by libnl), sysfs
 * second.
 * Netlink's GET_CHARDEV is the only place the kernel states a device's
 * uverbs driver id (from about 5.3, and not for every driver); where it is
 * missing the id is probed at open.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <linux/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <rdma/rdma_netlink.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <uvio/device.h>
#include <uvio/diag.h>
#include "cmd/sys.h"
#include "device/discover.h"
#include "report/report.h"
#include "report/sbuf.h"

const char *uvio_sysfs_root = "/sys";

#ifdef UVIO_GROWTH_TEST
/* tests/package/growth: the grown library lists the devices of a sysfs
 * tree the test made (this library is never installed). */
__attribute__((constructor)) static void growth_sysfs(void)
{
	const char *root = getenv("UVIO_GROWTH_SYSFS");

	if (root)
		uvio_sysfs_root = root;
}
#endif

#define NLDEV(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd)

static struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_PORT_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_CHARDEV] = { .type = NLA_U64 },
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_NDEV_NAME] = { .type = NLA_STRING },
};

/* Every device present: the first few in the collector itself, more on the
 * heap as answers come (a fixed array would cap the devices a host may
 * have: SR-IOV hosts have hundreds). An open by IB name keeps only the
 * device it names, so that it touches no heap before the handle's own. */
#define COLLECT_LOCAL 4

struct collect {
	struct uvio_device_info *devs;	/* local, or the heap past it */
	size_t count, cap;
	size_t skipped;			/* devices not named by only */
	struct uvio_device_info *cur;	/* GET_CHARDEV target */
	const char *only;		/* keep and ask GET_CHARDEV for this name alone */
	bool ports;			/* find port 1's netdev and transport too */
	dev_t only_rdev;		/* its node, as GET_CHARDEV said it */
	int err;
	struct uvio_device_info local[COLLECT_LOCAL];
};

static void collect_init(struct collect *c, const char *only)
{
	c->devs = c->local;
	c->count = c->skipped = 0;
	c->cap = COLLECT_LOCAL;
	c->cur = NULL;
	c->only = only;
	c->ports = false;
	c->only_rdev = 0;
	c->err = 0;
}

static void collect_free(struct collect *c)
{
	if (c->devs != c->local)
		free(c->devs);
}

/* A zeroed entry at the end, or NULL (c->err = -ENOMEM). */
static struct uvio_device_info *slot(struct collect *c)
{
	if (c->count == c->cap) {
		size_t cap = 2 * c->cap;
		struct uvio_device_info *d = reallocarray(c->devs == c->local ? NULL : c->devs,
							  cap, sizeof(*d));

		if (!d) {
			c->err = -ENOMEM;
			return NULL;
		}
		if (c->devs == c->local)
			memcpy(d, c->local, sizeof(c->local));
		c->devs = d;
		c->cap = cap;
	}
	memset(&c->devs[c->count], 0, sizeof(c->devs[0]));
	return &c->devs[c->count++];
}

/* A string attribute (libnl's policy checked its length), cut to fit. */
static void copy_str(char *dst, size_t size, const struct nlattr *a)
{
	struct sbuf sb;

	sb_init(&sb, dst, size);
	sb_putn(&sb, nla_data(a), strnlen(nla_data(a), (size_t)nla_len(a)));
}

static void on_device(struct collect *c, struct nlmsghdr *h)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct uvio_device_info *d;
	char name[sizeof(d->name)];

	if (nlmsg_parse(h, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy) ||
	    !tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return;
	copy_str(name, sizeof(name), tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (c->only && strcmp(name, c->only)) {
		c->skipped++;	/* not the one asked for: counted, not kept */
		return;
	}
	d = slot(c);
	if (!d)
		return;
	memcpy(d->name, name, sizeof(name));
	d->source = UVIO_SOURCE_NETLINK;
	d->index = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		d->num_ports = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE])
		d->node_type = nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);
}

static void on_chardev(struct collect *c, struct nlmsghdr *h)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct uvio_device_info *d = c->cur;
	struct nlattr *id;
	struct sbuf sb;

	if (nlmsg_parse(h, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy) ||
	    !tb[RDMA_NLDEV_ATTR_CHARDEV_NAME])
		return;
	copy_str(d->uverbs, sizeof(d->uverbs), tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]);
	sb_init(&sb, d->path, sizeof(d->path));
	sb_puts(&sb, "/dev/infiniband/");
	sb_puts(&sb, d->uverbs);
	if (tb[RDMA_NLDEV_ATTR_CHARDEV_ABI])
		d->abi_version = (uint32_t)nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	/* The kernel's 32-bit encoding of a dev_t (minor's low byte, 12 bits
	 * of major, the rest of minor), not glibc's: unpacked field by field. */
	if (tb[RDMA_NLDEV_ATTR_CHARDEV] && c->only) {
		uint64_t v = nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV]);

		c->only_rdev = makedev((v >> 8) & 0xfff, (v & 0xff) | ((v >> 12) & 0xfff00));
	}
	/* Declared u64 in the UAPI comment, sent as 4 bytes: take either. */
	id = tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID];
	if (id && nla_len(id) == 4) {
		d->driver_id = nla_get_u32(id);
		d->driver_id_known = 1;
	} else if (id && nla_len(id) == 8) {
		d->driver_id = (uint32_t)nla_get_u64(id);
		d->driver_id_known = 1;
	}
}

/* PORT_GET's answer: the port's netdev, where the kernel knows one in
 * this network namespace. */
static void on_port(struct collect *c, struct nlmsghdr *h)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct uvio_device_info *d = c->cur;

	if (nlmsg_parse(h, 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy))
		return;
	if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX])
		d->netdev_ifindex = nla_get_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME])
		copy_str(d->netdev, sizeof(d->netdev), tb[RDMA_NLDEV_ATTR_NDEV_NAME]);
}

/*
 * The exchange itself is a plain NETLINK_RDMA socket, and libnl parses
 * what comes back against the policy above. A request is a header and two
 * small attributes, built on the stack; libnl's socket, message and
 * callback objects around the same three system calls were most of the
 * code a program's start ran (each function run for the first time costs
 * most where code is translated, as under an emulator, and is paged in
 * everywhere).
 */
struct nl_request {
	struct nlmsghdr h;
	unsigned char attrs[32];	/* a u32 and a short string */
};

static void req_init(struct nl_request *r, uint16_t cmd, uint16_t flags, uint32_t seq)
{
	memset(r, 0, sizeof(*r));
	r->h.nlmsg_len = NLMSG_HDRLEN;
	r->h.nlmsg_type = NLDEV(cmd);
	r->h.nlmsg_flags = (uint16_t)(NLM_F_REQUEST | flags);
	r->h.nlmsg_seq = seq;
}

/* 0, or -E2BIG when the attribute does not fit. */
static int req_put(struct nl_request *r, uint16_t type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(r->h.nlmsg_len);
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type };

	if (at + NLA_ALIGN(NLA_HDRLEN + len) > sizeof(*r))
		return -E2BIG;
	memcpy((unsigned char *)r + at, &a, sizeof(a));
	memcpy((unsigned char *)r + at + NLA_HDRLEN, data, len);
	r->h.nlmsg_len = (uint32_t)(at + NLA_ALIGN(a.nla_len));
	return 0;
}

/* Datagrams of a dump are cut to the reader's buffer from the second on,
 * the first to NLMSG_GOODSIZE (under 8 KiB whatever the page size), and a
 * reply to GET_CHARDEV is a few dozen bytes: 8 KiB on the stack takes any
 * of them whole (a longer one is seen, MSG_TRUNC, and fails the exchange). */
#define NL_BUF_SIZE 8192

struct nl_chan {
	int fd;
	uint32_t seq;
	unsigned char *buf;	/* NL_BUF_SIZE bytes, 4-aligned */
};

/*
 * Send one request and read its whole answer: a dump until DONE, a request
 * until its one reply or error. Each request is read to its end, so one
 * socket serves the dump and every GET_CHARDEV after it; no ACK is asked (a
 * dump ends with DONE, a request with its reply). Answers that are not the
 * kernel's to this request are passed over. 0; -EIO for a failed exchange
 * (the socket is then out of step); the kernel's negative errno when it
 * refused the request.
 */
static int nl_ask(struct nl_chan *ch, struct nl_request *r, struct collect *c,
		  void (*on_answer)(struct collect *c, struct nlmsghdr *h))
{
	static const struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	uint32_t seq = r->h.nlmsg_seq;
	int ret = 0;

	if (sendto(ch->fd, r, r->h.nlmsg_len, 0, (const struct sockaddr *)&kernel,
		   sizeof(kernel)) != (ssize_t)r->h.nlmsg_len) {
		uvio_log(LOG_DEBUG, "RDMA netlink: send: %s", strerror(errno));
		return -EIO;
	}
	for (;;) {
		struct sockaddr_nl from;
		socklen_t flen = sizeof(from);
		ssize_t got = recvfrom(ch->fd, ch->buf, NL_BUF_SIZE, MSG_TRUNC,
				       (struct sockaddr *)&from, &flen);
		size_t len = (size_t)got, at = 0;
		int done = 0;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || got > NL_BUF_SIZE || flen < sizeof(from)) {
			uvio_log(LOG_DEBUG, "RDMA netlink: %s",
				 got < 0 ? strerror(errno) : got ? "datagram cut" : "closed");
			return -EIO;
		}
		/* Each message whole inside the datagram, or the exchange fails:
		 * waiting on would wait for an end that was in the broken part. */
		while (!done && at + sizeof(struct nlmsghdr) <= len) {
			struct nlmsghdr *h = (struct nlmsghdr *)(ch->buf + at);

			if (h->nlmsg_len < sizeof(*h) || h->nlmsg_len > len - at) {
				uvio_log(LOG_DEBUG, "RDMA netlink: a message overruns its datagram");
				return -EIO;
			}
			at += NLMSG_ALIGN(h->nlmsg_len);
			if (from.nl_pid || h->nlmsg_seq != seq)
				continue;	/* not the kernel's answer to this */
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
			} else if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				done = 1;
				if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					ret = -EIO;
				else
					ret = e->error > 0 ? -e->error : e->error;
			} else {
				on_answer(c, h);
				done = !(h->nlmsg_flags & NLM_F_MULTI);
			}
		}
		if (done)
			return ret < 0 ? ret : 0;
	}
}

static int ask_chardev(struct nl_chan *ch, struct collect *c, struct uvio_device_info *d)
{
	static const char type[] = "uverbs";
	struct nl_request r;

	req_init(&r, RDMA_NLDEV_CMD_GET_CHARDEV, 0, ++ch->seq);
	if (req_put(&r, RDMA_NLDEV_ATTR_DEV_INDEX, &d->index, sizeof(d->index)) ||
	    req_put(&r, RDMA_NLDEV_ATTR_CHARDEV_TYPE, type, sizeof(type)))
		return -EIO;	/* cannot be: the request's room fits both */
	c->cur = d;
	return nl_ask(ch, &r, c, on_chardev);
}

/* Port 1's attributes (PORT_GET): its netdev. */
static int ask_port(struct nl_chan *ch, struct collect *c, struct uvio_device_info *d)
{
	static const uint32_t port = 1;
	struct nl_request r;

	req_init(&r, RDMA_NLDEV_CMD_PORT_GET, 0, ++ch->seq);
	if (req_put(&r, RDMA_NLDEV_ATTR_DEV_INDEX, &d->index, sizeof(d->index)) ||
	    req_put(&r, RDMA_NLDEV_ATTR_PORT_INDEX, &port, sizeof(port)))
		return -EIO;	/* cannot be: the request's room fits both */
	c->cur = d;
	return nl_ask(ch, &r, c, on_port);
}

static void chardev_from_sysfs(struct uvio_device_info *d);

static int list_netlink(struct collect *c)
{
	_Alignas(struct nlmsghdr) unsigned char buf[NL_BUF_SIZE];
	struct nl_chan ch = { .fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA),
			      .buf = buf };
	struct nl_request r;
	int ret;

	if (ch.fd < 0)
		return -errno;	/* no RDMA netlink (ib_core not loaded): sysfs */
	req_init(&r, RDMA_NLDEV_CMD_GET, NLM_F_DUMP, ++ch.seq);
	ret = nl_ask(&ch, &r, c, on_device);
	if (!ret)
		ret = c->err;
	/* A device without a uverbs node answers an error: not fatal. A
	 * kernel with the device dump but without GET_CHARDEV (before 5.0)
	 * answers an error for every device: its sysfs says the node. */
	for (size_t i = 0; !ret && i < c->count; i++) {
		if (ask_chardev(&ch, c, &c->devs[i]) == -EIO)
			ret = -EIO;	/* the socket is out of step: sysfs lists all */
		else if (!c->devs[i].path[0])
			chardev_from_sysfs(&c->devs[i]);
	}
	/* A port's netdev: an error (no such port, a kernel without the
	 * attributes) leaves it to sysfs. */
	for (size_t i = 0; c->ports && !ret && i < c->count; i++)
		if (ask_port(&ch, c, &c->devs[i]) == -EIO)
			break;	/* the socket is out of step; sysfs says the rest */
	close(ch.fd);
	return ret;
}

int uvio_sysfs_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!size)
		return -EINVAL;
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* The uverbs node of an IB device, found by name in sysfs. */
static void chardev_from_sysfs(struct uvio_device_info *d)
{
	char cls[256], p[512], v[64];
	struct dirent *e;
	DIR *dir;

	snprintf(cls, sizeof(cls), "%s/class/infiniband_verbs", uvio_sysfs_root);
	dir = opendir(cls);
	if (!dir)
		return;
	while ((e = readdir(dir))) {
		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		snprintf(p, sizeof(p), "%s/%.64s/ibdev", cls, e->d_name);
		if (uvio_sysfs_read(p, v, sizeof(v)) || strcmp(v, d->name))
			continue;
		snprintf(d->uverbs, sizeof(d->uverbs), "%.31s", e->d_name);
		snprintf(d->path, sizeof(d->path), "/dev/infiniband/%s", d->uverbs);
		snprintf(p, sizeof(p), "%s/%s/abi_version", cls, d->uverbs);
		if (!uvio_sysfs_read(p, v, sizeof(v)))
			d->abi_version = (uint32_t)strtoul(v, NULL, 10);
		break;
	}
	closedir(dir);
}

static int list_sysfs(struct collect *c)
{
	char cls[256];
	struct dirent *e;
	DIR *dir;

	snprintf(cls, sizeof(cls), "%s/class/infiniband_verbs", uvio_sysfs_root);
	dir = opendir(cls);

	if (!dir)	/* no class directory: no uverbs module, no devices */
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(dir))) {
		struct uvio_device_info *d;
		char p[512], v[64];

		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		d = slot(c);
		if (!d)
			break;
		d->source = UVIO_SOURCE_SYSFS;
		snprintf(d->uverbs, sizeof(d->uverbs), "%.31s", e->d_name);
		snprintf(d->path, sizeof(d->path), "/dev/infiniband/%s", d->uverbs);
		snprintf(p, sizeof(p), "%s/%s/ibdev", cls, d->uverbs);
		uvio_sysfs_read(p, d->name, sizeof(d->name));
		snprintf(p, sizeof(p), "%s/%s/abi_version", cls, d->uverbs);
		if (!uvio_sysfs_read(p, v, sizeof(v)))
			d->abi_version = (uint32_t)strtoul(v, NULL, 10);
		snprintf(p, sizeof(p), "%s/class/infiniband/%s/node_type", uvio_sysfs_root, d->name);
		if (!uvio_sysfs_read(p, v, sizeof(v)))
			d->node_type = (uint8_t)strtoul(v, NULL, 10);
		snprintf(p, sizeof(p), "%s/class/infiniband/%s/ports", uvio_sysfs_root, d->name);
		DIR *ports = opendir(p);
		if (ports) {
			struct dirent *pe;

			while ((pe = readdir(ports)))
				if (pe->d_name[0] != '.')
					d->num_ports++;
			closedir(ports);
		}
	}
	closedir(dir);
	return c->err;
}

static uint8_t transport_of(uint8_t node_type, const char *link_layer)
{
	switch (node_type) {
	case 1: case 2: case 3:		/* CA, switch, router */
		return !strcmp(link_layer, "Ethernet")	 ? UVIO_TRANSPORT_ROCE :
		       !strcmp(link_layer, "InfiniBand") ? UVIO_TRANSPORT_IB :
							   UVIO_TRANSPORT_UNKNOWN;
	case 4:				/* RNIC */
		return UVIO_TRANSPORT_IWARP;
	case 5: case 6:			/* usNIC, usNIC over UDP */
		return UVIO_TRANSPORT_USNIC;
	case 7:
		return UVIO_TRANSPORT_UNSPECIFIED;
	default:
		return UVIO_TRANSPORT_UNKNOWN;
	}
}

/* The first entry of a sysfs folder (a device's net/), into name. */
static int first_entry(const char *dir_path, char *name, size_t size)
{
	DIR *dir = opendir(dir_path);
	struct dirent *e;
	int ret = -ENOENT;

	if (!dir)
		return -errno;
	while ((e = readdir(dir)))
		if (e->d_name[0] != '.' && strlen(e->d_name) < size) {
			memcpy(name, e->d_name, strlen(e->d_name) + 1);
			ret = 0;
			break;
		}
	closedir(dir);
	return ret;
}

/*
 * A device whose parent is a netdev itself (siw and rxe on a netdev without
 * a parent device, such as a dummy or a veth, take the netdev as the
 * parent): its device link ends in the netdev's folder, which has an
 * ifindex. The link's last part is the name.
 */
static int parent_netdev(const char *ibdev, char *name, size_t size)
{
	char p[512], link[512], v[16];
	const char *base;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/class/infiniband/%s/device/ifindex", uvio_sysfs_root, ibdev);
	if (uvio_sysfs_read(p, v, sizeof(v)))
		return -ENOENT;
	snprintf(p, sizeof(p), "%s/class/infiniband/%s/device", uvio_sysfs_root, ibdev);
	n = readlink(p, link, sizeof(link) - 1);
	if (n <= 0)
		return -ENOENT;
	link[n] = 0;
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (!base[0] || strlen(base) >= size)
		return -ENOENT;
	memcpy(name, base, strlen(base) + 1);
	return 0;
}

/*
 * rxe and siw derive the device's node GUID from their netdev's MAC (the
 * EUI-64 of it: ff:fe in the middle, the universal/local bit flipped). Where
 * sysfs names the netdev nowhere else (siw's GIDs have none, and a siw on a
 * netdev without a parent device has no device link), the netdev whose MAC
 * gives the node GUID is the one: the first such in class/net.
 */
static int netdev_by_guid(const char *ibdev, char *name, size_t size)
{
	char p[512], v[64];
	unsigned int g[8], m[6];
	struct dirent *e;
	DIR *dir;
	int ret = -ENOENT;

	snprintf(p, sizeof(p), "%s/class/infiniband/%s/node_guid", uvio_sysfs_root, ibdev);
	if (uvio_sysfs_read(p, v, sizeof(v)) ||
	    sscanf(v, "%2x%2x:%2x%2x:%2x%2x:%2x%2x", &g[0], &g[1], &g[2], &g[3], &g[4], &g[5],
		   &g[6], &g[7]) != 8 || g[3] != 0xff || g[4] != 0xfe)
		return -ENOENT;
	snprintf(p, sizeof(p), "%s/class/net", uvio_sysfs_root);
	dir = opendir(p);
	if (!dir)
		return -ENOENT;
	while (ret && (e = readdir(dir))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= size)
			continue;
		snprintf(p, sizeof(p), "%s/class/net/%s/address", uvio_sysfs_root, e->d_name);
		if (uvio_sysfs_read(p, v, sizeof(v)) ||
		    sscanf(v, "%2x:%2x:%2x:%2x:%2x:%2x", &m[0], &m[1], &m[2], &m[3], &m[4],
			   &m[5]) != 6)
			continue;
		if ((m[0] ^ 2u) == g[0] && m[1] == g[1] && m[2] == g[2] && m[3] == g[5] &&
		    m[4] == g[6] && m[5] == g[7]) {
			memcpy(name, e->d_name, strlen(e->d_name) + 1);
			ret = 0;
		}
	}
	closedir(dir);
	return ret;
}

/*
 * Port 1's transport, and its netdev where netlink did not say it: the
 * port's first GID's netdev (gid_attrs/ndevs/0; siw's GIDs name none on
 * some kernels), else the device's parent's net/ folder, else the parent
 * itself when it is a netdev, else the netdev whose MAC the node GUID was
 * made from; the ifindex from the netdev's class/net entry.
 */
static void port_from_sysfs(struct uvio_device_info *d)
{
	char p[512], v[64];

	snprintf(p, sizeof(p), "%s/class/infiniband/%s/ports/1/link_layer", uvio_sysfs_root,
		 d->name);
	if (uvio_sysfs_read(p, v, sizeof(v)))
		v[0] = 0;
	d->transport = transport_of(d->node_type, v);
	if (!d->netdev[0]) {
		snprintf(p, sizeof(p), "%s/class/infiniband/%s/ports/1/gid_attrs/ndevs/0",
			 uvio_sysfs_root, d->name);
		if (uvio_sysfs_read(p, v, sizeof(v)) || !v[0] || strlen(v) >= sizeof(d->netdev)) {
			snprintf(p, sizeof(p), "%s/class/infiniband/%s/device/net", uvio_sysfs_root,
				 d->name);
			if (first_entry(p, v, sizeof(d->netdev)) &&
			    parent_netdev(d->name, v, sizeof(d->netdev)) &&
			    netdev_by_guid(d->name, v, sizeof(d->netdev)))
				v[0] = 0;
		}
		memcpy(d->netdev, v, strlen(v) + 1);
		d->netdev_ifindex = 0;	/* the name's, below */
	}
	if (d->netdev[0] && !d->netdev_ifindex) {
		snprintf(p, sizeof(p), "%s/class/net/%s/ifindex", uvio_sysfs_root, d->netdev);
		if (!uvio_sysfs_read(p, v, sizeof(v)))
			d->netdev_ifindex = (uint32_t)strtoul(v, NULL, 10);
	}
}

static int uverbs_number(const struct uvio_device_info *d)
{
	return d->uverbs[0] ? atoi(d->uverbs + 6) : 1 << 30;
}

static int by_node(const void *a, const void *b)
{
	return uverbs_number(a) - uverbs_number(b);
}

/* Every device, ordered by uverbs node (those without one last). The
 * caller frees them (collect_free). */
static int collect_all(struct collect *c)
{
	const char *src = getenv("UVERBS_IOCTL_DISCOVERY");	/* netlink|sysfs */
	int ret = -ENOENT;

	if (!src || strcmp(src, "sysfs"))
		ret = list_netlink(c);
	if (ret && ret != -ENOMEM) {
		if (!src || strcmp(src, "sysfs"))
			uvio_log(LOG_DEBUG, "RDMA netlink unavailable (%s), reading sysfs",
				 strerror(-ret));
		bool ports = c->ports;

		collect_free(c);
		collect_init(c, c->only);	/* sysfs lists every device */
		c->ports = ports;
		ret = list_sysfs(c);
	}
	if (ret)
		return uvio_fail(LOG_ERR, ret, "RDMA device discovery: %s: %s", uvio_errno_name(ret),
				 ret == -ENOMEM ? "no memory for the list"
						: "neither RDMA netlink nor sysfs "
						  "(class/infiniband_verbs) could be read");
	for (size_t i = 0; c->ports && i < c->count; i++)
		port_from_sysfs(&c->devs[i]);
	if (c->count > 1)
		qsort(c->devs, c->count, sizeof(c->devs[0]), by_node);
	return 0;
}

/*
 * struct uvio_device_info is sized by the caller's sizeof (the macros of
 * <uvio/device.h>): 1.0's ends at netdev[]; a caller's longer struct is a
 * later release's, whose fields this library does not know and zeroes.
 */
#define INFO_SIZE_1_0 (offsetof(struct uvio_device_info, netdev) + \
		       sizeof(((struct uvio_device_info *)0)->netdev))
#ifndef UVIO_GROWTH_TEST
_Static_assert(sizeof(struct uvio_device_info) == INFO_SIZE_1_0,
	       "1.0's struct uvio_device_info ends at netdev[]");
#endif

/* Entry i of the caller's array of size-byte structs, from d. */
static void info_out(void *devs, size_t i, size_t size, const struct uvio_device_info *d)
{
	unsigned char *to = (unsigned char *)devs + i * size;
	size_t n = size < sizeof(*d) ? size : sizeof(*d);

	memcpy(to, d, n);
	if (size > n)
		memset(to + n, 0, size - n);
#ifdef UVIO_GROWTH_TEST
	/* tests/package/growth: this build's struct has a field 1.0's lacks,
	 * set where the caller's struct has room for it. */
	if (size >= offsetof(struct uvio_device_info, grown) + sizeof(d->grown))
		((struct uvio_device_info *)to)->grown = UVIO_GROWTH_MARK;
#endif
}

static __attribute__((cold)) int info_size_refused(const char *fn, const char *arg, size_t size)
{
	return uvio_fail(LOG_DEBUG, -EINVAL,
			 "%s: EINVAL: argument %s: entries of %zu bytes, shorter than 1.0's "
			 "struct uvio_device_info (%zu: not built against <uvio/device.h>, or "
			 "a wrong size to %s_sz)", fn, arg, size, (size_t)INFO_SIZE_1_0, fn);
}

static int list_devices(void *devs, size_t max, size_t size, bool ports)
{
	struct collect c;
	int ret;

	collect_init(&c, NULL);
	c.ports = ports;
	ret = collect_all(&c);

	for (size_t i = 0; !ret && devs && i < max && i < c.count; i++)
		info_out(devs, i, size, &c.devs[i]);
	collect_free(&c);
	if (ret)
		return ret;
	return c.count > INT32_MAX ? INT32_MAX : (int)c.count;
}

UVIO_API int uvio_list_devices_sz(struct uvio_device_info *devs, size_t max, size_t size)
{
	if (size < INFO_SIZE_1_0)
		return info_size_refused("uvio_list_devices", "devs", size);
	return list_devices(devs, max, size, true);
}

int uvio_list_devices_bare(struct uvio_device_info *devs, size_t max)
{
	return list_devices(devs, max, sizeof(*devs), false);
}

static const struct uvio_device_info *match(const struct collect *c, const char *name)
{
	for (size_t i = 0; i < c->count; i++) {
		const struct uvio_device_info *d = &c->devs[i];

		if (!strcmp(d->name, name) || (d->uverbs[0] && !strcmp(d->uverbs, name)) ||
		    (d->path[0] && !strcmp(d->path, name)))
			return d;
	}
	return NULL;
}

static int find_device(const char *name, struct uvio_device_info *info, size_t size,
		       dev_t *rdev, bool ports)
{
	struct collect c;
	const struct uvio_device_info *d;
	int ret;

	if (!name || !info)
		return -EINVAL;
	*rdev = 0;
	collect_init(&c, name);
	c.ports = ports;
	/* An IB name needs one GET_CHARDEV, its own; a uverbs name or a
	 * path is known only once every device has been asked. */
	ret = collect_all(&c);
	d = ret ? NULL : match(&c, name);
	if (!ret && !d && c.skipped) {
		collect_free(&c);
		collect_init(&c, NULL);
		c.ports = ports;
		ret = collect_all(&c);
		d = ret ? NULL : match(&c, name);
	}
	if (d) {
		info_out(info, 0, size, d);
		/* Asked alone, the device's own answer; else not known here. */
		if (c.only && !strcmp(d->name, name))
			*rdev = c.only_rdev;
	}
	collect_free(&c);
	return ret ? ret : d ? 0 : -ENODEV;
}

int uvio_find_device_node(const char *name, struct uvio_device_info *info, dev_t *rdev)
{
	return find_device(name, info, sizeof(*info), rdev, false);
}

UVIO_API int uvio_find_device_sz(const char *name, struct uvio_device_info *info, size_t size)
{
	dev_t rdev;
	int ret;

	if (!name || !info)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_find_device: EINVAL: argument %s: NULL",
				 !name ? "name" : "info");
	if (size < INFO_SIZE_1_0)
		return info_size_refused("uvio_find_device", "info", size);
	ret = find_device(name, info, size, &rdev, true);
	if (ret == -ENODEV)	/* discovery says its own failures */
		return uvio_fail(LOG_DEBUG, ret, "uvio_find_device: ENODEV: no RDMA device %s "
				 "(netlink and sysfs list no device, uverbsN node or "
				 "/dev/infiniband path of that name)", name);
	return ret;
}

int uvio_sysfs_dev_is(const char *dev_file, dev_t rdev)
{
	unsigned int maj, min;
	char v[32];

	return !uvio_sysfs_read(dev_file, v, sizeof(v)) && sscanf(v, "%u:%u", &maj, &min) == 2 &&
	       maj == major(rdev) && min == minor(rdev);
}

/* The class directory, entry by entry: where sysfs has no dev/char. */
static int uverbs_by_scan(dev_t rdev, char *uverbs, size_t size)
{
	char cls[256], p[512 + 64];
	struct dirent *e;
	DIR *dir;
	int ret = -ENODEV;

	snprintf(cls, sizeof(cls), "%s/class/infiniband_verbs", uvio_sysfs_root);
	dir = opendir(cls);
	if (!dir)
		return -ENODEV;
	while (ret && (e = readdir(dir))) {
		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		snprintf(p, sizeof(p), "%s/%s/dev", cls, e->d_name);
		if (uvio_sysfs_dev_is(p, rdev)) {
			snprintf(uverbs, size, "%s", e->d_name);
			ret = 0;
		}
	}
	closedir(dir);
	return ret;
}

bool uvio_uverbs_reserved_number(dev_t rdev, char *uverbs, size_t size)
{
	unsigned int n = minor(rdev) - UVIO_UVERBS_BASE_MINOR;
	char name[] = "uverbsNN";

	if (major(rdev) != UVIO_UVERBS_MAJOR || n >= UVIO_UVERBS_RESERVED)
		return false;
	/* Every open and adopt asks: two digits at most, written directly. */
	if (n >= 10) {
		name[6] = (char)('0' + n / 10);
		name[7] = (char)('0' + n % 10);
	} else {
		name[6] = (char)('0' + n);
		name[7] = 0;
	}
	if (size) {
		size_t len = strlen(name) < size ? strlen(name) : size - 1;

		memcpy(uverbs, name, len);
		uverbs[len] = 0;
	}
	return true;
}

/* The first 32 uverbs nodes have numbers of their own; beyond them sysfs
 * names every character device by number: dev/char/MAJ:MIN links to its
 * device directory, .../infiniband_verbs/uverbsN for a uverbs node. One
 * readlink instead of reading every uverbs entry's dev file. */
int uvio_uverbs_fd_check(int fd, char *uverbs, size_t size)
{
	char link[320], dir[256], target[512];
	const char *base, *cls;
	struct stat st;
	struct sbuf sb;
	ssize_t n;
	int ret = uvio_sys_fstat(fd, &st);

	if (ret)
		return ret;
	if (!S_ISCHR(st.st_mode))
		return -ENODEV;
	if (uvio_uverbs_reserved_number(st.st_rdev, uverbs, size))
		return 0;
	sb_init(&sb, link, sizeof(link));
	sb_puts(&sb, uvio_sysfs_root);
	sb_puts(&sb, "/dev/char/");
	sb_putu(&sb, major(st.st_rdev));
	sb_putn(&sb, ":", 1);
	sb_putu(&sb, minor(st.st_rdev));
	if (sb.cut)
		return -ENAMETOOLONG;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(dir, sizeof(dir), "%s/dev/char", uvio_sysfs_root);
		/* No such link where the directory exists: not a device the
		 * kernel knows as a character device of any class we want. */
		return errno == ENOENT && access(dir, F_OK) ? uverbs_by_scan(st.st_rdev, uverbs, size)
							    : -ENODEV;
	}
	target[n] = 0;
	base = strrchr(target, '/');
	if (!base || strncmp(base + 1, "uverbs", 6))
		return -ENODEV;
	for (cls = base; cls > target && cls[-1] != '/'; cls--)
		;
	if ((size_t)(base - cls) != strlen("infiniband_verbs") ||
	    strncmp(cls, "infiniband_verbs", (size_t)(base - cls)))
		return -ENODEV;
	sb_init(&sb, uverbs, size);
	sb_puts(&sb, base + 1);
	return 0;
}

UVIO_API const char *uvio_transport_name(uint32_t transport)
{
	static const char *const names[] = {
		[UVIO_TRANSPORT_UNKNOWN] = "unknown",	  [UVIO_TRANSPORT_IB] = "InfiniBand",
		[UVIO_TRANSPORT_ROCE] = "RoCE",		  [UVIO_TRANSPORT_IWARP] = "iWARP",
		[UVIO_TRANSPORT_USNIC] = "usNIC",	  [UVIO_TRANSPORT_UNSPECIFIED] = "unspecified",
	};

	return transport < sizeof(names) / sizeof(names[0]) ? names[transport] : NULL;
}

UVIO_API int uvio_netdev_addrs(uint32_t ifindex, struct sockaddr_storage *addrs, size_t max)
{
	struct ifaddrs *all, *a;
	char name[IF_NAMESIZE];
	int n = 0, err;

	if (!ifindex)
		return uvio_fail(LOG_DEBUG, -EINVAL,
				 "uvio_netdev_addrs: EINVAL: argument ifindex: 0 (no netdev)");
	if (!if_indextoname(ifindex, name)) {
		err = -errno;
		return uvio_fail(LOG_DEBUG, err, "uvio_netdev_addrs: %s: no network device "
				 "of ifindex %u", uvio_errno_name(err), ifindex);
	}
	if (getifaddrs(&all)) {
		err = -errno;
		return uvio_fail(LOG_DEBUG, err, "uvio_netdev_addrs: %s: getifaddrs()",
				 uvio_errno_name(err));
	}
	for (a = all; a; a = a->ifa_next) {
		size_t len;

		if (!a->ifa_addr || strcmp(a->ifa_name, name))
			continue;
		if (a->ifa_addr->sa_family == AF_INET)
			len = sizeof(struct sockaddr_in);
		else if (a->ifa_addr->sa_family == AF_INET6)
			len = sizeof(struct sockaddr_in6);
		else
			continue;
		if (addrs && (size_t)n < max) {
			memset(&addrs[n], 0, sizeof(addrs[n]));
			memcpy(&addrs[n], a->ifa_addr, len);
		}
		n++;
	}
	freeifaddrs(all);
	return n;
}
