// SPDX-License-Identifier: MIT
/*
 * uverbs write() commands: names and structs come from the library
 * (uvio_write_cmd_name); what is here is the framing (plain and extended
 * headers, where the response goes) and which commands make or end an
 * object, for the tracer's record of objects.
 */
#include <stdio.h>
#include <string.h>
#include <rdma/ib_user_verbs.h>

#include <uvio.h>

#include "bytes.h"
#include "vwrite.h"

#define HDR sizeof(struct ib_uverbs_cmd_hdr)
#define EXHDR sizeof(struct ib_uverbs_ex_cmd_hdr)

static const char *ex_name(uint32_t cmd)
{
	switch (cmd) {
	case IB_USER_VERBS_EX_CMD_QUERY_DEVICE: return "QUERY_DEVICE";
	case IB_USER_VERBS_EX_CMD_CREATE_CQ: return "CREATE_CQ";
	case IB_USER_VERBS_EX_CMD_CREATE_QP: return "CREATE_QP";
	case IB_USER_VERBS_EX_CMD_MODIFY_QP: return "MODIFY_QP";
	case IB_USER_VERBS_EX_CMD_CREATE_FLOW: return "CREATE_FLOW";
	case IB_USER_VERBS_EX_CMD_DESTROY_FLOW: return "DESTROY_FLOW";
	case IB_USER_VERBS_EX_CMD_CREATE_WQ: return "CREATE_WQ";
	case IB_USER_VERBS_EX_CMD_MODIFY_WQ: return "MODIFY_WQ";
	case IB_USER_VERBS_EX_CMD_DESTROY_WQ: return "DESTROY_WQ";
	case IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL: return "CREATE_RWQ_IND_TBL";
	case IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL: return "DESTROY_RWQ_IND_TBL";
	case IB_USER_VERBS_EX_CMD_MODIFY_CQ: return "MODIFY_CQ";
	}
	return NULL;
}

bool vw_name(uint32_t command, char *buf, size_t size)
{
	const char *name;

	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		name = command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_CMD_COMMAND_MASK) ?
			NULL : ex_name(command & IB_USER_VERBS_CMD_COMMAND_MASK);
		if (name) {
			snprintf(buf, size, "EX_%s", name);
			return true;
		}
	} else {
		name = uvio_write_cmd_name(command);
		if (name) {
			snprintf(buf, size, "%s", name);
			return true;
		}
	}
	snprintf(buf, size, "command_0x%x", command);
	return false;
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

void vw_render(struct sbuf *s, bool json, bool verbose, const char *indent, const uint8_t *cmd,
	       size_t n, const uint8_t *resp, size_t rn)
{
	uint32_t command;
	size_t hl = HDR;
	char name[48];

	if (n < HDR) {
		if (json)
			sb_printf(s, "\"short\":%zu", n);
		else
			sb_printf(s, "%s(%zu bytes, a write() header needs %zu)\n", indent, n, HDR);
		return;
	}
	command = ld32(cmd);
	vw_name(command, name, sizeof(name));
	if (json)
		sb_printf(s, "\"command\":%u,\"in_words\":%u,\"out_words\":%u", command,
			  ld16(cmd + 4), ld16(cmd + 6));
	else
		sb_printf(s, "%scommand %u in_words %u out_words %u", indent, command,
			  ld16(cmd + 4), ld16(cmd + 6));
	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		struct ib_uverbs_ex_cmd_hdr ex;

		hl += EXHDR;
		if (n < hl) {
			if (json)
				sb_printf(s, ",\"short\":%zu", n);
			else
				sb_printf(s, " (%zu bytes, the extended header needs %zu)\n", n, hl);
			return;
		}
		memcpy(&ex, cmd + HDR, sizeof(ex));
		if (json)
			sb_printf(s, ",\"response\":\"0x%llx\",\"provider_in_words\":%u,"
				  "\"provider_out_words\":%u", (unsigned long long)ex.response,
				  ex.provider_in_words, ex.provider_out_words);
		else
			sb_printf(s, " response 0x%llx provider_in_words %u provider_out_words %u",
				  (unsigned long long)ex.response, ex.provider_in_words,
				  ex.provider_out_words);
		if (ex.cmd_hdr_reserved && json)
			sb_printf(s, ",\"cmd_hdr_reserved\":%u", ex.cmd_hdr_reserved);
		else if (ex.cmd_hdr_reserved)
			sb_printf(s, " cmd_hdr_reserved %u(!)", ex.cmd_hdr_reserved);
	}
	/* The core struct: its fields are the library's to name; the bytes
	 * as they are until then. */
	if (json) {
		sb_puts(s, ",\"core\":\"");
		sb_hex(s, cmd + hl, n - hl, 0);
		sb_puts(s, "\"");
		if (resp) {
			sb_puts(s, ",\"resp\":\"");
			sb_hex(s, resp, rn, 0);
			sb_puts(s, "\"");
		}
		return;
	}
	sb_puts(s, "\n");
	if (n > hl) {
		size_t show = verbose || n - hl <= 64 ? n - hl : 64;

		sb_printf(s, "%score %zu bytes: ", indent, n - hl);
		sb_hex(s, cmd + hl, show, ' ');
		sb_puts(s, show < n - hl ? " ...\n" : "\n");
	}
	if (resp) {
		size_t show = verbose || rn <= 64 ? rn : 64;

		sb_printf(s, "%sresponse %zu bytes: ", indent, rn);
		sb_hex(s, resp, show, ' ');
		sb_puts(s, show < rn ? " ...\n" : "\n");
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
