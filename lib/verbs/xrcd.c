// SPDX-License-Identifier: MIT
/* XRCD: an XRC domain, opened by write() command only, closed by both. */
#include <uvio/srq.h>
#include "obj.h"
#include "destroy.h"

struct xrcd_args {
	int fd, oflags;
	struct drv_bufs b;
	uint32_t *handle;
};

static int open_xrcd_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct xrcd_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_open_xrcd) c = { .core = { .fd = (uint32_t)a->fd, .oflags = (uint32_t)a->oflags } };
	struct ib_uverbs_open_xrcd_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(OPEN_XRCD), c, &r, sizeof(r), &a->b);

	if (!ret)
		*a->handle = r.xrcd_handle;
	return ret;
}

UVIO_API int uvio_open_xrcd(struct uvio_device *dev, int fd, int oflags,
			    const struct uvio_drv *drv, uint32_t *xrcd_handle,
			    enum uvio_path *path)
{
	struct xrcd_args a = { .fd = fd, .oflags = oflags, .handle = xrcd_handle };
	int ret = xrcd_handle && fd >= -1 ? drv_prepare(dev, VERB_NAME(OPEN_XRCD), drv,
							&a.b) : -EINVAL;

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(OPEN_XRCD), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, OPEN_XRCD, NULL, open_xrcd_write, &a, path);
}

UVIO_API int uvio_close_xrcd(struct uvio_device *dev, uint32_t xrcd_handle,
			     enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_XRCD, xrcd_handle, NULL, path);
}

