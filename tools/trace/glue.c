// SPDX-License-Identifier: MIT
/*
 * What the library's ABI tables say of an attribute: its kind (which tells
 * an input from an output, and a pointer from an inline value) and whether
 * it makes or ends an object.
 */
#include <stddef.h>
#include <string.h>

#include <uvio.h>

#include "record.h"

uint32_t tr_driver_id(const struct tr_record *r)
{
	uint32_t id = 0;

	if (r->call == TR_IOCTL && r->cmd_len >= sizeof(struct ib_uverbs_ioctl_hdr))
		memcpy(&id, r->cmd + offsetof(struct ib_uverbs_ioctl_hdr, driver_id), sizeof(id));
	return id ? id : r->driver_id;
}

int tr_attr_kind(uint32_t driver_id, uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	struct uvio_attr_desc d = { .sz = sizeof(d) };

	if (uvio_driver_describe_attr(driver_id, object_id, method_id, attr_id, &d))
		return 0;
	return (int)d.kind;
}

int tr_attr_lifecycle(uint32_t driver_id, uint16_t object_id, uint16_t method_id,
		      uint16_t attr_id, uint16_t *of_object)
{
	struct uvio_attr_desc d = { .sz = sizeof(d) };

	if (uvio_driver_describe_attr(driver_id, object_id, method_id, attr_id, &d) || !d.access ||
	    d.object_id == UINT16_MAX)
		return 0;
	*of_object = d.object_id;
	if (!strcmp(d.access, "new"))
		return 1;
	if (!strcmp(d.access, "destroy"))
		return -1;
	return 0;
}
