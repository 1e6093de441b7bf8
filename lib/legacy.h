/* SPDX-License-Identifier: MIT */
/* Internal: the legacy write() encoding of a verb, driver data included. */
#ifndef UVIO_LIB_LEGACY_H
#define UVIO_LIB_LEGACY_H

#include <stddef.h>
#include <stdint.h>
#include "dev.h"

/* A verb's driver data, checked, with the default response space. */
struct drv_bufs {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	struct uvio_cmd *attrs;		/* driver attributes to join, or NULL */
	uint64_t dflt[64 / sizeof(uint64_t)];	/* UVIO_DEFAULT_DRV_OUT */
};

/* The write() command, core (and response) already laid out, over
 * DEVICE/INVOKE_WRITE; command carries IB_USER_VERBS_CMD_FLAG_EXTENDED for
 * extended ones. Lengths up to 64 KiB, bounded by the callers. */
int uvio_invoke_write(struct uvio_device *dev, uint32_t command, const void *core,
		      size_t core_len, void *resp, size_t resp_len, const struct drv_bufs *drv);
/*
 * A verb's write() command, sent as write() or carried by INVOKE_WRITE as p
 * says. core is the kernel's struct for the command: for plain commands it
 * starts with the response pointer, filled in here for write(); for extended
 * ones (command is an IB_USER_VERBS_EX_CMD_*) it is the struct after
 * struct ib_uverbs_ex_cmd_hdr. resp receives the core response; drv (may be
 * NULL) travels after both.
 */
int uvio_legacy_cmd(struct uvio_device *dev, enum uvio_path p, uint32_t command,
		    const void *core, size_t core_len, void *resp, size_t resp_len,
		    const struct drv_bufs *drv);
/* Extended commands may carry long cores: the WQ handles of an RWQ
 * indirection table, the specs of a flow rule (comp_mask and a handle, then
 * up to 4 KiB). */
#define UVIO_MAX_EX_CORE (8u + 4096u)
/* The largest core response a write() command may ask for: over twice the
 * largest any kernel has (EX_QUERY_DEVICE's, 232 bytes). */
#define UVIO_LEGACY_MAX_RESP 512u
int uvio_legacy_cmd_ex(struct uvio_device *dev, enum uvio_path p, uint32_t command,
		       const void *core, size_t core_len, void *resp, size_t resp_len,
		       const struct drv_bufs *drv);

#endif
