// SPDX-License-Identifier: MIT
/*
 * What callers of libibverbs count on from any provider, checked through
 * libibverbs alone: the guest suite runs it on each device with the stock
 * provider (for the record) and with this project's plug-in (RDMAV_DRIVERS),
 * which must pass every check (guest-tests.sh). rdma-core's own tests
 * (tests/test_qp.py, test_qpex.py) check the same:
 *  - ibv_create_qp_ex() with IBV_QP_INIT_ATTR_CREATE_FLAGS and no flags
 *    makes RC, UC and UD QPs (pyverbs' random attributes ask for it);
 *  - ibv_create_qp_ex() with IBV_QP_INIT_ATTR_SEND_OPS_FLAGS makes an RC
 *    QP with SEND and RDMA_WRITE among its wr_*() operations, and refuses
 *    a UD QP asking for RDMA_WRITE, which UD has not (test_qpex.py skips
 *    a test whose QP is refused; one made errors at its first post);
 *  - a QP used, moved to RESET and connected again runs the new round
 *    alone: an RC QP connected to itself (RoCE or IB) sends and receives,
 *    every completion polled; back to RESET, INIT, RTR, RTS, it sends and
 *    receives once more, and the CQ gives exactly the new round's two
 *    completions and the message (a device whose WQE counters start over
 *    at RESET, mlx5, runs no WQE of the old round again);
 *  - a receive posted to a QP in RESET fails with EINVAL, bad_wr the WR;
 *  - receives posted to a QP in INIT (after a query of its state, whatever
 *    the kernel answers) until one fails: at least the max_recv_wr the QP
 *    was given fit, and the first that does not fails with ENOMEM, bad_wr
 *    that WR.
 *  - a parent domain (ibv_alloc_parent_domain) stands for its PD: a CQ may
 *    name it (and only a parent domain), an MR and a QP made on it are the
 *    PD's, and deallocating it leaves the PD working (test_parent_domain.py).
 * On an iWARP device (siw) only RC QPs exist: the UC and UD checks say SKIP.
 *
 *   ibv_conventions DEVICE
 *
 * Prints "PASS name" or "FAIL name: why" per check; the exit status is the
 * number of failures (77: no such device).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static int failures;

static void result(int ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#include <stdarg.h>
static void result(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	failures++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* A QP of type: with ops, asking for those wr_*() operations
 * (SEND_OPS_FLAGS); without, with CREATE_FLAGS and no flags. NULL and *err
 * as libibverbs answered. */
static struct ibv_qp *make_qp_ops(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq,
				  enum ibv_qp_type type, uint32_t recv_wr, uint64_t ops, int *err)
{
	struct ibv_qp_init_attr_ex a;
	struct ibv_qp *qp;

	memset(&a, 0, sizeof(a));
	a.qp_type = type;
	a.send_cq = cq;
	a.recv_cq = cq;
	a.cap.max_send_wr = 4;
	a.cap.max_recv_wr = recv_wr;
	a.cap.max_send_sge = 1;
	a.cap.max_recv_sge = 1;
	a.comp_mask = IBV_QP_INIT_ATTR_PD |
		      (ops ? IBV_QP_INIT_ATTR_SEND_OPS_FLAGS : IBV_QP_INIT_ATTR_CREATE_FLAGS);
	a.pd = pd;
	a.send_ops_flags = ops;
	errno = 0;
	qp = ibv_create_qp_ex(ctx, &a);
	*err = qp ? 0 : errno;
	return qp;
}

static struct ibv_qp *make_qp(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_cq *cq,
			      enum ibv_qp_type type, uint32_t recv_wr, int *err)
{
	return make_qp_ops(ctx, pd, cq, type, recv_wr, 0, err);
}

static int to_init(struct ibv_qp *qp)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
					     IBV_QP_ACCESS_FLAGS);
}

/* RESET, then INIT, RTR (to itself) and RTS; 0 or errno. */
static int self_connect(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid, bool global)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RESET;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE) || to_init(qp))
		return errno;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.dlid = lid;
	a.ah_attr.port_num = 1;
	a.ah_attr.is_global = global;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.hop_limit = 64;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				      IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				      IBV_QP_MIN_RNR_TIMER))
		return errno;
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				      IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		return errno;
	return 0;
}

/* One round: a receive at buf + 1024 and a SEND of buf's first 64 bytes;
 * the wr_ids of the completions (2 wanted, in 5 s) in ids. */
static int send_round(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr, char *buf,
		      uint64_t id, uint64_t ids[4])
{
	struct ibv_sge rs = { (uintptr_t)buf + 1024, 64, mr->lkey };
	struct ibv_sge ss = { (uintptr_t)buf, 64, mr->lkey };
	struct ibv_recv_wr r = { .wr_id = id, .sg_list = &rs, .num_sge = 1 }, *rbad;
	struct ibv_send_wr w = { .wr_id = id + 1, .sg_list = &ss, .num_sge = 1,
				 .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED }, *sbad;
	struct ibv_wc wc[4];
	int got = 0;

	if (ibv_post_recv(qp, &r, &rbad) || ibv_post_send(qp, &w, &sbad))
		return -1;
	for (int t = 0; t < 5000 && got < 2; t++) {
		int n = ibv_poll_cq(cq, 4 - got, wc);

		for (int i = 0; i < n; i++)
			ids[got + i] = wc[i].status == IBV_WC_SUCCESS ? wc[i].wr_id : ~0ull;
		got += n > 0 ? n : 0;
		if (got < 2)
			usleep(1000);
	}
	/* and nothing more in the next 100 ms */
	usleep(100000);
	if (got < 4) {
		int n = ibv_poll_cq(cq, 4 - got, wc);

		for (int i = 0; i < n; i++)
			ids[got + i] = wc[i].wr_id;
		got += n > 0 ? n : 0;
	}
	return got;
}

static void reset_and_reuse(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_mr *mr,
			    char *buf)
{
	const char *name = "an RC QP used, reset and connected again runs the new round alone";
	struct ibv_port_attr port;
	union ibv_gid gid;
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_qp *qp = NULL;
	uint64_t ids[4] = { 0 };
	int err, got;

	if (!cq || ibv_query_port(ctx, 1, &port) || ibv_query_gid(ctx, 1, 0, &gid)) {
		result(0, name, "CQ, port or GID 0: %s", strerror(errno));
		goto out;
	}
	qp = make_qp(ctx, pd, cq, IBV_QPT_RC, 4, &err);
	if (!qp) {
		result(0, name, "create: %s", strerror(err));
		goto out;
	}
	err = self_connect(qp, &gid, port.lid, port.link_layer == IBV_LINK_LAYER_ETHERNET);
	if (err) {
		result(0, name, "connecting the QP to itself: %s", strerror(err));
		goto out;
	}
	memset(buf, 'a', 64);
	got = send_round(qp, cq, mr, buf, 10, ids);
	if (got != 2 || ids[0] + ids[1] != 21) {
		result(0, name, "first round: %d completions", got);
		goto out;
	}
	err = self_connect(qp, &gid, port.lid, port.link_layer == IBV_LINK_LAYER_ETHERNET);
	if (err) {
		result(0, name, "RESET and connecting again: %s", strerror(err));
		goto out;
	}
	memset(buf, 'b', 64);
	memset(buf + 1024, 0, 64);
	memset(ids, 0, sizeof(ids));
	got = send_round(qp, cq, mr, buf, 20, ids);
	result(got == 2 && ids[0] + ids[1] == 41 && !memcmp(buf + 1024, buf, 64), name,
	       "second round: %d completions (wr_ids %llu %llu %llu %llu), the message %s", got,
	       (unsigned long long)ids[0], (unsigned long long)ids[1],
	       (unsigned long long)ids[2], (unsigned long long)ids[3],
	       memcmp(buf + 1024, buf, 64) ? "not as sent" : "as sent");
out:
	if (qp)
		ibv_destroy_qp(qp);
	if (cq)
		ibv_destroy_cq(cq);
}

static void parent_domain(struct ibv_context *ctx, struct ibv_pd *pd, void *buf, size_t len)
{
	struct ibv_parent_domain_init_attr pa = { .pd = pd };
	struct ibv_cq_init_attr_ex ca = { .cqe = 16, .wc_flags = IBV_WC_STANDARD_FLAGS,
					  .comp_mask = IBV_CQ_INIT_ATTR_MASK_PD, .parent_domain = pd };
	struct ibv_pd *parent = ibv_alloc_parent_domain(ctx, &pa);
	struct ibv_cq_ex *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp = NULL;
	int err = errno;

	result(parent != NULL, "alloc_parent_domain over the PD", "%s", strerror(err));
	if (!parent)
		return;
	cq = ibv_create_cq_ex(ctx, &ca);
	err = errno;
	result(!cq && err == EINVAL, "create_cq_ex naming a plain PD: EINVAL", "%s",
	       cq ? "created" : strerror(err));
	if (cq)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	ca.parent_domain = parent;
	cq = ibv_create_cq_ex(ctx, &ca);
	result(cq != NULL, "create_cq_ex naming the parent domain", "%s", strerror(errno));
	mr = ibv_reg_mr(parent, buf, len, IBV_ACCESS_LOCAL_WRITE);
	result(mr != NULL, "reg_mr on the parent domain", "%s", strerror(errno));
	if (cq)
		qp = make_qp(ctx, parent, ibv_cq_ex_to_cq(cq), IBV_QPT_RC, 4, &err);
	result(qp != NULL, "an RC QP on the parent domain", "%s", cq ? strerror(err) : "no CQ");
	if (qp)
		ibv_destroy_qp(qp);
	if (mr)
		ibv_dereg_mr(mr);
	if (cq)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq));
	err = ibv_dealloc_pd(parent);
	result(!err, "dealloc_pd of the parent domain", "%s", strerror(err));
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	result(mr != NULL, "the PD works after its parent domain is gone", "%s", strerror(errno));
	if (mr)
		ibv_dereg_mr(mr);
}

int main(int argc, char **argv)
{
	static char buf[4096];
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	int n, err;

	if (argc != 2) {
		fprintf(stderr, "usage: ibv_conventions DEVICE\n");
		return 2;
	}
	list = ibv_get_device_list(&n);
	for (int i = 0; list && i < n && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), argv[1]))
			ctx = ibv_open_device(list[i]);
	if (list)
		ibv_free_device_list(list);
	if (!ctx) {
		printf("SKIP: no device %s to open\n", argv[1]);
		return 77;
	}
	pd = ibv_alloc_pd(ctx);
	cq = pd ? ibv_create_cq(ctx, 256, NULL, NULL, 0) : NULL;
	mr = cq ? ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr) {
		printf("FAIL setup: PD, CQ or MR: %s\n", strerror(errno));
		return 1;
	}

	static const struct {
		enum ibv_qp_type type;
		const char *name;
	} types[] = { { IBV_QPT_RC, "RC" }, { IBV_QPT_UC, "UC" }, { IBV_QPT_UD, "UD" } };
	for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		char name[96];

		snprintf(name, sizeof(name), "create_qp_ex %s with CREATE_FLAGS 0", types[i].name);
		if (types[i].type != IBV_QPT_RC && ctx->device->node_type == IBV_NODE_RNIC) {
			printf("SKIP %s: an iWARP device has RC QPs only\n", name);
			continue;
		}
		qp = make_qp(ctx, pd, cq, types[i].type, 4, &err);
		result(qp != NULL, name, "%s", strerror(err));
		if (qp)
			ibv_destroy_qp(qp);
	}

	qp = make_qp_ops(ctx, pd, cq, IBV_QPT_RC, 4,
			 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE, &err);
	result(qp && ibv_qp_to_qp_ex(qp) && ibv_qp_to_qp_ex(qp)->wr_rdma_write,
	       "create_qp_ex RC with SEND_OPS_FLAGS SEND and RDMA_WRITE",
	       "%s", qp ? "no wr_rdma_write" : strerror(err));
	if (qp)
		ibv_destroy_qp(qp);
	if (ctx->device->node_type == IBV_NODE_RNIC) {
		printf("SKIP create_qp_ex UD with SEND_OPS_FLAGS RDMA_WRITE: an iWARP device has "
		       "RC QPs only\n");
	} else {
		qp = make_qp_ops(ctx, pd, cq, IBV_QPT_UD, 4,
				 IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE, &err);
		result(!qp, "create_qp_ex UD with SEND_OPS_FLAGS RDMA_WRITE: refused",
		       "made, where UD has no RDMA_WRITE");
		if (qp)
			ibv_destroy_qp(qp);
		else
			printf("  (refused: %s)\n", strerror(err));
	}

	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad = NULL;

	qp = make_qp(ctx, pd, cq, IBV_QPT_RC, 16, &err);
	if (!qp) {
		result(0, "an RC QP for the posts", "%s", strerror(err));
		goto out;
	}
	err = ibv_post_recv(qp, &wr, &bad);
	result(err == EINVAL && bad == &wr, "post_recv in RESET: EINVAL, bad_wr the WR",
	       "returned %d (%s), bad_wr %s", err, strerror(err),
	       bad == &wr ? "the WR" : bad ? "another" : "NULL");

	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;

	err = to_init(qp) ? errno : 0;
	/* The state asked too: libibverbs keeps the answer as the QP's state,
	 * and 6.1's siw answers RESET for a QP that is not. */
	if (!err)
		err = ibv_query_qp(qp, &qa, IBV_QP_CAP | IBV_QP_STATE, &qi) ? errno : 0;
	if (err) {
		result(0, "the RC QP to INIT", "%s", strerror(err));
	} else {
		unsigned int posted = 0, limit = qi.cap.max_recv_wr + 4096;

		do {
			bad = NULL;
			wr.wr_id = posted;
			err = ibv_post_recv(qp, &wr, &bad);
		} while (!err && ++posted < limit);
		result(err == ENOMEM && bad == &wr && posted >= qi.cap.max_recv_wr,
		       "post_recv on a full receive queue: ENOMEM, bad_wr the WR",
		       "after %u receives (max_recv_wr %u): returned %d (%s), bad_wr %s", posted,
		       qi.cap.max_recv_wr, err, strerror(err),
		       bad == &wr ? "the WR" : bad ? "another" : "NULL");
	}
	ibv_destroy_qp(qp);
	if (ctx->device->node_type == IBV_NODE_RNIC)
		printf("SKIP an RC QP used, reset and connected again: an iWARP QP connects "
		       "through the connection manager\n");
	else
		reset_and_reuse(ctx, pd, mr, buf);
	parent_domain(ctx, pd, buf, sizeof(buf));
out:
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return failures;
}
