// SPDX-License-Identifier: MIT
/* PD: allocation is a write() command; destruction has a method too. */
#include "verb.h"
#include "destroy.h"

struct alloc_args {
	struct drv_bufs b;
	uint32_t *handle;
};

static int alloc_pd_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct alloc_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_alloc_pd) c = { .core = { 0 } };
	struct ib_uverbs_alloc_pd_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(ALLOC_PD), c, &r, sizeof(r), &a->b);

	if (!ret)
		*a->handle = r.pd_handle;
	return ret;
}

UVIO_API int uvio_alloc_pd(struct uvio_device *dev, const struct uvio_drv *drv,
			   uint32_t *pd_handle, enum uvio_path *path)
{
	struct alloc_args a = { .handle = pd_handle };

	if (!pd_handle)
		return uvio_verb_end(dev, VERB_NAME(ALLOC_PD), UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_hw_verb(dev, ALLOC_PD, NULL, alloc_pd_write, &a, (&(struct hw_run){ drv,
				HW_PD, NULL, &a.b, pd_handle }), path);
}

UVIO_API int uvio_dealloc_pd(struct uvio_device *dev, uint32_t pd_handle,
			     enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_PD, pd_handle, NULL, path);
}

