// SPDX-License-Identifier: MIT
/* The string pool and the lookups over the object tables. */
#include <stdbool.h>
#include <stddef.h>

#include "abi/abi.h"

const struct abi_pool abi_pool = {
#define X(s) #s,
#include "abi_strings.h"
#undef X
};

static const struct abi_object *const objects[] = {
#define X(o) &abi_obj_##o,
	ABI_OBJECTS(X)
#undef X
};

unsigned int abi_num_objects(void)
{
	return sizeof(objects) / sizeof(objects[0]);
}

const struct abi_object *abi_object_at(unsigned int index)
{
	return index < abi_num_objects() ? objects[index] : NULL;
}

const struct abi_object *abi_object(uint16_t object_id)
{
	/* The table is in id order today; search anyway, it is short. */
	for (unsigned int i = 0; i < abi_num_objects(); i++)
		if (objects[i]->id == object_id)
			return objects[i];
	return NULL;
}

const struct abi_method *abi_method(uint16_t object_id, uint16_t method_id)
{
	const struct abi_object *o = abi_object(object_id);

	for (unsigned int i = 0; o && i < o->nmethods; i++)
		if (o->methods[i].id == method_id)
			return &o->methods[i];
	return NULL;
}

const struct abi_attr *abi_attr(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	/* UVERBS_ATTR_UHW(): optional, any length, the driver's data. */
	static const struct abi_attr uhw[] = {
		A_IN_MIN(UHW_IN, UHW_IN, BYTES, 0, OPT),
		A_OUT_MIN(UHW_OUT, UHW_OUT, BYTES, 0, OPT),
	};
	const struct abi_method *m = abi_method(object_id, method_id);

	/* Driver data belongs to core methods alone: on a driver's object or
	 * a driver's method these ids are the driver's own attributes. A core
	 * method the tables know says whether it takes them; one they do not
	 * know (a newer kernel's) is taken to. */
	if (attr_id == UVERBS_ATTR_UHW_IN || attr_id == UVERBS_ATTR_UHW_OUT) {
		bool core = !(object_id & UVERBS_ID_NS_MASK) && !(method_id & UVERBS_ID_NS_MASK);

		if (m ? !(m->flags & ABI_M_UHW) : !core)
			return NULL;
		return &uhw[attr_id - UVERBS_ATTR_UHW_IN];
	}
	for (unsigned int i = 0; m && i < m->nattrs; i++)
		if (m->attrs[i].id == attr_id)
			return &m->attrs[i];
	return NULL;
}

const struct abi_write *abi_write(uint32_t command, const struct abi_object **obj)
{
	uint8_t want_ex = command & IB_USER_VERBS_CMD_FLAG_EXTENDED ? ABI_W_EX : 0;

	if (command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_CMD_COMMAND_MASK))
		return NULL;
	command &= IB_USER_VERBS_CMD_COMMAND_MASK;
	for (unsigned int i = 0; i < abi_num_objects(); i++)
		for (unsigned int j = 0; j < objects[i]->nwrites; j++) {
			const struct abi_write *w = &objects[i]->writes[j];

			if (w->cmd == command && (w->flags & ABI_W_EX) == want_ex) {
				if (obj)
					*obj = objects[i];
				return w;
			}
		}
	return NULL;
}

const struct abi_vtype *abi_vtype(unsigned int vt)
{
	return &abi_vtypes[vt < VT__COUNT ? vt : VT_BYTES];
}

const char *abi_const_name(unsigned int vt, uint32_t v)
{
	const struct abi_vtype *t = abi_vtype(vt);
	const struct abi_const *c = t->items;

	if (t->kind != V_FLAGS && t->kind != V_ENUM)
		return NULL;
	for (unsigned int i = 0; i < t->count; i++)
		if (c[i].value == v)
			return abi_str(c[i].name);
	return NULL;
}
