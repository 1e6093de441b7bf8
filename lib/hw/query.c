// SPDX-License-Identifier: MIT
/* uvio_hw_query_object(): where the queues a driver half made lie, from
 * the layer's record of the object, in the half's words (its describe). */
#include <stddef.h>
#include <string.h>
#include <syslog.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <uvio/diag.h>
#include "hw/hw.h"
#include "report/report.h"

static int hw_query_failed(struct uvio_device *dev, int err, const char *why)
{
	return uvio_fail(LOG_DEBUG, err, "uvio_hw_query_object: %s: %s: %s",
			 dev ? dev->name : "(no device)", uvio_errno_name(err), why);
}

UVIO_API int uvio_hw_query_object(struct uvio_device *dev, uint16_t object, uint32_t handle,
				  struct uvio_hw_object *out)
{
	struct uvio_hw_object v;
	struct hw_state *st;
	struct hw_obj *o;
	enum hw_verb kind;

	if (!dev)
		return hw_query_failed(dev, -EINVAL, "argument dev: NULL");
	if (!out || out->sz < offsetof(struct uvio_hw_object, regions))
		return hw_query_failed(dev, -EINVAL, "argument out: NULL, or its sz too small");
	if (!uvio_hw_kind_of(object, &kind))
		return hw_query_failed(dev, -EINVAL, "argument object: not PD, CQ, QP, SRQ or AH");
	st = uvio_hw_state(dev);
	if (!st)
		return hw_query_failed(dev, uvio_hw_ops(dev->driver_id) ? -ENOENT : -ENODEV,
				       uvio_hw_ops(dev->driver_id) ?
				       "no context the library made on this handle" :
				       "the device's driver has no half in the library");
	memset(&v, 0, sizeof(v));
	v.sz = out->sz;
	v.driver_id = dev->driver_id;
	uvio_hw_lock(st);
	o = uvio_hw_obj_find(st, kind, handle);
	if (o && st->ops->describe)
		st->ops->describe(st, o, &v);
	uvio_hw_unlock(st);
	if (!o)
		return hw_query_failed(dev, -ENOENT,
				       "argument handle: no object the library keeps (destroyed, or "
				       "made with the caller's driver data)");
	/* The caller's sz stays; what lies inside it is written (whole
	 * regions only, and nregions counts those). */
	if (out->sz < sizeof(v)) {
		uint32_t fit = (uint32_t)((out->sz - offsetof(struct uvio_hw_object, regions)) /
					  sizeof(v.regions[0]));

		if (v.nregions > fit)
			v.nregions = fit;
	}
	memcpy((char *)out + sizeof(size_t), (const char *)&v + sizeof(size_t),
	       (out->sz < sizeof(v) ? out->sz : sizeof(v)) - sizeof(size_t));
	return 0;
}
