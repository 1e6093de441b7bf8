// SPDX-License-Identifier: MIT
/*
 * The connection manager's write() ABI (/dev/infiniband/rdma_cm,
 * <rdma/rdma_user_cm.h>, ABI version 4), described once: each command's
 * name, the struct it carries and the one the kernel answers with, field by
 * field, and the events. The typed commands (lib/cm/cm.c) take their names
 * and sizes from here, the decoder (lib/cmd/decode_cm.c) and so uverbs-decode
 * and uverbs-trace their fields. Offsets are written out as the ABI's facts
 * and checked against the system header below.
 */
#include <stddef.h>
#include <string.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_cm.h>

#include "abi/bytes.h"
#include "abi/rdma_cm.h"

#define F(n, o, f) { n, o, f, 0, -1, NULL, 0 }
#define D(n, o, cap, len_at) { n, o, FF_DATA, cap, len_at, NULL, 0 }
#define S(n, o, sub, size) { n, o, FF_STRUCT, 0, -1, sub, size }
#define END { NULL, 0, 0, 0, -1, NULL, 0 }

/* The commands numbered as <rdma/rdma_user_cm.h> numbers them; Linux 7.x
 * added two after JOIN_MCAST that this library does not know. */
#define NCMDS (RDMA_USER_CM_CMD_JOIN_MCAST + 1)
_Static_assert(NCMDS == ABI_CM_NCMDS, "RDMA_USER_CM_CMD_JOIN_MCAST");

/* The offsets below, against the header of this build. */
#define AT(type, field, off) (offsetof(struct type, field) == (off))
_Static_assert(AT(rdma_ucm_create_id, response, 8) && AT(rdma_ucm_create_id, ps, 16) &&
	       AT(rdma_ucm_create_id, qp_type, 18) && AT(rdma_ucm_destroy_id, id, 8) &&
	       AT(rdma_ucm_bind_ip, id, 36) && AT(rdma_ucm_bind, addr, 8) &&
	       AT(rdma_ucm_resolve_ip, id, 56) && AT(rdma_ucm_resolve_addr, src_addr, 16) &&
	       AT(rdma_ucm_resolve_addr, dst_addr, 144) &&
	       AT(rdma_ucm_query_route_resp, src_addr, 136) &&
	       AT(rdma_ucm_query_route_resp, num_paths, 192) &&
	       AT(rdma_ucm_query_route_resp, ibdev_index, 200) &&
	       AT(rdma_ucm_query_addr_resp, src_addr, 16) &&
	       AT(rdma_ucm_query_addr_resp, ibdev_index, 272) &&
	       AT(rdma_ucm_conn_param, private_data_len, 264) &&
	       AT(rdma_ucm_conn_param, valid, 271) && AT(rdma_ucm_connect, id, 272) &&
	       AT(rdma_ucm_connect, ece, 280) && AT(rdma_ucm_accept, id, 280) &&
	       AT(rdma_ucm_accept, ece, 288) && AT(rdma_ucm_reject, reason, 5) &&
	       AT(rdma_ucm_reject, private_data, 8) && AT(rdma_ucm_init_qp_attr, qp_state, 12) &&
	       AT(rdma_ucm_join_ip_mcast, id, 44) && AT(rdma_ucm_join_mcast, addr, 24) &&
	       AT(rdma_ucm_event_resp, param, 20) && AT(rdma_ucm_event_resp, ece, 328) &&
	       AT(rdma_ucm_set_option, optlen, 20) && AT(rdma_ucm_migrate_id, fd, 12) &&
	       AT(rdma_ucm_notify, event, 4) && AT(ib_uverbs_qp_attr, ah_attr, 40) &&
	       AT(ib_uverbs_qp_attr, pkey_index, 124) && AT(ib_uverbs_qp_attr, port_num, 133),
	       "rdma_cm field offsets");
#define SZ(type, n) (sizeof(struct type) == (n))
_Static_assert(SZ(rdma_ucm_cmd_hdr, 8) && SZ(rdma_ucm_create_id, 24) &&
	       SZ(rdma_ucm_destroy_id, 16) && SZ(rdma_ucm_bind_ip, 40) &&
	       SZ(rdma_ucm_resolve_ip, 64) && SZ(rdma_ucm_resolve_route, 8) &&
	       SZ(rdma_ucm_query, 16) && SZ(rdma_ucm_connect, 288) && SZ(rdma_ucm_listen, 8) &&
	       SZ(rdma_ucm_accept, 296) && SZ(rdma_ucm_reject, 264) &&
	       SZ(rdma_ucm_disconnect, 4) && SZ(rdma_ucm_init_qp_attr, 16) &&
	       SZ(rdma_ucm_get_event, 8) && SZ(rdma_ucm_set_option, 24) &&
	       SZ(rdma_ucm_notify, 8) && SZ(rdma_ucm_join_ip_mcast, 48) &&
	       SZ(rdma_ucm_migrate_id, 16) && SZ(rdma_ucm_bind, 136) &&
	       SZ(rdma_ucm_resolve_addr, 272) && SZ(rdma_ucm_join_mcast, 152) &&
	       SZ(rdma_ucm_event_resp, 336) && SZ(rdma_ucm_conn_param, 272) &&
	       SZ(rdma_ucm_query_addr_resp, 280) && SZ(rdma_ucm_query_route_resp, 208) &&
	       SZ(ib_uverbs_qp_attr, 144), "rdma_cm struct sizes");

static const char *const event_names[] = {
	"ADDR_RESOLVED", "ADDR_ERROR", "ROUTE_RESOLVED", "ROUTE_ERROR", "CONNECT_REQUEST",
	"CONNECT_RESPONSE", "CONNECT_ERROR", "UNREACHABLE", "REJECTED", "ESTABLISHED",
	"DISCONNECTED", "DEVICE_REMOVAL", "MULTICAST_JOIN", "MULTICAST_ERROR", "ADDR_CHANGE",
	"TIMEWAIT_EXIT",
};
_Static_assert(sizeof(event_names) / sizeof(event_names[0]) == ABI_CM_NEVENTS, "event names");

const char *abi_cm_event_name(uint32_t event)
{
	return event < ABI_CM_NEVENTS ? event_names[event] : NULL;
}

size_t ff_size(const struct ffield *f)
{
	switch (f->fmt) {
	case FF_U8: case FF_QPT: return 1;
	case FF_U16: case FF_X16: case FF_BE16: case FF_PS: return 2;
	case FF_U32: case FF_X32: case FF_BE32: case FF_QPS: case FF_CM_EVENT: return 4;
	case FF_U64: case FF_X64: case FF_BE64: case FF_PTR: return 8;
	case FF_SA_IN6: return 28;
	case FF_SA_STORAGE: return 128;
	case FF_GID: return 16;
	case FF_DATA: return f->aux;
	case FF_STRUCT: return f->sub_size;
	}
	return 0;
}


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

#define CMD(n, fields, size, at, ofields, osize, obj) \
	[RDMA_USER_CM_CMD_##n] = { #n, { #n, size, fields }, at, { #n, osize, ofields }, obj }

static const struct abi_cm_cmd cmds[NCMDS] = {
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

const struct abi_cm_cmd *abi_cm_cmd(uint32_t cmd)
{
	return cmd < NCMDS ? &cmds[cmd] : NULL;
}

struct fstruct abi_cm_query_out(uint32_t option)
{
	switch (option) {
	case RDMA_USER_CM_QUERY_ADDR:
	case RDMA_USER_CM_QUERY_GID:
		return (struct fstruct){ "QUERY", 280, query_addr_resp };
	case RDMA_USER_CM_QUERY_PATH:
		return (struct fstruct){ "QUERY", 8, query_path_resp };
	}
	return (struct fstruct){ "QUERY", 0, NULL };
}
