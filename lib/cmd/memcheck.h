/* SPDX-License-Identifier: MIT */
/*
 * Internal: telling memcheck what the verbs ioctl wrote, for the commands
 * the library lays out itself without a struct uvio_cmd. Valgrind does not
 * know RDMA_VERBS_IOCTL's outputs; off valgrind this is one load.
 */
#ifndef UVIO_LIB_CMD_MEMCHECK_H
#define UVIO_LIB_CMD_MEMCHECK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct ib_uverbs_attr;
/* Whether memcheck watches: 0 not known yet, 1 no, 2 yes (cmd.c finds
 * out on first use; without valgrind's headers it is 1 from the start). */
extern _Atomic int uvio_memcheck_state;
void uvio_memcheck_records_slow(const struct ib_uverbs_attr *a, const uint8_t *kind,
				unsigned int n);
void uvio_memcheck_written_slow(void *p, size_t len);

/* The kernel wrote len bytes at p (len 0: nothing to say). */
static inline void uvio_memcheck_written(void *p, size_t len)
{
	if (__builtin_expect(atomic_load_explicit(&uvio_memcheck_state, memory_order_relaxed) != 1,
			     0))
		uvio_memcheck_written_slow(p, len);
}

/* The kernel answered a command of n records laid out without a struct
 * uvio_cmd (kind: enum uvio_attr_kind per record): the buffers of its
 * PTR_OUT records are written. Off valgrind one load and a branch, inline:
 * it follows every fixed command. */
static inline void uvio_memcheck_records(const struct ib_uverbs_attr *a, const uint8_t *kind,
					 unsigned int n)
{
	if (__builtin_expect(atomic_load_explicit(&uvio_memcheck_state, memory_order_relaxed) != 1,
			     0))
		uvio_memcheck_records_slow(a, kind, n);
}

#endif
