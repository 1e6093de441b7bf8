/*
 * Debian's libmlx5, unmodified, through libibverbs, on the mlx5 stand-in
 * (tests/standin/mlx5): the witness that the stand-in answers what libmlx5
 * sends. Every step is checked; the first failure ends the program with a
 * message naming the step and exit status 1.
 *
 *   kt_mlx5_witness [DEVICE]        (default mlx5_0)
 *
 * Opens the device (libmlx5's context: the UAR it allocates and maps),
 * queries it and its port, finds the RoCE v2 GID of an IPv4 address, and
 * makes a PD, a CQ of 16 64-byte CQEs (resized to 100), one of 8 128-byte
 * CQEs, an MR of 8 KiB, an SRQ of 16 WRs, QPs RC (with a receive queue, and
 * on the SRQ), UC and UD of 16 send and 16 receive WRs of one SGE, and an
 * AH to that GID, whose destination MAC the kernel answered. The RC QP goes
 * through INIT and RTR (to itself) to RTS, the UD QP to RTS; each state is
 * read back with ibv_query_qp. libmlx5 then posts on every queue and rings
 * every doorbell (stores into the buffers and UAR pages the stand-in
 * pinned and mapped): the RC QP sends to itself and the UD QP to itself,
 * and the stand-in's engine (an emulated ConnectX's data path) completes
 * both sends and both receives; nothing completes on the second CQ.
 * Everything is destroyed and the device closed.
 *
 * What the kernel pins is checked too: the process's pinned pages
 * (VmPin in /proc/self/status, which ib_umem_get counts) must grow by
 * exactly the pages of each buffer as mlx5 sizes it (CQ: CQE count times
 * CQE size; QP: send WQEs of 64 bytes and receive WQEs of their stride;
 * SRQ: its WQEs; MR: the range), plus one for a doorbell record in a page
 * no live object had, and fall back to where it started.
 *
 * With KT_MLX5_SNAPSHOT set, the shell command it holds runs while every
 * object exists (the guest script lists the kernel's objects with it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#define WITNESS_DRIVER "mlx5"
#include "witness.h"

enum { PORT = 1, BUF = 8192, QKEY = 0x11111111 };

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_srq *srq,
			      enum ibv_qp_type type, const char *name)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = type,
		.cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 16,
			 .max_send_sge = 1, .max_recv_sge = srq ? 0 : 1, .max_inline_data = 0 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);
	struct mlx5dv_qp dq = { 0 };
	struct mlx5dv_obj o = { .qp = { .in = qp, .out = &dq } };
	size_t len;

	if (!qp)
		fail("ibv_create_qp %s: %s (errno %d)", name, strerror(errno), errno);
	if (!qp->qp_num)
		fail("%s QP has number 0", name);
	check_rc(mlx5dv_init_obj(&o, MLX5DV_OBJ_QP), "mlx5dv_init_obj QP");
	if (!dq.sq.buf || dq.sq.wqe_cnt < 16 || dq.sq.stride != 64)
		fail("%s QP: send queue %p, %u WQEs of %u bytes", name, dq.sq.buf, dq.sq.wqe_cnt,
		     dq.sq.stride);
	if (!srq && dq.rq.wqe_cnt < 16)
		fail("%s QP: receive queue of %u WQEs", name, dq.rq.wqe_cnt);
	if (srq && dq.rq.wqe_cnt)
		fail("%s QP on an SRQ has a receive queue of %u WQEs", name, dq.rq.wqe_cnt);
	if (!dq.bf.reg || !dq.dbrec)
		fail("%s QP: no doorbell register (%p) or record (%p)", name, dq.bf.reg,
		     (void *)dq.dbrec);
	/* one buffer: the receive queue, then the send queue */
	len = (size_t)dq.rq.wqe_cnt * dq.rq.stride;
	if ((char *)dq.sq.buf != (char *)dq.rq.buf + len)
		fail("%s QP: send queue at %p, not after the receive queue (%p + %zu)", name,
		     dq.sq.buf, dq.rq.buf, len);
	len += (size_t)dq.sq.wqe_cnt * dq.sq.stride;
	expect_pinned(pages_of(dq.rq.buf, len) + db_get(dq.dbrec), name);
	ok("%s QP %u: %u send WQEs, %u receive WQEs of %u bytes, blue flame %u bytes; "
	   "%zu bytes pinned as mlx5 sizes them", name, qp->qp_num, dq.sq.wqe_cnt,
	   dq.rq.wqe_cnt, dq.rq.stride, dq.bf.size, len);
	expect_state(qp, IBV_QPS_RESET, name);
	return qp;
}

static void to_init(struct ibv_qp *qp, const char *name)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = PORT };
	int mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT;

	if (qp->qp_type == IBV_QPT_UD) {
		a.qkey = QKEY;
		mask |= IBV_QP_QKEY;
	} else {
		a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				    (qp->qp_type == IBV_QPT_RC ? IBV_ACCESS_REMOTE_READ : 0);
		mask |= IBV_QP_ACCESS_FLAGS;
	}
	check_rc(ibv_modify_qp(qp, &a, mask), "ibv_modify_qp to INIT");
	expect_state(qp, IBV_QPS_INIT, name);
}

/* RC and UD through RTR to RTS; an RC QP connected to itself. */
static void to_rts(struct ibv_qp *qp, const struct gids *g, const char *name)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTR };
	int mask = IBV_QP_STATE;

	if (qp->qp_type == IBV_QPT_RC) {
		a.path_mtu = IBV_MTU_1024;
		a.dest_qp_num = qp->qp_num;
		a.rq_psn = 0x100;
		a.max_dest_rd_atomic = 1;
		a.min_rnr_timer = 12;
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = g->gid;
		a.ah_attr.grh.sgid_index = (uint8_t)g->v2_ipv4;
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.port_num = PORT;
		mask |= IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
	}
	check_rc(ibv_modify_qp(qp, &a, mask), "ibv_modify_qp to RTR");
	expect_state(qp, IBV_QPS_RTR, name);

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x100;
	mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
	if (qp->qp_type == IBV_QPT_RC) {
		a.timeout = 14;
		a.retry_cnt = 7;
		a.rnr_retry = 7;
		a.max_rd_atomic = 1;
		mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
	}
	check_rc(ibv_modify_qp(qp, &a, mask), "ibv_modify_qp to RTS");
	expect_state(qp, IBV_QPS_RTS, name);
	ok("%s QP %u: RESET, INIT, RTR, RTS, each read back", name, qp->qp_num);
}

/* The CQ as libmlx5 holds it; its buffer's pages (the kernel pins
 * CQE count times CQE size from the buffer's start). */
static long cq_info(struct ibv_cq *cq, unsigned int want_size, const char *name,
		    struct mlx5dv_cq *out)
{
	struct mlx5dv_cq dc = { 0 };
	struct mlx5dv_obj o = { .cq = { .in = cq, .out = &dc } };

	check_rc(mlx5dv_init_obj(&o, MLX5DV_OBJ_CQ), "mlx5dv_init_obj CQ");
	if (dc.cqe_size != want_size)
		fail("%s: CQEs of %u bytes, not %u", name, dc.cqe_size, want_size);
	if (dc.cqe_cnt != (unsigned int)cq->cqe + 1 || !dc.buf || !dc.dbrec || !dc.cq_uar)
		fail("%s: %u CQEs for cqe %d, buffer %p, record %p, UAR %p", name, dc.cqe_cnt,
		     cq->cqe, dc.buf, (void *)dc.dbrec, dc.cq_uar);
	ok("%s: cqn %u, %u CQEs of %u bytes", name, dc.cqn, dc.cqe_cnt, dc.cqe_size);
	if (out)
		*out = dc;
	return pages_of(dc.buf, (size_t)dc.cqe_cnt * dc.cqe_size);
}

/* The two sends and the two receives of the post step, each a success,
 * within 10 s (the stand-in's engine under TCG). */
static void four_completions(struct ibv_cq *cq)
{
	int sends = 0, recvs = 0;

	for (int tries = 0; sends + recvs < 4 && tries < 10000; tries++) {
		struct ibv_wc wc;
		int n = ibv_poll_cq(cq, 1, &wc);

		if (n < 0) {
			fail("ibv_poll_cq after the posts: %d", n);
			return;
		}
		if (!n) {
			usleep(1000);
			continue;
		}
		if (wc.status != IBV_WC_SUCCESS) {
			fail("a completion of opcode %d: status %s (vendor error 0x%x)", wc.opcode,
			     ibv_wc_status_str(wc.status), wc.vendor_err);
			continue;
		}
		if (wc.opcode == IBV_WC_SEND)
			sends++;
		else if (wc.opcode == IBV_WC_RECV)
			recvs++;
		else
			fail("a completion of opcode %d", wc.opcode);
	}
	if (sends != 2 || recvs != 2)
		fail("after the posts: %d send and %d receive completions, 2 of each expected",
		     sends, recvs);
}

static void no_completion(struct ibv_cq *cq, const char *name)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(cq, 1, &wc);

	if (n != 0)
		fail("%s: ibv_poll_cq gave %d (a completion from a device without a data path?)",
		     name, n);
}

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : "mlx5_0";
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr port;
	struct mlx5dv_context dv = { .comp_mask = MLX5DV_CONTEXT_MASK_DYN_BFREGS };
	struct ibv_pd *pd;
	struct ibv_cq *cq, *cq128;
	struct ibv_mr *mr;
	struct ibv_srq *srq;
	struct ibv_qp *rc, *rc_srq, *uc, *ud;
	struct ibv_ah *ah;
	struct gids g;
	long pinned_at_open;
	char *buf;
	int n;

	step = "device list";
	list = ibv_get_device_list(&n);
	if (!list)
		fail("ibv_get_device_list: %s", strerror(errno));
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), want))
			dev = list[i];
	if (!dev)
		fail("no device %s among %d", want, n);
	if (!mlx5dv_is_supported(dev))
		fail("%s is not driven by libmlx5", want);
	ok("%s found among %d devices, libmlx5 drives it", want, n);

	step = "open";
	ctx = check_ptr(ibv_open_device(dev), "ibv_open_device");
	check_rc(mlx5dv_query_device(ctx, &dv), "mlx5dv_query_device");
	if (!(dv.flags & MLX5DV_CONTEXT_FLAGS_CQE_V1))
		fail("the context did not take CQE version 1 (flags 0x%llx)",
		     (unsigned long long)dv.flags);
	ok("libmlx5 context: CQE version 1, %u dynamic bfregs", dv.max_dynamic_bfregs);

	step = "query";
	check_rc(ibv_query_device_ex(ctx, NULL, &dx), "ibv_query_device_ex");
	if (dx.orig_attr.vendor_id != 0x02c9 || dx.orig_attr.max_qp < 1 || dx.orig_attr.max_cqe < 1)
		fail("vendor 0x%x, max_qp %d, max_cqe %d", dx.orig_attr.vendor_id,
		     dx.orig_attr.max_qp, dx.orig_attr.max_cqe);
	check_rc(ibv_query_port(ctx, PORT, &port), "ibv_query_port");
	if (port.link_layer != IBV_LINK_LAYER_ETHERNET || port.state != IBV_PORT_ACTIVE ||
	    port.gid_tbl_len < 1)
		fail("port: link layer %u, state %d, %d GIDs", port.link_layer, port.state,
		     port.gid_tbl_len);
	find_gids(ctx, port.gid_tbl_len, &g);
	ok("vendor 0x%x part %u, port active on Ethernet, RoCE v2 IPv4 GID at index %d",
	   dx.orig_attr.vendor_id, dx.orig_attr.vendor_part_id, g.v2_ipv4);

	page_size = sysconf(_SC_PAGESIZE);
	pinned_at_open = pinned_pages = vmpin_pages();

	step = "PD";
	pd = check_ptr(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	ok("allocated");

	step = "CQ";
	cq = check_ptr(ibv_create_cq(ctx, 16, NULL, NULL, 0), "ibv_create_cq");
	if (cq->cqe < 16)
		fail("cqe %d for 16 asked", cq->cqe);
	{
		struct mlx5dv_cq dc;
		long pages = cq_info(cq, 64, "CQ", &dc);

		expect_pinned(pages + db_get(dc.dbrec), "CQ");
		no_completion(cq, "CQ");
		check_rc(ibv_req_notify_cq(cq, 0), "ibv_req_notify_cq");	/* a store to the UAR */
		check_rc(ibv_resize_cq(cq, 100), "ibv_resize_cq");
		if (cq->cqe < 100)
			fail("cqe %d after a resize to 100", cq->cqe);
		/* the new buffer pinned, the old one let go */
		expect_pinned(cq_info(cq, 64, "CQ resized", NULL) - pages, "CQ resized");
	}
	no_completion(cq, "CQ resized");
	check_rc(ibv_req_notify_cq(cq, 1), "ibv_req_notify_cq solicited");
	ok("pinned as mlx5 sizes it, polled empty, armed, resized to %d (pinned again), "
	   "polled and armed again", cq->cqe);

	step = "CQ of 128-byte CQEs";
	{
		struct ibv_cq_init_attr_ex ca = { .cqe = 8, .wc_flags = IBV_WC_STANDARD_FLAGS };
		struct mlx5dv_cq_init_attr ma = { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE,
						   .cqe_size = 128 };
		struct ibv_cq_ex *cx = check_ptr(mlx5dv_create_cq(ctx, &ca, &ma), "mlx5dv_create_cq");
		struct mlx5dv_cq dc;
		long pages;

		cq128 = ibv_cq_ex_to_cq(cx);
		pages = cq_info(cq128, 128, "CQ128", &dc);
		expect_pinned(pages + db_get(dc.dbrec), "CQ128");
		no_completion(cq128, "CQ128");
	}

	step = "MR";
	buf = check_ptr(aligned_alloc(4096, BUF), "aligned_alloc");
	memset(buf, 0x5a, BUF);
	mr = check_ptr(ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ |
				  IBV_ACCESS_REMOTE_WRITE), "ibv_reg_mr");
	if (!mr->lkey || mr->lkey != mr->rkey)
		fail("lkey 0x%x rkey 0x%x", mr->lkey, mr->rkey);
	expect_pinned(pages_of(buf, BUF), "MR");
	ok("lkey 0x%x, its %ld pages pinned", mr->lkey, pages_of(buf, BUF));

	step = "SRQ";
	{
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };
		struct ibv_srq_attr q;

		struct mlx5dv_srq ds = { 0 };
		struct mlx5dv_obj o = { .srq = { .in = NULL, .out = &ds } };

		srq = check_ptr(ibv_create_srq(pd, &sa), "ibv_create_srq");
		if (sa.attr.max_wr < 16)
			fail("max_wr %u for 16 asked", sa.attr.max_wr);
		o.srq.in = srq;
		check_rc(mlx5dv_init_obj(&o, MLX5DV_OBJ_SRQ), "mlx5dv_init_obj SRQ");
		check_rc(ibv_query_srq(srq, &q), "ibv_query_srq");
		if (q.max_wr < 16 || q.max_sge < 1 || q.max_wr < ds.tail)
			fail("queried max_wr %u max_sge %u, libmlx5's last WQE %u", q.max_wr,
			     q.max_sge, ds.tail);
		/* libmlx5 sends its WQE count less one (its own WQEs and a wait
		 * queue behind them); the kernel answers it back as max_wr and
		 * pins that many WQEs of libmlx5's stride */
		expect_pinned(pages_of(ds.buf, ((size_t)q.max_wr + 1) * ds.stride) + db_get(ds.dbrec),
			      "SRQ");
		ok("%u WQEs of %u bytes pinned", q.max_wr + 1, ds.stride);
		q.srq_limit = 4;
		check_rc(ibv_modify_srq(srq, &q, IBV_SRQ_LIMIT), "ibv_modify_srq limit");
		check_rc(ibv_query_srq(srq, &q), "ibv_query_srq");
		if (q.srq_limit != 4)
			fail("limit %u after setting 4", q.srq_limit);
		ok("max_wr %u, limit set and read back", q.max_wr);
	}

	step = "QP";
	rc = make_qp(pd, cq, NULL, IBV_QPT_RC, "RC");
	rc_srq = make_qp(pd, cq128, srq, IBV_QPT_RC, "RC on the SRQ");
	uc = make_qp(pd, cq, NULL, IBV_QPT_UC, "UC");
	ud = make_qp(pd, cq, NULL, IBV_QPT_UD, "UD");

	step = "AH";
	{
		struct ibv_ah_attr aa = {
			.is_global = 1, .port_num = PORT,
			.grh = { .dgid = g.gid, .sgid_index = (uint8_t)g.v2_ipv4, .hop_limit = 64 },
		};
		struct mlx5dv_ah da = { 0 };
		struct mlx5dv_obj o = { .ah = { .in = NULL, .out = &da } };

		ah = check_ptr(ibv_create_ah(pd, &aa), "ibv_create_ah");
		o.ah.in = ah;
		check_rc(mlx5dv_init_obj(&o, MLX5DV_OBJ_AH), "mlx5dv_init_obj AH");
		if (memcmp(da.av->rmac, g.mac, 6))
			fail("destination MAC %02x:%02x:%02x:%02x:%02x:%02x, the port's is "
			     "%02x:%02x:%02x:%02x:%02x:%02x", da.av->rmac[0], da.av->rmac[1],
			     da.av->rmac[2], da.av->rmac[3], da.av->rmac[4], da.av->rmac[5],
			     g.mac[0], g.mac[1], g.mac[2], g.mac[3], g.mac[4], g.mac[5]);
		ok("to the port's own IPv4 GID: destination MAC %02x:%02x:%02x:%02x:%02x:%02x",
		   g.mac[0], g.mac[1], g.mac[2], g.mac[3], g.mac[4], g.mac[5]);
	}

	step = "modify";
	to_init(rc, "RC");
	to_init(rc_srq, "RC on the SRQ");
	to_init(uc, "UC");
	to_init(ud, "UD");
	ok("RC, RC on the SRQ, UC and UD in INIT");
	to_rts(rc, &g, "RC");
	to_rts(ud, &g, "UD");

	step = "snapshot";
	{
		const char *cmd = getenv("KT_MLX5_SNAPSHOT");

		if (cmd) {
			int rc_sys = system(cmd);

			if (rc_sys != 0)
				fail("'%s' exited %d", cmd, rc_sys);
			ok("'%s' ran with every object alive", cmd);
		}
	}

	step = "post";
	{
		/* A UD receive holds the 40-byte GRH before the message: 16
		 * bytes sent fit the 64 received. */
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
		struct ibv_sge ssge = { .addr = (uintptr_t)buf + 1024, .length = 16, .lkey = mr->lkey };
		struct ibv_recv_wr rw = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad_r;
		struct ibv_send_wr sw = { .wr_id = 2, .sg_list = &ssge, .num_sge = 1,
					  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
		struct ibv_send_wr *bad_s;

		check_rc(ibv_post_srq_recv(srq, &rw, &bad_r), "ibv_post_srq_recv");
		check_rc(ibv_post_recv(rc, &rw, &bad_r), "ibv_post_recv RC");
		check_rc(ibv_post_recv(ud, &rw, &bad_r), "ibv_post_recv UD");
		check_rc(ibv_post_send(rc, &sw, &bad_s), "ibv_post_send RC");
		sw.wr.ud.ah = ah;
		sw.wr.ud.remote_qpn = ud->qp_num;
		sw.wr.ud.remote_qkey = QKEY;
		check_rc(ibv_post_send(ud, &sw, &bad_s), "ibv_post_send UD");
		four_completions(cq);
		no_completion(cq, "CQ after its four completions");
		no_completion(cq128, "CQ128 after the posts");
		ok("receives on the SRQ, RC and UD, sends on RC and UD to themselves: both sends "
		   "and both receives complete, nothing more");
	}

	step = "destroy";
	check_rc(ibv_destroy_ah(ah), "ibv_destroy_ah");
	check_rc(ibv_destroy_qp(ud), "ibv_destroy_qp UD");
	check_rc(ibv_destroy_qp(uc), "ibv_destroy_qp UC");
	check_rc(ibv_destroy_qp(rc_srq), "ibv_destroy_qp RC on the SRQ");
	check_rc(ibv_destroy_qp(rc), "ibv_destroy_qp RC");
	check_rc(ibv_destroy_srq(srq), "ibv_destroy_srq");
	check_rc(ibv_dereg_mr(mr), "ibv_dereg_mr");
	check_rc(ibv_destroy_cq(cq128), "ibv_destroy_cq CQ128");
	check_rc(ibv_destroy_cq(cq), "ibv_destroy_cq");
	check_rc(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	check_rc(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	if (vmpin_pages() != pinned_at_open)
		fail("%ld pages still pinned, %ld before the first object", vmpin_pages(),
		     pinned_at_open);
	ok("every object destroyed, the device closed, nothing left pinned");
	printf("kt_mlx5_witness: PASS\n");
	return 0;
}
