/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: render uverbs ioctl commands in words, for traces, tests
 * and the uverbs-decode tool. Output follows snprintf(): it is always
 * terminated when size > 0, and the return value is the length the whole text
 * needs, so a caller can detect truncation.
 */
#ifndef UVIO_DECODE_H
#define UVIO_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/cmd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Names of core objects, methods and attributes; NULL where unknown. */
UVIO_API const char *uvio_object_name(uint16_t object_id);
UVIO_API const char *uvio_method_name(uint16_t object_id, uint16_t method_id);
UVIO_API const char *uvio_attr_name(uint16_t object_id, uint16_t method_id,
				    uint16_t attr_id);
UVIO_API const char *uvio_kind_name(enum uvio_attr_kind kind);

/*
 * Decode a raw command buffer of len bytes in the given layout. Never reads
 * past len, whatever the header claims; inconsistencies (a length that
 * disagrees with num_attrs, a truncated array, non-zero reserved fields) are
 * named in the text. Returns the text length, or -EINVAL when len is too short
 * to hold a header (the text then says so).
 */
UVIO_API int uvio_decode(const void *buf, size_t len, enum uvio_layout layout,
			 char *out, size_t size);

/* Decode a built command, with the kinds the builder knows (whether an
 * attribute is an input or an output is not visible in the bytes). */
UVIO_API int uvio_cmd_format(const struct uvio_cmd *cmd, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif
