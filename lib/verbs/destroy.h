/* SPDX-License-Identifier: MIT */
/*
 * Every object's destroy, from one table: a row an object names the verb
 * (its number and "OBJECT.METHOD" name), its method (object, method, the
 * handle's attribute and, for the destroys that answer with event counts,
 * CQ, QP, SRQ and WQ, the response's: a fixed command, device/dev_fixed.h),
 * and its write() command with the layout of its core (a handle alone, the
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
 * One destroy: the verb (its number and "OBJECT.METHOD" name, and the
 * encoders: the method, and destroy_write() where it has a write() command, in
 * a constant descriptor), the method
 * (its handle attribute; for the counted destroys the response attribute
 * and its length), the write() command (0: none; UVIO_EX() for an extended
 * one) with its core (core_len bytes, zero but the handle at handle_at)
 * and, for the counted destroys, the answer's length and where its counts
 * start; comp_words as destroy_events_report() takes it; hw: enum hw_verb
 * + 1 of the objects a hardware half keeps memory for, else 0.
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

#define PLAIN(cmd) .desc.on_write = destroy_write, .command = IB_USER_VERBS_CMD_##cmd, .core_len = 4
#define COUNTED(cmd, resp)                                                                     \
	.desc.on_write = destroy_write, .command = IB_USER_VERBS_CMD_##cmd, .core_len = 16, .handle_at = 8,                    \
	.write_resp = sizeof(struct resp)
#define EX(cmd)                                                                                \
	.desc.on_write = destroy_write, .command = UVIO_EX(IB_USER_VERBS_EX_CMD_##cmd),          \
	.core_len = 8, .handle_at = 4
#define METHOD(obj, meth, attr)                                                                \
	.object = UVERBS_OBJECT_##obj, .method = UVERBS_METHOD_##meth,                         \
	.handle_attr = UVERBS_ATTR_##attr
#define ROW(v, n) .desc.verb = UVIO_VERB_##v, .desc.name = n, .desc.on_ioctl = destroy_ioctl

static const struct destroy_row uvio_destroy_rows[DESTROY__COUNT] = {
	[DESTROY_PD] = { ROW(DEALLOC_PD, "PD.DESTROY"), METHOD(PD, PD_DESTROY, DESTROY_PD_HANDLE),
			 PLAIN(DEALLOC_PD), .hw = HW_PD + 1 },
	[DESTROY_MR] = { ROW(DEREG_MR, "MR.DESTROY"), METHOD(MR, MR_DESTROY, DESTROY_MR_HANDLE),
			 PLAIN(DEREG_MR) },
	[DESTROY_MW] = { ROW(DEALLOC_MW, "MW.DESTROY"), METHOD(MW, MW_DESTROY, DESTROY_MW_HANDLE),
			 PLAIN(DEALLOC_MW) },
	[DESTROY_XRCD] = { ROW(CLOSE_XRCD, "XRCD.DESTROY"),
			   METHOD(XRCD, XRCD_DESTROY, DESTROY_XRCD_HANDLE), PLAIN(CLOSE_XRCD) },
	[DESTROY_AH] = { ROW(DESTROY_AH, "AH.DESTROY"), METHOD(AH, AH_DESTROY, DESTROY_AH_HANDLE),
			 PLAIN(DESTROY_AH), .hw = HW_AH + 1 },
	[DESTROY_FLOW] = { ROW(DESTROY_FLOW, "FLOW.DESTROY"),
			   METHOD(FLOW, FLOW_DESTROY, DESTROY_FLOW_HANDLE), EX(DESTROY_FLOW) },
	[DESTROY_RWQ_IND_TBL] = { ROW(DESTROY_RWQ_IND_TBL, "RWQ_IND_TBL.DESTROY"),
				  METHOD(RWQ_IND_TBL, RWQ_IND_TBL_DESTROY,
					 DESTROY_RWQ_IND_TBL_HANDLE),
				  EX(DESTROY_RWQ_IND_TBL) },
	[DESTROY_COUNTERS] = { ROW(DESTROY_COUNTERS, "COUNTERS.DESTROY"),
			       METHOD(COUNTERS, COUNTERS_DESTROY, DESTROY_COUNTERS_HANDLE) },
	[DESTROY_DM] = { ROW(FREE_DM, "DM.FREE"), METHOD(DM, DM_FREE, FREE_DM_HANDLE) },
	[DESTROY_FLOW_ACTION] = { ROW(DESTROY_FLOW_ACTION, "FLOW_ACTION.DESTROY"),
				  METHOD(FLOW_ACTION, FLOW_ACTION_DESTROY,
					 DESTROY_FLOW_ACTION_HANDLE) },
	[DESTROY_CQ] = { ROW(DESTROY_CQ, "CQ.DESTROY"), METHOD(CQ, CQ_DESTROY, DESTROY_CQ_HANDLE),
			 .resp_attr = UVERBS_ATTR_DESTROY_CQ_RESP,
			 .ioctl_resp = sizeof(struct ib_uverbs_destroy_cq_resp),
			 COUNTED(DESTROY_CQ, ib_uverbs_destroy_cq_resp), .comp_words = 1,
			 .hw = HW_CQ + 1 },
	[DESTROY_QP] = { ROW(DESTROY_QP, "QP.DESTROY"), METHOD(QP, QP_DESTROY, DESTROY_QP_HANDLE),
			 .resp_attr = UVERBS_ATTR_DESTROY_QP_RESP,
			 .ioctl_resp = sizeof(struct ib_uverbs_destroy_qp_resp),
			 COUNTED(DESTROY_QP, ib_uverbs_destroy_qp_resp), .hw = HW_QP + 1 },
	[DESTROY_SRQ] = { ROW(DESTROY_SRQ, "SRQ.DESTROY"),
			  METHOD(SRQ, SRQ_DESTROY, DESTROY_SRQ_HANDLE),
			  .resp_attr = UVERBS_ATTR_DESTROY_SRQ_RESP,
			  .ioctl_resp = sizeof(struct ib_uverbs_destroy_srq_resp),
			  COUNTED(DESTROY_SRQ, ib_uverbs_destroy_srq_resp), .hw = HW_SRQ + 1 },
	/* WQ's write() answer is extended: its count after comp_mask and
	 * response_length; the method answers the count alone. */
	[DESTROY_WQ] = { ROW(DESTROY_WQ, "WQ.DESTROY"), METHOD(WQ, WQ_DESTROY, DESTROY_WQ_HANDLE),
			 .resp_attr = UVERBS_ATTR_DESTROY_WQ_RESP,
			 .ioctl_resp = sizeof(((struct destroy_counted *)0)->resp[0]),
			 EX(DESTROY_WQ), .write_resp = sizeof(struct ib_uverbs_ex_destroy_wq_resp),
			 .events_at = offsetof(struct ib_uverbs_ex_destroy_wq_resp, events_reported) },
};

#undef PLAIN
#undef COUNTED
#undef EX
#undef METHOD
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
 * counted ones (CQ, QP, SRQ, WQ); the hardware half told on success.
 * Inline, with o a constant at each call: the row folds into the verb's
 * code, as a destroy of its own would be. */
static inline __attribute__((always_inline)) int
uvio_destroy_object(struct uvio_device *dev, enum destroy_obj o, uint32_t handle,
		    struct uvio_events_reported *events, enum uvio_path *path)
{
	const struct destroy_row *r = &uvio_destroy_rows[o];
	struct destroy_call c = { .row = r, .d = { .handle = handle } };
	int ret = destroy_events_check(events);

	if (ret)
		return uvio_verb_end(dev, r->desc.name, UVIO_PATH_AUTO, ret, path);
	ret = uvio_run_verb_desc(dev, &r->desc, &c, path);
	if (ret)
		return ret;
	destroy_events_report(events, &c.d, r->comp_words);
	if (r->hw)
		drv_destroyed_hw(dev, (enum hw_verb)(r->hw - 1), handle);
	return 0;
}

#endif
