// SPDX-License-Identifier: MIT
/*
 * Names of the core uverbs objects, methods and attributes, for the decoder
 * and error messages. Ids come from the system's UAPI headers; the kind says
 * how the kernel treats each attribute, which the bytes alone do not tell.
 */
#include <errno.h>
#include <stddef.h>
#include <rdma/ib_user_verbs.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "names.h"
#include "uapi.h"

struct attr_desc {
	uint16_t id;
	uint8_t kind;
	const char *name;
};

struct method_desc {
	uint16_t object, method;
	const char *name;
	const struct attr_desc *attrs;
	size_t nattrs;
};

#define A(id, kind, name) { id, UVIO_KIND_##kind, name }
#define M(obj, meth, name, tbl) { UVERBS_OBJECT_##obj, meth, name, tbl, sizeof(tbl) / sizeof(tbl[0]) }
#define M0(obj, meth, name) { UVERBS_OBJECT_##obj, meth, name, NULL, 0 }

static const char *const object_names[] = {
	[UVERBS_OBJECT_DEVICE] = "DEVICE",
	[UVERBS_OBJECT_PD] = "PD",
	[UVERBS_OBJECT_COMP_CHANNEL] = "COMP_CHANNEL",
	[UVERBS_OBJECT_CQ] = "CQ",
	[UVERBS_OBJECT_QP] = "QP",
	[UVERBS_OBJECT_SRQ] = "SRQ",
	[UVERBS_OBJECT_AH] = "AH",
	[UVERBS_OBJECT_MR] = "MR",
	[UVERBS_OBJECT_MW] = "MW",
	[UVERBS_OBJECT_FLOW] = "FLOW",
	[UVERBS_OBJECT_XRCD] = "XRCD",
	[UVERBS_OBJECT_RWQ_IND_TBL] = "RWQ_IND_TBL",
	[UVERBS_OBJECT_WQ] = "WQ",
	[UVERBS_OBJECT_FLOW_ACTION] = "FLOW_ACTION",
	[UVERBS_OBJECT_DM] = "DM",
	[UVERBS_OBJECT_COUNTERS] = "COUNTERS",
	[UVERBS_OBJECT_ASYNC_EVENT] = "ASYNC_EVENT",
};

static const struct attr_desc invoke_write[] = {
	A(UVERBS_ATTR_CORE_IN, PTR_IN, "CORE_IN"),
	A(UVERBS_ATTR_CORE_OUT, PTR_OUT, "CORE_OUT"),
	A(UVERBS_ATTR_WRITE_CMD, PTR_IN, "WRITE_CMD"),
};
static const struct attr_desc info_handles[] = {
	A(UVERBS_ATTR_INFO_OBJECT_ID, PTR_IN, "OBJECT_ID"),
	A(UVERBS_ATTR_INFO_TOTAL_HANDLES, PTR_OUT, "TOTAL_HANDLES"),
	A(UVERBS_ATTR_INFO_HANDLES_LIST, PTR_OUT, "HANDLES_LIST"),
};
static const struct attr_desc query_port[] = {
	A(UVERBS_ATTR_QUERY_PORT_PORT_NUM, PTR_IN, "PORT_NUM"),
	A(UVERBS_ATTR_QUERY_PORT_RESP, PTR_OUT, "RESP"),
};
static const struct attr_desc get_context[] = {
	A(UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, PTR_OUT, "NUM_COMP_VECTORS"),
	A(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, PTR_OUT, "CORE_SUPPORT"),
};
static const struct attr_desc query_context[] = {
	A(UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS, PTR_OUT, "NUM_COMP_VECTORS"),
	A(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, PTR_OUT, "CORE_SUPPORT"),
};
static const struct attr_desc query_gid_table[] = {
	A(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, PTR_IN, "ENTRY_SIZE"),
	A(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, PTR_IN, "FLAGS"),
	A(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, PTR_OUT, "RESP_ENTRIES"),
	A(UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, PTR_OUT, "RESP_NUM_ENTRIES"),
};
static const struct attr_desc query_gid_entry[] = {
	A(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, PTR_IN, "PORT"),
	A(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, PTR_IN, "GID_INDEX"),
	A(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, PTR_IN, "FLAGS"),
	A(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, PTR_OUT, "RESP_ENTRY"),
};
static const struct attr_desc cq_create[] = {
	A(UVERBS_ATTR_CREATE_CQ_HANDLE, IDR_NEW, "HANDLE"),
	A(UVERBS_ATTR_CREATE_CQ_CQE, PTR_IN, "CQE"),
	A(UVERBS_ATTR_CREATE_CQ_USER_HANDLE, PTR_IN, "USER_HANDLE"),
	A(UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, FD, "COMP_CHANNEL"),
	A(UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, PTR_IN, "COMP_VECTOR"),
	A(UVERBS_ATTR_CREATE_CQ_FLAGS, PTR_IN, "FLAGS"),
	A(UVERBS_ATTR_CREATE_CQ_RESP_CQE, PTR_OUT, "RESP_CQE"),
	A(UVERBS_ATTR_CREATE_CQ_EVENT_FD, FD, "EVENT_FD"),
};
static const struct attr_desc cq_destroy[] = {
	A(UVERBS_ATTR_DESTROY_CQ_HANDLE, IDR, "HANDLE"),
	A(UVERBS_ATTR_DESTROY_CQ_RESP, PTR_OUT, "RESP"),
};
static const struct attr_desc qp_destroy[] = {
	A(UVERBS_ATTR_DESTROY_QP_HANDLE, IDR, "HANDLE"),
	A(UVERBS_ATTR_DESTROY_QP_RESP, PTR_OUT, "RESP"),
};
static const struct attr_desc srq_destroy[] = {
	A(UVERBS_ATTR_DESTROY_SRQ_HANDLE, IDR, "HANDLE"),
	A(UVERBS_ATTR_DESTROY_SRQ_RESP, PTR_OUT, "RESP"),
};
static const struct attr_desc wq_destroy[] = {
	A(UVERBS_ATTR_DESTROY_WQ_HANDLE, IDR, "HANDLE"),
	A(UVERBS_ATTR_DESTROY_WQ_RESP, PTR_OUT, "RESP"),
};
static const struct attr_desc handle_only[] = {
	A(0, IDR, "HANDLE"),
};
static const struct attr_desc mr_query[] = {
	A(UVERBS_ATTR_QUERY_MR_HANDLE, IDR, "HANDLE"),
	A(UVERBS_ATTR_QUERY_MR_RESP_LKEY, PTR_OUT, "RESP_LKEY"),
	A(UVERBS_ATTR_QUERY_MR_RESP_RKEY, PTR_OUT, "RESP_RKEY"),
	A(UVERBS_ATTR_QUERY_MR_RESP_LENGTH, PTR_OUT, "RESP_LENGTH"),
	A(UVERBS_ATTR_QUERY_MR_RESP_IOVA, PTR_OUT, "RESP_IOVA"),
};
static const struct attr_desc mr_reg_dmabuf[] = {
	A(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, IDR_NEW, "HANDLE"),
	A(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, IDR, "PD_HANDLE"),
	A(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, PTR_IN, "OFFSET"),
	A(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, PTR_IN, "LENGTH"),
	A(UVERBS_ATTR_REG_DMABUF_MR_IOVA, PTR_IN, "IOVA"),
	A(UVERBS_ATTR_REG_DMABUF_MR_FD, FD, "FD"),
	A(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, PTR_IN, "ACCESS_FLAGS"),
	A(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, PTR_OUT, "RESP_LKEY"),
	A(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, PTR_OUT, "RESP_RKEY"),
};
static const struct attr_desc async_alloc[] = {
	A(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE, FD_NEW, "FD_HANDLE"),
};
static const struct attr_desc counters_read[] = {
	A(UVERBS_ATTR_READ_COUNTERS_HANDLE, IDR, "HANDLE"),
	A(UVERBS_ATTR_READ_COUNTERS_BUFF, PTR_OUT, "BUFF"),
	A(UVERBS_ATTR_READ_COUNTERS_FLAGS, PTR_IN, "FLAGS"),
};
static const struct attr_desc counters_create[] = {
	A(UVERBS_ATTR_CREATE_COUNTERS_HANDLE, IDR_NEW, "HANDLE"),
};
static const struct attr_desc dm_alloc[] = {
	A(UVERBS_ATTR_ALLOC_DM_HANDLE, IDR_NEW, "HANDLE"),
	A(UVERBS_ATTR_ALLOC_DM_LENGTH, PTR_IN, "LENGTH"),
	A(UVERBS_ATTR_ALLOC_DM_ALIGNMENT, PTR_IN, "ALIGNMENT"),
};

static const struct method_desc methods[] = {
	M(DEVICE, UVERBS_METHOD_INVOKE_WRITE, "INVOKE_WRITE", invoke_write),
	M(DEVICE, UVERBS_METHOD_INFO_HANDLES, "INFO_HANDLES", info_handles),
	M(DEVICE, UVERBS_METHOD_QUERY_PORT, "QUERY_PORT", query_port),
	M(DEVICE, UVERBS_METHOD_GET_CONTEXT, "GET_CONTEXT", get_context),
	M(DEVICE, UVERBS_METHOD_QUERY_CONTEXT, "QUERY_CONTEXT", query_context),
	M(DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, "QUERY_GID_TABLE", query_gid_table),
	M(DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, "QUERY_GID_ENTRY", query_gid_entry),
	M(PD, UVERBS_METHOD_PD_DESTROY, "DESTROY", handle_only),
	M(CQ, UVERBS_METHOD_CQ_CREATE, "CREATE", cq_create),
	M(CQ, UVERBS_METHOD_CQ_DESTROY, "DESTROY", cq_destroy),
	M0(QP, UVERBS_METHOD_QP_CREATE, "CREATE"),
	M(QP, UVERBS_METHOD_QP_DESTROY, "DESTROY", qp_destroy),
	M0(SRQ, UVERBS_METHOD_SRQ_CREATE, "CREATE"),
	M(SRQ, UVERBS_METHOD_SRQ_DESTROY, "DESTROY", srq_destroy),
	M(AH, UVERBS_METHOD_AH_DESTROY, "DESTROY", handle_only),
	M0(MR, UVERBS_METHOD_DM_MR_REG, "DM_MR_REG"),
	M(MR, UVERBS_METHOD_MR_DESTROY, "DESTROY", handle_only),
	M0(MR, UVERBS_METHOD_ADVISE_MR, "ADVISE_MR"),
	M(MR, UVERBS_METHOD_QUERY_MR, "QUERY_MR", mr_query),
	M(MR, UVERBS_METHOD_REG_DMABUF_MR, "REG_DMABUF_MR", mr_reg_dmabuf),
	M(MW, UVERBS_METHOD_MW_DESTROY, "DESTROY", handle_only),
	M(FLOW, UVERBS_METHOD_FLOW_DESTROY, "DESTROY", handle_only),
	M(XRCD, UVERBS_METHOD_XRCD_DESTROY, "DESTROY", handle_only),
	M(RWQ_IND_TBL, UVERBS_METHOD_RWQ_IND_TBL_DESTROY, "DESTROY", handle_only),
	M0(WQ, UVERBS_METHOD_WQ_CREATE, "CREATE"),
	M(WQ, UVERBS_METHOD_WQ_DESTROY, "DESTROY", wq_destroy),
	M0(FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_CREATE, "ESP_CREATE"),
	M(FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_DESTROY, "DESTROY", handle_only),
	M0(FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY, "ESP_MODIFY"),
	M(DM, UVERBS_METHOD_DM_ALLOC, "ALLOC", dm_alloc),
	M(DM, UVERBS_METHOD_DM_FREE, "FREE", handle_only),
	M(COUNTERS, UVERBS_METHOD_COUNTERS_CREATE, "CREATE", counters_create),
	M(COUNTERS, UVERBS_METHOD_COUNTERS_DESTROY, "DESTROY", handle_only),
	M(COUNTERS, UVERBS_METHOD_COUNTERS_READ, "READ", counters_read),
	M(ASYNC_EVENT, UVERBS_METHOD_ASYNC_EVENT_ALLOC, "ALLOC", async_alloc),
};

static const struct method_desc *find_method(uint16_t object_id, uint16_t method_id)
{
	size_t i;

	for (i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		if (methods[i].object == object_id && methods[i].method == method_id)
			return &methods[i];
	return NULL;
}

static const struct attr_desc *find_attr_desc(uint16_t object_id, uint16_t method_id,
					      uint16_t attr_id)
{
	static const struct attr_desc uhw[] = {
		A(UVERBS_ATTR_UHW_IN, PTR_IN, "UHW_IN"),
		A(UVERBS_ATTR_UHW_OUT, PTR_OUT, "UHW_OUT"),
	};
	const struct method_desc *m;
	size_t i;

	if (attr_id == UVERBS_ATTR_UHW_IN || attr_id == UVERBS_ATTR_UHW_OUT)
		return &uhw[attr_id - UVERBS_ATTR_UHW_IN];
	m = find_method(object_id, method_id);
	for (i = 0; m && i < m->nattrs; i++)
		if (m->attrs[i].id == attr_id)
			return &m->attrs[i];
	return NULL;
}

UVIO_API const char *uvio_object_name(uint16_t object_id)
{
	if (object_id < sizeof(object_names) / sizeof(object_names[0]))
		return object_names[object_id];
	return NULL;
}

UVIO_API const char *uvio_method_name(uint16_t object_id, uint16_t method_id)
{
	const struct method_desc *m = find_method(object_id, method_id);

	return m ? m->name : NULL;
}

UVIO_API const char *uvio_attr_name(uint16_t object_id, uint16_t method_id,
				    uint16_t attr_id)
{
	const struct attr_desc *a = find_attr_desc(object_id, method_id, attr_id);

	return a ? a->name : NULL;
}

/* Kind from the table, 0 when unknown. */
int uvio_attr_known_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	const struct attr_desc *a = find_attr_desc(object_id, method_id, attr_id);

	return a ? a->kind : 0;
}

UVIO_API const char *uvio_kind_name(enum uvio_attr_kind kind)
{
	switch (kind) {
	case UVIO_KIND_PTR_IN: return "ptr-in";
	case UVIO_KIND_PTR_OUT: return "ptr-out";
	case UVIO_KIND_IDR: return "idr";
	case UVIO_KIND_IDR_NEW: return "idr-new";
	case UVIO_KIND_FD: return "fd";
	case UVIO_KIND_FD_NEW: return "fd-new";
	case UVIO_KIND_ENUM_IN: return "enum-in";
	case UVIO_KIND_IDRS: return "idrs";
	}
	return NULL;
}

UVIO_API int uvio_known_method(unsigned int index, uint16_t *object_id, uint16_t *method_id)
{
	if (index >= sizeof(methods) / sizeof(methods[0]))
		return -ENOENT;
	*object_id = methods[index].object;
	*method_id = methods[index].method;
	return 0;
}

UVIO_API int uvio_known_attr(uint16_t object_id, uint16_t method_id, unsigned int index,
			     uint16_t *attr_id)
{
	const struct method_desc *m = find_method(object_id, method_id);

	if (!m || index >= m->nattrs)
		return -ENOENT;
	*attr_id = m->attrs[index].id;
	return 0;
}

UVIO_API const char *uvio_write_cmd_name(uint32_t command)
{
	static const char *const names[] = {
		[IB_USER_VERBS_CMD_GET_CONTEXT] = "GET_CONTEXT",
		[IB_USER_VERBS_CMD_QUERY_DEVICE] = "QUERY_DEVICE",
		[IB_USER_VERBS_CMD_QUERY_PORT] = "QUERY_PORT",
		[IB_USER_VERBS_CMD_ALLOC_PD] = "ALLOC_PD",
		[IB_USER_VERBS_CMD_DEALLOC_PD] = "DEALLOC_PD",
		[IB_USER_VERBS_CMD_CREATE_AH] = "CREATE_AH",
		[IB_USER_VERBS_CMD_MODIFY_AH] = "MODIFY_AH",
		[IB_USER_VERBS_CMD_QUERY_AH] = "QUERY_AH",
		[IB_USER_VERBS_CMD_DESTROY_AH] = "DESTROY_AH",
		[IB_USER_VERBS_CMD_REG_MR] = "REG_MR",
		[IB_USER_VERBS_CMD_REG_SMR] = "REG_SMR",
		[IB_USER_VERBS_CMD_REREG_MR] = "REREG_MR",
		[IB_USER_VERBS_CMD_QUERY_MR] = "QUERY_MR",
		[IB_USER_VERBS_CMD_DEREG_MR] = "DEREG_MR",
		[IB_USER_VERBS_CMD_ALLOC_MW] = "ALLOC_MW",
		[IB_USER_VERBS_CMD_BIND_MW] = "BIND_MW",
		[IB_USER_VERBS_CMD_DEALLOC_MW] = "DEALLOC_MW",
		[IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL] = "CREATE_COMP_CHANNEL",
		[IB_USER_VERBS_CMD_CREATE_CQ] = "CREATE_CQ",
		[IB_USER_VERBS_CMD_RESIZE_CQ] = "RESIZE_CQ",
		[IB_USER_VERBS_CMD_DESTROY_CQ] = "DESTROY_CQ",
		[IB_USER_VERBS_CMD_POLL_CQ] = "POLL_CQ",
		[IB_USER_VERBS_CMD_PEEK_CQ] = "PEEK_CQ",
		[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] = "REQ_NOTIFY_CQ",
		[IB_USER_VERBS_CMD_CREATE_QP] = "CREATE_QP",
		[IB_USER_VERBS_CMD_QUERY_QP] = "QUERY_QP",
		[IB_USER_VERBS_CMD_MODIFY_QP] = "MODIFY_QP",
		[IB_USER_VERBS_CMD_DESTROY_QP] = "DESTROY_QP",
		[IB_USER_VERBS_CMD_POST_SEND] = "POST_SEND",
		[IB_USER_VERBS_CMD_POST_RECV] = "POST_RECV",
		[IB_USER_VERBS_CMD_ATTACH_MCAST] = "ATTACH_MCAST",
		[IB_USER_VERBS_CMD_DETACH_MCAST] = "DETACH_MCAST",
		[IB_USER_VERBS_CMD_CREATE_SRQ] = "CREATE_SRQ",
		[IB_USER_VERBS_CMD_MODIFY_SRQ] = "MODIFY_SRQ",
		[IB_USER_VERBS_CMD_QUERY_SRQ] = "QUERY_SRQ",
		[IB_USER_VERBS_CMD_DESTROY_SRQ] = "DESTROY_SRQ",
		[IB_USER_VERBS_CMD_POST_SRQ_RECV] = "POST_SRQ_RECV",
		[IB_USER_VERBS_CMD_OPEN_XRCD] = "OPEN_XRCD",
		[IB_USER_VERBS_CMD_CLOSE_XRCD] = "CLOSE_XRCD",
		[IB_USER_VERBS_CMD_CREATE_XSRQ] = "CREATE_XSRQ",
		[IB_USER_VERBS_CMD_OPEN_QP] = "OPEN_QP",
	};

	if (command < sizeof(names) / sizeof(names[0]))
		return names[command];
	return NULL;
}
