// SPDX-License-Identifier: MIT
/* MR: registration of user memory exists only as a write() command;
 * deregistration has both encodings. */
#include <uvio/verbs.h>
#include "drv.h"

struct reg_args {
	uint32_t pd_handle, access;
	uint64_t addr, length, iova;
	struct drv_bufs b;
	struct uvio_mr *mr;
};

static int reg_mr_write(struct uvio_device *dev, void *args)
{
	struct reg_args *a = args;
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_reg_mr c;
		uint8_t drv[UVIO_MAX_DRV_DATA];
	} in;
	struct {
		struct ib_uverbs_reg_mr_resp r;
		uint8_t drv[UVIO_MAX_DRV_DATA];
	} out;
	int ret;

	in.c.response = (uintptr_t)&out;
	in.c.start = a->addr;
	in.c.length = a->length;
	in.c.hca_va = a->iova;
	in.c.pd_handle = a->pd_handle;
	in.c.access_flags = a->access;
	drv_put_in(in.drv, &a->b);
	ret = uvio_dev_write(dev, IB_USER_VERBS_CMD_REG_MR, &in,
			     sizeof(in.hdr) + sizeof(in.c) + words4(a->b.in_len),
			     sizeof(out.r) + words4(a->b.out_len));
	if (ret)
		return ret;
	memcpy(a->b.out, out.drv, a->b.out_len);
	a->mr->handle = out.r.mr_handle;
	a->mr->lkey = out.r.lkey;
	a->mr->rkey = out.r.rkey;
	return 0;
}

UVIO_API int uvio_reg_mr(struct uvio_device *dev, uint32_t pd_handle, void *addr,
			 size_t length, uint64_t iova, uint32_t access,
			 const struct uvio_drv *drv, struct uvio_mr *mr,
			 enum uvio_path *path)
{
	struct reg_args a = {
		.pd_handle = pd_handle, .access = access, .addr = (uintptr_t)addr,
		.length = length, .iova = iova, .mr = mr,
	};
	int ret = mr ? drv_prepare(dev, "MR.REG", drv, &a.b) : -EINVAL;

	if (ret)
		return uvio_verb_end(dev, "MR.REG", UVIO_PATH_WRITE, ret, path);
	return uvio_run_verb(dev, UVIO_VERB_WRITE_ONLY, "MR.REG", NULL, reg_mr_write, &a, path);
}

static int dereg_mr_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	UVIO_DEV_CMD(dev, cmd, 1, p, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY);
	uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_MR_HANDLE, *(uint32_t *)args);
	return uvio_dev_exec(dev, &cmd);
}

static int dereg_mr_write(struct uvio_device *dev, void *args)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		struct ib_uverbs_dereg_mr c;
	} in;

	in.c.mr_handle = *(uint32_t *)args;
	return uvio_dev_write(dev, IB_USER_VERBS_CMD_DEREG_MR, &in, sizeof(in), 0);
}

UVIO_API int uvio_dereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   enum uvio_path *path)
{
	return uvio_run_verb(dev, UVIO_VERB_DEREG_MR, "MR.DESTROY", dereg_mr_ioctl,
			     dereg_mr_write, &mr_handle, path);
}
