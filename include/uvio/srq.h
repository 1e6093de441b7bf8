/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: shared receive queues (basic, XRC, tag matching) and XRC
 * domains.
 *
 * Encodings the kernel has:
 *   SRQ create   native SRQ/CREATE; write() CREATE_SRQ (basic only) or
 *                CREATE_XSRQ (any type)
 *   SRQ modify   write() MODIFY_SRQ only (INVOKE_WRITE on the ioctl path)
 *   SRQ query    write() QUERY_SRQ only
 *   SRQ destroy  native SRQ/DESTROY; write() DESTROY_SRQ
 *   XRCD open    write() OPEN_XRCD only
 *   XRCD close   native XRCD/DESTROY; write() CLOSE_XRCD
 */
#ifndef UVIO_SRQ_H
#define UVIO_SRQ_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>
#include <uvio/events.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

/* What SRQ CREATE asks for. Sized (see UVIO_OPTS): sz first. */
struct uvio_srq_attr {
	size_t sz;
	uint32_t type;			/* enum ib_uverbs_srq_type; 0 is BASIC */
	uint32_t pd_handle;
	uint64_t user_handle;		/* comes back in async events */
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_limit;
	uint32_t max_num_tags;		/* TM only */
	uint32_t xrcd_handle;		/* XRC only */
	uint32_t cq_handle;		/* XRC and TM */
	/* The async event fd for this SRQ's events; NULL: the context's. The
	 * write() commands cannot name one (-EOPNOTSUPP there). */
	const int *event_fd;
};

/* What the kernel granted. Output: the caller sets sz; fields past it are
 * left alone. srq_num is the kernel's for XRC SRQs, 0 otherwise. */
struct uvio_srq {
	size_t sz;
	uint32_t handle;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_num;
};

UVIO_API int uvio_create_srq(struct uvio_device *dev, const struct uvio_srq_attr *attr,
			     const struct uvio_drv *drv, struct uvio_srq *srq,
			     enum uvio_path *path);

/* MODIFY_SRQ: attr_mask of IB_SRQ_MAX_WR (1, resize) and IB_SRQ_LIMIT (2,
 * arm the limit event). Drivers may want driver input (rxe: 8 bytes,
 * struct rxe_modify_srq_cmd). */
#define UVIO_SRQ_MAX_WR 1u
#define UVIO_SRQ_LIMIT	2u
struct uvio_srq_modify {
	size_t sz;
	uint32_t attr_mask;
	uint32_t max_wr;
	uint32_t srq_limit;
	uint32_t reserved;		/* zero; room a later field may take */
};

UVIO_API int uvio_modify_srq(struct uvio_device *dev, uint32_t srq_handle,
			     const struct uvio_srq_modify *attr, const struct uvio_drv *drv,
			     enum uvio_path *path);

/* QUERY_SRQ: output, sized. */
struct uvio_srq_state {
	size_t sz;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t srq_limit;
};

UVIO_API int uvio_query_srq(struct uvio_device *dev, uint32_t srq_handle,
			    struct uvio_srq_state *state, enum uvio_path *path);

/* events (may be NULL): async events the kernel delivered for the SRQ, to
 * be acknowledged before it is gone (comp_events_reported is 0). */
UVIO_API int uvio_destroy_srq(struct uvio_device *dev, uint32_t srq_handle,
			      struct uvio_events_reported *events, enum uvio_path *path);

/*
 * OPEN_XRCD. fd: a file that names the domain across processes, or -1 for a
 * private one; oflags: O_CREAT and O_EXCL as for open(2) (with fd -1 the
 * kernel wants O_CREAT).
 */
UVIO_API int uvio_open_xrcd(struct uvio_device *dev, int fd, int oflags,
			    const struct uvio_drv *drv, uint32_t *xrcd_handle,
			    enum uvio_path *path);
UVIO_API int uvio_close_xrcd(struct uvio_device *dev, uint32_t xrcd_handle,
			     enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
