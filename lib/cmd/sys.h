/* SPDX-License-Identifier: MIT */
/* Internal: the library's system calls. Depends on nothing. */
#ifndef UVIO_LIB_SYS_H
#define UVIO_LIB_SYS_H

#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* The only places that turn -1/errno into -errno. Kept out of line so that
 * unit tests can substitute ioctl() and write() with the linker's --wrap,
 * and the fuzz targets can bring their own kernel. */
int uvio_sys_ioctl(int fd, unsigned long request, void *arg);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len);

/* fstat() by the kernel's own fstat where its struct stat is libc's
 * (x86-64): glibc 2.33 and later send fstat() as newfstatat(fd, "",
 * AT_EMPTY_PATH), which kernels before 6.11 serve by allocating and
 * walking an empty path; the check of a device's fd at every open and
 * adopt took 15 us against 5.5 in the 6.1 guest. 0 or -errno. Inline: it
 * asks nothing of a device, so tests and fuzz targets leave it be. */
#if defined(__x86_64__) && !defined(__ILP32__) && defined(SYS_fstat)
_Static_assert(sizeof(struct stat) == 144, "the kernel's x86-64 struct stat is glibc's");
static inline int uvio_sys_fstat(int fd, struct stat *st)
{
	return syscall(SYS_fstat, fd, st) ? -errno : 0;
}
#else
static inline int uvio_sys_fstat(int fd, struct stat *st)
{
	return fstat(fd, st) ? -errno : 0;
}
#endif

#endif
