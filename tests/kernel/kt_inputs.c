/*
 * What the library must refuse or find, on the real kernel:
 *  - adopt and open accept only a uverbs character device: a regular file,
 *    /dev/null, or a file bind-mounted over /dev/infiniband/uverbsN is
 *    refused with ENODEV and nothing is written to it;
 *  - open(NULL) opens the lowest uverbs node, whatever netlink's order
 *    (a device made later can take a lower, freed node);
 *  - discovery beyond 32 devices (SR-IOV hosts have more).
 * The last two remove the guest's devices and put them back at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uvio.h>
#include "kt.h"

#define JUNK "/tmp/kt-inputs-file"

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static int make_junk(void)
{
	int fd = open(JUNK, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd >= 0 && write(fd, "fifteen bytes..", 15) != 15) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void adopt_only_uverbs(const struct uvio_device_info *info)
{
	struct uvio_device *dev;
	int f = make_junk(), n = open("/dev/null", O_RDWR), u = open(info->path, O_RDWR);
	uint32_t pd;

	KT_CHECK(f >= 0 && n >= 0 && u >= 0, "opening the test files");
	KT_EQ(uvio_device_adopt(f, 14, &dev), -ENODEV);
	KT_EQ(uvio_device_adopt(f, UVIO_DRIVER_ID_PROBE, &dev), -ENODEV);
	KT_EQ(uvio_device_adopt(n, 14, &dev), -ENODEV);
	printf("  adopt(regular file): %s\n", uvio_last_error());
	KT_EQ(size_of(JUNK), 15);
	/* the real node is accepted, and works */
	KT_EQ(uvio_device_adopt(u, UVIO_DRIVER_ID_PROBE, &dev), 0);
	if (!kt_failures) {
		struct uvio_context ctx = { .sz = sizeof(ctx) };

		KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
		KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
		KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
		close(ctx.async_fd);
		uvio_device_close(dev);
	}
	close(f);
	close(n);
	close(u);
}

/* A file bind-mounted over the device node, in a mount namespace of a
 * child's own: open by name must refuse it. */
static void open_checks_node(const struct uvio_device_info *info)
{
	pid_t pid;
	int status;

	close(make_junk());
	pid = fork();
	if (pid == 0) {
		struct uvio_device *dev;
		int ret;

		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    mount(JUNK, info->path, NULL, MS_BIND, NULL)) {
			perror("mount namespace");
			_exit(2);
		}
		ret = uvio_device_open(info->name, &dev);
		printf("  open(%s) over a bind-mounted file: %d (%s)\n", info->name, ret,
		       uvio_last_error());
		_exit(ret == -ENODEV ? 0 : 1);
	}
	KT_CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		 WEXITSTATUS(status) == 0, "open over a bind-mounted file: child exit %d",
		 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	KT_EQ(size_of(JUNK), 15);
	unlink(JUNK);
}

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[256], out[4096];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ret = kt_run(cmd, out, sizeof(out));
	if (ret)
		printf("  $ %s: exit %d: %s\n", cmd, ret, out);
	return ret;
}

/* Which uverbs node sysfs gives an IB device, or -1. */
static int node_of(const char *ibdev)
{
	struct uvio_device_info info;

	setenv("UVERBS_IOCTL_DISCOVERY", "sysfs", 1);
	int ret = uvio_find_device(ibdev, &info);
	unsetenv("UVERBS_IOCTL_DISCOVERY");
	return ret ? -1 : atoi(info.uverbs + 6);
}

#define MANY 34

static void discovery_order_and_count(void)
{
	struct uvio_device_info info = { .uverbs = "?" };
	struct uvio_device *dev;
	char links[1024], name[32];
	bool had_rxe, had_siw;

	kt_run("rdma link show", links, sizeof(links));
	had_rxe = strstr(links, "link rxe0/") != NULL;
	had_siw = strstr(links, "link siw0/") != NULL;
	/* Every node free: then a_rxe takes uverbs0, b_rxe uverbs1; a_rxe
	 * goes, c_rxe comes after b_rxe in netlink's order and takes
	 * uverbs0. */
	if (had_rxe)
		sh("rdma link delete rxe0");
	if (had_siw)
		sh("rdma link delete siw0");
	for (int i = 0; i < MANY + 2; i++)
		sh("ip link add kd%d type dummy && ip link set kd%d up", i, i);
	KT_EQ(sh("rdma link add a_rxe type rxe netdev kd0"), 0);
	KT_EQ(sh("rdma link add b_rxe type rxe netdev kd1"), 0);
	KT_EQ(sh("rdma link delete a_rxe"), 0);
	KT_EQ(sh("rdma link add c_rxe type rxe netdev kd0"), 0);
	printf("  b_rxe on uverbs%d, c_rxe (made later) on uverbs%d\n", node_of("b_rxe"),
	       node_of("c_rxe"));
	KT_CHECK(node_of("c_rxe") < node_of("b_rxe"), "the kernel gave c_rxe the higher node");
	KT_EQ(uvio_device_open(NULL, &dev), 0);
	if (dev) {
		printf("  open(NULL) -> %s\n", uvio_device_name(dev));
		KT_CHECK(!strcmp(uvio_device_name(dev), "c_rxe"), "open(NULL) opened %s",
			 uvio_device_name(dev));
		uvio_device_close(dev);
	}

	/* More devices than a fixed array of 32 holds. */
	for (int i = 0; i < MANY; i++)
		KT_EQ(sh("rdma link add m%d_rxe type rxe netdev kd%d", i, i + 2), 0);
	KT_EQ(uvio_list_devices(NULL, 0), MANY + 2);
	KT_EQ(uvio_find_device("m33_rxe", &info), 0);
	snprintf(name, sizeof(name), "uverbs%d", node_of("m33_rxe"));
	KT_CHECK(!strcmp(info.uverbs, name), "m33_rxe: %s, sysfs says %s", info.uverbs, name);
	KT_EQ(uvio_device_open("m33_rxe", &dev), 0);
	if (dev) {
		struct uvio_context ctx = { .sz = sizeof(ctx) };

		KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
		close(ctx.async_fd);
		uvio_device_close(dev);
	}
	printf("  %d devices listed; m33_rxe found on %s\n", uvio_list_devices(NULL, 0),
	       info.uverbs);

	/* Back as it was, and only that: a siw boot that came out of here
	 * with an rxe0 ran every later program on rxe instead. */
	for (int i = 0; i < MANY; i++)
		sh("rdma link delete m%d_rxe", i);
	sh("rdma link delete b_rxe");
	sh("rdma link delete c_rxe");
	for (int i = 0; i < MANY + 2; i++)
		sh("ip link delete kd%d", i);
	if (had_rxe)
		KT_EQ(sh("rdma link add rxe0 type rxe netdev dummy0"), 0);
	if (had_siw)
		KT_EQ(sh("rdma link add siw0 type siw netdev dummy0"), 0);
	kt_run("rdma link show", links, sizeof(links));
	KT_CHECK(!!strstr(links, "link rxe0/") == had_rxe && !!strstr(links, "link siw0/") == had_siw,
		 "the devices after the test differ from before: %s", links);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	if (n <= 0) {
		printf("SKIP: no uverbs device\n");
		return 77;
	}
	for (int i = 0; i < n && i < 8; i++) {
		printf("== %s (%s)\n", devs[i].name, devs[i].path);
		adopt_only_uverbs(&devs[i]);
		open_checks_node(&devs[i]);
	}
	if (getenv("KT_QUICK"))
		printf("KT_QUICK: discovery order and count left out\n");
	else
		discovery_order_and_count();
	return kt_exit();
}
