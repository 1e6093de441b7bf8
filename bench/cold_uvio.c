// SPDX-License-Identifier: MIT
/*
 * Cold start, this library: discovery and open by name, context, PD, CQ;
 * for "qp" also the GID entry, an RC QP and the MODIFY_QPs to RTS.
 *   cold_uvio T0_NS DEVICE cq|qp
 */
#include <stdio.h>
#include <string.h>
#include <uvio.h>

#include "cold.h"
#include "qp_steps.h"

static int fail(const char *what, int ret)
{
	fprintf(stderr, "cold_uvio: %s: %s\n", what, strerror(-ret));
	return 1;
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq_attr, cq_attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	struct uvio_gid_entry g;
	uint32_t pd;
	int ret;

	if (argc != 4)
		return 2;
	if ((ret = uvio_device_open(argv[2], &dev)))
		return fail("open", ret);
	if ((ret = uvio_get_context(dev, NULL, &ctx, NULL)))
		return fail("context", ret);
	if ((ret = uvio_alloc_pd(dev, NULL, &pd, NULL)))
		return fail("PD", ret);
	if ((ret = uvio_create_cq(dev, &cq_attr, NULL, &cq, NULL)))
		return fail("CQ", ret);
	if (!strcmp(argv[3], "qp")) {
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .send_cq_handle = cq.handle, .recv_cq_handle = cq.handle,
			  .cap = { BQ_CAP_WR, BQ_CAP_WR, BQ_CAP_SGE, BQ_CAP_SGE, 0 });
		UVIO_OPTS(uvio_qp, qp);
		UVIO_OPTS(uvio_qp_attr, init, .attr_mask = BQ_INIT_MASK, .qp_state = UVIO_QPS_INIT,
			  .port_num = BQ_PORT_NUM, .qp_access_flags = BQ_ACCESS);
		UVIO_OPTS(uvio_qp_attr, rtr, .attr_mask = BQ_RTR_MASK, .qp_state = UVIO_QPS_RTR,
			  .path_mtu = BQ_MTU, .max_dest_rd_atomic = 1,
			  .min_rnr_timer = BQ_RNR_TIMER,
			  .ah = { .sgid_index = BQ_GID_INDEX, .hop_limit = 1, .is_global = 1,
				  .port_num = BQ_PORT_NUM });
		UVIO_OPTS(uvio_qp_attr, rts, .attr_mask = BQ_RTS_MASK, .qp_state = UVIO_QPS_RTS,
			  .timeout = BQ_TIMEOUT_VAL, .retry_cnt = BQ_RETRIES,
			  .rnr_retry = BQ_RETRIES, .max_rd_atomic = 1);

		if ((ret = uvio_query_gid_entry(dev, BQ_PORT_NUM, BQ_GID_INDEX, &g, NULL)))
			return fail("GID", ret);
		if ((ret = uvio_create_qp(dev, &qa, NULL, &qp, NULL)))
			return fail("QP", ret);
		rtr.dest_qp_num = qp.qp_num;
		memcpy(rtr.ah.dgid, g.gid, 16);
		if ((ret = uvio_modify_qp(dev, qp.handle, &init, NULL, NULL)) ||
		    (ret = uvio_modify_qp(dev, qp.handle, &rtr, NULL, NULL)) ||
		    (ret = uvio_modify_qp(dev, qp.handle, &rts, NULL, NULL)))
			return fail("QP.MODIFY", ret);
	}
	cold_report(argv[1]);
	return 0;
}
