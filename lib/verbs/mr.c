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
	struct ib_uverbs_reg_mr c = {
		.start = a->addr,
		.length = a->length,
		.hca_va = a->iova,
		.pd_handle = a->pd_handle,
		.access_flags = a->access,
	};
	struct ib_uverbs_reg_mr_resp r;
	int ret = uvio_legacy_cmd(dev, IB_USER_VERBS_CMD_REG_MR, &c, sizeof(c), &r,
				  sizeof(r), &a->b);

	if (ret)
		return ret;
	a->mr->handle = r.mr_handle;
	a->mr->lkey = r.lkey;
	a->mr->rkey = r.rkey;
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
	struct ib_uverbs_dereg_mr c = { .mr_handle = *(uint32_t *)args };

	return uvio_legacy_cmd(dev, IB_USER_VERBS_CMD_DEREG_MR, &c, sizeof(c), NULL, 0, NULL);
}

UVIO_API int uvio_dereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   enum uvio_path *path)
{
	return uvio_run_verb(dev, UVIO_VERB_DEREG_MR, "MR.DESTROY", dereg_mr_ioctl,
			     dereg_mr_write, &mr_handle, path);
}
