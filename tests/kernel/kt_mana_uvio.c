/*
 * The library's mana half against a mana kernel driver (in the suite, the
 * stand-in module of tests/standin/mana, which holds commands to
 * mana_ib's user-data contract, Linux 6.12): with no driver data from the
 * caller, context (the doorbell page mapped: seen in /proc/self/maps as a
 * mapping of the uverbs device), PD, MR, two CQs and a RAW_PACKET QP (the
 * buffers the kernel pins allocated by the half, freed when their objects
 * go); then, with the program's own driver data as libmana builds it, a
 * receive WQ, an indirection table of it and an RSS QP over it (the
 * library's half leaves RSS to the caller); everything destroyed and the
 * kernel's object table empty after. Then what mana_ib refuses, sent on
 * purpose with the caller's own driver data, refused and reported: each
 * refusal printed as "  refused: MESSAGE" for the guest script, which
 * checks that each names its command and errno. Last an RC QP on two RNIC
 * CQs, all with the program's own driver data (libmana 44 makes no RC QP:
 * there is no witness for it), and the half's refusal of an RC QP without.
 *
 * The requests are the witness's (kt_mana_witness: libmana through
 * libibverbs), so that the two traces can be compared field by field: CQs
 * of 64 entries; the raw QP 64 send WRs of one SGE on port 1; the WQ 64
 * WRs of one SGE; the RSS QP Toeplitz over IPv4 addresses with a 40-byte
 * key; MR 8 KiB.
 *
 *   kt_mana_uvio [DEVICE]    (default mana_0)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uvio.h>
#include "kt.h"
#include "../../lib/hw/mana_abi.h"

#define PAGE 4096u
#define RDMA_DRIVER_MANA_ID 20	/* RDMA_DRIVER_MANA: past Debian 12's headers */
#define QPT_RAW_PACKET 8	/* IB_UVERBS_QPT_RAW_PACKET */
#define HASH_SRC_IPV4 (1u << 0)	/* IB_UVERBS_RX_HASH_SRC_IPV4 */
#define HASH_DST_IPV4 (1u << 1)	/* IB_UVERBS_RX_HASH_DST_IPV4 */

static const char *name;

static int res_count(const char *type)
{
	return kt_rdma_res_count(type, name, (int)getpid());
}

/* The device's QPs, from the summary line: `rdma resource show qp`
 * answers EOPNOTSUPP on mana (its listing asks QUERY_QP, which mana_ib
 * has not). mana_ib gives RAW_PACKET QPs no number (0), and the kernel's
 * table, keyed by QP number, keeps only the first of them. */
static int qp_count(void)
{
	char out[4096], want[80];
	const char *l, *q;

	if (kt_run("rdma resource show", out, sizeof(out)) != 0)
		return -1;
	snprintf(want, sizeof(want), " %s: ", name);
	l = strstr(out, want);
	q = l ? strstr(l, " qp ") : NULL;
	return q ? atoi(q + 4) : -1;
}

static int make_qp(struct uvio_device *dev, uint32_t type, uint32_t pd, uint32_t cq,
		   uint32_t send_sge, const struct uvio_drv *drv, struct uvio_qp *qp)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = type, .pd_handle = pd, .send_cq_handle = cq,
		  .recv_cq_handle = cq, .cap = { .max_send_wr = 64, .max_send_sge = send_sge });

	memset(qp, 0, sizeof(*qp));
	qp->sz = sizeof(*qp);
	return uvio_create_qp(dev, &a, drv, qp, NULL);
}

/* The RSS request libmana sends: Toeplitz over the IPv4 addresses, its
 * key, port 1. */
static void rss_request(struct uvio_mana_create_qp_rss *r)
{
	static const uint8_t key[40] = { 0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2 };

	memset(r, 0, sizeof(*r));
	r->rx_hash_fields_mask = HASH_SRC_IPV4 | HASH_DST_IPV4;
	r->rx_hash_function = UVIO_MANA_RX_HASH_FUNC_TOEPLITZ;
	r->rx_hash_key_len = sizeof(key);
	memcpy(r->rx_hash_key, key, sizeof(key));
	r->port = 1;
}

/* What mana_ib refuses, sent with the caller's driver data; the library
 * passes it through and says what the kernel answered. */
static void refusals(struct uvio_device *dev, uint32_t pd, uint32_t table, void *buf)
{
	struct uvio_mana_create_cq creq = { .buf_addr = (uintptr_t)buf };
	UVIO_OPTS(uvio_drv, cdrv, .in = &creq, .in_len = 4);
	UVIO_OPTS(uvio_drv, none);
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 64);
	UVIO_OPTS(uvio_cq, c);
	int cqs = res_count("cq"), qps = qp_count();

	/* CQ: no driver data; a request cut before flags; more entries than
	 * the device's max_qp_wr. */
	KT_EQ(uvio_create_cq(dev, &attr, &none, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");
	KT_EQ(uvio_create_cq(dev, &attr, &cdrv, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");
	cdrv.in_len = sizeof(creq);
	attr.cqe = 8193;
	KT_EQ(uvio_create_cq(dev, &attr, &cdrv, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");

	/* Half's own refusal: more entries than libmana makes, before
	 * anything is sent, naming mana. */
	attr.cqe = 300;
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &c, NULL), -EINVAL);
	kt_refused(uvio_last_error(), "CQ.CREATE", "EINVAL");
	KT_CHECK(strstr(uvio_last_error(), "mana"), "mana named: %s", uvio_last_error());

	/* A CQ for the raw QPs below. */
	attr.cqe = 64;
	KT_EQ(uvio_create_cq(dev, &attr, NULL, &c, NULL), 0);
	{
		struct uvio_mana_create_qp q = { .sq_buf_addr = (uintptr_t)buf, .sq_buf_size = PAGE,
						 .port = 1 };
		struct uvio_mana_create_qp_resp r;
		UVIO_OPTS(uvio_drv, qdrv, .in = &q, .in_len = 8, .out = &r, .out_len = sizeof(r));
		struct uvio_qp qp;

		/* a request cut to 8 bytes */
		KT_EQ(make_qp(dev, QPT_RAW_PACKET, pd, c.handle, 1, &qdrv, &qp), -EINVAL);
		kt_refused(uvio_last_error(), "QP.CREATE", "EINVAL");
		/* port 2: mana's device here has one */
		qdrv.in_len = sizeof(q);
		q.port = 2;
		KT_EQ(make_qp(dev, QPT_RAW_PACKET, pd, c.handle, 1, &qdrv, &qp), -EINVAL);
		kt_refused(uvio_last_error(), "QP.CREATE", "EINVAL");
		/* 31 send SGEs: past MAX_TX_WQE_SGL_ENTRIES */
		q.port = 1;
		KT_EQ(make_qp(dev, QPT_RAW_PACKET, pd, c.handle, 31, &qdrv, &qp), -EINVAL);
		kt_refused(uvio_last_error(), "QP.CREATE", "EINVAL");
	}
	{	/* RSS with a hash function other than Toeplitz */
		struct uvio_mana_create_qp_rss r;
		uint8_t resp[UVIO_MANA_RSS_RESP_LEN];
		UVIO_OPTS(uvio_drv, rdrv, .in = &r, .in_len = sizeof(r), .out = resp,
			  .out_len = sizeof(resp));
		UVIO_OPTS(uvio_qp_init_attr, a, .type = QPT_RAW_PACKET, .pd_handle = pd,
			  .fields = UVIO_QP_INIT_IND_TABLE, .ind_table_handle = table);
		struct uvio_qp qp = { .sz = sizeof(qp) };

		rss_request(&r);
		r.rx_hash_function = 2;
		KT_EQ(uvio_create_qp(dev, &a, &rdrv, &qp, NULL), -EINVAL);
		kt_refused(uvio_last_error(), "QP.CREATE", "EINVAL");
		/* the half's own: RSS needs the caller's request */
		KT_EQ(uvio_create_qp(dev, &a, NULL, &qp, NULL), -EOPNOTSUPP);
		kt_refused(uvio_last_error(), "QP.CREATE", "EOPNOTSUPP");
	}
	{	/* a UD QP: mana's half makes RAW_PACKET only */
		struct uvio_qp qp;

		KT_EQ(make_qp(dev, IB_UVERBS_QPT_UD, pd, c.handle, 1, NULL, &qp), -EOPNOTSUPP);
		kt_refused(uvio_last_error(), "QP.CREATE", "EOPNOTSUPP");
		KT_CHECK(strstr(uvio_last_error(), "mana"), "mana named: %s", uvio_last_error());
	}
	{	/* a WQ request cut to 8 bytes */
		struct uvio_mana_create_wq w = { .wq_buf_addr = (uintptr_t)buf, .wq_buf_size = PAGE };
		UVIO_OPTS(uvio_drv, wdrv, .in = &w, .in_len = 8);
		UVIO_OPTS(uvio_wq_attr, wa, .pd_handle = pd, .cq_handle = c.handle, .max_wr = 64,
			  .max_sge = 1);
		UVIO_OPTS(uvio_wq, wq);

		KT_EQ(uvio_create_wq(dev, &wa, &wdrv, &wq, NULL), -EINVAL);
		kt_refused(uvio_last_error(), "WQ.CREATE", "EINVAL");
	}
	{	/* an MR with MW_BIND: mana takes local write, remote read and write */
		UVIO_OPTS(uvio_mr, mr);
		UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = buf, .length = PAGE,
			  .iova = (uintptr_t)buf,
			  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_MW_BIND);

		KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), -EINVAL);
		kt_refused(uvio_last_error(), "MR.REG", "EINVAL");
	}
	KT_EQ(uvio_destroy_cq(dev, c.handle, NULL, NULL), 0);
	KT_EQ(res_count("cq"), cqs);
	KT_EQ(qp_count(), qps);
}

/* An RC QP (mana_ib_create_rc_qp, Linux 6.10 on; libmana 44 makes none),
 * with the program's own driver data: two RNIC CQs (their queues made at
 * once), then four queue buffers (requester and responder, send and
 * receive) that the kernel pins; the answer names the four queues, and the
 * QP number is the responder's receive queue. */
static void rc_qp(struct uvio_device *dev, uint32_t pd)
{
	struct uvio_mana_create_cq creq[2];
	struct uvio_mana_create_cq_resp cresp[2];
	struct uvio_mana_create_rc_qp req;
	uint32_t ids[4];
	struct uvio_qp qp = { .sz = sizeof(qp) };
	struct uvio_cq cq[2] = { { .sz = sizeof(cq[0]) }, { .sz = sizeof(cq[1]) } };
	void *mem;
	int i, qps = qp_count(), cqs = res_count("cq");

	mem = mmap(NULL, 6 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KT_CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;
	for (i = 0; i < 2; i++) {
		UVIO_OPTS(uvio_drv, d, .in = &creq[i], .in_len = sizeof(creq[i]), .out = &cresp[i],
			  .out_len = sizeof(cresp[i]));
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 64);

		memset(&creq[i], 0, sizeof(creq[i]));
		creq[i].buf_addr = (uintptr_t)mem + (size_t)i * PAGE;
		creq[i].flags = UVIO_MANA_CREATE_RNIC_CQ;
		KT_EQ(uvio_create_cq(dev, &a, &d, &cq[i], NULL), 0);
		KT_CHECK(cresp[i].cqid != 0xffffffffu, "RNIC CQ %d: no queue id", i);
	}
	memset(&req, 0, sizeof(req));
	for (i = 0; i < 4; i++) {
		req.queue_buf[i] = (uintptr_t)mem + (size_t)(2 + i) * PAGE;
		req.queue_size[i] = PAGE;
	}
	{
		UVIO_OPTS(uvio_drv, d, .in = &req, .in_len = sizeof(req), .out = ids,
			  .out_len = sizeof(ids));
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .send_cq_handle = cq[0].handle, .recv_cq_handle = cq[1].handle,
			  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
				   .max_recv_sge = 1 });

		memset(ids, 0xff, sizeof(ids));
		KT_EQ(uvio_create_qp(dev, &a, &d, &qp, NULL), 0);
	}
	KT_EQ(qp_count(), qps + 1);
	KT_CHECK(ids[0] != ids[1] && ids[1] != ids[2] && ids[2] != ids[3] && ids[0] != ids[3],
		 "RC queue ids %u %u %u %u are not four", ids[0], ids[1], ids[2], ids[3]);
	KT_EQ(qp.qp_num, ids[3]);
	printf("  RC QP %u (QP number %u): queues %u %u %u %u on RNIC CQs %u, %u\n", qp.handle,
	       qp.qp_num, ids[0], ids[1], ids[2], ids[3], cresp[0].cqid, cresp[1].cqid);
	/* Without driver data the half refuses an RC QP, naming what to pass. */
	{
		struct uvio_qp no = { .sz = sizeof(no) };
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .send_cq_handle = cq[0].handle, .recv_cq_handle = cq[1].handle,
			  .cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
				   .max_recv_sge = 1 });

		KT_EQ(uvio_create_qp(dev, &a, NULL, &no, NULL), -EOPNOTSUPP);
		KT_CHECK(strstr(uvio_last_error(), "RC") != NULL, "the refusal: %s",
			 uvio_last_error());
	}
	KT_EQ(uvio_destroy_qp(dev, qp.handle, NULL, NULL), 0);
	for (i = 0; i < 2; i++)
		KT_EQ(uvio_destroy_cq(dev, cq[i].handle, NULL, NULL), 0);
	KT_EQ(qp_count(), qps);
	KT_EQ(res_count("cq"), cqs);
	munmap(mem, 6 * PAGE);
}

int main(int argc, char **argv)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_cq, rcq);
	UVIO_OPTS(uvio_mr, mr);
	UVIO_OPTS(uvio_wq, wq);
	UVIO_OPTS(uvio_rwq_ind_table, table);
	struct uvio_qp raw, rss = { .sz = sizeof(rss) };
	uint32_t pd = 0;
	enum uvio_path p;
	void *mem, *wqbuf;
	int err, maps0;

	name = argc > 1 ? argv[1] : "mana_0";
	err = uvio_device_open(name, &dev);
	KT_EQ(err, 0);
	if (err)
		return kt_exit();
	KT_EQ(uvio_device_driver_id(dev), RDMA_DRIVER_MANA_ID);

	maps0 = kt_uverbs_maps();
	KT_EQ(uvio_get_context(dev, NULL, &ctx, &p), 0);
	KT_EQ(kt_uverbs_maps() - maps0, 1);	/* the doorbell page */
	printf("%s: context via %s, the doorbell page mapped\n", name, uvio_path_name(p));

	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	mem = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mra, .pd_handle = pd, .addr = mem, .length = 2 * PAGE,
		  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(dev, &mra, NULL, &mr, NULL), 0);

	UVIO_OPTS(uvio_cq_attr, cqa, .cqe = 64);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &cq, NULL), 0);
	KT_EQ(uvio_create_cq(dev, &cqa, NULL, &rcq, NULL), 0);
	KT_EQ(cq.cqe, 64);
	printf("  CQs %u and %u of %u entries\n", cq.handle, rcq.handle, cq.cqe);

	KT_EQ(make_qp(dev, QPT_RAW_PACKET, pd, cq.handle, 1, NULL, &raw), 0);
	KT_EQ(qp_count(), 1);
	printf("  RAW_PACKET QP %u\n", raw.handle);

	/* RSS, with the program's own driver data, as libmana builds it */
	wqbuf = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	{
		struct uvio_mana_create_wq w = { .wq_buf_addr = (uintptr_t)wqbuf, .wq_buf_size = PAGE };
		UVIO_OPTS(uvio_drv, wdrv, .in = &w, .in_len = sizeof(w));
		UVIO_OPTS(uvio_wq_attr, wa, .pd_handle = pd, .cq_handle = rcq.handle, .max_wr = 64,
			  .max_sge = 1);

		KT_EQ(uvio_create_wq(dev, &wa, &wdrv, &wq, NULL), 0);
		KT_EQ(uvio_create_rwq_ind_table(dev, 0, &wq.handle, &table, NULL), 0);
	}
	{
		struct uvio_mana_create_qp_rss r;
		static uint8_t resp[UVIO_MANA_RSS_RESP_LEN];
		UVIO_OPTS(uvio_drv, rdrv, .in = &r, .in_len = sizeof(r), .out = resp,
			  .out_len = sizeof(resp));
		UVIO_OPTS(uvio_qp_init_attr, a, .type = QPT_RAW_PACKET, .pd_handle = pd,
			  .fields = UVIO_QP_INIT_IND_TABLE, .ind_table_handle = table.handle);
		uint64_t entries;
		uint32_t cqid, wqid;

		rss_request(&r);
		KT_EQ(uvio_create_qp(dev, &a, &rdrv, &rss, NULL), 0);
		memcpy(&entries, resp, 8);
		memcpy(&cqid, resp + 8, 4);
		memcpy(&wqid, resp + 12, 4);
		KT_CHECK(entries == 1 && cqid && wqid, "RSS answer: %llu entries, cq %u wq %u",
			 (unsigned long long)entries, cqid, wqid);
		printf("  WQ %u, indirection table %u, RSS QP %u: WQ id %u, CQ id %u\n", wq.handle,
		       table.handle, rss.handle, wqid, cqid);
	}

	refusals(dev, pd, table.handle, wqbuf);
	rc_qp(dev, pd);

	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, rss.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_rwq_ind_table(dev, table.handle, NULL), 0);
	KT_EQ(uvio_destroy_wq(dev, wq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_qp(dev, raw.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, rcq.handle, NULL, NULL), 0);
	KT_EQ(uvio_destroy_cq(dev, cq.handle, NULL, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	KT_EQ(qp_count(), 0);
	KT_EQ(res_count("cq"), 0);
	KT_EQ(res_count("pd"), 0);
	KT_EQ(res_count("mr"), 0);
	munmap(mem, 2 * PAGE);
	munmap(wqbuf, PAGE);
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
	KT_EQ(kt_uverbs_maps(), maps0);
	return kt_exit();
}
