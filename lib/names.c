// SPDX-License-Identifier: MIT
/*
 * Names of the uverbs objects, methods, attributes and write() commands, for
 * the decoder, the probes and error messages: lookups in the ABI tables of
 * lib/abi/.
 */
#include <errno.h>
#include <stddef.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "abi/abi.h"
#include "names.h"
#include "uapi.h"

UVIO_API const char *uvio_object_name(uint16_t object_id)
{
	const struct abi_object *o = abi_object(object_id);

	return o ? abi_str(o->name) : NULL;
}

UVIO_API const char *uvio_method_name(uint16_t object_id, uint16_t method_id)
{
	const struct abi_method *m = abi_method(object_id, method_id);

	return m ? abi_str(m->name) : NULL;
}

UVIO_API const char *uvio_attr_name(uint16_t object_id, uint16_t method_id,
				    uint16_t attr_id)
{
	const struct abi_attr *a = abi_attr(object_id, method_id, attr_id);

	return a ? abi_str(a->name) : NULL;
}

int uvio_abi_attr_kind(const struct abi_attr *a)
{
	if (!a)
		return 0;
	switch (a->type) {
	case AT_PTR_IN:
	case AT_CONST_IN:
	case AT_FLAGS_IN:
		return UVIO_KIND_PTR_IN;
	case AT_PTR_OUT:
		return UVIO_KIND_PTR_OUT;
	case AT_IDR:
		return ABI_ACCESS_OF(a->flags) == AC_NEW ? UVIO_KIND_IDR_NEW : UVIO_KIND_IDR;
	case AT_FD:
		return ABI_ACCESS_OF(a->flags) == AC_NEW ? UVIO_KIND_FD_NEW : UVIO_KIND_FD;
	case AT_RAW_FD:
		return UVIO_KIND_FD;
	case AT_ENUM_IN:
		return UVIO_KIND_ENUM_IN;
	case AT_IDRS:
		return UVIO_KIND_IDRS;
	}
	return 0;
}

int uvio_attr_known_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	return uvio_abi_attr_kind(abi_attr(object_id, method_id, attr_id));
}

UVIO_API const char *uvio_kind_name(enum uvio_attr_kind kind)
{
	switch (kind) {
	case UVIO_KIND_PTR_IN: return "ptr-in";
	case UVIO_KIND_PTR_OUT: return "ptr-out";
	case UVIO_KIND_IDR: return "idr";
	case UVIO_KIND_IDR_NEW: return "idr-new";
	case UVIO_KIND_FD: return "fd";
	case UVIO_KIND_FD_NEW: return "fd-new";
	case UVIO_KIND_ENUM_IN: return "enum-in";
	case UVIO_KIND_IDRS: return "idrs";
	}
	return NULL;
}

UVIO_API int uvio_known_method(unsigned int index, uint16_t *object_id, uint16_t *method_id)
{
	for (unsigned int i = 0; i < abi_num_objects(); i++) {
		const struct abi_object *o = abi_object_at(i);

		if (index < o->nmethods) {
			*object_id = o->id;
			*method_id = o->methods[index].id;
			return 0;
		}
		index -= o->nmethods;
	}
	return -ENOENT;
}

UVIO_API int uvio_known_attr(uint16_t object_id, uint16_t method_id, unsigned int index,
			     uint16_t *attr_id)
{
	const struct abi_method *m = abi_method(object_id, method_id);

	if (!m || index >= m->nattrs)
		return -ENOENT;
	*attr_id = m->attrs[index].id;
	return 0;
}

UVIO_API const char *uvio_write_cmd_name(uint32_t command)
{
	const struct abi_write *w = abi_write(command, NULL);

	return w ? abi_str(w->name) : NULL;
}
