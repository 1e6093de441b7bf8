/* SPDX-License-Identifier: MIT */
/* The bring-up's three transitions (qp_steps.h) as this library's
 * struct uvio_qp_attr: the guest benchmark and the host stand-in fill the
 * same values. */
#ifndef UVIO_BENCH_UVIO_STEPS_H
#define UVIO_BENCH_UVIO_STEPS_H

#include <string.h>
#include <uvio.h>
#include "qp_steps.h"

static inline void bq_uvio_step(int step, uint32_t qpn, const uint8_t gid[16],
				uint8_t gid_index, struct uvio_qp_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->sz = sizeof(*a);
	switch (step) {
	case 0:
		a->attr_mask = BQ_INIT_MASK;
		a->qp_state = UVIO_QPS_INIT;
		a->port_num = BQ_PORT_NUM;
		a->qp_access_flags = BQ_ACCESS;
		break;
	case 1:
		a->attr_mask = BQ_RTR_MASK;
		a->qp_state = UVIO_QPS_RTR;
		a->path_mtu = BQ_MTU;
		a->dest_qp_num = qpn;
		a->max_dest_rd_atomic = 1;
		a->min_rnr_timer = BQ_RNR_TIMER;
		memcpy(a->ah.dgid, gid, 16);
		a->ah.sgid_index = gid_index;
		a->ah.hop_limit = 1;
		a->ah.is_global = 1;
		a->ah.port_num = BQ_PORT_NUM;
		break;
	default:
		a->attr_mask = BQ_RTS_MASK;
		a->qp_state = UVIO_QPS_RTS;
		a->timeout = BQ_TIMEOUT_VAL;
		a->retry_cnt = BQ_RETRIES;
		a->rnr_retry = BQ_RETRIES;
		a->max_rd_atomic = 1;
		break;
	}
}

#endif
