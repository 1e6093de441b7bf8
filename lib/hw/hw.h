/* SPDX-License-Identifier: MIT */
/*
 * The hardware drivers' halves of the verbs. A real NIC's kernel driver
 * refuses a context, a CQ or a QP without its own request in the driver
 * data: queues live in the process's memory (a buffer the kernel pins, a
 * doorbell record), the context offers doorbell pages to map, and each
 * driver sizes and aligns them by its own rules. rxe and siw need none of
 * this. When a caller passes no struct uvio_drv, the verbs ask the device's
 * driver half (struct hw_ops) for the driver data, and tell it what the
 * kernel answered. The layer (lib/hw/layer.c) keeps, for each object a
 * half allocated memory for, a record in the device's object table until
 * the object is destroyed or the device closed: the bookkeeping is the
 * layer's, written once; the halves say what is their driver's.
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
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/hw.h>
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
	void *obj;			/* the layer's record of the object (struct
					 * hw_obj), or of the context (struct hw_state) */
	const char *why;		/* the half's refusal, in words, or NULL */
	uint64_t in[HW_DATA_MAX / 8];
	uint64_t out[HW_DATA_MAX / 8];
};

/*
 * The records the layer keeps. A half's own state begins with a struct
 * hw_state, and its record of an object with a struct hw_obj; the layer
 * allocates both (zeroed, of the sizes the half gives), keeps them and
 * frees them, under the state's one lock. A half says only what is its
 * driver's: its request, its answer, and what a record holds to free.
 */
struct hw_obj {
	struct hw_obj *next;
	enum hw_verb kind;
	uint32_t handle;
};

struct hw_state {
	pthread_mutex_t lock;		/* the object table, and what a half shares
					 * among its objects (doorbell pages) */
	const struct hw_ops *ops;
	struct hw_obj *objs;
	unsigned int nobjs;		/* records kept; at context_release, the objects
					 * the close found alive */
	bool fd_closing;		/* close: the fd goes next, and the kernel
					 * frees every object with it */
};

struct hw_ops {
	const char *driver;		/* "mlx5" */
	size_t state_size;		/* at least sizeof(struct hw_state) */
	size_t obj_size;		/* at least sizeof(struct hw_obj) */
	/* GET_CONTEXT: the driver's request and answer room in b (pointing
	 * into c->in and c->out). st is zeroed, its lock made; a refusal
	 * frees it. */
	int (*context_request)(struct uvio_device *dev, struct hw_state *st, struct hw_call *c,
			       struct drv_bufs *b);
	/* The kernel made the context: read its answer, map what it offers.
	 * The layer then attaches st to the handle. */
	void (*context_answer)(struct uvio_device *dev, struct hw_state *st,
			       const struct hw_call *c);
	/* What st holds beyond its objects, at close (not st itself). */
	void (*context_release)(struct uvio_device *dev, struct hw_state *st);
	/* Any other verb, on a handle that has the half's state (the layer
	 * refuses the verb before this otherwise): fill the driver data of
	 * c->verb into b (uvio_hw_hand_over), allocating what the object needs
	 * into o, zeroed (NULL for HW_CQ_RESIZE, which is no new object); a
	 * negative errno (uvio_hw_refuse() where there are words to add)
	 * refuses before anything is sent, and the layer then releases o as
	 * far as it was filled. */
	int (*request)(struct uvio_device *dev, struct hw_state *st, struct hw_call *c,
		       union hw_params *p, struct hw_obj *o, struct drv_bufs *b);
	/* The kernel made object o->handle: read the answer in c->out into o
	 * (NULL: nothing to read). Before o is in the table. */
	void (*answer)(struct uvio_device *dev, struct hw_state *st, const struct hw_call *c,
		       struct hw_obj *o);
	/* Free what o holds, not o: after the kernel refused or destroyed the
	 * object, or at close; o may be filled only in part (a refusal).
	 * Called without the lock: a half that shares pages among objects
	 * takes it (uvio_hw_lock). */
	void (*obj_release)(struct uvio_device *dev, struct hw_state *st, struct hw_obj *o);
	/* uvio_hw_query_object(): the driver's number for o and the regions
	 * it holds (uvio_hw_region_add), under the lock. */
	void (*describe)(const struct hw_state *st, const struct hw_obj *o,
			 struct uvio_hw_object *out);
};

/* A region of out, where there is one (addr NULL: none) and room. */
static inline void uvio_hw_region_add(struct uvio_hw_object *out, enum uvio_hw_mem kind,
				      uint32_t flags, const volatile void *addr, uint64_t len)
{
	if (!addr || !len || out->nregions >= UVIO_HW_MAX_REGIONS)
		return;
	out->regions[out->nregions++] = (struct uvio_hw_region){
		.kind = kind, .flags = flags, .addr = (void *)(uintptr_t)addr, .len = len };
}

/* The half of a driver id, or NULL (rxe, siw, and drivers the library does
 * not know: their verbs go out with the caller's driver data alone). */
const struct hw_ops *uvio_hw_ops(uint32_t driver_id);
/* The name of a hardware driver that refuses verbs without driver data
 * and has no half here, or NULL. */
const char *uvio_hw_unbuilt_driver(uint32_t driver_id, const char **abi_header);

static inline struct hw_state *uvio_hw_state(struct uvio_device *dev)
{
	return atomic_load_explicit(&dev->hw, memory_order_acquire);
}

static inline void uvio_hw_lock(struct hw_state *st)
{
	pthread_mutex_lock(&st->lock);
}

static inline void uvio_hw_unlock(struct hw_state *st)
{
	pthread_mutex_unlock(&st->lock);
}

/* ---- the layer (lib/hw/layer.c), as the verbs call it ---- */

/* Before a verb a half takes part in: the state or the object's record
 * allocated, the half's request built. A negative errno refuses. */
int uvio_hw_prepare(struct uvio_device *dev, struct hw_call *c, union hw_params *p,
		    struct drv_bufs *b);
/* The kernel answered ret (0: the new object is handle): the record kept
 * (the context's state attached to dev), or released. */
void uvio_hw_finish(struct uvio_device *dev, struct hw_call *c, int ret, uint32_t handle);

/*
 * A destroy: the record leaves the table before the kernel is asked, so
 * that the handle, free again in the kernel the moment it answers, can be
 * given to another thread's create without the late removal taking the new
 * object's record; after the answer the record is released (0) or put back
 * (a refusal: the object lives on). NULL: nothing kept.
 */
struct hw_obj *uvio_hw_destroy_begin(struct uvio_device *dev, enum hw_verb kind,
				     uint32_t handle);
void uvio_hw_destroy_end(struct uvio_device *dev, struct hw_obj *o, int ret);

/* A write() command of the layer's or a half's own (irdma's regions, a
 * close's destroys), on the device's path: over INVOKE_WRITE where the
 * device takes ioctls, else write(). The device answered GET_CONTEXT
 * before any of them, so its path is known. */
int uvio_hw_write(struct uvio_device *dev, uint32_t command, const void *core, size_t core_len,
		  void *resp, size_t resp_len, const struct drv_bufs *drv);

/* The kind of record of a uverbs object type (UVERBS_OBJECT_CQ, ...), for
 * the queries; false for a type no half keeps. */
static inline bool uvio_hw_kind_of(uint16_t object, enum hw_verb *kind)
{
	switch (object) {
	case UVERBS_OBJECT_PD: *kind = HW_PD; return true;
	case UVERBS_OBJECT_CQ: *kind = HW_CQ; return true;
	case UVERBS_OBJECT_QP: *kind = HW_QP; return true;
	case UVERBS_OBJECT_SRQ: *kind = HW_SRQ; return true;
	case UVERBS_OBJECT_AH: *kind = HW_AH; return true;
	default: return false;
	}
}

/* The record of a live object, under the lock the caller holds, or NULL. */
struct hw_obj *uvio_hw_obj_find(struct hw_state *st, enum hw_verb kind, uint32_t handle);

/* ---- what every half's prepare does ---- */

/* The request laid out in c->in goes out (in_len 0: none); the answer
 * comes into c->out, zeroed first (out_len 0: no answer space). */
static inline int uvio_hw_hand_over(struct hw_call *c, struct drv_bufs *b, size_t in_len,
				    size_t out_len)
{
	b->in = in_len ? c->in : NULL;
	b->in_len = in_len;
	memset(c->out, 0, sizeof(c->out));
	b->out = out_len ? c->out : NULL;
	b->out_len = out_len;
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
