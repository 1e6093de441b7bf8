/* SPDX-License-Identifier: MIT */
/*
 * uverbs write() commands (struct ib_uverbs_cmd_hdr, and the extended header
 * after it when bit 31 is set), as write() sends them and as INVOKE_WRITE
 * carries them.
 */
#ifndef UVIO_TRACE_VWRITE_H
#define UVIO_TRACE_VWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/sbuf.h"

/* "CREATE_CQ", "EX_CREATE_CQ"; false (and "command_N") when unknown. */
bool vw_name(uint32_t command, char *buf, size_t size);
/* Where the kernel writes the response of the command in p (header first,
 * n bytes of it), and at most how much. */
bool vw_resp_ptr(const uint8_t *p, size_t n, uint64_t *addr, uint64_t *len);
/* The command in cmd (header first, n bytes of it) and its response (rn
 * bytes; NULL when none was read), decoded by the library with the driver's
 * data where driver_id names one: text lines, each after indent, or JSON
 * members. */
void vw_render(struct sbuf *s, bool json, bool verbose, const char *indent, const uint8_t *cmd,
	       size_t n, const uint8_t *resp, size_t rn, uint32_t driver_id);
/* Build the write() form of an INVOKE_WRITE command: header for command and
 * the core sizes, then core_in. Returns the length written to out. */
size_t vw_from_invoke(uint32_t command, const uint8_t *core_in, size_t in_len, size_t out_len,
		      uint8_t *out, size_t size);
/* The object a successful command created (1) or destroyed (-1): its type
 * as `rdma resource` names it (pd, cq, qp, ...) and its handle. */
int vw_object(const uint8_t *cmd, size_t n, const uint8_t *resp, size_t rn, const char **type,
	      uint32_t *handle);

#endif
