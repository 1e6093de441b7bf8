/*
 * The data-path layer (<uvio/dp.h>) on mlx5: the library's own WQEs, CQEs,
 * doorbell records and UAR stores (providers/mlx5.c), on the queues its
 * mlx5 half allocates (lib/hw/mlx5.c), against a kernel driver that moves
 * data as a ConnectX does. In the suite that is the mlx5 stand-in's engine
 * (tests/standin/mlx5/mlx5_engine.c), an emulation: this shows the library
 * and the emulator agree, and both are written from libmlx5's formats.
 *
 * uvio_dp_* alone, on two RC QPs of one device connected by hand (GID 0):
 * SEND of three SGEs, inline SEND with immediate, RDMA WRITE, WRITE with
 * immediate, RDMA READ into two SGEs, fetch-and-add and compare-and-swap
 * (the old values and the remote word), unsignalled sends (one completion
 * for three), a WRITE to an MR without remote write (remote access error,
 * then the flush); the rings wrapped many times by WQEs of every shape
 * (one to four SGEs, inline data of one to three basic blocks, unsignalled
 * runs) on a small send queue, receive queue and CQ, every byte checked;
 * a CQ armed for the next completion and for solicited ones only, the
 * events read from the channel; UD through an address handle (the 40-byte
 * GRH, the source QP, the immediate); an SRQ's list taken and given back
 * until it has wrapped; a QP moved to ERR flushing its receives; the
 * send queue bounded by max_send_wr WQEs, not by its ring's blocks; a QP
 * back to RESET with completions unpolled and used again; two
 * threads posting inline SENDs on one QP while two others poll its CQ and
 * the peer's (reposting each receive); a type 2 memory window bound by
 * BIND_MW, written through by the peer, invalidated by LOCAL_INV and by
 * SEND_WITH_INV, a WRITE after refused; scatter to CQE (small receives, to
 * an RQ and to an SRQ, and small READ and atomic responses on a QP with
 * sq_sig_all: the raw CQE read before the poll holds the data and the bit,
 * the buffer not yet written; then the library's copy checked), with 64-
 * and 128-byte CQEs. Every object destroyed and the kernel's tables empty
 * after.
 *
 *   kt_mlx5_dp [DEVICE]     (default mlx5_0)
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <uvio.h>
#include <uvio/dp.h>
#include <uvio/mlx5.h>
#include "kt.h"
#include "kt_dp_lib.h"

#define GIDX 0

/* The device, its buffer and GID GIDX (kt_dp_lib.c), and what the guest
 * script's log shows of them. */
static int env_open(struct dp_env *e, const char *name)
{
	if (dp_env_open(e, name, false, DP_ACCESS_ALL, GIDX))
		return -1;
	KT_EQ(uvio_device_driver_id(e->dev), RDMA_DRIVER_MLX5);
	printf("%s: GID %d type %u, MR lkey %#x rkey %#x\n", name, GIDX, e->gid_type, e->mr.lkey,
	       e->mr.rkey);
	return 0;
}

static void rc_opcodes(struct dp_env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	struct dp_rc_pair pair = { &a, &b, &ca, &cb };
	struct uvio_dp_sge s[3];
	uint64_t mask = 0;
	int up = rc_pair_create(e, &pair, 64, 0xa, 0x1a);

	KT_EQ(uvio_dp_qp_opcodes(&a, &mask), 0);
	if (up)
		goto out;
	printf("rc: QPs %#x and %#x at RTS; send queue %u BBs, inline %u, opcodes %#llx\n",
	       a.qp_num, b.qp_num, uvio_dp_queue_capacity(&a.sq), a.cap.max_inline_data,
	       (unsigned long long)mask);

	/* the steps kt_dp takes too (kt_dp_lib.c), with this half's own checks */
	rc_send_three_sges(e, &pair, wc);
	KT_EQ(wc[0].src_qp, a.qp_num);
	printf("rc: SEND of 3 SGEs, 3000 bytes: ok\n");

	rc_send_imm_inline(e, &pair, wc);
	printf("rc: inline SEND_WITH_IMM: ok\n");

	rc_writes(e, &pair, wc);
	printf("rc: RDMA_WRITE 8192 bytes, RDMA_WRITE_WITH_IMM 512: ok\n");

	/* RDMA READ back into A, into two SGEs. */
	fill(e->buf + B_TGT, 5000, 5);
	memset(e->buf + A_OFF, 0, 8192);
	s[0] = sge(e, A_OFF, 3000);
	s[1] = sge(e, A_OFF + 4096, 2000);
	{
		struct uvio_dp_send_wr w = { .wr_id = 5, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 2,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 5, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "RDMA_READ");
	KT_EQ(wc[0].byte_len, 5000);
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 3000), 0);
	KT_EQ(memcmp(e->buf + B_TGT + 3000, e->buf + A_OFF + 4096, 2000), 0);
	KT_EQ(e->buf[A_OFF + 3000], 0);
	/* and a small READ (no sq_sig_all: mlx5_ib gives the QP no requester
	 * scatter to CQE, the bytes go to the buffer; scatter_cqe has both) */
	fill(e->buf + B_TGT, 24, 6);
	memset(e->buf + A_OFF, 0, 64);
	s[0] = sge(e, A_OFF, 24);
	{
		struct uvio_dp_send_wr w = { .wr_id = 55, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 55, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "RDMA_READ of 24 bytes");
	KT_EQ(wc[0].byte_len, 24);
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 24), 0);
	printf("rc: RDMA_READ 5000 bytes into 2 SGEs, 24 bytes: ok\n");

	/* Atomics: the remote's old value comes back, the remote changes. */
	rc_fetch_add(e, &pair, wc);
	KT_EQ(wc[0].byte_len, 8);
	rc_cmp_swap(e, &pair, wc);
	printf("rc: FETCH_AND_ADD, CMP_AND_SWP (a match, a mismatch): ok\n");

	/* Unsignaled WRs complete silently: three posted, one completion. */
	for (uint64_t i = 0; i < 3; i++)
		recv1(&b, sge(e, B_RX + i * 64, 64), 103 + i);
	fill(e->buf + A_OFF, 3 * 64, 7);
	{
		struct uvio_dp_send_wr w[3];
		struct uvio_dp_sge g[3];

		for (int i = 0; i < 3; i++) {
			g[i] = sge(e, A_OFF + (size_t)i * 64, 64);
			w[i] = (struct uvio_dp_send_wr){ .wr_id = 10 + (uint64_t)i,
							 .opcode = IB_UVERBS_WR_SEND,
							 .flags = i == 2 ? UVIO_DP_SEND_SIGNALED : 0,
							 .sg_list = &g[i], .num_sge = 1 };
		}
		KT_EQ(uvio_dp_post_send(&a, w, 3, NULL), 0);
	}
	KT_EQ(wait_wc(&cb, wc, 3), 3);
	for (int i = 0; i < 3; i++)
		expect_wc(&wc[i], 103 + (uint64_t)i, UVIO_WC_SUCCESS, UVIO_WC_RECV, "unsignaled's receive");
	KT_EQ(memcmp(e->buf + B_RX, e->buf + A_OFF, 3 * 64), 0);
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 12, UVIO_WC_SUCCESS, UVIO_WC_SEND, "the signaled one of three");
	usleep(20000);
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 8), 0);
	printf("rc: three SENDs, the last signaled: one completion: ok\n");

	/* A WRITE to an MR without remote write: the remote access error,
	 * and the QP goes to ERR: what is posted after it flushes. */
	{
		struct uvio_mr ro;

		rc_post_write_no_access(e, &pair, &ro);
		KT_EQ(wait_wc(&ca, wc, 2), 2);
		expect_wc(&wc[0], 30, UVIO_WC_REM_ACCESS_ERR, wc[0].opcode, "WRITE without access");
		expect_wc(&wc[1], 31, UVIO_WC_WR_FLUSH_ERR, wc[1].opcode, "the WR after it");
		printf("rc: WRITE without remote access: %s (vendor %#x), then %s\n",
		       uvio_wc_status_name(wc[0].status), wc[0].vendor_err,
		       uvio_wc_status_name(wc[1].status));
		KT_EQ(uvio_dereg_mr(e->dev, ro.handle, NULL), 0);
	}
out:
	rc_pair_destroy(&pair);
}

/*
 * The rings wrapped: a send queue of 8 WRs, a receive queue of 8, CQs of 8
 * entries; ROUNDS batches of one to four WRs of every shape (one to four
 * SGEs of odd lengths; inline data of 1 to 160 bytes, up to three basic
 * blocks, starting anywhere in the ring; the last WR of a batch signaled,
 * the others not, some with immediate data), each message checked byte for
 * byte at the receiver.
 */
#define ROUNDS 300
static void wrap(struct dp_env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	uint32_t sent = 0, msgs = 0, inl_bbs[4] = { 0 }, cap;
	uint32_t pos = 0, wrapped_inl = 0, wrapped_sge = 0;	/* in BBs, from the formats */
	int bad = 0;

	make_cq(e, &ca, 8, 0x2a);
	make_cq(e, &cb, 8, 0x2b);
	make_qp_cap(e, &a, IB_UVERBS_QPT_RC, &ca, &ca, NULL, 0x2a, 8, 160);
	make_qp_cap(e, &b, IB_UVERBS_QPT_RC, &cb, &cb, NULL, 0x2b, 8, 0);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	printf("wrap: send queue %u BBs, receive queue %u, CQs %u and %u entries, inline %u\n",
	       uvio_dp_queue_capacity(&a.sq), uvio_dp_queue_capacity(&b.rq),
	       uvio_dp_queue_capacity(&ca.q), uvio_dp_queue_capacity(&cb.q),
	       a.cap.max_inline_data);
	cap = uvio_dp_queue_capacity(&a.sq);
	for (uint32_t round = 0; round < ROUNDS && !bad && cap; round++) {
		uint32_t n = 1 + round % 4, len[4];
		struct uvio_dp_sge g[4][4];
		struct uvio_dp_send_wr w[4];
		uint32_t posted = 0;

		memset(w, 0, sizeof(w));
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = sent + i;
			size_t src = A_OFF + (size_t)(k % 64) * 2048, dst = B_RX + (size_t)i * 4096;
			/* a WQE that starts in the ring's last BB is made one
			 * of two BBs: inline data and data segments in turn,
			 * so that both cross the ring's end */
			bool edge = cap && pos % cap == cap - 1;
			bool inl = edge ? (pos / cap) % 2 : k % 3 == 0;
			uint32_t nsge = edge ? (inl ? 2 : 4) : inl ? 1 + k % 2 : 1 + k % 4, total = 0;

			for (uint32_t j = 0; j < nsge; j++) {
				uint32_t l = inl ? (edge ? 40 + (k + j) % 40
							 : 1 + (k * 37 + j * 11) % (160 / nsge))
						 : 1 + (k * 131 + j * 57) % 500;

				g[i][j] = sge(e, src + total + j * 3, l);
				total += l + j * 3;
			}
			len[i] = 0;
			for (uint32_t j = 0; j < nsge; j++)
				len[i] += g[i][j].length;
			fill(e->buf + src, 2048, k);
			memset(e->buf + dst, 0, 4096);
			recv1(&b, sge(e, dst, 4096), 0x10000 + k);
			w[i] = (struct uvio_dp_send_wr){
				.wr_id = k, .sg_list = g[i], .num_sge = nsge,
				.opcode = k % 5 == 1 ? IB_UVERBS_WR_SEND_WITH_IMM : IB_UVERBS_WR_SEND,
				.imm_data = htonl(k),
				.flags = (inl ? UVIO_DP_SEND_INLINE : 0) |
					 (i == n - 1 ? UVIO_DP_SEND_SIGNALED : 0) };
			{	/* where the WQE lies: control, then inline data
				 * (4 + bytes, whole 16s) or a segment per SGE */
				uint32_t ds = 1 + (inl ? (4 + len[i] + 15) / 16 : nsge);
				uint32_t bbs = (ds + 3) / 4;

				if (inl)
					inl_bbs[bbs]++;
				if (pos % cap + bbs > cap)
					*(inl ? &wrapped_inl : &wrapped_sge) += 1;
				pos += bbs;
			}
		}
		{
			int err = uvio_dp_post_send(&a, w, n, &posted);

			KT_EQ(err, 0);
			if (err) {
				printf("wrap: round %u: %s\n", round, uvio_last_error());
				break;
			}
		}
		/* the inline sources are the WQE's: overwrite them at once */
		for (uint32_t i = 0; i < n; i++) {
			KT_EQ(wait_wc(&cb, wc, 1), 1);
			expect_wc(&wc[0], 0x10000 + sent + i, UVIO_WC_SUCCESS, UVIO_WC_RECV,
				  "wrapped receive");
			KT_EQ(wc[0].byte_len, len[i]);
			if ((sent + i) % 5 == 1)
				KT_CHECK((wc[0].wc_flags & UVIO_WC_WITH_IMM) &&
					 ntohl(wc[0].imm_data) == sent + i, "immediate %#x flags %#x",
					 ntohl(wc[0].imm_data), wc[0].wc_flags);
			else
				KT_CHECK(!(wc[0].wc_flags & UVIO_WC_WITH_IMM), "flags %#x",
					 wc[0].wc_flags);
			/* the SGEs' bytes, one after the other */
			size_t at = 0;

			for (uint32_t j = 0; j < w[i].num_sge; j++) {
				const struct uvio_dp_sge *gg = &w[i].sg_list[j];

				if (memcmp(e->buf + B_RX + (size_t)i * 4096 + at,
					   (const void *)(uintptr_t)gg->addr, gg->length)) {
					bad++;
					KT_CHECK(0, "round %u WR %u SGE %u: bytes differ", round, i, j);
				}
				at += gg->length;
			}
			if (e->buf[B_RX + (size_t)i * 4096 + at] != 0) {
				bad++;
				KT_CHECK(0, "round %u WR %u: a byte past %zu written", round, i, at);
			}
			msgs++;
		}
		KT_EQ(wait_wc(&ca, wc, 1), 1);
		expect_wc(&wc[0], sent + n - 1, UVIO_WC_SUCCESS, UVIO_WC_SEND, "the batch's signaled");
		sent += n;
	}
	usleep(20000);
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 8), 0);
	KT_EQ(uvio_dp_poll_cq(&cb, wc, 8), 0);
	printf("wrap: %u messages in %u rounds checked (inline WQEs of 1/2/3 BBs: %u/%u/%u); "
	       "%u BBs posted: the send queue went round %u times, %u inline WQEs and %u of "
	       "data segments wrapped to BB 0; the receive queue went round %u times, the "
	       "receive CQ %u\n", msgs, ROUNDS, inl_bbs[1], inl_bbs[2], inl_bbs[3], pos,
	       cap ? pos / cap : 0, wrapped_inl, wrapped_sge,
	       msgs / (uvio_dp_queue_capacity(&b.rq) ? uvio_dp_queue_capacity(&b.rq) : 1),
	       msgs / (uvio_dp_queue_capacity(&cb.q) ? uvio_dp_queue_capacity(&cb.q) : 1));
	KT_EQ(msgs, ROUNDS / 4 * 10);
	KT_CHECK(wrapped_inl > 0 && wrapped_sge > 0, "WQEs across the ring's end: %u inline, %u "
		 "data segments", wrapped_inl, wrapped_sge);
out:
	rc_pair_destroy(&(struct dp_rc_pair){ &a, &b, &ca, &cb });
}

/* Arm (next, then solicited only) and wait on the channel; then many
 * rounds of arm, event, poll as a program that sleeps does. */
static void arm_and_wait(struct dp_env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct dp_rc_pair pair = { &a, &b, &ca, &cb };
	struct uvio_dp_wc wc[4];
	struct uvio_dp_sge s = sge(e, A_OFF, 32);
	struct uvio_dp_send_wr w = { .wr_id = 90, .opcode = IB_UVERBS_WR_SEND, .sg_list = &s,
				     .num_sge = 1 };
	uint32_t events = 0;

	if (rc_pair_create(e, &pair, 16, 0x6a, 0x6a))
		goto out;
	events += rc_arm_next_and_solicited(e, &pair, 0x6b);
	printf("arm: next and solicited-only events: ok\n");

	/* 40 rounds: poll empty, arm, poll again, sleep for the event. */
	for (uint64_t i = 0; i < 40; i++) {
		int got;

		recv1(&b, sge(e, B_RX, 64), 600 + i);
		KT_EQ(post1(&a, &w), 0);
		got = uvio_dp_poll_cq(&cb, wc, 1);
		if (!got) {
			KT_EQ(uvio_dp_arm_cq(&cb, 0), 0);
			got = uvio_dp_poll_cq(&cb, wc, 1);
			if (!got) {
				KT_EQ(comp_event(e, 0x6b, 3000), 0);
				events++;
				got = wait_wc(&cb, wc, 1);
			}
		}
		KT_EQ(got, 1);
		expect_wc(&wc[0], 600 + i, UVIO_WC_SUCCESS, UVIO_WC_RECV, "event-driven receive");
	}
	printf("arm: 40 event-driven rounds, %u events read in all\n", events);
	/* The send CQ: unsignaled sends left its ring empty. */
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 4), 0);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	{	/* the events read: the destroy says so */
		UVIO_OPTS(uvio_events_reported, rep);

		KT_EQ(uvio_dp_destroy_cq(&cb, &rep), 0);
		KT_EQ(rep.comp_events_reported, events);
	}
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
}

/* UD through an address handle: the receive starts with the 40-byte GRH. */
static void ud_send(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_ah ah;
	struct uvio_dp_wc wc[2];
	struct uvio_dp_sge s = sge(e, A_OFF, 512);
	int err;
	UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = e->pd,
		  .av = { .is_global = 1, .port_num = 1, .sgid_index = GIDX, .hop_limit = 64 });

	memcpy(aa.av.dgid, e->gid, 16);
	make_cq(e, &cq, 64, 0xd);
	make_qp(e, &a, IB_UVERBS_QPT_UD, &cq, NULL, 0x3a);
	make_qp(e, &b, IB_UVERBS_QPT_UD, &cq, NULL, 0x3b);
	err = uvio_dp_create_ah(e->dev, &aa, &ah);
	KT_EQ(err, 0);
	if (err) {
		printf("ud: create_ah: %s\n", uvio_last_error());
		goto out_qps;
	}
	if (connect_qp(e, &a, 0) || connect_qp(e, &b, 0))
		goto out;
	for (uint32_t round = 0; round < 3; round++) {
		uint32_t len = round == 0 ? 512 : round == 1 ? 1 : 100;
		bool inl = round == 2;

		s.length = len;
		fill(e->buf + A_OFF, 512, 11 + round);
		memset(e->buf + B_RX, 0, 1024);
		recv1(&b, sge(e, B_RX, 40 + 512), 300 + round);
		struct uvio_dp_send_wr w = {
			.wr_id = 50 + round,
			.opcode = round == 1 ? IB_UVERBS_WR_SEND : IB_UVERBS_WR_SEND_WITH_IMM,
			.flags = UVIO_DP_SEND_SIGNALED | (inl ? UVIO_DP_SEND_INLINE : 0),
			.sg_list = &s, .num_sge = 1, .imm_data = htonl(5 + round),
			.ud = { .ah = &ah, .remote_qpn = b.qp_num, .remote_qkey = 0x11111111 } };
		KT_EQ(post1(&a, &w), 0);
		KT_EQ(wait_wc(&cq, wc, 2), 2);
		for (int i = 0; i < 2; i++) {
			if (wc[i].wr_id == 50 + round) {
				expect_wc(&wc[i], 50 + round, UVIO_WC_SUCCESS, UVIO_WC_SEND, "UD send");
			} else {
				expect_wc(&wc[i], 300 + round, UVIO_WC_SUCCESS, UVIO_WC_RECV,
					  "UD receive");
				KT_EQ(wc[i].byte_len, 40 + len);
				KT_EQ(wc[i].src_qp, a.qp_num);
				KT_EQ(wc[i].qp_num, b.qp_num);
				if (round != 1)
					KT_EQ(ntohl(wc[i].imm_data), 5 + round);
				KT_CHECK(wc[i].wc_flags & UVIO_WC_GRH, "flags %#x", wc[i].wc_flags);
			}
		}
		KT_EQ(memcmp(e->buf + B_RX + 40, e->buf + A_OFF, len), 0);
		KT_EQ(e->buf[B_RX + 40 + len], 0);
		/* the GRH: the destination GID at 24, the source's at 8 */
		KT_EQ(memcmp(e->buf + B_RX + 24, e->gid, 16), 0);
		KT_EQ(memcmp(e->buf + B_RX + 8, e->gid, 16), 0);
	}
	{	/* A UD send needs its AH. */
		struct uvio_dp_send_wr n = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &s, .num_sge = 1 };
		KT_EQ(uvio_dp_post_send(&a, &n, 1, NULL), -EINVAL);
	}
	printf("ud: SEND_WITH_IMM of 512 bytes, SEND of 1, inline SEND_WITH_IMM of 100 through an "
	       "AH: ok\n");
out:
	KT_EQ(uvio_dp_destroy_ah(&ah), 0);
out_qps:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* SRQ: receives through its list, taken and given back until the list has
 * wrapped twice; completions out of order of posting need no order here. */
static void srq_list(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_srq srq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[16];
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = e->pd, .user_handle = 0x5e, .max_wr = 8,
		  .max_sge = 2);
	uint32_t cap, done = 0, next = 0;

	make_cq(e, &cq, 64, 0x10);
	KT_EQ(uvio_dp_create_srq(e->dev, &sa, &srq), 0);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x5a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cq, &srq, 0x5b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	KT_EQ(uvio_dp_post_recv(&b, NULL, 0, NULL), -EINVAL);	/* receives go to the SRQ */
	cap = uvio_dp_queue_capacity(&srq.q);
	printf("srq: %#x, %u receives at once, %u SGEs\n", srq.srq_num, cap, srq.max_sge);
	KT_CHECK(cap >= 8, "capacity %u", cap);
	/* fill it; the one more is refused */
	for (; next < cap; next++) {
		struct uvio_dp_sge r[2] = { sge(e, B_RX + (next % 64) * 256, 100),
					    sge(e, B_RX + (next % 64) * 256 + 128, 100) };
		struct uvio_dp_recv_wr w = { .wr_id = 400 + next, .sg_list = r, .num_sge = 2 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &w, 1, NULL), 0);
	}
	{
		struct uvio_dp_sge r = sge(e, B_RX, 100);
		struct uvio_dp_recv_wr w = { .wr_id = 1, .sg_list = &r, .num_sge = 1 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &w, 1, NULL), -ENOSPC);
	}
	/* 4 * cap messages of 150 bytes (over both SGEs); each receive
	 * completed is posted again */
	while (done < 4 * cap) {
		uint32_t k = done;
		struct uvio_dp_sge s = sge(e, A_OFF + (k % 64) * 256, 150);
		struct uvio_dp_send_wr w = { .wr_id = k, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1 };
		int got, recvs = 0;

		fill(e->buf + A_OFF + (k % 64) * 256, 150, k);
		if (post1(&a, &w))
			break;
		got = wait_wc(&cq, wc, 2);
		KT_EQ(got, 2);
		for (int i = 0; i < got; i++) {
			if (wc[i].opcode == UVIO_WC_SEND) {
				expect_wc(&wc[i], k, UVIO_WC_SUCCESS, UVIO_WC_SEND, "send to the SRQ");
				continue;
			}
			recvs++;
			expect_wc(&wc[i], 400 + k, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SRQ receive");
			KT_EQ(wc[i].byte_len, 150);
			uint8_t *rx = e->buf + B_RX + (k % 64) * 256;
			KT_EQ(memcmp(rx, e->buf + A_OFF + (k % 64) * 256, 100), 0);
			KT_EQ(memcmp(rx + 128, e->buf + A_OFF + (k % 64) * 256 + 100, 50), 0);
			memset(rx, 0, 256);
		}
		KT_EQ(recvs, 1);
		{
			struct uvio_dp_sge r[2] = { sge(e, B_RX + (next % 64) * 256, 100),
						    sge(e, B_RX + (next % 64) * 256 + 128, 100) };
			struct uvio_dp_recv_wr rw = { .wr_id = 400 + next, .sg_list = r,
						      .num_sge = 2 };

			KT_EQ(uvio_dp_post_srq_recv(&srq, &rw, 1, NULL), 0);
			next++;
		}
		done++;
	}
	printf("srq: %u messages through an SRQ of %u, each receive given back: ok\n", done, cap);
	/* B to ERR: the SRQ's receives stay (they are the SRQ's, not B's) */
	KT_EQ(to_err(e, &b), 0);
	usleep(50000);
	KT_EQ(uvio_dp_poll_cq(&cq, wc, 16), 0);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_srq(&srq, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* A QP moved to ERR: its posted receives and sends come back flushed. */
static void flush(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a;
	struct uvio_dp_wc wc[8];

	make_cq(e, &cq, 16, 0x70);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x7a);
	if (connect_qp(e, &a, a.qp_num))
		goto out;
	for (uint64_t i = 0; i < 4; i++)
		recv1(&a, sge(e, B_RX + i * 64, 64), 700 + i);
	KT_EQ(to_err(e, &a), 0);
	KT_EQ(wait_wc(&cq, wc, 4), 4);
	for (int i = 0; i < 4; i++)
		expect_wc(&wc[i], 700 + (uint64_t)i, UVIO_WC_WR_FLUSH_ERR, UVIO_WC_RECV, "flushed");
	{
		struct uvio_dp_sge s = sge(e, A_OFF, 64);
		struct uvio_dp_send_wr w = { .wr_id = 77, .opcode = IB_UVERBS_WR_SEND,
					     .sg_list = &s, .num_sge = 1 };

		KT_EQ(post1(&a, &w), 0);	/* unsignaled: flushed all the same */
		KT_EQ(wait_wc(&cq, wc, 1), 1);
		expect_wc(&wc[0], 77, UVIO_WC_WR_FLUSH_ERR, wc[0].opcode, "flushed send");
	}
	printf("flush: 4 receives and an unsignaled send flushed in ERR: ok\n");
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/*
 * The send queue holds at most cap.max_send_wr WQEs, however small: its
 * ring is sized for the largest WQE the caps allow (inline data, several
 * SGEs), and a SEND of 16 inline bytes fills one basic block of it. A CQ
 * sized for max_send_wr completions must not overrun (the engine, as a
 * ConnectX, moves the QP to ERR when it does). Self-connected RC QP: its
 * SENDs take its own receives; none is polled until the queue refuses.
 */
static void send_bound(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a;
	struct uvio_dp_wc wc[32];
	uint32_t n = 0, blocks, want;
	uint64_t payload[2] = { 1, 2 };
	struct uvio_dp_sge s = { (uintptr_t)payload, sizeof(payload), 0 };
	struct uvio_dp_send_wr w = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &s, .num_sge = 1,
				     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE };
	int err = 0, got;

	make_cq(e, &cq, 64, 0x78);
	make_qp_cap(e, &a, IB_UVERBS_QPT_RC, &cq, &cq, NULL, 0x78, 8, 64);
	if (connect_qp(e, &a, a.qp_num))
		goto out;
	want = a.cap.max_send_wr;
	blocks = uvio_dp_queue_capacity(&a.sq);
	KT_CHECK(want >= 8 && want < blocks && want <= 16,
		 "max_send_wr %u, %u blocks: the ring holds more one-block WQEs", want, blocks);
	for (uint64_t i = 0; i < want; i++)
		recv1(&a, sge(e, B_RX + i * 64, 64), 800 + i);
	while (n <= blocks && !(err = post1(&a, &w)))
		w.wr_id = ++n;
	KT_EQ(err, -ENOSPC);
	KT_EQ(n, want);
	if (n != want)	/* SENDs without receives wait (RNR) until destroyed */
		goto out;
	/* The completions polled, the queue takes WQEs again. */
	got = wait_wc(&cq, wc, (int)(2 * n));
	KT_EQ(got, (int)(2 * n));
	for (int i = 0; i < got; i++)
		KT_EQ(wc[i].status, UVIO_WC_SUCCESS);
	recv1(&a, sge(e, B_RX, 64), 899);
	KT_EQ(post1(&a, &w), 0);
	KT_EQ(wait_wc(&cq, wc, 2), 2);
	KT_EQ(wc[0].status | wc[1].status, UVIO_WC_SUCCESS);
	printf("send_bound: max_send_wr %u in a ring of %u blocks: %u one-block SENDs taken, "
	       "the next refused (%d), taken again once polled\n", want, blocks, n, err);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/*
 * Resize with completions not yet polled: one QP sends to itself, SENDs
 * and their receives complete into a CQ of 16 entries. Eight pending do
 * not fit in 4 entries: refused before the kernel is asked. Then with two
 * of twelve polled, the CQ grows to 64 entries while the device has ten
 * written in the old buffer: the ten come out first, in order, each
 * receive with its message's bytes; then a round written into the new
 * buffer alone; then the CQ shrinks to 32 with nothing pending.
 */
static int rounds_done, cqes_written;

/* Entry p of the CQ's buffer (counted from the CQ's first CQE), once the
 * device has written it: its CQE64 (the entry's last 64 bytes) leaves
 * "invalid" with the owner bit of p's lap. NULL after 5 s (counted). *size:
 * the entry's size (64 or 128). Read before any poll, it is what the
 * device wrote, before the library's poll copies anything out of it. */
static const uint8_t *raw_entry(struct dp_env *e, struct uvio_dp_cq *cq, uint32_t p,
				uint32_t *size)
{
	struct uvio_mlx5_object o = { .sz = sizeof(o) };
	const uint8_t *entry;
	uint64_t end = dp_now_ms() + 5000;

	KT_EQ(uvio_mlx5_query_object(e->dev, UVERBS_OBJECT_CQ, cq->handle, &o), 0);
	if (!o.buf || !o.ncqe)
		return NULL;
	*size = o.cqe_size;
	entry = (const uint8_t *)o.buf + (size_t)(p & (o.ncqe - 1)) * o.cqe_size;
	while (dp_now_ms() < end) {
		uint8_t v = __atomic_load_n(entry + o.cqe_size - 1, __ATOMIC_ACQUIRE);

		if (v >> 4 != 15 && (v & 1) == !!(p & o.ncqe))
			return entry;
		usleep(1000);
	}
	KT_CHECK(0, "CQE %u of CQ handle %u not written in 5 s", p, cq->handle);
	return NULL;
}

/* Until the device has written CQE p of the half's buffer. */
static void wait_written(struct dp_env *e, struct uvio_dp_cq *cq, uint32_t p)
{
	uint32_t size;

	(void)raw_entry(e, cq, p, &size);
}

static void resize_round(struct dp_env *e, struct uvio_dp_qp *a, struct uvio_dp_cq *cq, int n,
			 int poll_first, uint32_t new_cqe, int want, bool half_buffer)
{
	struct uvio_dp_wc wc[16];
	int base = rounds_done * 8, got;

	for (int i = 0; i < n; i++) {
		recv1(a, sge(e, B_RX + (size_t)(base + i) * 64, 64), 1000 + (uint64_t)(base + i));
		fill(e->buf + A_OFF + (size_t)(base + i) * 64, 64, (unsigned)(base + i));
	}
	for (int i = 0; i < n; i++) {
		struct uvio_dp_sge s = sge(e, A_OFF + (size_t)(base + i) * 64, 64);
		struct uvio_dp_send_wr w = { .wr_id = 2000 + (uint64_t)(base + i),
					     .opcode = IB_UVERBS_WR_SEND, .sg_list = &s,
					     .num_sge = 1, .flags = UVIO_DP_SEND_SIGNALED };

		KT_EQ(post1(a, &w), 0);
	}
	got = poll_first ? wait_wc(cq, wc, poll_first) : 0;
	KT_EQ(got, poll_first);
	if (half_buffer)
		wait_written(e, cq, (uint32_t)(cqes_written + 2 * n - 1));
	cqes_written += 2 * n;
	if (new_cqe) {
		int err = uvio_dp_resize_cq(cq, new_cqe);

		KT_CHECK(err == want, "resize to %u with %d unpolled: %d, wanted %d (%s)", new_cqe,
			 2 * n - got, err, want, err ? uvio_last_error() : "");
		if (want)
			KT_CHECK(strstr(uvio_last_error(), "not yet polled") != NULL,
				 "the refusal says why: %s", uvio_last_error());
		else
			KT_CHECK(cq->cqe == new_cqe, "CQ of %u after the resize to %u", cq->cqe,
				 new_cqe);
	}
	got += wait_wc(cq, wc + got, 2 * n - got);
	KT_EQ(got, 2 * n);
	/* Sends and receives interleave; each kind comes in its own order. */
	for (int i = 0, ns = 0, nr = 0; i < got; i++) {
		if (wc[i].opcode == UVIO_WC_SEND) {
			expect_wc(&wc[i], 2000 + (uint64_t)(base + ns), UVIO_WC_SUCCESS, UVIO_WC_SEND,
				  "resize: send");
			ns++;
		} else {
			uint8_t want_bytes[64];

			expect_wc(&wc[i], 1000 + (uint64_t)(base + nr), UVIO_WC_SUCCESS, UVIO_WC_RECV,
				  "resize: receive");
			fill(want_bytes, 64, (unsigned)(base + nr));
			KT_CHECK(wc[i].byte_len == 64 &&
				 !memcmp(e->buf + B_RX + (size_t)(base + nr) * 64, want_bytes, 64),
				 "resize: message %d: %u bytes, or not its bytes", base + nr,
				 wc[i].byte_len);
			nr++;
		}
	}
	rounds_done++;
}

static void resize(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a;

	rounds_done = cqes_written = 0;
	make_cq(e, &cq, 15, 0x80);
	KT_EQ(cq.cqe, 15);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x8a);
	if (connect_qp(e, &a, a.qp_num))
		goto out;
	resize_round(e, &a, &cq, 4, 0, 3, -EINVAL, true);	/* 8 pending, 4 entries */
	resize_round(e, &a, &cq, 6, 2, 63, 0, true);	/* 10 carried into 64 entries */
	resize_round(e, &a, &cq, 6, 0, 0, 0, false);	/* the new buffer on its own */
	resize_round(e, &a, &cq, 4, 8, 31, 0, false);	/* nothing pending: 32 entries */
	printf("resize: 8 pending refused 4 entries; 10 carried from 16 entries to 64; "
	       "64 to 32 with none pending\n");
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/*
 * Scatter to CQE, as the engine does it for a ConnectX (mlx5_engine.c's
 * header: mlx5_ib's rules at QP create) and as the library asks for it
 * (MLX5_QP_FLAG_SCATTER_CQE at every QP create). One round on the env's
 * 64-byte CQEs (bit 0x04: up to 32 bytes in the CQE itself), one on a second
 * context opened with MLX5_CQE_SIZE=128 (bit 0x08: up to 64 bytes in the
 * entry's first half). QP a: RC with sq_sig_all, its own receive queue; QP
 * b: RC on an SRQ, without sq_sig_all. Each CQE is read raw from the CQ's
 * buffer before any poll (its opcode, its inline scatter bits, its byte
 * count, the data in it; the work request's buffer not yet written: the
 * device put the bytes in the CQE alone), then polled, and the bytes
 * checked where the work request named them:
 *  - a's SEND of 20 bytes into b's SRQ receive of two SGEs (8 + 24): in the
 *    CQE, copied over both SGEs;
 *  - b's SEND of exactly the limit (32 or 64 bytes) into a's receive: in
 *    the CQE; one byte more: in the buffer, no bit;
 *  - a's READ of 16 bytes into two SGEs (4 + 12), not flagged signalled
 *    (sq_sig_all signals it): in the CQE; a's FETCH_AND_ADD: the old value
 *    in the CQE (mlx5_ib enables the requester side with sq_sig_all);
 *  - b's signalled READ of 16 bytes: no sq_sig_all, so no requester
 *    scatter: in the buffer, no bit;
 *  - a's WRITE_WITH_IMM of 16 bytes: b's receive CQE carries no data (it
 *    is at the remote address), no bit.
 */
enum { SCAT_32 = 0x04, SCAT_64 = 0x08 };	/* op_own's inline scatter bits */
enum { CQE_REQ = 0, CQE_RESP_WR_IMM = 1, CQE_RESP_SEND = 2 };

/* The CQ's next CQE (its *n-th, counted by the caller), raw: opcode, the
 * inline scatter bits want (0, SCAT_32, SCAT_64), byte count len, and when
 * scattered the data: len bytes equal to data at the CQE's start (32) or
 * at the entry's (64). */
static void raw_check(struct dp_env *e, struct uvio_dp_cq *cq, uint32_t *n, uint8_t opcode,
		      uint8_t want, const uint8_t *data, uint32_t len, const char *what)
{
	uint32_t size = 0;
	const uint8_t *entry = raw_entry(e, cq, (*n)++, &size), *cqe;
	uint8_t op_own;

	if (!entry)
		return;
	cqe = entry + size - 64;
	op_own = cqe[63];
	KT_CHECK(op_own >> 4 == opcode, "%s: CQE opcode %u, want %u", what, op_own >> 4, opcode);
	KT_CHECK((op_own & (SCAT_32 | SCAT_64)) == want, "%s: op_own %#x, inline scatter bits "
		 "%#x, want %#x", what, op_own, op_own & (SCAT_32 | SCAT_64), want);
	KT_CHECK(((uint32_t)cqe[44] << 24 | (uint32_t)cqe[45] << 16 | (uint32_t)cqe[46] << 8 |
		  cqe[47]) == len, "%s: the CQE's byte count is not %u", what, len);
	if (want == SCAT_64)
		KT_CHECK(size == 128, "%s: the 64-byte form in a CQE of %u bytes", what, size);
	if (want && (want == SCAT_32 || size == 128))
		KT_CHECK(!memcmp(want == SCAT_32 ? cqe : entry, data, len),
			 "%s: the data in the CQE differs from what was sent", what);
}

static bool all_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void scatter_round(struct dp_env *e, bool big)
{
	uint32_t lim = big ? 64 : 32, na = 0, nb = 0;
	uint8_t want = big ? SCAT_64 : SCAT_32;
	const char *form = big ? "128-byte CQEs" : "64-byte CQEs";
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_srq srq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[4];
	uint8_t *tx = e->buf + A_OFF, *rx = e->buf + B_RX, *tgt = e->buf + B_TGT;
	uint64_t *remote = (uint64_t *)(e->buf + ATOM), *old = (uint64_t *)(e->buf + ATOM + 64);
	uint64_t was = 0x1122334455667788ull;
	int before = kt_failures;
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = e->pd, .user_handle = 0xc4, .max_wr = 4,
		  .max_sge = 2);
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .user_handle = 0xc2,
		  .pd_handle = e->pd, .create_flags = IB_UVERBS_QP_CREATE_SQ_SIG_ALL,
		  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 4,
			   .max_recv_sge = 4, .max_inline_data = 64 });

	make_cq(e, &ca, 16, 0xc0);
	make_cq(e, &cb, 16, 0xc1);
	KT_EQ(uvio_dp_create_srq(e->dev, &sa, &srq), 0);
	qa.send_cq_handle = qa.recv_cq_handle = ca.handle;
	KT_EQ(uvio_dp_create_qp(e->dev, &qa, NULL, &a), 0);
	make_qp_cap(e, &b, IB_UVERBS_QPT_RC, &cb, &cb, &srq, 0xc3, 16, 64);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;

	/* a -> b: 20 bytes into the SRQ's receive of 8 + 24 */
	memset(rx, 0, 4096);
	fill(tx, 1024, 0xc1);
	{
		struct uvio_dp_sge r[2] = { sge(e, B_RX, 8), sge(e, B_RX + 64, 24) };
		struct uvio_dp_recv_wr rw = { .wr_id = 0xc10, .sg_list = r, .num_sge = 2 };
		struct uvio_dp_sge g = sge(e, A_OFF, 20);
		struct uvio_dp_send_wr w = { .wr_id = 0xc11, .opcode = IB_UVERBS_WR_SEND,
					     .sg_list = &g, .num_sge = 1 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &rw, 1, NULL), 0);
		KT_EQ(post1(&a, &w), 0);
	}
	raw_check(e, &cb, &nb, CQE_RESP_SEND, want, tx, 20, "SEND of 20 bytes to an SRQ receive");
	KT_CHECK(all_zero(rx, 128), "SEND of 20 bytes: the device wrote the SRQ receive's buffer");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 0xc10, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SRQ receive from the CQE");
	KT_EQ(wc[0].byte_len, 20);
	KT_EQ(memcmp(rx, tx, 8), 0);
	KT_EQ(memcmp(rx + 64, tx + 8, 12), 0);
	KT_EQ(rx[8], 0);
	KT_EQ(rx[64 + 12], 0);
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 0xc11, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND of 20 bytes");
	na++;

	/* b -> a: the limit, then one byte more, into a's receive queue */
	for (uint32_t k = 0; k < 2; k++) {
		uint32_t len = lim + k;
		uint8_t *dst = rx + 1024 + k * 512, *src = tx + 256 + k * 256;
		struct uvio_dp_sge g = sge(e, A_OFF + 256 + k * 256, len);
		struct uvio_dp_send_wr w = { .wr_id = 0xc21 + 2 * k, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &g,
					     .num_sge = 1 };

		recv1(&a, sge(e, B_RX + 1024 + k * 512, 256), 0xc20 + 2 * k);
		KT_EQ(post1(&b, &w), 0);
		raw_check(e, &ca, &na, CQE_RESP_SEND, k ? 0 : want, src, len,
			  k ? "SEND of the limit + 1 to a receive" : "SEND of the limit to a receive");
		if (k)		/* past the limit: the device wrote the buffer */
			KT_CHECK(!memcmp(dst, src, len), "SEND of %u bytes: not in the buffer "
				 "before the poll", len);
		else
			KT_CHECK(all_zero(dst, 256), "SEND of %u bytes: the device wrote the "
				 "receive's buffer", len);
		KT_EQ(wait_wc(&ca, wc, 1), 1);
		expect_wc(&wc[0], 0xc20 + 2 * k, UVIO_WC_SUCCESS, UVIO_WC_RECV, "receive");
		KT_EQ(wc[0].byte_len, len);
		KT_EQ(memcmp(dst, src, len), 0);
		KT_EQ(dst[len], 0);
		KT_EQ(wait_wc(&cb, wc, 1), 1);
		expect_wc(&wc[0], 0xc21 + 2 * k, UVIO_WC_SUCCESS, UVIO_WC_SEND, "b's SEND");
		nb++;
	}

	/* a's READ of 16 bytes into 4 + 12, signalled by sq_sig_all alone */
	fill(tgt, 256, 0xc3);
	memset(tx + 1024, 0, 64);
	{
		struct uvio_dp_sge g[2] = { sge(e, A_OFF + 1024, 4), sge(e, A_OFF + 1024 + 32, 12) };
		struct uvio_dp_send_wr w = { .wr_id = 0xc30, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .sg_list = g, .num_sge = 2,
					     .rdma = { (uintptr_t)tgt, e->mr.rkey } };

		KT_EQ(post1(&a, &w), 0);
	}
	raw_check(e, &ca, &na, CQE_REQ, want, tgt, 16, "READ of 16 bytes with sq_sig_all");
	KT_CHECK(all_zero(tx + 1024, 64), "READ of 16 bytes: the device wrote the local SGEs");
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 0xc30, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "READ from the CQE");
	KT_EQ(wc[0].byte_len, 16);
	KT_EQ(memcmp(tx + 1024, tgt, 4), 0);
	KT_EQ(memcmp(tx + 1024 + 32, tgt + 4, 12), 0);
	KT_EQ(tx[1024 + 4], 0);
	KT_EQ(tx[1024 + 44], 0);

	/* a's FETCH_AND_ADD: the old value in the CQE */
	*remote = was;
	*old = 0;
	{
		struct uvio_dp_sge g = sge(e, ATOM + 64, 8);
		struct uvio_dp_send_wr w = { .wr_id = 0xc31, .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
					     .sg_list = &g, .num_sge = 1,
					     .atomic = { .remote_addr = (uintptr_t)remote,
							 .compare_add = 3, .rkey = e->mr.rkey } };

		KT_EQ(post1(&a, &w), 0);
	}
	raw_check(e, &ca, &na, CQE_REQ, want, (const uint8_t *)&was, 8,
		  "FETCH_AND_ADD with sq_sig_all");
	KT_CHECK(*old == 0, "FETCH_AND_ADD: the device wrote the local SGE");
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 0xc31, UVIO_WC_SUCCESS, UVIO_WC_FETCH_ADD, "FETCH_AND_ADD from the CQE");
	KT_EQ(*old, was);
	KT_EQ(*remote, was + 3);

	/* b's READ of 16 bytes: no sq_sig_all, no requester scatter */
	memset(rx + 3072, 0, 64);
	{
		struct uvio_dp_sge g = sge(e, B_RX + 3072, 16);
		struct uvio_dp_send_wr w = { .wr_id = 0xc40, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &g,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)tgt + 128, e->mr.rkey } };

		KT_EQ(post1(&b, &w), 0);
	}
	raw_check(e, &cb, &nb, CQE_REQ, 0, NULL, 16, "READ of 16 bytes without sq_sig_all");
	KT_CHECK(!memcmp(rx + 3072, tgt + 128, 16), "READ without sq_sig_all: not in the buffer "
		 "before the poll");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 0xc40, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "READ to the buffer");
	KT_EQ(wc[0].byte_len, 16);

	/* a's WRITE_WITH_IMM of 16 bytes: no data for b's receive CQE */
	memset(tgt + 512, 0, 64);
	{
		struct uvio_dp_sge r = sge(e, B_RX + 3584, 64);
		struct uvio_dp_recv_wr rw = { .wr_id = 0xc50, .sg_list = &r, .num_sge = 1 };
		struct uvio_dp_sge g = sge(e, A_OFF, 16);
		struct uvio_dp_send_wr w = { .wr_id = 0xc51, .opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
					     .sg_list = &g, .num_sge = 1, .imm_data = htonl(0xc5),
					     .rdma = { (uintptr_t)tgt + 512, e->mr.rkey } };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &rw, 1, NULL), 0);
		KT_EQ(post1(&a, &w), 0);
	}
	raw_check(e, &cb, &nb, CQE_RESP_WR_IMM, 0, NULL, 16, "WRITE_WITH_IMM of 16 bytes");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 0xc50, UVIO_WC_SUCCESS, UVIO_WC_RECV_RDMA_WITH_IMM, "WRITE_WITH_IMM");
	KT_EQ(memcmp(tgt + 512, tx, 16), 0);
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 0xc51, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "WRITE_WITH_IMM's own");
	na++;
	if (kt_failures == before)
		printf("scatter (%s): SEND of 20 bytes into an SRQ receive of 2 SGEs and of %u into "
		       "a receive came in the CQE (bit %#x), %u bytes in the buffer; READ of 16 "
		       "into 2 SGEs and FETCH_AND_ADD on a QP with sq_sig_all in the CQE; READ "
		       "without sq_sig_all and WRITE_WITH_IMM not; every byte where the WR put "
		       "it\n", form, lim, want, lim + 1);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_srq(&srq, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cb, NULL), 0);
}

static void scatter_cqe(struct dp_env *e)
{
	struct dp_env big;
	int err;

	scatter_round(e, false);
	/* the CQE size is the context's, read at open as libmlx5 reads it */
	setenv("MLX5_CQE_SIZE", "128", 1);
	err = dp_env_open(&big, e->name, false, DP_ACCESS_ALL, GIDX);
	unsetenv("MLX5_CQE_SIZE");
	if (err)
		return;
	scatter_round(&big, true);
	dp_env_close(&big);
}

/*
 * A QP back to RESET and used again: the device starts its counters over,
 * so must the library (uvio_dp_reset_qp). Two self-connected RC QPs share
 * a CQ; each sends and receives, and the six CQEs stay unpolled while QP a
 * goes to RESET. After the reset a's four are gone and c's two are kept;
 * a, connected again, takes a receive and a SEND of a new round, whose
 * WQEs the device reads at index 0: the CQ then yields c's two and a's two,
 * nothing else, and the message arrived whole.
 */
/* A receive of 64 bytes at B_RX + rx_off (recv_id) on qp, then a signalled
 * SEND (send_id) of the 64 bytes at A_OFF + tx_off to it. */
static void recv_and_send(struct dp_env *e, struct uvio_dp_qp *qp, size_t rx_off, uint64_t recv_id,
			  size_t tx_off, uint64_t send_id)
{
	struct uvio_dp_sge s = sge(e, A_OFF + tx_off, 64);
	struct uvio_dp_send_wr w = { .wr_id = send_id, .opcode = IB_UVERBS_WR_SEND,
				     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s, .num_sge = 1 };

	recv1(qp, sge(e, B_RX + rx_off, 64), recv_id);
	KT_EQ(post1(qp, &w), 0);
}

static void reset_and_reuse(struct dp_env *e)
{
	UVIO_OPTS(uvio_qp_attr, to_reset, .qp_state = UVIO_QPS_RESET, .attr_mask = UVIO_QP_STATE);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, c;
	struct uvio_dp_wc wc[8];
	uint64_t ids[4] = { 0 }, want[4] = { 920, 921, 930, 940 };
	uint8_t *rx = e->buf + B_RX + 3 * 64;
	int got, before = kt_failures;

	make_cq(e, &cq, 16, 0x79);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x79);
	make_qp(e, &c, IB_UVERBS_QPT_RC, &cq, NULL, 0x7b);
	if (connect_qp(e, &a, a.qp_num) || connect_qp(e, &c, c.qp_num))
		goto out;
	for (uint64_t i = 0; i < 2; i++)
		recv_and_send(e, &a, i * 64, 900 + i, i * 64, 910 + i);
	recv_and_send(e, &c, 2 * 64, 920, 0, 921);
	wait_written(e, &cq, 5);	/* six CQEs, none polled */
	KT_EQ(uvio_modify_qp(e->dev, a.handle, &to_reset, NULL, NULL), 0);
	KT_EQ(uvio_dp_reset_qp(&a, &cq, &cq), 0);
	if (connect_qp(e, &a, a.qp_num))
		goto out;
	for (int i = 0; i < 64; i++)
		e->buf[A_OFF + 4 * 64 + i] = (uint8_t)(0xa0 ^ i);
	memset(rx, 0, 64);
	recv_and_send(e, &a, 3 * 64, 930, 4 * 64, 940);
	got = wait_wc(&cq, wc, 4);
	KT_EQ(got, 4);
	for (int i = 0; i < got && i < 4; i++) {
		KT_EQ(wc[i].status, UVIO_WC_SUCCESS);
		ids[i] = wc[i].wr_id;
	}
	/* sorted: the CQ holds c's pair (written before the reset), then a's */
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (ids[j] < ids[i]) {
				uint64_t t = ids[i];

				ids[i] = ids[j];
				ids[j] = t;
			}
	KT_CHECK(!memcmp(ids, want, sizeof(want)), "completions %llu %llu %llu %llu, want 920 "
		 "921 930 940", (unsigned long long)ids[0], (unsigned long long)ids[1],
		 (unsigned long long)ids[2], (unsigned long long)ids[3]);
	KT_CHECK(!memcmp(rx, e->buf + A_OFF + 4 * 64, 64), "the new round's message");
	KT_EQ(wait_wc_ms(&cq, wc, 1, 300), 0);
	if (kt_failures == before)
		printf("reset_and_reuse: QP 0x%x to RESET with 4 CQEs unpolled: dropped, QP 0x%x's "
		       "2 kept, a new round from WQE 0 completed once\n", a.qp_num, c.qp_num);
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&c, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* Two threads post SENDs on one QP while one thread polls its CQ and
 * another the peer's, reposting each receive (kt_dp_lib.c); each message
 * carries its wr_id, which the receiver checks. */
#define PER_THREAD 1000u
static void threads(struct dp_env *e)
{
	struct dp_mt_result r = dp_threads(e, PER_THREAD, 2);

	if (!r.ran)
		return;
	KT_EQ(r.errors, 0);
	KT_EQ(r.sends_done, 2 * PER_THREAD);
	KT_EQ(r.recvs_done, 2 * PER_THREAD);
	printf("threads: 2 posters x %u inline SENDs, 2 pollers: %u send and %u receive "
	       "completions, %d errors, the send queue full %u times, %llu ms\n", PER_THREAD,
	       r.sends_done, r.recvs_done, r.errors, r.full, (unsigned long long)r.ms);
}

/*
 * A type 2 memory window over 8 KiB of B_TGT (an MR of its own, with
 * MW_BIND), on a fresh pair: bound by a BIND_MW on A (the library's UMR
 * WQE) posted with the SEND that hands B the new key (the SEND carries the
 * small fence), written through by B, then invalidated: by A's LOCAL_INV
 * (remote false) or by B's SEND_WITH_INV (remote true, A's receive says
 * which key). B's WRITE through the key after it is refused (remote access
 * error). Round r uses user handles 0x90 + 0x10 r.
 */
static void mw_round(struct dp_env *e, bool remote)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	struct dp_rc_pair pair = { &a, &b, &ca, &cb };
	struct uvio_mw mw = { .sz = sizeof(mw) };
	UVIO_OPTS(uvio_mw_attr, ma, .pd_handle = e->pd, .type = 2);
	const char *how = remote ? "SEND_WITH_INV" : "LOCAL_INV";
	struct uvio_mr wm;
	uint32_t key, got = 0;
	struct uvio_dp_sge s;
	uint8_t *win = e->buf + B_TGT;

	if (rc_pair_create(e, &pair, 16, 0x90 + 0x10 * remote, 0x98 + 0x10 * remote))
		goto out;
	KT_EQ(dp_reg_mr(e, win, 8192, IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE |
					 IB_UVERBS_ACCESS_MW_BIND, &wm), 0);
	KT_EQ(uvio_alloc_mw(e->dev, &ma, NULL, &mw, NULL), 0);
	key = (mw.rkey & ~0xffu) | ((mw.rkey + 1) & 0xff);

	/* The bind and, behind it, the key to B: one post, one doorbell. */
	recv1(&b, sge(e, B_RX, 64), 801);
	memcpy(e->buf + A_OFF, &key, 4);
	s = sge(e, A_OFF, 4);
	{
		struct uvio_dp_send_wr w[2] = {
			{ .wr_id = 800, .opcode = IB_UVERBS_WR_BIND_MW, .flags = UVIO_DP_SEND_SIGNALED,
			  .bind_mw = { .mw_rkey = mw.rkey, .new_rkey = key, .mr_lkey = wm.lkey,
				       .access = IB_UVERBS_ACCESS_REMOTE_WRITE,
				       .addr = (uintptr_t)win + 4096, .length = 4096 } },
			{ .wr_id = 802, .opcode = IB_UVERBS_WR_SEND, .flags = UVIO_DP_SEND_SIGNALED,
			  .sg_list = &s, .num_sge = 1 },
		};
		KT_EQ(uvio_dp_post_send(&a, w, 2, NULL), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 2), 2);
	expect_wc(&wc[0], 800, UVIO_WC_SUCCESS, UVIO_WC_BIND_MW, "BIND_MW");
	expect_wc(&wc[1], 802, UVIO_WC_SUCCESS, UVIO_WC_SEND, "the key's SEND after the bind");
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 801, UVIO_WC_SUCCESS, UVIO_WC_RECV, "the key");
	memcpy(&got, e->buf + B_RX, 4);
	KT_EQ(got, key);

	/* B writes 100 bytes through the window, 4196 bytes into win. */
	fill(e->buf + A_OFF + 8192, 100, 9);
	memset(win, 0, 8192);
	s = sge(e, A_OFF + 8192, 100);
	{
		struct uvio_dp_send_wr w = { .wr_id = 803, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1, .rdma = { (uintptr_t)win + 4196, got } };
		KT_EQ(post1(&b, &w), 0);
	}
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 803, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "RDMA_WRITE through the window");
	KT_EQ(memcmp(win + 4196, e->buf + A_OFF + 8192, 100), 0);
	KT_EQ(win[4195], 0);
	KT_EQ(win[4296], 0);

	if (remote) {
		recv1(&a, sge(e, A_OFF, 64), 804);
		s = sge(e, B_RX, 16);
		struct uvio_dp_send_wr si = { .wr_id = 805, .opcode = IB_UVERBS_WR_SEND_WITH_INV,
					      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					      .num_sge = 1, .invalidate_rkey = key };
		KT_EQ(post1(&b, &si), 0);
		KT_EQ(wait_wc(&cb, wc, 1), 1);
		expect_wc(&wc[0], 805, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND_WITH_INV");
		KT_EQ(wait_wc(&ca, wc, 1), 1);
		expect_wc(&wc[0], 804, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SEND_WITH_INV's receive");
		KT_CHECK(wc[0].wc_flags & UVIO_WC_WITH_INVALIDATE, "flags %#x", wc[0].wc_flags);
		KT_EQ(wc[0].invalidated_rkey, key);
	} else {
		struct uvio_dp_send_wr inv = { .wr_id = 805, .opcode = IB_UVERBS_WR_LOCAL_INV,
					       .flags = UVIO_DP_SEND_SIGNALED,
					       .invalidate_rkey = key };

		KT_EQ(post1(&a, &inv), 0);
		KT_EQ(wait_wc(&ca, wc, 1), 1);
		expect_wc(&wc[0], 805, UVIO_WC_SUCCESS, UVIO_WC_LOCAL_INV, "LOCAL_INV");
	}

	/* The key no longer opens the window. */
	memset(win, 0, 8192);
	s = sge(e, A_OFF + 8192, 100);
	{
		struct uvio_dp_send_wr w = { .wr_id = 806, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1, .rdma = { (uintptr_t)win + 4196, key } };

		KT_EQ(post1(&b, &w), 0);
	}
	KT_EQ(wait_wc(&cb, wc, 1), 1);
	expect_wc(&wc[0], 806, UVIO_WC_REM_ACCESS_ERR, wc[0].opcode, "WRITE after the invalidation");
	KT_EQ(win[4196], 0);
	printf("mw: type 2 window %#x: BIND_MW and SEND in one post, RDMA_WRITE through it, %s, "
	       "then WRITE refused (%s): ok\n", key, how, uvio_wc_status_name(wc[0].status));
	KT_EQ(uvio_dealloc_mw(e->dev, mw.handle, NULL), 0);
	KT_EQ(uvio_dereg_mr(e->dev, wm.handle, NULL), 0);
out:
	rc_pair_destroy(&pair);
}

static void memory_windows(struct dp_env *e)
{
	mw_round(e, false);
	mw_round(e, true);
}

int main(int argc, char **argv)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	const char *name = argc > 1 ? argv[1] : "mlx5_0";
	const char *only = getenv("KT_MLX5_DP_ONLY");
	struct dp_env e;

	KT_EQ(setrlimit(RLIMIT_MEMLOCK, &unlimited), 0);
	if (env_open(&e, name))
		return kt_exit();
	printf("device %s on %s\n", name, kt_kernel_release());
#define RUN(f)                                                                 \
	do {                                                                   \
		if (!only || strstr(only, #f)) {                               \
			int before = kt_failures;                              \
			uint64_t t0 = dp_now_ms();                                \
			f(&e);                                                 \
			printf("%s %s (%llu ms)\n", kt_failures == before ? "ok" : "not ok", #f, \
			       (unsigned long long)(dp_now_ms() - t0));           \
		}                                                              \
	} while (0)
	RUN(rc_opcodes);
	RUN(wrap);
	RUN(arm_and_wait);
	RUN(ud_send);
	RUN(srq_list);
	RUN(flush);
	RUN(resize);
	RUN(scatter_cqe);
	RUN(send_bound);
	RUN(reset_and_reuse);
	RUN(threads);
	RUN(memory_windows);
	dp_env_close(&e);
	KT_EQ(kt_rdma_res_count("qp", name, getpid()), 0);
	KT_EQ(kt_rdma_res_count("cq", name, getpid()), 0);
	KT_EQ(kt_rdma_res_count("mr", name, getpid()), 0);
	return kt_exit();
}
