/*
 * Discovery and the fd check against a stand-in RDMA netlink (socket(),
 * sendto() and recvfrom() wrapped) and a sysfs tree of the test's own: more devices than a fixed
 * array holds, netlink's order against uverbs numbering, a kernel without
 * GET_CHARDEV, and fds that are not uverbs devices.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <rdma/rdma_netlink.h>

#include <uvio.h>
#include "device/discover.h"
#include "fake_sysfs.h"
#include "wrap.h"

/* ---- the stand-in RDMA netlink ---- */
struct nl_dev {
	uint32_t index;
	char name[16];
	int uverbs;		/* uverbsN, or -1 without a uverbs node */
	dev_t rdev;		/* its node; 0: 231:(192 + N) up to 31, then 240:10N */
};
static struct nl_dev nl_devs[64];
static int nl_count;
static int nl_has_chardev;	/* the kernel knows RDMA_NLDEV_CMD_GET_CHARDEV */
static int nl_up;		/* NETLINK_RDMA can be connected */
static int nl_has_ports;	/* PORT_GET answers a netdev (ifindex 200 + i, ethI) */

static int nl_chardev_asked;	/* GET_CHARDEV requests answered so far */

/* What the kernel has queued on the socket, and how many messages it puts
 * in one datagram (a dump spans several recvmsg()s). */
static unsigned char nl_queue[1 << 16];
static size_t nl_queued;
static int nl_per_datagram = 3;
static int nl_stale_first;	/* an answer to an older request first */
static int nl_connects;		/* sockets connected */
static int nl_dump_error;	/* the kernel refuses the dump with this */

#define NLDEV(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd)

/* The library's NETLINK_RDMA socket: a real fd (a datagram socket of
 * another family) so that the library's close() is a real one. */
static int nl_fd = -1;
/* How the next datagram comes broken: larger than asked for, or its first
 * message claiming more than the datagram holds. */
static enum { NL_WHOLE, NL_CUT, NL_OVERRUN } nl_broken_next;

/* The library's heap growth of its device list, counted. */
static int heap_grows;
void *__real_reallocarray(void *p, size_t n, size_t size);
void *__wrap_reallocarray(void *p, size_t n, size_t size);
void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
	heap_grows++;
	return __real_reallocarray(p, n, size);
}

int __real_socket(int domain, int type, int protocol);
int __wrap_socket(int domain, int type, int protocol);
int __wrap_socket(int domain, int type, int protocol)
{
	if (domain != AF_NETLINK)
		return __real_socket(domain, type, protocol);
	assert_int_equal(protocol, NETLINK_RDMA);
	assert_true(type & SOCK_CLOEXEC);
	nl_connects++;
	if (!nl_up) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	nl_fd = __real_socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	assert_true(nl_fd >= 0);
	return nl_fd;
}

static void queue(struct nl_msg *m, uint32_t seq, uint16_t flags)
{
	struct nlmsghdr *h = nlmsg_hdr(m);

	h->nlmsg_seq = seq;
	h->nlmsg_flags = flags;
	assert_true(nl_queued + NLMSG_ALIGN(h->nlmsg_len) <= sizeof(nl_queue));
	memcpy(nl_queue + nl_queued, h, h->nlmsg_len);
	nl_queued += NLMSG_ALIGN(h->nlmsg_len);
	nlmsg_free(m);
}

static void queue_error(uint32_t seq, int error)
{
	struct nl_msg *m = nlmsg_alloc_simple(NLMSG_ERROR, 0);
	struct nlmsgerr e = { .error = error };

	nlmsg_append(m, &e, sizeof(e), 0);
	queue(m, seq, 0);
}

static void answer_dump(uint32_t seq)
{
	for (int i = 0; i < nl_count; i++) {
		struct nl_msg *m = nlmsg_alloc_simple(NLDEV(RDMA_NLDEV_CMD_GET), 0);

		nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, nl_devs[i].index);
		nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, nl_devs[i].name);
		nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		nla_put_u8(m, RDMA_NLDEV_ATTR_DEV_NODE_TYPE, !strncmp(nl_devs[i].name, "siw", 3) ? 4 : 1);
		queue(m, seq, NLM_F_MULTI);
	}
	queue(nlmsg_alloc_simple(NLMSG_DONE, 0), seq, NLM_F_MULTI);
}

static void answer_chardev(uint32_t seq, uint32_t index)
{
	if (!nl_has_chardev) {
		queue_error(seq, -EOPNOTSUPP);	/* an unknown command */
		return;
	}
	for (int i = 0; i < nl_count; i++) {
		char name[16];
		struct nl_msg *m;

		if (nl_devs[i].index != index)
			continue;
		if (nl_devs[i].uverbs < 0) {
			queue_error(seq, -EOPNOTSUPP);
			return;
		}
		m = nlmsg_alloc_simple(NLDEV(RDMA_NLDEV_CMD_GET_CHARDEV), 0);
		snprintf(name, sizeof(name), "uverbs%d", nl_devs[i].uverbs);
		nla_put_string(m, RDMA_NLDEV_ATTR_CHARDEV_NAME, name);
		/* The node as the kernel encodes a dev_t for netlink: minor's
		 * low byte, 12 bits of major, then minor's upper bits. */
		unsigned int maj = nl_devs[i].uverbs < 32 ? 231 : 240;
		unsigned int min = nl_devs[i].uverbs < 32 ? 192 + (unsigned int)nl_devs[i].uverbs :
							    (unsigned int)nl_devs[i].uverbs * 10;
		if (nl_devs[i].rdev) {
			maj = major(nl_devs[i].rdev);
			min = minor(nl_devs[i].rdev);
		}
		nla_put_u64(m, RDMA_NLDEV_ATTR_CHARDEV,
			    (min & 0xff) | (maj << 8) | ((uint64_t)(min & ~0xffu) << 12));
		nl_chardev_asked++;
		nla_put_u64(m, RDMA_NLDEV_ATTR_CHARDEV_ABI, 1);
		nla_put_u32(m, RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID, 14);
		queue(m, seq, 0);
		return;
	}
	queue_error(seq, -ENODEV);
}

/* PORT_GET of port 1: the netdev, where this kernel says one. */
static void answer_port(uint32_t seq, uint32_t index, uint32_t port)
{
	for (int i = 0; nl_has_ports && i < nl_count; i++) {
		struct nl_msg *m;
		char name[16];

		if (nl_devs[i].index != index || port != 1)
			continue;
		m = nlmsg_alloc_simple(NLDEV(RDMA_NLDEV_CMD_PORT_GET), 0);
		nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, index);
		nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, port);
		nla_put_u32(m, RDMA_NLDEV_ATTR_NDEV_INDEX, 200u + (uint32_t)i);
		snprintf(name, sizeof(name), "eth%d", i);
		nla_put_string(m, RDMA_NLDEV_ATTR_NDEV_NAME, name);
		queue(m, seq, 0);
		return;
	}
	queue_error(seq, -EINVAL);
}

/* The request as the kernel reads it, answered into the queue. The
 * library asks no ACK and numbers its requests itself. */
ssize_t __real_sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen);
ssize_t __wrap_sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen);
ssize_t __wrap_sendto(int fd, const void *buf, size_t len, int flags,
		      const struct sockaddr *to, socklen_t tolen)
{
	const struct nlmsghdr *h = buf;
	const struct sockaddr_nl *k = (const struct sockaddr_nl *)to;
	struct nlattr *idx;

	if (fd != nl_fd)
		return __real_sendto(fd, buf, len, flags, to, tolen);
	assert_true(len >= NLMSG_HDRLEN && len == h->nlmsg_len);
	assert_true(tolen >= sizeof(*k) && k->nl_family == AF_NETLINK && !k->nl_pid);
	assert_true(h->nlmsg_flags & NLM_F_REQUEST);
	assert_false(h->nlmsg_flags & NLM_F_ACK);
	if (nl_stale_first) {
		/* a late answer to a request before this one: not ours */
		queue(nlmsg_alloc_simple(NLMSG_DONE, 0), h->nlmsg_seq - 1, NLM_F_MULTI);
		queue_error(h->nlmsg_seq - 1, -EBUSY);
	}
	if (h->nlmsg_type == NLDEV(RDMA_NLDEV_CMD_GET)) {
		assert_true(h->nlmsg_flags & NLM_F_DUMP);
		if (nl_dump_error)
			queue_error(h->nlmsg_seq, nl_dump_error);
		else
			answer_dump(h->nlmsg_seq);
	} else if (h->nlmsg_type == NLDEV(RDMA_NLDEV_CMD_PORT_GET)) {
		struct nlattr *port;

		idx = nlmsg_find_attr((struct nlmsghdr *)h, 0, RDMA_NLDEV_ATTR_DEV_INDEX);
		port = nlmsg_find_attr((struct nlmsghdr *)h, 0, RDMA_NLDEV_ATTR_PORT_INDEX);
		assert_true(idx && nla_len(idx) == 4 && port && nla_len(port) == 4);
		answer_port(h->nlmsg_seq, nla_get_u32(idx), nla_get_u32(port));
	} else {
		struct nlattr *type;

		assert_int_equal(h->nlmsg_type, NLDEV(RDMA_NLDEV_CMD_GET_CHARDEV));
		/* The kernel's own checks: a u32 index, a NUL-ended type. */
		idx = nlmsg_find_attr((struct nlmsghdr *)h, 0, RDMA_NLDEV_ATTR_DEV_INDEX);
		type = nlmsg_find_attr((struct nlmsghdr *)h, 0, RDMA_NLDEV_ATTR_CHARDEV_TYPE);
		assert_true(idx && nla_len(idx) == 4);
		assert_true(type && nla_len(type) == 7 && !memcmp(nla_data(type), "uverbs", 7));
		answer_chardev(h->nlmsg_seq, nla_get_u32(idx));
	}
	return (ssize_t)len;
}

/* One datagram: up to nl_per_datagram queued messages. With MSG_TRUNC,
 * as the kernel does, the datagram's whole length even when cut. */
ssize_t __real_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
			socklen_t *fromlen);
ssize_t __wrap_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
			socklen_t *fromlen);
ssize_t __wrap_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
			socklen_t *fromlen)
{
	struct sockaddr_nl *k = (struct sockaddr_nl *)from;
	size_t dgram = 0;

	if (fd != nl_fd)
		return __real_recvfrom(fd, buf, len, flags, from, fromlen);
	assert_true(nl_queued > 0);	/* the library never waits for nothing */
	assert_true(from && fromlen && *fromlen >= sizeof(*k));
	for (int i = 0; i < nl_per_datagram && dgram < nl_queued; i++)
		dgram += NLMSG_ALIGN(((struct nlmsghdr *)(nl_queue + dgram))->nlmsg_len);
	memcpy(buf, nl_queue, dgram < len ? dgram : len);
	memmove(nl_queue, nl_queue + dgram, nl_queued - dgram);
	nl_queued -= dgram;
	memset(k, 0, sizeof(*k));
	k->nl_family = AF_NETLINK;
	*fromlen = sizeof(*k);
	if (nl_broken_next == NL_CUT)
		dgram = len + 4096;	/* as if larger than the buffer */
	else if (nl_broken_next == NL_OVERRUN)
		((struct nlmsghdr *)buf)->nlmsg_len = (uint32_t)dgram + 4;
	nl_broken_next = NL_WHOLE;
	return (flags & MSG_TRUNC) || dgram <= len ? (ssize_t)dgram : (ssize_t)len;
}

static void nl_reset(int up, int chardev)
{
	nl_count = 0;
	nl_up = up;
	nl_has_chardev = chardev;
	nl_has_ports = 0;
	nl_queued = 0;
	nl_per_datagram = 3;
	nl_stale_first = 0;
	nl_dump_error = 0;
	nl_broken_next = NL_WHOLE;
	nl_fd = -1;
	unsetenv("UVERBS_IOCTL_DISCOVERY");
	fake_sysfs_clear();
}

static void nl_add(uint32_t index, const char *name, int uverbs)
{
	nl_devs[nl_count].index = index;
	snprintf(nl_devs[nl_count].name, sizeof(nl_devs[0].name), "%s", name);
	nl_devs[nl_count].uverbs = uverbs;
	nl_devs[nl_count].rdev = 0;
	nl_count++;
}

/* ---- tests ---- */

/* SR-IOV hosts have more than 32 devices: each is found, by netlink and
 * by sysfs, and listed in uverbs order. */
static void beyond_32_devices(void **state)
{
	static struct uvio_device_info devs[64];
	struct uvio_device_info info;
	char name[16];
	(void)state;

	nl_reset(1, 1);
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "mlx5_%d", i);
		nl_add((uint32_t)i, name, 39 - i);	/* uverbs numbered backwards */
	}
	heap_grows = 0;
	assert_int_equal(uvio_list_devices(NULL, 0), 40);
	assert_true(heap_grows > 0);	/* past the collector's own few */
	assert_int_equal(uvio_find_device("mlx5_39", &info), 0);
	assert_string_equal(info.uverbs, "uverbs0");
	assert_int_equal(uvio_find_device("uverbs39", &info), 0);
	assert_string_equal(info.name, "mlx5_0");
	assert_int_equal(uvio_find_device("/dev/infiniband/uverbs33", &info), 0);
	assert_string_equal(info.name, "mlx5_6");
	assert_int_equal(uvio_find_device("mlx5_40", &info), -ENODEV);
	/* a short array gets the lowest uverbs numbers, in order */
	assert_int_equal(uvio_list_devices(devs, 3), 40);
	assert_string_equal(devs[0].uverbs, "uverbs0");
	assert_string_equal(devs[1].uverbs, "uverbs1");
	assert_string_equal(devs[2].uverbs, "uverbs2");
	assert_int_equal(uvio_list_devices(devs, 64), 40);
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "uverbs%d", i);
		assert_string_equal(devs[i].uverbs, name);
	}

	/* the same from sysfs */
	nl_reset(0, 0);
	for (unsigned int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "hfi1_%u", i);
		fake_sysfs_add(i, name, makedev(231, 192 + i));
	}
	assert_int_equal(uvio_list_devices(NULL, 0), 40);
	assert_int_equal(uvio_find_device("hfi1_37", &info), 0);
	assert_string_equal(info.uverbs, "uverbs37");
	assert_int_equal(info.source, UVIO_SOURCE_SYSFS);
	assert_int_equal(uvio_list_devices(devs, 64), 40);
	assert_string_equal(devs[0].uverbs, "uverbs0");
	assert_string_equal(devs[10].uverbs, "uverbs10");	/* by number, not text */
	assert_string_equal(devs[39].uverbs, "uverbs39");
}

/* Found by IB name: one GET_CHARDEV, the device's own, and the node the
 * kernel gave it; by uverbs name or path: every device asked. */
static void find_by_name_asks_once(void **state)
{
	struct uvio_device_info info;
	dev_t rdev;
	char name[16];
	(void)state;

	nl_reset(1, 1);
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "mlx5_%d", i);
		nl_add((uint32_t)i, name, 39 - i);
	}
	nl_chardev_asked = 0;
	heap_grows = 0;
	assert_int_equal(uvio_find_device_node("mlx5_39", &info, &rdev), 0);
	assert_int_equal(nl_chardev_asked, 1);
	assert_int_equal(heap_grows, 0);	/* the one device named is all it keeps */
	assert_string_equal(info.uverbs, "uverbs0");
	assert_int_equal(major(rdev), 231);
	assert_int_equal(minor(rdev), 192);
	/* uverbs35: a minor above 255 has its upper bits apart */
	assert_int_equal(uvio_find_device_node("mlx5_4", &info, &rdev), 0);
	assert_string_equal(info.uverbs, "uverbs35");
	assert_int_equal(major(rdev), 240);
	assert_int_equal(minor(rdev), 350);
	nl_chardev_asked = 0;
	assert_int_equal(uvio_find_device_node("uverbs7", &info, &rdev), 0);
	assert_string_equal(info.name, "mlx5_32");
	assert_int_equal(nl_chardev_asked, 40);
	assert_int_equal(rdev, 0);	/* not kept for a second pass: sysfs checks */
	nl_chardev_asked = 0;
	assert_int_equal(uvio_find_device_node("mlx5_40", &info, &rdev), -ENODEV);
	assert_int_equal(nl_chardev_asked, 40);
}

/* open(NULL) takes the lowest uverbs number, not netlink's first device. */
static char opened[64];	/* the device node the library asked open() for */

static const char *dev_nodes(const char *path)
{
	if (!strncmp(path, "/dev/", 5))	/* not the sysfs files it reads */
		snprintf(opened, sizeof(opened), "%s", path);
	if (!strcmp(path, "/dev/infiniband/uverbs0"))
		return "/dev/null";
	if (!strcmp(path, "/dev/infiniband/uverbs1"))
		return "/dev/zero";
	return path;
}

static void open_null_lowest_uverbs(void **state)
{
	struct uvio_device *dev;
	(void)state;

	nl_reset(1, 1);
	nl_add(1, "rxe1", 1);	/* older device, higher node */
	nl_add(2, "rxe2", 0);	/* made later, took the free uverbs0 */
	nl_devs[0].rdev = fake_rdev("/dev/zero");
	nl_devs[1].rdev = fake_rdev("/dev/null");
	fake_sysfs_add(0, "rxe2", fake_rdev("/dev/null"));
	fake_sysfs_add(1, "rxe1", fake_rdev("/dev/zero"));
	fake_reset();
	fake.on_open = dev_nodes;
	assert_int_equal(uvio_device_open(NULL, &dev), 0);
	assert_string_equal(opened, "/dev/infiniband/uverbs0");
	assert_string_equal(uvio_device_name(dev), "rxe2");
	uvio_device_close(dev);
	assert_int_equal(uvio_device_open("rxe1", &dev), 0);
	assert_string_equal(opened, "/dev/infiniband/uverbs1");
	uvio_device_close(dev);
	/* By name the node is checked against netlink's: a node that is not
	 * the one the kernel named is refused, whatever sysfs says. */
	nl_devs[0].rdev = fake_rdev("/dev/null");
	assert_int_equal(uvio_device_open("rxe1", &dev), -ENODEV);
	assert_non_null(strstr(uvio_last_error(), "not the uverbs node RDMA netlink names for rxe1"));
}

/* Opening with no device, or a name no one lists, says which in
 * uvio_last_error(), as uvio_device(3) promises. */
static void open_without_device_says_why(void **state)
{
	struct uvio_device *dev = (struct uvio_device *)1;
	int p[2];
	(void)state;

	nl_reset(1, 1);
	fake_reset();
	assert_int_equal(pipe(p), 0);
	/* a message of something else first, so that a stale one cannot pass */
	assert_int_equal(uvio_device_adopt(p[0], 14, &dev), -ENODEV);
	assert_null(strstr(uvio_last_error(), "no RDMA device"));
	assert_int_equal(uvio_device_open(NULL, &dev), -ENODEV);
	assert_null(dev);
	assert_non_null(strstr(uvio_last_error(), "no RDMA device"));

	nl_add(1, "rxe0", 0);
	fake_sysfs_add(0, "rxe0", fake_rdev("/dev/null"));
	assert_int_equal(uvio_device_adopt(p[0], 14, &dev), -ENODEV);
	assert_int_equal(uvio_device_open("mlx5_7", &dev), -ENODEV);
	assert_non_null(strstr(uvio_last_error(), "mlx5_7: no such RDMA device"));
	close(p[0]);
	close(p[1]);
}

/* Netlink's device dump without GET_CHARDEV (kernels before it): the path
 * comes from sysfs, not left empty. */
static void no_get_chardev_path_from_sysfs(void **state)
{
	struct uvio_device_info devs[4], info;
	(void)state;

	nl_reset(1, 0);
	nl_add(3, "rxe0", 0);
	nl_add(4, "siw0", 1);
	nl_add(5, "noverbs0", -1);
	fake_sysfs_add(5, "rxe0", makedev(231, 197));
	fake_sysfs_add(2, "siw0", makedev(231, 194));
	assert_int_equal(uvio_list_devices(devs, 4), 3);
	assert_string_equal(devs[0].name, "siw0");
	assert_string_equal(devs[0].uverbs, "uverbs2");
	assert_string_equal(devs[0].path, "/dev/infiniband/uverbs2");
	assert_int_equal(devs[0].abi_version, 6);
	assert_int_equal(devs[0].source, UVIO_SOURCE_NETLINK);
	assert_int_equal(devs[0].driver_id_known, 0);	/* probed at open */
	assert_string_equal(devs[1].name, "rxe0");
	assert_string_equal(devs[1].path, "/dev/infiniband/uverbs5");
	assert_string_equal(devs[2].name, "noverbs0");	/* no node: last, no path */
	assert_string_equal(devs[2].path, "");
	assert_int_equal(uvio_find_device("uverbs5", &info), 0);
	assert_string_equal(info.name, "rxe0");
}

/* Only a uverbs character device is accepted: anything else is refused
 * before a single command is sent or byte written. */
static const char *file_instead(const char *path)
{
	snprintf(opened, sizeof(opened), "%s", path);
	return "/tmp/uvio-not-a-device";
}

ssize_t __real_write(int fd, const void *buf, size_t len);

static void only_uverbs_fds(void **state)
{
	struct uvio_device *dev = (struct uvio_device *)1;
	char name[32];
	struct stat st;
	int p[2], f, z;
	(void)state;

	nl_reset(0, 0);
	fake_reset();
	assert_int_equal(pipe(p), 0);
	f = open("/tmp/uvio-not-a-device", O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(f >= 0);
	assert_int_equal(__real_write(f, "fifteen bytes..", 15), 15);
	z = open("/dev/zero", O_RDWR);
	assert_true(z >= 0);

	assert_int_equal(uvio_device_adopt(p[0], 14, &dev), -ENODEV);
	assert_null(dev);
	assert_int_equal(uvio_device_adopt(f, 14, &dev), -ENODEV);
	assert_int_equal(uvio_device_adopt(f, UVIO_DRIVER_ID_PROBE, &dev), -ENODEV);
	assert_int_equal(uvio_device_adopt(z, 14, &dev), -ENODEV);	/* not listed */
	assert_non_null(strstr(uvio_last_error(), "not a uverbs device"));
	assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	assert_int_equal(fstat(f, &st), 0);
	assert_int_equal(st.st_size, 15);
	assert_int_equal(uvio_uverbs_fd_check(z, name, sizeof(name)), -ENODEV);
	assert_int_equal(uvio_uverbs_fd_check(-1, name, sizeof(name)), -EBADF);
	assert_int_equal(uvio_uverbs_fd_check(fake_uverbs_fd(), name, sizeof(name)), 0);
	assert_string_equal(name, "uverbs0");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 14, &dev), 0);
	uvio_device_close(dev);

	/* open: a listed device whose node is not what sysfs says */
	nl_reset(1, 1);
	nl_add(1, "rxe0", 0);
	fake_sysfs_add(0, "rxe0", fake_rdev("/dev/null"));
	fake.on_open = file_instead;
	assert_int_equal(uvio_device_open("rxe0", &dev), -ENODEV);
	assert_string_equal(opened, "/dev/infiniband/uverbs0");
	assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	assert_int_equal(fstat(f, &st), 0);
	assert_int_equal(st.st_size, 15);

	close(p[0]);
	close(p[1]);
	close(f);
	close(z);
	unlink("/tmp/uvio-not-a-device");
}

/* The fd check reads sysfs's link for the fd's device number: a uverbs
 * node is a device of class infiniband_verbs, whatever else it links to is
 * refused; without dev/char it compares the class entries' dev files. */
/* uverbs0-31 are known by their numbers alone: 231:192+N. */
static void reserved_uverbs_numbers(void **state)
{
	char name[32] = "";
	(void)state;

	assert_true(uvio_uverbs_reserved_number(makedev(231, 192), name, sizeof(name)));
	assert_string_equal(name, "uverbs0");
	assert_true(uvio_uverbs_reserved_number(makedev(231, 223), name, sizeof(name)));
	assert_string_equal(name, "uverbs31");
	/* umad and issm share the major; later nodes get a dynamic one */
	assert_false(uvio_uverbs_reserved_number(makedev(231, 191), name, sizeof(name)));
	assert_false(uvio_uverbs_reserved_number(makedev(231, 0), name, sizeof(name)));
	assert_false(uvio_uverbs_reserved_number(makedev(231, 224), name, sizeof(name)));
	assert_false(uvio_uverbs_reserved_number(makedev(230, 192), name, sizeof(name)));
	assert_false(uvio_uverbs_reserved_number(makedev(1, 3), name, sizeof(name)));
	assert_string_equal(name, "uverbs31");	/* untouched when not one */
}

static void fd_check_by_number(void **state)
{
	char name[32], link[128];
	dev_t zero = fake_rdev("/dev/zero");
	int z;
	(void)state;

	fake_reset();
	z = open("/dev/zero", O_RDWR);
	assert_true(z >= 0);
	nl_reset(0, 0);
	snprintf(link, sizeof(link), "%s/dev/char/%u:%u", fake_sysfs(), major(zero), minor(zero));
	assert_int_equal(symlink("../../devices/virtual/mem/zero", link), 0);
	assert_int_equal(uvio_uverbs_fd_check(z, name, sizeof(name)), -ENODEV);
	unlink(link);
	assert_int_equal(symlink("../../devices/virtual/not_infiniband_verbs/uverbs1", link), 0);
	assert_int_equal(uvio_uverbs_fd_check(z, name, sizeof(name)), -ENODEV);
	unlink(link);
	assert_int_equal(symlink("../../devices/pci0000:00/0000:00:03.0/infiniband_verbs/uverbs3",
				 link), 0);
	assert_int_equal(uvio_uverbs_fd_check(z, name, sizeof(name)), 0);
	assert_string_equal(name, "uverbs3");

	/* no dev/char: the class directory decides */
	fake_sysfs_no_dev_char();
	assert_int_equal(uvio_uverbs_fd_check(z, name, sizeof(name)), -ENODEV);
	fake_sysfs_add(7, "rxe7", zero);
	assert_int_equal(uvio_uverbs_fd_check(z, name, sizeof(name)), 0);
	assert_string_equal(name, "uverbs7");
	fake_sysfs_clear();
	close(z);
}


/* One socket serves the dump and the GET_CHARDEV after it; each answer is
 * read to its end whatever the datagrams hold, and an answer that is not
 * to the request just sent is passed over. A dump the kernel refuses, a
 * datagram cut or a message overrunning its datagram leaves sysfs to list. */
static void netlink_answers_in_step(void **state)
{
	struct uvio_device_info info;
	dev_t rdev;
	char name[16];
	(void)state;

	for (int per = 1; per <= 8; per += 7) {
		nl_reset(1, 1);
		for (int i = 0; i < 10; i++) {
			snprintf(name, sizeof(name), "rxe%d", i);
			nl_add((uint32_t)i + 100, name, i);
		}
		nl_per_datagram = per;
		nl_stale_first = 1;
		nl_connects = 0;
		assert_int_equal(uvio_find_device_node("rxe7", &info, &rdev), 0);
		assert_int_equal(nl_connects, 1);
		assert_string_equal(info.uverbs, "uverbs7");
		assert_int_equal(info.driver_id, 14);
		assert_int_equal(minor(rdev), 199);
		assert_int_equal(nl_queued, 0);	/* nothing left unread */
		assert_int_equal(uvio_list_devices(NULL, 0), 10);
		assert_int_equal(nl_queued, 0);
	}
	/* a GET_CHARDEV refused (a device without uverbs) is not fatal */
	nl_reset(1, 1);
	nl_add(1, "rxe0", 0);
	nl_add(2, "efa0", -1);
	nl_connects = 0;
	assert_int_equal(uvio_list_devices(NULL, 0), 2);
	assert_int_equal(nl_connects, 1);
	assert_int_equal(uvio_find_device("rxe0", &info), 0);
	assert_string_equal(info.path, "/dev/infiniband/uverbs0");
	/* the dump refused: sysfs's devices, none of netlink's */
	nl_dump_error = -EPERM;
	fake_sysfs_add(3, "siw0", makedev(231, 195));
	assert_int_equal(uvio_list_devices(NULL, 0), 1);
	assert_int_equal(uvio_find_device("siw0", &info), 0);
	assert_int_equal(info.source, UVIO_SOURCE_SYSFS);
	assert_string_equal(info.uverbs, "uverbs3");
	assert_int_equal(nl_queued, 0);
	/* a datagram larger than the buffer, or a message longer than its
	 * datagram (not a wait for an end that was in the broken part): the
	 * exchange failed, sysfs lists, and the socket is closed */
	for (int broken = NL_CUT; broken <= NL_OVERRUN; broken++) {
		nl_reset(1, 1);
		nl_add(1, "rxe0", 0);
		fake_sysfs_add(3, "siw0", makedev(231, 195));
		nl_broken_next = broken;
		assert_int_equal(uvio_list_devices(&info, 1), 1);
		assert_int_equal(info.source, UVIO_SOURCE_SYSFS);
		assert_string_equal(info.name, "siw0");
		assert_true(nl_fd >= 0);
		assert_int_equal(fcntl(nl_fd, F_GETFD), -1);
	}
}

/*
 * Port 1's netdev and transport: from netlink's PORT_GET, else sysfs (the
 * GID's netdev, then the device's net/ folder, the ifindex from class/net);
 * the caller's struct size as the stride, and a short one refused.
 */
static void ports_netdev_transport(void **state)
{
	struct uvio_device_info devs[2], info;
	struct {
		struct uvio_device_info info;
		uint64_t later;		/* a later release's field */
	} grown[3];
	(void)state;

	nl_reset(1, 1);
	nl_has_ports = 1;
	nl_add(3, "rxe0", 0);
	nl_add(4, "siw0", 1);
	fake_sysfs_put("class/infiniband/rxe0/ports/1/link_layer", "Ethernet\n");
	fake_sysfs_put("class/infiniband/siw0/ports/1/link_layer", "Ethernet\n");
	assert_int_equal(uvio_list_devices(devs, 2), 2);
	assert_string_equal(devs[0].netdev, "eth0");
	assert_int_equal(devs[0].netdev_ifindex, 200);
	assert_int_equal(devs[0].transport, UVIO_TRANSPORT_ROCE);
	assert_string_equal(devs[1].netdev, "eth1");
	assert_int_equal(devs[1].netdev_ifindex, 201);
	assert_int_equal(devs[1].transport, UVIO_TRANSPORT_IWARP);	/* an RNIC */
	assert_int_equal(uvio_find_device("siw0", &info), 0);
	assert_string_equal(info.netdev, "eth1");
	/* opening asks no ports: uvio_find_device_node() leaves them empty */
	dev_t rdev;
	assert_int_equal(uvio_find_device_node("siw0", &info, &rdev), 0);
	assert_string_equal(info.netdev, "");

	/* a kernel without the port's netdev: sysfs, the GID's netdev first,
	 * else (siw's GIDs name none on some kernels) the device's net/ */
	nl_reset(1, 1);
	nl_add(3, "rxe0", 0);
	nl_add(4, "siw0", 1);
	fake_sysfs_put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "veth3\n");
	fake_sysfs_put("class/net/veth3/ifindex", "33\n");
	fake_sysfs_put("class/infiniband/siw0/device/net/ens4/ifindex", "9\n");
	fake_sysfs_put("class/net/ens4/ifindex", "4\n");
	assert_int_equal(uvio_list_devices(devs, 2), 2);
	assert_string_equal(devs[0].netdev, "veth3");
	assert_string_equal(devs[1].netdev, "ens4");
	/* a netdev as the device's parent (siw on a dummy): the link's name */
	nl_add(5, "siw1", 2);
	fake_sysfs_put("class/net/dummy0/ifindex", "5\n");
	fake_sysfs_put("class/infiniband/siw1/node_type", "4: RNIC\n");
	{
		char link[512], target[512];

		snprintf(target, sizeof(target), "%s/class/net/dummy0", fake_sysfs());
		snprintf(link, sizeof(link), "%s/class/infiniband/siw1/device", fake_sysfs());
		unlink(link);
		assert_int_equal(symlink(target, link), 0);
	}
	assert_int_equal(uvio_list_devices(devs, 2), 3);
	assert_int_equal(uvio_find_device("siw1", &info), 0);
	assert_string_equal(info.netdev, "dummy0");
	assert_int_equal(info.netdev_ifindex, 5);
	/* nothing but the node GUID (siw on a netdev without a parent, 6.1):
	 * the netdev whose MAC it was made from */
	nl_add(6, "siw2", 3);
	fake_sysfs_put("class/infiniband/siw2/node_guid", "94aa:06ff:fe79:ebbd\n");
	fake_sysfs_put("class/net/other0/address", "96:aa:06:79:eb:be\n");
	fake_sysfs_put("class/net/dummy7/address", "96:aa:06:79:eb:bd\n");
	fake_sysfs_put("class/net/dummy7/ifindex", "7\n");
	assert_int_equal(uvio_find_device("siw2", &info), 0);
	assert_string_equal(info.netdev, "dummy7");
	assert_int_equal(info.netdev_ifindex, 7);
	assert_int_equal(uvio_list_devices(devs, 2), 4);
	assert_string_equal(devs[0].netdev, "veth3");
	assert_int_equal(devs[0].netdev_ifindex, 33);
	assert_string_equal(devs[1].netdev, "ens4");
	assert_int_equal(devs[1].netdev_ifindex, 4);

	/* the caller's size is the stride; what this library does not know
	 * reads as zero */
	memset(grown, 0xa5, sizeof(grown));
	assert_int_equal(uvio_list_devices_sz(&grown[0].info, 2, sizeof(grown[0])), 4);
	assert_string_equal(grown[0].info.name, "rxe0");
	assert_string_equal(grown[1].info.name, "siw0");
	assert_string_equal(grown[1].info.netdev, "ens4");
	assert_int_equal(grown[0].later, 0);
	assert_int_equal(grown[1].later, 0);
	assert_int_equal(grown[2].info.name[0], (char)0xa5);	/* past max: untouched */
	memset(&grown[0], 0xa5, sizeof(grown[0]));
	assert_int_equal(uvio_find_device_sz("siw0", &grown[0].info, sizeof(grown[0])), 0);
	assert_string_equal(grown[0].info.name, "siw0");
	assert_int_equal(grown[0].later, 0);
	assert_int_equal(grown[1].later, 0);

	/* shorter than 1.0's: refused, the function named */
	assert_int_equal(uvio_list_devices_sz(devs, 2, offsetof(struct uvio_device_info, netdev)),
			 -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_list_devices: EINVAL"));
	assert_non_null(strstr(uvio_last_error(), "shorter than 1.0's"));
	assert_int_equal(uvio_find_device_sz("siw0", &info, 8), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "uvio_find_device: EINVAL"));

	assert_string_equal(uvio_transport_name(UVIO_TRANSPORT_IB), "InfiniBand");
	assert_string_equal(uvio_transport_name(UVIO_TRANSPORT_ROCE), "RoCE");
	assert_string_equal(uvio_transport_name(UVIO_TRANSPORT_IWARP), "iWARP");
	assert_null(uvio_transport_name(UVIO_TRANSPORT_UNSPECIFIED + 1));
	assert_int_equal(uvio_netdev_addrs(0, NULL, 0), -EINVAL);
	/* lo's addresses, those getifaddrs() lists */
	unsigned int lo = if_nametoindex("lo");
	if (lo) {
		struct sockaddr_storage a[8];
		int n = uvio_netdev_addrs(lo, a, 8);

		assert_true(n >= 0);
		for (int i = 0; i < n && i < 8; i++)
			assert_true(a[i].ss_family == AF_INET || a[i].ss_family == AF_INET6);
		assert_int_equal(uvio_netdev_addrs(lo, NULL, 0), n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(beyond_32_devices),
		cmocka_unit_test(find_by_name_asks_once),
		cmocka_unit_test(netlink_answers_in_step),
		cmocka_unit_test(open_null_lowest_uverbs),
		cmocka_unit_test(open_without_device_says_why),
		cmocka_unit_test(no_get_chardev_path_from_sysfs),
		cmocka_unit_test(only_uverbs_fds),
		cmocka_unit_test(reserved_uverbs_numbers),
		cmocka_unit_test(fd_check_by_number),
		cmocka_unit_test(ports_netdev_transport),
	};

	fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
