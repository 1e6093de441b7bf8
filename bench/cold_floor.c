// SPDX-License-Identifier: MIT
/*
 * Cold start, the bare floor: open the known device node and issue the
 * commands by hand (the ones this library sends: GET_CONTEXT and
 * ASYNC_EVENT/ALLOC, PD over INVOKE_WRITE, CQ CREATE; for "qp" also the GID
 * entry, QP CREATE and the three MODIFY_QPs to RTS). Links only libc.
 *   cold_floor T0_NS NODE DRIVER_ID cq|qp|none
 * "none" reports at once: the cost of exec and libc start alone.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cold.h"
#include "floor_verbs.h"

static int fail(const char *what, int ret)
{
	fprintf(stderr, "cold_floor: %s: %s\n", what, strerror(-ret));
	return 1;
}

int main(int argc, char **argv)
{
	uint32_t did, pd, cq, qp, qpn;
	struct ib_uverbs_gid_entry g;
	struct ib_uverbs_modify_qp m;
	int fd, async_fd, ret;

	if (argc != 5)
		return 2;
	if (!strcmp(argv[4], "none")) {
		cold_report(argv[1]);
		return 0;
	}
	did = (uint32_t)atoi(argv[3]);
	fd = open(argv[2], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return fail("open", -errno);
	if ((ret = fl_get_context_fd(fd, did, 0, &async_fd)))
		return fail("GET_CONTEXT", ret);
	if ((ret = fl_alloc_pd_fd(fd, did, 0, &pd)))
		return fail("PD.ALLOC", ret);
	if ((ret = fl_create_cq_fd(fd, did, 0, 16, &cq)))
		return fail("CQ.CREATE", ret);
	if (!strcmp(argv[4], "qp")) {
		if ((ret = fl_query_gid_entry(fd, did, BQ_PORT_NUM, BQ_GID_INDEX, &g)))
			return fail("QUERY_GID_ENTRY", ret);
		if ((ret = fl_create_qp_fd(fd, did, 0, pd, cq, IB_UVERBS_QPT_RC, &qp, &qpn)))
			return fail("QP.CREATE", ret);
		for (int s = 0; s < 3; s++) {
			fl_qp_step_fill(s, qp, qpn, (const uint8_t *)g.gid, BQ_GID_INDEX, &m);
			if ((ret = fl_modify_qp_fd(fd, did, 0, &m)))
				return fail("QP.MODIFY", ret);
		}
	}
	cold_report(argv[1]);
	return 0;
}
