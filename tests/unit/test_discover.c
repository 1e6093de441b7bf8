/*
 * Discovery and the fd check against a stand-in RDMA netlink (libnl's calls
 * wrapped) and a sysfs tree of the test's own: more devices than a fixed
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

static nl_recvmsg_msg_cb_t nl_cb;
static void *nl_cb_arg;
static int nl_pending_type;
static uint32_t nl_pending_index;
static int nl_chardev_asked;	/* GET_CHARDEV requests answered so far */

#define NLDEV(cmd) RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd)

int __wrap_nl_connect(struct nl_sock *sk, int protocol);
int __wrap_nl_connect(struct nl_sock *sk, int protocol)
{
	(void)sk;
	assert_int_equal(protocol, NETLINK_RDMA);
	return nl_up ? 0 : -NLE_PROTO_MISMATCH;
}

int __wrap_nl_socket_modify_cb(struct nl_sock *sk, enum nl_cb_type type, enum nl_cb_kind kind,
			       nl_recvmsg_msg_cb_t cb, void *arg);
int __wrap_nl_socket_modify_cb(struct nl_sock *sk, enum nl_cb_type type, enum nl_cb_kind kind,
			       nl_recvmsg_msg_cb_t cb, void *arg)
{
	(void)sk; (void)kind;
	assert_int_equal(type, NL_CB_VALID);
	nl_cb = cb;
	nl_cb_arg = arg;
	return 0;
}

int __wrap_nl_send_auto(struct nl_sock *sk, struct nl_msg *msg);
int __wrap_nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);
	struct nlattr *idx;

	(void)sk;
	nl_pending_type = h->nlmsg_type;
	idx = nlmsg_find_attr(h, 0, RDMA_NLDEV_ATTR_DEV_INDEX);
	nl_pending_index = idx ? nla_get_u32(idx) : UINT32_MAX;
	return (int)h->nlmsg_len;
}

static void deliver(struct nl_msg *m)
{
	nl_cb(m, nl_cb_arg);
	nlmsg_free(m);
}

int __wrap_nl_recvmsgs_default(struct nl_sock *sk);
int __wrap_nl_recvmsgs_default(struct nl_sock *sk)
{
	(void)sk;
	assert_int_equal(nl_pending_type, NLDEV(RDMA_NLDEV_CMD_GET));
	for (int i = 0; i < nl_count; i++) {
		struct nl_msg *m = nlmsg_alloc_simple(NLDEV(RDMA_NLDEV_CMD_GET), 0);

		nla_put_u32(m, RDMA_NLDEV_ATTR_DEV_INDEX, nl_devs[i].index);
		nla_put_string(m, RDMA_NLDEV_ATTR_DEV_NAME, nl_devs[i].name);
		nla_put_u32(m, RDMA_NLDEV_ATTR_PORT_INDEX, 1);
		deliver(m);
	}
	return 0;
}

int __wrap_nl_wait_for_ack(struct nl_sock *sk);
int __wrap_nl_wait_for_ack(struct nl_sock *sk)
{
	(void)sk;
	assert_int_equal(nl_pending_type, NLDEV(RDMA_NLDEV_CMD_GET_CHARDEV));
	if (!nl_has_chardev)
		return -NLE_OPNOTSUPP;	/* an unknown command: EOPNOTSUPP */
	for (int i = 0; i < nl_count; i++) {
		char name[16];
		struct nl_msg *m;

		if (nl_devs[i].index != nl_pending_index)
			continue;
		if (nl_devs[i].uverbs < 0)
			return -NLE_OPNOTSUPP;
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
		deliver(m);
		return 0;
	}
	return -NLE_NODEV;
}

static void nl_reset(int up, int chardev)
{
	nl_count = 0;
	nl_up = up;
	nl_has_chardev = chardev;
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
	assert_int_equal(uvio_list_devices(NULL, 0), 40);
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
	assert_int_equal(uvio_find_device_node("mlx5_39", &info, &rdev), 0);
	assert_int_equal(nl_chardev_asked, 1);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(beyond_32_devices),
		cmocka_unit_test(find_by_name_asks_once),
		cmocka_unit_test(open_null_lowest_uverbs),
		cmocka_unit_test(open_without_device_says_why),
		cmocka_unit_test(no_get_chardev_path_from_sysfs),
		cmocka_unit_test(only_uverbs_fds),
		cmocka_unit_test(reserved_uverbs_numbers),
		cmocka_unit_test(fd_check_by_number),
	};

	fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
