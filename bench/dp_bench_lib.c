// SPDX-License-Identifier: MIT
/* Shared by the data-path benches: see dp_bench_lib.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dp_bench_lib.h"

void dp_bench_die(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %d (%s) %s\n", program_invocation_short_name, what, err,
		strerror(err < 0 ? -err : err), uvio_last_error());
	exit(1);
}

static uint8_t *map_buffer(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		dp_bench_die("mmap", -errno);
	return p;
}

/* ---- this library ---------------------------------------------------- */

static void uvio_rts(struct uvio_side *s, struct uvio_dp_qp *qp, uint32_t peer,
		     const struct dp_bench_shape *sh)
{
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_INIT, .port_num = 1,
		  .qp_access_flags = IB_UVERBS_ACCESS_REMOTE_WRITE,
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
			       UVIO_QP_ACCESS_FLAGS);
	int err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);

	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTR,
		.path_mtu = UVIO_MTU_1024, .dest_qp_num = peer, .min_rnr_timer = 1,
		.rq_psn = sh->psn,
		.ah = { .is_global = 1, .sgid_index = sh->gid_index, .hop_limit = 64,
			.port_num = 1 },
		.attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN |
			     UVIO_QP_RQ_PSN | UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER };
	memcpy(a.ah.dgid, s->gid, 16);
	if (!err)
		err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);
	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTS, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 7, .sq_psn = sh->psn,
		.attr_mask = UVIO_QP_STATE | UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT |
			     UVIO_QP_RNR_RETRY | UVIO_QP_SQ_PSN | UVIO_QP_MAX_QP_RD_ATOMIC };
	if (!err)
		err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);
	if (err)
		dp_bench_die("uvio modify_qp", err);
}

void uvio_side_open(struct uvio_side *s, const char *device, const struct dp_bench_shape *sh)
{
	struct uvio_gid_entry g;
	int err;

	memset(s, 0, sizeof(*s));
	s->ctx.sz = sizeof(s->ctx);
	s->mr.sz = sizeof(s->mr);
	s->buf_len = sh->buf_len;
	s->buf = map_buffer(sh->buf_len);
	err = uvio_device_open(device, &s->dev);
	if (!err)
		err = uvio_get_context(s->dev, NULL, &s->ctx, NULL);
	if (!err)
		err = uvio_alloc_pd(s->dev, NULL, &s->pd, NULL);
	if (err)
		dp_bench_die("uvio open", err);
	UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = s->pd, .addr = s->buf, .length = sh->buf_len,
		  .iova = (uintptr_t)s->buf,
		  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE);
	err = uvio_reg_mr(s->dev, &ma, NULL, &s->mr, NULL);
	if (!err)
		err = uvio_query_gid_entry(s->dev, 1, sh->gid_index, &g, NULL);
	if (err)
		dp_bench_die("uvio reg_mr/gid", err);
	memcpy(s->gid, g.gid, 16);
	for (int i = 0; i < 2; i++) {
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 2 * sh->window);
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = s->pd,
			  .cap = { .max_send_wr = sh->window, .max_recv_wr = sh->recv_wr,
				   .max_send_sge = 1, .max_recv_sge = 1,
				   .max_inline_data = sh->inline_len });

		err = uvio_dp_create_cq(s->dev, &ca, &s->cq[i]);
		qa.send_cq_handle = qa.recv_cq_handle = s->cq[i].handle;
		if (!err)
			err = uvio_dp_create_qp(s->dev, &qa, NULL, &s->qp[i]);
		if (err)
			dp_bench_die("uvio create", err);
	}
	uvio_rts(s, &s->qp[0], s->qp[1].qp_num, sh);
	uvio_rts(s, &s->qp[1], s->qp[0].qp_num, sh);
}

void uvio_side_close(struct uvio_side *s)
{
	for (int i = 0; i < 2; i++) {
		if (uvio_dp_destroy_qp(&s->qp[i], NULL) || uvio_dp_destroy_cq(&s->cq[i], NULL))
			dp_bench_die("uvio destroy", -EIO);
	}
	if (uvio_dereg_mr(s->dev, s->mr.handle, NULL) || uvio_dealloc_pd(s->dev, s->pd, NULL))
		dp_bench_die("uvio dereg/dealloc", -EIO);
	close(s->ctx.async_fd);
	uvio_device_close(s->dev);
	munmap(s->buf, s->buf_len);
}

/* ---- libibverbs ------------------------------------------------------- */

static void ibv_rts(struct ibv_side *s, struct ibv_qp *qp, uint32_t peer,
		    const struct dp_bench_shape *sh)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };
	int err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					   IBV_QP_ACCESS_FLAGS);

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer;
	a.rq_psn = sh->psn;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = sh->gid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.dgid = s->gid;
	a.ah_attr.port_num = 1;
	if (!err)
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
						   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
						   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = sh->psn;
	if (!err)
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
						   IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
						   IBV_QP_MAX_QP_RD_ATOMIC);
	if (err)
		dp_bench_die("ibv_modify_qp", err);
}

void ibv_side_open(struct ibv_side *s, const char *device, const struct dp_bench_shape *sh)
{
	struct ibv_device **list = ibv_get_device_list(NULL);

	memset(s, 0, sizeof(*s));
	for (int i = 0; list && list[i] && !s->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), device))
			s->ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!s->ctx)
		dp_bench_die("ibv_open_device", ENODEV);
	s->buf_len = sh->buf_len;
	s->buf = map_buffer(sh->buf_len);
	s->pd = ibv_alloc_pd(s->ctx);
	s->mr = s->pd ? ibv_reg_mr(s->pd, s->buf, sh->buf_len,
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE) : NULL;
	if (!s->mr || ibv_query_gid(s->ctx, 1, sh->gid_index, &s->gid))
		dp_bench_die("ibv pd/mr/gid", errno);
	for (int i = 0; i < 2; i++) {
		struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
					       .cap = { .max_send_wr = sh->window,
							.max_recv_wr = sh->recv_wr,
							.max_send_sge = 1, .max_recv_sge = 1,
							.max_inline_data = sh->inline_len } };

		s->cq[i] = ibv_create_cq(s->ctx, 2 * (int)sh->window, NULL, NULL, 0);
		qa.send_cq = qa.recv_cq = s->cq[i];
		s->qp[i] = s->cq[i] ? ibv_create_qp(s->pd, &qa) : NULL;
		if (!s->qp[i])
			dp_bench_die("ibv create", errno);
	}
	ibv_rts(s, s->qp[0], s->qp[1]->qp_num, sh);
	ibv_rts(s, s->qp[1], s->qp[0]->qp_num, sh);
}

void ibv_side_close(struct ibv_side *s)
{
	for (int i = 0; i < 2; i++)
		if (ibv_destroy_qp(s->qp[i]) || ibv_destroy_cq(s->cq[i]))
			dp_bench_die("ibv destroy", EIO);
	if (ibv_dereg_mr(s->mr) || ibv_dealloc_pd(s->pd) || ibv_close_device(s->ctx))
		dp_bench_die("ibv dereg/dealloc/close", EIO);
	munmap(s->buf, s->buf_len);
}
