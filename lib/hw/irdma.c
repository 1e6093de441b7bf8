// SPDX-License-Identifier: MIT
/*
 * irdma's half of the control path (Intel E810 and X722, the kernel's
 * irdma): what the kernel driver requires in each command's driver data,
 * with the queues it finds allocated, sized and registered by irdma's rules
 * and the doorbell page the context offers mapped. The requests are the
 * ones rdma-core's libirdma (rdma-core 44) sends for the same verbs, so that
 * the kernel sees the same thing from both.
 *
 * irdma finds a CQ's or a QP's memory by a registration made before it:
 * REG_MR with irdma's request (struct irdma_mem_reg_req: reg_type CQ or QP
 * and the page counts), which the kernel keeps on the context's list of
 * queue regions until CREATE_CQ or CREATE_QP names the region's address.
 * This half issues those REG_MRs itself in prepare, as libirdma does, and
 * deregisters them when the object is destroyed (or when the kernel refuses
 * it).
 *
 * No data path: nothing here posts or polls (rdma-core's libirdma does).
 *
 * Rules, from libirdma and irdma (Linux 6.1):
 *  - context: request irdma_alloc_ucontext_req with userspace_ver 5 (8
 *    bytes, rdma-core 44's layout), room for the 64-byte answer (without
 *    comp_mask: the kernel then sizes QPs from the caps as sent); the
 *    answer's hw_rev 0 is a legacy i40iw kernel, whose CQs and QPs this
 *    half does not make; the doorbell page is mapped at db_mmap_key, one
 *    4 KiB page; libirdma's context holds a PD of its own for the CQs'
 *    registrations, and so does this half's (freed at close);
 *  - PD: no request, the 8-byte answer (pd_id); AH: the 8-byte answer
 *    (ah_id);
 *  - CQ: 1 to max_hw_cq_size CQEs; cq_size = (cqe + 1) x 2 on GEN_2 and
 *    later (a CQE more for immediate data), at least 4; the buffer
 *    cq_size x 32 bytes rounded up to 4 KiB, registered (reg_type CQ,
 *    cq_pages its 4 KiB pages, local write, iova the address) in the
 *    context's PD; with the CQ_RESIZE feature the 64-byte shadow area is a
 *    page of its own, registered the same way with cq_pages 1, else it
 *    follows the buffer in the same registration; the kernel is sent
 *    cq_size and irdma_create_cq_req (user_cq_buf, user_shadow_area);
 *  - QP (RC, UD): at most max_hw_wq_frags SGEs each way and max_hw_inline
 *    bytes inline; WQE shift from the fragments (the send queue's one more,
 *    for immediate data, on GEN_2) and the inline data: 0 for one fragment
 *    and at most 8 bytes, 1 below 4 and at most 39, 2 below 8 and at most
 *    101, else 3; depths (wr << shift) + 258 (send) or + 1 (receive)
 *    rounded up to a power of two, at least 8 << shift, past
 *    max_hw_wq_quanta or max_hw_rq_quanta refused; queues of 32-byte
 *    quanta, each rounded up to 4 KiB, send first, then the 64-byte shadow
 *    area; registered (reg_type QP, sq_pages and rq_pages) in the QP's PD;
 *    the kernel is sent depth >> shift as max_send_wr and max_recv_wr and
 *    irdma_create_qp_req (user_wqe_bufs the buffer, user_compl_ctx this
 *    half's record of the QP).
 * Linux 6.12 (checked against the stand-in built for it, beside libirdma
 * 44) takes the same requests: its longer context answer (comp_mask and
 * min_hw_wq_size after hw_rev) is cut to the 64 bytes of room asked, and
 * the sizes above do not change on GEN_2 (its min_hw_wq_size is the 8
 * used here). Its REREG_MR takes no driver data.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>
#include <rdma/irdma-abi.h>
#include <rdma/ib_user_verbs.h>
#include "hw/hw.h"
#include "device/path.h"
#include "report/report.h"

enum {
	ABI_VER = 5,			/* the userspace_ver libirdma 44 asks first */
	GEN_1 = 1,
	HW_PAGE = 4096,			/* IRDMA_HW_PAGE_SIZE */
	CQE_SIZE = 32,			/* struct irdma_cqe */
	QUANTUM = 32,			/* IRDMA_QP_WQE_MIN_SIZE */
	SHADOW = 64,			/* IRDMA_DB_SHADOW_AREA_SIZE */
	MIN_CQ = 4,			/* IRDMA_U_MINCQ_SIZE */
	SQ_RSVD = 258,
	RQ_RSVD = 1,
	MIN_WQSIZE = 8,
	FEATURE_CQ_RESIZE = 2,
};

/* rdma-core 44's answer: irdma_alloc_ucontext_resp up to hw_rev, rsvd2. */
#define CTX_RESP_LEN offsetof(struct irdma_alloc_ucontext_resp, comp_mask)
#define CTX_REQ_LEN offsetof(struct irdma_alloc_ucontext_req, comp_mask)

struct irdma_state {
	struct hw_state base;
	struct irdma_alloc_ucontext_resp resp;
	size_t page;
	void *db;			/* the doorbell page, or NULL */
	int db_error;
	uint32_t pd;			/* the context's own PD (CQ regions) */
	bool have_pd;
};

/* A queue region: memory, and its registration. */
struct region {
	void *addr;
	size_t len, map_len;
	uint32_t mr;
	bool registered;
};

struct irdma_obj {
	struct hw_obj base;
	struct region buf, shadow;	/* shadow: CQs with CQ_RESIZE */
	uint32_t id;			/* cq_id, qp_id */
};

static uint64_t irdma_pow2_up(uint64_t v)
{
	uint64_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static size_t irdma_hw_pages_len(uint64_t bytes)
{
	return (size_t)((bytes + HW_PAGE - 1) & ~(uint64_t)(HW_PAGE - 1));
}

/* Whole pages, zeroed, at a page's start (libirdma: memalign to 4 KiB). */
static int irdma_region_alloc(struct region *r, size_t len, size_t page)
{
	void *p;

	r->len = len;
	r->map_len = (len + page - 1) & ~(page - 1);
	p = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		r->addr = NULL;
		return -ENOMEM;
	}
	r->addr = p;
	return 0;
}

/* REG_MR of the region with irdma's request, local write, iova its address. */
static int irdma_region_register(struct uvio_device *dev, struct region *r, uint32_t pd,
			   const struct irdma_mem_reg_req *req)
{
	struct ib_uverbs_reg_mr core = {
		.start = (uintptr_t)r->addr, .length = r->len, .hca_va = (uintptr_t)r->addr,
		.pd_handle = pd, .access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	struct ib_uverbs_reg_mr_resp resp;
	const struct drv_bufs b = { .in = req, .in_len = sizeof(*req) };
	int ret = uvio_hw_write(dev, IB_USER_VERBS_CMD_REG_MR, &core, sizeof(core), &resp,
			    sizeof(resp), &b);

	if (!ret) {
		r->mr = resp.mr_handle;
		r->registered = true;
	}
	return ret;
}

static void irdma_region_free(struct uvio_device *dev, struct region *r)
{
	if (r->registered && dev) {
		struct ib_uverbs_dereg_mr core = { .mr_handle = r->mr };

		(void)uvio_hw_write(dev, IB_USER_VERBS_CMD_DEREG_MR, &core, sizeof(core), NULL, 0,
				NULL);
	}
	r->registered = false;
	if (r->addr)
		munmap(r->addr, r->map_len);
	r->addr = NULL;
}

/* After the kernel refused or destroyed a CQ or QP: its regions
 * deregistered, as libirdma does after DESTROY_CQ and DESTROY_QP. At a
 * close whose fd goes next the registrations go with it, unasked. */
static void irdma_obj_release(struct uvio_device *dev, struct hw_state *st, struct hw_obj *obj)
{
	struct irdma_obj *o = (struct irdma_obj *)obj;

	if (st->fd_closing)
		dev = NULL;
	irdma_region_free(dev, &o->buf);
	irdma_region_free(dev, &o->shadow);
}

static void irdma_context_release(struct uvio_device *dev, struct hw_state *base)
{
	struct irdma_state *st = (struct irdma_state *)base;

	/* The context's own PD, as libirdma lets its own go: where the fd
	 * outlives the handle the CQs' regions on it are gone by now (one the
	 * kernel would not let go keeps it, and the kernel says EBUSY); where
	 * the fd closes next with CQs alive, their regions hold it and the
	 * kernel frees all with the fd. */
	if (st->have_pd && (!base->fd_closing || !base->nobjs)) {
		struct ib_uverbs_dealloc_pd core = { .pd_handle = st->pd };

		(void)uvio_hw_write(dev, IB_USER_VERBS_CMD_DEALLOC_PD, &core, sizeof(core), NULL, 0,
				NULL);
	}
	if (st->db)
		munmap(st->db, HW_PAGE);
}

/* GET_CONTEXT */

static int irdma_context_request(struct uvio_device *dev, struct hw_state *st,
				 struct hw_call *c, struct drv_bufs *b)
{
	struct irdma_alloc_ucontext_req *req = (void *)c->in;

	(void)dev;
	(void)st;
	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(CTX_RESP_LEN <= sizeof(c->out), "room for the answer");
	memset(req, 0, sizeof(*req));
	req->userspace_ver = ABI_VER;
	return uvio_hw_hand_over(c, b, CTX_REQ_LEN, CTX_RESP_LEN);
}

static void irdma_context_answer(struct uvio_device *dev, struct hw_state *base,
				 const struct hw_call *c)
{
	struct irdma_state *st = (struct irdma_state *)base;
	struct irdma_alloc_pd_resp pd_resp;
	const struct drv_bufs d = { .out = &pd_resp, .out_len = sizeof(pd_resp) };
	struct ib_uverbs_alloc_pd pd_core = { 0 };
	struct ib_uverbs_alloc_pd_resp pd_out;
	void *p;

	memcpy(&st->resp, c->out, CTX_RESP_LEN);
	st->page = (size_t)sysconf(_SC_PAGESIZE);
	if (!st->resp.hw_rev) {
		st->db_error = -EOPNOTSUPP;
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: irdma: a legacy i40iw answer (no "
			 "hw_rev): CQs and QPs will be refused", dev->name);
	} else {
		p = mmap(NULL, HW_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
			 (off_t)st->resp.db_mmap_key);
		if (p == MAP_FAILED) {
			st->db_error = -errno;
			uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: irdma: no doorbell page (%s): "
				 "CQs and QPs will be refused", dev->name, strerror(errno));
		} else {
			st->db = p;
		}
	}
	/* The context's own PD, as libirdma's, for the CQs' regions. */
	if (uvio_hw_write(dev, IB_USER_VERBS_CMD_ALLOC_PD, &pd_core, sizeof(pd_core), &pd_out,
		      sizeof(pd_out), &d) == 0) {
		st->pd = pd_out.pd_handle;
		st->have_pd = true;
	}
	else
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: irdma: no PD for the CQs' regions: "
			 "CQs will be refused", dev->name);
}

/* CQ */

static int irdma_cq_request(struct uvio_device *dev, struct irdma_state *st, struct hw_call *c,
			    union hw_params *p, struct irdma_obj *o, struct drv_bufs *b)
{
	struct irdma_create_cq_req *req = (void *)c->in;
	struct irdma_mem_reg_req reg = { .reg_type = IRDMA_MEMREG_TYPE_CQ };
	bool resize = st->resp.feature_flags & FEATURE_CQ_RESIZE;
	uint64_t cq_size;
	size_t bytes;
	int ret;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct irdma_create_cq_resp) <= sizeof(c->out), "room");
	if (!st->db)
		return uvio_hw_refuse(c, st->db_error ? st->db_error : -EOPNOTSUPP,
			      "the context has no doorbell page for the CQ");
	if (!st->have_pd)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "the context has no PD for the CQ's registration");
	if (p->cq.cqe < 1 || p->cq.cqe > st->resp.max_hw_cq_size)
		return uvio_hw_refuse(c, -EINVAL, "cqe: outside 1 to the context's max_hw_cq_size");
	cq_size = (uint64_t)p->cq.cqe + 1;
	if (st->resp.hw_rev > GEN_1)
		cq_size *= 2;		/* a CQE more for immediate data */
	if (cq_size < MIN_CQ)
		cq_size = MIN_CQ;
	bytes = irdma_hw_pages_len(cq_size * CQE_SIZE);
	if (bytes / HW_PAGE > UINT16_MAX)
		return uvio_hw_refuse(c, -EINVAL, "CQ buffer past irdma's 16-bit page count");
	reg.cq_pages = (uint16_t)(bytes / HW_PAGE);
	if (irdma_region_alloc(&o->buf, resize ? bytes : bytes + SHADOW, st->page) ||
	    (resize && irdma_region_alloc(&o->shadow, SHADOW, st->page)))
		return -ENOMEM;
	ret = irdma_region_register(dev, &o->buf, st->pd, &reg);
	if (ret)
		return uvio_hw_refuse(c, ret, "REG_MR of the CQ's buffer (irdma's CQ request) was refused");
	if (resize) {
		struct irdma_mem_reg_req sreg = { .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1 };

		ret = irdma_region_register(dev, &o->shadow, st->pd, &sreg);
		if (ret)
			return uvio_hw_refuse(c, ret,
				      "REG_MR of the CQ's shadow area (irdma's CQ request) was refused");
	}
	memset(req, 0, sizeof(*req));
	req->user_cq_buf = (uintptr_t)o->buf.addr;
	req->user_shadow_area = resize ? (uintptr_t)o->shadow.addr :
					 (uintptr_t)o->buf.addr + bytes;
	p->cq.cqe = (uint32_t)cq_size;	/* as libirdma sends it */
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct irdma_create_cq_resp));
}

/* QP */

static uint32_t irdma_wqe_shift(const struct irdma_state *st, uint32_t sge, uint32_t inl)
{
	if (st->resp.hw_rev > GEN_1) {
		if (sge > 1 || inl > 8) {
			if (sge < 4 && inl <= 39)
				return 1;
			if (sge < 8 && inl <= 101)
				return 2;
			return 3;
		}
		return 0;
	}
	if (sge > 1 || inl > 16)
		return sge < 4 && inl <= 48 ? 1 : 2;
	return 0;
}

static int irdma_depth(uint32_t wr, uint32_t shift, uint32_t rsvd, uint32_t max, uint32_t *out)
{
	uint64_t d = irdma_pow2_up(((uint64_t)wr << shift) + rsvd);

	if (d < ((uint64_t)MIN_WQSIZE << shift))
		d = (uint64_t)MIN_WQSIZE << shift;
	else if (d > max)
		return -EINVAL;
	*out = (uint32_t)d;
	return 0;
}

static int irdma_qp_request(struct uvio_device *dev, struct irdma_state *st, struct hw_call *c,
			    union hw_params *p, struct irdma_obj *o, struct drv_bufs *b)
{
	struct irdma_create_qp_req *req = (void *)c->in;
	struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	struct irdma_mem_reg_req reg = { .reg_type = IRDMA_MEMREG_TYPE_QP };
	uint32_t sq_shift, rq_shift, sq_depth, rq_depth;
	size_t sq_len, rq_len;
	int ret;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct irdma_create_qp_resp) <= sizeof(c->out), "room");
	if (p->qp.type != IB_UVERBS_QPT_RC && p->qp.type != IB_UVERBS_QPT_UD)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "irdma's QPs are RC and UD");
	if (p->qp.srq)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "irdma has no SRQs");
	if (!st->db)
		return uvio_hw_refuse(c, st->db_error ? st->db_error : -EOPNOTSUPP,
			      "the context has no doorbell page for the QP");
	if (cap->max_send_sge > st->resp.max_hw_wq_frags)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_sge past the context's max_hw_wq_frags");
	if (cap->max_recv_sge > st->resp.max_hw_wq_frags)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_sge past the context's max_hw_wq_frags");
	if (cap->max_inline_data > st->resp.max_hw_inline)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_inline_data past the context's max_hw_inline");
	sq_shift = irdma_wqe_shift(st, st->resp.hw_rev > GEN_1 ? cap->max_send_sge + 1 :
							   cap->max_send_sge,
			     cap->max_inline_data);
	rq_shift = irdma_wqe_shift(st, cap->max_recv_sge, 0);
	if (irdma_depth(cap->max_send_wr, sq_shift, SQ_RSVD, st->resp.max_hw_wq_quanta, &sq_depth))
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_wr past the context's max_hw_wq_quanta");
	if (irdma_depth(cap->max_recv_wr, rq_shift, RQ_RSVD, st->resp.max_hw_rq_quanta, &rq_depth))
		return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_wr past the context's max_hw_rq_quanta");
	sq_len = irdma_hw_pages_len((uint64_t)sq_depth * QUANTUM);
	rq_len = irdma_hw_pages_len((uint64_t)rq_depth * QUANTUM);
	if (sq_len / HW_PAGE > UINT16_MAX || rq_len / HW_PAGE > UINT16_MAX)
		return uvio_hw_refuse(c, -EINVAL, "queues past irdma's 16-bit page counts");
	reg.sq_pages = (uint16_t)(sq_len / HW_PAGE);
	reg.rq_pages = (uint16_t)(rq_len / HW_PAGE);
	if (irdma_region_alloc(&o->buf, sq_len + rq_len + SHADOW, st->page))
		return -ENOMEM;
	ret = irdma_region_register(dev, &o->buf, p->qp.pd, &reg);
	if (ret)
		return uvio_hw_refuse(c, ret, "REG_MR of the QP's queues (irdma's QP request) was refused");
	memset(req, 0, sizeof(*req));
	req->user_wqe_bufs = (uintptr_t)o->buf.addr;
	req->user_compl_ctx = (uintptr_t)o;
	/* the kernel is sent the queues in quanta, as libirdma sends them */
	cap->max_send_wr = sq_depth >> sq_shift;
	cap->max_recv_wr = rq_depth >> rq_shift;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct irdma_create_qp_resp));
}

_Static_assert(sizeof(struct irdma_alloc_pd_resp) <= HW_DATA_MAX &&
		       sizeof(struct irdma_create_ah_resp) <= HW_DATA_MAX,
	       "the PD and AH answers' room");

static int irdma_request(struct uvio_device *dev, struct hw_state *base, struct hw_call *c,
			 union hw_params *p, struct hw_obj *obj, struct drv_bufs *b)
{
	struct irdma_state *st = (struct irdma_state *)base;
	struct irdma_obj *o = (struct irdma_obj *)obj;

	switch (c->verb) {
	case HW_PD:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct irdma_alloc_pd_resp));
	case HW_AH:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct irdma_create_ah_resp));
	case HW_CQ:
		return irdma_cq_request(dev, st, c, p, o, b);
	case HW_CQ_RESIZE:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "the library's irdma half does not resize CQs");
	case HW_QP:
		return irdma_qp_request(dev, st, c, p, o, b);
	case HW_SRQ:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "irdma has no SRQs");
	default:
		return 0;
	}
}

static void irdma_answer(struct uvio_device *dev, struct hw_state *st, const struct hw_call *c,
			 struct hw_obj *obj)
{
	struct irdma_obj *o = (struct irdma_obj *)obj;

	(void)dev;
	(void)st;
	if (c->verb == HW_CQ || c->verb == HW_QP)
		memcpy(&o->id, c->out, sizeof(o->id));	/* cq_id, qp_id */
}

static void irdma_describe(const struct hw_state *base, const struct hw_obj *obj,
			   struct uvio_hw_object *out)
{
	const struct irdma_state *st = (const struct irdma_state *)base;
	const struct irdma_obj *o = (const struct irdma_obj *)obj;

	out->num = o->id;
	switch (obj->kind) {
	case HW_CQ:
		/* without CQ_RESIZE the shadow area ends the buffer */
		uvio_hw_region_add(out, UVIO_HW_MEM_CQ, 0, o->buf.addr,
				   o->shadow.addr ? o->buf.len : o->buf.len - SHADOW);
		if (o->shadow.addr)
			uvio_hw_region_add(out, UVIO_HW_MEM_SHADOW, 0, o->shadow.addr, SHADOW);
		else if (o->buf.addr)
			uvio_hw_region_add(out, UVIO_HW_MEM_SHADOW, 0,
					   (const uint8_t *)o->buf.addr + o->buf.len - SHADOW, SHADOW);
		break;
	case HW_QP:	/* send queue, receive queue, shadow area: irdma's order */
		uvio_hw_region_add(out, UVIO_HW_MEM_QUEUES, 0, o->buf.addr, o->buf.len);
		break;
	default:
		return;
	}
	uvio_hw_region_add(out, UVIO_HW_MEM_DOORBELL, UVIO_HW_MEM_OF_DEVICE, st->db, HW_PAGE);
}

const struct hw_ops uvio_hw_irdma = {
	.driver = "irdma",
	.state_size = sizeof(struct irdma_state),
	.obj_size = sizeof(struct irdma_obj),
	.context_request = irdma_context_request,
	.context_answer = irdma_context_answer,
	.context_release = irdma_context_release,
	.request = irdma_request,
	.answer = irdma_answer,
	.obj_release = irdma_obj_release,
	.describe = irdma_describe,
};
