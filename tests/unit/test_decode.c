/* The decoder: words for well-formed commands, survival for anything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>
#include <rdma/mthca-abi.h>
#include <rdma/cxgb4-abi.h>
#include <rdma/mlx4-abi.h>
#include <rdma/ocrdma-abi.h>
#include <rdma/qedr-abi.h>
#include <rdma/vmw_pvrdma-abi.h>
#include <rdma/bnxt_re-abi.h>
#include <rdma/efa-abi.h>
#include <rdma/hns-abi.h>
#if __has_include(<rdma/irdma-abi.h>)
#include <rdma/irdma-abi.h>
#define HAVE_IRDMA_ABI_H 1
#endif
#if __has_include(<rdma/erdma-abi.h>)
#include <rdma/erdma-abi.h>
#define HAVE_ERDMA_ABI_H 1
#endif

static char text[16384];

static void assert_has(const char *needle)
{
	if (!strstr(text, needle))
		fail_msg("missing \"%s\" in:\n%s", needle, text);
}

static void cq_create_in_words(void **state)
{
	uint32_t resp;
	uint8_t uhw[16] = { 0 };
	(void)state;

	UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	uvio_cmd_set_driver_id(&cmd, 14);
	uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, 100);
	uvio_put_fd(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, 7);
	uvio_attr_optional(uvio_put_flags(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, 0));
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &resp, 4);
	uvio_put_uhw_out(&cmd, uhw, sizeof(uhw));
	uvio_put_enum(&cmd, 0x1007, 2, "ab", 2);

	int n = uvio_cmd_format(&cmd, text, sizeof(text));
	assert_int_equal(n, (int)strlen(text));
	assert_has("CQ.CREATE (object 3, method 0) layout current driver_id 14(rxe), 7 attrs, length 136");
	assert_has("[0] 0x0000 HANDLE           idr-new len 0 mandatory new CQ handle\n");
	assert_has("[1] 0x0001 CQE              ptr-in  len 4 mandatory = 100\n");
	assert_has("[2] 0x0003 COMP_CHANNEL     fd      len 0 mandatory COMP_CHANNEL fd 7\n");
	assert_has("[3] 0x0005 FLAGS            ptr-in  len 8 optional = 0x0\n");
	assert_has("[4] 0x0006 RESP_CQE         ptr-out len 4 mandatory ptr 0x");
	assert_has("[5] 0x1001 UHW_OUT          ptr-out len 16 mandatory ptr 0x");
	assert_has("[6] 0x1007 driver           enum-in len 2 mandatory elem 2 inline 25185 (0x6261)");
	/* the table knows what CQ.CREATE needs */
	assert_has("missing mandatory: USER_HANDLE, COMP_VECTOR");

	/* the raw decoder knows kinds from its table, for the 2017 layout too */
	uvio_cmd_finish(&cmd);
	n = uvio_decode(cmd.hdr, 24 + 7 * 16, UVIO_LAYOUT_CURRENT, text, sizeof(text));
	assert_true(n > 0);
	assert_has("RESP_CQE         ptr-out");
	assert_has("[6] 0x1007 driver           ?       len 2");
}

static void layout_2017_and_oddities(void **state)
{
	uint64_t buf[16] = { 0 };
	uint8_t *b = (uint8_t *)buf;
	(void)state;

	/* 2017 header: length 32, object 1 (PD), method 0, 1 attr, reserved 0 */
	b[0] = 32; b[2] = 1; b[6] = 1;
	b[16] = 0; b[20] = 1;		/* attr 0, len 0, flags mandatory */
	b[24] = 9;			/* handle 9 */
	assert_true(uvio_decode(buf, 32, UVIO_LAYOUT_2017, text, sizeof(text)) > 0);
	assert_has("PD.DESTROY (object 1, method 0) layout 2017, 1 attrs, length 32");
	assert_has("HANDLE           idr     len 0 mandatory PD handle 9");

	/* the same bytes read as today's layout: wrong length, truncated */
	assert_true(uvio_decode(buf, 32, UVIO_LAYOUT_CURRENT, text, sizeof(text)) > 0);
	assert_has("(!= 40 for 1 attrs)");
	assert_has("(truncated: 0 attrs present)");

	/* reserved fields, unknown flags, unknown object */
	memset(buf, 0, sizeof(buf));
	b[0] = 40; b[2] = 0xff; b[3] = 0x03; b[6] = 1; b[8] = 1; b[20] = 2;
	b[24] = 2; b[28] = 0xfc; b[30] = 1;
	assert_true(uvio_decode(buf, 40, UVIO_LAYOUT_CURRENT, text, sizeof(text)) > 0);
	assert_has("object 0x3ff.method 0x0");
	assert_has("reserved1=0x1 reserved2=0x2(!)");
	assert_has("unknown-flags=0xfc");
	assert_has("attr_data.reserved=0x1(!)");
}

static void survives_anything(void **state)
{
	uint8_t buf[512] = { 0 };
	char small[16];
	(void)state;

	assert_int_equal(uvio_decode(buf, 3, UVIO_LAYOUT_CURRENT, text, sizeof(text)), -EINVAL);
	assert_has("truncated: 3 bytes, a current header needs 24");
	assert_int_equal(uvio_decode(NULL, 0, UVIO_LAYOUT_2017, text, sizeof(text)), -EINVAL);
	assert_int_equal(uvio_decode(NULL, 5, UVIO_LAYOUT_2017, text, sizeof(text)), -EFAULT);

	/* snprintf semantics: truncated output, full length returned */
	memset(buf, 0, sizeof(buf));
	buf[0] = 24 + 16; buf[6] = 1;
	int full = uvio_decode(buf, 40, UVIO_LAYOUT_CURRENT, text, sizeof(text));
	int cut = uvio_decode(buf, 40, UVIO_LAYOUT_CURRENT, small, sizeof(small));
	assert_int_equal(full, cut);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(uvio_decode(buf, 40, UVIO_LAYOUT_CURRENT, NULL, 0), full);

	/* garbage: a header claiming 65535 attrs over every buffer size */
	srand(1);
	for (int round = 0; round < 2000; round++) {
		size_t len = (size_t)rand() % sizeof(buf);

		for (size_t i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)rand();
		if (round & 1) {
			buf[6] = 0xff;
			buf[7] = 0xff;
		}
		int r = uvio_decode(buf, len, (enum uvio_layout)(round & 1), text, sizeof(text));
		assert_true(r == -EINVAL || r >= 0);
		assert_true(strlen(text) < sizeof(text));
	}
}

/* A fetch over a few known regions, EFAULT elsewhere, as a tracee's memory. */
struct region {
	const void *at;
	size_t len;
};
static struct region regions[4];
static unsigned int fetches;

static int fetch(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	fetches++;
	for (unsigned int i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		uintptr_t lo = (uintptr_t)regions[i].at;

		if (regions[i].at && addr >= lo && addr + len <= lo + regions[i].len) {
			memcpy(buf, (const void *)(uintptr_t)addr, len);
			return 0;
		}
	}
	return -EFAULT;
}

static void write_commands(void **state)
{
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_create_cq c;
		uint64_t drv;
	} w;
	struct {
		struct ib_uverbs_create_cq_resp r;
		uint8_t drv[16];
	} resp;
	(void)state;

	memset(&w, 0, sizeof(w));
	memset(&resp, 0, sizeof(resp));
	w.h.command = IB_USER_VERBS_CMD_CREATE_CQ;
	w.h.in_words = sizeof(w) / 4;
	w.h.out_words = sizeof(resp) / 4;
	w.c.response = 0x1000;
	w.c.user_handle = 0xabc;
	w.c.cqe = 16;
	w.c.comp_channel = -1;
	w.c.reserved = 5;
	w.drv = 0x0807060504030201ull;
	resp.r.cq_handle = 3;
	resp.r.cqe = 31;
	resp.drv[0] = 0xee;
	int n = uvio_decode_write(&w, sizeof(w), &resp, sizeof(resp), text, sizeof(text));
	assert_int_equal(n, (int)strlen(text));
	assert_has("write CQ.CREATE_CQ (command 18) in_words 12 out_words 6, 48 bytes\n");
	assert_has("\n  response = 0x1000\n  user_handle = 0xabc\n  cqe = 16\n");
	assert_has("\n  comp_channel = -1\n  reserved = 05:00:00:00(!)\n");
	assert_has("\n  driver data in = 01:02:03:04:05:06:07:08");
	assert_has("\n  response (24 bytes):\n    cq_handle = 3\n    cqe = 31\n"
		   "    driver data out = ee:00:");

	/* the bytes disagree with in_words; no response yet */
	w.h.in_words = 3;
	assert_true(uvio_decode_write(&w, sizeof(w), NULL, 0, text, sizeof(text)) > 0);
	assert_has("(in_words say 12 bytes)");
	assert_null(strstr(text, "response ("));

	/* an extended command: headers, core in 8-byte words, provider data */
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_ex_cmd_hdr ex;
		struct ib_uverbs_ex_create_cq c;
		uint64_t drv;
	} x;
	memset(&x, 0, sizeof(x));
	x.h.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ;
	x.h.in_words = sizeof(x.c) / 8;
	x.h.out_words = sizeof(struct ib_uverbs_ex_create_cq_resp) / 8;
	x.ex.response = 0x2000;
	x.ex.provider_in_words = 1;
	x.c.cqe = 64;
	x.c.flags = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION | 0x100;
	x.drv = 0xff;
	assert_true(uvio_decode_write(&x, sizeof(x), NULL, 0, text, sizeof(text)) > 0);
	assert_has("write CQ.CREATE_CQ (command 18 extended) in_words 4 out_words 2, 64 bytes\n"
		   "  response 0x2000 provider_in_words 1 provider_out_words 0\n");
	assert_has("\n  flags = 0x101(TIMESTAMP_COMPLETION|0x100)\n");
	assert_has("\n  driver data in = ff:00:00:00:00:00:00:00");
	/* its response: the core struct, then the provider's words */
	struct {
		struct ib_uverbs_ex_create_cq_resp r;
		uint64_t drv;
	} xr = { { { 6, 63 }, 0, sizeof(struct ib_uverbs_ex_create_cq_resp) }, 0x77 };
	assert_true(uvio_decode_write(&x, sizeof(x), &xr, sizeof(xr), text, sizeof(text)) > 0);
	assert_has("\n  response (24 bytes):\n    base = {cq_handle = 6, cqe = 63}\n"
		   "    comp_mask = 0x0\n    response_length = 16\n    driver data out = 77:00:");
	/* bytes past a struct the kernel does not extend, when not zero */
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_destroy_cq c;
		uint32_t more[2];
	} d = { { IB_USER_VERBS_CMD_DESTROY_CQ, 10, 2 }, { 0, 1, 0 }, { 0, 9 } };
	assert_true(uvio_decode_write(&d, sizeof(d), NULL, 0, text, sizeof(text)) > 0);
	assert_has("\n  cq_handle = 1\n  past the struct = 00:00:00:00:09:00:00:00");
	d.more[1] = 0;
	assert_true(uvio_decode_write(&d, sizeof(d), NULL, 0, text, sizeof(text)) > 0);
	assert_null(strstr(text, "past the struct"));

	/* a number no kernel knows, a truncated header, a short core */
	uint32_t odd[2] = { 99, 2 };
	assert_true(uvio_decode_write(odd, sizeof(odd), NULL, 0, text, sizeof(text)) > 0);
	assert_has("write unknown (command 99) in_words 2 out_words 0, 8 bytes");
	assert_int_equal(uvio_decode_write(odd, 7, NULL, 0, text, sizeof(text)), -EINVAL);
	assert_has("truncated: 7 bytes, a write() command needs 8");
	odd[0] = IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_FLOW;
	assert_true(uvio_decode_write(odd, sizeof(odd), NULL, 0, text, sizeof(text)) > 0);
	assert_has("write FLOW.CREATE_FLOW (command 50 extended)");
	assert_has("truncated: no room for the extended header");
	w.h.in_words = 4;
	assert_true(uvio_decode_write(&w, 16, NULL, 0, text, sizeof(text)) > 0);
	assert_has("core 8 bytes, 32 expected: response = 0x1000");
	assert_null(strstr(text, "user_handle"));
	odd[0] = IB_USER_VERBS_CMD_BIND_MW;
	assert_true(uvio_decode_write(odd, sizeof(odd), NULL, 0, text, sizeof(text)) > 0);
	assert_has("write MW.BIND_MW (command 15)");
	assert_has("(no kernel handles this command)");
	assert_int_equal(uvio_decode_write(NULL, 4, NULL, 0, text, sizeof(text)), -EFAULT);
	assert_int_equal(uvio_decode_write(&w, 8, NULL, 4, text, sizeof(text)), -EFAULT);
}

static void write_arrays(void **state)
{
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_post_send c;
		struct ib_uverbs_send_wr wr[2];
	} ps;
	struct {
		struct ib_uverbs_poll_cq_resp r;
		struct ib_uverbs_wc wc[2];
	} pr;
	(void)state;

	memset(&ps, 0, sizeof(ps));
	ps.h.command = IB_USER_VERBS_CMD_POST_SEND;
	ps.h.in_words = sizeof(ps) / 4;
	ps.c.qp_handle = 4;
	ps.c.wr_count = 2;
	ps.c.wqe_size = sizeof(struct ib_uverbs_send_wr);
	ps.wr[0].wr_id = 7;
	ps.wr[0].opcode = IB_UVERBS_WR_SEND;
	ps.wr[0].send_flags = 2;
	ps.wr[1].opcode = 200;
	assert_true(uvio_decode_write(&ps, sizeof(ps), NULL, 0, text, sizeof(text)) > 0);
	assert_has("qp_handle = 4\n  wr_count = 2\n");
	assert_has("send_wr[] = {wr_id = 0x7, num_sge = 0, opcode = SEND(2), "
		   "send_flags = 0x2(SIGNALED), ");
	assert_has("opcode = 200(unknown)");

	memset(&pr, 0, sizeof(pr));
	pr.r.count = 2;
	pr.wc[0].status = 5;
	pr.wc[0].opcode = 128;
	pr.wc[0].wc_flags = 3;
	uint32_t poll[6] = { IB_USER_VERBS_CMD_POLL_CQ, 6 };
	assert_true(uvio_decode_write(poll, 24, &pr, sizeof(pr), text, sizeof(text)) > 0);
	assert_has("count = 2");
	assert_has("wc[] = {wr_id = 0x0, status = WR_FLUSH_ERR(5), opcode = RECV(128), ");
	assert_has("wc_flags = 0x3(GRH|WITH_IMM)");
}

/* DEVICE/INVOKE_WRITE with the write() command inside, before and after. */
static void invoke_write(void **state)
{
	struct ib_uverbs_modify_qp mq;
	struct ib_uverbs_query_port qp_in;
	struct ib_uverbs_query_port_resp qp_out;
	uint64_t buf[16];
	struct ib_uverbs_ioctl_hdr *h = (void *)buf;
	struct ib_uverbs_attr *a = (void *)(h + 1);
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch };
	(void)state;

	memset(buf, 0, sizeof(buf));
	memset(&mq, 0, sizeof(mq));
	mq.qp_handle = 9;
	mq.attr_mask = 0x1 | 0x8 | 0x100;
	mq.qp_state = 2;
	mq.path_mtu = 5;
	mq.qp_access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ;
	mq.dest.dgid[10] = 0xff;
	mq.dest.dgid[11] = 0xff;
	mq.dest.dgid[12] = 10;
	mq.dest.dgid[15] = 1;
	h->num_attrs = 2;
	h->length = 24 + 2 * 16;
	h->driver_id = 14;
	a[0].attr_id = UVERBS_ATTR_WRITE_CMD;
	a[0].len = 8;
	a[0].flags = UVERBS_ATTR_F_MANDATORY;
	a[0].data = IB_USER_VERBS_CMD_MODIFY_QP;
	a[1].attr_id = UVERBS_ATTR_CORE_IN;
	a[1].len = sizeof(mq);
	a[1].data = (uintptr_t)&mq;
	regions[0] = (struct region){ &mq, sizeof(mq) };
	assert_true(uvio_decode_cmd(buf, 56, &o, text, sizeof(text)) > 0);
	assert_has("DEVICE.INVOKE_WRITE (object 0, method 0)");
	assert_has("WRITE_CMD        ptr-in  len 8 mandatory = MODIFY_QP(26)");
	assert_has("\n  write command QP.MODIFY_QP:\n    dest = {dgid = ::ffff:10.0.0.1, ");
	assert_has("\n    qp_handle = 9\n    attr_mask = 0x109(STATE|ACCESS_FLAGS|PATH_MTU)\n");
	assert_has("qp_access_flags = 0x5(LOCAL_WRITE|REMOTE_READ)");
	assert_has("qp_state = RTR(2)");
	assert_has("path_mtu = MTU_4096(5)");

	/* without a fetch, or when it fails, the pointer and no more */
	assert_true(uvio_decode(buf, 56, UVIO_LAYOUT_CURRENT, text, sizeof(text)) > 0);
	assert_has("write command QP.MODIFY_QP:\n    core in: 112 bytes at 0x");
	regions[0].at = NULL;
	assert_true(uvio_decode_cmd(buf, 56, &o, text, sizeof(text)) > 0);
	assert_has("core in: 112 bytes at 0x");

	/* QUERY_PORT after the kernel answered: the response, typed */
	memset(&qp_in, 0, sizeof(qp_in));
	memset(&qp_out, 0, sizeof(qp_out));
	qp_in.port_num = 1;
	qp_out.state = 4;
	qp_out.active_mtu = 3;
	qp_out.link_layer = 2;
	qp_out.port_cap_flags = IB_UVERBS_PCF_CM_SUP | IB_UVERBS_PCF_IP_BASED_GIDS;
	h->num_attrs = 3;
	h->length = 24 + 3 * 16;
	a[0].data = IB_USER_VERBS_CMD_QUERY_PORT;
	a[1].len = sizeof(qp_in);
	a[1].data = (uintptr_t)&qp_in;
	a[2].attr_id = UVERBS_ATTR_CORE_OUT;
	a[2].len = sizeof(qp_out);
	a[2].flags = UVERBS_ATTR_F_VALID_OUTPUT;
	a[2].data = (uintptr_t)&qp_out;
	regions[0] = (struct region){ &qp_in, sizeof(qp_in) };
	regions[1] = (struct region){ &qp_out, sizeof(qp_out) };
	o.flags = UVIO_DECODE_AFTER;
	assert_true(uvio_decode_cmd(buf, 72, &o, text, sizeof(text)) > 0);
	assert_has("write command DEVICE.QUERY_PORT:\n    response = 0x0\n    port_num = 1\n");
	assert_has("\n    response (40 bytes):\n      port_cap_flags = 0x4010000(CM_SUP|IP_BASED_GIDS)\n");
	assert_has("      state = ACTIVE(4)\n");
	assert_has("      active_mtu = MTU_1024(3)\n");
	assert_has("      link_layer = ETHERNET(2)\n");
	assert_has("CORE_OUT         ptr-out len 40 optional,valid-output ptr 0x");

	/* A response of 4 bytes is still behind its pointer (only inputs of
	 * 8 bytes or less are inline): ALLOC_PD's handle, not its address. */
	{
		struct ib_uverbs_alloc_pd_resp pd_out = { .pd_handle = 7 };

		a[0].data = IB_USER_VERBS_CMD_ALLOC_PD;
		a[1].len = 8;		/* the core: its response address, inline */
		a[1].data = 0;
		a[2].len = sizeof(pd_out);
		a[2].data = (uintptr_t)&pd_out;
		regions[1] = (struct region){ &pd_out, sizeof(pd_out) };
		assert_true(uvio_decode_cmd(buf, 72, &o, text, sizeof(text)) > 0);
		assert_has("write command PD.ALLOC_PD:");
		assert_has("\n    response (4 bytes):\n      pd_handle = 7");
	}
	memset(regions, 0, sizeof(regions));
}

/* Typed attribute values, inline and behind pointers, before and after. */
static void typed_values(void **state)
{
	struct ib_uverbs_gid_entry gid;
	struct ib_uverbs_qp_cap cap = { 16, 8, 1, 1, 64 };
	uint32_t qpn = 0x11, handles[3] = { 4, 5, 6 };
	uint64_t buf[64];
	uint8_t key[56] = { 0 };
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };
	(void)state;

	/* QUERY_GID_ENTRY as the kernel left it */
	memset(&gid, 0, sizeof(gid));
	gid.gid[0] = 0x80fe;	/* fe80:: */
	gid.gid_index = 1;
	gid.port_num = 1;
	gid.gid_type = IB_UVERBS_GID_TYPE_ROCE_V2;
	{
		UVIO_CMD_DEFINE(cmd, 4, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY);
		uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1);
		uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 1);
		uvio_put_flags(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &gid, sizeof(gid));
		assert_int_equal(uvio_cmd_finish(&cmd), 24 + 4 * 16);
		memcpy(buf, cmd.hdr, 24 + 4 * 16);
	}
	regions[0] = (struct region){ &gid, sizeof(gid) };
	assert_true(uvio_decode_cmd(buf, 24 + 4 * 16, &o, text, sizeof(text)) > 0);
	assert_has("DEVICE.QUERY_GID_ENTRY");
	assert_has("PORT             ptr-in  len 8 mandatory = 1\n");
	assert_has("RESP_ENTRY       ptr-out len 32 mandatory ptr 0x");
	assert_has(" = {gid = fe80::, gid_index = 1, "
		   "port_num = 1, gid_type = ROCE_V2(2), netdev_ifindex = 0}");

	/* QP.CREATE: struct in, handle out, enum const, flags, fd, lengths */
	{
		UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_QP_HANDLE);
		uvio_put_idr(&cmd, UVERBS_ATTR_CREATE_QP_PD_HANDLE, 2);
		uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 0x55);
		uvio_put_ptr_in(&cmd, UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
		uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_QP_TYPE, IB_UVERBS_QPT_UD);
		uvio_put_flags(&cmd, UVERBS_ATTR_CREATE_QP_FLAGS, IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
		uvio_put_fd(&cmd, UVERBS_ATTR_CREATE_QP_EVENT_FD, 12);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qpn, 2);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_QP_RESP_CAP, &cap, sizeof(cap));
		assert_int_equal(uvio_cmd_finish(&cmd), 24 + 9 * 16);
		memcpy(buf, cmd.hdr, 24 + 9 * 16);
	}
	((struct ib_uverbs_attr *)(buf + 3))[0].data = 77;	/* the new handle */
	regions[0] = (struct region){ &cap, sizeof(cap) };
	regions[1] = (struct region){ &qpn, sizeof(qpn) };
	assert_true(uvio_decode_cmd(buf, 24 + 9 * 16, &o, text, sizeof(text)) > 0);
	assert_has("HANDLE           idr-new len 0 mandatory new QP handle 77\n");
	assert_has("PD_HANDLE        idr     len 0 mandatory PD handle 2\n");
	assert_has("USER_HANDLE      ptr-in  len 8 mandatory = 0x55\n");
	assert_has("CAP              ptr-in  len 20 mandatory ptr 0x");
	assert_has(" = {max_send_wr = 16, max_recv_wr = 8, max_send_sge = 1, max_recv_sge = 1, "
		   "max_inline_data = 64}\n");
	assert_has("TYPE             ptr-in  len 8 mandatory = UD(4)\n");
	assert_has("FLAGS            ptr-in  len 8 mandatory = 0x1000(SQ_SIG_ALL)\n");
	assert_has("EVENT_FD         fd      len 0 mandatory ASYNC_EVENT fd 12\n");
	assert_has("RESP_QP_NUM      ptr-out len 2 mandatory (!length: the kernel wants 4) ptr 0x");
	assert_has(" = 17\n");
	assert_null(strstr(text, "missing mandatory"));	/* SEND_CQ is optional */

	/* before the call: no values for outputs and new handles */
	o.flags = 0;
	assert_true(uvio_decode_cmd(buf, 24 + 9 * 16, &o, text, sizeof(text)) > 0);
	assert_has("HANDLE           idr-new len 0 mandatory new QP handle\n");
	assert_has("RESP_CAP         ptr-out len 20 mandatory ptr 0x");
	assert_null(strstr(text, "max_send_wr = 16, max_recv_wr = 8, max_send_sge = 1, max_recv_sge = 1, "
			   "max_inline_data = 64}\n  [8]"));

	/* ENUM_IN with the element's layout; INFO_HANDLES' object id; a list */
	{
		UVIO_CMD_DEFINE(cmd, 3, UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_CREATE);
		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE);
		uvio_put_enum(&cmd, UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT,
			      IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM, key, sizeof(key));
		uvio_put_enum(&cmd, UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY, 7, NULL, 0);
		assert_int_equal(uvio_cmd_finish(&cmd), 24 + 3 * 16);
		memcpy(buf, cmd.hdr, 24 + 3 * 16);
	}
	key[4] = 0xaa;	/* the high half of iv */
	regions[0] = (struct region){ key, sizeof(key) };
	assert_true(uvio_decode_cmd(buf, 24 + 3 * 16, &o, text, sizeof(text)) > 0);
	assert_has("FLOW_ACTION.ESP_CREATE");
	assert_has("KEYMAT           enum-in len 56 mandatory elem 0 AES_GCM ptr 0x");
	assert_has(" = {iv = 0xaa00000000, iv_algo = SEQ(0), salt = 0x0, icv_len = 0, key_len = 0, "
		   "aes_key = 00:00:");
	assert_has("REPLAY           enum-in len 0 mandatory elem 7 (unknown element)\n");
	assert_has("missing mandatory: ATTRS");
	{
		UVIO_CMD_DEFINE(cmd, 3, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES);
		uvio_put_u64(&cmd, UVERBS_ATTR_INFO_OBJECT_ID, UVERBS_OBJECT_CQ);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_INFO_HANDLES_LIST, handles, sizeof(handles));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES, &qpn, sizeof(qpn));
		assert_int_equal(uvio_cmd_finish(&cmd), 24 + 3 * 16);
		memcpy(buf, cmd.hdr, 24 + 3 * 16);
	}
	regions[0] = (struct region){ handles, sizeof(handles) };
	o.flags = UVIO_DECODE_AFTER;
	assert_true(uvio_decode_cmd(buf, 24 + 3 * 16, &o, text, sizeof(text)) > 0);
	assert_has("OBJECT_ID        ptr-in  len 8 mandatory = CQ(3)\n");
	assert_has(" = [4, 5, 6]\n");
	assert_has("TOTAL_HANDLES    ptr-out len 4 mandatory ptr 0x");
	memset(regions, 0, sizeof(regions));

	/* sized options: too small, and unknown bytes past the end */
	struct {
		struct uvio_decode_opts o;
		uint64_t more;
	} big = { { .sz = sizeof(big) }, 0 };
	int r = uvio_decode_cmd(buf, 72, &big.o, text, sizeof(text));
	assert_int_equal(r, (int)strlen(text));
	big.more = 1;
	assert_int_equal(uvio_decode_cmd(buf, 72, &big.o, text, sizeof(text)), -E2BIG);
	big.o.sz = 4;
	assert_int_equal(uvio_decode_cmd(buf, 72, &big.o, text, sizeof(text)), -EINVAL);
	big.o.sz = offsetof(struct uvio_decode_opts, flags);	/* an older, shorter struct */
	assert_true(uvio_decode_cmd(buf, 72, &big.o, text, sizeof(text)) > 0);
	r = uvio_decode_cmd(buf, 72, NULL, text, sizeof(text));
	assert_int_equal(r, (int)strlen(text));
}

/*
 * A driver's own object (mlx5's UAR, 0x1008) and its method 0x1000: ids
 * 0x1000 and 0x1001 are the driver's attributes there, not UHW_IN and
 * UHW_OUT (those are driver data of the core methods alone). The UAR type
 * is a constant inline in the record: never a pointer to follow.
 */
static void driver_object_no_uhw(void **state)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr a[5];
	} c;
	uint64_t off = 0x40000;
	uint32_t len = 4096, page = 9;
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };
	(void)state;

	memset(&c, 0, sizeof(c));
	c.hdr = (struct ib_uverbs_ioctl_hdr){ .length = sizeof(c), .object_id = 0x1008,
		.method_id = 0x1000, .num_attrs = 5, .driver_id = 1 /* RDMA_DRIVER_MLX5 */ };
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1000, .flags = UVERBS_ATTR_F_MANDATORY,
					  .data = 3 };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = 0x1001, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 1 };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = 0x1002, .len = 8,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&off };
	c.a[3] = (struct ib_uverbs_attr){ .attr_id = 0x1003, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&len };
	c.a[4] = (struct ib_uverbs_attr){ .attr_id = 0x1004, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&page };
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &off, sizeof(off) };
	regions[1] = (struct region){ &len, sizeof(len) };
	regions[2] = (struct region){ &page, sizeof(page) };
	assert_true(uvio_decode_cmd(&c, sizeof(c), &o, text, sizeof(text)) > 0);
	if (strstr(text, "UHW_IN") || strstr(text, "UHW_OUT") || strstr(text, "ptr-out len 4 "
									  "mandatory ptr 0x1\n"))
		fail_msg("driver attributes of a driver's object read as UHW_IN/UHW_OUT:\n%s",
			 text);
	/* and with no driver named, nothing is guessed either */
	c.hdr.driver_id = 0;
	assert_true(uvio_decode_cmd(&c, sizeof(c), &o, text, sizeof(text)) > 0);
	assert_null(strstr(text, "UHW_"));
	assert_has("[1] 0x1001 driver           ?       len 4 mandatory inline 1 (0x1)\n");
	assert_null(uvio_attr_name(0x1008, 0x1000, UVERBS_ATTR_UHW_IN));
	assert_null(uvio_attr_name(0x1008, 0x1000, UVERBS_ATTR_UHW_OUT));
	/* a core method that takes driver data still names it */
	assert_string_equal(uvio_attr_name(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
					   UVERBS_ATTR_UHW_OUT), "UHW_OUT");
	memset(regions, 0, sizeof(regions));
}

/* An ioctl command of n attributes as the kernel sees it. */
struct raw_cmd {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr a[8];
};

static size_t raw_cmd(struct raw_cmd *c, uint16_t object, uint16_t method, uint32_t driver_id,
		      unsigned int n)
{
	size_t len = sizeof(c->hdr) + n * sizeof(c->a[0]);

	c->hdr = (struct ib_uverbs_ioctl_hdr){ .length = (uint16_t)len, .object_id = object,
		.method_id = method, .num_attrs = (uint16_t)n, .driver_id = driver_id };
	return len;
}

/* mlx5's driver data and namespace on the ioctl path: with the header's
 * driver_id 1 (RDMA_DRIVER_MLX5), UHW_IN and UHW_OUT field by field, the
 * driver's attributes of core methods and its own objects by name. */
static void mlx5_ioctl(void **state)
{
	struct raw_cmd c;
	struct mlx5_ib_create_cq ucq;
	struct mlx5_ib_create_cq_resp rcq = { .cqn = 77 };
	uint32_t cqe = 128, out_id = 0x55;
	uint8_t devx_in[24] = { 0x0a, 0x00, 0x00, 0x07, 0, 0, 0x00, 0x13 }, devx_out[16] = { 0 };
	uint16_t prio = 3;
	uint64_t start = 0x1000, length = 0x2000;
	size_t len;
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };
	(void)state;

	memset(&ucq, 0, sizeof(ucq));
	ucq.buf_addr = 0x10000;
	ucq.db_addr = 0x20000;
	ucq.cqe_size = 64;
	ucq.flags = MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX;
	ucq.uar_page_index = 3;
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, 1, 5);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_HANDLE,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 4 };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_RESP_CQE, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&cqe };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_IN, .len = sizeof(ucq),
					  .data = (uintptr_t)&ucq };
	c.a[3] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_OUT, .len = sizeof(rcq),
					  .data = (uintptr_t)&rcq };
	c.a[4] = (struct ib_uverbs_attr){ .attr_id = 0x1002 /* MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX */,
					  .len = 4, .data = 9 };
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &ucq, sizeof(ucq) };
	regions[1] = (struct region){ &rcq, sizeof(rcq) };
	regions[2] = (struct region){ &cqe, sizeof(cqe) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("CQ.CREATE (object 3, method 0) layout current driver_id 1(mlx5), 5 attrs");
	assert_has("[2] 0x1000 UHW_IN           ptr-in  len 32 optional ptr 0x");
	assert_has(" = mlx5_create_cq {buf_addr = 0x10000, db_addr = 0x20000, cqe_size = 64, "
		   "cqe_comp_en = 0, cqe_comp_res_format = 0x0, flags = 0x2(UAR_PAGE_INDEX), "
		   "uar_page_index = 3}\n");
	assert_has("[3] 0x1001 UHW_OUT          ptr-out len 8 optional ptr 0x");
	assert_has(" = mlx5_create_cq_resp {cqn = 77}\n");
	assert_has("[4] 0x1002 UAR_INDEX        ptr-in  len 4 optional = 9\n");
	/* usnic (13) has no tables: the same bytes are bytes */
	c.hdr.driver_id = 13;
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("[2] 0x1000 UHW_IN           ptr-in  len 32 optional ptr 0x");
	assert_has(" = 00:00:01:00:00:00:00:00:00:00:02:00");
	/* rxe (14) reads none on CQ.CREATE */
	c.hdr.driver_id = 14;
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has(" = (rxe reads none) 00:00:01:00:");
	assert_has("[4] 0x1002 driver           ?       len 4 optional inline 9 (0x9)\n");

	/* a driver's object: DEVX_OBJ.CREATE with the device's mailboxes */
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_METHOD_DEVX_OBJ_CREATE, 1, 3);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 6 };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN,
		.len = sizeof(devx_in), .flags = UVERBS_ATTR_F_MANDATORY,
		.data = (uintptr_t)devx_in };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT,
		.len = sizeof(devx_out), .flags = UVERBS_ATTR_F_MANDATORY,
		.data = (uintptr_t)devx_out };
	devx_out[0] = 0x3;
	devx_out[7] = 0x42;
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ devx_in, sizeof(devx_in) };
	regions[1] = (struct region){ devx_out, sizeof(devx_out) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("DEVX_OBJ.CREATE (object 4097, method 4096) layout current driver_id 1(mlx5)");
	assert_has("[0] 0x1000 HANDLE           idr-new len 0 mandatory new DEVX_OBJ handle 6\n");
	assert_has("[1] 0x1001 CMD_IN           ptr-in  len 24 mandatory ptr 0x");
	assert_has(" = {opcode = 0x0a00, uid = 0x0007, op_mod = 0x0013, data[] = 00:00:00:00");
	assert_has("[2] 0x1002 CMD_OUT          ptr-out len 16 mandatory ptr 0x");
	assert_has(" = {status = 3, syndrome = 0x00000042, data[] = 00:00:00:00:00:00:00:00}");
	assert_null(strstr(text, "missing mandatory"));
	/* what the method requires: its own ids are in the driver's namespace */
	c.hdr.num_attrs = 1;
	c.hdr.length = sizeof(c.hdr) + sizeof(c.a[0]);
	assert_true(uvio_decode_cmd(&c, c.hdr.length, &o, text, sizeof(text)) > 0);
	assert_has("missing mandatory: CMD_IN, CMD_OUT");

	/* FLOW_MATCHER.CREATE: an ENUM_IN whose NORMAL element carries the
	 * priority, a constant table type */
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, MLX5_IB_OBJECT_FLOW_MATCHER, MLX5_IB_METHOD_FLOW_MATCHER_CREATE, 1, 2);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE, .len = 2,
		.flags = UVERBS_ATTR_F_MANDATORY,
		.attr_data.enum_data.elem_id = MLX5_IB_FLOW_TYPE_NORMAL };
	memcpy(&c.a[0].data, &prio, sizeof(prio));
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE, .len = 8,
					  .data = MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_RX };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("FLOW_MATCHER.CREATE");
	assert_has("FLOW_TYPE        enum-in len 2 mandatory elem 0 NORMAL = 3\n");
	assert_has("FT_TYPE          ptr-in  len 8 optional = RDMA_RX(3)\n");
	assert_has("missing mandatory: HANDLE, MATCH_MASK, MATCH_CRITERIA");

	/* DM.ALLOC: mlx5's attributes of a core method; its own DM methods */
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 1, 2);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1000, .len = 8,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&start };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = 0x1002, .len = 8, .data = 1 };
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &start, sizeof(start) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("[0] 0x1000 RESP_START_OFFSET ptr-out len 8 mandatory ptr 0x");
	assert_has(" = 0x1000\n");
	assert_has("[1] 0x1002 REQ_TYPE         ptr-in  len 8 optional = STEERING_SW_ICM(1)");
	assert_has("missing mandatory: HANDLE, LENGTH, ALIGNMENT");
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, UVERBS_OBJECT_DM, 0x1001 /* MLX5_IB_METHOD_DM_QUERY */, 1, 2);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1000, .flags = UVERBS_ATTR_F_MANDATORY,
					  .data = 2 };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = 0x1003, .len = 8,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&length };
	regions[0] = (struct region){ &length, sizeof(length) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("DM.QUERY (object 14, method 4097)");
	assert_has("[0] 0x1000 REQ_HANDLE       idr     len 0 mandatory DM handle 2\n");
	assert_has("[1] 0x1003 RESP_LENGTH      ptr-out len 8 mandatory ptr 0x");
	assert_has(" = 8192\n");
	assert_has("missing mandatory: RESP_START_OFFSET, RESP_PAGE_INDEX");

	/* DEVX_UMEM.REG, before the call */
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_METHOD_DEVX_UMEM_REG, 1, 2);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS, .len = 8,
		.data = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&out_id };
	o.flags = 0;
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("DEVX_UMEM.REG");
	assert_has("ACCESS           ptr-in  len 8 optional = 0x5(LOCAL_WRITE|REMOTE_READ)\n");
	assert_has("OUT_ID           ptr-out len 4 mandatory ptr 0x");
	assert_null(strstr(text, " = 85"));
	memset(regions, 0, sizeof(regions));
}

/* INVOKE_WRITE on mlx5: UHW_IN/UHW_OUT hold the write() command's driver
 * data; EX_CREATE_QP over an indirection table takes the RSS request. */
static void mlx5_invoke_write(void **state)
{
	struct raw_cmd c;
	struct ib_uverbs_ex_create_qp core;
	struct mlx5_ib_create_qp_rss rss;
	struct mlx5_ib_create_qp uqp;
	struct mlx5_ib_alloc_pd_resp pd = { .pdn = 0x21 };
	size_t len;
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };
	(void)state;

	memset(&core, 0, sizeof(core));
	memset(&rss, 0, sizeof(rss));
	memset(&uqp, 0, sizeof(uqp));
	core.comp_mask = IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
	rss.rx_hash_fields_mask = MLX5_RX_HASH_SRC_IPV4 | MLX5_RX_HASH_DST_IPV4;
	rss.rx_hash_function = MLX5_RX_HASH_FUNC_TOEPLITZ;
	rss.rx_key_len = 40;
	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, 1, 3);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_WRITE_CMD, .len = 8,
		.flags = UVERBS_ATTR_F_MANDATORY,
		.data = IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CORE_IN, .len = sizeof(core),
					  .data = (uintptr_t)&core };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_IN, .len = sizeof(rss),
					  .data = (uintptr_t)&rss };
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &core, sizeof(core) };
	regions[1] = (struct region){ &rss, sizeof(rss) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has(" = mlx5_create_qp_rss {rx_hash_fields_mask = 0x3(SRC_IPV4|DST_IPV4), "
		   "rx_hash_function = 0x1(TOEPLITZ), rx_key_len = 40, rx_hash_key = 00:00:");
	/* the same over plain queues */
	core.comp_mask = 0;
	uqp.sq_wqe_count = 64;
	uqp.flags = MLX5_QP_FLAG_SIGNATURE | MLX5_QP_FLAG_SCATTER_CQE;
	c.a[2].len = sizeof(uqp);
	c.a[2].data = (uintptr_t)&uqp;
	regions[1] = (struct region){ &uqp, sizeof(uqp) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has(" = mlx5_create_qp {buf_addr = 0x0, db_addr = 0x0, sq_wqe_count = 64, "
		   "rq_wqe_count = 0, rq_wqe_shift = 0, flags = 0x3(SIGNATURE|SCATTER_CQE), ");
	assert_has("dci_streams = {log_num_concurent = 0, log_num_errored = 0}}\n");

	/* ALLOC_PD answers the pdn; a driver data mlx5 does not read */
	c.a[0].data = IB_USER_VERBS_CMD_ALLOC_PD;
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_OUT, .len = sizeof(pd),
					  .data = (uintptr_t)&pd };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_IN, .len = 4, .data = 7 };
	regions[0] = (struct region){ &pd, sizeof(pd) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("UHW_OUT          ptr-out len 4 optional ptr 0x");
	assert_has(" = mlx5_alloc_pd_resp {pdn = 33}\n");
	assert_has("UHW_IN           ptr-in  len 4 optional = (mlx5 reads none) 07:00:00:00\n");
	memset(regions, 0, sizeof(regions));
}

/* write() commands on mlx5: the driver comes with the options. */
static void mlx5_write(void **state)
{
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_create_cq c;
		struct mlx5_ib_create_cq d;
	} cq;
	struct {
		struct ib_uverbs_create_cq_resp r;
		struct mlx5_ib_create_cq_resp d;
	} cq_resp = { { 5, 63 }, { 17, 0 } };
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_ex_cmd_hdr x;
		struct ib_uverbs_ex_query_device c;
	} qd;
	struct {
		struct ib_uverbs_ex_query_device_resp r;
		struct mlx5_ib_query_device_resp d;
	} qd_resp;
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_get_context c;
		struct mlx5_ib_alloc_ucontext_req_v2 d;
	} ctx;
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch,
				      .flags = UVIO_DECODE_WRITE | UVIO_DECODE_AFTER, .driver_id = 1 };
	(void)state;

	memset(&cq, 0, sizeof(cq));
	cq.h = (struct ib_uverbs_cmd_hdr){ IB_USER_VERBS_CMD_CREATE_CQ, sizeof(cq) / 4,
					   sizeof(cq_resp) / 4 };
	cq.c.response = (uintptr_t)&cq_resp;
	cq.c.cqe = 64;
	cq.d.buf_addr = 0x10000;
	cq.d.cqe_size = 64;
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &cq_resp, sizeof(cq_resp) };
	assert_true(uvio_decode_cmd(&cq, sizeof(cq), &o, text, sizeof(text)) > 0);
	assert_has("write CQ.CREATE_CQ (command 18) in_words 18 out_words 4, 72 bytes\n  driver mlx5\n");
	assert_has("  driver data in = mlx5_create_cq {buf_addr = 0x10000, db_addr = 0x0, "
		   "cqe_size = 64, ");
	assert_has("  response (16 bytes):\n    cq_handle = 5\n    cqe = 63\n"
		   "    driver data out = mlx5_create_cq_resp {cqn = 17}");
	/* without the options the bytes stay bytes */
	assert_true(uvio_decode_write(&cq, sizeof(cq), &cq_resp, sizeof(cq_resp), text,
				      sizeof(text)) > 0);
	assert_has("    driver data out = 11:00:00:00:00:00:00:00");
	/* before the call: no response read */
	o.flags = UVIO_DECODE_WRITE;
	assert_true(uvio_decode_cmd(&cq, sizeof(cq), &o, text, sizeof(text)) > 0);
	assert_null(strstr(text, "response ("));
	o.flags = UVIO_DECODE_WRITE | UVIO_DECODE_AFTER;

	/* EX_QUERY_DEVICE: mlx5's capabilities, nested */
	memset(&qd, 0, sizeof(qd));
	memset(&qd_resp, 0, sizeof(qd_resp));
	qd.h = (struct ib_uverbs_cmd_hdr){
		IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_QUERY_DEVICE,
		sizeof(qd.c) / 8, sizeof(qd_resp.r) / 8 };
	qd.x.response = (uintptr_t)&qd_resp;
	qd.x.provider_out_words = sizeof(qd_resp.d) / 8;
	qd_resp.d.response_length = sizeof(qd_resp.d);
	qd_resp.d.tso_caps.max_tso = 262144;
	qd_resp.d.tso_caps.supported_qpts = 1 << 8;
	qd_resp.d.cqe_comp_caps.max_num = 64;
	qd_resp.d.cqe_comp_caps.supported_format = MLX5_IB_CQE_RES_FORMAT_HASH |
						   MLX5_IB_CQE_RES_FORMAT_CSUM;
	qd_resp.d.flags = MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP;
	qd_resp.d.tunnel_offloads_caps = MLX5_IB_TUNNELED_OFFLOADS_VXLAN;
	regions[0] = (struct region){ &qd_resp, sizeof(qd_resp) };
	assert_true(uvio_decode_cmd(&qd, sizeof(qd), &o, text, sizeof(text)) > 0);
	assert_has("driver data out = mlx5_query_device_resp {comp_mask = 0x0, response_length = ");
	assert_has("tso_caps = {max_tso = 262144, supported_qpts = 0x100(RAW_PACKET)}, ");
	assert_has("cqe_comp_caps = {max_num = 64, supported_format = 0x3(HASH|CSUM)}, ");
	assert_has("flags = 0x1(CQE_128B_COMP), ");
	assert_has("tunnel_offloads_caps = 0x1(VXLAN), dci_streams_caps = {");

	/* GET_CONTEXT: v1 of the request by its length, else v2 */
	memset(&ctx, 0, sizeof(ctx));
	ctx.h = (struct ib_uverbs_cmd_hdr){ IB_USER_VERBS_CMD_GET_CONTEXT, sizeof(ctx) / 4, 0 };
	ctx.d.total_num_bfregs = 8;
	ctx.d.max_cqe_version = 1;
	ctx.d.lib_caps = MLX5_LIB_CAP_4K_UAR | MLX5_LIB_CAP_DYN_UAR;
	assert_true(uvio_decode_cmd(&ctx, sizeof(ctx), &o, text, sizeof(text)) > 0);
	assert_has("driver data in = mlx5_uctx_req_v2 {total_num_bfregs = 8, "
		   "num_low_latency_bfregs = 0, flags = 0x0, comp_mask = 0x0, max_cqe_version = 1, "
		   "lib_caps = 0x3(CAP_4K_UAR|DYN_UAR)}");
	ctx.h.in_words = (sizeof(ctx.h) + sizeof(ctx.c) + 8) / 4;
	assert_true(uvio_decode_cmd(&ctx, sizeof(ctx.h) + sizeof(ctx.c) + 8, &o, text,
				    sizeof(text)) > 0);
	assert_has("driver data in = mlx5_uctx_req {total_num_bfregs = 8, "
		   "num_low_latency_bfregs = 0}");
	memset(regions, 0, sizeof(regions));

	/* options checked */
	o.reserved = 1;
	assert_int_equal(uvio_decode_cmd(&cq, sizeof(cq), &o, text, sizeof(text)), -EINVAL);
	o.reserved = 0;
	o.flags = 0x80;
	assert_int_equal(uvio_decode_cmd(&cq, sizeof(cq), &o, text, sizeof(text)), -EINVAL);
}


/* ---- the other drivers' driver data --------------------------------------
 * Each case fills the kernel header's own structs and sends them as the
 * UHW_IN/UHW_OUT of a core method, with that driver's id in the header. */
static void drv_uhw(uint32_t driver_id, uint16_t object, uint16_t method, const void *in,
		    size_t in_len, const void *out, size_t out_len)
{
	struct raw_cmd c;
	size_t len;
	unsigned int n = 0;
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };

	memset(&c, 0, sizeof(c));
	if (in_len) {
		c.a[n] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_IN,
			.len = (uint16_t)in_len, .data = (uintptr_t)in };
		if (in_len <= sizeof(c.a[n].data))	/* inline, as the kernel reads it */
			memcpy(&c.a[n].data, in, in_len);
		n++;
	}
	if (out_len)
		c.a[n++] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_OUT,
			.len = (uint16_t)out_len, .data = (uintptr_t)out };
	len = raw_cmd(&c, object, method, driver_id, n);
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ in, in_len };
	regions[1] = (struct region){ out, out_len };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	memset(regions, 0, sizeof(regions));
}

#define CQ_CREATE UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE
#define QP_CREATE UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE
#define SRQ_CREATE UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE
#define GET_CONTEXT UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT

static void rxe_siw_data(void **state)
{
	struct rxe_create_qp_resp q = { .rq_mi = { 0x1000, 4096, 0 }, .sq_mi = { 0x2000, 8192, 0 } };
	struct rxe_create_srq_resp r = { .mi = { 0x3000, 512, 0 }, .srq_num = 9 };
	struct siw_uresp_create_qp sq = { .qp_id = 5, .num_sqe = 64, .num_rqe = 32,
					  .sq_key = 0x100, .rq_key = 0x200 };
	struct siw_uresp_alloc_ctx ctx = { .dev_id = 3 };
	(void)state;

	drv_uhw(RDMA_DRIVER_RXE, QP_CREATE, NULL, 0, &q, sizeof(q));
	assert_has("driver_id 14(rxe)");
	assert_has(" = rxe_create_qp_resp {rq_mi = {offset = 0x1000, size = 4096}, "
		   "sq_mi = {offset = 0x2000, size = 8192}}\n");
	drv_uhw(RDMA_DRIVER_RXE, SRQ_CREATE, NULL, 0, &r, sizeof(r));
	assert_has(" = rxe_create_srq_resp {mi = {offset = 0x3000, size = 512}, srq_num = 9}\n");
	drv_uhw(RDMA_DRIVER_SIW, QP_CREATE, NULL, 0, &sq, sizeof(sq));
	assert_has("driver_id 18(siw)");
	assert_has(" = siw_uresp_create_qp {qp_id = 5, num_sqe = 64, num_rqe = 32, "
		   "sq_key = 0x100, rq_key = 0x200}\n");
	drv_uhw(RDMA_DRIVER_SIW, GET_CONTEXT, NULL, 0, &ctx, sizeof(ctx));
	assert_has(" = siw_uresp_alloc_ctx {dev_id = 3}");
}

static void mthca_cxgb4_mlx4_data(void **state)
{
	struct mthca_create_cq mc = { .lkey = 0x11, .pdn = 2, .arm_db_page = 0x7000,
				      .set_db_page = 0x8000, .arm_db_index = 1, .set_db_index = 2 };
	struct mthca_create_cq_resp mr = { .cqn = 12 };
	struct c4iw_create_cq cc = { .flags = 1 };
	struct c4iw_create_cq_resp cr = { .key = 0x40, .gts_key = 0x80, .memsize = 4096,
					  .cqid = 8, .size = 256, .qid_mask = 3 };
	struct mlx4_ib_create_qp q4;
	struct mlx4_ib_create_srq_resp s4 = { .srqn = 21 };
	(void)state;

	drv_uhw(RDMA_DRIVER_MTHCA, CQ_CREATE, &mc, sizeof(mc), &mr, sizeof(mr));
	assert_has("driver_id 5(mthca)");
	assert_has(" = mthca_create_cq {lkey = 17, pdn = 2, arm_db_page = 0x7000, "
		   "set_db_page = 0x8000, arm_db_index = 1, set_db_index = 2}\n");
	assert_has(" = mthca_create_cq_resp {cqn = 12}\n");
	drv_uhw(RDMA_DRIVER_CXGB4, CQ_CREATE, &cc, sizeof(cc), &cr, sizeof(cr));
	assert_has("driver_id 4(cxgb4)");
	assert_has(" = c4iw_create_cq {flags = 0x1}\n");
	assert_has(" = c4iw_create_cq_resp {key = 0x40, gts_key = 0x80, memsize = 0x1000, "
		   "cqid = 8, size = 256, qid_mask = 0x3, flags = 0x0}\n");
	memset(&q4, 0, sizeof(q4));
	q4.buf_addr = 0x9000;
	q4.db_addr = 0xa000;
	q4.log_sq_bb_count = 6;
	q4.log_sq_stride = 6;
	drv_uhw(RDMA_DRIVER_MLX4, QP_CREATE, &q4, sizeof(q4), NULL, 0);
	assert_has("driver_id 2(mlx4)");
	assert_has(" = mlx4_ib_create_qp {buf_addr = 0x9000, db_addr = 0xa000, "
		   "log_sq_bb_count = 6, log_sq_stride = 6, sq_no_prefetch = 0, ");
	drv_uhw(RDMA_DRIVER_MLX4, SRQ_CREATE, NULL, 0, &s4, sizeof(s4));
	assert_has(" = mlx4_ib_create_srq_resp {srqn = 21}\n");
}

static void ocrdma_qedr_pvrdma_data(void **state)
{
	struct ocrdma_create_cq_ureq oc = { .dpp_cq = 1 };
	struct qedr_create_cq_ureq qc = { .addr = 0x5000, .len = 8192 };
	struct qedr_create_srq_uresp qs = { .srq_id = 4 };
	struct pvrdma_create_qp pq = { .rbuf_addr = 0x1000, .sbuf_addr = 0x2000, .rbuf_size = 64,
				       .sbuf_size = 128, .qp_addr = 0x3000 };
	struct pvrdma_create_qp_resp pr = { .qpn = 7, .qp_handle = 70 };
	(void)state;

	drv_uhw(RDMA_DRIVER_OCRDMA, CQ_CREATE, &oc, sizeof(oc), NULL, 0);
	assert_has("driver_id 7(ocrdma)");
	assert_has(" = ocrdma_create_cq_ureq {dpp_cq = 1}\n");
	drv_uhw(RDMA_DRIVER_QEDR, CQ_CREATE, &qc, sizeof(qc), NULL, 0);
	assert_has("driver_id 11(qedr)");
	assert_has(" = qedr_create_cq_ureq {addr = 0x5000, len = 0x2000}\n");
	drv_uhw(RDMA_DRIVER_QEDR, SRQ_CREATE, NULL, 0, &qs, sizeof(qs));
	assert_has(" = qedr_create_srq_uresp {srq_id = 4}\n");
	drv_uhw(RDMA_DRIVER_VMW_PVRDMA, QP_CREATE, &pq, sizeof(pq), &pr, sizeof(pr));
	assert_has("driver_id 10(vmw_pvrdma)");
	assert_has(" = pvrdma_create_qp {rbuf_addr = 0x1000, sbuf_addr = 0x2000, rbuf_size = 64, "
		   "sbuf_size = 128, qp_addr = 0x3000}\n");
	assert_has(" = pvrdma_create_qp_resp {qpn = 7, qp_handle = 70}\n");
}

static void bnxt_efa_hns_data(void **state)
{
	struct bnxt_re_cq_req bc = { .cq_va = 0x6000, .cq_handle = 0x77 };
	struct bnxt_re_cq_resp br = { .cqid = 3, .tail = 0, .phase = 1 };
	struct efa_ibv_create_qp eq = { .rq_ring_size = 4096, .sq_ring_size = 8192,
					.driver_qp_type = EFA_QP_DRIVER_TYPE_SRD };
	struct efa_ibv_create_ah_resp ea = { .efa_address_handle = 0x33 };
	struct hns_roce_ib_create_cq hc = { .buf_addr = 0x1000, .db_addr = 0x2000, .cqe_size = 64 };
	struct hns_roce_ib_create_cq_resp hr = { .cqn = 9, .cap_flags = 1 };
	(void)state;

	drv_uhw(RDMA_DRIVER_BNXT_RE, CQ_CREATE, &bc, sizeof(bc), &br, sizeof(br));
	assert_has("driver_id 6(bnxt_re)");
	assert_has(" = bnxt_re_cq_req {cq_va = 0x6000, cq_handle = 0x77}\n");
	assert_has(" = bnxt_re_cq_resp {cqid = 3, tail = 0, phase = 1}\n");
	drv_uhw(RDMA_DRIVER_EFA, QP_CREATE, &eq, sizeof(eq), NULL, 0);
	assert_has("driver_id 17(efa)");
	assert_has(" = efa_create_qp {comp_mask = 0x0, rq_ring_size = 4096, sq_ring_size = 8192, "
		   "driver_qp_type = 0}\n");
	/* CREATE_AH is a write() command: the bytes after the core answer */
	{
		struct {
			struct ib_uverbs_cmd_hdr h;
			struct ib_uverbs_create_ah c;
		} ah;
		struct {
			struct ib_uverbs_create_ah_resp r;
			struct efa_ibv_create_ah_resp d;
		} ah_resp = { { 6 }, ea };
		struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch,
			.flags = UVIO_DECODE_WRITE | UVIO_DECODE_AFTER, .driver_id = RDMA_DRIVER_EFA };

		memset(&ah, 0, sizeof(ah));
		ah.h = (struct ib_uverbs_cmd_hdr){ IB_USER_VERBS_CMD_CREATE_AH, sizeof(ah) / 4,
						   sizeof(ah_resp) / 4 };
		ah.c.response = (uintptr_t)&ah_resp;
		memset(regions, 0, sizeof(regions));
		regions[0] = (struct region){ &ah_resp, sizeof(ah_resp) };
		assert_true(uvio_decode_cmd(&ah, sizeof(ah), &o, text, sizeof(text)) > 0);
		memset(regions, 0, sizeof(regions));
		assert_has("  driver efa\n");
		assert_has("driver data out = efa_create_ah_resp {comp_mask = 0x0, "
			   "efa_address_handle = 51}");
	}
	drv_uhw(RDMA_DRIVER_HNS, CQ_CREATE, &hc, sizeof(hc), &hr, sizeof(hr));
	assert_has("driver_id 12(hns)");
	assert_has(" = hns_create_cq {buf_addr = 0x1000, db_addr = 0x2000, cqe_size = 64}\n");
	assert_has(" = hns_create_cq_resp {cqn = 9, cap_flags = 0x1}\n");
}

/* Namespaces newer than Debian 12's headers, by value (Linux 7.2's
 * <rdma/bnxt_re-abi.h>, 6.4's <rdma/efa-abi.h>): bnxt_re's page allocator
 * and doorbell region, efa's MR_QUERY on the core MR object; and the
 * driver data that grew past 6.1's structs. */
static void bnxt_efa_namespaces(void **state)
{
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };
	uint64_t off = 0x3000;
	uint32_t mlen = 4096, dpi = 7;
	uint16_t validity = 0x5, ic[3] = { 1, 2, 3 };
	struct {
		uint64_t qpsva, qprva, qp_handle, comp_mask;
		uint32_t sq_slots, sq_npsn;
	} qp = { 0x1000, 0x2000, 0x33, 1, 64, 128 };
	struct raw_cmd c;
	size_t len;
	(void)state;

	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, 0x1000 /* ALLOC_PAGE */, 0x1000 /* ALLOC_PAGE */, RDMA_DRIVER_BNXT_RE, 5);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1000, .flags = UVERBS_ATTR_F_MANDATORY,
					  .data = 9 };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = 0x1001, .len = 8,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 1 };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = 0x1002, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&dpi };
	c.a[3] = (struct ib_uverbs_attr){ .attr_id = 0x1003, .len = 8,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&off };
	c.a[4] = (struct ib_uverbs_attr){ .attr_id = 0x1004, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&mlen };
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &dpi, sizeof(dpi) };
	regions[1] = (struct region){ &off, sizeof(off) };
	regions[2] = (struct region){ &mlen, sizeof(mlen) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("ALLOC_PAGE.ALLOC_PAGE (object 4096, method 4096)");
	assert_has("new ALLOC_PAGE handle 9\n");
	assert_has(" TYPE ");
	assert_has(" = DBR_BAR_PAGE(1)\n");
	assert_has(" = 7\n");
	assert_has(" = 0x3000\n");
	assert_has("MMAP_LENGTH      ptr-out len 4 mandatory ptr 0x");
	assert_has(" = 4096");
	assert_null(strstr(text, "missing mandatory"));
	assert_null(strstr(text, "unknown"));

	/* QP_CREATE's doorbell region handle, and the 7.2 request */
	drv_uhw(RDMA_DRIVER_BNXT_RE, QP_CREATE, &qp, sizeof(qp), NULL, 0);
	assert_has(" = bnxt_re_qp_req {qpsva = 0x1000, qprva = 0x2000, qp_handle = 0x33, "
		   "comp_mask = 0x1(FIXED_QUE_ATTR), sq_slots = 64, sq_npsn = 128}\n");

	memset(&c, 0, sizeof(c));
	len = raw_cmd(&c, UVERBS_OBJECT_MR, 0x1000 /* MR_QUERY */, RDMA_DRIVER_EFA, 5);
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1000, .flags = UVERBS_ATTR_F_MANDATORY,
					  .data = 4 };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = 0x1001, .len = 2,
					  .flags = UVERBS_ATTR_F_MANDATORY,
					  .data = (uintptr_t)&validity };
	for (int i = 0; i < 3; i++)
		c.a[2 + i] = (struct ib_uverbs_attr){ .attr_id = (uint16_t)(0x1002 + i), .len = 2,
			.flags = UVERBS_ATTR_F_MANDATORY, .data = (uintptr_t)&ic[i] };
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ &validity, sizeof(validity) };
	regions[1] = (struct region){ ic, sizeof(ic) };
	assert_true(uvio_decode_cmd(&c, len, &o, text, sizeof(text)) > 0);
	assert_has("MR.MR_QUERY (object ");
	assert_has("RESP_IC_ID_VALIDITY");
	assert_has("0x5(RECV_IC_ID|RDMA_RECV_IC_ID)");
	assert_has("RESP_RDMA_RECV_IC_ID");
	assert_null(strstr(text, "missing mandatory"));
	assert_null(strstr(text, "unknown"));
	memset(regions, 0, sizeof(regions));
}

/* ionic: no supported system has <rdma/ionic-abi.h>; Linux 7.2's struct
 * ionic_qdesc { __aligned_u64 addr; __u32 size; __u16 mask; __u8
 * depth_log2; __u8 stride_log2; }, ionic_cq_req { struct ionic_qdesc cq[2];
 * __u8 udma_mask; __u8 rsvd[7]; }, ionic_qp_resp { __u32 qpid; __u8 sq_cmb,
 * rq_cmb, udma_idx, rsvd[1]; __aligned_u64 sq_cmb_offset, rq_cmb_offset; } */
static void ionic_data(void **state)
{
	struct qdesc {
		uint64_t addr;
		uint32_t size;
		uint16_t mask;
		uint8_t depth_log2, stride_log2;
	};
	struct {
		struct qdesc cq[2];
		uint8_t udma_mask, rsvd[7];
	} cq = { { { 0x5000, 4096, 0xff, 8, 6 }, { 0, 0, 0, 0, 0 } }, 1, { 0 } };
	struct {
		uint32_t qpid;
		uint8_t sq_cmb, rq_cmb, udma_idx, rsvd;
		uint64_t sq_cmb_offset, rq_cmb_offset;
	} qp = { 12, 0x5, 0, 1, 0, 0x40000, 0 };
	(void)state;

	drv_uhw(21 /* RDMA_DRIVER_IONIC */, CQ_CREATE, &cq, sizeof(cq), NULL, 0);
	assert_has("driver_id 21(ionic)");
	assert_has(" = ionic_cq_req {cq0 = {addr = 0x5000, size = 4096, mask = 255, "
		   "depth_log2 = 8, stride_log2 = 6}, cq1 = {addr = 0x0, size = 0, mask = 0, "
		   "depth_log2 = 0, stride_log2 = 0}, udma_mask = 1}\n");
	drv_uhw(21, QP_CREATE, NULL, 0, &qp, sizeof(qp));
	assert_has(" = ionic_qp_resp {qpid = 12, sq_cmb = 0x5(ENABLE|EXPDB), rq_cmb = 0x0, "
		   "udma_idx = 1, sq_cmb_offset = 0x40000, rq_cmb_offset = 0x0}");
}

static void irdma_erdma_mana_data(void **state)
{
	(void)state;
#ifdef HAVE_IRDMA_ABI_H
	{
		struct irdma_create_qp_resp r = { .qp_id = 5, .actual_sq_size = 128,
						  .actual_rq_size = 64, .push_idx = 2, .qp_caps = 3 };
		struct irdma_create_cq_req c = { .user_cq_buf = 0x4000, .user_shadow_area = 0x5000 };

		drv_uhw(RDMA_DRIVER_I40IW, QP_CREATE, NULL, 0, &r, sizeof(r));
		assert_has("driver_id 9(irdma)");
		assert_has(" = irdma_create_qp_resp {qp_id = 5, actual_sq_size = 128, "
			   "actual_rq_size = 64, irdma_drv_opt = 0, push_idx = 2, lsmm = 0, "
			   "qp_caps = 0x3}\n");
		drv_uhw(RDMA_DRIVER_I40IW, CQ_CREATE, &c, sizeof(c), NULL, 0);
		assert_has(" = irdma_create_cq_req {user_cq_buf = 0x4000, user_shadow_area = 0x5000}\n");
	}
#endif
	/* mana: Debian 12 has no <rdma/mana-abi.h>; Linux 6.12's struct
	 * mana_ib_create_cq { __aligned_u64 buf_addr; __u16 flags;
	 * __u16 reserved0; __u32 reserved1; } and mana_ib_create_cq_resp
	 * { __u32 cqid; __u32 reserved; }; libmana 44's request is cut to
	 * buf_addr (8 bytes) */
	{
		struct {
			uint64_t buf_addr;
			uint16_t flags, reserved0;
			uint32_t reserved1;
		} c = { 0x8000, 1, 0, 0 };
		struct {
			uint32_t cqid, reserved;
		} r = { 44, 0 };

		drv_uhw(20 /* RDMA_DRIVER_MANA */, CQ_CREATE, &c, sizeof(c), &r, sizeof(r));
		assert_has("driver_id 20(mana)");
		assert_has(" = mana_ib_create_cq {buf_addr = 0x8000, flags = 0x1(RNIC_CQ)}\n");
		assert_has(" = mana_ib_create_cq_resp {cqid = 44}");
		drv_uhw(20, CQ_CREATE, &c, 8, NULL, 0);
		assert_has(" = mana_ib_create_cq {buf_addr = 0x8000}\n");
	}
	/* CREATE_QP: a raw packet QP's send queue (16 bytes) and its answer
	 * { sqid, cqid, tx_vp_offset, reserved }; an RC QP's four queues
	 * (48 bytes: queue_buf[4], queue_size[4]) and its queue_id[4]. Both
	 * answers are 16 bytes: the request tells which. */
	{
		struct {
			uint64_t sq_buf_addr;
			uint32_t sq_buf_size, port;
		} raw = { 0x9000, 4096, 1 };
		struct {
			uint64_t queue_buf[4];
			uint32_t queue_size[4];
		} rc = { { 0x1000, 0x2000, 0x3000, 0x4000 }, { 256, 512, 1024, 2048 } };
		uint32_t raw_r[4] = { 7, 8, 9, 0 }, rc_r[4] = { 11, 12, 13, 14 };

		drv_uhw(20, QP_CREATE, &raw, sizeof(raw), raw_r, sizeof(raw_r));
		assert_has(" = mana_ib_create_qp {sq_buf_addr = 0x9000, sq_buf_size = 4096, port = 1}\n");
		assert_has(" = mana_ib_create_qp_resp {sqid = 7, cqid = 8, tx_vp_offset = 9}");
		drv_uhw(20, QP_CREATE, &rc, sizeof(rc), rc_r, sizeof(rc_r));
		assert_has(" = mana_ib_create_rc_qp {queue_buf = [0x1000, 0x2000, 0x3000, 0x4000], "
			   "queue_size = [256, 512, 1024, 2048]}\n");
		assert_has(" = mana_ib_create_rc_qp_resp {queue_id = [11, 12, 13, 14]}");
	}
#ifdef HAVE_ERDMA_ABI_H
	{
		struct erdma_uresp_create_cq r = { .cq_id = 6, .num_cqe = 256 };

		drv_uhw(19 /* RDMA_DRIVER_ERDMA */, CQ_CREATE, NULL, 0, &r, sizeof(r));
		assert_has("driver_id 19(erdma)");
		assert_has(" = erdma_uresp_create_cq {cq_id = 6, num_cqe = 256}\n");
	}
#endif
}


/* Every driver id the library names (lib/abi/types.c's driver enum) has
 * driver tables, or is listed here as having none: a driver named later
 * fails this until it is one or the other. With tables, the decoder names
 * the driver after the header's driver_id. */
static void every_driver_has_tables(void **state)
{
	static const struct {
		const char *name;	/* as types.c names it */
		uint32_t id;
		const char *table;	/* the tables' name; NULL: no driver data described */
	} drivers[] = {
		{ "UNKNOWN", 0, NULL }, { "MLX5", 1, "mlx5" }, { "MLX4", 2, "mlx4" },
		{ "CXGB3", 3, NULL /* removed from the kernel in 5.5 */ },
		{ "CXGB4", 4, "cxgb4" }, { "MTHCA", 5, "mthca" }, { "BNXT_RE", 6, "bnxt_re" },
		{ "OCRDMA", 7, "ocrdma" }, { "NES", 8, NULL /* removed in 5.3 */ },
		{ "I40IW", 9, "irdma" }, { "VMW_PVRDMA", 10, "vmw_pvrdma" }, { "QEDR", 11, "qedr" },
		{ "HNS", 12, "hns" }, { "USNIC", 13, NULL /* no uverbs driver data */ },
		{ "RXE", 14, "rxe" }, { "HFI1", 15, NULL /* rdmavt: no driver data */ },
		{ "QIB", 16, NULL /* rdmavt: no driver data */ }, { "EFA", 17, "efa" },
		{ "SIW", 18, "siw" }, { "ERDMA", 19, "erdma" },
		{ "MANA", 20, "mana" },
		{ "IONIC", 21, "ionic" },
	};
	char path[4096], *src, *p;
	const char *slash = strrchr(__FILE__, '/');
	FILE *f;
	size_t n;
	uint8_t in[8] = { 1 };
	(void)state;

	/* the names types.c gives driver ids */
	assert_non_null(slash);
	snprintf(path, sizeof(path), "%.*s/../../lib/abi/types.c", (int)(slash - __FILE__), __FILE__);
	f = fopen(path, "r");
	if (!f)
		skip();
	src = malloc(1 << 20);
	assert_non_null(src);
	n = fread(src, 1, (1 << 20) - 1, f);
	fclose(f);
	src[n] = 0;
	p = strstr(src, "ENUM(DRIVER_ID, driver_id,");
	assert_non_null(p);
	*strstr(p, "),\n") = 0;
	for (p = strstr(p, "C("); p; p = strstr(p + 2, "C(")) {
		char name[32];
		const char *comma = strchr(p, ',');
		bool listed = false;

		assert_int_equal(sscanf(comma + 1, " %31[A-Z0-9_]", name), 1);
		for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
			listed |= !strcmp(drivers[i].name, name);
		if (!listed)
			fail_msg("types.c names driver %s: give it tables or list it here", name);
	}
	free(src);

	/* and the tables answer for exactly the ids listed with them */
	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++) {
		char want[64];

		drv_uhw(drivers[i].id, CQ_CREATE, in, sizeof(in), NULL, 0);
		if (drivers[i].table)
			snprintf(want, sizeof(want), "driver_id %u(%s), ", drivers[i].id,
				 drivers[i].table);
		else
			snprintf(want, sizeof(want), "driver_id %u, ", drivers[i].id);
		assert_has(want);
	}
}

/* The driver's names through the public lookups, and what every id in
 * mlx5's namespace answers: a name, a kind, lengths that make sense. */
static void mlx5_names(void **state)
{
	struct uvio_attr_desc d = { .sz = sizeof(d) };
	unsigned int objects = 0, methods = 0, attrs = 0;
	(void)state;

	assert_string_equal(uvio_driver_object_name(1, MLX5_IB_OBJECT_UAR), "UAR");
	assert_null(uvio_object_name(MLX5_IB_OBJECT_UAR));
	assert_null(uvio_driver_object_name(14, MLX5_IB_OBJECT_UAR));
	assert_string_equal(uvio_driver_object_name(1, UVERBS_OBJECT_CQ), "CQ");
	assert_string_equal(uvio_driver_method_name(1, UVERBS_OBJECT_DEVICE, 0x1000),
			    "MLX5_QUERY_PORT");
	assert_string_equal(uvio_driver_method_name(1, UVERBS_OBJECT_DEVICE,
						    UVERBS_METHOD_QUERY_PORT), "QUERY_PORT");
	assert_string_equal(uvio_driver_method_name(1, MLX5_IB_OBJECT_DEVX,
						    MLX5_IB_METHOD_DEVX_QUERY_EQN), "QUERY_EQN");
	assert_int_equal(uvio_driver_describe_attr(1, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC,
						   MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, &d), 0);
	assert_string_equal(d.name, "TYPE");
	assert_int_equal(d.kind, UVIO_KIND_PTR_IN);
	assert_string_equal(d.type, "mlx5_uar_alloc_type");
	assert_true(d.flags & UVIO_ATTR_DRIVER);
	assert_int_equal(uvio_driver_describe_attr(1, MLX5_IB_OBJECT_UAR, MLX5_IB_METHOD_UAR_OBJ_ALLOC,
						   MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, &d), 0);
	assert_int_equal(d.kind, UVIO_KIND_IDR_NEW);
	assert_int_equal(d.object_id, MLX5_IB_OBJECT_UAR);
	assert_string_equal(d.access, "new");
	assert_int_equal(uvio_driver_describe_attr(1, MLX5_IB_OBJECT_DEVX_OBJ,
						   MLX5_IB_METHOD_DEVX_OBJ_QUERY,
						   MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, &d), 0);
	assert_int_equal(d.object_id, UINT16_MAX);
	/* UHW only where a core method takes it */
	assert_int_equal(uvio_driver_describe_attr(1, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
						   UVERBS_ATTR_UHW_IN, &d), 0);
	assert_string_equal(d.name, "UHW_IN");
	assert_int_equal(uvio_driver_describe_attr(1, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC,
						   0x1000, &d), 0);
	assert_string_equal(d.name, "RESP_START_OFFSET");
	assert_int_equal(uvio_driver_describe_attr(14, UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC,
						   0x1000, &d), -ENOENT);

	/* Every id of the namespace: objects 0x1000-0x100f and the core ones,
	 * methods 0x1000-0x100f, attributes 0x1000-0x103f. */
	for (unsigned int ob = 0; ob < 0x1010; ob = ob == 0x20 ? 0x1000 : ob + 1) {
		bool named = uvio_driver_object_name(1, (uint16_t)ob) != NULL;

		objects += named && ob >= 0x1000;
		for (unsigned int m = 0x1000; named && m < 0x1010; m++) {
			const char *mn = uvio_driver_method_name(1, (uint16_t)ob, (uint16_t)m);

			if (!mn)
				continue;
			methods++;
			assert_true(mn[0]);
			for (unsigned int at = 0x1000; at < 0x1040; at++) {
				if (uvio_driver_describe_attr(1, (uint16_t)ob, (uint16_t)m,
							      (uint16_t)at, &d))
					continue;
				attrs++;
				if (!d.name || !d.name[0] || !d.type || !d.kind ||
				    d.min_len > d.max_len || !(d.flags & UVIO_ATTR_DRIVER))
					fail_msg("object 0x%x method 0x%x attr 0x%x: %s", ob, m, at,
						 d.name ? d.name : "(no name)");
				if ((d.kind == UVIO_KIND_IDR || d.kind == UVIO_KIND_IDR_NEW ||
				     d.kind == UVIO_KIND_FD || d.kind == UVIO_KIND_FD_NEW) &&
				    d.object_id != UINT16_MAX &&
				    !uvio_driver_object_name(1, d.object_id) && d.access)
					fail_msg("attr 0x%x of 0x%x/0x%x names object 0x%x", at, ob, m,
						 d.object_id);
			}
		}
	}
	/* 10 objects; their 23 methods and the 9 of core objects */
	assert_int_equal(objects, 10);
	assert_int_equal(methods, 32);
	assert_true(attrs >= 90);
}

/* A built command's pointers are followed in this process, safely. */
/* QUERY_GID_TABLE after the call: only the entries the kernel counted are
 * its answer; the other slots hold what the caller left there. */
static void gid_table_counted(void **state)
{
	struct ib_uverbs_gid_entry slots[4];
	uint64_t filled = 2;
	uint64_t buf[32];
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .flags = UVIO_DECODE_AFTER };
	(void)state;

	memset(slots, 0, sizeof(slots));
	memset(&slots[2], 0xab, 2 * sizeof(slots[0]));	/* the caller's garbage */
	slots[0].gid[0] = 0x80fe;
	slots[1].gid_index = 1;
	{
		UVIO_CMD_DEFINE(cmd, 4, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE);
		uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(slots[0]));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, slots, sizeof(slots));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &filled,
				 sizeof(filled));
		assert_int_equal(uvio_cmd_finish(&cmd), 24 + 3 * 16);
		memcpy(buf, cmd.hdr, 24 + 3 * 16);
	}
	memset(regions, 0, sizeof(regions));
	regions[0] = (struct region){ slots, sizeof(slots) };
	regions[1] = (struct region){ &filled, sizeof(filled) };
	assert_true(uvio_decode_cmd(buf, 24 + 3 * 16, &o, text, sizeof(text)) > 0);
	assert_has("gid_index = 1");
	assert_has("(2 of 4 slots filled)");
	assert_null(strstr(text, "abab"));
	/* Without the count (not readable), every slot is shown. */
	regions[1].at = NULL;
	assert_true(uvio_decode_cmd(buf, 24 + 3 * 16, &o, text, sizeof(text)) > 0);
	assert_null(strstr(text, "slots filled"));
	assert_non_null(strstr(text, "abab"));
	memset(regions, 0, sizeof(regions));
}

static void own_memory(void **state)
{
	uint32_t resp = 31;
	struct ib_uverbs_qp_cap cap = { 4, 4, 1, 1, 0 };
	(void)state;

	UVIO_CMD_DEFINE(cmd, 4, UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE);
	uvio_put_ptr_in(&cmd, UVERBS_ATTR_CREATE_QP_CAP, &cap, sizeof(cap));
	uvio_put_ptr_in(&cmd, UVERBS_ATTR_CREATE_QP_USER_HANDLE, NULL, 0);
	/* a pointer no process has: shown, not followed (the kernel: EFAULT) */
	uvio_put_ptr_in(&cmd, UVIO_DRIVER_ATTR(0), (const void *)(uintptr_t)8, 64);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &resp, sizeof(resp));
	assert_true(uvio_cmd_format(&cmd, text, sizeof(text)) > 0);
	assert_has("CAP              ptr-in  len 20 mandatory ptr 0x");
	assert_has(" = {max_send_wr = 4, max_recv_wr = 4, max_send_sge = 1, max_recv_sge = 1, "
		   "max_inline_data = 0}\n");
	assert_has("UHW_IN           ptr-in  len 64 mandatory ptr 0x8\n");
	/* not run yet: the output has no value */
	assert_has("RESP_QP_NUM      ptr-out len 4 mandatory ptr 0x");
	assert_null(strstr(text, " = 31"));
	cmd.state = UVIO_CMD_SUCCEEDED;
	assert_true(uvio_cmd_format(&cmd, text, sizeof(text)) > 0);
	assert_has(" = 31");
}

/* Every method and attribute the tables know decodes by name. */
static void every_name_decodes(void **state)
{
	uint16_t obj, meth, id;
	unsigned int methods = 0, attrs = 0;
	(void)state;

	for (unsigned int i = 0; !uvio_known_method(i, &obj, &meth); i++, methods++) {
		uint64_t buf[(24 + 40 * 16) / 8];
		struct ib_uverbs_ioctl_hdr *h = (void *)buf;
		struct ib_uverbs_attr *a = (void *)(h + 1);
		unsigned int n = 0;
		char want[128];

		memset(buf, 0, sizeof(buf));
		while (!uvio_known_attr(obj, meth, n, &id) && n < 40)
			a[n++].attr_id = id;
		h->object_id = obj;
		h->method_id = meth;
		h->num_attrs = (uint16_t)n;
		h->length = (uint16_t)(24 + 16 * n);
		assert_true(uvio_decode(buf, 24 + 16 * n, UVIO_LAYOUT_CURRENT, text, sizeof(text)) > 0);
		snprintf(want, sizeof(want), "%s.%s (object %u, method %u)", uvio_object_name(obj),
			 uvio_method_name(obj, meth), obj, meth);
		assert_has(want);
		for (unsigned int k = 0; k < n; k++) {
			snprintf(want, sizeof(want), "[%u] 0x%04x %-16s ", k, a[k].attr_id,
				 uvio_attr_name(obj, meth, a[k].attr_id));
			assert_has(want);
			attrs++;
		}
		assert_null(strstr(text, " ?  "));
		assert_null(strstr(text, "missing mandatory"));
	}
	assert_true(methods >= 40);
	assert_true(attrs >= 160);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(uvio_object_name(UVERBS_OBJECT_ASYNC_EVENT), "ASYNC_EVENT");
	assert_null(uvio_object_name(0x3ff));
	assert_string_equal(uvio_method_name(UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT), "GET_CONTEXT");
	assert_null(uvio_method_name(UVERBS_OBJECT_CQ, 9));
	assert_string_equal(uvio_attr_name(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, 1), "RESP");
	assert_string_equal(uvio_attr_name(0x3ff, 0, UVERBS_ATTR_UHW_IN), "UHW_IN");
	assert_null(uvio_attr_name(UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, 2));
	assert_string_equal(uvio_kind_name(UVIO_KIND_IDRS), "idrs");
	assert_null(uvio_kind_name((enum uvio_attr_kind)0));
}

static void unbuilt_command(void **state)
{
	(void)state;
	UVIO_CMD_DEFINE(cmd, 1, 1, 0);
	uvio_put_u32(&cmd, 1, 1);
	uvio_put_u32(&cmd, 2, 1);
	assert_true(uvio_cmd_format(&cmd, text, sizeof(text)) > 0);
	assert_has("unbuilt command: more attributes than the command buffer holds (attr 0x0002)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cq_create_in_words),
		cmocka_unit_test(layout_2017_and_oddities),
		cmocka_unit_test(survives_anything),
		cmocka_unit_test(names),
		cmocka_unit_test(unbuilt_command),
		cmocka_unit_test(write_commands),
		cmocka_unit_test(write_arrays),
		cmocka_unit_test(invoke_write),
		cmocka_unit_test(typed_values),
		cmocka_unit_test(every_name_decodes),
		cmocka_unit_test(gid_table_counted),
		cmocka_unit_test(own_memory),
		cmocka_unit_test(driver_object_no_uhw),
		cmocka_unit_test(mlx5_ioctl),
		cmocka_unit_test(mlx5_invoke_write),
		cmocka_unit_test(mlx5_write),
		cmocka_unit_test(mlx5_names),
		cmocka_unit_test(rxe_siw_data),
		cmocka_unit_test(mthca_cxgb4_mlx4_data),
		cmocka_unit_test(ocrdma_qedr_pvrdma_data),
		cmocka_unit_test(bnxt_efa_hns_data),
		cmocka_unit_test(irdma_erdma_mana_data),
		cmocka_unit_test(bnxt_efa_namespaces),
		cmocka_unit_test(ionic_data),
		cmocka_unit_test(every_driver_has_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
