/*
 * A statically linked program (no libibverbs, no libuverbs-ioctl, no dynamic
 * loader) that creates and destroys a CQ with raw ioctls, for uverbs-trace
 * to show: a tracer that hooked libraries would see nothing here.
 *
 *   kt_trace_static [DEVICE_PATH]    (default /dev/infiniband/uverbs0)
 *
 * Prints the driver id, the CQ's handle and cqe; exits 0 when every command
 * answered as the kernel does untraced.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#define REQ 0xc0181b01UL

struct cmd {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[8];
};

static int run(int fd, struct cmd *c, uint16_t object, uint16_t method, uint32_t drv,
	       unsigned int n)
{
	c->hdr.length = (uint16_t)(sizeof(c->hdr) + n * sizeof(c->attrs[0]));
	c->hdr.object_id = object;
	c->hdr.method_id = method;
	c->hdr.num_attrs = (uint16_t)n;
	c->hdr.driver_id = drv;
	return ioctl(fd, REQ, c) ? -errno : 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/infiniband/uverbs0";
	uint64_t drv_ctx[8] = { 0 }, drv_cq[8] = { 0 };
	struct ib_uverbs_destroy_cq_resp dresp;
	uint32_t cqe = 0, ncomp = 0, handle;
	struct cmd c;
	uint32_t drv = 0;
	int fd, ret;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	/* The driver id: the first that answers an unknown object with
	 * EPROTONOSUPPORT rather than EINVAL. */
	for (drv = 0; drv < 64; drv++) {
		memset(&c, 0, sizeof(c));
		if (run(fd, &c, 0x3ff, 0, drv, 0) == -EPROTONOSUPPORT)
			break;
	}
	printf("driver_id %u\n", drv);

	memset(&c, 0, sizeof(c));
	c.attrs[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
					      .len = sizeof(ncomp), .data = (uintptr_t)&ncomp };
	c.attrs[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_OUT, .len = sizeof(drv_ctx),
					      .data = (uintptr_t)drv_ctx };
	ret = run(fd, &c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, drv, 2);
	printf("GET_CONTEXT %d num_comp_vectors %u\n", ret, ncomp);
	if (ret)
		return 1;

	memset(&c, 0, sizeof(c));
	c.attrs[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_HANDLE,
					      .flags = UVERBS_ATTR_F_MANDATORY };
	c.attrs[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_CQE, .len = 4,
					      .flags = UVERBS_ATTR_F_MANDATORY, .data = 16 };
	c.attrs[2] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_USER_HANDLE,
					      .len = 8, .flags = UVERBS_ATTR_F_MANDATORY,
					      .data = 0x5717c };
	c.attrs[3] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_COMP_VECTOR,
					      .len = 4, .flags = UVERBS_ATTR_F_MANDATORY };
	c.attrs[4] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_RESP_CQE,
					      .len = 4, .flags = UVERBS_ATTR_F_MANDATORY,
					      .data = (uintptr_t)&cqe };
	c.attrs[5] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_OUT, .len = sizeof(drv_cq),
					      .data = (uintptr_t)drv_cq };
	ret = run(fd, &c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, drv, 6);
	handle = (uint32_t)c.attrs[0].data;
	printf("CQ.CREATE %d handle %u cqe %u\n", ret, handle, cqe);
	if (ret)
		return 1;

	memset(&c, 0, sizeof(c));
	c.attrs[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_DESTROY_CQ_HANDLE,
					      .flags = UVERBS_ATTR_F_MANDATORY, .data = handle };
	c.attrs[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_DESTROY_CQ_RESP,
					      .len = sizeof(dresp), .flags = UVERBS_ATTR_F_MANDATORY,
					      .data = (uintptr_t)&dresp };
	ret = run(fd, &c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, drv, 2);
	printf("CQ.DESTROY %d\n", ret);
	close(fd);
	return ret ? 1 : 0;
}
