// SPDX-License-Identifier: MIT
/* DM: device memory, allocated and freed by native ioctl methods only. */
#include <uvio/dm.h>
#include "obj.h"
#include "destroy.h"

struct alloc_args {
	uint64_t length;
	uint32_t log_align;
	struct drv_bufs b;
	uint32_t *handle;
};

static int alloc_dm_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct alloc_args *a = args;
	struct ib_uverbs_attr *handle;

	UVIO_VERB_CMD(dev, cmd, 5, p, ALLOC_DM);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_ALLOC_DM_HANDLE);
	fput_u64(&cmd, UVERBS_ATTR_ALLOC_DM_LENGTH, a->length);
	fput_u32(&cmd, UVERBS_ATTR_ALLOC_DM_ALIGNMENT, a->log_align);
	return obj_exec_new(dev, &cmd, &a->b, handle, a->handle);
}

UVIO_API int uvio_alloc_dm(struct uvio_device *dev, const struct uvio_dm_attr *attr,
			   const struct uvio_drv *drv, uint32_t *dm_handle,
			   enum uvio_path *path)
{
	struct alloc_args a = { .handle = dm_handle };
	struct uvio_dm_attr in;
	int ret = obj_in(&in, sizeof(in), attr, uvio_offsetofend(struct uvio_dm_attr, log_align));

	if (!ret && !dm_handle)
		ret = -EINVAL;
	if (!ret) {
		a.length = in.length;
		a.log_align = in.log_align;
		ret = drv_prepare(dev, VERB_NAME(ALLOC_DM), drv, &a.b);
		obj_drv_no_default(&a.b);
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(ALLOC_DM), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, ALLOC_DM, alloc_dm_ioctl, NULL, &a, path);
}

UVIO_API int uvio_free_dm(struct uvio_device *dev, uint32_t dm_handle, enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_DM, dm_handle, NULL, path);
}

