// SPDX-License-Identifier: MIT
/* Device handles: open by name or path, adopt an fd, probe the driver id. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <uvio/diag.h>
#include "cmd/run.h"
#include "cmd/sys.h"
#include "device/dev.h"
#include "device/path.h"
#include "device/discover.h"
#include "report/report.h"
#include "device/trace.h"
#include "report/sbuf.h"

/* The kernel checks driver_id before it looks up the object, so an empty
 * command for an object no kernel has answers EINVAL for a wrong id and
 * EPROTONOSUPPORT for the right one, and creates nothing. The refusals are
 * the answers sought, not failures: uvio_cmd_run() leaves no text. */
static int probe_driver_id(int fd, uint32_t *driver_id)
{
	for (uint32_t id = 0; id < 64; id++) {
		int ret;

		UVIO_CMD_DEFINE(cmd, 0, 0x3ff, 0);
		uvio_cmd_set_driver_id(&cmd, id);
		ret = uvio_cmd_run(fd, &cmd);
		if (ret == -EPROTONOSUPPORT) {
			*driver_id = id;
			return 0;
		}
		if (ret != -EINVAL)
			return ret;	/* ENOTTY: no ioctl, so no id needed */
	}
	return -ENOENT;
}

/* The probe failed (ENOTTY, the write()-only kernel, is no failure). */
static __attribute__((noinline, cold)) int probe_failed(const char *name, int ret)
{
	return uvio_fail(LOG_ERR, ret, "%s: %s: driver id probe failed: %s", name,
			 uvio_errno_name(ret),
			 ret == -ENOENT ? "the kernel refused every driver id from 0 to 63"
					: uvio_errno_meaning(ret, UVIO_PATH_IOCTL));
}

static __attribute__((noinline, cold)) int bad_arg(const char *fn, const char *arg,
						   const char *why)
{
	return uvio_fail(LOG_DEBUG, -EINVAL, "%s: EINVAL: argument %s: %s", fn, arg, why);
}

/* Names are copied on every open and adopt: no printf machinery there. */
static void copy_name(char *dst, size_t size, const char *src)
{
	struct sbuf sb;

	sb_init(&sb, dst, size);
	sb_puts(&sb, src);
}

/*
 * A handle's two settings from the environment, UVERBS_IOCTL_PATH and
 * UVERBS_IOCTL_TRACE, read at every open and adopt (a program may set them
 * between opens) in one pass over it: two getenv() calls were a third of
 * an adopt's instructions. The first of a name wins, as with getenv().
 */
struct env_settings {
	const char *path, *trace;
};

static void read_env(struct env_settings *s)
{
	static const char prefix[] = "UVERBS_IOCTL_";
	const size_t plen = sizeof(prefix) - 1;

	s->path = s->trace = NULL;
	for (char **e = environ; e && *e; e++) {
		const char *k = *e + plen;

		if (**e != 'U' || strncmp(*e, prefix, plen))
			continue;
		if (!s->path && !strncmp(k, "PATH=", 5))
			s->path = k + 5;
		else if (!s->trace && !strncmp(k, "TRACE=", 6))
			s->trace = k + 6;
	}
}

static int path_from_env(const char *v, enum uvio_path *path)
{
	*path = UVIO_PATH_AUTO;
	if (!v || !*v || !strcmp(v, "auto"))
		return 0;
	if (!strcmp(v, "ioctl"))
		*path = UVIO_PATH_IOCTL;
	else if (!strcmp(v, "ioctl2017") || !strcmp(v, "ioctl-2017"))
		*path = UVIO_PATH_IOCTL_2017;
	else if (!strcmp(v, "write"))
		*path = UVIO_PATH_WRITE;
	else if (!strcmp(v, "invoke-write"))
		*path = UVIO_PATH_INVOKE_WRITE;
	else
		return uvio_fail(LOG_ERR, -EINVAL, "UVERBS_IOCTL_PATH=%s: EINVAL: expected auto, "
				 "ioctl, ioctl2017, invoke-write or write", v);
	return 0;
}

static int device_new(int fd, bool owned, const char *name, const char *ibdev,
		      struct uvio_device **out)
{
	struct uvio_device *dev = calloc(1, sizeof(*dev));
	struct env_settings env;
	enum uvio_path pinned;
	int ret;

	read_env(&env);
	ret = path_from_env(env.path, &pinned);

	if (!dev)
		return uvio_fail(LOG_ERR, -ENOMEM, "%s: ENOMEM: no memory for the handle", name);
	if (ret) {
		free(dev);
		return ret;
	}
	dev->fd = fd;
	dev->owned = owned;
	uvio_path_init(&dev->paths, pinned);
	dev->trace = env.trace && *env.trace && strcmp(env.trace, "0");
	copy_name(dev->name, sizeof(dev->name), name);
	copy_name(dev->ibdev, sizeof(dev->ibdev), ibdev);
	*out = dev;
	return 0;
}

/* Refuse anything but a uverbs character device before a single command
 * reaches it: on a file, ioctl answers ENOTTY and the write() fallback
 * would write commands into it. With the node netlink gave for the device
 * (rdev), the node's fstat() alone decides and the name is netlink's; else sysfs
 * decides, and the name stays unknown until something needs it. */
static int check_fd(int fd, const char *what, dev_t rdev, const char *name, char ibdev[64])
{
	char uverbs[32];
	struct stat st;
	int ret;

	ibdev[0] = 0;
	if (rdev) {
		ret = uvio_sys_fstat(fd, &st);
		ret = ret ? ret : S_ISCHR(st.st_mode) && st.st_rdev == rdev ? 0 : -ENODEV;
		if (!ret)
			copy_name(ibdev, 64, name);
	} else {
		/* Which IB device it is matters only to what sysfs alone tells
		 * (GIDs on write()), which asks then. */
		ret = uvio_uverbs_fd_check(fd, uverbs, sizeof(uverbs));
	}
	if (ret == -ENODEV) {
		if (rdev)
			uvio_set_last_error("%s: not the uverbs node RDMA netlink names for %s: "
					    "refused, nothing sent", what, name);
		else
			uvio_set_last_error("%s: not a uverbs device (a character device of "
					    "sysfs's class infiniband_verbs): refused, nothing sent",
					    what);
		uvio_log(LOG_ERR, "%s", uvio_last_error());
	} else if (ret) {
		uvio_fail(LOG_ERR, ret, "%s: %s: cannot tell whether it is a uverbs device (fstat, "
			  "sysfs): refused, nothing sent", what, uvio_errno_name(ret));
	}
	return ret;
}

UVIO_API int uvio_device_open(const char *name, struct uvio_device **out)
{
	struct uvio_device_info info;
	struct uvio_device *dev;
	dev_t rdev = 0;
	char ibdev[64];
	int fd, ret;

	if (!out)
		return bad_arg("uvio_device_open", "dev", "NULL");
	*out = NULL;
	if (name) {
		/* Discovery says why it failed; no such device is said here. */
		ret = uvio_find_device_node(name, &info, &rdev);
		if (ret == -ENODEV)
			uvio_set_last_error("%s: no such RDMA device (netlink and sysfs list no device, "
					    "uverbsN node or /dev/infiniband path of that name)", name);
	} else {
		ret = uvio_list_devices_bare(&info, 1);
		ret = ret < 0 ? ret : ret == 0 ? -ENODEV : 0;
		if (ret == -ENODEV)
			uvio_set_last_error("no RDMA device: netlink and sysfs list none (is an RDMA "
					    "driver loaded, and ib_uverbs?)");
	}
	if (ret)
		return ret;
	if (!info.path[0]) {
		uvio_set_last_error("%s: no uverbs node (is ib_uverbs loaded?)", info.name);
		return -ENODEV;
	}
	fd = open(info.path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		uvio_set_last_error("%s: open %s: %s", info.name, info.path, strerror(-ret));
		uvio_log(LOG_ERR, "%s", uvio_last_error());
		return ret;
	}
	/* The node must be the one the kernel names for the device (netlink's
	 * answer, or sysfs), not whatever a container or a stale /dev put at
	 * that path. */
	ret = check_fd(fd, info.path, rdev, info.name, ibdev);
	if (!ret)
		ret = device_new(fd, true, info.name, ibdev, &dev);
	if (!ret && info.driver_id_known) {
		dev->driver_id = info.driver_id;
	} else if (!ret) {
		ret = probe_driver_id(fd, &dev->driver_id);
		if (ret == -ENOTTY)	/* no ioctl at all: write() needs no id */
			ret = 0;
		if (ret) {
			probe_failed(info.name, ret);
			free(dev);
		}
	}
	if (ret) {
		close(fd);
		return ret;
	}
	*out = dev;
	return 0;
}

UVIO_API int uvio_device_adopt(int fd, uint32_t driver_id, struct uvio_device **out)
{
	char name[32], ibdev[64];
	struct sbuf sb;
	int ret;

	if (!out)
		return bad_arg("uvio_device_adopt", "dev", "NULL");
	*out = NULL;
	if (fd < 0)
		return bad_arg("uvio_device_adopt", "fd", "negative");
	sb_init(&sb, name, sizeof(name));
	sb_puts(&sb, "fd");
	sb_putu(&sb, (unsigned int)fd);
	ret = check_fd(fd, name, 0, NULL, ibdev);
	if (ret)
		return ret;
	if (driver_id == UVIO_DRIVER_ID_PROBE) {
		ret = probe_driver_id(fd, &driver_id);
		if (ret == -ENOTTY)
			driver_id = 0, ret = 0;
		if (ret)
			return probe_failed(name, ret);
	}
	ret = device_new(fd, false, name, ibdev, out);
	if (!ret)
		(*out)->driver_id = driver_id;
	return ret;
}

UVIO_API void uvio_device_close(struct uvio_device *dev)
{
	if (!dev)
		return;
	/* The driver half's memory (queues, doorbells, mapped pages) and
	 * objects of its own, while the fd is there; the kernel frees the
	 * rest with the fd. */
	if (dev->hw_release)
		dev->hw_release(dev);
	if (dev->owned)
		close(dev->fd);
	free(dev);
}

UVIO_API int uvio_device_fd(const struct uvio_device *dev)
{
	return dev->fd;
}

UVIO_API uint32_t uvio_device_driver_id(const struct uvio_device *dev)
{
	return dev->driver_id;
}

UVIO_API const char *uvio_device_name(const struct uvio_device *dev)
{
	return dev->name;
}

UVIO_API int uvio_device_set_path(struct uvio_device *dev, enum uvio_path path)
{
	if (path > UVIO_PATH_INVOKE_WRITE)
		return bad_arg("uvio_device_set_path", "path", "no enum uvio_path value");
	uvio_path_pin(&dev->paths, path);
	return 0;
}

UVIO_API enum uvio_path uvio_device_path(const struct uvio_device *dev)
{
	return uvio_path_current(&dev->paths);
}

/* struct uvio_device_stats is sized by the caller's sizeof (the macro of
 * <uvio/device.h>): 1.0's ends at fallbacks; what a later release's struct
 * has past what this library knows is zeroed. */
#define STATS_SIZE_1_0 (offsetof(struct uvio_device_stats, fallbacks) + sizeof(uint64_t))

UVIO_API int uvio_device_get_stats_sz(const struct uvio_device *dev,
				      struct uvio_device_stats *s, size_t size)
{
	struct uvio_device_stats mine = { .fallbacks = 0 };

	if (!dev || !s)
		return bad_arg("uvio_device_get_stats", !dev ? "dev" : "stats", "NULL");
	if (size < STATS_SIZE_1_0)
		return bad_arg("uvio_device_get_stats", "stats",
			       "shorter than 1.0's struct uvio_device_stats (not built against "
			       "<uvio/device.h>, or a wrong size to uvio_device_get_stats_sz)");
	mine.fallbacks = uvio_path_fallbacks(&dev->paths);
	memcpy(s, &mine, size < sizeof(mine) ? size : sizeof(mine));
	if (size > sizeof(mine))
		memset((char *)s + sizeof(mine), 0, size - sizeof(mine));
	return 0;
}
