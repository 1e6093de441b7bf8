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
 * Decode a raw command buffer of len bytes in the given layout: every object,
 * method and attribute the UAPI headers define by name, values typed
 * (handles, fds, flags and enums by name, structs field by field), the write()
 * command inside DEVICE/INVOKE_WRITE decoded as one. Never reads past len,
 * whatever the header claims; inconsistencies (a length that disagrees with
 * num_attrs, a truncated array, non-zero reserved fields, an attribute length
 * the kernel refuses, a missing mandatory attribute) are named in the text.
 * Returns the text length, or -EINVAL when len is too short to hold a header
 * (the text then says so).
 */
UVIO_API int uvio_decode(const void *buf, size_t len, enum uvio_layout layout,
			 char *out, size_t size);

/*
 * Read len bytes at addr, of this process or of a traced one, into buf;
 * 0 or a negative errno. The decoder asks for at most 4096 bytes at a time.
 */
typedef int (*uvio_fetch_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* The command is as the kernel left it (outputs filled, new handles and fds
 * written back): show the outputs' values. */
#define UVIO_DECODE_AFTER 0x1u

struct uvio_decode_opts {
	size_t sz;			/* sizeof(struct uvio_decode_opts) */
	enum uvio_layout layout;
	unsigned int flags;		/* UVIO_DECODE_* */
	uvio_fetch_fn fetch;		/* NULL: pointers are shown, not followed */
	void *ctx;			/* for fetch */
};

/*
 * uvio_decode() with options: with a fetch function, the data behind
 * pointer attributes (inputs longer than 8 bytes; outputs with
 * UVIO_DECODE_AFTER) is read and decoded too. -EINVAL for an opts->sz too
 * small, -E2BIG for non-zero bytes past the struct this library knows.
 */
UVIO_API int uvio_decode_cmd(const void *buf, size_t len, const struct uvio_decode_opts *opts,
			     char *out, size_t size);

/*
 * Decode a write() command: the len bytes written (struct ib_uverbs_cmd_hdr,
 * then for extended commands struct ib_uverbs_ex_cmd_hdr, then the core
 * struct and any driver data), field by field, and the resp_len bytes of
 * response the kernel wrote back (core response, then driver data; NULL and
 * 0 for none or not yet). Never reads past len or resp_len. Returns the text
 * length, or -EINVAL when len cannot hold the header.
 */
UVIO_API int uvio_decode_write(const void *buf, size_t len, const void *resp,
			       size_t resp_len, char *out, size_t size);

/* Decode a built command, with the kinds the builder knows (whether an
 * attribute is an input or an output is not visible in the bytes), and the
 * memory its pointers name in this process (read with process_vm_readv(2):
 * a bad pointer shows as a pointer, never a crash); once the command ran
 * successfully, the outputs too. */
UVIO_API int uvio_cmd_format(const struct uvio_cmd *cmd, char *out, size_t size);

#ifdef __cplusplus
}
#endif
#endif
