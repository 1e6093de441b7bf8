// SPDX-License-Identifier: MIT
/*
 * mlx5's queues (ConnectX-4 and later, the kernel's mlx5_ib). Unlike rxe's
 * and siw's, they are the process's own memory: lib/hw's mlx5 half
 * allocated each CQ's, QP's and SRQ's buffer and doorbell record, and
 * mapped the context's UAR page, when the create verb went out without
 * driver data; the map ops here ask it where they lie
 * (uvio_mlx5_query_object(), uvio_mlx5_query_context()). The formats are
 * the hardware's, as rdma-core's libmlx5 writes and reads them:
 *
 *  - Send: a WQE is 16-byte segments in 64-byte basic blocks (BBs), at BB
 *    cur_post & (wqe_cnt - 1), its data free to wrap to BB 0: the control
 *    segment (big-endian opmod<<24 | index<<8 | opcode; qpn<<8 | ds, ds the
 *    WQE's length in 16-byte units; fm_ce_se at byte 11; the immediate or
 *    the rkey to invalidate), then a remote address segment (RDMA, atomics),
 *    an atomic segment, or the 48-byte address vector (UD), then either
 *    inline data (be32 length | 0x80000000, the bytes, padded to 16) or a
 *    data segment per non-empty SGE (be32 length, be32 lkey, be64 address).
 *    cur_post counts BBs. The queue is full when the next WQE's BBs are
 *    not free or cap.max_send_wr WQEs are outstanding: the ring is sized
 *    for max_send_wr of the largest WQE, and one-BB WQEs would otherwise
 *    overrun a CQ sized for max_send_wr (libmlx5 bounds its posts so too).
 *  - Doorbell: the WQEs, a barrier, the send doorbell record (dbrec[1] =
 *    cur_post & 0xffff), then the first 8 bytes of the last WQE's control
 *    segment written as one 64-bit store to the UAR page at 0x800. This
 *    layer uses that 8-byte doorbell on the context's non-cached UAR page
 *    and never BlueFlame (the whole WQE copied into a write-combining
 *    register): BlueFlame saves the device one read of the WQE, but needs
 *    the QP's own blue-flame register, its size and the alternating offset
 *    libmlx5 keeps, which the library's half does not hand out (it gives
 *    every QP the one non-cached page). The doorbell is rung under the send
 *    queue's lock, so that the record and the register never go backwards.
 *  - Receive: a WQE of 1 << rq_wqe_shift bytes at head & (wqe_cnt - 1): a
 *    data segment per non-empty SGE, then, when there is room, the
 *    terminator {0, lkey 0x100, 0}; dbrec[0] = head & 0xffff. No register.
 *  - SRQ: WQEs in a list (each starts with a 16-byte next segment, the next
 *    index big-endian at byte 2), taken from the head, given back at the
 *    tail by the completion's wqe_counter; one WQE always stays out (head
 *    == tail: full); dbrec[0] = the count posted.
 *  - CQ: 64-byte CQEs; entry n is software's when its opcode (op_own >> 4)
 *    is not 15 and its owner bit (op_own & 1) equals n's lap bit (n & nent);
 *    dbrec[0] = the consumer index & 0xffffff after a poll. A requester CQE
 *    names the WQE by its index (wqe_counter), which retires every WQE
 *    before it; a responder CQE names the receive (the RQ's counter, or the
 *    SRQ WQE). Errors carry a syndrome (byte 55) and the vendor's (54).
 *  - Arm: v = (arm_sn & 3) << 28 | solicited << 24 | ci, dbrec[1] = v, then
 *    {v, cqn} as one 64-bit big-endian store at 0x20 of the UAR page.
 *
 * The hardware's completions carry no work request id: each queue keeps
 * its ids (and, for sends, where each WQE ends, so that a completion frees
 * every block before it) in a table of this layer's, anonymous memory
 * mapped at create in the ring's map (so that destroy's unmap frees it).
 * A CQ finds the QP a CQE names in a table of QPs by device and QP number,
 * a spin lock per bucket, held while the CQE is read into a completion, so
 * that a destroy (which unlinks the QP first) never pulls a QP from under
 * a poll. Nothing is allocated on the post and poll paths.
 */
#include <endian.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <uvio/mlx5.h>

#include "dp.h"

/* The hardware's numbers. */
enum {
	BB = 64,			/* a send WQE is whole basic blocks */
	SEG = 16,			/* every segment is whole 16-byte units */
	CQE64 = 64,			/* the CQE; a 128-byte entry's second half */
	MAX_DS = 0x3f,			/* a WQE's length field, in 16-byte units */
	UAR_SEND_DB = 0x800,		/* the doorbell register of a UAR page */
	UAR_CQ_ARM = 0x20,		/* the CQ doorbell of a UAR page */
	DBR_RCV = 0,			/* a QP's doorbell record: receive counter */
	DBR_SND = 1,			/* and send counter */
	CQ_SET_CI = 0,			/* a CQ's doorbell record: consumer index */
	CQ_ARM = 1,			/* and the arm request */
	CQ_ARM_SOLICITED = 1u << 24,
	INVALID_LKEY = 0x100,		/* ends a receive WQE's scatter list */
	INLINE_SEG = 0x80000000u,
	EXT_UD_AV = 0x80000000u,	/* the address vector is the 48-byte one */
	AV_SIZE = 48,
	/* fm_ce_se */
	CTRL_FENCE = 0x80,		/* fence mode 4: fence and initiator small fence */
	CTRL_SMALL_FENCE = 0x20,	/* fence mode 1: initiator small fence */
	CTRL_CQ_UPDATE = 0x08,
	CTRL_SOLICITED = 0x02,
	/* WQE opcodes */
	OP_SEND_INVAL = 0x01,
	OP_RDMA_WRITE = 0x08,
	OP_RDMA_WRITE_IMM = 0x09,
	OP_SEND = 0x0a,
	OP_SEND_IMM = 0x0b,
	OP_RDMA_READ = 0x10,
	OP_ATOMIC_CS = 0x11,
	OP_ATOMIC_FA = 0x12,
	OP_UMR = 0x25,			/* a memory window's bind or invalidation */
	/* UMR control segment (48 bytes): flags, KLM octowords, mkey mask */
	UMR_INLINE = 0x80,		/* the translation follows in the WQE */
	UMR_CHECK_FREE = 0x20,		/* a type 2 bind: the window must be free */
	UMR_TRANSLATION_OFFSET = 0x10,
	UMR_CHECK_QPN = 0x08,		/* a type 2 invalidation: bound to this QP */
	UMR_CTRL_SIZE = 48,
	MKEY_CTX_SIZE = 64,		/* the mkey context segment */
	KLM_BLOCK = 64,			/* one KLM, padded to the 64-byte block */
	MKEY_FREE = 0x40,		/* mkey context byte 0 */
	/* mkey context byte 2: the access the window grants */
	MKEY_ATOMIC = 0x40,
	MKEY_REMOTE_WRITE = 0x20,
	MKEY_REMOTE_READ = 0x10,
	MKEY_LOCAL_WRITE = 0x08,
	/* UMR mkey mask: the mkey context fields the UMR writes */
	MASK_LEN = 1u << 0,
	MASK_START_ADDR = 1u << 6,
	MASK_MKEY = 1u << 13,		/* the key's low byte (its tag) */
	MASK_QPN = 1u << 14,
	MASK_LOCAL_WRITE = 1u << 18,
	MASK_REMOTE_READ = 1u << 19,
	MASK_REMOTE_WRITE = 1u << 20,
	MASK_ATOMIC = 1u << 21,
	MASK_FREE = 1u << 29,
	/* CQE opcodes (op_own >> 4) */
	CQE_REQ = 0,
	CQE_RESP_WR_IMM = 1,
	CQE_RESP_SEND = 2,
	CQE_RESP_SEND_IMM = 3,
	CQE_RESP_SEND_INV = 4,
	CQE_RESIZE = 5,
	CQE_REQ_ERR = 13,
	CQE_RESP_ERR = 14,
	CQE_INVALID = 15,
	CQE_OWNER = 0x01,
	CQE_SCATTER_32 = 0x04,		/* the data (<= 32 bytes) lies in the CQE */
	CQE_SCATTER_64 = 0x08,		/* in the 64 bytes before it: 128-byte CQEs only */
	/* CQE offsets */
	CQE_ML_PATH = 17,
	CQE_SLID = 22,
	CQE_FLAGS_RQPN = 24,
	CQE_IMM = 36,
	CQE_BYTE_CNT = 44,
	CQE_VENDOR_SYND = 54,
	CQE_SYNDROME = 55,
	CQE_SOP_QPN = 56,
	CQE_WQE_COUNTER = 60,
	CQE_OP_OWN = 63,
	/* RoCE v2's UDP source ports */
	ROCE_SPORT_MIN = 0xc000,
	LINK_LAYER_ETHERNET = 2,	/* the kernel's IB_LINK_LAYER_ETHERNET (no UAPI name) */
};

/*
 * Barriers between this process and the device (rdma-core's
 * util/udma_barrier.h says why each is what it is): to_device orders the
 * WQE's stores before the doorbell record's; from_device orders the read
 * of a CQE's owner byte before the reads of the rest; done_reading orders
 * the reads of the CQEs polled before the consumer index that frees them;
 * mmio_flush pushes the register's store out of a write-combining buffer.
 * x86's stores and loads are ordered already (the UAR page is uncached or
 * write-combining, which sfence flushes).
 */
#if defined(__x86_64__) || defined(__i386__)
#define to_device() __asm__ volatile("" ::: "memory")
#define from_device() __asm__ volatile("" ::: "memory")
#define done_reading() __asm__ volatile("" ::: "memory")
#define mmio_flush() __asm__ volatile("sfence" ::: "memory")
#elif defined(__aarch64__)
#define to_device() __asm__ volatile("dmb oshst" ::: "memory")
#define from_device() __asm__ volatile("dmb oshld" ::: "memory")
#define done_reading() __asm__ volatile("dmb osh" ::: "memory")
#define mmio_flush() __asm__ volatile("dsb st" ::: "memory")
#else
#define to_device() __sync_synchronize()
#define from_device() __sync_synchronize()
#define done_reading() __sync_synchronize()
#define mmio_flush() __sync_synchronize()
#endif

/* Big-endian stores and loads at any offset of a WQE or CQE. */
static inline void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static inline void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static inline uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static inline uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return be16toh(v);
}

/* A doorbell record's word, stored once. */
static inline void dbrec_set(uint32_t *rec, uint32_t v)
{
	__atomic_store_n(rec, htobe32(v), __ATOMIC_RELAXED);
}

/*
 * This layer's tables, one per queue, in anonymous memory at the ring's
 * map: a header, then an entry per WQE slot (BB, for sends).
 */
enum side_kind { SIDE_CQ = 1, SIDE_SQ, SIDE_RQ, SIDE_SRQ };

struct cq_side {
	uint32_t kind;
	uint32_t cqn;
	uint32_t arm_sn;		/* stepped at every arm */
	uint32_t reserved;
	volatile uint64_t *arm_reg;	/* UAR + 0x20 */
};

struct sq_slot {
	uint64_t wr_id;
	uint32_t end;			/* cur_post after this WQE */
	uint8_t wc_opcode;		/* enum uvio_wc_opcode */
	uint8_t signaled;
	uint16_t seq;			/* WQEs posted, this one included (mod 2^16) */
};

struct sq_side {
	uint32_t kind;
	uint32_t tail;			/* BBs the device is done with (poll's) */
	uint32_t posted;		/* WQEs posted (the posters', under the lock) */
	uint16_t done;			/* WQEs done, mod 2^16 (poll's) */
	uint16_t max_post;		/* WQEs at once: the granted max_send_wr */
	uint32_t qpn;
	uint8_t sig_all;		/* CTRL_CQ_UPDATE when the QP signals every WQE */
	uint8_t fence_next;		/* CTRL_SMALL_FENCE after a UMR WQE: the next one waits */
	uint8_t reserved[2];
	volatile uint64_t *reg;		/* UAR + 0x800 */
	const uint8_t *last;		/* the last WQE posted: its control segment */
	struct sq_slot slot[];
};

/*
 * Room for a WQE of nbb blocks at cur: the ring has the blocks, and fewer
 * than max_send_wr WQEs are outstanding. The second bound is the caller's
 * contract with its CQ: a CQ sized for max_send_wr completions must not
 * overrun, even when WQEs of one block leave the ring (sized for the
 * largest WQE) room for many more.
 */
static inline bool sq_full(const struct sq_side *s, uint32_t entries, uint32_t cur, uint32_t nbb)
{
	return cur + nbb - __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE) > entries ||
	       (uint16_t)(s->posted - __atomic_load_n(&s->done, __ATOMIC_ACQUIRE)) >= s->max_post;
}

struct rq_side {
	uint32_t kind;
	uint32_t tail;			/* receives completed (poll's) */
	uint32_t max_gs;		/* scatter entries a WQE holds */
	uint32_t reserved;
	uint64_t wr_id[];
};

struct srq_side {
	uint32_t kind;
	uint32_t head, tail;		/* the free list's ends */
	uint32_t max_gs;
	uint64_t wr_id[];
};

/* Anonymous memory for a table; uvio_dp_unmap() frees it. */
static int side_map(struct uvio_dp_ring *r, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(r, 0, sizeof(*r));
	if (p == MAP_FAILED)
		return -errno;
	r->map = p;
	r->map_len = len;
	return 0;
}

static bool pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/*
 * The QPs completions may name, by device and QP number: a chain per
 * bucket through the QP's private room, a lock per bucket. A CQ holds the
 * bucket's lock while it reads a CQE of one of its QPs into a completion;
 * a destroy unlinks its QP under the same lock before the kernel is asked.
 */
#define QP_BUCKETS 256u

static struct {
	uint32_t lock;
	struct uvio_dp_qp *first;
} qp_table[QP_BUCKETS];

static inline struct uvio_dp_qp *qp_next(const struct uvio_dp_qp *qp)
{
	return (struct uvio_dp_qp *)(uintptr_t)qp->reserved2[1];
}

static inline void qp_set_next(struct uvio_dp_qp *qp, struct uvio_dp_qp *next)
{
	qp->reserved2[1] = (uintptr_t)next;
}

static inline uint32_t qp_bucket(const struct uvio_device *dev, uint32_t qpn)
{
	return (qpn ^ (uint32_t)((uintptr_t)dev >> 6)) & (QP_BUCKETS - 1);
}

/* Called with the bucket's lock held. */
static inline struct uvio_dp_qp *qp_find(uint32_t b, const struct uvio_device *dev,
					 uint32_t qpn)
{
	struct uvio_dp_qp *qp;

	for (qp = qp_table[b].first; qp; qp = qp_next(qp))
		if (qp->qp_num == qpn && qp->dev == dev)
			return qp;
	return NULL;
}

static void mlx5_qp_listed(struct uvio_dp_qp *qp, bool listed)
{
	uint32_t b = qp_bucket(qp->dev, qp->qp_num);
	struct uvio_dp_qp **pp;

	uvio_dp_lock(&qp_table[b].lock);
	for (pp = &qp_table[b].first; *pp && *pp != qp;)
		pp = (struct uvio_dp_qp **)(uintptr_t)&(*pp)->reserved2[1];
	if (listed && !*pp) {
		qp_set_next(qp, qp_table[b].first);
		qp_table[b].first = qp;
	} else if (!listed && *pp) {
		*pp = qp_next(qp);
		qp_set_next(qp, NULL);
	}
	uvio_dp_unlock(&qp_table[b].lock);
}

/* Where the library's half put an object's queues, and the UAR page. */
static int half_object(struct uvio_device *dev, uint16_t object, uint32_t handle,
		       struct uvio_mlx5_object *o, struct uvio_mlx5_context *c)
{
	int err;

	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	err = uvio_mlx5_query_object(dev, object, handle, o);
	if (err)
		return err;
	memset(c, 0, sizeof(*c));
	c->sz = sizeof(*c);
	err = uvio_mlx5_query_context(dev, c);
	if (err)
		return err;
	return o->buf && o->dbrec && c->uar ? 0 : -EPROTO;
}

static int mlx5_cq_map(struct uvio_dp_cq *cq, const void *resp)
{
	struct uvio_mlx5_object o;
	struct uvio_mlx5_context c;
	struct uvio_dp_ring *r = &cq->q.ring;
	struct cq_side *s;
	int err;

	(void)resp;
	err = half_object(cq->dev, UVERBS_OBJECT_CQ, cq->handle, &o, &c);
	if (err)
		return err;
	if ((o.cqe_size != CQE64 && o.cqe_size != 2 * CQE64) || !pow2(o.ncqe) ||
	    o.buf_len < (size_t)o.ncqe * o.cqe_size)
		return -EPROTO;
	err = side_map(r, sizeof(*s));
	if (err)
		return err;
	s = r->map;
	s->kind = SIDE_CQ;
	s->cqn = o.num;
	/* The CQ's UAR page: the one its request named (dynamic UARs), or
	 * the first static page, which the kernel gives a CQ that names none. */
	s->arm_reg = (volatile uint64_t *)((uint8_t *)c.uar + UAR_CQ_ARM);
	/* slots: the first CQE64, which a 128-byte entry holds in its
	 * second half (the first is for data scattered to the CQE). */
	r->slots = (uint8_t *)o.buf + o.cqe_size - CQE64;
	r->consumer = (uint32_t *)&o.dbrec[CQ_SET_CI];
	r->producer = (uint32_t *)&o.dbrec[CQ_ARM];
	r->entries = o.ncqe;
	r->mask = o.ncqe - 1;
	r->elem_size = o.cqe_size;
	cq->q.next = 0;		/* the consumer index */
	return 0;
}

/* resp: the create's attributes (dp.h), for the create flags. */
static int mlx5_qp_map(struct uvio_dp_qp *qp, const void *resp)
{
	const struct uvio_qp_init_attr *attr = resp;
	struct uvio_mlx5_object o;
	struct uvio_mlx5_context c;
	struct sq_side *s;
	int err;

	err = half_object(qp->dev, UVERBS_OBJECT_QP, qp->handle, &o, &c);
	if (err)
		return err;
	/* Static UAR pages (kernels before dynamic UARs): the kernel picks
	 * the QP's blue-flame register, on a page the half does not say. */
	if (!c.dynamic_uar)
		return -EOPNOTSUPP;
	if ((o.sq_wqe_cnt && !pow2(o.sq_wqe_cnt)) || (o.rq_wqe_cnt && !pow2(o.rq_wqe_cnt)) ||
	    o.sq_wqe_cnt > 65536 || o.rq_wqe_cnt > 65536 ||
	    (o.rq_wqe_cnt && (o.rq_wqe_shift < 4 || o.rq_wqe_shift > 12)) ||
	    (size_t)o.sq_offset + (size_t)o.sq_wqe_cnt * BB > o.buf_len ||
	    (size_t)o.rq_wqe_cnt << o.rq_wqe_shift > o.sq_offset)
		return -EPROTO;
	err = side_map(&qp->sq.ring, sizeof(*s) + (size_t)o.sq_wqe_cnt * sizeof(s->slot[0]));
	if (err)
		return err;
	s = qp->sq.ring.map;
	s->kind = SIDE_SQ;
	s->qpn = qp->qp_num;
	s->sig_all = attr->create_flags & IB_UVERBS_QP_CREATE_SQ_SIG_ALL ? CTRL_CQ_UPDATE : 0;
	s->reg = (volatile uint64_t *)((uint8_t *)c.uar + UAR_SEND_DB);
	qp->sq.ring.slots = (uint8_t *)o.buf + o.sq_offset;
	qp->sq.ring.producer = (uint32_t *)&o.dbrec[DBR_SND];
	qp->sq.ring.entries = o.sq_wqe_cnt;	/* in basic blocks */
	qp->sq.ring.mask = o.sq_wqe_cnt ? o.sq_wqe_cnt - 1 : 0;
	qp->sq.ring.elem_size = BB;
	qp->sq.next = 0;
	/* The WQEs outstanding at once: what the QP was granted, within the
	 * ring (a WQE is a block at least) and the 16 bits of slot.seq. */
	s->max_post = (uint16_t)(o.sq_wqe_cnt < 0xffff ? o.sq_wqe_cnt : 0xffff);
	if (qp->cap.max_send_wr && qp->cap.max_send_wr < s->max_post)
		s->max_post = (uint16_t)qp->cap.max_send_wr;
	/* What a WQE can hold of inline data: the kernel was told, and
	 * answered, what fits in the largest WQE; the length field caps it. */
	if (qp->sq.max_inline > MAX_DS * SEG - SEG - 4)
		qp->sq.max_inline = MAX_DS * SEG - SEG - 4;
	if (!qp->srq && o.rq_wqe_cnt) {
		struct rq_side *rs;

		err = side_map(&qp->rq.ring, sizeof(*rs) + (size_t)o.rq_wqe_cnt * 8);
		if (err) {
			uvio_dp_unmap(&qp->sq.ring);
			return err;
		}
		rs = qp->rq.ring.map;
		rs->kind = SIDE_RQ;
		rs->max_gs = (1u << o.rq_wqe_shift) / SEG;
		qp->rq.ring.slots = o.buf;
		qp->rq.ring.producer = (uint32_t *)&o.dbrec[DBR_RCV];
		qp->rq.ring.entries = o.rq_wqe_cnt;
		qp->rq.ring.mask = o.rq_wqe_cnt - 1;
		qp->rq.ring.elem_size = 1u << o.rq_wqe_shift;
		qp->rq.next = 0;
	}
	mlx5_qp_listed(qp, true);
	return 0;
}

static int mlx5_srq_map(struct uvio_dp_srq *srq, const void *resp)
{
	struct uvio_mlx5_object o;
	struct uvio_mlx5_context c;
	struct uvio_dp_ring *r = &srq->q.ring;
	struct srq_side *s;
	int err;

	(void)resp;
	err = half_object(srq->dev, UVERBS_OBJECT_SRQ, srq->handle, &o, &c);
	if (err)
		return err;
	/* One WQE is a valid SRQ: max_wr 0 (a zeroed ibv_srq_init_attr, as
	 * rdma-core's tests make) gets 0 x 2 + 1 entries from the half, as
	 * from libmlx5; its head is its tail, so it takes no receive. */
	if (!pow2(o.rq_wqe_cnt) || o.rq_wqe_cnt > 65536 ||
	    o.rq_wqe_shift < 5 || o.rq_wqe_shift > 12 ||
	    (size_t)o.rq_wqe_cnt << o.rq_wqe_shift > o.buf_len)
		return -EPROTO;
	err = side_map(r, sizeof(*s) + (size_t)o.rq_wqe_cnt * 8);
	if (err)
		return err;
	s = r->map;
	s->kind = SIDE_SRQ;
	s->head = 0;			/* the half linked WQE i to i + 1 */
	s->tail = o.rq_wqe_cnt - 1;
	s->max_gs = ((1u << o.rq_wqe_shift) - SEG) / SEG;
	r->slots = o.buf;
	r->producer = (uint32_t *)&o.dbrec[0];
	r->entries = o.rq_wqe_cnt - 1;	/* one WQE always stays out */
	r->mask = o.rq_wqe_cnt - 1;
	r->elem_size = 1u << o.rq_wqe_shift;
	srq->q.next = 0;		/* receives posted: the record's counter */
	return 0;
}

/* Which opcodes each QP type carries, a bit per IB_UVERBS_WR_*. */
#define OP(x) (1u << IB_UVERBS_WR_##x)
#define UD_OPS (OP(SEND) | OP(SEND_WITH_IMM))
#define UC_OPS (UD_OPS | OP(RDMA_WRITE) | OP(RDMA_WRITE_WITH_IMM) | OP(LOCAL_INV) | OP(BIND_MW))
#define RC_OPS (UC_OPS | OP(SEND_WITH_INV) | OP(RDMA_READ) | OP(ATOMIC_CMP_AND_SWP) | \
		OP(ATOMIC_FETCH_AND_ADD))

static uint32_t mlx5_opcodes(uint32_t type)
{
	return type == IB_UVERBS_QPT_RC ? RC_OPS :
	       type == IB_UVERBS_QPT_UC ? UC_OPS :
	       type == IB_UVERBS_QPT_UD ? UD_OPS : 0;
}

/* The WQE opcode and the completion's, per IB_UVERBS_WR_*. */
static const struct {
	uint8_t op, wc;
} wr_ops[] = {
	[IB_UVERBS_WR_RDMA_WRITE] = { OP_RDMA_WRITE, UVIO_WC_RDMA_WRITE },
	[IB_UVERBS_WR_RDMA_WRITE_WITH_IMM] = { OP_RDMA_WRITE_IMM, UVIO_WC_RDMA_WRITE },
	[IB_UVERBS_WR_SEND] = { OP_SEND, UVIO_WC_SEND },
	[IB_UVERBS_WR_SEND_WITH_IMM] = { OP_SEND_IMM, UVIO_WC_SEND },
	[IB_UVERBS_WR_RDMA_READ] = { OP_RDMA_READ, UVIO_WC_RDMA_READ },
	[IB_UVERBS_WR_ATOMIC_CMP_AND_SWP] = { OP_ATOMIC_CS, UVIO_WC_COMP_SWAP },
	[IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD] = { OP_ATOMIC_FA, UVIO_WC_FETCH_ADD },
	[IB_UVERBS_WR_SEND_WITH_INV] = { OP_SEND_INVAL, UVIO_WC_SEND },
	[IB_UVERBS_WR_LOCAL_INV] = { OP_UMR, UVIO_WC_LOCAL_INV },
	[IB_UVERBS_WR_BIND_MW] = { OP_UMR, UVIO_WC_BIND_MW },
};

/* The next 16-byte unit of the send queue after p, wrapping to BB 0. */
static inline uint8_t *sq_step(const struct uvio_dp_ring *r, uint8_t *p)
{
	p += SEG;
	return p == r->slots + (size_t)r->entries * BB ? r->slots : p;
}

/* Inline bytes from p on, wrapping; returns where they end. */
static uint8_t *copy_wrapping(const struct uvio_dp_ring *r, uint8_t *p,
			      const struct uvio_dp_sge *sge, uint32_t n)
{
	uint8_t *end = r->slots + (size_t)r->entries * BB;

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *from = (const uint8_t *)(uintptr_t)sge[i].addr;
		size_t len = sge[i].length;

		while (len) {
			size_t k = (size_t)(end - p) < len ? (size_t)(end - p) : len;

			memcpy(p, from, k);
			p += k;
			from += k;
			len -= k;
			if (p == end)
				p = r->slots;
		}
	}
	return p;
}

/*
 * BIND_MW and LOCAL_INV: a UMR WQE, as a ConnectX takes it (the PRM's UMR;
 * libmlx5's set_bind_wr writes the same). The control segment's immediate
 * is the window's key in force (the key to invalidate). Then, each in its
 * own 64 bytes so that only whole basic blocks wrap: the UMR control
 * segment (48 bytes: flags, be16 KLM octowords at 4, be64 mkey mask at 8),
 * the mkey context (64: free at byte 0, access at 2, be32 QPN << 8 | the
 * new key's low byte at 4, be64 start at 16, be64 length at 24) and, for
 * a bind of a non-zero length, one KLM (be32 byte count, be32 the MR's
 * lkey, be64 address) padded to 64. A type 2 window is bound to this QP
 * (its QPN in the context, a bind checks it is free, an invalidation that
 * it is bound here); a type 1 window and an invalidation name QPN 0xffffff.
 * Local read is the kernel's to set: the context carries the rest.
 */
static int post_umr(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr, uint8_t fm)
{
	struct uvio_dp_ring *r = &qp->sq.ring;
	struct sq_side *s = r->map;
	bool bind = wr->opcode == IB_UVERBS_WR_BIND_MW;
	bool type2 = !bind || !(wr->flags & UVIO_DP_SEND_MW_TYPE_1);
	uint64_t length = bind ? wr->bind_mw.length : 0;
	uint32_t access = bind ? wr->bind_mw.access : 0;
	uint32_t nbb = length ? 3 : 2, cur = qp->sq.next, mask, flags;
	uint8_t *ctrl, *u, *m, *k, acc = 0;
	struct sq_slot *slot;

	/* A KLM's byte count is 32 bits, and the device takes up to 2 GiB. */
	if (length > 1ull << 31)
		return -EOPNOTSUPP;
	if (sq_full(s, r->entries, cur, nbb))
		return -ENOSPC;
	ctrl = r->slots + (size_t)(cur & r->mask) * BB;
	u = ctrl + SEG;
	m = r->slots + (size_t)((cur + 1) & r->mask) * BB;
	put32(ctrl, (cur & 0xffff) << 8 | OP_UMR);
	put32(ctrl + 4, s->qpn << 8 | nbb * (BB / SEG));
	memset(ctrl + 8, 0, 3);			/* signature, stream id */
	ctrl[11] = fm;
	put32(ctrl + 12, bind ? wr->bind_mw.mw_rkey : wr->invalidate_rkey);

	flags = UMR_INLINE | UMR_TRANSLATION_OFFSET;
	mask = MASK_FREE | MASK_MKEY | (type2 ? MASK_QPN : 0);
	if (length) {
		flags |= type2 ? UMR_CHECK_FREE : 0;
		mask |= MASK_LEN | MASK_START_ADDR | MASK_LOCAL_WRITE | MASK_REMOTE_READ |
			MASK_REMOTE_WRITE | MASK_ATOMIC;
	} else {
		flags |= type2 ? UMR_CHECK_QPN : 0;
	}
	memset(u, 0, UMR_CTRL_SIZE);
	u[0] = (uint8_t)flags;
	/* KLM octowords: the translation's size in 16-byte units, whole
	 * 64-byte blocks (one KLM and its padding), 0 with none. */
	u[5] = length ? KLM_BLOCK / SEG : 0;
	put64(u + 8, mask);

	memset(m, 0, MKEY_CTX_SIZE);
	put32(m + 4, (type2 && length ? s->qpn << 8 : 0xffffff00u) |
		     (bind ? wr->bind_mw.new_rkey & 0xff : 0));
	if (length) {
		acc |= access & IB_UVERBS_ACCESS_LOCAL_WRITE ? MKEY_LOCAL_WRITE : 0;
		acc |= access & IB_UVERBS_ACCESS_REMOTE_WRITE ? MKEY_REMOTE_WRITE : 0;
		acc |= access & IB_UVERBS_ACCESS_REMOTE_READ ? MKEY_REMOTE_READ : 0;
		acc |= access & IB_UVERBS_ACCESS_REMOTE_ATOMIC ? MKEY_ATOMIC : 0;
		m[2] = acc;
		/* A zero-based window starts at 0; the KLM still names the
		 * MR's address. */
		put64(m + 16, access & IB_UVERBS_ACCESS_ZERO_BASED ? 0 : wr->bind_mw.addr);
		put64(m + 24, length);
		k = r->slots + (size_t)((cur + 2) & r->mask) * BB;
		memset(k, 0, KLM_BLOCK);
		put32(k, (uint32_t)length);
		put32(k + 4, wr->bind_mw.mr_lkey);
		put64(k + 8, wr->bind_mw.addr);
	} else {
		m[0] = MKEY_FREE;
	}

	slot = &s->slot[cur & r->mask];
	slot->wr_id = wr->wr_id;
	slot->end = cur + nbb;
	slot->wc_opcode = wr_ops[wr->opcode].wc;
	slot->signaled = fm & CTRL_CQ_UPDATE;
	slot->seq = (uint16_t)++s->posted;
	s->last = ctrl;
	/* The WQE after it waits for the window's new state (initiator small
	 * fence), so that a SEND that hands out the key follows the bind. */
	s->fence_next = CTRL_SMALL_FENCE;
	qp->sq.next = cur + nbb;
	return 0;
}

static __attribute__((noinline)) int post_send_any(struct uvio_dp_qp *qp,
						   const struct uvio_dp_send_wr *wr)
{
	struct uvio_dp_ring *r = &qp->sq.ring;
	struct sq_side *s = r->map;
	uint32_t op = wr->opcode, nsge = wr->num_sge, ds = 1, data = 0, cur, nbb;
	bool inl = (wr->flags & UVIO_DP_SEND_INLINE) && nsge;
	bool atomic = op == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP ||
		      op == IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD;
	bool rdma = op == IB_UVERBS_WR_RDMA_WRITE || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM ||
		    op == IB_UVERBS_WR_RDMA_READ;
	uint8_t *ctrl, *p;
	struct sq_slot *slot;
	int64_t len;

	uint8_t fm;

	if (op >= 32 || !((mlx5_opcodes(qp->type) >> op) & 1))
		return -EOPNOTSUPP;
	/* A fence asked for is fence mode 4, which includes the small fence a
	 * UMR before it left; otherwise that small fence, once. */
	fm = (uint8_t)(s->sig_all | (wr->flags & UVIO_DP_SEND_SIGNALED ? CTRL_CQ_UPDATE : 0) |
		       (wr->flags & UVIO_DP_SEND_SOLICITED ? CTRL_SOLICITED : 0) |
		       (wr->flags & UVIO_DP_SEND_FENCE ? CTRL_FENCE : s->fence_next));
	if (op == IB_UVERBS_WR_BIND_MW || op == IB_UVERBS_WR_LOCAL_INV)
		return post_umr(qp, wr, fm);
	if (nsge > qp->sq.max_sge || (nsge && !wr->sg_list))
		return -EINVAL;
	len = uvio_dp_sge_bytes(wr->sg_list, nsge);
	if (len < 0)
		return -EINVAL;
	if (atomic && (nsge != 1 || len != 8 || inl))
		return -EINVAL;
	if (qp->type == IB_UVERBS_QPT_UD && !wr->ud.ah)
		return -EINVAL;
	if (inl) {
		if ((uint64_t)len > qp->sq.max_inline)
			return -EINVAL;
		data = len ? (uint32_t)(4 + len + SEG - 1) / SEG : 0;
	} else {
		for (uint32_t i = 0; i < nsge; i++)
			data += wr->sg_list[i].length != 0;
	}
	ds += (rdma || atomic) + atomic + (qp->type == IB_UVERBS_QPT_UD ? AV_SIZE / SEG : 0) + data;
	if (ds > MAX_DS)
		return -EINVAL;
	nbb = (ds * SEG + BB - 1) / BB;
	cur = qp->sq.next;
	if (sq_full(s, r->entries, cur, nbb))
		return -ENOSPC;

	ctrl = r->slots + (size_t)(cur & r->mask) * BB;
	put32(ctrl, (cur & 0xffff) << 8 | wr_ops[op].op);
	put32(ctrl + 4, s->qpn << 8 | ds);
	memset(ctrl + 8, 0, 3);			/* signature, stream id */
	ctrl[11] = fm;
	if (op == IB_UVERBS_WR_SEND_WITH_INV)
		put32(ctrl + 12, wr->invalidate_rkey);
	else if (op == IB_UVERBS_WR_SEND_WITH_IMM || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM)
		memcpy(ctrl + 12, &wr->imm_data, 4);	/* big-endian already */
	else
		memset(ctrl + 12, 0, 4);
	/* Segments up to the data never wrap: they end inside the first BB
	 * (control + raddr + atomic: 48 bytes; control + address vector: 64). */
	p = ctrl + SEG;
	if (rdma || atomic) {
		put64(p, atomic ? wr->atomic.remote_addr : wr->rdma.remote_addr);
		put32(p + 8, atomic ? wr->atomic.rkey : wr->rdma.rkey);
		memset(p + 12, 0, 4);
		p += SEG;
	}
	if (atomic) {
		/* Swap and compare for CMP_AND_SWP; the addend, then zero, for
		 * FETCH_AND_ADD. */
		if (op == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP) {
			put64(p, wr->atomic.swap);
			put64(p + 8, wr->atomic.compare_add);
		} else {
			put64(p, wr->atomic.compare_add);
			memset(p + 8, 0, 8);
		}
		p += SEG;
	}
	if (qp->type == IB_UVERBS_QPT_UD) {
		memcpy(p, (const void *)(uintptr_t)wr->ud.ah->reserved2[0], AV_SIZE);
		put32(p, wr->ud.remote_qkey);
		put32(p + 8, wr->ud.remote_qpn | EXT_UD_AV);
		p += AV_SIZE;
		if (p == r->slots + (size_t)r->entries * BB)
			p = r->slots;
	}
	if (inl && len) {
		uint8_t *end;

		put32(p, (uint32_t)len | INLINE_SEG);
		end = copy_wrapping(r, p + 4, wr->sg_list, nsge);
		/* The tail of the last unit: zero, for a device that reads it. */
		while ((uintptr_t)end & (SEG - 1))
			*end++ = 0;
	} else if (!inl) {
		for (uint32_t i = 0; i < nsge; i++) {
			const struct uvio_dp_sge *g = &wr->sg_list[i];

			if (!g->length)
				continue;	/* a zero length means 2 GiB to the device */
			put32(p, g->length);
			put32(p + 4, g->lkey);
			put64(p + 8, g->addr);
			p = sq_step(r, p);
		}
	}
	slot = &s->slot[cur & r->mask];
	slot->wr_id = wr->wr_id;
	slot->end = cur + nbb;
	slot->wc_opcode = wr_ops[op].wc;
	slot->signaled = ctrl[11] & CTRL_CQ_UPDATE;
	slot->seq = (uint16_t)++s->posted;
	s->last = ctrl;
	s->fence_next = 0;
	qp->sq.next = cur + nbb;
	return 0;
}

/*
 * The common shape on its own: RC or UC, SEND or RDMA WRITE (with or
 * without immediate), one SGE, the WQE ending before the ring does. It
 * writes the same bytes as post_send_any() with a fraction of the tests
 * and stores (the control segment's second half in one store, the inline
 * data's padding in two); every other WR takes post_send_any().
 */
static int mlx5_post_send(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	struct uvio_dp_ring *r = &qp->sq.ring;
	struct sq_side *s = r->map;
	uint32_t op = wr->opcode, flags = wr->flags, ds, nbb, cur, len, slot_i;
	const struct uvio_dp_sge *g = wr->sg_list;
	bool rdma = op == IB_UVERBS_WR_RDMA_WRITE || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM;
	bool inl = flags & UVIO_DP_SEND_INLINE;
	uint8_t *ctrl, *p;
	struct sq_slot *slot;
	uint8_t fm;

	if (__builtin_expect(wr->num_sge != 1 || !g || !qp->sq.max_sge ||
			     (qp->type != IB_UVERBS_QPT_RC && qp->type != IB_UVERBS_QPT_UC) ||
			     (!rdma && op != IB_UVERBS_WR_SEND && op != IB_UVERBS_WR_SEND_WITH_IMM) ||
			     g->length > INT32_MAX || s->fence_next, 0))
		return post_send_any(qp, wr);	/* and the WQE after a UMR: its fence */
	len = g->length;
	if (inl) {
		if (len > qp->sq.max_inline)
			return -EINVAL;
		ds = 1 + rdma + (len ? (4 + len + SEG - 1) / SEG : 0);
	} else {
		ds = 1 + rdma + (len != 0);
	}
	nbb = (ds + BB / SEG - 1) / (BB / SEG);
	cur = qp->sq.next;
	slot_i = cur & r->mask;
	if (__builtin_expect(slot_i + nbb > r->entries || ds > MAX_DS, 0))
		return post_send_any(qp, wr);	/* it wraps: the general writer */
	if (sq_full(s, r->entries, cur, nbb))
		return -ENOSPC;
	ctrl = r->slots + (size_t)slot_i * BB;
	fm = (uint8_t)(s->sig_all | (flags & UVIO_DP_SEND_SIGNALED ? CTRL_CQ_UPDATE : 0) |
		       (flags & UVIO_DP_SEND_SOLICITED ? CTRL_SOLICITED : 0) |
		       (flags & UVIO_DP_SEND_FENCE ? CTRL_FENCE : 0));
	put32(ctrl, (cur & 0xffff) << 8 | wr_ops[op].op);
	put32(ctrl + 4, s->qpn << 8 | ds);
	put32(ctrl + 8, fm);			/* signature, stream id: 0 */
	if (op == IB_UVERBS_WR_SEND_WITH_IMM || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM)
		memcpy(ctrl + 12, &wr->imm_data, 4);	/* big-endian already */
	else
		memset(ctrl + 12, 0, 4);
	p = ctrl + SEG;
	if (rdma) {
		put64(p, wr->rdma.remote_addr);
		put32(p + 8, wr->rdma.rkey);
		memset(p + 12, 0, 4);
		p += SEG;
	}
	if (inl) {
		if (len) {
			/* The last unit zeroed first: its tail is padding. */
			memset(p + ((4 + len - 1) & ~(uint32_t)(SEG - 1)), 0, SEG);
			put32(p, len | INLINE_SEG);
			memcpy(p + 4, (const void *)(uintptr_t)g->addr, len);
		}
	} else if (len) {
		put32(p, len);
		put32(p + 4, g->lkey);
		put64(p + 8, g->addr);
	}
	slot = &s->slot[slot_i];
	slot->wr_id = wr->wr_id;
	slot->end = cur + nbb;
	slot->wc_opcode = wr_ops[op].wc;
	slot->signaled = fm & CTRL_CQ_UPDATE;
	slot->seq = (uint16_t)++s->posted;
	s->last = ctrl;
	qp->sq.next = cur + nbb;
	return 0;
}

/* The record, then the register: called under the send queue's lock. */
static void mlx5_doorbell(struct uvio_dp_qp *qp)
{
	struct sq_side *s = qp->sq.ring.map;
	uint64_t first8;

	to_device();
	dbrec_set(qp->sq.ring.producer, qp->sq.next & 0xffff);
	to_device();
	memcpy(&first8, s->last, 8);	/* big-endian in memory: stored as is */
	*s->reg = first8;
	mmio_flush();
}

/* A receive WQE's scatter list: a data segment per non-empty SGE, the
 * terminator when there is room. */
static void put_scatter(uint8_t *p, const struct uvio_dp_recv_wr *wr, uint32_t max_gs)
{
	uint32_t j = 0;

	for (uint32_t i = 0; i < wr->num_sge; i++) {
		const struct uvio_dp_sge *g = &wr->sg_list[i];

		if (!g->length)
			continue;
		put32(p + j * SEG, g->length);
		put32(p + j * SEG + 4, g->lkey);
		put64(p + j * SEG + 8, g->addr);
		j++;
	}
	if (j < max_gs) {
		put32(p + j * SEG, 0);
		put32(p + j * SEG + 4, INVALID_LKEY);
		put64(p + j * SEG + 8, 0);
	}
}

/* Any receive, on an RQ or an SRQ: under the queue's lock. */
static __attribute__((noinline)) int post_recv_any(struct uvio_dp_queue *q,
						   const struct uvio_dp_recv_wr *wr)
{
	struct uvio_dp_ring *r = &q->ring;
	uint32_t kind = *(const uint32_t *)r->map;

	if (kind == SIDE_RQ) {
		struct rq_side *s = r->map;
		uint32_t head = q->next;

		if (wr->num_sge > s->max_gs)
			return -EINVAL;
		if (head - __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE) >= r->entries)
			return -ENOSPC;
		put_scatter(r->slots + (size_t)(head & r->mask) * r->elem_size, wr, s->max_gs);
		s->wr_id[head & r->mask] = wr->wr_id;
		q->next = head + 1;
		to_device();
		dbrec_set(r->producer, q->next & 0xffff);
	} else {
		struct srq_side *s = r->map;
		uint8_t *wqe;
		uint32_t idx = s->head;

		if (wr->num_sge > s->max_gs)
			return -EINVAL;
		if (s->head == s->tail)
			return -ENOSPC;
		wqe = r->slots + (size_t)idx * r->elem_size;
		s->head = get16(wqe + 2);
		put_scatter(wqe + SEG, wr, s->max_gs);
		s->wr_id[idx] = wr->wr_id;
		q->next++;
		to_device();
		dbrec_set(r->producer, q->next);
	}
	return 0;
}

/*
 * Called with the queue's lock held (the RQ's or the SRQ's). The common
 * receive, one non-empty entry on a QP's own receive queue, is written
 * here without a call, so that it needs no saved registers; the rest goes
 * to post_recv_any().
 */
static int mlx5_post_recv(struct uvio_dp_queue *q, const struct uvio_dp_recv_wr *wr)
{
	struct uvio_dp_ring *r = &q->ring;
	struct rq_side *s = r->map;
	const struct uvio_dp_sge *sge = wr->sg_list;
	uint32_t head, idx;
	uint8_t *p;

	if (__builtin_expect(s->kind != SIDE_RQ || wr->num_sge != 1 || !sge[0].length ||
			     !s->max_gs, 0))
		return post_recv_any(q, wr);
	head = q->next;
	if (head - __atomic_load_n(&s->tail, __ATOMIC_ACQUIRE) >= r->entries)
		return -ENOSPC;
	idx = head & r->mask;
	p = r->slots + (size_t)idx * r->elem_size;
	put32(p, sge[0].length);
	put32(p + 4, sge[0].lkey);
	put64(p + 8, sge[0].addr);
	if (s->max_gs > 1) {
		put32(p + SEG, 0);
		put32(p + SEG + 4, INVALID_LKEY);
		put64(p + SEG + 8, 0);
	}
	s->wr_id[idx] = wr->wr_id;
	q->next = head + 1;
	to_device();
	dbrec_set(r->producer, (head + 1) & 0xffff);
	return 0;
}

/* An SRQ WQE back at the tail of the free list: under the SRQ's lock. */
static void srq_free(struct uvio_dp_srq *srq, uint32_t idx)
{
	struct uvio_dp_ring *r = &srq->q.ring;
	struct srq_side *s = r->map;
	uint8_t *tail = r->slots + (size_t)s->tail * r->elem_size;

	tail[2] = (uint8_t)(idx >> 8);
	tail[3] = (uint8_t)idx;
	s->tail = idx;
}

/* Completion status per syndrome. */
static uint32_t status_of(uint8_t syndrome)
{
	switch (syndrome) {
	case 0x01:
		return UVIO_WC_LOC_LEN_ERR;
	case 0x02:
		return UVIO_WC_LOC_QP_OP_ERR;
	case 0x04:
		return UVIO_WC_LOC_PROT_ERR;
	case 0x05:
		return UVIO_WC_WR_FLUSH_ERR;
	case 0x06:
		return UVIO_WC_MW_BIND_ERR;
	case 0x10:
		return UVIO_WC_BAD_RESP_ERR;
	case 0x11:
		return UVIO_WC_LOC_ACCESS_ERR;
	case 0x12:
		return UVIO_WC_REM_INV_REQ_ERR;
	case 0x13:
		return UVIO_WC_REM_ACCESS_ERR;
	case 0x14:
		return UVIO_WC_REM_OP_ERR;
	case 0x15:
		return UVIO_WC_RETRY_EXC_ERR;
	case 0x16:
		return UVIO_WC_RNR_RETRY_EXC_ERR;
	case 0x22:
		return UVIO_WC_REM_ABORT_ERR;
	default:
		return UVIO_WC_GENERAL_ERR;
	}
}

/*
 * Data the device put in the CQE instead of the buffers (the half asks for
 * scatter-to-CQE: receives, and reads and atomics of QPs that signal every
 * WQE, of up to 32 bytes), copied into the scatter entries of the WQE at
 * seg (16-byte units from there, wrapping at end to start, at most max).
 * 0, or LOC_LEN_ERR when the entries are too short.
 */
static uint32_t scatter_from_cqe(const uint8_t *cqe, uint32_t len, uint8_t *seg, uint32_t max,
				 uint8_t *start, const uint8_t *end)
{
	const uint8_t *from = cqe;

	for (uint32_t i = 0; i < max && len; i++) {
		uint32_t n = get32(seg), lkey = get32(seg + 4);
		uint64_t addr;

		if (lkey == INVALID_LKEY)
			break;
		memcpy(&addr, seg + 8, 8);
		addr = be64toh(addr);
		if (n > len)
			n = len;
		memcpy((void *)(uintptr_t)addr, from, n);
		from += n;
		len -= n;
		seg += SEG;
		if (seg == end)
			seg = start;
	}
	return len ? UVIO_WC_LOC_LEN_ERR : UVIO_WC_SUCCESS;
}

/* big: the CQE is the second half of a 128-byte entry, whose first half
 * may hold up to 64 bytes of scattered data (CQE_SCATTER_64). */
static void requester(struct uvio_dp_qp *qp, const uint8_t *cqe, uint8_t opcode, bool big,
		      struct uvio_dp_wc *wc)
{
	struct uvio_dp_ring *r = &qp->sq.ring;
	struct sq_side *s = r->map;
	uint32_t idx = get16(cqe + CQE_WQE_COUNTER) & r->mask;
	const struct sq_slot *slot = &s->slot[idx];
	uint8_t op_own = cqe[CQE_OP_OWN];

	wc->wr_id = slot->wr_id;
	wc->opcode = slot->wc_opcode;
	if (opcode == CQE_REQ) {
		switch (get32(cqe + CQE_SOP_QPN) >> 24) {
		case OP_RDMA_WRITE_IMM:
		case OP_SEND_IMM:
			wc->wc_flags |= UVIO_WC_WITH_IMM;
			break;
		case OP_RDMA_READ:
			wc->byte_len = get32(cqe + CQE_BYTE_CNT);
			break;
		case OP_ATOMIC_CS:
		case OP_ATOMIC_FA:
			wc->byte_len = 8;
			break;
		default:
			break;
		}
		if ((op_own & (CQE_SCATTER_32 | CQE_SCATTER_64)) &&
		    (wc->opcode == UVIO_WC_RDMA_READ || wc->opcode == UVIO_WC_COMP_SWAP ||
		     wc->opcode == UVIO_WC_FETCH_ADD)) {
			/* The data segments follow the control and remote
			 * address segments (and the atomic one). */
			uint8_t *seg = r->slots + (size_t)idx * BB + 2 * SEG +
				       (wc->opcode != UVIO_WC_RDMA_READ ? SEG : 0);

			if (op_own & CQE_SCATTER_32)
				wc->status = scatter_from_cqe(cqe, wc->byte_len, seg, MAX_DS,
							      r->slots,
							      r->slots + (size_t)r->entries * BB);
			else if (big)
				wc->status = scatter_from_cqe(cqe - CQE64, wc->byte_len, seg,
							      MAX_DS, r->slots,
							      r->slots + (size_t)r->entries * BB);
			else	/* no room before a 64-byte CQE: a device fault */
				wc->status = UVIO_WC_GENERAL_ERR;
		}
	}
	/* Every WQE up to this one is done. */
	__atomic_store_n(&s->done, slot->seq, __ATOMIC_RELEASE);
	__atomic_store_n(&s->tail, slot->end, __ATOMIC_RELEASE);
}

static void responder(struct uvio_dp_qp *qp, const uint8_t *cqe, uint8_t opcode, bool big,
		      struct uvio_dp_wc *wc)
{
	uint32_t counter = get16(cqe + CQE_WQE_COUNTER), flags_rqpn;
	uint8_t op_own = cqe[CQE_OP_OWN];
	uint8_t *seg = NULL, *start = NULL;
	const uint8_t *end = NULL;
	uint32_t max = 0;

	wc->opcode = UVIO_WC_RECV;
	if (qp->srq) {
		struct uvio_dp_ring *r = &qp->srq->q.ring;
		struct srq_side *s = r->map;

		counter &= r->mask;
		uvio_dp_lock(&qp->srq->q.lock);
		wc->wr_id = s->wr_id[counter];
		seg = r->slots + (size_t)counter * r->elem_size + SEG;
		max = s->max_gs;
		srq_free(qp->srq, counter);
		uvio_dp_unlock(&qp->srq->q.lock);
	} else if (qp->rq.ring.map) {
		struct uvio_dp_ring *r = &qp->rq.ring;
		struct rq_side *s = r->map;

		counter &= r->mask;
		wc->wr_id = s->wr_id[counter];
		seg = r->slots + (size_t)counter * r->elem_size;
		max = s->max_gs;
		__atomic_store_n(&s->tail, s->tail + 1, __ATOMIC_RELEASE);
	}
	if (opcode == CQE_RESP_ERR)
		return;
	wc->byte_len = get32(cqe + CQE_BYTE_CNT);
	switch (opcode) {
	case CQE_RESP_WR_IMM:
		wc->opcode = UVIO_WC_RECV_RDMA_WITH_IMM;
		wc->wc_flags |= UVIO_WC_WITH_IMM;
		memcpy(&wc->imm_data, cqe + CQE_IMM, 4);
		break;
	case CQE_RESP_SEND_IMM:
		wc->wc_flags |= UVIO_WC_WITH_IMM;
		memcpy(&wc->imm_data, cqe + CQE_IMM, 4);
		break;
	case CQE_RESP_SEND_INV:
		wc->wc_flags |= UVIO_WC_WITH_INVALIDATE;
		wc->invalidated_rkey = get32(cqe + CQE_IMM);
		break;
	default:	/* RESP_SEND: the field holds the P_Key's index (UD, GSI) */
		wc->pkey_index = (uint16_t)get32(cqe + CQE_IMM);
		break;
	}
	flags_rqpn = get32(cqe + CQE_FLAGS_RQPN);
	wc->src_qp = flags_rqpn & 0xffffff;
	wc->sl = (flags_rqpn >> 24) & 0xf;
	wc->wc_flags |= (flags_rqpn >> 28) & 3 ? UVIO_WC_GRH : 0;
	wc->slid = get16(cqe + CQE_SLID);
	wc->dlid_path_bits = cqe[CQE_ML_PATH] & 0x7f;
	if ((op_own & (CQE_SCATTER_32 | CQE_SCATTER_64)) && seg) {
		end = qp->srq ? NULL : qp->rq.ring.slots + (size_t)qp->rq.ring.entries *
							   qp->rq.ring.elem_size;
		start = qp->srq ? NULL : qp->rq.ring.slots;
		if (op_own & CQE_SCATTER_32)
			wc->status = scatter_from_cqe(cqe, wc->byte_len, seg, max, start, end);
		else if (big)
			wc->status = scatter_from_cqe(cqe - CQE64, wc->byte_len, seg, max, start,
						      end);
		else	/* no room before a 64-byte CQE: a device fault */
			wc->status = UVIO_WC_GENERAL_ERR;
	}
}

/* A CQE that names a QP and one of its WQEs (not a resize's mark): the
 * cleaning's test. mlx5_poll writes the same test out in its loop, where
 * the compiler makes it cheaper (6 instructions a CQE fewer, measured with
 * callgrind, GCC 12 -O2) than through this function. */
static inline bool cqe_of_qp(uint8_t opcode)
{
	return opcode == CQE_REQ || opcode == CQE_REQ_ERR || opcode == CQE_RESP_WR_IMM ||
	       opcode == CQE_RESP_SEND || opcode == CQE_RESP_SEND_IMM ||
	       opcode == CQE_RESP_SEND_INV || opcode == CQE_RESP_ERR;
}

/* Called with the CQ locked. */
static int mlx5_poll(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	struct uvio_dp_ring *r = &cq->q.ring;
	uint32_t ci = cq->q.next;
	int got = 0;

	while (got < n) {
		const uint8_t *cqe = r->slots + (size_t)(ci & r->mask) * r->elem_size;
		uint8_t op_own = __atomic_load_n(&cqe[CQE_OP_OWN], __ATOMIC_RELAXED);
		uint8_t opcode = op_own >> 4;
		struct uvio_dp_qp *qp;
		struct uvio_dp_wc *w = &wc[got];
		uint32_t qpn, b;

		if (opcode == CQE_INVALID || (op_own & CQE_OWNER) != !!(ci & r->entries))
			break;
		from_device();
		ci++;
		if (opcode != CQE_REQ && opcode != CQE_REQ_ERR && opcode != CQE_RESP_WR_IMM &&
		    opcode != CQE_RESP_SEND && opcode != CQE_RESP_SEND_IMM &&
		    opcode != CQE_RESP_SEND_INV && opcode != CQE_RESP_ERR)
			continue;	/* a resize's mark, or nothing of a QP */
		qpn = get32(cqe + CQE_SOP_QPN) & 0xffffff;
		b = qp_bucket(cq->dev, qpn);
		uvio_dp_lock(&qp_table[b].lock);
		qp = qp_find(b, cq->dev, qpn);
		if (!qp) {
			/* Its QP is destroyed: nobody waits for this. */
			uvio_dp_unlock(&qp_table[b].lock);
			continue;
		}
		memset(w, 0, sizeof(*w));
		w->qp_num = qpn;
		if (opcode == CQE_REQ_ERR || opcode == CQE_RESP_ERR) {
			w->status = status_of(cqe[CQE_SYNDROME]);
			w->vendor_err = cqe[CQE_VENDOR_SYND];
		}
		if (opcode == CQE_REQ || opcode == CQE_REQ_ERR)
			requester(qp, cqe, opcode, r->elem_size != CQE64, w);
		else
			responder(qp, cqe, opcode, r->elem_size != CQE64, w);
		uvio_dp_unlock(&qp_table[b].lock);
		got++;
	}
	if (ci != cq->q.next) {
		cq->q.next = ci;
		done_reading();
		dbrec_set(r->consumer, ci & 0xffffff);
	}
	return got;
}

/*
 * libmlx5 steps the arm sequence number when the program reads the CQ's
 * event; this layer does not see the event read, so it steps it at every
 * arm: each request then differs from the one before it, and the device,
 * which drops a request whose number is the one that last raised an event
 * (a late duplicate), takes each new one.
 */
static int mlx5_arm(struct uvio_dp_cq *cq, int solicited_only)
{
	struct cq_side *s = cq->q.ring.map;
	uint32_t sn = __atomic_fetch_add(&s->arm_sn, 1, __ATOMIC_RELAXED) & 3;
	uint32_t ci = __atomic_load_n(&cq->q.next, __ATOMIC_RELAXED) & 0xffffff;
	uint32_t v = sn << 28 | (solicited_only ? CQ_ARM_SOLICITED : 0) | ci;
	uint64_t reg = htobe64((uint64_t)v << 32 | s->cqn);

	dbrec_set(cq->q.ring.producer, v);
	to_device();
	*s->arm_reg = reg;
	mmio_flush();
	return 0;
}

/* The static rate's code in the address vector, per enum ib_rate (0: as
 * fast as the port goes). */
static uint8_t av_rate(uint8_t ib_rate)
{
	static const uint8_t code[] = { 0, 0, 7, 8, 9, 10, 11, 12, 13, 14, 15, 11, 13, 15,
					0, 9, 15, 0, 0, 9, 13, 0 };

	return ib_rate < sizeof(code) ? code[ib_rate] : 0;
}

/*
 * The AH's address vector, as the WQE carries it (the qkey and the remote
 * QP are put in at post): 12 stat_rate_sl, 13 fl_mlid, 14 rlid (RoCE v2:
 * the UDP source port), 20 rmac, 26 tclass, 27 hop_limit, 28 grh<<30 |
 * sgid_index<<20 | flow label, 32 rgid. On RoCE the destination MAC is the
 * one the kernel answered to CREATE_AH, which the library's half keeps.
 */
static int mlx5_ah_init(struct uvio_dp_ah *ah, const struct uvio_ah_attr *attr,
			const void *resp, const char **why)
{
	const struct uvio_av *a = &attr->av;
	struct uvio_port_attr port = { .sz = sizeof(port) };
	uint8_t *av;
	bool eth;
	int err;

	(void)resp;
	err = uvio_query_port(ah->dev, a->port_num, &port, NULL);
	if (err) {
		*why = "the AH's port could not be queried";
		return err;
	}
	eth = port.core.link_layer == LINK_LAYER_ETHERNET;
	if (eth && !a->is_global) {
		*why = "EINVAL: an AH on RoCE needs a GRH (av.is_global)";
		return -EINVAL;
	}
	av = calloc(1, AV_SIZE);
	if (!av)
		return -ENOMEM;
	if (eth) {
		struct uvio_gid_entry gid;
		struct uvio_mlx5_object o = { .sz = sizeof(o) };

		err = uvio_mlx5_query_object(ah->dev, UVERBS_OBJECT_AH, ah->handle, &o);
		if (err) {
			free(av);
			*why = "EOPNOTSUPP: the kernel gave no destination MAC for the AH (its mlx5 "
			       "takes no CREATE_AH driver data)";
			return -EOPNOTSUPP;
		}
		err = uvio_query_gid_entry(ah->dev, a->port_num, a->sgid_index, &gid, NULL);
		if (err) {
			free(av);
			*why = "the AH's source GID could not be queried";
			return err;
		}
		if (gid.gid_type == IB_UVERBS_GID_TYPE_ROCE_V2) {
			uint32_t fl = a->flow_label & 0xfffff;
			uint16_t sport = fl ? (uint16_t)(((fl & 0x3fff) ^ (fl >> 14)) | ROCE_SPORT_MIN)
					    : (uint16_t)(ROCE_SPORT_MIN | ((ah->handle * 2654435761u) >> 18));

			av[14] = (uint8_t)(sport >> 8);
			av[15] = (uint8_t)sport;
		}
		av[12] = (uint8_t)(av_rate(a->static_rate) << 4 | (a->sl & 7) << 1);
		memcpy(av + 20, o.dmac, 6);
	} else {
		av[12] = (uint8_t)(av_rate(a->static_rate) << 4 | (a->sl & 0xf));
		av[13] = a->src_path_bits & 0x7f;
		av[14] = (uint8_t)(a->dlid >> 8);
		av[15] = (uint8_t)a->dlid;
	}
	if (a->is_global) {
		av[26] = a->traffic_class;
		av[27] = a->hop_limit;
		put32(av + 28, (uint32_t)!eth << 30 | (uint32_t)a->sgid_index << 20 |
			       (a->flow_label & 0xfffff));
		memcpy(av + 32, a->dgid, 16);
	}
	ah->ah_num = 0;
	ah->reserved2[0] = (uintptr_t)av;
	return 0;
}

static void mlx5_ah_fini(struct uvio_dp_ah *ah)
{
	free((void *)(uintptr_t)ah->reserved2[0]);
	ah->reserved2[0] = 0;
}

/*
 * RESIZE_CQ with a buffer of this layer's (struct mlx5_ib_resize_cq: its
 * address, the CQE size). When the kernel answers, the device has written
 * a resize CQE in the old buffer at its producer index and writes every
 * later CQE in the new one, at the index that follows. The completions
 * not yet polled (from the consumer index up to the resize CQE) move to
 * the new buffer one slot later than they were, each given the owner bit
 * of its new lap, and the consumer index steps over the resize CQE's slot:
 * polling then reads them first, then the device's new ones, in order.
 * Called with the CQ locked, so no poll runs meanwhile. The new buffer
 * lies a page into one anonymous mapping whose first page holds the CQ's
 * table, which replaces the old mapping (and the buffer of an earlier
 * resize in it); the half's first buffer stays until the CQ is destroyed.
 */
/* The producer index as far as the device has written: the first entry
 * from the consumer index on that is "invalid" or of the wrong lap. The
 * CQEs before it are written and not yet polled. */
static uint32_t cq_written_up_to(const struct uvio_dp_cq *cq)
{
	const struct uvio_dp_ring *r = &cq->q.ring;
	uint32_t ci = cq->q.next, i;

	for (i = ci; i - ci < r->entries; i++) {
		uint8_t op_own = r->slots[(size_t)(i & r->mask) * r->elem_size + CQE_OP_OWN];

		if (op_own >> 4 == CQE_INVALID || (op_own & CQE_OWNER) != !!(i & r->entries))
			break;
	}
	return i;
}

static int mlx5_resize_cq(struct uvio_dp_cq *cq, uint32_t cqe)
{
	static const char what[] = "CQ.RESIZE (data path)";
	struct uvio_dp_ring *r = &cq->q.ring, old = *r;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	uint32_t size = r->elem_size, ncqe, ci = cq->q.next, unpolled, i;
	uint8_t *buf, *map;
	int err;

	if (!cqe || cqe >= 1u << 24)
		return uvio_dp_fail(cq->dev, what, -EINVAL, "cqe: 1 to 2^24 - 1");
	ncqe = 1u << (32 - __builtin_clz(cqe));	/* cqe + 1 up to a power of 2 */
	if (ncqe == r->entries)
		return 0;		/* the kernel keeps the buffer too */
	/* The completions the device has written and nobody polled yet. */
	unpolled = cq_written_up_to(cq) - ci;
	if (unpolled >= ncqe)
		return uvio_dp_fail(cq->dev, what, -EINVAL,
				    "cqe: fewer than the completions not yet polled");
	len = page + (((size_t)ncqe * size + page - 1) & ~(page - 1));
	map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return uvio_dp_fail(cq->dev, what, -errno, "no memory for the new CQEs");
	memcpy(map, old.map, sizeof(struct cq_side));
	buf = map + page;
	for (i = 0; i < ncqe; i++)
		buf[(size_t)i * size + size - 1] = CQE_INVALID << 4;
	{
		struct mlx5_ib_resize_cq req = { .buf_addr = (uintptr_t)buf, .cqe_size = (uint16_t)size };
		UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req));
		UVIO_OPTS(uvio_cq_resize_attr, attr, .cq_handle = cq->handle, .cqe = ncqe - 1);
		UVIO_OPTS(uvio_cq, granted);

		err = uvio_resize_cq(cq->dev, &attr, &drv, &granted, NULL);
		if (err) {
			munmap(map, len);
			return err;		/* said by the verb */
		}
		cq->cqe = granted.cqe;
	}
	/* Carry the unpolled CQEs over; the resize CQE ends them. */
	for (i = ci;; i++) {
		const uint8_t *from = old.slots + (size_t)(i & old.mask) * size;
		uint8_t *to = buf + (size_t)((i + 1) & (ncqe - 1)) * size + size - CQE64;
		uint8_t op_own = from[CQE_OP_OWN];

		if (i - ci >= old.entries || op_own >> 4 == CQE_INVALID ||
		    (op_own & CQE_OWNER) != !!(i & old.entries)) {
			/* The device gave no resize CQE where it must: what
			 * it writes now lands in the new buffer all the same. */
			err = uvio_dp_fail(cq->dev, what, -EIO,
					   "the device wrote no resize CQE in the old buffer");
			break;
		}
		from_device();
		if (op_own >> 4 == CQE_RESIZE)
			break;
		if (i - ci >= ncqe - 1) {
			/* More arrived after the count than the new size holds:
			 * the device overran the new buffer already. */
			err = uvio_dp_fail(cq->dev, what, -EOVERFLOW,
					   "completions arrived during the resize past the new size");
			break;
		}
		memcpy(to - (size - CQE64), from - (size - CQE64), size - 1);
		to[CQE_OP_OWN] = (uint8_t)((op_own & ~CQE_OWNER) | !!((i + 1) & ncqe));
	}
	r->map = map;
	r->map_len = len;
	r->slots = buf + size - CQE64;
	r->entries = ncqe;
	r->mask = ncqe - 1;
	cq->q.next = ci + 1;	/* the carried CQEs are at ci + 1 on */
	done_reading();
	dbrec_set(r->consumer, (ci + 1) & 0xffffff);
	uvio_dp_unmap(&old);
	return err;
}

/*
 * The completions of QP qpn leave the CQ: the ones the device wrote and no
 * poll took, from the consumer index on. Walked from the newest down, each
 * kept CQE moves up by the number dropped below it (its owner bit set for
 * its new slot's lap) and the consumer index steps past the room left, as
 * libmlx5 cleans a CQ when a QP is reset or destroyed. A receive of the QP
 * taken from an SRQ goes back to the SRQ's free list. Called with the CQ
 * locked; the device writes only past the CQEs walked.
 */
static void mlx5_cq_clean(struct uvio_dp_cq *cq, uint32_t qpn, struct uvio_dp_srq *srq)
{
	struct uvio_dp_ring *r = &cq->q.ring;
	uint32_t size = r->elem_size, ci = cq->q.next, prod = cq_written_up_to(cq), dropped = 0;

	from_device();
	for (uint32_t i = prod; i-- != ci;) {
		uint8_t *cqe = r->slots + (size_t)(i & r->mask) * size;
		uint8_t opcode = cqe[CQE_OP_OWN] >> 4;
		bool resp = opcode != CQE_REQ && opcode != CQE_REQ_ERR;

		if (cqe_of_qp(opcode) && (get32(cqe + CQE_SOP_QPN) & 0xffffff) == qpn) {
			if (srq && resp) {
				uvio_dp_lock(&srq->q.lock);
				srq_free(srq, get16(cqe + CQE_WQE_COUNTER) & srq->q.ring.mask);
				uvio_dp_unlock(&srq->q.lock);
			}
			dropped++;
		} else if (dropped) {
			uint32_t j = i + dropped;
			uint8_t *to = r->slots + (size_t)(j & r->mask) * size;

			memcpy(to - (size - CQE64), cqe - (size - CQE64), size - 1);
			to[CQE_OP_OWN] = (uint8_t)((cqe[CQE_OP_OWN] & ~CQE_OWNER) | !!(j & r->entries));
		}
	}
	if (dropped) {
		cq->q.next = ci + dropped;
		done_reading();
		dbrec_set(r->consumer, (ci + dropped) & 0xffffff);
	}
}

/*
 * After a move to RESET: the device starts the QP's send and receive
 * counters over at 0, and forgets its WQEs; so do this layer's indices and
 * the doorbell records, and the QP's completions still in its CQs are
 * dropped (their slots would retire WQEs of the new round). Called with the
 * CQs locked (distinct, or one NULL), then the send and receive queues.
 */
static void mlx5_qp_reset(struct uvio_dp_qp *qp, struct uvio_dp_cq *scq, struct uvio_dp_cq *rcq)
{
	struct sq_side *s = qp->sq.ring.map;

	if (scq)
		mlx5_cq_clean(scq, qp->qp_num, qp->srq);
	if (rcq)
		mlx5_cq_clean(rcq, qp->qp_num, qp->srq);
	qp->sq.next = 0;
	s->tail = 0;
	s->posted = 0;
	s->done = 0;
	s->fence_next = 0;
	dbrec_set(qp->sq.ring.producer, 0);
	if (qp->rq.ring.map) {
		struct rq_side *rs = qp->rq.ring.map;

		qp->rq.next = 0;
		rs->tail = 0;
		dbrec_set(qp->rq.ring.producer, 0);
	}
}

const struct dp_ops uvio_dp_mlx5_ops = {
	.name = "mlx5",
	.driver_id = RDMA_DRIVER_MLX5,
	/* No driver output of ours: the library's half sends and reads it. */
	.cq_resp_len = 0,
	.qp_resp_len = 0,
	.srq_resp_len = 0,
	.ah_resp_len = 0,
	.cq_map = mlx5_cq_map,
	.qp_map = mlx5_qp_map,
	.srq_map = mlx5_srq_map,
	.ah_init = mlx5_ah_init,
	.ah_fini = mlx5_ah_fini,
	.qp_listed = mlx5_qp_listed,
	.qp_reset = mlx5_qp_reset,
	.post_send = mlx5_post_send,
	.doorbell_locked = mlx5_doorbell,
	.opcodes = mlx5_opcodes,
	.post_recv = mlx5_post_recv,
	.poll = mlx5_poll,
	.arm = mlx5_arm,
	.resize_cq = mlx5_resize_cq,
};
