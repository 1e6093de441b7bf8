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

/*
 * How a port carries RDMA: from the device's node type and the port's link
 * layer (sysfs ports/N/link_layer).
 */
enum uvio_transport {
	UVIO_TRANSPORT_UNKNOWN = 0,	/* not found out */
	UVIO_TRANSPORT_IB,		/* a CA, switch or router on InfiniBand */
	UVIO_TRANSPORT_ROCE,		/* a CA on Ethernet: RoCE (rxe, RoCE NICs) */
	UVIO_TRANSPORT_IWARP,		/* an RNIC: iWARP (siw, cxgb4, irdma's iWARP) */
	UVIO_TRANSPORT_USNIC,		/* Cisco usNIC, raw or over UDP */
	UVIO_TRANSPORT_UNSPECIFIED,	/* node type "unspecified" (efa, ...) */
};

/* "InfiniBand", "RoCE", "iWARP", "usNIC", "unspecified", "unknown"; NULL
 * for a value the library does not know. */
UVIO_API const char *uvio_transport_name(uint32_t transport);

/*
 * One device, as discovery found it. Sized: uvio_list_devices() and
 * uvio_find_device() are macros that pass the caller's sizeof of this
 * struct, so a later 1.x may add fields at its end: the library uses the
 * caller's size as the array's stride and writes no byte past it. A size
 * below 1.0's is refused (-EINVAL, naming the function). Every field is
 * the caller's to read.
 */
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
	/* Port 1's (rxe, siw and most RDMA NICs have one port per device;
	 * UVIO_TRANSPORT_UNKNOWN, 0 and "" where not found out): */
	uint8_t transport;		/* enum uvio_transport */
	uint32_t netdev_ifindex;	/* its network device's ifindex */
	char netdev[16];		/* and name (IFNAMSIZ), e.g. eth0 */
};

/*
 * Fill up to max entries, the lowest uverbs nodes first (devices without
 * one last). Returns the number of devices present (may exceed max: there
 * is no limit), or a negative errno when neither netlink nor sysfs could be
 * read. The netdev of a port comes from RDMA netlink's port attributes,
 * else sysfs (the port's GID netdev, then the device's net/ folder).
 */
UVIO_API int uvio_list_devices_sz(struct uvio_device_info *devs, size_t max, size_t size);
#define uvio_list_devices(devs, max)                                           \
	uvio_list_devices_sz((devs), (max), sizeof(struct uvio_device_info))

/* The device with this IB name (or uverbs name, or /dev path). -ENODEV. */
UVIO_API int uvio_find_device_sz(const char *name, struct uvio_device_info *info, size_t size);
#define uvio_find_device(name, info)                                           \
	uvio_find_device_sz((name), (info), sizeof(struct uvio_device_info))

/*
 * The IPv4 and IPv6 addresses of the network device ifindex (a
 * uvio_device_info's netdev_ifindex), as getifaddrs() lists them: up to max
 * into addrs (struct sockaddr_in or sockaddr_in6 in each, by ss_family).
 * Returns how many the device has (may exceed max), or a negative errno
 * (-EINVAL for ifindex 0, getifaddrs()'s failure).
 */
struct sockaddr_storage;
UVIO_API int uvio_netdev_addrs(uint32_t ifindex, struct sockaddr_storage *addrs, size_t max);

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
 * here: a shared counter would cost every verb an atomic operation.)
 * Sized as struct uvio_device_info is: the macro passes the caller's
 * sizeof, a later 1.x adds counters at the end, a size below 1.0's is
 * -EINVAL. 0 or -EINVAL (NULL). */
struct uvio_device_stats {
	uint64_t fallbacks;		/* ENOTTY or EPROTONOSUPPORT retries */
};
UVIO_API int uvio_device_get_stats_sz(const struct uvio_device *dev,
				      struct uvio_device_stats *stats, size_t size);
#define uvio_device_get_stats(dev, stats)                                      \
	uvio_device_get_stats_sz((dev), (stats), sizeof(struct uvio_device_stats))

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
