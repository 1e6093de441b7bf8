/* Shared by the data-path test programs: see kt_dp_lib.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rdma/siw-abi.h>
#include "kt_dp_lib.h"

uint64_t dp_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

int dp_reg_mr(struct dp_env *e, void *addr, size_t len, uint32_t access, struct uvio_mr *mr)
{
	struct siw_ureq_reg_mr req = { .stag_key = 0 };
	struct siw_uresp_reg_mr resp;
	UVIO_OPTS(uvio_mr_attr, a, .pd_handle = e->pd, .addr = addr, .length = len,
		  .iova = (uintptr_t)addr, .access = access);
	UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req), .out = &resp,
		  .out_len = sizeof(resp));

	mr->sz = sizeof(*mr);
	return uvio_reg_mr(e->dev, &a, e->siw ? &drv : NULL, mr, NULL);
}

int dp_env_open(struct dp_env *e, const char *name, bool siw, uint32_t access, int gid_index)
{
	struct uvio_gid_entry g;

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->siw = siw;
	e->gid_index = gid_index;
	KT_EQ(uvio_device_open(name, &e->dev), 0);
	if (!e->dev)
		return -1;
	e->ctx.sz = sizeof(e->ctx);
	KT_EQ(uvio_get_context(e->dev, NULL, &e->ctx, NULL), 0);
	KT_EQ(uvio_alloc_pd(e->dev, NULL, &e->pd, NULL), 0);
	e->chan.sz = sizeof(e->chan);
	KT_EQ(uvio_create_comp_channel(e->dev, &e->chan, NULL), 0);
	e->buf = mmap(NULL, DP_BUF_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(e->buf != MAP_FAILED, "mmap");
	if (e->buf == MAP_FAILED)
		return -1;
	KT_EQ(dp_reg_mr(e, e->buf, DP_BUF_LEN, access, &e->mr), 0);
	if (gid_index >= 0) {
		KT_EQ(uvio_query_gid_entry(e->dev, 1, (uint32_t)gid_index, &g, NULL), 0);
		memcpy(e->gid, g.gid, 16);
		e->gid_type = g.gid_type;
	}
	return 0;
}

void dp_env_close(struct dp_env *e)
{
	KT_EQ(uvio_dereg_mr(e->dev, e->mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(e->dev, e->pd, NULL), 0);
	munmap(e->buf, DP_BUF_LEN);
	close(e->chan.fd);
	close(e->ctx.async_fd);
	uvio_device_close(e->dev);
}

void make_cq(struct dp_env *e, struct uvio_dp_cq *cq, uint32_t cqe, uint64_t uh)
{
	UVIO_OPTS(uvio_cq_attr, a, .cqe = cqe, .user_handle = uh, .channel = &e->chan);

	KT_EQ(uvio_dp_create_cq(e->dev, &a, cq), 0);
}

void make_qp_cap(struct dp_env *e, struct uvio_dp_qp *qp, uint32_t type, struct uvio_dp_cq *scq,
		 struct uvio_dp_cq *rcq, struct uvio_dp_srq *srq, uint64_t uh, uint32_t wr,
		 uint32_t inl)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .user_handle = uh, .pd_handle = e->pd,
		  .send_cq_handle = scq->handle, .recv_cq_handle = rcq->handle,
		  .cap = { .max_send_wr = wr, .max_recv_wr = wr, .max_send_sge = 4,
			   .max_recv_sge = 4, .max_inline_data = inl });

	if (srq) {
		a.fields = UVIO_QP_INIT_SRQ;
		a.srq_handle = srq->handle;
	}
	KT_EQ(uvio_dp_create_qp(e->dev, &a, srq, qp), 0);
}

void make_qp(struct dp_env *e, struct uvio_dp_qp *qp, uint32_t type, struct uvio_dp_cq *cq,
	     struct uvio_dp_srq *srq, uint64_t uh)
{
	make_qp_cap(e, qp, type, cq, cq, srq, uh, 64, 64);
}

int dp_modify_to_rts(struct uvio_device *dev, uint32_t qp, uint32_t type, uint32_t peer,
		     const uint8_t gid[16], uint8_t gid_index)
{
	bool ud = type == IB_UVERBS_QPT_UD, rc = type == IB_UVERBS_QPT_RC;
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_INIT, .port_num = 1,
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT);
	int err;

	if (ud) {
		a.qkey = 0x11111111;
		a.attr_mask |= UVIO_QP_QKEY;
	} else {
		/* UC has no READ or atomics to allow */
		a.qp_access_flags = rc ? DP_ACCESS_ALL & ~(uint32_t)IB_UVERBS_ACCESS_LOCAL_WRITE
				       : IB_UVERBS_ACCESS_REMOTE_WRITE;
		a.attr_mask |= UVIO_QP_ACCESS_FLAGS;
	}
	err = uvio_modify_qp(dev, qp, &a, NULL, NULL);
	memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.qp_state = UVIO_QPS_RTR;
	a.attr_mask = UVIO_QP_STATE;
	if (!ud) {
		a.path_mtu = UVIO_MTU_1024;
		a.dest_qp_num = peer;
		a.rq_psn = 0x100;
		a.ah = (struct uvio_av){ .is_global = 1, .sgid_index = gid_index, .hop_limit = 64,
					 .port_num = 1 };
		memcpy(a.ah.dgid, gid, 16);
		a.attr_mask |= UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN | UVIO_QP_RQ_PSN;
		if (rc) {
			a.max_dest_rd_atomic = 4;
			a.min_rnr_timer = 1;
			a.attr_mask |= UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER;
		}
	}
	if (!err)
		err = uvio_modify_qp(dev, qp, &a, NULL, NULL);
	memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.qp_state = UVIO_QPS_RTS;
	a.sq_psn = 0x100;
	a.attr_mask = UVIO_QP_STATE | UVIO_QP_SQ_PSN;
	if (rc) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 4;
		a.attr_mask |= UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT | UVIO_QP_RNR_RETRY |
			       UVIO_QP_MAX_QP_RD_ATOMIC;
	}
	if (!err)
		err = uvio_modify_qp(dev, qp, &a, NULL, NULL);
	return err;
}

int connect_qp(struct dp_env *e, struct uvio_dp_qp *qp, uint32_t peer)
{
	int err = dp_modify_to_rts(e->dev, qp->handle, qp->type, peer, e->gid,
				   (uint8_t)(e->gid_index < 0 ? 0 : e->gid_index));

	KT_EQ(err, 0);
	if (err)
		printf("connect: %s\n", uvio_last_error());
	return err;
}

int to_err(struct dp_env *e, struct uvio_dp_qp *qp)
{
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_ERR, .attr_mask = UVIO_QP_STATE);

	return uvio_modify_qp(e->dev, qp->handle, &a, NULL, NULL);
}

int wait_wc_ms(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n, int ms)
{
	uint64_t end = dp_now_ms() + (uint64_t)ms;
	int got = 0;

	while (got < n && dp_now_ms() < end) {
		int r = uvio_dp_poll_cq(cq, wc + got, n - got);

		KT_CHECK(r >= 0, "poll: %d", r);
		if (r < 0)
			break;
		got += r;
		if (!r)
			usleep(200);
	}
	return got;
}

int wait_wc(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	return wait_wc_ms(cq, wc, n, 5000);
}

void expect_wc(const struct uvio_dp_wc *w, uint64_t wr_id, uint32_t status, uint32_t opcode,
	       const char *what)
{
	KT_CHECK(w->wr_id == wr_id && w->status == status && w->opcode == opcode,
		 "%s: wc wr_id %llu status %s (vendor %#x) opcode %s, expected %llu %s %s", what,
		 (unsigned long long)w->wr_id, uvio_wc_status_name(w->status), w->vendor_err,
		 uvio_wc_opcode_name(w->opcode), (unsigned long long)wr_id,
		 uvio_wc_status_name(status), uvio_wc_opcode_name(opcode));
}

int comp_event(struct dp_env *e, uint64_t uh, int ms)
{
	struct pollfd p = { .fd = e->chan.fd, .events = POLLIN };
	struct uvio_comp_event ev = { .sz = sizeof(ev) };

	if (poll(&p, 1, ms) != 1)
		return -ETIMEDOUT;
	KT_EQ(uvio_get_comp_event(e->chan.fd, &ev), 0);
	KT_EQ(ev.cq_user_handle, uh);
	return 0;
}

struct uvio_dp_sge sge(struct dp_env *e, size_t off, uint32_t len)
{
	return (struct uvio_dp_sge){ .addr = (uintptr_t)(e->buf + off), .length = len,
				     .lkey = e->mr.lkey };
}

void fill(uint8_t *p, size_t len, unsigned seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

int post1(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	uint32_t bad = 99;
	int err = uvio_dp_post_send(qp, wr, 1, &bad);

	if (err)
		printf("post_send: %d: %s\n", err, uvio_last_error());
	return err;
}

void recv1(struct uvio_dp_qp *qp, struct uvio_dp_sge s, uint64_t id)
{
	struct uvio_dp_recv_wr r = { .wr_id = id, .sg_list = &s, .num_sge = 1 };

	KT_EQ(uvio_dp_post_recv(qp, &r, 1, NULL), 0);
}

/* ---- RC steps both kt_dp and kt_mlx5_dp take ---------------------------------- */

/* SEND of three SGEs into one receive: the bytes, the length, the
 * receiving QP. */
void rc_send_three_sges(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc)
{
	struct uvio_dp_sge s[3];

	fill(e->buf + A_OFF, 3000, 1);
	memset(e->buf + B_RX, 0, 4096);
	recv1(p->b, sge(e, B_RX, 4096), 100);
	s[0] = sge(e, A_OFF, 1000);
	s[1] = sge(e, A_OFF + 1000, 1000);
	s[2] = sge(e, A_OFF + 2000, 1000);
	{
		struct uvio_dp_send_wr w = { .wr_id = 1, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 3 };
		KT_EQ(post1(p->a, &w), 0);
	}
	KT_EQ(wait_wc(p->ca, wc, 1), 1);
	expect_wc(&wc[0], 1, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND");
	KT_EQ(wait_wc(p->cb, wc, 1), 1);
	expect_wc(&wc[0], 100, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SEND's receive");
	KT_EQ(wc[0].byte_len, 3000);
	KT_EQ(wc[0].qp_num, p->b->qp_num);
	KT_EQ(memcmp(e->buf + B_RX, e->buf + A_OFF, 3000), 0);
}

/* Inline SEND with immediate data; the buffer is reused at once, so the
 * bytes that arrive are those of the WQE. */
void rc_send_imm_inline(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc)
{
	struct uvio_dp_sge s[1];

	fill(e->buf + A_OFF, 48, 2);
	recv1(p->b, sge(e, B_RX, 4096), 101);
	s[0] = sge(e, A_OFF, 48);
	{
		struct uvio_dp_send_wr w = { .wr_id = 2, .opcode = IB_UVERBS_WR_SEND_WITH_IMM,
					     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
					     .sg_list = s, .num_sge = 1, .imm_data = htonl(0xfeed) };
		KT_EQ(post1(p->a, &w), 0);
	}
	uint8_t want[48];
	memcpy(want, e->buf + A_OFF, 48);
	memset(e->buf + A_OFF, 0xee, 48);
	KT_EQ(wait_wc(p->ca, wc, 1), 1);
	expect_wc(&wc[0], 2, UVIO_WC_SUCCESS, UVIO_WC_SEND, "SEND_WITH_IMM inline");
	KT_EQ(wait_wc(p->cb, wc, 1), 1);
	expect_wc(&wc[0], 101, UVIO_WC_SUCCESS, UVIO_WC_RECV, "SEND_WITH_IMM's receive");
	KT_EQ(wc[0].byte_len, 48);
	KT_CHECK(wc[0].wc_flags & UVIO_WC_WITH_IMM, "flags %#x", wc[0].wc_flags);
	KT_EQ(ntohl(wc[0].imm_data), 0xfeed);
	KT_EQ(memcmp(e->buf + B_RX, want, 48), 0);
}

/* RDMA WRITE (no receive consumed), then RDMA WRITE with immediate (the
 * bytes, and a receive that says so). */
void rc_writes(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc)
{
	struct uvio_dp_sge s[1];

	fill(e->buf + A_OFF, 8192, 3);
	memset(e->buf + B_TGT, 0, 8192);
	s[0] = sge(e, A_OFF, 8192);
	{
		struct uvio_dp_send_wr w = { .wr_id = 3, .opcode = IB_UVERBS_WR_RDMA_WRITE,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .rdma = { (uintptr_t)(e->buf + B_TGT), e->mr.rkey } };
		KT_EQ(post1(p->a, &w), 0);
	}
	KT_EQ(wait_wc(p->ca, wc, 1), 1);
	expect_wc(&wc[0], 3, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "RDMA_WRITE");
	KT_EQ(memcmp(e->buf + B_TGT, e->buf + A_OFF, 8192), 0);
	KT_EQ(uvio_dp_poll_cq(p->cb, wc, 8), 0);

	/* RDMA WRITE with immediate: the bytes, and a receive that says so. */
	fill(e->buf + A_OFF, 512, 4);
	recv1(p->b, sge(e, B_RX, 16), 102);
	s[0] = sge(e, A_OFF, 512);
	{
		struct uvio_dp_send_wr w = { .wr_id = 4, .opcode = IB_UVERBS_WR_RDMA_WRITE_WITH_IMM,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1, .imm_data = htonl(0xabcd),
					     .rdma = { (uintptr_t)(e->buf + B_TGT + 4096), e->mr.rkey } };
		KT_EQ(post1(p->a, &w), 0);
	}
	KT_EQ(wait_wc(p->ca, wc, 1), 1);
	expect_wc(&wc[0], 4, UVIO_WC_SUCCESS, UVIO_WC_RDMA_WRITE, "RDMA_WRITE_WITH_IMM");
	KT_EQ(wait_wc(p->cb, wc, 1), 1);
	expect_wc(&wc[0], 102, UVIO_WC_SUCCESS, UVIO_WC_RECV_RDMA_WITH_IMM,
		  "RDMA_WRITE_WITH_IMM's receive");
	KT_EQ(ntohl(wc[0].imm_data), 0xabcd);
	KT_EQ(wc[0].byte_len, 512);
	KT_EQ(memcmp(e->buf + B_TGT + 4096, e->buf + A_OFF, 512), 0);
}

/* FETCH_AND_ADD: the remote's old value (100) comes back into ATOM + 64,
 * the remote word at ATOM becomes 105. */
void rc_fetch_add(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc)
{
	struct uvio_dp_sge s[1];
	uint64_t *remote = (uint64_t *)(e->buf + ATOM), *old = (uint64_t *)(e->buf + ATOM + 64);

	*remote = 100;
	*old = 0;
	s[0] = sge(e, ATOM + 64, 8);
	{
		struct uvio_dp_send_wr w = { .wr_id = 6, .opcode = IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = s,
					     .num_sge = 1,
					     .atomic = { .remote_addr = (uintptr_t)remote,
							 .compare_add = 5, .rkey = e->mr.rkey } };
		KT_EQ(post1(p->a, &w), 0);
	}
	KT_EQ(wait_wc(p->ca, wc, 1), 1);
	expect_wc(&wc[0], 6, UVIO_WC_SUCCESS, UVIO_WC_FETCH_ADD, "FETCH_AND_ADD");
	KT_EQ(*old, 100);
	KT_EQ(*remote, 105);
}

/* CMP_AND_SWP after rc_fetch_add: a compare that matches (105 -> 7), then
 * one that does not (7 stays; the old value comes back either way). */
void rc_cmp_swap(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_dp_wc *wc)
{
	struct uvio_dp_sge s = sge(e, ATOM + 64, 8);
	uint64_t *remote = (uint64_t *)(e->buf + ATOM), *old = (uint64_t *)(e->buf + ATOM + 64);

	for (int i = 0; i < 2; i++) {	/* a compare that matches, then one that does not */
		struct uvio_dp_send_wr w = { .wr_id = 7 + i, .opcode = IB_UVERBS_WR_ATOMIC_CMP_AND_SWP,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &s,
					     .num_sge = 1,
					     .atomic = { .remote_addr = (uintptr_t)remote,
							 .compare_add = 105, .swap = 7 + (uint64_t)i,
							 .rkey = e->mr.rkey } };
		KT_EQ(post1(p->a, &w), 0);
		KT_EQ(wait_wc(p->ca, wc, 1), 1);
		expect_wc(&wc[0], 7 + (uint64_t)i, UVIO_WC_SUCCESS, UVIO_WC_COMP_SWAP, "CMP_AND_SWP");
		KT_EQ(*old, i ? 7 : 105);
		KT_EQ(*remote, 7);
	}
}

/* A WRITE (wr_id 30) to a page of the buffer registered without remote
 * write (ro), and a SEND (31) behind it, both signalled: posted only, for
 * the program to check what its driver answers and to deregister ro. */
void rc_post_write_no_access(struct dp_env *e, const struct dp_rc_pair *p, struct uvio_mr *ro)
{
	uint8_t *page = e->buf + DP_BUF_LEN - 4096;
	struct uvio_dp_sge s = sge(e, A_OFF, 64);

	KT_EQ(dp_reg_mr(e, page, 4096, IB_UVERBS_ACCESS_LOCAL_WRITE, ro), 0);
	struct uvio_dp_send_wr w[2] = {
		{ .wr_id = 30, .opcode = IB_UVERBS_WR_RDMA_WRITE, .flags = UVIO_DP_SEND_SIGNALED,
		  .sg_list = &s, .num_sge = 1, .rdma = { (uintptr_t)page, ro->rkey } },
		{ .wr_id = 31, .opcode = IB_UVERBS_WR_SEND, .flags = UVIO_DP_SEND_SIGNALED,
		  .sg_list = &s, .num_sge = 1 },
	};
	KT_EQ(uvio_dp_post_send(p->a, w, 2, NULL), 0);
}

int rc_pair_create(struct dp_env *e, const struct dp_rc_pair *p, uint32_t cqe, uint64_t cq_uh,
		   uint64_t qp_uh)
{
	make_cq(e, p->ca, cqe, cq_uh);
	make_cq(e, p->cb, cqe, cq_uh + 1);
	make_qp(e, p->a, IB_UVERBS_QPT_RC, p->ca, NULL, qp_uh);
	make_qp(e, p->b, IB_UVERBS_QPT_RC, p->cb, NULL, qp_uh + 1);
	if (connect_qp(e, p->a, p->b->qp_num))
		return -1;
	return connect_qp(e, p->b, p->a->qp_num);
}

int rc_arm_next_and_solicited(struct dp_env *e, const struct dp_rc_pair *p, uint64_t cb_uh)
{
	struct uvio_dp_wc wc[1];
	struct uvio_dp_sge s = sge(e, A_OFF, 32);
	struct uvio_dp_send_wr w = { .wr_id = 90, .opcode = IB_UVERBS_WR_SEND, .sg_list = &s,
				     .num_sge = 1 };

	for (uint64_t i = 0; i < 3; i++)
		recv1(p->b, sge(e, B_RX, 64), 500 + i);
	KT_EQ(uvio_dp_arm_cq(p->cb, 0), 0);
	KT_EQ(comp_event(e, cb_uh, 200), -ETIMEDOUT);	/* nothing yet */
	KT_EQ(post1(p->a, &w), 0);
	KT_EQ(comp_event(e, cb_uh, 3000), 0);
	KT_EQ(wait_wc(p->cb, wc, 1), 1);
	expect_wc(&wc[0], 500, UVIO_WC_SUCCESS, UVIO_WC_RECV, "armed receive");

	/* Solicited only: an unsolicited send raises nothing, a solicited one
	 * does. */
	KT_EQ(uvio_dp_arm_cq(p->cb, 1), 0);
	KT_EQ(post1(p->a, &w), 0);
	KT_EQ(wait_wc(p->cb, wc, 1), 1);
	KT_EQ(comp_event(e, cb_uh, 300), -ETIMEDOUT);
	w.flags = UVIO_DP_SEND_SOLICITED;
	KT_EQ(post1(p->a, &w), 0);
	KT_EQ(comp_event(e, cb_uh, 3000), 0);
	KT_EQ(wait_wc(p->cb, wc, 1), 1);
	expect_wc(&wc[0], 502, UVIO_WC_SUCCESS, UVIO_WC_RECV, "solicited receive");
	return 2;
}

void rc_pair_destroy(const struct dp_rc_pair *p)
{
	KT_EQ(uvio_dp_destroy_qp(p->a, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(p->b, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(p->ca, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(p->cb, NULL), 0);
}

/* ---- two posters, one or two pollers ------------------------------------------ */

#define MSG 16u
static struct {
	struct dp_env *e;
	struct uvio_dp_qp *a, *b;
	struct uvio_dp_cq *ca, *cb;
	unsigned per_thread;
	uint8_t seen_send[2 * DP_MT_MAX_PER_THREAD];
	uint8_t seen_recv[2 * DP_MT_MAX_PER_THREAD];
	_Atomic unsigned sends_done, recvs_done, full;
	_Atomic int errors;
} mt;

static void *mt_post(void *arg)
{
	unsigned t = (unsigned)(uintptr_t)arg;
	uint64_t end = dp_now_ms() + 60000;

	for (unsigned i = 0; i < mt.per_thread && dp_now_ms() < end;) {
		uint64_t id = t * mt.per_thread + i;
		uint64_t payload[MSG / 8] = { id, ~id };
		struct uvio_dp_sge s = { (uintptr_t)payload, MSG, 0 };
		struct uvio_dp_send_wr w = { .wr_id = id, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
					     .sg_list = &s, .num_sge = 1 };
		int err = uvio_dp_post_send(mt.a, &w, 1, NULL);

		if (err == -ENOSPC) {
			mt.full++;
			usleep(50);
			continue;
		}
		if (err) {
			mt.errors++;
			break;
		}
		i++;
	}
	return NULL;
}

/* One poll of the send CQ: each wr_id completes once, successfully. */
static int mt_take_sends(void)
{
	struct uvio_dp_wc wc[16];
	int n = uvio_dp_poll_cq(mt.ca, wc, 16);

	for (int i = 0; i < n; i++) {
		if (wc[i].status || wc[i].wr_id >= 2 * mt.per_thread || mt.seen_send[wc[i].wr_id]++)
			mt.errors++;
		mt.sends_done++;
	}
	if (n < 0)
		mt.errors++;
	return n;
}

/* One poll of the receive CQ: each message arrives whole and once; its
 * slot is spoilt and takes the next message. */
static int mt_take_recvs(void)
{
	struct uvio_dp_wc wc[16];
	int m = uvio_dp_poll_cq(mt.cb, wc, 16);

	for (int i = 0; i < m; i++) {
		uint64_t slot = wc[i].wr_id;
		uint64_t *p = (uint64_t *)(mt.e->buf + B_RX + slot * MSG);

		if (wc[i].status || wc[i].byte_len != MSG || p[0] >= 2 * mt.per_thread ||
		    p[1] != ~p[0] || mt.seen_recv[p[0]]++)
			mt.errors++;
		mt.recvs_done++;
		memset(p, 0xff, MSG);
		struct uvio_dp_sge s = { (uintptr_t)p, MSG, mt.e->mr.lkey };
		struct uvio_dp_recv_wr r = { .wr_id = slot, .sg_list = &s, .num_sge = 1 };
		if (uvio_dp_post_recv(mt.b, &r, 1, NULL))
			mt.errors++;
	}
	if (m < 0)
		mt.errors++;
	return m;
}

static void *mt_poll_both(void *arg)
{
	uint64_t end = dp_now_ms() + 60000;
	(void)arg;

	while ((mt.sends_done < 2 * mt.per_thread || mt.recvs_done < 2 * mt.per_thread) &&
	       dp_now_ms() < end) {
		int n = mt_take_sends(), m = mt_take_recvs();

		if (n <= 0 && m <= 0)
			usleep(20);
	}
	return NULL;
}

static void *mt_poll_sends(void *arg)
{
	uint64_t end = dp_now_ms() + 60000;
	(void)arg;

	while (mt.sends_done < 2 * mt.per_thread && dp_now_ms() < end)
		if (mt_take_sends() <= 0)
			usleep(20);
	return NULL;
}

static void *mt_poll_recvs(void *arg)
{
	uint64_t end = dp_now_ms() + 60000;
	(void)arg;

	while (mt.recvs_done < 2 * mt.per_thread && dp_now_ms() < end)
		if (mt_take_recvs() <= 0)
			usleep(20);
	return NULL;
}

struct dp_mt_result dp_threads(struct dp_env *e, unsigned per_thread, int pollers)
{
	struct dp_mt_result res = { 0 };
	struct uvio_dp_cq ca, cb;
	struct uvio_dp_qp a, b;
	struct dp_rc_pair pair = { &a, &b, &ca, &cb };
	pthread_t t[4];
	int nt = 0;
	uint64_t t0 = dp_now_ms();

	KT_CHECK(per_thread <= DP_MT_MAX_PER_THREAD, "%u messages a thread", per_thread);
	if (rc_pair_create(e, &pair, 256, 0x7a, 0x7a) || per_thread > DP_MT_MAX_PER_THREAD)
		goto out;
	memset(&mt, 0, sizeof(mt));
	mt.e = e;
	mt.a = &a;
	mt.b = &b;
	mt.ca = &ca;
	mt.cb = &cb;
	mt.per_thread = per_thread;
	for (uint64_t i = 0; i < 48; i++) {
		struct uvio_dp_sge s = sge(e, B_RX + i * MSG, MSG);
		struct uvio_dp_recv_wr r = { .wr_id = i, .sg_list = &s, .num_sge = 1 };

		KT_EQ(uvio_dp_post_recv(&b, &r, 1, NULL), 0);
	}
	pthread_create(&t[nt++], NULL, mt_post, (void *)0);
	pthread_create(&t[nt++], NULL, mt_post, (void *)1);
	if (pollers == 1) {
		pthread_create(&t[nt++], NULL, mt_poll_both, NULL);
	} else {
		pthread_create(&t[nt++], NULL, mt_poll_sends, NULL);
		pthread_create(&t[nt++], NULL, mt_poll_recvs, NULL);
	}
	for (int i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	res = (struct dp_mt_result){ .ran = true, .sends_done = mt.sends_done,
				     .recvs_done = mt.recvs_done, .full = mt.full,
				     .errors = mt.errors, .ms = dp_now_ms() - t0 };
out:
	rc_pair_destroy(&pair);
	return res;
}
