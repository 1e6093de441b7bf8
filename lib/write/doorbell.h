/* SPDX-License-Identifier: MIT */
/*
 * The send doorbell of a QP whose send queue lives in the process's memory
 * (rxe, siw): POST_SEND with no work requests, laid out once when the QP is
 * made and written as it is at every doorbell; the kernel then runs the
 * QP's ring. Like every write() command of the library, it is laid out by
 * lib/write/legacy.c.
 */
#ifndef UVIO_LIB_WRITE_DOORBELL_H
#define UVIO_LIB_WRITE_DOORBELL_H

#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include "device/dev.h"

#define UVIO_DOORBELL_WORDS 4
_Static_assert(UVIO_DOORBELL_WORDS * 8 ==
		       sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_post_send),
	       "the doorbell is a header and POST_SEND's core");

/* resp: where the kernel writes bad_wr (a u32; always 0 without WRs; concurrent
 * doorbells write the same value, so one place serves them all). wqe_size
 * is the whole WR struct: rxe refuses a smaller one even without WRs. Laid
 * out by lib/write/legacy.c, with every other write() command's header. */
void uvio_doorbell_layout(uint64_t db[UVIO_DOORBELL_WORDS], uint32_t qp_handle, void *resp);

/* Ring it: one write(), traced where the device traces. */
static inline int uvio_doorbell_ring(struct uvio_device *dev, uint64_t db[UVIO_DOORBELL_WORDS])
{
	return uvio_dev_write(dev, db, UVIO_DOORBELL_WORDS * 8);
}

#endif
