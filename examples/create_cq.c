/*
 * Open an RDMA device, get a context, a completion channel and a CQ, print
 * what the kernel granted and which command path ran, then tear it all down.
 *
 *   create_cq [DEVICE] [CQE]
 *
 * DEVICE is an IB name (rxe0), a uverbs name or a /dev path; the first
 * device when omitted. UVERBS_IOCTL_PATH=write forces the legacy commands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uvio.h>

static int fail(const char *what, int err)
{
	fprintf(stderr, "create_cq: %s: %s\n", what, strerror(-err));
	return 1;
}

static void log_to_stderr(int level, const char *msg, void *ctx)
{
	(void)level; (void)ctx;
	fprintf(stderr, "libuverbs-ioctl: %s\n", msg);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	uint32_t cqe = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 16;
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_events_reported, ev);
	enum uvio_path p_ctx, p_ch, p_cq, p_destroy;
	UVIO_OPTS(uvio_comp_channel, channel);
	int err;

	uvio_set_log(log_to_stderr, NULL, NULL);
	err = uvio_device_open(name, &dev);
	if (err)
		return fail(name ? name : "no RDMA device found", err);

	err = uvio_get_context(dev, NULL, &ctx, &p_ctx);
	if (err) {
		uvio_device_close(dev);
		return fail("GET_CONTEXT", err);
	}
	err = uvio_create_comp_channel(dev, &channel, &p_ch);
	if (err)
		goto out_ctx;

	UVIO_OPTS(uvio_cq_attr, attr, .cqe = cqe, .user_handle = 1, .channel = &channel);
	err = uvio_create_cq(dev, &attr, NULL, &cq, &p_cq);
	if (err)
		goto out_channel;
	printf("device %s driver_id %u: context via %s (%u completion vectors), "
	       "channel fd %d via %s\n", uvio_device_name(dev), uvio_device_driver_id(dev),
	       uvio_path_name(p_ctx), ctx.num_comp_vectors, channel.fd, uvio_path_name(p_ch));
	printf("CQ created via %s: handle %u, cqe %u (asked %u)\n", uvio_path_name(p_cq),
	       cq.handle, cq.cqe, cqe);

	err = uvio_destroy_cq(dev, cq.handle, &ev, &p_destroy);
	if (!err)
		printf("CQ destroyed via %s: %u completion and %u async events reported\n",
		       uvio_path_name(p_destroy), ev.comp_events_reported, ev.async_events_reported);
out_channel:
	close(channel.fd);
out_ctx:
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	return err ? fail("CQ", err) : 0;
}
