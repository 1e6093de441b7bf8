// SPDX-License-Identifier: MIT
/*
 * The connection manager's commands in words, from the one description of
 * their ABI (lib/abi/rdma_cm.c): uvio_decode_cm() for callers and
 * uverbs-decode, and, with UVIO_DECODE_JSON, the members uverbs-trace writes.
 */
#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <uvio/cm.h>
#include <uvio/decode.h>

#include "abi/bytes.h"
#include "abi/rdma_cm.h"
#include "cmd/field_render.h"
#include "opts.h"
#include "report/report.h"

UVIO_API const char *uvio_cm_cmd_name(uint32_t cmd)
{
	const struct abi_cm_cmd *c = abi_cm_cmd(cmd);

	return c ? c->name : NULL;
}

UVIO_API int uvio_cm_cmd_response(const void *buf, size_t len, uint64_t *addr,
				  uint32_t *resp_len)
{
	const uint8_t *p = buf;
	const struct abi_cm_cmd *c;

	if (!buf || len < ABI_CM_HDR || !addr || !resp_len)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_cm_cmd_response: EINVAL: argument %s: %s",
				 !buf ? "buf" : len < ABI_CM_HDR ? "len" : !addr ? "addr" : "resp_len",
				 !buf || len >= ABI_CM_HDR ? "NULL" : "shorter than the header");
	c = abi_cm_cmd(ld32(p));
	if (!c)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_cm_cmd_response: EINVAL: argument buf: "
				 "command %u is no rdma_cm command", ld32(p));
	if (c->resp_at < 0 || !ld16(p + 6) || len < ABI_CM_HDR + (size_t)c->resp_at + 8)
		return 0;
	*addr = ld64(p + ABI_CM_HDR + c->resp_at);
	*resp_len = ld16(p + 6);
	return 1;
}

/* Header, the command's fields, the answer's: text or JSON members. */
static void render(struct sbuf *s, bool json, const uint8_t *buf, size_t len,
		   const uint8_t *resp, size_t resp_len)
{
	const struct abi_cm_cmd *c;
	struct fstruct out;
	size_t in_len;

	if (len < ABI_CM_HDR) {
		if (json)
			sb_printf(s, "\"short\":%zu", len);
		else
			sb_printf(s, "(%zu bytes, a header needs %u)", len, ABI_CM_HDR);
		return;
	}
	c = abi_cm_cmd(ld32(buf));
	in_len = ld16(buf + 4);
	if (json)
		sb_printf(s, "\"cmd\":%u,\"in\":%zu,\"out\":%u", ld32(buf), in_len, ld16(buf + 6));
	else
		sb_printf(s, "cmd %u in %zu out %u%s", ld32(buf), in_len, ld16(buf + 6),
			  c ? "" : " (unknown command)");
	if (!c)
		return;
	/* The kernel reads `in` bytes after the header. */
	if (in_len > len - ABI_CM_HDR)
		in_len = len - ABI_CM_HDR;
	sb_puts(s, json ? ",\"fields\":{" : "\n");
	ff_render(s, json, &c->in, buf + ABI_CM_HDR, in_len);
	if (json)
		sb_puts(s, "}");
	out = c->out;
	if (ld32(buf) == RDMA_USER_CM_CMD_QUERY)
		out = abi_cm_query_out(len >= ABI_CM_HDR + 16 ? ld32(buf + ABI_CM_HDR + 12) : ~0u);
	if (resp && out.fields) {
		sb_puts(s, json ? ",\"response\":{" : "\n-> ");
		ff_render(s, json, &out, resp, resp_len);
		if (json)
			sb_puts(s, "}");
	}
}

UVIO_API int uvio_decode_cm(const void *buf, size_t len, const void *resp, size_t resp_len,
			    unsigned int flags, char *out, size_t size)
{
	struct sbuf s;

	if ((!buf && len) || (!resp && resp_len) || (!out && size))
		return uvio_fail(LOG_DEBUG, -EFAULT, "uvio_decode_cm: EFAULT: argument %s: NULL with "
				 "a length", !buf && len ? "buf" : !resp && resp_len ? "resp" : "out");
	if (flags & ~UVIO_DECODE_JSON)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_decode_cm: EINVAL: argument flags: "
				 "unknown bits 0x%x", flags & ~UVIO_DECODE_JSON);
	sb_init(&s, out, size);
	render(&s, flags & UVIO_DECODE_JSON, buf, len, resp, resp_len);
	if (len < ABI_CM_HDR)	/* rendered as far as it goes */
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_decode_cm: EINVAL: argument len: %zu "
				 "bytes, shorter than the header", len);
	return s.need > INT32_MAX ? INT32_MAX : (int)s.need;
}
