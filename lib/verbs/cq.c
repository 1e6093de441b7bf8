// SPDX-License-Identifier: MIT
/* CQ CREATE, DESTROY, RESIZE and MODIFY. */
#include "verb.h"
#include "destroy.h"

struct create_args {
	const struct uvio_cq_attr *attr;
	struct drv_bufs b;
	struct uvio_cq *cq;
	union hw_params hp;		/* cq.cqe: asked, or as a driver's rules round it */
};

static int channel_fd(const struct uvio_cq_attr *attr)
{
	const struct uvio_comp_channel *ch = UVIO_OPT(attr, channel);

	return UVIO_OPT_HAS(ch, fd) ? ch->fd : -1;
}

static void cq_out(struct uvio_cq *cq, uint32_t handle, uint32_t cqe)
{
	UVIO_OUT_SET(cq, handle, handle);
	UVIO_OUT_SET(cq, cqe, cqe);
}

static int create_cq_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const struct uvio_cq_attr *attr = a->attr;
	struct ib_uverbs_attr *handle;
	uint32_t cqe = 0, flags = UVIO_OPT(attr, flags);
	int ret;

	UVIO_VERB_CMD(dev, cmd, 9, p, CREATE_CQ);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	fput_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, a->hp.cq.cqe);
	fput_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, UVIO_OPT(attr, user_handle));
	if (channel_fd(attr) >= 0)
		fput_fd(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, channel_fd(attr));
	fput_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, UVIO_OPT(attr, comp_vector));
	if (flags)
		fput_u64(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, flags);
	fput_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
	uvio_put_drv(&cmd, &a->b);
	ret = uvio_dev_exec(dev, &cmd);
	uvio_drv_copy_back(&cmd, &a->b);
	if (ret)
		return ret;
	/* The attribute the put returned holds the handle: no lookup. */
	if (handle->data > UINT32_MAX)
		return -ERANGE;
	cq_out(a->cq, (uint32_t)handle->data, cqe);
	return 0;
}

static int create_cq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const struct uvio_cq_attr *attr = a->attr;
	int ret;

	/* Flags need the extended command; without them the plain one, which
	 * every kernel has. */
	if (UVIO_OPT(attr, flags)) {
		UVIO_WRITE_BUF(struct ib_uverbs_ex_create_cq) c = { .core = {
			.user_handle = UVIO_OPT(attr, user_handle),
			.cqe = a->hp.cq.cqe,
			.comp_vector = UVIO_OPT(attr, comp_vector),
			.comp_channel = channel_fd(attr),
			.flags = UVIO_OPT(attr, flags),
		} };
		struct ib_uverbs_ex_create_cq_resp r;

		ret = uvio_write(dev, p, VERB_WRITE2(CREATE_CQ), c, &r, sizeof(r), &a->b);
		if (!ret)
			cq_out(a->cq, r.base.cq_handle, r.base.cqe);
	} else {
		UVIO_WRITE_BUF(struct ib_uverbs_create_cq) c = { .core = {
			.user_handle = UVIO_OPT(attr, user_handle),
			.cqe = a->hp.cq.cqe,
			.comp_vector = UVIO_OPT(attr, comp_vector),
			.comp_channel = channel_fd(attr),
		} };
		struct ib_uverbs_create_cq_resp r;

		ret = uvio_write(dev, p, VERB_WRITE(CREATE_CQ), c, &r, sizeof(r), &a->b);
		if (!ret)
			cq_out(a->cq, r.cq_handle, r.cqe);
	}
	return ret;
}

UVIO_API int uvio_create_cq(struct uvio_device *dev, const struct uvio_cq_attr *attr,
			    const struct uvio_drv *drv, struct uvio_cq *cq,
			    enum uvio_path *path)
{
	struct create_args a;	/* every field set below (b by the driver data's step) */
	int ret = UVIO_OPTS_CHECK(attr, flags, 1);

	/* a handle the caller cannot see would live on unseen */
	if (!ret && !UVIO_OPT_HAS(cq, handle))
		ret = -EINVAL;
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_CQ), UVIO_PATH_AUTO, ret, path);
	a.attr = attr;
	a.cq = cq;
	a.hp.cq.cqe = UVIO_OPT(attr, cqe);
	a.hp.cq.handle = 0;
	a.hp.cq.channel = channel_fd(attr) >= 0;
	return uvio_run_hw_verb(dev, CREATE_CQ, create_cq_ioctl, create_cq_write, &a,
				(&(struct hw_run){ drv, HW_CQ, &a.hp, &a.b, &cq->handle }), path);
}

UVIO_API int uvio_destroy_cq(struct uvio_device *dev, uint32_t handle,
			     struct uvio_events_reported *events, enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_CQ, handle, events, path);
}

struct resize_args {
	struct drv_bufs b;
	struct uvio_cq *cq;
	UVIO_WRITE_BUF(struct ib_uverbs_resize_cq) c;	/* last: it ends in a flexible array */
};

static int resize_cq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct resize_args *a = args;
	struct ib_uverbs_resize_cq_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(RESIZE_CQ), a->c, &r, sizeof(r), &a->b);

	if (!ret && a->cq)
		cq_out(a->cq, a->c.core.cq_handle, r.cqe);
	return ret;
}

UVIO_API int uvio_resize_cq(struct uvio_device *dev, const struct uvio_cq_resize_attr *attr,
			    const struct uvio_drv *drv, struct uvio_cq *cq,
			    enum uvio_path *path)
{
	struct resize_args a = { .cq = cq };
	union hw_params hp;
	struct hw_call hc;
	int ret = UVIO_OPTS_CHECK(attr, cqe, 1);

	if (!ret && cq)
		ret = uvio_out_check(cq);
	if (!ret) {
		a.c.core.cq_handle = UVIO_OPT(attr, cq_handle);
		a.c.core.cqe = UVIO_OPT(attr, cqe);
		hp.cq.cqe = a.c.core.cqe;
		hp.cq.handle = a.c.core.cq_handle;
		ret = drv_prepare_hw(dev, VERB_NAME(RESIZE_CQ), drv, HW_CQ_RESIZE, &hc, &hp, &a.b);
		if (ret)
			return drv_refused(dev, VERB_NAME(RESIZE_CQ), &hc, ret, path);
		a.c.core.cqe = hp.cq.cqe;
	}

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(RESIZE_CQ), UVIO_PATH_AUTO, ret, path);
	ret = uvio_run_verb(dev, RESIZE_CQ, NULL, resize_cq_write, &a, path);
	drv_finish_hw(dev, drv, &hc, ret, a.c.core.cq_handle);
	return ret;
}

static int modify_cq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	UVIO_WRITE_BUF(struct ib_uverbs_ex_modify_cq) *c = args;

	return uvio_write(dev, p, VERB_WRITE(MODIFY_CQ), *c, NULL, 0, NULL);
}

UVIO_API int uvio_modify_cq(struct uvio_device *dev, const struct uvio_cq_moderation *attr,
			    enum uvio_path *path)
{
	UVIO_WRITE_BUF(struct ib_uverbs_ex_modify_cq) c = { .core = {
		.cq_handle = UVIO_OPT(attr, cq_handle),
		.attr_mask = 1,		/* IB_CQ_MODERATE, the only one */
		.attr = { .cq_count = UVIO_OPT(attr, count), .cq_period = UVIO_OPT(attr, period) },
	} };
	int ret = UVIO_OPTS_CHECK(attr, period, 1);

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(MODIFY_CQ), UVIO_PATH_AUTO, ret, path);

	return uvio_run_verb(dev, MODIFY_CQ, NULL, modify_cq_write, &c, path);
}
