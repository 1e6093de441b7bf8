/* SPDX-License-Identifier: MIT */
/* Internal to the library: never installed. */
#ifndef UVIO_PRIVATE_H
#define UVIO_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The only places that turn -1/errno into -errno. Kept out of line so that
 * unit tests can substitute ioctl() and write() with the linker's --wrap. */
int uvio_sys_ioctl(int fd, unsigned long request, void *arg);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len);

/* The kind the names table gives an attribute, 0 when unknown. */
int uvio_attr_known_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id);

#endif
