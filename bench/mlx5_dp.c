// SPDX-License-Identifier: MIT
/*
 * The mlx5 data path, the same work-request stream two ways: through this
 * library's <uvio/dp.h> (providers/mlx5.c writing the WQEs on the queues
 * its mlx5 half allocated) or through libibverbs and rdma-core's libmlx5.
 * Under callgrind (bench/mlx5-dp.sh, in the guest with the mlx5 stand-in's
 * emulated ConnectX) each noinline function below is counted whole, the
 * rest of the program not at all (--collect-atstart=no, --toggle-collect
 * of each): their inclusive counts divided by their calls are the
 * instructions per post and per polled completion.
 *
 *   mlx5_dp uvio|ibv DEVICE MSGS
 *
 * Two RC QPs of one device at RTS against each other (GID 0, RoCE), one
 * registered buffer, each QP with a CQ of its own; WINDOW work requests in
 * flight, one per post call, every one signalled:
 *  1. MSGS SENDs of 64 bytes inline from QP 0 into receives posted on QP 1
 *     (send_*; the receives: recv_*);
 *  2. MSGS RDMA WRITEs of 4 KiB from one SGE (write_*).
 * QP 0's completions are polled by poll_* (the requester's), QP 1's by
 * rpoll_* (the responder's), 16 at most a call. A poll that finds nothing
 * (the emulator had not written the CQE yet) costs the same every time:
 * empty_* polls an empty CQ EMPTY times so that those can be taken out.
 * Every completion is checked (status, wr_id in order, opcode, length) and
 * every byte that moved.
 *
 * Output: "MLX5DP lib send N write N recv N poll N rpoll N empty N
 * completions N rcompletions N pempty N rempty N", and 0; or a message and
 * 1. (pempty, rempty: the polls of poll_* and rpoll_* that found nothing.)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#include <uvio.h>
#include <uvio/dp.h>

#define WINDOW 32
#define BUF (4u << 20)
#define SEND_LEN 64
#define WRITE_LEN 4096
#define RX_OFF (1u << 20)	/* QP 1's receive slots, SEND_LEN apart */
#define TGT_OFF (2u << 20)	/* the WRITEs' target: WINDOW slots of WRITE_LEN */
#define GIDX 0
#define EMPTY 64

struct count {
	unsigned long send, write, recv, poll, rpoll, empty, done, rdone, pempty, rempty;
};

static struct count c;

static void die(const char *what, int err)
{
	fprintf(stderr, "mlx5_dp: %s: %d (%s) %s\n", what, err, strerror(err < 0 ? -err : err),
		uvio_last_error());
	exit(1);
}

/* The bytes of message i (SEND) or of write i, at offset k. */
static uint8_t pattern(unsigned long i, size_t k)
{
	return (uint8_t)(i * 13 + k * 7 + (k >> 8));
}

static void fill(uint8_t *p, size_t len, unsigned long i)
{
	for (size_t k = 0; k < len; k++)
		p[k] = pattern(i, k);
}

static void check_bytes(const uint8_t *p, size_t len, unsigned long i, const char *what)
{
	for (size_t k = 0; k < len; k++)
		if (p[k] != pattern(i, k)) {
			fprintf(stderr, "mlx5_dp: %s %lu: byte %zu is %#x, expected %#x\n", what, i,
				k, p[k], pattern(i, k));
			exit(1);
		}
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

#define COUNTED __attribute__((noinline, used))
COUNTED int send_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
COUNTED int send_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	return uvio_dp_post_send(qp, wr, 1, NULL);
}

COUNTED int write_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr);
COUNTED int write_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_send_wr *wr)
{
	return uvio_dp_post_send(qp, wr, 1, NULL);
}

COUNTED int recv_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_recv_wr *wr);
COUNTED int recv_uvio(struct uvio_dp_qp *qp, const struct uvio_dp_recv_wr *wr)
{
	return uvio_dp_post_recv(qp, wr, 1, NULL);
}

COUNTED int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
COUNTED int poll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

COUNTED int rpoll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
COUNTED int rpoll_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
{
	return uvio_dp_poll_cq(cq, wc, 16);
}

COUNTED int empty_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc);
COUNTED int empty_uvio(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc)
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
		.rq_psn = 0x100,
		.ah = { .is_global = 1, .sgid_index = GIDX, .hop_limit = 64, .port_num = 1 },
		.attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN |
			     UVIO_QP_RQ_PSN | UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER };
	memcpy(a.ah.dgid, s->gid, 16);
	if (!err)
		err = uvio_modify_qp(s->dev, qp->handle, &a, NULL, NULL);
	a = (struct uvio_qp_attr){ .sz = sizeof(a), .qp_state = UVIO_QPS_RTS, .timeout = 14,
		.retry_cnt = 7, .rnr_retry = 7, .sq_psn = 0x100,
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
	if (s->buf == MAP_FAILED)
		die("mmap", -errno);
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
		err = uvio_query_gid_entry(s->dev, 1, GIDX, &g, NULL);
	if (err)
		die("uvio reg_mr/gid", err);
	memcpy(s->gid, g.gid, 16);
	for (int i = 0; i < 2; i++) {
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 2 * WINDOW);
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = s->pd,
			  .cap = { .max_send_wr = WINDOW, .max_recv_wr = WINDOW, .max_send_sge = 1,
				   .max_recv_sge = 1, .max_inline_data = SEND_LEN });

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
		if (uvio_dp_destroy_qp(&s->qp[i], NULL) || uvio_dp_destroy_cq(&s->cq[i], NULL))
			die("uvio destroy", -EIO);
	}
	if (uvio_dereg_mr(s->dev, s->mr.handle, NULL) || uvio_dealloc_pd(s->dev, s->pd, NULL))
		die("uvio dereg/dealloc", -EIO);
	close(s->ctx.async_fd);
	uvio_device_close(s->dev);
	munmap(s->buf, BUF);
}

static void uvio_recv(struct uvio_side *s, unsigned long i)
{
	struct uvio_dp_sge g = { (uintptr_t)s->buf + RX_OFF + (i % WINDOW) * SEND_LEN, SEND_LEN,
				 s->mr.lkey };
	struct uvio_dp_recv_wr r = { .wr_id = i, .sg_list = &g, .num_sge = 1 };
	int err = recv_uvio(&s->qp[1], &r);

	if (err)
		die("uvio post_recv", err);
	c.recv++;
}

/* Poll QP 0's CQ (and QP 1's when rx) until done reaches posted. */
static void uvio_drain(struct uvio_side *s, unsigned long posted, unsigned long *done,
		       unsigned long *rdone, int rx, uint32_t opcode, uint32_t len)
{
	struct uvio_dp_wc wc[16];

	while (*done < posted || (rx && *rdone < posted)) {
		int n = 0, m = 0;

		if (*done < posted) {
			n = poll_uvio(&s->cq[0], wc);
			c.poll++;
			if (n < 0)
				die("uvio poll", n);
			c.pempty += !n;
			for (int i = 0; i < n; i++, (*done)++)
				if (wc[i].status || wc[i].wr_id != *done || wc[i].opcode != opcode)
					die("uvio completion", -EIO);
			c.done += n;
		}
		if (rx && *rdone < posted) {
			m = rpoll_uvio(&s->cq[1], wc);
			c.rpoll++;
			if (m < 0)
				die("uvio rpoll", m);
			c.rempty += !m;
			for (int i = 0; i < m; i++, (*rdone)++) {
				const uint8_t *p = s->buf + RX_OFF + (*rdone % WINDOW) * SEND_LEN;

				if (wc[i].status || wc[i].wr_id != *rdone ||
				    wc[i].opcode != UVIO_WC_RECV || wc[i].byte_len != len)
					die("uvio receive", -EIO);
				check_bytes(p, SEND_LEN, *rdone, "received message");
				uvio_recv(s, *rdone + WINDOW);
			}
			c.rdone += m;
		}
		if (!n && !m)
			usleep(50);	/* the emulator's kernel thread runs meanwhile */
	}
}

static void uvio_run(const char *dev, unsigned long msgs)
{
	struct uvio_side s;
	struct uvio_dp_wc wc[16];
	unsigned long posted = 0, done = 0, rdone = 0;

	uvio_open(&s, dev);
	for (unsigned long i = 0; i < WINDOW; i++)
		uvio_recv(&s, i);
	/* 1. SEND 64 bytes inline */
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * SEND_LEN;
			struct uvio_dp_sge g = { (uintptr_t)src, SEND_LEN, s.mr.lkey };
			struct uvio_dp_send_wr wr = { .wr_id = posted, .opcode = IB_UVERBS_WR_SEND,
				.flags = UVIO_DP_SEND_SIGNALED | UVIO_DP_SEND_INLINE,
				.sg_list = &g, .num_sge = 1 };
			int err;

			fill(src, SEND_LEN, posted);
			err = send_uvio(&s.qp[0], &wr);
			if (err)
				die("uvio post_send SEND", err);
			c.send++;
		}
		uvio_drain(&s, posted, &done, &rdone, 1, UVIO_WC_SEND, SEND_LEN);
	}
	/* 2. RDMA WRITE 4 KiB */
	posted = done = 0;
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * WRITE_LEN;
			struct uvio_dp_sge g = { (uintptr_t)src, WRITE_LEN, s.mr.lkey };
			struct uvio_dp_send_wr wr = { .wr_id = posted,
				.opcode = IB_UVERBS_WR_RDMA_WRITE, .flags = UVIO_DP_SEND_SIGNALED,
				.sg_list = &g, .num_sge = 1,
				.rdma = { (uintptr_t)s.buf + TGT_OFF + (posted % WINDOW) * WRITE_LEN,
					  s.mr.rkey } };
			int err;

			fill(src, WRITE_LEN, posted + msgs);
			err = write_uvio(&s.qp[0], &wr);
			if (err)
				die("uvio post_send RDMA WRITE", err);
			c.write++;
		}
		uvio_drain(&s, posted, &done, &rdone, 0, UVIO_WC_RDMA_WRITE, 0);
		for (unsigned long i = base; i < posted; i++)
			check_bytes(s.buf + TGT_OFF + (i % WINDOW) * WRITE_LEN, WRITE_LEN, i + msgs,
				    "written block");
	}
	for (int i = 0; i < EMPTY; i++, c.empty++)
		if (empty_uvio(&s.cq[0], wc) != 0)
			die("uvio: a completion more than posted", -EIO);
	uvio_close(&s);
}

/* ---- libibverbs and rdma-core's libmlx5 -------------------------------- */

struct ibv_side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq[2];
	struct ibv_qp *qp[2];
	union ibv_gid gid;
	uint8_t *buf;
};

COUNTED int send_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr);
COUNTED int send_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, wr, &bad);
}

COUNTED int write_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr);
COUNTED int write_ibv(struct ibv_qp *qp, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;

	return ibv_post_send(qp, wr, &bad);
}

COUNTED int recv_ibv(struct ibv_qp *qp, struct ibv_recv_wr *wr);
COUNTED int recv_ibv(struct ibv_qp *qp, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad;

	return ibv_post_recv(qp, wr, &bad);
}

COUNTED int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
COUNTED int poll_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

COUNTED int rpoll_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
COUNTED int rpoll_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
{
	return ibv_poll_cq(cq, 16, wc);
}

COUNTED int empty_ibv(struct ibv_cq *cq, struct ibv_wc *wc);
COUNTED int empty_ibv(struct ibv_cq *cq, struct ibv_wc *wc)
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
	a.rq_psn = 0x100;
	a.min_rnr_timer = 1;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.sgid_index = GIDX;
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
	a.sq_psn = 0x100;
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
	if (s->buf == MAP_FAILED)
		die("mmap", errno);
	s->pd = ibv_alloc_pd(s->ctx);
	s->mr = s->pd ? ibv_reg_mr(s->pd, s->buf, BUF,
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE) : NULL;
	if (!s->mr || ibv_query_gid(s->ctx, 1, GIDX, &s->gid))
		die("ibv pd/mr/gid", errno);
	for (int i = 0; i < 2; i++) {
		struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_RC,
					       .cap = { .max_send_wr = WINDOW,
							.max_recv_wr = WINDOW, .max_send_sge = 1,
							.max_recv_sge = 1,
							.max_inline_data = SEND_LEN } };

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
	for (int i = 0; i < 2; i++)
		if (ibv_destroy_qp(s->qp[i]) || ibv_destroy_cq(s->cq[i]))
			die("ibv destroy", EIO);
	if (ibv_dereg_mr(s->mr) || ibv_dealloc_pd(s->pd) || ibv_close_device(s->ctx))
		die("ibv dereg/dealloc/close", EIO);
	munmap(s->buf, BUF);
}

static void ibv_recv(struct ibv_side *s, unsigned long i)
{
	struct ibv_sge g = { (uintptr_t)s->buf + RX_OFF + (i % WINDOW) * SEND_LEN, SEND_LEN,
			     s->mr->lkey };
	struct ibv_recv_wr r = { .wr_id = i, .sg_list = &g, .num_sge = 1 };
	int err = recv_ibv(s->qp[1], &r);

	if (err)
		die("ibv post_recv", err);
	c.recv++;
}

static void ibv_drain(struct ibv_side *s, unsigned long posted, unsigned long *done,
		      unsigned long *rdone, int rx, enum ibv_wc_opcode opcode, uint32_t len)
{
	struct ibv_wc wc[16];

	while (*done < posted || (rx && *rdone < posted)) {
		int n = 0, m = 0;

		if (*done < posted) {
			n = poll_ibv(s->cq[0], wc);
			c.poll++;
			if (n < 0)
				die("ibv poll", n);
			c.pempty += !n;
			for (int i = 0; i < n; i++, (*done)++)
				if (wc[i].status || wc[i].wr_id != *done || wc[i].opcode != opcode)
					die("ibv completion", EIO);
			c.done += n;
		}
		if (rx && *rdone < posted) {
			m = rpoll_ibv(s->cq[1], wc);
			c.rpoll++;
			if (m < 0)
				die("ibv rpoll", m);
			c.rempty += !m;
			for (int i = 0; i < m; i++, (*rdone)++) {
				const uint8_t *p = s->buf + RX_OFF + (*rdone % WINDOW) * SEND_LEN;

				if (wc[i].status || wc[i].wr_id != *rdone ||
				    wc[i].opcode != IBV_WC_RECV || wc[i].byte_len != len)
					die("ibv receive", EIO);
				check_bytes(p, SEND_LEN, *rdone, "received message");
				ibv_recv(s, *rdone + WINDOW);
			}
			c.rdone += m;
		}
		if (!n && !m)
			usleep(50);
	}
}

static void ibv_run(const char *dev, unsigned long msgs)
{
	struct ibv_side s;
	struct ibv_wc wc[16];
	unsigned long posted = 0, done = 0, rdone = 0;

	ibv_open(&s, dev);
	for (unsigned long i = 0; i < WINDOW; i++)
		ibv_recv(&s, i);
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * SEND_LEN;
			struct ibv_sge g = { (uintptr_t)src, SEND_LEN, s.mr->lkey };
			struct ibv_send_wr wr = { .wr_id = posted, .opcode = IBV_WR_SEND,
				.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE,
				.sg_list = &g, .num_sge = 1 };
			int err;

			fill(src, SEND_LEN, posted);
			err = send_ibv(s.qp[0], &wr);
			if (err)
				die("ibv post_send SEND", err);
			c.send++;
		}
		ibv_drain(&s, posted, &done, &rdone, 1, IBV_WC_SEND, SEND_LEN);
	}
	posted = done = 0;
	while (done < msgs) {
		unsigned long base = posted;

		for (; posted < msgs && posted - base < WINDOW; posted++) {
			uint8_t *src = s.buf + (posted % WINDOW) * WRITE_LEN;
			struct ibv_sge g = { (uintptr_t)src, WRITE_LEN, s.mr->lkey };
			struct ibv_send_wr wr = { .wr_id = posted, .opcode = IBV_WR_RDMA_WRITE,
				.send_flags = IBV_SEND_SIGNALED, .sg_list = &g, .num_sge = 1,
				.wr.rdma = { (uintptr_t)s.buf + TGT_OFF + (posted % WINDOW) * WRITE_LEN,
					     s.mr->rkey } };
			int err;

			fill(src, WRITE_LEN, posted + msgs);
			err = write_ibv(s.qp[0], &wr);
			if (err)
				die("ibv post_send RDMA WRITE", err);
			c.write++;
		}
		ibv_drain(&s, posted, &done, &rdone, 0, IBV_WC_RDMA_WRITE, 0);
		for (unsigned long i = base; i < posted; i++)
			check_bytes(s.buf + TGT_OFF + (i % WINDOW) * WRITE_LEN, WRITE_LEN, i + msgs,
				    "written block");
	}
	for (int i = 0; i < EMPTY; i++, c.empty++)
		if (empty_ibv(s.cq[0], wc) != 0)
			die("ibv: a completion more than posted", EIO);
	ibv_close(&s);
}

int main(int argc, char **argv)
{
	unsigned long msgs;

	if (argc != 4 || (strcmp(argv[1], "uvio") && strcmp(argv[1], "ibv")) ||
	    (msgs = strtoul(argv[3], NULL, 0)) == 0) {
		fprintf(stderr, "usage: mlx5_dp uvio|ibv DEVICE MSGS\n");
		return 2;
	}
	if (!strcmp(argv[1], "uvio"))
		uvio_run(argv[2], msgs);
	else
		ibv_run(argv[2], msgs);
	printf("MLX5DP %s send %lu write %lu recv %lu poll %lu rpoll %lu empty %lu completions %lu "
	       "rcompletions %lu pempty %lu rempty %lu\n", argv[1], c.send, c.write, c.recv, c.poll,
	       c.rpoll, c.empty, c.done, c.rdone, c.pempty, c.rempty);
	return 0;
}
