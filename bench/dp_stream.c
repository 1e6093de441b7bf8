/*
 * A loopback RDMA WRITE stream on one rxe device, through this library's
 * data-path layer (uvio) and through libibverbs with rdma-core's rxe
 * provider (ibv), in one process, rounds interleaved ABBA.
 *
 *   dp_stream DEVICE ROUNDS MSGS [SIZE]   messages per second, each round
 *   dp_stream DEVICE insn uvio|ibv MSGS   one stream, for callgrind: run it
 *                                         with --toggle-collect=post_uvio
 *                                         (poll_uvio, post_ibv, poll_ibv)
 *
 * Each stream: two RC QPs at RTS against each other (GID index 1, rxe's
 * RoCE v2 IPv4 GID), one registered buffer; MSGS signaled RDMA WRITEs of
 * SIZE bytes (default 64) from one into the other, at most WINDOW in
 * flight, one WR per post call, completions polled 16 at a time. Every
 * completion is checked (status, wr_id in order). The post and poll calls
 * sit in functions of their own (noinline) so that callgrind can count
 * exactly them, the same way for both.
 *
 * Output: "DP ROUND r uvio|ibv msgs_per_s polls empty_polls" lines, and in
 * insn mode "DP INSN uvio|ibv posts N polls N completions N".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <infiniband/verbs.h>

#include <uvio.h>
#include <uvio/dp.h>

#define WINDOW 64
#define BUF (1u << 20)

struct stats {
	unsigned long posts, polls, empty, done;
	double secs;
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "dp_stream: %s: %d (%s) %s\n", what, err, strerror(err < 0 ? -err : err),
		uvio_last_error());
	exit(1);
}

/* ---- this library ---------------------------------------------------- */

struct uvio_side {
	struct uvio_device *dev;
	struct uvio_context ctx;
	uint32_t pd;
	struct uvio_mr mr;
	struct uvio_dp_cq cq[2];
	struct uvio_dp_qp qp[2];
	uint8_t gid[16];
	uint8_t *buf;
};

__attribute__((noinline)) int post_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
__attribute__((noinline)) int post_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	return uvio_dp_post_send(qp, wr, 1, NULL);
}

__attribute__((noinline)) int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
__attribute__((noinline)) int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

static void uvio_rts(struct uvio_side *s, struct uvio_dp_qp *qp, uint32_t peer)
{
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_INIT, .port_num = 1,
		  .qp_access_flags = IB_UVERBS_ACCESS_REMOTE_WRITE,
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
			       UVIO_QP_ACCESS_FLAGS);
	int err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);

	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTR,
		.path_mtu = UVIO_MTU_1024, .dest_qp_num = peer, .min_rnr_timer = 1,
		.ah = { .is_global = 1, .sgid_index = 1, .hop_limit = 64, .port_num = 1 },
		.attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN |
			     UVIO_QP_RQ_PSN | UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER };
	memcpy(a.ah.dgid, s->gid, 16);
	if (!err)
		err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);
	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTS, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 7,
		.attr_mask = UVIO_QP_STATE | UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT |
			     UVIO_QP_RNR_RETRY | UVIO_QP_SQ_PSN | UVIO_QP_MAX_QP_RD_ATOMIC };
	if (!err)
		err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);
	if (err)
		die("uvio modify_qp", err);
}

static void uvio_open(struct uvio_side *s, const char *name)
{
	struct uvio_gid_entry g;
	int err;

	memset(s, 0, sizeof(*s));
	s->ctx.sz = sizeof(s->ctx);
	s->mr.sz = sizeof(s->mr);
	s->buf = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	err = uvio_device_open(name, &s->dev);
	if (!err)
		err = uvio_get_context(s->dev, NULL, &s->ctx, NULL);
	if (!err)
		err = uvio_alloc_pd(s->dev, NULL, &s->pd, NULL);
	if (err)
		die("uvio open", err);
	UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = s->pd, .addr = s->buf, .length = BUF,
		  .iova = (uintptr_t)s->buf,
		  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE);
	err = uvio_reg_mr(s->dev, &ma, NULL, &s->mr, NULL);
	if (!err)
		err = uvio_query_gid_entry(s->dev, 1, 1, &g, NULL);
	if (err)
		die("uvio reg_mr/gid", err);
	memcpy(s->gid, g.gid, 16);
	for (int i = 0; i < 2; i++) {
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 2 * WINDOW);
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = s->pd,
			  .cap = { .max_send_wr = WINDOW, .max_recv_wr = 1, .max_send_sge = 1,
				   .max_recv_sge = 1 });

		err = uvio_dp_create_cq(s->dev, &ca, &s->cq[i]);
		qa.send_cq_handle = qa.recv_cq_handle = s->cq[i].handle;
		if (!err)
			err = uvio_dp_create_qp(s->dev, &qa, NULL, &s->qp[i]);
		if (err)
			die("uvio create", err);
	}
	uvio_rts(s, &s->qp[0], s->qp[1].qp_num);
	uvio_rts(s, &s->qp[1], s->qp[0].qp_num);
}

static void uvio_close(struct uvio_side *s)
{
	for (int i = 0; i < 2; i++) {
		uvio_dp_destroy_qp(&s->qp[i], NULL);
		uvio_dp_destroy_cq(&s->cq[i], NULL);
	}
	uvio_dereg_mr(s->dev, s->mr.handle, NULL);
	uvio_dealloc_pd(s->dev, s->pd, NULL);
	uvio_device_close(s->dev);
	munmap(s->buf, BUF);
}

static struct stats uvio_stream(struct uvio_side *s, unsigned long msgs, uint32_t size)
{
	struct uvio_dp_sge sge = { (uintptr_t)s->buf, size, s->mr.lkey };
	struct uvio_dp_send_wr wr = { .opcode = IB_UVERBS_WR_RDMA_WRITE,
				      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &sge,
				      .num_sge = 1,
				      .rdma = { (uintptr_t)s->buf + BUF / 2, s->mr.rkey } };
	struct uvio_dp_wc wc[16];
	struct stats st = { 0 };
	double t0 = now();

	while (st.done < msgs) {
		while (st.posts < msgs && st.posts - st.done < WINDOW) {
			wr.wr_id = st.posts;
			int err = post_uvio(&s->qp[0], &wr);

			if (err)
				die("uvio post", err);
			st.posts++;
		}
		int n = poll_uvio(&s->cq[0], wc);

		st.polls++;
		if (n < 0)
			die("uvio poll", n);
		if (!n)
			st.empty++;
		for (int i = 0; i < n; i++, st.done++)
			if (wc[i].status || wc[i].wr_id != st.done)
				die("uvio completion", -EIO);
	}
	st.secs = now() - t0;
	return st;
}

/* ---- libibverbs and rdma-core's rxe provider ------------------------- */

struct ibv_side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq[2];
	struct ibv_qp *qp[2];
	union ibv_gid gid;
	uint8_t *buf;
};

__attribute__((noinline)) int post_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr);
__attribute__((noinline)) int post_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, wr, &bad);
}

__attribute__((noinline)) int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
__attribute__((noinline)) int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

static void ibv_rts(struct ibv_side *s, struct ibv_qp *qp, uint32_t peer)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };
	int err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					   IBV_QP_ACCESS_FLAGS);

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = peer;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = 1;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.grh.dgid = s->gid;
	a.ah_attr.port_num = 1;
	if (!err)
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
						   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
						   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	if (!err)
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
						   IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
						   IBV_QP_MAX_QP_RD_ATOMIC);
	if (err)
		die("ibv_modify_qp", err);
}

static void ibv_open(struct ibv_side *s, const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);

	memset(s, 0, sizeof(*s));
	for (int i = 0; list && list[i] && !s->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			s->ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!s->ctx)
		die("ibv_open_device", ENODEV);
	s->buf = mmap(NULL, BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s->pd = ibv_alloc_pd(s->ctx);
	s->mr = s->pd ? ibv_reg_mr(s->pd, s->buf, BUF,
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE) : NULL;
	if (!s->mr || ibv_query_gid(s->ctx, 1, 1, &s->gid))
		die("ibv pd/mr/gid", errno);
	for (int i = 0; i < 2; i++) {
		struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
					       .cap = { .max_send_wr = WINDOW, .max_recv_wr = 1,
							.max_send_sge = 1, .max_recv_sge = 1 } };

		s->cq[i] = ibv_create_cq(s->ctx, 2 * WINDOW, NULL, NULL, 0);
		qa.send_cq = qa.recv_cq = s->cq[i];
		s->qp[i] = s->cq[i] ? ibv_create_qp(s->pd, &qa) : NULL;
		if (!s->qp[i])
			die("ibv create", errno);
	}
	ibv_rts(s, s->qp[0], s->qp[1]->qp_num);
	ibv_rts(s, s->qp[1], s->qp[0]->qp_num);
}

static void ibv_close(struct ibv_side *s)
{
	for (int i = 0; i < 2; i++) {
		ibv_destroy_qp(s->qp[i]);
		ibv_destroy_cq(s->cq[i]);
	}
	ibv_dereg_mr(s->mr);
	ibv_dealloc_pd(s->pd);
	ibv_close_device(s->ctx);
	munmap(s->buf, BUF);
}

static struct stats ibv_stream(struct ibv_side *s, unsigned long msgs, uint32_t size)
{
	struct ibv_sge sge = { (uintptr_t)s->buf, size, s->mr->lkey };
	struct ibv_send_wr wr = { .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED,
				  .sg_list = &sge, .num_sge = 1,
				  .wr.rdma = { (uintptr_t)s->buf + BUF / 2, s->mr->rkey } };
	struct ibv_wc wc[16];
	struct stats st = { 0 };
	double t0 = now();

	while (st.done < msgs) {
		while (st.posts < msgs && st.posts - st.done < WINDOW) {
			wr.wr_id = st.posts;
			int err = post_ibv(s->qp[0], &wr);

			if (err)
				die("ibv post", err);
			st.posts++;
		}
		int n = poll_ibv(s->cq[0], wc);

		st.polls++;
		if (n < 0)
			die("ibv poll", n);
		if (!n)
			st.empty++;
		for (int i = 0; i < n; i++, st.done++)
			if (wc[i].status || wc[i].wr_id != st.done)
				die("ibv completion", EIO);
	}
	st.secs = now() - t0;
	return st;
}

static void print(const char *what, int round, const struct stats *st)
{
	printf("DP ROUND %d %s %.0f msgs/s polls %lu empty %lu\n", round, what,
	       (double)st->done / st->secs, st->polls, st->empty);
}

int main(int argc, char **argv)
{
	struct uvio_side u;
	struct ibv_side v;
	struct stats st;

	if (argc < 4) {
		fprintf(stderr, "usage: dp_stream DEVICE ROUNDS MSGS [SIZE] | "
			"DEVICE insn uvio|ibv MSGS\n");
		return 2;
	}
	if (!strcmp(argv[2], "insn") && argc >= 5) {
		unsigned long msgs = strtoul(argv[4], NULL, 0);

		if (!strcmp(argv[3], "uvio")) {
			uvio_open(&u, argv[1]);
			st = uvio_stream(&u, msgs, 64);
			uvio_close(&u);
		} else {
			ibv_open(&v, argv[1]);
			st = ibv_stream(&v, msgs, 64);
			ibv_close(&v);
		}
		printf("DP INSN %s posts %lu polls %lu completions %lu\n", argv[3], st.posts,
		       st.polls, st.done);
		return 0;
	}
	int rounds = atoi(argv[2]);
	unsigned long msgs = strtoul(argv[3], NULL, 0);
	uint32_t size = argc > 4 ? (uint32_t)atoi(argv[4]) : 64;

	uvio_open(&u, argv[1]);
	ibv_open(&v, argv[1]);
	uvio_stream(&u, msgs / 10, size);	/* warm both */
	ibv_stream(&v, msgs / 10, size);
	for (int r = 0; r < rounds; r++) {
		/* ABBA: a drift in load falls on both */
		if (r % 2 == 0) {
			st = uvio_stream(&u, msgs, size);
			print("uvio", r, &st);
			st = ibv_stream(&v, msgs, size);
			print("ibv", r, &st);
		} else {
			st = ibv_stream(&v, msgs, size);
			print("ibv", r, &st);
			st = uvio_stream(&u, msgs, size);
			print("uvio", r, &st);
		}
	}
	uvio_close(&u);
	ibv_close(&v);
	return 0;
}
