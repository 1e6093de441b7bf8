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
	unsigned int nobjs;		/* CQs and QPs alive (under the lock) */
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

static struct irdma_state *state_of(struct uvio_device *dev)
{
	return (struct irdma_state *)uvio_hw_state(dev);
}

static uint64_t pow2_up(uint64_t v)
{
	uint64_t r = 1;

	while (r < v)
		r <<= 1;
	return r;
}

static size_t hw_pages_len(uint64_t bytes)
{
	return (size_t)((bytes + HW_PAGE - 1) & ~(uint64_t)(HW_PAGE - 1));
}

/* Whole pages, zeroed, at a page's start (libirdma: memalign to 4 KiB). */
static int region_alloc(struct region *r, size_t len, size_t page)
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

/*
 * The half's own commands (irdma's regions and the context's PD), laid out
 * by the write layer and sent on the device's path, as the verbs send
 * theirs: over INVOKE_WRITE where the device takes ioctls, else write().
 * The device answered GET_CONTEXT before any of them, so its path is
 * known.
 */
static int own_write(struct uvio_device *dev, uint32_t command, const void *core, size_t core_len,
		     void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	enum uvio_path p = uvio_path_current(&dev->paths);
	uint64_t buf[(UVIO_WRITE_ROOM + UVIO_MAX_PLAIN_CORE) / 8];

	if (core_len > UVIO_MAX_PLAIN_CORE)
		return -EINVAL;
	memcpy((uint8_t *)buf + UVIO_WRITE_ROOM, core, core_len);
	p = p == UVIO_PATH_WRITE || p == UVIO_PATH_IOCTL_2017 ? UVIO_PATH_WRITE
							       : UVIO_PATH_INVOKE_WRITE;
	return uvio_write_run(dev, p, command, buf, core_len, resp, resp_len, drv);
}

/* REG_MR of the region with irdma's request, local write, iova its address. */
static int region_register(struct uvio_device *dev, struct region *r, uint32_t pd,
			   const struct irdma_mem_reg_req *req)
{
	struct ib_uverbs_reg_mr core = {
		.start = (uintptr_t)r->addr, .length = r->len, .hca_va = (uintptr_t)r->addr,
		.pd_handle = pd, .access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	struct ib_uverbs_reg_mr_resp resp;
	const struct drv_bufs b = { .in = req, .in_len = sizeof(*req) };
	int ret = own_write(dev, IB_USER_VERBS_CMD_REG_MR, &core, sizeof(core), &resp,
			    sizeof(resp), &b);

	if (!ret) {
		r->mr = resp.mr_handle;
		r->registered = true;
	}
	return ret;
}

static void region_free(struct uvio_device *dev, struct region *r)
{
	if (r->registered && dev) {
		struct ib_uverbs_dereg_mr core = { .mr_handle = r->mr };

		(void)own_write(dev, IB_USER_VERBS_CMD_DEREG_MR, &core, sizeof(core), NULL, 0,
				NULL);
	}
	r->registered = false;
	if (r->addr)
		munmap(r->addr, r->map_len);
	r->addr = NULL;
}

/* dev NULL: the context is going, its registrations with it. */
static void obj_free(struct uvio_device *dev, struct irdma_obj *o)
{
	if (!o)
		return;
	region_free(dev, &o->buf);
	region_free(dev, &o->shadow);
	free(o);
}

static void free_obj_at_close(struct hw_state *base, struct hw_obj *o)
{
	(void)base;
	obj_free(NULL, (struct irdma_obj *)o);
}

static void release(struct hw_state *base, struct uvio_device *dev)
{
	struct irdma_state *st = (struct irdma_state *)base;

	/* With CQs left, their regions hold the PD: the kernel frees all
	 * with the fd. */
	if (st->have_pd && dev && !st->nobjs) {
		struct ib_uverbs_dealloc_pd core = { .pd_handle = st->pd };

		(void)own_write(dev, IB_USER_VERBS_CMD_DEALLOC_PD, &core, sizeof(core), NULL, 0,
				NULL);
	}
	if (st->db)
		munmap(st->db, HW_PAGE);
	pthread_mutex_destroy(&st->base.lock);
	free(st);
}

/* GET_CONTEXT */

static int context_prepare(struct uvio_device *dev, struct hw_call *c, struct drv_bufs *b)
{
	struct irdma_alloc_ucontext_req *req = (void *)c->in;
	struct irdma_state *st;

	(void)dev;
	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(CTX_RESP_LEN <= sizeof(c->out), "room for the answer");
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->userspace_ver = ABI_VER;
	return uvio_hw_hand_over(c, b, CTX_REQ_LEN, CTX_RESP_LEN, st);
}

static void context_finish(struct uvio_device *dev, struct hw_call *c, int ret)
{
	struct irdma_state *st = c->obj;
	struct irdma_alloc_pd_resp pd_resp;
	const struct drv_bufs d = { .out = &pd_resp, .out_len = sizeof(pd_resp) };
	struct ib_uverbs_alloc_pd pd_core = { 0 };
	struct ib_uverbs_alloc_pd_resp pd_out;
	void *p;

	if (ret) {
		free(st);
		return;
	}
	memcpy(&st->resp, c->out, CTX_RESP_LEN);
	st->page = (size_t)sysconf(_SC_PAGESIZE);
	st->base.ops = c->ops;
	st->base.free_obj = free_obj_at_close;
	st->base.release = release;
	pthread_mutex_init(&st->base.lock, NULL);
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
	if (!uvio_hw_attach(dev, &st->base)) {
		release(&st->base, NULL);
		return;
	}
	/* The context's own PD, as libirdma's, for the CQs' regions. */
	if (own_write(dev, IB_USER_VERBS_CMD_ALLOC_PD, &pd_core, sizeof(pd_core), &pd_out,
		      sizeof(pd_out), &d) == 0) {
		st->pd = pd_out.pd_handle;
		st->have_pd = true;
	}
	else
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: irdma: no PD for the CQs' regions: "
			 "CQs will be refused", dev->name);
}

/* CQ */

static int cq_prepare(struct uvio_device *dev, struct irdma_state *st, struct hw_call *c,
		      union hw_params *p, struct drv_bufs *b)
{
	struct irdma_create_cq_req *req = (void *)c->in;
	struct irdma_mem_reg_req reg = { .reg_type = IRDMA_MEMREG_TYPE_CQ };
	bool resize = st->resp.feature_flags & FEATURE_CQ_RESIZE;
	uint64_t cq_size;
	size_t bytes;
	struct irdma_obj *o;
	int ret;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct irdma_create_cq_resp) <= sizeof(c->out), "room");
	if (!st->db)
		return uvio_hw_refuse(c, st->db_error ? st->db_error : -EOPNOTSUPP,
			      "the context has no doorbell page for the CQ");
	if (!st->have_pd)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "the context has no PD for the CQ's registration");
	if (p->cq.cqe < 1 || p->cq.cqe > st->resp.max_hw_cq_size)
		return uvio_hw_refuse(c, -EINVAL, "CQEs outside 1 to the context's max_hw_cq_size");
	cq_size = (uint64_t)p->cq.cqe + 1;
	if (st->resp.hw_rev > GEN_1)
		cq_size *= 2;		/* a CQE more for immediate data */
	if (cq_size < MIN_CQ)
		cq_size = MIN_CQ;
	bytes = hw_pages_len(cq_size * CQE_SIZE);
	if (bytes / HW_PAGE > UINT16_MAX)
		return uvio_hw_refuse(c, -EINVAL, "CQ buffer past irdma's 16-bit page count");
	reg.cq_pages = (uint16_t)(bytes / HW_PAGE);
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	if (region_alloc(&o->buf, resize ? bytes : bytes + SHADOW, st->page) ||
	    (resize && region_alloc(&o->shadow, SHADOW, st->page))) {
		obj_free(dev, o);
		return -ENOMEM;
	}
	ret = region_register(dev, &o->buf, st->pd, &reg);
	if (ret) {
		obj_free(dev, o);
		return uvio_hw_refuse(c, ret, "REG_MR of the CQ's buffer (irdma's CQ request) was refused");
	}
	if (resize) {
		struct irdma_mem_reg_req sreg = { .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1 };

		ret = region_register(dev, &o->shadow, st->pd, &sreg);
		if (ret) {
			obj_free(dev, o);
			return uvio_hw_refuse(c, ret,
				      "REG_MR of the CQ's shadow area (irdma's CQ request) was refused");
		}
	}
	memset(req, 0, sizeof(*req));
	req->user_cq_buf = (uintptr_t)o->buf.addr;
	req->user_shadow_area = resize ? (uintptr_t)o->shadow.addr :
					 (uintptr_t)o->buf.addr + bytes;
	p->cq.cqe = (uint32_t)cq_size;	/* as libirdma sends it */
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct irdma_create_cq_resp), o);
}

/* QP */

static uint32_t wqe_shift(const struct irdma_state *st, uint32_t sge, uint32_t inl)
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

static int depth(uint32_t wr, uint32_t shift, uint32_t rsvd, uint32_t max, uint32_t *out)
{
	uint64_t d = pow2_up(((uint64_t)wr << shift) + rsvd);

	if (d < ((uint64_t)MIN_WQSIZE << shift))
		d = (uint64_t)MIN_WQSIZE << shift;
	else if (d > max)
		return -EINVAL;
	*out = (uint32_t)d;
	return 0;
}

static int qp_prepare(struct uvio_device *dev, struct irdma_state *st, struct hw_call *c,
		      union hw_params *p, struct drv_bufs *b)
{
	struct irdma_create_qp_req *req = (void *)c->in;
	struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	struct irdma_mem_reg_req reg = { .reg_type = IRDMA_MEMREG_TYPE_QP };
	uint32_t sq_shift, rq_shift, sq_depth, rq_depth;
	size_t sq_len, rq_len;
	struct irdma_obj *o;
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
	if (cap->max_send_sge > st->resp.max_hw_wq_frags ||
	    cap->max_recv_sge > st->resp.max_hw_wq_frags ||
	    cap->max_inline_data > st->resp.max_hw_inline)
		return uvio_hw_refuse(c, -EINVAL,
			      "SGEs past the context's max_hw_wq_frags or inline data past max_hw_inline");
	sq_shift = wqe_shift(st, st->resp.hw_rev > GEN_1 ? cap->max_send_sge + 1 :
							   cap->max_send_sge,
			     cap->max_inline_data);
	rq_shift = wqe_shift(st, cap->max_recv_sge, 0);
	if (depth(cap->max_send_wr, sq_shift, SQ_RSVD, st->resp.max_hw_wq_quanta, &sq_depth))
		return uvio_hw_refuse(c, -EINVAL, "send queue deeper than the context's max_hw_wq_quanta");
	if (depth(cap->max_recv_wr, rq_shift, RQ_RSVD, st->resp.max_hw_rq_quanta, &rq_depth))
		return uvio_hw_refuse(c, -EINVAL, "receive queue deeper than the context's max_hw_rq_quanta");
	sq_len = hw_pages_len((uint64_t)sq_depth * QUANTUM);
	rq_len = hw_pages_len((uint64_t)rq_depth * QUANTUM);
	if (sq_len / HW_PAGE > UINT16_MAX || rq_len / HW_PAGE > UINT16_MAX)
		return uvio_hw_refuse(c, -EINVAL, "queues past irdma's 16-bit page counts");
	reg.sq_pages = (uint16_t)(sq_len / HW_PAGE);
	reg.rq_pages = (uint16_t)(rq_len / HW_PAGE);
	o = calloc(1, sizeof(*o));
	if (!o)
		return -ENOMEM;
	if (region_alloc(&o->buf, sq_len + rq_len + SHADOW, st->page)) {
		obj_free(dev, o);
		return -ENOMEM;
	}
	ret = region_register(dev, &o->buf, p->qp.pd, &reg);
	if (ret) {
		obj_free(dev, o);
		return uvio_hw_refuse(c, ret, "REG_MR of the QP's queues (irdma's QP request) was refused");
	}
	memset(req, 0, sizeof(*req));
	req->user_wqe_bufs = (uintptr_t)o->buf.addr;
	req->user_compl_ctx = (uintptr_t)o;
	/* the kernel is sent the queues in quanta, as libirdma sends them */
	cap->max_send_wr = sq_depth >> sq_shift;
	cap->max_recv_wr = rq_depth >> rq_shift;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct irdma_create_qp_resp), o);
}

_Static_assert(sizeof(struct irdma_alloc_pd_resp) <= HW_DATA_MAX &&
		       sizeof(struct irdma_create_ah_resp) <= HW_DATA_MAX,
	       "the PD and AH answers' room");

static int prepare(struct uvio_device *dev, struct hw_call *c, union hw_params *p,
		   struct drv_bufs *b)
{
	struct irdma_state *st = state_of(dev);

	switch (c->verb) {
	case HW_PD:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct irdma_alloc_pd_resp), NULL);
	case HW_AH:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct irdma_create_ah_resp), NULL);
	case HW_CQ:
		return cq_prepare(dev, st, c, p, b);
	case HW_CQ_RESIZE:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "the library's irdma half does not resize CQs");
	case HW_QP:
		return qp_prepare(dev, st, c, p, b);
	case HW_SRQ:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "irdma has no SRQs");
	default:
		return 0;
	}
}

static void finish(struct uvio_device *dev, struct hw_call *c, int ret, uint32_t handle,
		   const union hw_params *p)
{
	struct irdma_state *st = state_of(dev);
	struct irdma_obj *o = c->obj;

	(void)p;
	if (ret) {		/* the kernel refused: the regions go */
		obj_free(dev, o);
		return;
	}
	memcpy(&o->id, c->out, sizeof(o->id));	/* cq_id, qp_id */
	pthread_mutex_lock(&st->base.lock);
	uvio_hw_obj_add(&st->base, &o->base, c->verb, handle);
	st->nobjs++;
	pthread_mutex_unlock(&st->base.lock);
}

/* After the kernel destroyed a CQ or QP: its regions deregistered, as
 * libirdma does after DESTROY_CQ and DESTROY_QP. */
static void destroyed(struct uvio_device *dev, enum hw_verb kind, uint32_t handle)
{
	struct irdma_state *st = state_of(dev);
	struct irdma_obj *o;

	if (!st)
		return;
	pthread_mutex_lock(&st->base.lock);
	o = (struct irdma_obj *)uvio_hw_obj_take(&st->base, kind, handle);
	if (o)
		st->nobjs--;
	pthread_mutex_unlock(&st->base.lock);
	obj_free(dev, o);
}

const struct hw_ops uvio_hw_irdma = {
	.driver = "irdma",
	.context_prepare = context_prepare,
	.context_finish = context_finish,
	.prepare = prepare,
	.finish = finish,
	.destroyed = destroyed,
};
