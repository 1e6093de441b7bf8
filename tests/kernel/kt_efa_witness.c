/*
 * Debian's libefa, unmodified, through libibverbs and efadv, on the efa
 * stand-in (tests/standin/efa): the witness that the stand-in answers what
 * libefa sends. Every step is checked; the first failure ends the program
 * with a message naming the step and exit status 1.
 *
 *   kt_efa_witness [DEVICE]        (default efa_0)
 *
 * Opens the device (libefa's context handshake and its EX_QUERY_DEVICE),
 * reads efa's attributes back through efadv_query_device, queries the port
 * (link layer unspecified, one GID), and makes a PD, a CQ of 32 entries, a
 * CQ with the source GID in its entries (efadv_create_cq), a CQ on a
 * completion channel (armed: libefa's doorbell write), an MR of 8 KiB,
 * a UD QP and an SRD QP (efadv_create_qp_ex: IBV_QPT_DRIVER with
 * EFADV_QP_DRIVER_TYPE_SRD) of 16 send and 16 receive WRs of one SGE, and
 * an AH to the port's own GID whose efa AH number efadv_query_ah reads.
 * Both QPs go RESET -> INIT -> RTR -> RTS, each state read back with
 * ibv_query_qp. libefa then posts a receive and a send on the UD QP: it
 * writes the RQ ring and the LLQ descriptors the kernel allocated and
 * mapped, and rings both doorbells; a poll of each CQ finds nothing (the
 * stand-in has no data path, and its rings are zeroed). Everything is
 * destroyed and the device closed.
 *
 * With KT_EFA_SNAPSHOT set, the shell command it holds runs while every
 * object exists (the guest script lists the kernel's objects with it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/efadv.h>
#include <infiniband/verbs.h>

#define WITNESS_DRIVER "efa"
#include "witness.h"

enum { PORT = 1, BUF = 8192, QKEY = 0x11111111, WR = 16 };

/* RESET -> INIT -> RTR -> RTS, each state read back. */
static void to_rts(struct ibv_qp *qp, const char *name)
{
	static const struct { enum ibv_qp_state state; int mask; } steps[] = {
		{ IBV_QPS_INIT, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY },
		{ IBV_QPS_RTR, IBV_QP_STATE },
		{ IBV_QPS_RTS, IBV_QP_STATE | IBV_QP_SQ_PSN },
	};
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr a;

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(&a, 0, sizeof(a));
		a.qp_state = steps[i].state;
		a.port_num = PORT;
		a.qkey = QKEY;
		a.sq_psn = 0x123;
		check_rc(ibv_modify_qp(qp, &a, steps[i].mask), name);
		memset(&a, 0, sizeof(a));
		check_rc(ibv_query_qp(qp, &a, IBV_QP_STATE | IBV_QP_QKEY | IBV_QP_CAP, &init), name);
		if (a.qp_state != steps[i].state || a.qkey != QKEY)
			fail("%s: state %d qkey %#x after the move to %d", name, a.qp_state, a.qkey,
			     steps[i].state);
	}
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "efa_0";
	struct ibv_device **list, *dev = NULL;
	struct efadv_device_attr dattr;
	struct ibv_device_attr_ex ex;
	struct ibv_port_attr port;
	union ibv_gid gid;
	int n;

	step = "device";
	list = check_ptr(ibv_get_device_list(&n), "ibv_get_device_list");
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev)
		fail("no device %s among %d", name, n);
	struct ibv_context *ctx = check_ptr(ibv_open_device(dev), "ibv_open_device");
	ok("%s opened through libefa", name);

	step = "query";
	check_rc(ibv_query_device_ex(ctx, NULL, &ex), "ibv_query_device_ex");
	check_rc(efadv_query_device(ctx, &dattr, sizeof(dattr)), "efadv_query_device");
	if (dattr.max_sq_wr != 512 || dattr.max_rq_wr != 512 || dattr.max_sq_sge != 2 ||
	    dattr.max_rq_sge != 1 || dattr.inline_buf_size != 32 ||
	    !(dattr.device_caps & EFADV_DEVICE_ATTR_CAPS_RDMA_READ) ||
	    !(dattr.device_caps & EFADV_DEVICE_ATTR_CAPS_CQ_WITH_SGID))
		fail("efadv_query_device: sq %u/%u rq %u/%u inline %u caps %#x", dattr.max_sq_wr,
		     dattr.max_sq_sge, dattr.max_rq_wr, dattr.max_rq_sge, dattr.inline_buf_size,
		     dattr.device_caps);
	check_rc(ibv_query_port(ctx, PORT, &port), "ibv_query_port");
	if (port.link_layer != IBV_LINK_LAYER_UNSPECIFIED || port.state != IBV_PORT_ACTIVE ||
	    port.gid_tbl_len != 1)
		fail("port: link layer %u state %d gids %d", port.link_layer, port.state,
		     port.gid_tbl_len);
	check_rc(ibv_query_gid(ctx, PORT, 0, &gid), "ibv_query_gid");
	if (gid.raw[0] != 0xfe || gid.raw[1] != 0x80)
		fail("GID 0 is not the device's link-local address");
	ok("vendor %#x part %#x, max_qp_wr %d; efa: sq %u wr %u sge, rq %u wr %u sge, inline %u, caps %#x; port active, link layer unspecified",
	   ex.orig_attr.vendor_id, ex.orig_attr.vendor_part_id, ex.orig_attr.max_qp_wr,
	   dattr.max_sq_wr, dattr.max_sq_sge, dattr.max_rq_wr, dattr.max_rq_sge,
	   dattr.inline_buf_size, dattr.device_caps);

	step = "pd";
	struct ibv_pd *pd = check_ptr(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	ok("allocated");

	step = "cq";
	struct ibv_cq *cq = check_ptr(ibv_create_cq(ctx, 32, NULL, NULL, 0), "ibv_create_cq");
	if (cq->cqe != 32)
		fail("cqe %d, not 32", cq->cqe);
	struct ibv_cq_init_attr_ex cqa = { .cqe = 20, .wc_flags = IBV_WC_STANDARD_FLAGS };
	struct efadv_cq_init_attr ecqa = { .wc_flags = EFADV_WC_EX_WITH_SGID };
	struct ibv_cq_ex *cqx = check_ptr(efadv_create_cq(ctx, &cqa, &ecqa, sizeof(ecqa)),
					  "efadv_create_cq with the source GID");
	struct ibv_cq *cq2 = ibv_cq_ex_to_cq(cqx);
	if (cq2->cqe != 32)
		fail("the source-GID CQ: cqe %d, not 32 (20 rounded up)", cq2->cqe);
	struct ibv_comp_channel *ch = check_ptr(ibv_create_comp_channel(ctx),
						"ibv_create_comp_channel");
	struct ibv_cq *cq3 = check_ptr(ibv_create_cq(ctx, 8, NULL, ch, 0),
				       "ibv_create_cq on a completion channel");
	check_rc(ibv_req_notify_cq(cq3, 0), "ibv_req_notify_cq");
	ok("a CQ of 32 entries, one with the source GID (20 asked, 32 made), one on a "
	   "completion channel, armed; rings mapped");

	step = "mr";
	void *buf = check_ptr(aligned_alloc(4096, BUF), "aligned_alloc");
	memset(buf, 0, BUF);
	struct ibv_mr *mr = check_ptr(ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE), "ibv_reg_mr");
	ok("lkey %#x", mr->lkey);

	step = "qp";
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq2, .qp_type = IBV_QPT_UD,
		.cap = { .max_send_wr = WR, .max_recv_wr = WR, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *ud = check_ptr(ibv_create_qp(pd, &qa), "ibv_create_qp UD");
	struct ibv_qp_init_attr_ex qax = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_DRIVER,
		.cap = { .max_send_wr = WR, .max_recv_wr = WR, .max_send_sge = 1, .max_recv_sge = 1 },
		.comp_mask = IBV_QP_INIT_ATTR_PD, .pd = pd,
	};
	struct efadv_qp_init_attr eqa = { .driver_qp_type = EFADV_QP_DRIVER_TYPE_SRD };
	struct ibv_qp *srd = check_ptr(efadv_create_qp_ex(ctx, &qax, &eqa, sizeof(eqa)),
				       "efadv_create_qp_ex SRD");
	ok("UD QP %u and SRD QP %u, rings and doorbells mapped", ud->qp_num, srd->qp_num);
	to_rts(ud, "UD QP");
	to_rts(srd, "SRD QP");
	ok("both in RTS");

	step = "ah";
	struct ibv_ah_attr aha = { .is_global = 1, .port_num = PORT, .grh = { .dgid = gid } };
	struct ibv_ah *ah = check_ptr(ibv_create_ah(pd, &aha), "ibv_create_ah");
	struct efadv_ah_attr eah;
	check_rc(efadv_query_ah(ah, &eah, sizeof(eah)), "efadv_query_ah");
	if (!eah.ahn)
		fail("efa AH number 0");
	ok("to its own GID, efa AH number %u", eah.ahn);

	if (getenv("KT_EFA_SNAPSHOT")) {
		step = "snapshot";
		if (system(getenv("KT_EFA_SNAPSHOT")) != 0)
			fail("the snapshot command failed");
	}

	step = "post";
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 }, *rbad;
	check_rc(ibv_post_recv(ud, &rwr, &rbad), "ibv_post_recv");
	struct ibv_send_wr swr = {
		.wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.ud = { .ah = ah, .remote_qpn = srd->qp_num, .remote_qkey = QKEY },
	}, *sbad;
	check_rc(ibv_post_send(ud, &swr, &sbad), "ibv_post_send");
	struct ibv_wc wc;
	if (ibv_poll_cq(cq, 1, &wc) != 0 || ibv_poll_cq(cq2, 1, &wc) != 0)
		fail("a completion where the stand-in wrote none");
	ok("a receive and a send posted (RQ ring, LLQ, both doorbells written), no completion");

	step = "destroy";
	check_rc(ibv_destroy_ah(ah), "ibv_destroy_ah");
	check_rc(ibv_destroy_qp(srd), "ibv_destroy_qp SRD");
	check_rc(ibv_destroy_qp(ud), "ibv_destroy_qp UD");
	check_rc(ibv_dereg_mr(mr), "ibv_dereg_mr");
	check_rc(ibv_destroy_cq(cq3), "ibv_destroy_cq on a channel");
	check_rc(ibv_destroy_comp_channel(ch), "ibv_destroy_comp_channel");
	check_rc(ibv_destroy_cq(cq2), "ibv_destroy_cq source GID");
	check_rc(ibv_destroy_cq(cq), "ibv_destroy_cq");
	check_rc(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	check_rc(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	ok("everything destroyed, the device closed");
	printf("kt_efa_witness: PASS\n");
	return 0;
}
