// SPDX-License-Identifier: MIT
/*
 * bnxt_re's half of the control path (Broadcom NetXtreme-E, the kernel's
 * bnxt_re): what the kernel driver requires in each command's driver data,
 * with the queues it pins allocated and sized by libbnxt_re's rules, and the
 * shared page and doorbell page the context offers mapped. The request the
 * library sends is the one rdma-core's libbnxt_re (rdma-core 44) sends for
 * the same verb, so that the kernel sees the same thing from both.
 *
 * No data path: nothing here posts, polls or rings a doorbell (rdma-core's
 * libbnxt_re does).
 *
 * The device profile the half sizes for: the WQE mode the context answers
 * must be static (every chip before gen P5, and gen P5 in its default
 * mode); a variable-mode context's CQs work, its QPs and SRQs are refused.
 * libbnxt_re reads max_sge and max_qp_wr from a device query; the half
 * takes max_sge as 6 (the static WQE's room, which libbnxt_re itself uses
 * in that mode) and does not clamp WR counts to the device's max_qp_wr
 * (the kernel refuses counts past it with EINVAL, where libbnxt_re would
 * have lowered them).
 *
 * Rules, from libbnxt_re and bnxt_re (Linux 6.1; what 6.12 answers
 * differently is said after them):
 *  - context: no request; the answer bnxt_re_uctx_resp (48 bytes): pg_size,
 *    cqe_sz, max_cqd, and where comp_mask says so the chip id (gen P5:
 *    chip numbers 0x1750, 0x1751, 0x1752) and the WQE mode; the shared page
 *    (pg_size bytes) is mmap offset 0;
 *  - PD: no request; the answer bnxt_re_pd_resp (pdid, dpi, dbr, 16
 *    bytes); at the context's first PD the doorbell page (pg_size bytes,
 *    write only) is mapped at offset dbr, and kept until the context goes
 *    (as libbnxt_re, nothing waits for it: a CQ may come before any PD);
 *  - CQ: 1 to max_cqd CQEs (else EINVAL); depth = the count + 1 rounded up
 *    to a power of two, at most max_cqd + 1; the buffer depth x cqe_sz
 *    bytes in whole pages, zeroed; the request (cq_va, cq_handle), the
 *    kernel sent the count asked; the answer (cqid, tail, phase), 16 bytes;
 *    no resize (libbnxt_re 44 has none; bnxt_re has one from 6.12 on);
 *  - QP (RC, UD): SGEs past 6 or inline data past 96 bytes: EINVAL; send
 *    WRs: max_send_wr + 1 + 128 rounded up to a power of two; a WQE of
 *    32 + 16 x the SGEs (made even), or 32 + the inline size rounded up to
 *    32 when larger, past 128: EINVAL; in static mode every WQE 128 bytes,
 *    and inline data answered as 96 (the kernel is sent that); the send
 *    buffer: the WQEs in 16-byte slots plus a PSN search entry per WR (8
 *    bytes, 16 on gen P5) rounded up to slots, in whole pages; receive WRs
 *    max_recv_wr + 1 rounded up to a power of two of 128-byte WQEs, in
 *    whole pages, none on an SRQ; the request (qpsva, qprva, qp_handle);
 *    the answer (qpid, rsvd), 8 bytes;
 *  - SRQ (basic): max_wr + 1 rounded up to a power of two WQEs of 128
 *    bytes (header 32 + 96 of inline room), in whole pages; the request
 *    (srqva, srq_handle); the answer (srqid), 4 bytes;
 *  - AH: no driver data either way (libbnxt_re reads the AV id from the
 *    shared page; the half has no use for it).
 * Linux 6.12 (checked against the stand-in built for it, beside libbnxt_re
 * 44) takes the same requests, and nothing here needs what it adds: the
 * context is sent no request, so 6.12 reports no WQE mode and makes every
 * QP of the context static-mode, which the half assumes where the mode is
 * missing; dbr is an mmap offset rather than a frame, mapped the same way;
 * the CQ answer grows to 24 bytes, cut to the room asked, and the QP
 * request to 40, read as far as sent (6.1's lengths here); the SRQ answer
 * grows to 16 bytes, written whole into the 4 asked: the 12 past them land
 * in the call's answer space (128 bytes), not past it. Not covered: the
 * gen P7 chips 6.12 adds (0x1760, 0xd818) take 16-byte PSN entries, which
 * the half, as libbnxt_re 44, sizes as 8.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>
#include "hw/bnxt_re_abi.h"
#include "hw/hw.h"
#include "report/report.h"

enum {
	MAX_SGE = 6,			/* the static WQE's room */
	MAX_INLINE = 0x60,		/* BNXT_RE_MAX_INLINE_SIZE */
	WQE_HDR = 32,			/* bsqe + send / brqe + rqe / brqe + srqe */
	SLOT = 16,			/* struct bnxt_re_sge: a queue's stride */
	FULL_DELTA = 0x80,		/* send WRs held back in static mode */
	PSN = 8,			/* struct bnxt_re_psns */
	PSN_EXT = 16,			/* struct bnxt_re_psns_ext (gen P5) */
	SRQE = WQE_HDR + MAX_INLINE,	/* an SRQ WQE */
	MAX_WR = 1 << 30,		/* past it, a queue's size would not fit 32 bits;
					 * the kernel holds counts to the device's max */
};

struct bnxt_state {
	struct hw_state base;
	struct uvio_bnxt_re_uctx_resp resp;
	size_t page;			/* the context's pg_size */
	bool gen_p5;
	void *shpg;			/* the shared page, or NULL */
	void *dbpage;			/* the doorbell page, from the first PD */
	uint32_t dpi;
};

struct bnxt_obj {
	struct hw_obj base;
	void *buf, *rbuf;		/* CQ / SRQ / send queue; receive queue */
	size_t map_len, rmap_len;
	uint32_t id;			/* pdid, cqid, qpid, srqid */
};

/* Queue memory: whole pages, zeroed. */
static void *bnxt_re_queue_alloc(size_t len, size_t page, size_t *map_len)
{
	return uvio_hw_queue_alloc(len ? len : page, page, map_len);	/* an empty queue: a page */
}

static void bnxt_re_obj_release(struct uvio_device *dev, struct hw_state *st, struct hw_obj *obj)
{
	struct bnxt_obj *o = (struct bnxt_obj *)obj;

	(void)dev;
	(void)st;
	uvio_hw_queue_free(o->buf, o->map_len);
	uvio_hw_queue_free(o->rbuf, o->rmap_len);
}

static void bnxt_re_context_release(struct uvio_device *dev, struct hw_state *base)
{
	struct bnxt_state *st = (struct bnxt_state *)base;

	(void)dev;
	if (st->shpg)
		munmap(st->shpg, st->page);
	if (st->dbpage)
		munmap(st->dbpage, st->page);
}

/* GET_CONTEXT */

static int bnxt_re_context_request(struct uvio_device *dev, struct hw_state *st,
				   struct hw_call *c, struct drv_bufs *b)
{
	(void)dev;
	(void)st;
	_Static_assert(sizeof(struct uvio_bnxt_re_uctx_resp) <= sizeof(c->out), "room");
	return uvio_hw_hand_over(c, b, 0, sizeof(struct uvio_bnxt_re_uctx_resp));
}

static void bnxt_re_context_answer(struct uvio_device *dev, struct hw_state *base,
				   const struct hw_call *c)
{
	struct bnxt_state *st = (struct bnxt_state *)base;
	size_t sys_page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memcpy(&st->resp, c->out, sizeof(st->resp));
	/* pg_size is the kernel's page: a power of two, at least ours */
	st->page = st->resp.pg_size >= sys_page && !(st->resp.pg_size & (st->resp.pg_size - 1)) ?
			   st->resp.pg_size : sys_page;
	if (st->resp.comp_mask & UVIO_BNXT_RE_CMASK_HAVE_CCTX) {
		uint32_t chip = st->resp.chip_id0 & 0xffff;

		st->gen_p5 = chip == 0x1750 || chip == 0x1751 || chip == 0x1752;
	}
	if (!(st->resp.comp_mask & UVIO_BNXT_RE_CMASK_HAVE_MODE))
		st->resp.mode = UVIO_BNXT_RE_WQE_MODE_STATIC;
	p = mmap(NULL, st->page, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd, 0);
	if (p == MAP_FAILED)	/* libbnxt_re fails the context; nothing here needs it */
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: bnxt_re: no shared page (%s)",
			 dev->name, strerror(errno));
	else
		st->shpg = p;
}

/* PD: the doorbell page the first answer names */

static void bnxt_re_pd_answer(struct uvio_device *dev, struct bnxt_state *st, const struct hw_call *c)
{
	struct bnxt_re_pd_resp resp;
	void *p;

	memcpy(&resp, c->out, sizeof(resp));
	uvio_hw_lock(&st->base);	/* one page, the first PD's */
	if (st->dbpage)
		goto out;
	p = mmap(NULL, st->page, PROT_WRITE, MAP_SHARED, dev->fd, (off_t)resp.dbr);
	if (p == MAP_FAILED) {
		uvio_log(LOG_WARNING, "%s: PD.ALLOC: bnxt_re: doorbell page at 0x%llx not mapped "
			 "(%s)", dev->name,
			 (unsigned long long)resp.dbr, strerror(errno));
		goto out;
	}
	st->dbpage = p;
	st->dpi = resp.dpi;
out:
	uvio_hw_unlock(&st->base);
}

/* CQ */

static int bnxt_re_cq_request(struct bnxt_state *st, struct hw_call *c, union hw_params *p,
			      struct bnxt_obj *o, struct drv_bufs *b)
{
	struct bnxt_re_cq_req *req = (void *)c->in;
	uint32_t cqe_sz = st->resp.cqe_sz ? st->resp.cqe_sz : 32;
	uint64_t depth;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct bnxt_re_cq_resp) <= sizeof(c->out), "room");
	if (!p->cq.cqe || p->cq.cqe > st->resp.max_cqd)
		return uvio_hw_refuse(c, -EINVAL, "cqe: none, or past the context's max_cqd");
	depth = uvio_hw_pow2((uint64_t)p->cq.cqe + 1);
	if (!depth || depth > (uint64_t)st->resp.max_cqd + 1)
		depth = (uint64_t)st->resp.max_cqd + 1;
	o->buf = bnxt_re_queue_alloc((size_t)depth * cqe_sz, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->cq_va = (uintptr_t)o->buf;
	req->cq_handle = (uintptr_t)o;
	/* the kernel is sent the count asked, as libbnxt_re sends it */
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct bnxt_re_cq_resp));
}

/* QP */

static uint32_t bnxt_re_wqe_size(uint32_t nsge)
{
	return WQE_HDR + SLOT * nsge;
}

static int bnxt_re_qp_request(struct bnxt_state *st, struct hw_call *c, union hw_params *p,
			      struct bnxt_obj *o, struct drv_bufs *b)
{
	struct bnxt_re_qp_req *req = (void *)c->in;
	struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	uint32_t nswr, nsge, sqe, ils, rqe, nrwr = 0, psn;
	size_t sq_len, rq_len = 0;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct bnxt_re_qp_resp) <= sizeof(c->out), "room");
	if (p->qp.type != IB_UVERBS_QPT_RC && p->qp.type != IB_UVERBS_QPT_UD)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "bnxt_re makes RC and UD QPs only");
	if (st->resp.mode != UVIO_BNXT_RE_WQE_MODE_STATIC)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "the library's bnxt_re half sizes static-mode WQEs only, and this "
			      "context's WQE mode is variable; pass driver data");
	if (cap->max_send_sge > MAX_SGE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_sge: more than 6 SGEs per WQE");
	if (cap->max_recv_sge > MAX_SGE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_sge: more than 6 SGEs per WQE");
	if (cap->max_inline_data > MAX_INLINE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_inline_data: more than 96 bytes");
	if (cap->max_send_wr > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_wr past 2^30 WRs");
	if (cap->max_recv_wr > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_wr past 2^30 WRs");

	/* the send queue */
	nswr = uvio_hw_pow2((uint64_t)cap->max_send_wr + 1 + FULL_DELTA);
	nsge = cap->max_send_sge + (cap->max_send_sge % 2);
	sqe = bnxt_re_wqe_size(nsge);
	ils = (cap->max_inline_data + WQE_HDR - 1) / WQE_HDR * WQE_HDR;
	if (ils) {
		if (WQE_HDR + ils > sqe)
			sqe = WQE_HDR + ils;
		sqe = (sqe + WQE_HDR - 1) / WQE_HDR * WQE_HDR;
	}
	if (sqe > bnxt_re_wqe_size(MAX_SGE))
		return uvio_hw_refuse(c, -EINVAL, "a send WQE past 128 bytes (SGEs and inline data)");
	sqe = bnxt_re_wqe_size(MAX_SGE);		/* static mode */
	if (cap->max_inline_data)
		cap->max_inline_data = sqe - WQE_HDR;	/* what libbnxt_re sends */
	psn = st->gen_p5 ? PSN_EXT : PSN;
	sq_len = (size_t)nswr * sqe / SLOT * SLOT + ((size_t)nswr * psn + SLOT - 1) / SLOT * SLOT;

	/* the receive queue */
	if (!p->qp.srq) {
		nrwr = uvio_hw_pow2((uint64_t)cap->max_recv_wr + 1);
		nsge = cap->max_recv_sge + (cap->max_recv_sge % 2);
		if (bnxt_re_wqe_size(nsge) > bnxt_re_wqe_size(MAX_SGE))
			return uvio_hw_refuse(c, -EINVAL, "a receive WQE past 128 bytes");
		rqe = bnxt_re_wqe_size(MAX_SGE);	/* static mode */
		rq_len = (size_t)nrwr * rqe;
	}
	o->buf = bnxt_re_queue_alloc(sq_len, st->page, &o->map_len);
	if (o->buf && nrwr)
		o->rbuf = bnxt_re_queue_alloc(rq_len, st->page, &o->rmap_len);
	if (!o->buf || (nrwr && !o->rbuf))
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->qpsva = (uintptr_t)o->buf;
	req->qprva = (uintptr_t)o->rbuf;
	req->qp_handle = (uintptr_t)o;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct bnxt_re_qp_resp));
}

/* SRQ */

static int bnxt_re_srq_request(struct bnxt_state *st, struct hw_call *c, union hw_params *p,
			       struct bnxt_obj *o, struct drv_bufs *b)
{
	struct bnxt_re_srq_req *req = (void *)c->in;
	uint32_t depth;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct bnxt_re_srq_resp) <= sizeof(c->out), "room");
	if (p->srq.type != IB_UVERBS_SRQT_BASIC)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "bnxt_re makes basic SRQs only");
	if (p->srq.max_wr > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "max_wr past 2^30 WRs");
	if (p->srq.max_sge > MAX_SGE)
		return uvio_hw_refuse(c, -EINVAL, "max_sge: more than 6 SGEs per WQE");
	if (st->resp.mode != UVIO_BNXT_RE_WQE_MODE_STATIC)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "the library's bnxt_re half sizes static-mode WQEs only; pass driver data");
	depth = uvio_hw_pow2((uint64_t)p->srq.max_wr + 1);
	o->buf = bnxt_re_queue_alloc((size_t)depth * SRQE, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->srqva = (uintptr_t)o->buf;
	req->srq_handle = (uintptr_t)o;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct bnxt_re_srq_resp));
}

_Static_assert(sizeof(struct bnxt_re_pd_resp) <= HW_DATA_MAX, "the PD answer's room");

static int bnxt_re_request(struct uvio_device *dev, struct hw_state *base, struct hw_call *c,
			   union hw_params *p, struct hw_obj *obj, struct drv_bufs *b)
{
	struct bnxt_state *st = (struct bnxt_state *)base;
	struct bnxt_obj *o = (struct bnxt_obj *)obj;

	(void)dev;
	switch (c->verb) {
	case HW_PD:	/* pdid, dpi and the doorbell page come back */
		return uvio_hw_hand_over(c, b, 0, sizeof(struct bnxt_re_pd_resp));
	case HW_AH:	/* no driver data either way */
		return uvio_hw_hand_over(c, b, 0, 0);
	case HW_CQ:
		return bnxt_re_cq_request(st, c, p, o, b);
	case HW_CQ_RESIZE:
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "libbnxt_re 44 does not resize a CQ (bnxt_re 6.1 cannot); pass "
			      "driver data (bnxt_re_resize_cq_req, Linux 6.12)");
	case HW_QP:
		return bnxt_re_qp_request(st, c, p, o, b);
	case HW_SRQ:
		return bnxt_re_srq_request(st, c, p, o, b);
	default:
		return 0;
	}
}

static void bnxt_re_answer(struct uvio_device *dev, struct hw_state *base, const struct hw_call *c,
			   struct hw_obj *obj)
{
	struct bnxt_obj *o = (struct bnxt_obj *)obj;

	if (c->verb == HW_AH)
		return;
	memcpy(&o->id, c->out, sizeof(o->id));	/* pdid, cqid, qpid, srqid */
	if (c->verb == HW_PD)
		bnxt_re_pd_answer(dev, (struct bnxt_state *)base, c);
}

static void bnxt_re_describe(const struct hw_state *base, const struct hw_obj *obj,
			     struct uvio_hw_object *out)
{
	const struct bnxt_state *st = (const struct bnxt_state *)base;
	const struct bnxt_obj *o = (const struct bnxt_obj *)obj;

	out->num = o->id;
	switch (obj->kind) {
	case HW_CQ:
		uvio_hw_region_add(out, UVIO_HW_MEM_CQ, 0, o->buf, o->map_len);
		break;
	case HW_QP:
		uvio_hw_region_add(out, UVIO_HW_MEM_SQ, 0, o->buf, o->map_len);
		uvio_hw_region_add(out, UVIO_HW_MEM_RQ, 0, o->rbuf, o->rmap_len);
		break;
	case HW_SRQ:
		uvio_hw_region_add(out, UVIO_HW_MEM_SRQ, 0, o->buf, o->map_len);
		break;
	default:
		return;
	}
	/* the first PD's page, which every queue of the context rings */
	uvio_hw_region_add(out, UVIO_HW_MEM_DOORBELL, UVIO_HW_MEM_OF_DEVICE, st->dbpage, st->page);
}

const struct hw_ops uvio_hw_bnxt_re = {
	.driver = "bnxt_re",
	.state_size = sizeof(struct bnxt_state),
	.obj_size = sizeof(struct bnxt_obj),
	.context_request = bnxt_re_context_request,
	.context_answer = bnxt_re_context_answer,
	.context_release = bnxt_re_context_release,
	.request = bnxt_re_request,
	.answer = bnxt_re_answer,
	.obj_release = bnxt_re_obj_release,
	.describe = bnxt_re_describe,
};
