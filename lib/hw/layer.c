// SPDX-License-Identifier: MIT
/*
 * The driver halves' bookkeeping, once for all six: a device's half-state
 * made at GET_CONTEXT and installed once; a record per object the half
 * allocated memory for, kept from the kernel's success to its destroy; the
 * records released when the kernel refused, destroyed, or the device
 * closed. One lock per device guards the table.
 *
 * The destroy takes the record out of the table before the kernel is
 * asked. The kernel frees a handle the moment it answers a destroy, and its
 * next create may hand the same number to another thread; had the record
 * stayed until the answer, that thread's new record and the old one would
 * share a key, and the late removal could take the live one (its queue
 * unmapped under the hardware). With the record out first, the new one is
 * the only one of its key; a refused destroy puts the old one back, and no
 * create can have got its handle meanwhile since the object still held it.
 */
#include <stdlib.h>
#include <syslog.h>
#include <string.h>
#include <uvio/diag.h>
#include "device/path.h"
#include "hw/hw.h"
#include "report/report.h"

static void hw_table_add(struct hw_state *st, struct hw_obj *o)
{
	o->next = st->objs;
	st->objs = o;
	st->nobjs++;
}

static struct hw_obj **hw_table_slot(struct hw_state *st, enum hw_verb kind, uint32_t handle)
{
	struct hw_obj **p;

	for (p = &st->objs; *p; p = &(*p)->next)
		if ((*p)->kind == kind && (*p)->handle == handle)
			return p;
	return NULL;
}

static struct hw_obj *hw_table_take(struct hw_state *st, enum hw_verb kind, uint32_t handle)
{
	struct hw_obj **p = hw_table_slot(st, kind, handle), *o;

	if (!p)
		return NULL;
	o = *p;
	*p = o->next;
	o->next = NULL;
	st->nobjs--;
	return o;
}

struct hw_obj *uvio_hw_obj_find(struct hw_state *st, enum hw_verb kind, uint32_t handle)
{
	struct hw_obj **p = hw_table_slot(st, kind, handle);

	return p ? *p : NULL;
}

int uvio_hw_write(struct uvio_device *dev, uint32_t command, const void *core, size_t core_len,
		  void *resp, size_t resp_len, const struct drv_bufs *drv)
{
	enum uvio_path p = uvio_path_current(&dev->paths);
	uint64_t buf[(UVIO_WRITE_ROOM + UVIO_MAX_PLAIN_CORE) / 8];

	if (core_len > UVIO_MAX_PLAIN_CORE)
		return -EINVAL;
	memcpy((uint8_t *)buf + UVIO_WRITE_ROOM, core, core_len);
	p = p == UVIO_PATH_WRITE || p == UVIO_PATH_IOCTL_2017 ? UVIO_PATH_WRITE
							       : UVIO_PATH_INVOKE_WRITE;
	return uvio_write_run(dev, p, command, buf, core_len, resp, resp_len, drv);
}

/* The kernel's destroy of an object a half made, as the library's own
 * command (close-time: the verbs are above this layer). */
static int hw_kernel_destroy(struct uvio_device *dev, enum hw_verb kind, uint32_t handle)
{
	uint32_t resp[2];

	switch (kind) {
	case HW_QP: {
		struct ib_uverbs_destroy_qp c = { .qp_handle = handle };

		return uvio_hw_write(dev, IB_USER_VERBS_CMD_DESTROY_QP, &c, sizeof(c), resp,
				     sizeof(struct ib_uverbs_destroy_qp_resp), NULL);
	}
	case HW_SRQ: {
		struct ib_uverbs_destroy_srq c = { .srq_handle = handle };

		return uvio_hw_write(dev, IB_USER_VERBS_CMD_DESTROY_SRQ, &c, sizeof(c), resp,
				     sizeof(struct ib_uverbs_destroy_srq_resp), NULL);
	}
	case HW_CQ: {
		struct ib_uverbs_destroy_cq c = { .cq_handle = handle };

		return uvio_hw_write(dev, IB_USER_VERBS_CMD_DESTROY_CQ, &c, sizeof(c), resp,
				     sizeof(struct ib_uverbs_destroy_cq_resp), NULL);
	}
	case HW_AH: {
		struct ib_uverbs_destroy_ah c = { .ah_handle = handle };

		return uvio_hw_write(dev, IB_USER_VERBS_CMD_DESTROY_AH, &c, sizeof(c), NULL, 0, NULL);
	}
	default: {
		struct ib_uverbs_dealloc_pd c = { .pd_handle = handle };

		return uvio_hw_write(dev, IB_USER_VERBS_CMD_DEALLOC_PD, &c, sizeof(c), NULL, 0, NULL);
	}
	}
}

static void hw_obj_free(struct uvio_device *dev, struct hw_state *st, struct hw_obj *o)
{
	st->ops->obj_release(dev, st, o);
	free(o);
}

static void hw_state_free(struct hw_state *st)
{
	pthread_mutex_destroy(&st->lock);
	free(st);
}

/*
 * Close with an fd that outlives the handle (adopted): the objects the
 * halves made would stay in the kernel, their memory registered or pinned
 * on a file that lives on, and their records could not be released safely
 * while the hardware may still reach that memory. They are destroyed here,
 * dependents first. One the kernel will not destroy (another library's QP
 * on a CQ of ours, say) keeps its memory: mapped, never reused, lost to
 * the process rather than freed under a live queue.
 */
static void hw_destroy_kept(struct uvio_device *dev, struct hw_state *st)
{
	static const enum hw_verb order[] = { HW_QP, HW_SRQ, HW_CQ, HW_AH, HW_PD };

	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		for (;;) {
			struct hw_obj *o;
			uint32_t handle = 0;
			int ret;

			/* Out of the table first, as any destroy. */
			uvio_hw_lock(st);
			for (o = st->objs; o && o->kind != order[k]; o = o->next)
				;
			if (o)
				o = hw_table_take(st, order[k], handle = o->handle);
			uvio_hw_unlock(st);
			if (!o)
				break;
			ret = hw_kernel_destroy(dev, order[k], handle);
			if (!ret) {
				hw_obj_free(dev, st, o);
				continue;
			}
			uvio_log(LOG_WARNING, "%s: close: %s: the kernel kept object %u (%s); its "
				 "memory stays mapped", dev->name, st->ops->driver, handle,
				 uvio_errno_name(ret));
			free(o);	/* the record only: what it holds stays */
		}
	}
}

static void hw_release_at_close(struct uvio_device *dev)
{
	struct hw_state *st = uvio_hw_state(dev);
	struct hw_obj *o, *next;

	if (!st)
		return;
	if (!dev->owned)
		hw_destroy_kept(dev, st);
	/* The kernel objects go with the fd (or went above), and nobody else
	 * holds the handle now. */
	st->fd_closing = dev->owned;
	for (o = st->objs; o; o = next) {
		next = o->next;
		hw_obj_free(dev, st, o);
	}
	st->objs = NULL;
	st->ops->context_release(dev, st);	/* nobjs: what the close found alive */
	hw_state_free(st);
	atomic_store_explicit(&dev->hw, NULL, memory_order_release);
}

static bool hw_attach(struct uvio_device *dev, struct hw_state *st)
{
	struct hw_state *none = NULL;

	if (!atomic_compare_exchange_strong_explicit(&dev->hw, &none, st, memory_order_acq_rel,
						     memory_order_acquire))
		return false;
	dev->hw_release = hw_release_at_close;
	return true;
}

int uvio_hw_prepare(struct uvio_device *dev, struct hw_call *c, union hw_params *p,
		    struct drv_bufs *b)
{
	const struct hw_ops *ops = c->ops;
	struct hw_state *st;
	struct hw_obj *o = NULL;
	int ret;

	if (c->verb == HW_CONTEXT) {
		st = calloc(1, ops->state_size);
		if (!st)
			return -ENOMEM;
		pthread_mutex_init(&st->lock, NULL);
		st->ops = ops;
		ret = ops->context_request(dev, st, c, b);
		if (ret) {
			hw_state_free(st);
			return ret;
		}
		c->obj = st;
		return 0;
	}
	st = uvio_hw_state(dev);
	if (c->verb != HW_CQ_RESIZE) {
		o = calloc(1, ops->obj_size);
		if (!o)
			return -ENOMEM;
		o->kind = c->verb;
	}
	ret = ops->request(dev, st, c, p, o, b);
	if (ret) {
		if (o)
			hw_obj_free(dev, st, o);
		return ret;
	}
	c->obj = o;
	return 0;
}

void uvio_hw_finish(struct uvio_device *dev, struct hw_call *c, int ret, uint32_t handle)
{
	const struct hw_ops *ops = c->ops;
	struct hw_state *st;
	struct hw_obj *o;

	if (c->verb == HW_CONTEXT) {
		st = c->obj;
		if (ret) {
			hw_state_free(st);
			return;
		}
		ops->context_answer(dev, st, c);
		if (!hw_attach(dev, st)) {	/* a context this handle had already */
			ops->context_release(dev, st);
			hw_state_free(st);
		}
		return;
	}
	o = c->obj;
	st = uvio_hw_state(dev);
	if (!o || !st)
		return;
	if (ret) {
		hw_obj_free(dev, st, o);
		return;
	}
	o->handle = handle;
	if (ops->answer)
		ops->answer(dev, st, c, o);
	uvio_hw_lock(st);
	hw_table_add(st, o);
	uvio_hw_unlock(st);
}

struct hw_obj *uvio_hw_destroy_begin(struct uvio_device *dev, enum hw_verb kind,
				     uint32_t handle)
{
	struct hw_state *st = uvio_hw_state(dev);
	struct hw_obj *o;

	if (!st)
		return NULL;
	uvio_hw_lock(st);
	o = hw_table_take(st, kind, handle);
	uvio_hw_unlock(st);
	return o;
}

void uvio_hw_destroy_end(struct uvio_device *dev, struct hw_obj *o, int ret)
{
	struct hw_state *st = uvio_hw_state(dev);

	if (!o || !st)
		return;
	if (ret) {
		uvio_hw_lock(st);
		hw_table_add(st, o);
		uvio_hw_unlock(st);
		return;
	}
	hw_obj_free(dev, st, o);
}
