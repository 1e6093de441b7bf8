/* A program outside the tree, built against the installed library: open
 * the first (or named) device, create and destroy a CQ. */
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
		close(ctx.async_fd);
	}
	if (err)
		fprintf(stderr, "consumer: %s\n", uvio_last_error());
	uvio_device_close(dev);
	return err ? 1 : 0;
}
