/*
 * What the data-path test programs share: kt_dp (rxe and siw), kt_mlx5_dp
 * and kt_mlx5_wqe_compare (the mlx5 stand-in). A device with context, PD,
 * completion channel and one registered buffer; CQs and QPs of the
 * <uvio/dp.h> layer; RC, UC and UD QPs brought to RTS by hand through a
 * GID of port 1; waits for completions with a deadline, checks of work
 * completions, and the two-posters-and-pollers thread run. Each program's
 * own steps and checks stay in its own file.
 */
#ifndef UVIO_KT_DP_LIB_H
#define UVIO_KT_DP_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uvio.h>
#include <uvio/dp.h>
#include "kt.h"

#define DP_BUF_LEN (1u << 20)
#define DP_ACCESS_ALL (IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE | \
		       IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC)

/* The buffer's areas, as the programs' steps use them: A's send area at 0,
 * B's receive area at 256 KiB, B's RDMA target at 512 KiB, atomics at
 * 768 KiB. */
#define A_OFF 0
#define B_RX (256u << 10)
#define B_TGT (512u << 10)
#define ATOM (768u << 10)

struct dp_env {
	const char *name;
	struct uvio_device *dev;
	bool siw;			/* siw's MR takes its driver data */
	struct uvio_context ctx;
	struct uvio_comp_channel chan;
	uint32_t pd;
	uint8_t *buf;			/* DP_BUF_LEN bytes, registered as mr */
	struct uvio_mr mr;
	int gid_index;			/* the GID the QPs and AHs name; < 0: none */
	uint8_t gid[16];
	uint32_t gid_type;
};

/* CLOCK_MONOTONIC in milliseconds: the deadlines of every wait. */
uint64_t dp_now_ms(void);

/*
 * Open NAME with context, PD and completion channel, map DP_BUF_LEN bytes
 * and register them with ACCESS, and read port 1's GID gid_index (none when
 * it is < 0: siw has no GID to connect through). siw: the device is siw
 * (its MR registration carries siw's request). 0, or -1 after a failure
 * that leaves nothing to test (counted).
 */
int dp_env_open(struct dp_env *e, const char *name, bool siw, uint32_t access, int gid_index);
void dp_env_close(struct dp_env *e);

int dp_reg_mr(struct dp_env *e, void *addr, size_t len, uint32_t access, struct uvio_mr *mr);
void make_cq(struct dp_env *e, struct uvio_dp_cq *cq, uint32_t cqe, uint64_t uh);
/* A QP of 4 SGEs each way, wr work requests each way and inl bytes inline;
 * srq (may be NULL) takes its receives. */
void make_qp_cap(struct dp_env *e, struct uvio_dp_qp *qp, uint32_t type, struct uvio_dp_cq *scq,
		 struct uvio_dp_cq *rcq, struct uvio_dp_srq *srq, uint64_t uh, uint32_t wr,
		 uint32_t inl);
/* make_qp_cap with one CQ, 64 work requests and 64 bytes inline. */
void make_qp(struct dp_env *e, struct uvio_dp_qp *qp, uint32_t type, struct uvio_dp_cq *cq,
	     struct uvio_dp_srq *srq, uint64_t uh);

/*
 * RESET -> INIT -> RTR -> RTS of QP handle qp of this type against the peer
 * QPN over gid (GID gid_index of port 1; UD: no peer, a Q_Key of
 * 0x11111111, and gid unused: may be NULL), PSNs 0x100, as both ends of a
 * loopback pair agree. Returns the first error; counts nothing (the
 * caller says what failed).
 */
int dp_modify_to_rts(struct uvio_device *dev, uint32_t qp, uint32_t type, uint32_t peer,
		     const uint8_t gid[16], uint8_t gid_index);
/* dp_modify_to_rts over the env's GID; a failure is counted and printed. */
int connect_qp(struct dp_env *e, struct uvio_dp_qp *qp, uint32_t peer);
int to_err(struct dp_env *e, struct uvio_dp_qp *qp);

/* Poll until n completions came or ms passed; returns how many. */
int wait_wc_ms(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n, int ms);
/* wait_wc_ms with 5 s: long enough for TCG under load. */
int wait_wc(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n);
/* One work completion's wr_id, status and opcode (an error completion's
 * opcode is undefined: pass w->opcode). */
void expect_wc(const struct uvio_dp_wc *w, uint64_t wr_id, uint32_t status, uint32_t opcode,
	       const char *what);
/* A completion event on the env's channel within ms, for the CQ of user
 * handle uh; 0 or -ETIMEDOUT. */
int comp_event(struct dp_env *e, uint64_t uh, int ms);

/* LEN bytes of the buffer at OFF, under the env's MR. */
struct uvio_dp_sge sge(struct dp_env *e, size_t off, uint32_t len);
/* Bytes that differ from one 256-byte block to the next, so that data
 * moved by a whole block does not compare equal. */
void fill(uint8_t *p, size_t len, unsigned seed);
/* Post one send WR; a refusal is printed with the library's message. */
int post1(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
/* Post one receive of one SGE (checked). */
void recv1(struct uvio_dp_qp *qp, struct uvio_dp_sge s, uint64_t id);

/*
 * RC steps that kt_dp and kt_mlx5_dp both take, on a connected pair: A
 * posts, B receives, each QP with its CQ. Each step checks its completions
 * and the bytes that moved, and leaves its last completion in wc[0] (wc
 * holds 8) for the program's own checks. Buffer areas as above.
 */
struct dp_rc_pair {
	struct uvio_dp_qp *a, *b;
	struct uvio_dp_cq *ca, *cb;
};
void rc_send_three_sges(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc);
void rc_send_imm_inline(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc);
void rc_writes(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc);
void rc_fetch_add(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc);
void rc_cmp_swap(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc);
/* Posts only: a WRITE (30) to a page registered without remote write into
 * ro, and a SEND (31) behind it; the caller checks and deregisters ro. */
void rc_post_write_no_access(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_mr *ro);
/* A's and B's CQs of cqe entries (user handles cq_uh, cq_uh + 1, on the
 * env's channel), their QPs (qp_uh, qp_uh + 1), connected to each other:
 * 0, or nonzero when a connect failed (counted). */
int rc_pair_create(struct dp_env *e, const struct dp_rc_pair *p, uint32_t cqe, uint64_t cq_uh,
		   uint64_t qp_uh);
/* B's CQ (user handle cb_uh) armed for the next completion: no event while
 * it is empty, one for A's SEND into B's receive 500; then for solicited
 * ones only: none for an unsolicited SEND (501), one for a solicited one
 * (502). Returns the events read from the channel (2). */
int rc_arm_next_and_solicited(struct dp_env *e, const struct dp_rc_pair *p, uint64_t cb_uh);
/* Destroy both QPs, then both CQs (checked). */
void rc_pair_destroy(const struct dp_rc_pair *p);

/*
 * Two threads post inline SENDs of 16 bytes on one RC QP of a connected
 * pair while pollers take both CQs: one thread for both (pollers 1) or one
 * each (pollers 2). Each message carries its wr_id, which the receiver
 * checks and counts once; each receive is posted again. What the run saw
 * is returned for the program's own checks.
 */
#define DP_MT_MAX_PER_THREAD 3000u
struct dp_mt_result {
	bool ran;			/* the pair came up */
	unsigned sends_done, recvs_done, full;	/* full: ENOSPC at post */
	int errors;
	uint64_t ms;
};
struct dp_mt_result dp_threads(struct dp_env *e, unsigned per_thread, int pollers);

#endif
