/* SPDX-License-Identifier: MIT */
/*
 * Internal: the connection manager's write() ABI described once
 * (lib/abi/rdma_cm.c). A command is a struct rdma_ucm_cmd_hdr {cmd, in,
 * out} and the command's struct; one with a response names its address in
 * that struct (resp_at) and the kernel writes at most `out` bytes there.
 */
#ifndef UVIO_LIB_ABI_RDMA_CM_H
#define UVIO_LIB_ABI_RDMA_CM_H

#include <stdint.h>

#include "abi/field_table.h"

#define ABI_CM_NCMDS 23		/* RDMA_USER_CM_CMD_CREATE_ID .. JOIN_MCAST */
#define ABI_CM_NEVENTS 16	/* RDMA_CM_EVENT_ADDR_RESOLVED .. TIMEWAIT_EXIT */
#define ABI_CM_HDR 8u		/* struct rdma_ucm_cmd_hdr */

struct abi_cm_cmd {
	const char *name;		/* "CREATE_ID" */
	struct fstruct in;		/* the command's struct */
	int16_t resp_at;		/* offset of the response pointer, -1: none */
	struct fstruct out;		/* the answer (QUERY: by option) */
	int8_t object;			/* 1 creates a cm_id, -1 destroys one */
};

/* The command numbered cmd, NULL when the ABI has none. */
const struct abi_cm_cmd *abi_cm_cmd(uint32_t cmd);
/* QUERY's answer, by its option (RDMA_USER_CM_QUERY_*). */
struct fstruct abi_cm_query_out(uint32_t option);
/* "ADDR_RESOLVED" ... "TIMEWAIT_EXIT", NULL for another number. */
const char *abi_cm_event_name(uint32_t event);

#endif /* UVIO_LIB_ABI_RDMA_CM_H */
