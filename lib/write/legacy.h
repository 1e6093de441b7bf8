/* SPDX-License-Identifier: MIT */
/* Internal: the legacy write() encoding of a verb, driver data included. */
#ifndef UVIO_LIB_LEGACY_H
#define UVIO_LIB_LEGACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cmd/memcheck.h"
#include "cmd/put_fixed.h"
#include "cmd/sys.h"
#include "device/dev.h"
#include "device/dev_fixed.h"

/* The largest plain core a caller may send (EX_CREATE_QP's request, 64
 * bytes, is the largest core of any command), with room for kernels to
 * grow; the posts' long cores are the library's own. */
#define UVIO_MAX_PLAIN_CORE 128u
/* Extended cores may be long: the WQ handles of an RWQ indirection table,
 * the specs of a flow rule (comp_mask and a handle, then up to 4 KiB). */
#define UVIO_MAX_EX_CORE (8u + 4096u)
/* The largest core response a write() command may ask for: the largest
 * any kernel has (EX_QUERY_DEVICE's, 304 bytes on 5.10 and 6.1) with room
 * to grow. */
#define UVIO_LEGACY_MAX_RESP 512u

/* A verb's driver data, checked; out is the default response space where
 * the caller gave none. */
struct drv_bufs {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	struct uvio_cmd *attrs;		/* driver attributes to join, or NULL */
};

/*
 * The default driver response space (UVIO_DEFAULT_DRV_OUT bytes): where a
 * driver answers a caller who gave no room for its answer. Nothing ever
 * reads it, so one space serves every command of every thread at once
 * (the kernels' writes into it race harmlessly), and no verb's frame
 * carries, or zeroes, 64 bytes for it.
 */
#define UVIO_DRV_SINK_LEN 64u
extern uint64_t uvio_drv_sink[UVIO_DRV_SINK_LEN / sizeof(uint64_t)];

static inline bool uvio_drv_default_out(const struct drv_bufs *b)
{
	return b->out == (void *)uvio_drv_sink;
}

/*
 * Every write() command of the library goes through this module by one
 * route, uvio_write(), sent as write() or carried by DEVICE/INVOKE_WRITE as
 * the path says. The verb builds the kernel's core struct after room for
 * the write() headers (UVIO_WRITE_BUF): struct ib_uverbs_cmd_hdr, and for
 * an extended command struct ib_uverbs_ex_cmd_hdr, are laid in that room
 * in front of the core, so the core is never copied unless driver data must
 * follow it.
 *  - command: IB_USER_VERBS_CMD_*, or IB_USER_VERBS_CMD_FLAG_EXTENDED |
 *    IB_USER_VERBS_EX_CMD_* for an extended one (UVIO_EX());
 *  - core: a plain core starts with the response address, which this
 *    module fills in on write() and zeroes over INVOKE_WRITE; an extended
 *    core is what follows struct ib_uverbs_ex_cmd_hdr. A verb with a
 *    variable tail (posts, a flow rule, an indirection table) lays it after
 *    the core in the same buffer and counts it in core_len;
 *  - resp: the core response; drv (may be NULL): the driver's data, after
 *    both.
 */
#define UVIO_WRITE_ROOM 24u
_Static_assert(UVIO_WRITE_ROOM ==
		       sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_ex_cmd_hdr),
	       "room for both write() headers");
#define UVIO_WRITE_BUF(type)                                                                    \
	struct {                                                                                \
		uint64_t room[UVIO_WRITE_ROOM / 8];                                            \
		type core;                                                                      \
	}
#define UVIO_EX(command) (IB_USER_VERBS_CMD_FLAG_EXTENDED | (command))

/* Driver attributes to join: they ride on ioctl methods only, never on a
 * write() command. */
static inline bool uvio_drv_has_attrs(const struct drv_bufs *drv)
{
	return drv && drv->attrs && drv->attrs->num_attrs;
}

/*
 * INVOKE_WRITE is one of the library's fixed commands (device/dev_fixed.h):
 * its ids are fixed and distinct, its lengths bounded by the callers
 * (UVIO_MAX_EX_CORE, UVIO_LEGACY_MAX_RESP, UVIO_MAX_DRV_DATA, a post's bytes), and it has at
 * most five records: WRITE_CMD, CORE_IN, CORE_OUT, UHW_IN, UHW_OUT.
 */
_Static_assert(UVIO_FX_MAX_ATTRS >= 5, "room for INVOKE_WRITE's records");

/* WRITE_CMD, then the core and its response where the command has them. */
static inline void uvio_iw_core(struct uvio_fx_cmd *c, uint32_t command, const void *core,
				size_t core_len, void *resp, size_t resp_len)
{
	c->n = 0;
	uvio_fx_put(c, UVERBS_ATTR_WRITE_CMD, UVIO_KIND_PTR_IN, 8, command);
	if (core_len)
		uvio_fx_put(c, UVERBS_ATTR_CORE_IN, UVIO_KIND_PTR_IN, core_len,
			    fput_data(core, core_len));
	if (resp_len)
		uvio_fx_put(c, UVERBS_ATTR_CORE_OUT, UVIO_KIND_PTR_OUT, resp_len, (uintptr_t)resp);
}

static inline int uvio_iw_send(struct uvio_device *dev, struct uvio_fx_cmd *c)
{
	return uvio_fx_send(dev, UVIO_PATH_INVOKE_WRITE, c, UVERBS_OBJECT_DEVICE,
			    UVERBS_METHOD_INVOKE_WRITE);
}

/*
 * The write() headers, the one layout of every write() command, laid in
 * the room in front of the core (at buf + UVIO_WRITE_ROOM): returns where
 * the command starts, *len its length. A plain command counts 4-byte words:
 * of the whole buffer in, of the response (and the driver's answer after
 * it) out, and names its response first in the core. An extended one
 * counts 8-byte words of the core and of the core response, the driver's
 * in and out apart, and names its response in its own header.
 */
static inline void uvio_write_plain_hdr(struct ib_uverbs_cmd_hdr *h, uint32_t command,
					size_t in_len, size_t out_len)
{
	h->command = command;
	h->in_words = (__u16)(in_len / 4);
	h->out_words = (__u16)(out_len / 4);
}

static inline void *uvio_write_hdr(uint64_t *buf, uint32_t command, size_t core_len,
				   size_t resp_len, __u64 response, size_t drv_in, size_t drv_out,
				   size_t *len)
{
	uint8_t *core = (uint8_t *)buf + UVIO_WRITE_ROOM;
	struct ib_uverbs_cmd_hdr *h;

	if (command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		struct ib_uverbs_ex_cmd_hdr *ex = (struct ib_uverbs_ex_cmd_hdr *)(buf + 1);

		h = (struct ib_uverbs_cmd_hdr *)buf;
		h->command = command;
		h->in_words = (__u16)(core_len / 8);
		h->out_words = (__u16)(resp_len / 8);
		ex->response = resp_len ? response : 0;
		ex->provider_in_words = (__u16)(drv_in / 8);
		ex->provider_out_words = (__u16)(drv_out / 8);
		ex->cmd_hdr_reserved = 0;
		*len = UVIO_WRITE_ROOM + core_len + drv_in;
		return h;
	}
	h = (struct ib_uverbs_cmd_hdr *)core - 1;
	*len = sizeof(*h) + core_len + drv_in;
	uvio_write_plain_hdr(h, command, *len, resp_len + drv_out);
	if (resp_len)
		memcpy(core, &response, sizeof(response));
	return h;
}

/*
 * The lengths the ABI takes as they are: whole words (8 bytes for an
 * extended command) that its 16-bit counts hold, and a plain core that
 * answers long enough to name its response. With a verb's constant lengths
 * the test folds away.
 */
#define uvio_write_lengths_ok(ex, core_len, resp_len)                                           \
	((ex) ? !(((core_len) | (resp_len)) % 8) && (core_len) / 8 <= UINT16_MAX &&             \
			(resp_len) / 8 <= UINT16_MAX                                            \
	      : !(((core_len) | (resp_len)) % 4) && (!(resp_len) || (core_len) >= 8) &&        \
			(8 + (core_len)) / 4 <= UINT16_MAX && (resp_len) / 4 <= UINT16_MAX)
/* Driver data to send or to read back: the verb's call says where it is
 * inlined (a constant NULL folds). */
#define uvio_write_has_drv(drv, resp_len)                                                       \
	(!(__builtin_constant_p(!(drv)) && !(drv)) && (drv) &&                                 \
	 ((drv)->in_len || ((resp_len) && (drv)->out_len) || uvio_drv_has_attrs(drv)))

/* What does not go straight: driver data after the core (copied once
 * behind it, the answer split), lengths the ABI does not take as they are
 * (checked, padded), and INVOKE_WRITE with driver data (legacy.c). */
int uvio_write_slow(struct uvio_device *dev, enum uvio_path p, uint32_t command, uint64_t *buf,
		    size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
	__attribute__((noinline));

/*
 * The route, every write() command's: buf holds UVIO_WRITE_ROOM bytes of
 * room, then the core, core_len bytes. Inline, so that with a verb's
 * constant lengths and no driver data it is the header's few stores in the
 * room and the system call, the kernel answering straight into the
 * caller's response; the rest goes through uvio_write_slow(). Over
 * INVOKE_WRITE the core and the response go as they are (a plain core's
 * response address zeroed).
 */
static inline __attribute__((always_inline)) int
uvio_write_run(struct uvio_device *dev, enum uvio_path p, uint32_t command, uint64_t *buf,
	       size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	const bool ex = command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	uint8_t *core = (uint8_t *)buf + UVIO_WRITE_ROOM;
	size_t len;
	void *at;
	int ret;

	if (!uvio_write_lengths_ok(ex, core_len, resp_len) || uvio_write_has_drv(drv, resp_len))
		return uvio_write_slow(dev, p, command, buf, core_len, resp, resp_len, drv);
	if (p == UVIO_PATH_INVOKE_WRITE) {
		/* CORE_OUT says where the response goes: a plain core's
		 * own address must read zero there. */
		struct uvio_fx_cmd c;

		if (!ex && resp_len)
			memset(core, 0, sizeof(__u64));
		uvio_iw_core(&c, command, core, core_len, resp, resp_len);
		return uvio_iw_send(dev, &c);
	}
	/* An extended response grows with the kernel, and an older kernel
	 * writes only the part it knows: the rest reads as zero. */
	if (ex && resp_len)
		memset(resp, 0, resp_len);
	at = uvio_write_hdr(buf, command, core_len, resp_len, (uintptr_t)resp, 0, 0, &len);
	ret = uvio_dev_write(dev, at, len);
	/* A plain response is the same struct on every kernel and comes
	 * back whole; memcheck does not know that write() answers. */
	if (!ret && !ex)
		uvio_memcheck_written(resp, resp_len);
	return ret;
}

/* A command built in a UVIO_WRITE_BUF: its room and its whole core. */
#define uvio_write(dev, p, command, wbuf, resp, resp_len, drv)                                 \
	uvio_write_run(dev, p, command, (wbuf).room, sizeof((wbuf).core), resp, resp_len, drv)

#endif
