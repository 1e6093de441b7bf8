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

/* The drivers by slot: a slot names a driver's value types. */
static const struct abi_driver *const drivers[] = {
#define X(d, slot) [slot] = &abi_drv_##d,
	ABI_DRIVERS(X)
#undef X
};

const struct abi_driver *abi_driver(uint32_t driver_id)
{
	for (unsigned int i = 1; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (drivers[i] && drivers[i]->id == driver_id)
			return drivers[i];
	return NULL;
}

static bool driver_ns(uint16_t id)
{
	return (id & UVERBS_ID_NS_MASK) != 0;
}

const struct abi_object *abi_object_drv(const struct abi_driver *drv, uint16_t object_id)
{
	if (!driver_ns(object_id))
		return abi_object(object_id);
	for (unsigned int i = 0; drv && i < drv->nobjects; i++)
		if (drv->objects[i].id == object_id)
			return &drv->objects[i];
	return NULL;
}

const struct abi_method *abi_method_drv(const struct abi_driver *drv, uint16_t object_id,
					uint16_t method_id)
{
	if (!driver_ns(object_id) && !driver_ns(method_id))
		return abi_method(object_id, method_id);
	/* A driver's object, or the driver's methods of a core object: the
	 * driver's row with that object id holds them. */
	for (unsigned int i = 0; drv && i < drv->nobjects; i++) {
		const struct abi_object *o = &drv->objects[i];

		if (o->id != object_id)
			continue;
		for (unsigned int j = 0; j < o->nmethods; j++)
			if (o->methods[j].id == method_id)
				return &o->methods[j];
	}
	return NULL;
}

const struct abi_attr *abi_attr_drv(const struct abi_driver *drv, uint16_t object_id,
				    uint16_t method_id, uint16_t attr_id)
{
	if (driver_ns(object_id) || driver_ns(method_id)) {
		/* a driver's method declares all of its attributes itself */
		const struct abi_method *m = abi_method_drv(drv, object_id, method_id);

		for (unsigned int i = 0; m && i < m->nattrs; i++)
			if (m->attrs[i].id == attr_id)
				return &m->attrs[i];
		return NULL;
	}
	/* the driver's own on a core method (0x1000 up where the method takes
	 * no driver data, 0x1002 up where it does) */
	if (driver_ns(attr_id))
		for (unsigned int i = 0; drv && i < drv->nattrs; i++) {
			const struct abi_drv_attrs *x = &drv->attrs[i];

			if (x->object != object_id || x->method != method_id)
				continue;
			for (unsigned int j = 0; j < x->nattrs; j++)
				if (x->attrs[j].id == attr_id)
					return &x->attrs[j];
		}
	return abi_attr(object_id, method_id, attr_id);
}

const struct abi_drv_udata *abi_drv_udata(const struct abi_driver *drv, uint64_t key,
					  long in_len, bool rss)
{
	for (unsigned int i = 0; drv && i < drv->nudata; i++) {
		const struct abi_drv_udata *u = &drv->udata[i];

		if (u->key != key)
			continue;
		if (u->when == UD_WHEN_ALWAYS || (u->when == UD_WHEN_RSS && rss) ||
		    (u->when == UD_WHEN_LEN && in_len == (long)abi_vtype(u->in)->size))
			return u;
	}
	return NULL;
}

const struct abi_vtype *abi_vtype(unsigned int vt)
{
	unsigned int slot = vt >> ABI_VT_SHIFT, i = ABI_VT_LOCAL(vt);

	if (!slot)
		return &abi_vtypes[i < VT__COUNT ? i : VT_BYTES];
	if (slot < sizeof(drivers) / sizeof(drivers[0]) && drivers[slot] &&
	    i < drivers[slot]->nvtypes)
		return &drivers[slot]->vtypes[i];
	return &abi_vtypes[VT_BYTES];
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
