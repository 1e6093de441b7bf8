// SPDX-License-Identifier: MIT
/*
 * What the library's ABI tables say of an attribute: its kind (which tells
 * an input from an output, and a pointer from an inline value) and whether
 * it makes or ends an object.
 */
#include <string.h>

#include <uvio.h>

#include "record.h"

int tr_attr_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	struct uvio_attr_desc d = { .sz = sizeof(d) };

	if (uvio_describe_attr(object_id, method_id, attr_id, &d))
		return 0;
	return (int)d.kind;
}

int tr_attr_lifecycle(uint16_t object_id, uint16_t method_id, uint16_t attr_id,
		      uint16_t *of_object)
{
	struct uvio_attr_desc d = { .sz = sizeof(d) };

	if (uvio_describe_attr(object_id, method_id, attr_id, &d) || !d.access)
		return 0;
	*of_object = d.object_id;
	if (!strcmp(d.access, "new"))
		return 1;
	if (!strcmp(d.access, "destroy"))
		return -1;
	return 0;
}
