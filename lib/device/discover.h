/* SPDX-License-Identifier: MIT */
/* Internal: discovery's answers that a device handle needs. */
#ifndef UVIO_LIB_DISCOVER_H
#define UVIO_LIB_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <uvio/device.h>

/* Where sysfs is mounted: "/sys". Tests point it at a tree of their own. */
extern const char *uvio_sysfs_root;

/* The first line of a sysfs file, without its newline (open and read, no
 * heap): 0, or the negative errno of open or read. */
int uvio_sysfs_read(const char *path, char *buf, size_t size);

/* Whether the sysfs file dev_file ("major:minor") names rdev. */
int uvio_sysfs_dev_is(const char *dev_file, dev_t rdev);

/*
 * The numbers the kernel keeps for uverbs0-31: major 231 (InfiniBand's),
 * minors 192-223, uverbsN at 192 + N. Further nodes get a dynamic major.
 */
#define UVIO_UVERBS_MAJOR 231u
#define UVIO_UVERBS_BASE_MINOR 192u
#define UVIO_UVERBS_RESERVED 32u
/* Whether rdev is one of them; if so its name (uverbsN) in uverbs. */
bool uvio_uverbs_reserved_number(dev_t rdev, char *uverbs, size_t size);

/*
 * Whether fd is open on a uverbs character device: fstat() says a
 * character device, with one of the numbers above, or one that sysfs's
 * dev/char/MAJ:MIN links to a device of the infiniband_verbs class (where
 * sysfs has no dev/char: its major:minor is the dev of one entry of
 * /sys/class/infiniband_verbs). 0 and the node's name (uverbsN) in uverbs;
 * -EBADF for a closed fd; -ENODEV for anything else (a file, a pipe,
 * another device, or no uverbs class to compare with).
 */
int uvio_uverbs_fd_check(int fd, char *uverbs, size_t size);

/*
 * uvio_find_device, and the node the kernel gave the device (its dev_t, from
 * netlink's GET_CHARDEV) when it was found by IB name; 0 when not known
 * (found through sysfs, by uverbs name or path, or a kernel before 5.0).
 */
int uvio_find_device_node(const char *name, struct uvio_device_info *info, dev_t *rdev);

/* uvio_list_devices() without the ports' netdevs and transports (what
 * opening a device needs costs no more than it did). */
int uvio_list_devices_bare(struct uvio_device_info *devs, size_t max);

#endif
