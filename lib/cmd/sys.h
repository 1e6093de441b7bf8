/* SPDX-License-Identifier: MIT */
/* Internal: the library's two system calls. Depends on nothing. */
#ifndef UVIO_LIB_SYS_H
#define UVIO_LIB_SYS_H

#include <stddef.h>
#include <sys/types.h>

/* The only places that turn -1/errno into -errno. Kept out of line so that
 * unit tests can substitute ioctl() and write() with the linker's --wrap,
 * and the fuzz targets can bring their own kernel. */
int uvio_sys_ioctl(int fd, unsigned long request, void *arg);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len);

#endif
