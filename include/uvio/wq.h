/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: work queues (receive queues apart from a QP, for RSS)
 * and their indirection tables.
 *
 * Encodings the kernel has:
 *   WQ create          native WQ/CREATE; extended write() EX_CMD_CREATE_WQ
 *   WQ modify          extended write() EX_CMD_MODIFY_WQ only
 *   WQ destroy         native WQ/DESTROY; extended write() EX_CMD_DESTROY_WQ
 *   RWQ table create   extended write() EX_CMD_CREATE_RWQ_IND_TBL only
 *   RWQ table destroy  native RWQ_IND_TBL/DESTROY; extended write()
 * Extended write() commands travel as INVOKE_WRITE on the ioctl path.
 */
#ifndef UVIO_WQ_H
#define UVIO_WQ_H

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

/* Sized: sz first. */
struct uvio_wq_attr {
	size_t sz;
	uint32_t type;			/* enum ib_uverbs_wq_type; 0 is RQ */
	uint32_t pd_handle;
	uint32_t cq_handle;
	uint64_t user_handle;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t flags;			/* enum ib_uverbs_wq_flags */
	/* The async event fd for this WQ's events; NULL: the context's. The
	 * write() command cannot name one (-EOPNOTSUPP there). */
	const int *event_fd;
};

/* Output, sized. */
struct uvio_wq {
	size_t sz;
	uint32_t handle;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t wq_num;
};

UVIO_API int uvio_create_wq(struct uvio_device *dev, const struct uvio_wq_attr *attr,
			    const struct uvio_drv *drv, struct uvio_wq *wq,
			    enum uvio_path *path);

/* attr_mask: UVIO_WQ_STATE, UVIO_WQ_CUR_STATE, UVIO_WQ_FLAGS (the kernel's
 * IB_WQ_STATE, IB_WQ_CUR_STATE, IB_WQ_FLAGS). States: 0 RESET, 1 RDY,
 * 2 ERR. flags_mask says which bits of flags apply. */
#define UVIO_WQ_STATE	  1u
#define UVIO_WQ_CUR_STATE 2u
#define UVIO_WQ_FLAGS	  4u
struct uvio_wq_modify {
	size_t sz;
	uint32_t attr_mask;
	uint32_t state;
	uint32_t cur_state;
	uint32_t flags;
	uint32_t flags_mask;
	uint32_t reserved;		/* zero; room a later field may take */
};

UVIO_API int uvio_modify_wq(struct uvio_device *dev, uint32_t wq_handle,
			    const struct uvio_wq_modify *attr, const struct uvio_drv *drv,
			    enum uvio_path *path);
/* events (may be NULL): async events delivered for the WQ (comp 0). */
UVIO_API int uvio_destroy_wq(struct uvio_device *dev, uint32_t wq_handle,
			     struct uvio_events_reported *events, enum uvio_path *path);

/* An RSS indirection table over 1 << log_size WQs, wq_handles[] that many.
 * The kernel takes log_size up to 13; this library up to
 * UVIO_MAX_LOG_IND_TBL_SIZE (1024 WQs), since it builds the command on its
 * stack (-E2BIG beyond). Output, sized. */
#define UVIO_MAX_LOG_IND_TBL_SIZE 10u
struct uvio_rwq_ind_table {
	size_t sz;
	uint32_t handle;
	uint32_t ind_tbl_num;
};

UVIO_API int uvio_create_rwq_ind_table(struct uvio_device *dev, uint32_t log_size,
				       const uint32_t *wq_handles,
				       struct uvio_rwq_ind_table *table,
				       enum uvio_path *path);
UVIO_API int uvio_destroy_rwq_ind_table(struct uvio_device *dev, uint32_t handle,
					enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
