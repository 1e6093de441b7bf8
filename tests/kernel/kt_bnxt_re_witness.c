/*
 * Debian's libbnxt_re, unmodified, through libibverbs, on the bnxt_re
 * stand-in (tests/standin/bnxt_re): the witness that the stand-in answers
 * what libbnxt_re sends. Every step is checked; the first failure ends the
 * program with a message naming the step and exit status 1.
 *
 *   kt_bnxt_re_witness [DEVICE]        (default bnxt_re0)
 *
 * Opens the device (libbnxt_re's context: the shared page it maps), queries
 * it and its port, finds the RoCE v2 GID of an IPv4 address, and makes a PD
 * (libbnxt_re maps the doorbell page the answer names), a CQ of 16 CQEs, an
 * MR of 8 KiB, an SRQ of 16 WRs, QPs RC (with a receive queue, and on the
 * SRQ) and UD of 16 send and 16 receive WRs of one SGE, and an AH to that
 * GID (libbnxt_re reads its id from the shared page). A UC QP is refused
 * (bnxt_re has RC and UD only: EOPNOTSUPP). The RC QP goes through INIT and
 * RTR (to itself) to RTS, the UD QP to RTS; each state is read back with
 * ibv_query_qp, which also gives the queues as bnxt_re sized them (the
 * send queue's SGEs as asked on 6.1, the static WQE's 6 from 6.12 on).
 * libbnxt_re then posts on every queue and rings every doorbell (stores
 * into the buffers and the doorbell page the stand-in pinned and mapped);
 * nothing completes, as the stand-in has no data path. Everything is
 * destroyed and the device closed.
 *
 * bnxt_re has no direct-verbs library, so what the kernel pinned is read
 * from the process: its pinned pages (VmPin in /proc/self/status, which
 * ib_umem_get counts) must grow by exactly the pages of each buffer as
 * bnxt_re sizes it for this device (a chip before gen P5, static WQE mode,
 * 6 SGEs: every WQE 32 + 6 x 16 = 128 bytes; the buffers libbnxt_re maps
 * are page-aligned): CQ: (16 + 1 rounded up to a power of two) x 32 bytes;
 * QP send queue: 16 + 128 + 1 rounded up to a power of two (256) WQEs, plus
 * for RC an 8-byte PSN search entry each, page-aligned (and for an RC QP of
 * 300 send WRs, made and destroyed at once, 512 WQEs: 17 pages, where the
 * PSN entries' size shows); receive queue:
 * 16 + 1 rounded up (32) WQEs; SRQ: 32 WQEs; MR: the range. And fall back
 * to where it started.
 *
 * With KT_BNXT_RE_SNAPSHOT set, the shell command it holds runs while every
 * object exists (the guest script lists the kernel's objects with it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define WITNESS_DRIVER "bnxt_re"
#include "witness.h"

enum { PORT = 1, BUF = 8192, QKEY = 0x11111111 };

/* ---- the pages the kernel pins, by the driver's sizes ---- */

/* bnxt_re's sizes for this device (see the header). */
enum {
	WQE = 32 + 6 * 16,	/* static mode: every WQE has room for 6 SGEs */
	PSN = 8,		/* struct sq_psn_search, a chip before gen P5 */
	CQE = 32,		/* struct cq_base */
	RESERVED_WRS = 128,	/* BNXT_QPLIB_RESERVED_QP_WRS */
};

static uint32_t pow2_up(uint32_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* The send SGEs ibv_query_qp answers: bnxt_re 6.12 sets a static-mode
 * send queue's to the WQE's room, 6 (bnxt_re_setup_swqe_size); 6.1 keeps
 * the count asked. */
static unsigned int queried_send_sge(unsigned int asked)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) == 0)
		sscanf(u.release, "%d.%d", &major, &minor);
	return major > 6 || (major == 6 && minor >= 12) ? 6 : asked;
}

static long page_align_pages(size_t bytes)
{
	return (long)((bytes + (size_t)page_size - 1) / (size_t)page_size);
}

static struct ibv_qp *make_qp_n(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_srq *srq,
				enum ibv_qp_type type, uint32_t nsend, const char *name)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = type,
		.cap = { .max_send_wr = nsend, .max_recv_wr = srq ? 0 : 16,
			 .max_send_sge = 1, .max_recv_sge = srq ? 0 : 1, .max_inline_data = 0 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr qa;
	uint32_t want_sq = pow2_up(nsend + RESERVED_WRS + 1), want_rq = srq ? 0 : pow2_up(16 + 1);
	size_t sq_bytes = (size_t)want_sq * WQE + (type == IBV_QPT_RC ? (size_t)want_sq * PSN : 0);
	size_t rq_bytes = (size_t)want_rq * WQE;

	if (!qp)
		fail("ibv_create_qp %s: %s (errno %d)", name, strerror(errno), errno);
	if (qp->qp_num < 2)
		fail("%s QP has number %u", name, qp->qp_num);
	check_rc(ibv_query_qp(qp, &a, IBV_QP_STATE | IBV_QP_CAP, &qa), "ibv_query_qp");
	if (qa.cap.max_send_wr != want_sq || qa.cap.max_recv_wr != want_rq ||
	    qa.cap.max_send_sge != queried_send_sge(1) || qa.cap.max_recv_sge != (srq ? 0u : 1u))
		fail("%s QP: the kernel sized %u send WQEs of %u SGEs, %u receive WQEs of %u SGEs; "
		     "bnxt_re's rules make %u of %u, %u of %u", name, qa.cap.max_send_wr,
		     qa.cap.max_send_sge, qa.cap.max_recv_wr, qa.cap.max_recv_sge, want_sq,
		     queried_send_sge(1), want_rq, srq ? 0 : 1);
	expect_pinned(page_align_pages(sq_bytes) + page_align_pages(rq_bytes), name);
	ok("%s QP %u: %u send WQEs (%zu bytes%s), %u receive WQEs (%zu bytes) of %d bytes, "
	   "pinned as bnxt_re sizes them", name, qp->qp_num, want_sq, sq_bytes,
	   type == IBV_QPT_RC ? " with the PSN area" : "", want_rq, rq_bytes, WQE);
	expect_state(qp, IBV_QPS_RESET, name);
	return qp;
}

static struct ibv_qp *make_qp(struct ibv_pd *pd, struct ibv_cq *cq, struct ibv_srq *srq,
			      enum ibv_qp_type type, const char *name)
{
	return make_qp_n(pd, cq, srq, type, 16, name);
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

static void no_completion(struct ibv_cq *cq, const char *name)
{
	struct ibv_wc wc;
	int n = ibv_poll_cq(cq, 1, &wc);

	if (n != 0)
		fail("%s: ibv_poll_cq gave %d (a completion from a device without a data path?)",
		     name, n);
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
	if (atoi(v) != 1)
		fail("uverbs ABI version %s, not bnxt_re's 1", v);
	ok("uverbs ABI version %d", atoi(v));
}

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : "bnxt_re0";
	struct ibv_device **list, *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr port;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_srq *srq;
	struct ibv_qp *rc, *rc_srq, *ud;
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
	ok("libbnxt_re context (its shared page mapped)");

	step = "query";
	check_rc(ibv_query_device_ex(ctx, NULL, &dx), "ibv_query_device_ex");
	if (dx.orig_attr.vendor_id != 0x14e4 || dx.orig_attr.max_qp < 1 ||
	    dx.orig_attr.max_cqe < 1 || dx.orig_attr.max_sge != 6)
		fail("vendor 0x%x, max_qp %d, max_cqe %d, max_sge %d", dx.orig_attr.vendor_id,
		     dx.orig_attr.max_qp, dx.orig_attr.max_cqe, dx.orig_attr.max_sge);
	check_rc(ibv_query_port(ctx, PORT, &port), "ibv_query_port");
	if (port.link_layer != IBV_LINK_LAYER_ETHERNET || port.state != IBV_PORT_ACTIVE ||
	    port.gid_tbl_len < 1)
		fail("port: link layer %u, state %d, %d GIDs", port.link_layer, port.state,
		     port.gid_tbl_len);
	find_gids(ctx, port.gid_tbl_len, &g);
	ok("vendor 0x%x part 0x%x fw %s, port active on Ethernet, RoCE v2 IPv4 GID at index %d",
	   dx.orig_attr.vendor_id, dx.orig_attr.vendor_part_id, dx.orig_attr.fw_ver, g.v2_ipv4);

	page_size = sysconf(_SC_PAGESIZE);
	pinned_at_open = pinned_pages = vmpin_pages();

	step = "PD";
	pd = check_ptr(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	ok("allocated (libbnxt_re mapped the doorbell page it names)");

	step = "CQ";
	cq = check_ptr(ibv_create_cq(ctx, 16, NULL, NULL, 0), "ibv_create_cq");
	/* bnxt_re: 16 + 1 rounded up to 32, answered as is */
	if (cq->cqe != 32)
		fail("cqe %d for 16 asked (bnxt_re: 16 + 1 rounded up to 32)", cq->cqe);
	expect_pinned(page_align_pages(32 * CQE), "CQ");
	no_completion(cq, "CQ");
	check_rc(ibv_req_notify_cq(cq, 0), "ibv_req_notify_cq");	/* a doorbell store */
	check_rc(ibv_req_notify_cq(cq, 1), "ibv_req_notify_cq solicited");
	ok("%d CQEs of %d bytes pinned, polled empty, armed twice", cq->cqe, CQE);
	{
		struct ibv_cq_init_attr_ex ca = { .cqe = 8, .wc_flags = IBV_WC_STANDARD_FLAGS };
		struct ibv_cq_ex *cx = ibv_create_cq_ex(ctx, &ca);

		if (cx)
			fail("ibv_create_cq_ex: libbnxt_re 44 has no extended CQ, yet one was made");
		ok("no extended CQ in libbnxt_re 44 (errno %d)", errno);
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

		srq = check_ptr(ibv_create_srq(pd, &sa), "ibv_create_srq");
		check_rc(ibv_query_srq(srq, &q), "ibv_query_srq");
		/* 16 + 1 rounded up to 32 WQEs, answered as 32 (not less one) */
		if (q.max_wr != 32 || q.max_sge != 1)
			fail("queried max_wr %u max_sge %u (bnxt_re: 32 and 1)", q.max_wr, q.max_sge);
		expect_pinned(page_align_pages(32 * WQE), "SRQ");
		ok("%u WQEs of %d bytes pinned", q.max_wr, WQE);
		q.srq_limit = 4;
		check_rc(ibv_modify_srq(srq, &q, IBV_SRQ_LIMIT), "ibv_modify_srq limit");
		check_rc(ibv_query_srq(srq, &q), "ibv_query_srq");
		if (q.srq_limit != 4)
			fail("limit %u after setting 4", q.srq_limit);
		q.max_wr = 64;
		if (ibv_modify_srq(srq, &q, IBV_SRQ_MAX_WR) != EINVAL)
			fail("ibv_modify_srq max_wr: not refused with EINVAL (bnxt_re has no resize)");
		ok("limit set and read back; a resize refused (EINVAL)");
	}

	step = "QP";
	rc = make_qp(pd, cq, NULL, IBV_QPT_RC, "RC");
	rc_srq = make_qp(pd, cq, srq, IBV_QPT_RC, "RC on the SRQ");
	ud = make_qp(pd, cq, NULL, IBV_QPT_UD, "UD");
	{	/* 300 send WRs: 512 WQEs, where the PSN entries' size shows in
		 * the pages (512 x 128 + 512 x 8: 17 pages; 16-byte entries
		 * would make 18, none 16) */
		struct ibv_qp *big = make_qp_n(pd, cq, NULL, IBV_QPT_RC, 300, "RC of 300 sends");

		check_rc(ibv_destroy_qp(big), "ibv_destroy_qp RC of 300 sends");
		expect_pinned(-(17 + 1), "RC of 300 sends destroyed");
	}
	{
		struct ibv_qp_init_attr ia = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UC,
			.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
				 .max_recv_sge = 1 },
		};
		struct ibv_qp *uc = ibv_create_qp(pd, &ia);

		if (uc || errno != EOPNOTSUPP)
			fail("UC QP: %s (errno %d), bnxt_re refuses it with EOPNOTSUPP",
			     uc ? "created" : strerror(errno), errno);
		expect_pinned(0, "UC QP refused");
		ok("UC QP refused (EOPNOTSUPP), nothing left pinned");
	}

	step = "AH";
	{
		struct ibv_ah_attr aa = {
			.is_global = 1, .port_num = PORT,
			.grh = { .dgid = g.gid, .sgid_index = (uint8_t)g.v2_ipv4, .hop_limit = 64 },
		};

		ah = check_ptr(ibv_create_ah(pd, &aa), "ibv_create_ah");
		aa.is_global = 0;
		if (ibv_create_ah(pd, &aa))
			fail("an AH without a GRH was made (RoCE needs one: the core and bnxt_re refuse it)");
		ok("to the port's own IPv4 GID; one without a GRH refused (errno %d)", errno);
	}

	step = "modify";
	to_init(rc, "RC");
	to_init(rc_srq, "RC on the SRQ");
	to_init(ud, "UD");
	ok("RC, RC on the SRQ and UD in INIT");
	to_rts(rc, &g, "RC");
	to_rts(ud, &g, "UD");

	step = "snapshot";
	{
		const char *cmd = getenv("KT_BNXT_RE_SNAPSHOT");

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
		ok("receives on the SRQ, RC and UD, sends on RC and UD rung; nothing completes");
	}

	step = "destroy";
	check_rc(ibv_destroy_ah(ah), "ibv_destroy_ah");
	check_rc(ibv_destroy_qp(ud), "ibv_destroy_qp UD");
	check_rc(ibv_destroy_qp(rc_srq), "ibv_destroy_qp RC on the SRQ");
	check_rc(ibv_destroy_qp(rc), "ibv_destroy_qp RC");
	check_rc(ibv_destroy_srq(srq), "ibv_destroy_srq");
	check_rc(ibv_dereg_mr(mr), "ibv_dereg_mr");
	check_rc(ibv_destroy_cq(cq), "ibv_destroy_cq");
	check_rc(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	check_rc(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	if (vmpin_pages() != pinned_at_open)
		fail("%ld pages still pinned, %ld before the first object", vmpin_pages(),
		     pinned_at_open);
	ok("every object destroyed, the device closed, nothing left pinned");
	printf("kt_bnxt_re_witness: PASS\n");
	return 0;
}
