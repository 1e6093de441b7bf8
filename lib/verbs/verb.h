/* SPDX-License-Identifier: MIT */
/*
 * What a verb file needs: the verb table (numbers, names, methods, write()
 * commands), driver data, sized structs, the path loop (uvio_run_verb) and
 * the write() route (uvio_write()).
 */
#ifndef UVIO_VERBS_VERB_H
#define UVIO_VERBS_VERB_H

#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <uvio/verbs.h>
#include "opts.h"
#include "private.h"
#include "cmd/put_fixed.h"
#include "hw/hw.h"
#include "verb_table.h"

_Static_assert(UVIO_VERB__COUNT <= UVIO_VERB_SLOTS, "more verbs than path bits");

_Static_assert(UVIO_DRV_SINK_LEN == UVIO_DEFAULT_DRV_OUT, "default driver response space");

/* Check the caller's driver data and give it the default response space;
 * without any (the common case, inline) just the default space. */
int drv_prepare_given(struct uvio_device *dev, const char *verb, const struct uvio_drv *drv,
		      struct drv_bufs *b);
static inline int drv_prepare(struct uvio_device *dev, const char *verb,
			      const struct uvio_drv *drv, struct drv_bufs *b)
{
	if (drv)
		return drv_prepare_given(dev, verb, drv, b);
	b->in = NULL;
	b->in_len = 0;
	b->out = uvio_drv_sink;
	b->out_len = sizeof(uvio_drv_sink);
	b->attrs = NULL;
	return 0;
}

/*
 * The verbs a hardware driver's half takes part in (lib/hw/hw.h): the
 * caller's driver data when given; else, on a device whose driver has a
 * half, what that half builds (and allocates); else none. rxe and siw
 * take the inline way out.
 */
int drv_prepare_hw_slow(struct uvio_device *dev, const char *verb, struct hw_call *c,
			union hw_params *p, struct drv_bufs *b);
static inline int drv_prepare_hw(struct uvio_device *dev, const char *verb,
				 const struct uvio_drv *drv, enum hw_verb v, struct hw_call *c,
				 union hw_params *p, struct drv_bufs *b)
{
	c->ops = NULL;
	c->verb = v;
	c->obj = NULL;
	c->why = NULL;
	if (drv)
		return drv_prepare_given(dev, verb, drv, b);
	drv_prepare(dev, verb, NULL, b);
	if (__builtin_expect(dev->driver_id == RDMA_DRIVER_RXE ||
			     dev->driver_id == RDMA_DRIVER_SIW, 1))
		return 0;
	return drv_prepare_hw_slow(dev, verb, c, p, b);
}
/* drv_prepare_hw() refused: the verb's failure, in the driver half's words
 * where it gave some. */
int drv_refused(struct uvio_device *dev, const char *verb, const struct hw_call *c, int ret,
		enum uvio_path *path);
/* After the kernel answered ret (handle: the new object): the half keeps or
 * frees what it allocated; a driver without a half that refused a verb
 * sent without driver data is named in uvio_last_error(). */
void drv_finish_hw_slow(struct uvio_device *dev, const struct uvio_drv *drv, struct hw_call *c,
			int ret, uint32_t handle);
static inline void drv_finish_hw(struct uvio_device *dev, const struct uvio_drv *drv,
				 struct hw_call *c, int ret, uint32_t handle)
{
	if (__builtin_expect(c->ops || (ret && !drv && dev->driver_id != RDMA_DRIVER_RXE &&
					dev->driver_id != RDMA_DRIVER_SIW), 0))
		drv_finish_hw_slow(dev, drv, c, ret, handle);
}
/*
 * A verb a driver half takes part in, as one step: its driver data prepared
 * (drv_prepare_hw(): the caller's, or the half's), the verb run on its path
 * (uvio_run_verb_desc()), the half told the answer (drv_finish_hw()).
 * p: the verb's sizes the half may round (NULL where it has none); the
 * encoders send what p holds after. b: the driver data the encoders send.
 * handle: where the new object's handle is once the verb succeeded.
 */
struct hw_run {
	const struct uvio_drv *drv;	/* the caller's, or NULL */
	enum hw_verb verb;
	union hw_params *p;
	struct drv_bufs *b;
	const uint32_t *handle;
};

static inline __attribute__((always_inline)) int
uvio_run_hw_verb_desc(struct uvio_device *dev, const struct uvio_verb_desc *d, void *args,
		      const struct hw_run *r, enum uvio_path *path)
{
	struct hw_call hc;
	int ret = drv_prepare_hw(dev, d->name, r->drv, r->verb, &hc, r->p, r->b);

	if (__builtin_expect(ret, 0))
		return drv_refused(dev, d->name, &hc, ret, path);
	ret = uvio_run_verb_desc(dev, d, args, path);
	drv_finish_hw(dev, r->drv, &hc, ret, ret ? 0 : *r->handle);
	return ret;
}

/* A verb's constant descriptor from its row (v: CREATE_CQ), and the verb
 * run on its path: with a driver half's step (uvio_run_hw_verb) or without. */
#define uvio_verb_desc_of(v, on_ioctl_, on_write_)                                              \
	uvio_verb_desc_const(UVIO_VERB_##v, VERB_NAME(v), on_ioctl_, on_write_)
#define uvio_run_verb(dev, v, on_ioctl_, on_write_, args, path)                                 \
	uvio_run_verb_desc((dev), uvio_verb_desc_of(v, on_ioctl_, on_write_), (args), (path))
#define uvio_run_hw_verb(dev, v, on_ioctl_, on_write_, args, run, path)                         \
	uvio_run_hw_verb_desc((dev), uvio_verb_desc_of(v, on_ioctl_, on_write_), (args), (run), \
			      (path))

/* A verb's own method as a command on the stack (UVIO_DEV_CMD), its ids
 * from its row. */
#define UVIO_VERB_CMD(dev, name, n, path, v)                                                    \
	UVIO_DEV_CMD(dev, name, n, path, VERB_OBJECT(v), VERB_METHOD(v))

/* The driver data of a verb's ioctl command: UHW_IN, UHW_OUT and the
 * joined driver attributes. */
void uvio_put_drv(struct uvio_cmd *cmd, const struct drv_bufs *b);
/* After the command ran: outputs of joined attributes back to their owner. */
void uvio_drv_copy_back(const struct uvio_cmd *cmd, const struct drv_bufs *b);

/* The write() encoders cannot carry joined driver attributes. */
static inline int drv_write_ok(const struct drv_bufs *b)
{
	return uvio_drv_has_attrs(b) ? -EOPNOTSUPP : 0;
}

#endif
