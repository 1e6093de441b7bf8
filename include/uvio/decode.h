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
/* uvio_decode_cm(): JSON members ("cmd":0,"in":24,...,"fields":{...}) in
 * place of text. */
#define UVIO_DECODE_JSON 0x2u
/* uvio_decode_cmd(): buf is a write() command (struct ib_uverbs_cmd_hdr
 * first), decoded as uvio_decode_write() does, with the driver of
 * driver_id; with UVIO_DECODE_AFTER and fetch, its response is read at the
 * address the command names. */
#define UVIO_DECODE_WRITE 0x4u

struct uvio_decode_opts {
	size_t sz;			/* sizeof(struct uvio_decode_opts) */
	enum uvio_layout layout;
	unsigned int flags;		/* UVIO_DECODE_* */
	uvio_fetch_fn fetch;		/* NULL: pointers are shown, not followed */
	void *ctx;			/* for fetch */
	/* The device's driver (enum rdma_driver_id, RDMA_DRIVER_MLX5...), for
	 * what does not carry it: write() commands and the 2017 layout. An
	 * ioctl header's own driver_id, when not 0, is the one used. With a
	 * driver the tables describe, its objects, methods, attributes and
	 * driver data are decoded by name and field; 0: none. */
	uint32_t driver_id;
	uint32_t reserved;		/* 0 */
};

/*
 * uvio_decode() with options: with a fetch function, the data behind
 * pointer attributes (inputs longer than 8 bytes; outputs with
 * UVIO_DECODE_AFTER) is read and decoded too; with a driver (the header's
 * driver_id, or opts->driver_id), that driver's namespace and driver data
 * too. -EINVAL for an opts->sz too small, a layout or flags this library
 * does not know or a reserved field set, -E2BIG for non-zero bytes past the
 * struct this library knows, -EFAULT for buf or out NULL with a length.
 */
UVIO_API int uvio_decode_cmd(const void *buf, size_t len, const struct uvio_decode_opts *opts,
			     char *out, size_t size);

/*
 * Decode a write() command: the len bytes written (struct ib_uverbs_cmd_hdr,
 * then for extended commands struct ib_uverbs_ex_cmd_hdr, then the core
 * struct and any driver data), field by field, and the resp_len bytes of
 * response the kernel wrote back (core response, then driver data; NULL and
 * 0 for none or not yet). Never reads past len or resp_len. Returns the text
 * length, -EINVAL when len cannot hold the header, or -EFAULT for buf, resp
 * or out NULL with a length.
 */
UVIO_API int uvio_decode_write(const void *buf, size_t len, const void *resp,
			       size_t resp_len, char *out, size_t size);

/*
 * The connection manager's commands (/dev/infiniband/rdma_cm): the len
 * bytes written (struct rdma_ucm_cmd_hdr, then the command's struct) field
 * by field, and the resp_len bytes the kernel wrote to the response address
 * (NULL and 0 for none or not yet), from the same description of the ABI the
 * library's uvio_cm_* calls use; events are GET_EVENT's answer. flags:
 * UVIO_DECODE_JSON or 0. Returns the text length as uvio_decode() does, or
 * -EINVAL when len cannot hold the header (the text says so).
 */
UVIO_API int uvio_decode_cm(const void *buf, size_t len, const void *resp, size_t resp_len,
			    unsigned int flags, char *out, size_t size);
/* "CREATE_ID" ... "JOIN_MCAST" (RDMA_USER_CM_CMD_*), NULL when unknown. */
UVIO_API const char *uvio_cm_cmd_name(uint32_t cmd);
/* Where the kernel writes the answer of the command in buf: 1 with its
 * address and the length the header allows, 0 when it has none, -EINVAL
 * for a buffer too short or an unknown command. */
UVIO_API int uvio_cm_cmd_response(const void *buf, size_t len, uint64_t *addr,
				  uint32_t *resp_len);

/* Decode a built command, with the kinds the builder knows (whether an
 * attribute is an input or an output is not visible in the bytes), and the
 * memory its pointers name in this process (read with process_vm_readv(2):
 * a bad pointer shows as a pointer, never a crash); once the command ran
 * successfully, the outputs too. */
UVIO_API int uvio_cmd_format(const struct uvio_cmd *cmd, char *out, size_t size);

/*
 * The ABI tables, described: what the kernel expects of each attribute and
 * write() command, as this library knows it (the UAPI headers of Linux 7.2).
 * Sized structs: set sz to sizeof the struct; fields past it are not
 * written. 0, -ENOENT for an id the tables do not have, -EINVAL for a
 * missing struct or an sz smaller than a size_t.
 */
#define UVIO_ATTR_MANDATORY	0x1u	/* the method refuses to run without it */
#define UVIO_ATTR_COPY_ALL	0x2u	/* the kernel copies it in whole, any length */
#define UVIO_ATTR_ZERO_TAIL	0x4u	/* bytes past what the kernel knows must be 0 */
#define UVIO_ATTR_DRIVER	0x8u	/* driver data (UVERBS_ATTR_UHW_IN/OUT) */
#define UVIO_LEN_ANY		0xffffu

struct uvio_attr_desc {
	size_t sz;
	const char *name;
	enum uvio_attr_kind kind;
	unsigned int flags;		/* UVIO_ATTR_* */
	uint16_t min_len, max_len;	/* max_len UVIO_LEN_ANY: no bound */
	uint16_t object_id;		/* of an idr or fd attribute, else UINT16_MAX */
	const char *access;		/* "read", "write", "new", "destroy"; NULL */
	const char *type;		/* of the value: "u32", "qp_cap", "access_flags" */
};
UVIO_API int uvio_describe_attr(uint16_t object_id, uint16_t method_id, uint16_t attr_id,
				struct uvio_attr_desc *desc);

/*
 * The same in a driver's namespace: the objects, methods and attributes of
 * the driver (enum rdma_driver_id) whose tables this library has (mlx5),
 * ids 0x1000 and up, as well as the core's. For a driver without tables,
 * or 0, what the core-only lookups above answer. An object that takes a
 * handle of any object (mlx5's DEVX modify and query) has object_id
 * UINT16_MAX and access "read".
 */
UVIO_API const char *uvio_driver_object_name(uint32_t driver_id, uint16_t object_id);
UVIO_API const char *uvio_driver_method_name(uint32_t driver_id, uint16_t object_id,
					     uint16_t method_id);
UVIO_API int uvio_driver_describe_attr(uint32_t driver_id, uint16_t object_id,
				       uint16_t method_id, uint16_t attr_id,
				       struct uvio_attr_desc *desc);

#define UVIO_WRITE_EXTENDED	0x1u	/* with IB_USER_VERBS_CMD_FLAG_EXTENDED */
#define UVIO_WRITE_DRIVER_DATA	0x2u	/* driver data follows the core structs */
#define UVIO_WRITE_RESPONSE	0x4u	/* the request starts with the response pointer */
#define UVIO_WRITE_UNHANDLED	0x8u	/* the header names it, no kernel runs it */

struct uvio_write_desc {
	size_t sz;
	const char *name;		/* IB_USER_VERBS_[EX_]CMD_<name> */
	uint16_t object_id;		/* the object the kernel files it under */
	unsigned int flags;		/* UVIO_WRITE_* */
	const char *request;		/* core request struct (ib_uverbs_<request>), NULL */
	const char *response;		/* core response struct, NULL for none */
	uint16_t request_len, response_len;	/* their sizes */
};
/* The write() commands the tables know, index 0, 1, ... until -ENOENT; an
 * extended command's number carries IB_USER_VERBS_CMD_FLAG_EXTENDED. */
UVIO_API int uvio_known_write_cmd(unsigned int index, uint32_t *command);
UVIO_API int uvio_describe_write_cmd(uint32_t command, struct uvio_write_desc *desc);

#ifdef __cplusplus
}
#endif
#endif
