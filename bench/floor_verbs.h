/* SPDX-License-Identifier: MIT */
/*
 * The floor's commands that both the every-verb benchmark and the
 * cold-start floor program send: context, PD, CQ, QP and its transitions,
 * a GID entry. Each the same command this library sends for the verb (the
 * benchmark checks that at run time), built by hand. use_write: 0 sends
 * the native method or INVOKE_WRITE, 1 write().
 */
#ifndef UVIO_BENCH_FLOOR_VERBS_H
#define UVIO_BENCH_FLOOR_VERBS_H

#include "floor.h"
#include "qp_steps.h"

/* GET_CONTEXT, and on the ioctl path ASYNC_EVENT/ALLOC for the async fd. */
static inline int fl_get_context_fd(int fd, uint32_t did, int use_write, int *async_fd)
{
	int ret;

	if (use_write) {
		struct ib_uverbs_get_context c = { 0 };
		struct {
			struct ib_uverbs_get_context_resp r;
			uint8_t drv[FL_DRV_OUT];
		} r;

		ret = fl_write(fd, IB_USER_VERBS_CMD_GET_CONTEXT, &c, sizeof(c), NULL, 0, &r,
			       sizeof(r.r), FL_DRV_OUT);
		*async_fd = (int)r.r.async_fd;
		return ret;
	}
	FL_CMD(c, 3);
	FL_CMD(a, 1);
	uint32_t ncv;
	uint64_t core, drv[FL_DRV_OUT / 8];

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, did);
	fl_attr_out(&c.a[0], UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &ncv, 4);
	fl_attr_out(&c.a[1], UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &core, 8);
	fl_attr_out(&c.a[2], UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	ret = fl_ioctl(fd, &c);
	if (ret)
		return ret;
	fl_begin(&a, sizeof(a), UVERBS_OBJECT_ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC, did);
	fl_attr(&a.a[0], UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, 0, (uint64_t)-1);
	ret = fl_ioctl(fd, &a);
	*async_fd = (int)a.a[0].data;
	return ret;
}

static inline int fl_alloc_pd_fd(int fd, uint32_t did, int use_write, uint32_t *pd)
{
	struct ib_uverbs_alloc_pd c = { 0 };
	struct {
		struct ib_uverbs_alloc_pd_resp r;
		uint8_t drv[FL_DRV_OUT];
	} r;
	int ret = fl_cmd(fd, did, use_write, IB_USER_VERBS_CMD_ALLOC_PD, &c, sizeof(c), &r,
			 sizeof(r.r), FL_DRV_OUT);

	*pd = r.r.pd_handle;
	return ret;
}

static inline int fl_create_cq_fd(int fd, uint32_t did, int use_write, uint32_t cqe,
				  uint32_t *cq)
{
	if (use_write) {
		struct ib_uverbs_create_cq c = { .cqe = cqe, .comp_channel = -1 };
		struct {
			struct ib_uverbs_create_cq_resp r;
			uint8_t drv[FL_DRV_OUT];
		} r;
		int ret = fl_write(fd, IB_USER_VERBS_CMD_CREATE_CQ, &c, sizeof(c), NULL, 0, &r,
				   sizeof(r.r), FL_DRV_OUT);

		*cq = r.r.cq_handle;
		return ret;
	}
	FL_CMD(c, 6);
	uint32_t granted;
	uint64_t drv[FL_DRV_OUT / 8];
	int ret;

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, did);
	fl_attr(&c.a[0], UVERBS_ATTR_CREATE_CQ_HANDLE, 0, 0);
	fl_attr(&c.a[1], UVERBS_ATTR_CREATE_CQ_CQE, 4, cqe);
	fl_attr(&c.a[2], UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 8, 0);
	fl_attr(&c.a[3], UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 4, 0);
	fl_attr_out(&c.a[4], UVERBS_ATTR_CREATE_CQ_RESP_CQE, &granted, sizeof(granted));
	fl_attr_out(&c.a[5], UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	ret = fl_ioctl(fd, &c);
	*cq = (uint32_t)c.a[0].data;
	return ret;
}

/* A QP of type on pd, both CQs cq, BQ_CAP_* capacities. */
static inline int fl_create_qp_fd(int fd, uint32_t did, int use_write, uint32_t pd, uint32_t cq,
				  uint32_t type, uint32_t *handle, uint32_t *qpn)
{
	if (use_write) {
		struct ib_uverbs_create_qp c = {
			.pd_handle = pd,
			.send_cq_handle = cq,
			.recv_cq_handle = cq,
			.max_send_wr = BQ_CAP_WR,
			.max_recv_wr = BQ_CAP_WR,
			.max_send_sge = BQ_CAP_SGE,
			.max_recv_sge = BQ_CAP_SGE,
			.qp_type = (uint8_t)type,
		};
		struct {
			struct ib_uverbs_create_qp_resp r;
			uint8_t drv[FL_DRV_OUT];
		} r;
		int ret = fl_write(fd, IB_USER_VERBS_CMD_CREATE_QP, &c, sizeof(c), NULL, 0, &r,
				   sizeof(r.r), FL_DRV_OUT);

		*handle = r.r.qp_handle;
		if (qpn)
			*qpn = r.r.qpn;
		return ret;
	}
	FL_CMD(c, 10);
	struct ib_uverbs_qp_cap cap = { BQ_CAP_WR, BQ_CAP_WR, BQ_CAP_SGE, BQ_CAP_SGE, 0 };
	struct ib_uverbs_qp_cap granted;
	uint32_t num;
	uint64_t drv[FL_DRV_OUT / 8];
	int ret;

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, did);
	fl_attr(&c.a[0], UVERBS_ATTR_CREATE_QP_HANDLE, 0, 0);
	fl_attr(&c.a[1], UVERBS_ATTR_CREATE_QP_PD_HANDLE, 0, pd);
	fl_attr(&c.a[2], UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, 0, cq);
	fl_attr(&c.a[3], UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, 0, cq);
	fl_attr(&c.a[4], UVERBS_ATTR_CREATE_QP_USER_HANDLE, 8, 0);
	fl_attr_in(&c.a[5], UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
	fl_attr(&c.a[6], UVERBS_ATTR_CREATE_QP_TYPE, 8, type);
	fl_attr_out(&c.a[7], UVERBS_ATTR_CREATE_QP_RESP_CAP, &granted, sizeof(granted));
	fl_attr_out(&c.a[8], UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &num, sizeof(num));
	fl_attr_out(&c.a[9], UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	ret = fl_ioctl(fd, &c);
	*handle = (uint32_t)c.a[0].data;
	if (qpn)
		*qpn = num;
	return ret;
}

/* Step 0, 1, 2 of the bring-up: INIT, RTR (to qpn through gid), RTS. */
static inline void fl_qp_step_fill(int step, uint32_t h, uint32_t qpn, const uint8_t gid[16],
				   uint32_t gid_index, struct ib_uverbs_modify_qp *c)
{
	memset(c, 0, sizeof(*c));
	c->qp_handle = h;
	switch (step) {
	case 0:
		c->attr_mask = BQ_INIT_MASK;
		c->qp_state = 1;
		c->port_num = BQ_PORT_NUM;
		c->qp_access_flags = BQ_ACCESS;
		break;
	case 1:
		c->attr_mask = BQ_RTR_MASK;
		c->qp_state = 2;
		c->path_mtu = BQ_MTU;
		c->dest_qp_num = qpn;
		c->max_dest_rd_atomic = 1;
		c->min_rnr_timer = BQ_RNR_TIMER;
		memcpy(c->dest.dgid, gid, 16);
		c->dest.sgid_index = (uint8_t)gid_index;
		c->dest.hop_limit = 1;
		c->dest.is_global = 1;
		c->dest.port_num = BQ_PORT_NUM;
		break;
	default:
		c->attr_mask = BQ_RTS_MASK;
		c->qp_state = 3;
		c->timeout = BQ_TIMEOUT_VAL;
		c->retry_cnt = BQ_RETRIES;
		c->rnr_retry = BQ_RETRIES;
		c->max_rd_atomic = 1;
		break;
	}
}

/* MODIFY_QP has no response: nothing but the core struct. */
static inline int fl_modify_qp_fd(int fd, uint32_t did, int use_write,
				  const struct ib_uverbs_modify_qp *c)
{
	if (use_write)
		return fl_write(fd, IB_USER_VERBS_CMD_MODIFY_QP, c, sizeof(*c), NULL, 0, NULL, 0, 0);
	return fl_invoke(fd, did, IB_USER_VERBS_CMD_MODIFY_QP, c, sizeof(*c), NULL, 0, NULL, 0, 0);
}

static inline int fl_query_gid_entry(int fd, uint32_t did, uint32_t port, uint32_t index,
				     struct ib_uverbs_gid_entry *g)
{
	FL_CMD(c, 4);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, did);
	fl_attr(&c.a[0], UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 8, port);
	fl_attr(&c.a[1], UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 8, index);
	fl_attr(&c.a[2], UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 8, 0);
	fl_attr_out(&c.a[3], UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, g, sizeof(*g));
	return fl_ioctl(fd, &c);
}

#endif
