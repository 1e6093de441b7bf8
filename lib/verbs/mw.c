// SPDX-License-Identifier: MIT
/* MW: allocated by write() command only, deallocated by both encodings. */
#include <uvio/mr.h>
#include "obj.h"
#include "destroy.h"

struct alloc_args {
	struct drv_bufs b;
	struct uvio_mw *mw;
	UVIO_WRITE_BUF(struct ib_uverbs_alloc_mw) c;	/* last: it ends in a flexible array */
};

static int alloc_mw_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct alloc_args *a = args;
	struct ib_uverbs_alloc_mw_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(ALLOC_MW), a->c, &r, sizeof(r), &a->b);

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
		a.c.core.pd_handle = in.pd_handle;
		a.c.core.mw_type = in.type;
	}

	if (!ret)
		ret = drv_prepare(dev, VERB_NAME(ALLOC_MW), drv, &a.b);

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(ALLOC_MW), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, ALLOC_MW, NULL, alloc_mw_write, &a, path);
}

UVIO_API int uvio_dealloc_mw(struct uvio_device *dev, uint32_t mw_handle,
			     enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_MW, mw_handle, NULL, path);
}

