/*
 * The ABI tables against the system's UAPI headers: every enumerator of
 * rdma/ib_user_ioctl_cmds.h, ib_user_verbs.h, ib_user_ioctl_verbs.h and
 * rdma_user_ioctl_cmds.h (listed at build time by uapi-enums.sh) must be
 * named by the tables, under the name its enumerator ends with: objects,
 * methods per object, attributes per method, write() and extended write()
 * commands, and the values of the flag and enum types the decoder prints.
 * An enum this test does not place fails it, so a newer header cannot pass
 * unnoticed. Then the tables' own consistency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <uvio/api.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "abi/abi.h"
#include "uapi_enums.h"

enum role {
	R_OBJECT = 1,	/* uverbs_default_objects */
	R_METHOD,	/* methods of obj */
	R_ATTR,		/* attributes of obj.meth */
	R_UHW,		/* driver-namespace attributes of every method with UHW */
	R_WRITE,	/* write() commands */
	R_WRITE_EX,	/* extended write() commands */
	R_FLAGS,	/* bits of value type vt */
	R_ENUM,		/* values of value type vt */
	R_ATTR_FLAGS,	/* flags of struct ib_uverbs_attr: the decoder's own words */
	R_NONE,		/* not an id the command ABI carries; why in the comment */
};

struct place {
	const char *enum_name;
	enum role role;
	uint16_t obj, meth;
	unsigned int vt;
};

#define P(e, r) { .enum_name = e, .role = r }
#define PM(e, o) { .enum_name = e, .role = R_METHOD, .obj = UVERBS_OBJECT_##o }
#define PA(e, o, m) { .enum_name = e, .role = R_ATTR, .obj = UVERBS_OBJECT_##o, \
		      .meth = UVERBS_METHOD_##m }
#define PV(e, r, t) { .enum_name = e, .role = r, .vt = VT_##t }

static const struct place places[] = {
	P("uverbs_default_objects", R_OBJECT),
	P("anon_UVERBS_ATTR_UHW_IN", R_UHW),		/* up to 6.x */
	P("anon_UVERBS_ID_DRIVER_NS", R_UHW),		/* 7.x */
	P("anon_UVERBS_ATTR_F_MANDATORY", R_ATTR_FLAGS),
	P("ib_uverbs_write_cmds", R_WRITE),
	P("anon_IB_USER_VERBS_EX_CMD_QUERY_DEVICE", R_WRITE_EX),
	/* methods */
	PM("uverbs_methods_device", DEVICE),
	PM("uverbs_methods_pd", PD),
	PM("uverbs_methods_cq", CQ),
	PM("uverbs_methods_qp", QP),
	PM("uverbs_methods_srq", SRQ),
	PM("uverbs_methods_ah", AH),
	PM("uverbs_methods_mr", MR),
	PM("uverbs_methods_mw", MW),
	PM("uverbs_methods_flow", FLOW),
	PM("uverbs_methods_xrcd", XRCD),
	PM("uverbs_methods_rwq_ind_tbl", RWQ_IND_TBL),
	PM("uverbs_methods_wq", WQ),
	PM("uverbs_methods_actions_flow_action_ops", FLOW_ACTION),
	PM("uverbs_methods_dm", DM),
	PM("uverbs_methods_actions_counters_ops", COUNTERS),
	PM("uverbs_method_async_event", ASYNC_EVENT),
	PM("uverbs_methods_dmah", DMAH),
	PM("uverbs_methods_dmabuf", DMABUF),
	/* attributes, per method */
	PA("uverbs_attrs_invoke_write_cmd_attr_ids", DEVICE, INVOKE_WRITE),
	PA("uverbs_attrs_info_handles_id", DEVICE, INFO_HANDLES),
	PA("uverbs_attrs_query_port_cmd_attr_ids", DEVICE, QUERY_PORT),
	PA("uverbs_attrs_get_context_attr_ids", DEVICE, GET_CONTEXT),
	PA("uverbs_attrs_query_context_attr_ids", DEVICE, QUERY_CONTEXT),
	PA("uverbs_attrs_query_gid_table_cmd_attr_ids", DEVICE, QUERY_GID_TABLE),
	PA("uverbs_attrs_query_gid_entry_cmd_attr_ids", DEVICE, QUERY_GID_ENTRY),
	PA("uverbs_attrs_query_port_speed_cmd_attr_ids", DEVICE, QUERY_PORT_SPEED),
	PA("uverbs_attrs_pd_destroy_ids", PD, PD_DESTROY),
	PA("uverbs_attrs_create_cq_cmd_attr_ids", CQ, CQ_CREATE),
	PA("uverbs_attrs_destroy_cq_cmd_attr_ids", CQ, CQ_DESTROY),
	PA("uverbs_attrs_create_qp_cmd_attr_ids", QP, QP_CREATE),
	PA("uverbs_attrs_destroy_qp_cmd_attr_ids", QP, QP_DESTROY),
	PA("uverbs_attrs_create_srq_cmd_attr_ids", SRQ, SRQ_CREATE),
	PA("uverbs_attrs_destroy_srq_cmd_attr_ids", SRQ, SRQ_DESTROY),
	PA("uverbs_attrs_ah_destroy_ids", AH, AH_DESTROY),
	PA("uverbs_attrs_reg_dm_mr_cmd_attr_ids", MR, DM_MR_REG),
	PA("uverbs_attrs_mr_destroy_ids", MR, MR_DESTROY),
	PA("uverbs_attrs_advise_mr_cmd_attr_ids", MR, ADVISE_MR),
	PA("uverbs_attrs_query_mr_cmd_attr_ids", MR, QUERY_MR),
	PA("uverbs_attrs_reg_dmabuf_mr_cmd_attr_ids", MR, REG_DMABUF_MR),
	PA("uverbs_attrs_reg_mr_cmd_attr_ids", MR, REG_MR),
	PA("uverbs_attrs_mw_destroy_ids", MW, MW_DESTROY),
	PA("uverbs_attrs_flow_destroy_ids", FLOW, FLOW_DESTROY),
	PA("uverbs_attrs_xrcd_destroy_ids", XRCD, XRCD_DESTROY),
	PA("uverbs_attrs_rwq_ind_tbl_destroy_ids", RWQ_IND_TBL, RWQ_IND_TBL_DESTROY),
	PA("uverbs_attrs_create_wq_cmd_attr_ids", WQ, WQ_CREATE),
	PA("uverbs_attrs_destroy_wq_cmd_attr_ids", WQ, WQ_DESTROY),
	PA("uverbs_attrs_create_flow_action_esp", FLOW_ACTION, FLOW_ACTION_ESP_CREATE),
	PA("uverbs_attrs_create_flow_action_esp", FLOW_ACTION, FLOW_ACTION_ESP_MODIFY),
	PA("uverbs_attrs_modify_flow_action_esp", FLOW_ACTION, FLOW_ACTION_ESP_MODIFY),
	PA("uverbs_attrs_destroy_flow_action_esp", FLOW_ACTION, FLOW_ACTION_DESTROY),
	PA("uverbs_attrs_alloc_dm_cmd_attr_ids", DM, DM_ALLOC),
	PA("uverbs_attrs_free_dm_cmd_attr_ids", DM, DM_FREE),
	PA("uverbs_attrs_create_counters_cmd_attr_ids", COUNTERS, COUNTERS_CREATE),
	PA("uverbs_attrs_destroy_counters_cmd_attr_ids", COUNTERS, COUNTERS_DESTROY),
	PA("uverbs_attrs_read_counters_cmd_attr_ids", COUNTERS, COUNTERS_READ),
	PA("uverbs_attrs_async_event_create", ASYNC_EVENT, ASYNC_EVENT_ALLOC),
	PA("uverbs_attrs_alloc_dmah_cmd_attr_ids", DMAH, DMAH_ALLOC),
	PA("uverbs_attrs_free_dmah_cmd_attr_ids", DMAH, DMAH_FREE),
	PA("uverbs_attrs_alloc_dmabuf_cmd_attr_ids", DMABUF, DMABUF_ALLOC),
	/* values */
	PV("ib_uverbs_core_support", R_FLAGS, CORE_SUPPORT),
	PV("ib_uverbs_access_flags", R_FLAGS, ACCESS),
	PV("ib_uverbs_srq_type", R_ENUM, SRQ_TYPE),
	PV("ib_uverbs_wq_type", R_ENUM, WQ_TYPE),
	PV("ib_uverbs_wq_flags", R_FLAGS, WQ_FLAGS),
	PV("ib_uverbs_qp_type", R_ENUM, QP_TYPE),
	PV("ib_uverbs_qp_create_flags", R_FLAGS, QP_CREATE),
	PV("ib_uverbs_query_port_cap_flags", R_FLAGS, PORT_CAP),
	PV("ib_uverbs_query_port_flags", R_FLAGS, PORT_FLAGS),
	PV("ib_uverbs_flow_action_esp_keymat", R_ENUM, ESP_KEYMAT),
	PV("ib_uverbs_flow_action_esp_keymat_aes_gcm_iv_algo", R_ENUM, IV_ALGO),
	PV("ib_uverbs_flow_action_esp_replay", R_ENUM, ESP_REPLAY),
	PV("ib_uverbs_flow_action_esp_flags", R_FLAGS, ESP_FLAGS),
	PV("ib_uverbs_read_counters_flags", R_FLAGS, READ_COUNTERS),
	PV("ib_uverbs_advise_mr_advice", R_ENUM, ADVICE),
	PV("ib_uverbs_advise_mr_flag", R_FLAGS, ADVISE_FLAGS),
	PV("rdma_driver_id", R_ENUM, DRIVER_ID),
	PV("ib_uverbs_gid_type", R_ENUM, GID_TYPE),
	PV("ib_uverbs_buffer_type", R_ENUM, BUFFER_TYPE),
	PV("ib_uverbs_ex_create_cq_flags", R_FLAGS, CQ_CREATE),
	PV("ib_uverbs_wc_opcode", R_ENUM, WC_OPCODE),
	PV("ib_uverbs_create_qp_mask", R_FLAGS, CREATE_QP_MASK),
	PV("ib_uverbs_wr_opcode", R_ENUM, WR_OPCODE),
	PV("ib_uverbs_device_cap_flags", R_FLAGS, DEVICE_CAP),
	PV("ib_uverbs_raw_packet_caps", R_FLAGS, RAW_PACKET_CAP),
	PV("ib_uverbs_odp_general_cap_bits", R_FLAGS, ODP_GENERAL),
	PV("ib_uverbs_odp_transport_cap_bits", R_FLAGS, ODP_TRANSPORT),
	/* the IBTA FLUSH placement and selectivity: no struct of the command
	 * ABI carries them (the access and device flags have their own bits) */
	P("ib_placement_type", R_NONE),
	P("ib_selectivity_level", R_NONE),
	/* the mask of supported comp_mask bits, a kernel-side constant */
	P("anon_IB_UVERBS_CREATE_QP_SUP_COMP_MASK", R_NONE),
	/* Debian 11's headers: the highest QP attribute bit, kernel-side */
	P("anon_IB_USER_LEGACY_LAST_QP_ATTR_MASK", R_NONE),
	P("anon_IB_USER_LAST_QP_ATTR_MASK", R_NONE),
};

/* Enumerators that are not names of their own: an alias of a value already
 * named, a range of bits, a zero "default" among flags, a namespace marker. */
static const char *const not_names[] = {
	"RDMA_DRIVER_IRDMA",			/* = RDMA_DRIVER_I40IW */
	"IB_UVERBS_ACCESS_OPTIONAL_RANGE",	/* bits 20..29 */
	"IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO",	/* 0: the default */
	"IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TUNNEL",
	"IB_UVERBS_FLOW_ACTION_ESP_FLAGS_DECRYPT",
	"UVERBS_ID_DRIVER_NS",			/* = UHW_IN, the namespace's start */
	"UVERBS_ID_DRIVER_NS_WITH_UHW",		/* first id drivers may use */
};

struct enumerator {
	const char *enum_name, *ident;
	long long value;
};

static const struct enumerator all[] = {
#define X(e, id) { #e, #id, (long long)(id) },
	UVIO_UAPI_ENUMS(X)
#undef X
};

static unsigned int failures;

static void bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failures++;
}

/* The table's name must be what the enumerator ends with. */
static void check_name(const struct enumerator *e, const char *what, const char *name)
{
	size_t ln, li = strlen(e->ident);

	if (!name) {
		bad("%s (%s = %lld): the ABI table has no %s for it", e->ident, e->enum_name,
		    e->value, what);
		return;
	}
	ln = strlen(name);
	if (ln >= li || strcmp(e->ident + li - ln, name) || e->ident[li - ln - 1] != '_')
		bad("%s (%s = %lld): the table calls this %s \"%s\"", e->ident, e->enum_name,
		    e->value, what, name);
}

static bool listed(const char *ident)
{
	for (size_t i = 0; i < sizeof(not_names) / sizeof(not_names[0]); i++)
		if (!strcmp(not_names[i], ident))
			return true;
	return false;
}

static void check_one(const struct enumerator *e, const struct place *p)
{
	unsigned long long v = (unsigned long long)e->value;

	switch (p->role) {
	case R_OBJECT:
		check_name(e, "object", uvio_object_name((uint16_t)v));
		break;
	case R_METHOD:
		check_name(e, "method", uvio_method_name(p->obj, (uint16_t)v));
		break;
	case R_ATTR:
		check_name(e, "attribute", uvio_attr_name(p->obj, p->meth, (uint16_t)v));
		break;
	case R_UHW:
		/* driver data: named in every method that takes it */
		for (unsigned int i = 0; i < abi_num_objects(); i++) {
			const struct abi_object *o = abi_object_at(i);

			for (unsigned int j = 0; j < o->nmethods; j++)
				if (o->methods[j].flags & ABI_M_UHW)
					check_name(e, "driver attribute",
						   uvio_attr_name(o->id, o->methods[j].id, (uint16_t)v));
		}
		break;
	case R_WRITE:
		check_name(e, "write() command", uvio_write_cmd_name((uint32_t)v));
		break;
	case R_WRITE_EX:
		check_name(e, "extended write() command",
			   uvio_write_cmd_name((uint32_t)v | IB_USER_VERBS_CMD_FLAG_EXTENDED));
		break;
	case R_FLAGS:
		if (!v || (v & (v - 1)))
			bad("%s (%s = 0x%llx): not one bit", e->ident, e->enum_name, v);
		else
			check_name(e, "flag", abi_const_name(p->vt, (uint32_t)__builtin_ctzll(v)));
		break;
	case R_ENUM:
		check_name(e, "value", v <= UINT32_MAX ? abi_const_name(p->vt, (uint32_t)v) : NULL);
		break;
	case R_ATTR_FLAGS:
		if (strcmp(e->ident, "UVERBS_ATTR_F_MANDATORY") &&
		    strcmp(e->ident, "UVERBS_ATTR_F_VALID_OUTPUT"))
			bad("%s: an attribute flag the decoder does not name", e->ident);
		break;
	case R_NONE:
		break;
	}
}

static void every_enumerator_named(void **state)
{
	unsigned int checked = 0;
	(void)state;

	failures = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const struct enumerator *e = &all[i];
		bool placed = false;

		if (listed(e->ident))
			continue;
		for (size_t j = 0; j < sizeof(places) / sizeof(places[0]); j++) {
			if (strcmp(places[j].enum_name, e->enum_name))
				continue;
			placed = true;
			check_one(e, &places[j]);
			checked++;
		}
		if (!placed)
			bad("%s (enum %s): an enum the ABI tables do not place (a newer header?)",
			    e->ident, e->enum_name);
	}
	printf("%u enumerators of the UAPI headers, %u checks against the tables\n",
	       (unsigned int)(sizeof(all) / sizeof(all[0])), checked);
	if (failures)
		fail_msg("%u enumerators not named by the ABI tables", failures);
}

/* The tables themselves: names present, ids unique, lengths sane, every
 * value type defined, struct fields inside their struct and in order. */
static void tables_consistent(void **state)
{
	unsigned int methods = 0, attrs = 0, writes = 0;
	(void)state;

	for (unsigned int i = 0; i < abi_num_objects(); i++) {
		const struct abi_object *o = abi_object_at(i);

		assert_non_null(o);
		assert_true(abi_str(o->name)[0]);
		assert_ptr_equal(abi_object(o->id), o);
		for (unsigned int j = 0; j < o->nmethods; j++) {
			const struct abi_method *m = &o->methods[j];

			assert_ptr_equal(abi_method(o->id, m->id), m);
			methods++;
			for (unsigned int k = 0; k < m->nattrs; k++) {
				const struct abi_attr *a = &m->attrs[k];

				if (abi_attr(o->id, m->id, a->id) != a)
					fail_msg("%s.%s: attribute %u twice", abi_str(o->name),
						 abi_str(m->name), a->id);
				assert_true(a->type >= AT_PTR_IN && a->type <= AT_IDRS);
				assert_true(a->vtype < VT__COUNT);
				assert_true(a->min_len <= a->max_len);
				if (a->type == AT_IDR || a->type == AT_FD)
					assert_non_null(abi_object(a->obj));
				attrs++;
			}
		}
		for (unsigned int j = 0; j < o->nwrites; j++) {
			const struct abi_write *w = &o->writes[j];
			uint32_t cmd = w->cmd | (w->flags & ABI_W_EX ? IB_USER_VERBS_CMD_FLAG_EXTENDED : 0);
			const struct abi_object *owner = NULL;

			assert_ptr_equal(abi_write(cmd, &owner), w);
			assert_ptr_equal(owner, o);
			assert_true(w->flags & ABI_W_NONE ? w->req == VT_NONE : w->req != VT_NONE);
			/* a command that answers names its response buffer first */
			if (w->flags & ABI_W_RESP)
				assert_string_equal(abi_str(((const struct abi_field *)
							     abi_vtype(w->req)->items)->name), "response");
			writes++;
		}
	}
	for (unsigned int vt = 1; vt < VT__COUNT; vt++) {
		const struct abi_vtype *t = &abi_vtypes[vt];

		if (!abi_str(t->name)[0] || (t->kind >= V_FLAGS && t->kind <= V_STRUCT && !t->items))
			fail_msg("value type %u is not defined in lib/abi/types.c", vt);
		if (t->kind == V_STRUCT) {
			const struct abi_field *f = t->items;
			unsigned int end = 0;

			for (unsigned int k = 0; k < t->count; k++) {
				if (f[k].off < end || f[k].off + f[k].size > t->size)
					fail_msg("%s.%s: at %u, size %u, in %u bytes", abi_str(t->name),
						 abi_str(f[k].name), f[k].off, f[k].size, t->size);
				end = f[k].off + f[k].size;
				assert_true(f[k].vtype < VT__COUNT);
			}
		}
	}
	printf("%u objects, %u methods, %u attributes, %u write() commands\n",
	       abi_num_objects(), methods, attrs, writes);
}

/* The public descriptions of the tables. */
static void describe(void **state)
{
	UVIO_OPTS(uvio_attr_desc, a);
	UVIO_OPTS(uvio_write_desc, w);
	uint32_t cmd;
	unsigned int n = 0, ex = 0;
	(void)state;

	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
					    UVERBS_ATTR_CREATE_CQ_HANDLE, &a), 0);
	assert_string_equal(a.name, "HANDLE");
	assert_int_equal(a.kind, UVIO_KIND_IDR_NEW);
	assert_int_equal(a.flags, UVIO_ATTR_MANDATORY);
	assert_int_equal(a.object_id, UVERBS_OBJECT_CQ);
	assert_string_equal(a.access, "new");
	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE,
					    UVERBS_ATTR_CREATE_QP_CAP, &a), 0);
	assert_int_equal(a.kind, UVIO_KIND_PTR_IN);
	assert_int_equal(a.flags, UVIO_ATTR_MANDATORY | UVIO_ATTR_ZERO_TAIL);
	assert_int_equal(a.min_len, 20);
	assert_int_equal(a.object_id, UINT16_MAX);
	assert_null(a.access);
	assert_string_equal(a.type, "qp_cap");
	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE,
					    UVERBS_ATTR_UHW_OUT, &a), 0);
	assert_int_equal(a.flags, UVIO_ATTR_DRIVER);
	assert_int_equal(a.max_len, UVIO_LEN_ANY);
	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY,
					    UVERBS_ATTR_UHW_IN, &a), -ENOENT);
	assert_int_equal(uvio_describe_attr(0x3ff, 0, 0, &a), -ENOENT);
	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_CQ, 0, 0, NULL), -EINVAL);

	/* an older, shorter struct: nothing past its sz is written */
	struct {
		struct uvio_attr_desc d;
		char guard[8];
	} old;
	memset(&old, 0x5a, sizeof(old));
	old.d.sz = offsetof(struct uvio_attr_desc, kind);
	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 0, &old.d), 0);
	assert_string_equal(old.d.name, "HANDLE");
	assert_int_equal(((unsigned char *)&old)[offsetof(struct uvio_attr_desc, kind)], 0x5a);
	old.d.sz = 4;
	assert_int_equal(uvio_describe_attr(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 0, &old.d),
			 -EINVAL);

	assert_int_equal(uvio_describe_write_cmd(IB_USER_VERBS_CMD_CREATE_CQ, &w), 0);
	assert_string_equal(w.name, "CREATE_CQ");
	assert_int_equal(w.object_id, UVERBS_OBJECT_CQ);
	assert_int_equal(w.flags, UVIO_WRITE_DRIVER_DATA | UVIO_WRITE_RESPONSE);
	assert_string_equal(w.request, "create_cq");
	assert_int_equal(w.request_len, sizeof(struct ib_uverbs_create_cq));
	assert_int_equal(w.response_len, sizeof(struct ib_uverbs_create_cq_resp));
	assert_int_equal(uvio_describe_write_cmd(IB_USER_VERBS_CMD_FLAG_EXTENDED |
						 IB_USER_VERBS_EX_CMD_MODIFY_QP, &w), 0);
	assert_int_equal(w.flags, UVIO_WRITE_EXTENDED);
	assert_string_equal(w.response, "ex_modify_qp_resp");
	assert_int_equal(uvio_describe_write_cmd(IB_USER_VERBS_CMD_FLAG_EXTENDED |
						 IB_USER_VERBS_CMD_ALLOC_PD, &w), -ENOENT);
	assert_int_equal(uvio_describe_write_cmd(IB_USER_VERBS_CMD_PEEK_CQ, &w), 0);
	assert_int_equal(w.flags, UVIO_WRITE_UNHANDLED);
	assert_null(w.request);
	while (!uvio_known_write_cmd(n, &cmd)) {
		assert_int_equal(uvio_describe_write_cmd(cmd, &w), 0);
		ex += !!(cmd & IB_USER_VERBS_CMD_FLAG_EXTENDED);
		n++;
	}
	/* 41 commands and 12 extended ones in the headers */
	assert_int_equal(n, 53);
	assert_int_equal(ex, 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_enumerator_named),
		cmocka_unit_test(tables_consistent),
		cmocka_unit_test(describe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
