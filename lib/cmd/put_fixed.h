/* SPDX-License-Identifier: MIT */
/*
 * Internal: puts for the commands the library lays out itself. Their ids
 * are constants, distinct by construction, their lengths constants of the
 * ABI, and UVIO_DEV_CMD sizes the buffer for them: none of the checks that
 * protect a caller-built command (duplicates, lengths, NULL) could fail, so
 * the command path does not pay for them; room alone is still checked.
 * What follows a fixed put (the caller's driver attributes, joined by the
 * checked puts) is still checked: outputs widen the hull that the overlap
 * check of a later output reads, and the caller's ids are driver-namespace
 * ones, which no fixed put uses.
 */
#ifndef UVIO_LIB_CMD_PUT_FIXED_H
#define UVIO_LIB_CMD_PUT_FIXED_H

#include <stdint.h>
#include <string.h>
#include <uvio/cmd.h>

static inline struct ib_uverbs_attr *fput(struct uvio_cmd *cmd, uint16_t id,
					  enum uvio_attr_kind kind, uint16_t len, uint64_t data)
{
	struct ib_uverbs_attr *a;

	/* The one check kept: a verb that miscounts its attributes fails
	 * with the builder's error, not by writing past its buffer. */
	if (__builtin_expect(cmd->num_attrs >= cmd->capacity, 0))
		return uvio__cmd_slot_slow(cmd, id);
	a = &cmd->attrs[cmd->num_attrs];
	cmd->kind[cmd->num_attrs++] = (uint8_t)kind;
	a->attr_id = id;
	a->len = len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->attr_data.reserved = 0;
	a->data = data;
	return a;
}

static inline struct ib_uverbs_attr *fput_idr(struct uvio_cmd *cmd, uint16_t id, uint32_t h)
{
	return fput(cmd, id, UVIO_KIND_IDR, 0, h);
}

static inline struct ib_uverbs_attr *fput_idr_new(struct uvio_cmd *cmd, uint16_t id)
{
	return fput(cmd, id, UVIO_KIND_IDR_NEW, 0, 0);
}

static inline struct ib_uverbs_attr *fput_u64(struct uvio_cmd *cmd, uint16_t id, uint64_t v)
{
	return fput(cmd, id, UVIO_KIND_PTR_IN, sizeof(v), v);
}

static inline struct ib_uverbs_attr *fput_u32(struct uvio_cmd *cmd, uint16_t id, uint32_t v)
{
	return fput(cmd, id, UVIO_KIND_PTR_IN, sizeof(v), v);
}

static inline struct ib_uverbs_attr *fput_fd(struct uvio_cmd *cmd, uint16_t id, int fd)
{
	return fput(cmd, id, UVIO_KIND_FD, 0, (uint64_t)(int64_t)fd);
}

static inline struct ib_uverbs_attr *fput_fd_new(struct uvio_cmd *cmd, uint16_t id)
{
	return fput(cmd, id, UVIO_KIND_FD_NEW, 0, (uint64_t)-1);
}

/* An input attribute's data: the bytes themselves up to 8, else their
 * address. */
static inline uint64_t fput_data(const void *p, size_t len)
{
	uint64_t v = 0;

	if (len > sizeof(v))
		return (uintptr_t)p;
	memcpy(&v, p, len);
	return v;
}

/* Input bytes of a fixed length. */
static inline struct ib_uverbs_attr *fput_in(struct uvio_cmd *cmd, uint16_t id, const void *p,
					     uint16_t len)
{
	return fput(cmd, id, UVIO_KIND_PTR_IN, len, fput_data(p, len));
}

static inline struct ib_uverbs_attr *fput_out(struct uvio_cmd *cmd, uint16_t id, void *p,
					      uint16_t len)
{
	uintptr_t lo = (uintptr_t)p;

	if (lo < cmd->out_lo)
		cmd->out_lo = lo;
	if (lo + len > cmd->out_hi)
		cmd->out_hi = lo + len;
	return fput(cmd, id, UVIO_KIND_PTR_OUT, len, lo);
}

#endif
