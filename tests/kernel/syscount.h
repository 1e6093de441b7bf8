/*
 * Count the system calls a library makes on one fd, from outside it: the
 * program that links this file interposes ioctl() and write() in front of
 * libc (the library's calls resolve to these). KT_TRACE=1 prints each ioctl's
 * object and method.
 */
#ifndef UVIO_SYSCOUNT_H
#define UVIO_SYSCOUNT_H

extern int syscount_fd;			/* the fd to count, -1 for none */
extern _Atomic long syscount_ioctls, syscount_writes;

#endif
