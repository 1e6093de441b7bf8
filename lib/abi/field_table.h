/* SPDX-License-Identifier: MIT */
/*
 * Structs described as tables of fields (name, offset, format), rendered
 * from bytes that may be short: a field past the end is left out and the
 * shortfall named.
 */
#ifndef UVIO_TRACE_FIELDS_H
#define UVIO_TRACE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbuf.h"

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

/* Render struct st from n bytes at p: text "name value name value ..." or
 * JSON members "name":value,... (no braces). */
void ff_render(struct sbuf *s, bool json, const struct fstruct *st, const uint8_t *p, size_t n);
/* Size in bytes of a field format (0 for variable ones). */
size_t ff_size(const struct ffield *f);
/* "value" of one field as text into s (for use in other renderers). */
void ff_value(struct sbuf *s, bool json, const struct ffield *f, const uint8_t *p, size_t n);

#endif
