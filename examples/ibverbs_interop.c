/*
 * libibverbs opens the device and its provider; this library then creates
 * and destroys a CQ on the same context fd, next to a CQ of libibverbs' own.
 *
 *   ibverbs_interop [DEVICE]
 */
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

#include <uvio.h>

int main(int argc, char **argv)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ibctx = NULL;
	struct uvio_device *dev = NULL;
	struct ibv_cq *ibcq = NULL;
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path path;
	int err = 1;

	for (int i = 0; list && list[i] && !ibctx; i++)
		if (argc < 2 || !strcmp(ibv_get_device_name(list[i]), argv[1]))
			ibctx = ibv_open_device(list[i]);
	if (!ibctx) {
		fprintf(stderr, "ibverbs_interop: no device opened by libibverbs\n");
		goto out;
	}
	/* libibverbs has already made the fd's context; ours would be refused. */
	ibcq = ibv_create_cq(ibctx, 8, NULL, NULL, 0);
	err = uvio_device_adopt(ibctx->cmd_fd, UVIO_DRIVER_ID_PROBE, &dev);
	if (err) {
		fprintf(stderr, "ibverbs_interop: adopt: %s\n", strerror(-err));
		goto out;
	}
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 32, .user_handle = 7);
	err = uvio_create_cq(dev, &attr, NULL, &cq, &path);
	if (err) {
		fprintf(stderr, "ibverbs_interop: create CQ: %s\n", strerror(-err));
		goto out;
	}
	printf("on %s (libibverbs fd %d, driver_id %u): CQ handle %u cqe %u via %s; "
	       "libibverbs' own CQ handle %u\n", ibv_get_device_name(ibctx->device),
	       ibctx->cmd_fd, uvio_device_driver_id(dev), cq.handle, cq.cqe,
	       uvio_path_name(path), ibcq ? ibcq->handle : 0);
	err = uvio_destroy_cq(dev, cq.handle, NULL, &path);
	if (!err)
		printf("CQ %u destroyed via %s\n", cq.handle, uvio_path_name(path));
out:
	uvio_device_close(dev);	/* the fd stays libibverbs' */
	if (ibcq)
		ibv_destroy_cq(ibcq);
	if (ibctx)
		ibv_close_device(ibctx);
	if (list)
		ibv_free_device_list(list);
	return err ? 1 : 0;
}
