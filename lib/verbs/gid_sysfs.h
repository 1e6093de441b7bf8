/* SPDX-License-Identifier: MIT */
/* GID entries from sysfs (lib/verbs/gid_sysfs.c). */
#ifndef UVIO_VERBS_GID_SYSFS_H
#define UVIO_VERBS_GID_SYSFS_H

#include <stddef.h>
#include <uvio/verbs.h>

/* The entry at port/index: -EINVAL past the table, -ENODATA for an empty
 * slot, -EOPNOTSUPP when the device's name is unknown. */
int gid_sysfs_entry(const struct uvio_device *dev, uint32_t port, uint32_t index,
		    struct uvio_gid_entry *e);
/* Every valid entry of every port into entries; -EINVAL when more than max. */
int gid_sysfs_table(const struct uvio_device *dev, struct uvio_gid_entry *entries,
		    size_t max, size_t *n);

#endif
