/*
 * The builder alone against the real kernel: find the driver id by probing,
 * GET_CONTEXT, CQ CREATE with its driver output, see the CQ with
 * `rdma resource show cq`, CQ DESTROY, see it gone. In both the current
 * layout and, for contrast, the 2017 one (which today's kernel refuses).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <uvio/cmd.h>
#include "kt.h"

static int probe_driver_id(int fd)
{
	for (uint32_t id = 0; id < 64; id++) {
		UVIO_CMD_DEFINE(cmd, 0, 0x3ff, 0);
		uvio_cmd_set_driver_id(&cmd, id);
		if (uvio_cmd_exec(fd, &cmd) == -EPROTONOSUPPORT)
			return (int)id;
	}
	return -1;
}

static void one_device(const struct kt_dev *dev)
{
	uint64_t drv_ctx[8] = { 0 }, drv_cq[8] = { 0 };
	uint32_t ncomp = 0, cqe = 0, handle = 0;
	struct { uint32_t comp, async; } dresp;
	int fd, driver_id, err;

	printf("device %s (%s)\n", dev->name, dev->path);
	fd = open(dev->path, O_RDWR | O_CLOEXEC);
	KT_CHECK(fd >= 0, "open: %s", strerror(errno));
	if (fd < 0)
		return;
	driver_id = probe_driver_id(fd);
	printf("  driver_id %d\n", driver_id);
	KT_EQ(driver_id, strncmp(dev->name, "siw", 3) ? 14 : 18);

	{	/* the 2017 layout: a current kernel does not know that request */
		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
		uvio_cmd_set_layout(&cmd, UVIO_LAYOUT_2017);
		uvio_put_uhw_out(&cmd, drv_ctx, sizeof(drv_ctx));
		KT_EQ(uvio_cmd_exec(fd, &cmd), -ENOTTY);
	}
	{
		UVIO_CMD_DEFINE(cmd, 4, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
		uvio_cmd_set_driver_id(&cmd, (uint32_t)driver_id);
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
						    &ncomp, sizeof(ncomp)));
		uvio_put_uhw_out(&cmd, drv_ctx, sizeof(drv_ctx));
		err = uvio_cmd_exec(fd, &cmd);
		KT_EQ(err, 0);
		printf("  GET_CONTEXT: %d, num_comp_vectors %u (valid %d)\n", err, ncomp,
		       uvio_cmd_output_valid(&cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS));
		KT_CHECK(uvio_cmd_output_valid(&cmd, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS),
			 "optional output flagged by the kernel");
	}
	{
		UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		uvio_cmd_set_driver_id(&cmd, (uint32_t)driver_id);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, 16);
		uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0x1234);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0);
		uvio_attr_optional(uvio_put_flags(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, 0));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
		uvio_put_uhw_out(&cmd, drv_cq, sizeof(drv_cq));
		err = uvio_cmd_exec(fd, &cmd);
		KT_EQ(err, 0);
		KT_EQ(uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &handle), 0);
		printf("  CQ CREATE: %d, handle %u, cqe %u\n", err, handle, cqe);
		KT_EQ(cqe, strncmp(dev->name, "siw", 3) ? 31 : 16);
	}
	KT_EQ(kt_rdma_res_count("cq", dev->name, getpid()), 1);
	{
		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_cmd_set_driver_id(&cmd, (uint32_t)driver_id);
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, handle);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &dresp, sizeof(dresp));
		KT_EQ(uvio_cmd_exec(fd, &cmd), 0);
		KT_EQ(uvio_cmd_exec(fd, &cmd), -ENOENT);	/* twice: gone */
	}
	KT_EQ(kt_rdma_res_count("cq", dev->name, getpid()), 0);
	close(fd);
}

int main(void)
{
	struct kt_dev devs[8];
	int n = kt_devices(devs, 8);

	KT_CHECK(n > 0, "no uverbs device");
	for (int i = 0; i < n; i++)
		one_device(&devs[i]);
	return kt_exit();
}
