/*
 * The library's mlx5 half against an mlx5 kernel driver (in the suite, the
 * stand-in module of tests/standin/mlx5, which holds commands to mlx5_ib's
 * user-data contract): with no driver data from the caller, context, PD, MR,
 * CQ (a resize refused without the caller's buffer, sent with it), RC, UC
 * and UD QPs, an SRQ and a QP on it, an AH; what the
 * library laid out checked against mlx5's rules; everything destroyed and
 * the kernel's object table empty after. Then what mlx5 refuses, sent on
 * purpose with the caller's own driver data, refused and reported.
 *
 * The requests are the witness's (kt_mlx5_witness: libmlx5 through
 * libibverbs), so that the two traces can be compared field by field:
 * CQ 16 CQEs; QPs 16 send and 16 receive WRs of one SGE, no inline data;
 * SRQ 16 WRs of one SGE; MR 8 KiB.
 *
 *   kt_mlx5_uvio [DEVICE]     (default mlx5_0)
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/mlx5-abi.h>
#include <uvio.h>
#include <uvio/mlx5.h>
#include "kt.h"

#define PAGE 4096u

static const char *name;

static int res_count(const char *type)
{
	return kt_rdma_res_count(type, name, (int)getpid());
}

static bool aligned(const volatile void *p, uintptr_t a)
{
	return ((uintptr_t)p & (a - 1)) == 0;
}

static void check_cq(struct uvio_device *dev, uint32_t handle, uint32_t ncqe)
{
	UVIO_OPTS(uvio_mlx5_object, o);

	KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, handle, &o), 0);
	KT_EQ(o.cqe_size, 64);
	KT_EQ(o.ncqe, ncqe);
	KT_EQ(o.buf_len, (size_t)ncqe * 64);
	KT_CHECK(o.buf && aligned(o.buf, PAGE), "CQ buffer %p on a page", o.buf);
	KT_CHECK(o.dbrec && aligned(o.dbrec, 64), "CQ doorbell %p on a cache line",
		 (void *)o.dbrec);
	if (o.buf) {
		uint32_t bad = 0;

		/* Every CQE the hardware's until it writes one. */
		for (uint32_t i = 0; i < ncqe; i++)
			bad += ((const uint8_t *)o.buf)[i * 64 + 63] != 0xf0;
		KT_EQ(bad, 0);
	}
	printf("  CQ %u: cqn %u, %u CQEs of %u bytes at %p, doorbell %p\n", handle, o.num,
	       o.ncqe, o.cqe_size, o.buf, (void *)o.dbrec);
}

/* mlx5's WQE rules for 16 send and 16 receive WRs of one SGE. */
static void check_qp(struct uvio_device *dev, uint32_t handle, uint32_t type, bool srq)
{
	UVIO_OPTS(uvio_mlx5_object, o);
	/* send WQE: overhead (RC/UC 192, UD 64) + one 16-byte SGE, in 64-byte
	 * blocks; x16 WRs, rounded up to a power of two */
	uint32_t wqe = type == IB_UVERBS_QPT_UD ? 128 : 256;
	uint32_t sq = 16 * wqe, rq = srq ? 0 : 16 * 16;

	KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_QP, handle, &o), 0);
	KT_EQ(o.sq_wqe_cnt, sq / 64);
	KT_EQ(o.rq_wqe_cnt, srq ? 0 : 16);
	KT_EQ(o.rq_wqe_shift, srq ? 0 : 4);
	KT_EQ(o.sq_offset, rq);
	KT_EQ(o.buf_len, rq + sq);
	KT_CHECK(o.buf && aligned(o.buf, PAGE), "QP buffer %p on a page", o.buf);
	KT_CHECK(o.dbrec && aligned(o.dbrec, 64), "QP doorbell on a cache line");
	KT_CHECK(o.uidx < 0xffffff, "a user index (CQE version 1): %u", o.uidx);
	KT_CHECK(o.flags & MLX5_QP_FLAG_SCATTER_CQE, "flags 0x%x", o.flags);
	printf("  QP %u (type %u): SQ %u blocks at +%u, RQ %u x %u bytes, uidx %u, flags 0x%x, "
	       "bfreg %u\n", handle, type, o.sq_wqe_cnt, o.sq_offset, o.rq_wqe_cnt,
	       1u << o.rq_wqe_shift, o.uidx, o.flags, o.bfreg_index);
}

static int make_qp(struct uvio_device *dev, uint32_t type, uint32_t pd, uint32_t cq,
		   const uint32_t *srq, struct uvio_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = pd, .send_cq_handle = cq,
		  .recv_cq_handle = cq,
		  .cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 16, .max_send_sge = 1,
			   .max_recv_sge = srq ? 0 : 1 });

	if (srq) {
		a.fields = UVIO_QP_INIT_SRQ;
		a.srq_handle = *srq;
	}
	memset(qp, 0, sizeof(*qp));
	qp->sz = sizeof(*qp);
	return uvio_create_qp(dev, &a, NULL, qp, NULL);
}

/* What mlx5 refuses, sent with the caller's driver data; the library
 * passes it through and says what the kernel answered. */
static void refusals(struct uvio_device *dev, uint32_t cq_count_before)
{
	struct uvio_device *other;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_drv, none);
	UVIO_OPTS(uvio_cq, cq);
	struct mlx5_ib_create_cq req;
	uint8_t resp[16];
	UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req), .out = resp,
		  .out_len = sizeof(resp));
	uint8_t *mem;
	int err;

	/* GET_CONTEXT with no request in the driver data: a second handle,
	 * since each fd has one context. */
	KT_EQ(uvio_device_open(name, &other), 0);
	if (other) {
		err = uvio_get_context(other, &none, &ctx, NULL);
		KT_EQ(err, -EINVAL);
		printf("  GET_CONTEXT without mlx5's request: %s\n", uvio_last_error());
		KT_CHECK(strstr(uvio_last_error(), "DEVICE.GET_CONTEXT") &&
			 strstr(uvio_last_error(), "EINVAL"), "named: %s", uvio_last_error());
		uvio_device_close(other);
	}

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;
	munmap(mem + PAGE, PAGE);	/* one page, nothing after it */
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);

	/* CQ.CREATE without driver data. */
	KT_EQ(uvio_create_cq(dev, &attr, &none, &cq, NULL), -EINVAL);
	printf("  CQ.CREATE without mlx5's request: %s\n", uvio_last_error());
	KT_CHECK(strstr(uvio_last_error(), "CQ.CREATE"), "named: %s", uvio_last_error());

	/* CQE size 32: mlx5 has 64 and 128 only. */
	memset(&req, 0, sizeof(req));
	req.buf_addr = (uintptr_t)mem;
	req.db_addr = (uintptr_t)(mem + PAGE - 64);
	req.cqe_size = 32;
	KT_EQ(uvio_create_cq(dev, &attr, &drv, &cq, NULL), -EINVAL);
	printf("  CQ.CREATE with 32-byte CQEs: %s\n", uvio_last_error());

	/* A request cut before its flags. */
	req.cqe_size = 64;
	drv.in_len = offsetof(struct mlx5_ib_create_cq, flags) - 1;
	KT_EQ(uvio_create_cq(dev, &attr, &drv, &cq, NULL), -EINVAL);
	printf("  CQ.CREATE with a %zu-byte request: %s\n", drv.in_len, uvio_last_error());
	drv.in_len = sizeof(req);

	/* 256 CQEs of 64 bytes need 16 KiB where one page is mapped. */
	attr.cqe = 255;
	err = uvio_create_cq(dev, &attr, &drv, &cq, NULL);
	KT_EQ(err, -EFAULT);
	printf("  CQ.CREATE on a buffer smaller than mlx5 computes: %s\n", uvio_last_error());

	/* A raw packet QP: the library's half sizes RC, UC and UD only, and
	 * says so before anything is sent. */
	{
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RAW_PACKET,
			  .cap = { .max_send_wr = 1, .max_send_sge = 1 });
		UVIO_OPTS(uvio_qp, qp);

		KT_EQ(uvio_create_qp(dev, &a, NULL, &qp, NULL), -EOPNOTSUPP);
		printf("  QP.CREATE of a raw packet QP: %s\n", uvio_last_error());
		KT_CHECK(strstr(uvio_last_error(), "mlx5"), "named: %s", uvio_last_error());
	}
	munmap(mem, PAGE);
	KT_EQ(res_count("cq"), cq_count_before);
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_mlx5_context, mctx);
	UVIO_OPTS(uvio_mlx5_object, obj);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mr, mr);
	UVIO_OPTS(uvio_srq, srq);
	struct uvio_qp rc, uc, ud, on_srq;
	uint32_t pd = 0, ah = 0;
	enum uvio_path p;
	void *mem, *resized = MAP_FAILED;
	int err;

	name = argc > 1 ? argv[1] : "mlx5_0";
	err = uvio_device_open(name, &dev);
	KT_EQ(err, 0);
	if (err)
		return kt_exit();
	KT_EQ(uvio_device_driver_id(dev), RDMA_DRIVER_MLX5);

	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	printf("%s: context via %s\n", name, uvio_path_name(p));
	KT_EQ(uvio_mlx5_query_context(dev, &mctx), 0);
	printf("  cqe_version %u, tot_bfregs %u, dynamic UAR %u (page %u at %p), "
	       "cache line %u, max_sq_desc_sz %u\n", mctx.cqe_version, mctx.tot_bfregs,
	       mctx.dynamic_uar, mctx.uar_page_id, mctx.uar, mctx.cache_line_size,
	       mctx.max_sq_desc_sz);
	KT_EQ(mctx.cqe_version, 1);
	KT_CHECK(mctx.uar != NULL, "a UAR page mapped");
	KT_EQ(mctx.dynamic_uar, 1);	/* 6.1 gives dynamic UARs to who asks */

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_PD, pd, &obj), 0);
	printf("  PD %u: pdn %u\n", pd, obj.num);

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = mem, .length = 2 * PAGE,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), 0);

	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 16);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, &p), 0);
	KT_EQ(cq.cqe, 31);
	check_cq(dev, cq.handle, 32);
	{
		/* The library polls no mlx5 CQ, so it cannot carry unpolled
		 * completions into a new buffer: without driver data the
		 * resize is refused before anything is sent, and the CQ keeps
		 * its buffer. The poller's own buffer (128 CQEs of 64 bytes,
		 * each the hardware's) goes out as libmlx5 sends its own. */
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = cq.handle, .cqe = 100);
		struct mlx5_ib_resize_cq req = { .cqe_size = 64 };
		/* No answer space (out set, out_len 0): mlx5 answers a resize
		 * in the core response alone, and libmlx5 asks for none. */
		UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req), .out = &req, .out_len = 0);
		UVIO_OPTS(uvio_mlx5_object, was);

		KT_EQ(uvio_resize_cq(dev, &ra, NULL, &cq, NULL), -EOPNOTSUPP);
		KT_CHECK(strstr(uvio_last_error(), "CQ.RESIZE: mlx5: EOPNOTSUPP: only the CQ's poller") != NULL, "%s",
			 uvio_last_error());
		check_cq(dev, cq.handle, 32);
		KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &was), 0);
		resized = mmap(NULL, 128 * 64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		KT_CHECK(resized != MAP_FAILED, "a buffer for the resize");
		for (uint32_t i = 0; i < 128; i++)
			((uint8_t *)resized)[i * 64 + 63] = 0xf0;
		req.buf_addr = (uintptr_t)resized;
		ra.cqe = 127;
		KT_EQ(uvio_resize_cq(dev, &ra, &drv, &cq, NULL), 0);
		KT_EQ(cq.cqe, 127);
		/* The library's record keeps its own buffer, mapped: the
		 * poller drains it up to the resize entry the device writes
		 * there, then goes on in its new one. */
		KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &obj), 0);
		KT_CHECK(obj.buf == was.buf && obj.ncqe == 32, "the record's buffer %p, was %p",
			 obj.buf, was.buf);
	}

	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, NULL, &rc), 0);
	check_qp(dev, rc.handle, IB_UVERBS_QPT_RC, false);
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UC, pd, cq.handle, NULL, &uc), 0);
	check_qp(dev, uc.handle, IB_UVERBS_QPT_UC, false);
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UD, pd, cq.handle, NULL, &ud), 0);
	check_qp(dev, ud.handle, IB_UVERBS_QPT_UD, false);
	KT_EQ(res_count("qp"), 3);

	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = pd, .max_wr = 16, .max_sge = 1);
	KT_EQ(uvio_create_srq(dev, &sa, NULL, &srq, NULL), 0);
	KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_SRQ, srq.handle, &obj), 0);
	/* 2 x 16 + 1 entries (a wait queue) -> 64 of 32 bytes */
	KT_EQ(obj.rq_wqe_cnt, 64);
	KT_EQ(obj.rq_wqe_shift, 5);
	KT_EQ(obj.buf_len, 64 * 32);
	printf("  SRQ %u: srqn %u, %u WQEs of %u bytes; the kernel granted max_wr %u\n",
	       srq.handle, obj.num, obj.rq_wqe_cnt, 1u << obj.rq_wqe_shift, srq.max_wr);
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, &srq.handle, &on_srq), 0);
	check_qp(dev, on_srq.handle, IB_UVERBS_QPT_RC, true);

	{	/* the RC QP to INIT: no driver data in a modify */
		struct uvio_qp_attr a = {
			.sz = sizeof(a),
			.attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
				     UVIO_QP_ACCESS_FLAGS,
			.qp_state = UVIO_QPS_INIT,
			.port_num = 1,
		};

		KT_EQ(uvio_modify_qp(dev, rc.handle, &a, NULL, NULL), 0);
	}
	{	/* an AH to the port's own first GID (RoCE: the MAC comes back) */
		struct uvio_gid_entry g;
		UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = pd);

		KT_EQ(uvio_query_gid_entry(dev, 1, 0, &g, NULL), 0);
		memcpy(aa.av.dgid, g.gid, 16);
		aa.av.is_global = 1;
		aa.av.hop_limit = 64;
		aa.av.port_num = 1;
		KT_EQ(uvio_create_ah(dev, &aa, NULL, &ah, NULL), 0);
		if (mctx.cmds_supp_uhw & MLX5_USER_CMDS_SUPP_UHW_CREATE_AH) {
			KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_AH, ah, &obj), 0);
			printf("  AH %u: dmac %02x:%02x:%02x:%02x:%02x:%02x\n", ah, obj.dmac[0],
			       obj.dmac[1], obj.dmac[2], obj.dmac[3], obj.dmac[4], obj.dmac[5]);
			KT_CHECK(obj.dmac[0] | obj.dmac[1] | obj.dmac[2] | obj.dmac[3] |
				 obj.dmac[4] | obj.dmac[5], "a MAC");
		}
	}

	refusals(dev, 1);

	KT_EQ(uvio_destroy_ah(dev, ah, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, on_srq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, rc.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, uc.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, ud.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_srq(dev, srq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	/* What the library kept for them went with them. */
	KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_CQ, cq.handle, &obj), -ENOENT);
	KT_EQ(uvio_mlx5_query_object(dev, UVERBS_OBJECT_QP, rc.handle, &obj), -ENOENT);
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	KT_EQ(res_count("qp"), 0);
	KT_EQ(res_count("cq"), 0);
	KT_EQ(res_count("pd"), 0);
	KT_EQ(res_count("mr"), 0);
	munmap(mem, 2 * PAGE);
	if (resized != MAP_FAILED)
		munmap(resized, 128 * 64);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	return kt_exit();
}
