// SPDX-License-Identifier: MIT
/*
 * The plug-in's control path: each libibverbs op as one verb of the library
 * (or the data-path layer's create/destroy, which map the queues), the
 * libibverbs object filled as its callers expect: handles, numbers,
 * user_handle pointing at the object (completion and async events return
 * it), and destroys that wait for the events the kernel reported.
 */
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "uvp.h"

struct ibv_pd *uvp_alloc_pd(struct ibv_context *context)
{
	struct uvp_pd *pd = calloc(1, sizeof(*pd));
	int err;

	if (!pd)
		return NULL;
	err = uvio_alloc_pd(uvp_dev(context), NULL, &pd->pd.handle, NULL);
	if (err) {
		free(pd);
		return uvp_fail_null(err);
	}
	pd->pd.context = context;
	return &pd->pd;
}

/*
 * A parent domain: the PD under another name, for libibverbs' callers that
 * pass one where a PD goes. Its allocators are kept and never called: rxe's
 * and siw's queues are the kernel's memory, mapped, and no other buffer of
 * this provider's is the device's. Thread domains do not exist here.
 */
struct ibv_pd *uvp_alloc_parent_domain(struct ibv_context *context,
				       struct ibv_parent_domain_init_attr *attr)
{
	const uint32_t known = IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS |
			       IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT;
	struct uvp_pd *parent;

	if (!attr || !attr->pd || (attr->comp_mask & ~known) ||
	    uvp_pd(attr->pd)->protection)
		return uvp_fail_null(EINVAL);
	if (attr->td)
		return uvp_fail_null(EOPNOTSUPP);
	parent = calloc(1, sizeof(*parent));
	if (!parent)
		return NULL;
	parent->pd.context = context;
	parent->pd.handle = attr->pd->handle;
	parent->protection = attr->pd;
	if (attr->comp_mask & IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT)
		parent->pd_context = attr->pd_context;
	return &parent->pd;
}

int uvp_dealloc_pd(struct ibv_pd *ibpd)
{
	struct uvp_pd *pd = uvp_pd(ibpd);
	int err = 0;

	if (!pd->protection)
		err = uvio_dealloc_pd(uvp_dev(ibpd->context), ibpd->handle, NULL);
	if (err)
		return -err;
	free(pd);
	return 0;
}

struct ibv_mr *uvp_reg_mr(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
			  int access)
{
	UVIO_OPTS(uvio_mr_attr, a, .pd_handle = pd->handle, .addr = addr, .length = length,
		  .iova = hca_va, .access = (uint32_t)access);
	UVIO_OPTS(uvio_mr, out);
	struct verbs_mr *mr = calloc(1, sizeof(*mr));
	int err;

	if (!mr)
		return NULL;
	err = uvio_reg_mr(uvp_dev(pd->context), &a, NULL, &out, NULL);
	if (err) {
		free(mr);
		return uvp_fail_null(err);
	}
	mr->ibv_mr.context = pd->context;
	mr->ibv_mr.pd = pd;
	mr->ibv_mr.addr = addr;
	mr->ibv_mr.length = length;
	mr->ibv_mr.handle = out.handle;
	mr->ibv_mr.lkey = out.lkey;
	mr->ibv_mr.rkey = out.rkey;
	mr->mr_type = IBV_MR_TYPE_MR;
	mr->access = access;
	return &mr->ibv_mr;
}

int uvp_dereg_mr(struct verbs_mr *mr)
{
	int err = uvio_dereg_mr(uvp_dev(mr->ibv_mr.context), mr->ibv_mr.handle, NULL);

	if (err)
		return -err;
	free(mr);
	return 0;
}

struct ibv_mw *uvp_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	UVIO_OPTS(uvio_mw_attr, a, .pd_handle = pd->handle, .type = (uint8_t)type);
	UVIO_OPTS(uvio_mw, out);
	struct ibv_mw *mw = calloc(1, sizeof(*mw));
	int err;

	if (!mw)
		return NULL;
	err = uvio_alloc_mw(uvp_dev(pd->context), &a, NULL, &out, NULL);
	if (err) {
		free(mw);
		return uvp_fail_null(err);
	}
	mw->context = pd->context;
	mw->pd = pd;
	mw->rkey = out.rkey;
	mw->handle = out.handle;
	mw->type = type;
	return mw;
}

int uvp_dealloc_mw(struct ibv_mw *mw)
{
	int err = uvio_dealloc_mw(uvp_dev(mw->context), mw->handle, NULL);

	if (err)
		return -err;
	free(mw);
	return 0;
}

/* libibverbs' create wrappers call verbs_init_cq() on what we return
 * (context, channel, cq_context, counters, lock), so we fill the rest. */
static struct uvp_cq *cq_create(struct ibv_context *context, int cqe,
				struct ibv_comp_channel *channel, uint32_t comp_vector,
				uint64_t wc_flags)
{
	UVIO_OPTS(uvio_comp_channel, ch, .fd = channel ? channel->fd : -1);
	struct uvp_cq *cq;
	int err;

	if (cqe <= 0)
		return uvp_fail_null(EINVAL);
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return NULL;
	{
		UVIO_OPTS(uvio_cq_attr, a, .cqe = (uint32_t)cqe, .user_handle = (uintptr_t)cq,
			  .channel = channel ? &ch : NULL, .comp_vector = comp_vector);

		err = uvio_dp_create_cq(uvp_dev(context), &a, &cq->dp);
	}
	if (err) {
		free(cq);
		return uvp_fail_null(err);
	}
	cq->ex.handle = cq->dp.handle;
	cq->ex.cqe = (int)cq->dp.cqe;
	uvp_cq_ex_init(cq, wc_flags);
	return cq;
}

struct ibv_cq *uvp_create_cq(struct ibv_context *context, int cqe,
			     struct ibv_comp_channel *channel, int comp_vector)
{
	struct uvp_cq *cq = cq_create(context, cqe, channel, (uint32_t)comp_vector, 0);

	return cq ? (struct ibv_cq *)&cq->ex : NULL;
}

/* The completion fields rxe and siw report (no timestamps, no flow tag). */
#define UVP_WC_FLAGS                                                                    \
	(IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM |         \
	 IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |             \
	 IBV_WC_EX_WITH_DLID_PATH_BITS)

struct ibv_cq_ex *uvp_create_cq_ex(struct ibv_context *context,
				   struct ibv_cq_init_attr_ex *attr)
{
	struct uvp_cq *cq;

	if (attr->wc_flags & ~(uint64_t)UVP_WC_FLAGS)
		return uvp_fail_null(EOPNOTSUPP);
	if (attr->comp_mask & ~(uint32_t)(IBV_CQ_INIT_ATTR_MASK_FLAGS | IBV_CQ_INIT_ATTR_MASK_PD))
		return uvp_fail_null(EOPNOTSUPP);
	/* A CQ may name a parent domain (its allocators unused, as above);
	 * anything else there is a caller's mistake. */
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_PD) &&
	    (!attr->parent_domain || !uvp_pd(attr->parent_domain)->protection))
		return uvp_fail_null(EINVAL);
	if ((attr->comp_mask & IBV_CQ_INIT_ATTR_MASK_FLAGS) && attr->flags)
		return uvp_fail_null(EOPNOTSUPP);
	cq = cq_create(context, (int)attr->cqe, attr->channel, attr->comp_vector,
		       attr->wc_flags);
	return cq ? &cq->ex : NULL;
}

int uvp_resize_cq(struct ibv_cq *ibcq, int cqe)
{
	struct uvp_cq *cq = uvp_cq(ibcq);
	int err;

	if (cqe <= 0)
		return EINVAL;
	err = uvio_dp_resize_cq(&cq->dp, (uint32_t)cqe);
	if (err)
		return -err;
	cq->ex.cqe = (int)cq->dp.cqe;
	return 0;
}

int uvp_destroy_cq(struct ibv_cq *ibcq)
{
	UVIO_OPTS(uvio_events_reported, ev);
	struct uvp_cq *cq = uvp_cq(ibcq);
	int err = uvio_dp_destroy_cq(&cq->dp, &ev);

	if (err)
		return -err;
	uvp_wait_events(&ibcq->mutex, &ibcq->cond, &ibcq->comp_events_completed,
			ev.comp_events_reported);
	uvp_wait_events(&ibcq->mutex, &ibcq->cond, &ibcq->async_events_completed,
			ev.async_events_reported);
	free(cq);
	return 0;
}

static void object_sync_init(pthread_mutex_t *mutex, pthread_cond_t *cond)
{
	pthread_mutex_init(mutex, NULL);
	pthread_cond_init(cond, NULL);
}

struct ibv_srq *uvp_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *attr)
{
	struct uvp_srq *srq = calloc(1, sizeof(*srq));
	int err;

	if (!srq)
		return NULL;
	{
		UVIO_OPTS(uvio_srq_attr, a, .pd_handle = pd->handle, .user_handle = (uintptr_t)srq,
			  .max_wr = attr->attr.max_wr, .max_sge = attr->attr.max_sge,
			  .srq_limit = attr->attr.srq_limit);

		err = uvio_dp_create_srq(uvp_dev(pd->context), &a, &srq->dp);
	}
	if (err) {
		free(srq);
		return uvp_fail_null(err);
	}
	srq->srq.context = pd->context;
	srq->srq.srq_context = attr->srq_context;
	srq->srq.pd = pd;
	srq->srq.handle = srq->dp.handle;
	object_sync_init(&srq->srq.mutex, &srq->srq.cond);
	attr->attr.max_wr = srq->dp.max_wr;
	attr->attr.max_sge = srq->dp.max_sge;
	return &srq->srq;
}

int uvp_modify_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr, int mask)
{
	UVIO_OPTS(uvio_srq_modify, m, .max_wr = attr->max_wr, .srq_limit = attr->srq_limit);
	int err;

	if (mask & ~(IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT))
		return EINVAL;
	m.attr_mask = (mask & IBV_SRQ_MAX_WR ? UVIO_SRQ_MAX_WR : 0) |
		      (mask & IBV_SRQ_LIMIT ? UVIO_SRQ_LIMIT : 0);
	err = uvio_dp_modify_srq(&uvp_srq(ibsrq)->dp, &m);
	return -err;
}

int uvp_query_srq(struct ibv_srq *ibsrq, struct ibv_srq_attr *attr)
{
	UVIO_OPTS(uvio_srq_state, s);
	int err = uvio_query_srq(uvp_dev(ibsrq->context), ibsrq->handle, &s, NULL);

	if (err)
		return -err;
	attr->max_wr = s.max_wr;
	attr->max_sge = s.max_sge;
	attr->srq_limit = s.srq_limit;
	return 0;
}

int uvp_destroy_srq(struct ibv_srq *ibsrq)
{
	UVIO_OPTS(uvio_events_reported, ev);
	int err = uvio_dp_destroy_srq(&uvp_srq(ibsrq)->dp, &ev);

	if (err)
		return -err;
	uvp_wait_events(&ibsrq->mutex, &ibsrq->cond, &ibsrq->events_completed,
			ev.async_events_reported);
	free(ibsrq);
	return 0;
}

/* libibverbs' QP create flags are the kernel's bits. */
_Static_assert((int)IBV_QP_CREATE_BLOCK_SELF_MCAST_LB ==
			       (int)IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK &&
		       (int)IBV_QP_CREATE_SCATTER_FCS == (int)IB_UVERBS_QP_CREATE_SCATTER_FCS &&
		       (int)IBV_QP_CREATE_CVLAN_STRIPPING ==
			       (int)IB_UVERBS_QP_CREATE_CVLAN_STRIPPING &&
		       (int)IBV_QP_CREATE_PCI_WRITE_END_PADDING ==
			       (int)IB_UVERBS_QP_CREATE_PCI_WRITE_END_PADDING,
	       "QP create flags");

/* The send operations the wr_*() interface offers on rxe and siw. */
#define UVP_SEND_OPS                                                                         \
	(IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_SEND | \
	 IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ |                            \
	 IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD |           \
	 IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_SEND_WITH_INV |       \
	 IBV_QP_EX_WITH_ATOMIC_WRITE)

struct ibv_qp *uvp_create_qp_ex(struct ibv_context *context, struct ibv_qp_init_attr_ex *attr)
{
	const uint32_t known = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS |
			       IBV_QP_INIT_ATTR_CREATE_FLAGS;
	/* The create flags go to the kernel, which answers for each (rxe and
	 * siw refuse any); a source QPN would need its own attribute. */
	uint32_t cflags = attr->comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS ? attr->create_flags : 0;
	struct uvp_srq *srq = attr->srq ? uvp_srq(attr->srq) : NULL;
	struct uvp_qp *qp;
	struct ibv_qp *q;
	int err;

	if ((attr->comp_mask & ~known) || !(attr->comp_mask & IBV_QP_INIT_ATTR_PD) ||
	    !attr->pd || !attr->send_cq || !attr->recv_cq)
		return uvp_fail_null(EOPNOTSUPP);
	if ((attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) &&
	    (attr->send_ops_flags & ~(uint64_t)UVP_SEND_OPS))
		return uvp_fail_null(EOPNOTSUPP);
	if (cflags & IBV_QP_CREATE_SOURCE_QPN)
		return uvp_fail_null(EOPNOTSUPP);
	qp = calloc(1, sizeof(*qp));
	if (!qp)
		return NULL;
	{
		UVIO_OPTS(uvio_qp_init_attr, a, .type = attr->qp_type,
			  .fields = srq ? UVIO_QP_INIT_SRQ : 0, .user_handle = (uintptr_t)qp,
			  .pd_handle = attr->pd->handle, .send_cq_handle = attr->send_cq->handle,
			  .recv_cq_handle = attr->recv_cq->handle,
			  .srq_handle = srq ? srq->srq.handle : 0,
			  .cap = { .max_send_wr = attr->cap.max_send_wr,
				   .max_recv_wr = attr->cap.max_recv_wr,
				   .max_send_sge = attr->cap.max_send_sge,
				   .max_recv_sge = attr->cap.max_recv_sge,
				   .max_inline_data = attr->cap.max_inline_data },
			  .create_flags = cflags |
					  (attr->sq_sig_all ? IB_UVERBS_QP_CREATE_SQ_SIG_ALL : 0));

		err = uvio_dp_create_qp(uvp_dev(context), &a, srq ? &srq->dp : NULL, &qp->dp);
	}
	if (err) {
		free(qp);
		return uvp_fail_null(err);
	}
	if (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) {
		err = uvp_qp_ex_init(qp, attr->send_ops_flags);
		if (err) {
			uvio_dp_destroy_qp(&qp->dp, NULL);
			free(qp);
			return uvp_fail_null(err);
		}
	}
	q = &qp->vqp.qp;
	q->context = context;
	q->qp_context = attr->qp_context;
	q->pd = attr->pd;
	q->send_cq = attr->send_cq;
	q->recv_cq = attr->recv_cq;
	q->srq = attr->srq;
	q->handle = qp->dp.handle;
	q->qp_num = qp->dp.qp_num;
	q->state = IBV_QPS_RESET;
	qp->in_reset = true;
	q->qp_type = attr->qp_type;
	object_sync_init(&q->mutex, &q->cond);
	attr->cap.max_send_wr = qp->dp.cap.max_send_wr;
	attr->cap.max_recv_wr = qp->dp.cap.max_recv_wr;
	attr->cap.max_send_sge = qp->dp.cap.max_send_sge;
	attr->cap.max_recv_sge = qp->dp.cap.max_recv_sge;
	attr->cap.max_inline_data = qp->dp.cap.max_inline_data;
	return q;
}

struct ibv_qp *uvp_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *attr)
{
	struct ibv_qp_init_attr_ex x;
	struct ibv_qp *qp;

	memset(&x, 0, sizeof(x));
	x.qp_context = attr->qp_context;
	x.send_cq = attr->send_cq;
	x.recv_cq = attr->recv_cq;
	x.srq = attr->srq;
	x.cap = attr->cap;
	x.qp_type = attr->qp_type;
	x.sq_sig_all = attr->sq_sig_all;
	x.comp_mask = IBV_QP_INIT_ATTR_PD;
	x.pd = pd;
	qp = uvp_create_qp_ex(pd->context, &x);
	if (qp)
		attr->cap = x.cap;
	return qp;
}

static void av_from(struct uvio_av *av, const struct ibv_ah_attr *a)
{
	memset(av, 0, sizeof(*av));
	memcpy(av->dgid, a->grh.dgid.raw, sizeof(av->dgid));
	av->flow_label = a->grh.flow_label;
	av->dlid = a->dlid;
	av->sgid_index = a->grh.sgid_index;
	av->hop_limit = a->grh.hop_limit;
	av->traffic_class = a->grh.traffic_class;
	av->sl = a->sl;
	av->src_path_bits = a->src_path_bits;
	av->static_rate = a->static_rate;
	av->is_global = a->is_global;
	av->port_num = a->port_num;
}

static void av_to(struct ibv_ah_attr *a, const struct uvio_av *av)
{
	memset(a, 0, sizeof(*a));
	memcpy(a->grh.dgid.raw, av->dgid, sizeof(av->dgid));
	a->grh.flow_label = av->flow_label;
	a->dlid = av->dlid;
	a->grh.sgid_index = av->sgid_index;
	a->grh.hop_limit = av->hop_limit;
	a->grh.traffic_class = av->traffic_class;
	a->sl = av->sl;
	a->src_path_bits = av->src_path_bits;
	a->static_rate = av->static_rate;
	a->is_global = av->is_global;
	a->port_num = av->port_num;
}

/* libibverbs' attribute mask bits are the kernel's, which are the library's. */
_Static_assert((int)IBV_QP_STATE == (int)UVIO_QP_STATE && (int)IBV_QP_AV == (int)UVIO_QP_AV &&
	       (int)IBV_QP_DEST_QPN == (int)UVIO_QP_DEST_QPN && (int)IBV_QP_RATE_LIMIT == (int)UVIO_QP_RATE_LIMIT,
	       "QP attribute mask bits");

int uvp_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	UVIO_OPTS(uvio_qp_attr, a, .attr_mask = (uint32_t)mask);
	int err;

	a.qp_state = (uint8_t)attr->qp_state;
	a.cur_qp_state = (uint8_t)attr->cur_qp_state;
	a.path_mtu = (uint8_t)attr->path_mtu;
	a.path_mig_state = (uint8_t)attr->path_mig_state;
	a.qkey = attr->qkey;
	a.rq_psn = attr->rq_psn;
	a.sq_psn = attr->sq_psn;
	a.dest_qp_num = attr->dest_qp_num;
	a.qp_access_flags = attr->qp_access_flags;
	a.pkey_index = attr->pkey_index;
	a.alt_pkey_index = attr->alt_pkey_index;
	a.en_sqd_async_notify = attr->en_sqd_async_notify;
	a.max_rd_atomic = attr->max_rd_atomic;
	a.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	a.min_rnr_timer = attr->min_rnr_timer;
	a.port_num = attr->port_num;
	a.timeout = attr->timeout;
	a.retry_cnt = attr->retry_cnt;
	a.rnr_retry = attr->rnr_retry;
	a.alt_port_num = attr->alt_port_num;
	a.alt_timeout = attr->alt_timeout;
	a.rate_limit = attr->rate_limit;
	if (mask & IBV_QP_AV)
		av_from(&a.ah, &attr->ah_attr);
	if (mask & IBV_QP_ALT_PATH)
		av_from(&a.alt_ah, &attr->alt_ah_attr);
	err = uvio_modify_qp(uvp_dev(qp->context), qp->handle, &a, NULL, NULL);
	if (err)
		return -err;
	if (mask & IBV_QP_STATE) {
		/* Back to RESET: the queues start over (mlx5: the device's
		 * counters do), the QP's unpolled completions dropped. */
		if (attr->qp_state == IBV_QPS_RESET)
			uvio_dp_reset_qp(&uvp_qp(qp)->dp, qp->send_cq ? &uvp_cq(qp->send_cq)->dp : NULL,
					 qp->recv_cq ? &uvp_cq(qp->recv_cq)->dp : NULL);
		qp->state = attr->qp_state;
		__atomic_store_n(&uvp_qp(qp)->in_reset, attr->qp_state == IBV_QPS_RESET,
				 __ATOMIC_RELAXED);
	}
	return 0;
}

int uvp_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		 struct ibv_qp_init_attr *init)
{
	UVIO_OPTS(uvio_qp_attr, a);
	int err = uvio_query_qp(uvp_dev(qp->context), qp->handle, (uint32_t)mask, &a, NULL);

	if (err)
		return -err;
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = (enum ibv_qp_state)a.qp_state;
	attr->cur_qp_state = (enum ibv_qp_state)a.cur_qp_state;
	attr->path_mtu = (enum ibv_mtu)a.path_mtu;
	attr->path_mig_state = (enum ibv_mig_state)a.path_mig_state;
	attr->qkey = a.qkey;
	attr->rq_psn = a.rq_psn;
	attr->sq_psn = a.sq_psn;
	attr->dest_qp_num = a.dest_qp_num;
	attr->qp_access_flags = a.qp_access_flags;
	attr->cap.max_send_wr = a.cap.max_send_wr;
	attr->cap.max_recv_wr = a.cap.max_recv_wr;
	attr->cap.max_send_sge = a.cap.max_send_sge;
	attr->cap.max_recv_sge = a.cap.max_recv_sge;
	attr->cap.max_inline_data = a.cap.max_inline_data;
	av_to(&attr->ah_attr, &a.ah);
	av_to(&attr->alt_ah_attr, &a.alt_ah);
	attr->pkey_index = a.pkey_index;
	attr->alt_pkey_index = a.alt_pkey_index;
	attr->en_sqd_async_notify = a.en_sqd_async_notify;
	attr->sq_draining = a.sq_draining;
	attr->max_rd_atomic = a.max_rd_atomic;
	attr->max_dest_rd_atomic = a.max_dest_rd_atomic;
	attr->min_rnr_timer = a.min_rnr_timer;
	attr->port_num = a.port_num;
	attr->timeout = a.timeout;
	attr->retry_cnt = a.retry_cnt;
	attr->rnr_retry = a.rnr_retry;
	attr->alt_port_num = a.alt_port_num;
	attr->alt_timeout = a.alt_timeout;
	/* mlx5_ib leaves a user QP's send side to its provider (it answers
	 * no send queue and no inline room; the receive queue's depth it
	 * answers, and rdma-core's tests fill the queue to that), and
	 * libmlx5 reports the send sizes it made: so do we, create's. */
	if (uvp_ctx(qp->context)->driver_id == RDMA_DRIVER_MLX5) {
		attr->cap.max_send_wr = uvp_qp(qp)->dp.cap.max_send_wr;
		attr->cap.max_send_sge = uvp_qp(qp)->dp.cap.max_send_sge;
		attr->cap.max_inline_data = uvp_qp(qp)->dp.cap.max_inline_data;
	}
	/* qp->state is libibverbs' to set from this answer (when the mask
	 * asks for the state): 6.1's siw answers RESET for a QP in RTS. */
	if (init) {
		memset(init, 0, sizeof(*init));
		init->qp_context = qp->qp_context;
		init->send_cq = qp->send_cq;
		init->recv_cq = qp->recv_cq;
		init->srq = qp->srq;
		init->cap = attr->cap;
		init->qp_type = qp->qp_type;
		init->sq_sig_all = a.sq_sig_all;
	}
	return 0;
}

int uvp_destroy_qp(struct ibv_qp *ibqp)
{
	UVIO_OPTS(uvio_events_reported, ev);
	struct uvp_qp *qp = uvp_qp(ibqp);
	int err = uvio_dp_destroy_qp(&qp->dp, &ev);

	if (err)
		return -err;
	uvp_wait_events(&ibqp->mutex, &ibqp->cond, &ibqp->events_completed,
			ev.async_events_reported);
	free(qp->batch);
	free(qp);
	return 0;
}

struct ibv_ah *uvp_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct uvp_ah *ah = calloc(1, sizeof(*ah));
	int err;

	if (!ah)
		return NULL;
	{
		UVIO_OPTS(uvio_ah_attr, a, .pd_handle = pd->handle, .user_handle = (uintptr_t)ah);

		av_from(&a.av, attr);
		err = uvio_dp_create_ah(uvp_dev(pd->context), &a, &ah->dp);
	}
	if (err) {
		free(ah);
		return uvp_fail_null(err);
	}
	ah->ah.context = pd->context;
	ah->ah.pd = pd;
	ah->ah.handle = ah->dp.handle;
	return &ah->ah;
}

int uvp_destroy_ah(struct ibv_ah *ibah)
{
	struct uvp_ah *ah = (struct uvp_ah *)ibah;
	int err = uvio_dp_destroy_ah(&ah->dp);

	if (err)
		return -err;
	free(ah);
	return 0;
}

int uvp_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	return -uvio_attach_mcast(uvp_dev(qp->context), qp->handle, gid->raw, lid, NULL);
}

int uvp_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	return -uvio_detach_mcast(uvp_dev(qp->context), qp->handle, gid->raw, lid, NULL);
}
