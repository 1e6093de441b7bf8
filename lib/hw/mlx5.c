// SPDX-License-Identifier: MIT
/*
 * mlx5's half of the control path (ConnectX-4 and later, the kernel's
 * mlx5_ib): what the kernel driver requires in each command's driver data,
 * with the queues it pins allocated, sized and aligned by mlx5's rules, the
 * doorbell records handed out of shared pages, and the doorbell (UAR) page
 * the context offers mapped. The request the library sends is the one
 * rdma-core's libmlx5 sends for the same verb, so that the kernel sees the
 * same thing from both: a context asking for 4K and dynamic UARs and CQE
 * version 1; one non-cached UAR object for every CQ and QP; 64-byte CQEs;
 * SQ and RQ sized by the WQE rules below.
 *
 * The control path only: nothing here posts or polls. The library's own
 * data path on these queues is providers/mlx5.c (<uvio/dp.h>); rdma-core's
 * libmlx5, or a caller's writer, may drive them instead:
 * uvio_mlx5_query_object() tells where each queue lies.
 *
 * Rules, from mlx5_ib (Linux 6.1) and the WQE formats of the hardware:
 *  - context: request v2; the kernel answers tot_bfregs 0 when it gave
 *    dynamic UARs (5.1 and later), else static blue-flame pages, mapped by
 *    index with mmap command 0;
 *  - CQ: entries = the CQE count asked plus one, rounded up to a power of
 *    two; the buffer is entries x CQE size (64 or 128), each CQE's last byte
 *    0xf0 (opcode "invalid", owned by the hardware); a doorbell record of two
 *    words; with dynamic UARs the UAR page named in the request;
 *  - QP: receive WQE = 16 bytes per scatter entry (at least one), rounded up
 *    to a power of two; RQ = that x max_recv_wr rounded up to a power of two,
 *    at least 64 bytes; send WQE = the transport's overhead plus 16 bytes per
 *    gather entry (or the inline data), in 64-byte basic blocks; SQ =
 *    max_send_wr x WQE rounded up to a power of two; the RQ first, then the
 *    SQ; with CQE version 1 a user index of the context's;
 *  - SRQ: WQE = 16-byte next segment plus 16 per scatter entry, at least 32,
 *    rounded up to a power of two; 2 x max_wr + 1 entries (a wait queue) where
 *    the device allows, else max_wr + 1, rounded up to a power of two; each
 *    WQE's next segment links to the next.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <syslog.h>
#include <unistd.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <uvio/diag.h>
#include <uvio/mlx5.h>
#include "hw/hw.h"
#include "device/path.h"
#include "report/report.h"

/* Ids Debian 11's headers (5.10) lack. */
#ifndef MLX5_QP_FLAG_UAR_PAGE_INDEX
#define MLX5_QP_FLAG_UAR_PAGE_INDEX (1 << 10)
#endif
_Static_assert(MLX5_QP_FLAG_UAR_PAGE_INDEX == (1 << 10), "mlx5 QP flag");
#ifndef MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_ECE
#define MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_ECE (1UL << 2)
#endif
_Static_assert(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_ECE == 4, "mlx5 context mask");

/* The hardware's WQE pieces (bytes). */
enum {
	SEND_WQE_BB = 64,	/* a send WQE is a whole number of these */
	SEG_CTRL = 16,
	SEG_RADDR = 16,
	SEG_ATOMIC = 16,
	SEG_UMR_CTRL = 48,
	SEG_MKEY_CONTEXT = 64,
	SEG_UMR_KLM = 64,	/* the larger of a KLM entry and 64 */
	SEG_DATAGRAM = 48,
	SEG_INLINE_HDR = 4,
	SEG_DATA = 16,		/* one scatter/gather entry */
	SEG_SRQ_NEXT = 16,
	CQE_INVALID_OWNED = 0xf0,
	DEFAULT_CQE_SIZE = 64,
	ECE_VERSION_1 = 0x10000000,	/* the first create of a QP asks for ECE 1 */
	DEFAULT_UIDX = 0xffffff,	/* "none", before CQE version 1 */
	MAX_UIDX = 0xffffff,
	MAX_STATIC_UARS = 16,
	REQ_BFREGS = 16,	/* libmlx5's defaults, for a kernel without dynamic UARs */
	REQ_LOW_LAT_BFREGS = 4,
	UAR_CQ_DB = 0x20,	/* a UAR page's CQ doorbell (the arm) */
	UAR_BF = 0x800,		/* its first blue-flame register (the send doorbell) */
};

/* One page of doorbell records, handed out by a bitmap. */
struct dbpage {
	struct dbpage *next;
	uint8_t *page;
	uint64_t used;
	unsigned int nrec;
};

struct mlx5_state {
	struct hw_state base;
	struct mlx5_ib_alloc_ucontext_resp resp;
	size_t page;
	unsigned int db_stride;		/* one record per cache line */
	bool dyn_uar;
	void *uar;			/* the page CQs and QPs are given */
	uint32_t uar_page_id;		/* dynamic UARs: the object's page */
	uint32_t uar_handle;		/* and the object */
	int uar_error;			/* why there is no UAR page, or 0 */
	bool uar_wc;			/* the UAR object is a blue-flame (WC) one */
	void *static_uar[MAX_STATIC_UARS];
	size_t uar_len;
	unsigned int nstatic;
	struct dbpage *dbpages;
	uint64_t *uidx_map;		/* user indices in use (CQE version 1) */
	size_t uidx_words;
	uint32_t cqe_size;		/* of the CQs it makes: 64, or 128 */
	bool cqe_size_bad;		/* MLX5_CQE_SIZE named neither */
};

struct mlx5_obj {
	struct hw_obj base;
	void *buf;
	size_t buf_len, map_len;	/* pinned by the kernel; mapped */
	uint32_t *db;			/* doorbell record, or NULL */
	uint32_t num;			/* pdn, cqn, srqn */
	uint32_t uidx;
	bool has_uidx;
	uint32_t cqe_size, ncqe;
	uint32_t rq_wqe_cnt, rq_wqe_shift, sq_wqe_cnt, sq_offset;
	uint32_t bfreg_index, flags;
	uint8_t dmac[6];
};

static struct mlx5_state *mlx5_state_of(struct uvio_device *dev)
{
	return (struct mlx5_state *)uvio_hw_state(dev);
}

static uint32_t mlx5_log2(uint32_t pow2)
{
	return (uint32_t)__builtin_ctz(pow2);
}

/* Doorbell records: one cache line each, out of shared pages (the kernel
 * pins each page once per context). Under the layer's lock. */
static uint32_t *mlx5_db_alloc_locked(struct mlx5_state *st)
{
	struct dbpage *p;

	for (p = st->dbpages; p; p = p->next)
		if (p->used != (p->nrec == 64 ? ~0ULL : (1ULL << p->nrec) - 1))
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
		p->nrec = (unsigned int)(st->page / st->db_stride);
		if (p->nrec > 64)
			p->nrec = 64;
		p->next = st->dbpages;
		st->dbpages = p;
	}
	for (unsigned int i = 0; i < p->nrec; i++)
		if (!(p->used & (1ULL << i))) {
			uint32_t *db = (uint32_t *)(p->page + (size_t)i * st->db_stride);

			p->used |= 1ULL << i;
			db[0] = db[1] = 0;
			return db;
		}
	return NULL;
}

static uint32_t *mlx5_db_alloc(struct mlx5_state *st)
{
	uint32_t *db;

	uvio_hw_lock(&st->base);
	db = mlx5_db_alloc_locked(st);
	uvio_hw_unlock(&st->base);
	return db;
}

static void mlx5_db_free_locked(struct mlx5_state *st, uint32_t *db)
{
	struct dbpage **pp, *p;

	for (pp = &st->dbpages; (p = *pp); pp = &p->next) {
		uint8_t *b = (uint8_t *)db;

		if (b < p->page || b >= p->page + st->page)
			continue;
		p->used &= ~(1ULL << ((size_t)(b - p->page) / st->db_stride));
		if (!p->used) {
			*pp = p->next;
			uvio_hw_queue_free(p->page, st->page);
			free(p);
		}
		return;
	}
}

/* User indices, smallest free first. Under the layer's lock. */
static int mlx5_uidx_alloc(struct mlx5_state *st, uint32_t *uidx)
{
	size_t w;

	for (w = 0; w < st->uidx_words && st->uidx_map[w] == ~0ULL; w++)
		;
	if (w == st->uidx_words) {
		size_t n = st->uidx_words ? st->uidx_words * 2 : 4;
		uint64_t *m;

		if (w * 64 > MAX_UIDX)
			return -ENOSPC;
		m = realloc(st->uidx_map, n * sizeof(*m));
		if (!m)
			return -ENOMEM;
		memset(m + st->uidx_words, 0, (n - st->uidx_words) * sizeof(*m));
		st->uidx_map = m;
		st->uidx_words = n;
	}
	*uidx = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(~st->uidx_map[w]));
	if (*uidx > MAX_UIDX - 1)
		return -ENOSPC;
	st->uidx_map[w] |= 1ULL << (*uidx % 64);
	return 0;
}

static void mlx5_uidx_free(struct mlx5_state *st, uint32_t uidx)
{
	if (uidx / 64 < st->uidx_words)
		st->uidx_map[uidx / 64] &= ~(1ULL << (uidx % 64));
}

static void mlx5_obj_release(struct uvio_device *dev, struct hw_state *base, struct hw_obj *obj)
{
	struct mlx5_state *st = (struct mlx5_state *)base;
	struct mlx5_obj *o = (struct mlx5_obj *)obj;

	(void)dev;
	uvio_hw_queue_free(o->buf, o->map_len);
	uvio_hw_lock(base);
	if (o->db)
		mlx5_db_free_locked(st, o->db);
	if (o->has_uidx)
		mlx5_uidx_free(st, o->uidx);
	uvio_hw_unlock(base);
}

static void mlx5_context_release(struct uvio_device *dev, struct hw_state *base)
{
	struct mlx5_state *st = (struct mlx5_state *)base;

	while (st->dbpages) {
		struct dbpage *p = st->dbpages;

		st->dbpages = p->next;
		uvio_hw_queue_free(p->page, st->page);
		free(p);
	}
	if (st->dyn_uar && st->uar) {
		/* The page, then the object (the fd may outlive the handle:
		 * an adopted one). */
		UVIO_CMD_DEFINE(cmd, 1, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_DESTROY);

		munmap(st->uar, st->uar_len);
		uvio_cmd_set_driver_id(&cmd, dev->driver_id);
		uvio_put_idr(&cmd, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, st->uar_handle);
		(void)uvio_dev_exec(dev, &cmd);
	}
	for (unsigned int i = 0; i < st->nstatic; i++)
		munmap(st->static_uar[i], st->page);
	free(st->uidx_map);
}

/* GET_CONTEXT */

static int mlx5_context_request(struct uvio_device *dev, struct hw_state *st,
				struct hw_call *c, struct drv_bufs *b)
{
	struct mlx5_ib_alloc_ucontext_req_v2 *req = (void *)c->in;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct mlx5_ib_alloc_ucontext_resp) <= sizeof(c->out),
		       "room for the response");
	(void)dev;
	(void)st;
	memset(req, 0, sizeof(*req));
	/* Counts a kernel without dynamic UARs uses; one with them ignores. */
	req->total_num_bfregs = REQ_BFREGS;
	req->num_low_latency_bfregs = REQ_LOW_LAT_BFREGS;
	req->max_cqe_version = 1;
	req->lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct mlx5_ib_alloc_ucontext_resp));
}

/* The context's UAR object for every CQ and QP: non-cached, as doorbells
 * of CQs need; blue-flame where the device has no other. */
static int mlx5_uar_alloc(struct uvio_device *dev, struct mlx5_state *st)
{
	static const uint32_t types[] = { MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC,
					  MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF };
	int ret = -EOPNOTSUPP;

	if (uvio_path_current(&dev->paths) != UVIO_PATH_IOCTL)
		return -EOPNOTSUPP;	/* the UAR object is an ioctl method */
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		uint64_t offset = 0;
		uint32_t length = 0, page_id = 0;
		struct ib_uverbs_attr *handle;
		void *p;

		UVIO_CMD_DEFINE(cmd, 5, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC);
		uvio_cmd_set_driver_id(&cmd, dev->driver_id);
		handle = uvio_put_idr_new(&cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
		/* A "const" attribute: a u64 whatever the enum. */
		uvio_put_u64(&cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, types[i]);
		uvio_put_ptr_out(&cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &offset,
				 sizeof(offset));
		uvio_put_ptr_out(&cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &length,
				 sizeof(length));
		uvio_put_ptr_out(&cmd, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &page_id,
				 sizeof(page_id));
		ret = uvio_dev_exec(dev, &cmd);
		if (ret)
			continue;
		if (!length || length > (1u << 20) || offset > (uint64_t)INT64_MAX) {
			ret = -EPROTO;
			break;	/* the object stays with the context */
		}
		p = mmap(NULL, length, PROT_WRITE, MAP_SHARED, dev->fd, (off_t)offset);
		if (p == MAP_FAILED) {
			ret = -errno;
			break;
		}
		st->uar = p;
		st->uar_len = length;
		st->uar_page_id = page_id;
		st->uar_handle = (uint32_t)handle->data;
		st->uar_wc = types[i] == MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF;
		return 0;
	}
	return ret;
}

/* Static blue-flame pages (kernels before dynamic UARs): mapped by index. */
static int mlx5_uar_map_static(struct uvio_device *dev, struct mlx5_state *st)
{
	uint32_t per_page = st->resp.num_uars_per_page ? st->resp.num_uars_per_page : 1;
	uint32_t n = st->resp.tot_bfregs / (per_page * 2);

	if (!n)
		n = 1;
	if (n > MAX_STATIC_UARS)
		n = MAX_STATIC_UARS;
	for (uint32_t i = 0; i < n; i++) {
		void *p = mmap(NULL, st->page, PROT_WRITE, MAP_SHARED, dev->fd,
			       (off_t)((uint64_t)i * st->page));

		if (p == MAP_FAILED)
			return -errno;
		st->static_uar[st->nstatic++] = p;
	}
	st->uar = st->static_uar[0];
	return 0;
}

/*
 * The size of the CQEs of the CQs this half makes: 64 bytes, or 128 where
 * the program sets MLX5_CQE_SIZE=128, the variable libmlx5 reads for the
 * same choice (a program tuned for libmlx5 keeps its setting on the
 * library). A 128-byte entry holds the 64-byte CQE in its second half and
 * room for 64 bytes of data scattered to the CQE in its first. Any other
 * value refuses the CQs, as libmlx5 does, rather than pick for the caller.
 */
static void mlx5_cqe_size_from_env(struct mlx5_state *st)
{
	const char *v = getenv("MLX5_CQE_SIZE");

	st->cqe_size = DEFAULT_CQE_SIZE;
	st->cqe_size_bad = false;
	if (!v)
		return;
	if (!strcmp(v, "128"))
		st->cqe_size = 128;
	else if (strcmp(v, "64"))
		st->cqe_size_bad = true;
}

static void mlx5_context_answer(struct uvio_device *dev, struct hw_state *base,
				const struct hw_call *c)
{
	struct mlx5_state *st = (struct mlx5_state *)base;

	memcpy(&st->resp, c->out, sizeof(st->resp));
	st->page = (size_t)sysconf(_SC_PAGESIZE);
	mlx5_cqe_size_from_env(st);
	st->db_stride = st->resp.cache_line_size >= 8 && st->resp.cache_line_size <= 4096 &&
				!(st->resp.cache_line_size & (st->resp.cache_line_size - 1)) ?
			st->resp.cache_line_size : 64;
	st->dyn_uar = st->resp.tot_bfregs == 0;
	st->uar_error = st->dyn_uar ? mlx5_uar_alloc(dev, st) : mlx5_uar_map_static(dev, st);
	if (st->uar_error)
		uvio_log(LOG_WARNING, "%s: DEVICE.GET_CONTEXT: mlx5: no UAR page (%s): CQs and QPs "
			 "will be refused", dev->name, strerror(-st->uar_error));
}

/* CQ */

/* A CQ's buffer: ncqe entries of cqe_size bytes, each the hardware's until
 * it writes one (opcode "invalid" in the entry's last byte). */
static int mlx5_cq_buf_alloc(const struct mlx5_state *st, struct mlx5_obj *o, uint32_t ncqe,
			     uint32_t cqe_size)
{
	o->cqe_size = cqe_size;
	o->ncqe = ncqe;
	o->buf_len = (size_t)ncqe * cqe_size;
	o->buf = uvio_hw_queue_alloc(o->buf_len, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < ncqe; i++)
		((uint8_t *)o->buf)[(size_t)i * cqe_size + cqe_size - 1] = CQE_INVALID_OWNED;
	return 0;
}

static int mlx5_cq_request(struct mlx5_state *st, struct hw_call *c, union hw_params *p,
			   struct mlx5_obj *o, struct drv_bufs *b)
{
	struct mlx5_ib_create_cq *req = (void *)c->in;
	uint32_t ncqe = p->cq.cqe < (1u << 24) ? uvio_hw_pow2((uint64_t)p->cq.cqe + 1) : 0;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	if (!ncqe || ncqe > (1u << 24))
		return uvio_hw_refuse(c, -EINVAL, "cqe: more than 2^24 - 1 CQEs asked");
	if (!st->uar)
		return uvio_hw_refuse(c, st->uar_error ? st->uar_error : -EOPNOTSUPP,
			      "the context has no UAR page for the CQ's doorbell");
	if (st->dyn_uar && st->uar_page_id > UINT16_MAX)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "UAR page id past 16 bits (needs the UAR index attribute)");
	if (st->cqe_size_bad)
		return uvio_hw_refuse(c, -EINVAL, "MLX5_CQE_SIZE: neither 64 nor 128");
	if (mlx5_cq_buf_alloc(st, o, ncqe, st->cqe_size))
		return -ENOMEM;
	o->db = mlx5_db_alloc(st);
	if (!o->db)
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->buf_addr = (uintptr_t)o->buf;
	req->db_addr = (uintptr_t)o->db;
	req->cqe_size = o->cqe_size;
	if (st->dyn_uar) {
		req->flags = MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX;
		req->uar_page_index = (uint16_t)st->uar_page_id;
	}
	p->cq.cqe = ncqe - 1;	/* the entries the buffer holds, as libmlx5 says it */
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct mlx5_ib_create_cq_resp));
}

/* QP */

static int mlx5_send_overhead(uint32_t type)
{
	switch (type) {
	case IB_UVERBS_QPT_RC:
	case IB_UVERBS_QPT_UC:
		/* The largest of RDMA (ctrl + raddr), atomics (+ atomic) and a
		 * memory-window bind or local invalidate (ctrl + UMR ctrl +
		 * mkey context + KLM): every opcode these QPs take. */
		return SEG_CTRL + SEG_UMR_CTRL + SEG_MKEY_CONTEXT + SEG_UMR_KLM;
	case IB_UVERBS_QPT_UD:
		return SEG_CTRL + SEG_DATAGRAM;
	default:
		return -1;
	}
}

static int mlx5_qp_sizes(const struct mlx5_state *st, union hw_params *p, struct mlx5_obj *o,
		    const char **why)
{
	struct ib_uverbs_qp_cap *cap = &p->qp.cap;
	int overhead = mlx5_send_overhead(p->qp.type);
	size_t rq = 0, sq = 0;

	if (overhead < 0) {
		*why = "the library's mlx5 half makes RC, UC and UD QPs; pass driver data for others";
		return -EOPNOTSUPP;
	}
	if (cap->max_recv_wr && !p->qp.srq) {
		uint32_t wqe = uvio_hw_pow2((uint64_t)SEG_DATA * (cap->max_recv_sge ? cap->max_recv_sge : 1));

		if (cap->max_recv_wr > st->resp.max_recv_wr) {
			*why = "cap.max_recv_wr past the context's max_recv_wr";
			return -EINVAL;
		}
		if (!wqe || wqe > st->resp.max_rq_desc_sz) {
			*why = "cap.max_recv_sge past what a receive WQE holds (max_rq_desc_sz)";
			return -EINVAL;
		}
		rq = (size_t)uvio_hw_pow2(cap->max_recv_wr) * wqe;
		if (rq < SEND_WQE_BB)
			rq = SEND_WQE_BB;
		o->rq_wqe_cnt = (uint32_t)(rq / wqe);
		o->rq_wqe_shift = mlx5_log2(wqe);
	}
	if (cap->max_send_wr) {
		/* Each of the caller's numbers is held to the device's limit
		 * before it enters a sum: none can wrap. */
		uint64_t size = (uint32_t)overhead, inl = 0, wqe, total;

		if (size > st->resp.max_sq_desc_sz) {
			*why = "the context's max_sq_desc_sz is smaller than a send WQE's header";
			return -EINVAL;
		}
		if (cap->max_send_sge > (st->resp.max_sq_desc_sz - size) / SEG_DATA) {
			*why = "cap.max_send_sge past what a send WQE holds (max_sq_desc_sz)";
			return -EINVAL;
		}
		if (cap->max_inline_data > st->resp.max_sq_desc_sz) {
			*why = "cap.max_inline_data past the largest send WQE (max_sq_desc_sz)";
			return -EINVAL;
		}
		if (cap->max_inline_data)
			inl = size + ((SEG_INLINE_HDR + (uint64_t)cap->max_inline_data + 15) & ~15ull);
		size += (uint64_t)cap->max_send_sge * SEG_DATA;
		if (inl > size)
			size = inl;
		if (size > st->resp.max_sq_desc_sz) {
			*why = "cap.max_inline_data past the largest send WQE (max_sq_desc_sz)";
			return -EINVAL;
		}
		wqe = (size + SEND_WQE_BB - 1) & ~(uint64_t)(SEND_WQE_BB - 1);
		total = (uint64_t)cap->max_send_wr * wqe;
		if (cap->max_send_wr > 0x7fffffffu / st->resp.max_sq_desc_sz ||
		    !uvio_hw_pow2(total) || uvio_hw_pow2(total) / SEND_WQE_BB > st->resp.max_send_wqebb) {
			*why = "cap.max_send_wr past the context's max_send_wqebb";
			return -EINVAL;
		}
		sq = uvio_hw_pow2(total);
		o->sq_wqe_cnt = (uint32_t)(sq / SEND_WQE_BB);
		/* What fits in the WQE, as the kernel is told. */
		cap->max_inline_data = (uint32_t)wqe - (uint32_t)overhead - SEG_INLINE_HDR;
	}
	o->sq_offset = (uint32_t)rq;
	o->buf_len = rq + sq;
	return 0;
}

static int mlx5_qp_request(struct mlx5_state *st, struct hw_call *c, union hw_params *p,
			   struct mlx5_obj *o, struct drv_bufs *b)
{
	struct mlx5_ib_create_qp *req = (void *)c->in;
	const char *why = NULL;
	int ret;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	_Static_assert(sizeof(struct mlx5_ib_create_qp_resp) <= sizeof(c->out), "room");
	if (!st->uar)
		return uvio_hw_refuse(c, st->uar_error ? st->uar_error : -EOPNOTSUPP,
			      "the context has no UAR page for the QP's doorbell");
	ret = mlx5_qp_sizes(st, p, o, &why);
	if (ret)
		return uvio_hw_refuse(c, ret, why);
	if (o->buf_len) {
		o->buf = uvio_hw_queue_alloc(o->buf_len, st->page, &o->map_len);
		if (!o->buf)
			return -ENOMEM;
	}
	uvio_hw_lock(&st->base);
	o->db = mlx5_db_alloc_locked(st);
	ret = o->db ? 0 : -ENOMEM;
	if (!ret && st->resp.cqe_version) {
		ret = mlx5_uidx_alloc(st, &o->uidx);
		o->has_uidx = !ret;
	}
	uvio_hw_unlock(&st->base);
	if (ret)
		return uvio_hw_refuse(c, ret, ret == -ENOSPC ? "no free user index" : "no memory");
	memset(req, 0, sizeof(*req));
	req->buf_addr = (uintptr_t)o->buf;
	req->db_addr = (uintptr_t)o->db;
	req->sq_wqe_count = o->sq_wqe_cnt;
	req->rq_wqe_count = o->rq_wqe_cnt;
	req->rq_wqe_shift = o->rq_wqe_shift;
	/* Small receives may land in the CQE (the kernel drops the flag
	 * where the device cannot). */
	req->flags = MLX5_QP_FLAG_SCATTER_CQE;
	req->uidx = o->has_uidx ? o->uidx : DEFAULT_UIDX;
	if (st->dyn_uar) {
		req->flags |= MLX5_QP_FLAG_UAR_PAGE_INDEX;
		req->bfreg_index = st->uar_page_id;
	}
	if (st->resp.comp_mask & MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_ECE)
		req->ece_options = ECE_VERSION_1;
	o->flags = req->flags;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct mlx5_ib_create_qp_resp));
}

/* SRQ */

static int mlx5_srq_request(struct mlx5_state *st, struct hw_call *c, union hw_params *p,
			    struct mlx5_obj *o, struct drv_bufs *b)
{
	struct mlx5_ib_create_srq *req = (void *)c->in;
	uint32_t wqe, entries, max_wr = p->srq.max_wr;

	_Static_assert(sizeof(*req) <= sizeof(c->in), "room for the request");
	if (p->srq.type != IB_UVERBS_SRQT_BASIC)
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "the library's mlx5 half makes basic SRQs; pass driver data for others");
	if (max_wr > st->resp.max_srq_recv_wr)
		return uvio_hw_refuse(c, -EINVAL, "max_wr past the context's max_srq_recv_wr");
	if (p->srq.max_sge > st->resp.max_rq_desc_sz / SEG_DATA)
		return uvio_hw_refuse(c, -EINVAL,
				      "max_sge past what a receive WQE holds (max_rq_desc_sz)");
	wqe = SEG_SRQ_NEXT + p->srq.max_sge * SEG_DATA;
	wqe = uvio_hw_pow2(wqe < 32 ? 32 : wqe);
	/* A wait queue behind the receives, where the device has room. */
	entries = (uint64_t)max_wr * 2 + 1 <= st->resp.max_srq_recv_wr ? max_wr * 2 + 1 : max_wr + 1;
	entries = uvio_hw_pow2(entries);
	if (!entries || entries > (1u << 16))	/* the free list's indices are 16 bits */
		return uvio_hw_refuse(c, -EINVAL, "max_wr past the 2^16 WQEs of an SRQ's free list");
	o->rq_wqe_cnt = entries;
	o->rq_wqe_shift = mlx5_log2(wqe);
	o->buf_len = (size_t)entries * wqe;
	o->buf = uvio_hw_queue_alloc(o->buf_len, st->page, &o->map_len);
	if (!o->buf)
		return -ENOMEM;
	/* Each WQE's next segment starts with the index of the next, big
	 * endian after two reserved bytes: the free list. */
	for (uint32_t i = 0; i < entries; i++) {
		uint8_t *next = (uint8_t *)o->buf + (size_t)i * wqe;
		uint16_t n = (uint16_t)((i + 1) & (entries - 1));

		next[2] = (uint8_t)(n >> 8);
		next[3] = (uint8_t)n;
	}
	o->db = mlx5_db_alloc(st);
	if (!o->db)
		return -ENOMEM;
	memset(req, 0, sizeof(*req));
	req->buf_addr = (uintptr_t)o->buf;
	req->db_addr = (uintptr_t)o->db;
	/* The kernel sizes the pinned buffer from these. */
	p->srq.max_wr = entries - 1;
	p->srq.max_sge = (wqe - SEG_SRQ_NEXT) / SEG_DATA;
	return uvio_hw_hand_over(c, b, sizeof(*req), sizeof(struct mlx5_ib_create_srq_resp));
}

static int mlx5_request(struct uvio_device *dev, struct hw_state *base, struct hw_call *c,
			union hw_params *p, struct hw_obj *obj, struct drv_bufs *b)
{
	struct mlx5_state *st = (struct mlx5_state *)base;
	struct mlx5_obj *o = (struct mlx5_obj *)obj;

	(void)dev;
	switch (c->verb) {
	case HW_PD:
		return uvio_hw_hand_over(c, b, 0, sizeof(struct mlx5_ib_alloc_pd_resp));
	case HW_AH:
		/* Kernels that answer with the destination MAC say so. */
		if (!(st->resp.cmds_supp_uhw & MLX5_USER_CMDS_SUPP_UHW_CREATE_AH))
			return 0;
		return uvio_hw_hand_over(c, b, 0, sizeof(struct mlx5_ib_create_ah_resp));
	case HW_CQ:
		return mlx5_cq_request(st, c, p, o, b);
	case HW_CQ_RESIZE:
		/* A resize hands the hardware a new buffer; the completions
		 * not yet polled in the old one must be carried over by
		 * whoever polls the CQ, who alone knows the consumer index
		 * and sees the resize entry that marks the switch. This half
		 * does not poll (a caller, libmlx5 or the data path may), so
		 * it cannot, and freeing the old buffer would pull it from
		 * under the poller. */
		return uvio_hw_refuse(c, -EOPNOTSUPP,
			      "only the CQ's poller can carry the completions not yet polled "
			      "into a new buffer; pass driver data (struct mlx5_ib_resize_cq) "
			      "with the poller's new buffer");
	case HW_QP:
		return mlx5_qp_request(st, c, p, o, b);
	case HW_SRQ:
		return mlx5_srq_request(st, c, p, o, b);
	default:
		return 0;
	}
}

static void mlx5_answer(struct uvio_device *dev, struct hw_state *st, const struct hw_call *c,
			struct hw_obj *obj)
{
	struct mlx5_obj *o = (struct mlx5_obj *)obj;

	(void)dev;
	(void)st;
	switch (c->verb) {
	case HW_PD:	/* pdn */
	case HW_CQ:	/* cqn */
	case HW_SRQ:	/* srqn: each the answer's first word */
		memcpy(&o->num, c->out, sizeof(o->num));
		break;
	case HW_QP:
		memcpy(&o->bfreg_index, (const uint8_t *)c->out +
		       offsetof(struct mlx5_ib_create_qp_resp, bfreg_index),
		       sizeof(o->bfreg_index));
		break;
	case HW_AH:
		memcpy(o->dmac, (const uint8_t *)c->out +
		       offsetof(struct mlx5_ib_create_ah_resp, dmac), sizeof(o->dmac));
		break;
	default:
		break;
	}
}

static void mlx5_describe(const struct hw_state *base, const struct hw_obj *obj,
			  struct uvio_hw_object *out)
{
	const struct mlx5_state *st = (const struct mlx5_state *)base;
	const struct mlx5_obj *o = (const struct mlx5_obj *)obj;
	const uint8_t *buf = o->buf;

	out->num = o->num;
	switch (obj->kind) {
	case HW_CQ:
		uvio_hw_region_add(out, UVIO_HW_MEM_CQ, 0, buf, o->buf_len);
		break;
	case HW_QP:	/* the receive queue first, then the send queue */
		uvio_hw_region_add(out, UVIO_HW_MEM_RQ, 0, buf, o->sq_offset);
		if (buf)
			uvio_hw_region_add(out, UVIO_HW_MEM_SQ, 0, buf + o->sq_offset,
					   o->buf_len - o->sq_offset);
		break;
	case HW_SRQ:
		uvio_hw_region_add(out, UVIO_HW_MEM_SRQ, 0, buf, o->buf_len);
		break;
	default:
		return;
	}
	uvio_hw_region_add(out, UVIO_HW_MEM_DBREC, 0, o->db, 8);
	if (obj->kind != HW_SRQ)	/* the UAR page the request named */
		uvio_hw_region_add(out, UVIO_HW_MEM_DOORBELL, UVIO_HW_MEM_OF_DEVICE, st->uar,
				   st->dyn_uar ? st->uar_len : st->page);
}

const struct hw_ops uvio_hw_mlx5 = {
	.driver = "mlx5",
	.state_size = sizeof(struct mlx5_state),
	.obj_size = sizeof(struct mlx5_obj),
	.context_request = mlx5_context_request,
	.context_answer = mlx5_context_answer,
	.context_release = mlx5_context_release,
	.request = mlx5_request,
	.answer = mlx5_answer,
	.obj_release = mlx5_obj_release,
	.describe = mlx5_describe,
};

/* Why a query answers nothing: the device, or the library's records. */
static int mlx5_query_failed(const char *fn, struct uvio_device *dev, int err, const char *why)
{
	return uvio_fail(LOG_DEBUG, err, "%s: %s: %s: %s", fn, dev ? dev->name : "(no device)",
			 uvio_errno_name(err), why);
}

static int mlx5_query_check(const char *fn, struct uvio_device *dev, const void *out)
{
	if (!dev)
		return mlx5_query_failed(fn, dev, -EINVAL, "argument dev: NULL");
	if (!out || *(const size_t *)out < sizeof(size_t))
		return mlx5_query_failed(fn, dev, -EINVAL, "the output: NULL, or its sz unset");
	if (dev->driver_id != RDMA_DRIVER_MLX5)
		return mlx5_query_failed(fn, dev, -ENODEV, "not an mlx5 device");
	if (!mlx5_state_of(dev))
		return mlx5_query_failed(fn, dev, -ENOENT,
				    "no context the library made on this handle");
	return 0;
}

UVIO_API int uvio_mlx5_query_context(struct uvio_device *dev, struct uvio_mlx5_context *out)
{
	struct mlx5_state *st;
	const struct mlx5_ib_alloc_ucontext_resp *r;
	int ret = mlx5_query_check("uvio_mlx5_query_context", dev, out);

	if (ret)
		return ret;
	st = mlx5_state_of(dev);
	r = &st->resp;
#define SET(f, v) do { if (out->sz >= offsetof(struct uvio_mlx5_context, f) + sizeof(out->f)) out->f = (v); } while (0)
	SET(cqe_version, r->cqe_version);
	SET(tot_bfregs, r->tot_bfregs);
	SET(num_dyn_bfregs, r->num_dyn_bfregs);
	SET(bf_reg_size, r->bf_reg_size);
	SET(cache_line_size, r->cache_line_size);
	SET(max_sq_desc_sz, r->max_sq_desc_sz);
	SET(max_rq_desc_sz, r->max_rq_desc_sz);
	SET(max_send_wqebb, r->max_send_wqebb);
	SET(max_recv_wr, r->max_recv_wr);
	SET(max_srq_recv_wr, r->max_srq_recv_wr);
	SET(qp_tab_size, r->qp_tab_size);
	SET(num_ports, r->num_ports);
	SET(cmds_supp_uhw, r->cmds_supp_uhw);
	SET(eth_min_inline, r->eth_min_inline);
	SET(log_uar_size, r->log_uar_size);
	SET(num_uars_per_page, r->num_uars_per_page);
	SET(comp_mask, r->comp_mask);
	SET(flow_action_flags, r->flow_action_flags);
	SET(clock_info_versions, r->clock_info_versions);
	SET(dump_fill_mkey, r->dump_fill_mkey);
	SET(hca_core_clock_offset, r->hca_core_clock_offset);
	SET(uar, st->uar);
	SET(uar_page_id, st->uar_page_id);
	SET(dynamic_uar, st->dyn_uar);
#undef SET
	return 0;
}

UVIO_API int uvio_mlx5_query_object(struct uvio_device *dev, uint16_t object, uint32_t handle,
				    struct uvio_mlx5_object *out)
{
	struct mlx5_state *st;
	struct mlx5_obj *o;
	struct uvio_mlx5_object v;
	enum hw_verb kind;

	int ret = mlx5_query_check("uvio_mlx5_query_object", dev, out);

	if (ret)
		return ret;
	if (!uvio_hw_kind_of(object, &kind))
		return mlx5_query_failed("uvio_mlx5_query_object", dev, -EINVAL,
					 "argument object: not PD, CQ, QP, SRQ or AH");
	st = mlx5_state_of(dev);
	memset(&v, 0, sizeof(v));
	uvio_hw_lock(&st->base);
	o = (struct mlx5_obj *)uvio_hw_obj_find(&st->base, kind, handle);
	if (o) {
		v.num = o->num;
		v.uidx = o->has_uidx ? o->uidx : DEFAULT_UIDX;
		v.buf = o->buf;
		v.buf_len = o->buf_len;
		v.dbrec = o->db;
		v.cqe_size = o->cqe_size;
		v.ncqe = o->ncqe;
		v.rq_wqe_cnt = o->rq_wqe_cnt;
		v.rq_wqe_shift = o->rq_wqe_shift;
		v.sq_wqe_cnt = o->sq_wqe_cnt;
		v.sq_offset = o->sq_offset;
		v.bfreg_index = o->bfreg_index;
		v.flags = o->flags;
		memcpy(v.dmac, o->dmac, sizeof(v.dmac));
		/* The registers of the page the create named (dynamic UARs:
		 * the UAR object's; static: the CQ's is page 0's, a QP's the
		 * kernel picked, which is not said here). */
		if (kind == HW_CQ && st->uar) {
			v.reg = (uint8_t *)st->uar + UAR_CQ_DB;
		} else if (kind == HW_QP && st->uar && st->dyn_uar) {
			v.reg = (uint8_t *)st->uar + UAR_BF;
			v.bf_size = st->resp.bf_reg_size / 2;
			v.bf_wc = st->uar_wc;
		}
	}
	uvio_hw_unlock(&st->base);
	if (!o)
		return mlx5_query_failed("uvio_mlx5_query_object", dev, -ENOENT,
				    "argument handle: no object the library keeps (destroyed, or "
				    "made with the caller's driver data)");
	/* The caller's sz stays; what lies inside it is written. */
	memcpy((char *)out + sizeof(size_t), (const char *)&v + sizeof(size_t),
	       (out->sz < sizeof(v) ? out->sz : sizeof(v)) - sizeof(size_t));
	return 0;
}
