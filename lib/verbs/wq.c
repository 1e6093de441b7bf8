// SPDX-License-Identifier: MIT
/*
 * WQ: created by the native method WQ/CREATE or the extended command
 * EX_CMD_CREATE_WQ, modified by EX_CMD_MODIFY_WQ only, destroyed by WQ/DESTROY
 * or EX_CMD_DESTROY_WQ. RWQ indirection tables: created by
 * EX_CMD_CREATE_RWQ_IND_TBL only, destroyed by RWQ_IND_TBL/DESTROY or
 * EX_CMD_DESTROY_RWQ_IND_TBL.
 */
#include <uvio/wq.h>
#include "obj.h"
#include "destroy.h"

struct create_args {
	struct uvio_wq_attr in;
	struct drv_bufs b;
	struct uvio_wq *wq;
};

static void wq_out(struct uvio_wq *wq, uint32_t handle, uint32_t max_wr, uint32_t max_sge,
		   uint32_t wq_num)
{
	wq->handle = handle;
	UVIO_OUT_SET(wq, max_wr, max_wr);
	UVIO_OUT_SET(wq, max_sge, max_sge);
	UVIO_OUT_SET(wq, wq_num, wq_num);
}

static int create_wq_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const struct uvio_wq_attr *in = &a->in;
	struct ib_uverbs_attr *handle;
	uint32_t max_wr = 0, max_sge = 0, wq_num = 0, h;
	int ret;

	UVIO_VERB_CMD(dev, cmd, 14, p, CREATE_WQ);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_CREATE_WQ_HANDLE);
	fput_idr(&cmd, UVERBS_ATTR_CREATE_WQ_PD_HANDLE, in->pd_handle);
	fput_idr(&cmd, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE, in->cq_handle);
	fput_u64(&cmd, UVERBS_ATTR_CREATE_WQ_TYPE, in->type);	/* const: u64 */
	fput_u64(&cmd, UVERBS_ATTR_CREATE_WQ_USER_HANDLE, in->user_handle);
	fput_u32(&cmd, UVERBS_ATTR_CREATE_WQ_MAX_WR, in->max_wr);
	fput_u32(&cmd, UVERBS_ATTR_CREATE_WQ_MAX_SGE, in->max_sge);
	fput_u64(&cmd, UVERBS_ATTR_CREATE_WQ_FLAGS, in->flags);
	if (in->event_fd)
		fput_fd(&cmd, UVERBS_ATTR_CREATE_WQ_EVENT_FD, *in->event_fd);
	fput_out(&cmd, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR, &max_wr, sizeof(max_wr));
	fput_out(&cmd, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE, &max_sge, sizeof(max_sge));
	uvio_attr_optional(fput_out(&cmd, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM, &wq_num,
					    sizeof(wq_num)));
	ret = obj_exec_new(dev, &cmd, &a->b, handle, &h);
	if (!ret)
		wq_out(a->wq, h, max_wr, max_sge, wq_num);
	return ret;
}

static int create_wq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	const struct uvio_wq_attr *in = &a->in;
	UVIO_WRITE_BUF(struct ib_uverbs_ex_create_wq) c = { .core = {
		.wq_type = in->type,
		.user_handle = in->user_handle,
		.pd_handle = in->pd_handle,
		.cq_handle = in->cq_handle,
		.max_wr = in->max_wr,
		.max_sge = in->max_sge,
		.create_flags = in->flags,
	} };
	struct ib_uverbs_ex_create_wq_resp r;
	int ret;

	/* The extended command always takes the context's async fd. */
	if (in->event_fd)
		return -EOPNOTSUPP;
	ret = uvio_write(dev, p, VERB_WRITE(CREATE_WQ), c, &r, sizeof(r), &a->b);
	if (!ret)
		wq_out(a->wq, r.wq_handle, r.max_wr, r.max_sge, r.wqn);
	return ret;
}

UVIO_API int uvio_create_wq(struct uvio_device *dev, const struct uvio_wq_attr *attr,
			    const struct uvio_drv *drv, struct uvio_wq *wq,
			    enum uvio_path *path)
{
	struct create_args a = { .wq = wq };
	int ret = obj_in(&a.in, sizeof(a.in), attr, uvio_offsetofend(struct uvio_wq_attr, event_fd));

	if (!ret)
		ret = obj_out(wq, uvio_offsetofend(struct uvio_wq, handle));
	if (!ret)
		ret = drv_prepare(dev, VERB_NAME(CREATE_WQ), drv, &a.b);
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_WQ), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, CREATE_WQ, create_wq_ioctl, create_wq_write, &a, path);
}

struct modify_args {
	UVIO_WRITE_BUF(struct ib_uverbs_ex_modify_wq) c;
	struct drv_bufs b;
};

static int modify_wq_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct modify_args *a = args;

	return uvio_write(dev, p, VERB_WRITE(MODIFY_WQ), a->c, NULL, 0, &a->b);
}

UVIO_API int uvio_modify_wq(struct uvio_device *dev, uint32_t wq_handle,
			    const struct uvio_wq_modify *attr, const struct uvio_drv *drv,
			    enum uvio_path *path)
{
	struct modify_args a = { .c.core.wq_handle = wq_handle };
	struct uvio_wq_modify in;
	int ret = obj_in(&in, sizeof(in), attr, uvio_offsetofend(struct uvio_wq_modify, flags_mask));

	if (!ret) {
		a.c.core.attr_mask = in.attr_mask;
		a.c.core.wq_state = in.state;
		a.c.core.curr_wq_state = in.cur_state;
		a.c.core.flags = in.flags;
		a.c.core.flags_mask = in.flags_mask;
		ret = drv_prepare(dev, VERB_NAME(MODIFY_WQ), drv, &a.b);
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(MODIFY_WQ), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, MODIFY_WQ, NULL, modify_wq_write, &a, path);
}

UVIO_API int uvio_destroy_wq(struct uvio_device *dev, uint32_t wq_handle,
			     struct uvio_events_reported *events, enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_WQ, wq_handle, events, path);
}

struct table_args {
	/* struct ib_uverbs_ex_create_rwq_ind_table's head; the handles follow */
	struct { uint32_t comp_mask, log_ind_tbl_size; } c;
	const uint32_t *handles;
	size_t n;
	struct uvio_rwq_ind_table *table;
};
_Static_assert(sizeof(struct ib_uverbs_ex_create_rwq_ind_table) == 8 &&
	       offsetof(struct ib_uverbs_ex_create_rwq_ind_table, log_ind_tbl_size) == 4,
	       "comp_mask and log size, then the handles");

static int create_table_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct table_args *a = args;
	struct ib_uverbs_ex_create_rwq_ind_table_resp r;
	/* The head, then the handles, after the headers' room. */
	uint64_t buf[(UVIO_WRITE_ROOM + sizeof(a->c) +
		      (sizeof(uint32_t) << UVIO_MAX_LOG_IND_TBL_SIZE)) / 8];
	uint8_t *core = (uint8_t *)buf + UVIO_WRITE_ROOM;
	/* The kernel reads at least two handles (an 8-byte word) even for a
	 * table of one. */
	size_t n = a->n < 2 ? 2 : a->n;
	int ret;

	memcpy(core, &a->c, sizeof(a->c));
	memcpy(core + sizeof(a->c), a->handles, a->n * sizeof(*a->handles));
	if (n != a->n)
		memset(core + sizeof(a->c) + a->n * sizeof(*a->handles), 0,
		       (n - a->n) * sizeof(*a->handles));
	ret = uvio_write_run(dev, p, VERB_WRITE(CREATE_RWQ_IND_TBL), buf,
			     sizeof(a->c) + n * sizeof(*a->handles), &r, sizeof(r), NULL);

	if (ret)
		return ret;
	a->table->handle = r.ind_tbl_handle;
	UVIO_OUT_SET(a->table, ind_tbl_num, r.ind_tbl_num);
	return 0;
}

UVIO_API int uvio_create_rwq_ind_table(struct uvio_device *dev, uint32_t log_size,
				       const uint32_t *wq_handles,
				       struct uvio_rwq_ind_table *table,
				       enum uvio_path *path)
{
	struct table_args a = { .table = table };
	size_t n = (size_t)1 << (log_size <= UVIO_MAX_LOG_IND_TBL_SIZE ? log_size : 0);
	int ret = obj_out(table, uvio_offsetofend(struct uvio_rwq_ind_table, handle));

	if (!ret && !wq_handles)
		ret = -EINVAL;
	if (!ret && log_size > UVIO_MAX_LOG_IND_TBL_SIZE)
		ret = -E2BIG;
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_RWQ_IND_TBL), UVIO_PATH_AUTO, ret, path);
	a.c.log_ind_tbl_size = log_size;
	a.handles = wq_handles;
	a.n = n;
	return uvio_run_verb(dev, CREATE_RWQ_IND_TBL, NULL, create_table_write, &a, path);
}

UVIO_API int uvio_destroy_rwq_ind_table(struct uvio_device *dev, uint32_t handle,
					enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_RWQ_IND_TBL, handle, NULL, path);
}

