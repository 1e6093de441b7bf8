/* SPDX-License-Identifier: MIT */
/* Driver data of a verb, checked, with the default response space. */
#ifndef UVIO_VERBS_DRV_H
#define UVIO_VERBS_DRV_H

#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <uvio/verbs.h>
#include "../private.h"

struct drv_bufs {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	uint64_t dflt[UVIO_DEFAULT_DRV_OUT / sizeof(uint64_t)];
};

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

/* write(): the ABI counts words, driver bytes are padded to a word. */
static inline size_t words4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Copy driver input after a write() command's core struct. */
static inline void drv_put_in(uint8_t *dst, const struct drv_bufs *b)
{
	if (b->in_len)
		memcpy(dst, b->in, b->in_len);
	memset(dst + b->in_len, 0, words4(b->in_len) - b->in_len);
}

#endif
