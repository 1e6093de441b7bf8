/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: the data path of the software RDMA devices rxe and siw,
 * and of mlx5 (ConnectX-4 and later).
 *
 * These drivers keep every user QP's send and receive queue, every SRQ and
 * every CQ in memory the process maps from the uverbs fd: work requests are
 * written there, completions read from there, and the kernel is entered only
 * to ring a send doorbell (and, on rxe, to arm a CQ). This layer is what a
 * verbs provider does for them (rdma-core's providers/rxe and providers/siw
 * do it for libibverbs): it creates the objects with their queues through the
 * library's verbs, maps the queues, and posts, polls and arms on them. The
 * queue formats are the kernel's (rdma/rdma_user_rxe.h, rdma/siw-abi.h); the
 * driver is chosen by the device's driver id. Any other driver gets
 * -EOPNOTSUPP from the create functions, with a message that names the
 * drivers served here.
 *
 * mlx5's queues are the process's own memory, which the library's mlx5
 * half allocates when the create verb goes without driver data
 * (<uvio/mlx5.h>); this layer writes the hardware's WQEs and reads its
 * CQEs there and rings the doorbell records and the context's UAR page,
 * never entering the kernel. Its completions carry no work request id, so
 * create maps a table of its own per queue for them (and allocates an AH's
 * address vector), which destroy frees; nothing is allocated on the post
 * and poll paths. uvio_dp(3) says what it carries.
 *
 * The kernel's own data-path commands (uvio_post_send() with work requests,
 * uvio_post_recv(), uvio_post_srq_recv(), uvio_poll_cq(), and on siw
 * uvio_req_notify_cq()) refuse these drivers with -EOPNOTSUPP before any
 * system call: the kernel would ignore the work, and Linux 5.10's POLL_CQ
 * crashes on an rxe CQ that holds completions.
 *
 * Objects live in storage the caller provides (no allocation in this
 * layer but mlx5's tables above). The fields commented as results (handle, qp_num, cap, cqe,
 * srq_num, max_wr, max_sge, ah_num) may be read; the rest are the
 * library's, and uvio_dp_queue_capacity() tells a queue's size. Create maps
 * the queues, destroy unmaps them after the kernel object is gone (and
 * leaves the object untouched when the kernel refuses). A CQ resize (rxe)
 * and an SRQ resize (rxe) map the new queue before they return; completions
 * and receives not yet consumed are kept by the kernel.
 *
 * Threads: every queue (send queue, receive queue, SRQ, CQ) has a lock of its
 * own, which post, poll, resize and modify take, so they may be called from
 * several threads on the same object; create and destroy must not race
 * anything else on that object. WQEs are published under the lock, in order;
 * the doorbell is rung after it is dropped (it only tells the kernel to run
 * the ring).
 *
 * Errors: functions return 0 (or a count) or a negative errno, and every
 * failure, argument checks included, leaves a message in uvio_last_error()
 * and the log callback: an argument check names the function and the
 * argument ("uvio_dp_post_send: EINVAL: argument qp: NULL, or not created
 * (never created, its create failed, or destroyed)"), a failure past them
 * the device and the call ("rxe0: QP.POST_SEND (data path): ENOSPC: the
 * queue is full"). Success writes nothing there: post and poll cost the
 * same with the messages as without.
 */
#ifndef UVIO_DP_H
#define UVIO_DP_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>
#include <uvio/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Send flags (the kernel's enum ib_send_flags, libibverbs' IBV_SEND_*). */
enum uvio_dp_send_flags {
	UVIO_DP_SEND_FENCE = 1u << 0,
	UVIO_DP_SEND_SIGNALED = 1u << 1,	/* a completion even without sq_sig_all */
	UVIO_DP_SEND_SOLICITED = 1u << 2,
	UVIO_DP_SEND_INLINE = 1u << 3,		/* bytes copied into the WQE at post */
	/* BIND_MW: the window is of type 1 (bound with ibv_bind_mw's rules,
	 * to no QP). mlx5 writes a window's type into the bind WQE, so a
	 * type 1 bind needs it there; rxe's kernel knows the type itself.
	 * Clear of libibverbs' IBV_SEND_* bits. */
	UVIO_DP_SEND_MW_TYPE_1 = 1u << 16,
};

/* Work completion opcodes (enum ib_wc_opcode, libibverbs' IBV_WC_*). */
enum uvio_wc_opcode {
	UVIO_WC_SEND = 0,
	UVIO_WC_RDMA_WRITE = 1,
	UVIO_WC_RDMA_READ = 2,
	UVIO_WC_COMP_SWAP = 3,
	UVIO_WC_FETCH_ADD = 4,
	UVIO_WC_BIND_MW = 5,
	UVIO_WC_LOCAL_INV = 6,
	UVIO_WC_RECV = 128,
	UVIO_WC_RECV_RDMA_WITH_IMM = 129,
};

/* Work completion status (enum ib_wc_status, libibverbs' IBV_WC_*). */
enum uvio_wc_status {
	UVIO_WC_SUCCESS = 0,
	UVIO_WC_LOC_LEN_ERR = 1,
	UVIO_WC_LOC_QP_OP_ERR = 2,
	UVIO_WC_LOC_EEC_OP_ERR = 3,
	UVIO_WC_LOC_PROT_ERR = 4,
	UVIO_WC_WR_FLUSH_ERR = 5,
	UVIO_WC_MW_BIND_ERR = 6,
	UVIO_WC_BAD_RESP_ERR = 7,
	UVIO_WC_LOC_ACCESS_ERR = 8,
	UVIO_WC_REM_INV_REQ_ERR = 9,
	UVIO_WC_REM_ACCESS_ERR = 10,
	UVIO_WC_REM_OP_ERR = 11,
	UVIO_WC_RETRY_EXC_ERR = 12,
	UVIO_WC_RNR_RETRY_EXC_ERR = 13,
	UVIO_WC_LOC_RDD_VIOL_ERR = 14,
	UVIO_WC_REM_INV_RD_REQ_ERR = 15,
	UVIO_WC_REM_ABORT_ERR = 16,
	UVIO_WC_INV_EECN_ERR = 17,
	UVIO_WC_INV_EEC_STATE_ERR = 18,
	UVIO_WC_FATAL_ERR = 19,
	UVIO_WC_RESP_TIMEOUT_ERR = 20,
	UVIO_WC_GENERAL_ERR = 21,
};

/* Work completion flags (enum ib_wc_flags). */
enum uvio_wc_flags {
	UVIO_WC_GRH = 1u << 0,
	UVIO_WC_WITH_IMM = 1u << 1,
	UVIO_WC_WITH_INVALIDATE = 1u << 2,
};

/* "SUCCESS", "WR_FLUSH_ERR", ...; "SEND", "RECV_RDMA_WITH_IMM", ... NULL
 * for a value the library does not know. */
UVIO_API const char *uvio_wc_status_name(uint32_t status);
UVIO_API const char *uvio_wc_opcode_name(uint32_t opcode);

struct uvio_dp_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

/*
 * One completion, laid out as the kernel's struct ib_uverbs_wc (and
 * libibverbs' struct ibv_wc). imm_data is as the wire carries it
 * (big-endian), valid with UVIO_WC_WITH_IMM; invalidated_rkey shares its
 * place and is valid with UVIO_WC_WITH_INVALIDATE. src_qp, slid, sl,
 * pkey_index and dlid_path_bits are for UD receives.
 */
struct uvio_dp_wc {
	uint64_t wr_id;
	uint32_t status;		/* enum uvio_wc_status */
	uint32_t opcode;		/* enum uvio_wc_opcode */
	uint32_t vendor_err;
	uint32_t byte_len;
	union {
		uint32_t imm_data;
		uint32_t invalidated_rkey;
	};
	uint32_t qp_num;
	uint32_t src_qp;
	uint32_t wc_flags;		/* enum uvio_wc_flags */
	uint16_t pkey_index;
	uint16_t slid;
	uint8_t sl;
	uint8_t dlid_path_bits;
	uint8_t port_num;
	uint8_t reserved;
};

/*
 * An address handle for UD sends: the kernel's AH and rxe's number for it.
 * Sized, as the CQ, SRQ and QP below are (see "Growth" further down): dev,
 * handle and ah_num may be read, size is what uvio_dp_create_ah() was given,
 * the rest is the library's.
 */
struct uvio_dp_ah {
	struct uvio_device *dev;
	uint32_t handle;
	uint32_t ah_num;
	uint32_t size;			/* sizeof the caller's struct, at create */
	/* The library's from here on. */
	uint32_t reserved;
	uint64_t reserved2[2];		/* zeroed at create; room for 1.x */
};

/*
 * A send work request. opcode is enum ib_uverbs_wr_opcode:
 *   SEND, SEND_WITH_IMM (imm_data), SEND_WITH_INV (invalidate_rkey),
 *   RDMA_WRITE, RDMA_WRITE_WITH_IMM (rdma, imm_data), RDMA_READ (rdma),
 *   ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD (atomic; one 8-byte SGE that
 *   receives the remote's old value), LOCAL_INV (invalidate_rkey),
 *   BIND_MW (bind_mw; type 2 windows, or type 1 with
 *   UVIO_DP_SEND_MW_TYPE_1; a length of 0 unbinds; LOCAL_INV and BIND_MW
 *   move no data: mlx5 does not read their sg_list), UVIO_DP_WR_ATOMIC_WRITE (rdma; one
 *   8-byte SGE, its bytes read at post and written at remote_addr as one
 *   atomic store: rxe on kernels whose device reports ATOMIC_WRITE, 6.2 and
 *   later; an older kernel completes it with an error).
 * rxe takes all of them on RC, SEND, SEND_WITH_IMM, RDMA_WRITE and
 * RDMA_WRITE_WITH_IMM on UC, SEND and SEND_WITH_IMM on UD (ud). siw takes
 * SEND, SEND_WITH_INV, RDMA_WRITE and RDMA_READ. mlx5 takes SEND,
 * SEND_WITH_IMM, SEND_WITH_INV, RDMA_WRITE(_WITH_IMM), RDMA_READ, the two
 * atomics, LOCAL_INV and BIND_MW on RC, the sends, writes, LOCAL_INV and
 * BIND_MW on UC (as libmlx5 does), the sends on UD. An opcode the
 * driver or the QP type cannot carry is -EOPNOTSUPP at post.
 */
/* IB_UVERBS_WR_ATOMIC_WRITE of the kernel's ABI (headers before 6.2 lack it). */
#define UVIO_DP_WR_ATOMIC_WRITE 15u

struct uvio_dp_send_wr {
	uint64_t wr_id;
	uint32_t opcode;		/* IB_UVERBS_WR_* */
	uint32_t flags;			/* enum uvio_dp_send_flags */
	const struct uvio_dp_sge *sg_list;
	uint32_t num_sge;
	uint32_t imm_data;		/* big-endian, as it goes on the wire */
	uint32_t invalidate_rkey;
	uint32_t reserved;
	union {
		struct {
			uint64_t remote_addr;
			uint32_t rkey;
		} rdma;
		struct {
			uint64_t remote_addr;
			uint64_t compare_add;	/* compare (CMP_AND_SWP) or add */
			uint64_t swap;
			uint32_t rkey;
		} atomic;
		struct {
			const struct uvio_dp_ah *ah;
			uint32_t remote_qpn;
			uint32_t remote_qkey;
		} ud;
		struct {
			uint32_t mw_rkey;	/* the window's current rkey */
			uint32_t new_rkey;	/* its rkey once bound (low byte changed) */
			uint32_t mr_lkey;	/* the MR the window lies in */
			uint32_t access;	/* enum ib_uverbs_access_flags */
			uint64_t addr;
			uint64_t length;
		} bind_mw;
	};
};

struct uvio_dp_recv_wr {
	uint64_t wr_id;
	const struct uvio_dp_sge *sg_list;
	uint32_t num_sge;
	uint32_t reserved;
};

/* One mapping of a driver's queue. The library's: not for callers. */
struct uvio_dp_ring {
	void *map;			/* NULL when none */
	size_t map_len;
	uint8_t *slots;			/* the first element */
	uint32_t *producer;		/* rxe: the indices in the mapping */
	uint32_t *consumer;
	uint32_t mask;			/* rxe: index_mask */
	uint32_t entries;		/* elements it can hold at once */
	uint32_t elem_size;
	uint32_t reserved;
};

/* A queue: its ring, and what posting to it needs. The library's. */
struct uvio_dp_queue {
	struct uvio_dp_ring ring;
	uint32_t next;			/* siw: our running index */
	uint32_t max_sge;
	uint32_t max_inline;
	uint32_t reserved;
	uint32_t lock;			/* 0 free, 1 held */
};

/*
 * Growth. The CQ, SRQ, QP and AH live in the caller's storage, and a later
 * 1.x may need more state in them: each is sized. Its create function is a
 * macro that passes the caller's sizeof of the struct (as its header
 * declares it) to the exported ..._sz
 * function (which languages without the macro call with their own struct's
 * size), and create keeps it in the object's size field. The library
 * refuses a size below 1.0's layout (-EINVAL, the message naming the
 * function), writes no byte past the caller's size (create and destroy
 * clear exactly size bytes), and reads a field of a later release only
 * where size covers it. 1.x adds fields in the reserved room (zeroed at
 * create, so they read as zero from a 1.0 program's objects) or at the end.
 *
 * Each struct has two parts. Its first fields (down to size) are results
 * and may be read: dev, handle, and the ones named there. Everything after
 * the comment "The library's from here on" is private: the queues' rings,
 * locks, indices and the doorbell. Callers never write them, and read them
 * only through uvio_dp_queue_capacity(). The post, poll and arm paths read
 * the same fields at the same offsets as before: the size is checked at
 * create only, and costs them nothing.
 */
struct uvio_dp_cq {
	struct uvio_device *dev;
	uint32_t handle;
	uint32_t cqe;			/* what the kernel granted */
	uint32_t driver_id;
	uint32_t size;			/* sizeof the caller's struct, at create */
	/* The library's from here on. */
	uint32_t *notify;		/* siw: the CQ control word */
	struct uvio_dp_queue q;
	uint64_t reserved[4];		/* zeroed at create; room for 1.x */
};

struct uvio_dp_srq {
	struct uvio_device *dev;
	uint32_t handle;
	uint32_t srq_num;
	uint32_t max_wr;
	uint32_t max_sge;
	uint32_t driver_id;
	uint32_t size;			/* sizeof the caller's struct, at create */
	/* The library's from here on. */
	struct uvio_dp_queue q;
	uint64_t reserved[4];		/* zeroed at create; room for 1.x */
};

struct uvio_dp_qp {
	struct uvio_device *dev;
	uint32_t handle;
	uint32_t qp_num;
	uint32_t type;			/* enum ib_uverbs_qp_type */
	uint32_t driver_id;
	struct ib_uverbs_qp_cap cap;	/* what the driver granted */
	uint32_t size;			/* sizeof the caller's struct, at create */
	struct uvio_dp_srq *srq;	/* receives go there when not NULL */
	/* The library's from here on. */
	struct uvio_dp_queue sq;
	struct uvio_dp_queue rq;
	uint64_t doorbell[4];		/* the POST_SEND write(), laid out at create */
	uint32_t doorbell_resp;
	uint32_t reserved;
	uint64_t reserved2[4];		/* zeroed at create; room for 1.x */
};

/*
 * CQ.CREATE with its queue. attr as for uvio_create_cq(); completions are
 * read with uvio_dp_poll_cq(). -EOPNOTSUPP for a driver other than rxe,
 * siw and mlx5.
 */
UVIO_API int uvio_dp_create_cq_sz(struct uvio_device *dev, const struct uvio_cq_attr *attr,
				  struct uvio_dp_cq *cq, size_t size);
#define uvio_dp_create_cq(dev, attr, cq)                                       \
	uvio_dp_create_cq_sz((dev), (attr), (cq), sizeof(struct uvio_dp_cq))
/* events as for uvio_destroy_cq(). */
UVIO_API int uvio_dp_destroy_cq(struct uvio_dp_cq *cq, struct uvio_events_reported *events);
/* rxe: RESIZE_CQ and the new queue mapped; mlx5: RESIZE_CQ with a buffer
 * of the library's, the completions the device wrote before its resize
 * entry carried into it. Either way the completions not yet polled are
 * kept. siw cannot resize (-EOPNOTSUPP). */
UVIO_API int uvio_dp_resize_cq(struct uvio_dp_cq *cq, uint32_t cqe);

/* Up to n completions, oldest first: returns how many (0: none), or -errno. */
UVIO_API int uvio_dp_poll_cq(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n);

/*
 * Ask for one completion event on the CQ's channel: at the next completion,
 * or (solicited_only) the next solicited one or error. rxe arms through the
 * kernel (REQ_NOTIFY_CQ, one system call); siw through the CQ's control
 * word, without one; mlx5 through the CQ's doorbell record and UAR page.
 * Poll once more after arming: a completion that arrived before the arm
 * raises no event.
 */
UVIO_API int uvio_dp_arm_cq(struct uvio_dp_cq *cq, int solicited_only);

/* SRQ.CREATE with its queue (attr as uvio_create_srq()). */
UVIO_API int uvio_dp_create_srq_sz(struct uvio_device *dev, const struct uvio_srq_attr *attr,
				   struct uvio_dp_srq *srq, size_t size);
#define uvio_dp_create_srq(dev, attr, srq)                                     \
	uvio_dp_create_srq_sz((dev), (attr), (srq), sizeof(struct uvio_dp_srq))
UVIO_API int uvio_dp_destroy_srq(struct uvio_dp_srq *srq, struct uvio_events_reported *events);
/* MODIFY_SRQ (limit, and on rxe max_wr: the queue is mapped anew). */
UVIO_API int uvio_dp_modify_srq(struct uvio_dp_srq *srq, const struct uvio_srq_modify *attr);

/*
 * QP.CREATE with its queues. attr as for uvio_create_qp(); srq (may be NULL)
 * is the SRQ that attr->srq_handle names, when UVIO_QP_INIT_SRQ is set.
 * The QP's state is changed with uvio_modify_qp(dev, qp->handle, ...);
 * after a move to RESET, call uvio_dp_reset_qp() before it moves on.
 */
UVIO_API int uvio_dp_create_qp_sz(struct uvio_device *dev, const struct uvio_qp_init_attr *attr,
				  struct uvio_dp_srq *srq, struct uvio_dp_qp *qp, size_t size);
#define uvio_dp_create_qp(dev, attr, srq, qp)                                  \
	uvio_dp_create_qp_sz((dev), (attr), (srq), (qp), sizeof(struct uvio_dp_qp))
UVIO_API int uvio_dp_destroy_qp(struct uvio_dp_qp *qp, struct uvio_events_reported *events);

/*
 * After uvio_modify_qp() moved the QP to RESET, and before it moves on to
 * INIT: the queues start over as the device's do. On mlx5, whose device
 * starts the QP's counters over at 0, the library's indices and the
 * doorbell records go back to 0, and the QP's completions not yet polled
 * from send_cq and recv_cq (its CQs; either may be NULL, or both the same)
 * are removed, receives it took from an SRQ given back: the WRs they name
 * are gone with the reset. On rxe and siw, whose kernel keeps the queue
 * indices across RESET, it does nothing. It takes the CQs' locks and the
 * queues': threads polling those CQs for other QPs need not stop. 0, or
 * -EINVAL (said) for a QP or CQ not created, or a CQ of another device.
 */
UVIO_API int uvio_dp_reset_qp(struct uvio_dp_qp *qp, struct uvio_dp_cq *send_cq,
			      struct uvio_dp_cq *recv_cq);

/*
 * Post n send work requests and ring the doorbell once. Each WR is checked
 * before it is written: -EINVAL for more SGEs than the QP's max_send_sge, a
 * NULL sg_list with num_sge, more inline bytes than max_inline_data, a UD WR
 * without an AH; -EOPNOTSUPP for an opcode the driver or QP type lacks;
 * -ENOSPC when the queue is full. On failure *bad (when not NULL) is the
 * index of the WR that failed: the ones before it are posted. A failed
 * doorbell (-ENOTCONN on siw before RTS) leaves *bad at n: every WR is
 * published and runs at the next doorbell or is flushed.
 */
UVIO_API int uvio_dp_post_send(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr,
			       uint32_t n, uint32_t *bad);
/*
 * The send opcodes uvio_dp_post_send() takes on this QP, before any is
 * posted: in *mask, bit (1 << op) for each IB_UVERBS_WR_* op it accepts;
 * every other opcode answers -EOPNOTSUPP at post. It depends on the driver
 * and the QP type (rxe: RC every opcode above, UC the sends and writes,
 * UD the sends; siw: SEND, SEND_WITH_INV, RDMA_WRITE, RDMA_READ), so a
 * program need not test node types or driver ids. 0, or -EINVAL for a QP
 * not created.
 */
UVIO_API int uvio_dp_qp_opcodes(const struct uvio_dp_qp *qp, uint64_t *mask);

/* Post n receives; no system call. A QP on an SRQ answers -EINVAL. */
UVIO_API int uvio_dp_post_recv(struct uvio_dp_qp *qp, const struct uvio_dp_recv_wr *wr,
			       uint32_t n, uint32_t *bad);
UVIO_API int uvio_dp_post_srq_recv(struct uvio_dp_srq *srq, const struct uvio_dp_recv_wr *wr,
				   uint32_t n, uint32_t *bad);

/*
 * An address handle for UD sends (rxe): CREATE_AH and the number rxe's WQEs
 * name it by. Kernels whose rxe gives no number (before 5.13: they take an
 * address vector in the WQE instead) get -EOPNOTSUPP; siw has no UD QPs.
 */
UVIO_API int uvio_dp_create_ah_sz(struct uvio_device *dev, const struct uvio_ah_attr *attr,
				  struct uvio_dp_ah *ah, size_t size);
#define uvio_dp_create_ah(dev, attr, ah)                                       \
	uvio_dp_create_ah_sz((dev), (attr), (ah), sizeof(struct uvio_dp_ah))
UVIO_API int uvio_dp_destroy_ah(struct uvio_dp_ah *ah);

/* Entries the queue can hold at once. mlx5's send queue counts 64-byte
 * basic blocks (a WQE takes one or more); it takes cap.max_send_wr WQEs at
 * once, however few blocks they fill, so that a CQ sized for max_send_wr
 * completions cannot overrun. */
UVIO_INLINE uint32_t uvio_dp_queue_capacity(const struct uvio_dp_queue *q)
{
	return q->ring.entries;
}

#ifdef __cplusplus
}
#endif
#endif
