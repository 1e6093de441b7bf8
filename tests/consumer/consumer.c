/* A program outside the tree, built against the installed library: open
 * the first (or named) device, create and destroy a CQ. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uvio.h>

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	struct uvio_context ctx;
	struct uvio_cq cq;
	struct uvio_cq_attr attr;
	enum uvio_path path;
	int err;

	/* Sized structs without the UVIO_OPTS macro (C++ before C++20 has no
	 * designated initializers): zero, then the size. */
	memset(&ctx, 0, sizeof(ctx));
	ctx.sz = sizeof(ctx);
	ctx.async_fd = -1;
	memset(&cq, 0, sizeof(cq));
	cq.sz = sizeof(cq);
	memset(&attr, 0, sizeof(attr));
	attr.sz = sizeof(attr);
	attr.cqe = 8;
	err = uvio_device_open(argc > 1 ? argv[1] : NULL, &dev);
	if (err) {
		fprintf(stderr, "consumer: open: %s\n", strerror(-err));
		return 1;
	}
	err = uvio_get_context(dev, NULL, &ctx, NULL);
	if (!err)
		err = uvio_create_cq(dev, &attr, NULL, &cq, &path);
	if (!err) {
		printf("consumer (%s): CQ %u cqe %u via %s on %s\n", CONSUMER_KIND, cq.handle,
		       cq.cqe, uvio_path_name(path), uvio_device_name(dev));
		err = uvio_destroy_cq(dev, cq.handle, NULL, NULL);
	}
#ifndef __cplusplus
	/* An MR through UVIO_OPTS, as C callers write it: the struct's last
	 * bytes must reach the library zero, whatever the compiler and level
	 * (build.sh makes gcc and clang, -O0 and -O2, builds of this file). */
	if (!err) {
		static char page[4096];
		uint32_t pd;
		struct uvio_mr mr = { .sz = sizeof(mr) };

		err = uvio_alloc_pd(dev, NULL, &pd, NULL);
		if (!err) {
			UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = pd, .addr = page,
				  .length = sizeof(page), .iova = (uintptr_t)page,
				  .access = IB_UVERBS_ACCESS_LOCAL_WRITE);

			err = uvio_reg_mr(dev, &ma, NULL, &mr, NULL);
			if (!err) {
				printf("consumer (%s): MR %u through UVIO_OPTS\n", CONSUMER_KIND,
				       mr.handle);
				err = uvio_dereg_mr(dev, mr.handle, NULL);
			}
			if (uvio_dealloc_pd(dev, pd, NULL) && !err)
				err = -EIO;
		}
	}
#endif
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	if (err)
		fprintf(stderr, "consumer: %s\n", uvio_last_error());
	uvio_device_close(dev);
	return err ? 1 : 0;
}
