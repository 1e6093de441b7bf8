// SPDX-License-Identifier: MIT
/* MW: allocated by write() command only, deallocated by both encodings. */
#include <uvio/mr.h>
#include "obj.h"

struct alloc_args {
	struct drv_bufs b;
	struct uvio_mw *mw;
	struct ib_uverbs_alloc_mw c;	/* last: it ends in a flexible array */
};

static int alloc_mw_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct alloc_args *a = args;
	struct ib_uverbs_alloc_mw_resp r;
	int ret = uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_ALLOC_MW, &a->c, sizeof(a->c), &r,
				  sizeof(r), &a->b);

	if (ret)
		return ret;
	a->mw->handle = r.mw_handle;
	UVIO_OUT_SET(a->mw, rkey, r.rkey);
	return 0;
}

UVIO_API int uvio_alloc_mw(struct uvio_device *dev, const struct uvio_mw_attr *attr,
			   const struct uvio_drv *drv, struct uvio_mw *mw,
			   enum uvio_path *path)
{
	struct alloc_args a = { .mw = mw };
	struct uvio_mw_attr in;
	int ret = obj_in(&in, sizeof(in), attr, uvio_offsetofend(struct uvio_mw_attr, type));

	if (!ret)
		ret = obj_out(mw, uvio_offsetofend(struct uvio_mw, handle));
	if (!ret) {
		a.c.pd_handle = in.pd_handle;
		a.c.mw_type = in.type;
	}

	if (!ret)
		ret = drv_prepare(dev, "MW.ALLOC", drv, &a.b);

	if (ret)
		return uvio_verb_end(dev, "MW.ALLOC", UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, UVIO_VERB_ALLOC_MW, "MW.ALLOC", NULL, alloc_mw_write, &a,
			     path);
}

static int dealloc_mw_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	return uvio_fx_destroy(dev, p, UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY,
			       UVERBS_ATTR_DESTROY_MW_HANDLE, *(uint32_t *)args);
}

static int dealloc_mw_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct ib_uverbs_dealloc_mw c = { .mw_handle = *(uint32_t *)args };

	return uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_DEALLOC_MW, &c, sizeof(c), NULL, 0,
			       NULL);
}

UVIO_API int uvio_dealloc_mw(struct uvio_device *dev, uint32_t mw_handle,
			     enum uvio_path *path)
{
	return uvio_run_verb(dev, UVIO_VERB_DEALLOC_MW, "MW.DESTROY", dealloc_mw_ioctl,
			     dealloc_mw_write, &mw_handle, path);
}
