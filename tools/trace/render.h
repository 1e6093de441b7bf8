/* SPDX-License-Identifier: MIT */
/* A captured command in words: text for people, JSON lines for scripts. */
#ifndef UVIO_TRACE_RENDER_H
#define UVIO_TRACE_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"
#include "report/sbuf.h"

struct render_opts {
	bool json;
	bool verbose;		/* every byte, the header, the library's full decode */
	uint64_t t0;		/* ns: times are shown from here */
};

/* "CQ.CREATE", "DEVICE.INVOKE_WRITE(ALLOC_PD)", "write(POST_SEND)",
 * "rdma_cm(GET_EVENT)". *unknown is set when an id has no name. */
void tr_name(const struct tr_record *r, char *buf, size_t size, bool *unknown);
/* Ids in the record the library has no name for: object, method, each
 * attribute, the write() command (0 when every one is named). */
unsigned int tr_unknown_ids(const struct tr_record *r);
/* The whole record, ending with a newline. */
void tr_render(struct sbuf *s, const struct tr_record *r, const struct render_opts *o);
/* Symbolic errno ("EINVAL"), or NULL. */
const char *tr_errno_name(int err);

/* Objects a successful command made (dir 1) or ended (dir -1), with the
 * type `rdma resource` uses (pd, cq, qp, srq, mr, cm_id...). */
typedef void (*tr_object_fn)(void *ctx, const struct tr_record *r, const char *type,
			     uint32_t handle, int dir);
void tr_objects(const struct tr_record *r, tr_object_fn fn, void *ctx);

#endif
