// SPDX-License-Identifier: MIT
/*
 * The legacy write() encoding, for every verb: struct ib_uverbs_cmd_hdr, the
 * verb's core struct, the driver's input; answered in one buffer by the core
 * response and the driver's output. Both buffers live on this stack frame.
 */
#include <errno.h>
#include <string.h>
#include <uvio/verbs.h>

#include "private.h"

/* The largest core struct (REG_MR, 40 bytes) and core response
 * (QUERY_DEVICE, 176 bytes) of a verb this library encodes. */
#define MAX_CORE 64u
#define MAX_RESP 256u

static size_t round_up4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

int uvio_legacy_cmd(struct uvio_device *dev, uint32_t command, const void *core,
		    size_t core_len, void *resp, size_t resp_len,
		    const struct drv_bufs *drv)
{
	uint64_t in[(sizeof(struct ib_uverbs_cmd_hdr) + MAX_CORE + UVIO_MAX_DRV_DATA) / 8];
	uint64_t out[(MAX_RESP + UVIO_MAX_DRV_DATA) / 8];
	uint8_t *p = (uint8_t *)in + sizeof(struct ib_uverbs_cmd_hdr);
	size_t in_drv = drv ? round_up4(drv->in_len) : 0;
	size_t out_drv = drv ? round_up4(drv->out_len) : 0;
	int ret;

	if (core_len > MAX_CORE || resp_len > MAX_RESP || (resp_len && core_len < 8))
		return -EINVAL;
	/* The kernel may write less than asked (an older, shorter struct):
	 * what it leaves reads as zero, and tools like valgrind, which do not
	 * know that this write() writes back, see defined bytes. */
	memset(out, 0, resp_len + out_drv);
	memcpy(p, core, core_len);
	/* Every command that answers names its response buffer first. */
	if (resp_len) {
		__u64 at = (uintptr_t)out;

		memcpy(p, &at, sizeof(at));
	}
	if (in_drv) {
		memcpy(p + core_len, drv->in, drv->in_len);
		memset(p + core_len + drv->in_len, 0, in_drv - drv->in_len);
	}
	ret = uvio_dev_write(dev, command, in,
			     sizeof(struct ib_uverbs_cmd_hdr) + core_len + in_drv,
			     resp_len ? resp_len + out_drv : 0);
	if (ret)
		return ret;
	if (resp_len)
		memcpy(resp, out, resp_len);
	if (drv && drv->out_len)
		memcpy(drv->out, (uint8_t *)out + resp_len, drv->out_len);
	return 0;
}
