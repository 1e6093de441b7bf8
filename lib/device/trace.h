/* SPDX-License-Identifier: MIT */
/* Internal: UVERBS_IOCTL_TRACE, one decoded line per command. */
#ifndef UVIO_LIB_TRACE_H
#define UVIO_LIB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uvio/cmd.h>

struct uvio_device;

void uvio_trace_ioctl(const struct uvio_device *dev, const struct uvio_cmd *cmd, int ret,
		      uint64_t ns);
void uvio_trace_write(const struct uvio_device *dev, const void *buf, size_t len, int ret,
		      uint64_t ns);
uint64_t uvio_now_ns(void);

#endif
