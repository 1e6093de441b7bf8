/* SPDX-License-Identifier: MIT */
/* Internal: the legacy write() encoding of a verb, driver data included. */
#ifndef UVIO_LIB_LEGACY_H
#define UVIO_LIB_LEGACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "device/dev.h"

/* A verb's driver data, checked, with the default response space. */
struct drv_bufs {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	struct uvio_cmd *attrs;		/* driver attributes to join, or NULL */
	uint64_t dflt[64 / sizeof(uint64_t)];	/* UVIO_DEFAULT_DRV_OUT */
};

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

/* The command over DEVICE/INVOKE_WRITE, core and response as they are
 * (command with IB_USER_VERBS_CMD_FLAG_EXTENDED for an extended one). */
int uvio_write_invoke(struct uvio_device *dev, uint32_t command, const void *core,
		      size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv);

/*
 * The library's own commands: their lengths are the ABI's constants and
 * their cores leave the response address zero, so over INVOKE_WRITE they go
 * straight out, without the checks uvio_write_send() makes of a caller's.
 * Driver attributes ride on ioctl methods only, never on a write() command.
 */
static inline bool uvio_legacy_direct(enum uvio_path p, const struct drv_bufs *drv)
{
	return p == UVIO_PATH_INVOKE_WRITE && !(drv && drv->attrs && drv->attrs->num_attrs);
}

static inline int uvio_legacy_cmd(struct uvio_device *dev, enum uvio_path p, uint32_t command,
				  const void *core, size_t core_len, void *resp, size_t resp_len,
				  const struct drv_bufs *drv)
{
	if (uvio_legacy_direct(p, drv))
		return uvio_write_invoke(dev, command, core, core_len, resp, resp_len, drv);
	const struct uvio_write_cmd c = {
		.command = command, .core = core, .core_len = core_len,
		.resp = resp, .resp_len = resp_len, .drv = drv,
	};

	return uvio_write_send(dev, p, &c);
}

static inline int uvio_legacy_cmd_ex(struct uvio_device *dev, enum uvio_path p,
				     uint32_t command, const void *core, size_t core_len,
				     void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	if (uvio_legacy_direct(p, drv))
		return uvio_write_invoke(dev, IB_USER_VERBS_CMD_FLAG_EXTENDED | command, core,
					 core_len, resp, resp_len, drv);
	const struct uvio_write_cmd c = {
		.command = command, .ex = true, .core = core, .core_len = core_len,
		.resp = resp, .resp_len = resp_len, .drv = drv,
	};

	return uvio_write_send(dev, p, &c);
}

/* Extended cores may be long: the WQ handles of an RWQ indirection table,
 * the specs of a flow rule (comp_mask and a handle, then up to 4 KiB). */
#define UVIO_MAX_EX_CORE (8u + 4096u)
/* The largest core response a write() command may ask for: over twice the
 * largest any kernel has (EX_QUERY_DEVICE's, 232 bytes). */
#define UVIO_LEGACY_MAX_RESP 512u

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
