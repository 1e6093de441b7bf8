/* SPDX-License-Identifier: MIT */
/*
 * Internal: the libibverbs provider plug-in's objects. Each wraps the
 * libibverbs object the application sees (first, so libibverbs' pointer is
 * ours) and the data-path object of this library that does the work.
 */
#ifndef UVIO_IBVERBS_UVP_H
#define UVIO_IBVERBS_UVP_H

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <uvio.h>
#include <uvio/dp.h>

#include "ibverbs_private.h"

struct uvp_context {
	struct verbs_context vctx;	/* first: libibverbs allocates us */
	struct uvio_device *dev;	/* on libibverbs' cmd_fd, adopted */
	uint32_t driver_id;
};

/* A protection domain, or a parent domain over one (protection set): the
 * parent's handle is its PD's, so every verb given it names that PD. */
struct uvp_pd {
	struct ibv_pd pd;		/* first: libibverbs hands this back */
	struct ibv_pd *protection;	/* NULL for a protection domain */
	void *pd_context;
};

struct uvp_cq {
	struct ibv_cq_ex ex;		/* starts with struct ibv_cq */
	struct uvio_dp_cq dp;
	struct uvio_dp_wc cur;		/* the completion ibv_start_poll() read */
};

struct uvp_srq {
	struct ibv_srq srq;
	struct uvio_dp_srq dp;
};

/* Work requests built with the ibv_wr_*() interface wait here for
 * ibv_wr_complete(); inline data is copied at the call, as that interface
 * promises. */
#define UVP_WR_BATCH 32u
#define UVP_WR_SGE 8u
#define UVP_WR_INLINE 1024u

struct uvp_wr_batch {
	uint32_t n;
	int err;			/* sticky: the first bad call */
	uint32_t inline_used;
	struct uvio_dp_send_wr wr[UVP_WR_BATCH];
	struct uvio_dp_sge sge[UVP_WR_BATCH][UVP_WR_SGE];
	uint8_t inline_buf[UVP_WR_INLINE];
};

struct uvp_qp {
	struct verbs_qp vqp;
	struct uvio_dp_qp dp;
	struct uvp_wr_batch *batch;	/* ibv_wr_*(): allocated at create when asked for */
	/* Made, or last moved to RESET, by this process: receives are refused
	 * then. Kept here, not read from qp->state, which a query's answer
	 * overwrites (6.1's siw answers RESET for a QP in RTS). */
	bool in_reset;
};

struct uvp_ah {
	struct ibv_ah ah;
	struct uvio_dp_ah dp;
};

static inline struct uvp_context *uvp_ctx(struct ibv_context *c)
{
	return (struct uvp_context *)((char *)c - offsetof(struct uvp_context, vctx.context));
}

static inline struct uvio_device *uvp_dev(struct ibv_context *c)
{
	return uvp_ctx(c)->dev;
}

static inline struct uvp_pd *uvp_pd(struct ibv_pd *pd)
{
	return (struct uvp_pd *)pd;
}

static inline struct uvp_cq *uvp_cq(struct ibv_cq *cq)
{
	return (struct uvp_cq *)cq;
}

static inline struct uvp_qp *uvp_qp(struct ibv_qp *qp)
{
	return (struct uvp_qp *)qp;
}

static inline struct uvp_srq *uvp_srq(struct ibv_srq *srq)
{
	return (struct uvp_srq *)srq;
}

/* libibverbs' calls answer a positive errno where ours answer -errno; the
 * ones that return a pointer set errno and return NULL. */
static inline void *uvp_fail_null(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

/* Wait until the application acknowledged every event the kernel said it
 * delivered for an object being destroyed (ibv_ack_*_events() signal cond). */
void uvp_wait_events(pthread_mutex_t *mutex, pthread_cond_t *cond, const uint32_t *done,
		     uint32_t reported);

/* objects.c */
struct ibv_pd *uvp_alloc_pd(struct ibv_context *context);
int uvp_dealloc_pd(struct ibv_pd *pd);
struct ibv_pd *uvp_alloc_parent_domain(struct ibv_context *context,
				       struct ibv_parent_domain_init_attr *attr);
struct ibv_mr *uvp_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
			  int access);
int uvp_dereg_mr(struct verbs_mr *mr);
struct ibv_mw *uvp_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int uvp_dealloc_mw(struct ibv_mw *mw);
struct ibv_cq *uvp_create_cq(struct ibv_context *context, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector);
struct ibv_cq_ex *uvp_create_cq_ex(struct ibv_context *context,
				   struct ibv_cq_init_attr_ex *attr);
int uvp_resize_cq(struct ibv_cq *cq, int cqe);
int uvp_destroy_cq(struct ibv_cq *cq);
struct ibv_srq *uvp_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr);
int uvp_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr, int mask);
int uvp_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *attr);
int uvp_destroy_srq(struct ibv_srq *srq);
struct ibv_qp *uvp_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
struct ibv_qp *uvp_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr);
int uvp_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int uvp_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init);
int uvp_destroy_qp(struct ibv_qp *qp);
struct ibv_ah *uvp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int uvp_destroy_ah(struct ibv_ah *ah);
int uvp_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid);
int uvp_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid);

/* post.c */
int uvp_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
int uvp_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);
int uvp_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);
int uvp_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *bind);
int uvp_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
int uvp_req_notify_cq(struct ibv_cq *cq, int solicited_only);
void uvp_cq_ex_init(struct uvp_cq *cq, uint64_t wc_flags);
int uvp_qp_ex_init(struct uvp_qp *qp, uint64_t send_ops_flags);

#endif
