/* SPDX-License-Identifier: MIT */
/*
 * The user-space half of rxe's queues: what a provider for rxe does between
 * the verbs commands, and nothing else.
 *
 * rxe keeps every user-space CQ, send queue and receive queue in memory that
 * the process maps from the uverbs fd. CQ and QP creation answer where, in
 * their driver response (rdma/rdma_user_rxe.h): `struct rxe_create_cq_resp`
 * holds one `struct mminfo`, `struct rxe_create_qp_resp` one for the receive
 * queue and one for the send queue; mmap() the device fd at mi.offset for
 * mi.size bytes. Each mapping starts with `struct rxe_queue_buf`
 * (struct rxe_ring_hdr below):
 *
 *   log2_elem_size, index_mask    the ring's geometry (elements are
 *                                 1 << log2_elem_size bytes, index_mask + 1
 *                                 of them, a power of two)
 *   producer_index                written by the producer only
 *   consumer_index                written by the consumer only
 *   data[]                        the elements
 *
 * Both indices stay within [0, index_mask]; the ring is empty when they are
 * equal and full when the producer is one behind the consumer, so it holds
 * index_mask entries. Who produces: this process for the send and receive
 * queues (it writes work requests), the kernel for the CQ (it writes
 * `struct ib_uverbs_wc`).
 *
 * Memory ordering, the whole contract between the two sides: a producer
 * writes the element, then stores its new index with release semantics; a
 * consumer loads the other side's index with acquire semantics before it
 * reads the element, and releases its own index after it is done reading.
 *
 * Receives need no system call: rxe reads the receive queue when a packet
 * arrives. Sends do: after publishing send WQEs, the provider rings the
 * kernel's doorbell, a POST_SEND write() command for the QP with no work
 * requests in it (see rxe_sq_doorbell() in rxe_queue.c, which goes through
 * libuverbs-ioctl).
 *
 * Nothing here allocates or locks: a ring belongs to one thread, as in the
 * ping-pong example (a provider shared by threads adds a lock per queue).
 * Functions return 0 or a negative errno.
 */
#ifndef UVIO_EXAMPLE_RXE_QUEUE_H
#define UVIO_EXAMPLE_RXE_QUEUE_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_rxe.h>

struct uvio_device;

/*
 * Values rxe reads from its WQEs and writes into completions that the UAPI
 * headers do not name: the IB spec's, as the kernel's enum ib_send_flags and
 * enum ib_wc_opcode have them (and libibverbs' IBV_SEND_*, IBV_WC_RECV).
 */
#define RXE_SEND_FENCE (1u << 0)
#define RXE_SEND_SIGNALED (1u << 1)	/* a completion even without sq_sig_all */
#define RXE_SEND_SOLICITED (1u << 2)
#define RXE_SEND_INLINE (1u << 3)	/* the bytes travel inside the WQE */
#define RXE_WC_RECV 128u		/* ib_uverbs_wc.opcode of a receive */

/*
 * The header every ring starts with, as the kernel lays it out: the UAPI's
 * struct rxe_queue_buf, which older headers (Linux 5.10's, Debian 11's) do
 * not have. rxe_queue.c checks the two against each other where both exist.
 * The indices sit in cache lines of their own.
 */
struct rxe_ring_hdr {
	uint32_t log2_elem_size;
	uint32_t index_mask;
	uint32_t pad_1[30];
	uint32_t producer_index;
	uint32_t pad_2[31];
	uint32_t consumer_index;
	uint32_t pad_3[31];
	uint8_t data[];
};

struct rxe_ring {
	struct rxe_ring_hdr *buf;	/* the mapping, NULL when unmapped */
	size_t map_len;
	uint32_t mask;			/* index_mask, read once at map time */
	uint32_t shift;			/* log2_elem_size, likewise */
};

/*
 * Map the ring that mi describes from the device fd and check its header
 * against the mapping: elements of at least min_elem bytes, all of them
 * inside mi->size. -EINVAL for a header that does not fit, -errno of mmap().
 */
int rxe_ring_map(struct rxe_ring *r, int cmd_fd, const struct mminfo *mi,
		 size_t min_elem);
void rxe_ring_unmap(struct rxe_ring *r);

static inline size_t rxe_ring_elem_size(const struct rxe_ring *r)
{
	return (size_t)1 << r->shift;
}

/* Entries the ring can hold (one slot always stays free). */
static inline uint32_t rxe_ring_capacity(const struct rxe_ring *r)
{
	return r->mask;
}

/* A scatter/gather entry as the WQEs carry it. */
struct rxe_seg {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

/* The send queue of one QP, and what it needs to ring the doorbell. */
struct rxe_sq {
	struct rxe_ring ring;
	uint32_t max_sge;		/* as the QP was created */
	uint32_t max_inline;
	struct uvio_device *dev;
	uint32_t qp_handle;
};

/*
 * Write one send WQE (opcode enum ib_uverbs_wr_opcode, IB_UVERBS_WR_SEND
 * here; flags RXE_SEND_*) at the producer index and publish it. With
 * RXE_SEND_INLINE the bytes are copied into the WQE and the buffers may be
 * reused at once. -ENOSPC when the queue is full; -EINVAL for more segments
 * than max_sge (inline or not, checked before any is read) or more inline
 * bytes than max_inline. The kernel sees the WQE only after
 * rxe_sq_doorbell().
 */
int rxe_sq_post(struct rxe_sq *sq, uint64_t wr_id, uint32_t opcode, uint32_t flags,
		const struct rxe_seg *seg, uint32_t nseg);

/* Tell the kernel to run the send queue: POST_SEND with no work requests. */
int rxe_sq_doorbell(struct rxe_sq *sq);

/* The receive queue of one QP (or an SRQ). */
struct rxe_rq {
	struct rxe_ring ring;
	uint32_t max_sge;
};

/* Write one receive WQE and publish it; no system call. -ENOSPC, -EINVAL. */
int rxe_rq_post(struct rxe_rq *rq, uint64_t wr_id, const struct rxe_seg *seg,
		uint32_t nseg);

/*
 * Copy up to n completions out of the CQ ring, oldest first; returns how many
 * (0 when empty). The kernel writes `struct ib_uverbs_wc`, and the same
 * fields libibverbs' struct ibv_wc has.
 */
int rxe_cq_poll(struct rxe_ring *cq, struct ib_uverbs_wc *wc, int n);

#endif
