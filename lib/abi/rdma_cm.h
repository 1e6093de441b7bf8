/* SPDX-License-Identifier: MIT */
/*
 * The RDMA connection manager's write() ABI (/dev/infiniband/rdma_cm,
 * <rdma/rdma_user_cm.h>): a struct rdma_ucm_cmd_hdr {cmd, in, out} and the
 * command's struct; commands with a response carry a pointer to it in their
 * struct and the kernel writes at most `out` bytes there.
 */
#ifndef UVIO_TRACE_RDMACM_H
#define UVIO_TRACE_RDMACM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

/* Name of RDMA_USER_CM_CMD_* (CREATE_ID...), or NULL. */
const char *ucma_cmd_name(uint32_t cmd);
/* Where the response of the command in buf (header first) goes. */
bool ucma_resp_ptr(const uint8_t *buf, size_t len, uint64_t *addr, uint64_t *resp_len);
/*
 * The command in buf (header first, len bytes read of it) and its response
 * (resp_len bytes, NULL when none was read): text
 *   "CREATE_ID uid=... ps=TCP qp_type=RC" and "-> id=3"
 * or JSON members "command":"CREATE_ID","in":{...},"out":{...}.
 * Returns the command name or NULL when unknown.
 */
const char *ucma_render(struct sbuf *s, bool json, const uint8_t *buf, size_t len,
			const uint8_t *resp, size_t resp_len);
/* The object a successful command created or destroyed ("cm_id"), for the
 * record of objects; *id from the response or the command. 1 created,
 * -1 destroyed, 0 neither. */
int ucma_object(const uint8_t *buf, size_t len, const uint8_t *resp, size_t resp_len,
		uint32_t *id);

#endif
