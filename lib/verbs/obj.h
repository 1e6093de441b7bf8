/* SPDX-License-Identifier: MIT */
/* What the object verbs (SRQ, AH, MW, MR extras, DM, WQ, flows, counters)
 * share: taking a sized input whole, and reading back a new handle. */
#ifndef UVIO_VERBS_OBJ_H
#define UVIO_VERBS_OBJ_H

#include "verb.h"

/*
 * Take the caller's sized input struct into dst (the library's own copy of
 * the same type, dst_size bytes): checked as uvio_opts_check() does with
 * known the end of the last field this library knows, then copied up to the
 * caller's sz, zero beyond. The encoders then read dst without UVIO_OPT.
 */
static inline __attribute__((always_inline)) int obj_in(void *dst, size_t dst_size,
							 const void *attr, size_t known)
{
	const unsigned char *d = (const unsigned char *)dst;
	int ret;
	size_t sz;

	/* A caller built with this header: one copy of the verb's constant
	 * size, and the bytes past the last field this library knows (its
	 * reserved ones) checked in the copy, a few constant compares. */
	if (__builtin_expect(attr && *(const size_t *)attr == dst_size, 1)) {
		memcpy(dst, attr, dst_size);
		return uvio_tail_zero(d, known, dst_size) ? 0 : -E2BIG;
	}
	ret = uvio_opts_check(attr, known, 1);
	if (ret)
		return ret;
	sz = *(const size_t *)attr;
	memset(dst, 0, dst_size);
	memcpy(dst, attr, sz < dst_size ? sz : dst_size);
	*(size_t *)dst = dst_size;
	return 0;
}

/* An output struct that must at least hold the field ending at need (the
 * new object's handle: without it the object would be lost). */
static inline int obj_out(const void *out, size_t need)
{
	return uvio_out_check(out) || *(const size_t *)out < need ? -EINVAL : 0;
}

/* For methods whose kernel spec has no UHW attributes (DM/ALLOC,
 * COUNTERS/CREATE, FLOW_ACTION/ESP_*): the caller's driver data goes (a
 * provider may have added attributes), the default response space does not. */
static inline void obj_drv_no_default(struct drv_bufs *b)
{
	if (uvio_drv_default_out(b))
		b->out_len = 0;
}

/* The handle of a new object, as the kernel wrote it into the data of its
 * IDR attribute (the kernel's handles are 32 bits). */
static inline int uvio_new_handle(const struct ib_uverbs_attr *a, uint32_t *handle)
{
	if (a->data > UINT32_MAX)
		return -ERANGE;
	*handle = (uint32_t)a->data;
	return 0;
}

/* Run a command that creates an object, with the verb's driver data joined,
 * and read the new handle from its attribute. */
static inline int obj_exec_new(struct uvio_device *dev, struct uvio_cmd *cmd,
			       const struct drv_bufs *b, const struct ib_uverbs_attr *handle,
			       uint32_t *h)
{
	int ret;

	uvio_put_drv(cmd, b);
	ret = uvio_dev_exec(dev, cmd);
	uvio_drv_copy_back(cmd, b);
	return ret ? ret : uvio_new_handle(handle, h);
}

#endif
