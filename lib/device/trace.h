/* SPDX-License-Identifier: MIT */
/* Internal: UVERBS_IOCTL_TRACE, one decoded line per command. */
#ifndef UVIO_LIB_TRACE_H
#define UVIO_LIB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uvio/cmd.h>

/* devname: the device's name, which leads each line. */
void uvio_trace_ioctl(const char *devname, const struct uvio_cmd *cmd, int ret,
		      uint64_t ns);
void uvio_trace_write(const char *devname, const void *buf, size_t len, int ret,
		      uint64_t ns);
uint64_t uvio_now_ns(void);

#endif
