// SPDX-License-Identifier: MIT
/* CQ CREATE and DESTROY. */
#include <uvio/verbs.h>
#include "drv.h"

struct create_args {
	const struct uvio_cq_attr *attr;
	struct drv_bufs b;
	struct uvio_cq *cq;
};

static int create_cq_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	struct ib_uverbs_attr *handle;
	uint32_t cqe = 0;
	int ret;

	UVIO_DEV_CMD(dev, cmd, 9, p, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	handle = uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, a->attr->cqe);
	uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, a->attr->user_handle);
	if (a->attr->channel_fd >= 0)
		uvio_put_fd(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, a->attr->channel_fd);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, a->attr->comp_vector);
	if (a->attr->flags)
		uvio_put_flags(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, a->attr->flags);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
	if (a->b.in_len)
		uvio_put_uhw_in(&cmd, a->b.in, a->b.in_len);
	uvio_put_uhw_out(&cmd, a->b.out, a->b.out_len);
	ret = uvio_dev_exec(dev, &cmd);
	if (ret)
		return ret;
	/* The attribute the put returned holds the handle: no lookup. */
	if (handle->data > UINT32_MAX)
		return -ERANGE;
	a->cq->handle = (uint32_t)handle->data;
	a->cq->cqe = cqe;
	return 0;
}

static int create_cq_write(struct uvio_device *dev, void *args)
{
	struct create_args *a = args;
	struct ib_uverbs_create_cq c = {
		.user_handle = a->attr->user_handle,
		.cqe = a->attr->cqe,
		.comp_vector = a->attr->comp_vector,
		.comp_channel = a->attr->channel_fd,
	};
	struct ib_uverbs_create_cq_resp r;
	int ret;

	/* The plain write() command has no field for flags: refuse rather
	 * than drop them. */
	if (a->attr->flags)
		return -EOPNOTSUPP;
	ret = uvio_legacy_cmd(dev, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), &r, sizeof(r),
			      &a->b);
	if (ret)
		return ret;
	a->cq->handle = r.cq_handle;
	a->cq->cqe = r.cqe;
	return 0;
}

UVIO_API int uvio_create_cq(struct uvio_device *dev, const struct uvio_cq_attr *attr,
			    const struct uvio_drv *drv, struct uvio_cq *cq,
			    enum uvio_path *path)
{
	struct create_args a = { .attr = attr, .cq = cq };
	int ret = attr && cq ? drv_prepare(dev, "CQ.CREATE", drv, &a.b) : -EINVAL;

	if (ret)
		return uvio_verb_end(dev, "CQ.CREATE", UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, UVIO_VERB_CREATE_CQ, "CQ.CREATE", create_cq_ioctl,
			     create_cq_write, &a, path);
}

struct destroy_args {
	uint32_t handle;
	struct ib_uverbs_destroy_cq_resp resp;
};

static int destroy_cq_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct destroy_args *a = args;

	UVIO_DEV_CMD(dev, cmd, 2, p, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, a->handle);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &a->resp, sizeof(a->resp));
	return uvio_dev_exec(dev, &cmd);
}

static int destroy_cq_write(struct uvio_device *dev, void *args)
{
	struct destroy_args *a = args;
	struct ib_uverbs_destroy_cq c = { .cq_handle = a->handle };

	return uvio_legacy_cmd(dev, IB_USER_VERBS_CMD_DESTROY_CQ, &c, sizeof(c), &a->resp,
			       sizeof(a->resp), NULL);
}

UVIO_API int uvio_destroy_cq(struct uvio_device *dev, uint32_t handle,
			     struct uvio_cq_events *events, enum uvio_path *path)
{
	struct destroy_args a = { .handle = handle };
	int ret = uvio_run_verb(dev, UVIO_VERB_DESTROY_CQ, "CQ.DESTROY", destroy_cq_ioctl,
				destroy_cq_write, &a, path);

	if (!ret && events) {
		events->comp_events_reported = a.resp.comp_events_reported;
		events->async_events_reported = a.resp.async_events_reported;
	}
	return ret;
}
