/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: queue pairs, and the data-path commands of QPs and CQs.
 *
 * Paths. QP.CREATE and QP.DESTROY have native ioctl methods; every other verb
 * here is a write() command, which the ioctl path carries through
 * DEVICE/INVOKE_WRITE where the kernel has it (about 5.0 on). With write()
 * QP.CREATE sends the extended command (IB_USER_VERBS_EX_CMD_CREATE_QP) only
 * when an extended field is set (create flags other than SQ_SIG_ALL, a source
 * QPN, an indirection table), the plain one otherwise; QP.MODIFY sends the
 * extended command only for extended attributes (UVIO_QP_RATE_LIMIT) or
 * driver data. A field the chosen encoding cannot carry is refused with
 * -EOPNOTSUPP, never dropped.
 *
 * Option structs start with size_t sz (see <uvio/api.h>): the library reads
 * and writes only the fields inside sz. Handles of the kernel start at 0, so
 * optional handles are named by a bit in `fields`, not by a non-zero value.
 */
#ifndef UVIO_QP_H
#define UVIO_QP_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <uvio/ah.h>
#include <uvio/api.h>
#include <uvio/device.h>
#include <uvio/events.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

/* QP states and path MTUs as the kernel numbers them (enum ib_qp_state,
 * enum ib_mtu; not in the UAPI headers). */
enum uvio_qp_state {
	UVIO_QPS_RESET = 0,
	UVIO_QPS_INIT = 1,
	UVIO_QPS_RTR = 2,
	UVIO_QPS_RTS = 3,
	UVIO_QPS_SQD = 4,
	UVIO_QPS_SQE = 5,
	UVIO_QPS_ERR = 6,
};

enum uvio_mtu {
	UVIO_MTU_256 = 1,
	UVIO_MTU_512 = 2,
	UVIO_MTU_1024 = 3,
	UVIO_MTU_2048 = 4,
	UVIO_MTU_4096 = 5,
};

/* Bits of uvio_qp_attr.attr_mask, the kernel's enum ib_qp_attr_mask. */
enum uvio_qp_attr_mask {
	UVIO_QP_STATE = 1u << 0,
	UVIO_QP_CUR_STATE = 1u << 1,
	UVIO_QP_EN_SQD_ASYNC_NOTIFY = 1u << 2,
	UVIO_QP_ACCESS_FLAGS = 1u << 3,
	UVIO_QP_PKEY_INDEX = 1u << 4,
	UVIO_QP_PORT = 1u << 5,
	UVIO_QP_QKEY = 1u << 6,
	UVIO_QP_AV = 1u << 7,
	UVIO_QP_PATH_MTU = 1u << 8,
	UVIO_QP_TIMEOUT = 1u << 9,
	UVIO_QP_RETRY_CNT = 1u << 10,
	UVIO_QP_RNR_RETRY = 1u << 11,
	UVIO_QP_RQ_PSN = 1u << 12,
	UVIO_QP_MAX_QP_RD_ATOMIC = 1u << 13,
	UVIO_QP_ALT_PATH = 1u << 14,
	UVIO_QP_MIN_RNR_TIMER = 1u << 15,
	UVIO_QP_SQ_PSN = 1u << 16,
	UVIO_QP_MAX_DEST_RD_ATOMIC = 1u << 17,
	UVIO_QP_PATH_MIG_STATE = 1u << 18,
	UVIO_QP_CAP = 1u << 19,
	UVIO_QP_DEST_QPN = 1u << 20,
	/* 21-24 reserved by the kernel */
	UVIO_QP_RATE_LIMIT = 1u << 25,	/* extended: EX_CMD_MODIFY_QP */
};
/* What the plain MODIFY_QP command carries. */
#define UVIO_QP_STANDARD_BITS 0x1fffffu

/* Which optional inputs of uvio_qp_init_attr are given. */
enum uvio_qp_init_fields {
	UVIO_QP_INIT_SRQ = 1u << 0,		/* srq_handle */
	UVIO_QP_INIT_IND_TABLE = 1u << 1,	/* ind_table_handle (extended) */
	UVIO_QP_INIT_SOURCE_QPN = 1u << 2,	/* source_qpn (extended) */
};

struct uvio_qp_init_attr {
	size_t sz;
	uint32_t type;			/* enum ib_uverbs_qp_type, e.g. IB_UVERBS_QPT_RC */
	uint32_t fields;		/* enum uvio_qp_init_fields */
	uint64_t user_handle;		/* comes back in async events */
	/* All types but XRC_TGT: PD and send CQ; RC, UC, UD, RAW_PACKET and
	 * DRIVER also a receive CQ (may equal the send CQ). XRC_TGT: the
	 * XRC domain in xrcd_handle instead of all three. With an
	 * indirection table: no receive CQ, and a send CQ only when
	 * cap.max_send_wr is not 0. */
	uint32_t pd_handle;
	uint32_t send_cq_handle;
	uint32_t recv_cq_handle;
	uint32_t xrcd_handle;
	uint32_t srq_handle;
	uint32_t ind_table_handle;
	struct ib_uverbs_qp_cap cap;
	uint32_t create_flags;		/* enum ib_uverbs_qp_create_flags */
	uint32_t source_qpn;
	/* The async event fd for this QP's events; NULL: the context's. The
	 * write() commands cannot name one (-EOPNOTSUPP there). */
	const int *event_fd;
};

/* A created (or opened) QP. */
struct uvio_qp {
	size_t sz;
	uint32_t handle;
	uint32_t qp_num;
	struct ib_uverbs_qp_cap cap;	/* what the driver granted */
};

/*
 * MODIFY_QP input (attr_mask says which fields) and QUERY_QP output (the
 * kernel fills every field; cap and sq_sig_all only come from a query).
 */
struct uvio_qp_attr {
	size_t sz;
	uint32_t attr_mask;		/* enum uvio_qp_attr_mask */
	uint8_t qp_state;		/* enum uvio_qp_state */
	uint8_t cur_qp_state;
	uint8_t path_mtu;		/* enum uvio_mtu */
	uint8_t path_mig_state;		/* 0 migrated, 1 rearm, 2 armed */
	uint32_t qkey;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qp_num;
	uint32_t qp_access_flags;	/* enum ib_uverbs_access_flags */
	uint16_t pkey_index;
	uint16_t alt_pkey_index;
	uint8_t en_sqd_async_notify;
	uint8_t sq_draining;		/* query only */
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t min_rnr_timer;
	uint8_t port_num;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
	uint8_t alt_port_num;
	uint8_t alt_timeout;
	uint8_t sq_sig_all;		/* query only */
	struct uvio_av ah;		/* UVIO_QP_AV */
	struct uvio_av alt_ah;		/* UVIO_QP_ALT_PATH */
	struct ib_uverbs_qp_cap cap;	/* query only */
	uint32_t rate_limit;		/* UVIO_QP_RATE_LIMIT, extended */
	uint32_t reserved;		/* zero; room a later field may take */
};

/* QP.CREATE. drv: rxe answers EINVAL to any driver input and returns its
 * ring offsets (struct rxe_create_qp_resp) as driver output. */
UVIO_API int uvio_create_qp(struct uvio_device *dev, const struct uvio_qp_init_attr *attr,
			    const struct uvio_drv *drv, struct uvio_qp *qp,
			    enum uvio_path *path);

/* QP.MODIFY: the fields that attr->attr_mask names. drv goes with the
 * extended command only. */
UVIO_API int uvio_modify_qp(struct uvio_device *dev, uint32_t qp_handle,
			    const struct uvio_qp_attr *attr, const struct uvio_drv *drv,
			    enum uvio_path *path);

/* QP.QUERY: attr_mask is passed to the driver (most ignore it); every field
 * of *attr inside attr->sz is written. */
UVIO_API int uvio_query_qp(struct uvio_device *dev, uint32_t qp_handle, uint32_t attr_mask,
			   struct uvio_qp_attr *attr, enum uvio_path *path);

/* QP.DESTROY. events (when not NULL): async_events_reported is how many
 * async events the kernel queued for this QP (comp_events_reported is 0:
 * completions belong to CQs); read that many before freeing what the
 * events' user_handle points at. */
UVIO_API int uvio_destroy_qp(struct uvio_device *dev, uint32_t qp_handle,
			     struct uvio_events_reported *events, enum uvio_path *path);

/* QP.OPEN: share an XRC target QP of an XRC domain (write() command only). */
struct uvio_open_qp_attr {
	size_t sz;
	uint64_t user_handle;
	uint32_t xrcd_handle;
	uint32_t qp_num;
	uint32_t type;			/* IB_UVERBS_QPT_XRC_TGT */
	uint32_t reserved;		/* zero; room a later field may take */
};
UVIO_API int uvio_open_qp(struct uvio_device *dev, const struct uvio_open_qp_attr *attr,
			  const struct uvio_drv *drv, struct uvio_qp *qp,
			  enum uvio_path *path);

/* Multicast membership of a UD QP (write() commands only). A QP with a
 * membership cannot be destroyed (EBUSY) until it is detached. */
UVIO_API int uvio_attach_mcast(struct uvio_device *dev, uint32_t qp_handle,
			       const uint8_t gid[16], uint16_t mlid, enum uvio_path *path);
UVIO_API int uvio_detach_mcast(struct uvio_device *dev, uint32_t qp_handle,
			       const uint8_t gid[16], uint16_t mlid, enum uvio_path *path);

/*
 * The data-path write() commands. Providers run the data path in userspace
 * rings; the kernel only offers these for drivers that enable them, and a
 * command a driver leaves disabled answers -EOPNOTSUPP. rxe and siw keep
 * every user queue in rings that <uvio/dp.h> drives: for them the commands
 * that carry work (a send with WRs, both receives, the poll, and siw's
 * REQ_NOTIFY_CQ) answer -EOPNOTSUPP before any system call, naming the
 * uvio_dp_*() call to use; the doorbell (a send without WRs: the kernel
 * runs the send queue) and rxe's REQ_NOTIFY_CQ go to the kernel.
 *
 * WRs and SGEs are the kernel's structs: each WR consumes the next num_sge
 * entries of sges. A command (WRs, SGEs) over UVIO_MAX_POST_BYTES is
 * refused with -E2BIG. *bad_wr (when not NULL): 0 on success, else the
 * 1-based index of the WR the driver refused, as the kernel reports it.
 */
#define UVIO_MAX_POST_BYTES 4096u
UVIO_API int uvio_post_send(struct uvio_device *dev, uint32_t qp_handle,
			    const struct ib_uverbs_send_wr *wrs, uint32_t wr_count,
			    const struct ib_uverbs_sge *sges, uint32_t sge_count,
			    uint32_t *bad_wr, enum uvio_path *path);
UVIO_API int uvio_post_recv(struct uvio_device *dev, uint32_t qp_handle,
			    const struct ib_uverbs_recv_wr *wrs, uint32_t wr_count,
			    const struct ib_uverbs_sge *sges, uint32_t sge_count,
			    uint32_t *bad_wr, enum uvio_path *path);
UVIO_API int uvio_post_srq_recv(struct uvio_device *dev, uint32_t srq_handle,
				const struct ib_uverbs_recv_wr *wrs, uint32_t wr_count,
				const struct ib_uverbs_sge *sges, uint32_t sge_count,
				uint32_t *bad_wr, enum uvio_path *path);

/* Ask for a completion event on the CQ's channel: at the next completion,
 * or (solicited_only) the next solicited one. */
UVIO_API int uvio_req_notify_cq(struct uvio_device *dev, uint32_t cq_handle,
				int solicited_only, enum uvio_path *path);

/* Up to max completions into wc; *count says how many (0: CQ empty). At
 * most UVIO_MAX_POLL_CQ per call. */
#define UVIO_MAX_POLL_CQ 64u
UVIO_API int uvio_poll_cq(struct uvio_device *dev, uint32_t cq_handle,
			  struct ib_uverbs_wc *wc, uint32_t max, uint32_t *count,
			  enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
