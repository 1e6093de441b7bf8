/* SPDX-License-Identifier: MIT */
/* Driver data of a verb: checked, and given the default response space. */
#ifndef UVIO_VERBS_DRV_H
#define UVIO_VERBS_DRV_H

#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <uvio/verbs.h>
#include "../private.h"

_Static_assert(sizeof(((struct drv_bufs *)0)->dflt) == UVIO_DEFAULT_DRV_OUT,
	       "default driver response space");

static inline int drv_prepare(struct uvio_device *dev, const char *verb,
			      const struct uvio_drv *drv, struct drv_bufs *b)
{
	b->in = drv ? drv->in : NULL;
	b->in_len = drv ? drv->in_len : 0;
	b->out = drv ? drv->out : NULL;
	b->out_len = drv ? drv->out_len : 0;
	if (b->in_len > UVIO_MAX_DRV_DATA || b->out_len > UVIO_MAX_DRV_DATA) {
		uvio_log(LOG_ERR, "%s: %s: driver data over %u bytes", dev->name, verb,
			 UVIO_MAX_DRV_DATA);
		return -E2BIG;
	}
	if ((!b->in && b->in_len) || (!b->out && b->out_len))
		return -EFAULT;
	if (!b->out) {
		b->out = b->dflt;
		b->out_len = sizeof(b->dflt);
	}
	return 0;
}

#endif
