// SPDX-License-Identifier: MIT
/* Words for what the query verbs answer: port state, MTU, link layer and
 * firmware version, as a libibverbs user has them. */
#include <errno.h>
#include <stdio.h>
#include <syslog.h>
#include <uvio/diag.h>
#include <uvio/qp.h>
#include "report/report.h"

UVIO_API const char *uvio_port_state_name(uint32_t state)
{
	/* enum ib_port_state */
	static const char *const names[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE",
					     "ACTIVE_DEFER" };

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : NULL;
}

UVIO_API int uvio_mtu_bytes(uint32_t mtu)
{
	return mtu >= UVIO_MTU_256 && mtu <= UVIO_MTU_4096 ? 128 << mtu : 0;
}

UVIO_API const char *uvio_link_layer_name(uint8_t link_layer)
{
	/* IB_LINK_LAYER_UNSPECIFIED, _INFINIBAND, _ETHERNET */
	static const char *const names[] = { "unspecified", "InfiniBand", "Ethernet" };

	return link_layer < sizeof(names) / sizeof(names[0]) ? names[link_layer] : NULL;
}

UVIO_API int uvio_fw_ver_str(uint64_t fw_ver, char *buf, size_t len)
{
	int n;

	if (!buf || !len)
		return uvio_fail(LOG_DEBUG, -EINVAL, "uvio_fw_ver_str: EINVAL: argument %s",
				 !buf ? "buf: NULL" : "len: 0");
	n = snprintf(buf, len, "%u.%u.%03u", (unsigned int)(fw_ver >> 32) & 0xffff,
		     (unsigned int)(fw_ver >> 16) & 0xffff, (unsigned int)fw_ver & 0xffff);
	if (n < 0 || (size_t)n >= len)
		return uvio_fail(LOG_DEBUG, -ENOSPC, "uvio_fw_ver_str: ENOSPC: argument len: %zu "
				 "bytes, the text takes %d and its NUL", len, n);
	return 0;
}
