// SPDX-License-Identifier: MIT
/*
 * mana's half of the control path (Microsoft Azure Network Adapter, the
 * kernel's mana_ib, Linux 6.2 on): what the kernel driver requires in each
 * command's driver data, and the queue buffers it pins in the process's
 * memory. The request the library sends is the one rdma-core's libmana
 * (44, Debian 12's) sends for the same verb, so that the kernel sees the
 * same thing from both; libmana asks its caller for the buffers
 * (manadv_set_context_attr's allocators), the library maps them itself.
 *
 * QP types: RAW_PACKET, as libmana 44 makes them: a send queue in the
 * process's memory on port 1 (libmana takes the port from a parent
 * domain's context; the library has no parent domain, and a mana device
 * has one port). An RSS QP (over an indirection table) needs
 * mana_ib_create_qp_rss and the caller's struct uvio_drv; RC QPs (which
 * mana_ib takes from 6.12, libmana 44 does not make), SRQs, CQ resizes and
 * AHs are refused before anything is sent: libmana 44 has none of them,
 * and mana_ib no SRQ, resize or AH at all.
 *
 * No data path: nothing here posts or polls (libmana 44 leaves that to
 * its caller, DPDK).
 *
 * Rules, from mana_ib (Linux 6.12) and libmana (rdma-core 44):
 *  - context: no driver data either way; after it, the doorbell page
 *    (mmap offset 0, one page, writable) is mapped, as libmana maps it;
 *  - PD: no driver data;
 *  - CQ: at most 256 entries (libmana's MAX_SEND_BUFFERS_PER_QUEUE); the
 *    buffer is entries x 64 bytes (a completion entry) rounded up to a
 *    power of two and to whole 4 KiB pages, page-aligned (mana_ib makes a
 *    zero-offset DMA region of it); the request is libmana's 8 bytes
 *    (buf_addr; flags, which 6.12 added, zero by absence); no answer asked
 *    (libmana 44 asks none; 6.12 would say the CQ id, which a raw CQ has
 *    only once a QP uses it: the QP's answer says it);
 *  - QP: send WRs at most 256; a WQE of the send SGEs x 16 bytes + 16
 *    bytes of out-of-band data rounded up to 32 bytes, at most 512; the send buffer WRs x WQE rounded up to whole
 *    4 KiB pages, then to a power of two; the answer's sqid, cqid and
 *    tx_vp_offset are kept;
 *  - MR: no driver data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>
#include "hw/hw.h"
#include "hw/mana_abi.h"
#include "report/report.h"

enum {
	MAX_WR = 256,		/* libmana's MAX_SEND_BUFFERS_PER_QUEUE */
	CQE_SIZE = 64,		/* COMP_ENTRY_SIZE */
	SGE_SIZE = 16,
	OOB_SIZE = 8 + 8,	/* DMA_OOB_SIZE + INLINE_OOB_SMALL_SIZE */
	WQE_UNIT = 32,		/* GDMA_WQE_ALIGNMENT_UNIT_SIZE */
	MAX_TX_WQE = 512,
	HW_PAGE = 4096,		/* MANA_PAGE_SIZE, DOORBELL_PAGE_SIZE */
	CQ_REQ_LEN = 8,		/* libmana 44's mana_ib_create_cq: buf_addr alone */
	QPT_RAW_PACKET = 8,	/* IB_UVERBS_QPT_RAW_PACKET */
};

struct mana_state {
	struct hw_state base;
	void *db;		/* the doorbell page, or NULL */
};

struct mana_obj {
	struct hw_obj base;
	void *buf;		/* the CQ's or send queue's buffer */
	size_t len;
	struct uvio_mana_create_qp_resp qp;	/* a QP's answer */
};

static void mana_obj_release(struct uvio_device *dev, struct hw_state *st, struct hw_obj *obj)
{
	struct mana_obj *o = (struct mana_obj *)obj;

	(void)dev;
	(void)st;
	uvio_hw_queue_free(o->buf, o->len);
}

static void mana_context_release(struct uvio_device *dev, struct hw_state *base)
{
	struct mana_state *st = (struct mana_state *)base;

	(void)dev;
	if (st->db)
		munmap(st->db, HW_PAGE);
}

/* A buffer of len bytes (already a page multiple) for the kernel to pin. */
static int mana_buf_request(struct hw_call *c, struct mana_obj *o, struct drv_bufs *b,
			    size_t req_len, size_t out_len, size_t len, uint64_t *addr)
{
	o->buf = uvio_hw_queue_alloc(len, HW_PAGE, &o->len);
	if (!o->buf)
		return -ENOMEM;
	*addr = (uintptr_t)o->buf;
	return uvio_hw_hand_over(c, b, req_len, out_len);
}

static int mana_cq_request(struct hw_call *c, union hw_params *p, struct mana_obj *o,
			   struct drv_bufs *b)
{
	struct uvio_mana_create_cq *req = (void *)c->in;
	uint32_t len;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	if (!p->cq.cqe || p->cq.cqe > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "cqe: mana's CQs hold 1 to 256 entries (libmana's limit)");
	len = uvio_hw_pow2((uint64_t)p->cq.cqe * CQE_SIZE);
	memset(req, 0, sizeof(*req));
	return mana_buf_request(c, o, b, CQ_REQ_LEN, 0, len < HW_PAGE ? HW_PAGE : len,
				&req->buf_addr);
}

static int mana_qp_request(struct hw_call *c, union hw_params *p, struct mana_obj *o,
			   struct drv_bufs *b)
{
	struct uvio_mana_create_qp *req = (void *)c->in;
	const struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	uint64_t wqe, len;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct uvio_mana_create_qp_resp) <= sizeof(c->out), "room");
	if (p->qp.type != QPT_RAW_PACKET)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "mana's half makes RAW_PACKET QPs only (as libmana 44); for an RC "
			      "QP pass struct uvio_drv with mana_ib_create_rc_qp");
	if (p->qp.ind_table)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "an RSS QP (over an indirection table) needs mana_ib_create_qp_rss: "
			      "pass struct uvio_drv");
	if (p->qp.srq)
		return uvio_hw_refuse(c, -EOPNOTSUPP, "mana has no SRQ");
	if (cap->max_send_wr > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_wr: more than 256 (libmana's limit)");
	wqe = ((uint64_t)cap->max_send_sge * SGE_SIZE + OOB_SIZE + WQE_UNIT - 1) & ~(uint64_t)(WQE_UNIT - 1);
	if (wqe > MAX_TX_WQE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_sge past mana's 512-byte WQE");
	len = ((uint64_t)cap->max_send_wr * wqe + HW_PAGE - 1) & ~(uint64_t)(HW_PAGE - 1);
	len = uvio_hw_pow2(len);
	if (!len)
		return uvio_hw_refuse(c, -EINVAL, "no send queue (mana's raw QPs send)");
	memset(req, 0, sizeof(*req));
	req->sq_buf_size = (uint32_t)len;
	req->port = 1;
	return mana_buf_request(c, o, b, sizeof(*req), sizeof(struct uvio_mana_create_qp_resp),
				(size_t)len, &req->sq_buf_addr);
}

/* mana's GET_CONTEXT carries no driver data either way. */
static int mana_context_request(struct uvio_device *dev, struct hw_state *st, struct hw_call *c,
				struct drv_bufs *b)
{
	(void)dev;
	(void)st;
	return uvio_hw_hand_over(c, b, 0, 0);
}

static int mana_request(struct uvio_device *dev, struct hw_state *st, struct hw_call *c,
			union hw_params *p, struct hw_obj *obj, struct drv_bufs *b)
{
	struct mana_obj *o = (struct mana_obj *)obj;

	(void)dev;
	(void)st;
	switch (c->verb) {
	case HW_PD:
		return uvio_hw_hand_over(c, b, 0, 0);
	case HW_CQ:
		return mana_cq_request(c, p, o, b);
	case HW_CQ_RESIZE:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "mana does not resize CQs");
	case HW_QP:
		return mana_qp_request(c, p, o, b);
	case HW_SRQ:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "mana has no SRQ");
	case HW_AH:
		return uvio_hw_refuse(c, -EOPNOTSUPP, "mana has no address handles");
	default:
		return 0;
	}
}

static void mana_context_answer(struct uvio_device *dev, struct hw_state *base,
				const struct hw_call *c)
{
	struct mana_state *st = (struct mana_state *)base;
	void *db;

	(void)c;
	db = mmap(NULL, HW_PAGE, PROT_WRITE, MAP_SHARED, dev->fd, 0);
	if (db == MAP_FAILED)
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: mana: the doorbell page not "
			 "mapped (%s)", dev->name, strerror(errno));
	else
		st->db = db;
}

static void mana_answer(struct uvio_device *dev, struct hw_state *st, const struct hw_call *c,
			struct hw_obj *obj)
{
	struct mana_obj *o = (struct mana_obj *)obj;

	(void)dev;
	(void)st;
	if (c->verb == HW_QP)
		memcpy(&o->qp, c->out, sizeof(o->qp));
}

static void mana_describe(const struct hw_state *base, const struct hw_obj *obj,
			  struct uvio_hw_object *out)
{
	const struct mana_state *st = (const struct mana_state *)base;
	const struct mana_obj *o = (const struct mana_obj *)obj;

	if (obj->kind == HW_QP)
		out->num = o->qp.sqid;
	if (obj->kind != HW_CQ && obj->kind != HW_QP)
		return;
	uvio_hw_region_add(out, obj->kind == HW_CQ ? UVIO_HW_MEM_CQ : UVIO_HW_MEM_SQ, 0, o->buf,
			   o->len);
	uvio_hw_region_add(out, UVIO_HW_MEM_DOORBELL, UVIO_HW_MEM_OF_DEVICE, st->db, HW_PAGE);
}

const struct hw_ops uvio_hw_mana = {
	.driver = "mana",
	.state_size = sizeof(struct mana_state),
	.obj_size = sizeof(struct mana_obj),
	.context_request = mana_context_request,
	.context_answer = mana_context_answer,
	.context_release = mana_context_release,
	.request = mana_request,
	.answer = mana_answer,
	.obj_release = mana_obj_release,
	.describe = mana_describe,
};
