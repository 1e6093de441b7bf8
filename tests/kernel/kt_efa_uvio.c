/*
 * The library's efa half against an efa kernel driver (in the suite, the
 * stand-in module of tests/standin/efa, which holds commands to efa's
 * user-data contract): with no driver data from the caller, context, PD,
 * MR, two CQs, a UD QP and an SRD QP (type IB_UVERBS_QPT_DRIVER), an AH;
 * the queues the kernel allocated mapped by the library (seen in
 * /proc/self/maps as mappings of the uverbs device) and unmapped again
 * when their objects go; the QPs moved to RTS and read back; everything
 * destroyed and the kernel's object table empty after. Then what efa
 * refuses, sent on purpose with the caller's own driver data, refused and
 * reported: each refusal printed as "  refused: MESSAGE" for the guest
 * script, which checks that each names its command and errno.
 *
 * The requests are the witness's (kt_efa_witness: libefa through
 * libibverbs), so that the two traces can be compared field by field:
 * CQ 32 entries; QPs 16 send and 16 receive WRs of one SGE; MR 8 KiB.
 *
 *   kt_efa_uvio [DEVICE]     (default efa_0)
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/efa-abi.h>
#include <uvio.h>
#include "kt.h"

#define PAGE 4096u

static const char *name;

static int res_count(const char *type)
{
	return kt_rdma_res_count(type, name, (int)getpid());
}

static int make_qp(struct uvio_device *dev, uint32_t type, uint32_t pd, uint32_t scq,
		   uint32_t rcq, const struct uvio_drv *drv, struct uvio_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = pd, .send_cq_handle = scq,
		  .recv_cq_handle = rcq,
		  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			   .max_recv_sge = 1 });

	memset(qp, 0, sizeof(*qp));
	qp->sz = sizeof(*qp);
	return uvio_create_qp(dev, &a, drv, qp, NULL);
}

/* RESET -> INIT -> RTR -> RTS, each state read back. */
static void to_rts(struct uvio_device *dev, uint32_t qp, const char *what)
{
	static const struct { uint8_t state; uint32_t mask; } steps[] = {
		{ UVIO_QPS_INIT, UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT | UVIO_QP_QKEY },
		{ UVIO_QPS_RTR, UVIO_QP_STATE },
		{ UVIO_QPS_RTS, UVIO_QP_STATE | UVIO_QP_SQ_PSN },
	};

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		struct uvio_qp_attr a = {
			.sz = sizeof(a), .attr_mask = steps[i].mask, .qp_state = steps[i].state,
			.port_num = 1, .qkey = 0x11111111, .sq_psn = 0x123,
		};
		struct uvio_qp_attr q = { .sz = sizeof(q) };

		KT_EQ(uvio_modify_qp(dev, qp, &a, NULL, NULL), 0);
		KT_EQ(uvio_query_qp(dev, qp, UVIO_QP_STATE | UVIO_QP_QKEY, &q, NULL), 0);
		KT_CHECK(q.qp_state == steps[i].state && q.qkey == 0x11111111,
			 "%s: state %u qkey %#x after the move to %u", what, q.qp_state, q.qkey,
			 steps[i].state);
	}
	printf("  %s QP %u in RTS\n", what, qp);
}

/* What efa refuses, sent with the caller's driver data; the library passes
 * it through and says what the kernel answered. */
static void refusals(struct uvio_device *dev, uint32_t pd, uint32_t cq)
{
	struct uvio_device *other;
	UVIO_OPTS(uvio_context, ctx);
	struct efa_ibv_alloc_ucontext_cmd creq = { 0 };
	uint8_t cresp[sizeof(struct efa_ibv_alloc_ucontext_resp)];
	UVIO_OPTS(uvio_drv, cdrv, .in = &creq, .in_len = sizeof(creq), .out = cresp,
		  .out_len = sizeof(cresp));
	struct {	/* efa_ibv_create_cq, 6.1's layout */
		uint32_t comp_mask, cq_entry_size;
		uint16_t num_sub_cqs;
		uint8_t flags, reserved[5];
	} req;
	uint8_t resp[40];
	UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req), .out = resp,
		  .out_len = sizeof(resp));
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 32);
	UVIO_OPTS(uvio_cq, c);
	int cqs = res_count("cq"), qps = res_count("qp");

	/* GET_CONTEXT without acknowledging the TX batch and minimum SQ depth
	 * the device has: a second handle, since each fd has one context. */
	KT_EQ(uvio_device_open(name, &other), 0);
	if (other) {
		KT_EQ(uvio_get_context(other, &cdrv, &ctx, NULL), -EOPNOTSUPP);
		kt_refused(uvio_last_error(), "DEVICE.GET_CONTEXT", "EOPNOTSUPP");
		uvio_device_close(other);
	}

	/* A 24-byte entry: efa's are 16, or 32 with the source GID. */
	memset(&req, 0, sizeof(req));
	req.cq_entry_size = 24;
	req.num_sub_cqs = 1;
	KT_EQ(uvio_create_cq(dev, &attr, &drv, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");

	/* A request cut before num_sub_cqs. */
	req.cq_entry_size = 16;
	drv.in_len = 8;
	KT_EQ(uvio_create_cq(dev, &attr, &drv, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");
	drv.in_len = sizeof(req);

	/* Sub-CQs other than the device's one. */
	req.num_sub_cqs = 2;
	KT_EQ(uvio_create_cq(dev, &attr, &drv, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");

	/* A DRIVER QP of a driver type efa does not have, and a request with
	 * a comp_mask. */
	{
		struct efa_ibv_create_qp qreq = { .sq_ring_size = 16 * 64, .rq_ring_size = 16 * 16,
						  .driver_qp_type = 5 };
		uint8_t qresp[sizeof(struct efa_ibv_create_qp_resp)];
		UVIO_OPTS(uvio_drv, qdrv, .in = &qreq, .in_len = sizeof(qreq), .out = qresp,
			  .out_len = sizeof(qresp));
		struct uvio_qp qp;

		KT_EQ(make_qp(dev, IB_UVERBS_QPT_DRIVER, pd, cq, cq, &qdrv, &qp), -EOPNOTSUPP);
		kt_refused(uvio_last_error(), "QP.CREATE", "EOPNOTSUPP");
		qreq.driver_qp_type = EFA_QP_DRIVER_TYPE_SRD;
		qreq.comp_mask = 1;
		KT_EQ(make_qp(dev, IB_UVERBS_QPT_DRIVER, pd, cq, cq, &qdrv, &qp), -EINVAL);
		kt_refused(uvio_last_error(), "QP.CREATE", "EINVAL");
	}

	/* A request as 6.12 lays it out (flags after driver_qp_type), asking
	 * for unsolicited write receive, which the device lacks: 6.12
	 * refuses the flag (EOPNOTSUPP); 6.1, whose request ends before it,
	 * refuses bytes it does not know that are not zero (EINVAL). */
	{
		struct {
			struct efa_ibv_create_qp base;
			uint16_t flags;
			uint8_t reserved[6];
		} q12 = { .base = { .sq_ring_size = 16 * 64, .rq_ring_size = 16 * 16 },
			  .flags = 1 };
		uint8_t qresp[sizeof(struct efa_ibv_create_qp_resp)];
		UVIO_OPTS(uvio_drv, qdrv, .in = &q12, .in_len = sizeof(q12), .out = qresp,
			  .out_len = sizeof(qresp));
		bool v612 = kt_kernel_ge(6, 12);
		struct uvio_qp qp;

		KT_EQ(make_qp(dev, IB_UVERBS_QPT_DRIVER, pd, cq, cq, &qdrv, &qp),
		      v612 ? -EOPNOTSUPP : -EINVAL);
		kt_refused(uvio_last_error(), "QP.CREATE", v612 ? "EOPNOTSUPP" : "EINVAL");
	}

	/* An RC QP: the library's efa half says efa has none, before
	 * anything is sent. */
	{
		struct uvio_qp qp;

		KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq, cq, NULL, &qp), -EOPNOTSUPP);
		kt_refused(uvio_last_error(), "QP.CREATE", "EOPNOTSUPP");
		KT_CHECK(strstr(uvio_last_error(), "efa"), "efa named: %s", uvio_last_error());
	}
	KT_EQ(res_count("cq"), cqs);
	KT_EQ(res_count("qp"), qps);
}

/* A second handle whose CQ and QPs are never destroyed: closing it
 * unmaps what the library mapped for them, and the kernel frees them with
 * the fd. Its fd is printed ("closed with objects: fd N") for the guest
 * script, whose count of objects destroyed leaves that fd's out. */
static void close_frees(void)
{
	struct uvio_device *other;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 8);
	UVIO_OPTS(uvio_cq, cq);
	struct uvio_qp ud, srd;
	uint32_t pd = 0;
	int before = kt_uverbs_maps();

	KT_EQ(uvio_device_open(name, &other), 0);
	if (!other)
		return;
	KT_EQ(uvio_get_context(other, NULL, &ctx, NULL), 0);
	KT_EQ(uvio_alloc_pd(other, NULL, &pd, NULL), 0);
	KT_EQ(uvio_create_cq(other, &cqa, NULL, &cq, NULL), 0);
	KT_EQ(make_qp(other, IB_UVERBS_QPT_UD, pd, cq.handle, cq.handle, NULL, &ud), 0);
	KT_EQ(make_qp(other, IB_UVERBS_QPT_DRIVER, pd, cq.handle, cq.handle, NULL, &srd), 0);
	KT_EQ(kt_uverbs_maps() - before, 2 + 4 + 4);
	printf("  closed with objects: fd %d\n", uvio_device_fd(other));
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(other);
	KT_EQ(kt_uverbs_maps(), before);
	printf("  a second handle closed with a CQ and two QPs alive: %d mappings left of its %d\n",
	       kt_uverbs_maps() - before, 10);
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_cq, cq2);
	UVIO_OPTS(uvio_mr, mr);
	struct uvio_qp ud, srd;
	uint32_t pd = 0, ah = 0;
	int maps0, maps;
	enum uvio_path p;
	void *mem;
	int err;

	name = argc > 1 ? argv[1] : "efa_0";
	err = uvio_device_open(name, &dev);
	KT_EQ(err, 0);
	if (err)
		return kt_exit();
	KT_EQ(uvio_device_driver_id(dev), RDMA_DRIVER_EFA);

	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	printf("%s: context via %s\n", name, uvio_path_name(p));
	maps0 = kt_uverbs_maps();

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = mem, .length = 2 * PAGE,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), 0);

	/* CQs: the ring and the doorbell page of each mapped. */
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 32);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, &p), 0);
	KT_EQ(cq.cqe, 32);
	cqa.cqe = 20;
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq2, NULL), 0);
	KT_EQ(cq2.cqe, 32);		/* 20 rounded up, as libefa asks */
	maps = kt_uverbs_maps();
	KT_EQ(maps - maps0, 4);
	printf("  CQs %u and %u: %u and %u entries; %d mappings of the kernel's memory\n",
	       cq.handle, cq2.handle, cq.cqe, cq2.cqe, maps - maps0);

	/* QPs: SQ doorbell, LLQ descriptors, RQ doorbell and RQ ring each. */
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UD, pd, cq.handle, cq2.handle, NULL, &ud), 0);
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_DRIVER, pd, cq.handle, cq.handle, NULL, &srd), 0);
	KT_EQ(ud.cap.max_send_wr, 16);
	KT_EQ(ud.cap.max_recv_wr, 16);
	KT_EQ(srd.cap.max_send_wr, 16);
	KT_EQ(kt_uverbs_maps() - maps, 8);
	/* The kernel lists the UD QP; a DRIVER QP (SRD) only to who asks for
	 * the driver's details, which `rdma resource show` does not. */
	KT_EQ(res_count("qp"), 1);
	KT_EQ(kt_rdma_res_find("qp", name, (int)getpid(), "type UD state RESET"), 1);
	printf("  UD QP %u (qpn %u), SRD QP %u (qpn %u): %d more mappings\n", ud.handle,
	       ud.qp_num, srd.handle, srd.qp_num, kt_uverbs_maps() - maps);
	to_rts(dev, ud.handle, "UD");
	to_rts(dev, srd.handle, "SRD");

	{	/* an AH to the port's own GID */
		struct uvio_gid_entry g;
		UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = pd);

		KT_EQ(uvio_query_gid_entry(dev, 1, 0, &g, NULL), 0);
		memcpy(aa.av.dgid, g.gid, 16);
		aa.av.is_global = 1;
		aa.av.port_num = 1;
		KT_EQ(uvio_create_ah(dev, &aa, NULL, &ah, NULL), 0);
		printf("  AH %u to the port's GID\n", ah);
	}

	{	/* a CQ whose completions go to a channel: the device has event
		 * queues (EX_QUERY_DEVICE said so), the half asks for events */
		UVIO_OPTS(uvio_comp_channel, ch);
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8, .channel = &ch);	/* the witness's */
		UVIO_OPTS(uvio_cq, c);
		int before = kt_uverbs_maps();

		KT_EQ(uvio_create_comp_channel(dev, &ch, NULL), 0);
		KT_EQ(uvio_create_cq(dev, &ca, NULL, &c, NULL), 0);
		KT_EQ(kt_uverbs_maps() - before, 2);
		KT_EQ(uvio_destroy_cq(dev, c.handle, NULL, NULL), 0);
		KT_EQ(kt_uverbs_maps(), before);
		if (ch.fd >= 0)
			close(ch.fd);
		printf("  a CQ on a completion channel made and destroyed\n");
	}

	refusals(dev, pd, cq.handle);
	close_frees();

	KT_EQ(uvio_destroy_ah(dev, ah, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, srd.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, ud.handle, NULL, NULL), 0);
	KT_EQ(kt_uverbs_maps(), maps);	/* the QPs' mappings went with them */
	/* Both QPs gone: a CQ a QP still held would answer EBUSY. */
	KT_EQ(uvio_destroy_cq(dev, cq2.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	KT_EQ(kt_uverbs_maps(), maps0);
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	KT_EQ(res_count("qp"), 0);
	KT_EQ(res_count("cq"), 0);
	KT_EQ(res_count("pd"), 0);
	KT_EQ(res_count("mr"), 0);
	munmap(mem, 2 * PAGE);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	return kt_exit();
}
