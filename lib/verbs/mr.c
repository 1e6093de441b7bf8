// SPDX-License-Identifier: MIT
/* MR: registration of user memory is a write() command; deregistration has
 * a method too. */
#include "verb.h"
#include "destroy.h"

struct reg_args {
	const struct uvio_mr_attr *attr;
	struct drv_bufs b;
	struct uvio_mr *mr;
};

static int reg_mr_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct reg_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_reg_mr) c = { .core = {
		.start = (uintptr_t)UVIO_OPT(a->attr, addr),
		.length = UVIO_OPT(a->attr, length),
		.hca_va = UVIO_OPT(a->attr, iova),
		.pd_handle = UVIO_OPT(a->attr, pd_handle),
		.access_flags = UVIO_OPT(a->attr, access),
	} };
	struct ib_uverbs_reg_mr_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(REG_MR), c, &r, sizeof(r), &a->b);

	if (ret)
		return ret;
	UVIO_OUT_SET(a->mr, handle, r.mr_handle);
	UVIO_OUT_SET(a->mr, lkey, r.lkey);
	UVIO_OUT_SET(a->mr, rkey, r.rkey);
	return 0;
}

UVIO_API int uvio_reg_mr(struct uvio_device *dev, const struct uvio_mr_attr *attr,
			 const struct uvio_drv *drv, struct uvio_mr *mr,
			 enum uvio_path *path)
{
	struct reg_args a = { .attr = attr, .mr = mr };
	int ret = UVIO_OPTS_CHECK(attr, access, 1);

	if (!ret)
		/* a handle the caller cannot see would live on unseen */
		ret = uvio_out_check(mr) || !UVIO_OPT_HAS(mr, handle) ? -EINVAL : 0;
	if (!ret)
		ret = drv_prepare(dev, VERB_NAME(REG_MR), drv, &a.b);
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(REG_MR), UVIO_PATH_AUTO, ret, path);
	/* siw answers EINVAL without its request (struct siw_ureq_reg_mr, 8
	 * bytes: a key byte the driver may use, zero lets it choose), and so
	 * does irdma (struct irdma_mem_reg_req, 8 bytes: zero is reg_type MEM,
	 * a plain MR, as libirdma sends it); the library knows the driver, so
	 * it sends one the caller did not. */
	if ((dev->driver_id == RDMA_DRIVER_SIW || dev->driver_id == RDMA_DRIVER_I40IW) &&
	    !a.b.in_len) {
		static const uint64_t siw_request;

		a.b.in = &siw_request;
		a.b.in_len = sizeof(siw_request);
	}
	return uvio_run_verb(dev, REG_MR, NULL, reg_mr_write, &a, path);
}

UVIO_API int uvio_dereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_MR, mr_handle, NULL, path);
}

