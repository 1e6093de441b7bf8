/* SPDX-License-Identifier: MIT */
/*
 * Internal: telling memcheck what the verbs ioctl wrote, for the commands
 * the library lays out itself without a struct uvio_cmd. Valgrind does not
 * know RDMA_VERBS_IOCTL's outputs; off valgrind this is one load.
 */
#ifndef UVIO_LIB_CMD_MEMCHECK_H
#define UVIO_LIB_CMD_MEMCHECK_H

#include <stddef.h>

/* The kernel wrote len bytes at p (len 0: nothing to say). */
void uvio_memcheck_written(void *p, size_t len);

#endif
