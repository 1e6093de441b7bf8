// SPDX-License-Identifier: MIT
/*
 * mlx4's half of the control path (ConnectX-3, the kernel's mlx4_ib): what
 * the kernel driver requires in each command's driver data, with the queues
 * it pins allocated, sized and aligned by mlx4's rules, the doorbell records
 * handed out of shared pages, and the doorbell (UAR) and blue-flame pages the
 * context offers mapped. The request the library sends is the one rdma-core's
 * libmlx4 (rdma-core 44) sends for the same verb, so that the kernel sees the
 * same thing from both.
 *
 * No data path: nothing here posts or polls (rdma-core's libmlx4 does).
 *
 * Rules, from libmlx4 and mlx4_ib (Linux 6.1):
 *  - context: no request; the answer (uverbs ABI 4) gives dev_caps,
 *    qp_tab_size, bf_reg_size, bf_regs_per_page and cqe_size, the CQE size
 *    being 32 unless dev_caps offers large CQEs; a device without user
 *    capabilities says uverbs ABI 3 (the uverbs node's abi_version in
 *    sysfs) and answers qp_tab_size, bf_reg_size and bf_regs_per_page
 *    alone, its CQEs 32 bytes; the UAR page is mmap offset 0, the
 *    blue-flame page (where bf_reg_size is not 0) offset one page;
 *  - doorbell records: CQs take 8 bytes (consumer index, arm), receive
 *    queues and SRQs 4, each kind out of its own pages;
 *  - CQ: at most 2^22 - 1 CQEs; entries = the count asked plus one, rounded
 *    up to a power of two; the buffer entries x CQE size in whole pages,
 *    zeroed (the HCA takes ownership of each CQE when the CQ is made);
 *    the kernel is sent entries - 1; a resize the same, in a new buffer;
 *  - QP (RC, UC, UD): send WQE = control segment (16) + the larger of the
 *    gather entries (16 each) and the inline data in 64-byte-bounded
 *    segments (4-byte header each), plus the transport's segment (RC, UC:
 *    remote address 16; UD: datagram 48), RC at least atomic + remote
 *    address + one entry, all at least a bind segment (32), rounded up to a
 *    power of two of at least 64; send WQEs = max_send_wr + (2048 >> stride)
 *    + 1 rounded up to a power of two (the prefetch headroom); receive WQE =
 *    16 x max_recv_sge (at least 1) rounded up to a power of two of at least
 *    16, max_recv_wr (at least 1) rounded up to a power of two of them, none
 *    on an SRQ; one zeroed buffer, the queue of the larger stride first; a
 *    receive doorbell record where there is a receive queue; the send WQEs'
 *    ownership set as libmlx4 sets it when the QP first goes to INIT
 *    (owner bit, size, every further 64 bytes stamped invalid);
 *  - SRQ (basic): max_wr + 1 rounded up to a power of two descriptors of
 *    16 + 16 x max_sge bytes rounded up to a power of two (at least 32),
 *    linked into a free list, every scatter entry's lkey invalid (0x100).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>
#include <rdma/mlx4-abi.h>
#include "hw/hw.h"
#include "device/discover.h"
#include "report/report.h"

enum {
	MAX_CQE = 0x3fffff,		/* libmlx4's limit on a CQ's count */
	DEFAULT_CQE_SIZE = 32,		/* struct mlx4_cqe */
	DB_CQ = 0,			/* doorbell record kinds */
	DB_RQ = 1,
	/* the WQE pieces (bytes) */
	SEG_CTRL = 16,
	SEG_DATA = 16,
	SEG_RADDR = 16,
	SEG_ATOMIC = 16,
	SEG_DATAGRAM = 48,
	SEG_BIND = 32,
	SEG_INLINE = 4,
	SEG_SRQ_NEXT = 16,
	INLINE_ALIGN = 64,
	SQ_MIN_SHIFT = 6,
	SQ_HEADROOM = 2048,		/* prefetch room in the send queue */
	INVALID_LKEY = 0x100,
	/* libmlx4's limits where it has not queried the device */
	MAX_WR = 65536,
	MAX_SGE = 64,
	MAX_INLINE = 1024,
	MAX_SRQ_WR = 1 << 16,
};

/* One page of doorbell records of one kind, handed out by a bitmap. */
struct dbpage {
	struct dbpage *next;
	uint8_t *page;
	unsigned int kind, size, nrec, nused;
	uint64_t used[16];		/* up to 1024 records of 4 bytes */
};

struct mlx4_state {
	struct hw_state base;
	struct mlx4_ib_alloc_ucontext_resp resp;	/* a v3 answer's fields in it */
	uint32_t abi;			/* the device's uverbs ABI version: 3 or 4 */
	size_t page;
	uint32_t cqe_size;
	void *uar, *bf;			/* the mapped pages, or NULL */
	int uar_error;
	struct dbpage *dbpages;
};

struct mlx4_obj {
	struct hw_obj base;
	void *buf;
	size_t buf_len, map_len;
	uint32_t *db;			/* doorbell record, or NULL */
	unsigned int db_kind;
	uint32_t num;			/* pdn, cqn, srqn */
	uint32_t ncqe;
	size_t sq_off, sq_len;		/* QP: where the send queue lies in buf */
};

static uint32_t mlx4_log2(uint32_t pow2)
{
	return (uint32_t)__builtin_ctz(pow2);
}

/* A doorbell record of a kind (CQ: 8 bytes, RQ: 4), zeroed, out of the
 * pages of that kind. Under the layer's lock. */
static uint32_t *mlx4_db_alloc_locked(struct mlx4_state *st, unsigned int kind)
{
	unsigned int size = kind == DB_CQ ? 8 : 4;
	struct dbpage *p;

	for (p = st->dbpages; p; p = p->next)
		if (p->kind == kind && p->nused < p->nrec)
			break;
	if (!p) {
		size_t len;

		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		p->page = uvio_hw_queue_alloc(st->page, st->page, &len);
		if (!p->page) {
			free(p);
			return NULL;
		}
		p->kind = kind;
		p->size = size;
		p->nrec = (unsigned int)(st->page / size);
		if (p->nrec > 64 * sizeof(p->used) / sizeof(p->used[0]))
			p->nrec = 64 * sizeof(p->used) / sizeof(p->used[0]);
		p->next = st->dbpages;
		st->dbpages = p;
	}
	for (unsigned int i = 0; i < p->nrec; i++)
		if (!(p->used[i / 64] & (1ULL << (i % 64)))) {
			uint32_t *db = (uint32_t *)(p->page + (size_t)i * size);

			p->used[i / 64] |= 1ULL << (i % 64);
			p->nused++;
			memset(db, 0, size);
			return db;
		}
	return NULL;
}

static uint32_t *mlx4_db_alloc(struct mlx4_state *st, unsigned int kind)
{
	uint32_t *db;

	uvio_hw_lock(&st->base);
	db = mlx4_db_alloc_locked(st, kind);
	uvio_hw_unlock(&st->base);
	return db;
}

static void mlx4_db_free_locked(struct mlx4_state *st, uint32_t *db)
{
	struct dbpage **pp, *p;

	for (pp = &st->dbpages; (p = *pp); pp = &p->next) {
		uint8_t *b = (uint8_t *)db;
		size_t i;

		if (b < p->page || b >= p->page + st->page)
			continue;
		i = (size_t)(b - p->page) / p->size;
		p->used[i / 64] &= ~(1ULL << (i % 64));
		if (!--p->nused) {
			*pp = p->next;
			uvio_hw_queue_free(p->page, st->page);
			free(p);
		}
		return;
	}
}

static void mlx4_obj_release(struct uvio_device *dev, struct hw_state *base, struct hw_obj *obj)
{
	struct mlx4_obj *o = (struct mlx4_obj *)obj;

	(void)dev;
	uvio_hw_queue_free(o->buf, o->map_len);
	if (o->db) {
		uvio_hw_lock(base);
		mlx4_db_free_locked((struct mlx4_state *)base, o->db);
		uvio_hw_unlock(base);
	}
}

static void mlx4_context_release(struct uvio_device *dev, struct hw_state *base)
{
	struct mlx4_state *st = (struct mlx4_state *)base;

	(void)dev;
	while (st->dbpages) {
		struct dbpage *p = st->dbpages;

		st->dbpages = p->next;
		uvio_hw_queue_free(p->page, st->page);
		free(p);
	}
	if (st->uar)
		munmap(st->uar, st->page);
	if (st->bf)
		munmap(st->bf, st->page);
}

/* GET_CONTEXT */

/* The uverbs ABI version of the device under dev's fd, as sysfs states it
 * for the node (mlx4_ib says 3 for a device without user capabilities);
 * 4 where it cannot be read (an fd sysfs does not place). */
static uint32_t mlx4_abi_version(struct uvio_device *dev)
{
	char uverbs[32], path[256], v[16];

	if (uvio_uverbs_fd_check(dev->fd, uverbs, sizeof(uverbs)))
		return MLX4_IB_UVERBS_ABI_VERSION;
	snprintf(path, sizeof(path), "%s/class/infiniband_verbs/%s/abi_version", uvio_sysfs_root,
		 uverbs);
	if (uvio_sysfs_read(path, v, sizeof(v)))
		return MLX4_IB_UVERBS_ABI_VERSION;
	return strtoul(v, NULL, 10) == MLX4_IB_UVERBS_NO_DEV_CAPS_ABI_VERSION ?
		       MLX4_IB_UVERBS_NO_DEV_CAPS_ABI_VERSION : MLX4_IB_UVERBS_ABI_VERSION;
}

static int mlx4_context_request(struct uvio_device *dev, struct hw_state *base,
				struct hw_call *c, struct drv_bufs *b)
{
	struct mlx4_state *st = (struct mlx4_state *)base;

	_Static_assert(sizeof(struct mlx4_ib_alloc_ucontext_resp) <= sizeof(c->out), "room");
	st->abi = mlx4_abi_version(dev);
	/* No request; the answer of the device's ABI. */
	return uvio_hw_hand_over(c, b, 0, st->abi == MLX4_IB_UVERBS_NO_DEV_CAPS_ABI_VERSION ?
				  sizeof(struct mlx4_ib_alloc_ucontext_resp_v3) :
				  sizeof(struct mlx4_ib_alloc_ucontext_resp));
}

static void mlx4_context_answer(struct uvio_device *dev, struct hw_state *base,
				const struct hw_call *c)
{
	struct mlx4_state *st = (struct mlx4_state *)base;
	void *p;

	if (st->abi == MLX4_IB_UVERBS_NO_DEV_CAPS_ABI_VERSION) {
		struct mlx4_ib_alloc_ucontext_resp_v3 v3;

		memcpy(&v3, c->out, sizeof(v3));
		st->resp.qp_tab_size = v3.qp_tab_size;
		st->resp.bf_reg_size = v3.bf_reg_size;
		st->resp.bf_regs_per_page = v3.bf_regs_per_page;
	} else {
		memcpy(&st->resp, c->out, sizeof(st->resp));
	}
	st->page = (size_t)sysconf(_SC_PAGESIZE);
	st->cqe_size = (st->resp.dev_caps & MLX4_USER_DEV_CAP_LARGE_CQE) &&
				(st->resp.cqe_size == 32 || st->resp.cqe_size == 64) ?
			st->resp.cqe_size : DEFAULT_CQE_SIZE;
	p = mmap(NULL, st->page, PROT_WRITE, MAP_SHARED, dev->fd, 0);
	if (p == MAP_FAILED) {
		st->uar_error = -errno;
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: mlx4: no UAR page (%s): CQs and QPs "
			 "will be refused", dev->name, strerror(-st->uar_error));
	} else {
		st->uar = p;
	}
	if (st->resp.bf_reg_size) {
		p = mmap(NULL, st->page, PROT_WRITE, MAP_SHARED, dev->fd, (off_t)st->page);
		if (p == MAP_FAILED)	/* libmlx4 goes on without blue flame too */
			uvio_log(LOG_INFO, "%s: DEVICE.GET_CONTEXT: mlx4: no blue-flame page (%s)",
				 dev->name, strerror(errno));
		else
			st->bf = p;
	}
}

/* CQ */

static int mlx4_cq_request(struct mlx4_state *st, struct hw_call *c, union hw_params *p,
			   struct mlx4_obj *o, struct drv_bufs *b)
{
	struct mlx4_ib_create_cq *req = (void *)c->in;
	uint32_t ncqe;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct mlx4_ib_create_cq_resp) <= sizeof(c->out), "room");
	if (p->cq.cqe > MAX_CQE)
		return uvio_hw_refuse(c, -EINVAL, "cqe: more than 2^22 - 1 CQEs asked");
	if (!st->uar)
		return uvio_hw_refuse(c, st->uar_error ? st->uar_error : -EOPNOTSUPP,
			      "the context has no UAR page for the CQ's doorbell");
	ncqe = uvio_hw_pow2((uint64_t)p->cq.cqe + 1);
	o->ncqe = ncqe;
	o->buf_len = (size_t)ncqe * st->cqe_size;
	/* zeroed: the HCA takes the CQEs when the CQ is made */
	o->buf = uvio_hw_queue_alloc(o->buf_len, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	o->db = mlx4_db_alloc(st, DB_CQ);
	if (!o->db)
		return -ENOMEM;
	o->db_kind = DB_CQ;
	memset(req, 0, sizeof(*req));
	req->buf_addr = (uintptr_t)o->buf;
	req->db_addr = (uintptr_t)o->db;
	p->cq.cqe = ncqe - 1;	/* as libmlx4 says it */
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct mlx4_ib_create_cq_resp));
}

/* QP */

/* Inline segments a WQE needs for data bytes: none may cross 64 bytes, and
 * the first starts after the control and the transport's segment. */
static uint32_t mlx4_inline_segs(uint32_t data, uint32_t type)
{
	data += (SEG_CTRL + (type == IB_UVERBS_QPT_UD ? SEG_DATAGRAM : SEG_RADDR)) % INLINE_ALIGN;
	return (data + INLINE_ALIGN - SEG_INLINE - 1) / (INLINE_ALIGN - SEG_INLINE);
}

static uint32_t mlx4_send_wqe_shift(const struct ib_uverbs_qp_cap *cap, uint32_t type)
{
	uint32_t inl = cap->max_inline_data + mlx4_inline_segs(cap->max_inline_data, type) * SEG_INLINE;
	uint32_t sge = ((inl + SEG_DATA - 1) & ~(uint32_t)(SEG_DATA - 1)) / SEG_DATA;
	uint32_t size, shift;

	if (sge < cap->max_send_sge)
		sge = cap->max_send_sge;
	size = sge * SEG_DATA;
	if (type == IB_UVERBS_QPT_UD) {
		size += SEG_DATAGRAM;
	} else {
		size += SEG_RADDR;
		if (type == IB_UVERBS_QPT_RC && size < SEG_ATOMIC + SEG_RADDR + SEG_DATA)
			size = SEG_ATOMIC + SEG_RADDR + SEG_DATA;
	}
	if (size < SEG_BIND)
		size = SEG_BIND;
	size += SEG_CTRL;
	for (shift = SQ_MIN_SHIFT; (1u << shift) < size; shift++)
		;
	return shift;
}

/* What libmlx4 writes in each send WQE when the QP first goes to INIT: the
 * owner bit, the WQE's size in 16-byte units, and the first word of every
 * further 64 bytes stamped invalid (against prefetch). */
static void mlx4_sq_init_ownership(uint8_t *sq, uint32_t cnt, uint32_t shift)
{
	for (uint32_t i = 0; i < cnt; i++) {
		uint8_t *wqe = sq + ((size_t)i << shift);
		uint32_t owner = htobe32(1u << 31), stamp = 0xffffffffu;
		uint32_t ds = (uint32_t)((1u << (shift - 4)) & 0x3f) << 2;	/* dwords */

		memcpy(wqe, &owner, sizeof(owner));
		wqe[7] = (uint8_t)(1u << (shift - 4));	/* fence_size */
		for (uint32_t d = 16; d < ds; d += 16)
			memcpy(wqe + (size_t)d * 4, &stamp, sizeof(stamp));
	}
}

static int mlx4_qp_request(struct mlx4_state *st, struct hw_call *c, union hw_params *p,
			   struct mlx4_obj *o, struct drv_bufs *b)
{
	struct mlx4_ib_create_qp *req = (void *)c->in;
	struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	uint32_t sq_shift, sq_cnt, rq_shift = 4, rq_cnt = 0, wqe;
	size_t sq_len, rq_len, sq_off;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	if (p->qp.type != IB_UVERBS_QPT_RC && p->qp.type != IB_UVERBS_QPT_UC &&
	    p->qp.type != IB_UVERBS_QPT_UD)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "the library's mlx4 half makes RC, UC and UD QPs; pass driver data for others");
	if (cap->max_send_wr > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_wr past mlx4's 65536");
	if (cap->max_recv_wr > MAX_WR)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_wr past mlx4's 65536");
	if (cap->max_send_sge > MAX_SGE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_send_sge past mlx4's 64");
	if (cap->max_recv_sge > MAX_SGE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_recv_sge past mlx4's 64");
	if (cap->max_inline_data > MAX_INLINE)
		return uvio_hw_refuse(c, -EINVAL, "cap.max_inline_data past mlx4's 1024 bytes");
	if (!st->uar)
		return uvio_hw_refuse(c, st->uar_error ? st->uar_error : -EOPNOTSUPP,
			      "the context has no UAR page for the QP's doorbell");
	sq_shift = mlx4_send_wqe_shift(cap, p->qp.type);
	sq_cnt = uvio_hw_pow2((uint64_t)cap->max_send_wr + (SQ_HEADROOM >> sq_shift) + 1);
	if (p->qp.srq) {
		cap->max_recv_wr = cap->max_recv_sge = 0;
	} else {
		rq_cnt = uvio_hw_pow2(cap->max_recv_wr ? cap->max_recv_wr : 1);
		if (!cap->max_recv_sge)
			cap->max_recv_sge = 1;
		if (!cap->max_recv_wr)
			cap->max_recv_wr = 1;
		wqe = cap->max_recv_sge * SEG_DATA;
		while ((1u << rq_shift) < wqe)
			rq_shift++;
	}
	sq_len = (size_t)sq_cnt << sq_shift;
	rq_len = (size_t)rq_cnt << rq_shift;
	sq_off = rq_shift > sq_shift ? rq_len : 0;	/* the larger stride first */
	o->buf_len = sq_len + rq_len;
	o->sq_off = sq_off;
	o->sq_len = sq_len;
	o->buf = uvio_hw_queue_alloc(o->buf_len, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	mlx4_sq_init_ownership((uint8_t *)o->buf + sq_off, sq_cnt, sq_shift);
	if (cap->max_recv_sge) {
		o->db = mlx4_db_alloc(st, DB_RQ);
		if (!o->db)
			return -ENOMEM;
		o->db_kind = DB_RQ;
	}
	memset(req, 0, sizeof(*req));
	req->buf_addr = (uintptr_t)o->buf;
	req->db_addr = (uintptr_t)o->db;
	req->log_sq_stride = (uint8_t)sq_shift;
	req->log_sq_bb_count = (uint8_t)mlx4_log2(sq_cnt);
	req->sq_no_prefetch = 0;
	/* mlx4 answers a QP in the core response alone. */
	return uvio_hw_hand_over(c, b, sizeof(*req), 0);
}

/* SRQ */

static int mlx4_srq_request(struct mlx4_state *st, struct hw_call *c, union hw_params *p,
			    struct mlx4_obj *o, struct drv_bufs *b)
{
	struct mlx4_ib_create_srq *req = (void *)c->in;
	uint32_t shift = 5, max, size;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct mlx4_ib_create_srq_resp) <= sizeof(c->out), "room");
	if (p->srq.type != IB_UVERBS_SRQT_BASIC)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "the library's mlx4 half makes basic SRQs; pass driver data for others");
	if (p->srq.max_wr > MAX_SRQ_WR)
		return uvio_hw_refuse(c, -EINVAL, "max_wr past mlx4's 65536");
	if (p->srq.max_sge > MAX_SGE)
		return uvio_hw_refuse(c, -EINVAL, "max_sge past mlx4's 64");
	max = uvio_hw_pow2((uint64_t)p->srq.max_wr + 1);
	size = SEG_SRQ_NEXT + p->srq.max_sge * SEG_DATA;
	while ((1u << shift) < size)
		shift++;
	o->buf_len = (size_t)max << shift;
	o->buf = uvio_hw_queue_alloc(o->buf_len, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	/* The free list: each descriptor's next index (big endian, after two
	 * reserved bytes), and every scatter entry's lkey invalid. */
	for (uint32_t i = 0; i < max; i++) {
		uint8_t *d = (uint8_t *)o->buf + ((size_t)i << shift);
		uint16_t next = htobe16((uint16_t)((i + 1) & (max - 1)));
		uint32_t lkey = htobe32(INVALID_LKEY);

		memcpy(d + 2, &next, sizeof(next));
		for (size_t s = SEG_SRQ_NEXT; s < (1u << shift); s += SEG_DATA)
			memcpy(d + s + 4, &lkey, sizeof(lkey));
	}
	o->db = mlx4_db_alloc(st, DB_RQ);
	if (!o->db)
		return -ENOMEM;
	o->db_kind = DB_RQ;
	memset(req, 0, sizeof(*req));
	req->buf_addr = (uintptr_t)o->buf;
	req->db_addr = (uintptr_t)o->db;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct mlx4_ib_create_srq_resp));
}

_Static_assert(sizeof(struct mlx4_ib_alloc_pd_resp) <= HW_DATA_MAX, "the pdn's room");

static int mlx4_request(struct uvio_device *dev, struct hw_state *base, struct hw_call *c,
			union hw_params *p, struct hw_obj *obj, struct drv_bufs *b)
{
	struct mlx4_state *st = (struct mlx4_state *)base;
	struct mlx4_obj *o = (struct mlx4_obj *)obj;

	(void)dev;
	switch (c->verb) {
	case HW_PD:	/* the pdn comes back */
		return uvio_hw_hand_over(c, b, 0, sizeof(struct mlx4_ib_alloc_pd_resp));
	case HW_AH:	/* no driver data either way */
		return uvio_hw_hand_over(c, b, 0, 0);
	case HW_CQ:
		return mlx4_cq_request(st, c, p, o, b);
	case HW_CQ_RESIZE:
		/* As on mlx5 (lib/hw/mlx5.c): only the poller can carry the
		 * completions not yet polled into the new buffer. */
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "only the CQ's poller can carry the completions not yet polled "
			      "into a new buffer; pass driver data (struct mlx4_ib_resize_cq) "
			      "with the poller's new buffer");
	case HW_QP:
		return mlx4_qp_request(st, c, p, o, b);
	case HW_SRQ:
		return mlx4_srq_request(st, c, p, o, b);
	default:
		return 0;
	}
}

static void mlx4_answer(struct uvio_device *dev, struct hw_state *st, const struct hw_call *c,
			struct hw_obj *obj)
{
	struct mlx4_obj *o = (struct mlx4_obj *)obj;

	(void)dev;
	(void)st;
	if (c->verb == HW_PD || c->verb == HW_CQ || c->verb == HW_SRQ)
		memcpy(&o->num, c->out, sizeof(o->num));	/* pdn, cqn, srqn */
}

static void mlx4_describe(const struct hw_state *base, const struct hw_obj *obj,
			  struct uvio_hw_object *out)
{
	const struct mlx4_state *st = (const struct mlx4_state *)base;
	const struct mlx4_obj *o = (const struct mlx4_obj *)obj;
	const uint8_t *buf = o->buf;

	out->num = o->num;
	switch (obj->kind) {
	case HW_CQ:
		uvio_hw_region_add(out, UVIO_HW_MEM_CQ, 0, buf, o->buf_len);
		uvio_hw_region_add(out, UVIO_HW_MEM_DBREC, 0, o->db, 8);
		break;
	case HW_QP:	/* the larger stride first */
		if (!buf)
			break;
		uvio_hw_region_add(out, UVIO_HW_MEM_SQ, 0, buf + o->sq_off, o->sq_len);
		uvio_hw_region_add(out, UVIO_HW_MEM_RQ, 0, buf + (o->sq_off ? 0 : o->sq_len),
				   o->buf_len - o->sq_len);
		uvio_hw_region_add(out, UVIO_HW_MEM_DBREC, 0, o->db, 4);
		break;
	case HW_SRQ:
		uvio_hw_region_add(out, UVIO_HW_MEM_SRQ, 0, buf, o->buf_len);
		uvio_hw_region_add(out, UVIO_HW_MEM_DBREC, 0, o->db, 4);
		return;
	default:
		return;
	}
	uvio_hw_region_add(out, UVIO_HW_MEM_DOORBELL, UVIO_HW_MEM_OF_DEVICE, st->uar, st->page);
}

const struct hw_ops uvio_hw_mlx4 = {
	.driver = "mlx4",
	.state_size = sizeof(struct mlx4_state),
	.obj_size = sizeof(struct mlx4_obj),
	.context_request = mlx4_context_request,
	.context_answer = mlx4_context_answer,
	.context_release = mlx4_context_release,
	.request = mlx4_request,
	.answer = mlx4_answer,
	.obj_release = mlx4_obj_release,
	.describe = mlx4_describe,
};
