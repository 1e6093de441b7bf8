// SPDX-License-Identifier: MIT
/* COUNTERS: create, destroy and read, native ioctl methods only. */
#include <uvio/counters.h>
#include "obj.h"
#include "destroy.h"

struct create_args {
	struct drv_bufs b;
	uint32_t *handle;
};

static int create_counters_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	struct ib_uverbs_attr *handle;

	UVIO_VERB_CMD(dev, cmd, 3, p, CREATE_COUNTERS);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_CREATE_COUNTERS_HANDLE);
	return obj_exec_new(dev, &cmd, &a->b, handle, a->handle);
}

UVIO_API int uvio_create_counters(struct uvio_device *dev, const struct uvio_drv *drv,
				  uint32_t *counters_handle, enum uvio_path *path)
{
	struct create_args a = { .handle = counters_handle };
	int ret = counters_handle ? drv_prepare(dev, VERB_NAME(CREATE_COUNTERS), drv,
						&a.b) : -EINVAL;

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_COUNTERS), UVIO_PATH_AUTO, ret, path);
	obj_drv_no_default(&a.b);
	return uvio_run_verb(dev, CREATE_COUNTERS, create_counters_ioctl, NULL, &a, path);
}

UVIO_API int uvio_destroy_counters(struct uvio_device *dev, uint32_t counters_handle,
				   enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_COUNTERS, counters_handle, NULL, path);
}

struct read_args {
	uint32_t handle, flags;
	uint64_t *values;
	size_t n;
};

static int read_counters_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct read_args *a = args;

	UVIO_VERB_CMD(dev, cmd, 3, p, READ_COUNTERS);
	fput_idr(&cmd, UVERBS_ATTR_READ_COUNTERS_HANDLE, a->handle);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_READ_COUNTERS_BUFF, a->values,
			 a->n * sizeof(*a->values));
	if (a->flags)
		fput_u64(&cmd, UVERBS_ATTR_READ_COUNTERS_FLAGS, a->flags);
	return uvio_dev_exec(dev, &cmd);
}

UVIO_API int uvio_read_counters(struct uvio_device *dev, uint32_t counters_handle,
				uint64_t *values, size_t n, uint32_t flags,
				enum uvio_path *path)
{
	struct read_args a = { counters_handle, flags, values, n };

	/* The values travel in one attribute of at most 65535 bytes. */
	if (!values && n)
		return uvio_verb_end(dev, VERB_NAME(READ_COUNTERS), UVIO_PATH_AUTO, -EINVAL, path);
	if (n > UINT16_MAX / sizeof(*values))
		return uvio_verb_end(dev, VERB_NAME(READ_COUNTERS), UVIO_PATH_AUTO, -E2BIG, path);
	return uvio_run_verb(dev, READ_COUNTERS, read_counters_ioctl, NULL, &a, path);
}
