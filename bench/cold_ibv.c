// SPDX-License-Identifier: MIT
/*
 * Cold start, libibverbs' public path: ibv_get_device_list (which loads
 * every installed provider), ibv_open_device, ibv_alloc_pd, ibv_create_cq;
 * for "qp" also ibv_query_gid, ibv_create_qp and ibv_modify_qp to RTS.
 *   cold_ibv T0_NS DEVICE cq|qp
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

#include "cold.h"
#include "qp_steps.h"

static int fail(const char *what, int err)
{
	fprintf(stderr, "cold_ibv: %s: %s\n", what, strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	struct ibv_cq *cq;

	if (argc != 4)
		return 2;
	list = ibv_get_device_list(NULL);
	for (int i = 0; list && list[i] && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[2]))
			ctx = ibv_open_device(list[i]);
	if (!ctx)
		return fail("open", ENODEV);
	if (!(pd = ibv_alloc_pd(ctx)))
		return fail("PD", errno);
	if (!(cq = ibv_create_cq(ctx, 16, NULL, NULL, 0)))
		return fail("CQ", errno);
	if (!strcmp(argv[3], "qp")) {
		struct ibv_qp_init_attr ia = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { BQ_CAP_WR, BQ_CAP_WR, BQ_CAP_SGE, BQ_CAP_SGE, 0 },
		};
		struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .port_num = BQ_PORT_NUM,
					    .qp_access_flags = BQ_ACCESS };
		struct ibv_qp_attr rtr = {
			.qp_state = IBV_QPS_RTR, .path_mtu = (enum ibv_mtu)BQ_MTU,
			.max_dest_rd_atomic = 1, .min_rnr_timer = BQ_RNR_TIMER,
			.ah_attr = { .grh = { .sgid_index = BQ_GID_INDEX, .hop_limit = 1 },
				     .is_global = 1, .port_num = BQ_PORT_NUM },
		};
		struct ibv_qp_attr rts = { .qp_state = IBV_QPS_RTS, .timeout = BQ_TIMEOUT_VAL,
					   .retry_cnt = BQ_RETRIES, .rnr_retry = BQ_RETRIES,
					   .max_rd_atomic = 1 };
		struct ibv_qp *qp;
		int err;

		if (ibv_query_gid(ctx, BQ_PORT_NUM, BQ_GID_INDEX, &rtr.ah_attr.grh.dgid))
			return fail("GID", errno);
		if (!(qp = ibv_create_qp(pd, &ia)))
			return fail("QP", errno);
		rtr.dest_qp_num = qp->qp_num;
		if ((err = ibv_modify_qp(qp, &init, BQ_INIT_MASK)) ||
		    (err = ibv_modify_qp(qp, &rtr, BQ_RTR_MASK)) ||
		    (err = ibv_modify_qp(qp, &rts, BQ_RTS_MASK)))
			return fail("QP.MODIFY", err);
	}
	cold_report(argv[1]);
	return 0;
}
