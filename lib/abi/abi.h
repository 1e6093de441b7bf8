/* SPDX-License-Identifier: MIT */
/*
 * The uverbs ABI as data: a userspace mirror of the kernel's declarative
 * method trees (objects, their ioctl methods, each method's attributes) and
 * of its write() commands with their core structs, plus how to print every
 * value. One file per object under lib/abi/ holds that object's rows; the
 * decoder, the names, the probes and uverbs-info read them through the
 * lookups at the end of this header.
 *
 * Ids come from the system's UAPI headers; those an older header lacks come
 * from lib/abi/uapi.h. Names are offsets into one string pool (no
 * relocation per name): write N(NAME) for a name, F(struct, member, type)
 * for a struct field. lib/abi/gen-strings.sh collects both into the pool.
 *
 * Adding to the ABI:
 * - a method or an attribute: a row in the object's file, as the kernel's
 *   DECLARE_UVERBS_NAMED_METHOD says it (type, access, mandatory, length);
 * - a write() command: a WRITE() row, its structs in types.c (F() per field);
 * - a new object: a file like the others, listed in ABI_OBJECTS below and in
 *   lib/CMakeLists.txt;
 * - an id the oldest supported headers (5.10) lack: in lib/abi/uapi.h,
 *   under the version of the headers that added it;
 * - a hardware driver's part (its driver data, objects, methods and
 *   attributes): one file, lib/abi/drivers/<driver>.c as mlx5.c is, listed
 *   in ABI_DRIVERS below with a slot of its own and in lib/CMakeLists.txt;
 *   the decoder, the names and the tracer find it by driver id.
 * tests/unit/test_abi fails until every enumerator of the headers is named.
 */
#ifndef UVIO_ABI_H
#define UVIO_ABI_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "abi/uapi.h"

/* ---- the string pool ---------------------------------------------------- */
struct abi_pool {
#define X(s) char s_##s[sizeof(#s)];
#include "abi_strings.h"
#undef X
};
extern const struct abi_pool abi_pool;
#define N(s) ((uint16_t)offsetof(struct abi_pool, s_##s))
static inline const char *abi_str(uint16_t off)
{
	return (const char *)&abi_pool + off;
}

/* ---- values: how a number, a struct or a set of bits is printed --------- */
enum abi_vkind {
	V_RAW,		/* bytes in hex */
	V_UINT,		/* unsigned, size 1, 2, 4 or 8 */
	V_SINT,
	V_HEX,		/* unsigned in hex (addresses, keys, masks without names) */
	V_BE,		/* big endian unsigned in hex (GUIDs, IP fields) */
	V_HANDLE,	/* an object handle */
	V_FD,		/* a file descriptor (signed) */
	V_GID,		/* 16 bytes, as an IPv6 address */
	V_MAC,		/* 6 bytes */
	V_FLAGS,	/* bits, named by consts (value = bit number) */
	V_ENUM,		/* a value, named by consts */
	V_STRUCT,	/* fields */
	V_RESERVED,	/* must be zero: printed only when it is not */
	V_OBJECT,	/* an object id, by name */
	V_WRITE_CMD,	/* a write() command number, by name */
};

/* Value types are numbered by enum abi_vtype_id below, and a driver's own
 * (lib/abi/drivers/) from ABI_VT_DRIVER_BASE(its slot) on: the low
 * ABI_VT_SHIFT bits index the table that holds the type. */
struct abi_field {
	uint16_t name;
	uint16_t off;
	uint16_t size;		/* of the field; 0: a flexible array */
	uint16_t vtype;		/* of the field, or of one element of an array */
};

struct abi_const {
	uint32_t value;		/* bit number for V_FLAGS */
	uint16_t name;
	uint16_t payload;	/* ENUM_IN element: vtype of its data; 0 none */
};

struct abi_vtype {
	uint8_t kind;		/* enum abi_vkind */
	uint8_t pad;
	uint16_t size;		/* bytes of a scalar or a struct; 0: any */
	uint16_t name;
	uint16_t count;		/* fields or consts */
	const void *items;	/* struct abi_field[] or struct abi_const[] */
};

/* Value types, by index. Scalars first, then the named ones. */
enum abi_vtype_id {
	VT_NONE,
	VT_U8, VT_U16, VT_U32, VT_U64, VT_S32,
	VT_X32, VT_X64, VT_BE16, VT_BE32, VT_BE64,
	VT_HANDLE, VT_FD, VT_GID, VT_MAC, VT_BYTES, VT_RSVD,
	VT_OBJECT, VT_WRITE_CMD, VT_WRITE_CORE,
	/* flags */
	VT_ACCESS, VT_QP_CREATE, VT_CQ_CREATE, VT_WQ_FLAGS, VT_CORE_SUPPORT,
	VT_READ_COUNTERS, VT_ADVISE_FLAGS, VT_PORT_CAP, VT_PORT_FLAGS,
	VT_DEVICE_CAP, VT_RAW_PACKET_CAP, VT_ODP_GENERAL, VT_ODP_TRANSPORT,
	VT_ESP_FLAGS, VT_QP_ATTR_MASK, VT_SEND_FLAGS, VT_WC_FLAGS,
	VT_SRQ_ATTR_MASK, VT_CREATE_QP_MASK, VT_RSS_QPTS, VT_PORT_CAP2,
	/* enums */
	VT_QP_TYPE, VT_SRQ_TYPE, VT_WQ_TYPE, VT_WQ_STATE, VT_QP_STATE,
	VT_MTU, VT_MIG_STATE, VT_GID_TYPE, VT_ADVICE, VT_WR_OPCODE,
	VT_WC_OPCODE, VT_WC_STATUS, VT_FLOW_SPEC, VT_FLOW_ATTR_TYPE,
	VT_ESP_KEYMAT, VT_ESP_REPLAY, VT_IV_ALGO, VT_BUFFER_TYPE,
	VT_DRIVER_ID, VT_PORT_STATE, VT_LINK_LAYER, VT_MW_TYPE,
	VT_TPH_MEM_TYPE, VT_ATOMIC_CAP, VT_EVENT_TYPE,
	/* structs of the ioctl methods */
	VT_QP_CAP, VT_GID_ENTRY, VT_PORT_RESP_EX, VT_BUFFER_DESC, VT_SGE,
	VT_ESP_ATTRS, VT_ESP_ENCAP, VT_KEYMAT_AES_GCM, VT_REPLAY_BMP,
	/* structs of the write() commands */
	VT_GET_CONTEXT, VT_GET_CONTEXT_RESP, VT_QUERY_DEVICE, VT_QUERY_DEVICE_RESP,
	VT_EX_QUERY_DEVICE, VT_EX_QUERY_DEVICE_RESP, VT_ODP_CAPS, VT_RSS_CAPS,
	VT_TM_CAPS, VT_CQ_MOD_CAPS, VT_QUERY_PORT, VT_QUERY_PORT_RESP,
	VT_ALLOC_PD, VT_ALLOC_PD_RESP, VT_DEALLOC_PD, VT_OPEN_XRCD,
	VT_OPEN_XRCD_RESP, VT_CLOSE_XRCD, VT_REG_MR, VT_REG_MR_RESP,
	VT_REREG_MR, VT_REREG_MR_RESP, VT_DEREG_MR, VT_ALLOC_MW,
	VT_ALLOC_MW_RESP, VT_DEALLOC_MW, VT_CREATE_COMP_CHANNEL,
	VT_CREATE_COMP_CHANNEL_RESP, VT_CREATE_CQ, VT_EX_CREATE_CQ,
	VT_CREATE_CQ_RESP, VT_EX_CREATE_CQ_RESP, VT_RESIZE_CQ,
	VT_RESIZE_CQ_RESP, VT_POLL_CQ, VT_POLL_CQ_RESP, VT_WC,
	VT_REQ_NOTIFY_CQ, VT_DESTROY_CQ, VT_DESTROY_CQ_RESP, VT_GLOBAL_ROUTE,
	VT_AH_ATTR, VT_CREATE_QP, VT_EX_CREATE_QP, VT_OPEN_QP, VT_CREATE_QP_RESP,
	VT_EX_CREATE_QP_RESP, VT_QP_DEST, VT_QUERY_QP, VT_QUERY_QP_RESP,
	VT_MODIFY_QP, VT_EX_MODIFY_QP, VT_EX_MODIFY_QP_RESP, VT_DESTROY_QP,
	VT_DESTROY_QP_RESP, VT_SEND_WR, VT_POST_SEND, VT_POST_SEND_RESP,
	VT_RECV_WR, VT_POST_RECV, VT_POST_RECV_RESP, VT_POST_SRQ_RECV,
	VT_POST_SRQ_RECV_RESP, VT_CREATE_AH, VT_CREATE_AH_RESP, VT_DESTROY_AH,
	VT_MCAST, VT_FLOW_ATTR, VT_CREATE_FLOW, VT_CREATE_FLOW_RESP,
	VT_DESTROY_FLOW, VT_CREATE_SRQ, VT_CREATE_XSRQ, VT_CREATE_SRQ_RESP,
	VT_MODIFY_SRQ, VT_QUERY_SRQ, VT_QUERY_SRQ_RESP, VT_DESTROY_SRQ,
	VT_DESTROY_SRQ_RESP, VT_EX_CREATE_WQ, VT_EX_CREATE_WQ_RESP,
	VT_EX_DESTROY_WQ, VT_EX_DESTROY_WQ_RESP, VT_EX_MODIFY_WQ,
	VT_EX_CREATE_RWQ_IND_TBL, VT_EX_CREATE_RWQ_IND_TBL_RESP,
	VT_EX_DESTROY_RWQ_IND_TBL, VT_EX_MODIFY_CQ, VT_CQ_MODERATION,
	VT_ASYNC_EVENT_DESC, VT_COMP_EVENT_DESC,
	VT__COUNT
};
extern const struct abi_vtype abi_vtypes[VT__COUNT];

/* A driver's value types: ABI_VT_DRIVER_BASE(slot) + its index. */
#define ABI_VT_SHIFT 10
#define ABI_VT_DRIVER_BASE(slot) ((slot) << ABI_VT_SHIFT)
#define ABI_VT_LOCAL(vt) ((vt) & ((1u << ABI_VT_SHIFT) - 1))
_Static_assert(VT__COUNT <= (1u << ABI_VT_SHIFT), "core value types overflow their slot");

/* Type-building macros for lib/abi/types.c. Structs are named by typedefs
 * without the ib_uverbs_ prefix. */
#define SCALAR(vt, name, kind, size) [ABI_VT_LOCAL(VT_##vt)] = { V_##kind, 0, size, N(name), 0, NULL }
#define FLAGS(vt, name, ...)                                                   \
	[ABI_VT_LOCAL(VT_##vt)] = { V_FLAGS, 0, 0, N(name), ABI_COUNT(struct abi_const, __VA_ARGS__), \
		      ABI_LIST(struct abi_const, __VA_ARGS__) }
#define ENUM(vt, name, ...)                                                    \
	[ABI_VT_LOCAL(VT_##vt)] = { V_ENUM, 0, 0, N(name), ABI_COUNT(struct abi_const, __VA_ARGS__), \
		      ABI_LIST(struct abi_const, __VA_ARGS__) }
/* name is also the struct's typedef; STRUCT_SZ for a struct an older header
 * lacks. */
#define STRUCT_SZ(vt, name, size, ...)                                         \
	[ABI_VT_LOCAL(VT_##vt)] = { V_STRUCT, 0, size, N(name),                              \
		      ABI_COUNT(struct abi_field, __VA_ARGS__),                \
		      ABI_LIST(struct abi_field, __VA_ARGS__) }
#define STRUCT(vt, name, ...) STRUCT_SZ(vt, name, sizeof(name), __VA_ARGS__)
/* A bit of a flags type, by its mask; a value of an enum; an ENUM_IN
 * element with the layout of its data. */
#define B(mask, name) { (uint32_t)__builtin_ctzll(mask), N(name), 0 }
#define C(value, name) { (uint32_t)(value), N(name), 0 }
#define CP(value, name, vt) { (uint32_t)(value), N(name), VT_##vt }
/* A field; a field at a member path (unions, nested anonymous structs); a
 * flexible array at the end. */
#define F(s, m, vt) { N(m), offsetof(s, m), sizeof(((s *)0)->m), VT_##vt }
#define FP(s, name, vt, path) { N(name), offsetof(s, path), sizeof(((s *)0)->path), VT_##vt }
#define FX(s, m, vt) { N(m), offsetof(s, m), 0, VT_##vt }
/* A field at a fixed offset, for members an older header lacks. */
#define FO(name, off, size, vt) { N(name), off, size, VT_##vt }

/* ---- objects, methods, attributes ---------------------------------------- */
enum abi_attr_type {
	AT_PTR_IN = 1,	/* data inline up to 8 bytes, else a pointer */
	AT_PTR_OUT,
	AT_CONST_IN,	/* a u64 value, inline */
	AT_FLAGS_IN,	/* a u32 or u64 of flag bits, inline */
	AT_ENUM_IN,	/* attr_data.enum_data.elem_id picks the payload's layout */
	AT_IDR,		/* a handle of obj */
	AT_FD,		/* an fd object of obj */
	AT_RAW_FD,	/* any fd (dma-buf), no uverbs object */
	AT_IDRS,	/* an array of u32 handles of obj */
};
enum abi_access { AC_READ, AC_WRITE, AC_NEW, AC_DESTROY };

#define ABI_MANDATORY	0x01
#define ABI_ALLOC_COPY	0x02	/* the kernel copies it in whole (any size) */
#define ABI_ZERO_TAIL	0x04	/* bytes past what the kernel knows must be 0 */
/* An output list the kernel fills only in part: how many elements it wrote
 * goes to the method's next attribute (a u64), the rest is the caller's. */
#define ABI_COUNTED	0x08
#define ABI_ACCESS(a)	((uint8_t)((a) << 4))
#define ABI_ACCESS_OF(f) (((f) >> 4) & 3)

#define ABI_LEN_ANY 0xffff

struct abi_attr {
	uint16_t id;
	uint16_t name;
	uint8_t type;		/* enum abi_attr_type */
	uint8_t flags;		/* ABI_* */
	uint16_t obj;		/* IDR, FD, IDRS: the object (ABI_ANY_OBJECT: any) */
	uint16_t vtype;		/* of the value or of what the pointer holds */
	uint16_t min_len, max_len;	/* bytes, as the kernel checks them */
};

/* UVERBS_IDR_ANY_OBJECT: a handle of any object the method accepts. */
#define ABI_ANY_OBJECT 0xffff

#define ABI_M_UHW	0x01	/* accepts driver data (UHW_IN/UHW_OUT) */
#define ABI_M_NEWER	0x02	/* absent from Debian 12's headers */

struct abi_method {
	uint16_t id;
	uint16_t name;
	uint8_t flags;
	uint8_t nattrs;
	const struct abi_attr *attrs;
};

#define ABI_W_EX	0x01	/* extended command (IB_USER_VERBS_CMD_FLAG_EXTENDED) */
#define ABI_W_UDATA	0x02	/* driver data follows the core structs */
#define ABI_W_NONE	0x04	/* named by the header, no kernel handles it */
#define ABI_W_RESP	0x08	/* the core struct starts with the response pointer */

struct abi_write {
	uint8_t cmd;		/* without the extended flag */
	uint8_t flags;
	uint16_t req;		/* vtype of the core request */
	uint16_t resp;		/* vtype of the core response, VT_NONE for none */
	uint16_t name;
};

enum abi_obj_type { OT_GLOBAL, OT_IDR, OT_FD };

struct abi_object {
	uint16_t id;
	uint16_t name;
	uint8_t type;		/* enum abi_obj_type */
	uint8_t nmethods;
	uint8_t nwrites;
	const struct abi_method *methods;
	const struct abi_write *writes;
};

/* Table-building macros for the object files. */
#define ABI_COUNT(T, ...) (sizeof((const T[]){ __VA_ARGS__ }) / sizeof(T))
#define ABI_LIST(T, ...) (const T[]){ __VA_ARGS__ }

/* An attribute: enumerator suffix of its id (UVERBS_ATTR_<id>), its name. */
#define ATTR(id, name, type, flags, obj, vt, min, max)                         \
	{ UVERBS_ATTR_##id, N(name), AT_##type, flags, obj, VT_##vt, min, max }
#define MAND ABI_MANDATORY
#define OPT 0
/* The kernel's shorthands. */
#define A_IDR(id, name, o, acc, f)                                             \
	ATTR(id, name, IDR, (f) | ABI_ACCESS(AC_##acc), UVERBS_OBJECT_##o, HANDLE, 0, 0)
#define A_FD(id, name, o, acc, f)                                              \
	ATTR(id, name, FD, (f) | ABI_ACCESS(AC_##acc), UVERBS_OBJECT_##o, FD, 0, 0)
#define A_RAW_FD(id, name, f) ATTR(id, name, RAW_FD, f, 0, FD, 0, 0)
/* UVERBS_ATTR_TYPE(T): exactly sizeof(T) */
#define A_IN(id, name, vt, size, f) ATTR(id, name, PTR_IN, f, 0, vt, size, size)
#define A_OUT(id, name, vt, size, f) ATTR(id, name, PTR_OUT, f, 0, vt, size, size)
/* UVERBS_ATTR_MIN_SIZE(n) */
#define A_IN_MIN(id, name, vt, min, f) ATTR(id, name, PTR_IN, f, 0, vt, min, ABI_LEN_ANY)
#define A_OUT_MIN(id, name, vt, min, f) ATTR(id, name, PTR_OUT, f, 0, vt, min, ABI_LEN_ANY)
/* UVERBS_ATTR_STRUCT(T, last): at least up to last, at most sizeof(T) */
#define A_IN_STRUCT(id, name, vt, min, size, f)                                \
	ATTR(id, name, PTR_IN, (f) | ABI_ZERO_TAIL, 0, vt, min, size)
#define A_OUT_STRUCT(id, name, vt, min, size, f)                               \
	ATTR(id, name, PTR_OUT, (f) | ABI_ZERO_TAIL, 0, vt, min, size)
#define A_CONST(id, name, vt, f) ATTR(id, name, CONST_IN, f, 0, vt, 8, 8)
#define A_FLAGS(id, name, vt, f) ATTR(id, name, FLAGS_IN, f, 0, vt, 4, 8)
#define A_ENUM(id, name, vt, f) ATTR(id, name, ENUM_IN, f, 0, vt, 0, ABI_LEN_ANY)

#define METHOD(meth, name, flags, ...)                                    \
	{ UVERBS_METHOD_##meth, N(name), flags,                                \
	  ABI_COUNT(struct abi_attr, __VA_ARGS__),                             \
	  ABI_LIST(struct abi_attr, __VA_ARGS__) }

/* A write() command: IB_USER_VERBS_CMD_<cmd>, or IB_USER_VERBS_EX_CMD_<cmd>
 * with ABI_W_EX; the name is the command's. */
#define WRITE(cmd, flags, req, resp)                                           \
	{ IB_USER_VERBS_CMD_##cmd, flags, VT_##req, VT_##resp, N(cmd) }
#define WRITE_EX(cmd, flags, req, resp)                                        \
	{ IB_USER_VERBS_EX_CMD_##cmd, (flags) | ABI_W_EX, VT_##req, VT_##resp, N(cmd) }

#define OBJECT(obj, type, methods_, writes_)                                   \
	{ UVERBS_OBJECT_##obj, N(obj), OT_##type,                              \
	  sizeof(methods_) / sizeof(methods_[0]),                              \
	  sizeof(writes_) / sizeof(writes_[0]), methods_, writes_ }

/* The objects, one file each. */
#define ABI_OBJECTS(X)                                                         \
	X(device) X(pd) X(comp_channel) X(cq) X(qp) X(srq) X(ah) X(mr) X(mw)   \
	X(flow) X(xrcd) X(rwq_ind_tbl) X(wq) X(flow_action) X(dm) X(counters)  \
	X(async_event) X(dmah) X(dmabuf)
#define X(o) extern const struct abi_object abi_obj_##o;
ABI_OBJECTS(X)
#undef X

/* ---- drivers -------------------------------------------------------------
 *
 * A driver's namespace, one table file each (lib/abi/drivers/<driver>.c,
 * listed in ABI_DRIVERS with a slot of its own): its objects (ids 0x1000
 * and up), the methods it adds to core objects (method ids 0x1000 and up,
 * as an object row with the core object's id), the attributes it adds to
 * core methods, and what its driver data holds: the UHW_IN/UHW_OUT of a
 * core method, or the bytes after a write() command's core structs.
 * Everything is found through abi_driver(driver_id); the decoder knows no
 * driver by name.
 */
struct abi_drv_attrs {
	uint16_t object, method;	/* the core method the driver extends */
	uint16_t nattrs;
	const struct abi_attr *attrs;
};

/*
 * Driver data whose layout depends on the command: a driver may give one
 * key several rows, tried in table order; the first whose test holds gives
 * both directions' layouts. The last row of a key is UD_WHEN_ALWAYS.
 */
enum abi_ud_when {
	UD_WHEN_ALWAYS,
	UD_WHEN_RSS,	/* the command makes a QP over an indirection table */
	UD_WHEN_LEN,	/* the driver data in is exactly this row's in size */
};

/* Keys of driver data: a core ioctl method, or a write() command (its number
 * with IB_USER_VERBS_CMD_FLAG_EXTENDED where it has it). */
#define ABI_UD_METHOD(o, m) ((uint64_t)1 << 32 | (uint64_t)(o) << 16 | (uint64_t)(m))
#define ABI_UD_WRITE(cmd) ((uint64_t)2 << 32 | (uint64_t)(uint32_t)(cmd))

struct abi_drv_udata {
	uint64_t key;		/* ABI_UD_METHOD() or ABI_UD_WRITE() */
	uint16_t in, out;	/* vtypes; VT_NONE: the driver reads or writes none */
	uint8_t when;		/* enum abi_ud_when */
	uint8_t pad[3];
};

struct abi_driver {
	uint32_t id;		/* enum rdma_driver_id */
	uint16_t name;
	uint16_t nvtypes;
	const struct abi_vtype *vtypes;	/* by ABI_VT_LOCAL() */
	uint16_t nobjects, nattrs, nudata;
	const struct abi_object *objects;
	const struct abi_drv_attrs *attrs;
	const struct abi_drv_udata *udata;
};

/* Table-building macros of the driver files: ids are whole (the driver's
 * enumerators), objects too (UVERBS_OBJECT_* or the driver's). */
#define A_D(id, name, type, flags, obj, vt, min, max)                          \
	{ id, N(name), AT_##type, flags, obj, VT_##vt, min, max }
#define A_DIDR(id, name, o, acc, f) A_D(id, name, IDR, (f) | ABI_ACCESS(AC_##acc), o, HANDLE, 0, 0)
#define A_DFD(id, name, o, acc, f) A_D(id, name, FD, (f) | ABI_ACCESS(AC_##acc), o, FD, 0, 0)
#define A_DRAW_FD(id, name, f) A_D(id, name, RAW_FD, f, 0, FD, 0, 0)
#define A_DIDRS(id, name, o, f) A_D(id, name, IDRS, (f) | ABI_ACCESS(AC_READ), o, HANDLE, 4, ABI_LEN_ANY)
#define A_DIN(id, name, vt, size, f) A_D(id, name, PTR_IN, f, 0, vt, size, size)
#define A_DOUT(id, name, vt, size, f) A_D(id, name, PTR_OUT, f, 0, vt, size, size)
#define A_DIN_MIN(id, name, vt, min, f) A_D(id, name, PTR_IN, f, 0, vt, min, ABI_LEN_ANY)
#define A_DOUT_MIN(id, name, vt, min, f) A_D(id, name, PTR_OUT, f, 0, vt, min, ABI_LEN_ANY)
#define A_DIN_SIZE(id, name, vt, min, max, f) A_D(id, name, PTR_IN, f, 0, vt, min, max)
#define A_DOUT_STRUCT(id, name, vt, min, size, f)                              \
	A_D(id, name, PTR_OUT, (f) | ABI_ZERO_TAIL, 0, vt, min, size)
#define A_DCONST(id, name, vt, f) A_D(id, name, CONST_IN, f, 0, vt, 8, 8)
#define A_DFLAGS(id, name, vt, f) A_D(id, name, FLAGS_IN, f, 0, vt, 4, 8)
#define A_DENUM(id, name, vt, f) A_D(id, name, ENUM_IN, f, 0, vt, 0, ABI_LEN_ANY)
#define METHOD_D(meth, name, flags, ...)                                       \
	{ meth, N(name), flags, ABI_COUNT(struct abi_attr, __VA_ARGS__),        \
	  ABI_LIST(struct abi_attr, __VA_ARGS__) }
/* An object of the driver's (or a core object with the driver's methods). */
#define OBJECT_D(id, name, type, methods_)                                     \
	{ id, N(name), OT_##type, sizeof(methods_) / sizeof(methods_[0]), 0, methods_, NULL }
/* Attributes added to a core method. */
#define ATTRS_D(obj, meth, ...)                                                \
	{ UVERBS_OBJECT_##obj, UVERBS_METHOD_##meth,                            \
	  ABI_COUNT(struct abi_attr, __VA_ARGS__), ABI_LIST(struct abi_attr, __VA_ARGS__) }
/* Driver data: one of several rows of a key (enum abi_ud_when); the keys of
 * a core method, a write() command, an extended one, by name. */
#define UD_WHEN(key, when, in, out) { key, VT_##in, VT_##out, UD_WHEN_##when, { 0 } }
#define UD_KEY_METHOD(obj, meth) ABI_UD_METHOD(UVERBS_OBJECT_##obj, UVERBS_METHOD_##meth)
#define UD_KEY_WRITE(cmd) ABI_UD_WRITE(IB_USER_VERBS_CMD_##cmd)
#define UD_KEY_WRITE_EX(cmd)                                                   \
	ABI_UD_WRITE(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_##cmd)
/* A command with one layout each way. */
#define UD_METHOD(obj, meth, in, out) UD_WHEN(UD_KEY_METHOD(obj, meth), ALWAYS, in, out)
#define UD_WRITE(cmd, in, out) UD_WHEN(UD_KEY_WRITE(cmd), ALWAYS, in, out)
#define UD_WRITE_EX(cmd, in, out) UD_WHEN(UD_KEY_WRITE_EX(cmd), ALWAYS, in, out)

/* The drivers, one file each under lib/abi/drivers/, with their slots. */
#define ABI_DRIVERS(X)                                                         \
	X(mlx5, 1) X(rxe, 2) X(siw, 3) X(mthca, 4) X(cxgb4, 5) X(mlx4, 6)        \
	X(ocrdma, 7) X(qedr, 8) X(vmw_pvrdma, 9) X(bnxt_re, 10) X(efa, 11) X(hns, 12)   \
	X(irdma, 13) X(erdma, 14) X(mana, 15) X(ionic, 16)
#define X(d, slot) extern const struct abi_driver abi_drv_##d;
ABI_DRIVERS(X)
#undef X

/* ---- lookups -------------------------------------------------------------- */
unsigned int abi_num_objects(void);
const struct abi_object *abi_object_at(unsigned int index);
const struct abi_object *abi_object(uint16_t object_id);
const struct abi_method *abi_method(uint16_t object_id, uint16_t method_id);
/* UHW_IN/UHW_OUT for methods that take driver data, else the method's. */
const struct abi_attr *abi_attr(uint16_t object_id, uint16_t method_id, uint16_t attr_id);
/* The driver with this enum rdma_driver_id, NULL when the tables have none. */
const struct abi_driver *abi_driver(uint32_t driver_id);
/* The lookups above in a driver's namespace too (drv NULL: the core's). */
const struct abi_object *abi_object_drv(const struct abi_driver *drv, uint16_t object_id);
const struct abi_method *abi_method_drv(const struct abi_driver *drv, uint16_t object_id,
					uint16_t method_id);
const struct abi_attr *abi_attr_drv(const struct abi_driver *drv, uint16_t object_id,
				    uint16_t method_id, uint16_t attr_id);
/* The row of a driver's data for key: the first whose test holds, given the
 * driver data in's length (in_len; -1 when unknown) and whether the command
 * makes a QP over an indirection table. NULL: the driver has none. */
const struct abi_drv_udata *abi_drv_udata(const struct abi_driver *drv, uint64_t key,
					  long in_len, bool rss);
/* A write() command by its number, with or without the extended flag: the
 * flag must agree with the table. obj receives the owning object. */
const struct abi_write *abi_write(uint32_t command, const struct abi_object **obj);
const struct abi_vtype *abi_vtype(unsigned int vt);
/* The name of value v in an enum or a flags type (bit number), or NULL. */
const char *abi_const_name(unsigned int vt, uint32_t v);
/* The builder's kind (enum uvio_attr_kind) of an attribute, 0 for NULL. */
int uvio_abi_attr_kind(const struct abi_attr *a);

#endif
