/* SPDX-License-Identifier: MIT */
/*
 * The hardware drivers' halves of the verbs. A real NIC's kernel driver
 * refuses a context, a CQ or a QP without its own request in the driver
 * data: queues live in the process's memory (a buffer the kernel pins, a
 * doorbell record), the context offers doorbell pages to map, and each
 * driver sizes and aligns them by its own rules. rxe and siw need none of
 * this. When a caller passes no struct uvio_drv, the verbs ask the device's
 * driver half (struct hw_ops) for the driver data, and tell it what the
 * kernel answered; what a driver half allocates for an object it keeps in
 * the device's object table until the object is destroyed or the device
 * closed.
 *
 * The layer sits between the device and the verbs: it runs its own
 * commands (mlx5's UAR object) on the device, and the verbs call it. A
 * device learns its half at GET_CONTEXT; lib/hw/drivers.c maps driver ids
 * to halves.
 */
#ifndef UVIO_LIB_HW_H
#define UVIO_LIB_HW_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <rdma/ib_user_verbs.h>
#include "device/dev.h"
#include "write/legacy.h"

/* The verbs a driver half takes part in. */
enum hw_verb {
	HW_CONTEXT,
	HW_PD,
	HW_CQ,
	HW_CQ_RESIZE,
	HW_QP,
	HW_SRQ,
	HW_AH,
	HW__COUNT
};

/* What the verb knows of the object it is about to make. Each verb fills
 * its own member; a driver half may adjust what the kernel is sent (sizes
 * its rules round up). */
union hw_params {
	struct {
		uint32_t cqe;		/* in: asked; out: what the kernel is sent */
		uint32_t handle;	/* HW_CQ_RESIZE: the CQ */
		bool channel;		/* HW_CQ: completions reported on a channel */
	} cq;
	struct {
		uint32_t type;		/* enum ib_uverbs_qp_type */
		bool srq;		/* receives come from an SRQ */
		bool ind_table;		/* over a receive WQ indirection table (RSS) */
		uint32_t create_flags;
		uint32_t pd;		/* the QP's PD (irdma registers its queues there) */
		struct ib_uverbs_qp_cap cap;	/* in: asked; out: what the kernel is sent */
	} qp;
	struct {
		uint32_t type;		/* enum ib_uverbs_srq_type */
		uint32_t max_wr, max_sge;	/* in: asked; out: what the kernel is sent */
	} srq;
};

/* Room for one verb's driver request and response, on the verb's stack. */
#define HW_DATA_MAX 128u

struct hw_call {
	const struct hw_ops *ops;	/* NULL: no driver half takes part */
	enum hw_verb verb;
	const char *name;		/* the verb's, for messages: "CQ.CREATE" */
	void *obj;			/* what prepare allocated for the object */
	const char *why;		/* prepare's refusal, in words, or NULL */
	uint64_t in[HW_DATA_MAX / 8];
	uint64_t out[HW_DATA_MAX / 8];
};

struct hw_ops {
	const char *driver;		/* "mlx5" */
	/* GET_CONTEXT: the driver's request and answer room in b, and the
	 * half's state (a struct hw_state first) allocated into c->obj. */
	int (*context_prepare)(struct uvio_device *dev, struct hw_call *c, struct drv_bufs *b);
	/* The kernel answered GET_CONTEXT ret: the half reads its answer and
	 * attaches the state to dev (uvio_hw_attach), or frees it. */
	void (*context_finish)(struct uvio_device *dev, struct hw_call *c, int ret);
	/* Any other verb, on a handle that has the half's state (the layer
	 * refuses the verb before this otherwise): fill the driver data of
	 * c->verb into b (pointing into c->in and c->out), allocating what
	 * the object needs into c->obj; a negative errno (with c->why saying
	 * why, where there is more to say than the errno) refuses before
	 * anything is sent. */
	int (*prepare)(struct uvio_device *dev, struct hw_call *c, union hw_params *p,
		       struct drv_bufs *b);
	/* The kernel answered ret (0: the object is handle), for a verb whose
	 * prepare allocated c->obj: on success the half keeps it; on failure
	 * it frees it. */
	void (*finish)(struct uvio_device *dev, struct hw_call *c, int ret, uint32_t handle,
		       const union hw_params *p);
	/* The kernel destroyed object handle of kind verb (HW_CQ, HW_QP,
	 * HW_SRQ, HW_PD, HW_AH): free what the half kept for it. */
	void (*destroyed)(struct uvio_device *dev, enum hw_verb kind, uint32_t handle);
};

/* The half of a driver id, or NULL (rxe, siw, and drivers the library does
 * not know: their verbs go out with the caller's driver data alone). */
const struct hw_ops *uvio_hw_ops(uint32_t driver_id);
/* The name of a hardware driver that refuses verbs without driver data
 * and has no half here, or NULL. */
const char *uvio_hw_unbuilt_driver(uint32_t driver_id, const char **abi_header);

/*
 * The device's part of the layer, made by the driver half at GET_CONTEXT:
 * a lock, the objects the half keeps memory for, and the half's own state
 * after it. dev->hw points here once the context exists.
 */
struct hw_obj {
	struct hw_obj *next;
	enum hw_verb kind;
	uint32_t handle;
};

struct hw_state {
	pthread_mutex_t lock;
	const struct hw_ops *ops;
	struct hw_obj *objs;
	void (*free_obj)(struct hw_state *st, struct hw_obj *o);	/* at close */
	void (*release)(struct hw_state *st, struct uvio_device *dev);	/* at close */
};

/* Install st as dev's state (once: a second context on the handle keeps
 * the first). Returns false when dev had one already. */
bool uvio_hw_attach(struct uvio_device *dev, struct hw_state *st);
static inline struct hw_state *uvio_hw_state(struct uvio_device *dev)
{
	return atomic_load_explicit(&dev->hw, memory_order_acquire);
}
/* The object table; the caller holds st->lock. */
void uvio_hw_obj_add(struct hw_state *st, struct hw_obj *o, enum hw_verb kind,
		     uint32_t handle);
struct hw_obj *uvio_hw_obj_find(struct hw_state *st, enum hw_verb kind, uint32_t handle);
struct hw_obj *uvio_hw_obj_take(struct hw_state *st, enum hw_verb kind, uint32_t handle);

/* The same under st->lock: keep o for the object the kernel made; take
 * out what was kept for an object the kernel destroyed (NULL: nothing, or
 * no half's state on dev). */
static inline void uvio_hw_keep(struct hw_state *st, struct hw_obj *o, enum hw_verb kind,
				uint32_t handle)
{
	pthread_mutex_lock(&st->lock);
	uvio_hw_obj_add(st, o, kind, handle);
	pthread_mutex_unlock(&st->lock);
}

static inline struct hw_obj *uvio_hw_forget(struct uvio_device *dev, enum hw_verb kind,
					    uint32_t handle)
{
	struct hw_state *st = uvio_hw_state(dev);
	struct hw_obj *o;

	if (!st)
		return NULL;
	pthread_mutex_lock(&st->lock);
	o = uvio_hw_obj_take(st, kind, handle);
	pthread_mutex_unlock(&st->lock);
	return o;
}

/* ---- what every half's prepare does ---- */

/* The request laid out in c->in goes out (in_len 0: none); the answer
 * comes into c->out, zeroed first (out_len 0: no answer space); obj is
 * what the call keeps until the kernel has answered. */
static inline int uvio_hw_hand_over(struct hw_call *c, struct drv_bufs *b, size_t in_len,
				    size_t out_len, void *obj)
{
	b->in = in_len ? c->in : NULL;
	b->in_len = in_len;
	memset(c->out, 0, sizeof(c->out));
	b->out = out_len ? c->out : NULL;
	b->out_len = out_len;
	c->obj = obj;
	return 0;
}

/* Refused before anything is sent: the verb reports why, naming the
 * driver (drv_refused()). */
static inline int uvio_hw_refuse(struct hw_call *c, int ret, const char *why)
{
	c->why = why;
	return ret;
}

/* The least power of two at least v; 0 when that is past 2^31 (a size no
 * driver takes, refused by the caller). */
static inline uint32_t uvio_hw_pow2(uint64_t v)
{
	uint32_t r = 1;

	while (r < v && r)
		r <<= 1;
	return r;
}

/* A queue in the process's memory: whole pages of page bytes (a power of
 * two), zeroed, mapped privately so that it is page-aligned and never
 * shares a page with the heap; *map_len the length mapped. NULL when the
 * mapping fails. */
static inline void *uvio_hw_queue_alloc(size_t len, size_t page, size_t *map_len)
{
	void *p;

	*map_len = (len + page - 1) & ~(page - 1);
	p = mmap(NULL, *map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static inline void uvio_hw_queue_free(void *p, size_t map_len)
{
	if (p)
		munmap(p, map_len);
}

#endif
