// SPDX-License-Identifier: MIT
/* SRQ: basic, XRC and tag matching. */
#include <uvio/srq.h>
#include "obj.h"
#include "destroy.h"

struct create_args {
	struct uvio_srq_attr in;	/* the caller's, cut to what it gave */
	/* srq.max_wr, max_sge: asked, or as the driver's rules round them
	 * (what the kernel sizes) */
	union hw_params hp;
	struct drv_bufs b;
	struct uvio_srq *srq;
};

static int create_srq_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const struct uvio_srq_attr *in = &a->in;
	struct ib_uverbs_attr *handle;
	uint32_t max_wr = 0, max_sge = 0, srq_num = 0, h;
	int ret;

	UVIO_VERB_CMD(dev, cmd, 15, p, CREATE_SRQ);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_CREATE_SRQ_HANDLE);
	fput_idr(&cmd, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, in->pd_handle);
	/* A "const" attribute: a u64 whatever the enum. */
	fput_u64(&cmd, UVERBS_ATTR_CREATE_SRQ_TYPE, in->type);
	fput_u64(&cmd, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, in->user_handle);
	fput_u32(&cmd, UVERBS_ATTR_CREATE_SRQ_MAX_WR, a->hp.srq.max_wr);
	fput_u32(&cmd, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, a->hp.srq.max_sge);
	fput_u32(&cmd, UVERBS_ATTR_CREATE_SRQ_LIMIT, in->srq_limit);
	if (in->type == IB_UVERBS_SRQT_XRC)
		fput_idr(&cmd, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE, in->xrcd_handle);
	if (in->type == IB_UVERBS_SRQT_XRC || in->type == IB_UVERBS_SRQT_TM)
		fput_idr(&cmd, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE, in->cq_handle);
	if (in->type == IB_UVERBS_SRQT_TM)
		fput_u32(&cmd, UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, in->max_num_tags);
	if (in->event_fd)
		fput_fd(&cmd, UVERBS_ATTR_CREATE_SRQ_EVENT_FD, *in->event_fd);
	fput_out(&cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &max_wr, sizeof(max_wr));
	fput_out(&cmd, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &max_sge, sizeof(max_sge));
	/* Filled for XRC only; zero otherwise, as write() answers. */
	uvio_attr_optional(fput_out(&cmd, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM,
					    &srq_num, sizeof(srq_num)));
	ret = obj_exec_new(dev, &cmd, &a->b, handle, &h);
	if (ret)
		return ret;
	a->srq->handle = h;
	UVIO_OUT_SET(a->srq, max_wr, max_wr);
	UVIO_OUT_SET(a->srq, max_sge, max_sge);
	UVIO_OUT_SET(a->srq, srq_num, srq_num);
	return 0;
}

static int create_srq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const struct uvio_srq_attr *in = &a->in;
	struct ib_uverbs_create_srq_resp r;
	int ret;

	/* The write() commands always take the context's async fd. */
	if (in->event_fd)
		return -EOPNOTSUPP;
	/* The first command knows basic SRQs only; the second any type. */
	if (in->type == IB_UVERBS_SRQT_BASIC) {
		UVIO_WRITE_BUF(struct ib_uverbs_create_srq) c = { .core = {
			.user_handle = in->user_handle,
			.pd_handle = in->pd_handle,
			.max_wr = a->hp.srq.max_wr,
			.max_sge = a->hp.srq.max_sge,
			.srq_limit = in->srq_limit,
		} };

		ret = uvio_write(dev, p, VERB_WRITE(CREATE_SRQ), c, &r, sizeof(r), &a->b);
	} else {
		UVIO_WRITE_BUF(struct ib_uverbs_create_xsrq) c = { .core = {
			.user_handle = in->user_handle,
			.srq_type = in->type,
			.pd_handle = in->pd_handle,
			.max_wr = a->hp.srq.max_wr,
			.max_sge = a->hp.srq.max_sge,
			.srq_limit = in->srq_limit,
			.max_num_tags = in->max_num_tags,
			.xrcd_handle = in->xrcd_handle,
			.cq_handle = in->cq_handle,
		} };

		ret = uvio_write(dev, p, VERB_WRITE2(CREATE_SRQ), c, &r, sizeof(r), &a->b);
	}
	if (ret)
		return ret;
	a->srq->handle = r.srq_handle;
	UVIO_OUT_SET(a->srq, max_wr, r.max_wr);
	UVIO_OUT_SET(a->srq, max_sge, r.max_sge);
	UVIO_OUT_SET(a->srq, srq_num, r.srqn);
	return 0;
}

UVIO_API int uvio_create_srq(struct uvio_device *dev, const struct uvio_srq_attr *attr,
			     const struct uvio_drv *drv, struct uvio_srq *srq,
			     enum uvio_path *path)
{
	struct create_args a = { .srq = srq };
	int ret = obj_in(&a.in, sizeof(a.in), attr,
			 uvio_offsetofend(struct uvio_srq_attr, event_fd));

	if (!ret)
		ret = obj_out(srq, uvio_offsetofend(struct uvio_srq, handle));
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_SRQ), UVIO_PATH_AUTO, ret, path);
	a.hp.srq.type = a.in.type;
	a.hp.srq.max_wr = a.in.max_wr;
	a.hp.srq.max_sge = a.in.max_sge;
	return uvio_run_hw_verb(dev, CREATE_SRQ, create_srq_ioctl, create_srq_write, &a,
				(&(struct hw_run){ drv, HW_SRQ, &a.hp, &a.b, &srq->handle }), path);
}

struct modify_args {
	struct drv_bufs b;
	UVIO_WRITE_BUF(struct ib_uverbs_modify_srq) c;	/* last: it ends in a flexible array */
};

static int modify_srq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct modify_args *a = args;

	return uvio_write(dev, p, VERB_WRITE(MODIFY_SRQ), a->c, NULL, 0, &a->b);
}

UVIO_API int uvio_modify_srq(struct uvio_device *dev, uint32_t srq_handle,
			     const struct uvio_srq_modify *attr, const struct uvio_drv *drv,
			     enum uvio_path *path)
{
	struct modify_args a = { .c.core.srq_handle = srq_handle };
	struct uvio_srq_modify in;
	int ret = obj_in(&in, sizeof(in), attr,
			 uvio_offsetofend(struct uvio_srq_modify, srq_limit));

	if (!ret) {
		a.c.core.attr_mask = in.attr_mask;
		a.c.core.max_wr = in.max_wr;
		a.c.core.srq_limit = in.srq_limit;
		ret = drv_prepare(dev, VERB_NAME(MODIFY_SRQ), drv, &a.b);
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(MODIFY_SRQ), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, MODIFY_SRQ, NULL, modify_srq_write, &a, path);
}

struct query_args {
	uint32_t handle;
	struct uvio_srq_state *out;
};

static int query_srq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct query_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_query_srq) c = { .core = { .srq_handle = a->handle } };
	struct ib_uverbs_query_srq_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(QUERY_SRQ), c, &r, sizeof(r), NULL);

	if (ret)
		return ret;
	UVIO_OUT_SET(a->out, max_wr, r.max_wr);
	UVIO_OUT_SET(a->out, max_sge, r.max_sge);
	UVIO_OUT_SET(a->out, srq_limit, r.srq_limit);
	return 0;
}

UVIO_API int uvio_query_srq(struct uvio_device *dev, uint32_t srq_handle,
			    struct uvio_srq_state *state, enum uvio_path *path)
{
	struct query_args a = { .handle = srq_handle, .out = state };

	if (obj_out(state, sizeof(size_t)))
		return uvio_verb_end(dev, VERB_NAME(QUERY_SRQ), UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_verb(dev, QUERY_SRQ, NULL, query_srq_write, &a, path);
}

UVIO_API int uvio_destroy_srq(struct uvio_device *dev, uint32_t srq_handle,
			      struct uvio_events_reported *events, enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_SRQ, srq_handle, events, path);
}

