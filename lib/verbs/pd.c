// SPDX-License-Identifier: MIT
/* PD: allocation is a write() command; destruction has a method too. */
#include "verb.h"

struct alloc_args {
	struct drv_bufs b;
	uint32_t *handle;
};

static int alloc_pd_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct alloc_args *a = args;
	struct ib_uverbs_alloc_pd c = { 0 };
	struct ib_uverbs_alloc_pd_resp r;
	int ret = uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_ALLOC_PD, &c, sizeof(c), &r,
				  sizeof(r), &a->b);

	if (!ret)
		*a->handle = r.pd_handle;
	return ret;
}

UVIO_API int uvio_alloc_pd(struct uvio_device *dev, const struct uvio_drv *drv,
			   uint32_t *pd_handle, enum uvio_path *path)
{
	struct alloc_args a = { .handle = pd_handle };
	struct hw_call hc;
	int ret;

	if (!pd_handle)
		return uvio_verb_end(dev, "PD.ALLOC", UVIO_PATH_AUTO, -EINVAL, path);
	ret = drv_prepare_hw(dev, "PD.ALLOC", drv, HW_PD, &hc, NULL, &a.b);
	if (ret)
		return drv_refused(dev, "PD.ALLOC", &hc, ret, path);
	ret = uvio_run_verb(dev, UVIO_VERB_ALLOC_PD, "PD.ALLOC", NULL, alloc_pd_write, &a, path);
	drv_finish_hw(dev, drv, &hc, ret, ret ? 0 : *pd_handle, NULL);
	return ret;
}

static int dealloc_pd_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	return uvio_fx_destroy(dev, p, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY,
			       UVERBS_ATTR_DESTROY_PD_HANDLE, *(uint32_t *)args);
}

static int dealloc_pd_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct ib_uverbs_dealloc_pd c = { .pd_handle = *(uint32_t *)args };

	return uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_DEALLOC_PD, &c, sizeof(c), NULL, 0, NULL);
}

UVIO_API int uvio_dealloc_pd(struct uvio_device *dev, uint32_t pd_handle,
			     enum uvio_path *path)
{
	int ret = uvio_run_verb(dev, UVIO_VERB_DEALLOC_PD, "PD.DESTROY", dealloc_pd_ioctl,
				dealloc_pd_write, &pd_handle, path);

	if (!ret)
		drv_destroyed_hw(dev, HW_PD, pd_handle);
	return ret;
}
