/*
 * The library's bnxt_re half against a bnxt_re kernel driver (in the suite,
 * the stand-in module of tests/standin/bnxt_re, which holds commands to
 * bnxt_re's user-data contract): with no driver data from the caller,
 * context (its shared page mapped), PD (the doorbell page it names mapped),
 * MR, CQ, an SRQ, RC and UD QPs and an RC QP on the SRQ, an AH; what the
 * kernel pinned for each (VmPin, which ib_umem_get counts) checked against
 * bnxt_re's sizes for these requests on a static-WQE-mode device (every WQE
 * 128 bytes), and the sizes it answered; everything destroyed, nothing
 * left pinned and the kernel's object table empty after. Then what bnxt_re
 * refuses, sent on purpose with the caller's own driver data, refused and
 * reported naming the command (each such line starts "  refusal: "; the
 * count is printed last as "refusals: N"), and what the library's half
 * refuses before sending; and the context's pages mapped and refused as
 * bnxt_re's mmap does (6.1: by frame; 6.12: by the offsets it handed out).
 * The SRQ answer written past the room the caller gave (6.12 only). On
 * 6.12, also what only 6.12 has, with the caller's own driver data:
 * a context's request for exact queue depths and the WQE mode, a CQ resize
 * that completes at the next poll, and bnxt_re's own methods (ALLOC_PAGE,
 * NOTIFY_DRV, GET_TOGGLE_MEM) as this chip answers them.
 *
 * The requests are the witness's (kt_bnxt_re_witness: libbnxt_re through
 * libibverbs), so that the two traces can be compared field by field:
 * CQ 16 CQEs; QPs 16 send and 16 receive WRs of one SGE, no inline data;
 * SRQ 16 WRs of one SGE; MR 8 KiB.
 *
 *   kt_bnxt_re_uvio [DEVICE]     (default bnxt_re0)
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/types.h>

#include <rdma/bnxt_re-abi.h>
#include <uvio.h>
#include "kt.h"
#include "hw/bnxt_re_abi.h"	/* the context answer with its mode (5.10's lacks it) */

#define PAGE 4096u

/* What 6.12's <rdma/bnxt_re-abi.h> adds (the build's may be 6.1's). */
struct uctx_req_612 {			/* bnxt_re_uctx_req */
	__aligned_u64 comp_mask;
};
struct resize_cq_req_612 {		/* bnxt_re_resize_cq_req */
	__aligned_u64 cq_va;
};
enum {
	REQ_POW2_SUPPORT = 0x01,	/* BNXT_RE_COMP_MASK_REQ_UCNTX_POW2_SUPPORT */
	REQ_VAR_WQE_SUPPORT = 0x02,	/* ..._VAR_WQE_SUPPORT */
	CMASK_POW2_DISABLED = 0x10,	/* BNXT_RE_UCNTX_CMASK_POW2_DISABLED */
	NS = 1 << 12,			/* UVERBS_ID_NS_SHIFT: the driver's ids */
	OBJ_ALLOC_PAGE = NS, OBJ_NOTIFY_DRV, OBJ_GET_TOGGLE_MEM,
	METHOD_FIRST = NS, METHOD_SECOND,	/* each object's create, destroy */
	ATTR_HANDLE = NS,
	ALLOC_PAGE_TYPE, ALLOC_PAGE_DPI, ALLOC_PAGE_MMAP_OFFSET, ALLOC_PAGE_MMAP_LENGTH,
	TOGGLE_TYPE = NS + 1, TOGGLE_RES_ID, TOGGLE_MMAP_PAGE, TOGGLE_MMAP_OFFSET,
	TOGGLE_MMAP_LENGTH,
	ALLOC_WC_PAGE = 0, ALLOC_DBR_BAR_PAGE, ALLOC_DBR_PAGE,
	CQ_TOGGLE_MEM = 0,
};

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

	KT_CHECK(now - pinned == delta, "%s: the kernel pinned %ld pages more, bnxt_re's sizes make %ld",
		 what, now - pinned, delta);
	printf("  %s: %ld page(s) pinned\n", what, now - pinned);
	pinned = now;
}

static int make_qp(struct uvio_device *dev, uint32_t type, uint32_t pd, uint32_t cq,
		   const uint32_t *srq, const struct uvio_drv *drv, struct uvio_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = pd, .send_cq_handle = cq,
		  .recv_cq_handle = cq,
		  .cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 16, .max_send_sge = 1,
			   .max_recv_sge = srq ? 0 : 1 });

	if (srq) {
		a.fields = UVIO_QP_INIT_SRQ;
		a.srq_handle = *srq;
	}
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

struct mapping {
	off_t page;
	size_t pages;
	int flags, err;
	const char *what;
};

/* The pages the context offers (bnxt_re_mmap): one page each. 6.1: offset
 * 0 the shared page (bnxt_re does not ask for a shared mapping); any other
 * offset is a doorbell page's frame to bnxt_re, and the stand-in maps only
 * the one ALLOC_PD named (the library's half has it mapped already). 6.12:
 * only an offset handed out, shared, of its length: 0 the shared page, 1
 * the first PD's doorbell page (the next free offset). */
static void mappings(struct uvio_device *dev)
{
	static const struct mapping m61[] = {
		{ 0, 1, MAP_SHARED, 0, "the shared page" },
		{ 0, 1, MAP_PRIVATE, 0, "the shared page, private" },
		{ 0, 2, MAP_SHARED, EINVAL, "two pages at the shared page" },
		{ 1, 1, MAP_SHARED, EINVAL, "frame 1 (not the context's doorbell page: the stand-in's refusal)" },
		{ 0, 0, 0, 0, NULL },
	};
	static const struct mapping m612[] = {
		{ 0, 1, MAP_SHARED, 0, "the shared page" },
		{ 0, 1, MAP_PRIVATE, EINVAL, "the shared page, private" },
		{ 0, 2, MAP_SHARED, EINVAL, "two pages at the shared page" },
		{ 1, 1, MAP_SHARED, 0, "offset 1, the first PD's doorbell page" },
		{ 1000, 1, MAP_SHARED, EINVAL, "offset 1000, never handed out" },
		{ 0, 0, 0, 0, NULL },
	};
	const struct mapping *m = kt_kernel_ge(6, 12) ? m612 : m61;

	for (size_t i = 0; m[i].what; i++) {
		void *p = mmap(NULL, m[i].pages * PAGE, PROT_READ, m[i].flags,
			       uvio_device_fd(dev), m[i].page * (off_t)PAGE);
		int err = p == MAP_FAILED ? errno : 0;

		KT_CHECK(err == m[i].err, "mmap of %s: errno %d, bnxt_re answers %d", m[i].what,
			 err, m[i].err);
		printf("  mmap of %s: %s\n", m[i].what, err ? strerror(err) : "mapped");
		if (p != MAP_FAILED)
			munmap(p, m[i].pages * PAGE);
	}
}

/* The SRQ answer with the caller's own request and 4 bytes of room (what
 * libbnxt_re 44 gives) at the head of a 16-byte buffer: 6.1 writes its
 * 4-byte answer; 6.12 writes its 16 bytes (srqid, rsvd, comp_mask)
 * whatever the room, 12 bytes past it (bnxt_re_create_srq). */
static void srq_answer_room(struct uvio_device *dev, uint32_t pd)
{
	struct bnxt_re_srq_req sreq;
	uint8_t out[16];
	UVIO_OPTS(uvio_drv, d, .in = &sreq, .in_len = sizeof(sreq), .out = out, .out_len = 4);
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = pd, .max_wr = 16, .max_sge = 1);
	UVIO_OPTS(uvio_srq, srq);
	bool v612 = kt_kernel_ge(6, 12);
	size_t past = 0;
	void *buf;

	buf = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(buf != MAP_FAILED, "mmap");
	if (buf == MAP_FAILED)
		return;
	memset(&sreq, 0, sizeof(sreq));
	sreq.srqva = (uintptr_t)buf;
	memset(out, 0xa5, sizeof(out));
	KT_EQ(uvio_create_srq(dev, &sa, &d, &srq, NULL), 0);
	for (size_t i = 4; i < sizeof(out); i++)
		past += out[i] != 0xa5;
	KT_CHECK(past == (v612 ? 12u : 0u),
		 "SRQ answer: %zu bytes written past the 4 of room, bnxt_re writes %u", past,
		 v612 ? 12u : 0u);
	printf("  SRQ answer into 4 bytes of room: %zu bytes written past them\n", past);
	KT_EQ(uvio_destroy_srq(dev, srq.handle, NULL, NULL), 0);
	munmap(buf, PAGE);
}

/* 6.12's context request, on a handle of its own: exact depths asked
 * (POW2_SUPPORT) and the WQE mode (VAR_WQE_SUPPORT), both answered in
 * comp_mask, the mode static; a CQ of 16 CQEs is then 17 deep. */
static void context_request_612(void)
{
	struct uvio_device *other;
	struct uctx_req_612 req = { .comp_mask = REQ_POW2_SUPPORT | REQ_VAR_WQE_SUPPORT };
	struct uvio_bnxt_re_uctx_resp resp;
	struct bnxt_re_cq_req creq;
	uint8_t cresp[16];
	UVIO_OPTS(uvio_drv, d, .in = &req, .in_len = sizeof(req), .out = &resp,
		  .out_len = sizeof(resp));
	UVIO_OPTS(uvio_drv, cdrv, .in = &creq, .in_len = sizeof(creq), .out = cresp,
		  .out_len = sizeof(cresp));
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	void *buf;

	KT_EQ(uvio_device_open(name, &other), 0);
	if (!other)
		return;
	memset(&resp, 0, sizeof(resp));
	KT_EQ(uvio_get_context(other, &d, &ctx, NULL), 0);
	KT_EQ(resp.comp_mask, BNXT_RE_UCNTX_CMASK_HAVE_CCTX | UVIO_BNXT_RE_CMASK_HAVE_MODE |
				      CMASK_POW2_DISABLED);
	KT_EQ(resp.mode, UVIO_BNXT_RE_WQE_MODE_STATIC);
	printf("  6.12 context asking for exact depths and the mode: comp_mask 0x%llx, mode %u\n",
	       (unsigned long long)resp.comp_mask, resp.mode);
	buf = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(buf != MAP_FAILED, "mmap");
	memset(&creq, 0, sizeof(creq));
	creq.cq_va = (uintptr_t)buf;
	KT_EQ(uvio_create_cq(other, &cqa, &cdrv, &cq, NULL), 0);
	KT_EQ(cq.cqe, 17);
	printf("  6.12 CQ of 16 CQEs on that context: %u deep\n", cq.cqe);
	KT_EQ(uvio_destroy_cq(other, cq.handle, NULL, NULL), 0);
	munmap(buf, PAGE);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(other);
}

/* 6.12's CQ resize, with the caller's request (libbnxt_re 44 has none):
 * the new buffer pinned at once, the old one let go at the next poll; a
 * second resize before that poll is refused. */
static void resize_612(struct uvio_device *dev)
{
	struct resize_cq_req_612 rreq;
	UVIO_OPTS(uvio_drv, rdrv, .in = &rreq, .in_len = sizeof(rreq));
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	struct ib_uverbs_wc wc;
	uint32_t count = 1;
	void *buf;

	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, NULL), 0);
	expect_pinned(1, "CQ of 32 CQEs, to resize");
	buf = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(buf != MAP_FAILED, "mmap");
	rreq.cq_va = (uintptr_t)buf;
	{	/* 255 + 1 CQEs of 32 bytes: two pages */
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = cq.handle, .cqe = 255);

		KT_EQ(uvio_resize_cq(dev, &ra, &rdrv, &cq, NULL), 0);
		KT_EQ(cq.cqe, 256);
		expect_pinned(2, "CQ resized to 256 CQEs (the old buffer kept until a poll)");
		refused("CQ resize again before a poll", uvio_resize_cq(dev, &ra, &rdrv, &cq, NULL),
			-EBUSY, "CQ.RESIZE");
	}
	KT_EQ(uvio_poll_cq(dev, cq.handle, &wc, 1, &count, NULL), 0);
	KT_EQ(count, 0);
	expect_pinned(-1, "the poll completes the resize: the old buffer let go");
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	expect_pinned(-2, "the resized CQ destroyed");
	munmap(buf, 2 * PAGE);
}

/* bnxt_re 6.12's own methods, as this chip (no push doorbells, no pacing,
 * no toggle pages) answers them. */
static void methods_612(struct uvio_device *dev)
{
	int fd = uvio_device_fd(dev);
	uint64_t offset = 0;
	uint32_t length = 0, dpi = ~0u, handle = 0, res_id = 1, page_len = 0, page_off = 0;
	uint64_t page = 0;
	int err;

	{
		UVIO_CMD_DEFINE(cmd, 5, OBJ_ALLOC_PAGE, METHOD_FIRST);

		uvio_cmd_set_driver_id(&cmd, RDMA_DRIVER_BNXT_RE);
		uvio_put_idr_new(&cmd, ATTR_HANDLE);
		uvio_put_u64(&cmd, ALLOC_PAGE_TYPE, ALLOC_WC_PAGE);
		uvio_put_ptr_out(&cmd, ALLOC_PAGE_MMAP_OFFSET, &offset, sizeof(offset));
		uvio_put_ptr_out(&cmd, ALLOC_PAGE_MMAP_LENGTH, &length, sizeof(length));
		uvio_put_ptr_out(&cmd, ALLOC_PAGE_DPI, &dpi, sizeof(dpi));
		KT_EQ(uvio_cmd_exec(fd, &cmd), -EINVAL);
		printf("  6.12 ALLOC_PAGE of a push-doorbell page: EINVAL (no push doorbells)\n");

		uvio_cmd_init(&cmd, cmd_buf, sizeof(cmd_buf), OBJ_ALLOC_PAGE, METHOD_FIRST);
		uvio_cmd_set_driver_id(&cmd, RDMA_DRIVER_BNXT_RE);
		uvio_put_idr_new(&cmd, ATTR_HANDLE);
		uvio_put_u64(&cmd, ALLOC_PAGE_TYPE, ALLOC_DBR_PAGE);
		uvio_put_ptr_out(&cmd, ALLOC_PAGE_MMAP_OFFSET, &offset, sizeof(offset));
		uvio_put_ptr_out(&cmd, ALLOC_PAGE_MMAP_LENGTH, &length, sizeof(length));
		uvio_put_ptr_out(&cmd, ALLOC_PAGE_DPI, &dpi, sizeof(dpi));
		err = uvio_cmd_exec(fd, &cmd);
		KT_EQ(err, 0);
		if (!err) {
			void *p;

			KT_EQ(uvio_cmd_read_handle(&cmd, ATTR_HANDLE, &handle), 0);
			KT_EQ(length, PAGE);
			KT_EQ(dpi, 0);
			KT_CHECK(offset && !(offset % PAGE), "a page's mmap offset: 0x%llx",
				 (unsigned long long)offset);
			/* bnxt_re's pacing page is read-only */
			p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
			KT_CHECK(p == MAP_FAILED && errno == EFAULT,
				 "a writable mapping of the pacing page: %s",
				 p == MAP_FAILED ? strerror(errno) : "mapped");
			if (p != MAP_FAILED)
				munmap(p, PAGE);
			printf("  6.12 ALLOC_PAGE of the pacing page: offset 0x%llx, %u bytes; "
			       "mapped writable: EFAULT\n", (unsigned long long)offset, length);
		}
	}
	if (handle) {
		UVIO_CMD_DEFINE(cmd, 1, OBJ_ALLOC_PAGE, METHOD_SECOND);

		uvio_cmd_set_driver_id(&cmd, RDMA_DRIVER_BNXT_RE);
		uvio_put_idr(&cmd, ATTR_HANDLE, handle);
		KT_EQ(uvio_cmd_exec(fd, &cmd), 0);
	}
	{
		UVIO_CMD_DEFINE(cmd, 0, OBJ_NOTIFY_DRV, METHOD_FIRST);

		uvio_cmd_set_driver_id(&cmd, RDMA_DRIVER_BNXT_RE);
		KT_EQ(uvio_cmd_exec(fd, &cmd), 0);
		printf("  6.12 NOTIFY_DRV: 0 (no pacing to alert)\n");
	}
	{
		UVIO_CMD_DEFINE(cmd, 6, OBJ_GET_TOGGLE_MEM, METHOD_FIRST);

		uvio_cmd_set_driver_id(&cmd, RDMA_DRIVER_BNXT_RE);
		uvio_put_idr_new(&cmd, ATTR_HANDLE);
		uvio_put_u64(&cmd, TOGGLE_TYPE, CQ_TOGGLE_MEM);
		uvio_put_ptr_in(&cmd, TOGGLE_RES_ID, &res_id, sizeof(res_id));
		uvio_put_ptr_out(&cmd, TOGGLE_MMAP_PAGE, &page, sizeof(page));
		uvio_put_ptr_out(&cmd, TOGGLE_MMAP_OFFSET, &page_off, sizeof(page_off));
		uvio_put_ptr_out(&cmd, TOGGLE_MMAP_LENGTH, &page_len, sizeof(page_len));
		KT_EQ(uvio_cmd_exec(fd, &cmd), -EINVAL);
		printf("  6.12 GET_TOGGLE_MEM of CQ 1: EINVAL (no toggle pages on this chip)\n");
	}
}

/* What bnxt_re refuses, sent with the caller's driver data; the library
 * passes it through and says what the kernel answered. Then what the
 * library's half refuses before anything is sent. */
static void refusals(struct uvio_device *dev, uint32_t pd, uint32_t cq_handle)
{
	UVIO_OPTS(uvio_drv, none);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp, qp);
	UVIO_OPTS(uvio_srq, srq);
	struct bnxt_re_cq_req creq;
	struct bnxt_re_qp_req qreq;
	struct bnxt_re_srq_req sreq;
	uint8_t resp[16];
	UVIO_OPTS(uvio_drv, cdrv, .in = &creq, .in_len = sizeof(creq), .out = resp,
		  .out_len = sizeof(resp));
	UVIO_OPTS(uvio_drv, qdrv, .in = &qreq, .in_len = sizeof(qreq), .out = resp,
		  .out_len = sizeof(resp));
	UVIO_OPTS(uvio_drv, sdrv, .in = &sreq, .in_len = sizeof(sreq), .out = resp,
		  .out_len = sizeof(resp));
	int cqs = res_count("cq"), qps = res_count("qp"), srqs = res_count("srq");
	uint8_t *mem;

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;
	munmap(mem + PAGE, PAGE);	/* one page, nothing after it */
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);

	/* CQ.CREATE without bnxt_re's request: bnxt_re reads 16 bytes that
	 * are not there. */
	refused("CQ.CREATE without bnxt_re's request", uvio_create_cq(dev, &attr, &none, &cq, NULL),
		-EFAULT, "CQ.CREATE");

	/* 255 CQEs: 256 of 32 bytes, 8 KiB where one page is mapped: the pin
	 * of the length bnxt_re computes fails. */
	memset(&creq, 0, sizeof(creq));
	creq.cq_va = (uintptr_t)mem;
	attr.cqe = 255;
	refused("CQ.CREATE on a buffer shorter than bnxt_re computes",
		uvio_create_cq(dev, &attr, &cdrv, &cq, NULL), -EFAULT, "CQ.CREATE");
	/* past max_cqd (65535 on this device) */
	attr.cqe = 65536;
	refused("CQ.CREATE of 65536 CQEs", uvio_create_cq(dev, &attr, &cdrv, &cq, NULL), -EINVAL,
		"CQ.CREATE");

	/* bnxt_re makes RC and UD QPs: a UC QP is refused. */
	memset(&qreq, 0, sizeof(qreq));
	qreq.qpsva = (uintptr_t)mem;
	qreq.qprva = (uintptr_t)mem;
	refused("QP.CREATE of a UC QP",
		make_qp(dev, IB_UVERBS_QPT_UC, pd, cq_handle, NULL, &qdrv, &qp), -EOPNOTSUPP,
		"QP.CREATE");
	/* The RC send queue (256 WQEs of 128 bytes and their PSN entries:
	 * nine pages) on one page. */
	refused("QP.CREATE on a send queue shorter than bnxt_re computes",
		make_qp(dev, IB_UVERBS_QPT_RC, pd, cq_handle, NULL, &qdrv, &qp), -EFAULT,
		"QP.CREATE");
	{	/* 7 SGEs: past the device's 6 */
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .send_cq_handle = cq_handle, .recv_cq_handle = cq_handle,
			  .cap = { .max_send_wr = 1, .max_recv_wr = 1, .max_send_sge = 7,
				   .max_recv_sge = 1 });

		refused("QP.CREATE with 7 send SGEs", uvio_create_qp(dev, &a, &qdrv, &qp, NULL),
			-EINVAL, "QP.CREATE");
	}
	{	/* an SRQ of 65534 WRs: at bnxt_re's max_srq_wqes */
		UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = pd, .max_wr = 65534, .max_sge = 1);

		memset(&sreq, 0, sizeof(sreq));
		sreq.srqva = (uintptr_t)mem;
		refused("SRQ.CREATE of 65534 WRs", uvio_create_srq(dev, &sa, &sdrv, &srq, NULL),
			-EINVAL, "SRQ.CREATE");
	}

	/* The library's half: a UC QP, a CQ past the context's max_cqd, a
	 * resize (bnxt_re has one from 6.12 on, libbnxt_re 44 none), refused
	 * before anything is sent. */
	refused("QP.CREATE of a UC QP (the library's half)",
		make_qp(dev, IB_UVERBS_QPT_UC, pd, cq_handle, NULL, NULL, &qp), -EOPNOTSUPP,
		"QP.CREATE");
	KT_CHECK(strstr(uvio_last_error(), "bnxt_re"), "named: %s", uvio_last_error());
	attr.cqe = 65536;
	refused("CQ.CREATE of 65536 CQEs (the library's half)",
		uvio_create_cq(dev, &attr, NULL, &cq, NULL), -EINVAL, "CQ.CREATE");
	{
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = cq_handle, .cqe = 100);

		refused("CQ resize (the library's half: libbnxt_re 44 has none)",
			uvio_resize_cq(dev, &ra, NULL, &cq, NULL), -EOPNOTSUPP, "CQ.RESIZE");
	}
	munmap(mem, PAGE);
	KT_EQ(res_count("cq"), cqs);
	KT_EQ(res_count("qp"), qps);
	KT_EQ(res_count("srq"), srqs);
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mr, mr);
	UVIO_OPTS(uvio_srq, srq);
	struct uvio_qp rc, ud, on_srq;
	uint32_t pd = 0, ah = 0;
	long pinned_at_open;
	enum uvio_path p;
	void *mem;
	int err;

	name = argc > 1 ? argv[1] : "bnxt_re0";
	err = uvio_device_open(name, &dev);
	KT_EQ(err, 0);
	if (err)
		return kt_exit();
	KT_EQ(uvio_device_driver_id(dev), RDMA_DRIVER_BNXT_RE);

	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	printf("%s: context via %s\n", name, uvio_path_name(p));
	pinned_at_open = pinned = vmpin_pages();
	KT_CHECK(pinned >= 0, "VmPin readable");

	/* the doorbell page the answer names is mapped by the half */
	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);

	/* 16 + 1 rounded up to 32 CQEs of 32 bytes: one page; the kernel
	 * answers the 32 */
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 16);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, &p), 0);
	KT_EQ(cq.cqe, 32);
	expect_pinned(1, "CQ of 32 CQEs");

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = mem, .length = 2 * PAGE,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), 0);
	expect_pinned(2, "MR of 8 KiB");

	/* 32 WQEs of 128 bytes: one page; bnxt_re answers max_wr as asked */
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = pd, .max_wr = 16, .max_sge = 1);
	KT_EQ(uvio_create_srq(dev, &sa, NULL, &srq, NULL), 0);
	printf("  SRQ: max_wr %u, max_sge %u answered\n", srq.max_wr, srq.max_sge);
	expect_pinned(1, "SRQ of 32 WQEs");

	/* RC: 256 send WQEs of 128 bytes + 256 PSN entries of 8 (34816 bytes,
	 * nine pages) + 32 receive WQEs of 128 (one page); on the SRQ the
	 * send queue alone; UD: the send WQEs alone (eight pages) + one */
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, NULL, NULL, &rc), 0);
	KT_EQ(rc.cap.max_recv_wr, 16);
	KT_EQ(rc.cap.max_recv_sge, 1);
	expect_pinned(9 + 1, "RC QP");
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, &srq.handle, NULL, &on_srq), 0);
	expect_pinned(9, "RC QP on the SRQ");
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UD, pd, cq.handle, NULL, NULL, &ud), 0);
	expect_pinned(8 + 1, "UD QP");
	{	/* RC of 300 sends: 512 x 128 + 512 x 8 = 69632 bytes, 17 pages
		 * (the PSN entries' size shows), + one page of receives */
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .send_cq_handle = cq.handle, .recv_cq_handle = cq.handle,
			  .cap = { .max_send_wr = 300, .max_recv_wr = 16, .max_send_sge = 1,
				   .max_recv_sge = 1 });
		struct uvio_qp big = { .sz = sizeof(big) };

		KT_EQ(uvio_create_qp(dev, &a, NULL, &big, NULL), 0);
		expect_pinned(17 + 1, "RC QP of 300 sends");
		KT_EQ(uvio_destroy_qp(dev, big.handle, NULL, NULL), 0);
		expect_pinned(-(17 + 1), "RC QP of 300 sends destroyed");
	}
	KT_EQ(res_count("qp"), 3);

	{	/* the RC QP to INIT: no driver data in a modify */
		struct uvio_qp_attr a = {
			.sz = sizeof(a),
			.attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
				     UVIO_QP_ACCESS_FLAGS,
			.qp_state = UVIO_QPS_INIT,
			.port_num = 1,
		};

		KT_EQ(uvio_modify_qp(dev, rc.handle, &a, NULL, NULL), 0);
	}
	{	/* an AH to the port's own first GID: no driver data on bnxt_re */
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
	mappings(dev);
	srq_answer_room(dev, pd);
	pinned = vmpin_pages();
	if (kt_kernel_ge(6, 12)) {
		resize_612(dev);
		methods_612(dev);
		context_request_612();
		pinned = vmpin_pages();
	}

	KT_EQ(uvio_destroy_ah(dev, ah, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, on_srq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, rc.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, ud.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_srq(dev, srq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	KT_EQ(vmpin_pages(), pinned_at_open);
	KT_EQ(res_count("qp"), 0);
	KT_EQ(res_count("cq"), 0);
	KT_EQ(res_count("pd"), 0);
	KT_EQ(res_count("mr"), 0);
	KT_EQ(res_count("srq"), 0);
	munmap(mem, 2 * PAGE);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	printf("refusals: %d\n", nrefusals);
	return kt_exit();
}
