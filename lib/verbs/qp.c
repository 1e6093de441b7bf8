// SPDX-License-Identifier: MIT
/*
 * QP: CREATE and DESTROY (native methods and write() commands), MODIFY,
 * QUERY, OPEN and the multicast commands (write() commands, which the ioctl
 * path carries through INVOKE_WRITE).
 */
#include <uvio/qp.h>
#include "verb.h"
#include "destroy.h"

/* The kernel's IB_QP_CREATE_SOURCE_QPN: the extended write() command names
 * a source QPN by this create flag; the ioctl method by its attribute. */
#define KERNEL_QP_CREATE_SOURCE_QPN (1u << 10)

struct create_args {
	const struct uvio_qp_init_attr *attr;
	struct drv_bufs b;
	struct uvio_qp *qp;
	/* The caller's fields, read once within its sz. */
	uint32_t type, fields, create_flags, source_qpn;
	uint32_t pd, send_cq, recv_cq, xrcd, srq, ind_table;
	uint64_t user_handle;
	union hw_params hp;		/* qp.cap: asked, or as a driver's rules size it */
	const int *event_fd;
};

/* Which handles a QP of this type names (the kernel refuses extra ones on
 * the ioctl path and ignores them on write()). */
static bool needs_send_cq(const struct create_args *a)
{
	if (a->type == IB_UVERBS_QPT_XRC_TGT)
		return false;
	return !(a->fields & UVIO_QP_INIT_IND_TABLE) || a->hp.qp.cap.max_send_wr;
}

static bool needs_recv_cq(const struct create_args *a)
{
	return a->type != IB_UVERBS_QPT_XRC_TGT && a->type != IB_UVERBS_QPT_XRC_INI &&
	       !(a->fields & UVIO_QP_INIT_IND_TABLE);
}

static void qp_out(struct uvio_qp *out, uint32_t handle, uint32_t qpn,
		   const struct ib_uverbs_qp_cap *cap)
{
	UVIO_OUT_SET(out, handle, handle);
	UVIO_OUT_SET(out, qp_num, qpn);
	UVIO_OUT_SET(out, cap, *cap);
}

static int create_qp_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	struct ib_uverbs_qp_cap granted = { 0 };
	struct ib_uverbs_attr *handle;
	uint32_t qpn = 0;
	int ret;

	UVIO_VERB_CMD(dev, cmd, 16, p, CREATE_QP);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_CREATE_QP_HANDLE);
	if (a->type == IB_UVERBS_QPT_XRC_TGT) {
		fput_idr(&cmd, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, a->xrcd);
	} else {
		fput_idr(&cmd, UVERBS_ATTR_CREATE_QP_PD_HANDLE, a->pd);
		if (needs_send_cq(a))
			fput_idr(&cmd, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, a->send_cq);
		if (needs_recv_cq(a))
			fput_idr(&cmd, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, a->recv_cq);
	}
	if (a->fields & UVIO_QP_INIT_SRQ)
		fput_idr(&cmd, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, a->srq);
	if (a->fields & UVIO_QP_INIT_IND_TABLE)
		fput_idr(&cmd, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE, a->ind_table);
	fput_u64(&cmd, UVERBS_ATTR_CREATE_QP_USER_HANDLE, a->user_handle);
	fput_in(&cmd, UVERBS_ATTR_CREATE_QP_CAP, &a->hp.qp.cap, sizeof(a->hp.qp.cap));
	/* A CONST_IN attribute: the kernel reads a u64. */
	fput_u64(&cmd, UVERBS_ATTR_CREATE_QP_TYPE, a->type);
	if (a->create_flags)
		fput_u64(&cmd, UVERBS_ATTR_CREATE_QP_FLAGS, a->create_flags);
	if (a->fields & UVIO_QP_INIT_SOURCE_QPN)
		fput_u32(&cmd, UVERBS_ATTR_CREATE_QP_SOURCE_QPN, a->source_qpn);
	if (a->event_fd)
		fput_fd(&cmd, UVERBS_ATTR_CREATE_QP_EVENT_FD, *a->event_fd);
	fput_out(&cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP, &granted, sizeof(granted));
	fput_out(&cmd, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qpn, sizeof(qpn));
	uvio_put_drv(&cmd, &a->b);
	ret = uvio_dev_exec(dev, &cmd);
	uvio_drv_copy_back(&cmd, &a->b);
	if (ret)
		return ret;
	if (handle->data > UINT32_MAX)
		return -ERANGE;
	qp_out(a->qp, (uint32_t)handle->data, qpn, &granted);
	return 0;
}

/* The plain CREATE_QP is the extended struct's first part behind a response
 * address: one fill serves both. */
_Static_assert(offsetof(struct ib_uverbs_create_qp, user_handle) == sizeof(__u64) &&
	       offsetof(struct ib_uverbs_create_qp, is_srq) - sizeof(__u64) ==
		       offsetof(struct ib_uverbs_ex_create_qp, is_srq) &&
	       sizeof(struct ib_uverbs_create_qp) - sizeof(__u64) ==
		       offsetof(struct ib_uverbs_ex_create_qp, comp_mask),
	       "CREATE_QP is EX_CREATE_QP's head behind the response address");

static int create_qp_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const uint32_t sig_all = IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	UVIO_WRITE_BUF(struct ib_uverbs_ex_create_qp) c = { .core = {
		.user_handle = a->user_handle,
		/* XRC_TGT names its XRC domain where others name the PD. */
		.pd_handle = a->type == IB_UVERBS_QPT_XRC_TGT ? a->xrcd : a->pd,
		.send_cq_handle = a->send_cq,
		/* The kernel takes the send CQ where both handles agree. */
		.recv_cq_handle = needs_recv_cq(a) ? a->recv_cq : a->send_cq,
		.srq_handle = a->srq,
		.max_send_wr = a->hp.qp.cap.max_send_wr,
		.max_recv_wr = a->hp.qp.cap.max_recv_wr,
		.max_send_sge = a->hp.qp.cap.max_send_sge,
		.max_recv_sge = a->hp.qp.cap.max_recv_sge,
		.max_inline_data = a->hp.qp.cap.max_inline_data,
		.sq_sig_all = !!(a->create_flags & sig_all),
		.qp_type = (uint8_t)a->type,
		.is_srq = !!(a->fields & UVIO_QP_INIT_SRQ),
		.create_flags = a->create_flags & ~sig_all,
		.rwq_ind_tbl_handle = a->ind_table,
		.source_qpn = a->source_qpn,
	} };
	struct ib_uverbs_ex_create_qp_resp r;
	int ret;

	/* The write() commands take the context's async fd, always. */
	if (a->event_fd)
		return -EOPNOTSUPP;
	if (a->fields & UVIO_QP_INIT_IND_TABLE)
		c.core.comp_mask |= IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
	if (a->fields & UVIO_QP_INIT_SOURCE_QPN)
		c.core.create_flags |= KERNEL_QP_CREATE_SOURCE_QPN;
	if (c.core.create_flags || c.core.comp_mask) {
		ret = uvio_write(dev, p, VERB_WRITE2(CREATE_QP), c, &r, sizeof(r), &a->b);
	} else {
		UVIO_WRITE_BUF(struct ib_uverbs_create_qp) plain;

		memset(&plain.core, 0, sizeof(plain.core));
		memcpy(&plain.core.user_handle, &c.core, sizeof(plain.core) - sizeof(__u64));
		ret = uvio_write(dev, p, VERB_WRITE(CREATE_QP), plain, &r.base, sizeof(r.base),
				 &a->b);
	}
	if (ret)
		return ret;
	qp_out(a->qp, r.base.qp_handle, r.base.qpn,
	       &(struct ib_uverbs_qp_cap){ r.base.max_send_wr, r.base.max_recv_wr,
					   r.base.max_send_sge, r.base.max_recv_sge,
					   r.base.max_inline_data });
	return 0;
}

/* Output structs must at least hold the handle. */
#define OUT_OK(out, field) UVIO_OPT_HAS(out, field)

UVIO_API int uvio_create_qp(struct uvio_device *dev, const struct uvio_qp_init_attr *attr,
			    const struct uvio_drv *drv, struct uvio_qp *qp,
			    enum uvio_path *path)
{
	struct create_args a;	/* every field set below (b by the driver data's step) */
	struct uvio_qp_init_attr whole;
	const struct uvio_qp_init_attr *x = attr;
	int ret = UVIO_OPTS_CHECK(attr, event_fd, 1);

	if (!ret && !OUT_OK(qp, handle))
		ret = -EINVAL;
	if (!ret) {
		/* A shorter struct reads as zeros past its sz; a whole one is
		 * read where it is. */
		if (attr->sz < sizeof(*attr)) {
			memset(&whole, 0, sizeof(whole));
			memcpy(&whole, attr, attr->sz);
			whole.sz = sizeof(whole);
			x = &whole;
		}
		a.attr = attr;
		a.qp = qp;
		a.type = x->type;
		a.fields = x->fields;
		a.user_handle = x->user_handle;
		a.pd = x->pd_handle;
		a.send_cq = x->send_cq_handle;
		a.recv_cq = x->recv_cq_handle;
		a.xrcd = x->xrcd_handle;
		a.srq = x->srq_handle;
		a.ind_table = x->ind_table_handle;
		a.hp.qp.cap = x->cap;
		a.create_flags = x->create_flags;
		a.source_qpn = x->source_qpn;
		a.event_fd = x->event_fd;
		/* The write() commands carry the type in one byte: refuse
		 * what would wrap rather than create another type. */
		if (a.type > UINT8_MAX ||
		    (a.fields & ~(uint32_t)(UVIO_QP_INIT_SRQ | UVIO_QP_INIT_IND_TABLE |
					    UVIO_QP_INIT_SOURCE_QPN)))
			ret = -EINVAL;
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_QP), UVIO_PATH_AUTO, ret, path);
	a.hp.qp.type = a.type;
	a.hp.qp.srq = a.fields & UVIO_QP_INIT_SRQ;
	a.hp.qp.ind_table = a.fields & UVIO_QP_INIT_IND_TABLE;
	a.hp.qp.create_flags = a.create_flags;
	a.hp.qp.pd = a.pd;
	return uvio_run_hw_verb(dev, CREATE_QP, create_qp_ioctl, create_qp_write, &a,
				(&(struct hw_run){ drv, HW_QP, &a.hp, &a.b, &qp->handle }), path);
}

UVIO_API int uvio_destroy_qp(struct uvio_device *dev, uint32_t qp_handle,
			     struct uvio_events_reported *events, enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_QP, qp_handle, events, path);
}

/* struct uvio_av <-> the kernel's struct ib_uverbs_qp_dest */
static void av_to_kernel(struct ib_uverbs_qp_dest *d, const struct uvio_av *av)
{
	memcpy(d->dgid, av->dgid, sizeof(d->dgid));
	d->flow_label = av->flow_label;
	d->dlid = av->dlid;
	d->sgid_index = av->sgid_index;
	d->hop_limit = av->hop_limit;
	d->traffic_class = av->traffic_class;
	d->sl = av->sl;
	d->src_path_bits = av->src_path_bits;
	d->static_rate = av->static_rate;
	d->is_global = av->is_global;
	d->port_num = av->port_num;
}

static void av_from_kernel(struct uvio_av *av, const struct ib_uverbs_qp_dest *d)
{
	memcpy(av->dgid, d->dgid, sizeof(av->dgid));
	av->flow_label = d->flow_label;
	av->dlid = d->dlid;
	av->sgid_index = d->sgid_index;
	av->hop_limit = d->hop_limit;
	av->traffic_class = d->traffic_class;
	av->sl = d->sl;
	av->src_path_bits = d->src_path_bits;
	av->static_rate = d->static_rate;
	av->is_global = d->is_global;
	av->port_num = d->port_num;
}

struct modify_args {
	uint32_t handle;
	const struct uvio_qp_attr *attr;	/* whole: the caller's or short */
	struct uvio_qp_attr short_attr;		/* a shorter one, zero-extended */
	bool drv_given;
	struct drv_bufs b;
};

static void modify_fill(struct ib_uverbs_modify_qp *c, uint32_t handle,
			const struct uvio_qp_attr *x)
{
	*c = (struct ib_uverbs_modify_qp){
		.qp_handle = handle,
		.attr_mask = x->attr_mask,
		.qkey = x->qkey,
		.rq_psn = x->rq_psn,
		.sq_psn = x->sq_psn,
		.dest_qp_num = x->dest_qp_num,
		.qp_access_flags = x->qp_access_flags,
		.pkey_index = x->pkey_index,
		.alt_pkey_index = x->alt_pkey_index,
		.qp_state = x->qp_state,
		.cur_qp_state = x->cur_qp_state,
		.path_mtu = x->path_mtu,
		.path_mig_state = x->path_mig_state,
		.en_sqd_async_notify = x->en_sqd_async_notify,
		.max_rd_atomic = x->max_rd_atomic,
		.max_dest_rd_atomic = x->max_dest_rd_atomic,
		.min_rnr_timer = x->min_rnr_timer,
		.port_num = x->port_num,
		.timeout = x->timeout,
		.retry_cnt = x->retry_cnt,
		.rnr_retry = x->rnr_retry,
		.alt_port_num = x->alt_port_num,
		.alt_timeout = x->alt_timeout,
	};
	/* The kernel reads an address vector only when the mask names it;
	 * otherwise it goes as zeros. */
	if (x->attr_mask & UVIO_QP_AV)
		av_to_kernel(&c->dest, &x->ah);
	if (x->attr_mask & UVIO_QP_ALT_PATH)
		av_to_kernel(&c->alt_dest, &x->alt_ah);
}

static int modify_qp_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct modify_args *a = args;
	const struct uvio_qp_attr *x = a->attr;
	UVIO_WRITE_BUF(struct ib_uverbs_ex_modify_qp) c;
	struct ib_uverbs_ex_modify_qp_resp r;

	modify_fill(&c.core.base, a->handle, x);
	/* The plain command carries the standard attributes and no driver
	 * data; anything else needs the extended one. The plain core is the
	 * extended one's head. */
	if (!(x->attr_mask & ~UVIO_QP_STANDARD_BITS) && !a->drv_given)
		return uvio_write_run(dev, p, VERB_WRITE(MODIFY_QP), c.room, sizeof(c.core.base),
				      NULL, 0, NULL);
	c.core.rate_limit = x->rate_limit;
	c.core.reserved = 0;
	/* The extended command without the caller's driver data: the
	 * default response space (drv_prepare() was not run for it). */
	if (!a->drv_given)
		drv_prepare(dev, VERB_NAME(MODIFY_QP), NULL, &a->b);
	return uvio_write(dev, p, VERB_WRITE2(MODIFY_QP), c, &r, sizeof(r), &a->b);
}

UVIO_API int uvio_modify_qp(struct uvio_device *dev, uint32_t qp_handle,
			    const struct uvio_qp_attr *attr, const struct uvio_drv *drv,
			    enum uvio_path *path)
{
	struct modify_args a;
	int ret = UVIO_OPTS_CHECK(attr, rate_limit, 1);

	a.handle = qp_handle;
	a.attr = attr;
	if (!ret) {
		/* Fields past a shorter caller's sz read as zero; a whole
		 * struct is read where it is. */
		if (attr->sz < sizeof(*attr)) {
			memset(&a.short_attr, 0, sizeof(a.short_attr));
			a.short_attr.sz = sizeof(a.short_attr);
			uvio_out_copy(&a.short_attr, attr, attr->sz);
			a.attr = &a.short_attr;
		}
		/* Without driver data the plain command goes, which has
		 * no room for any: nothing to prepare. */
		a.drv_given = UVIO_OPT(drv, in_len) || UVIO_OPT(drv, out_len) ||
			      UVIO_OPT(drv, attrs);
		if (drv)
			ret = drv_prepare(dev, VERB_NAME(MODIFY_QP), drv, &a.b);
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(MODIFY_QP), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, MODIFY_QP, NULL, modify_qp_write, &a, path);
}

struct query_args {
	uint32_t handle, mask;
	struct uvio_qp_attr *out;
};

static int query_qp_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct query_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_query_qp) c = { .core = { .qp_handle = a->handle, .attr_mask = a->mask } };
	struct ib_uverbs_query_qp_resp r;
	struct uvio_qp_attr whole, *x;
	size_t sz = a->out->sz;
	int ret = uvio_write(dev, p, VERB_WRITE(QUERY_QP), c, &r, sizeof(r), NULL);

	if (ret)
		return ret;
	/* A caller's struct of this header's size or larger is filled in
	 * place, every field this library knows written (sz kept); a shorter
	 * one gets what fits of a whole one. */
	x = sz >= sizeof(*x) ? a->out : &whole;
	*x = (struct uvio_qp_attr){
		.sz = x == &whole ? sizeof(whole) : sz,
		.attr_mask = a->mask,
		.qp_state = r.qp_state,
		.cur_qp_state = r.cur_qp_state,
		.path_mtu = r.path_mtu,
		.path_mig_state = r.path_mig_state,
		.qkey = r.qkey,
		.rq_psn = r.rq_psn,
		.sq_psn = r.sq_psn,
		.dest_qp_num = r.dest_qp_num,
		.qp_access_flags = r.qp_access_flags,
		.pkey_index = r.pkey_index,
		.alt_pkey_index = r.alt_pkey_index,
		.sq_draining = r.sq_draining,
		.max_rd_atomic = r.max_rd_atomic,
		.max_dest_rd_atomic = r.max_dest_rd_atomic,
		.min_rnr_timer = r.min_rnr_timer,
		.port_num = r.port_num,
		.timeout = r.timeout,
		.retry_cnt = r.retry_cnt,
		.rnr_retry = r.rnr_retry,
		.alt_port_num = r.alt_port_num,
		.alt_timeout = r.alt_timeout,
		.sq_sig_all = r.sq_sig_all,
		.cap = { r.max_send_wr, r.max_recv_wr, r.max_send_sge, r.max_recv_sge,
			 r.max_inline_data },
	};
	av_from_kernel(&x->ah, &r.dest);
	av_from_kernel(&x->alt_ah, &r.alt_dest);
	if (x == &whole)
		uvio_out_copy(a->out, &whole, sizeof(whole));
	return 0;
}

UVIO_API int uvio_query_qp(struct uvio_device *dev, uint32_t qp_handle, uint32_t attr_mask,
			   struct uvio_qp_attr *attr, enum uvio_path *path)
{
	struct query_args a = { .handle = qp_handle, .mask = attr_mask, .out = attr };

	if (!OUT_OK(attr, qp_state))
		return uvio_verb_end(dev, VERB_NAME(QUERY_QP), UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_verb(dev, QUERY_QP, NULL, query_qp_write, &a, path);
}

struct open_args {
	struct drv_bufs b;
	struct uvio_qp *qp;
	UVIO_WRITE_BUF(struct ib_uverbs_open_qp) c;	/* last: it ends in a flexible array */
};

static int open_qp_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct open_args *a = args;
	struct ib_uverbs_create_qp_resp r;
	struct ib_uverbs_qp_cap cap;
	int ret = uvio_write(dev, p, VERB_WRITE(OPEN_QP), a->c, &r, sizeof(r), &a->b);

	if (ret)
		return ret;
	cap = (struct ib_uverbs_qp_cap){
		r.max_send_wr, r.max_recv_wr, r.max_send_sge, r.max_recv_sge, r.max_inline_data,
	};
	qp_out(a->qp, r.qp_handle, r.qpn, &cap);
	return 0;
}

UVIO_API int uvio_open_qp(struct uvio_device *dev, const struct uvio_open_qp_attr *attr,
			  const struct uvio_drv *drv, struct uvio_qp *qp,
			  enum uvio_path *path)
{
	struct open_args a = { .qp = qp };
	int ret = UVIO_OPTS_CHECK(attr, type, 1);

	if (!ret && !OUT_OK(qp, handle))
		ret = -EINVAL;
	if (!ret) {
		a.c.core.user_handle = UVIO_OPT(attr, user_handle);
		a.c.core.pd_handle = UVIO_OPT(attr, xrcd_handle);
		a.c.core.qpn = UVIO_OPT(attr, qp_num);
		if (UVIO_OPT(attr, type) > UINT8_MAX)
			ret = -EINVAL;
		a.c.core.qp_type = (uint8_t)UVIO_OPT(attr, type);
	}
	if (!ret)
		ret = drv_prepare(dev, VERB_NAME(OPEN_QP), drv, &a.b);
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(OPEN_QP), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, OPEN_QP, NULL, open_qp_write, &a, path);
}

struct mcast_args {
	uint32_t command;
	UVIO_WRITE_BUF(struct ib_uverbs_attach_mcast) c;	/* DETACH_MCAST has the same layout */
};

_Static_assert(sizeof(struct ib_uverbs_attach_mcast) == sizeof(struct ib_uverbs_detach_mcast),
	       "attach and detach share a layout");

static int mcast_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct mcast_args *a = args;

	return uvio_write(dev, p, a->command, a->c, NULL, 0, NULL);
}

static int mcast(struct uvio_device *dev, enum uvio_verb v, uint32_t qp_handle,
		 const uint8_t gid[16], uint16_t mlid, enum uvio_path *path)
{
	const char *name = uvio_verb_rows[v].name;
	struct mcast_args a = {
		.command = uvio_verb_rows[v].write,
		.c.core = { .qp_handle = qp_handle, .mlid = mlid },
	};

	if (!gid)
		return uvio_verb_end(dev, name, UVIO_PATH_AUTO, -EINVAL, path);
	memcpy(a.c.core.gid, gid, sizeof(a.c.core.gid));
	{
		const struct uvio_verb_desc d = {
			.verb = v, .name = name, .on_write = mcast_write,
		};

		return uvio_run_verb_desc(dev, &d, &a, path);
	}
}

UVIO_API int uvio_attach_mcast(struct uvio_device *dev, uint32_t qp_handle,
			       const uint8_t gid[16], uint16_t mlid, enum uvio_path *path)
{
	return mcast(dev, UVIO_VERB_ATTACH_MCAST, qp_handle, gid, mlid, path);
}

UVIO_API int uvio_detach_mcast(struct uvio_device *dev, uint32_t qp_handle,
			       const uint8_t gid[16], uint16_t mlid, enum uvio_path *path)
{
	return mcast(dev, UVIO_VERB_DETACH_MCAST, qp_handle, gid, mlid, path);
}
