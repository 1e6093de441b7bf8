// SPDX-License-Identifier: MIT
/*
 * efa's half of the control path (AWS Elastic Fabric Adapter, the kernel's
 * efa): what the kernel driver requires in each command's driver data, and
 * the queues it allocates itself mapped by the keys its answers hand out.
 * Unlike mlx5, efa's queues live in kernel memory: the library sends sizes,
 * not addresses, and maps the CQ ring, the RQ ring, the doorbell pages and
 * the send queue's LLQ descriptors after the kernel answered; it unmaps them
 * when the object is destroyed or the device closed. The request the
 * library sends is the one rdma-core's libefa (44) sends for the same verb,
 * so that the kernel sees the same thing from both.
 *
 * QP types: UD, and SRD, efa's reliable datagram: the library's create_qp
 * with type IB_UVERBS_QPT_DRIVER makes an SRD QP on efa (efa's driver QP
 * type EFA_QP_DRIVER_TYPE_SRD in the request, as efadv_create_qp_ex()
 * asks). Other types, SRQs and CQ resizes are refused before anything is
 * sent: efa has none of them.
 *
 * No data path: nothing here posts or polls (rdma-core's libefa does).
 *
 * Rules, from efa (Linux 6.1) and libefa (rdma-core 44):
 *  - context: the request acknowledges the TX batch and the minimum SQ
 *    depth (comp_mask EFA_ALLOC_UCONTEXT_CMD_COMP_TX_BATCH | _MIN_SQ_WR;
 *    a kernel whose device has either refuses a context without it); the
 *    answer's sub_cqs_per_cq, inline_buf_size, max_llq_size, max_tx_batch,
 *    min_sq_wr and cmds_supp_udata_mask are kept;
 *  - after the context, EX_QUERY_DEVICE with efa's answer in the driver
 *    data, as libefa asks it: the device's WR and SGE limits (a QP past
 *    them is refused, as libefa refuses it) and capabilities;
 *  - CQ: a completion channel asks for events
 *    (EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL) where the device says it has
 *    event queues (CQ_NOTIFICATIONS), and is refused where it does not, as
 *    libefa refuses it (efa 6.1 takes the flag unchecked);
 *    entries asked rounded up to a power of two; the request names the
 *    entry size (the plain RX completion descriptor, 16 bytes) and the
 *    context's sub_cqs_per_cq; the answer's q_mmap_key/q_mmap_size are
 *    mapped read-only, and with EFA_CREATE_CQ_RESP_DB_OFF the doorbell page
 *    by db_mmap_key (db_off inside it), writable;
 *  - QP: send WRs = max(asked, min_sq_wr) rounded up to a power of two,
 *    sq_ring_size = that x 64 (a TX descriptor), at most max_llq_size;
 *    receive descriptors = (receive SGEs x receive WRs) rounded up to a
 *    power of two, rq_ring_size = that x 16, receive WRs = descriptors /
 *    SGEs; the caps sent to the kernel are these counts. Mapped: the SQ
 *    doorbell page and the LLQ descriptors (the ring plus the
 *    descriptors' offset, in pages), and with a receive queue the RQ
 *    doorbell page and the RQ ring (rq_mmap_size);
 *  - PD and AH: the answer's pdn and efa AH number kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>
#include <stddef.h>
#include <linux/version.h>
#include <rdma/efa-abi.h>
#include <uvio/diag.h>
#include "hw/hw.h"
#include "device/path.h"
#include "report/report.h"

enum {
	RX_CDESC = 16,		/* efa_io_rx_cdesc: a CQ entry */
	TX_WQE = 64,		/* efa_io_tx_wqe: an LLQ descriptor */
	RX_DESC = 16,		/* efa_io_rx_desc: an RQ descriptor */
	MAX_RING = 1u << 30,	/* what no efa device approaches */
};

/* The create CQ structs by 6.1's layout (Debian 11's header lacks flags,
 * db_off and db_mmap_key). */
struct efa_cq_req {
	uint32_t comp_mask;
	uint32_t cq_entry_size;
	uint16_t num_sub_cqs;
	uint8_t flags;
	uint8_t reserved_58[5];
};

struct efa_cq_resp {
	uint32_t comp_mask;
	uint8_t reserved_20[4];
	uint64_t q_mmap_key;
	uint64_t q_mmap_size;
	uint16_t cq_idx;
	uint8_t reserved_d0[2];
	uint32_t db_off;
	uint64_t db_mmap_key;
};
_Static_assert(sizeof(struct efa_cq_req) == 16 && sizeof(struct efa_cq_resp) == 40,
	       "efa's create CQ layout");
#define CQ_RESP_DB_OFF 1u	/* EFA_CREATE_CQ_RESP_DB_OFF */
#define CQ_WITH_COMPLETION_CHANNEL 1u	/* EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL */
#define DEV_CAPS_CQ_NOTIFICATIONS 4u	/* EFA_QUERY_DEVICE_CAPS_CQ_NOTIFICATIONS */
#define CTX_COMP_TX_BATCH 1u	/* EFA_ALLOC_UCONTEXT_CMD_COMP_TX_BATCH */
#define CTX_COMP_MIN_SQ_WR 2u	/* EFA_ALLOC_UCONTEXT_CMD_COMP_MIN_SQ_WR */
/* Checked against the system's header where it has them (6.1's has all;
 * 5.10's lacks the CQ's flags and events). */
#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
_Static_assert(CQ_RESP_DB_OFF == EFA_CREATE_CQ_RESP_DB_OFF &&
		       CQ_WITH_COMPLETION_CHANNEL == EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL &&
		       DEV_CAPS_CQ_NOTIFICATIONS == EFA_QUERY_DEVICE_CAPS_CQ_NOTIFICATIONS &&
		       CTX_COMP_TX_BATCH == EFA_ALLOC_UCONTEXT_CMD_COMP_TX_BATCH &&
		       CTX_COMP_MIN_SQ_WR == EFA_ALLOC_UCONTEXT_CMD_COMP_MIN_SQ_WR,
	       "efa's ids as the system's header has them");
_Static_assert(sizeof(struct efa_cq_req) == sizeof(struct efa_ibv_create_cq) &&
		       sizeof(struct efa_cq_resp) == sizeof(struct efa_ibv_create_cq_resp) &&
		       offsetof(struct efa_cq_resp, db_mmap_key) ==
			       offsetof(struct efa_ibv_create_cq_resp, db_mmap_key),
	       "efa's create CQ layout as the system's header has it");
#endif

struct efa_state {
	struct hw_state base;
	struct efa_ibv_alloc_ucontext_resp resp;
	struct efa_ibv_ex_query_device_resp dev;	/* zero where the query failed */
	size_t page;
	int fd;
};

/* A mapping of the kernel's memory: where, and how long. */
struct map {
	void *p;
	size_t len;
};

struct efa_obj {
	struct hw_obj base;
	uint32_t num;			/* pdn, cq_idx, efa AH number */
	uint32_t sq_wqe_cnt, rq_ring;	/* a QP's, as sent */
	struct map ring, db;		/* CQ: ring and doorbell; QP: RQ ring and doorbell */
	struct map llq, sq_db;		/* QP: LLQ descriptors, SQ doorbell */
};

static void efa_unmap(struct map *m)
{
	if (m->p)
		munmap(m->p, m->len);
	m->p = NULL;
}

static void efa_obj_release(struct uvio_device *dev, struct hw_state *st, struct hw_obj *obj)
{
	struct efa_obj *o = (struct efa_obj *)obj;

	(void)dev;
	(void)st;
	efa_unmap(&o->ring);
	efa_unmap(&o->db);
	efa_unmap(&o->llq);
	efa_unmap(&o->sq_db);
}

static void efa_context_release(struct uvio_device *dev, struct hw_state *st)
{
	(void)dev;
	(void)st;	/* nothing beyond its objects */
}

/* Map len bytes of the kernel's memory by key; 0 or a negative errno. */
static int efa_map_key(const struct efa_state *st, struct map *m, uint64_t key, size_t len, int prot)
{
	void *p;

	if (!len || len > MAX_RING || key > (uint64_t)INT64_MAX)
		return -EPROTO;
	p = mmap(NULL, len, prot, MAP_SHARED, st->fd, (off_t)key);
	if (p == MAP_FAILED)
		return -errno;
	m->p = p;
	m->len = len;
	return 0;
}

static size_t efa_page_up(const struct efa_state *st, uint64_t v)
{
	return (size_t)((v + st->page - 1) & ~(uint64_t)(st->page - 1));
}

/* GET_CONTEXT */

static int efa_context_request(struct uvio_device *dev, struct hw_state *st,
			       struct hw_call *c, struct drv_bufs *b)
{
	struct efa_ibv_alloc_ucontext_cmd *req = (void *)c->in;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct efa_ibv_alloc_ucontext_resp) <= sizeof(c->out), "room");
	(void)dev;
	(void)st;
	memset(req, 0, sizeof(*req));
	req->comp_mask = CTX_COMP_TX_BATCH | CTX_COMP_MIN_SQ_WR;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct efa_ibv_alloc_ucontext_resp));
}

/* What libefa asks right after its context: the device's limits and
 * capabilities, efa's answer to EX_QUERY_DEVICE in the driver data. */
static int efa_device_query(struct uvio_device *dev, struct efa_state *st)
{
	UVIO_WRITE_BUF(struct ib_uverbs_ex_query_device) c = { .core = { 0 } };
	struct ib_uverbs_ex_query_device_resp r;
	struct drv_bufs b = { .out = &st->dev, .out_len = sizeof(st->dev) };
	enum uvio_path cur = uvio_path_current(&dev->paths);
	enum uvio_path p = cur == UVIO_PATH_IOCTL || cur == UVIO_PATH_INVOKE_WRITE ?
				   UVIO_PATH_INVOKE_WRITE : UVIO_PATH_WRITE;
	int ret;

	if (!(st->resp.cmds_supp_udata_mask & EFA_USER_CMDS_SUPP_UDATA_QUERY_DEVICE))
		return -EOPNOTSUPP;
	memset(&r, 0, sizeof(r));
	ret = uvio_write(dev, p, UVIO_EX(IB_USER_VERBS_EX_CMD_QUERY_DEVICE), c, &r,
				 sizeof(r), &b);
	if (ret)
		memset(&st->dev, 0, sizeof(st->dev));
	return ret;
}

static void efa_context_answer(struct uvio_device *dev, struct hw_state *base,
			       const struct hw_call *c)
{
	struct efa_state *st = (struct efa_state *)base;
	int err;

	memcpy(&st->resp, c->out, sizeof(st->resp));
	st->page = (size_t)sysconf(_SC_PAGESIZE);
	st->fd = dev->fd;
	err = efa_device_query(dev, st);
	if (err)
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: efa: the device's limits unknown "
			 "(EX_QUERY_DEVICE: %s): QPs are checked by the kernel alone, CQs get no "
			 "completion events", dev->name, strerror(-err));
}

/* CQ */

static int efa_cq_request(struct efa_state *st, struct hw_call *c, union hw_params *p,
			  struct drv_bufs *b)
{
	struct efa_cq_req *req = (void *)c->in;
	uint32_t n = uvio_hw_pow2(p->cq.cqe);

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	/* Events (EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL) only where the device
	 * has event queues, as libefa: efa 6.1 takes the flag unchecked. */
	if (p->cq.channel && !(st->dev.device_caps & DEV_CAPS_CQ_NOTIFICATIONS))
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "the device has no event queues (EX_QUERY_DEVICE: no "
			      "CQ_NOTIFICATIONS): no completion channel");
	if (!n || !st->resp.sub_cqs_per_cq ||
	    (uint64_t)n * RX_CDESC * st->resp.sub_cqs_per_cq > MAX_RING)
		return uvio_hw_refuse(c, -EINVAL, "cqe: more CQ entries than efa's rings hold");
	memset(req, 0, sizeof(*req));
	req->cq_entry_size = RX_CDESC;
	req->num_sub_cqs = st->resp.sub_cqs_per_cq;
	if (p->cq.channel)
		req->flags = CQ_WITH_COMPLETION_CHANNEL;
	p->cq.cqe = n;		/* as libefa asks */
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct efa_cq_resp));
}

static int efa_cq_map(struct efa_state *st, struct efa_obj *o, const struct efa_cq_resp *r)
{
	int ret = efa_map_key(st, &o->ring, r->q_mmap_key, (size_t)r->q_mmap_size, PROT_READ);

	if (!ret && (r->comp_mask & CQ_RESP_DB_OFF)) {
		if (r->db_off >= st->page)
			return -EPROTO;
		ret = efa_map_key(st, &o->db, r->db_mmap_key, st->page, PROT_WRITE);
	}
	o->num = r->cq_idx;
	return ret;
}

/* QP */

static int efa_qp_request(struct efa_state *st, struct hw_call *c, union hw_params *p,
			  struct efa_obj *o, struct drv_bufs *b)
{
	struct efa_ibv_create_qp *req = (void *)c->in;
	struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	uint32_t sq = 0, rq_desc = 0, rq_wr = 0;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct efa_ibv_create_qp_resp) <= sizeof(c->out), "room");
	if (p->qp.type != IB_UVERBS_QPT_UD && p->qp.type != IB_UVERBS_QPT_DRIVER)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "efa makes UD QPs and SRD QPs (type IB_UVERBS_QPT_DRIVER) only");
	if (p->qp.srq)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "efa has no SRQ");
	/* libefa's limits, where the device told them */
	if (st->dev.max_sq_wr) {
		if (cap->max_send_wr > st->dev.max_sq_wr)
			return uvio_hw_refuse(c, -EINVAL, "cap.max_send_wr past the device's max_sq_wr");
		if (cap->max_recv_wr > st->dev.max_rq_wr)
			return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_wr past the device's max_rq_wr");
		if (cap->max_send_sge > st->dev.max_sq_sge)
			return uvio_hw_refuse(c, -EINVAL, "cap.max_send_sge past the device's max_sq_sge");
		if (cap->max_recv_sge > st->dev.max_rq_sge)
			return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_sge past the device's max_rq_sge");
	}
	if (cap->max_inline_data > st->resp.inline_buf_size)
		return uvio_hw_refuse(c, -EINVAL,
				      "cap.max_inline_data past the context's inline_buf_size");
	sq = uvio_hw_pow2(cap->max_send_wr > st->resp.min_sq_wr ? cap->max_send_wr :
							    st->resp.min_sq_wr);
	if (!sq || (uint64_t)sq * TX_WQE > st->resp.max_llq_size)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_wr past the device's LLQ (max_llq_size)");
	if (cap->max_recv_wr && cap->max_recv_sge) {
		rq_desc = uvio_hw_pow2((uint64_t)cap->max_recv_wr * cap->max_recv_sge);
		if (!rq_desc || (uint64_t)rq_desc * RX_DESC > MAX_RING)
			return uvio_hw_refuse(c, -EINVAL,
					      "cap.max_recv_wr x max_recv_sge past what efa's rings hold");
		rq_wr = rq_desc / cap->max_recv_sge;
	}
	o->sq_wqe_cnt = sq;
	o->rq_ring = rq_desc * RX_DESC;
	memset(req, 0, sizeof(*req));
	req->sq_ring_size = sq * TX_WQE;
	req->rq_ring_size = o->rq_ring;
	req->driver_qp_type = EFA_QP_DRIVER_TYPE_SRD;	/* read for DRIVER QPs only */
	cap->max_send_wr = sq;
	cap->max_recv_wr = rq_wr;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct efa_ibv_create_qp_resp));
}

static int efa_qp_map(struct efa_state *st, struct efa_obj *o, const struct efa_ibv_create_qp_resp *r)
{
	int ret = 0;

	if (o->rq_ring) {
		if (r->rq_db_offset >= st->page)
			return -EPROTO;
		ret = efa_map_key(st, &o->db, r->rq_db_mmap_key, st->page, PROT_WRITE);
		if (!ret)
			ret = efa_map_key(st, &o->ring, r->rq_mmap_key, (size_t)r->rq_mmap_size,
				      PROT_WRITE);
	}
	if (!ret && o->sq_wqe_cnt) {
		if (r->sq_db_offset >= st->page || r->llq_desc_offset >= st->page)
			return -EPROTO;
		ret = efa_map_key(st, &o->sq_db, r->sq_db_mmap_key, st->page, PROT_WRITE);
		if (!ret)
			ret = efa_map_key(st, &o->llq, r->llq_desc_mmap_key,
				      efa_page_up(st, (uint64_t)o->sq_wqe_cnt * TX_WQE +
						      r->llq_desc_offset), PROT_WRITE);
	}
	return ret;
}

static int efa_request(struct uvio_device *dev, struct hw_state *base, struct hw_call *c,
		       union hw_params *p, struct hw_obj *o, struct drv_bufs *b)
{
	struct efa_state *st = (struct efa_state *)base;

	(void)dev;
	switch (c->verb) {
	case HW_PD:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct efa_ibv_alloc_pd_resp));
	case HW_AH:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct efa_ibv_create_ah_resp));
	case HW_CQ:
		return efa_cq_request(st, c, p, b);
	case HW_CQ_RESIZE:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "efa does not resize CQs");
	case HW_QP:
		return efa_qp_request(st, c, p, (struct efa_obj *)o, b);
	case HW_SRQ:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "efa has no SRQ");
	default:
		return 0;
	}
}

static void efa_answer(struct uvio_device *dev, struct hw_state *base, const struct hw_call *c,
		       struct hw_obj *obj)
{
	struct efa_state *st = (struct efa_state *)base;
	struct efa_obj *o = (struct efa_obj *)obj;
	int err = 0;

	switch (c->verb) {
	case HW_PD: {
		struct efa_ibv_alloc_pd_resp r;

		memcpy(&r, c->out, sizeof(r));
		o->num = r.pdn;
		break;
	}
	case HW_AH: {
		struct efa_ibv_create_ah_resp r;

		memcpy(&r, c->out, sizeof(r));
		o->num = r.efa_address_handle;
		break;
	}
	case HW_CQ: {
		struct efa_cq_resp r;

		memcpy(&r, c->out, sizeof(r));
		err = efa_cq_map(st, o, &r);
		break;
	}
	case HW_QP: {
		struct efa_ibv_create_qp_resp r;

		memcpy(&r, c->out, sizeof(r));
		err = efa_qp_map(st, o, &r);
		break;
	}
	default:
		break;
	}
	/* The kernel made the object; what could not be mapped stays
	 * unmapped, and the destroy still frees what was. */
	if (err)
		uvio_log(LOG_WARNING, "%s: %s: efa: the kernel's queue memory of handle %u not "
			 "mapped (%s)", dev->name, c->name, o->base.handle, strerror(-err));
}

static void efa_describe(const struct hw_state *st, const struct hw_obj *obj,
			 struct uvio_hw_object *out)
{
	const struct efa_obj *o = (const struct efa_obj *)obj;

	(void)st;
	out->num = o->num;
	uvio_hw_region_add(out, obj->kind == HW_CQ ? UVIO_HW_MEM_CQ : UVIO_HW_MEM_RQ,
			   UVIO_HW_MEM_OF_DEVICE, o->ring.p, o->ring.len);
	uvio_hw_region_add(out, UVIO_HW_MEM_DOORBELL, UVIO_HW_MEM_OF_DEVICE, o->db.p, o->db.len);
	uvio_hw_region_add(out, UVIO_HW_MEM_LLQ, UVIO_HW_MEM_OF_DEVICE, o->llq.p, o->llq.len);
	uvio_hw_region_add(out, UVIO_HW_MEM_SQ_DOORBELL, UVIO_HW_MEM_OF_DEVICE, o->sq_db.p,
			   o->sq_db.len);
}

const struct hw_ops uvio_hw_efa = {
	.driver = "efa",
	.state_size = sizeof(struct efa_state),
	.obj_size = sizeof(struct efa_obj),
	.context_request = efa_context_request,
	.context_answer = efa_context_answer,
	.context_release = efa_context_release,
	.request = efa_request,
	.answer = efa_answer,
	.obj_release = efa_obj_release,
	.describe = efa_describe,
};
