/*
 * Debian's libmana, unmodified, through libibverbs and manadv, on the mana
 * stand-in (tests/standin/mana): the witness that the stand-in answers what
 * libmana sends. Every step is checked; the first failure ends the program
 * with a message naming the step and exit status 1.
 *
 *   kt_mana_witness [DEVICE]       (default mana_0)
 *
 * Opens the device (libmana maps the context's doorbell page), gives
 * libmana the buffer allocators it requires (manadv_set_context_attr),
 * queries the device and the port, and makes a PD, a parent domain on it
 * holding the port number (libmana's way to name the port of a raw QP),
 * two CQs of 64 entries (their buffers pinned), a RAW_PACKET QP of 64
 * send WRs of one SGE on the parent domain (its send queue pinned; the
 * answer's ids read back through manadv_init_obj), a receive WQ of 64 WRs
 * on the second CQ, an indirection table of that one WQ, an RSS
 * RAW_PACKET QP over it (Toeplitz, a 40-byte key, IPv4 addresses hashed),
 * and an MR of 8 KiB. The pages the kernel pinned are counted from VmPin
 * at each step. Everything is destroyed and the device closed.
 *
 * With KT_MANA_SNAPSHOT set, the shell command it holds runs while every
 * object exists (the guest script lists the kernel's objects with it).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/manadv.h>
#include <infiniband/verbs.h>

#define WITNESS_DRIVER "mana"
#include "witness.h"

enum { PORT = 1, BUF = 8192, ENTRIES = 64, WR = 64 };

static int allocs;

/* libmana's buffers: whole zeroed pages (mana_ib pins them at offset 0). */
static void *buf_alloc(size_t size, void *data)
{
	void *p = NULL;

	(void)data;
	if (posix_memalign(&p, (size_t)page_size, size))
		return NULL;
	memset(p, 0, size);
	allocs++;
	return p;
}

static void buf_free(void *p, void *data)
{
	(void)data;
	if (p)		/* libmana frees an RSS QP's send buffer, which it has none of */
		allocs--;
	free(p);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "mana_0";
	struct ibv_device **list, *dev = NULL;
	struct manadv_ctx_allocators al = { .alloc = buf_alloc, .free = buf_free };
	struct ibv_device_attr_ex ex;
	struct ibv_port_attr port;
	int n;

	page_size = sysconf(_SC_PAGESIZE);
	step = "device";
	list = check_ptr(ibv_get_device_list(&n), "ibv_get_device_list");
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev)
		fail("no device %s among %d", name, n);
	struct ibv_context *ctx = check_ptr(ibv_open_device(dev), "ibv_open_device");
	check_rc(manadv_set_context_attr(ctx, MANADV_CTX_ATTR_BUF_ALLOCATORS, &al),
		 "manadv_set_context_attr");
	ok("%s opened through libmana, the doorbell page mapped, buffer allocators given", name);

	step = "query";
	check_rc(ibv_query_device_ex(ctx, NULL, &ex), "ibv_query_device_ex");
	check_rc(ibv_query_port(ctx, PORT, &port), "ibv_query_port");
	if (port.link_layer != IBV_LINK_LAYER_ETHERNET || port.state != IBV_PORT_ACTIVE ||
	    port.gid_tbl_len != 16 || ex.orig_attr.max_qp_wr != 8192)
		fail("port: link layer %u state %d gids %d; max_qp_wr %d", port.link_layer,
		     port.state, port.gid_tbl_len, ex.orig_attr.max_qp_wr);
	ok("max_qp_wr %d, max_cqe %d, %d send SGEs; port active, Ethernet, 16 GIDs",
	   ex.orig_attr.max_qp_wr, ex.orig_attr.max_cqe, ex.orig_attr.max_sge);

	step = "pd";
	pinned_pages = vmpin_pages();
	struct ibv_pd *pd = check_ptr(ibv_alloc_pd(ctx), "ibv_alloc_pd");
	struct ibv_parent_domain_init_attr pda = {
		.pd = pd, .comp_mask = IBV_PARENT_DOMAIN_INIT_ATTR_PD_CONTEXT,
		.pd_context = (void *)(uintptr_t)PORT,
	};
	struct ibv_pd *ppd = check_ptr(ibv_alloc_parent_domain(ctx, &pda),
				       "ibv_alloc_parent_domain");
	ok("a PD, and a parent domain on it for port %d", PORT);

	step = "cq";
	struct ibv_cq *cq = check_ptr(ibv_create_cq(ctx, ENTRIES, NULL, NULL, 0), "ibv_create_cq");
	struct ibv_cq *rcq = check_ptr(ibv_create_cq(ctx, ENTRIES, NULL, NULL, 0),
				       "ibv_create_cq for the WQ");
	expect_pinned(2 * pages_of(NULL, ENTRIES * 64), "two CQs");
	ok("two CQs of %d entries, each buffer (64-byte entries) pinned", ENTRIES);

	step = "qp";
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RAW_PACKET,
		.cap = { .max_send_wr = WR, .max_send_sge = 1 },
	};
	struct ibv_qp *qp = check_ptr(ibv_create_qp(ppd, &qa), "ibv_create_qp RAW_PACKET");
	expect_pinned(1, "the raw QP's send queue");	/* 64 x 32-byte WQEs: a page */
	struct manadv_qp mqp;
	struct manadv_cq mcq;
	struct manadv_obj obj = { .qp = { qp, &mqp }, .cq = { cq, &mcq } };
	check_rc(manadv_init_obj(&obj, MANADV_OBJ_QP | MANADV_OBJ_CQ), "manadv_init_obj");
	if (!mqp.sq_id || !mcq.cq_id || mqp.tx_vp_offset != 0x10 || mqp.sq_size != 4096 ||
	    mqp.sq_count != WR)
		fail("the raw QP: sq id %u size %u count %u, tx_vp_offset %#x, CQ id %u", mqp.sq_id,
		     mqp.sq_size, mqp.sq_count, mqp.tx_vp_offset, mcq.cq_id);
	ok("a RAW_PACKET QP: send queue %u (%u bytes), its CQ %u, tx_vp_offset %#x", mqp.sq_id,
	   mqp.sq_size, mcq.cq_id, mqp.tx_vp_offset);

	step = "rss";
	struct ibv_wq_init_attr wa = {
		.wq_type = IBV_WQT_RQ, .max_wr = WR, .max_sge = 1, .pd = pd, .cq = rcq,
	};
	struct ibv_wq *wq = check_ptr(ibv_create_wq(ctx, &wa), "ibv_create_wq");
	expect_pinned(1, "the WQ's buffer");
	struct ibv_rwq_ind_table_init_attr ia = { .log_ind_tbl_size = 0, .ind_tbl = &wq };
	struct ibv_rwq_ind_table *tbl = check_ptr(ibv_create_rwq_ind_table(ctx, &ia),
						  "ibv_create_rwq_ind_table");
	static uint8_t key[40] = { 0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2 };
	struct ibv_qp_init_attr_ex qx = {
		.qp_type = IBV_QPT_RAW_PACKET,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_IND_TABLE |
			     IBV_QP_INIT_ATTR_RX_HASH,
		.pd = ppd, .rwq_ind_tbl = tbl,
		.rx_hash_conf = {
			.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ,
			.rx_hash_key_len = sizeof(key), .rx_hash_key = key,
			.rx_hash_fields_mask = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4,
		},
	};
	struct ibv_qp *rss = check_ptr(ibv_create_qp_ex(ctx, &qx), "ibv_create_qp_ex RSS");
	struct manadv_rwq mwq;
	struct manadv_obj wobj = { .rwq = { wq, &mwq } };
	check_rc(manadv_init_obj(&wobj, MANADV_OBJ_RWQ), "manadv_init_obj RWQ");
	if (!mwq.wq_id)
		fail("the WQ has no id after the RSS QP");
	ok("a WQ of %d WRs, an indirection table of it, an RSS QP over it: WQ id %u", WR, mwq.wq_id);

	step = "mr";
	void *buf = check_ptr(aligned_alloc(4096, BUF), "aligned_alloc");
	memset(buf, 0, BUF);
	struct ibv_mr *mr = check_ptr(ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE), "ibv_reg_mr");
	expect_pinned(pages_of(buf, BUF), "the MR");
	ok("lkey %#x", mr->lkey);

	if (getenv("KT_MANA_SNAPSHOT")) {
		step = "snapshot";
		if (system(getenv("KT_MANA_SNAPSHOT")) != 0)
			fail("the snapshot command failed");
	}

	step = "destroy";
	check_rc(ibv_dereg_mr(mr), "ibv_dereg_mr");
	check_rc(ibv_destroy_qp(rss), "ibv_destroy_qp RSS");
	check_rc(ibv_destroy_rwq_ind_table(tbl), "ibv_destroy_rwq_ind_table");
	check_rc(ibv_destroy_wq(wq), "ibv_destroy_wq");
	check_rc(ibv_destroy_qp(qp), "ibv_destroy_qp RAW_PACKET");
	check_rc(ibv_destroy_cq(rcq), "ibv_destroy_cq for the WQ");
	check_rc(ibv_destroy_cq(cq), "ibv_destroy_cq");
	check_rc(ibv_dealloc_pd(ppd), "ibv_dealloc_pd parent domain");
	check_rc(ibv_dealloc_pd(pd), "ibv_dealloc_pd");
	if (vmpin_pages() != 0)
		fail("%ld pages still pinned", vmpin_pages());
	if (allocs)
		fail("%d of libmana's buffers not freed", allocs);
	check_rc(ibv_close_device(ctx), "ibv_close_device");
	ibv_free_device_list(list);
	free(buf);
	ok("everything destroyed, nothing pinned, the device closed");
	printf("kt_mana_witness: PASS\n");
	return 0;
}
