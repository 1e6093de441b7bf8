/* SPDX-License-Identifier: MIT */
/*
 * Internal: an ioctl method of the library's own, laid out without the
 * builder. Its ids are constants and distinct, its lengths the ABI's or
 * bounded by its verb, and it never carries a caller's driver attributes,
 * so none of struct uvio_cmd's checks could fail and the command path does
 * not pay for them: the records are written in place, the header last, and
 * the ioctl goes. Traced, or on the 2017 layout (4.14-4.16), the same
 * records run as a struct uvio_cmd (cold, out of line), which the tracer
 * decodes and which knows the old header.
 */
#ifndef UVIO_LIB_DEV_FIXED_H
#define UVIO_LIB_DEV_FIXED_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include "cmd/memcheck.h"
#include "cmd/sys.h"
#include "device/dev.h"

#define UVIO_FX_MAX_ATTRS 5

struct uvio_fx_cmd {
	uint64_t buf[UVIO_CMD_BUF_SIZE(UVIO_FX_MAX_ATTRS) / 8];	/* header, records */
	uint8_t kind[UVIO_FX_MAX_ATTRS];	/* enum uvio_attr_kind, for the slow path */
	uint16_t n;
};

static inline struct ib_uverbs_attr *uvio_fx_attr(struct uvio_fx_cmd *c, unsigned int i)
{
	return (struct ib_uverbs_attr *)((char *)c->buf + sizeof(struct ib_uverbs_ioctl_hdr)) + i;
}

/* No room is checked here: every user puts a fixed number of records,
 * straight-line, at most UVIO_FX_MAX_ATTRS (MR.QUERY and INVOKE_WRITE with
 * driver data: 5; lib/write/legacy.h asserts its own count). */
static inline struct ib_uverbs_attr *uvio_fx_put(struct uvio_fx_cmd *c, uint16_t id,
						 enum uvio_attr_kind kind, size_t len,
						 uint64_t data)
{
	struct ib_uverbs_attr *a = uvio_fx_attr(c, c->n);

	c->kind[c->n++] = (uint8_t)kind;
	a->attr_id = id;
	a->len = (uint16_t)len;
	a->flags = UVERBS_ATTR_F_MANDATORY;
	a->attr_data.reserved = 0;
	a->data = data;
	return a;
}

static inline void uvio_fx_idr(struct uvio_fx_cmd *c, uint16_t id, uint32_t handle)
{
	uvio_fx_put(c, id, UVIO_KIND_IDR, 0, handle);
}

/* A number the kernel takes as a u64 whatever its declared type. */
static inline void uvio_fx_u64(struct uvio_fx_cmd *c, uint16_t id, uint64_t v)
{
	uvio_fx_put(c, id, UVIO_KIND_PTR_IN, sizeof(v), v);
}

/* An output buffer; the verb bounds len (16 bits in the ABI). */
static inline struct ib_uverbs_attr *uvio_fx_out(struct uvio_fx_cmd *c, uint16_t id, void *p,
						 size_t len)
{
	return uvio_fx_put(c, id, UVIO_KIND_PTR_OUT, len, (uintptr_t)p);
}

/* A new fd, read from its record after success. */
static inline void uvio_fx_fd_new(struct uvio_fx_cmd *c, uint16_t id)
{
	uvio_fx_put(c, id, UVIO_KIND_FD_NEW, 0, (uint64_t)-1);
}

/* The fd the kernel wrote into record i, if it is one. */
static inline int uvio_fx_read_fd(struct uvio_fx_cmd *c, unsigned int i, int *fd)
{
	int64_t v = (int64_t)uvio_fx_attr(c, i)->data;

	if (v < 0 || v > INT32_MAX)
		return -ERANGE;
	*fd = (int)v;
	return 0;
}

int uvio_fx_send_slow(struct uvio_device *dev, enum uvio_path p, struct uvio_fx_cmd *c,
		      uint16_t object, uint16_t method) __attribute__((cold));

/* The header, then the one system call; 0 or a negative errno. Outputs
 * the kernel writes into the records (new handles and fds, VALID_OUTPUT)
 * are read from them afterwards, on either path; memcheck is told what
 * the output buffers now hold. */
static inline int uvio_fx_send(struct uvio_device *dev, enum uvio_path p, struct uvio_fx_cmd *c,
			       uint16_t object, uint16_t method)
{
	struct ib_uverbs_ioctl_hdr *h = (struct ib_uverbs_ioctl_hdr *)c->buf;
	int ret;

	if (__builtin_expect(dev->trace || p == UVIO_PATH_IOCTL_2017, 0))
		return uvio_fx_send_slow(dev, p, c, object, method);
	h->length = (uint16_t)(sizeof(*h) + c->n * sizeof(struct ib_uverbs_attr));
	h->object_id = object;
	h->method_id = method;
	h->num_attrs = c->n;
	h->reserved1 = 0;
	h->driver_id = dev->driver_id;
	h->reserved2 = 0;
	ret = uvio_sys_ioctl(dev->fd, UVIO_IOCTL_REQ_CURRENT, h);
	if (!ret)
		uvio_memcheck_records(uvio_fx_attr(c, 0), c->kind, c->n);
	return ret;
}

/* A method whose one attribute names the object it destroys. */
static inline int uvio_fx_destroy(struct uvio_device *dev, enum uvio_path p, uint16_t object,
				  uint16_t method, uint16_t attr, uint32_t handle)
{
	struct uvio_fx_cmd c;

	c.n = 0;
	uvio_fx_idr(&c, attr, handle);
	return uvio_fx_send(dev, p, &c, object, method);
}

#endif
