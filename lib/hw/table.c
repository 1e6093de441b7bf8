// SPDX-License-Identifier: MIT
/* A device's driver-half state: installed once, its objects by handle, and
 * freed at close. */
#include <stdlib.h>
#include "hw/hw.h"

static void release(struct uvio_device *dev)
{
	struct hw_state *st = uvio_hw_state(dev);
	struct hw_obj *o, *next;

	if (!st)
		return;
	/* Close: the kernel objects went with the fd, nobody else holds the
	 * handle, so no lock is needed. */
	for (o = st->objs; o; o = next) {
		next = o->next;
		st->free_obj(st, o);
	}
	st->objs = NULL;
	st->release(st, dev);
}

bool uvio_hw_attach(struct uvio_device *dev, struct hw_state *st)
{
	struct hw_state *none = NULL;

	if (!atomic_compare_exchange_strong_explicit(&dev->hw, &none, st, memory_order_acq_rel,
						     memory_order_acquire))
		return false;
	dev->hw_release = release;
	return true;
}

void uvio_hw_obj_add(struct hw_state *st, struct hw_obj *o, enum hw_verb kind, uint32_t handle)
{
	o->kind = kind;
	o->handle = handle;
	o->next = st->objs;
	st->objs = o;
}

static struct hw_obj **slot(struct hw_state *st, enum hw_verb kind, uint32_t handle)
{
	struct hw_obj **p;

	for (p = &st->objs; *p; p = &(*p)->next)
		if ((*p)->kind == kind && (*p)->handle == handle)
			return p;
	return NULL;
}

struct hw_obj *uvio_hw_obj_find(struct hw_state *st, enum hw_verb kind, uint32_t handle)
{
	struct hw_obj **p = slot(st, kind, handle);

	return p ? *p : NULL;
}

struct hw_obj *uvio_hw_obj_take(struct hw_state *st, enum hw_verb kind, uint32_t handle)
{
	struct hw_obj **p = slot(st, kind, handle), *o;

	if (!p)
		return NULL;
	o = *p;
	*p = o->next;
	o->next = NULL;
	return o;
}
