/* SPDX-License-Identifier: MIT */
/*
 * Every object's destroy, from one table: a row an object names the verb
 * (its name, method and write() command are its row of verb_table.h), the
 * handle's attribute and, for the destroys that answer with event counts,
 * CQ, QP, SRQ and WQ, the response's (a fixed command, device/dev_fixed.h),
 * and the layout of its write() command's core (a handle alone, the
 * response address and the handle, which CQ, QP and SRQ share, or comp_mask
 * and the handle, extended); one pair of encoders serves them all. All of
 * it inline: each verb's call names its row by a constant, and the row
 * folds into that verb's code.
 */
#ifndef UVIO_VERBS_DESTROY_H
#define UVIO_VERBS_DESTROY_H

#include <uvio/counters.h>
#include <uvio/dm.h>
#include <uvio/flow.h>
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
 * One destroy: the verb (its number and name, and the encoders: the method,
 * and destroy_write() where it has a write() command, in a constant
 * descriptor), the method's handle attribute (for the counted destroys the
 * response attribute and its length too), the write() command's core
 * (core_len bytes, zero but the handle at handle_at) and, for the counted
 * destroys, the answer's length and where its counts start; comp_words as
 * destroy_events_report() takes it; hw: enum hw_verb + 1 of the objects a
 * hardware half keeps memory for, else 0. The method's ids and the write()
 * command (UVIO_NO_WRITE: none) are copied from the verb's row.
 */
struct destroy_row {
	struct uvio_verb_desc desc;	/* verb, name, the pair of encoders */
	uint16_t object, method, handle_attr, resp_attr;
	uint8_t ioctl_resp;
	uint32_t command;
	uint8_t core_len, handle_at, write_resp, events_at;
	uint8_t comp_words;
	uint8_t hw;
};

struct destroy_call {
	const struct destroy_row *row;
	struct destroy_counted d;
};

static inline __attribute__((always_inline)) int
destroy_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct destroy_call *c = args;
	const struct destroy_row *r = c->row;
	struct uvio_fx_cmd x;

	x.n = 0;
	uvio_fx_idr(&x, r->handle_attr, c->d.handle);
	if (r->ioctl_resp)
		uvio_fx_out(&x, r->resp_attr, c->d.resp, r->ioctl_resp);
	return uvio_fx_send(dev, p, &x, r->object, r->method);
}

static inline __attribute__((always_inline)) int
destroy_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct destroy_call *c = args;
	const struct destroy_row *r = c->row;
	uint64_t buf[(UVIO_WRITE_ROOM + 16) / 8] = { 0 };
	uint32_t resp[4];
	size_t counts = (size_t)r->write_resp - r->events_at;
	int ret;

	memcpy((uint8_t *)buf + UVIO_WRITE_ROOM + r->handle_at, &c->d.handle, sizeof(c->d.handle));
	ret = uvio_write_run(dev, p, r->command, buf, r->core_len, resp, r->write_resp, NULL);
	if (!ret && r->write_resp)
		memcpy(c->d.resp, (uint8_t *)resp + r->events_at,
		       counts < sizeof(c->d.resp) ? counts : sizeof(c->d.resp));
	return ret;
}

/* The write() cores: a handle alone (plain, no response), the response
 * address then the handle (plain, the counted destroys), or comp_mask then
 * the handle (extended). */
_Static_assert(sizeof(struct ib_uverbs_dealloc_pd) == 4 && sizeof(struct ib_uverbs_dereg_mr) == 4 &&
		       sizeof(struct ib_uverbs_dealloc_mw) == 4 &&
		       sizeof(struct ib_uverbs_close_xrcd) == 4 &&
		       sizeof(struct ib_uverbs_destroy_ah) == 4,
	       "a handle alone");
_Static_assert(sizeof(struct ib_uverbs_destroy_flow) == 8 &&
		       offsetof(struct ib_uverbs_destroy_flow, flow_handle) == 4 &&
		       sizeof(struct ib_uverbs_ex_destroy_rwq_ind_table) == 8 &&
		       offsetof(struct ib_uverbs_ex_destroy_rwq_ind_table, ind_tbl_handle) == 4 &&
		       sizeof(struct ib_uverbs_ex_destroy_wq) == 8 &&
		       offsetof(struct ib_uverbs_ex_destroy_wq, wq_handle) == 4,
	       "comp_mask, then the handle");
_Static_assert(sizeof(struct ib_uverbs_ex_destroy_wq_resp) <= 16 &&
		       sizeof(struct ib_uverbs_destroy_cq_resp) <= 16,
	       "room for the write() answers");

/* The verb's row, then the write() core's layout. */
#define PLAIN .desc.on_write = destroy_write, .core_len = 4
#define COUNTED(resp)                                                                           \
	.desc.on_write = destroy_write, .core_len = 16, .handle_at = 8,                         \
	.write_resp = sizeof(struct resp)
#define EX .desc.on_write = destroy_write, .core_len = 8, .handle_at = 4
#define HANDLE(attr) .handle_attr = UVERBS_ATTR_##attr
#define ROW(v)                                                                                  \
	.desc.verb = UVIO_VERB_##v, .desc.name = VERB_NAME(v), .desc.on_ioctl = destroy_ioctl,  \
	.object = VERB_OBJECT(v), .method = VERB_METHOD(v), .command = VERB_WRITE(v)

static const struct destroy_row uvio_destroy_rows[DESTROY__COUNT] = {
	[DESTROY_PD] = { ROW(DEALLOC_PD), HANDLE(DESTROY_PD_HANDLE), PLAIN, .hw = HW_PD + 1 },
	[DESTROY_MR] = { ROW(DEREG_MR), HANDLE(DESTROY_MR_HANDLE), PLAIN },
	[DESTROY_MW] = { ROW(DEALLOC_MW), HANDLE(DESTROY_MW_HANDLE), PLAIN },
	[DESTROY_XRCD] = { ROW(CLOSE_XRCD), HANDLE(DESTROY_XRCD_HANDLE), PLAIN },
	[DESTROY_AH] = { ROW(DESTROY_AH), HANDLE(DESTROY_AH_HANDLE), PLAIN, .hw = HW_AH + 1 },
	[DESTROY_FLOW] = { ROW(DESTROY_FLOW), HANDLE(DESTROY_FLOW_HANDLE), EX },
	[DESTROY_RWQ_IND_TBL] = { ROW(DESTROY_RWQ_IND_TBL), HANDLE(DESTROY_RWQ_IND_TBL_HANDLE),
				  EX },
	[DESTROY_COUNTERS] = { ROW(DESTROY_COUNTERS), HANDLE(DESTROY_COUNTERS_HANDLE) },
	[DESTROY_DM] = { ROW(FREE_DM), HANDLE(FREE_DM_HANDLE) },
	[DESTROY_FLOW_ACTION] = { ROW(DESTROY_FLOW_ACTION), HANDLE(DESTROY_FLOW_ACTION_HANDLE) },
	[DESTROY_CQ] = { ROW(DESTROY_CQ), HANDLE(DESTROY_CQ_HANDLE),
			 .resp_attr = UVERBS_ATTR_DESTROY_CQ_RESP,
			 .ioctl_resp = sizeof(struct ib_uverbs_destroy_cq_resp),
			 COUNTED(ib_uverbs_destroy_cq_resp), .comp_words = 1,
			 .hw = HW_CQ + 1 },
	[DESTROY_QP] = { ROW(DESTROY_QP), HANDLE(DESTROY_QP_HANDLE),
			 .resp_attr = UVERBS_ATTR_DESTROY_QP_RESP,
			 .ioctl_resp = sizeof(struct ib_uverbs_destroy_qp_resp),
			 COUNTED(ib_uverbs_destroy_qp_resp), .hw = HW_QP + 1 },
	[DESTROY_SRQ] = { ROW(DESTROY_SRQ), HANDLE(DESTROY_SRQ_HANDLE),
			  .resp_attr = UVERBS_ATTR_DESTROY_SRQ_RESP,
			  .ioctl_resp = sizeof(struct ib_uverbs_destroy_srq_resp),
			  COUNTED(ib_uverbs_destroy_srq_resp), .hw = HW_SRQ + 1 },
	/* WQ's write() answer is extended: its count after comp_mask and
	 * response_length; the method answers the count alone. */
	[DESTROY_WQ] = { ROW(DESTROY_WQ), HANDLE(DESTROY_WQ_HANDLE),
			 .resp_attr = UVERBS_ATTR_DESTROY_WQ_RESP,
			 .ioctl_resp = sizeof(((struct destroy_counted *)0)->resp[0]),
			 EX, .write_resp = sizeof(struct ib_uverbs_ex_destroy_wq_resp),
			 .events_at = offsetof(struct ib_uverbs_ex_destroy_wq_resp, events_reported) },
};

#undef PLAIN
#undef COUNTED
#undef EX
#undef HANDLE
#undef ROW

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

/* The destroy of object o's handle: events (may be NULL) only for the
 * counted ones (CQ, QP, SRQ, WQ); what a hardware half kept for the object
 * released on success.
 * Inline, with o a constant at each call: the row folds into the verb's
 * code, as a destroy of its own would be. */
static inline __attribute__((always_inline)) int
uvio_destroy_object(struct uvio_device *dev, enum destroy_obj o, uint32_t handle,
		    struct uvio_events_reported *events, enum uvio_path *path)
{
	const struct destroy_row *r = &uvio_destroy_rows[o];
	struct destroy_call c = { .row = r, .d = { .handle = handle } };
	struct hw_obj *kept = NULL;
	/* A hardware half's record leaves the table before the kernel is
	 * asked, and is released or put back after (lib/hw/layer.c says
	 * why); rxe and siw have none. */
	bool hw = r->hw && atomic_load_explicit(&dev->hw, memory_order_acquire) != NULL;
	int ret = destroy_events_check(events);

	if (ret)
		return uvio_verb_end(dev, r->desc.name, UVIO_PATH_AUTO, ret, path);
	if (__builtin_expect(hw, 0))
		kept = uvio_hw_destroy_begin(dev, (enum hw_verb)(r->hw - 1), handle);
	ret = uvio_run_verb_desc(dev, &r->desc, &c, path);
	if (__builtin_expect(hw, 0))
		uvio_hw_destroy_end(dev, kept, ret);
	if (ret)
		return ret;
	destroy_events_report(events, &c.d, r->comp_words);
	return 0;
}

#endif
