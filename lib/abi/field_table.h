/* SPDX-License-Identifier: MIT */
/*
 * Internal: structs of the connection manager's ABI described as tables of
 * fields (name, offset, format). lib/cmd/field_render.c renders them from
 * bytes that may be short.
 */
#ifndef UVIO_LIB_FIELD_TABLE_H
#define UVIO_LIB_FIELD_TABLE_H

#include <stddef.h>
#include <stdint.h>

enum ffmt {
	FF_U8, FF_U16, FF_U32, FF_U64,	/* decimal */
	FF_X16, FF_X32, FF_X64,		/* hex */
	FF_BE16, FF_BE32, FF_BE64,	/* big-endian, hex */
	FF_PTR,				/* a pointer in the tracee */
	FF_SA_IN6,			/* struct sockaddr_in6 (28 bytes), any family */
	FF_SA_STORAGE,			/* struct __kernel_sockaddr_storage (128) */
	FF_GID,				/* 16 bytes */
	FF_PS,				/* enum rdma_ucm_port_space, u16 */
	FF_QPT,				/* enum ib_qp_type, u8 */
	FF_QPS,				/* enum ib_qp_state, u32 */
	FF_CM_EVENT,			/* enum rdma_cm_event_type, u32 */
	FF_DATA,			/* aux bytes of data; the length in field `len_at` */
	FF_STRUCT,			/* a nested struct: sub */
};

struct ffield {
	const char *name;
	uint16_t off;
	uint8_t fmt;			/* enum ffmt */
	uint16_t aux;			/* FF_DATA: capacity */
	int16_t len_at;			/* FF_DATA: offset of the u8 length, -1: all */
	const struct ffield *sub;	/* FF_STRUCT */
	uint16_t sub_size;
};

struct fstruct {
	const char *name;
	uint16_t size;
	const struct ffield *fields;	/* ends with a NULL name */
};

/* Size in bytes of a field format (0 for variable ones). */
size_t ff_size(const struct ffield *f);

#endif /* UVIO_LIB_FIELD_TABLE_H */
