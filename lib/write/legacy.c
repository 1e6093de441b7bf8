// SPDX-License-Identifier: MIT
/*
 * With legacy.h (the inline layouts of the verbs' fixed commands), the one
 * place write() commands are laid out: every verb's, sent either as write()
 * or through the ioctl method DEVICE/INVOKE_WRITE, which carries the same
 * core struct and response as attributes. Both buffers live on this stack
 * frame.
 *
 * write() layouts (struct ib_uverbs_cmd_hdr first):
 *  - plain: hdr, core struct (its first field the response address), driver
 *    input; in_words counts 4-byte words of the whole buffer, out_words of
 *    the response (core response, then driver output);
 *  - extended: hdr with IB_USER_VERBS_CMD_FLAG_EXTENDED, struct
 *    ib_uverbs_ex_cmd_hdr, core struct, driver input; all counts are 8-byte
 *    words and exclude the headers, driver parts counted apart.
 */
#include <errno.h>
#include <string.h>
#include <uvio/cmd.h>
#include <uvio/verbs.h>

#include "write/legacy.h"
#include "cmd/memcheck.h"
#include "cmd/put_fixed.h"

/* The largest core struct and core response of any write() command
 * (EX_CREATE_QP's request, 64 bytes; EX_QUERY_DEVICE's response, 304 on
 * 5.10 and 6.1) with room for kernels to grow; extended commands' cores may
 * be longer (UVIO_MAX_EX_CORE). */
#define MAX_CORE 128u
#define MAX_RESP UVIO_LEGACY_MAX_RESP

uint64_t uvio_drv_sink[UVIO_DRV_SINK_LEN / sizeof(uint64_t)];

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) & ~(to - 1);
}

int uvio_write_invoke(struct uvio_device *dev, uint32_t command, const void *core,
		      size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	struct uvio_fx_cmd c;
	bool drv_out = drv && drv->out_len && resp_len;

	uvio_iw_core(&c, command, core, core_len, resp, resp_len);
	if (drv && drv->in_len)
		uvio_fx_put(&c, UVERBS_ATTR_UHW_IN, UVIO_KIND_PTR_IN, drv->in_len,
			    fput_data(drv->in, drv->in_len));
	/* The driver answers only where the command has a response. */
	if (drv_out) {
		uintptr_t r = (uintptr_t)resp, o = (uintptr_t)drv->out;

		if (r < o + drv->out_len && o < r + resp_len)
			return -EINVAL;	/* two outputs in one buffer */
		uvio_fx_out(&c, UVERBS_ATTR_UHW_OUT, drv->out, drv->out_len);
	}
	return uvio_iw_send(dev, &c);
}

/* Whether anyone reads the driver's answer: the caller's buffer, not the
 * default space a verb offers the driver when the caller gave none. */
static inline bool drv_read(const struct drv_bufs *drv)
{
	return drv && !uvio_drv_default_out(drv);
}

/* Send a laid-out write() command; on success hand out the answer: the
 * core response, then the driver's output from drv_at on, where they went
 * to a buffer of ours (out not NULL). */
static int send_write(struct uvio_device *dev, void *in, size_t in_len, const uint8_t *out,
		      void *resp, size_t resp_len, size_t drv_at, const struct drv_bufs *drv,
		      size_t out_drv)
{
	int ret = uvio_dev_write(dev, in, in_len);

	if (ret)
		return ret;
	if (!out) {
		uvio_memcheck_written(resp, resp_len);
		return 0;
	}
	memcpy(resp, out, resp_len);
	if (out_drv)
		memcpy(drv->out, out + drv_at, drv->out_len);
	return 0;
}

/* One of the library's own plain commands with driver data that is not
 * read back (uvio_legacy_fixed_drv() holds): the driver's input after the
 * core, the response and the default driver space after it in a buffer of
 * ours, the response alone handed out. None of uvio_write_send()'s checks:
 * the verb's lengths passed the test. */
int uvio_write_plain_drv(struct uvio_device *dev, uint32_t command, const void *core,
			 size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	uint64_t in[(sizeof(struct ib_uverbs_cmd_hdr) + UVIO_FIXED_MAX_CORE +
		     UVIO_FIXED_MAX_DRV_IN) / 8];
	uint64_t out[(UVIO_LEGACY_MAX_RESP + UVIO_DRV_SINK_LEN) / 8];
	struct ib_uverbs_cmd_hdr *hdr = (struct ib_uverbs_cmd_hdr *)in;
	uint8_t *q = (uint8_t *)(hdr + 1);
	size_t in_drv = round_up(drv->in_len, 4);
	size_t in_len = sizeof(*hdr) + core_len + in_drv;
	__u64 at = (uintptr_t)out;
	int ret;

	uvio_plain_hdr(hdr, command, in_len, resp_len ? resp_len + UVIO_DRV_SINK_LEN : 0);
	memcpy(q, core, core_len);
	if (resp_len)
		memcpy(q, &at, sizeof(at));
	if (drv->in_len)
		memcpy(q + core_len, drv->in, drv->in_len);
	if (in_drv != drv->in_len)
		memset(q + core_len + drv->in_len, 0, in_drv - drv->in_len);
	ret = uvio_dev_write(dev, in, in_len);
	if (!ret && resp_len) {
		uvio_memcheck_written(out, resp_len);
		memcpy(resp, out, resp_len);
	}
	return ret;
}

/* The core as the kernel reads it: core, tail, zeroes up to len. */
static void put_core(uint8_t *q, const struct uvio_write_cmd *c, size_t len)
{
	memcpy(q, c->core, c->core_len);
	if (c->tail_len)
		memcpy(q + c->core_len, c->tail, c->tail_len);
	memset(q + c->core_len + c->tail_len, 0, len - c->core_len - c->tail_len);
}

/* A plain command as write(): header, core, driver input; the response
 * (core, then driver output) lands in a buffer of ours first. Over
 * INVOKE_WRITE the core goes as CORE_IN, its response address zero (CORE_OUT
 * says where; a caller's own struct may hold one). */
static __attribute__((noinline)) int plain_cmd(struct uvio_device *dev, enum uvio_path p,
					       const struct uvio_write_cmd *c, size_t core_len)
{
	uint64_t in[(sizeof(struct ib_uverbs_cmd_hdr) + MAX_CORE + UVIO_MAX_DRV_DATA) / 8];
	uint64_t out[(MAX_RESP + UVIO_MAX_DRV_DATA) / 8];
	struct ib_uverbs_cmd_hdr *hdr = (struct ib_uverbs_cmd_hdr *)in;
	uint8_t *q = (uint8_t *)(hdr + 1);
	const struct drv_bufs *drv = c->drv;
	size_t in_drv = drv ? round_up(drv->in_len, 4) : 0;
	size_t out_drv = drv && c->resp_len ? round_up(drv->out_len, 4) : 0;
	size_t in_len = sizeof(*hdr) + core_len + in_drv;
	size_t out_len = c->resp_len + out_drv;
	__u64 at = 0;

	if (p == UVIO_PATH_INVOKE_WRITE) {
		const void *core = c->core;

		if (c->resp_len)
			memcpy(&at, c->core, sizeof(at));
		if (at || c->tail_len || core_len != c->core_len) {
			put_core(q, c, core_len);
			if (c->resp_len)
				memset(q, 0, sizeof(at));
			core = q;
		}
		return uvio_write_invoke(dev, c->command, core, core_len, c->resp, c->resp_len, drv);
	}
	/* The ABI counts 4-byte words in 16 bits. */
	if (in_len / 4 > UINT16_MAX || out_len / 4 > UINT16_MAX)
		return -EINVAL;
	uvio_plain_hdr(hdr, c->command, in_len, out_len);
	put_core(q, c, core_len);
	/* Every command that answers names its response buffer first: the
	 * caller's, unless the driver answers after it. A plain response is
	 * the same struct on every kernel, written whole; a driver's may be
	 * shorter than asked, and what it leaves reads as zero. */
	if (c->resp_len) {
		if (out_drv)
			memset(out, 0, drv_read(drv) ? out_len : c->resp_len);
		at = out_drv ? (uintptr_t)out : (uintptr_t)c->resp;
		memcpy(q, &at, sizeof(at));
	}
	if (in_drv) {
		memcpy(q + core_len, drv->in, drv->in_len);
		memset(q + core_len + drv->in_len, 0, in_drv - drv->in_len);
	}
	return send_write(dev, in, in_len, out_drv ? (const uint8_t *)out : NULL, c->resp,
			  c->resp_len, c->resp_len, drv, drv_read(drv) ? out_drv : 0);
}

/* An extended command: header with IB_USER_VERBS_CMD_FLAG_EXTENDED, struct
 * ib_uverbs_ex_cmd_hdr, core, driver input; counts in 8-byte words. */
static int ex_cmd(struct uvio_device *dev, enum uvio_path p, const struct uvio_write_cmd *c,
		  size_t core_len)
{
	uint64_t in[(sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_ex_cmd_hdr) +
		     UVIO_MAX_EX_CORE + UVIO_MAX_DRV_DATA) / 8];
	uint64_t out[(MAX_RESP + UVIO_MAX_DRV_DATA) / 8];
	struct ib_uverbs_cmd_hdr *hdr = (struct ib_uverbs_cmd_hdr *)in;
	struct ib_uverbs_ex_cmd_hdr *ex = (struct ib_uverbs_ex_cmd_hdr *)(hdr + 1);
	uint8_t *q = (uint8_t *)(ex + 1);
	const struct drv_bufs *drv = c->drv;
	size_t core8 = round_up(core_len, 8), resp8 = round_up(c->resp_len, 8);
	size_t in_drv = drv ? round_up(drv->in_len, 8) : 0;
	size_t out_drv = drv && c->resp_len ? round_up(drv->out_len, 8) : 0;
	size_t in_len;
	bool direct;

	/* Extended and plain commands share numbers: the flag tells them
	 * apart, in WRITE_CMD as in the write() header. */
	if (p == UVIO_PATH_INVOKE_WRITE) {
		const void *core = c->core;

		if (c->tail_len || core_len != c->core_len) {
			put_core(q, c, core_len);
			core = q;
		}
		return uvio_write_invoke(dev, IB_USER_VERBS_CMD_FLAG_EXTENDED | c->command, core,
				    core_len, c->resp, c->resp_len, drv);
	}
	in_len = sizeof(*hdr) + sizeof(*ex) + core8 + in_drv;
	/* The response straight into the caller's, unless the driver answers
	 * after it or the kernel's 8-byte words would overrun it. */
	direct = !out_drv && !(c->resp_len % 8);
	uvio_ex_hdr(hdr, c->command, core8, resp8,
		    !c->resp_len ? 0 : direct ? (uintptr_t)c->resp : (uintptr_t)out, in_drv, out_drv);
	put_core(q, c, core8);
	if (in_drv) {
		memcpy(q + core8, drv->in, drv->in_len);
		memset(q + core8 + drv->in_len, 0, in_drv - drv->in_len);
	}
	/* An extended response grows with the kernel, and an older kernel
	 * writes only the part it knows: the rest reads as zero. */
	if (c->resp_len)
		memset(direct ? c->resp : out, 0,
		       direct ? c->resp_len : resp8 + (drv_read(drv) ? out_drv : 0));
	return send_write(dev, in, in_len, direct ? NULL : (const uint8_t *)out, c->resp,
			  c->resp_len, resp8, drv, drv_read(drv) ? out_drv : 0);
}

int uvio_write_send(struct uvio_device *dev, enum uvio_path p, const struct uvio_write_cmd *c)
{
	size_t core_len = c->core_len + c->tail_len;

	if (core_len < c->min_core)
		core_len = c->min_core;
	if ((!c->core && c->core_len) || (!c->tail && c->tail_len) ||
	    core_len > (c->ex ? UVIO_MAX_EX_CORE : MAX_CORE) || c->resp_len > MAX_RESP)
		return -EINVAL;
	if (uvio_drv_has_attrs(c->drv))
		return -EOPNOTSUPP;
	/* A plain core names its response first, and the ABI counts words. */
	if (!c->ex && ((c->resp_len && core_len < 8) || (core_len | c->resp_len) & 3))
		return -EINVAL;
	/* Over INVOKE_WRITE a core that needs no copy goes as it is (a
	 * plain one's response address must read zero there). */
	if (p == UVIO_PATH_INVOKE_WRITE && core_len == c->core_len) {
		__u64 at = 0;

		if (!c->ex && c->resp_len)
			memcpy(&at, c->core, sizeof(at));
		if (!at)
			return uvio_write_invoke(dev, c->ex ? IB_USER_VERBS_CMD_FLAG_EXTENDED | c->command :
							 c->command,
					    c->core, core_len, c->resp, c->resp_len, c->drv);
	}
	return c->ex ? ex_cmd(dev, p, c, core_len) : plain_cmd(dev, p, c, core_len);
}

int uvio_write_laid_out(struct uvio_device *dev, enum uvio_path p, uint32_t command, void *buf,
			size_t len, void *resp, size_t resp_len)
{
	struct ib_uverbs_cmd_hdr *hdr = buf;
	__u64 at = p == UVIO_PATH_WRITE ? (uintptr_t)resp : 0;

	if (len < sizeof(*hdr) + sizeof(at) || len / 4 > UINT16_MAX || resp_len / 4 > UINT16_MAX)
		return -E2BIG;
	/* The kernel may answer with less (a failure before its response):
	 * what it leaves reads as zero. */
	memset(resp, 0, resp_len);
	memcpy(hdr + 1, &at, sizeof(at));
	if (p == UVIO_PATH_INVOKE_WRITE)
		return uvio_write_invoke_bare(dev, command, hdr + 1, len - sizeof(*hdr), resp,
					      resp_len);
	uvio_plain_hdr(hdr, command, len, resp_len);
	return uvio_dev_write(dev, buf, len);
}
