// SPDX-License-Identifier: MIT
/*
 * uverbs write() commands: names, structs and which commands carry a
 * response come from the library (uvio_describe_write_cmd,
 * uvio_decode_write); what is here is the framing (where the response goes)
 * and which commands make or end an object, for the tracer's record of
 * objects.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rdma/ib_user_verbs.h>

#include <uvio.h>

#include "abi/bytes.h"
#include "vwrite.h"

#define HDR sizeof(struct ib_uverbs_cmd_hdr)
#define EXHDR sizeof(struct ib_uverbs_ex_cmd_hdr)

bool vw_name(uint32_t command, char *buf, size_t size)
{
	struct uvio_write_desc d = { .sz = sizeof(d) };

	if (!uvio_describe_write_cmd(command, &d) && d.name) {
		snprintf(buf, size, "%s%s", d.flags & UVIO_WRITE_EXTENDED ? "EX_" : "", d.name);
		return true;
	}
	snprintf(buf, size, "command_0x%x", command);
	return false;
}

bool vw_resp_ptr(const uint8_t *p, size_t n, uint64_t *addr, uint64_t *len)
{
	struct uvio_write_desc d = { .sz = sizeof(d) };
	uint32_t command;
	uint16_t out_words;

	if (n < HDR)
		return false;
	command = ld32(p);
	out_words = ld16(p + 6);
	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		/* The extended header holds the pointer; words of 8 bytes. */
		if (n < HDR + EXHDR)
			return false;
		*addr = ld64(p + HDR);
		*len = ((uint64_t)out_words + ld16(p + HDR + 10)) * 8;
		return *len != 0;
	}
	/* A command with a response starts its struct with the pointer. */
	if (!uvio_describe_write_cmd(command, &d) && !(d.flags & UVIO_WRITE_RESPONSE))
		return false;
	if (!out_words || n < HDR + 8)
		return false;
	*addr = ld64(p + HDR);
	*len = (uint64_t)out_words * 4;
	return true;
}

size_t vw_from_invoke(uint32_t command, const uint8_t *core_in, size_t in_len, size_t out_len,
		      uint8_t *out, size_t size)
{
	bool ex = command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	size_t hl = HDR + (ex ? EXHDR : 0);
	struct ib_uverbs_cmd_hdr h = { .command = command };
	size_t total;

	if (size < hl)
		return 0;
	if (in_len > size - hl)
		in_len = size - hl;
	total = hl + in_len;
	/* write() counts words of 4 bytes (8 for the extended commands'
	 * parts); INVOKE_WRITE has byte lengths and no such limits. */
	if (ex) {
		h.in_words = (uint16_t)(in_len / 8);
		h.out_words = (uint16_t)(out_len / 8);
	} else {
		h.in_words = (uint16_t)(total / 4);
		h.out_words = (uint16_t)(out_len / 4);
	}
	memset(out, 0, hl);
	memcpy(out, &h, sizeof(h));
	if (in_len)
		memcpy(out + hl, core_in, in_len);
	return total;
}

/* The response as captured: the only memory a write() command's decoding
 * follows is its response, which the tracer read where the command says. */
struct resp_bytes {
	const uint8_t *p;
	size_t n;
};

static int resp_fetch(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct resp_bytes *r = ctx;

	(void)addr;
	if (len > r->n)
		return -EFAULT;
	memcpy(buf, r->p, len);
	return 0;
}

void vw_render(struct sbuf *s, bool json, bool verbose, const char *indent, const uint8_t *cmd,
	       size_t n, const uint8_t *resp, size_t rn, uint32_t driver_id)
{
	static char text[1 << 16];
	struct resp_bytes rb = { resp, resp ? rn : 0 };
	struct uvio_decode_opts o = {
		.sz = sizeof(o), .flags = UVIO_DECODE_WRITE | (resp ? UVIO_DECODE_AFTER : 0),
		.fetch = resp_fetch, .ctx = &rb, .driver_id = driver_id,
	};

	(void)verbose;	/* the library shows every field; it bounds arrays itself */
	if (driver_id)
		uvio_decode_cmd(cmd, n, &o, text, sizeof(text));
	else
		uvio_decode_write(cmd, n, resp, resp ? rn : 0, text, sizeof(text));
	if (json) {
		if (n >= HDR)
			sb_printf(s, "\"command\":%u,\"in_words\":%u,\"out_words\":%u,", ld32(cmd),
				  ld16(cmd + 4), ld16(cmd + 6));
		sb_puts(s, "\"decoded\":");
		sb_json_str(s, text);
		if (resp) {
			sb_puts(s, ",\"resp\":\"");
			sb_hex(s, resp, rn, 0);
			sb_puts(s, "\"");
		}
		return;
	}
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		sb_puts(s, indent);
		sb_putn(s, l, len);
		sb_puts(s, "\n");
		l += len + (nl ? 1 : 0);
	}
}

struct lifecycle {
	uint32_t command;	/* with the extended flag where it has one */
	const char *type;
	int8_t dir;		/* 1 created: handle in the response; -1 destroyed */
	uint8_t at;		/* offset of the handle in the response or the core */
};

#define EX IB_USER_VERBS_CMD_FLAG_EXTENDED
static const struct lifecycle lifecycles[] = {
	{ IB_USER_VERBS_CMD_ALLOC_PD, "pd", 1, 0 },
	{ IB_USER_VERBS_CMD_DEALLOC_PD, "pd", -1, 0 },
	{ IB_USER_VERBS_CMD_CREATE_AH, "ah", 1, 0 },
	{ IB_USER_VERBS_CMD_DESTROY_AH, "ah", -1, 0 },
	{ IB_USER_VERBS_CMD_REG_MR, "mr", 1, 0 },
	{ IB_USER_VERBS_CMD_DEREG_MR, "mr", -1, 0 },
	{ IB_USER_VERBS_CMD_ALLOC_MW, "mw", 1, 0 },
	{ IB_USER_VERBS_CMD_DEALLOC_MW, "mw", -1, 0 },
	{ IB_USER_VERBS_CMD_CREATE_CQ, "cq", 1, 0 },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_CQ, "cq", 1, 0 },
	{ IB_USER_VERBS_CMD_DESTROY_CQ, "cq", -1, 8 },
	{ IB_USER_VERBS_CMD_CREATE_QP, "qp", 1, 0 },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_QP, "qp", 1, 0 },
	{ IB_USER_VERBS_CMD_OPEN_QP, "qp", 1, 0 },
	{ IB_USER_VERBS_CMD_DESTROY_QP, "qp", -1, 8 },
	{ IB_USER_VERBS_CMD_CREATE_SRQ, "srq", 1, 0 },
	{ IB_USER_VERBS_CMD_CREATE_XSRQ, "srq", 1, 0 },
	{ IB_USER_VERBS_CMD_DESTROY_SRQ, "srq", -1, 8 },
	{ IB_USER_VERBS_CMD_OPEN_XRCD, "xrcd", 1, 0 },
	{ IB_USER_VERBS_CMD_CLOSE_XRCD, "xrcd", -1, 0 },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_WQ, "wq", 1, 8 },
	{ EX | IB_USER_VERBS_EX_CMD_DESTROY_WQ, "wq", -1, 4 },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL, "rwq_ind_tbl", 1, 8 },
	{ EX | IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL, "rwq_ind_tbl", -1, 4 },
	{ EX | IB_USER_VERBS_EX_CMD_CREATE_FLOW, "flow", 1, 4 },
	{ EX | IB_USER_VERBS_EX_CMD_DESTROY_FLOW, "flow", -1, 4 },
};

int vw_object(const uint8_t *cmd, size_t n, const uint8_t *resp, size_t rn, const char **type,
	      uint32_t *handle)
{
	uint32_t command;
	size_t hl;

	if (n < HDR)
		return 0;
	command = ld32(cmd);
	hl = HDR + (command & EX ? EXHDR : 0);
	for (size_t i = 0; i < sizeof(lifecycles) / sizeof(lifecycles[0]); i++) {
		const struct lifecycle *l = &lifecycles[i];

		if (l->command != command)
			continue;
		*type = l->type;
		if (l->dir > 0) {
			if (!resp || rn < (size_t)l->at + 4)
				return 0;
			*handle = ld32(resp + l->at);
			return 1;
		}
		if (n < hl + l->at + 4)
			return 0;
		*handle = ld32(cmd + hl + l->at);
		return -1;
	}
	return 0;
}
