/* SPDX-License-Identifier: MIT */
/* A live tracee: its memory, and what its file descriptors are. */
#ifndef UVIO_TRACE_PROC_H
#define UVIO_TRACE_PROC_H

#include <stdbool.h>
#include <sys/types.h>

#include "record.h"

/* Reads with process_vm_readv(), a page at a time so that a fault ends the
 * read where it is; /proc/PID/mem where process_vm_readv is refused. */
struct pmem {
	struct tmem m;
	pid_t pid;
	int memfd;		/* /proc/PID/mem, opened on first need; -1 */
	bool use_mem;		/* process_vm_readv refused: ENOSYS, EPERM */
};

void pmem_init(struct pmem *p, pid_t pid);
void pmem_close(struct pmem *p);

/* What fd is in task tid: uverbs, rdma_cm or other; the device names when
 * it is one (dev "uverbs0", ibdev "rxe0"); with name_other, the path of
 * anything else in dev. One stat() when the fd is no character device. */
enum tr_fdkind fd_classify(pid_t tid, int fd, bool name_other, char *dev, size_t dev_size,
			   char *ibdev, size_t ibdev_size, uint32_t *driver_id);

#endif
