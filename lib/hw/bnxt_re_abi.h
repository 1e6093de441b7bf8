/* SPDX-License-Identifier: MIT */
/*
 * bnxt_re's context answer as Linux 6.1 lays it out: 5.10's header
 * (Debian 11) ends it before the WQE mode. The library's half and its
 * tests read this copy; where the system's header has the mode, the copy
 * is checked against it.
 */
#ifndef UVIO_LIB_HW_BNXT_RE_ABI_H
#define UVIO_LIB_HW_BNXT_RE_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <linux/version.h>
#include <rdma/bnxt_re-abi.h>

struct uvio_bnxt_re_uctx_resp {
	uint32_t dev_id;
	uint32_t max_qp;
	uint32_t pg_size;
	uint32_t cqe_sz;
	uint32_t max_cqd;
	uint32_t rsvd;
	uint64_t comp_mask;
	uint32_t chip_id0;
	uint32_t chip_id1;
	uint32_t mode;		/* enum bnxt_re_wqe_mode, where comp_mask says so */
	uint32_t rsvd1;
};
_Static_assert(sizeof(struct uvio_bnxt_re_uctx_resp) == 48, "bnxt_re's context answer");

#define UVIO_BNXT_RE_CMASK_HAVE_CCTX 1u	/* BNXT_RE_UCNTX_CMASK_HAVE_CCTX */
#define UVIO_BNXT_RE_CMASK_HAVE_MODE 2u	/* BNXT_RE_UCNTX_CMASK_HAVE_MODE */
#define UVIO_BNXT_RE_WQE_MODE_STATIC 0u	/* BNXT_QPLIB_WQE_MODE_STATIC */
#define UVIO_BNXT_RE_WQE_MODE_VARIABLE 1u	/* BNXT_QPLIB_WQE_MODE_VARIABLE */

#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
_Static_assert(sizeof(struct uvio_bnxt_re_uctx_resp) == sizeof(struct bnxt_re_uctx_resp) &&
		       offsetof(struct uvio_bnxt_re_uctx_resp, mode) ==
			       offsetof(struct bnxt_re_uctx_resp, mode),
	       "bnxt_re's context answer as the system's header has it");
_Static_assert(UVIO_BNXT_RE_CMASK_HAVE_CCTX == BNXT_RE_UCNTX_CMASK_HAVE_CCTX &&
		       UVIO_BNXT_RE_CMASK_HAVE_MODE == BNXT_RE_UCNTX_CMASK_HAVE_MODE &&
		       UVIO_BNXT_RE_WQE_MODE_STATIC == BNXT_QPLIB_WQE_MODE_STATIC &&
		       UVIO_BNXT_RE_WQE_MODE_VARIABLE == BNXT_QPLIB_WQE_MODE_VARIABLE,
	       "bnxt_re's ids as the system's header has them");
#endif

#endif
