/*
 * The data path on mlx5 (providers/mlx5.c) against a stand-in kernel: the
 * objects are created through uvio_dp_create_*() with no driver data, so
 * that the library's mlx5 half (lib/hw/mlx5.c) allocates the queues; the
 * test then reads the bytes the library wrote into them (WQEs, doorbell
 * records, the UAR page), and writes completions by hand for poll to read.
 * Every expected value is worked out here from the hardware's formats
 * (ConnectX's WQE and CQE layouts, as rdma-core's libmlx5 writes and reads
 * them), not taken from the library: a control segment is big-endian
 * index<<8 | opcode, qpn<<8 | ds, fm_ce_se at byte 11, the immediate at
 * 12; a data segment is length, lkey, address; inline data is length |
 * 0x80000000 then the bytes; a CQE64 has the QPN at 56, the WQE counter at
 * 60 and op_own (opcode<<4 | owner) at 63, and so on.
 */
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <uvio.h>
#include <uvio/dp.h>
#include <uvio/mlx5.h>
#include "wrap.h"
#include "hw_fake.h"

/* The UAR page the stand-in kernel offers: anonymous memory, kept. */
static uint8_t *uar;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd == fake_uverbs_fd()) {
		void *p = __real_mmap(addr, len, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		uar = p;
		return p;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

#define CQN 0x4a5
#define QPN_BASE 0x1c0
#define SRQN 0x77
static const uint8_t DMAC[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

static struct {
	uint32_t next_handle, next_qpn;
	uint32_t cq_cqe;		/* CREATE_CQ's CQE, answered back */
	uint32_t cap[5];		/* CREATE_QP's CAP, answered back */
	uint32_t send_wr_granted;	/* when not 0: the max_send_wr answered */
	uint32_t srq_max_wr, srq_max_sge;
	uint32_t cq_cqe_size;		/* CREATE_CQ's driver data */
	struct mlx5_ib_resize_cq resize;	/* the last RESIZE_CQ's driver data */
	uint32_t resizes;		/* RESIZE_CQs seen */
	uint8_t *resize_old;		/* where the device writes the resize CQE: the */
	uint32_t resize_pi;		/* old buffer (8 entries) at this producer index */
	uint8_t link_layer;		/* QUERY_PORT */
	uint32_t gid_type;		/* QUERY_GID_ENTRY */
	struct mlx5_ib_alloc_ucontext_resp ctx;
} k;

static struct ib_uverbs_attr *attr(struct ib_uverbs_ioctl_hdr *h, uint16_t id)
{
	return (struct ib_uverbs_attr *)find(h, id);
}

/* A PTR_IN attribute's bytes: inline up to 8. */
static const void *in_bytes(const struct ib_uverbs_attr *a)
{
	return a->len > 8 ? (const void *)(uintptr_t)a->data : (const void *)&a->data;
}

/* RESIZE_CQ: the caller's buffer noted, and what the device does: a resize
 * CQE (opcode 5, the lap's owner bit) in the old buffer at the producer
 * index the test set, every later CQE in the new buffer. */
static void resize_cq(struct ib_uverbs_ioctl_hdr *h)
{
	const struct ib_uverbs_attr *in = attr(h, UVERBS_ATTR_UHW_IN);
	const struct ib_uverbs_resize_cq *cmd;
	struct ib_uverbs_attr *a;
	size_t ncqe = 8;
	uint8_t *e;

	k.resizes++;
	assert_non_null(in);
	assert_int_equal(in->len, sizeof(k.resize));
	memcpy(&k.resize, in_bytes(in), sizeof(k.resize));
	cmd = (const void *)(uintptr_t)attr(h, UVERBS_ATTR_CORE_IN)->data;
	e = k.resize_old + (k.resize_pi & (ncqe - 1)) * 64;
	memset(e, 0, 63);
	e[63] = (uint8_t)(5 << 4 | ((k.resize_pi / ncqe) & 1));
	if ((a = attr(h, UVERBS_ATTR_CORE_OUT)))
		put_out(a, &(struct ib_uverbs_resize_cq_resp){ .cqe = cmd->cqe }, 8);
}

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;
	struct ib_uverbs_attr *a;

	(void)request;
	switch (h->object_id) {
	case UVERBS_OBJECT_DEVICE:
		if (h->method_id == UVERBS_METHOD_GET_CONTEXT) {
			if ((a = attr(h, UVERBS_ATTR_UHW_OUT)))
				put_out(a, &k.ctx, sizeof(k.ctx));
			if ((a = attr(h, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS)))
				put_out(a, &(uint32_t){ 1 }, 4);
		} else if (h->method_id == UVERBS_METHOD_INVOKE_WRITE &&
			   (a = attr(h, UVERBS_ATTR_WRITE_CMD)) &&
			   a->data == IB_USER_VERBS_CMD_CREATE_AH) {
			struct ib_uverbs_create_ah_resp r = { .ah_handle = ++k.next_handle };
			struct mlx5_ib_create_ah_resp d = { .response_length = sizeof(d) };

			memcpy(d.dmac, DMAC, 6);
			if ((a = attr(h, UVERBS_ATTR_CORE_OUT)))
				put_out(a, &r, sizeof(r));
			if ((a = attr(h, UVERBS_ATTR_UHW_OUT)))
				put_out(a, &d, sizeof(d));
		} else if (h->method_id == UVERBS_METHOD_INVOKE_WRITE &&
			   (a = attr(h, UVERBS_ATTR_WRITE_CMD)) &&
			   a->data == IB_USER_VERBS_CMD_RESIZE_CQ) {
			resize_cq(h);
		} else if (h->method_id == UVERBS_METHOD_QUERY_PORT &&
			   (a = attr(h, UVERBS_ATTR_QUERY_PORT_RESP))) {
			struct ib_uverbs_query_port_resp_ex r = { 0 };

			r.legacy_resp.link_layer = k.link_layer;
			r.legacy_resp.state = 4;
			put_out(a, &r, sizeof(r));
		} else if (h->method_id == UVERBS_METHOD_QUERY_GID_ENTRY &&
			   (a = attr(h, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY))) {
			uint32_t e[8] = { 0 };	/* struct ib_uverbs_gid_entry */

			e[0] = 0x80fe;
			e[6] = k.gid_type;
			put_out(a, e, sizeof(e));
		}
		break;
	case UVERBS_OBJECT_ASYNC_EVENT:
		if ((a = attr(h, 0)))
			a->data = (uint64_t)dup(fake_uverbs_fd());
		break;
	case MLX5_IB_OBJECT_UAR:
		if (h->method_id != MLX5_IB_METHOD_UAR_OBJ_ALLOC)
			break;
		attr(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE)->data = 3;
		put_out(attr(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH), &(uint32_t){ 4096 }, 4);
		put_out(attr(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET), &(uint64_t){ 0x900000 }, 8);
		put_out(attr(h, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID), &(uint32_t){ 5 }, 4);
		break;
	case UVERBS_OBJECT_CQ:
		if (h->method_id != UVERBS_METHOD_CQ_CREATE)
			break;
		attr(h, UVERBS_ATTR_CREATE_CQ_HANDLE)->data = ++k.next_handle;
		k.cq_cqe = (uint32_t)attr(h, UVERBS_ATTR_CREATE_CQ_CQE)->data;
		k.cq_cqe_size = ((const struct mlx5_ib_create_cq *)
				 in_bytes(attr(h, UVERBS_ATTR_UHW_IN)))->cqe_size;
		put_out(attr(h, UVERBS_ATTR_CREATE_CQ_RESP_CQE), &k.cq_cqe, 4);
		put_out(attr(h, UVERBS_ATTR_UHW_OUT),
			&(struct mlx5_ib_create_cq_resp){ .cqn = CQN }, 8);
		break;
	case UVERBS_OBJECT_QP:
		if (h->method_id != UVERBS_METHOD_QP_CREATE)
			break;
		attr(h, UVERBS_ATTR_CREATE_QP_HANDLE)->data = ++k.next_handle;
		memcpy(k.cap, (void *)(uintptr_t)attr(h, UVERBS_ATTR_CREATE_QP_CAP)->data,
		       sizeof(k.cap));
		if (k.send_wr_granted)
			k.cap[0] = k.send_wr_granted;
		put_out(attr(h, UVERBS_ATTR_CREATE_QP_RESP_CAP), k.cap, sizeof(k.cap));
		put_out(attr(h, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM), &(uint32_t){ k.next_qpn++ }, 4);
		put_out(attr(h, UVERBS_ATTR_UHW_OUT),
			&(struct mlx5_ib_create_qp_resp){ .bfreg_index = 5 },
			sizeof(struct mlx5_ib_create_qp_resp));
		break;
	case UVERBS_OBJECT_SRQ:
		if (h->method_id != UVERBS_METHOD_SRQ_CREATE)
			break;
		attr(h, UVERBS_ATTR_CREATE_SRQ_HANDLE)->data = ++k.next_handle;
		k.srq_max_wr = (uint32_t)attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_WR)->data;
		k.srq_max_sge = (uint32_t)attr(h, UVERBS_ATTR_CREATE_SRQ_MAX_SGE)->data;
		put_out(attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR), &k.srq_max_wr, 4);
		put_out(attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE), &k.srq_max_sge, 4);
		if ((a = attr(h, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM)))
			put_out(a, &(uint32_t){ SRQN }, 4);
		put_out(attr(h, UVERBS_ATTR_UHW_OUT),
			&(struct mlx5_ib_create_srq_resp){ .srqn = SRQN }, 8);
		break;
	default:
		break;
	}
	return 0;
}

/* A 6.1 ConnectX-like context: dynamic UARs, CQE version 1, RoCE. */
static struct uvio_device *device(int *async_fd)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);

	fake_reset();
	memset(&k, 0, sizeof(k));
	k.next_qpn = QPN_BASE;
	k.link_layer = 2;	/* Ethernet */
	k.gid_type = 2;		/* RoCE v2 */
	fake.on_ioctl = kernel_ioctl;
	k.ctx.cqe_version = 1;
	k.ctx.cache_line_size = 64;
	k.ctx.max_sq_desc_sz = 1024;
	k.ctx.max_rq_desc_sz = 512;
	k.ctx.max_send_wqebb = 32768;
	k.ctx.max_recv_wr = 32768;
	k.ctx.max_srq_recv_wr = 32768;
	k.ctx.num_ports = 1;
	k.ctx.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_MLX5, &dev), 0);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_IOCTL), 0);
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_non_null(uar);
	*async_fd = ctx.async_fd;
	return dev;
}

static void done(struct uvio_device *dev, int async_fd)
{
	uvio_device_close(dev);
	close(async_fd);
}

/* Where the half put an object's queues. */
static struct uvio_mlx5_object where(struct uvio_device *dev, uint16_t object, uint32_t handle)
{
	UVIO_OPTS(uvio_mlx5_object, o);

	assert_int_equal(uvio_mlx5_query_object(dev, object, handle, &o), 0);
	return o;
}

static uint32_t be32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint64_t be64_at(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

static void set_be32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void set_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A CQ of 8 CQEs (7 asked: 8 entries). */
static void make_cq(struct uvio_device *dev, struct uvio_dp_cq *cq)
{
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 7);

	assert_int_equal(uvio_dp_create_cq(dev, &ca, cq), 0);
	assert_int_equal(cq->cqe, 7);
}

/* A QP of type on cq: RC gets 4 x 256-byte WQEs (192 + 4 x 16: 16 blocks),
 * UD 4 x 128 (64 + 4 x 16: 8 blocks). */
static void make_qp(struct uvio_device *dev, struct uvio_dp_cq *cq, uint32_t type,
		    uint32_t flags, struct uvio_dp_srq *srq, struct uvio_dp_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = type, .pd_handle = 1,
		  .send_cq_handle = cq->handle, .recv_cq_handle = cq->handle,
		  .cap = { .max_send_wr = 4, .max_recv_wr = srq ? 0 : 4, .max_send_sge = 4,
			   .max_recv_sge = 2, .max_inline_data = 0 },
		  .create_flags = flags);

	if (srq) {
		qa.fields = UVIO_QP_INIT_SRQ;
		qa.srq_handle = srq->handle;
	}
	assert_int_equal(uvio_dp_create_qp(dev, &qa, srq, qp), 0);
}

/* The send queue's block i, and the doorbell word last written at 0x800. */
static uint8_t *sq_bb(struct uvio_device *dev, const struct uvio_dp_qp *qp, uint32_t i)
{
	struct uvio_mlx5_object o = where(dev, UVERBS_OBJECT_QP, qp->handle);

	return (uint8_t *)o.buf + o.sq_offset + (size_t)(i % o.sq_wqe_cnt) * 64;
}

/* The control segment, field by field. */
static void check_ctrl(const uint8_t *c, uint32_t idx, uint8_t opcode, uint32_t qpn, uint32_t ds,
		       uint8_t fm_ce_se, uint32_t imm_be)
{
	uint32_t imm;

	assert_int_equal(be32_at(c), (idx & 0xffff) << 8 | opcode);
	assert_int_equal(be32_at(c + 4), qpn << 8 | ds);
	assert_int_equal(c[8], 0);
	assert_int_equal(c[9], 0);
	assert_int_equal(c[10], 0);
	assert_int_equal(c[11], fm_ce_se);
	memcpy(&imm, c + 12, 4);
	assert_int_equal(imm, imm_be);
}

static void check_dseg(const uint8_t *d, uint32_t len, uint32_t lkey, uint64_t addr)
{
	assert_int_equal(be32_at(d), len);
	assert_int_equal(be32_at(d + 4), lkey);
	assert_int_equal(be64_at(d + 8), addr);
}

/* The doorbell: record dbrec[1] = the block counter, and the first 8 bytes
 * of the last WQE's control segment at UAR + 0x800. */
static void check_doorbell(struct uvio_device *dev, const struct uvio_dp_qp *qp, uint32_t counter,
			   const uint8_t *last_ctrl)
{
	struct uvio_mlx5_object o = where(dev, UVERBS_OBJECT_QP, qp->handle);

	assert_int_equal(be32toh(o.dbrec[1]), counter & 0xffff);
	assert_memory_equal(uar + 0x800, last_ctrl, 8);
}

/* A requester CQE at producer index i of an 8-entry CQ, first lap owner 0. */
static void put_req_cqe(uint8_t *cqes, uint32_t i, uint32_t qpn, uint16_t counter)
{
	uint8_t *c = cqes + (size_t)(i & 7) * 64;

	memset(c, 0, 64);
	set_be32(c + 56, (uint32_t)0x0a << 24 | qpn);
	set_be16(c + 60, counter);
	c[63] = (uint8_t)!!(i & 8);	/* REQ, the owner bit of i's lap */
}

/* Post n one-block SENDs on qp, wr_ids from id on. */
static void post_sends(struct uvio_dp_qp *qp, uint64_t id, int n)
{
	struct uvio_dp_sge one = { 0x5000, 8, 0x21 };
	struct uvio_dp_send_wr w = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &one, .num_sge = 1 };
	uint32_t bad;

	for (int i = 0; i < n; i++) {
		w.wr_id = id + (uint64_t)i;
		assert_int_equal(uvio_dp_post_send(qp, &w, 1, &bad), 0);
	}
}

/* Every opcode of an RC QP, as the hardware reads it. */
static void rc_sends(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge sg[3] = { { 0x1000, 100, 0x11 }, { 0x2000, 0, 0x12 },
				     { 0x3000, 50, 0x13 } };
	struct uvio_dp_sge eight = { 0x4000, 8, 0x14 };
	uint64_t mask = 0;
	uint32_t bad = 9;
	const uint8_t *c;
	uint32_t qpn;

	(void)state;
	make_cq(dev, &cq);
	k.send_wr_granted = 16;	/* the ring's blocks bind, not the WQE count */
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	qpn = qp.qp_num;
	assert_int_equal(qpn, QPN_BASE);
	assert_int_equal(uvio_dp_qp_opcodes(&qp, &mask), 0);
	assert_int_equal(mask, 1u << IB_UVERBS_WR_SEND | 1u << IB_UVERBS_WR_SEND_WITH_IMM |
				       1u << IB_UVERBS_WR_SEND_WITH_INV |
				       1u << IB_UVERBS_WR_RDMA_WRITE |
				       1u << IB_UVERBS_WR_RDMA_WRITE_WITH_IMM |
				       1u << IB_UVERBS_WR_RDMA_READ |
				       1u << IB_UVERBS_WR_LOCAL_INV | 1u << IB_UVERBS_WR_BIND_MW |
				       1u << IB_UVERBS_WR_ATOMIC_CMP_AND_SWP |
				       1u << IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD);
	/* SEND, signalled and solicited, three SGEs of which one is empty:
	 * control + 2 data segments = ds 3, one block. */
	{
		struct uvio_dp_send_wr w = { .wr_id = 1, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_SOLICITED,
					     .sg_list = sg, .num_sge = 3 };

		assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
		assert_int_equal(bad, 0);
		c = sq_bb(dev, &qp, 0);
		check_ctrl(c, 0, 0x0a, qpn, 3, 0x08 | 0x02, 0);
		check_dseg(c + 16, 100, 0x11, 0x1000);
		check_dseg(c + 32, 50, 0x13, 0x3000);
		check_doorbell(dev, &qp, 1, c);
		assert_int_equal(fake.write_calls, 0);	/* no kernel doorbell */
	}
	/* SEND_WITH_IMM unsignalled with a fence; RDMA_WRITE_WITH_IMM; both
	 * in one post, one doorbell naming the second. */
	{
		struct uvio_dp_send_wr w[2] = {
			{ .wr_id = 2, .opcode = IB_UVERBS_WR_SEND_WITH_IMM,
			  .flags = UVIO_DP_SEND_FENCE, .sg_list = sg, .num_sge = 1,
			  .imm_data = htobe32(0xabcdef01) },
			{ .wr_id = 3, .opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
			  .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &sg[2], .num_sge = 1,
			  .imm_data = htobe32(0x01020304),
			  .rdma = { .remote_addr = 0x123456789abcull, .rkey = 0x5678 } },
		};

		assert_int_equal(uvio_dp_post_send(&qp, w, 2, &bad), 0);
		c = sq_bb(dev, &qp, 1);
		check_ctrl(c, 1, 0x0b, qpn, 2, 0x80, htobe32(0xabcdef01));
		check_dseg(c + 16, 100, 0x11, 0x1000);
		c = sq_bb(dev, &qp, 2);
		check_ctrl(c, 2, 0x09, qpn, 3, 0x08, htobe32(0x01020304));
		assert_int_equal(be64_at(c + 16), 0x123456789abcull);
		assert_int_equal(be32_at(c + 24), 0x5678);
		assert_int_equal(be32_at(c + 28), 0);
		check_dseg(c + 32, 50, 0x13, 0x3000);
		check_doorbell(dev, &qp, 3, c);
	}
	/* RDMA_READ, RDMA_WRITE, atomics (raddr + atomic segment + the 8-byte
	 * SGE), SEND_WITH_INV (the rkey in the immediate's place). */
	{
		struct uvio_dp_send_wr w[] = {
			{ .wr_id = 4, .opcode = IB_UVERBS_WR_RDMA_READ, .sg_list = sg, .num_sge = 1,
			  .rdma = { .remote_addr = 0xfeed0000, .rkey = 0x99 } },
			{ .wr_id = 5, .opcode = IB_UVERBS_WR_RDMA_WRITE, .sg_list = sg, .num_sge = 1,
			  .rdma = { .remote_addr = 0xbeef0000, .rkey = 0x98 } },
			{ .wr_id = 6, .opcode = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
			  .sg_list = &eight, .num_sge = 1,
			  .atomic = { .remote_addr = 0xa000, .compare_add = 0x1111222233334444ull,
				      .swap = 0x5555666677778888ull, .rkey = 0x77 } },
			{ .wr_id = 7, .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
			  .sg_list = &eight, .num_sge = 1,
			  .atomic = { .remote_addr = 0xb000, .compare_add = 5, .swap = 9,
				      .rkey = 0x76 } },
			{ .wr_id = 8, .opcode = IB_UVERBS_WR_SEND_WITH_INV, .num_sge = 0,
			  .invalidate_rkey = 0xcafe },
		};
		struct uvio_mlx5_object o;

		assert_int_equal(uvio_dp_post_send(&qp, w, 5, &bad), 0);
		c = sq_bb(dev, &qp, 3);
		check_ctrl(c, 3, 0x10, qpn, 3, 0, 0);
		assert_int_equal(be64_at(c + 16), 0xfeed0000);
		assert_int_equal(be32_at(c + 24), 0x99);
		check_dseg(c + 32, 100, 0x11, 0x1000);
		c = sq_bb(dev, &qp, 4);
		check_ctrl(c, 4, 0x08, qpn, 3, 0, 0);
		assert_int_equal(be64_at(c + 16), 0xbeef0000);
		c = sq_bb(dev, &qp, 5);
		check_ctrl(c, 5, 0x11, qpn, 4, 0, 0);
		assert_int_equal(be64_at(c + 16), 0xa000);
		assert_int_equal(be32_at(c + 24), 0x77);
		assert_int_equal(be64_at(c + 32), 0x5555666677778888ull);	/* swap */
		assert_int_equal(be64_at(c + 40), 0x1111222233334444ull);	/* compare */
		check_dseg(c + 48, 8, 0x14, 0x4000);
		c = sq_bb(dev, &qp, 6);
		check_ctrl(c, 6, 0x12, qpn, 4, 0, 0);
		assert_int_equal(be64_at(c + 32), 5);				/* add */
		assert_int_equal(be64_at(c + 40), 0);
		c = sq_bb(dev, &qp, 7);
		check_ctrl(c, 7, 0x01, qpn, 1, 0, htobe32(0xcafe));
		check_doorbell(dev, &qp, 8, c);
		o = where(dev, UVERBS_OBJECT_QP, qp.handle);
		assert_int_equal(o.sq_wqe_cnt, 16);
	}
	/* Refused before anything is written: an atomic without one 8-byte
	 * SGE, more SGEs than max_send_sge, an opcode RC lacks. */
	{
		struct uvio_dp_send_wr w = { .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
					     .sg_list = sg, .num_sge = 1 };
		struct uvio_dp_sge five[5] = { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 },
					       { 1, 1, 1 }, { 1, 1, 1 } };

		assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EINVAL);
		w.opcode = IB_UVERBS_WR_SEND;
		w.sg_list = five;
		w.num_sge = 5;
		assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EINVAL);
		w.opcode = UVIO_DP_WR_ATOMIC_WRITE;
		w.num_sge = 0;
		assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "QP.POST_SEND (data path): EOPNOTSUPP"));
	}
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* Inline data (padded to 16, wrapping to block 0), a full queue, and the
 * send queue's blocks freed by a completion. */
static void inline_wrap_and_full(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	uint8_t msg[200];
	struct uvio_dp_sge two[2] = { { (uintptr_t)msg, 150, 1 }, { (uintptr_t)msg + 150, 50, 2 } };
	struct uvio_dp_sge one = { 0x9000, 16, 3 };
	struct uvio_dp_send_wr w = { .opcode = IB_UVERBS_WR_SEND, .flags = UVIO_DP_SEND_INLINE,
				     .sg_list = two, .num_sge = 2 };
	struct uvio_mlx5_object o;
	uint32_t bad, total;
	const uint8_t *c;
	struct uvio_dp_wc wc[4];

	(void)state;
	for (unsigned int i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 7 + 1);
	make_cq(dev, &cq);
	k.send_wr_granted = 16;	/* the ring's blocks bind, not the WQE count */
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, IB_UVERBS_QP_CREATE_SQ_SIG_ALL, NULL, &qp);
	assert_int_equal(qp.cap.max_inline_data, 256 - 192 - 4);
	/* 60 bytes of inline data at most: 200 is refused. */
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EINVAL);
	two[0].length = 40;
	two[1].length = 20;	/* 60 bytes: ds 1 + (4 + 60) / 16 = 5, two blocks */
	two[1].addr = (uintptr_t)msg + 40;
	/* 16 blocks: 13 single-block WRs, then this one at 13-14, then one at
	 * 15 that wraps its inline bytes to block 0 is refused until the
	 * hardware frees blocks. */
	{
		struct uvio_dp_send_wr s = { .wr_id = 100, .opcode = IB_UVERBS_WR_SEND,
					     .sg_list = &one, .num_sge = 1 };

		for (int i = 0; i < 13; i++) {
			s.wr_id = 100 + (uint64_t)i;
			assert_int_equal(uvio_dp_post_send(&qp, &s, 1, &bad), 0);
		}
		c = sq_bb(dev, &qp, 12);
		/* The QP signals every WQE: CQ update without the flag. */
		check_ctrl(c, 12, 0x0a, qp.qp_num, 2, 0x08, 0);
	}
	w.wr_id = 200;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
	c = sq_bb(dev, &qp, 13);
	check_ctrl(c, 13, 0x0a, qp.qp_num, 5, 0x08, 0);
	assert_int_equal(be32_at(c + 16), 60 | 0x80000000u);
	assert_memory_equal(c + 20, msg, 60);
	check_doorbell(dev, &qp, 15, c);
	/* Block 15 is the last free one: a two-block WR does not fit. */
	w.wr_id = 201;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -ENOSPC);
	assert_int_equal(bad, 0);
	/* The hardware completes WQE 0..13 (one CQE names 13: every WQE
	 * before it is retired with it), and blocks 0..14 are free. */
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	put_req_cqe(o.buf, 0, qp.qp_num, 13);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 1);
	assert_int_equal(wc[0].wr_id, 200);
	assert_int_equal(wc[0].status, UVIO_WC_SUCCESS);
	assert_int_equal(wc[0].opcode, UVIO_WC_SEND);
	assert_int_equal(wc[0].qp_num, qp.qp_num);
	assert_int_equal(be32toh(o.dbrec[0]), 1);	/* the consumer index */
	/* Now a two-block inline WR at block 15 wraps: its control, the
	 * inline header and 44 bytes in block 15, the other 16 in block 0. */
	two[0].addr = (uintptr_t)msg + 100;
	w.wr_id = 202;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
	c = sq_bb(dev, &qp, 15);
	check_ctrl(c, 15, 0x0a, qp.qp_num, 5, 0x08, 0);
	assert_int_equal(be32_at(c + 16), 60 | 0x80000000u);
	assert_memory_equal(c + 20, msg + 100, 40);
	assert_memory_equal(c + 60, msg + 40, 4);
	assert_memory_equal(sq_bb(dev, &qp, 0), msg + 44, 16);
	total = 17;
	check_doorbell(dev, &qp, total, c);
	/* A data segment that wraps: a three-SGE WR at block 1 stays in it;
	 * the counter's 16 bits go on past the ring's size. */
	{
		struct uvio_dp_sge three[3] = { { 0xa0, 1, 7 }, { 0xb0, 2, 8 }, { 0xc0, 3, 9 } };
		struct uvio_dp_send_wr s = { .wr_id = 300, .opcode = IB_UVERBS_WR_SEND,
					     .sg_list = three, .num_sge = 3 };

		assert_int_equal(uvio_dp_post_send(&qp, &s, 1, &bad), 0);
		c = sq_bb(dev, &qp, 17);
		check_ctrl(c, 17, 0x0a, qp.qp_num, 4, 0x08, 0);
		check_dseg(c + 48, 3, 9, 0xc0);
		check_doorbell(dev, &qp, 18, c);
	}
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/*
 * Granted max_send_wr 4, the ring 16 blocks (4 of the largest WQE): four
 * one-block SENDs fill the queue, a fifth is refused with 12 blocks free.
 * A CQE naming the second retires two, and two more are taken.
 */
static void send_wr_bound(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge one = { 0x5000, 8, 0x21 };
	struct uvio_dp_send_wr w = { .wr_id = 9, .opcode = IB_UVERBS_WR_SEND, .sg_list = &one,
				     .num_sge = 1 };
	struct uvio_dp_wc wc[2];
	uint32_t bad;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	assert_int_equal(qp.cap.max_send_wr, 4);
	assert_int_equal(uvio_dp_queue_capacity(&qp.sq), 16);
	post_sends(&qp, 0, 4);
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -ENOSPC);
	assert_int_equal(bad, 0);
	put_req_cqe(where(dev, UVERBS_OBJECT_CQ, cq.handle).buf, 0, qp.qp_num, 1);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 2), 1);
	assert_int_equal(wc[0].wr_id, 1);
	post_sends(&qp, 4, 2);
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -ENOSPC);
	check_ctrl(sq_bb(dev, &qp, 5), 5, 0x0a, qp.qp_num, 2, 0, 0);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/*
 * uvio_dp_reset_qp on a CQ of 8 whose unpolled CQEs cross its end: the
 * consumer index at 6, CQEs 6 (b), 7 (a), 8 (b) and 9 (a), the last two in
 * the second lap. Resetting a drops its two; b's move up to 8 and 9 (the
 * older one across the lap, its owner bit turned) and the consumer index
 * to 8: a poll gives b's two in order and nothing else. a's next WQE is at
 * block 0 with index 0, its doorbell record 1.
 */
static void reset_cleans_cq(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, b;
	struct uvio_mlx5_object o;
	struct uvio_dp_wc wc[4];
	uint8_t *cqes;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &a);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &b);
	assert_int_equal(uvio_dp_reset_qp(NULL, &cq, &cq), -EINVAL);
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	cqes = o.buf;
	/* b's WQEs 0..5 done and polled: the consumer index at 6 */
	post_sends(&b, 100, 4);
	for (uint32_t i = 0; i < 4; i++)
		put_req_cqe(cqes, i, b.qp_num, (uint16_t)i);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 4);
	post_sends(&b, 104, 2);
	put_req_cqe(cqes, 4, b.qp_num, 4);
	put_req_cqe(cqes, 5, b.qp_num, 5);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 2);
	assert_int_equal(wc[1].wr_id, 105);
	post_sends(&b, 106, 2);
	post_sends(&a, 200, 2);
	put_req_cqe(cqes, 6, b.qp_num, 6);
	put_req_cqe(cqes, 7, a.qp_num, 0);
	put_req_cqe(cqes, 8, b.qp_num, 7);
	put_req_cqe(cqes, 9, a.qp_num, 1);
	assert_int_equal(uvio_dp_reset_qp(&a, &cq, &cq), 0);
	assert_int_equal(be32toh(o.dbrec[0]), 8);	/* the consumer index */
	assert_int_equal(cqes[0 * 64 + 63], 0x01);	/* b's older CQE, second lap */
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 2);
	assert_int_equal(wc[0].wr_id, 106);
	assert_int_equal(wc[0].qp_num, b.qp_num);
	assert_int_equal(wc[1].wr_id, 107);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 0);
	/* a starts over: block 0, index 0, its doorbell record 1 */
	post_sends(&a, 300, 1);
	check_ctrl(sq_bb(dev, &a, 0), 0, 0x0a, a.qp_num, 2, 0, 0);
	check_doorbell(dev, &a, 1, sq_bb(dev, &a, 0));
	assert_int_equal(uvio_dp_destroy_qp(&a, NULL), 0);
	assert_int_equal(uvio_dp_destroy_qp(&b, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* A data segment list that wraps around the end of the ring. */
static void sge_wrap(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge one = { 0x9000, 16, 3 };
	struct uvio_dp_sge four[4] = { { 0x10, 1, 1 }, { 0x20, 2, 2 }, { 0x30, 3, 3 },
				       { 0x40, 4, 4 } };
	struct uvio_dp_send_wr s = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &one, .num_sge = 1,
				     .flags = UVIO_DP_SEND_SIGNALED };
	struct uvio_dp_wc wc;
	uint8_t *cqes;
	uint32_t bad;
	const uint8_t *c;

	(void)state;
	make_cq(dev, &cq);
	k.send_wr_granted = 16;	/* the ring's blocks bind, not the WQE count */
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	for (int i = 0; i < 15; i++)
		assert_int_equal(uvio_dp_post_send(&qp, &s, 1, &bad), 0);
	cqes = where(dev, UVERBS_OBJECT_CQ, cq.handle).buf;
	set_be32(cqes + 56, qp.qp_num);
	set_be16(cqes + 60, 14);
	cqes[63] = 0x00;
	assert_int_equal(uvio_dp_poll_cq(&cq, &wc, 1), 1);
	/* ctrl + 4 data segments = ds 5: 48 bytes in block 15, 32 in block 0 */
	s.sg_list = four;
	s.num_sge = 4;
	assert_int_equal(uvio_dp_post_send(&qp, &s, 1, &bad), 0);
	c = sq_bb(dev, &qp, 15);
	check_ctrl(c, 15, 0x0a, qp.qp_num, 5, 0x08, 0);
	check_dseg(c + 16, 1, 1, 0x10);
	check_dseg(c + 32, 2, 2, 0x20);
	check_dseg(c + 48, 3, 3, 0x30);
	check_dseg(sq_bb(dev, &qp, 0), 4, 4, 0x40);
	check_doorbell(dev, &qp, 17, c);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* UD with an AH: the 48-byte address vector of RoCE v2, the qkey and the
 * remote QP number with the extended-AV bit. */
static void ud_with_ah(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_ah ah;
	UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = 1,
		  .av = { .dgid = { 0xfe, 0x80, [15] = 0x42 }, .flow_label = 0x12345,
			  .sgid_index = 3, .hop_limit = 64, .traffic_class = 0x28, .sl = 5,
			  .static_rate = 3 /* 10 Gb/s */, .is_global = 1, .port_num = 1 });
	struct uvio_dp_sge sg = { 0x5000, 64, 0x21 };
	struct uvio_dp_send_wr w = { .wr_id = 9, .opcode = IB_UVERBS_WR_SEND, .sg_list = &sg,
				     .num_sge = 1, .flags = UVIO_DP_SEND_SIGNALED,
				     .ud = { .ah = &ah, .remote_qpn = 0xabcde, .remote_qkey = 0x11223344 } };
	uint64_t mask;
	uint32_t bad;
	const uint8_t *c, *av;
	uint16_t sport;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_UD, 0, NULL, &qp);
	assert_int_equal(uvio_dp_qp_opcodes(&qp, &mask), 0);
	assert_int_equal(mask, 1u << IB_UVERBS_WR_SEND | 1u << IB_UVERBS_WR_SEND_WITH_IMM);
	assert_int_equal(uvio_dp_create_ah(dev, &aa, &ah), 0);
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
	c = sq_bb(dev, &qp, 0);
	check_ctrl(c, 0, 0x0a, qp.qp_num, 1 + 3 + 1, 0x08, 0);
	av = c + 16;
	assert_int_equal(be32_at(av), 0x11223344);			/* qkey */
	assert_int_equal(be32_at(av + 8), 0xabcde | 0x80000000u);	/* dqpn, extended */
	assert_int_equal(av[12], 8 << 4 | 5 << 1);	/* rate 10 Gb/s: 8; RoCE: sl << 1 */
	/* RoCE v2: the UDP source port from the flow label */
	sport = (uint16_t)((0x12345 & 0x3fff) ^ (0x12345 >> 14)) | 0xc000;
	assert_int_equal(av[14] << 8 | av[15], sport);
	assert_memory_equal(av + 20, DMAC, 6);
	assert_int_equal(av[26], 0x28);
	assert_int_equal(av[27], 64);
	assert_int_equal(be32_at(av + 28), 3u << 20 | 0x12345);	/* no grh bit on RoCE */
	assert_int_equal(av[32], 0xfe);
	assert_int_equal(av[33], 0x80);
	assert_int_equal(av[47], 0x42);
	/* the data after the address vector: block 1 */
	check_dseg(sq_bb(dev, &qp, 1), 64, 0x21, 0x5000);
	check_doorbell(dev, &qp, 2, c);
	/* No AH: refused. RDMA on UD: refused. */
	w.ud.ah = NULL;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EINVAL);
	w.ud.ah = &ah;
	w.opcode = IB_UVERBS_WR_RDMA_WRITE;
	assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), -EOPNOTSUPP);
	/* RoCE without a GRH: refused at create. */
	{
		struct uvio_dp_ah ah2;

		aa.av.is_global = 0;
		assert_int_equal(uvio_dp_create_ah(dev, &aa, &ah2), -EINVAL);
		assert_non_null(strstr(uvio_last_error(), "needs a GRH"));
	}
	/* InfiniBand: the LID, the path bits, sl in the low nibble, grh bit. */
	{
		struct uvio_dp_ah ib;

		k.link_layer = 1;
		aa.av.is_global = 1;
		aa.av.dlid = 0x1234;
		aa.av.src_path_bits = 0x85;
		assert_int_equal(uvio_dp_create_ah(dev, &aa, &ib), 0);
		w.opcode = IB_UVERBS_WR_SEND;
		w.ud.ah = &ib;
		assert_int_equal(uvio_dp_post_send(&qp, &w, 1, &bad), 0);
		av = sq_bb(dev, &qp, 2) + 16;
		assert_int_equal(av[12], 8 << 4 | 5);
		assert_int_equal(av[13], 0x05);
		assert_int_equal(av[14] << 8 | av[15], 0x1234);
		assert_int_equal(be32_at(av + 28), 1u << 30 | 3u << 20 | 0x12345);
		assert_int_equal(uvio_dp_destroy_ah(&ib), 0);
	}
	assert_int_equal(uvio_dp_destroy_ah(&ah), 0);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* Receives: scatter entries (empty SGEs left out), the 0x100 terminator
 * where there is room, the receive record; a full queue. */
static void receives(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge sg[2] = { { 0x1000, 10, 0x31 }, { 0x2000, 20, 0x32 } };
	struct uvio_dp_sge holes[3] = { { 0x1000, 0, 0x31 }, { 0x2000, 20, 0x32 } };
	struct uvio_dp_recv_wr r[5];
	struct uvio_mlx5_object o;
	uint8_t *rq;
	uint32_t bad = 9;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	o = where(dev, UVERBS_OBJECT_QP, qp.handle);
	assert_int_equal(o.rq_wqe_cnt, 4);
	assert_int_equal(o.rq_wqe_shift, 5);	/* 2 scatter entries: 32 bytes */
	rq = o.buf;
	memset(rq, 0xee, 4 * 32);
	for (int i = 0; i < 5; i++)
		r[i] = (struct uvio_dp_recv_wr){ .wr_id = 50 + (uint64_t)i, .sg_list = sg,
						 .num_sge = (uint32_t)(i % 2 + 1) };
	r[2].sg_list = holes;
	r[2].num_sge = 2;
	assert_int_equal(uvio_dp_post_recv(&qp, r, 5, &bad), -ENOSPC);
	assert_int_equal(bad, 4);
	check_dseg(rq, 10, 0x31, 0x1000);
	check_dseg(rq + 16, 0, 0x100, 0);	/* the terminator */
	check_dseg(rq + 32, 10, 0x31, 0x1000);
	check_dseg(rq + 48, 20, 0x32, 0x2000);	/* full: no terminator */
	check_dseg(rq + 64, 20, 0x32, 0x2000);	/* the empty SGE left out */
	check_dseg(rq + 80, 0, 0x100, 0);
	assert_int_equal(be32toh(o.dbrec[0]), 4);
	assert_int_equal(be32toh(o.dbrec[1]), 0);	/* the send record untouched */
	assert_int_equal(fake.write_calls, 0);
	r[0].num_sge = 3;
	assert_int_equal(uvio_dp_post_recv(&qp, r, 1, &bad), -EINVAL);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* A CQE written as the hardware writes it, at entry n of an 8-entry CQ. */
static uint8_t *cqe_at(uint8_t *cqes, uint32_t n)
{
	return cqes + (size_t)(n & 7) * 64;
}

static void write_cqe(uint8_t *cqes, uint32_t n, uint8_t opcode, uint32_t qpn, uint16_t counter)
{
	uint8_t *e = cqe_at(cqes, n);

	memset(e, 0, 63);
	set_be32(e + 56, qpn);
	set_be16(e + 60, counter);
	e[63] = (uint8_t)(opcode << 4 | ((n >> 3) & 1));	/* the lap's owner bit */
}

/* Completions: requester and responder, each opcode and flag, every
 * syndrome, owner bits by lap, the consumer index in the record. */
static void completions(void **state)
{
	static const struct {
		uint8_t syndrome;
		uint32_t status;
	} synd[] = {
		{ 0x01, UVIO_WC_LOC_LEN_ERR }, { 0x02, UVIO_WC_LOC_QP_OP_ERR },
		{ 0x04, UVIO_WC_LOC_PROT_ERR }, { 0x05, UVIO_WC_WR_FLUSH_ERR },
		{ 0x06, UVIO_WC_MW_BIND_ERR }, { 0x10, UVIO_WC_BAD_RESP_ERR },
		{ 0x11, UVIO_WC_LOC_ACCESS_ERR }, { 0x12, UVIO_WC_REM_INV_REQ_ERR },
		{ 0x13, UVIO_WC_REM_ACCESS_ERR }, { 0x14, UVIO_WC_REM_OP_ERR },
		{ 0x15, UVIO_WC_RETRY_EXC_ERR }, { 0x16, UVIO_WC_RNR_RETRY_EXC_ERR },
		{ 0x22, UVIO_WC_REM_ABORT_ERR }, { 0x99, UVIO_WC_GENERAL_ERR },
	};
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge sg = { 0x1000, 10, 0x31 }, eight = { 0x4000, 8, 1 };
	struct uvio_dp_send_wr s[4] = {
		{ .wr_id = 0x51, .opcode = IB_UVERBS_WR_SEND_WITH_IMM, .sg_list = &sg, .num_sge = 1 },
		{ .wr_id = 0x52, .opcode = IB_UVERBS_WR_RDMA_READ, .sg_list = &sg, .num_sge = 1 },
		{ .wr_id = 0x53, .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD, .sg_list = &eight,
		  .num_sge = 1 },
		{ .wr_id = 0x54, .opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM, .sg_list = &sg,
		  .num_sge = 1 },
	};
	struct uvio_dp_recv_wr r = { .wr_id = 0x61, .sg_list = &sg, .num_sge = 1 };
	struct uvio_dp_wc wc[8];
	struct uvio_mlx5_object o;
	uint8_t *cqes, *e;
	uint32_t bad, n = 0, qpn;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	qpn = qp.qp_num;
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	cqes = o.buf;
	/* Nothing yet: every entry is the hardware's (0xf0). */
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 0);
	assert_int_equal(uvio_dp_post_send(&qp, s, 4, &bad), 0);
	for (int i = 0; i < 4; i++)
		r.wr_id = 0x61 + (uint64_t)i, assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, &bad), 0);

	/* Requester: the WQE's opcode in the top byte of the QPN word. */
	write_cqe(cqes, n, 0, 0x0b << 24 | qpn, 0);
	write_cqe(cqes, n + 1, 0, 0x10 << 24 | qpn, 1);
	set_be32(cqe_at(cqes, n + 1) + 44, 10);
	write_cqe(cqes, n + 2, 0, 0x12 << 24 | qpn, 2);
	write_cqe(cqes, n + 3, 0, 0x09 << 24 | qpn, 3);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 2), 2);	/* n bounds it */
	assert_int_equal(be32toh(o.dbrec[0]), 2);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc + 2, 8), 2);
	assert_int_equal(be32toh(o.dbrec[0]), 4);
	n = 4;
	assert_int_equal(wc[0].wr_id, 0x51);
	assert_int_equal(wc[0].opcode, UVIO_WC_SEND);
	assert_int_equal(wc[0].wc_flags, UVIO_WC_WITH_IMM);
	assert_int_equal(wc[1].wr_id, 0x52);
	assert_int_equal(wc[1].opcode, UVIO_WC_RDMA_READ);
	assert_int_equal(wc[1].byte_len, 10);
	assert_int_equal(wc[2].wr_id, 0x53);
	assert_int_equal(wc[2].opcode, UVIO_WC_FETCH_ADD);
	assert_int_equal(wc[2].byte_len, 8);
	assert_int_equal(wc[3].wr_id, 0x54);
	assert_int_equal(wc[3].opcode, UVIO_WC_RDMA_WRITE);
	assert_int_equal(wc[3].wc_flags, UVIO_WC_WITH_IMM);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(wc[i].status, UVIO_WC_SUCCESS);
		assert_int_equal(wc[i].qp_num, qpn);
	}

	/* Responder: RESP_SEND_IMM (its immediate as the wire has it, the
	 * source QP, SL, SLID, path bits, a GRH), RESP_WR_IMM, RESP_SEND_INV,
	 * RESP_SEND (the P_Key index). The second lap: owner bit 1. */
	e = cqe_at(cqes, n);
	write_cqe(cqes, n, 3, qpn, 0);
	set_be32(e + 44, 77);
	memcpy(e + 36, "\x01\x02\x03\x04", 4);
	set_be32(e + 24, 2u << 28 | 0x7u << 24 | 0x3456);
	set_be16(e + 22, 0x1234);
	e[17] = 0x85;
	write_cqe(cqes, n + 1, 1, qpn, 1);
	set_be32(cqe_at(cqes, n + 1) + 44, 4096);
	memcpy(cqe_at(cqes, n + 1) + 36, "\xaa\xbb\xcc\xdd", 4);
	write_cqe(cqes, n + 2, 4, qpn, 2);
	set_be32(cqe_at(cqes, n + 2) + 36, 0x4455);
	write_cqe(cqes, n + 3, 2, qpn, 3);
	set_be32(cqe_at(cqes, n + 3) + 36, 0x0003);
	/* n + 4 is the next lap's slot 0: owner 1 is the hardware's when
	 * written with lap 0's bit. */
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 4);
	assert_int_equal(be32toh(o.dbrec[0]), 8);
	n = 8;
	assert_int_equal(wc[0].wr_id, 0x61);
	assert_int_equal(wc[0].opcode, UVIO_WC_RECV);
	assert_int_equal(wc[0].byte_len, 77);
	assert_int_equal(wc[0].wc_flags, UVIO_WC_WITH_IMM | UVIO_WC_GRH);
	assert_memory_equal(&wc[0].imm_data, "\x01\x02\x03\x04", 4);
	assert_int_equal(wc[0].src_qp, 0x3456);
	assert_int_equal(wc[0].sl, 7);
	assert_int_equal(wc[0].slid, 0x1234);
	assert_int_equal(wc[0].dlid_path_bits, 0x05);
	assert_int_equal(wc[1].wr_id, 0x62);
	assert_int_equal(wc[1].opcode, UVIO_WC_RECV_RDMA_WITH_IMM);
	assert_int_equal(wc[1].wc_flags, UVIO_WC_WITH_IMM);
	assert_int_equal(wc[1].byte_len, 4096);
	assert_memory_equal(&wc[1].imm_data, "\xaa\xbb\xcc\xdd", 4);
	assert_int_equal(wc[2].wr_id, 0x63);
	assert_int_equal(wc[2].opcode, UVIO_WC_RECV);
	assert_int_equal(wc[2].wc_flags, UVIO_WC_WITH_INVALIDATE);
	assert_int_equal(wc[2].invalidated_rkey, 0x4455);
	assert_int_equal(wc[3].wr_id, 0x64);
	assert_int_equal(wc[3].wc_flags, 0);
	assert_int_equal(wc[3].pkey_index, 3);

	/* The second lap: a CQE with the first lap's owner bit is the
	 * hardware's still. */
	write_cqe(cqes, n, 0, qpn, 4);
	cqe_at(cqes, n)[63] = 0x00;
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 0);
	assert_int_equal(be32toh(o.dbrec[0]), 8);

	/* Every syndrome, requester and responder: status and vendor_err.
	 * Flushes of posted WQEs: sends 4.., receives 4.. */
	for (size_t i = 0; i < sizeof(synd) / sizeof(synd[0]); i++) {
		bool req = i % 2 == 0;

		if (req) {
			s[0].wr_id = 0x100 + i;
			assert_int_equal(uvio_dp_post_send(&qp, s, 1, &bad), 0);
		} else {
			r.wr_id = 0x200 + i;
			assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, &bad), 0);
		}
		e = cqe_at(cqes, n);
		write_cqe(cqes, n, req ? 13 : 14, qpn,
			  (uint16_t)(req ? 4 + i / 2 : 4 + i / 2));
		e[54] = (uint8_t)(0x40 + i);
		e[55] = synd[i].syndrome;
		e[63] = (uint8_t)((req ? 13 : 14) << 4 | ((n >> 3) & 1));
		assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 1);
		n++;
		assert_int_equal(wc[0].status, synd[i].status);
		assert_int_equal(wc[0].vendor_err, 0x40 + i);
		assert_int_equal(wc[0].wr_id, req ? 0x100 + i : 0x200 + i);
		assert_int_equal(wc[0].opcode, req ? UVIO_WC_SEND : UVIO_WC_RECV);
		assert_int_equal(be32toh(o.dbrec[0]), n);
	}
	/* A CQE of a QP that is gone (or never was) is consumed, unreported. */
	write_cqe(cqes, n, 0, qpn + 100, 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 0);
	n++;
	assert_int_equal(be32toh(o.dbrec[0]), n);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* Data of up to 32 bytes that the device put in the CQE (the half asks
 * for scatter-to-CQE) lands in the receive's buffers. */
static void scatter_in_cqe(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	uint8_t a[5], b[40];
	struct uvio_dp_sge sg[2] = { { (uintptr_t)a, sizeof(a), 1 }, { (uintptr_t)b, sizeof(b), 2 } };
	struct uvio_dp_recv_wr r = { .wr_id = 7, .sg_list = sg, .num_sge = 2 };
	struct uvio_dp_wc wc;
	uint8_t *e;
	uint32_t bad;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, &bad), 0);
	e = where(dev, UVERBS_OBJECT_CQ, cq.handle).buf;
	write_cqe(e, 0, 2, qp.qp_num, 0);
	for (int i = 0; i < 20; i++)
		e[i] = (uint8_t)(0xa0 + i);
	set_be32(e + 44, 20);
	e[63] = 2 << 4 | 0x04;		/* RESP_SEND, scattered in the CQE */
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	assert_int_equal(uvio_dp_poll_cq(&cq, &wc, 1), 1);
	assert_int_equal(wc.status, UVIO_WC_SUCCESS);
	assert_int_equal(wc.byte_len, 20);
	assert_int_equal(a[0], 0xa0);
	assert_int_equal(a[4], 0xa4);
	assert_int_equal(b[0], 0xa5);
	assert_int_equal(b[14], 0xb3);
	assert_int_equal(b[15], 0);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* Arming: the record and the 64-bit {request, cqn} at UAR + 0x20, the
 * sequence number stepped at each arm, the solicited bit, the consumer
 * index. */
static void arming(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_mlx5_object o;
	struct uvio_dp_wc wc;
	uint32_t v;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	assert_int_equal(o.num, CQN);
	assert_int_equal(uvio_dp_arm_cq(&cq, 0), 0);
	assert_int_equal(be32toh(o.dbrec[1]), 0);
	assert_int_equal(be32_at(uar + 0x20), 0);
	assert_int_equal(be32_at(uar + 0x24), CQN);
	/* Three completions polled, then a solicited-only arm: sn 1. */
	{
		struct uvio_dp_sge sg = { 0x1000, 1, 1 };
		struct uvio_dp_recv_wr r = { .sg_list = &sg, .num_sge = 1 };
		uint32_t bad;

		for (int i = 0; i < 3; i++) {
			assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, &bad), 0);
			write_cqe(o.buf, (uint32_t)i, 2, qp.qp_num, (uint16_t)i);
		}
		for (int i = 0; i < 3; i++)
			assert_int_equal(uvio_dp_poll_cq(&cq, &wc, 1), 1);
	}
	assert_int_equal(uvio_dp_arm_cq(&cq, 1), 0);
	v = 1u << 28 | 1u << 24 | 3;
	assert_int_equal(be32toh(o.dbrec[1]), v);
	assert_int_equal(be32_at(uar + 0x20), v);
	assert_int_equal(be32_at(uar + 0x24), CQN);
	assert_int_equal(uvio_dp_arm_cq(&cq, 0), 0);
	assert_int_equal(be32_at(uar + 0x20), 2u << 28 | 3);
	assert_int_equal(uvio_dp_arm_cq(&cq, 0), 0);
	assert_int_equal(uvio_dp_arm_cq(&cq, 0), 0);
	assert_int_equal(be32_at(uar + 0x20), 0u << 28 | 3);	/* 2 bits: 4 wraps to 0 */
	assert_int_equal(fake.write_calls, 0);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* An SRQ: the list's WQEs taken from the head, the count in the record,
 * full when the head reaches the tail, a WQE freed by the completion's
 * counter goes to the tail. */
static void srq(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_srq srq;
	struct uvio_dp_qp qp;
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = 1, .max_wr = 1, .max_sge = 1);
	struct uvio_dp_sge sg = { 0x7000, 30, 0x41 };
	struct uvio_dp_recv_wr r = { .wr_id = 0x80, .sg_list = &sg, .num_sge = 1 };
	struct uvio_mlx5_object o;
	struct uvio_dp_wc wc;
	uint8_t *q, *cqes;
	uint32_t bad;

	(void)state;
	make_cq(dev, &cq);
	/* max_wr 1: 2 x 1 + 1 = 3 -> 4 WQEs of 32 bytes (next + 1 entry) */
	assert_int_equal(uvio_dp_create_srq(dev, &sa, &srq), 0);
	assert_int_equal(srq.max_wr, 3);
	assert_int_equal(uvio_dp_queue_capacity(&srq.q), 3);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, &srq, &qp);
	assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, &bad), -EINVAL);	/* via the SRQ */
	o = where(dev, UVERBS_OBJECT_SRQ, srq.handle);
	assert_int_equal(o.rq_wqe_cnt, 4);
	assert_int_equal(o.rq_wqe_shift, 5);
	q = o.buf;
	for (int i = 0; i < 3; i++) {
		r.wr_id = 0x80 + (uint64_t)i;
		assert_int_equal(uvio_dp_post_srq_recv(&srq, &r, 1, &bad), 0);
		check_dseg(q + i * 32 + 16, 30, 0x41, 0x7000);
		assert_int_equal(be32toh(o.dbrec[0]), (uint32_t)i + 1);
	}
	/* WQE 3 is the tail: full. */
	assert_int_equal(uvio_dp_post_srq_recv(&srq, &r, 1, &bad), -ENOSPC);
	/* WQE 1 completes: it goes behind the tail (3 -> 1) and is the next
	 * one posted after WQE 3. */
	cqes = where(dev, UVERBS_OBJECT_CQ, cq.handle).buf;
	write_cqe(cqes, 0, 2, qp.qp_num, 1);
	assert_int_equal(uvio_dp_poll_cq(&cq, &wc, 1), 1);
	assert_int_equal(wc.wr_id, 0x81);
	assert_int_equal(q[3 * 32 + 2] << 8 | q[3 * 32 + 3], 1);
	r.wr_id = 0x90;
	assert_int_equal(uvio_dp_post_srq_recv(&srq, &r, 1, &bad), 0);	/* WQE 3 */
	assert_int_equal(be32toh(o.dbrec[0]), 4);
	assert_int_equal(uvio_dp_post_srq_recv(&srq, &r, 1, &bad), -ENOSPC);
	write_cqe(cqes, 1, 2, qp.qp_num, 3);
	assert_int_equal(uvio_dp_poll_cq(&cq, &wc, 1), 1);
	assert_int_equal(wc.wr_id, 0x90);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_srq(&srq, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* An SRQ asked with max_wr 0 and max_sge 0 (a zeroed init attribute, as
 * rdma-core's test_mlx5_huge_page makes one): one WQE of 32 bytes, as
 * libmlx5 lays it out; it is made, holds no receive, and is destroyed. */
static void srq_of_none(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_srq srq;
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = 1, .max_wr = 0, .max_sge = 0);
	struct uvio_dp_sge sg = { 0x7000, 30, 0x41 };
	struct uvio_dp_recv_wr r = { .wr_id = 0x80, .sg_list = &sg, .num_sge = 1 };
	struct uvio_mlx5_object o;
	uint32_t bad;

	(void)state;
	assert_int_equal(uvio_dp_create_srq(dev, &sa, &srq), 0);
	assert_int_equal(k.srq_max_wr, 0);	/* what the kernel was told */
	assert_int_equal(srq.max_wr, 0);
	assert_int_equal(uvio_dp_queue_capacity(&srq.q), 0);
	o = where(dev, UVERBS_OBJECT_SRQ, srq.handle);
	assert_int_equal(o.rq_wqe_cnt, 1);
	assert_int_equal(o.rq_wqe_shift, 5);
	assert_int_equal(uvio_dp_post_srq_recv(&srq, &r, 1, &bad), -ENOSPC);
	assert_int_equal(bad, 0);
	assert_int_equal(be32toh(o.dbrec[0]), 0);	/* nothing rung */
	assert_int_equal(uvio_dp_destroy_srq(&srq, NULL), 0);
	done(dev, afd);
}

/* A destroyed QP's completions are no longer its: the next QP with its
 * number is; a CQE of the destroyed one is dropped. */
static void destroyed_qp(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc;
	uint8_t *cqes;

	(void)state;
	make_cq(dev, &cq);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &a);
	make_qp(dev, &cq, IB_UVERBS_QPT_UC, 0, NULL, &b);
	cqes = where(dev, UVERBS_OBJECT_CQ, cq.handle).buf;
	write_cqe(cqes, 0, 2, a.qp_num, 0);
	write_cqe(cqes, 1, 2, b.qp_num, 0);
	assert_int_equal(uvio_dp_destroy_qp(&a, NULL), 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, &wc, 1), 1);
	assert_int_equal(wc.qp_num, b.qp_num);
	assert_int_equal(uvio_dp_destroy_qp(&b, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/*
 * A resize keeps what was not polled: five completions written, two
 * polled, the CQ resized from 8 to 16 entries (the device's resize CQE at
 * producer index 5 in the old buffer), then the three left come first from
 * the new buffer, and the device's next (index 6 in the new buffer) after
 * them; the consumer index counts the resize CQE's slot. A new size that
 * cannot hold what is unpolled is refused before the kernel is asked.
 */
static void resize_keeps_unpolled(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge sg = { 0x1000, 10, 0x31 };
	struct uvio_dp_send_wr s = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &sg, .num_sge = 1 };
	struct uvio_dp_wc wc[8];
	struct uvio_mlx5_object o;
	uint8_t *cqes, *nb, *e;
	uint32_t bad;

	(void)state;
	make_cq(dev, &cq);
	k.send_wr_granted = 16;	/* the ring's blocks bind, not the WQE count */
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	cqes = o.buf;
	for (uint16_t i = 0; i < 6; i++) {
		s.wr_id = 0x71 + i;
		s.flags = UVIO_DP_SEND_SIGNALED;
		assert_int_equal(uvio_dp_post_send(&qp, &s, 1, &bad), 0);
	}
	for (uint16_t i = 0; i < 5; i++)
		write_cqe(cqes, i, 0, 0x0a << 24 | qp.qp_num, i);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 2), 2);
	assert_int_equal(wc[1].wr_id, 0x72);

	/* The same size: nothing to do, nothing sent. */
	assert_int_equal(uvio_dp_resize_cq(&cq, 7), 0);
	assert_int_equal(k.resizes, 0);
	/* Three unpolled do not fit in 2 entries (one is always free). */
	assert_int_equal(uvio_dp_resize_cq(&cq, 1), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "CQ.RESIZE (data path)"));
	assert_non_null(strstr(uvio_last_error(), "cqe: fewer than the completions not yet polled"));
	assert_int_equal(k.resizes, 0);

	k.resize_old = cqes;
	k.resize_pi = 5;
	assert_int_equal(uvio_dp_resize_cq(&cq, 15), 0);
	assert_int_equal(k.resizes, 1);
	assert_int_equal(cq.cqe, 15);
	assert_int_equal(k.resize.cqe_size, 64);
	nb = (uint8_t *)(uintptr_t)k.resize.buf_addr;
	assert_non_null(nb);
	assert_true(nb != cqes);
	assert_int_equal(k.resize.buf_addr % (uint64_t)sysconf(_SC_PAGESIZE), 0);
	/* Every entry the hardware's but the three carried to 3, 4, 5. */
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(nb[i * 64 + 63] >> 4, i >= 3 && i <= 5 ? 0 : 15);
	assert_int_equal(be32toh(o.dbrec[0]), 3);	/* past the resize CQE's slot */

	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(wc[i].wr_id, 0x73 + (uint64_t)i);
		assert_int_equal(wc[i].status, UVIO_WC_SUCCESS);
		assert_int_equal(wc[i].opcode, UVIO_WC_SEND);
	}
	/* The device's next CQE: producer index 6, the new buffer's lap 0. */
	e = nb + 6 * 64;
	memset(e, 0, 63);
	set_be32(e + 56, 0x0a << 24 | qp.qp_num);
	set_be16(e + 60, 5);
	e[63] = 0;
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 1);
	assert_int_equal(wc[0].wr_id, 0x76);
	assert_int_equal(be32toh(o.dbrec[0]), 7);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 8), 0);

	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/*
 * 128-byte CQEs, chosen as libmlx5 lets a program choose them
 * (MLX5_CQE_SIZE=128): the CQ asked with cqe_size 128, each CQE read from
 * its entry's second half, and a receive's data taken from the first half
 * (CQE_SCATTER_64). Any other value refuses the CQ, naming the variable.
 */
static void cqe_128(void **state)
{
	int afd;
	struct uvio_device *dev;
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	uint8_t data[48] = { 0 };
	struct uvio_dp_sge sg = { 0x1000, 10, 0x31 }, rsg = { (uintptr_t)data, sizeof(data), 0x32 };
	struct uvio_dp_send_wr s = { .wr_id = 0x81, .opcode = IB_UVERBS_WR_SEND, .sg_list = &sg,
				     .num_sge = 1, .flags = UVIO_DP_SEND_SIGNALED };
	struct uvio_dp_recv_wr r = { .wr_id = 0x91, .sg_list = &rsg, .num_sge = 1 };
	struct uvio_dp_wc wc[4];
	struct uvio_mlx5_object o;
	uint8_t *e;
	uint32_t bad;
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 7);

	(void)state;
	setenv("MLX5_CQE_SIZE", "96", 1);
	dev = device(&afd);
	assert_int_equal(uvio_dp_create_cq(dev, &ca, &cq), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "MLX5_CQE_SIZE: neither 64 nor 128"));
	done(dev, afd);

	setenv("MLX5_CQE_SIZE", "128", 1);
	dev = device(&afd);
	unsetenv("MLX5_CQE_SIZE");
	make_cq(dev, &cq);
	assert_int_equal(k.cq_cqe_size, 128);
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	assert_int_equal(o.cqe_size, 128);
	assert_true(o.buf_len >= 8 * 128);
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, 0, NULL, &qp);
	assert_int_equal(uvio_dp_post_send(&qp, &s, 1, &bad), 0);
	assert_int_equal(uvio_dp_post_recv(&qp, &r, 1, &bad), 0);
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 0);

	/* Entry 0: the requester's CQE in bytes 64-127. */
	e = (uint8_t *)o.buf + 64;
	memset(e, 0, 63);
	set_be32(e + 56, 0x0a << 24 | qp.qp_num);
	e[63] = 0;
	/* Entry 1: a SEND of 40 bytes received, its data in bytes 0-39. */
	e = (uint8_t *)o.buf + 128;
	for (int i = 0; i < 40; i++)
		e[i] = (uint8_t)(0xa0 + i);
	e += 64;
	memset(e, 0, 63);
	set_be32(e + 56, qp.qp_num);
	set_be32(e + 44, 40);
	e[63] = 2 << 4 | 0x08;		/* RESP_SEND, scattered to the CQE (64) */
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 2);
	assert_int_equal(wc[0].wr_id, 0x81);
	assert_int_equal(wc[0].opcode, UVIO_WC_SEND);
	assert_int_equal(wc[1].wr_id, 0x91);
	assert_int_equal(wc[1].status, UVIO_WC_SUCCESS);
	assert_int_equal(wc[1].byte_len, 40);
	for (int i = 0; i < 40; i++)
		assert_int_equal(data[i], 0xa0 + i);
	assert_int_equal(data[40], 0);
	assert_int_equal(be32toh(o.dbrec[0]), 2);

	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

/* The UMR WQE's three parts: control, mkey context, KLM block. The values
 * are the PRM's (UMR control flags inline 0x80, check free 0x20,
 * translation offset 0x10, check QPN 0x08; mkey mask length bit 0, start
 * 6, key 13, QPN 14, local write 18, remote read 19, remote write 20,
 * atomic 21, free 29; mkey context free 0x40 at byte 0, access at byte 2:
 * atomic 0x40, remote write 0x20, remote read 0x10, local write 0x08). */
static void check_umr(const uint8_t *u, uint8_t flags, uint16_t octowords, uint64_t mask)
{
	static const uint8_t zero[32];

	assert_int_equal(u[0], flags);
	assert_int_equal(u[1] | u[2] | u[3], 0);
	assert_int_equal(be32_at(u + 4), (uint32_t)octowords << 16);	/* offset 0 */
	assert_int_equal(be64_at(u + 8), mask);
	assert_memory_equal(u + 16, zero, 32);
}

static void check_mkey(const uint8_t *m, uint8_t free_bit, uint8_t access, uint32_t qpn_key,
		       uint64_t start, uint64_t len)
{
	static const uint8_t zero[32];

	assert_int_equal(m[0], free_bit);
	assert_int_equal(m[1], 0);
	assert_int_equal(m[2], access);
	assert_int_equal(m[3], 0);
	assert_int_equal(be32_at(m + 4), qpn_key);
	assert_int_equal(be64_at(m + 8), 0);		/* reserved, PD: the kernel's */
	assert_int_equal(be64_at(m + 16), start);
	assert_int_equal(be64_at(m + 24), len);
	assert_memory_equal(m + 32, zero, 32);
}

static void check_klm(const uint8_t *klm, uint32_t len, uint32_t lkey, uint64_t addr)
{
	static const uint8_t zero[48];

	check_dseg(klm, len, lkey, addr);
	assert_memory_equal(klm + 16, zero, 48);
}

/* Memory windows: BIND_MW (types 2 and 1, an unbind) and LOCAL_INV as UMR
 * WQEs (opcode 0x25), the small fence the WQE after one carries, the
 * completions' opcodes, a bind that wraps, and what is refused. The ring
 * is filled with 0xff first, so that every reserved byte is seen written. */
static void memory_windows(void **state)
{
	int afd;
	struct uvio_device *dev = device(&afd);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_sge one = { 0x9000, 16, 3 };
	struct uvio_dp_send_wr send = { .wr_id = 50, .opcode = IB_UVERBS_WR_SEND,
					.sg_list = &one, .num_sge = 1 };
	struct uvio_dp_send_wr b = {
		.wr_id = 1, .opcode = IB_UVERBS_WR_BIND_MW,
		.bind_mw = { .mw_rkey = 0x12345607, .new_rkey = 0x12345608, .mr_lkey = 0xabc,
			     .access = IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_READ |
				       IB_UVERBS_ACCESS_LOCAL_WRITE,
			     .addr = 0x70001000, .length = 0x2000 },
	};
	struct uvio_dp_send_wr inv = { .wr_id = 2, .opcode = IB_UVERBS_WR_LOCAL_INV,
				       .invalidate_rkey = 0x12345608 };
	struct uvio_mlx5_object o;
	struct uvio_dp_wc wc[4];
	uint32_t bad, qpn;
	uint8_t *c, *cqes;

	(void)state;
	make_cq(dev, &cq);
	k.send_wr_granted = 16;	/* the ring's blocks bind, not the WQE count */
	make_qp(dev, &cq, IB_UVERBS_QPT_RC, IB_UVERBS_QP_CREATE_SQ_SIG_ALL, NULL, &qp);
	qpn = qp.qp_num;
	o = where(dev, UVERBS_OBJECT_QP, qp.handle);
	assert_int_equal(o.sq_wqe_cnt, 16);
	memset((uint8_t *)o.buf + o.sq_offset, 0xff, 16 * 64);

	/* A type 2 bind: 192 bytes (ds 12), blocks 0-2. The control's
	 * immediate is the key in force; the context names the QP and the new
	 * key's low byte; the KLM the MR's range. */
	assert_int_equal(uvio_dp_post_send(&qp, &b, 1, &bad), 0);
	c = sq_bb(dev, &qp, 0);
	check_ctrl(c, 0, 0x25, qpn, 12, 0x08, htobe32(0x12345607));
	check_umr(c + 16, 0x80 | 0x20 | 0x10, 4,
		  1u << 29 | 1u << 13 | 1u << 14 | 1u << 0 | 1u << 6 | 1u << 18 | 1u << 19 |
		  1u << 20 | 1u << 21);
	check_mkey(sq_bb(dev, &qp, 1), 0, 0x08 | 0x20 | 0x10, qpn << 8 | 0x08, 0x70001000, 0x2000);
	check_klm(sq_bb(dev, &qp, 2), 0x2000, 0xabc, 0x70001000);
	check_doorbell(dev, &qp, 3, c);

	/* The WQE after a UMR carries the initiator small fence (fence mode
	 * 1, 0x20), once: the common SEND shape too. */
	assert_int_equal(uvio_dp_post_send(&qp, &send, 1, &bad), 0);
	check_ctrl(sq_bb(dev, &qp, 3), 3, 0x0a, qpn, 2, 0x08 | 0x20, 0);
	assert_int_equal(uvio_dp_post_send(&qp, &send, 1, &bad), 0);
	check_ctrl(sq_bb(dev, &qp, 4), 4, 0x0a, qpn, 2, 0x08, 0);

	/* LOCAL_INV: 128 bytes (ds 8), blocks 5-6: the key to invalidate in
	 * the control, the context free, QPN 0xffffff, checked against the QP
	 * (type 2), no translation. Its SGEs are not read. */
	inv.sg_list = NULL;
	inv.num_sge = 3;
	assert_int_equal(uvio_dp_post_send(&qp, &inv, 1, &bad), 0);
	c = sq_bb(dev, &qp, 5);
	check_ctrl(c, 5, 0x25, qpn, 8, 0x08, htobe32(0x12345608));
	check_umr(c + 16, 0x80 | 0x10 | 0x08, 0, 1u << 29 | 1u << 13 | 1u << 14);
	check_mkey(sq_bb(dev, &qp, 6), 0x40, 0, 0xffffff00u, 0, 0);
	/* A fence asked for after it: fence mode 4 (0x80) alone. */
	send.flags = UVIO_DP_SEND_FENCE;
	assert_int_equal(uvio_dp_post_send(&qp, &send, 1, &bad), 0);
	check_ctrl(sq_bb(dev, &qp, 7), 7, 0x0a, qpn, 2, 0x08 | 0x80, 0);
	send.flags = 0;

	/* A type 1 bind, remote read and atomic: no QPN in the mask or the
	 * context (0xffffff), no free check. Blocks 8-10. */
	b.wr_id = 3;
	b.flags = UVIO_DP_SEND_MW_TYPE_1 | UVIO_DP_SEND_SOLICITED;
	b.bind_mw.mw_rkey = 0x4400;
	b.bind_mw.new_rkey = 0x44ff;
	b.bind_mw.access = IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC;
	b.bind_mw.addr = 0x123456789000;
	b.bind_mw.length = 1ull << 31;		/* the most a KLM takes */
	assert_int_equal(uvio_dp_post_send(&qp, &b, 1, &bad), 0);
	c = sq_bb(dev, &qp, 8);
	check_ctrl(c, 8, 0x25, qpn, 12, 0x08 | 0x02, htobe32(0x4400));
	check_umr(c + 16, 0x80 | 0x10, 4,
		  1u << 29 | 1u << 13 | 1u << 0 | 1u << 6 | 1u << 18 | 1u << 19 | 1u << 20 |
		  1u << 21);
	check_mkey(sq_bb(dev, &qp, 9), 0, 0x10 | 0x40, 0xffffffffu, 0x123456789000, 1ull << 31);
	check_klm(sq_bb(dev, &qp, 10), 0x80000000u, 0xabc, 0x123456789000);
	/* Its unbind (length 0): the context free, no translation. 11-12. */
	b.wr_id = 4;
	b.flags = UVIO_DP_SEND_MW_TYPE_1;
	b.bind_mw.mw_rkey = 0x44ff;
	b.bind_mw.new_rkey = 0x4400;
	b.bind_mw.length = 0;
	assert_int_equal(uvio_dp_post_send(&qp, &b, 1, &bad), 0);
	c = sq_bb(dev, &qp, 11);
	check_ctrl(c, 11, 0x25, qpn, 8, 0x08 | 0x20, htobe32(0x44ff));	/* after a UMR */
	check_umr(c + 16, 0x80 | 0x10, 0, 1u << 29 | 1u << 13);
	check_mkey(sq_bb(dev, &qp, 12), 0x40, 0, 0xffffff00u, 0, 0);
	check_doorbell(dev, &qp, 13, c);

	/* Refused, nothing written: more than 2 GiB; a full ring (a SEND at
	 * 13 leaves blocks 14 and 15, a bind needs three). The small fence
	 * waits for the SEND. */
	b.bind_mw.length = (1ull << 31) + 1;
	assert_int_equal(uvio_dp_post_send(&qp, &b, 1, &bad), -EOPNOTSUPP);
	assert_int_equal(uvio_dp_post_send(&qp, &send, 1, &bad), 0);
	check_ctrl(sq_bb(dev, &qp, 13), 13, 0x0a, qpn, 2, 0x08 | 0x20, 0);
	b.wr_id = 5;
	b.flags = 0;
	b.bind_mw.mw_rkey = 0x12345608;
	b.bind_mw.new_rkey = 0x12345609;
	b.bind_mw.length = 0x2000;
	b.bind_mw.access = IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_LOCAL_WRITE;
	b.bind_mw.addr = 0x70001000;
	assert_int_equal(uvio_dp_post_send(&qp, &b, 1, &bad), -ENOSPC);

	/* The hardware completes the LOCAL_INV (WQE 5) and the unbind (11):
	 * each completion says what it was; blocks up to 12 are free. */
	o = where(dev, UVERBS_OBJECT_CQ, cq.handle);
	cqes = o.buf;
	write_cqe(cqes, 0, 0, qpn, 5);
	cqe_at(cqes, 0)[56] = 0x25;
	write_cqe(cqes, 1, 0, qpn, 11);
	cqe_at(cqes, 1)[56] = 0x25;
	assert_int_equal(uvio_dp_poll_cq(&cq, wc, 4), 2);
	assert_int_equal(wc[0].wr_id, 2);
	assert_int_equal(wc[0].status, UVIO_WC_SUCCESS);
	assert_int_equal(wc[0].opcode, UVIO_WC_LOCAL_INV);
	assert_int_equal(wc[0].wc_flags, 0);
	assert_int_equal(wc[1].wr_id, 4);
	assert_int_equal(wc[1].opcode, UVIO_WC_BIND_MW);
	assert_int_equal(wc[1].qp_num, qpn);

	/* Now the bind fits at 14: its mkey context in 15, its KLM block
	 * wrapped to block 0. */
	assert_int_equal(uvio_dp_post_send(&qp, &b, 1, &bad), 0);
	c = sq_bb(dev, &qp, 14);
	check_ctrl(c, 14, 0x25, qpn, 12, 0x08, htobe32(0x12345608));
	check_umr(c + 16, 0x80 | 0x20 | 0x10, 4,
		  1u << 29 | 1u << 13 | 1u << 14 | 1u << 0 | 1u << 6 | 1u << 18 | 1u << 19 |
		  1u << 20 | 1u << 21);
	check_mkey(sq_bb(dev, &qp, 15), 0, 0x08 | 0x20, qpn << 8 | 0x09, 0x70001000, 0x2000);
	check_klm(sq_bb(dev, &qp, 16), 0x2000, 0xabc, 0x70001000);
	check_doorbell(dev, &qp, 17, c);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);

	/* UD carries no window operations. */
	make_qp(dev, &cq, IB_UVERBS_QPT_UD, 0, NULL, &qp);
	assert_int_equal(uvio_dp_post_send(&qp, &inv, 1, &bad), -EOPNOTSUPP);
	assert_int_equal(uvio_dp_destroy_qp(&qp, NULL), 0);
	assert_int_equal(uvio_dp_destroy_cq(&cq, NULL), 0);
	done(dev, afd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rc_sends),
		cmocka_unit_test(inline_wrap_and_full),
		cmocka_unit_test(send_wr_bound),
		cmocka_unit_test(reset_cleans_cq),
		cmocka_unit_test(sge_wrap),
		cmocka_unit_test(ud_with_ah),
		cmocka_unit_test(receives),
		cmocka_unit_test(completions),
		cmocka_unit_test(scatter_in_cqe),
		cmocka_unit_test(arming),
		cmocka_unit_test(srq),
		cmocka_unit_test(srq_of_none),
		cmocka_unit_test(destroyed_qp),
		cmocka_unit_test(resize_keeps_unpolled),
		cmocka_unit_test(cqe_128),
		cmocka_unit_test(memory_windows),
	};

	fake_sysfs();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
