/*
 * The data-path layer (<uvio/dp.h>) on the real kernel.
 *
 * rxe, in one guest over its loopback: two RC QPs at RTS against each
 * other move bytes with every opcode rxe has (bytes, immediates and atomics'
 * old values checked), UC and UD pairs with theirs, a WRITE to an MR without
 * remote write fails with the remote access error, a QP moved to ERR
 * flushes what was posted, a CQ overflows (CQ_ERR event) and is resized with
 * completions in flight, an SRQ is resized with receives in it and raises
 * its limit event, CQs are armed (next and solicited) and waited on through
 * the channel, and two threads post while a third polls one QP pair.
 * siw (no RTS without the iWARP connection manager): its queues are mapped,
 * receives posted, a QP in ERR flushes them, its CQ is armed through the
 * control word.
 * Both: the kernel's own data-path commands are refused before any system
 * call (on 5.10 the POLL_CQ of an rxe CQ that holds completions would
 * crash the kernel: the suite's console check fails on any oops).
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
#include <rdma/siw-abi.h>
#include "kt.h"
#include "kt_dp_lib.h"
#include "syscount.h"

static void rc_opcodes(struct dp_env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	struct dp_rc_pair pair = { &a, &b, &ca, &cb };
	struct uvio_dp_sge s[3];
	uint64_t *remote = (uint64_t *)(e->buf + ATOM);

	if (rc_pair_create(e, &pair, 64, 0xa, 0x1a))
		goto out;
	printf("rc: QPs %u and %u at RTS; send queue %u, inline %u\n", a.qp_num, b.qp_num,
	       uvio_dp_queue_capacity(&a.sq), a.cap.max_inline_data);

	/* SENDs, inline SEND with immediate, the two WRITEs (kt_dp_lib.c) */
	rc_send_three_sges(e, &pair, wc);
	rc_send_imm_inline(e, &pair, wc);
	rc_writes(e, &pair, wc);

	/* RDMA READ back into A. */
	fill(e->buf + B_TGT, 5000, 5);
	memset(e->buf + A_OFF, 0, 5000);
	s[0] = sge(e, A_OFF, 5000);
	{
		struct uvio_dp_send_wr w = { .wr_id = 5, .opcode = IB_UVERBS_WR_RDMA_READ,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 5, UVIO_WC_SUCCESS, UVIO_WC_RDMA_READ, "RDMA_READ");
	KT_EQ(wc[0].byte_len, 5000);
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 5000), 0);

	/* Atomics: the remote's old value comes back, the remote changes. */
	rc_fetch_add(e, &pair, wc);
	rc_cmp_swap(e, &pair, wc);
	/* An atomic needs exactly one 8-byte SGE: refused at post. */
	{
		struct uvio_dp_sge four = sge(e, ATOM + 64, 4);
		struct uvio_dp_send_wr w = { .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
					     .sg_list = &four, .num_sge = 1,
					     .atomic = { .remote_addr = (uintptr_t)remote,
							 .rkey = e->mr.rkey } };
		uint32_t bad = 9;
		KT_EQ(uvio_dp_post_send(&a, &w, 1, &bad), -EINVAL);
		KT_EQ(bad, 0);
	}

	/* Unsignaled WRs complete silently: three posted, one completion. */
	recv1(&b, sge(e, B_RX, 64), 103);
	recv1(&b, sge(e, B_RX, 64), 104);
	recv1(&b, sge(e, B_RX, 64), 105);
	s[0] = sge(e, A_OFF, 64);
	{
		struct uvio_dp_send_wr w[3];

		for (int i = 0; i < 3; i++)
			w[i] = (struct uvio_dp_send_wr){ .wr_id = 10 + (uint64_t)i,
							 .opcode = IB_UVERBS_WR_SEND,
							 .flags = i == 2 ? UVIO_DP_SEND_SIGNALED : 0,
							 .sg_list = s, .num_sge = 1 };
		KT_EQ(uvio_dp_post_send(&a, w, 3, NULL), 0);
	}
	KT_EQ(wait_wc(&cb, wc, 3), 3);
	KT_EQ(wait_wc(&ca, wc, 1), 1);
	expect_wc(&wc[0], 12, UVIO_WC_SUCCESS, UVIO_WC_SEND, "the signaled one of three");
	usleep(20000);
	KT_EQ(uvio_dp_poll_cq(&ca, wc, 8), 0);

	/* Memory windows (type 2, rxe on 5.12+): bind on A, B writes
	 * through it, A invalidates it locally; bound again, B's
	 * SEND_WITH_INV invalidates it remotely. */
	{
		struct uvio_mw mw = { .sz = sizeof(mw) };
		UVIO_OPTS(uvio_mw_attr, ma, .pd_handle = e->pd, .type = 2);
		int err = uvio_alloc_mw(e->dev, &ma, NULL, &mw, NULL);

		if (err) {
			printf("rc: no type 2 window on this kernel (%d): BIND_MW, LOCAL_INV and "
			       "SEND_WITH_INV not run\n", err);
			KT_CHECK(!kt_kernel_ge(6, 1), "alloc_mw: %d", err);
		} else {
			uint32_t key1 = (mw.rkey & ~0xffu) | ((mw.rkey + 1) & 0xff);
			uint32_t key2 = (mw.rkey & ~0xffu) | ((mw.rkey + 2) & 0xff);
			struct uvio_dp_send_wr bind = {
				.wr_id = 20, .opcode = IB_UVERBS_WR_BIND_MW,
				.flags = UVIO_DP_SEND_SIGNALED,
				.bind_mw = { .mw_rkey = mw.rkey, .new_rkey = key1,
					     .mr_lkey = e->mr.lkey,
					     .access = IB_UVERBS_ACCESS_REMOTE_WRITE,
					     .addr = (uintptr_t)(e->buf + B_TGT), .length = 4096 } };
			struct uvio_dp_send_wr inv = { .wr_id = 21, .opcode = IB_UVERBS_WR_LOCAL_INV,
						       .flags = UVIO_DP_SEND_SIGNALED,
						       .invalidate_rkey = key1 };

			KT_EQ(post1(&a, &bind), 0);
			KT_EQ(wait_wc(&ca, wc, 1), 1);
			expect_wc(&wc[0], 20, UVIO_WC_SUCCESS, UVIO_WC_BIND_MW, "BIND_MW");
			fill(e->buf + A_OFF + 8192, 100, 6);
			memset(e->buf + B_TGT, 0, 4096);
			s[0] = sge(e, A_OFF + 8192, 100);
			struct uvio_dp_send_wr wr = { .wr_id = 22, .opcode = IB_UVERBS_WR_RDMA_WRITE,
						      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
						      .num_sge = 1,
						      .rdma = { (uintptr_t)(e->buf + B_TGT + 100),
								key1 } };
			KT_EQ(post1(&b, &wr), 0);
			KT_EQ(wait_wc(&cb, wc, 1), 1);
			expect_wc(&wc[0], 22, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE,
				  "RDMA_WRITE through the window");
			KT_EQ(memcmp(e->buf + B_TGT + 100, e->buf + A_OFF + 8192, 100), 0);
			KT_EQ(post1(&a, &inv), 0);
			KT_EQ(wait_wc(&ca, wc, 1), 1);
			expect_wc(&wc[0], 21, UVIO_WC_SUCCESS, UVIO_WC_LOCAL_INV, "LOCAL_INV");

			/* The window's rkey is key1 now: the next bind names it. */
			bind.wr_id = 23;
			bind.bind_mw.mw_rkey = key1;
			bind.bind_mw.new_rkey = key2;
			KT_EQ(post1(&a, &bind), 0);
			KT_EQ(wait_wc(&ca, wc, 1), 1);
			expect_wc(&wc[0], 23, UVIO_WC_SUCCESS, UVIO_WC_BIND_MW, "BIND_MW again");
			recv1(&a, sge(e, A_OFF, 64), 24);
			s[0] = sge(e, B_RX, 16);
			struct uvio_dp_send_wr si = { .wr_id = 25, .opcode = IB_UVERBS_WR_SEND_WITH_INV,
						      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
						      .num_sge = 1, .invalidate_rkey = key2 };
			KT_EQ(post1(&b, &si), 0);
			KT_EQ(wait_wc(&cb, wc, 1), 1);
			expect_wc(&wc[0], 25, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND_WITH_INV");
			KT_EQ(wait_wc(&ca, wc, 1), 1);
			expect_wc(&wc[0], 24, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SEND_WITH_INV's receive");
			KT_CHECK(wc[0].wc_flags & UVIO_WC_WITH_INVALIDATE, "flags %#x", wc[0].wc_flags);
			KT_EQ(wc[0].invalidated_rkey, key2);
			KT_EQ(uvio_dealloc_mw(e->dev, mw.handle, NULL), 0);
			printf("rc: BIND_MW, RDMA_WRITE through the window, LOCAL_INV, SEND_WITH_INV: ok\n");
		}
	}

	/* A WRITE to an MR without remote write: the remote access error,
	 * and the QP goes to ERR: what is posted after it flushes. */
	{
		struct uvio_mr ro;

		rc_post_write_no_access(e, &pair, &ro);
		if (!kt_kernel_ge(6, 1)) {
			/* 5.10 (seen in every run): the responder's QP goes to
			 * ERR, but no NAK reaches the requester and its retry
			 * timer does not fire; nothing completes. */
			UVIO_OPTS(uvio_qp_attr, q);

			KT_EQ(wait_wc_ms(&ca, wc, 2, 2000), 0);
			KT_EQ(uvio_query_qp(e->dev, b.handle, 0, &q, NULL), 0);
			KT_EQ(q.qp_state, UVIO_QPS_ERR);
			printf("rc: WRITE without remote access on %s: the target QP is in ERR, "
			       "the requester gets no completion (this kernel's rxe)\n",
			       kt_kernel_release());
		} else {
			KT_EQ(wait_wc(&ca, wc, 2), 2);
			expect_wc(&wc[0], 30, UVIO_WC_REM_ACCESS_ERR, wc[0].opcode,
				  "WRITE without access");
			expect_wc(&wc[1], 31, UVIO_WC_WR_FLUSH_ERR, wc[1].opcode, "the WR after it");
			printf("rc: WRITE without remote access: %s, then %s\n",
			       uvio_wc_status_name(wc[0].status), uvio_wc_status_name(wc[1].status));
		}
		KT_EQ(uvio_dereg_mr(e->dev, ro.handle, NULL), 0);
	}
out:
	rc_pair_destroy(&pair);
}

/* UC: sends and writes; READ and atomics are no UC opcodes. */
static void uc_opcodes(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[8];
	struct uvio_dp_sge s = sge(e, A_OFF, 2048);
	uint32_t bad;

	make_cq(e, &cq, 64, 0xc);
	make_qp(e, &a, IB_UVERBS_QPT_UC, &cq, NULL, 0x2a);
	make_qp(e, &b, IB_UVERBS_QPT_UC, &cq, NULL, 0x2b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	fill(e->buf + A_OFF, 2048, 9);
	memset(e->buf + B_RX, 0, 4096);
	memset(e->buf + B_TGT, 0, 4096);
	recv1(&b, sge(e, B_RX, 4096), 200);
	recv1(&b, sge(e, B_RX + 2048, 16), 201);
	struct uvio_dp_send_wr w[3] = {
		{ .wr_id = 40, .opcode = IB_UVERBS_WR_SEND_WITH_IMM, .flags = UVIO_DP_SEND_SIGNALED,
		  .sg_list = &s, .num_sge = 1, .imm_data = htonl(77) },
		{ .wr_id = 41, .opcode = IB_UVERBS_WR_RDMA_WRITE, .flags = UVIO_DP_SEND_SIGNALED,
		  .sg_list = &s, .num_sge = 1, .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } },
		{ .wr_id = 42, .opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
		  .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s, .num_sge = 1, .imm_data = htonl(78),
		  .rdma = { (uintptr_t)(e->buf + B_TGT + 2048), e->mr.rkey } },
	};
	KT_EQ(uvio_dp_post_send(&a, w, 3, NULL), 0);
	KT_EQ(wait_wc(&cq, wc, 5), 5);
	int sends = 0, recvs = 0;
	for (int i = 0; i < 5; i++) {
		KT_CHECK(wc[i].status == UVIO_WC_SUCCESS, "uc wc %d: %s", i,
			 uvio_wc_status_name(wc[i].status));
		if (wc[i].qp_num == a.qp_num)
			sends++;
		else if (wc[i].opcode == UVIO_WC_RECV) {
			recvs++;
			KT_EQ(ntohl(wc[i].imm_data), 77);
			KT_EQ(wc[i].byte_len, 2048);
		} else {
			recvs++;
			KT_EQ(wc[i].opcode, UVIO_WC_RECV_RDMA_WITH_IMM);
			KT_EQ(ntohl(wc[i].imm_data), 78);
		}
	}
	KT_EQ(sends, 3);
	KT_EQ(recvs, 2);
	KT_EQ(memcmp(e->buf + B_RX, e->buf + A_OFF, 2048), 0);
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 2048), 0);
	KT_EQ(memcmp(e->buf + B_TGT + 2048, e->buf + A_OFF, 2048), 0);
	{
		struct uvio_dp_send_wr r = { .opcode = IB_UVERBS_WR_RDMA_READ, .sg_list = &s,
					     .num_sge = 1 };
		KT_EQ(uvio_dp_post_send(&a, &r, 1, &bad), -EOPNOTSUPP);
	}
	/* A QP in ERR flushes its receives. */
	recv1(&b, sge(e, B_RX, 64), 202);
	recv1(&b, sge(e, B_RX, 64), 203);
	KT_EQ(to_err(e, &b), 0);
	KT_EQ(wait_wc(&cq, wc, 2), 2);
	/* (an error completion's opcode is undefined: rxe leaves it 0) */
	expect_wc(&wc[0], 202, UVIO_WC_WR_FLUSH_ERR, wc[0].opcode, "flushed receive");
	expect_wc(&wc[1], 203, UVIO_WC_WR_FLUSH_ERR, wc[1].opcode, "flushed receive");
	printf("uc: SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, flush on ERR: ok\n");

	/* A receive posted to a QP already in ERR: post_recv makes no system
	 * call, so it is flushed only when the kernel next runs the QP's
	 * queues, if ever. The library leaves that to the kernel (uvio_dp(3)
	 * says so per kernel); this records and holds each kernel to it. */
	{
		struct uvio_dp_send_wr sw = { .wr_id = 205, .opcode = IB_UVERBS_WR_SEND,
					      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					      .num_sge = 1 };
		int early, late = 0, recv_flushed = 0;

		recv1(&b, sge(e, B_RX, 64), 204);
		early = wait_wc_ms(&cq, wc, 1, 500);
		KT_EQ(uvio_dp_post_send(&b, &sw, 1, &bad), 0);	/* a doorbell on the QP */
		late = wait_wc_ms(&cq, wc + early, 2, 3000);
		for (int i = 0; i < early + late; i++) {
			KT_EQ(wc[i].status, UVIO_WC_WR_FLUSH_ERR);
			recv_flushed += wc[i].wr_id == 204;
		}
		printf("uc: a receive posted to a QP in ERR on %s: %d completion(s) before any "
		       "doorbell, %d after a send's doorbell; the receive %s\n", kt_kernel_release(),
		       early, late, recv_flushed ? "flushed" : "never completed");
		/* Seen on each kernel: 5.10 completes neither the receive nor
		 * the send; 6.1 flushes the send only; 6.12 and 7.2 both, at
		 * the send's doorbell. */
		KT_EQ(early, 0);
		if (kt_kernel_ge(6, 12)) {
			KT_EQ(late, 2);
			KT_EQ(recv_flushed, 1);
		} else if (kt_kernel_ge(6, 1)) {
			KT_EQ(late, 1);
			KT_EQ(recv_flushed, 0);
		} else {
			KT_EQ(late, 0);
		}
	}
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
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
		  .av = { .is_global = 1, .port_num = 1, .sgid_index = 1, .hop_limit = 64 });

	memcpy(aa.av.dgid, e->gid, 16);
	make_cq(e, &cq, 64, 0xd);
	make_qp(e, &a, IB_UVERBS_QPT_UD, &cq, NULL, 0x3a);
	make_qp(e, &b, IB_UVERBS_QPT_UD, &cq, NULL, 0x3b);
	err = uvio_dp_create_ah(e->dev, &aa, &ah);
	if (err == -EOPNOTSUPP && !kt_kernel_ge(6, 1)) {
		/* 5.10: no AH numbers; the layer says so rather than send nothing */
		printf("ud: refused on %s: %s\n", kt_kernel_release(), uvio_last_error());
		KT_CHECK(strstr(uvio_last_error(), "5.13"), "%s", uvio_last_error());
		goto out_qps;
	}
	KT_EQ(err, 0);
	printf("ud: AH %u, AH number %u\n", ah.handle, ah.ah_num);
	if (connect_qp(e, &a, 0) || connect_qp(e, &b, 0))
		goto out;
	fill(e->buf + A_OFF, 512, 11);
	memset(e->buf + B_RX, 0, 1024);
	recv1(&b, sge(e, B_RX, 40 + 512), 300);
	struct uvio_dp_send_wr w = { .wr_id = 50, .opcode = IB_UVERBS_WR_SEND_WITH_IMM,
				     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s, .num_sge = 1,
				     .imm_data = htonl(5),
				     .ud = { .ah = &ah, .remote_qpn = b.qp_num,
					     .remote_qkey = 0x11111111 } };
	KT_EQ(post1(&a, &w), 0);
	KT_EQ(wait_wc(&cq, wc, 2), 2);
	for (int i = 0; i < 2; i++) {
		if (wc[i].wr_id == 50) {
			expect_wc(&wc[i], 50, UVIO_WC_SUCCESS, UVIO_WC_SEND, "UD send");
		} else {
			expect_wc(&wc[i], 300, UVIO_WC_SUCCESS, UVIO_WC_RECV, "UD receive");
			KT_EQ(wc[i].byte_len, 40 + 512);
			KT_EQ(wc[i].src_qp, a.qp_num);
			KT_EQ(ntohl(wc[i].imm_data), 5);
			KT_CHECK(wc[i].wc_flags & UVIO_WC_GRH, "flags %#x", wc[i].wc_flags);
		}
	}
	KT_EQ(memcmp(e->buf + B_RX + 40, e->buf + A_OFF, 512), 0);
	{	/* A UD send needs its AH. */
		struct uvio_dp_send_wr n = { .opcode = IB_UVERBS_WR_SEND, .sg_list = &s, .num_sge = 1 };
		KT_EQ(uvio_dp_post_send(&a, &n, 1, NULL), -EINVAL);
	}
	printf("ud: SEND_WITH_IMM through an AH: ok\n");
out:
	KT_EQ(uvio_dp_destroy_ah(&ah), 0);
out_qps:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* Read one async event (bounded wait); 0 or -ETIMEDOUT. */
static int async_event(struct dp_env *e, struct uvio_async_event *ev, int ms)
{
	struct pollfd p = { .fd = e->ctx.async_fd, .events = POLLIN };

	if (poll(&p, 1, ms) != 1)
		return -ETIMEDOUT;
	ev->sz = sizeof(*ev);
	return uvio_get_async_event(e->ctx.async_fd, ev);
}

/* CQ overflow, and a resize with completions in flight. */
static void cq_sizes(struct dp_env *e)
{
	struct uvio_dp_cq small, cq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[64];
	struct uvio_dp_sge s = sge(e, A_OFF, 8);
	struct uvio_async_event ev;
	uint32_t cap;

	/* Resize: 6 completions wait in a CQ of 8, which grows to 64. */
	make_cq(e, &cq, 8, 0xe);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x4a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cq, NULL, 0x4b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	for (uint64_t i = 0; i < 6; i++) {
		struct uvio_dp_send_wr w = { .wr_id = 60 + i, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	usleep(100000);
	cap = uvio_dp_queue_capacity(&cq.q);
	KT_EQ(uvio_dp_resize_cq(&cq, 64), 0);
	printf("cq: resized from %u to %u entries (granted %u) with 6 completions in it\n", cap,
	       uvio_dp_queue_capacity(&cq.q), cq.cqe);
	KT_CHECK(uvio_dp_queue_capacity(&cq.q) >= 64, "capacity %u", uvio_dp_queue_capacity(&cq.q));
	KT_EQ(wait_wc(&cq, wc, 6), 6);
	for (int i = 0; i < 6; i++)
		expect_wc(&wc[i], 60 + (uint64_t)i, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE,
			  "completion kept across the resize");
	{
		struct uvio_dp_send_wr w = { .wr_id = 66, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
		KT_EQ(wait_wc(&cq, wc, 1), 1);
		expect_wc(&wc[0], 66, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "after the resize");
	}
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);

	/* Overflow: more completions than the CQ holds raise CQ_ERR. */
	make_cq(e, &small, 4, 0xf);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &small, NULL, 0x4c);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cq, NULL, 0x4d);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out2;
	cap = uvio_dp_queue_capacity(&small.q);
	for (uint64_t i = 0; i < cap + 2; i++) {
		struct uvio_dp_send_wr w = { .wr_id = 70 + i, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(async_event(e, &ev, 3000), 0);
	KT_EQ(ev.type, UVIO_EVENT_CQ_ERR);
	KT_EQ(ev.element, 0xf);
	KT_EQ(uvio_dp_poll_cq(&small, wc, 64), (int)cap);
	printf("cq: %u completions into a CQ of %u: %s event, %u kept\n", cap + 2, cap,
	       uvio_event_type_name(ev.type), cap);
out2:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&small, NULL), 0);
	/* a QP event may have come with the CQ's: whatever is left is read */
	while (async_event(e, &ev, 100) == 0)
		printf("cq: then %s\n", uvio_event_type_name(ev.type));
out:
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* SRQ: receives through it, a resize with receives in it, the limit event. */
static void srq_limit(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_srq srq;
	struct uvio_dp_qp a, b;
	struct uvio_dp_wc wc[16];
	struct uvio_dp_sge s = sge(e, A_OFF, 100);
	struct uvio_async_event ev;
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = e->pd, .user_handle = 0x5e, .max_wr = 16,
		  .max_sge = 2);
	UVIO_OPTS(uvio_srq_modify, grow, .attr_mask = UVIO_SRQ_MAX_WR, .max_wr = 64);
	UVIO_OPTS(uvio_srq_modify, limit, .attr_mask = UVIO_SRQ_LIMIT, .srq_limit = 4);

	make_cq(e, &cq, 64, 0x10);
	KT_EQ(uvio_dp_create_srq(e->dev, &sa, &srq), 0);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x5a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cq, &srq, 0x5b);
	if (connect_qp(e, &a, b.qp_num) || connect_qp(e, &b, a.qp_num))
		goto out;
	for (uint64_t i = 0; i < 8; i++) {
		struct uvio_dp_sge r = sge(e, B_RX + i * 128, 128);
		struct uvio_dp_recv_wr w = { .wr_id = 400 + i, .sg_list = &r, .num_sge = 1 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &w, 1, NULL), 0);
	}
	KT_EQ(uvio_dp_post_recv(&b, NULL, 0, NULL), -EINVAL);	/* receives go to the SRQ */
	KT_EQ(uvio_dp_modify_srq(&srq, &grow), 0);
	printf("srq: %u entries after the resize (8 receives in it)\n",
	       uvio_dp_queue_capacity(&srq.q));
	KT_CHECK(uvio_dp_queue_capacity(&srq.q) >= 64, "capacity %u",
		 uvio_dp_queue_capacity(&srq.q));
	KT_EQ(uvio_dp_modify_srq(&srq, &limit), 0);
	fill(e->buf + A_OFF, 100, 12);
	for (uint64_t i = 0; i < 5; i++) {	/* 8 - 5 = 3 left: below the limit of 4 */
		struct uvio_dp_send_wr w = { .wr_id = 80 + i, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1 };
		KT_EQ(post1(&a, &w), 0);
	}
	KT_EQ(wait_wc(&cq, wc, 10), 10);
	int recvs = 0;
	for (int i = 0; i < 10; i++) {
		KT_CHECK(wc[i].status == UVIO_WC_SUCCESS, "srq wc %d: %s", i,
			 uvio_wc_status_name(wc[i].status));
		if (wc[i].opcode == UVIO_WC_RECV) {
			KT_EQ(wc[i].wr_id, 400 + (uint64_t)recvs);
			KT_EQ(memcmp(e->buf + B_RX + recvs * 128, e->buf + A_OFF, 100), 0);
			recvs++;
		}
	}
	KT_EQ(recvs, 5);
	KT_EQ(async_event(e, &ev, 3000), 0);
	KT_EQ(ev.type, UVIO_EVENT_SRQ_LIMIT_REACHED);
	KT_EQ(ev.element, 0x5e);
	printf("srq: 5 of 8 receives used, limit 4: %s\n", uvio_event_type_name(ev.type));
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_srq(&srq, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* Arm (next, then solicited only) and wait on the channel. */
static void arm_and_wait(struct dp_env *e)
{
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct dp_rc_pair pair = { &a, &b, &ca, &cb };

	if (rc_pair_create(e, &pair, 16, 0x6a, 0x6a))
		goto out;
	rc_arm_next_and_solicited(e, &pair, 0x6b);
	printf("arm: next and solicited-only events: ok\n");
out:
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	{	/* two events were read: the destroy says so */
		UVIO_OPTS(uvio_events_reported, rep);

		KT_EQ(uvio_dp_destroy_cq(&cb, &rep), 0);
		KT_EQ(rep.comp_events_reported, 2);
	}
	KT_EQ(uvio_dp_destroy_cq(&ca, NULL), 0);
}

/* Two threads post SENDs on one QP while a third polls its CQ and the
 * peer's (kt_dp_lib.c); each message carries its wr_id, which the receiver
 * checks. */
static unsigned PER_THREAD = DP_MT_MAX_PER_THREAD;	/* 300 under KT_QUICK (memcheck) */

static void threads(struct dp_env *e)
{
	struct dp_mt_result r = dp_threads(e, PER_THREAD, 1);

	if (!r.ran)
		return;
	KT_EQ(r.errors, 0);
	KT_EQ(r.sends_done, 2 * PER_THREAD);
	KT_EQ(r.recvs_done, 2 * PER_THREAD);
	printf("threads: 2 posters x %u SENDs, 1 poller: %u send and %u receive completions, "
	       "%d errors, %llu ms\n", PER_THREAD, r.sends_done, r.recvs_done, r.errors,
	       (unsigned long long)r.ms);
}

/* The kernel's own data-path commands: refused before any system call,
 * here with completions in the CQ (5.10's POLL_CQ would crash on it). */
static void kernel_commands(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp a, b;
	struct ib_uverbs_send_wr kwr = { .wr_id = 1, .num_sge = 1, .opcode = IB_UVERBS_WR_SEND };
	struct ib_uverbs_recv_wr krw = { .wr_id = 2, .num_sge = 1 };
	struct ib_uverbs_sge ks = { (uintptr_t)e->buf, 8, e->mr.lkey };
	struct ib_uverbs_wc kwc[4];
	struct uvio_dp_wc wc[4];
	uint32_t n = 9, bad = 9;
	long i0, w0;

	make_cq(e, &cq, 16, 0x8);
	make_qp(e, &a, IB_UVERBS_QPT_RC, &cq, NULL, 0x8a);
	make_qp(e, &b, IB_UVERBS_QPT_RC, &cq, NULL, 0x8b);
	if (!e->siw) {
		struct uvio_dp_sge s = sge(e, A_OFF, 8);
		struct uvio_dp_send_wr w = { .wr_id = 1, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };

		if (!connect_qp(e, &a, b.qp_num) && !connect_qp(e, &b, a.qp_num))
			KT_EQ(post1(&a, &w), 0);
		usleep(100000);	/* the completion sits in the ring */
	}
	syscount_fd = uvio_device_fd(e->dev);
	i0 = syscount_ioctls;
	w0 = syscount_writes;
	KT_EQ(uvio_post_send(e->dev, a.handle, &kwr, 1, &ks, 1, &bad, NULL), -EOPNOTSUPP);
	KT_CHECK(strstr(uvio_last_error(), "uvio_dp_post_send()"), "%s", uvio_last_error());
	KT_EQ(uvio_post_recv(e->dev, a.handle, &krw, 1, &ks, 1, &bad, NULL), -EOPNOTSUPP);
	KT_EQ(uvio_post_srq_recv(e->dev, 0, &krw, 1, &ks, 1, &bad, NULL), -EOPNOTSUPP);
	KT_EQ(uvio_poll_cq(e->dev, cq.handle, kwc, 4, &n, NULL), -EOPNOTSUPP);
	KT_CHECK(strstr(uvio_last_error(), "uvio_dp_poll_cq()"), "%s", uvio_last_error());
	KT_EQ(n, 0);
	if (e->siw)
		KT_EQ(uvio_req_notify_cq(e->dev, cq.handle, 0, NULL), -EOPNOTSUPP);
	KT_EQ(syscount_ioctls - i0, 0);
	KT_EQ(syscount_writes - w0, 0);
	syscount_fd = -1;
	printf("kernel commands: POST_SEND with WRs, POST_RECV, POST_SRQ_RECV, POLL_CQ%s "
	       "refused with no system call: %s\n", e->siw ? ", REQ_NOTIFY_CQ" : "",
	       uvio_last_error());
	if (!e->siw) {
		KT_EQ(wait_wc(&cq, wc, 1), 1);
		expect_wc(&wc[0], 1, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "the ring's completion");
	}
	KT_EQ(uvio_dp_destroy_qp(&a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

/* siw before RTS: queues mapped, receives posted, sends refused by the
 * doorbell, and ERR flushes the receives. */
static void siw_queues(struct dp_env *e)
{
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	struct uvio_dp_srq srq;
	struct uvio_dp_wc wc[16];
	struct uvio_dp_sge s = sge(e, A_OFF, 64);
	struct uvio_dp_send_wr w = { .wr_id = 1, .opcode = IB_UVERBS_WR_SEND,
				     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s, .num_sge = 1 };
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = e->pd, .max_wr = 8, .max_sge = 1);
	UVIO_OPTS(uvio_qp_attr, init, .qp_state = UVIO_QPS_INIT, .port_num = 1,
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
			       UVIO_QP_ACCESS_FLAGS);
	uint32_t bad = 9;
	int err;

	make_cq(e, &cq, 16, 0x9);
	make_qp(e, &qp, IB_UVERBS_QPT_RC, &cq, NULL, 0x9a);
	printf("siw: CQ of %u, send queue %u, receive queue %u mapped\n",
	       uvio_dp_queue_capacity(&cq.q), uvio_dp_queue_capacity(&qp.sq),
	       uvio_dp_queue_capacity(&qp.rq));
	KT_EQ(uvio_modify_qp(e->dev, qp.handle, &init, NULL, NULL), 0);
	for (uint64_t i = 0; i < 3; i++)
		recv1(&qp, sge(e, B_RX, 64), 600 + i);
	/* No RTS without the connection manager: the doorbell says so, and
	 * the WQE stays published. */
	err = uvio_dp_post_send(&qp, &w, 1, &bad);
	KT_EQ(err, -ENOTCONN);
	KT_EQ(bad, 1);
	/* Not supported by siw for user QPs: refused before the ring. */
	w.opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD;
	KT_EQ(uvio_dp_post_send(&qp, &w, 1, &bad), -EOPNOTSUPP);
	KT_EQ(bad, 0);
	KT_EQ(uvio_dp_arm_cq(&cq, 0), 0);
	KT_EQ(*cq.notify, SIW_NOTIFY_SOLICITED | SIW_NOTIFY_NEXT_COMPLETION);
	KT_EQ(to_err(e, &qp), 0);
	int got = wait_wc_ms(&cq, wc, 4, 1000);
	int recvs = 0, sends = 0;
	for (int i = 0; i < got; i++) {
		KT_EQ(wc[i].status, UVIO_WC_WR_FLUSH_ERR);
		if (wc[i].opcode == UVIO_WC_RECV) {
			KT_EQ(wc[i].wr_id, 600 + (uint64_t)recvs);
			recvs++;
		} else {
			sends++;
		}
	}
	KT_EQ(recvs, 3);
	printf("siw: ERR flushed %d receives and %d sends (%s)\n", recvs, sends,
	       got ? uvio_wc_status_name(wc[0].status) : "-");
	/* What siw does with sends of a QP that never reached RTS (seen on
	 * 6.1: the doorbell answers 0 and nothing is flushed; the entries
	 * stay until the QP is destroyed). */
	w.opcode = IB_UVERBS_WR_SEND;
	err = uvio_dp_post_send(&qp, &w, 1, &bad);
	got = wait_wc_ms(&cq, wc, 2, 500);
	printf("siw: a send posted in ERR: %d, then %d completions", err, got);
	for (int i = 0; i < got; i++)
		printf(" [%llu %s %s]", (unsigned long long)wc[i].wr_id, uvio_wc_opcode_name(wc[i].opcode),
		       uvio_wc_status_name(wc[i].status));
	printf("\n");
	/* The control word asked for an event: it came, and the kernel
	 * cleared the word. */
	KT_EQ(comp_event(e, 0x9, 3000), 0);
	KT_EQ(*cq.notify, 0);
	KT_EQ(uvio_dp_create_srq(e->dev, &sa, &srq), 0);
	for (uint64_t i = 0; i < 4; i++) {
		struct uvio_dp_recv_wr r = { .wr_id = i, .sg_list = &s, .num_sge = 1 };

		KT_EQ(uvio_dp_post_srq_recv(&srq, &r, 1, NULL), 0);
	}
	printf("siw: SRQ of %u mapped, 4 receives posted\n", uvio_dp_queue_capacity(&srq.q));
	KT_EQ(uvio_dp_resize_cq(&cq, 64), -EOPNOTSUPP);
	KT_EQ(uvio_dp_destroy_srq(&srq, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&qp, NULL), 0);
	{
		UVIO_OPTS(uvio_events_reported, rep);

		KT_EQ(uvio_dp_destroy_cq(&cq, &rep), 0);
		KT_EQ(rep.comp_events_reported, 1);
	}
}

/*
 * uvio_dp_qp_opcodes() against post_send on the driver's own QPs (RC, and
 * on rxe UC and UD): each opcode 0..31 posted once on a fresh QP in RESET.
 * One the mask names is written to the ring (0, or the doorbell's refusal
 * before RTS with every WR published: *bad == 1); any other is -EOPNOTSUPP
 * before it is written (*bad == 0). The WQEs never run; the QP is
 * destroyed with them.
 */
static void opcode_query(struct dp_env *e)
{
	static const uint32_t types[] = { IB_UVERBS_QPT_RC, IB_UVERBS_QPT_UC, IB_UVERBS_QPT_UD };
	struct uvio_dp_sge sg = { (uintptr_t)e->buf, 8, e->mr.lkey };
	struct uvio_dp_ah ah = { .ah_num = 1 };	/* UD: a number, never used */
	struct uvio_dp_cq cq;

	make_cq(e, &cq, 64, 1);
	for (size_t t = 0; t < (e->siw ? 1u : 3u); t++) {
		struct uvio_dp_qp qp;
		uint64_t mask = 0;
		int took = 0;

		make_qp(e, &qp, types[t], &cq, NULL, 2);
		KT_EQ(uvio_dp_qp_opcodes(&qp, &mask), 0);
		for (uint32_t op = 0; op < 32; op++) {
			struct uvio_dp_send_wr wr = { .wr_id = op, .opcode = op, .sg_list = &sg,
						      .num_sge = 1 };
			uint32_t bad = 99;
			int ret;

			wr.ud.ah = types[t] == IB_UVERBS_QPT_UD ? &ah : NULL;
			ret = uvio_dp_post_send(&qp, &wr, 1, &bad);
			if ((mask >> op) & 1) {
				KT_CHECK(ret == 0 || bad == 1, "type %u opcode %u in the mask: %d "
					 "(bad %u): %s", types[t], op, ret, bad, uvio_last_error());
				took++;
			} else {
				KT_CHECK(ret == -EOPNOTSUPP && bad == 0, "type %u opcode %u not in "
					 "the mask: %d (bad %u)", types[t], op, ret, bad);
			}
		}
		printf("opcodes: QP type %u takes mask 0x%llx (%d opcodes), post agrees\n",
		       types[t], (unsigned long long)mask, took);
		/* rxe's RC mask holds ATOMIC_WRITE whatever the kernel (the
		 * driver's mask: an older kernel errs the completion). */
		KT_EQ(took, e->siw ? 4 : types[t] == IB_UVERBS_QPT_RC ? 11 :
			    types[t] == IB_UVERBS_QPT_UC ? 4 : 2);
		KT_EQ(uvio_dp_destroy_qp(&qp, NULL), 0);
	}
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
}

int main(void)
{
	struct uvio_device_info devs[8];
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	int n = uvio_list_devices(devs, 8);

	/* siw on 5.10 checks the pinned pages against RLIMIT_MEMLOCK even
	 * for root, and that kernel's default is 64 KiB. */
	KT_EQ(setrlimit(RLIMIT_MEMLOCK, &unlimited), 0);
	if (getenv("KT_QUICK"))
		PER_THREAD = DP_MT_MAX_PER_THREAD / 10;

	KT_CHECK(n > 0, "no device: %d", n);
	for (int i = 0; i < n && i < 8; i++) {
		struct dp_env e;
		bool is_siw = devs[i].driver_id == RDMA_DRIVER_SIW;

		/* rxe connects through GID index 1, its RoCE v2 IPv4 GID;
		 * siw has none (no RTS without the iWARP CM) and no MWs */
		if (dp_env_open(&e, devs[i].name, is_siw,
				DP_ACCESS_ALL | (is_siw ? 0 : IB_UVERBS_ACCESS_MW_BIND),
				is_siw ? -1 : 1))
			continue;
		printf("device %s (%s) on %s\n", devs[i].name, e.siw ? "siw" : "rxe",
		       kt_kernel_release());
		kernel_commands(&e);
		opcode_query(&e);
		if (e.siw) {
			siw_queues(&e);
		} else {
			rc_opcodes(&e);
			uc_opcodes(&e);
			ud_send(&e);
			cq_sizes(&e);
			srq_limit(&e);
			arm_and_wait(&e);
			threads(&e);
		}
		dp_env_close(&e);
		KT_EQ(kt_rdma_res_count("qp", devs[i].name, getpid()), 0);
		KT_EQ(kt_rdma_res_count("cq", devs[i].name, getpid()), 0);
	}
	return kt_exit();
}
