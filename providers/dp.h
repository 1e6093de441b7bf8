/* SPDX-License-Identifier: MIT */
/*
 * Internal: the data-path layer's drivers. One ops table per driver, as
 * rdma-core's providers have; dp.c creates and destroys the objects through
 * the library's verbs and calls into the table for what the driver's queues
 * need.
 */
#ifndef UVIO_PROVIDERS_DP_H
#define UVIO_PROVIDERS_DP_H

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <uvio/dp.h>

struct dp_ops {
	const char *name;		/* the driver's, as messages name it */
	uint32_t driver_id;		/* the RDMA_DRIVER_* it serves */
	/* Driver output of the create verbs (the driver's mmap keys). 0: the
	 * create verb goes without driver data of ours, the library's half
	 * in lib/hw makes it (mlx5), and map asks the half where the queues
	 * lie: resp is NULL then, but for qp_map the create's struct
	 * uvio_qp_init_attr (the QP's create flags: SQ_SIG_ALL). */
	size_t cq_resp_len, qp_resp_len, srq_resp_len;
	int (*cq_map)(struct uvio_dp_cq *cq, const void *resp);
	int (*qp_map)(struct uvio_dp_qp *qp, const void *resp);
	int (*srq_map)(struct uvio_dp_srq *srq, const void *resp);
	/* AH: driver output of CREATE_AH, and what the WQE needs; on a
	 * refusal, *why the words to say once the AH is destroyed. NULL: the
	 * driver has no UD QPs, so no address handles. */
	size_t ah_resp_len;
	int (*ah_init)(struct uvio_dp_ah *ah, const struct uvio_ah_attr *attr,
		       const void *resp, const char **why);
	/* Optional: what ah_init kept, freed once the kernel destroyed the AH. */
	void (*ah_fini)(struct uvio_dp_ah *ah);
	/* Optional: the QP may (true) or may no longer (false) be named by
	 * the completions a poll reads: false before its destroy is sent,
	 * true again when the kernel refused it (mlx5's QP table). */
	void (*qp_listed)(struct uvio_dp_qp *qp, bool listed);
	/* Optional: the queues start over after the QP moved to RESET, and
	 * the CQs (distinct; either may be NULL) lose its completions; called
	 * with the CQs locked, then the send and receive queues. NULL: the
	 * kernel keeps the queue indices across RESET (rxe, siw). */
	void (*qp_reset)(struct uvio_dp_qp *qp, struct uvio_dp_cq *scq, struct uvio_dp_cq *rcq);
	/* Write one WR at the queue's next slot; called with the queue
	 * locked, checked already for what is common (SGE count, NULLs). */
	int (*post_send)(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
	/* Optional: the driver's own doorbell, rung once after the WRs a post
	 * wrote (at least one), still under the send queue's lock; NULL: the
	 * kernel's POST_SEND write(), after the lock is dropped (rxe, siw). */
	void (*doorbell_locked)(struct uvio_dp_qp *qp);
	int (*post_recv)(struct uvio_dp_queue *q, const struct uvio_dp_recv_wr *wr);
	/* Called with the CQ locked. */
	int (*poll)(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n);
	int (*arm)(struct uvio_dp_cq *cq, int solicited_only);
	/* The IB_UVERBS_WR_* opcodes post_send takes on a QP of this type,
	 * a bit each: the table post_send itself checks against. */
	uint32_t (*opcodes)(uint32_t qp_type);
	/* Optional: NULL answers -EOPNOTSUPP (resize) or leaves the kernel's
	 * verb alone (modify). Called with the queue locked; each says its
	 * own failures. */
	int (*resize_cq)(struct uvio_dp_cq *cq, uint32_t cqe);
	int (*modify_srq)(struct uvio_dp_srq *srq, const struct uvio_srq_modify *attr);
};

/* The drivers' tables (rxe.c, siw.c, mlx5.c), listed in drivers.c alone. */
extern const struct dp_ops uvio_dp_rxe_ops;
extern const struct dp_ops uvio_dp_siw_ops;
extern const struct dp_ops uvio_dp_mlx5_ops;

/* The ops of the driver with this id, or NULL (drivers.c). */
const struct dp_ops *uvio_dp_ops_of(uint32_t driver_id);
/* The drivers the layer serves, for a refusal's words: "rxe and siw". */
void uvio_dp_served(char *buf, size_t size);

/*
 * An object's ops, chosen once at create from its device's driver id and
 * kept in the first word of its reserved room (the library's private part
 * of the struct, which create and destroy clear), so that post, poll and
 * arm load one pointer and call through it: no lookup and no test of the
 * driver per call. The AH needs none after create.
 */
static inline void dp_cq_set_ops(struct uvio_dp_cq *cq, const struct dp_ops *ops)
{
	cq->reserved[0] = (uintptr_t)ops;
}

static inline const struct dp_ops *dp_cq_ops(const struct uvio_dp_cq *cq)
{
	return (const struct dp_ops *)(uintptr_t)cq->reserved[0];
}

static inline void dp_srq_set_ops(struct uvio_dp_srq *srq, const struct dp_ops *ops)
{
	srq->reserved[0] = (uintptr_t)ops;
}

static inline const struct dp_ops *dp_srq_ops(const struct uvio_dp_srq *srq)
{
	return (const struct dp_ops *)(uintptr_t)srq->reserved[0];
}

static inline void dp_qp_set_ops(struct uvio_dp_qp *qp, const struct dp_ops *ops)
{
	qp->reserved2[0] = (uintptr_t)ops;
}

static inline const struct dp_ops *dp_qp_ops(const struct uvio_dp_qp *qp)
{
	return (const struct dp_ops *)(uintptr_t)qp->reserved2[0];
}

/* Map len bytes of the device fd at offset into r (only map and map_len
 * are set); -errno of mmap(). Unmap clears the whole ring. */
int uvio_dp_map(struct uvio_dp_ring *r, struct uvio_device *dev, uint64_t offset, size_t len);
void uvio_dp_unmap(struct uvio_dp_ring *r);

/* Total bytes of an SGE list; -EINVAL when it passes 2^31 (a WQE's length
 * is 32 bits, and a message that long is no message). */
static inline int64_t uvio_dp_sge_bytes(const struct uvio_dp_sge *sge, uint32_t n)
{
	uint64_t t = 0;

	for (uint32_t i = 0; i < n; i++)
		t += sge[i].length;
	return t > INT32_MAX ? -EINVAL : (int64_t)t;
}

/* Copy an SGE list's bytes into a WQE (inline sends); len checked already. */
static inline void uvio_dp_copy_inline(uint8_t *to, const struct uvio_dp_sge *sge, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		memcpy(to, (const void *)(uintptr_t)sge[i].addr, sge[i].length);
		to += sge[i].length;
	}
}

/*
 * The queue locks: a word, taken by exchange, waited on by reading it and
 * yielding the CPU after a while, since the holder may have been preempted.
 * (pthread spin locks would do the same, but their type is not visible to
 * every caller's compilation of <uvio/dp.h>.)
 */
void uvio_dp_lock_wait(uint32_t *lock);

static inline void uvio_dp_lock(uint32_t *lock)
{
	if (__builtin_expect(__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE), 0))
		uvio_dp_lock_wait(lock);
}

static inline void uvio_dp_unlock(uint32_t *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* Say why, name the device, and return err. */
int uvio_dp_fail(struct uvio_device *dev, const char *what, int err, const char *why)
	__attribute__((cold));
/* An argument check failed: "fn: EINVAL: argument arg: why"; -EINVAL. */
int uvio_dp_bad_arg(const char *fn, const char *arg, const char *why) __attribute__((cold));
/* Mapping a queue the driver answered failed (err from uvio_dp_map() or a
 * driver's map op): said, and err returned. */
int uvio_dp_map_failed(struct uvio_device *dev, const char *what, int err)
	__attribute__((cold));

#endif
