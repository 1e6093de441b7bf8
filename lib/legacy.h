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
	uint64_t dflt[64 / sizeof(uint64_t)];	/* UVIO_DEFAULT_DRV_OUT */
};

/* A verb's legacy write() command: core is its struct without the header
 * (response pointer first when resp_len > 0, filled in here), resp receives
 * the core response; drv (may be NULL) travels after both. */
int uvio_legacy_cmd(struct uvio_device *dev, uint32_t command, const void *core,
		    size_t core_len, void *resp, size_t resp_len,
		    const struct drv_bufs *drv);

#endif
