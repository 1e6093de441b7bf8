/* SPDX-License-Identifier: MIT */
/*
 * The destroys that answer with event counts: CQ, QP, SRQ and WQ. On the
 * ioctl path a handle and a response attribute, a fixed command
 * (device/dev_fixed.h); as a write() command one core layout for CQ, QP and
 * SRQ (response address, handle, reserved; WQ's is extended and its own).
 * Each object binds these to its ids in one-line encoders, which keeps the
 * ids and lengths constants.
 */
#ifndef UVIO_VERBS_DESTROY_H
#define UVIO_VERBS_DESTROY_H

#include "verb.h"

_Static_assert(sizeof(struct ib_uverbs_destroy_cq) == 16 &&
	       sizeof(struct ib_uverbs_destroy_qp) == 16 &&
	       sizeof(struct ib_uverbs_destroy_srq) == 16 &&
	       offsetof(struct ib_uverbs_destroy_cq, cq_handle) == 8 &&
	       offsetof(struct ib_uverbs_destroy_qp, qp_handle) == 8 &&
	       offsetof(struct ib_uverbs_destroy_srq, srq_handle) == 8,
	       "CQ, QP and SRQ DESTROY share one core layout");

struct destroy_counted {
	uint32_t handle;
	uint32_t resp[2];	/* the kernel's response words; zero until it answers */
};
_Static_assert(sizeof(struct ib_uverbs_destroy_cq_resp) <= sizeof(((struct destroy_counted *)0)->resp) &&
	       sizeof(struct ib_uverbs_destroy_qp_resp) <= sizeof(((struct destroy_counted *)0)->resp) &&
	       sizeof(struct ib_uverbs_destroy_srq_resp) <= sizeof(((struct destroy_counted *)0)->resp),
	       "room for every destroy response");

/* The caller's event counts: an output struct, checked before anything is
 * sent (a destroy that succeeded cannot be told again), written inside its
 * sz. comp_words: how many response words lead with the completion count
 * (CQ 1, QP and SRQ 0). */
static inline int destroy_events_check(const struct uvio_events_reported *ev)
{
	return ev ? uvio_out_check(ev) : 0;
}

static inline void destroy_events_report(struct uvio_events_reported *ev,
					 const struct destroy_counted *d, int comp_words)
{
	if (!ev)
		return;
	UVIO_OUT_SET(ev, comp_events_reported, comp_words ? d->resp[0] : 0);
	UVIO_OUT_SET(ev, async_events_reported, d->resp[comp_words]);
}

static inline int destroy_counted_ioctl(struct uvio_device *dev, enum uvio_path p,
					struct destroy_counted *d, uint16_t object,
					uint16_t method, uint16_t handle_attr,
					uint16_t resp_attr, size_t resp_len)
{
	struct uvio_fx_cmd c;

	c.n = 0;
	uvio_fx_idr(&c, handle_attr, d->handle);
	uvio_fx_out(&c, resp_attr, d->resp, resp_len);
	return uvio_fx_send(dev, p, &c, object, method);
}

static inline int destroy_counted_write(struct uvio_device *dev, enum uvio_path p,
					struct destroy_counted *d, uint32_t command,
					size_t resp_len)
{
	struct ib_uverbs_destroy_cq c = { .cq_handle = d->handle };

	return uvio_legacy_cmd(dev, p, command, &c, sizeof(c), d->resp, resp_len, NULL);
}

#endif
