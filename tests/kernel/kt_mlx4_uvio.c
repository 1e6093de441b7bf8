/*
 * The library's mlx4 half against an mlx4 kernel driver (in the suite, the
 * stand-in module of tests/standin/mlx4, which holds commands to mlx4_ib's
 * user-data contract): with no driver data from the caller, context, PD, MR,
 * CQ (and resize), RC, UC and UD QPs, an SRQ and a QP on it, an AH; what the
 * kernel pinned for each (VmPin, which ib_umem_get counts) checked against
 * mlx4's sizes for these requests (the CQE size by the device's uverbs ABI
 * version: 64 bytes on 4, 32 on 3), and the sizes it answered; everything
 * destroyed, nothing left pinned and the kernel's object table empty after.
 * Then what mlx4 refuses, sent on purpose with the caller's own driver data,
 * refused and reported naming the command (each such line starts
 * "  refusal: "), and what the library's half refuses before sending; and
 * the context's pages mapped and refused as mlx4_ib's mmap does.
 *
 * The requests are the witness's (kt_mlx4_witness: libmlx4 through
 * libibverbs), so that the two traces can be compared field by field:
 * CQ 16 CQEs resized to 100; QPs 16 send and 16 receive WRs of one SGE, no
 * inline data; SRQ 16 WRs of one SGE; MR 8 KiB.
 *
 *   kt_mlx4_uvio [DEVICE]     (default mlx4_0)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rdma/mlx4-abi.h>
#include <uvio.h>
#include "kt.h"

#define PAGE 4096u

static const char *name;
static long pinned;	/* VmPin pages, as last read */

/* The device's uverbs ABI version (3: no user capabilities, 32-byte
 * CQEs; 4: 64-byte CQEs), from its uverbs node in sysfs; 0 unread. */
static int abi_of(const char *ibdev)
{
	char path[128], v[64];
	int abi = 0;

	for (int i = 0; i < 32 && !abi; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "/sys/class/infiniband_verbs/uverbs%d/ibdev", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(v, sizeof(v), f) && !strncmp(v, ibdev, strlen(ibdev)) &&
		    v[strlen(ibdev)] == '\n') {
			fclose(f);
			snprintf(path, sizeof(path), "/sys/class/infiniband_verbs/uverbs%d/abi_version", i);
			f = fopen(path, "r");
			if (f && fgets(v, sizeof(v), f))
				abi = atoi(v);
		}
		if (f)
			fclose(f);
	}
	return abi;
}

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

	KT_CHECK(now - pinned == delta, "%s: the kernel pinned %ld pages more, mlx4's sizes make %ld",
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
}

/* The pages the context offers (mlx4_ib_mmap): the UAR page at offset 0
 * and the blue-flame page at one page, shared, one page each; the clock
 * (offset 3) refused where the device does not map it, any other offset,
 * a private mapping or two pages refused. */
static void mappings(struct uvio_device *dev)
{
	static const struct { off_t page; size_t pages; int flags, err; const char *what; } m[] = {
		{ 0, 1, MAP_SHARED, 0, "the UAR page" },
		{ 1, 1, MAP_SHARED, 0, "the blue-flame page" },
		{ 3, 1, MAP_SHARED, EOPNOTSUPP, "the clock page" },
		{ 2, 1, MAP_SHARED, EINVAL, "offset 2" },
		{ 0, 1, MAP_PRIVATE, EINVAL, "the UAR page, private" },
		{ 0, 2, MAP_SHARED, EINVAL, "two pages at the UAR page" },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		void *p = mmap(NULL, m[i].pages * PAGE, PROT_WRITE, m[i].flags,
			       uvio_device_fd(dev), m[i].page * (off_t)PAGE);
		int err = p == MAP_FAILED ? errno : 0;

		KT_CHECK(err == m[i].err, "mmap of %s: errno %d, mlx4_ib answers %d", m[i].what,
			 err, m[i].err);
		printf("  mmap of %s: %s\n", m[i].what, err ? strerror(err) : "mapped");
		if (p != MAP_FAILED)
			munmap(p, m[i].pages * PAGE);
	}
}

/* What mlx4 refuses, sent with the caller's driver data; the library
 * passes it through and says what the kernel answered. Then what the
 * library's half refuses before anything is sent. */
static void refusals(struct uvio_device *dev, uint32_t pd, uint32_t cq_handle, uint32_t srq)
{
	UVIO_OPTS(uvio_drv, none);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp, qp);
	struct mlx4_ib_create_cq creq;
	struct mlx4_ib_create_qp qreq;
	uint8_t resp[8];
	UVIO_OPTS(uvio_drv, cdrv, .in = &creq, .in_len = sizeof(creq), .out = resp,
		  .out_len = sizeof(resp));
	UVIO_OPTS(uvio_drv, qdrv, .in = &qreq, .in_len = sizeof(qreq));
	int cqs = res_count("cq"), qps = res_count("qp");
	uint8_t *mem;

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;
	munmap(mem + PAGE, PAGE);	/* one page, nothing after it */
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);

	/* CQ.CREATE without mlx4's request: mlx4_ib reads 16 bytes that are
	 * not there. */
	refused("CQ.CREATE without mlx4's request", uvio_create_cq(dev, &attr, &none, &cq, NULL),
		-EFAULT, "CQ.CREATE");

	/* 256 CQEs of 64 bytes need 16 KiB where one page is mapped: the pin
	 * of the length mlx4 computes fails. */
	memset(&creq, 0, sizeof(creq));
	creq.buf_addr = (uintptr_t)mem;
	creq.db_addr = (uintptr_t)(mem + PAGE - 8);
	attr.cqe = 255;
	refused("CQ.CREATE on a buffer shorter than mlx4 computes",
		uvio_create_cq(dev, &attr, &cdrv, &cq, NULL), -EFAULT, "CQ.CREATE");

	/* A send queue stride past the device's largest descriptor (1024). */
	memset(&qreq, 0, sizeof(qreq));
	qreq.buf_addr = (uintptr_t)mem;
	qreq.db_addr = (uintptr_t)(mem + PAGE - 4);
	qreq.log_sq_bb_count = 2;
	qreq.log_sq_stride = 11;
	refused("QP.CREATE with a send WQE stride of 2^11",
		make_qp(dev, IB_UVERBS_QPT_RC, pd, cq_handle, NULL, &qdrv, &qp), -EINVAL,
		"QP.CREATE");
	/* ...and one below mlx4's smallest (64). */
	qreq.log_sq_stride = 5;
	refused("QP.CREATE with a send WQE stride of 32",
		make_qp(dev, IB_UVERBS_QPT_RC, pd, cq_handle, NULL, &qdrv, &qp), -EINVAL,
		"QP.CREATE");

	/* A QP on an SRQ has no receive queue: receives asked are refused. */
	{
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .send_cq_handle = cq_handle, .recv_cq_handle = cq_handle,
			  .fields = UVIO_QP_INIT_SRQ, .srq_handle = srq,
			  .cap = { .max_send_wr = 1, .max_recv_wr = 4, .max_send_sge = 1,
				   .max_recv_sge = 1 });

		qreq.log_sq_stride = 6;
		refused("QP.CREATE on an SRQ asking for receives",
			uvio_create_qp(dev, &a, &qdrv, &qp, NULL), -EINVAL, "QP.CREATE");
	}

	/* The library's half: a raw packet QP it does not size, and a CQ past
	 * libmlx4's limit, refused before anything is sent. */
	{
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RAW_PACKET, .pd_handle = pd,
			  .send_cq_handle = cq_handle, .recv_cq_handle = cq_handle,
			  .cap = { .max_send_wr = 1, .max_send_sge = 1 });

		refused("QP.CREATE of a raw packet QP (the library's half)",
			uvio_create_qp(dev, &a, NULL, &qp, NULL), -EOPNOTSUPP, "QP.CREATE");
		KT_CHECK(strstr(uvio_last_error(), "mlx4"), "named: %s", uvio_last_error());
	}
	attr.cqe = 0x400000;
	refused("CQ.CREATE of 2^22 CQEs (the library's half)",
		uvio_create_cq(dev, &attr, NULL, &cq, NULL), -EINVAL, "CQ.CREATE");
	munmap(mem, PAGE);
	KT_EQ(res_count("cq"), cqs);
	KT_EQ(res_count("qp"), qps);
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_mr, mr);
	UVIO_OPTS(uvio_srq, srq);
	struct uvio_qp rc, uc, ud, on_srq;
	uint32_t pd = 0, ah = 0;
	long pinned_at_open;
	unsigned int cqe_size;
	enum uvio_path p;
	int abi;
	void *mem, *resized = MAP_FAILED;
	int err;

	name = argc > 1 ? argv[1] : "mlx4_0";
	err = uvio_device_open(name, &dev);
	KT_EQ(err, 0);
	if (err)
		return kt_exit();
	KT_EQ(uvio_device_driver_id(dev), RDMA_DRIVER_MLX4);
	abi = abi_of(name);
	KT_CHECK(abi == 3 || abi == 4, "uverbs ABI version %d", abi);
	cqe_size = abi == 3 ? 32 : 64;
	printf("%s: uverbs ABI version %d, %u-byte CQEs\n", name, abi, cqe_size);

	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	printf("%s: context via %s\n", name, uvio_path_name(p));
	pinned_at_open = pinned = vmpin_pages();
	KT_CHECK(pinned >= 0, "VmPin readable");

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);

	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = mem, .length = 2 * PAGE,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), 0);
	expect_pinned(2, "MR of 8 KiB");

	/* 16 + 1 rounded up to 32 CQEs of 64 (or 32) bytes: one page, and a
	 * page of CQ doorbell records */
	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 16);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, &p), 0);
	KT_EQ(cq.cqe, 31);
	expect_pinned(1 + 1, "CQ of 32 CQEs");
	{	/* Refused without driver data (the library polls no mlx4 CQ
		 * and cannot carry unpolled completions over); the poller's
		 * own buffer of 128 CQEs goes out: 8 KiB, two pages (32-byte
		 * CQEs: one), the old one let go */
		UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = cq.handle, .cqe = 100);
		struct mlx4_ib_resize_cq req = { 0 };
		/* no answer space: mlx4 answers in the core response alone */
		UVIO_OPTS(uvio_drv, drv, .in = &req, .in_len = sizeof(req), .out = &req, .out_len = 0);

		KT_EQ(uvio_resize_cq(dev, &ra, NULL, &cq, NULL), -EOPNOTSUPP);
		KT_CHECK(strstr(uvio_last_error(), "CQ.RESIZE: mlx4: EOPNOTSUPP: only the CQ's poller") != NULL, "%s",
			 uvio_last_error());
		expect_pinned(0, "CQ resize refused");
		resized = mmap(NULL, 128 * cqe_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		KT_CHECK(resized != MAP_FAILED, "a buffer for the resize");
		req.buf_addr = (uintptr_t)resized;
		ra.cqe = 127;
		KT_EQ(uvio_resize_cq(dev, &ra, &drv, &cq, NULL), 0);
		KT_EQ(cq.cqe, 127);
		expect_pinned((long)(128 * cqe_size / PAGE) - 1, "CQ resized to 128 CQEs");
		/* the same count again: mlx4_ib keeps the CQ as it is */
		KT_EQ(uvio_resize_cq(dev, &ra, &drv, &cq, NULL), 0);
		KT_EQ(cq.cqe, 127);
		expect_pinned(0, "CQ resized to the count it has");
	}

	/* RC, UC: 64 send WQEs of 64 bytes + 16 receive WQEs of 16 (4352
	 * bytes, two pages), and a page of receive doorbell records once;
	 * UD: 64 of 128 + 256 (8448 bytes, three pages) */
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, NULL, NULL, &rc), 0);
	KT_EQ(rc.cap.max_recv_wr, 16);
	KT_EQ(rc.cap.max_recv_sge, 1);
	expect_pinned(2 + 1, "RC QP");
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UC, pd, cq.handle, NULL, NULL, &uc), 0);
	expect_pinned(2, "UC QP");
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_UD, pd, cq.handle, NULL, NULL, &ud), 0);
	expect_pinned(3, "UD QP");
	KT_EQ(res_count("qp"), 3);

	/* 32 descriptors of 32 bytes: one page; its record in the page the
	 * QPs' receive records share */
	UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = pd, .max_wr = 16, .max_sge = 1);
	KT_EQ(uvio_create_srq(dev, &sa, NULL, &srq, NULL), 0);
	KT_EQ(srq.max_wr, 31);
	expect_pinned(1, "SRQ of 32 descriptors");
	/* on the SRQ: the send queue alone, no receive record */
	KT_EQ(make_qp(dev, IB_UVERBS_QPT_RC, pd, cq.handle, &srq.handle, NULL, &on_srq), 0);
	expect_pinned(1, "RC QP on the SRQ");

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
	{	/* an AH to the port's own first GID: no driver data on mlx4 */
		struct uvio_gid_entry g;
		UVIO_OPTS(uvio_ah_attr, aa, .pd_handle = pd);

		KT_EQ(uvio_query_gid_entry(dev, 1, 0, &g, NULL), 0);
		memcpy(aa.av.dgid, g.gid, 16);
		aa.av.is_global = 1;
		aa.av.hop_limit = 64;
		aa.av.port_num = 1;
		KT_EQ(uvio_create_ah(dev, &aa, NULL, &ah, NULL), 0);
	}

	refusals(dev, pd, cq.handle, srq.handle);
	mappings(dev);
	pinned = vmpin_pages();

	KT_EQ(uvio_destroy_ah(dev, ah, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, on_srq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, rc.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, uc.handle, NULL, NULL), 0);
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
	munmap(mem, 2 * PAGE);
	if (resized != MAP_FAILED)
		munmap(resized, 128 * cqe_size);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	return kt_exit();
}
