// SPDX-License-Identifier: MIT
/*
 * Device discovery: RDMA netlink first (through libnl), sysfs second.
 * Netlink's GET_CHARDEV is the only place the kernel states a device's
 * uverbs driver id (from about 5.3, and not for every driver); where it is
 * missing the id is probed at open.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <rdma/rdma_netlink.h>

#include <uvio/device.h>
#include "report.h"

#define NLDEV(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd)

static struct nla_policy nldev_policy[RDMA_NLDEV_ATTR_MAX] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NAME] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_PORT_INDEX] = { .type = NLA_U32 },
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = { .type = NLA_U8 },
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = { .type = NLA_STRING },
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = { .type = NLA_U64 },
};

struct collect {
	struct uvio_device_info *devs;
	size_t max, count;
	struct uvio_device_info *cur;	/* GET_CHARDEV target */
	int err;
};

static void copy_str(char *dst, size_t size, const struct nlattr *a)
{
	snprintf(dst, size, "%.*s", nla_len(a), (const char *)nla_data(a));
}

static int on_device(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct collect *c = arg;
	struct uvio_device_info *d;

	if (nlmsg_parse(nlmsg_hdr(msg), 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy) ||
	    !tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return NL_SKIP;
	if (c->count++ >= c->max)
		return NL_OK;
	d = &c->devs[c->count - 1];
	memset(d, 0, sizeof(*d));
	d->source = UVIO_SOURCE_NETLINK;
	d->index = nla_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	copy_str(d->name, sizeof(d->name), tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		d->num_ports = nla_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE])
		d->node_type = nla_get_u8(tb[RDMA_NLDEV_ATTR_DEV_NODE_TYPE]);
	return NL_OK;
}

static int on_chardev(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[RDMA_NLDEV_ATTR_MAX];
	struct collect *c = arg;
	struct uvio_device_info *d = c->cur;
	struct nlattr *id;

	if (nlmsg_parse(nlmsg_hdr(msg), 0, tb, RDMA_NLDEV_ATTR_MAX - 1, nldev_policy) ||
	    !tb[RDMA_NLDEV_ATTR_CHARDEV_NAME])
		return NL_SKIP;
	copy_str(d->uverbs, sizeof(d->uverbs), tb[RDMA_NLDEV_ATTR_CHARDEV_NAME]);
	snprintf(d->path, sizeof(d->path), "/dev/infiniband/%s", d->uverbs);
	if (tb[RDMA_NLDEV_ATTR_CHARDEV_ABI])
		d->abi_version = (uint32_t)nla_get_u64(tb[RDMA_NLDEV_ATTR_CHARDEV_ABI]);
	/* Declared u64 in the UAPI comment, sent as 4 bytes: take either. */
	id = tb[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID];
	if (id && nla_len(id) == 4) {
		d->driver_id = nla_get_u32(id);
		d->driver_id_known = 1;
	} else if (id && nla_len(id) == 8) {
		d->driver_id = (uint32_t)nla_get_u64(id);
		d->driver_id_known = 1;
	}
	return NL_OK;
}

/* Send and read every answer: a dump until DONE, a request until its ACK
 * (libnl asks for one), so that no answer is left for the next request. */
static int nl_request(struct nl_sock *sk, struct nl_msg *msg, nl_recvmsg_msg_cb_t cb,
		      struct collect *c, bool dump)
{
	int ret;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, c);
	ret = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		return -EIO;
	ret = dump ? nl_recvmsgs_default(sk) : nl_wait_for_ack(sk);
	if (ret < 0)
		uvio_log(LOG_DEBUG, "RDMA netlink: %s", nl_geterror(ret));
	return ret < 0 ? -EIO : 0;
}

static struct nl_sock *rdma_socket(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk && nl_connect(sk, NETLINK_RDMA)) {
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* One socket per question: replies of one request on a reused socket were
 * seen to swallow the next request's answer (6.1, libnl 3.7). */
static int ask_chardev(struct collect *c, struct uvio_device_info *d)
{
	struct nl_sock *sk = rdma_socket();
	struct nl_msg *msg;
	int ret = -ENOMEM;

	if (!sk)
		return -EPROTONOSUPPORT;
	msg = nlmsg_alloc_simple(NLDEV(RDMA_NLDEV_CMD_GET_CHARDEV), NLM_F_REQUEST);
	if (!msg || nla_put_u32(msg, RDMA_NLDEV_ATTR_DEV_INDEX, d->index) ||
	    nla_put_string(msg, RDMA_NLDEV_ATTR_CHARDEV_TYPE, "uverbs")) {
		nlmsg_free(msg);
	} else {
		c->cur = d;
		ret = nl_request(sk, msg, on_chardev, c, false);
	}
	nl_socket_free(sk);
	return ret;
}

static int list_netlink(struct collect *c)
{
	struct nl_sock *sk = rdma_socket();
	struct nl_msg *msg;
	size_t i, have;
	int ret = -ENOMEM;

	if (!sk)
		return -EPROTONOSUPPORT;
	msg = nlmsg_alloc_simple(NLDEV(RDMA_NLDEV_CMD_GET), NLM_F_REQUEST | NLM_F_DUMP);
	if (msg)
		ret = nl_request(sk, msg, on_device, c, true);
	nl_socket_free(sk);
	have = c->count < c->max ? c->count : c->max;
	/* A device without a uverbs node answers an error: not fatal. */
	for (i = 0; !ret && i < have; i++)
		ask_chardev(c, &c->devs[i]);
	return ret;
}

static int read_sysfs(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int list_sysfs(struct collect *c)
{
	DIR *dir = opendir("/sys/class/infiniband_verbs");
	struct dirent *e;

	if (!dir)	/* no class directory: no uverbs module, no devices */
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(dir))) {
		struct uvio_device_info *d;
		char p[512], v[64];

		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		if (c->count++ >= c->max)
			continue;
		d = &c->devs[c->count - 1];
		memset(d, 0, sizeof(*d));
		d->source = UVIO_SOURCE_SYSFS;
		snprintf(d->uverbs, sizeof(d->uverbs), "%.31s", e->d_name);
		snprintf(d->path, sizeof(d->path), "/dev/infiniband/%s", d->uverbs);
		snprintf(p, sizeof(p), "/sys/class/infiniband_verbs/%s/ibdev", d->uverbs);
		read_sysfs(p, d->name, sizeof(d->name));
		snprintf(p, sizeof(p), "/sys/class/infiniband_verbs/%s/abi_version", d->uverbs);
		if (!read_sysfs(p, v, sizeof(v)))
			d->abi_version = (uint32_t)strtoul(v, NULL, 10);
		snprintf(p, sizeof(p), "/sys/class/infiniband/%s/node_type", d->name);
		if (!read_sysfs(p, v, sizeof(v)))
			d->node_type = (uint8_t)strtoul(v, NULL, 10);
		snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports", d->name);
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
	return 0;
}

static int uverbs_number(const struct uvio_device_info *d)
{
	return d->uverbs[0] ? atoi(d->uverbs + 6) : 1 << 30;
}

static int by_node(const void *a, const void *b)
{
	return uverbs_number(a) - uverbs_number(b);
}

UVIO_API int uvio_list_devices(struct uvio_device_info *devs, size_t max)
{
	struct collect c = { .devs = devs, .max = devs ? max : 0 };
	const char *src = getenv("UVERBS_IOCTL_DISCOVERY");	/* netlink|sysfs */
	int ret = -ENOENT;

	if (!src || strcmp(src, "sysfs"))
		ret = list_netlink(&c);
	if (ret) {
		if (!src || strcmp(src, "sysfs"))
			uvio_log(LOG_DEBUG, "RDMA netlink unavailable (%s), reading sysfs",
				 strerror(-ret));
		c.count = 0;
		ret = list_sysfs(&c);
		if (ret)
			return ret;
	}
	qsort(devs, c.count < c.max ? c.count : c.max, sizeof(*devs), by_node);
	return c.count > INT32_MAX ? INT32_MAX : (int)c.count;
}

UVIO_API int uvio_find_device(const char *name, struct uvio_device_info *info)
{
	struct uvio_device_info devs[32];
	int n = uvio_list_devices(devs, 32);

	if (n < 0)
		return n;
	for (int i = 0; i < n && i < 32; i++) {
		if (!strcmp(devs[i].name, name) || !strcmp(devs[i].uverbs, name) ||
		    !strcmp(devs[i].path, name)) {
			*info = devs[i];
			return 0;
		}
	}
	return -ENODEV;
}
