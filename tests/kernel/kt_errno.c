/*
 * The kernel's answers, row by row, as the project's kernel facts record
 * them: every row is a command built with the library (or, where the library
 * refuses to build it, patched by hand after building) and the errno the
 * kernel must answer. A change of kernel behaviour or of the library shows up
 * as a failing row.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uvio.h>
#include "abi/uapi.h"	/* uverbs ids older headers lack */
#include "kt.h"

static int fd;			/* a uverbs fd with a context */
static uint32_t driver_id;
static const char *devname;

static const char *answer(int v, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "%s", uvio_errno_name(v));
	else
		snprintf(buf, size, "%d", v);
	return buf;
}

/* One fact: what the kernel answered and what this kernel should answer.
 * The line is also what docs/kernels.md is made from (scripts/kernels-doc.sh):
 * "row DEV | WHAT | ANSWER | ok". */
static void row(const char *what, int got, int want)
{
	char g[24], w[24];

	printf("row %s | %s | %s | %s\n", devname, what, answer(got, g, sizeof(g)),
	       got == want ? "ok" : "FAIL");
	KT_CHECK(got == want, "%s on %s, kernel %s: got %s, want %s", what, devname,
		 kt_kernel_release(), g, answer(want, w, sizeof(w)));
}

/* A CQ CREATE with what every driver needs; callers spoil one thing. */
struct cq_cmd {
	uint64_t buf[UVIO_CMD_BUF_SIZE(12) / 8];
	struct uvio_cmd cmd;
	uint32_t cqe;
	uint64_t drv[8];
};

static void cq_create(struct cq_cmd *c, uint32_t cqe)
{
	uvio_cmd_init(&c->cmd, c->buf, sizeof(c->buf), UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	uvio_cmd_set_driver_id(&c->cmd, driver_id);
	uvio_put_idr_new(&c->cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uvio_put_u32(&c->cmd, UVERBS_ATTR_CREATE_CQ_CQE, cqe);
	uvio_put_u64(&c->cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 1);
	uvio_put_u32(&c->cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0);
	uvio_put_ptr_out(&c->cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &c->cqe, sizeof(c->cqe));
	uvio_put_uhw_out(&c->cmd, c->drv, sizeof(c->drv));
}

static int destroy_cq(uint32_t handle)
{
	struct ib_uverbs_destroy_cq_resp resp;

	UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, handle);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &resp, sizeof(resp));
	return uvio_cmd_exec(fd, &cmd);
}

/* Run a CQ CREATE; on success destroy the CQ again. */
static int run_cq(struct cq_cmd *c)
{
	int ret = uvio_cmd_exec(fd, &c->cmd);
	uint32_t h;

	if (!ret && !uvio_cmd_read_handle(&c->cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h))
		KT_EQ(destroy_cq(h), 0);
	return ret;
}

/* Issue a finished command as it stands, for rows that break the header. */
static int raw_ioctl(void *hdr)
{
	return ioctl(fd, RDMA_VERBS_IOCTL, hdr) ? -errno : 0;
}

static int raw_write(const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	return n < 0 ? -errno : (int)n;
}

static void ioctl_rows(void)
{
	struct cq_cmd c;

	{
		UVIO_CMD_DEFINE(cmd, 0, 0x3ff, 0);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		row("unknown object id", uvio_cmd_exec(fd, &cmd), -EPROTONOSUPPORT);
	}
	{
		UVIO_CMD_DEFINE(cmd, 0, UVERBS_OBJECT_CQ, 0x3f);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		row("unknown method id", uvio_cmd_exec(fd, &cmd), -EPROTONOSUPPORT);
	}
	{
		UVIO_CMD_DEFINE(cmd, 3, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_u32(&cmd, 0x30, 0);
		row("unknown mandatory core attribute", uvio_cmd_exec(fd, &cmd), -EPROTONOSUPPORT);
	}
	{
		UVIO_CMD_DEFINE(cmd, 3, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_u32(&cmd, UVIO_DRIVER_ATTR(0x30), 0);
		row("unknown mandatory driver attribute", uvio_cmd_exec(fd, &cmd), -EPROTONOSUPPORT);
	}
	cq_create(&c, 16);
	uvio_attr_optional(uvio_put_u32(&c.cmd, 0x30, 0));
	row("unknown optional attribute: ignored", run_cq(&c), 0);

	cq_create(&c, 16);
	c.cmd.attrs[1].flags |= 0x8000;
	row("unknown bit in attr.flags: ignored", run_cq(&c), 0);

	cq_create(&c, 16);
	uvio_cmd_finish(&c.cmd);
	c.cmd.hdr->reserved1 = 1;
	row("hdr.reserved1 non-zero", raw_ioctl(c.cmd.hdr), -EPROTONOSUPPORT);

	cq_create(&c, 16);
	uvio_cmd_finish(&c.cmd);
	c.cmd.hdr->reserved2 = 1;
	row("hdr.reserved2 non-zero", raw_ioctl(c.cmd.hdr), -EPROTONOSUPPORT);

	cq_create(&c, 16);
	uvio_cmd_finish(&c.cmd);
	c.cmd.hdr->length += 16;
	row("hdr.length disagrees with num_attrs", raw_ioctl(c.cmd.hdr), -EINVAL);

	{
		static uint64_t big[(4096 + 64) / 8];
		struct uvio_cmd *cmd = &c.cmd;

		uvio_cmd_init(cmd, big, sizeof(big), UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_cmd_finish(cmd);
		cmd->hdr->num_attrs = 255;	/* 24 + 255 * 16 = 4104 bytes */
		cmd->hdr->length = 24 + 255 * 16;
		cmd->hdr->driver_id = driver_id;
		row("command longer than a page", raw_ioctl(cmd->hdr), -EINVAL);
	}

	cq_create(&c, 16);
	uvio_cmd_set_driver_id(&c.cmd, driver_id + 1);
	row("wrong driver_id", run_cq(&c), -EINVAL);

	{
		uint32_t cqe;

		UVIO_CMD_DEFINE(cmd, 3, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
		row("missing mandatory attribute (CQE)", uvio_cmd_exec(fd, &cmd), -EINVAL);
	}

	cq_create(&c, 16);
	uvio_cmd_finish(&c.cmd);
	/* COMP_VECTOR renamed CQE, same size: the builder refuses this */
	c.cmd.attrs[3].attr_id = c.cmd.attrs[1].attr_id;
	row("duplicate attribute", raw_ioctl(c.cmd.hdr), -EINVAL);

	{
		uint16_t two = 16;

		cq_create(&c, 16);
		/* rebuild CQE as 2 bytes: the builder takes any length */
		c.cmd.attrs[1].len = sizeof(two);
		row("wrong attribute length (CQE of 2 bytes)", run_cq(&c), -EINVAL);
	}

	cq_create(&c, 16);
	c.cmd.attrs[1].attr_data.reserved = 1;
	row("non-zero attr_data.reserved", run_cq(&c), -EINVAL);

	cq_create(&c, 16);
	uvio_put_flags(&c.cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, 1ULL << 31);
	row("unknown bit in a FLAGS value", run_cq(&c), -EINVAL);

	cq_create(&c, 16);
	c.cmd.attrs[4].data = 16;	/* RESP_CQE to an unmapped address */
	row("bad PTR_OUT pointer", run_cq(&c), -EFAULT);

	row("bad header pointer", raw_ioctl((void *)16), -EFAULT);

	{
		uint64_t drv[8];

		UVIO_CMD_DEFINE(cmd, 1, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_uhw_out(&cmd, drv, sizeof(drv));
		row("GET_CONTEXT twice (ioctl)", uvio_cmd_exec(fd, &cmd), -EINVAL);
	}
	{
		uint32_t ncv;

		UVIO_CMD_DEFINE(cmd, 1, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
						    &ncv, sizeof(ncv)));
		row("DEVICE.QUERY_CONTEXT (rxe, siw lack it)", uvio_cmd_exec(fd, &cmd), -EOPNOTSUPP);
	}

	row("destroy of an unknown handle", destroy_cq(4242), -ENOENT);
	{
		uint32_t h = 0;

		cq_create(&c, 16);
		KT_EQ(uvio_cmd_exec(fd, &c.cmd), 0);
		uvio_cmd_read_handle(&c.cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &h);
		KT_EQ(destroy_cq(h), 0);
		row("destroy of a destroyed handle", destroy_cq(h), -ENOENT);
	}
	{
		UVIO_CMD_DEFINE(cmd, 0, 0x3ff, 0);
		uvio_cmd_set_layout(&cmd, UVIO_LAYOUT_2017);
		row("request number of the 2017 layout", uvio_cmd_exec(fd, &cmd), -ENOTTY);
	}
}

static void write_rows(void)
{
	struct {
		struct ib_uverbs_cmd_hdr hdr;
		union {
			struct ib_uverbs_create_cq cq;
			struct ib_uverbs_destroy_cq dcq;
			struct ib_uverbs_get_context ctx;
		};
		uint8_t drv[64];
	} w;
	struct {
		struct ib_uverbs_create_cq_resp r;
		uint8_t drv[64];
	} resp;
	struct ib_uverbs_destroy_cq_resp dresp;

	memset(&w, 0, sizeof(w));
	w.hdr.command = 200;
	w.hdr.in_words = sizeof(w.hdr) / 4;
	row("write: unknown command", raw_write(&w, sizeof(w.hdr)), -EOPNOTSUPP);
	w.hdr.command = IB_USER_VERBS_CMD_DESTROY_CQ | (1u << 31);
	row("write: bit 31 set", raw_write(&w, sizeof(w.hdr)), -EOPNOTSUPP);
	row("write: shorter than the header", raw_write(&w, 4), -EINVAL);

	memset(&w, 0, sizeof(w));
	w.hdr.command = IB_USER_VERBS_CMD_CREATE_CQ;
	w.hdr.in_words = (sizeof(w.hdr) + sizeof(w.cq) + sizeof(w.drv)) / 4;
	w.cq.response = (uintptr_t)&resp;
	w.cq.cqe = 16;
	w.cq.comp_channel = -1;
	w.hdr.out_words = (sizeof(resp.r) + sizeof(resp.drv)) / 4;
	row("write: in_words disagrees with the byte count",
	    raw_write(&w, sizeof(w.hdr) + sizeof(w.cq)), -EINVAL);
	w.hdr.out_words = 1;
	row("write: out_words too small", raw_write(&w, sizeof(w)), -ENOSPC);

	w.hdr.out_words = (sizeof(resp.r) + sizeof(resp.drv)) / 4;
	row("write: CREATE_CQ answers the bytes it consumed", raw_write(&w, sizeof(w)),
	    (int)sizeof(w));
	{
		/* ioctl and write() share one handle space */
		struct ib_uverbs_destroy_cq_resp r2;

		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, resp.r.cq_handle);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &r2, sizeof(r2));
		row("CQ made by write() destroyed by ioctl", uvio_cmd_exec(fd, &cmd), 0);
	}

	memset(&w, 0, sizeof(w));
	w.hdr.command = IB_USER_VERBS_CMD_DESTROY_CQ;
	w.hdr.in_words = (sizeof(w.hdr) + sizeof(w.dcq)) / 4;
	w.hdr.out_words = sizeof(dresp) / 4;
	w.dcq.response = (uintptr_t)&dresp;
	w.dcq.cq_handle = 4242;
	row("write: destroy of an unknown handle", raw_write(&w, sizeof(w.hdr) + sizeof(w.dcq)),
	    -ENOENT);

	memset(&w, 0, sizeof(w));
	w.hdr.command = IB_USER_VERBS_CMD_GET_CONTEXT;
	w.hdr.in_words = (sizeof(w.hdr) + sizeof(w.ctx)) / 4;
	w.hdr.out_words = (sizeof(struct ib_uverbs_get_context_resp) + 16) / 4;
	w.ctx.response = (uintptr_t)&resp;
	row("write: GET_CONTEXT twice", raw_write(&w, sizeof(w.hdr) + sizeof(w.ctx)), -EINVAL);
}

/*
 * Rows that differ between kernels: CQ sizes as the driver rounds them, and
 * methods and attributes that newer kernels add (lib/abi/uapi.h), issued
 * for real. kt_per_kernel(5.10, 6.1, 6.12, 7.2) holds each kernel to what it
 * was seen to answer.
 */
static void kernel_rows(struct uvio_device *dev, bool siw)
{
	const int NOSUP = -EPROTONOSUPPORT;
	struct cq_cmd c;
	uint32_t pd;

	cq_create(&c, 16);
	KT_EQ(run_cq(&c), 0);
	row("CQ CREATE cqe 16: RESP_CQE", (int)c.cqe,
	    siw ? kt_per_kernel(16, 16, 16, 16) : kt_per_kernel(31, 31, 31, 31));
	cq_create(&c, 100);
	KT_EQ(run_cq(&c), 0);
	row("CQ CREATE cqe 100: RESP_CQE", (int)c.cqe,
	    siw ? kt_per_kernel(128, 128, 128, 128) : kt_per_kernel(127, 127, 127, 127));

	/* 7.2: a buffer of the caller's for the ring; rxe and siw ignore it. */
	{
		static uint8_t ring[4096] __attribute__((aligned(4096)));

		cq_create(&c, 16);
		uvio_put_u64(&c.cmd, UVERBS_ATTR_CREATE_CQ_BUFFER_VA, (uintptr_t)ring);
		uvio_put_u64(&c.cmd, UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH, sizeof(ring));
		row("CQ CREATE with BUFFER_VA (mandatory)", run_cq(&c),
		    kt_per_kernel(NOSUP, NOSUP, NOSUP, 0));
	}
	{
		uint64_t speed = 0;

		UVIO_CMD_DEFINE(cmd, 2, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT_SPEED);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM, 1);	/* const: 8 bytes */
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_PORT_SPEED_RESP, &speed, sizeof(speed));
		row("DEVICE.QUERY_PORT_SPEED port 1", uvio_cmd_exec(fd, &cmd),
		    kt_per_kernel(NOSUP, NOSUP, NOSUP, -EOPNOTSUPP));
	}

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	{
		void *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		uint32_t lkey = 0, rkey = 0, h = 0;
		uint64_t siw_req = 0, siw_resp = 0;
		int ret;

		/* 7.2's one registration method, for a virtual address. */
		UVIO_CMD_DEFINE(cmd, 11, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_MR);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_REG_MR_HANDLE);
		uvio_put_idr(&cmd, UVERBS_ATTR_REG_MR_PD_HANDLE, pd);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_MR_IOVA, (uintptr_t)buf);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_MR_ADDR, (uintptr_t)buf);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_MR_LENGTH, 4096);
		uvio_put_flags(&cmd, UVERBS_ATTR_REG_MR_ACCESS_FLAGS, IB_UVERBS_ACCESS_LOCAL_WRITE);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_REG_MR_RESP_LKEY, &lkey, sizeof(lkey));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_REG_MR_RESP_RKEY, &rkey, sizeof(rkey));
		if (siw) {	/* struct siw_ureq_reg_mr in, siw_uresp_reg_mr out */
			uvio_put_uhw_in(&cmd, &siw_req, sizeof(siw_req));
			uvio_put_uhw_out(&cmd, &siw_resp, sizeof(siw_resp));
		}
		ret = uvio_cmd_exec(fd, &cmd);
		row("MR.REG_MR of a virtual address", ret, kt_per_kernel(NOSUP, NOSUP, NOSUP, 0));
		if (!ret && !uvio_cmd_read_handle(&cmd, UVERBS_ATTR_REG_MR_HANDLE, &h)) {
			UVIO_CMD_DEFINE(d, 1, UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY);
			uvio_cmd_set_driver_id(&d, driver_id);
			uvio_put_idr(&d, UVERBS_ATTR_DESTROY_MR_HANDLE, h);
			KT_EQ(uvio_cmd_exec(fd, &d), 0);
			KT_CHECK(lkey != 0 || rkey != 0, "REG_MR answered no key");
		}
		munmap(buf, 4096);
	}
	{
		uint32_t lkey, rkey;

		/* A dma-buf registration: 6.1 on have the method, and rxe and
		 * siw no dma-buf support behind it. */
		UVIO_CMD_DEFINE(cmd, 8, UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR);
		uvio_cmd_set_driver_id(&cmd, driver_id);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
		uvio_put_idr(&cmd, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, pd);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 0);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 4096);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0);
		uvio_put_u32(&cmd, UVERBS_ATTR_REG_DMABUF_MR_FD, 0);	/* a u32, not an fd attribute */
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &lkey, sizeof(lkey));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, &rkey, sizeof(rkey));
		row("MR.REG_DMABUF_MR (rxe, siw: no dma-buf support)", uvio_cmd_exec(fd, &cmd),
		    kt_per_kernel(NOSUP, -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP));
	}
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
}

static void one_device(const struct uvio_device_info *info)
{
	struct uvio_device *probed;
	UVIO_OPTS(uvio_context, ctx);
	struct uvio_device *dev;
	struct cq_cmd c;

	devname = info->name;
	printf("device %s (%s)\n", info->name, info->path);

	/* The driver id from netlink and from the probe agree. */
	fd = open(info->path, O_RDWR | O_CLOEXEC);
	KT_CHECK(fd >= 0, "open %s", info->path);
	KT_EQ(uvio_device_adopt(fd, UVIO_DRIVER_ID_PROBE, &probed), 0);
	KT_EQ(info->driver_id_known, 1);
	row("probe finds the driver id netlink reports",
	    (int)uvio_device_driver_id(probed), (int)info->driver_id);
	uvio_device_close(probed);
	driver_id = info->driver_id;

	/* Before any context. */
	cq_create(&c, 16);
	row("CQ CREATE before any context", run_cq(&c), -EINVAL);
	close(fd);

	KT_EQ(uvio_device_open(info->name, &dev), 0);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	fd = uvio_device_fd(dev);
	ioctl_rows();
	write_rows();
	kernel_rows(dev, !strncmp(info->name, "siw", 3));
	KT_EQ(kt_rdma_res_count("cq", info->name, getpid()), 0);
	close(ctx.async_fd);
	uvio_device_close(dev);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device");
	for (int i = 0; i < n && i < 8; i++)
		one_device(&devs[i]);
	return kt_exit();
}
