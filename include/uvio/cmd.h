/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: the command builder and executor.
 *
 * A command is a struct ib_uverbs_ioctl_hdr followed by an array of
 * struct ib_uverbs_attr records, laid out in a buffer the caller owns (usually
 * on the stack, see UVIO_CMD_DEFINE). The uvio_put_* functions append one
 * attribute each; they are inline and never allocate. Misuse (too many
 * attributes, a duplicate id, a length the ABI cannot carry, overlapping
 * output buffers) does not stop the caller mid-way: it is recorded once in the
 * command, later puts are ignored, and uvio_cmd_exec() returns the recorded
 * error without issuing anything.
 *
 * Every put returns the attribute it wrote, so flags can be adjusted in place:
 *
 *	uvio_attr_optional(uvio_put_ptr_out(&cmd, ATTR, &resp, sizeof(resp)));
 *
 * After a failed put the returned pointer is a scratch record inside the
 * command: writing to it is harmless and never reaches the kernel.
 */
#ifndef UVIO_CMD_H
#define UVIO_CMD_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <rdma/rdma_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_cmds.h>

#include <uvio/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Header layouts. The 2017 one (kernels 4.14 to 4.16 built with
 * CONFIG_INFINIBAND_EXP_USER_ACCESS) has no driver_id and is 16 bytes long,
 * which also changes the ioctl request number. */
enum uvio_layout {
	UVIO_LAYOUT_CURRENT = 0,
	UVIO_LAYOUT_2017 = 1,
};

struct uvio_ioctl_hdr_2017 {
	__u16 length;
	__u16 object_id;
	__u16 method_id;
	__u16 num_attrs;
	__aligned_u64 reserved;
};

#define UVIO_IOCTL_REQ_CURRENT 0xc0181b01UL /* _IOWR(0x1b, 1, 24 bytes) */
#define UVIO_IOCTL_REQ_2017    0xc0101b01UL /* _IOWR(0x1b, 1, 16 bytes) */

/* The kernel copies the whole command in at once and refuses one longer than
 * a page. */
#define UVIO_CMD_MAX_BYTES 4096u
#define UVIO_MAX_ATTRS \
	((UVIO_CMD_MAX_BYTES - sizeof(struct ib_uverbs_ioctl_hdr)) / \
	 sizeof(struct ib_uverbs_attr))

/* The driver namespace: bit 12 of an object, method or attribute id (the
 * kernel's own name for it left its headers in Linux 7). */
#define UVIO_DRIVER_NS 0x1000u
/* An attribute id in the driver namespace (UVERBS_ATTR_UHW_IN is n = 0). */
#define UVIO_DRIVER_ATTR(n) ((uint16_t)(UVIO_DRIVER_NS | (n)))

/* Bytes of buffer for a command of up to n attributes, in either layout. */
#define UVIO_CMD_BUF_SIZE(n) \
	(sizeof(struct ib_uverbs_ioctl_hdr) + (n) * sizeof(struct ib_uverbs_attr))

/* What the caller said an attribute is. The kernel does not see this; the
 * executor and the decoder do. */
enum uvio_attr_kind {
	UVIO_KIND_PTR_IN = 1,	/* also u32/u64/flags values */
	UVIO_KIND_PTR_OUT,
	UVIO_KIND_IDR,		/* an existing object: READ, WRITE or DESTROY */
	UVIO_KIND_IDR_NEW,	/* the kernel writes the new handle back */
	UVIO_KIND_FD,		/* an fd object or a raw fd, in */
	UVIO_KIND_FD_NEW,	/* the kernel writes a new fd back */
	UVIO_KIND_ENUM_IN,
	UVIO_KIND_IDRS,		/* an array of u32 handles */
};

/* Where a command is in its life; uvio_cmd_exec() sets it on every run. */
enum uvio_cmd_state {
	UVIO_CMD_NOT_RUN = 0,
	UVIO_CMD_SUCCEEDED,	/* the kernel answered 0: outputs may be read */
	UVIO_CMD_FAILED,	/* refused by the builder or by the kernel */
};

/*
 * The command's state. Its layout is public so that the puts can be inline
 * and a command can live on the stack, and it is part of the ABI: 1.x
 * releases only add fields, in the reserved room (which uvio_cmd_init()
 * zeroes, so a field named there reads as zero from a program built
 * today) or after it, and size says which release's struct the caller's
 * program was built with: the library reads a later field only where size
 * covers it, and accepts any struct at least as long as 1.0's
 * (tests/package/growth.sh builds a program against this header and runs
 * it on a library whose struct grew). Read and change it only through the
 * functions of this header.
 */
struct uvio_cmd {
	struct ib_uverbs_ioctl_hdr *hdr;	/* start of the caller's buffer */
	struct ib_uverbs_attr *attrs;		/* hdr + 24, or + 16 in 2017 layout */
	uint16_t num_attrs;
	uint16_t capacity;			/* slots that fit buffer and page;
						 * 0 once an error is recorded */
	uint8_t layout;				/* enum uvio_layout */
	uint8_t state;				/* enum uvio_cmd_state */
	uint16_t size;				/* sizeof(struct uvio_cmd) as built */
	int error;				/* sticky builder error, negative */
	uint16_t error_attr;
	const char *error_msg;
	/* Ids 0..63 of the core and the driver namespace, for duplicate
	 * detection without a scan. */
	uint64_t seen_core, seen_driver;
	/* Hull of all output buffers: a new output that falls outside it
	 * cannot overlap any, so the full check is rarely needed. */
	uintptr_t out_lo, out_hi;
	int result;				/* of the last execution */
	struct ib_uverbs_attr scratch;		/* target of failed puts */
	uint8_t kind[UVIO_MAX_ATTRS];		/* enum uvio_attr_kind per slot */
	uint64_t reserved[4];			/* zero; room for 1.x */
};

/* Declare a buffer for n attributes and a command on it, ready to fill. */
#define UVIO_CMD_DEFINE(name, n, object, method)                               \
	uint64_t name##_buf[UVIO_CMD_BUF_SIZE(n) / sizeof(uint64_t)];         \
	struct uvio_cmd name;                                                  \
	uvio_cmd_init(&name, name##_buf, sizeof(name##_buf), (object), (method))

/*
 * Internals of the inline puts below, named uvio__ (two underscores): not
 * part of the interface, and not exported: the slow paths are compiled into
 * each caller (cold, out of its fast path), so the library's symbol table
 * holds only what callers may call. The library itself keeps one hidden
 * copy (UVIO_INTERNAL, defined by lib/cmd/cmd.c). Use the uvio_put_*
 * functions.
 */
#if defined(UVIO_INTERNAL)
#define UVIO__SLOW __attribute__((__visibility__("hidden"), __cold__, __noinline__))
#elif defined(__GNUC__)
#define UVIO__SLOW static __attribute__((__cold__, __noinline__, __unused__))
#else
#define UVIO__SLOW static
#endif

#ifdef UVIO_INTERNAL
UVIO__SLOW struct ib_uverbs_attr *uvio__cmd_fail(struct uvio_cmd *cmd, int err, uint16_t attr_id,
						 const char *msg);
UVIO__SLOW struct ib_uverbs_attr *uvio__cmd_slot_slow(struct uvio_cmd *cmd, uint16_t attr_id);
UVIO__SLOW struct ib_uverbs_attr *uvio__cmd_check_output(struct uvio_cmd *cmd,
							 struct ib_uverbs_attr *a, uintptr_t lo,
							 size_t len);
#endif
#if !defined(UVIO_INTERNAL) || defined(UVIO__DEFINE_SLOW)
/* Records the first misuse, returns the scratch attribute. */
UVIO__SLOW struct ib_uverbs_attr *uvio__cmd_fail(struct uvio_cmd *cmd, int err, uint16_t attr_id,
						 const char *msg)
{
	if (!cmd->error) {
		cmd->error = err;
		cmd->error_attr = attr_id;
		cmd->error_msg = msg;
	}
	/* Every later put then takes the slow path, which ignores it. */
	cmd->capacity = 0;
	return &cmd->scratch;
}

/* The rare cases of the slot checks below (a full buffer, an earlier error,
 * a duplicate, an id outside the bitmaps). Returns the scratch attribute
 * when the put must not proceed, NULL when it may. */
UVIO__SLOW struct ib_uverbs_attr *uvio__cmd_slot_slow(struct uvio_cmd *cmd, uint16_t attr_id)
{
	unsigned int i;

	if (cmd->error)
		return &cmd->scratch;
	if (cmd->num_attrs >= cmd->capacity) {
		if (cmd->num_attrs >= UVIO_MAX_ATTRS)
			return uvio__cmd_fail(cmd, -E2BIG, attr_id, "command longer than one page");
		return uvio__cmd_fail(cmd, -ENOSPC, attr_id,
				      "more attributes than the command buffer holds");
	}
	for (i = 0; i < cmd->num_attrs; i++)
		if (cmd->attrs[i].attr_id == attr_id)
			return uvio__cmd_fail(cmd, -EEXIST, attr_id, "attribute id given twice");
	return NULL;
}

/* Full overlap check of a new output against earlier ones. Takes the
 * address as a number: it is never dereferenced. */
UVIO__SLOW struct ib_uverbs_attr *
uvio__cmd_check_output(struct uvio_cmd *cmd, struct ib_uverbs_attr *a, uintptr_t lo, size_t len)
{
	uintptr_t hi = lo + len;
	unsigned int i;

	for (i = 0; i + 1 < cmd->num_attrs; i++) {
		const struct ib_uverbs_attr *o = &cmd->attrs[i];

		if (cmd->kind[i] != UVIO_KIND_PTR_OUT || !o->len)
			continue;
		if (lo < o->data + o->len && o->data < hi)
			return uvio__cmd_fail(cmd, -EINVAL, a->attr_id,
					      "output buffer overlaps another output");
	}
	if (lo < cmd->out_lo)
		cmd->out_lo = lo;
	if (hi > cmd->out_hi)
		cmd->out_hi = hi;
	return a;
}
#endif

/*
 * Start a command in buf (8-byte aligned, at least UVIO_CMD_BUF_SIZE(0)
 * bytes) in today's layout with driver_id 0. Capacity is what fits in both
 * the buffer and one page. A buffer too small for the header is a sticky
 * -ENOSPC (nothing is written to it then).
 */
UVIO_INLINE void uvio_cmd_init(struct uvio_cmd *cmd, void *buf, size_t size,
			       uint16_t object_id, uint16_t method_id)
{
	struct ib_uverbs_ioctl_hdr *hdr = (struct ib_uverbs_ioctl_hdr *)buf;
	size_t slots;

	cmd->num_attrs = 0;
	cmd->layout = UVIO_LAYOUT_CURRENT;
	cmd->state = UVIO_CMD_NOT_RUN;
	cmd->size = (uint16_t)sizeof(*cmd);
	memset(cmd->reserved, 0, sizeof(cmd->reserved));
	cmd->error = 0;
	cmd->seen_core = cmd->seen_driver = 0;
	cmd->out_lo = UINTPTR_MAX;
	cmd->out_hi = 0;
	cmd->result = 0;
	if (!buf || size < sizeof(*hdr) || ((uintptr_t)buf & 7)) {
		cmd->hdr = NULL;
		cmd->attrs = NULL;
		cmd->capacity = 0;
		uvio__cmd_fail(cmd, -ENOSPC, 0, "command buffer missing, misaligned or smaller than the header");
		return;
	}
	/* Only now is hdr known to point at a usable header. */
	cmd->hdr = hdr;
	/* Past the header by arithmetic, not through hdr->attrs: kernel
	 * headers before 5.11 declare that array with size 0, and gcc 10 then
	 * warns about every attribute written (-Wstringop-overflow). */
	cmd->attrs = (struct ib_uverbs_attr *)((char *)buf + sizeof(*hdr));
	if (size > UVIO_CMD_MAX_BYTES)
		size = UVIO_CMD_MAX_BYTES;
	slots = (size - sizeof(*hdr)) / sizeof(struct ib_uverbs_attr);
	cmd->capacity = (uint16_t)slots;
	hdr->object_id = object_id;
	hdr->method_id = method_id;
	hdr->reserved1 = 0;
	hdr->driver_id = 0;
	hdr->reserved2 = 0;
}

/* driver_id of the device the command is for: the kernel refuses any other
 * value with EINVAL. Ignored in the 2017 layout, whose 16-byte header has no
 * such field (its bytes hold the first attribute there). */
UVIO_INLINE void uvio_cmd_set_driver_id(struct uvio_cmd *cmd, uint32_t id)
{
	if (cmd->hdr && cmd->layout == UVIO_LAYOUT_CURRENT)
		cmd->hdr->driver_id = id;
}

/* Choose the header layout; only before the first attribute. */
UVIO_API int uvio_cmd_set_layout(struct uvio_cmd *cmd, enum uvio_layout layout);

UVIO_INLINE int uvio_cmd_error(const struct uvio_cmd *cmd)
{
	return cmd->error;
}

/* Claim the next slot for attr_id, or return the scratch record. */
static inline struct ib_uverbs_attr *uvio__cmd_slot(struct uvio_cmd *cmd,
						   uint16_t attr_id,
						   enum uvio_attr_kind kind)
{
	struct ib_uverbs_attr *a;
	uint64_t bit;

	/* A recorded error zeroes the capacity: one test covers both. */
	if (__builtin_expect(cmd->num_attrs >= cmd->capacity, 0))
		return uvio__cmd_slot_slow(cmd, attr_id);
	if (__builtin_expect(attr_id < 64, 1)) {
		bit = 1ULL << attr_id;
		if (__builtin_expect(cmd->seen_core & bit, 0))
			return uvio__cmd_slot_slow(cmd, attr_id);
		cmd->seen_core |= bit;
	} else if ((uint16_t)(attr_id - UVIO_DRIVER_NS) < 64) {
		bit = 1ULL << (attr_id - UVIO_DRIVER_NS);
		if (__builtin_expect(cmd->seen_driver & bit, 0))
			return uvio__cmd_slot_slow(cmd, attr_id);
		cmd->seen_driver |= bit;
	} else if (uvio__cmd_slot_slow(cmd, attr_id)) {
		return &cmd->scratch;
	}
	cmd->kind[cmd->num_attrs] = (uint8_t)kind;
	a = &cmd->attrs[cmd->num_attrs++];
	a->attr_id = attr_id;
	a->len = 0;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->attr_data.reserved = 0;
	a->data = 0;
	return a;
}

/* Clear the mandatory flag: a kernel that does not know the attribute then
 * ignores it instead of failing the command with EPROTONOSUPPORT. */
UVIO_INLINE struct ib_uverbs_attr *uvio_attr_optional(struct ib_uverbs_attr *a)
{
	a->flags &= (__u16)~UVERBS_ATTR_F_MANDATORY;
	return a;
}

static inline struct ib_uverbs_attr *uvio__put_ptr_kind(struct uvio_cmd *cmd,
						       uint16_t attr_id,
						       enum uvio_attr_kind kind,
						       const void *ptr, size_t len)
{
	struct ib_uverbs_attr *a;

	if (__builtin_expect(len > UINT16_MAX, 0))
		return uvio__cmd_fail(cmd, -E2BIG, attr_id, "length over 65535 bytes");
	if (__builtin_expect(!ptr && len, 0))
		return uvio__cmd_fail(cmd, -EFAULT, attr_id, "NULL pointer with a non-zero length");
	a = uvio__cmd_slot(cmd, attr_id, kind);
	if (a == &cmd->scratch)
		return a;
	a->len = (__u16)len;
	/* The kernel takes 8 bytes or less from data itself, not through it. */
	if (len <= sizeof(a->data)) {
		if (len)
			memcpy(&a->data, ptr, len);
	} else
		a->data = (uintptr_t)ptr;
	return a;
}

/* Input bytes: copied inline when 8 or fewer, passed by pointer otherwise
 * (the buffer must then live until uvio_cmd_exec returns). */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_ptr_in(struct uvio_cmd *cmd,
						   uint16_t attr_id,
						   const void *ptr, size_t len)
{
	return uvio__put_ptr_kind(cmd, attr_id, UVIO_KIND_PTR_IN, ptr, len);
}

UVIO_INLINE struct ib_uverbs_attr *uvio_put_u32(struct uvio_cmd *cmd,
						uint16_t attr_id, uint32_t v)
{
	return uvio__put_ptr_kind(cmd, attr_id, UVIO_KIND_PTR_IN, &v, sizeof(v));
}

UVIO_INLINE struct ib_uverbs_attr *uvio_put_u64(struct uvio_cmd *cmd,
						uint16_t attr_id, uint64_t v)
{
	return uvio__put_ptr_kind(cmd, attr_id, UVIO_KIND_PTR_IN, &v, sizeof(v));
}

/* A FLAGS attribute: a bit mask; the kernel refuses unknown bits with
 * EINVAL. Sent as 8 bytes. The kernel's FLAGS attributes take 4 to 8 bytes
 * and their handlers read a u32 or a u64: on Linux 6.1 and 6.12 (rxe, siw)
 * every core FLAGS attribute present (CQ and QP CREATE FLAGS, MR ADVISE_MR
 * FLAGS and REG_DMABUF_MR ACCESS_FLAGS) took 4 and 8 bytes alike and
 * refused 0, 2, 12 and 16; CQ CREATE refused 6 (tests/kernel/kt_flags.c
 * measures it on every run). A u32 flags attribute refuses bits above 31
 * with EINVAL, whatever the length. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_flags(struct uvio_cmd *cmd,
						  uint16_t attr_id, uint64_t v)
{
	return uvio__put_ptr_kind(cmd, attr_id, UVIO_KIND_PTR_IN, &v, sizeof(v));
}

/* An output buffer the kernel writes. Always passed by pointer; buffers of
 * different outputs must not overlap. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_ptr_out(struct uvio_cmd *cmd,
						    uint16_t attr_id,
						    void *ptr, size_t len)
{
	struct ib_uverbs_attr *a;
	uintptr_t lo = (uintptr_t)ptr, hi = lo + len;

	if (__builtin_expect(len > UINT16_MAX, 0))
		return uvio__cmd_fail(cmd, -E2BIG, attr_id, "length over 65535 bytes");
	if (__builtin_expect(!ptr && len, 0))
		return uvio__cmd_fail(cmd, -EFAULT, attr_id, "NULL pointer with a non-zero length");
	a = uvio__cmd_slot(cmd, attr_id, UVIO_KIND_PTR_OUT);
	if (a == &cmd->scratch)
		return a;
	a->len = (__u16)len;
	a->data = lo;
	if (len) {
		if (__builtin_expect(lo < cmd->out_hi && hi > cmd->out_lo, 0))
			return uvio__cmd_check_output(cmd, a, lo, len);
		if (lo < cmd->out_lo)
			cmd->out_lo = lo;
		if (hi > cmd->out_hi)
			cmd->out_hi = hi;
	}
	return a;
}

/* An existing object by handle, for READ, WRITE or DESTROY access. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_idr(struct uvio_cmd *cmd,
						uint16_t attr_id, uint32_t handle)
{
	struct ib_uverbs_attr *a = uvio__cmd_slot(cmd, attr_id, UVIO_KIND_IDR);

	a->data = handle;
	return a;
}

/* A new object: the kernel writes its handle into the attribute; read it
 * with uvio_cmd_read_handle() after a successful execution. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_idr_new(struct uvio_cmd *cmd,
						    uint16_t attr_id)
{
	return uvio__cmd_slot(cmd, attr_id, UVIO_KIND_IDR_NEW);
}

/* An fd object (READ, WRITE or DESTROY access) or a raw fd such as a dmabuf. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_fd(struct uvio_cmd *cmd,
					       uint16_t attr_id, int fd)
{
	struct ib_uverbs_attr *a = uvio__cmd_slot(cmd, attr_id, UVIO_KIND_FD);

	a->data_s64 = fd;
	return a;
}

/* A new fd object; read it with uvio_cmd_read_fd() after success. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_fd_new(struct uvio_cmd *cmd,
						   uint16_t attr_id)
{
	struct ib_uverbs_attr *a = uvio__cmd_slot(cmd, attr_id, UVIO_KIND_FD_NEW);

	a->data_s64 = -1;
	return a;
}

/* An enum attribute: elem_id selects the variant, ptr/len its payload
 * (inline when 8 bytes or fewer, as for PTR_IN; may be empty). */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_enum(struct uvio_cmd *cmd,
						 uint16_t attr_id, uint8_t elem_id,
						 const void *ptr, size_t len)
{
	struct ib_uverbs_attr *a =
		uvio__put_ptr_kind(cmd, attr_id, UVIO_KIND_ENUM_IN, ptr, len);

	a->attr_data.enum_data.elem_id = elem_id;
	a->attr_data.enum_data.reserved = 0;
	return a;
}

/* An array of object handles (the kernel takes up to two inline). */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_idrs(struct uvio_cmd *cmd,
						 uint16_t attr_id,
						 const uint32_t *handles, size_t n)
{
	if (__builtin_expect(n > UINT16_MAX / sizeof(uint32_t), 0))
		return uvio__cmd_fail(cmd, -E2BIG, attr_id, "length over 65535 bytes");
	return uvio__put_ptr_kind(cmd, attr_id, UVIO_KIND_IDRS, handles,
				 n * sizeof(uint32_t));
}

/* Driver (udata) input and output, UVERBS_ATTR_UHW_IN / _OUT. */
UVIO_INLINE struct ib_uverbs_attr *uvio_put_uhw_in(struct uvio_cmd *cmd,
						   const void *ptr, size_t len)
{
	return uvio__put_ptr_kind(cmd, UVERBS_ATTR_UHW_IN, UVIO_KIND_PTR_IN, ptr, len);
}

UVIO_INLINE struct ib_uverbs_attr *uvio_put_uhw_out(struct uvio_cmd *cmd,
						    void *ptr, size_t len)
{
	return uvio_put_ptr_out(cmd, UVERBS_ATTR_UHW_OUT, ptr, len);
}

/*
 * Issue the command on a uverbs fd: one ioctl. Returns 0, the sticky builder
 * error (nothing is sent then), or the kernel's answer as a negative errno.
 * The request number follows the command's layout. A command may be issued
 * again: each run first clears the VALID_OUTPUT bits of its outputs and
 * resets its new handles and fds, so that what it reports afterwards comes
 * from that run alone.
 */
UVIO_API int uvio_cmd_exec(int fd, struct uvio_cmd *cmd);

/* Finish the header (length, num_attrs) without issuing: for tracing,
 * decoding, or a caller that issues the ioctl itself. Returns the command's
 * length in bytes, or the sticky error. */
UVIO_API int uvio_cmd_finish(const struct uvio_cmd *cmd);

/* The ioctl request number for a layout. */
UVIO_INLINE unsigned long uvio_layout_request(enum uvio_layout layout)
{
	return layout == UVIO_LAYOUT_2017 ? UVIO_IOCTL_REQ_2017 : UVIO_IOCTL_REQ_CURRENT;
}

/*
 * After execution: whether an output attribute holds data. A mandatory output
 * is filled whenever the command succeeded (kernels before 2019 never flagged
 * driver outputs); an optional one only if the kernel set
 * UVERBS_ATTR_F_VALID_OUTPUT. Nothing is valid after a failure.
 */
UVIO_API bool uvio_cmd_output_valid(const struct uvio_cmd *cmd, uint16_t attr_id);

/* The handle the kernel wrote into an IDR NEW attribute. -ENOENT: no such
 * attribute of that kind; -ENODATA: the command has not succeeded. */
UVIO_API int uvio_cmd_read_handle(const struct uvio_cmd *cmd, uint16_t attr_id,
				  uint32_t *handle);
/* Likewise for an FD NEW attribute; the caller owns the fd afterwards. */
UVIO_API int uvio_cmd_read_fd(const struct uvio_cmd *cmd, uint16_t attr_id, int *fd);

/* The builder's reason for a sticky error, or NULL; its attribute id in
 * *attr_id when non-NULL. */
UVIO_API const char *uvio_cmd_error_msg(const struct uvio_cmd *cmd, uint16_t *attr_id);

#ifdef __cplusplus
}
#endif
#endif /* UVIO_CMD_H */
