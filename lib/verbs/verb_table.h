/* SPDX-License-Identifier: MIT */
/*
 * Every verb, once: a row of UVIO_VERB_TABLE says its number (enum
 * uvio_verb), the name messages and traces give it ("OBJECT.METHOD"), its
 * ioctl method (object and method ids, UVIO_NO_IOCTL where it has none of
 * its own) and its write() commands (UVIO_NO_WRITE where none): the one it
 * sends, and a second it sends instead when what it is asked needs it (the
 * extended command, or an XRC SRQ's). Everything else is made from the
 * rows: the enum, the names (one object, lib/verbs/verb_table.c, so that a
 * verb's constant descriptor can point into it) and uvio_verb_rows, whose
 * reads fold to constants where a verb names itself. unit/test_verb_table
 * holds each row to the ABI tables' names (lib/report/names.c).
 */
#ifndef UVIO_VERBS_VERB_TABLE_H
#define UVIO_VERBS_VERB_TABLE_H

#include <stdint.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include "abi/uapi.h"
#include "write/legacy.h"

#define UVIO_NO_IOCTL 0xffffu		/* object and method: no method of its own */
#define UVIO_NO_WRITE 0xffffffffu	/* no write() command */

#define VROW_IOCTL(o, m) UVERBS_OBJECT_##o, UVERBS_METHOD_##m
#define VROW_NO_IOCTL UVIO_NO_IOCTL, UVIO_NO_IOCTL
#define VROW_CMD(c) IB_USER_VERBS_CMD_##c
#define VROW_EX(c) UVIO_EX(IB_USER_VERBS_EX_CMD_##c)
#define VROW_NO_WRITE UVIO_NO_WRITE

/* X(verb, name, its method (VROW_IOCTL(object, method)), write, second write).
 * Grouped by object; a new verb goes anywhere (the numbers are the
 * library's own). */
#define UVIO_VERB_TABLE(X)                                                                      \
	/* the device */                                                                        \
	X(GET_CONTEXT, "DEVICE.GET_CONTEXT",                                                    \
	  VROW_IOCTL(DEVICE, GET_CONTEXT), VROW_CMD(GET_CONTEXT), VROW_NO_WRITE)                \
	X(QUERY_CONTEXT, "DEVICE.QUERY_CONTEXT",                                                \
	  VROW_IOCTL(DEVICE, QUERY_CONTEXT), VROW_NO_WRITE, VROW_NO_WRITE)                      \
	X(QUERY_DEVICE, "DEVICE.QUERY", VROW_NO_IOCTL, VROW_CMD(QUERY_DEVICE), VROW_NO_WRITE)   \
	X(QUERY_DEVICE_EX, "DEVICE.EX_QUERY",                                                   \
	  VROW_NO_IOCTL, VROW_EX(QUERY_DEVICE), VROW_NO_WRITE)                                  \
	X(QUERY_PORT, "DEVICE.QUERY_PORT",                                                      \
	  VROW_IOCTL(DEVICE, QUERY_PORT), VROW_CMD(QUERY_PORT), VROW_NO_WRITE)                  \
	X(QUERY_GID_ENTRY, "DEVICE.QUERY_GID_ENTRY",                                            \
	  VROW_IOCTL(DEVICE, QUERY_GID_ENTRY), VROW_NO_WRITE, VROW_NO_WRITE)                    \
	X(QUERY_GID_TABLE, "DEVICE.QUERY_GID_TABLE",                                            \
	  VROW_IOCTL(DEVICE, QUERY_GID_TABLE), VROW_NO_WRITE, VROW_NO_WRITE)                    \
	X(INFO_HANDLES, "DEVICE.INFO_HANDLES",                                                  \
	  VROW_IOCTL(DEVICE, INFO_HANDLES), VROW_NO_WRITE, VROW_NO_WRITE)                       \
	X(CREATE_COMP_CHANNEL, "COMP_CHANNEL.CREATE",                                           \
	  VROW_NO_IOCTL, VROW_CMD(CREATE_COMP_CHANNEL), VROW_NO_WRITE)                          \
	/* caller-built commands (uvio_device_exec; uvio_device_write, whose                    \
	 * extended form says "write-ex"): their command is the caller's */                     \
	X(RAW_IOCTL, "ioctl", VROW_NO_IOCTL, VROW_NO_WRITE, VROW_NO_WRITE)                      \
	X(RAW_WRITE, "write", VROW_NO_IOCTL, VROW_NO_WRITE, VROW_NO_WRITE)                      \
	/* CQ */                                                                                \
	X(CREATE_CQ, "CQ.CREATE",                                                               \
	  VROW_IOCTL(CQ, CQ_CREATE), VROW_CMD(CREATE_CQ), VROW_EX(CREATE_CQ))                   \
	X(DESTROY_CQ, "CQ.DESTROY",                                                             \
	  VROW_IOCTL(CQ, CQ_DESTROY), VROW_CMD(DESTROY_CQ), VROW_NO_WRITE)                      \
	X(RESIZE_CQ, "CQ.RESIZE", VROW_NO_IOCTL, VROW_CMD(RESIZE_CQ), VROW_NO_WRITE)            \
	X(MODIFY_CQ, "CQ.MODIFY", VROW_NO_IOCTL, VROW_EX(MODIFY_CQ), VROW_NO_WRITE)             \
	/* PD */                                                                                \
	X(ALLOC_PD, "PD.ALLOC", VROW_NO_IOCTL, VROW_CMD(ALLOC_PD), VROW_NO_WRITE)               \
	X(DEALLOC_PD, "PD.DESTROY",                                                             \
	  VROW_IOCTL(PD, PD_DESTROY), VROW_CMD(DEALLOC_PD), VROW_NO_WRITE)                      \
	/* MR */                                                                                \
	X(REG_MR, "MR.REG", VROW_NO_IOCTL, VROW_CMD(REG_MR), VROW_NO_WRITE)                     \
	X(DEREG_MR, "MR.DESTROY", VROW_IOCTL(MR, MR_DESTROY), VROW_CMD(DEREG_MR), VROW_NO_WRITE) \
	X(REREG_MR, "MR.REREG", VROW_NO_IOCTL, VROW_CMD(REREG_MR), VROW_NO_WRITE)               \
	X(QUERY_MR, "MR.QUERY", VROW_IOCTL(MR, QUERY_MR), VROW_NO_WRITE, VROW_NO_WRITE)         \
	X(ADVISE_MR, "MR.ADVISE", VROW_IOCTL(MR, ADVISE_MR), VROW_NO_WRITE, VROW_NO_WRITE)      \
	X(REG_DMABUF_MR, "MR.REG_DMABUF",                                                       \
	  VROW_IOCTL(MR, REG_DMABUF_MR), VROW_NO_WRITE, VROW_NO_WRITE)                          \
	X(REG_DM_MR, "MR.DM_REG", VROW_IOCTL(MR, DM_MR_REG), VROW_NO_WRITE, VROW_NO_WRITE)      \
	/* SRQ */                                                                               \
	X(CREATE_SRQ, "SRQ.CREATE",                                                             \
	  VROW_IOCTL(SRQ, SRQ_CREATE), VROW_CMD(CREATE_SRQ), VROW_CMD(CREATE_XSRQ))             \
	X(MODIFY_SRQ, "SRQ.MODIFY", VROW_NO_IOCTL, VROW_CMD(MODIFY_SRQ), VROW_NO_WRITE)         \
	X(QUERY_SRQ, "SRQ.QUERY", VROW_NO_IOCTL, VROW_CMD(QUERY_SRQ), VROW_NO_WRITE)            \
	X(DESTROY_SRQ, "SRQ.DESTROY",                                                           \
	  VROW_IOCTL(SRQ, SRQ_DESTROY), VROW_CMD(DESTROY_SRQ), VROW_NO_WRITE)                   \
	/* XRCD */                                                                              \
	X(OPEN_XRCD, "XRCD.OPEN", VROW_NO_IOCTL, VROW_CMD(OPEN_XRCD), VROW_NO_WRITE)            \
	X(CLOSE_XRCD, "XRCD.DESTROY",                                                           \
	  VROW_IOCTL(XRCD, XRCD_DESTROY), VROW_CMD(CLOSE_XRCD), VROW_NO_WRITE)                  \
	/* AH */                                                                                \
	X(CREATE_AH, "AH.CREATE", VROW_NO_IOCTL, VROW_CMD(CREATE_AH), VROW_NO_WRITE)            \
	X(DESTROY_AH, "AH.DESTROY",                                                             \
	  VROW_IOCTL(AH, AH_DESTROY), VROW_CMD(DESTROY_AH), VROW_NO_WRITE)                      \
	/* MW */                                                                                \
	X(ALLOC_MW, "MW.ALLOC", VROW_NO_IOCTL, VROW_CMD(ALLOC_MW), VROW_NO_WRITE)               \
	X(DEALLOC_MW, "MW.DESTROY",                                                             \
	  VROW_IOCTL(MW, MW_DESTROY), VROW_CMD(DEALLOC_MW), VROW_NO_WRITE)                      \
	/* DM */                                                                                \
	X(ALLOC_DM, "DM.ALLOC", VROW_IOCTL(DM, DM_ALLOC), VROW_NO_WRITE, VROW_NO_WRITE)         \
	X(FREE_DM, "DM.FREE", VROW_IOCTL(DM, DM_FREE), VROW_NO_WRITE, VROW_NO_WRITE)            \
	/* WQ and RWQ indirection table */                                                      \
	X(CREATE_WQ, "WQ.CREATE", VROW_IOCTL(WQ, WQ_CREATE), VROW_EX(CREATE_WQ), VROW_NO_WRITE) \
	X(MODIFY_WQ, "WQ.MODIFY", VROW_NO_IOCTL, VROW_EX(MODIFY_WQ), VROW_NO_WRITE)             \
	X(DESTROY_WQ, "WQ.DESTROY",                                                             \
	  VROW_IOCTL(WQ, WQ_DESTROY), VROW_EX(DESTROY_WQ), VROW_NO_WRITE)                       \
	X(CREATE_RWQ_IND_TBL, "RWQ_IND_TBL.CREATE",                                             \
	  VROW_NO_IOCTL, VROW_EX(CREATE_RWQ_IND_TBL), VROW_NO_WRITE)                            \
	X(DESTROY_RWQ_IND_TBL, "RWQ_IND_TBL.DESTROY",                                           \
	  VROW_IOCTL(RWQ_IND_TBL, RWQ_IND_TBL_DESTROY), VROW_EX(DESTROY_RWQ_IND_TBL), VROW_NO_WRITE) \
	/* flow steering, flow actions */                                                       \
	X(CREATE_FLOW, "FLOW.CREATE", VROW_NO_IOCTL, VROW_EX(CREATE_FLOW), VROW_NO_WRITE)       \
	X(DESTROY_FLOW, "FLOW.DESTROY",                                                         \
	  VROW_IOCTL(FLOW, FLOW_DESTROY), VROW_EX(DESTROY_FLOW), VROW_NO_WRITE)                 \
	X(CREATE_FLOW_ACTION_ESP, "FLOW_ACTION.ESP_CREATE",                                     \
	  VROW_IOCTL(FLOW_ACTION, FLOW_ACTION_ESP_CREATE), VROW_NO_WRITE, VROW_NO_WRITE)        \
	X(MODIFY_FLOW_ACTION_ESP, "FLOW_ACTION.ESP_MODIFY",                                     \
	  VROW_IOCTL(FLOW_ACTION, FLOW_ACTION_ESP_MODIFY), VROW_NO_WRITE, VROW_NO_WRITE)        \
	X(DESTROY_FLOW_ACTION, "FLOW_ACTION.DESTROY",                                           \
	  VROW_IOCTL(FLOW_ACTION, FLOW_ACTION_DESTROY), VROW_NO_WRITE, VROW_NO_WRITE)           \
	/* counters */                                                                          \
	X(CREATE_COUNTERS, "COUNTERS.CREATE",                                                   \
	  VROW_IOCTL(COUNTERS, COUNTERS_CREATE), VROW_NO_WRITE, VROW_NO_WRITE)                  \
	X(DESTROY_COUNTERS, "COUNTERS.DESTROY",                                                 \
	  VROW_IOCTL(COUNTERS, COUNTERS_DESTROY), VROW_NO_WRITE, VROW_NO_WRITE)                 \
	X(READ_COUNTERS, "COUNTERS.READ",                                                       \
	  VROW_IOCTL(COUNTERS, COUNTERS_READ), VROW_NO_WRITE, VROW_NO_WRITE)                    \
	/* QP */                                                                                \
	X(CREATE_QP, "QP.CREATE",                                                               \
	  VROW_IOCTL(QP, QP_CREATE), VROW_CMD(CREATE_QP), VROW_EX(CREATE_QP))                   \
	X(DESTROY_QP, "QP.DESTROY",                                                             \
	  VROW_IOCTL(QP, QP_DESTROY), VROW_CMD(DESTROY_QP), VROW_NO_WRITE)                      \
	X(MODIFY_QP, "QP.MODIFY", VROW_NO_IOCTL, VROW_CMD(MODIFY_QP), VROW_EX(MODIFY_QP))       \
	X(QUERY_QP, "QP.QUERY", VROW_NO_IOCTL, VROW_CMD(QUERY_QP), VROW_NO_WRITE)               \
	X(OPEN_QP, "QP.OPEN", VROW_NO_IOCTL, VROW_CMD(OPEN_QP), VROW_NO_WRITE)                  \
	X(ATTACH_MCAST, "QP.ATTACH_MCAST", VROW_NO_IOCTL, VROW_CMD(ATTACH_MCAST), VROW_NO_WRITE) \
	X(DETACH_MCAST, "QP.DETACH_MCAST", VROW_NO_IOCTL, VROW_CMD(DETACH_MCAST), VROW_NO_WRITE) \
	/* the data path's commands (lib/verbs/datapath.c) */                                   \
	X(POST_SEND, "QP.POST_SEND", VROW_NO_IOCTL, VROW_CMD(POST_SEND), VROW_NO_WRITE)         \
	X(POST_RECV, "QP.POST_RECV", VROW_NO_IOCTL, VROW_CMD(POST_RECV), VROW_NO_WRITE)         \
	X(POST_SRQ_RECV, "SRQ.POST_RECV", VROW_NO_IOCTL, VROW_CMD(POST_SRQ_RECV), VROW_NO_WRITE) \
	X(REQ_NOTIFY_CQ, "CQ.REQ_NOTIFY", VROW_NO_IOCTL, VROW_CMD(REQ_NOTIFY_CQ), VROW_NO_WRITE) \
	X(POLL_CQ, "CQ.POLL", VROW_NO_IOCTL, VROW_CMD(POLL_CQ), VROW_NO_WRITE)

/* One number per verb, for its slot of remembered paths and the per-verb
 * "method missing" bit. */
enum uvio_verb {
#define X(v, ...) UVIO_VERB_##v,
	UVIO_VERB_TABLE(X)
#undef X
	UVIO_VERB__COUNT
};

/* Each row's ids as integer constants, usable in a static initializer and
 * folded at any optimisation: UVIO_VOBJ_<verb>, UVIO_VMETH_<verb>,
 * UVIO_VWRITE_<verb>, UVIO_VWRITE2_<verb>. A write() command is kept as an
 * int, its extended flag the sign bit (GCC and clang convert modulo 2^32);
 * VERB_WRITE() gives it back unsigned. */
#define VROW_IDS_(v, o, m, w, w2)                                                               \
	UVIO_VOBJ_##v = (o), UVIO_VMETH_##v = (m), UVIO_VWRITE_##v = (int)(w),                  \
	UVIO_VWRITE2_##v = (int)(w2),
#define VROW_EXPAND_(f, ...) f(__VA_ARGS__)
enum {
#define X(v, name, ioctl, w, w2) VROW_EXPAND_(VROW_IDS_, v, ioctl, w, w2)
	UVIO_VERB_TABLE(X)
#undef X
};

/* The names, each a member of one object: a name's address is a constant a
 * static descriptor can hold (VERB_NAME()). */
struct uvio_verb_names {
#define X(v, name, ...) char n_##v[sizeof(name)];
	UVIO_VERB_TABLE(X)
#undef X
};
extern const struct uvio_verb_names uvio_verb_names;

/* What a verb's code says of itself, v its row's first column
 * (VERB_NAME(CREATE_CQ)): constants. */
#define VERB_NAME(v) (uvio_verb_names.n_##v)
#define VERB_OBJECT(v) ((uint16_t)UVIO_VOBJ_##v)
#define VERB_METHOD(v) ((uint16_t)UVIO_VMETH_##v)
#define VERB_WRITE(v) ((uint32_t)UVIO_VWRITE_##v)
#define VERB_WRITE2(v) ((uint32_t)UVIO_VWRITE2_##v)

/* The rows by verb number, for code that takes the verb as a value (the
 * posts, the multicast pair) and for the tests. */
struct uvio_verb_row {
	const char *name;
	uint16_t object, method;	/* UVIO_NO_IOCTL: no method of its own */
	uint32_t write, write2;		/* UVIO_NO_WRITE: none */
};

static const struct uvio_verb_row uvio_verb_rows[UVIO_VERB__COUNT] = {
#define X(v, ...)                                                                               \
	[UVIO_VERB_##v] = { VERB_NAME(v), VERB_OBJECT(v), VERB_METHOD(v), VERB_WRITE(v),        \
			    VERB_WRITE2(v) },
	UVIO_VERB_TABLE(X)
#undef X
};

#endif
