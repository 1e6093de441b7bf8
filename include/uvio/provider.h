/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: doors for verbs providers. A provider's own methods
 * (driver-namespace objects, DEVX-like interfaces) and commands this library
 * has no verb for run here with everything a verb gets: the device's driver
 * id and header layout, path choice, tracing and uvio_last_error().
 */
#ifndef UVIO_PROVIDER_H
#define UVIO_PROVIDER_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/cmd.h>
#include <uvio/device.h>
#include <uvio/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Give a command built for dev the device's driver id and, on a device that
 * speaks the 2017 layout, that layout. Call it before the first put; the
 * macro below does.
 */
UVIO_API int uvio_device_cmd_prepare(struct uvio_device *dev, struct uvio_cmd *cmd);

#define UVIO_DEVICE_CMD_DEFINE(dev, name, n, object, method)                   \
	UVIO_CMD_DEFINE(name, n, object, method);                              \
	uvio_device_cmd_prepare(dev, &name)

/*
 * Run a command built by the caller on dev. Outputs are read back with the
 * uvio_cmd_read_*() functions as for uvio_cmd_exec(). A device that uses
 * write() (ENOTTY from its ioctl) answers -EOPNOTSUPP: a caller-built ioctl
 * has no write() form.
 */
UVIO_API int uvio_device_exec(struct uvio_device *dev, struct uvio_cmd *cmd,
			      enum uvio_path *path);

/*
 * Run a write() command (IB_USER_VERBS_CMD_*) on dev, over INVOKE_WRITE or
 * write() as the device's path says. core is the kernel's request struct
 * for the command, starting with its response address (ignored: resp is
 * where the core response goes); drv carries the driver's parts (attrs must
 * be NULL). The _ex form takes an extended command (IB_USER_VERBS_EX_CMD_*)
 * and its core struct without struct ib_uverbs_ex_cmd_hdr.
 */
UVIO_API int uvio_device_write(struct uvio_device *dev, uint32_t command,
			       const void *core, size_t core_len, void *resp,
			       size_t resp_len, const struct uvio_drv *drv,
			       enum uvio_path *path);
UVIO_API int uvio_device_write_ex(struct uvio_device *dev, uint32_t command,
				  const void *core, size_t core_len, void *resp,
				  size_t resp_len, const struct uvio_drv *drv,
				  enum uvio_path *path);

#ifdef __cplusplus
}
#endif

#endif
