// SPDX-License-Identifier: MIT
/*
 * The control path through libibverbs' public verbs, whichever provider
 * serves the device: ibv_create_qp, ibv_modify_qp to INIT, RTR and RTS
 * (connected to itself, RoCE v2 GID index 1), ibv_destroy_qp, repeated.
 * Run under RDMAV_DRIVERS=.../libuvio for the library's provider, without it
 * for the stock one (bench/provider.sh).
 *
 *   qp_cycle DEVICE CYCLES
 *
 * Output: "QPCYCLE cycles N create_us C modify_us M destroy_us D total_us T",
 * each the mean per cycle over the CYCLES (after one warm-up cycle). Under
 * callgrind, run_cycles() holds exactly the counted cycles.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int to_rts(struct ibv_qp *qp, const union ibv_gid *gid)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
	};
	int err;

	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			    IBV_QP_ACCESS_FLAGS);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			    IBV_QP_MIN_RNR_TIMER);
	if (err)
		return err;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* One QP through its life; t[] gains the time of each step. */
static int one_cycle(struct ibv_pd *pd, struct ibv_qp_init_attr *init, const union ibv_gid *gid,
		     double t[3])
{
	double t0 = now_us();
	struct ibv_qp *qp = ibv_create_qp(pd, init);
	int err;

	if (!qp) {
		fprintf(stderr, "qp_cycle: ibv_create_qp: %s\n", strerror(errno));
		return -1;
	}
	double t1 = now_us();

	err = to_rts(qp, gid);
	if (err) {
		fprintf(stderr, "qp_cycle: ibv_modify_qp: %s\n", strerror(err));
		ibv_destroy_qp(qp);
		return -1;
	}
	double t2 = now_us();

	err = ibv_destroy_qp(qp);
	if (err) {
		fprintf(stderr, "qp_cycle: ibv_destroy_qp: %s\n", strerror(err));
		return -1;
	}
	t[0] += t1 - t0;
	t[1] += t2 - t1;
	t[2] += now_us() - t2;
	return 0;
}

/* The measured cycles, in a function of their own: callgrind counts exactly
 * this (--collect-atstart=no --toggle-collect=run_cycles). */
__attribute__((noinline)) int run_cycles(struct ibv_pd *pd, struct ibv_qp_init_attr *init,
					 const union ibv_gid *gid, int n, double t[3]);
__attribute__((noinline)) int run_cycles(struct ibv_pd *pd, struct ibv_qp_init_attr *init,
					 const union ibv_gid *gid, int n, double t[3])
{
	for (int i = 0; i < n; i++)
		if (one_cycle(pd, init, gid, t))
			return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	union ibv_gid gid;
	double t[3] = { 0 }, warm[3] = { 0 };
	int n, cycles;

	if (argc != 3 || (cycles = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: qp_cycle DEVICE CYCLES\n");
		return 2;
	}
	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		fprintf(stderr, "qp_cycle: cannot open %s\n", argv[1]);
		return 1;
	}
	ibv_free_device_list(list);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	struct ibv_cq *cq = pd ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;

	if (!cq || ibv_query_gid(ctx, 1, 1, &gid)) {
		fprintf(stderr, "qp_cycle: PD, CQ or GID 1 of port 1: %s\n", strerror(errno));
		return 1;
	}
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 64, .max_recv_wr = 64, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	/* One cycle to warm up (first use of each code path), not counted. */
	if (one_cycle(pd, &init, &gid, warm) || run_cycles(pd, &init, &gid, cycles, t))
		return 1;
	printf("QPCYCLE cycles %d create_us %.2f modify_us %.2f destroy_us %.2f total_us %.2f\n",
	       cycles, t[0] / cycles, t[1] / cycles, t[2] / cycles, (t[0] + t[1] + t[2]) / cycles);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
