/* SPDX-License-Identifier: MIT */
/*
 * Every object's destroy (destroy.c): one table row an object, one pair of
 * encoders. On the ioctl path the handle (and, for the destroys that answer
 * with event counts, CQ, QP, SRQ and WQ, a response attribute), a fixed
 * command (device/dev_fixed.h); as a write() command a handle alone, the
 * response address and the handle (CQ, QP and SRQ share that layout), or
 * comp_mask and the handle (extended).
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

/* The objects with a destroy verb, a row each in uvio_destroy_rows. */
enum destroy_obj {
	DESTROY_PD,
	DESTROY_MR,
	DESTROY_MW,
	DESTROY_XRCD,
	DESTROY_AH,
	DESTROY_FLOW,
	DESTROY_RWQ_IND_TBL,
	DESTROY_COUNTERS,
	DESTROY_DM,
	DESTROY_FLOW_ACTION,
	DESTROY_CQ,
	DESTROY_QP,
	DESTROY_SRQ,
	DESTROY_WQ,
	DESTROY__COUNT
};

/*
 * One destroy: the verb (its number and "OBJECT.METHOD" name), the method
 * (its handle attribute; for the counted destroys the response attribute
 * and its length), the write() command (0: none; UVIO_EX() for an extended
 * one) with its core (core_len bytes, zero but the handle at handle_at)
 * and, for the counted destroys, the answer's length and where its counts
 * start; comp_words as destroy_events_report() takes it; hw: enum hw_verb
 * + 1 of the objects a hardware half keeps memory for, else 0.
 */
struct destroy_row {
	unsigned int verb;
	const char *name;
	uint16_t object, method, handle_attr, resp_attr;
	uint8_t ioctl_resp;
	uint32_t command;
	uint8_t core_len, handle_at, write_resp, events_at;
	uint8_t comp_words;
	uint8_t hw;
};
extern const struct destroy_row uvio_destroy_rows[DESTROY__COUNT];

/* The destroy of object o's handle: events (may be NULL) only for the
 * counted ones (CQ, QP, SRQ, WQ); the hardware half told on success. */
int uvio_destroy_object(struct uvio_device *dev, enum destroy_obj o, uint32_t handle,
			struct uvio_events_reported *events, enum uvio_path *path);

#endif
