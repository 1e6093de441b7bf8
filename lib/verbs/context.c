// SPDX-License-Identifier: MIT
/* GET_CONTEXT: the ucontext of this fd, its async event fd and vector count. */
#include <unistd.h>
#include <uvio/verbs.h>
#include "verb.h"

struct args {
	struct drv_bufs b;
	struct uvio_context *ctx;
	bool made;			/* the kernel made the context this call */
};

static int get_context_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct drv_bufs *b = &((struct args *)args)->b;
	struct uvio_context *ctx = ((struct args *)args)->ctx;
	uint32_t ncv = 0;
	uint64_t core = 0;
	int ret;

	if (!atomic_load_explicit(&dev->ctx_without_async_fd, memory_order_relaxed)) {
		UVIO_VERB_CMD(dev, cmd, 4, p, GET_CONTEXT);
		uvio_attr_optional(fput_out(&cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
						    &ncv, sizeof(ncv)));
		/* Optional: older kernels do not know it (5.10 does). */
		uvio_attr_optional(fput_out(&cmd, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT,
						    &core, sizeof(core)));
		uvio_put_drv(&cmd, b);
		ret = uvio_dev_exec(dev, &cmd);
		uvio_drv_copy_back(&cmd, b);
		if (ret)
			return ret;
		((struct args *)args)->made = true;
		atomic_store_explicit(&dev->num_comp_vectors,
			uvio_cmd_output_valid(&cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS) ? ncv : 0,
			memory_order_relaxed);
		atomic_store_explicit(&dev->core_support,
			uvio_cmd_output_valid(&cmd, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT) ? core : 0,
			memory_order_relaxed);
	}
	UVIO_OUT_SET(ctx, num_comp_vectors,
		     atomic_load_explicit(&dev->num_comp_vectors, memory_order_relaxed));
	UVIO_OUT_SET(ctx, core_support,
		     atomic_load_explicit(&dev->core_support, memory_order_relaxed));
	{	/* ioctl GET_CONTEXT makes no async fd: a second command does */
		struct uvio_fx_cmd c;
		int fd = -1;

		c.n = 0;
		uvio_fx_fd_new(&c, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
		ret = uvio_fx_send(dev, p, &c, UVERBS_OBJECT_ASYNC_EVENT,
				   UVERBS_METHOD_ASYNC_EVENT_ALLOC);
		if (!ret)
			ret = uvio_fx_read_fd(&c, 0, &fd);
		if (!ret && !UVIO_OPT_HAS(ctx, async_fd)) {
			close(fd);	/* the caller has no field for it */
			fd = -1;
		}
		UVIO_OUT_SET(ctx, async_fd, fd);
		/* Kernels before the ASYNC_EVENT object have none to give. */
		if (ret == -EPROTONOSUPPORT)
			ret = 0;
		/* The context exists now either way; on failure, a later
		 * call retries only the async fd instead of meeting EINVAL. */
		atomic_store_explicit(&dev->ctx_without_async_fd, ret != 0, memory_order_relaxed);
	}
	return ret;
}

static int get_context_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct drv_bufs *b = &((struct args *)args)->b;
	struct uvio_context *ctx = ((struct args *)args)->ctx;
	UVIO_WRITE_BUF(struct ib_uverbs_get_context) c = { .core = { 0 } };
	struct ib_uverbs_get_context_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(GET_CONTEXT), c, &r, sizeof(r), b);

	/* On failure the kernel may have written a response, but an fd it
	 * names was never installed: nothing to close, nothing to trust. */
	if (ret)
		return ret;
	((struct args *)args)->made = true;
	if (!UVIO_OPT_HAS(ctx, async_fd)) {
		/* An fd the caller has no field for would leak. */
		close((int)r.async_fd);
		r.async_fd = (__u32)-1;
	}
	UVIO_OUT_SET(ctx, async_fd, (int)r.async_fd);
	UVIO_OUT_SET(ctx, num_comp_vectors, r.num_comp_vectors);
	UVIO_OUT_SET(ctx, core_support, 0);
	return 0;
}

UVIO_API int uvio_get_context(struct uvio_device *dev, const struct uvio_drv *drv,
			      struct uvio_context *ctx, enum uvio_path *path)
{
	struct args a = { .ctx = ctx };
	struct hw_call hc;
	int ret = uvio_out_check(ctx);

	if (!ret) {
		ret = drv_prepare_hw(dev, VERB_NAME(GET_CONTEXT), drv, HW_CONTEXT, &hc, NULL, &a.b);
		if (ret)
			return drv_refused(dev, VERB_NAME(GET_CONTEXT), &hc, ret, path);
	}
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(GET_CONTEXT), UVIO_PATH_AUTO, ret, path);
	ret = uvio_run_verb(dev, GET_CONTEXT, get_context_ioctl, get_context_write, &a, path);
	/* A context made, even when its async fd then failed, is the
	 * driver half's to keep; one made by an earlier call was kept then. */
	drv_finish_hw(dev, drv, &hc, a.made ? 0 : ret ? ret : -EEXIST, 0);
	return ret;
}

static int query_context_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct uvio_context_info *info = args;
	uint32_t ncv = 0;
	uint64_t core = 0;
	int ret;

	struct uvio_fx_cmd c;

	c.n = 0;
	uvio_attr_optional(uvio_fx_out(&c, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, &ncv,
				       sizeof(ncv)));
	uvio_attr_optional(uvio_fx_out(&c, UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, &core,
				       sizeof(core)));
	ret = uvio_fx_send(dev, p, &c, VERB_OBJECT(QUERY_CONTEXT), VERB_METHOD(QUERY_CONTEXT));
	if (ret)
		return ret;
	UVIO_OUT_SET(info, num_comp_vectors, ncv);
	UVIO_OUT_SET(info, core_support, core);
	return 0;
}

UVIO_API int uvio_query_context(struct uvio_device *dev, struct uvio_context_info *info,
				enum uvio_path *path)
{
	int ret = uvio_out_check(info);

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(QUERY_CONTEXT), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, QUERY_CONTEXT, query_context_ioctl, NULL, info, path);
}
