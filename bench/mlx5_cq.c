// SPDX-License-Identifier: MIT
/*
 * A CQ created and destroyed on an mlx5 device, CYCLES times: through the
 * library (its mlx5 half builds the driver data) or through libibverbs and
 * rdma-core's libmlx5 (ibv_create_cq, ibv_destroy_cq). Both with 16 CQEs and
 * no completion channel, after one cycle not counted (the first CQ of a
 * context allocates the doorbell page both ways). Under callgrind,
 * run_uvio() and run_ibv() hold exactly the counted cycles (user space only:
 * the kernel's work is not an instruction of the process).
 *
 *   mlx5_cq uvio|ibv DEVICE CYCLES
 *
 * Output: "MLX5CQ uvio|ibv cycles N" and 0, or a message and 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <uvio.h>

/* One cycle each way; the counted loops call them, the warm-up too. */
static __attribute__((noinline)) int cycle_uvio(struct uvio_device *dev)
{
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	int err = uvio_create_cq(dev, &attr, NULL, &cq, NULL);

	return err ? err : uvio_destroy_cq(dev, cq.handle, NULL, NULL);
}

static __attribute__((noinline)) int cycle_ibv(struct ibv_context *ctx)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);

	return !cq || ibv_destroy_cq(cq) ? -1 : 0;
}

static __attribute__((noinline)) int run_uvio(struct uvio_device *dev, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (cycle_uvio(dev))
			return -1;
	return 0;
}

static __attribute__((noinline)) int run_ibv(struct ibv_context *ctx, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (cycle_ibv(ctx))
			return -1;
	return 0;
}

static int uvio(const char *name, unsigned int n)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	int err = uvio_device_open(name, &dev);

	if (!err)
		err = uvio_get_context(dev, NULL, &ctx, NULL);
	if (!err)
		err = cycle_uvio(dev);
	if (!err)
		err = run_uvio(dev, n);
	if (err)
		fprintf(stderr, "mlx5_cq: %s\n", uvio_last_error());
	return err;
}

static int ibv(const char *name, unsigned int n)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (!ctx || cycle_ibv(ctx) || run_ibv(ctx, n)) {
		fprintf(stderr, "mlx5_cq: %s through libibverbs failed\n", name);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int n;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: mlx5_cq uvio|ibv DEVICE CYCLES\n");
		return 2;
	}
	n = (unsigned int)strtoul(argv[3], NULL, 0);
	err = !strcmp(argv[1], "uvio") ? uvio(argv[2], n) : ibv(argv[2], n);
	if (err)
		return 1;
	printf("MLX5CQ %s cycles %u\n", argv[1], n);
	return 0;
}
