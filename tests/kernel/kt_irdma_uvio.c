/*
 * The library's irdma half against an irdma kernel driver (in the suite, the
 * stand-in module of tests/standin/irdma, which holds commands to irdma's
 * user-data contract): with no driver data from the caller, context (its
 * doorbell page mapped and a PD of its own, as libirdma's), PD, MR, two
 * CQs, RC and UD QPs (each CQ's and QP's memory registered by the half with
 * irdma's REG_MR request first), an AH; what the kernel pinned for each
 * (VmPin, which ib_umem_get counts) checked against irdma's sizes for these
 * requests, and the sizes it answered; everything destroyed, the regions
 * deregistered, nothing left pinned and the kernel's object table empty
 * after. Then what irdma refuses, sent on purpose with the caller's own
 * driver data (regions, CQs, QPs, and contexts on devices opened anew),
 * refused and reported naming the command (each such line
 * starts "  refusal: "; the count is printed last as "refusals: N"), and
 * what the library's half refuses before sending; and the context's
 * doorbell key mapped and the mappings irdma refuses. Where 6.1 and 6.12
 * differ, each kernel's answer: the context answer's comp_mask and
 * min_hw_wq_size (6.12), and on 6.12 REREG_MR.
 *
 * The requests are the witness's (kt_irdma_witness: libirdma through
 * libibverbs), so that the two traces can be compared field by field:
 * CQs of 16 and 8 CQEs; QPs of 16 send and 16 receive WRs of one SGE, no
 * inline data; MR 8 KiB.
 *
 *   kt_irdma_uvio [DEVICE]     (default irdma0)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/irdma-abi.h>
#include <uvio.h>
#include "kt.h"

#define PAGE 4096u

static const char *name;
static long pinned;	/* VmPin pages, as last read */
static int nrefusals;

static int res_count(const char *type)
{
	return kt_rdma_res_count(type, name, (int)getpid());
}

static long vmpin_pages(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb * 1024 / (long)PAGE;
}

/* The kernel pinned delta pages more since the last call. */
static void expect_pinned(long delta, const char *what)
{
	long now = vmpin_pages();

	KT_CHECK(now - pinned == delta, "%s: the kernel pinned %ld pages more, irdma's sizes make %ld",
		 what, now - pinned, delta);
	printf("  %s: %ld page(s) pinned\n", what, now - pinned);
	pinned = now;
}

static int make_qp(struct uvio_device *dev, uint32_t type, uint32_t pd, uint32_t cq,
		   const struct uvio_drv *drv, struct uvio_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = pd, .send_cq_handle = cq,
		  .recv_cq_handle = cq,
		  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			   .max_recv_sge = 1 });

	memset(qp, 0, sizeof(*qp));
	qp->sz = sizeof(*qp);
	return uvio_create_qp(dev, &a, drv, qp, NULL);
}

static void refused(const char *what, int err, int want, const char *verb)
{
	const char *e = uvio_last_error();

	KT_EQ(err, want);
	KT_CHECK(strstr(e, verb) != NULL, "%s: the error names %s: %s", what, verb, e);
	printf("  refusal: %s: %s\n", what, e);
	nrefusals++;
}

/* REG_MR of len bytes at mem with irdma's request req (req_len bytes). */
static int reg(struct uvio_device *dev, uint32_t pd, void *mem, size_t len,
	       const struct irdma_mem_reg_req *req, size_t req_len, struct uvio_mr *mr)
{
	UVIO_OPTS(uvio_mr_attr, a, .pd_handle = pd, .addr = mem, .length = len,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	UVIO_OPTS(uvio_drv, d, .in = req, .in_len = req_len);

	memset(mr, 0, sizeof(*mr));
	mr->sz = sizeof(*mr);
	return uvio_reg_mr(dev, &a, &d, mr, NULL);
}

/* The context's doorbell page at its key (0: the first entry of the
 * context), one page, shared; a private mapping, two pages or an offset
 * that is no key of the context refused (EINVAL). */
static void mappings(struct uvio_device *dev)
{
	static const struct { off_t page; size_t pages; int flags, err; const char *what; } m[] = {
		{ 0, 1, MAP_SHARED, 0, "the doorbell page (key 0)" },
		{ 0, 1, MAP_PRIVATE, EINVAL, "the doorbell page, private" },
		{ 0, 2, MAP_SHARED, EINVAL, "two pages at the doorbell key" },
		{ 1, 1, MAP_SHARED, EINVAL, "offset 1 page (no key of the context)" },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		void *p = mmap(NULL, m[i].pages * PAGE, PROT_WRITE, m[i].flags,
			       uvio_device_fd(dev), m[i].page * (off_t)PAGE);
		int err = p == MAP_FAILED ? errno : 0;

		KT_CHECK(err == m[i].err, "mmap of %s: errno %d, irdma answers %d", m[i].what,
			 err, m[i].err);
		printf("  mmap of %s: %s\n", m[i].what, err ? strerror(err) : "mapped");
		if (p != MAP_FAILED)
			munmap(p, m[i].pages * PAGE);
	}
}

/* irdma's context contract, each on a device opened anew: userspace_ver 4
 * or 5, at least 8 bytes of request and 16 of answer room; exactly 16 is
 * libi40iw's legacy answer, which irdma gives GEN_1 hardware alone. */
static void context_refusals(void)
{
	static const struct {
		uint8_t ver;
		size_t in_len, out_len;
		int err;
		const char *what;
	} t[] = {
		{ 3, 8, 64, -EINVAL, "GET_CONTEXT with userspace_ver 3" },
		{ 6, 8, 64, -EINVAL, "GET_CONTEXT with userspace_ver 6" },
		{ 5, 4, 64, -EINVAL, "GET_CONTEXT with 4 bytes of irdma's request" },
		{ 5, 8, 12, -EINVAL, "GET_CONTEXT with 12 bytes of answer room" },
		{ 5, 8, 16, -EOPNOTSUPP, "GET_CONTEXT asking a GEN_2 device for libi40iw's answer" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct irdma_alloc_ucontext_req req = { .userspace_ver = t[i].ver };
		uint8_t resp[64];
		UVIO_OPTS(uvio_drv, d, .in = &req, .in_len = t[i].in_len, .out = resp,
			  .out_len = t[i].out_len);
		UVIO_OPTS(uvio_context, ctx);
		struct uvio_device *dev;

		KT_EQ(uvio_device_open(name, &dev), 0);
		if (!dev)
			continue;
		refused(t[i].what, uvio_get_context(dev, &d, &ctx, NULL), t[i].err, "GET_CONTEXT");
		uvio_device_close(dev);
	}
}

/* The context answer with room for 6.12's whole 80 bytes, on a device
 * opened anew: comp_mask (offset 64) says USE_RAW_ATTR, and on 6.12
 * MIN_HW_WQ_SIZE too, with min_hw_wq_size (offset 72) 8, GEN_2's; 6.1's
 * answer ends at 72. */
static void context_answer(void)
{
	struct irdma_alloc_ucontext_req req = { .userspace_ver = 5 };
	uint8_t resp[80];
	UVIO_OPTS(uvio_drv, d, .in = &req, .in_len = 8, .out = resp, .out_len = sizeof(resp));
	UVIO_OPTS(uvio_context, ctx);
	bool v612 = kt_kernel_ge(6, 12);
	struct uvio_device *dev;
	uint64_t comp_mask;
	uint16_t min_wq;

	KT_EQ(uvio_device_open(name, &dev), 0);
	if (!dev)
		return;
	memset(resp, 0xa5, sizeof(resp));
	KT_EQ(uvio_get_context(dev, &d, &ctx, NULL), 0);
	memcpy(&comp_mask, resp + 64, sizeof(comp_mask));
	memcpy(&min_wq, resp + 72, sizeof(min_wq));
	KT_EQ(comp_mask, v612 ? 3u : 1u);
	if (v612)
		KT_EQ(min_wq, 8);
	else
		KT_EQ(min_wq, 0xa5a5);	/* not written */
	printf("  context answer in 80 bytes of room: comp_mask 0x%llx%s\n",
	       (unsigned long long)comp_mask, v612 ? ", min_hw_wq_size 8" : ", 72 bytes written");
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
}

/* 6.12's REREG_MR (libirdma 44 has none): a plain MR's access and range
 * changed in place, its keys kept; a queue region, or write access asked
 * of a range pinned read-only, refused. */
static void rereg_612(struct uvio_device *dev, uint32_t pd, struct uvio_mr *mr)
{
	uint8_t *mem = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	UVIO_OPTS(uvio_rereg_mr_attr, ra, .flags = UVIO_MR_REREG_ACCESS,
		  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ);
	struct uvio_mr keys = { .sz = sizeof(keys) };

	KT_CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;
	KT_EQ(uvio_rereg_mr(dev, mr->handle, &ra, NULL, &keys, NULL), 0);
	KT_EQ(keys.lkey, mr->lkey);
	ra.flags = UVIO_MR_REREG_TRANS;
	ra.addr = mem;
	ra.length = PAGE;
	ra.iova = (uintptr_t)mem;
	KT_EQ(uvio_rereg_mr(dev, mr->handle, &ra, NULL, &keys, NULL), 0);
	KT_EQ(keys.lkey, mr->lkey);
	expect_pinned(1 - 2, "the plain MR moved from 2 pages to 1 (REREG_MR)");
	printf("  6.12 REREG_MR of the plain MR: access, then range changed, keys kept\n");
	{	/* a range pinned read-only, asked for local write */
		UVIO_OPTS(uvio_mr_attr, a, .pd_handle = pd, .addr = mem, .length = PAGE,
			  .iova = (uintptr_t)mem, .access = 0);
		UVIO_OPTS(uvio_mr, ro);

		KT_EQ(uvio_reg_mr(dev, &a, NULL, &ro, NULL), 0);
		ra.flags = UVIO_MR_REREG_ACCESS;
		ra.access = IB_UVERBS_ACCESS_LOCAL_WRITE;
		refused("MR.REREG asking write of a range pinned read-only",
			uvio_rereg_mr(dev, ro.handle, &ra, NULL, &keys, NULL), -EACCES, "MR.REREG");
		KT_EQ(uvio_dereg_mr(dev, ro.handle, NULL), 0);
	}
	{	/* a queue region */
		struct irdma_mem_reg_req rreq = { .reg_type = IRDMA_MEMREG_TYPE_QP };
		struct uvio_mr qr;

		KT_EQ(reg(dev, pd, mem, PAGE, &rreq, sizeof(rreq), &qr), 0);
		ra.flags = UVIO_MR_REREG_ACCESS;
		ra.access = IB_UVERBS_ACCESS_LOCAL_WRITE;
		refused("MR.REREG of a QP region", uvio_rereg_mr(dev, qr.handle, &ra, NULL, &keys,
								 NULL), -EINVAL, "MR.REREG");
		KT_EQ(uvio_dereg_mr(dev, qr.handle, NULL), 0);
	}
	/* mem stays mapped: the plain MR holds it until it is deregistered */
}

/* What irdma refuses, sent with the caller's driver data; the library
 * passes it through and says what the kernel answered. Then what the
 * library's half refuses before anything is sent. */
static void refusals(struct uvio_device *dev, uint32_t pd, uint32_t cq_handle)
{
	UVIO_OPTS(uvio_drv, none);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp, qp);
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);
	struct irdma_create_cq_req creq;
	struct irdma_create_qp_req qreq;
	struct irdma_mem_reg_req rreq;
	uint8_t resp[32];
	UVIO_OPTS(uvio_drv, cdrv, .in = &creq, .in_len = sizeof(creq), .out = resp,
		  .out_len = sizeof(resp));
	UVIO_OPTS(uvio_drv, qdrv, .in = &qreq, .in_len = sizeof(qreq), .out = resp,
		  .out_len = sizeof(resp));
	int cqs = res_count("cq"), qps = res_count("qp"), mrs = res_count("mr");
	struct uvio_mr mr;
	uint8_t *mem;

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;

	/* REG_MR: a QP region needs its queues' pages and the shadow area's
	 * within what is pinned (2 + 0 + 1 > 2 pages here) */
	memset(&rreq, 0, sizeof(rreq));
	rreq.reg_type = IRDMA_MEMREG_TYPE_QP;
	rreq.sq_pages = 2;
	refused("MR.REG of a QP region of 2 + 0 pages and the shadow's on 2 pages",
		reg(dev, pd, mem, 2 * PAGE, &rreq, sizeof(rreq), &mr), -EINVAL, "MR.REG");
	/* a CQ region of more pages than pinned */
	memset(&rreq, 0, sizeof(rreq));
	rreq.reg_type = IRDMA_MEMREG_TYPE_CQ;
	rreq.cq_pages = 3;
	refused("MR.REG of a CQ region of 3 pages on 2",
		reg(dev, pd, mem, 2 * PAGE, &rreq, sizeof(rreq), &mr), -EINVAL, "MR.REG");
	/* a region type irdma does not know */
	memset(&rreq, 0, sizeof(rreq));
	rreq.reg_type = 7;
	refused("MR.REG of region type 7",
		reg(dev, pd, mem, 2 * PAGE, &rreq, sizeof(rreq), &mr), -EINVAL, "MR.REG");
	/* irdma's request cut short */
	refused("MR.REG with 4 bytes of irdma's 8-byte request",
		reg(dev, pd, mem, 2 * PAGE, &rreq, 4, &mr), -EINVAL, "MR.REG");

	/* CREATE_CQ without irdma's request (8 bytes at least) */
	refused("CQ.CREATE without irdma's request", uvio_create_cq(dev, &attr, &none, &cq, NULL),
		-EINVAL, "CQ.CREATE");
	/* naming a buffer no REG_MR registered */
	memset(&creq, 0, sizeof(creq));
	creq.user_cq_buf = (uintptr_t)mem;
	creq.user_shadow_area = (uintptr_t)(mem + PAGE);
	refused("CQ.CREATE on a buffer never registered",
		uvio_create_cq(dev, &attr, &cdrv, &cq, NULL), -EPROTO, "CQ.CREATE");
	/* the buffer registered as a CQ region, the shadow area not: the
	 * buffer's region is taken off the list all the same */
	memset(&rreq, 0, sizeof(rreq));
	rreq.reg_type = IRDMA_MEMREG_TYPE_CQ;
	rreq.cq_pages = 1;
	KT_EQ(reg(dev, pd, mem, PAGE, &rreq, sizeof(rreq), &mr), 0);
	refused("CQ.CREATE on a registered buffer, its shadow area not",
		uvio_create_cq(dev, &attr, &cdrv, &cq, NULL), -EPROTO, "CQ.CREATE");
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);

	/* CREATE_QP naming queues no REG_MR registered */
	memset(&qreq, 0, sizeof(qreq));
	qreq.user_wqe_bufs = (uintptr_t)mem;
	refused("QP.CREATE on queues never registered",
		make_qp(dev, IB_UVERBS_QPT_RC, pd, cq_handle, &qdrv, &qp), -ENODATA, "QP.CREATE");
	/* irdma's request cut to 8 bytes (16 at least) */
	qdrv.in_len = 8;
	refused("QP.CREATE with 8 bytes of irdma's request",
		make_qp(dev, IB_UVERBS_QPT_RC, pd, cq_handle, &qdrv, &qp), -EINVAL, "QP.CREATE");

	/* The library's half: a UC QP (irdma makes RC and UD) and a CQ past
	 * the context's max_hw_cq_size, refused before anything is sent. */
	refused("QP.CREATE of a UC QP (the library's half)",
		make_qp(dev, IB_UVERBS_QPT_UC, pd, cq_handle, NULL, &qp), -EOPNOTSUPP, "QP.CREATE");
	KT_CHECK(strstr(uvio_last_error(), "irdma"), "named: %s", uvio_last_error());
	attr.cqe = 1 << 20;
	refused("CQ.CREATE of 2^20 CQEs (the library's half)",
		uvio_create_cq(dev, &attr, NULL, &cq, NULL), -EINVAL, "CQ.CREATE");
	KT_CHECK(strstr(uvio_last_error(), "irdma"), "named: %s", uvio_last_error());
	munmap(mem, 2 * PAGE);
	KT_EQ(res_count("cq"), cqs);
	KT_EQ(res_count("qp"), qps);
	KT_EQ(res_count("mr"), mrs);
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_cq, cq2);
	UVIO_OPTS(uvio_mr, mr);
	struct uvio_qp rc, ud;
	uint32_t pd = 0, ah = 0;
	long pinned_at_open;
	enum uvio_path p;
	void *mem;
	int err;

	name = argc > 1 ? argv[1] : "irdma0";
	err = uvio_device_open(name, &dev);
	KT_EQ(err, 0);
	if (err)
		return kt_exit();
	KT_EQ(uvio_device_driver_id(dev), RDMA_DRIVER_IRDMA);

	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	printf("%s: context via %s\n", name, uvio_path_name(p));
	/* libirdma's context holds a PD of its own; so does the half's */
	KT_EQ(res_count("pd"), 1);
	pinned_at_open = pinned = vmpin_pages();
	KT_CHECK(pinned >= 0, "VmPin readable");

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = mem, .length = 2 * PAGE,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	/* no driver data from the caller: the library sends irdma's request
	 * of a plain MR (reg_type MEM) */
	KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), 0);
	KT_CHECK(mr.lkey && mr.lkey == mr.rkey, "lkey 0x%x rkey 0x%x", mr.lkey, mr.rkey);
	expect_pinned(2, "MR of 8 KiB");

	/* (16 + 1) x 2 = 34 CQEs of 32 bytes: one page, and the shadow
	 * area's page, each registered as a CQ region */
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 16);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, &p), 0);
	KT_EQ(cq.cqe, 34);
	expect_pinned(1 + 1, "CQ of 34 CQEs");
	KT_EQ(res_count("mr"), 1 + 2);
	cqa.cqe = 8;	/* (8 + 1) x 2 = 18 */
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq2, &p), 0);
	KT_EQ(cq2.cqe, 18);
	expect_pinned(1 + 1, "CQ of 18 CQEs");

	/* 16 WRs of one SGE: send depth 16 x 2 + 258 -> 512 quanta (4
	 * pages), receive 16 + 1 -> 32 (1 page), the shadow area's page; the
	 * kernel is sent the quanta: 256 send, 32 receive */
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, NULL, &rc), 0);
	KT_EQ(rc.cap.max_send_wr, 256);
	KT_EQ(rc.cap.max_recv_wr, 32);
	expect_pinned(4 + 1 + 1, "RC QP");
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UD, pd, cq2.handle, NULL, &ud), 0);
	expect_pinned(4 + 1 + 1, "UD QP");
	KT_EQ(res_count("qp"), 2);
	KT_EQ(res_count("mr"), 1 + 4 + 2);

	{	/* the QPs to INIT: no driver data in a modify from the library */
		struct uvio_qp_attr a = {
			.sz = sizeof(a),
			.attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
				     UVIO_QP_ACCESS_FLAGS,
			.qp_state = UVIO_QPS_INIT,
			.port_num = 1,
		};

		KT_EQ(uvio_modify_qp(dev, rc.handle, &a, NULL, NULL), 0);
		a.attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT | UVIO_QP_QKEY;
		a.qkey = 0x11111111;
		KT_EQ(uvio_modify_qp(dev, ud.handle, &a, NULL, NULL), 0);
	}
	{	/* an AH to the port's own first GID: irdma answers its ah_id */
		struct uvio_gid_entry g;
		UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = pd);

		KT_EQ(uvio_query_gid_entry(dev, 1, 0, &g, NULL), 0);
		memcpy(aa.av.dgid, g.gid, 16);
		aa.av.is_global = 1;
		aa.av.hop_limit = 64;
		aa.av.port_num = 1;
		KT_EQ(uvio_create_ah(dev, &aa, NULL, &ah, NULL), 0);
	}

	refusals(dev, pd, cq.handle);
	context_refusals();
	mappings(dev);
	context_answer();
	pinned = vmpin_pages();
	if (kt_kernel_ge(6, 12)) {
		rereg_612(dev, pd, &mr);
		pinned = vmpin_pages();
	}

	KT_EQ(uvio_destroy_ah(dev, ah, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, rc.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, ud.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq2.handle, NULL, NULL), 0);
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	/* the queues' regions deregistered with their objects */
	KT_EQ(vmpin_pages(), pinned_at_open);
	KT_EQ(res_count("qp"), 0);
	KT_EQ(res_count("cq"), 0);
	KT_EQ(res_count("mr"), 0);
	KT_EQ(res_count("pd"), 1);	/* the context's own */
	munmap(mem, 2 * PAGE);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	printf("refusals: %d\n", nrefusals);
	return kt_exit();
}
