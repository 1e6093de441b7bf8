/* SPDX-License-Identifier: MIT */
/*
 * What a verb file needs: the verb numbers, driver data, sized structs, the
 * path loop (uvio_run_verb) and the write() route (uvio_write()).
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

/* One number per verb, for the per-verb "native method missing" bit. Add
 * new verbs anywhere before UVIO_VERB__COUNT, grouped by object. */
enum uvio_verb {
	/* device */
	UVIO_VERB_GET_CONTEXT,
	UVIO_VERB_QUERY_CONTEXT,
	UVIO_VERB_QUERY_DEVICE,
	UVIO_VERB_QUERY_DEVICE_EX,
	UVIO_VERB_QUERY_PORT,
	UVIO_VERB_QUERY_GID_ENTRY,
	UVIO_VERB_QUERY_GID_TABLE,
	UVIO_VERB_INFO_HANDLES,
	UVIO_VERB_CREATE_COMP_CHANNEL,
	/* caller-built commands (uvio_device_exec, uvio_device_write) */
	UVIO_VERB_RAW_IOCTL,
	UVIO_VERB_RAW_WRITE,
	/* CQ */
	UVIO_VERB_CREATE_CQ,
	UVIO_VERB_DESTROY_CQ,
	/* PD */
	UVIO_VERB_ALLOC_PD,
	UVIO_VERB_DEALLOC_PD,
	/* MR */
	UVIO_VERB_REG_MR,
	UVIO_VERB_DEREG_MR,
	UVIO_VERB_REREG_MR,
	UVIO_VERB_QUERY_MR,
	UVIO_VERB_ADVISE_MR,
	UVIO_VERB_REG_DMABUF_MR,
	UVIO_VERB_REG_DM_MR,
	/* CQ, beyond create and destroy */
	UVIO_VERB_RESIZE_CQ,
	UVIO_VERB_MODIFY_CQ,
	/* SRQ */
	UVIO_VERB_CREATE_SRQ,
	UVIO_VERB_MODIFY_SRQ,
	UVIO_VERB_QUERY_SRQ,
	UVIO_VERB_DESTROY_SRQ,
	/* XRCD */
	UVIO_VERB_OPEN_XRCD,
	UVIO_VERB_CLOSE_XRCD,
	/* AH */
	UVIO_VERB_CREATE_AH,
	UVIO_VERB_DESTROY_AH,
	/* MW */
	UVIO_VERB_ALLOC_MW,
	UVIO_VERB_DEALLOC_MW,
	/* DM */
	UVIO_VERB_ALLOC_DM,
	UVIO_VERB_FREE_DM,
	/* WQ and RWQ indirection table */
	UVIO_VERB_CREATE_WQ,
	UVIO_VERB_MODIFY_WQ,
	UVIO_VERB_DESTROY_WQ,
	UVIO_VERB_CREATE_RWQ_IND_TBL,
	UVIO_VERB_DESTROY_RWQ_IND_TBL,
	/* flow steering, flow actions */
	UVIO_VERB_CREATE_FLOW,
	UVIO_VERB_DESTROY_FLOW,
	UVIO_VERB_CREATE_FLOW_ACTION_ESP,
	UVIO_VERB_MODIFY_FLOW_ACTION_ESP,
	UVIO_VERB_DESTROY_FLOW_ACTION,
	/* counters */
	UVIO_VERB_CREATE_COUNTERS,
	UVIO_VERB_DESTROY_COUNTERS,
	UVIO_VERB_READ_COUNTERS,
	/* QP */
	UVIO_VERB_CREATE_QP,
	UVIO_VERB_DESTROY_QP,
	UVIO_VERB_MODIFY_QP,
	UVIO_VERB_QUERY_QP,
	UVIO_VERB_OPEN_QP,
	UVIO_VERB_ATTACH_MCAST,
	UVIO_VERB_DETACH_MCAST,
	/* data path */
	UVIO_VERB_POST_SEND,
	UVIO_VERB_POST_RECV,
	UVIO_VERB_POST_SRQ_RECV,
	UVIO_VERB_REQ_NOTIFY_CQ,
	UVIO_VERB_POLL_CQ,
	UVIO_VERB__COUNT
};
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
int drv_prepare_hw_slow(struct uvio_device *dev, struct hw_call *c, union hw_params *p,
			struct drv_bufs *b);
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
	return drv_prepare_hw_slow(dev, c, p, b);
}
/* drv_prepare_hw() refused: the verb's failure, in the driver half's words
 * where it gave some. */
int drv_refused(struct uvio_device *dev, const char *verb, const struct hw_call *c, int ret,
		enum uvio_path *path);
/* After the kernel answered ret (handle: the new object): the half keeps or
 * frees what it allocated; a driver without a half that refused a verb
 * sent without driver data is named in uvio_last_error(). */
void drv_finish_hw_slow(struct uvio_device *dev, const struct uvio_drv *drv, struct hw_call *c,
			int ret, uint32_t handle, const union hw_params *p);
static inline void drv_finish_hw(struct uvio_device *dev, const struct uvio_drv *drv,
				 struct hw_call *c, int ret, uint32_t handle,
				 const union hw_params *p)
{
	if (__builtin_expect(c->ops || (ret && !drv && dev->driver_id != RDMA_DRIVER_RXE &&
					dev->driver_id != RDMA_DRIVER_SIW), 0))
		drv_finish_hw_slow(dev, drv, c, ret, handle, p);
}
/* The kernel destroyed an object: what a driver half kept for it goes. */
static inline void drv_destroyed_hw(struct uvio_device *dev, enum hw_verb kind, uint32_t handle)
{
	struct hw_state *st = uvio_hw_state(dev);

	if (__builtin_expect(st != NULL, 0))
		st->ops->destroyed(dev, kind, handle);
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
	drv_finish_hw(dev, r->drv, &hc, ret, ret ? 0 : *r->handle, r->p);
	return ret;
}
#define uvio_run_hw_verb(dev, verb_, name_, on_ioctl_, on_write_, args, run, path)              \
	uvio_run_hw_verb_desc((dev), uvio_verb_desc_const(verb_, name_, on_ioctl_, on_write_),  \
			      (args), (run), (path))

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
