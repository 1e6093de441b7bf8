/*
 * Debian's libirdma, unmodified, through libibverbs, on the irdma stand-in
 * (tests/standin/irdma): the witness that the stand-in answers what libirdma
 * sends. Every step is checked; the first failure ends the program with a
 * message naming the step and exit status 1.
 *
 *   kt_irdma_witness [DEVICE]        (default irdma0)
 *
 * Opens the device (libirdma's context: GET_CONTEXT with userspace_ver 5,
 * the doorbell page mapped by the key the kernel answered, a PD of its own),
 * queries it and its port, finds the RoCE v2 GID of an IPv4 address, and
 * makes a PD, a CQ of 16 CQEs, a second CQ of 8 through the extended verb,
 * an MR of 8 KiB, QPs RC and UD of 16 send and 16 receive WRs of one SGE,
 * and an AH to that GID. Each CQ and QP is made as libirdma makes it: its
 * queue memory registered first (REG_MR with irdma's request, reg_type CQ
 * or QP and the page counts), then the CQ or QP created on it. The RC QP
 * goes through INIT and RTR (to itself) to RTS, the UD QP to RTS; each
 * state is read back with ibv_query_qp. libirdma then posts on every queue
 * and rings the doorbell page the stand-in mapped; nothing completes, as
 * the stand-in has no data path. Everything is destroyed and the device
 * closed.
 *
 * What the kernel pins is checked too: the process's pinned pages (VmPin in
 * /proc/self/status, which ib_umem_get counts) must grow by exactly the
 * pages of each region as irdma's rules size it and fall back to where they
 * started. A CQ of N: (N + 1) x 2 CQEs (one more for immediate data, GEN_2)
 * of 32 bytes rounded up to 4 KiB, plus the page of its shadow area
 * (registered on its own: the device has CQ_RESIZE). A QP of 16 WRs of one
 * SGE: send WQEs of 2 quanta (the SGE and the immediate), a depth of
 * 16 x 2 + 258 reserved rounded up to a power of two (512 quanta of 32
 * bytes: 4 pages), a receive depth of 16 + 1 rounded up (32 quanta: 1
 * page), and the shadow area's page; the caps answered (512 - 258) >> 1 =
 * 127 send and 32 - 1 = 31 receive WRs. The MR: its range.
 *
 * With KT_IRDMA_SNAPSHOT set, the shell command it holds runs while every
 * object exists (the guest script lists the kernel's objects with it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define WITNESS_DRIVER "irdma"
#include "witness.h"

enum { PORT = 1, BUF = 8192, QKEY = 0x11111111 };

/* ---- the pages the kernel pins, by the driver's sizes ---- */

/* irdma's sizes for a CQ of N CQEs: the buffer's pages and the shadow
 * area's one (get_cq_size and get_cq_total_bytes, GEN_2). */
static long cq_pages(int n)
{
	long cqes = ((long)n + 1) * 2;

	if (cqes < 4)
		cqes = 4;
	return (cqes * 32 + 4095) / 4096 + 1;
}

static uint32_t pow2_up(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static void no_completion(struct ibv_cq *cq, const char *name)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(cq, 1, &wc);

	if (n != 0)
		fail("%s: ibv_poll_cq gave %d (a completion from a device without a data path?)",
		     name, n);
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq, enum ibv_qp_type type,
			      const char *name)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1, .max_inline_data = 0 },
	};
	/* GEN_2: one SGE and the immediate make 2 fragments: 2-quantum WQEs
	 * (shift 1); the receive WQE one quantum (shift 0) */
	uint32_t sq_depth = pow2_up((16u << 1) + 258), rq_depth = pow2_up(16u + 1);
	long sq_pages = ((long)sq_depth * 32 + 4095) / 4096;
	long rq_pages = ((long)rq_depth * 32 + 4095) / 4096;
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);

	if (!qp)
		fail("ibv_create_qp %s: %s (errno %d)", name, strerror(errno), errno);
	if (!qp->qp_num || qp->qp_num == 1)
		fail("%s QP has number %u", name, qp->qp_num);
	if (ia.cap.max_send_wr != (sq_depth - 258) >> 1 || ia.cap.max_recv_wr != rq_depth - 1)
		fail("%s QP: caps %u send %u receive WRs, irdma's depths make %u and %u", name,
		     ia.cap.max_send_wr, ia.cap.max_recv_wr, (sq_depth - 258) >> 1, rq_depth - 1);
	expect_pinned(sq_pages + rq_pages + 1, name);
	ok("%s QP %u: %u send and %u receive WRs; %ld + %ld pages and the shadow area's "
	   "registered and pinned", name, qp->qp_num, ia.cap.max_send_wr, ia.cap.max_recv_wr,
	   sq_pages, rq_pages);
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
				    IBV_ACCESS_REMOTE_READ;
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

static void read_abi(struct ibv_device *dev)
{
	char path[512], v[16] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/abi_version", dev->dev_path);
	f = fopen(path, "r");
	if (!f || !fgets(v, sizeof(v), f))
		fail("%s: %s", path, strerror(errno));
	fclose(f);
	if (atoi(v) != 5)
		fail("uverbs ABI version %s, not irdma's 5", v);
	ok("uverbs ABI version %d", atoi(v));
}

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : "irdma0";
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr port;
	struct ibv_pd *pd;
	struct ibv_cq *cq, *cq2;
	struct ibv_mr *mr;
	struct ibv_qp *rc, *ud;
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
	ok("libirdma context (its doorbell page mapped, its own PD allocated)");

	step = "query";
	check_rc(ibv_query_device_ex(ctx, NULL, &dx), "ibv_query_device_ex");
	if (dx.orig_attr.vendor_id != 0x8086 || dx.orig_attr.vendor_part_id != 0x1592 ||
	    dx.orig_attr.max_qp < 1 || dx.orig_attr.max_cqe < 1)
		fail("vendor 0x%x part 0x%x, max_qp %d, max_cqe %d", dx.orig_attr.vendor_id,
		     dx.orig_attr.vendor_part_id, dx.orig_attr.max_qp, dx.orig_attr.max_cqe);
	check_rc(ibv_query_port(ctx, PORT, &port), "ibv_query_port");
	if (port.link_layer != IBV_LINK_LAYER_ETHERNET || port.state != IBV_PORT_ACTIVE ||
	    port.gid_tbl_len < 1)
		fail("port: link layer %u, state %d, %d GIDs", port.link_layer, port.state,
		     port.gid_tbl_len);
	find_gids(ctx, port.gid_tbl_len, &g);
	ok("vendor 0x%x part 0x%x fw %s, port active on Ethernet, RoCE v2 IPv4 GID at index %d",
	   dx.orig_attr.vendor_id, dx.orig_attr.vendor_part_id, dx.orig_attr.fw_ver, g.v2_ipv4);
	page_size = sysconf(_SC_PAGESIZE);
	if (page_size != 4096)
		fail("page size %ld: the sizes below are irdma's 4 KiB pages", page_size);
	pinned_at_open = pinned_pages = vmpin_pages();

	step = "PD";
	pd = check_ptr(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	ok("allocated");

	step = "CQ";
	cq = check_ptr(ibv_create_cq(ctx, 16, NULL, NULL, 0), "ibv_create_cq");
	if (cq->cqe != 16)
		fail("cqe %d for 16 asked (libirdma reports what was asked)", cq->cqe);
	expect_pinned(cq_pages(16), "CQ");
	no_completion(cq, "CQ");
	check_rc(ibv_req_notify_cq(cq, 0), "ibv_req_notify_cq");	/* a store to the doorbell page */
	ok("buffer and shadow area registered and pinned (%ld pages), polled empty, armed",
	   cq_pages(16));

	step = "CQ through the extended verb";
	{
		struct ibv_cq_init_attr_ex ca = { .cqe = 8, .wc_flags = IBV_WC_STANDARD_FLAGS };
		struct ibv_cq_ex *cx = check_ptr(ibv_create_cq_ex(ctx, &ca), "ibv_create_cq_ex");

		cq2 = ibv_cq_ex_to_cq(cx);
		expect_pinned(cq_pages(8), "CQ2");
		no_completion(cq2, "CQ2");
		ok("registered and pinned (%ld pages), polled empty", cq_pages(8));
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

	step = "QP";
	rc = make_qp(pd, cq, IBV_QPT_RC, "RC");
	ud = make_qp(pd, cq2, IBV_QPT_UD, "UD");
	if (rc->qp_num == ud->qp_num)
		fail("RC and UD QPs share number %u", rc->qp_num);

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
	to_init(ud, "UD");
	ok("RC and UD in INIT");
	to_rts(rc, &g, "RC");
	to_rts(ud, &g, "UD");

	step = "snapshot";
	{
		const char *cmd = getenv("KT_IRDMA_SNAPSHOT");

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

		check_rc(ibv_post_recv(rc, &rw, &bad_r), "ibv_post_recv RC");
		check_rc(ibv_post_recv(ud, &rw, &bad_r), "ibv_post_recv UD");
		check_rc(ibv_post_send(rc, &sw, &bad_s), "ibv_post_send RC");
		sw.wr.ud.ah = ah;
		sw.wr.ud.remote_qpn = ud->qp_num;
		sw.wr.ud.remote_qkey = QKEY;
		check_rc(ibv_post_send(ud, &sw, &bad_s), "ibv_post_send UD");
		no_completion(cq, "CQ after the posts");
		no_completion(cq2, "CQ2 after the posts");
		ok("receives on RC and UD, sends on RC and UD rung; nothing completes");
	}

	step = "destroy";
	check_rc(ibv_destroy_ah(ah), "ibv_destroy_ah");
	check_rc(ibv_destroy_qp(ud), "ibv_destroy_qp UD");
	check_rc(ibv_destroy_qp(rc), "ibv_destroy_qp RC");
	check_rc(ibv_dereg_mr(mr), "ibv_dereg_mr");
	check_rc(ibv_destroy_cq(cq2), "ibv_destroy_cq CQ2");
	check_rc(ibv_destroy_cq(cq), "ibv_destroy_cq");
	check_rc(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	if (vmpin_pages() != pinned_at_open)
		fail("%ld pages still pinned, %ld before the first object", vmpin_pages(),
		     pinned_at_open);
	check_rc(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	ok("every object destroyed (each queue's regions deregistered), the device closed, "
	   "nothing left pinned");
	printf("kt_irdma_witness: PASS\n");
	return 0;
}
