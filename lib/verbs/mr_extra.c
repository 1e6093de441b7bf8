// SPDX-License-Identifier: MIT
/*
 * MR verbs beyond plain registration: REREG_MR (write() command only), and
 * the native-only methods QUERY_MR, ADVISE_MR, REG_DMABUF_MR and DM_MR_REG.
 */
#include <uvio/mr.h>
#include <uvio/dm.h>
#include "obj.h"
#include "abi/uapi.h"	/* uverbs ids older headers lack */

static void mr_out(struct uvio_mr *mr, uint32_t handle, uint32_t lkey, uint32_t rkey)
{
	mr->handle = handle;
	UVIO_OUT_SET(mr, lkey, lkey);
	UVIO_OUT_SET(mr, rkey, rkey);
}

struct rereg_args {
	struct drv_bufs b;
	struct uvio_mr *keys;
	UVIO_WRITE_BUF(struct ib_uverbs_rereg_mr) c;	/* last: it ends in a flexible array */
};

static int rereg_mr_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct rereg_args *a = args;
	struct ib_uverbs_rereg_mr_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(REREG_MR), a->c, &r, sizeof(r), &a->b);

	if (!ret)
		mr_out(a->keys, a->c.core.mr_handle, r.lkey, r.rkey);
	return ret;
}

UVIO_API int uvio_rereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   const struct uvio_rereg_mr_attr *attr, const struct uvio_drv *drv,
			   struct uvio_mr *keys, enum uvio_path *path)
{
	struct rereg_args a = { .c.core.mr_handle = mr_handle, .keys = keys };
	struct uvio_rereg_mr_attr in;
	int ret = obj_in(&in, sizeof(in), attr,
			 uvio_offsetofend(struct uvio_rereg_mr_attr, access));

	if (!ret)
		ret = obj_out(keys, uvio_offsetofend(struct uvio_mr, handle));
	if (!ret) {
		a.c.core.flags = in.flags;
		a.c.core.start = (uintptr_t)in.addr;
		a.c.core.length = in.length;
		a.c.core.hca_va = in.iova;
		a.c.core.pd_handle = in.pd_handle;
		a.c.core.access_flags = in.access;
		ret = drv_prepare(dev, VERB_NAME(REREG_MR), drv, &a.b);
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(REREG_MR), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, REREG_MR, NULL, rereg_mr_write, &a, path);
}

struct query_args {
	uint32_t handle;
	struct uvio_mr_info *info;
};

static int query_mr_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct query_args *a = args;
	uint32_t lkey = 0, rkey = 0;
	uint64_t length = 0, iova = 0;
	int ret;

	struct uvio_fx_cmd c;

	c.n = 0;
	uvio_fx_idr(&c, UVERBS_ATTR_QUERY_MR_HANDLE, a->handle);
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &lkey, sizeof(lkey));
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &rkey, sizeof(rkey));
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length, sizeof(length));
	uvio_attr_optional(uvio_fx_out(&c, UVERBS_ATTR_QUERY_MR_RESP_IOVA, &iova, sizeof(iova)));
	ret = uvio_fx_send(dev, p, &c, VERB_OBJECT(QUERY_MR), VERB_METHOD(QUERY_MR));
	if (ret)
		return ret;
	UVIO_OUT_SET(a->info, lkey, lkey);
	UVIO_OUT_SET(a->info, rkey, rkey);
	UVIO_OUT_SET(a->info, length, length);
	UVIO_OUT_SET(a->info, iova, iova);
	return 0;
}

UVIO_API int uvio_query_mr(struct uvio_device *dev, uint32_t mr_handle,
			   struct uvio_mr_info *info, enum uvio_path *path)
{
	struct query_args a = { .handle = mr_handle, .info = info };

	if (obj_out(info, sizeof(size_t)))
		return uvio_verb_end(dev, VERB_NAME(QUERY_MR), UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_verb(dev, QUERY_MR, query_mr_ioctl, NULL, &a, path);
}

struct advise_args {
	uint32_t pd_handle, advice, flags;
	const struct ib_uverbs_sge *sge;
	size_t num_sge;
};

static int advise_mr_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct advise_args *a = args;

	UVIO_VERB_CMD(dev, cmd, 4, p, ADVISE_MR);
	fput_idr(&cmd, UVERBS_ATTR_ADVISE_MR_PD_HANDLE, a->pd_handle);
	fput_u64(&cmd, UVERBS_ATTR_ADVISE_MR_ADVICE, a->advice);	/* const: u64 */
	fput_u64(&cmd, UVERBS_ATTR_ADVISE_MR_FLAGS, a->flags);
	uvio_put_ptr_in(&cmd, UVERBS_ATTR_ADVISE_MR_SGE_LIST, a->sge,
			a->num_sge * sizeof(*a->sge));
	return uvio_dev_exec(dev, &cmd);
}

UVIO_API int uvio_advise_mr(struct uvio_device *dev, uint32_t pd_handle, uint32_t advice,
			    uint32_t flags, const struct ib_uverbs_sge *sge, size_t num_sge,
			    enum uvio_path *path)
{
	struct advise_args a = { pd_handle, advice, flags, sge, num_sge };

	/* The kernel wants one SGE at least; the list travels in one
	 * attribute of at most 65535 bytes. */
	if (!sge || !num_sge)
		return uvio_verb_end(dev, VERB_NAME(ADVISE_MR), UVIO_PATH_AUTO, -EINVAL, path);
	if (num_sge > UINT16_MAX / sizeof(*sge))
		return uvio_verb_end(dev, VERB_NAME(ADVISE_MR), UVIO_PATH_AUTO, -E2BIG, path);
	return uvio_run_verb(dev, ADVISE_MR, advise_mr_ioctl, NULL, &a, path);
}

/* REG_DMABUF_MR and DM_MR_REG: a new MR from something other than user
 * memory, native methods only. */
struct reg_args {
	union {
		struct uvio_dmabuf_mr_attr dmabuf;
		struct uvio_dm_mr_attr dm;
	} in;
	struct drv_bufs b;
	struct uvio_mr *mr;
};

static int reg_dmabuf_mr_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct reg_args *a = args;
	const struct uvio_dmabuf_mr_attr *in = &a->in.dmabuf;
	struct ib_uverbs_attr *handle;
	uint32_t lkey = 0, rkey = 0, h;
	int ret;

	UVIO_VERB_CMD(dev, cmd, 11, p, REG_DMABUF_MR);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
	fput_idr(&cmd, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, in->pd_handle);
	fput_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, in->offset);
	fput_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, in->length);
	fput_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_IOVA, in->iova);
	/* A plain u32 to the kernel, not an fd attribute. */
	fput_u32(&cmd, UVERBS_ATTR_REG_DMABUF_MR_FD, (uint32_t)in->fd);
	fput_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, in->access);
	fput_out(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey, sizeof(lkey));
	fput_out(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey, sizeof(rkey));
	ret = obj_exec_new(dev, &cmd, &a->b, handle, &h);
	if (!ret)
		mr_out(a->mr, h, lkey, rkey);
	return ret;
}

static int reg_dm_mr_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct reg_args *a = args;
	const struct uvio_dm_mr_attr *in = &a->in.dm;
	struct ib_uverbs_attr *handle;
	uint32_t lkey = 0, rkey = 0, h;
	int ret;

	UVIO_VERB_CMD(dev, cmd, 10, p, REG_DM_MR);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_REG_DM_MR_HANDLE);
	fput_u64(&cmd, UVERBS_ATTR_REG_DM_MR_OFFSET, in->offset);
	fput_u64(&cmd, UVERBS_ATTR_REG_DM_MR_LENGTH, in->length);
	fput_idr(&cmd, UVERBS_ATTR_REG_DM_MR_PD_HANDLE, in->pd_handle);
	fput_u64(&cmd, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, in->access);
	fput_idr(&cmd, UVERBS_ATTR_REG_DM_MR_DM_HANDLE, in->dm_handle);
	fput_out(&cmd, UVERBS_ATTR_REG_DM_MR_RESP_LKEY, &lkey, sizeof(lkey));
	fput_out(&cmd, UVERBS_ATTR_REG_DM_MR_RESP_RKEY, &rkey, sizeof(rkey));
	ret = obj_exec_new(dev, &cmd, &a->b, handle, &h);
	if (!ret)
		mr_out(a->mr, h, lkey, rkey);
	return ret;
}

static int reg_begin(struct uvio_device *dev, const char *verb, struct reg_args *a,
		     const struct uvio_drv *drv, int ret)
{
	if (!ret)
		ret = obj_out(a->mr, uvio_offsetofend(struct uvio_mr, handle));
	if (!ret)
		ret = drv_prepare(dev, verb, drv, &a->b);
	return ret;
}

UVIO_API int uvio_reg_dmabuf_mr(struct uvio_device *dev,
				const struct uvio_dmabuf_mr_attr *attr,
				const struct uvio_drv *drv, struct uvio_mr *mr,
				enum uvio_path *path)
{
	struct reg_args a = { .mr = mr };
	int ret = obj_in(&a.in.dmabuf, sizeof(a.in.dmabuf), attr,
			 uvio_offsetofend(struct uvio_dmabuf_mr_attr, access));

	if (!ret && a.in.dmabuf.fd < 0)
		ret = -EBADF;
	ret = reg_begin(dev, VERB_NAME(REG_DMABUF_MR), &a, drv, ret);
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(REG_DMABUF_MR), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, REG_DMABUF_MR, reg_dmabuf_mr_ioctl, NULL, &a, path);
}

UVIO_API int uvio_reg_dm_mr(struct uvio_device *dev, const struct uvio_dm_mr_attr *attr,
			    const struct uvio_drv *drv, struct uvio_mr *mr,
			    enum uvio_path *path)
{
	struct reg_args a = { .mr = mr };
	int ret = obj_in(&a.in.dm, sizeof(a.in.dm), attr,
			 uvio_offsetofend(struct uvio_dm_mr_attr, access));

	ret = reg_begin(dev, VERB_NAME(REG_DM_MR), &a, drv, ret);
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(REG_DM_MR), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, REG_DM_MR, reg_dm_mr_ioctl, NULL, &a, path);
}
