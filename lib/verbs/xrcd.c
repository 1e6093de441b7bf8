// SPDX-License-Identifier: MIT
/* XRCD: an XRC domain, opened by write() command only, closed by both. */
#include <uvio/srq.h>
#include "obj.h"

struct xrcd_args {
	int fd, oflags;
	struct drv_bufs b;
	uint32_t *handle;
};

static int open_xrcd_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct xrcd_args *a = args;
	struct ib_uverbs_open_xrcd c = { .fd = (uint32_t)a->fd, .oflags = (uint32_t)a->oflags };
	struct ib_uverbs_open_xrcd_resp r;
	int ret = uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_OPEN_XRCD, &c, sizeof(c), &r,
				  sizeof(r), &a->b);

	if (!ret)
		*a->handle = r.xrcd_handle;
	return ret;
}

UVIO_API int uvio_open_xrcd(struct uvio_device *dev, int fd, int oflags,
			    const struct uvio_drv *drv, uint32_t *xrcd_handle,
			    enum uvio_path *path)
{
	struct xrcd_args a = { .fd = fd, .oflags = oflags, .handle = xrcd_handle };
	int ret = xrcd_handle && fd >= -1 ? drv_prepare(dev, "XRCD.OPEN", drv, &a.b) : -EINVAL;

	if (ret)
		return uvio_verb_end(dev, "XRCD.OPEN", UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, UVIO_VERB_OPEN_XRCD, "XRCD.OPEN", NULL, open_xrcd_write, &a,
			     path);
}

static int close_xrcd_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	return uvio_fx_destroy(dev, p, UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_DESTROY,
			       UVERBS_ATTR_DESTROY_XRCD_HANDLE, *(uint32_t *)args);
}

static int close_xrcd_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct ib_uverbs_close_xrcd c = { .xrcd_handle = *(uint32_t *)args };

	return uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_CLOSE_XRCD, &c, sizeof(c), NULL, 0,
			       NULL);
}

UVIO_API int uvio_close_xrcd(struct uvio_device *dev, uint32_t xrcd_handle,
			     enum uvio_path *path)
{
	return uvio_run_verb(dev, UVIO_VERB_CLOSE_XRCD, "XRCD.DESTROY", close_xrcd_ioctl,
			     close_xrcd_write, &xrcd_handle, path);
}
