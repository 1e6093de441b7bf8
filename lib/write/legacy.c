// SPDX-License-Identifier: MIT
/*
 * The out-of-line half of the one route of every write() command of the
 * library (legacy.h's uvio_write_run()), sent as write() or carried by the ioctl method
 * DEVICE/INVOKE_WRITE, which takes the same core struct and response as
 * attributes. The verb builds its core after UVIO_WRITE_ROOM bytes of room;
 * the headers are laid there, in front of it:
 *  - plain: struct ib_uverbs_cmd_hdr, the core (its first field the
 *    response address), driver input; in_words counts 4-byte words of the
 *    whole buffer, out_words of the response (core response, then driver
 *    output);
 *  - extended: the header with IB_USER_VERBS_CMD_FLAG_EXTENDED, struct
 *    ib_uverbs_ex_cmd_hdr, the core, driver input; all counts are 8-byte
 *    words and exclude the headers, the driver's parts counted apart.
 * Driver input must follow the core: there the core is copied once, into a
 * buffer of this frame (uvio_write_slow()); the rest goes straight, inline
 * in the verb.
 */
#include <errno.h>
#include <string.h>
#include <uvio/cmd.h>
#include <uvio/verbs.h>

#include "write/legacy.h"
#include "write/doorbell.h"
#include "cmd/memcheck.h"
#include "cmd/put_fixed.h"

#define MAX_CORE UVIO_MAX_PLAIN_CORE
#define MAX_RESP UVIO_LEGACY_MAX_RESP

uint64_t uvio_drv_sink[UVIO_DRV_SINK_LEN / sizeof(uint64_t)];

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) & ~(to - 1);
}

/* The send doorbell (doorbell.h): POST_SEND's header and core, no WRs. */
void uvio_doorbell_layout(uint64_t db[UVIO_DOORBELL_WORDS], uint32_t qp_handle, void *resp)
{
	struct ib_uverbs_cmd_hdr *hdr = (struct ib_uverbs_cmd_hdr *)db;
	struct ib_uverbs_post_send *c = (struct ib_uverbs_post_send *)(hdr + 1);

	uvio_write_plain_hdr(hdr, IB_USER_VERBS_CMD_POST_SEND, UVIO_DOORBELL_WORDS * 8,
			     sizeof(struct ib_uverbs_post_send_resp));
	*c = (struct ib_uverbs_post_send){ .response = (uintptr_t)resp,
					   .qp_handle = qp_handle,
					   .wqe_size = sizeof(struct ib_uverbs_send_wr) };
}
/* The command over DEVICE/INVOKE_WRITE, core and response as they are,
 * driver data (drv, may be NULL) as UHW_IN and UHW_OUT. */
static int write_invoke(struct uvio_device *dev, uint32_t command, const void *core,
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

/*
 * What does not go straight, checked as a caller's command is: bounded
 * lengths, no driver attributes, a plain core in words that names its
 * response. Over INVOKE_WRITE the core goes where it is; as write() it is
 * copied once, behind the headers, with the driver's input after it (an
 * extended core zero-padded to 8-byte words), and the answer lands in a
 * buffer of ours where the driver answers after the core response or the
 * kernel's words would overrun the caller's. Out of line: its buffers
 * cost the straight route (legacy.h) nothing.
 */
int uvio_write_slow(struct uvio_device *dev, enum uvio_path p, uint32_t command, uint64_t *buf,
		    size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	uint64_t in[(UVIO_WRITE_ROOM + UVIO_MAX_EX_CORE + UVIO_MAX_DRV_DATA) / 8];
	uint64_t out[(MAX_RESP + UVIO_MAX_DRV_DATA) / 8];
	const bool ex = command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	const size_t w = ex ? 8 : 4;
	uint8_t *core = (uint8_t *)buf + UVIO_WRITE_ROOM, *q = (uint8_t *)in + UVIO_WRITE_ROOM;
	size_t core_w = round_up(core_len, w), resp_w = round_up(resp_len, w);
	size_t in_drv = drv ? round_up(drv->in_len, w) : 0;
	size_t out_drv = drv && resp_len ? round_up(drv->out_len, w) : 0;
	size_t copy_drv = drv_read(drv) ? out_drv : 0, len;
	bool direct = !out_drv && resp_w == resp_len;
	uint8_t *answer = direct ? resp : (uint8_t *)out;
	void *at;
	int ret;

	if (core_len > (ex ? UVIO_MAX_EX_CORE : MAX_CORE) || resp_len > MAX_RESP)
		return -EINVAL;
	if (uvio_drv_has_attrs(drv))
		return -EOPNOTSUPP;
	/* A plain core names its response first, and the ABI counts words. */
	if (!ex && ((resp_len && core_len < 8) || (core_len | resp_len) & 3))
		return -EINVAL;
	if (p == UVIO_PATH_INVOKE_WRITE) {
		/* CORE_OUT says where the response goes. */
		if (!ex && resp_len)
			memset(core, 0, sizeof(__u64));
		return write_invoke(dev, command, core, core_len, resp, resp_len, drv);
	}
	/* The ABI counts a plain command's 4-byte words in 16 bits. */
	if (!ex && ((sizeof(struct ib_uverbs_cmd_hdr) + core_len + in_drv) / 4 > UINT16_MAX ||
		    (resp_len + out_drv) / 4 > UINT16_MAX))
		return -EINVAL;
	memcpy(q, core, core_len);
	memset(q + core_len, 0, core_w - core_len);
	if (in_drv) {
		memcpy(q + core_w, drv->in, drv->in_len);
		memset(q + core_w + drv->in_len, 0, in_drv - drv->in_len);
	}
	/* An extended response grows with the kernel, and an older kernel
	 * writes only the part it knows; a driver's may be shorter than
	 * asked: what they leave reads as zero. A plain response is the same
	 * struct on every kernel, written whole. */
	if (resp_len && (ex || out_drv))
		memset(answer, 0, (ex ? resp_w : resp_len) + copy_drv);
	at = uvio_write_hdr(in, command, core_w, ex ? resp_w : resp_len, (uintptr_t)answer,
			    in_drv, out_drv, &len);
	ret = uvio_dev_write(dev, at, len);
	if (ret)
		return ret;
	if (direct) {
		if (!ex)
			uvio_memcheck_written(resp, resp_len);
		return 0;
	}
	if (!ex)
		uvio_memcheck_written(answer, resp_len);
	memcpy(resp, answer, resp_len);
	if (copy_drv)
		memcpy(drv->out, answer + (ex ? resp_w : resp_len), drv->out_len);
	return 0;
}
