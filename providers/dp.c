// SPDX-License-Identifier: MIT
/*
 * The data-path layer's objects: created and destroyed through the
 * library's verbs with the driver's answer in hand, their queues mapped and
 * locked here, the work itself done by the driver's ops: a table per driver,
 * found by the device's driver id (drivers.c) at create and kept in the
 * object, so that post, poll and arm call through it with no lookup. No
 * driver is named here.
 */
#include <stdio.h>
#include <syslog.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include <uvio/diag.h>

#include "dp.h"
#include "for_providers.h"

/* Room for the largest driver answer of a create verb (siw's QP: 32 bytes). */
#define DP_RESP_MAX 64u

/* The driver's ops, or -EOPNOTSUPP naming the drivers this layer serves. */
static int ops_for(struct uvio_device *dev, const char *what, const struct dp_ops **ops)
{
	char why[160], served[64];

	*ops = uvio_dp_ops_of(uvio_device_driver_id(dev));
	if (*ops)
		return 0;
	uvio_dp_served(served, sizeof(served));
	snprintf(why, sizeof(why),
		 "EOPNOTSUPP: driver id %u has no queues this library can drive (the data-path "
		 "layer serves %s)", uvio_device_driver_id(dev), served);
	return uvio_dp_fail(dev, what, -EOPNOTSUPP, why);
}

/* The driver lacks what a call asks: "EOPNOTSUPP: <driver> <lacks>". */
static __attribute__((noinline, cold)) int driver_lacks(struct uvio_device *dev, const char *what,
							 const struct dp_ops *ops,
							 const char *lacks)
{
	char why[160];

	snprintf(why, sizeof(why), "EOPNOTSUPP: %s %s", ops->name, lacks);
	return uvio_dp_fail(dev, what, -EOPNOTSUPP, why);
}

/* The argument checks' words: what a NULL or a zeroed object means. */
#define NOT_CREATED "NULL, or not created (never created, its create failed, or destroyed)"

/* One of a create's three pointers is NULL: say which. */
static __attribute__((noinline, cold)) int create_null(const char *fn, const void *dev,
						       const void *attr, const char *obj)
{
	return uvio_dp_bad_arg(fn, !dev ? "dev" : !attr ? "attr" : obj, "NULL");
}

/*
 * The objects are sized (<uvio/dp.h>, "Growth"): the create macros pass
 * the caller's sizeof, kept in the object's size field. 1.0's layouts end
 * at these fields; a later release's struct is longer, and the library
 * touches no byte past the size it was given (the clears below use it).
 * Post, poll and arm read only 1.0's fields and never the size.
 */
#define DP_SIZE_1_0(type, last) (offsetof(struct type, last) + sizeof(((struct type *)0)->last))
#define CQ_SIZE_1_0 DP_SIZE_1_0(uvio_dp_cq, reserved)
#define SRQ_SIZE_1_0 DP_SIZE_1_0(uvio_dp_srq, reserved)
#define QP_SIZE_1_0 DP_SIZE_1_0(uvio_dp_qp, reserved2)
#define AH_SIZE_1_0 DP_SIZE_1_0(uvio_dp_ah, reserved2)
#ifndef UVIO_GROWTH_TEST
_Static_assert(sizeof(struct uvio_dp_cq) == CQ_SIZE_1_0, "1.0's CQ ends at reserved[]");
_Static_assert(sizeof(struct uvio_dp_srq) == SRQ_SIZE_1_0, "1.0's SRQ ends at reserved[]");
_Static_assert(sizeof(struct uvio_dp_qp) == QP_SIZE_1_0, "1.0's QP ends at reserved2[]");
_Static_assert(sizeof(struct uvio_dp_ah) == AH_SIZE_1_0, "1.0's AH ends at reserved2[]");
#endif

/* The size field is 32 bits; no release's object comes near this. */
#define DP_SIZE_MAX (1u << 20)

static __attribute__((noinline, cold)) int size_refused(const char *fn, const char *obj,
							size_t size, size_t size_1_0)
{
	char why[160];

	snprintf(why, sizeof(why),
		 "a struct of %zu bytes, %s 1.0's %zu (not built against <uvio/dp.h>, or "
		 "a wrong size to %s_sz)", size, size < size_1_0 ? "shorter than" :
		 "no struct of any release: far longer than", size_1_0, fn);
	return uvio_dp_bad_arg(fn, obj, why);
}

/*
 * A create's first steps: the object is there and at least 1.0's size, then
 * cleared (size bytes: the caller's whole struct, whichever release's) with
 * its size kept, then dev and attr. 0, or the refusal said.
 */
static int create_begin(const char *fn, const char *name, struct uvio_device *dev,
			const void *attr, void *obj, size_t size, size_t size_1_0,
			uint32_t *size_field)
{
	if (!obj)
		return create_null(fn, dev, attr, name);
	if (size < size_1_0 || size > DP_SIZE_MAX)
		return size_refused(fn, name, size, size_1_0);
	memset(obj, 0, size);
	*size_field = (uint32_t)size;
	if (!dev || !attr)
		return create_null(fn, dev, attr, name);
	return 0;
}

#ifdef UVIO_GROWTH_TEST
/* tests/package/growth: this build's objects have a field 1.0's lack, set
 * at create where the caller's size covers it. */
#define GROWN_MARK(obj, size)                                                  \
	do {                                                                   \
		if ((obj) && (size) >= offsetof(__typeof__(*(obj)), grown) + sizeof((obj)->grown)) \
			(obj)->grown = UVIO_GROWTH_MARK;                       \
	} while (0)
#else
#define GROWN_MARK(obj, size) ((void)0)
#endif

/* A failed create or a destroy: the caller's size bytes cleared, the size
 * kept (a zeroed object reads as not created). */
static void dp_clear(void *obj, uint32_t *size_field)
{
	uint32_t size = *size_field;

	memset(obj, 0, size);
	*size_field = size;
}

/*
 * The driver data a create verb goes with: the room for the driver's
 * answer (rxe's and siw's mmap keys), or none where the driver answers
 * nothing this layer reads (out_len 0: mlx5, whose request the library's
 * half in lib/hw makes and whose queues it then says where they lie).
 */
static inline const struct uvio_drv *dp_drv(const struct uvio_drv *drv)
{
	return drv->out_len ? drv : NULL;
}

static void queue_init(struct uvio_dp_queue *q, uint32_t max_sge, uint32_t max_inline)
{
	q->lock = 0;
	q->max_sge = max_sge;
	q->max_inline = max_inline;
}

UVIO_API int uvio_dp_create_cq_sz(struct uvio_device *dev, const struct uvio_cq_attr *attr,
				  struct uvio_dp_cq *cq, size_t size)
{
	uint64_t resp[DP_RESP_MAX / 8] = { 0 };
	struct uvio_cq out = { .sz = sizeof(out) };
	const struct dp_ops *ops;
	int err;

	err = create_begin("uvio_dp_create_cq", "cq", dev, attr, cq, size, CQ_SIZE_1_0,
			   cq ? &cq->size : NULL);
	GROWN_MARK(cq, size);
	if (!err)
		err = ops_for(dev, "CQ.CREATE (data path)", &ops);
	if (err)
		return err;
	{
		UVIO_OPTS(uvio_drv, drv, .out = resp, .out_len = ops->cq_resp_len);

		err = uvio_create_cq(dev, attr, dp_drv(&drv), &out, NULL);
	}
	if (err)
		return err;
	cq->dev = dev;
	cq->handle = out.handle;
	cq->cqe = out.cqe;
	cq->driver_id = uvio_device_driver_id(dev);
	dp_cq_set_ops(cq, ops);
	queue_init(&cq->q, 0, 0);
	err = ops->cq_map(cq, resp);
	if (err) {
		uvio_destroy_cq(dev, out.handle, NULL, NULL);
		uvio_dp_unmap(&cq->q.ring);
		dp_clear(cq, &cq->size);
		return uvio_dp_map_failed(dev, "CQ.CREATE (data path)", err);
	}
	return 0;
}

UVIO_API int uvio_dp_destroy_cq(struct uvio_dp_cq *cq, struct uvio_events_reported *events)
{
	int err;

	if (!cq || !cq->dev)
		return uvio_dp_bad_arg("uvio_dp_destroy_cq", "cq", NOT_CREATED);
	err = uvio_destroy_cq(cq->dev, cq->handle, events, NULL);
	if (err)
		return err;
	uvio_dp_unmap(&cq->q.ring);
	dp_clear(cq, &cq->size);
	return 0;
}

UVIO_API int uvio_dp_resize_cq(struct uvio_dp_cq *cq, uint32_t cqe)
{
	const struct dp_ops *ops;
	int err;

	if (!cq || !cq->dev || !(ops = dp_cq_ops(cq)))
		return uvio_dp_bad_arg("uvio_dp_resize_cq", "cq", NOT_CREATED);
	if (!ops->resize_cq)
		return driver_lacks(cq->dev, "CQ.RESIZE (data path)", ops, "cannot resize a CQ");
	uvio_dp_lock(&cq->q.lock);
	err = ops->resize_cq(cq, cqe);	/* each of its failures said */
	uvio_dp_unlock(&cq->q.lock);
	return err;
}

static __attribute__((noinline, cold)) int poll_bad_arg(const struct uvio_dp_cq *cq,
							const struct uvio_dp_wc *wc, int n)
{
	if (!cq || !cq->q.ring.map)
		return uvio_dp_bad_arg("uvio_dp_poll_cq", "cq", NOT_CREATED);
	if (n < 0)
		return uvio_dp_bad_arg("uvio_dp_poll_cq", "n", "negative");
	(void)wc;
	return uvio_dp_bad_arg("uvio_dp_poll_cq", "wc", "NULL with n > 0");
}

UVIO_API int uvio_dp_poll_cq(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	int got;

	if (__builtin_expect(!cq || !cq->q.ring.map || n < 0 || (n && !wc), 0))
		return poll_bad_arg(cq, wc, n);
	uvio_dp_lock(&cq->q.lock);
	got = dp_cq_ops(cq)->poll(cq, wc, n);
	uvio_dp_unlock(&cq->q.lock);
	return got;
}

UVIO_API int uvio_dp_arm_cq(struct uvio_dp_cq *cq, int solicited_only)
{
	if (!cq || !cq->q.ring.map)
		return uvio_dp_bad_arg("uvio_dp_arm_cq", "cq", NOT_CREATED);
	return dp_cq_ops(cq)->arm(cq, solicited_only);
}

UVIO_API int uvio_dp_create_srq_sz(struct uvio_device *dev, const struct uvio_srq_attr *attr,
				   struct uvio_dp_srq *srq, size_t size)
{
	uint64_t resp[DP_RESP_MAX / 8] = { 0 };
	struct uvio_srq out = { .sz = sizeof(out) };
	const struct dp_ops *ops;
	int err;

	err = create_begin("uvio_dp_create_srq", "srq", dev, attr, srq, size, SRQ_SIZE_1_0,
			   srq ? &srq->size : NULL);
	GROWN_MARK(srq, size);
	if (!err)
		err = ops_for(dev, "SRQ.CREATE (data path)", &ops);
	if (err)
		return err;
	{
		UVIO_OPTS(uvio_drv, drv, .out = resp, .out_len = ops->srq_resp_len);

		err = uvio_create_srq(dev, attr, dp_drv(&drv), &out, NULL);
	}
	if (err)
		return err;
	srq->dev = dev;
	srq->handle = out.handle;
	srq->srq_num = out.srq_num;
	srq->max_wr = out.max_wr;
	srq->max_sge = out.max_sge;
	srq->driver_id = uvio_device_driver_id(dev);
	dp_srq_set_ops(srq, ops);
	queue_init(&srq->q, out.max_sge, 0);
	err = ops->srq_map(srq, resp);
	if (err) {
		uvio_destroy_srq(dev, out.handle, NULL, NULL);
		uvio_dp_unmap(&srq->q.ring);
		dp_clear(srq, &srq->size);
		return uvio_dp_map_failed(dev, "SRQ.CREATE (data path)", err);
	}
	return 0;
}

UVIO_API int uvio_dp_destroy_srq(struct uvio_dp_srq *srq, struct uvio_events_reported *events)
{
	int err;

	if (!srq || !srq->dev)
		return uvio_dp_bad_arg("uvio_dp_destroy_srq", "srq", NOT_CREATED);
	err = uvio_destroy_srq(srq->dev, srq->handle, events, NULL);
	if (err)
		return err;
	uvio_dp_unmap(&srq->q.ring);
	dp_clear(srq, &srq->size);
	return 0;
}

UVIO_API int uvio_dp_modify_srq(struct uvio_dp_srq *srq, const struct uvio_srq_modify *attr)
{
	const struct dp_ops *ops;
	int err;

	if (!srq || !srq->dev || !(ops = dp_srq_ops(srq)))
		return uvio_dp_bad_arg("uvio_dp_modify_srq", "srq", NOT_CREATED);
	if (!attr)
		return uvio_dp_bad_arg("uvio_dp_modify_srq", "attr", "NULL");
	if (!ops->modify_srq)
		return uvio_modify_srq(srq->dev, srq->handle, attr, NULL, NULL);
	uvio_dp_lock(&srq->q.lock);
	err = ops->modify_srq(srq, attr);	/* each of its failures said */
	uvio_dp_unlock(&srq->q.lock);
	return err;
}

_Static_assert(sizeof(((struct uvio_dp_qp *)0)->doorbell) == UVIO_DOORBELL_WORDS * 8,
	       "the doorbell's room");
_Static_assert(sizeof(((struct uvio_dp_qp *)0)->doorbell_resp) ==
		       sizeof(struct ib_uverbs_post_send_resp),
	       "the doorbell's answer");

UVIO_API int uvio_dp_create_qp_sz(struct uvio_device *dev, const struct uvio_qp_init_attr *attr,
				  struct uvio_dp_srq *srq, struct uvio_dp_qp *qp, size_t size)
{
	uint64_t resp[DP_RESP_MAX / 8] = { 0 };
	struct uvio_qp out = { .sz = sizeof(out) };
	const struct dp_ops *ops;
	int err;

	err = create_begin("uvio_dp_create_qp", "qp", dev, attr, qp, size, QP_SIZE_1_0,
			   qp ? &qp->size : NULL);
	GROWN_MARK(qp, size);
	if (!err)
		err = ops_for(dev, "QP.CREATE (data path)", &ops);
	if (err)
		return err;
	/* The receives go where the kernel sends them: an SRQ named in attr
	 * must be the one given here, and the other way round. */
	if (attr->sz < offsetof(struct uvio_qp_init_attr, srq_handle) + sizeof(uint32_t) ||
	    !!srq != !!(attr->fields & UVIO_QP_INIT_SRQ) ||
	    (srq && srq->handle != attr->srq_handle))
		return uvio_dp_fail(dev, "QP.CREATE (data path)", -EINVAL,
				    "EINVAL: the srq argument and attr's SRQ handle disagree");
	{
		UVIO_OPTS(uvio_drv, drv, .out = resp, .out_len = ops->qp_resp_len);

		err = uvio_create_qp(dev, attr, dp_drv(&drv), &out, NULL);
	}
	if (err)
		return err;
	qp->dev = dev;
	qp->handle = out.handle;
	qp->qp_num = out.qp_num;
	qp->type = attr->type;
	qp->cap = out.cap;
	qp->srq = srq;
	qp->driver_id = uvio_device_driver_id(dev);
	dp_qp_set_ops(qp, ops);
	queue_init(&qp->sq, out.cap.max_send_sge, out.cap.max_inline_data);
	queue_init(&qp->rq, out.cap.max_recv_sge, 0);
	uvio_doorbell_layout(qp->doorbell, qp->handle, &qp->doorbell_resp);
	/* A driver that answers nothing of its own reads the attributes. */
	err = ops->qp_map(qp, ops->qp_resp_len ? (const void *)resp : (const void *)attr);
	if (err) {
		uvio_destroy_qp(dev, out.handle, NULL, NULL);
		uvio_dp_unmap(&qp->sq.ring);
		uvio_dp_unmap(&qp->rq.ring);
		dp_clear(qp, &qp->size);
		return uvio_dp_map_failed(dev, "QP.CREATE (data path)", err);
	}
	return 0;
}

UVIO_API int uvio_dp_destroy_qp(struct uvio_dp_qp *qp, struct uvio_events_reported *events)
{
	int err;

	const struct dp_ops *ops;

	if (!qp || !qp->dev || !(ops = dp_qp_ops(qp)))
		return uvio_dp_bad_arg("uvio_dp_destroy_qp", "qp", NOT_CREATED);
	if (ops->qp_listed)
		ops->qp_listed(qp, false);
	err = uvio_destroy_qp(qp->dev, qp->handle, events, NULL);
	if (err) {
		if (ops->qp_listed)
			ops->qp_listed(qp, true);
		return err;
	}
	uvio_dp_unmap(&qp->sq.ring);
	uvio_dp_unmap(&qp->rq.ring);
	dp_clear(qp, &qp->size);
	return 0;
}

static const char *post_error(int err)
{
	switch (err) {
	case -ENOSPC:
		return "ENOSPC: the queue is full";
	case -EOPNOTSUPP:
		return "EOPNOTSUPP: the driver or the QP type has no such opcode";
	default:
		return "EINVAL: more SGEs or inline bytes than the queue takes, a NULL list, "
		       "a UD send without an AH, or an atomic without one 8-byte SGE";
	}
}

static inline int ring(struct uvio_dp_qp *qp)
{
	return uvio_doorbell_ring(qp->dev, qp->doorbell);
}

/* What went wrong in a post, said once, off the fast path: the WRs before
 * index i are in the queue and get their doorbell. */
static __attribute__((noinline, cold)) int post_send_failed(struct uvio_dp_qp *qp, uint32_t n,
							    uint32_t i, int err, uint32_t *bad)
{
	int db = 0;
	bool rung = dp_qp_ops(qp)->doorbell_locked;	/* under the lock, already */

	if (!err) {	/* all posted; the doorbell failed */
		db = ring(qp);
		if (bad)
			*bad = n;
		return uvio_dp_fail(qp->dev, "QP.POST_SEND (data path)", db,
				    db == -ENOTCONN ? "ENOTCONN: the doorbell before RTS "
						      "(the WRs wait in the queue)"
						    : "the doorbell write() failed");
	}
	if (i && !rung)
		ring(qp);
	if (bad)
		*bad = i;
	return uvio_dp_fail(qp->dev, "QP.POST_SEND (data path)", err, post_error(err));
}

static __attribute__((noinline, cold)) int post_send_bad_arg(const struct uvio_dp_qp *qp,
							     uint32_t *bad)
{
	if (bad)
		*bad = 0;
	if (!qp || !qp->sq.ring.map)
		return uvio_dp_bad_arg("uvio_dp_post_send", "qp", NOT_CREATED);
	return uvio_dp_bad_arg("uvio_dp_post_send", "wr", "NULL with n > 0");
}

UVIO_API int uvio_dp_post_send(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr,
			       uint32_t n, uint32_t *bad)
{
	int (*post)(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
	void (*doorbell_locked)(struct uvio_dp_qp *qp);
	uint32_t i;
	int err = 0;

	if (__builtin_expect(!qp || !qp->sq.ring.map || (n && !wr), 0))
		return post_send_bad_arg(qp, bad);
	post = dp_qp_ops(qp)->post_send;
	doorbell_locked = dp_qp_ops(qp)->doorbell_locked;
	uvio_dp_lock(&qp->sq.lock);
	for (i = 0; i < n; i++)
		if ((err = post(qp, &wr[i])))
			break;
	/* A hardware doorbell (mlx5) under the lock, so that its record and
	 * register never go backwards. */
	if (doorbell_locked && i)
		doorbell_locked(qp);
	uvio_dp_unlock(&qp->sq.lock);
	/* The kernel's doorbell outside the lock: the WQEs are published in
	 * order already, and the kernel runs the ring up to its producer. */
	if (__builtin_expect(!err, 1) &&
	    (!n || doorbell_locked || !ring(qp))) {
		if (bad)
			*bad = 0;
		return 0;
	}
	return post_send_failed(qp, n, i, err, bad);
}

static int post_recv(struct uvio_device *dev, const char *what, const struct dp_ops *ops,
		     struct uvio_dp_queue *q, const struct uvio_dp_recv_wr *wr, uint32_t n,
		     uint32_t *bad)
{
	uint32_t i;
	int err = 0;

	uvio_dp_lock(&q->lock);
	for (i = 0; i < n && !err; i++) {
		if (wr[i].num_sge > q->max_sge || (wr[i].num_sge && !wr[i].sg_list))
			err = -EINVAL;
		else
			err = ops->post_recv(q, &wr[i]);
	}
	uvio_dp_unlock(&q->lock);
	if (err) {
		if (bad)
			*bad = i - 1;
		return uvio_dp_fail(dev, what, err, post_error(err));
	}
	return 0;
}

static __attribute__((noinline, cold)) int post_recv_bad_arg(const struct uvio_dp_qp *qp)
{
	if (qp && qp->srq)
		return uvio_dp_fail(qp->dev, "QP.POST_RECV (data path)", -EINVAL,
				    "EINVAL: the QP receives through its SRQ "
				    "(uvio_dp_post_srq_recv)");
	if (!qp || !qp->rq.ring.map)
		return uvio_dp_bad_arg("uvio_dp_post_recv", "qp", NOT_CREATED);
	return uvio_dp_bad_arg("uvio_dp_post_recv", "wr", "NULL with n > 0");
}

UVIO_API int uvio_dp_post_recv(struct uvio_dp_qp *qp, const struct uvio_dp_recv_wr *wr,
			       uint32_t n, uint32_t *bad)
{
	if (bad)
		*bad = 0;
	if (__builtin_expect(!qp || !qp->rq.ring.map || (n && !wr), 0))
		return post_recv_bad_arg(qp);
	/* One receive, what a poller reposts after each completion: the
	 * same checks and call as the loop's, without its bookkeeping. */
	if (__builtin_expect(n == 1 && wr->num_sge <= qp->rq.max_sge &&
			     (wr->sg_list || !wr->num_sge), 1)) {
		int err;

		uvio_dp_lock(&qp->rq.lock);
		err = dp_qp_ops(qp)->post_recv(&qp->rq, wr);
		uvio_dp_unlock(&qp->rq.lock);
		if (__builtin_expect(!err, 1))
			return 0;
		return uvio_dp_fail(qp->dev, "QP.POST_RECV (data path)", err, post_error(err));
	}
	return post_recv(qp->dev, "QP.POST_RECV (data path)", dp_qp_ops(qp), &qp->rq, wr, n, bad);
}

UVIO_API int uvio_dp_post_srq_recv(struct uvio_dp_srq *srq, const struct uvio_dp_recv_wr *wr,
				   uint32_t n, uint32_t *bad)
{
	if (bad)
		*bad = 0;
	if (__builtin_expect(!srq || !srq->q.ring.map, 0))
		return uvio_dp_bad_arg("uvio_dp_post_srq_recv", "srq", NOT_CREATED);
	if (__builtin_expect(n && !wr, 0))
		return uvio_dp_bad_arg("uvio_dp_post_srq_recv", "wr", "NULL with n > 0");
	return post_recv(srq->dev, "SRQ.POST_RECV (data path)", dp_srq_ops(srq), &srq->q, wr, n,
			 bad);
}

UVIO_API int uvio_dp_create_ah_sz(struct uvio_device *dev, const struct uvio_ah_attr *attr,
				  struct uvio_dp_ah *ah, size_t size)
{
	uint64_t resp[DP_RESP_MAX / 8] = { 0 };
	const struct dp_ops *ops;
	const char *why = NULL;
	int err;

	err = create_begin("uvio_dp_create_ah", "ah", dev, attr, ah, size, AH_SIZE_1_0,
			   ah ? &ah->size : NULL);
	GROWN_MARK(ah, size);
	if (!err)
		err = ops_for(dev, "AH.CREATE (data path)", &ops);
	if (err)
		return err;
	if (!ops->ah_init)
		return driver_lacks(dev, "AH.CREATE (data path)", ops,
				    "has no UD QPs, so no address handles");
	{
		UVIO_OPTS(uvio_drv, drv, .out = resp, .out_len = ops->ah_resp_len);

		err = uvio_create_ah(dev, attr, dp_drv(&drv), &ah->handle, NULL);
	}
	if (err)
		return err;
	ah->dev = dev;
	err = ops->ah_init(ah, attr, resp, &why);
	if (err) {
		uvio_destroy_ah(dev, ah->handle, NULL);
		dp_clear(ah, &ah->size);
		return uvio_dp_fail(dev, "AH.CREATE (data path)", err,
				    why ? why : uvio_errno_name(err));
	}
	return 0;
}

UVIO_API int uvio_dp_destroy_ah(struct uvio_dp_ah *ah)
{
	int err;

	if (!ah || !ah->dev)
		return uvio_dp_bad_arg("uvio_dp_destroy_ah", "ah", NOT_CREATED);
	err = uvio_destroy_ah(ah->dev, ah->handle, NULL);
	if (!err) {
		const struct dp_ops *ops = uvio_dp_ops_of(uvio_device_driver_id(ah->dev));

		if (ops && ops->ah_fini)
			ops->ah_fini(ah);
		dp_clear(ah, &ah->size);
	}
	return err;
}

UVIO_API int uvio_dp_reset_qp(struct uvio_dp_qp *qp, struct uvio_dp_cq *send_cq,
			      struct uvio_dp_cq *recv_cq)
{
	const struct dp_ops *ops;

	if (!qp || !qp->sq.ring.map || !(ops = dp_qp_ops(qp)))
		return uvio_dp_bad_arg("uvio_dp_reset_qp", "qp", NOT_CREATED);
	if (send_cq && (!send_cq->q.ring.map || send_cq->dev != qp->dev))
		return uvio_dp_bad_arg("uvio_dp_reset_qp", "send_cq",
				       "not a CQ created on the QP's device");
	if (recv_cq && (!recv_cq->q.ring.map || recv_cq->dev != qp->dev))
		return uvio_dp_bad_arg("uvio_dp_reset_qp", "recv_cq",
				       "not a CQ created on the QP's device");
	if (!ops->qp_reset)
		return 0;
	if (recv_cq == send_cq)
		recv_cq = NULL;		/* one CQ: cleaned once, locked once */
	/* The CQs first, as a poll takes its CQ before any queue. */
	if (send_cq)
		uvio_dp_lock(&send_cq->q.lock);
	if (recv_cq)
		uvio_dp_lock(&recv_cq->q.lock);
	uvio_dp_lock(&qp->sq.lock);
	uvio_dp_lock(&qp->rq.lock);
	ops->qp_reset(qp, send_cq, recv_cq);
	uvio_dp_unlock(&qp->rq.lock);
	uvio_dp_unlock(&qp->sq.lock);
	if (recv_cq)
		uvio_dp_unlock(&recv_cq->q.lock);
	if (send_cq)
		uvio_dp_unlock(&send_cq->q.lock);
	return 0;
}

UVIO_API int uvio_dp_qp_opcodes(const struct uvio_dp_qp *qp, uint64_t *mask)
{
	const struct dp_ops *ops;

	if (!qp || !qp->sq.ring.map || !(ops = dp_qp_ops(qp)))
		return uvio_dp_bad_arg("uvio_dp_qp_opcodes", "qp", NOT_CREATED);
	if (!mask)
		return uvio_dp_bad_arg("uvio_dp_qp_opcodes", "mask", "NULL");
	*mask = ops->opcodes(qp->type);
	return 0;
}
