/* SPDX-License-Identifier: MIT */
/* Internal: what a device handle holds, and running a command on it. */
#ifndef UVIO_LIB_DEV_H
#define UVIO_LIB_DEV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uvio/cmd.h>
#include <uvio/device.h>
#include <uvio/verbs.h>
#include "cmd/run.h"
#include "cmd/sys.h"
#include "device/path_state.h"

struct hw_state;

struct uvio_device {
	int fd;
	bool owned;
	uint32_t driver_id;
	char name[64];
	char ibdev[64];			/* the IB device's name ("": not asked yet) */
	bool trace;			/* UVERBS_IOCTL_TRACE at open */
	/* Threads may share the handle: what verbs change after open is
	 * atomic (relaxed: each field stands alone). */
	/* ioctl GET_CONTEXT succeeded but its async fd could not be made
	 * (EMFILE, say): the next uvio_get_context() only retries the fd. */
	_Atomic bool ctx_without_async_fd;
	_Atomic uint32_t num_comp_vectors;
	_Atomic uint64_t core_support;
	struct uvio_path_state paths;	/* lib/device/path.c's alone */
	/* A hardware driver's half (lib/hw/): its state, made at GET_CONTEXT,
	 * and what frees it at close (NULL for rxe, siw and adopted fds). */
	_Atomic(struct hw_state *) hw;
	void (*hw_release)(struct uvio_device *dev);
};

/* A command for this device on an ioctl path, with room for the driver
 * attributes a caller may join (struct uvio_drv). */
#define UVIO_DEV_CMD(dev, name, n, path, object, method)                       \
	UVIO_CMD_DEFINE(name, (n) + UVIO_MAX_DRV_ATTRS, object, method);       \
	uvio_dev_cmd_setup(dev, &name, path)
static inline void uvio_dev_cmd_setup(struct uvio_device *dev, struct uvio_cmd *cmd,
				      enum uvio_path path)
{
	if (path == UVIO_PATH_IOCTL_2017)
		uvio_cmd_set_layout(cmd, UVIO_LAYOUT_2017);
	else
		uvio_cmd_set_driver_id(cmd, dev->driver_id);
}

int uvio_dev_exec_traced(struct uvio_device *dev, struct uvio_cmd *cmd);
static inline int uvio_dev_exec(struct uvio_device *dev, struct uvio_cmd *cmd)
{
	if (__builtin_expect(dev->trace, 0))
		return uvio_dev_exec_traced(dev, cmd);
	return uvio_cmd_run(dev->fd, cmd);
}

/* A write() command as laid out by lib/write/: all len bytes must go.
 * Inline: a plain verb is mostly this, and each call level costs. */
ssize_t uvio_dev_write_traced(struct uvio_device *dev, void *buf, size_t len)
	__attribute__((cold));
static inline int uvio_dev_write(struct uvio_device *dev, void *buf, size_t len)
{
	ssize_t n = __builtin_expect(dev->trace, 0) ? uvio_dev_write_traced(dev, buf, len)
						    : uvio_sys_write(dev->fd, buf, len);

	if (n < 0)
		return (int)n;
	/* The kernel answers with the bytes it consumed: all of them. */
	return (size_t)n == len ? 0 : -EIO;
}

#endif
