// SPDX-License-Identifier: MIT
/*
 * libibverbs, two ways, for the same sequences as the library and the
 * floor: its command layer (ibv_cmd_*, exported by libibverbs.so.1 under
 * IBVERBS_PRIVATE_34 for providers; Debian ships no header for it) on a
 * context libibverbs opened, and its public verbs (which add the provider's
 * work, such as mapping the rings).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "bench.h"
#include "ibv_cmd.h"
#include "qp_steps.h"

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static union ibv_gid gid;
static int gid_index;

int ibv_env_open(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);

	for (int i = 0; list && list[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx)
		return -ENODEV;
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	if (!cq)
		return -errno;
	for (gid_index = BQ_GID_INDEX; gid_index >= 0; gid_index--)
		if (!ibv_query_gid(ctx, BQ_PORT_NUM, gid_index, &gid) && gid.global.interface_id)
			break;
	return 0;
}

/* ---- CQ create+destroy ---- */

int seq_cq_ibvcmd(void)
{
	struct bench_ibv_create_cq cmd;
	struct {
		struct ib_uverbs_create_cq_resp core;
		uint64_t drv[8];
	} resp;
	struct ibv_cq c;
	int err;

	memset(&c, 0, sizeof(c));
	memset(&cmd, 0, sizeof(cmd));
	pthread_mutex_init(&c.mutex, NULL);
	pthread_cond_init(&c.cond, NULL);
	err = ibv_cmd_create_cq(ctx, 16, NULL, 0, &c, &cmd, sizeof(cmd), &resp.core, sizeof(resp));
	if (err)
		return -err;	/* a positive errno */
	c.context = ctx;
	return -ibv_cmd_destroy_cq(&c);
}

int seq_cq_ibv(void)
{
	struct ibv_cq *c = ibv_create_cq(ctx, 16, NULL, NULL, 0);

	if (!c)
		return -errno;
	return -ibv_destroy_cq(c);
}

/* ---- QP bring-up ---- */

static void ibv_step(int step, uint32_t qpn, struct ibv_qp_attr *a, int *mask)
{
	memset(a, 0, sizeof(*a));
	switch (step) {
	case 0:
		*mask = BQ_INIT_MASK;
		a->qp_state = IBV_QPS_INIT;
		a->port_num = BQ_PORT_NUM;
		a->qp_access_flags = BQ_ACCESS;
		break;
	case 1:
		*mask = BQ_RTR_MASK;
		a->qp_state = IBV_QPS_RTR;
		a->path_mtu = (enum ibv_mtu)BQ_MTU;
		a->dest_qp_num = qpn;
		a->max_dest_rd_atomic = 1;
		a->min_rnr_timer = BQ_RNR_TIMER;
		a->ah_attr.grh.dgid = gid;
		a->ah_attr.grh.sgid_index = (uint8_t)gid_index;
		a->ah_attr.grh.hop_limit = 1;
		a->ah_attr.is_global = 1;
		a->ah_attr.port_num = BQ_PORT_NUM;
		break;
	default:
		*mask = BQ_RTS_MASK;
		a->qp_state = IBV_QPS_RTS;
		a->timeout = BQ_TIMEOUT_VAL;
		a->retry_cnt = BQ_RETRIES;
		a->rnr_retry = BQ_RETRIES;
		a->max_rd_atomic = 1;
		break;
	}
}

static void init_attr(struct ibv_qp_init_attr *ia)
{
	memset(ia, 0, sizeof(*ia));
	ia->send_cq = cq;
	ia->recv_cq = cq;
	ia->qp_type = IBV_QPT_RC;
	ia->cap.max_send_wr = BQ_CAP_WR;
	ia->cap.max_recv_wr = BQ_CAP_WR;
	ia->cap.max_send_sge = BQ_CAP_SGE;
	ia->cap.max_recv_sge = BQ_CAP_SGE;
}

int seq_qp_ibvcmd(void)
{
	struct bench_ibv_create_qp cmd;
	struct bench_ibv_modify_qp mcmd;
	struct {
		struct ib_uverbs_create_qp_resp core;
		uint64_t drv[8];
	} resp;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	struct ibv_qp qp;
	int err, mask;

	init_attr(&ia);
	memset(&qp, 0, sizeof(qp));
	memset(&cmd, 0, sizeof(cmd));
	err = ibv_cmd_create_qp(pd, &qp, &ia, &cmd, sizeof(cmd), &resp.core, sizeof(resp));
	if (err)
		return -err;
	for (int s = 0; !err && s < 3; s++) {
		ibv_step(s, qp.qp_num, &a, &mask);
		err = ibv_cmd_modify_qp(&qp, &a, mask, &mcmd, sizeof(mcmd));
	}
	if (err)
		return -err;
	return -ibv_cmd_destroy_qp(&qp);
}

int seq_qp_ibv(void)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	struct ibv_qp *qp;
	int err = 0, mask;

	init_attr(&ia);
	qp = ibv_create_qp(pd, &ia);
	if (!qp)
		return -errno;
	for (int s = 0; !err && s < 3; s++) {
		ibv_step(s, qp->qp_num, &a, &mask);
		err = ibv_modify_qp(qp, &a, mask);
	}
	if (err)
		return -err;
	return -ibv_destroy_qp(qp);
}
