// SPDX-License-Identifier: MIT
/* Caller-built commands run as verbs (include/uvio/provider.h). */
#include <uvio/provider.h>
#include "verb.h"

UVIO_API int uvio_device_cmd_prepare(struct uvio_device *dev, struct uvio_cmd *cmd)
{
	enum uvio_path p;

	if (!dev || !cmd)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_device_cmd_prepare: EINVAL: argument %s: NULL",
				 dev ? "cmd" : "dev");
	p = uvio_path_pick(&dev->paths, UVIO_VERB_RAW_IOCTL, UVIO_HAS_NATIVE);
	if (p == UVIO_PATH_IOCTL_2017)
		return uvio_cmd_set_layout(cmd, UVIO_LAYOUT_2017);
	uvio_cmd_set_driver_id(cmd, dev->driver_id);
	return 0;
}

static int exec_ioctl(struct uvio_device *dev, enum uvio_path p, void *cmd)
{
	struct uvio_cmd *c = cmd;

	/* Built for the other layout (the device moved on since): a command
	 * cannot change layout once it has attributes. */
	if ((p == UVIO_PATH_IOCTL_2017) != (c->layout == UVIO_LAYOUT_2017))
		return -EPROTO;
	if (c->layout == UVIO_LAYOUT_CURRENT)
		uvio_cmd_set_driver_id(c, dev->driver_id);
	return uvio_dev_exec(dev, c);
}

UVIO_API int uvio_device_exec(struct uvio_device *dev, struct uvio_cmd *cmd,
			      enum uvio_path *path)
{
	static const struct uvio_verb_desc d = {
		.verb = UVIO_VERB_RAW_IOCTL, .name = VERB_NAME(RAW_IOCTL), .on_ioctl = exec_ioctl,
				.caller_built = true, };

	if (!dev || !cmd)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_device_exec: EINVAL: argument %s: NULL",
				 dev ? "cmd" : "dev");
	return uvio_run_verb_desc(dev, &d, cmd, path);
}

struct write_args {
	uint32_t command;
	const void *core;
	size_t core_len;
	void *resp;
	size_t resp_len;
	struct drv_bufs b;
};

/* The caller's core, copied once after the headers' room; the lengths the
 * write layer takes are checked first. */
static int write_any(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct write_args *a = args;
	uint64_t buf[(UVIO_WRITE_ROOM + UVIO_MAX_EX_CORE) / 8];
	bool ex = a->command & IB_USER_VERBS_CMD_FLAG_EXTENDED;

	if (a->core_len > (ex ? UVIO_MAX_EX_CORE : UVIO_MAX_PLAIN_CORE) ||
	    a->resp_len > UVIO_LEGACY_MAX_RESP)
		return -EINVAL;
	if (a->core_len)
		memcpy((uint8_t *)buf + UVIO_WRITE_ROOM, a->core, a->core_len);
	return uvio_write_run(dev, p, a->command, buf, a->core_len, a->resp, a->resp_len, &a->b);
}

static int device_write(struct uvio_device *dev, bool ex, uint32_t command,
			const void *core, size_t core_len, void *resp, size_t resp_len,
			const struct uvio_drv *drv, enum uvio_path *path)
{
	struct write_args a = {
		.command = ex ? UVIO_EX(command) : command, .core = core, .core_len = core_len,
		.resp = resp, .resp_len = resp_len,
	};
	const char *name = ex ? "write-ex" : VERB_NAME(RAW_WRITE);
	const struct uvio_verb_desc d = {
		.verb = UVIO_VERB_RAW_WRITE, .name = name, .on_write = write_any,
	};
	int ret = 0;

	if (!dev)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_device_%s: EINVAL: argument dev: NULL",
				 ex ? "write_ex" : "write");
	if ((!core && core_len) || (!resp && resp_len))
		ret = -EFAULT;
	if (!ret)
		ret = drv_prepare(dev, name, drv, &a.b);
	if (!ret)
		ret = drv_write_ok(&a.b);
	if (ret)
		return uvio_verb_end(dev, name, UVIO_PATH_AUTO, ret, path);
	/* No default driver response space here: the caller says. */
	if (!drv || !UVIO_OPT(drv, out))
		a.b.out_len = 0;
	return uvio_run_verb_desc(dev, &d, &a, path);
}

UVIO_API int uvio_device_write(struct uvio_device *dev, uint32_t command,
			       const void *core, size_t core_len, void *resp,
			       size_t resp_len, const struct uvio_drv *drv,
			       enum uvio_path *path)
{
	return device_write(dev, false, command, core, core_len, resp, resp_len, drv, path);
}

UVIO_API int uvio_device_write_ex(struct uvio_device *dev, uint32_t command,
				  const void *core, size_t core_len, void *resp,
				  size_t resp_len, const struct uvio_drv *drv,
				  enum uvio_path *path)
{
	return device_write(dev, true, command, core, core_len, resp, resp_len, drv, path);
}
