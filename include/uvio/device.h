/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: devices, command paths and logging.
 *
 * Discovery asks RDMA netlink (through libnl) and falls back to sysfs. A
 * device handle owns (or, when adopted, borrows) an open uverbs fd, knows its
 * driver_id, and decides once which command path the kernel takes: today's
 * ioctl, the 2017 ioctl layout, or the legacy write() commands.
 *
 * Thread safety: a struct uvio_device may be shared by threads for every
 * verb; the path decision is atomic. Closing, and pinning a path with
 * uvio_device_set_path(), are not to be raced with use of the same handle.
 */
#ifndef UVIO_DEVICE_H
#define UVIO_DEVICE_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum uvio_path {
	UVIO_PATH_AUTO = 0,	/* not decided yet / let the library decide */
	UVIO_PATH_IOCTL,	/* RDMA_VERBS_IOCTL, today's 24-byte header */
	UVIO_PATH_IOCTL_2017,	/* the 16-byte header of kernels 4.14-4.16 */
	UVIO_PATH_WRITE,	/* legacy write() commands */
	UVIO_PATH_INVOKE_WRITE,	/* a write() command carried by the ioctl
				 * method DEVICE/INVOKE_WRITE (Linux 5.0+) */
	UVIO_PATH_SYSFS,	/* reported only: no command could ask, the
				 * answer was read from sysfs (GID queries on
				 * write() or without the GID methods) */
};

UVIO_API const char *uvio_path_name(enum uvio_path path);

enum uvio_info_source {
	UVIO_SOURCE_NETLINK = 1,
	UVIO_SOURCE_SYSFS,
};

struct uvio_device_info {
	char name[64];			/* IB device name, e.g. rxe0 */
	char uverbs[32];		/* char device name, e.g. uverbs0 */
	char path[64];			/* /dev/infiniband/uverbs0 */
	uint32_t index;			/* RDMA netlink device index */
	uint32_t driver_id;		/* enum rdma_driver_id, if known */
	uint32_t abi_version;		/* uverbs ABI version */
	uint32_t num_ports;
	uint8_t node_type;		/* enum rdma_node_type (1 CA, 4 RNIC, ...) */
	uint8_t driver_id_known;	/* 0: the kernel did not say; probed at open */
	uint8_t source;			/* enum uvio_info_source */
};

/*
 * Fill up to max entries, the lowest uverbs nodes first (devices without
 * one last). Returns the number of devices present (may exceed max: there
 * is no limit), or a negative errno when neither netlink nor sysfs could be
 * read.
 */
UVIO_API int uvio_list_devices(struct uvio_device_info *devs, size_t max);

/* The device with this IB name (or uverbs name, or /dev path). -ENODEV. */
UVIO_API int uvio_find_device(const char *name, struct uvio_device_info *info);

struct uvio_device;

/*
 * Open a device by IB name, uverbs name or /dev path; NULL opens the one
 * with the lowest uverbs node. The node opened must be the character
 * device the kernel names for it (by IB name: netlink's GET_CHARDEV answer;
 * else the sysfs class infiniband_verbs), else -ENODEV.
 * The path mode comes from UVERBS_IOCTL_PATH (auto, ioctl, ioctl2017,
 * invoke-write, write) when set, else auto. Returns 0 or a negative errno.
 */
UVIO_API int uvio_device_open(const char *name, struct uvio_device **dev);

/*
 * Use an fd that someone else opened, such as the cmd_fd of a libibverbs
 * ibv_context. driver_id: the device's enum rdma_driver_id, or
 * UVIO_DRIVER_ID_PROBE to find it with commands that change nothing. The fd
 * stays the caller's: uvio_device_close() does not close it. Only a uverbs
 * character device is accepted (fstat, then sysfs's /sys/dev/char/MAJ:MIN
 * must be a device of class infiniband_verbs); anything else answers
 * -ENODEV and nothing is sent to it.
 */
#define UVIO_DRIVER_ID_PROBE UINT32_MAX
UVIO_API int uvio_device_adopt(int fd, uint32_t driver_id, struct uvio_device **dev);

/* Close (when owned) and free. Objects still alive on the fd are destroyed
 * by the kernel when the fd closes. */
UVIO_API void uvio_device_close(struct uvio_device *dev);

UVIO_API int uvio_device_fd(const struct uvio_device *dev);
UVIO_API uint32_t uvio_device_driver_id(const struct uvio_device *dev);
UVIO_API const char *uvio_device_name(const struct uvio_device *dev);

/* Pin the path (UVIO_PATH_AUTO lets the library decide again). */
UVIO_API int uvio_device_set_path(struct uvio_device *dev, enum uvio_path path);
/* The path in force: the pinned one, the decided one, or AUTO before the
 * first command. */
UVIO_API enum uvio_path uvio_device_path(const struct uvio_device *dev);

/* What path discovery cost a device. (Syscalls per verb are not counted
 * here: a shared counter would cost every verb an atomic operation.) */
struct uvio_device_stats {
	uint64_t fallbacks;		/* ENOTTY or EPROTONOSUPPORT retries */
};
UVIO_API void uvio_device_get_stats(const struct uvio_device *dev,
				    struct uvio_device_stats *stats);

/*
 * Logging: nothing is printed unless a callback is set. The callback gets a
 * level (LOG_ERR .. LOG_DEBUG of <syslog.h>), one line without newline, and
 * the ctx given with it. fn and ctx are set as one pair (fn NULL silences);
 * the previous pair goes to *old when old is not NULL, so that it can be
 * restored. When uvio_set_log() returns, no thread runs or will run the
 * previous callback (it waits for those in flight): the previous ctx may
 * be freed. Returns 0, or -EDEADLK when called from inside a callback.
 * Callbacks may run on any thread, at the same time.
 */
typedef void (*uvio_log_fn)(int level, const char *msg, void *ctx);
struct uvio_log_handler {
	uvio_log_fn fn;
	void *ctx;
};
UVIO_API int uvio_set_log(uvio_log_fn fn, void *ctx, struct uvio_log_handler *old);

#ifdef __cplusplus
}
#endif
#endif
