/*
 * Debian's libmlx4, unmodified, through libibverbs, on the mlx4 stand-in
 * (tests/standin/mlx4): the witness that the stand-in answers what libmlx4
 * sends. Every step is checked; the first failure ends the program with a
 * message naming the step and exit status 1.
 *
 *   kt_mlx4_witness [DEVICE]        (default mlx4_0)
 *
 * Opens the device (libmlx4's context: the UAR and blue-flame pages it
 * maps), queries it and its port, finds the RoCE v2 GID of an IPv4 address,
 * and makes a PD, a CQ of 16 CQEs (resized to 100), a second CQ of 8 through
 * the extended verb, an MR of 8 KiB, an SRQ of 16 WRs, QPs RC (with a
 * receive queue, and on the SRQ), UC and UD of 16 send and 16 receive WRs
 * of one SGE, and an AH to that GID. The RC QP goes through INIT and RTR (to
 * itself) to RTS, the UD QP to RTS; each state is read back with
 * ibv_query_qp. libmlx4 then posts on every queue and rings every doorbell
 * (stores into the buffers and UAR page the stand-in pinned and mapped);
 * nothing completes, as the stand-in has no data path. Everything is
 * destroyed and the device closed.
 *
 * What the kernel pins is checked too: the process's pinned pages
 * (VmPin in /proc/self/status, which ib_umem_get counts) must grow by
 * exactly the pages of each buffer as mlx4 sizes it (CQ: entries times the
 * context's CQE size, 64 bytes on a device of uverbs ABI 4, 32 on one of
 * ABI 3; QP: the receive WQEs and the send WQEs of the
 * strides libmlx4 chose; SRQ: its WQEs; MR: the range), plus one for a
 * doorbell record in a page no live object had, and fall back to where it
 * started. The sizes themselves are checked against mlx4's rules for these
 * requests (send WQE stride 64 bytes for RC and UC, 128 for UD, the count
 * being 16 WRs plus 2 KiB of prefetch headroom and one WQE, rounded up to a
 * power of two; receive WQEs of 16 bytes).
 *
 * With KT_MLX4_SNAPSHOT set, the shell command it holds runs while every
 * object exists (the guest script lists the kernel's objects with it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx4dv.h>
#include <infiniband/verbs.h>

#define WITNESS_DRIVER "mlx4"
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
	struct mlx4dv_qp dq = { 0 };
	struct mlx4dv_obj o = { .qp = { .in = qp, .out = &dq } };
	/* mlx4's send WQE for one SGE and no inline data: ctrl 16 + data 16
	 * + raddr 16 (RC: room for an atomic, 48), UD datagram 48, rounded up
	 * to a power of two of at least 64; 16 WRs + (2048 >> stride) + 1
	 * (49 for 64 bytes, 33 for 128), rounded up to a power of two: 64 */
	int want_shift = type == IBV_QPT_UD ? 7 : 6;
	uint32_t want_sq = 64;
	size_t len;

	if (!qp)
		fail("ibv_create_qp %s: %s (errno %d)", name, strerror(errno), errno);
	if (!qp->qp_num)
		fail("%s QP has number 0", name);
	check_rc(mlx4dv_init_obj(&o, MLX4DV_OBJ_QP), "mlx4dv_init_obj QP");
	if (dq.sq.wqe_shift != want_shift || dq.sq.wqe_cnt != want_sq)
		fail("%s QP: %u send WQEs of %d bytes, mlx4's rules make %u of %d", name,
		     dq.sq.wqe_cnt, 1 << dq.sq.wqe_shift, want_sq, 1 << want_shift);
	if (!srq && (dq.rq.wqe_cnt != 16 || dq.rq.wqe_shift != 4))
		fail("%s QP: receive queue of %u WQEs of %d bytes, not 16 of 16", name,
		     dq.rq.wqe_cnt, 1 << dq.rq.wqe_shift);
	if (srq && (dq.rq.wqe_cnt || dq.rdb))
		fail("%s QP on an SRQ has a receive queue of %u WQEs, record %p", name,
		     dq.rq.wqe_cnt, (void *)dq.rdb);
	if (!srq && !dq.rdb)
		fail("%s QP: no receive doorbell record", name);
	if (!dq.buf.buf || !dq.sdb)
		fail("%s QP: buffer %p, send doorbell %p", name, dq.buf.buf, (void *)dq.sdb);
	/* one buffer: the queue of the larger stride first */
	len = ((size_t)dq.rq.wqe_cnt << dq.rq.wqe_shift) + ((size_t)dq.sq.wqe_cnt << dq.sq.wqe_shift);
	if (dq.sq.offset != 0 || (size_t)dq.rq.offset != (size_t)dq.sq.wqe_cnt << dq.sq.wqe_shift)
		fail("%s QP: send queue at +%d, receive queue at +%d", name, dq.sq.offset,
		     dq.rq.offset);
	expect_pinned(pages_of(dq.buf.buf, len) + (dq.rdb ? db_get(dq.rdb) : 0), name);
	ok("%s QP %u: %u send WQEs of %d bytes, %u receive WQEs of %d bytes; "
	   "%zu bytes pinned as mlx4 sizes them", name, qp->qp_num, dq.sq.wqe_cnt,
	   1 << dq.sq.wqe_shift, dq.rq.wqe_cnt, 1 << dq.rq.wqe_shift, len);
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

/* The CQE size the context offers: 64 bytes on a device of uverbs ABI 4
 * (the stand-in's large-CQE capability), 32 on one of ABI 3. */
static int want_cqe_size = 64;

static void read_abi(struct ibv_device *dev)
{
	char path[512], v[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/abi_version", dev->dev_path);
	f = fopen(path, "r");
	if (!f || !fgets(v, sizeof(v), f))
		fail("%s: %s", path, strerror(errno));
	fclose(f);
	if (atoi(v) == 3)
		want_cqe_size = 32;
	else if (atoi(v) != 4)
		fail("uverbs ABI version %s, not mlx4's 3 or 4", v);
	ok("uverbs ABI version %d: %d-byte CQEs", atoi(v), want_cqe_size);
}

/* The CQ as libmlx4 holds it; its buffer's pages (the kernel pins
 * entries times the CQE size from the buffer's start). */
static long cq_info(struct ibv_cq *cq, const char *name, struct mlx4dv_cq *out)
{
	struct mlx4dv_cq dc = { .comp_mask = MLX4DV_CQ_MASK_UAR };	/* and its UAR page */
	struct mlx4dv_obj o = { .cq = { .in = cq, .out = &dc } };

	check_rc(mlx4dv_init_obj(&o, MLX4DV_OBJ_CQ), "mlx4dv_init_obj CQ");
	if (dc.cqe_size != want_cqe_size)
		fail("%s: CQEs of %d bytes, not the %d the context offers", name, dc.cqe_size,
		     want_cqe_size);
	if (dc.cqe_cnt != (unsigned int)cq->cqe + 1 || !dc.buf.buf || !dc.set_ci_db ||
	    dc.arm_db != dc.set_ci_db + 1 || !dc.cq_uar)
		fail("%s: %u CQEs for cqe %d, buffer %p, records %p %p, UAR %p", name, dc.cqe_cnt,
		     cq->cqe, dc.buf.buf, (void *)dc.set_ci_db, (void *)dc.arm_db, dc.cq_uar);
	ok("%s: cqn %u, %u CQEs of %d bytes", name, dc.cqn, dc.cqe_cnt, dc.cqe_size);
	if (out)
		*out = dc;
	return pages_of(dc.buf.buf, (size_t)dc.cqe_cnt * (size_t)dc.cqe_size);
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
	const char *want = argc > 1 ? argv[1] : "mlx4_0";
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr port;
	struct ibv_pd *pd;
	struct ibv_cq *cq, *cq2;
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
	ok("%s found among %d devices", want, n);
	read_abi(dev);

	step = "open";
	ctx = check_ptr(ibv_open_device(dev), "ibv_open_device");
	ok("libmlx4 context (its UAR and blue-flame pages mapped)");

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
	ok("vendor 0x%x part %u fw %s, port active on Ethernet, RoCE v2 IPv4 GID at index %d",
	   dx.orig_attr.vendor_id, dx.orig_attr.vendor_part_id, dx.orig_attr.fw_ver, g.v2_ipv4);

	page_size = sysconf(_SC_PAGESIZE);
	pinned_at_open = pinned_pages = vmpin_pages();

	step = "PD";
	pd = check_ptr(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	ok("allocated");

	step = "CQ";
	cq = check_ptr(ibv_create_cq(ctx, 16, NULL, NULL, 0), "ibv_create_cq");
	if (cq->cqe != 31)
		fail("cqe %d for 16 asked (mlx4: 16 + 1 rounded up to 32, less one)", cq->cqe);
	{
		struct mlx4dv_cq dc;
		long pages = cq_info(cq, "CQ", &dc);

		expect_pinned(pages + db_get(dc.set_ci_db), "CQ");
		no_completion(cq, "CQ");
		check_rc(ibv_req_notify_cq(cq, 0), "ibv_req_notify_cq");	/* a store to the UAR */
		/* libmlx4 waits for the resize CQE in the old buffer */
		check_rc(ibv_resize_cq(cq, 100), "ibv_resize_cq");
		if (cq->cqe != 127)
			fail("cqe %d after a resize to 100", cq->cqe);
		/* the new buffer pinned, the old one let go */
		expect_pinned(cq_info(cq, "CQ resized", NULL) - pages, "CQ resized");
	}
	no_completion(cq, "CQ resized");
	check_rc(ibv_req_notify_cq(cq, 1), "ibv_req_notify_cq solicited");
	ok("pinned as mlx4 sizes it, polled empty, armed, resized to %d (pinned again), "
	   "polled and armed again", cq->cqe);

	step = "CQ through the extended verb";
	{
		struct ibv_cq_init_attr_ex ca = { .cqe = 8, .wc_flags = IBV_WC_STANDARD_FLAGS };
		struct ibv_cq_ex *cx = check_ptr(ibv_create_cq_ex(ctx, &ca), "ibv_create_cq_ex");
		struct mlx4dv_cq dc;
		long pages;

		cq2 = ibv_cq_ex_to_cq(cx);
		pages = cq_info(cq2, "CQ2", &dc);
		expect_pinned(pages + db_get(dc.set_ci_db), "CQ2");
		no_completion(cq2, "CQ2");
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
		struct mlx4dv_srq ds = { 0 };
		struct mlx4dv_obj o = { .srq = { .in = NULL, .out = &ds } };

		srq = check_ptr(ibv_create_srq(pd, &sa), "ibv_create_srq");
		/* 16 + 1 rounded up to 32 descriptors, answered as 31 */
		if (sa.attr.max_wr != 31)
			fail("max_wr %u for 16 asked", sa.attr.max_wr);
		o.srq.in = srq;
		check_rc(mlx4dv_init_obj(&o, MLX4DV_OBJ_SRQ), "mlx4dv_init_obj SRQ");
		check_rc(ibv_query_srq(srq, &q), "ibv_query_srq");
		if (q.max_wr != 31 || q.max_sge != 1 || ds.wqe_shift != 5 || ds.tail != 31 || !ds.db)
			fail("queried max_wr %u max_sge %u; libmlx4's stride %d, last WQE %d, record %p",
			     q.max_wr, q.max_sge, 1 << ds.wqe_shift, ds.tail, (void *)ds.db);
		/* 32 descriptors of 16 + 16 bytes (at least 32) */
		expect_pinned(pages_of(ds.buf.buf, (size_t)32 << ds.wqe_shift) + db_get(ds.db), "SRQ");
		ok("%u WQEs of %d bytes pinned", q.max_wr + 1, 1 << ds.wqe_shift);
		q.srq_limit = 4;
		check_rc(ibv_modify_srq(srq, &q, IBV_SRQ_LIMIT), "ibv_modify_srq limit");
		check_rc(ibv_query_srq(srq, &q), "ibv_query_srq");
		if (q.srq_limit != 4)
			fail("limit %u after setting 4", q.srq_limit);
		ok("max_wr %u, limit set and read back", q.max_wr);
	}

	step = "QP";
	rc = make_qp(pd, cq, NULL, IBV_QPT_RC, "RC");
	rc_srq = make_qp(pd, cq2, srq, IBV_QPT_RC, "RC on the SRQ");
	uc = make_qp(pd, cq, NULL, IBV_QPT_UC, "UC");
	ud = make_qp(pd, cq, NULL, IBV_QPT_UD, "UD");

	step = "AH";
	{
		struct ibv_ah_attr aa = {
			.is_global = 1, .port_num = PORT,
			.grh = { .dgid = g.gid, .sgid_index = (uint8_t)g.v2_ipv4, .hop_limit = 64 },
		};

		ah = check_ptr(ibv_create_ah(pd, &aa), "ibv_create_ah");
		ok("to the port's own IPv4 GID");
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
		const char *cmd = getenv("KT_MLX4_SNAPSHOT");

		if (cmd) {
			int rc_sys = system(cmd);

			if (rc_sys != 0)
				fail("'%s' exited %d", cmd, rc_sys);
			ok("'%s' ran with every object alive", cmd);
		}
	}

	step = "post";
	{
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
		struct ibv_recv_wr rw = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *bad_r;
		struct ibv_send_wr sw = { .wr_id = 2, .sg_list = &sge, .num_sge = 1,
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
		no_completion(cq, "CQ after the posts");
		no_completion(cq2, "CQ2 after the posts");
		ok("receives on the SRQ, RC and UD, sends on RC and UD rung; nothing completes");
	}

	step = "destroy";
	check_rc(ibv_destroy_ah(ah), "ibv_destroy_ah");
	check_rc(ibv_destroy_qp(ud), "ibv_destroy_qp UD");
	check_rc(ibv_destroy_qp(uc), "ibv_destroy_qp UC");
	check_rc(ibv_destroy_qp(rc_srq), "ibv_destroy_qp RC on the SRQ");
	check_rc(ibv_destroy_qp(rc), "ibv_destroy_qp RC");
	check_rc(ibv_destroy_srq(srq), "ibv_destroy_srq");
	check_rc(ibv_dereg_mr(mr), "ibv_dereg_mr");
	check_rc(ibv_destroy_cq(cq2), "ibv_destroy_cq CQ2");
	check_rc(ibv_destroy_cq(cq), "ibv_destroy_cq");
	check_rc(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	check_rc(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	if (vmpin_pages() != pinned_at_open)
		fail("%ld pages still pinned, %ld before the first object", vmpin_pages(),
		     pinned_at_open);
	ok("every object destroyed, the device closed, nothing left pinned");
	printf("kt_mlx4_witness: PASS\n");
	return 0;
}
