// SPDX-License-Identifier: MIT
/*
 * The rdma_cm write() commands, a table each: the struct the command carries
 * and the one the kernel answers with. Offsets are those of
 * <rdma/rdma_user_cm.h> (written out, so that older system headers build
 * this; tools/trace/test checks them against the headers of the build).
 */
#include <string.h>

#include "bytes.h"
#include "fields.h"
#include "rdmacm.h"

#define F(n, o, f) { n, o, f, 0, -1, NULL, 0 }
#define D(n, o, cap, len_at) { n, o, FF_DATA, cap, len_at, NULL, 0 }
#define S(n, o, sub, size) { n, o, FF_STRUCT, 0, -1, sub, size }
#define END { NULL, 0, 0, 0, -1, NULL, 0 }

enum {	/* RDMA_USER_CM_CMD_* */
	CREATE_ID, DESTROY_ID, BIND_IP, RESOLVE_IP, RESOLVE_ROUTE, QUERY_ROUTE, CONNECT, LISTEN,
	ACCEPT, REJECT, DISCONNECT, INIT_QP_ATTR, GET_EVENT, GET_OPTION, SET_OPTION, NOTIFY,
	JOIN_IP_MCAST, LEAVE_MCAST, MIGRATE_ID, QUERY, BIND, RESOLVE_ADDR, JOIN_MCAST,
	NCMDS
};

static const struct ffield create_id[] = {
	F("uid", 0, FF_X64), F("response", 8, FF_PTR), F("ps", 16, FF_PS),
	F("qp_type", 18, FF_QPT), END };
static const struct ffield id_resp[] = { F("id", 0, FF_U32), END };
static const struct ffield destroy_id[] = {
	F("response", 0, FF_PTR), F("id", 8, FF_U32), END };
static const struct ffield events_resp[] = { F("events_reported", 0, FF_U32), END };
static const struct ffield bind_ip[] = {
	F("response", 0, FF_PTR), F("addr", 8, FF_SA_IN6), F("id", 36, FF_U32), END };
static const struct ffield bind[] = {
	F("id", 0, FF_U32), F("addr_size", 4, FF_U16), F("addr", 8, FF_SA_STORAGE), END };
static const struct ffield resolve_ip[] = {
	F("src_addr", 0, FF_SA_IN6), F("dst_addr", 28, FF_SA_IN6), F("id", 56, FF_U32),
	F("timeout_ms", 60, FF_U32), END };
static const struct ffield resolve_addr[] = {
	F("id", 0, FF_U32), F("timeout_ms", 4, FF_U32), F("src_size", 8, FF_U16),
	F("dst_size", 10, FF_U16), F("src_addr", 16, FF_SA_STORAGE),
	F("dst_addr", 144, FF_SA_STORAGE), END };
static const struct ffield resolve_route[] = {
	F("id", 0, FF_U32), F("timeout_ms", 4, FF_U32), END };
static const struct ffield query[] = {
	F("response", 0, FF_PTR), F("id", 8, FF_U32), F("option", 12, FF_U32), END };
static const struct ffield path_rec[] = {
	F("dgid", 0, FF_GID), F("sgid", 16, FF_GID), F("dlid", 32, FF_BE16),
	F("slid", 34, FF_BE16), F("mtu", 52, FF_U32), F("pkey", 56, FF_BE16), END };
static const struct ffield query_route_resp[] = {
	F("node_guid", 0, FF_BE64), S("ib_route0", 8, path_rec, 64),
	F("src_addr", 136, FF_SA_IN6), F("dst_addr", 164, FF_SA_IN6),
	F("num_paths", 192, FF_U32), F("port_num", 196, FF_U8), F("ibdev_index", 200, FF_U32),
	END };
static const struct ffield query_addr_resp[] = {
	F("node_guid", 0, FF_BE64), F("port_num", 8, FF_U8), F("pkey", 10, FF_BE16),
	F("src_size", 12, FF_U16), F("dst_size", 14, FF_U16),
	F("src_addr", 16, FF_SA_STORAGE), F("dst_addr", 144, FF_SA_STORAGE),
	F("ibdev_index", 272, FF_U32), END };
static const struct ffield query_path_resp[] = {
	F("num_paths", 0, FF_U32), END };
static const struct ffield conn_param[] = {
	F("qp_num", 0, FF_U32), F("qkey", 4, FF_X32), D("private_data", 8, 256, 264),
	F("srq", 265, FF_U8), F("responder_resources", 266, FF_U8),
	F("initiator_depth", 267, FF_U8), F("flow_control", 268, FF_U8),
	F("retry_count", 269, FF_U8), F("rnr_retry_count", 270, FF_U8), F("valid", 271, FF_U8),
	END };
static const struct ffield ece[] = {
	F("vendor_id", 0, FF_X32), F("attr_mod", 4, FF_X32), END };
static const struct ffield connect[] = {
	S("conn_param", 0, conn_param, 272), F("id", 272, FF_U32), S("ece", 280, ece, 8), END };
static const struct ffield listen[] = {
	F("id", 0, FF_U32), F("backlog", 4, FF_U32), END };
static const struct ffield accept[] = {
	F("uid", 0, FF_X64), S("conn_param", 8, conn_param, 272), F("id", 280, FF_U32),
	S("ece", 288, ece, 8), END };
static const struct ffield reject[] = {
	F("id", 0, FF_U32), F("reason", 5, FF_U8), D("private_data", 8, 256, 4), END };
static const struct ffield disconnect[] = { F("id", 0, FF_U32), END };
static const struct ffield init_qp_attr[] = {
	F("response", 0, FF_PTR), F("id", 8, FF_U32), F("qp_state", 12, FF_QPS), END };
static const struct ffield ah_attr[] = {
	F("dgid", 0, FF_GID), F("flow_label", 16, FF_U32), F("sgid_index", 20, FF_U8),
	F("hop_limit", 21, FF_U8), F("traffic_class", 22, FF_U8), F("dlid", 24, FF_U16),
	F("sl", 26, FF_U8), F("is_global", 29, FF_U8), F("port_num", 30, FF_U8), END };
static const struct ffield qp_attr[] = {	/* struct ib_uverbs_qp_attr */
	F("qp_attr_mask", 0, FF_X32), F("qp_state", 4, FF_QPS), F("path_mtu", 12, FF_U32),
	F("qkey", 20, FF_X32), F("rq_psn", 24, FF_U32), F("sq_psn", 28, FF_U32),
	F("dest_qp_num", 32, FF_U32), F("qp_access_flags", 36, FF_X32),
	S("ah_attr", 40, ah_attr, 32), F("pkey_index", 124, FF_U16),
	F("max_rd_atomic", 130, FF_U8), F("max_dest_rd_atomic", 131, FF_U8),
	F("min_rnr_timer", 132, FF_U8), F("port_num", 133, FF_U8), F("timeout", 134, FF_U8),
	F("retry_cnt", 135, FF_U8), F("rnr_retry", 136, FF_U8), END };
static const struct ffield get_event[] = { F("response", 0, FF_PTR), END };
static const struct ffield event_resp[] = {
	F("uid", 0, FF_X64), F("id", 8, FF_U32), F("event", 12, FF_CM_EVENT),
	F("status", 16, FF_U32),
	/* param is a union: conn for connected ids, ud (same qp_num and qkey
	 * first) for UDP and IPoIB ones, which the event does not tell. */
	S("conn", 20, conn_param, 272), S("ece", 328, ece, 8), END };
static const struct ffield set_option[] = {
	F("optval", 0, FF_PTR), F("id", 8, FF_U32), F("level", 12, FF_U32),
	F("optname", 16, FF_U32), F("optlen", 20, FF_U32), END };
static const struct ffield notify[] = {
	F("id", 0, FF_U32), F("event", 4, FF_CM_EVENT), END };
static const struct ffield join_ip_mcast[] = {
	F("response", 0, FF_PTR), F("uid", 8, FF_X64), F("addr", 16, FF_SA_IN6),
	F("id", 44, FF_U32), END };
static const struct ffield migrate_id[] = {
	F("response", 0, FF_PTR), F("id", 8, FF_U32), F("fd", 12, FF_U32), END };
static const struct ffield join_mcast[] = {
	F("response", 0, FF_PTR), F("uid", 8, FF_X64), F("id", 16, FF_U32),
	F("addr_size", 20, FF_U16), F("join_flags", 22, FF_U16), F("addr", 24, FF_SA_STORAGE),
	END };

struct ucma_cmd {
	const char *name;
	struct fstruct in;
	int16_t resp_at;		/* offset of the response pointer, -1: none */
	struct fstruct out;
	int8_t object;			/* 1 creates a cm_id, -1 destroys one */
};

#define CMD(n, fields, size, at, ofields, osize, obj) \
	[n] = { #n, { #n, size, fields }, at, { #n, osize, ofields }, obj }

static const struct ucma_cmd cmds[NCMDS] = {
	CMD(CREATE_ID, create_id, 24, 8, id_resp, 4, 1),
	CMD(DESTROY_ID, destroy_id, 16, 0, events_resp, 4, -1),
	CMD(BIND_IP, bind_ip, 40, -1, NULL, 0, 0),
	CMD(RESOLVE_IP, resolve_ip, 64, -1, NULL, 0, 0),
	CMD(RESOLVE_ROUTE, resolve_route, 8, -1, NULL, 0, 0),
	CMD(QUERY_ROUTE, query, 16, 0, query_route_resp, 208, 0),
	CMD(CONNECT, connect, 288, -1, NULL, 0, 0),
	CMD(LISTEN, listen, 8, -1, NULL, 0, 0),
	CMD(ACCEPT, accept, 296, -1, NULL, 0, 0),
	CMD(REJECT, reject, 264, -1, NULL, 0, 0),
	CMD(DISCONNECT, disconnect, 4, -1, NULL, 0, 0),
	CMD(INIT_QP_ATTR, init_qp_attr, 16, 0, qp_attr, 144, 0),
	CMD(GET_EVENT, get_event, 8, 0, event_resp, 336, 0),
	CMD(GET_OPTION, set_option, 24, -1, NULL, 0, 0),
	CMD(SET_OPTION, set_option, 24, -1, NULL, 0, 0),
	CMD(NOTIFY, notify, 8, -1, NULL, 0, 0),
	CMD(JOIN_IP_MCAST, join_ip_mcast, 48, 0, id_resp, 4, 0),
	CMD(LEAVE_MCAST, destroy_id, 16, 0, events_resp, 4, 0),
	CMD(MIGRATE_ID, migrate_id, 16, 0, events_resp, 4, 0),
	CMD(QUERY, query, 16, 0, NULL, 0, 0),
	CMD(BIND, bind, 136, -1, NULL, 0, 0),
	CMD(RESOLVE_ADDR, resolve_addr, 272, -1, NULL, 0, 0),
	CMD(JOIN_MCAST, join_mcast, 152, 0, id_resp, 4, 0),
};

#define HDR 8u	/* struct rdma_ucm_cmd_hdr */

static const struct ucma_cmd *lookup(const uint8_t *buf, size_t len)
{
	uint32_t c;

	if (len < HDR)
		return NULL;
	c = ld32(buf);
	return c < NCMDS ? &cmds[c] : NULL;
}

const char *ucma_cmd_name(uint32_t cmd)
{
	return cmd < NCMDS ? cmds[cmd].name : NULL;
}

bool ucma_resp_ptr(const uint8_t *buf, size_t len, uint64_t *addr, uint64_t *resp_len)
{
	const struct ucma_cmd *c = lookup(buf, len);

	if (!c || c->resp_at < 0 || len < HDR + (size_t)c->resp_at + 8)
		return false;
	memcpy(addr, buf + HDR + c->resp_at, 8);
	*resp_len = ld16(buf + 6);
	return *resp_len != 0;
}

/* QUERY answers one of three structs, by its option. */
static struct fstruct query_out(const uint8_t *buf, size_t len)
{
	struct fstruct none = { "QUERY", 0, NULL };
	uint32_t option;

	if (len < HDR + 16)
		return none;
	option = ld32(buf + HDR + 12);
	switch (option) {
	case 0:	/* RDMA_USER_CM_QUERY_ADDR */
	case 2:	/* RDMA_USER_CM_QUERY_GID */
		return (struct fstruct){ "QUERY", 280, query_addr_resp };
	case 1:	/* RDMA_USER_CM_QUERY_PATH */
		return (struct fstruct){ "QUERY", 8, query_path_resp };
	}
	return none;
}

const char *ucma_render(struct sbuf *s, bool json, const uint8_t *buf, size_t len,
			const uint8_t *resp, size_t resp_len)
{
	const struct ucma_cmd *c = lookup(buf, len);
	struct fstruct out;
	size_t in_len;

	if (len < HDR) {
		if (json)
			sb_printf(s, "\"short\":%zu", len);
		else
			sb_printf(s, "(%zu bytes, a header needs %u)", len, HDR);
		return NULL;
	}
	in_len = ld16(buf + 4);
	if (json)
		sb_printf(s, "\"cmd\":%u,\"in\":%zu,\"out\":%u", ld32(buf), in_len, ld16(buf + 6));
	else
		sb_printf(s, "cmd %u in %zu out %u", ld32(buf), in_len, ld16(buf + 6));
	if (!c) {
		if (!json)
			sb_puts(s, " (unknown command)");
		return NULL;
	}
	/* The kernel reads `in` bytes after the header. */
	if (in_len > len - HDR)
		in_len = len - HDR;
	sb_puts(s, json ? ",\"fields\":{" : "\n");
	ff_render(s, json, &c->in, buf + HDR, in_len);
	if (json)
		sb_puts(s, "}");
	out = ld32(buf) == QUERY ? query_out(buf, len) : c->out;
	if (resp && out.fields) {
		sb_puts(s, json ? ",\"response\":{" : "\n-> ");
		ff_render(s, json, &out, resp, resp_len);
		if (json)
			sb_puts(s, "}");
	}
	return c->name;
}

int ucma_object(const uint8_t *buf, size_t len, const uint8_t *resp, size_t resp_len,
		uint32_t *id)
{
	const struct ucma_cmd *c = lookup(buf, len);

	if (!c || !c->object)
		return 0;
	if (c->object > 0) {
		if (!resp || resp_len < 4)
			return 0;
		*id = ld32(resp);
		return 1;
	}
	if (len < HDR + 12)
		return 0;
	*id = ld32(buf + HDR + 8);	/* destroy_id.id */
	return -1;
}
