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
 * Every write() command of the library goes through this module, sent as
 * write() or carried by DEVICE/INVOKE_WRITE as the path says. A command is
 * described, not laid out, by its verb:
 *  - command: IB_USER_VERBS_CMD_*, or with ex an IB_USER_VERBS_EX_CMD_*;
 *  - core: the kernel's struct for it. For plain commands it starts with
 *    the response address, which this module fills in; for extended ones
 *    it is what follows struct ib_uverbs_ex_cmd_hdr. A core may go on with
 *    a variable tail (the WQ handles of an indirection table, a flow rule),
 *    copied after it once, the whole zero-padded to min_core bytes;
 *  - resp: the core response; drv (may be NULL): the driver's data, after
 *    both.
 */
struct uvio_write_cmd {
	uint32_t command;
	bool ex;
	const void *core;
	size_t core_len;
	const void *tail;
	size_t tail_len;
	size_t min_core;
	void *resp;
	size_t resp_len;
	const struct drv_bufs *drv;
};
int uvio_write_send(struct uvio_device *dev, enum uvio_path p, const struct uvio_write_cmd *c);

/* Driver attributes to join: they ride on ioctl methods only, never on a
 * write() command. */
static inline bool uvio_drv_has_attrs(const struct drv_bufs *drv)
{
	return drv && drv->attrs && drv->attrs->num_attrs;
}

/*
 * INVOKE_WRITE is one of the library's fixed commands (device/dev_fixed.h):
 * its ids are fixed and distinct, its lengths bounded by the callers
 * (UVIO_MAX_EX_CORE, UVIO_LEGACY_MAX_RESP, UVIO_MAX_DRV_DATA), and it has at
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

/* The command over DEVICE/INVOKE_WRITE, core and response as they are
 * (command with IB_USER_VERBS_CMD_FLAG_EXTENDED for an extended one). */
int uvio_write_invoke(struct uvio_device *dev, uint32_t command, const void *core,
		      size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv);

/* The same without driver data, inline: with a verb's constant lengths it
 * is a few stores and the system call. */
static inline __attribute__((always_inline)) int
uvio_write_invoke_bare(struct uvio_device *dev, uint32_t command, const void *core,
		       size_t core_len, void *resp, size_t resp_len)
{
	struct uvio_fx_cmd c;

	uvio_iw_core(&c, command, core, core_len, resp, resp_len);
	return uvio_iw_send(dev, &c);
}

/*
 * The library's own commands: their lengths are the ABI's constants and
 * their cores leave the response address zero, so over INVOKE_WRITE they go
 * straight out, without the checks uvio_write_send() makes of a caller's.
 */
static inline bool uvio_legacy_direct(enum uvio_path p, const struct drv_bufs *drv)
{
	return p == UVIO_PATH_INVOKE_WRITE && !uvio_drv_has_attrs(drv);
}

/* The write() headers. A plain command counts 4-byte words: of the whole
 * buffer in, of the response (and the driver's answer after it) out. An
 * extended one counts 8-byte words of the core and of the core response,
 * the driver's in and out apart, and names its response in its own header. */
static inline void uvio_plain_hdr(struct ib_uverbs_cmd_hdr *h, uint32_t command, size_t in_len,
				  size_t out_len)
{
	h->command = command;
	h->in_words = (__u16)(in_len / 4);
	h->out_words = (__u16)(out_len / 4);
}

static inline void uvio_ex_hdr(struct ib_uverbs_cmd_hdr *h, uint32_t command, size_t core_len,
			       size_t resp_len, __u64 response, size_t drv_in, size_t drv_out)
{
	struct ib_uverbs_ex_cmd_hdr *ex = (struct ib_uverbs_ex_cmd_hdr *)(h + 1);

	h->command = IB_USER_VERBS_CMD_FLAG_EXTENDED | command;
	h->in_words = (__u16)(core_len / 8);
	h->out_words = (__u16)(resp_len / 8);
	ex->response = response;
	ex->provider_in_words = (__u16)(drv_in / 8);
	ex->provider_out_words = (__u16)(drv_out / 8);
	ex->cmd_hdr_reserved = 0;
}

/*
 * The fixed-layout fast path: lengths that keep the ABI's rules (the
 * verbs' are constants, and the test folds away) and no driver data, which
 * the verb's call says where it is inlined; anything else takes
 * uvio_write_send(). A command without a response has no driver output
 * either: there one load tells whether the caller passed driver input.
 */
#define UVIO_FIXED_MAX_CORE 128u
/* The ABI's rules for the lengths: in bounds, in words (8 bytes for an
 * extended command), and a plain core that answers names its response. */
#define uvio_legacy_lengths_fixed(ex, core_len, resp_len)                                       \
	((core_len) <= UVIO_FIXED_MAX_CORE && (resp_len) <= UVIO_LEGACY_MAX_RESP &&            \
	 !(((core_len) | (resp_len)) % ((ex) ? 8 : 4)) && ((ex) || !(resp_len) || (core_len) >= 8))
#define uvio_legacy_fixed(drv, ex, core_len, resp_len)                                          \
	(uvio_legacy_lengths_fixed(ex, core_len, resp_len) &&                                  \
	 ((__builtin_constant_p(!(drv)) && !(drv)) ||                                          \
	  (!(resp_len) && (drv) && !(drv)->in_len && !uvio_drv_has_attrs(drv))))

/*
 * write() of one of the library's own commands: the header and the core on
 * this frame, the kernel answering straight into the caller's response.
 * Inline, so that with the verbs' constant lengths the copies are a few
 * moves and none of the checks uvio_write_send() makes of a caller's
 * lengths remain.
 */
static inline __attribute__((always_inline)) int
uvio_write_fixed(struct uvio_device *dev, uint32_t command, bool ex, const void *core,
		 size_t core_len, void *resp, size_t resp_len)
{
	union {
		uint64_t align;
		struct {
			struct ib_uverbs_cmd_hdr hdr;
			struct ib_uverbs_ex_cmd_hdr ex;
			uint8_t core[UVIO_FIXED_MAX_CORE];
		} e;
		struct {
			struct ib_uverbs_cmd_hdr hdr;
			uint8_t core[UVIO_FIXED_MAX_CORE];
		} p;
	} b;
	__u64 at = (uintptr_t)resp;
	int ret;

	if (ex) {
		/* An extended response grows with the kernel, and an older
		 * kernel writes only the part it knows: the rest reads as
		 * zero. */
		if (resp_len)
			memset(resp, 0, resp_len);
		uvio_ex_hdr(&b.e.hdr, command, core_len, resp_len, resp_len ? at : 0, 0, 0);
		memcpy(b.e.core, core, core_len);
		return uvio_dev_write(dev, &b, sizeof(b.e.hdr) + sizeof(b.e.ex) + core_len);
	}
	uvio_plain_hdr(&b.p.hdr, command, sizeof(b.p.hdr) + core_len, resp_len);
	memcpy(b.p.core, core, core_len);
	/* Every plain command that answers names its response first. A plain
	 * response is the same struct on every kernel and comes back whole;
	 * memcheck does not know that write() answers, so it is told. */
	if (resp_len)
		memcpy(b.p.core, &at, sizeof(at));
	ret = uvio_dev_write(dev, &b, sizeof(b.p.hdr) + core_len);
	if (!ret)
		uvio_memcheck_written(resp, resp_len);
	return ret;
}

/*
 * The same for a plain command that carries driver data nobody reads back:
 * input of at most UVIO_FIXED_MAX_DRV_IN bytes (rxe's SRQ resize address,
 * siw's MR key) and, where the command answers, the default driver space
 * (what a creating verb offers when its caller gave no struct uvio_drv).
 * Out of line, its lengths still the verb's to keep (the test below).
 */
#define UVIO_FIXED_MAX_DRV_IN 64u
#define uvio_legacy_fixed_drv(drv, core_len, resp_len)                                          \
	(uvio_legacy_lengths_fixed(false, core_len, resp_len) && (drv) &&                      \
	 (drv)->in_len <= UVIO_FIXED_MAX_DRV_IN && !uvio_drv_has_attrs(drv) &&                 \
	 (!(resp_len) || uvio_drv_default_out(drv)))
int uvio_write_plain_drv(struct uvio_device *dev, uint32_t command, const void *core,
			 size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv);

static inline __attribute__((always_inline)) int
uvio_legacy_cmd(struct uvio_device *dev, enum uvio_path p, uint32_t command, const void *core,
		size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	if (uvio_legacy_fixed(drv, false, core_len, resp_len)) {
		if (p == UVIO_PATH_INVOKE_WRITE)
			return uvio_write_invoke_bare(dev, command, core, core_len, resp, resp_len);
		if (p == UVIO_PATH_WRITE)
			return uvio_write_fixed(dev, command, false, core, core_len, resp, resp_len);
	} else if (p == UVIO_PATH_WRITE && uvio_legacy_fixed_drv(drv, core_len, resp_len)) {
		return uvio_write_plain_drv(dev, command, core, core_len, resp, resp_len, drv);
	}
	if (uvio_legacy_direct(p, drv))
		return uvio_write_invoke(dev, command, core, core_len, resp, resp_len, drv);
	const struct uvio_write_cmd c = {
		.command = command, .core = core, .core_len = core_len,
		.resp = resp, .resp_len = resp_len, .drv = drv,
	};

	return uvio_write_send(dev, p, &c);
}

static inline __attribute__((always_inline)) int
uvio_legacy_cmd_ex(struct uvio_device *dev, enum uvio_path p, uint32_t command, const void *core,
		   size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	if (uvio_legacy_fixed(drv, true, core_len, resp_len)) {
		if (p == UVIO_PATH_INVOKE_WRITE)
			return uvio_write_invoke_bare(dev, IB_USER_VERBS_CMD_FLAG_EXTENDED | command,
						      core, core_len, resp, resp_len);
		if (p == UVIO_PATH_WRITE)
			return uvio_write_fixed(dev, command, true, core, core_len, resp, resp_len);
	}
	if (uvio_legacy_direct(p, drv))
		return uvio_write_invoke(dev, IB_USER_VERBS_CMD_FLAG_EXTENDED | command, core,
					 core_len, resp, resp_len, drv);
	const struct uvio_write_cmd c = {
		.command = command, .ex = true, .core = core, .core_len = core_len,
		.resp = resp, .resp_len = resp_len, .drv = drv,
	};

	return uvio_write_send(dev, p, &c);
}

/*
 * A plain command its verb laid out itself, because its core is long and
 * copying it twice would cost (the data-path posts: WRs and SGEs after the
 * core): buf holds [struct ib_uverbs_cmd_hdr | core ...], len bytes in all;
 * the core's first field is the response address. The response lands in
 * resp directly.
 */
int uvio_write_laid_out(struct uvio_device *dev, enum uvio_path p, uint32_t command, void *buf,
			size_t len, void *resp, size_t resp_len);

#endif
