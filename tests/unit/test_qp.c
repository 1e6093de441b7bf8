/*
 * Byte-exact encodings of the QP, data-path and event verbs against a
 * stand-in kernel: the write() commands with both headers, INVOKE_WRITE's
 * attributes, the QP/CREATE method's attributes, and the cases a real
 * kernel does not show on rxe or siw (an extended create that succeeds, a
 * POLL_CQ with completions, a kernel that answers more than asked).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <uvio.h>
#include "wrap.h"
#include "fake_sysfs.h"

/* write() is the stand-in kernel's; pipes need the real one. */
ssize_t __real_write(int fd, const void *buf, size_t len);

/* What the stand-in kernel saw last. */
static uint8_t wbuf[8192];
static size_t wlen;
static int write_answer;			/* errno for write() */
static int create_enoproto;			/* QP/CREATE unknown on ioctl */
static struct ib_uverbs_attr iattrs[32];	/* attributes of the last ioctl */
static unsigned int n_iattrs;
static uint16_t iobject, imethod;
static struct ib_uverbs_qp_cap icap;		/* QP/CREATE's CAP, read in the call */
/* What it answers: written to the response buffer, len bytes. */
static uint8_t answer[4096];
static size_t answer_len;

static const struct ib_uverbs_attr *iattr(uint16_t id)
{
	for (unsigned int i = 0; i < n_iattrs; i++)
		if (iattrs[i].attr_id == id)
			return &iattrs[i];
	return NULL;
}

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;
	(void)request;

	iobject = hdr->object_id;
	imethod = hdr->method_id;
	n_iattrs = hdr->num_attrs < 32 ? hdr->num_attrs : 32;
	memcpy(iattrs, hdr->attrs, n_iattrs * sizeof(iattrs[0]));
	if (create_enoproto && iobject == UVERBS_OBJECT_QP && imethod == UVERBS_METHOD_QP_CREATE)
		return EPROTONOSUPPORT;
	if (iobject == UVERBS_OBJECT_DEVICE && imethod == UVERBS_METHOD_INVOKE_WRITE) {
		const struct ib_uverbs_attr *out = iattr(UVERBS_ATTR_CORE_OUT);
		const struct ib_uverbs_attr *in = iattr(UVERBS_ATTR_CORE_IN);

		if (in && in->len > 8)
			memcpy(wbuf, (void *)(uintptr_t)in->data, in->len);
		else if (in)
			memcpy(wbuf, &in->data, in->len);
		wlen = in ? in->len : 0;
		if (out && answer_len)
			memcpy((void *)(uintptr_t)out->data, answer,
			       answer_len < out->len ? answer_len : out->len);
		return write_answer;
	}
	if (iobject == UVERBS_OBJECT_QP && imethod == UVERBS_METHOD_QP_CREATE) {
		for (unsigned int i = 0; i < hdr->num_attrs; i++) {
			struct ib_uverbs_attr *a = &hdr->attrs[i];

			if (a->attr_id == UVERBS_ATTR_CREATE_QP_HANDLE)
				a->data = 11;
			if (a->attr_id == UVERBS_ATTR_CREATE_QP_CAP && a->len == sizeof(icap))
				icap = *(const struct ib_uverbs_qp_cap *)(uintptr_t)a->data;
			if (a->attr_id == UVERBS_ATTR_CREATE_QP_RESP_QP_NUM)
				*(uint32_t *)(uintptr_t)a->data = 0x1234;
			if (a->attr_id == UVERBS_ATTR_CREATE_QP_RESP_CAP)
				*(struct ib_uverbs_qp_cap *)(uintptr_t)a->data =
					(struct ib_uverbs_qp_cap){ 31, 32, 2, 3, 64 };
		}
		return 0;
	}
	return 0;
}

/* write(): keep the bytes, answer at the response address the command
 * names: the u64 after the header, the core's first field for plain
 * commands and the extended header's first for extended ones. */
static ssize_t kernel_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	uint64_t at;

	assert_true(len <= sizeof(wbuf));
	memcpy(wbuf, buf, len);
	wlen = len;
	memcpy(&at, (const uint8_t *)buf + sizeof(*h), sizeof(at));
	if (at && answer_len && h->out_words)
		memcpy((void *)(uintptr_t)at, answer, answer_len);
	return write_answer ? -write_answer : (ssize_t)len;
}

/* A device of a driver whose queues the kernel commands reach (the
 * data-path commands' encodings are the same for every driver). */
#define KERNEL_QUEUES RDMA_DRIVER_MLX5

static struct uvio_device *fresh_driver(enum uvio_path pin, uint32_t driver_id)
{
	struct uvio_device *dev;

	fake_reset();
	fake.on_ioctl = kernel_ioctl;
	fake.on_write = kernel_write;
	write_answer = 0;
	create_enoproto = 0;
	answer_len = 0;
	memset(wbuf, 0, sizeof(wbuf));
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), driver_id, &dev), 0);
	if (pin != UVIO_PATH_AUTO)
		assert_int_equal(uvio_device_set_path(dev, pin), 0);
	return dev;
}

static struct uvio_device *fresh(enum uvio_path pin)
{
	return fresh_driver(pin, RDMA_DRIVER_RXE);
}

static void set_answer(const void *p, size_t len)
{
	memcpy(answer, p, len);
	answer_len = len;
}

static const struct ib_uverbs_cmd_hdr *hdr(void)
{
	return (const void *)wbuf;
}

#define CORE(type) ((const type *)(wbuf + sizeof(struct ib_uverbs_cmd_hdr)))
#define EX_CORE(type)                                                           \
	((const type *)(wbuf + sizeof(struct ib_uverbs_cmd_hdr) +               \
			sizeof(struct ib_uverbs_ex_cmd_hdr)))

static struct uvio_qp_init_attr rc_attr(void)
{
	UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .user_handle = 0xabcdef,
		  .pd_handle = 1, .send_cq_handle = 2, .recv_cq_handle = 3,
		  .cap = { 16, 17, 1, 2, 0 });
	return a;
}

static void create_plain_write(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct uvio_qp_init_attr a = rc_attr();
	struct ib_uverbs_create_qp_resp r = { .qp_handle = 5, .qpn = 0x77, .max_send_wr = 31,
					      .max_recv_wr = 32, .max_send_sge = 1,
					      .max_recv_sge = 2, .max_inline_data = 0 };
	UVIO_OPTS(uvio_qp, qp);
	enum uvio_path p;
	(void)state;

	a.create_flags = IB_UVERBS_QP_CREATE_SQ_SIG_ALL;	/* the plain byte */
	a.fields = UVIO_QP_INIT_SRQ;
	a.srq_handle = 9;
	set_answer(&r, sizeof(r));
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(fake.write_calls, 1);
	assert_int_equal(fake.ioctl_calls, 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_CREATE_QP);
	/* header + 56-byte core; 32-byte response + 64 bytes for the driver */
	assert_int_equal(hdr()->in_words, (8 + 56) / 4);
	assert_int_equal(hdr()->out_words, (32 + 64) / 4);
	assert_int_equal(wlen, 8 + 56);
	const struct ib_uverbs_create_qp *c = CORE(struct ib_uverbs_create_qp);
	assert_true(c->response != 0);
	assert_int_equal(c->user_handle, 0xabcdef);
	assert_int_equal(c->pd_handle, 1);
	assert_int_equal(c->send_cq_handle, 2);
	assert_int_equal(c->recv_cq_handle, 3);
	assert_int_equal(c->srq_handle, 9);
	assert_int_equal(c->is_srq, 1);
	assert_int_equal(c->max_send_wr, 16);
	assert_int_equal(c->max_recv_wr, 17);
	assert_int_equal(c->max_send_sge, 1);
	assert_int_equal(c->max_recv_sge, 2);
	assert_int_equal(c->sq_sig_all, 1);
	assert_int_equal(c->qp_type, IB_UVERBS_QPT_RC);
	assert_int_equal(c->reserved, 0);
	assert_int_equal(qp.handle, 5);
	assert_int_equal(qp.qp_num, 0x77);
	assert_int_equal(qp.cap.max_send_wr, 31);
	assert_int_equal(qp.cap.max_recv_sge, 2);
	uvio_device_close(dev);
}

static void create_ex_write(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct uvio_qp_init_attr a = rc_attr();
	UVIO_OPTS(uvio_qp, qp);
	(void)state;

	a.type = IB_UVERBS_QPT_UD;
	a.create_flags = IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |
			 IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	a.fields = UVIO_QP_INIT_SOURCE_QPN;
	a.source_qpn = 1;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_int_equal(hdr()->command,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP);
	/* extended: 8-byte words without the headers */
	assert_int_equal(hdr()->in_words, 64 / 8);
	assert_int_equal(hdr()->out_words, 40 / 8);
	const struct ib_uverbs_ex_cmd_hdr *ex = (const void *)(wbuf + 8);
	assert_true(ex->response != 0);
	assert_int_equal(ex->provider_in_words, 0);
	assert_int_equal(ex->provider_out_words, 64 / 8);
	assert_int_equal(ex->cmd_hdr_reserved, 0);
	assert_int_equal(wlen, 8 + 16 + 64);
	const struct ib_uverbs_ex_create_qp *c = EX_CORE(struct ib_uverbs_ex_create_qp);
	assert_int_equal(c->user_handle, 0xabcdef);
	assert_int_equal(c->qp_type, IB_UVERBS_QPT_UD);
	assert_int_equal(c->sq_sig_all, 1);
	/* BLOCK_MULTICAST_LOOPBACK and the kernel's SOURCE_QPN flag (1 << 10) */
	assert_int_equal(c->create_flags, (1u << 1) | (1u << 10));
	assert_int_equal(c->source_qpn, 1);
	assert_int_equal(c->comp_mask, 0);
	assert_int_equal(c->reserved, 0);
	/* An indirection table: the extended command's comp_mask. */
	a = rc_attr();
	a.fields = UVIO_QP_INIT_IND_TABLE;
	a.ind_table_handle = 4;
	a.cap.max_recv_wr = 0;
	a.cap.max_recv_sge = 0;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	c = EX_CORE(struct ib_uverbs_ex_create_qp);
	assert_int_equal(c->comp_mask, IB_UVERBS_CREATE_QP_MASK_IND_TABLE);
	assert_int_equal(c->rwq_ind_tbl_handle, 4);
	assert_int_equal(c->create_flags, 0);
	uvio_device_close(dev);
}

static void create_ex_answer(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct uvio_qp_init_attr a = rc_attr();
	struct ib_uverbs_ex_create_qp_resp r = {
		.base = { .qp_handle = 6, .qpn = 0x88, .max_send_wr = 8, .max_inline_data = 4 },
		.response_length = sizeof(r),
	};
	/* An old caller that knows only the handle and the QPN. */
	struct uvio_qp old;
	(void)state;

	memset(&old, 0x5a, sizeof(old));
	old.sz = offsetof(struct uvio_qp, cap);
	set_answer(&r, sizeof(r));
	a.create_flags = IB_UVERBS_QP_CREATE_SCATTER_FCS;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &old, NULL), 0);
	assert_int_equal(old.handle, 6);
	assert_int_equal(old.qp_num, 0x88);
	assert_int_equal(old.cap.max_send_wr, 0x5a5a5a5a);	/* past its sz */
	uvio_device_close(dev);
}

static void create_invoke_write(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_AUTO);
	struct uvio_qp_init_attr a = rc_attr();
	UVIO_OPTS(uvio_qp, qp);
	enum uvio_path p;
	const struct ib_uverbs_attr *w, *in, *out;
	(void)state;

	/* A kernel without QP/CREATE: the verb moves to INVOKE_WRITE. */
	create_enoproto = 1;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(fake.ioctl_calls, 2);
	assert_int_equal(fake.write_calls, 0);
	w = iattr(UVERBS_ATTR_WRITE_CMD);
	in = iattr(UVERBS_ATTR_CORE_IN);
	out = iattr(UVERBS_ATTR_CORE_OUT);
	assert_non_null(w);
	assert_non_null(in);
	assert_non_null(out);
	assert_int_equal(w->data, IB_USER_VERBS_CMD_CREATE_QP);
	assert_int_equal(in->len, 56);
	assert_int_equal(out->len, 32);
	/* The response address means nothing here: zero. */
	assert_int_equal(((const struct ib_uverbs_create_qp *)wbuf)->response, 0);
	assert_int_equal(((const struct ib_uverbs_create_qp *)wbuf)->recv_cq_handle, 3);
	assert_non_null(iattr(UVERBS_ATTR_UHW_OUT));

	/* Extended: the command carries the extended flag, or the kernel
	 * would look up the plain command of the same number. */
	a.create_flags = IB_UVERBS_QP_CREATE_SCATTER_FCS;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(fake.ioctl_calls, 3);	/* the method is known missing */
	w = iattr(UVERBS_ATTR_WRITE_CMD);
	in = iattr(UVERBS_ATTR_CORE_IN);
	out = iattr(UVERBS_ATTR_CORE_OUT);
	assert_int_equal(w->data,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP);
	assert_int_equal(in->len, 64);
	assert_int_equal(out->len, 40);
	assert_int_equal(((const struct ib_uverbs_ex_create_qp *)wbuf)->create_flags,
			 IB_UVERBS_QP_CREATE_SCATTER_FCS);
	uvio_device_close(dev);
}

static void create_method(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_AUTO);
	struct uvio_qp_init_attr a = rc_attr();
	UVIO_OPTS(uvio_qp, qp);
	const struct ib_uverbs_attr *x;
	int efd = 42;
	(void)state;

	a.create_flags = IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	a.fields = UVIO_QP_INIT_SOURCE_QPN | UVIO_QP_INIT_SRQ;
	a.source_qpn = 1;
	a.srq_handle = 0;		/* handle 0 named by its bit */
	a.event_fd = &efd;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_int_equal(iobject, UVERBS_OBJECT_QP);
	assert_int_equal(imethod, UVERBS_METHOD_QP_CREATE);
	assert_int_equal(qp.handle, 11);
	assert_int_equal(qp.qp_num, 0x1234);
	assert_int_equal(qp.cap.max_send_wr, 31);
	assert_int_equal(qp.cap.max_inline_data, 64);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_PD_HANDLE)->data, 1);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE)->data, 2);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE)->data, 3);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE)->data, 0);
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE));
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_USER_HANDLE)->data, 0xabcdef);
	x = iattr(UVERBS_ATTR_CREATE_QP_CAP);
	assert_int_equal(x->len, sizeof(struct ib_uverbs_qp_cap));
	assert_int_equal(icap.max_recv_wr, 17);
	assert_int_equal(icap.max_send_sge, 1);
	x = iattr(UVERBS_ATTR_CREATE_QP_TYPE);
	assert_int_equal(x->len, 8);
	assert_int_equal(x->data, IB_UVERBS_QPT_RC);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_FLAGS)->data, IB_UVERBS_QP_CREATE_SQ_SIG_ALL);
	x = iattr(UVERBS_ATTR_CREATE_QP_SOURCE_QPN);
	assert_int_equal(x->len, 4);
	assert_int_equal(x->data, 1);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_EVENT_FD)->data, 42);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_RESP_CAP)->len, 20);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM)->len, 4);
	for (unsigned int i = 0; i < n_iattrs; i++)
		assert_true(iattrs[i].flags & UVERBS_ATTR_F_MANDATORY);

	/* XRC_TGT names its domain, no PD, no CQs. */
	a = rc_attr();
	a.type = IB_UVERBS_QPT_XRC_TGT;
	a.xrcd_handle = 8;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_int_equal(iattr(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE)->data, 8);
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_PD_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_FLAGS));
	/* An indirection table and no send queue: no CQs at all. */
	a = rc_attr();
	a.fields = UVIO_QP_INIT_IND_TABLE;
	a.cap = (struct ib_uverbs_qp_cap){ 0 };
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_non_null(iattr(UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE));
	/* XRC_INI: a send CQ only. */
	a = rc_attr();
	a.type = IB_UVERBS_QPT_XRC_INI;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), 0);
	assert_non_null(iattr(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE));
	assert_null(iattr(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE));

	/* write() cannot name an event fd: refused, not dropped. */
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_WRITE), 0);
	a = rc_attr();
	a.event_fd = &efd;
	assert_int_equal(uvio_create_qp(dev, &a, NULL, &qp, NULL), -EOPNOTSUPP);
	uvio_device_close(dev);
}

static void modify_encodings(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	UVIO_OPTS(uvio_qp_attr, a, .attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_DEST_QPN |
					       UVIO_QP_PATH_MTU | UVIO_QP_RQ_PSN,
		  .qp_state = UVIO_QPS_RTR, .path_mtu = UVIO_MTU_1024, .dest_qp_num = 0x55,
		  .rq_psn = 0x1234, .ah = { .flow_label = 7, .dlid = 3, .sgid_index = 1,
					    .hop_limit = 64, .traffic_class = 2, .sl = 4,
					    .is_global = 1, .port_num = 1 });
	uint64_t drv_in = 0x1122334455667788ull;
	(void)state;

	a.ah.dgid[15] = 0x99;
	assert_int_equal(uvio_modify_qp(dev, 12, &a, NULL, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_MODIFY_QP);
	assert_int_equal(hdr()->in_words, (8 + 112) / 4);
	assert_int_equal(hdr()->out_words, 0);
	const struct ib_uverbs_modify_qp *c = CORE(struct ib_uverbs_modify_qp);
	assert_int_equal(c->qp_handle, 12);
	assert_int_equal(c->attr_mask, a.attr_mask);
	assert_int_equal(c->qp_state, UVIO_QPS_RTR);
	assert_int_equal(c->path_mtu, UVIO_MTU_1024);
	assert_int_equal(c->dest_qp_num, 0x55);
	assert_int_equal(c->rq_psn, 0x1234);
	assert_int_equal(c->dest.dgid[15], 0x99);
	assert_int_equal(c->dest.flow_label, 7);
	assert_int_equal(c->dest.dlid, 3);
	assert_int_equal(c->dest.sgid_index, 1);
	assert_int_equal(c->dest.hop_limit, 64);
	assert_int_equal(c->dest.traffic_class, 2);
	assert_int_equal(c->dest.sl, 4);
	assert_int_equal(c->dest.is_global, 1);
	assert_int_equal(c->dest.port_num, 1);
	assert_int_equal(c->dest.reserved, 0);

	/* The extended attribute: EX_MODIFY_QP with rate_limit after base. */
	a.attr_mask = UVIO_QP_RATE_LIMIT;
	a.rate_limit = 1000;
	assert_int_equal(uvio_modify_qp(dev, 12, &a, NULL, NULL), 0);
	assert_int_equal(hdr()->command,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP);
	assert_int_equal(hdr()->in_words, 120 / 8);
	assert_int_equal(hdr()->out_words, 8 / 8);
	const struct ib_uverbs_ex_modify_qp *e = EX_CORE(struct ib_uverbs_ex_modify_qp);
	assert_int_equal(e->base.attr_mask, UVIO_QP_RATE_LIMIT);
	assert_int_equal(e->rate_limit, 1000);
	assert_int_equal(e->reserved, 0);

	/* Driver data, too, needs the extended command. */
	a.attr_mask = UVIO_QP_STATE;
	UVIO_OPTS(uvio_drv, d, .in = &drv_in, .in_len = sizeof(drv_in));
	assert_int_equal(uvio_modify_qp(dev, 12, &a, &d, NULL), 0);
	assert_int_equal(hdr()->command,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP);
	const struct ib_uverbs_ex_cmd_hdr *ex = (const void *)(wbuf + 8);
	assert_int_equal(ex->provider_in_words, 1);
	assert_memory_equal(wbuf + 8 + 16 + 120, &drv_in, 8);

	/* Over INVOKE_WRITE, with the flag. */
	uvio_device_close(dev);
	dev = fresh(UVIO_PATH_AUTO);
	a.attr_mask = UVIO_QP_RATE_LIMIT;
	enum uvio_path p;
	assert_int_equal(uvio_modify_qp(dev, 12, &a, NULL, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(iattr(UVERBS_ATTR_WRITE_CMD)->data,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP);
	assert_int_equal(iattr(UVERBS_ATTR_CORE_IN)->len, 120);
	a.attr_mask = UVIO_QP_STATE;
	assert_int_equal(uvio_modify_qp(dev, 12, &a, NULL, &p), 0);
	assert_int_equal(iattr(UVERBS_ATTR_WRITE_CMD)->data, IB_USER_VERBS_CMD_MODIFY_QP);
	assert_int_equal(iattr(UVERBS_ATTR_CORE_IN)->len, 112);
	assert_null(iattr(UVERBS_ATTR_CORE_OUT));
	uvio_device_close(dev);
}

static void query_decoding(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct ib_uverbs_query_qp_resp r = {
		.dest = { .dgid = { [0] = 0xfe }, .flow_label = 9, .dlid = 2, .sgid_index = 1,
			  .hop_limit = 3, .traffic_class = 4, .sl = 5, .is_global = 1,
			  .port_num = 1 },
		.max_send_wr = 10, .max_recv_wr = 11, .max_send_sge = 12, .max_recv_sge = 13,
		.max_inline_data = 14, .qkey = 15, .rq_psn = 16, .sq_psn = 17,
		.dest_qp_num = 18, .qp_access_flags = 19, .pkey_index = 20,
		.alt_pkey_index = 21, .qp_state = 3, .cur_qp_state = 3, .path_mtu = 3,
		.path_mig_state = 1, .sq_draining = 1, .max_rd_atomic = 22,
		.max_dest_rd_atomic = 23, .min_rnr_timer = 24, .port_num = 1, .timeout = 25,
		.retry_cnt = 6, .rnr_retry = 7, .alt_port_num = 1, .alt_timeout = 26,
		.sq_sig_all = 1,
	};
	UVIO_OPTS(uvio_qp_attr, q);
	struct uvio_qp_attr old;
	(void)state;

	set_answer(&r, sizeof(r));
	assert_int_equal(uvio_query_qp(dev, 13, UVIO_QP_STATE, &q, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_QUERY_QP);
	assert_int_equal(hdr()->in_words, (8 + 16) / 4);
	assert_int_equal(hdr()->out_words, 128 / 4);
	assert_int_equal(CORE(struct ib_uverbs_query_qp)->qp_handle, 13);
	assert_int_equal(CORE(struct ib_uverbs_query_qp)->attr_mask, UVIO_QP_STATE);
	assert_int_equal(q.qp_state, 3);
	assert_int_equal(q.cur_qp_state, 3);
	assert_int_equal(q.path_mtu, 3);
	assert_int_equal(q.path_mig_state, 1);
	assert_int_equal(q.qkey, 15);
	assert_int_equal(q.rq_psn, 16);
	assert_int_equal(q.sq_psn, 17);
	assert_int_equal(q.dest_qp_num, 18);
	assert_int_equal(q.qp_access_flags, 19);
	assert_int_equal(q.pkey_index, 20);
	assert_int_equal(q.alt_pkey_index, 21);
	assert_int_equal(q.sq_draining, 1);
	assert_int_equal(q.max_rd_atomic, 22);
	assert_int_equal(q.max_dest_rd_atomic, 23);
	assert_int_equal(q.min_rnr_timer, 24);
	assert_int_equal(q.timeout, 25);
	assert_int_equal(q.retry_cnt, 6);
	assert_int_equal(q.rnr_retry, 7);
	assert_int_equal(q.alt_timeout, 26);
	assert_int_equal(q.sq_sig_all, 1);
	assert_int_equal(q.ah.dgid[0], 0xfe);
	assert_int_equal(q.ah.flow_label, 9);
	assert_int_equal(q.ah.dlid, 2);
	assert_int_equal(q.ah.hop_limit, 3);
	assert_int_equal(q.ah.traffic_class, 4);
	assert_int_equal(q.ah.sl, 5);
	assert_int_equal(q.ah.is_global, 1);
	assert_int_equal(q.cap.max_send_wr, 10);
	assert_int_equal(q.cap.max_inline_data, 14);
	assert_int_equal(q.sz, sizeof(q));

	/* A struct of junk: every field written, those the query does not
	 * answer zero. A newer caller's larger one: its sz kept, nothing past
	 * this library's struct written. */
	{
		struct {
			struct uvio_qp_attr a;
			uint32_t later;
		} big;

		memset(&q, 0x5a, sizeof(q));
		q.sz = sizeof(q);
		assert_int_equal(uvio_query_qp(dev, 13, 0, &q, NULL), 0);
		assert_int_equal(q.qp_state, 3);
		assert_int_equal(q.en_sqd_async_notify, 0);
		assert_int_equal(q.rate_limit, 0);
		assert_int_equal(q.reserved, 0);
		assert_int_equal(q.alt_ah.dlid, 0);
		assert_int_equal(q.sz, sizeof(q));
		memset(&big, 0x5a, sizeof(big));
		big.a.sz = sizeof(big);
		assert_int_equal(uvio_query_qp(dev, 13, 0, &big.a, NULL), 0);
		assert_int_equal(big.a.sz, sizeof(big));
		assert_int_equal(big.a.sq_sig_all, 1);
		assert_int_equal(big.a.rate_limit, 0);
		assert_int_equal(big.later, 0x5a5a5a5a);
	}

	/* An old caller's struct: nothing written past its sz. */
	memset(&old, 0x5a, sizeof(old));
	old.sz = offsetof(struct uvio_qp_attr, qkey);
	assert_int_equal(uvio_query_qp(dev, 13, 0, &old, NULL), 0);
	assert_int_equal(old.qp_state, 3);
	assert_int_equal(old.sz, offsetof(struct uvio_qp_attr, qkey));
	assert_int_equal(old.qkey, 0x5a5a5a5a);
	assert_int_equal(old.rate_limit, 0x5a5a5a5a);
	/* Too short to hold the state: refused before any syscall. */
	old.sz = sizeof(size_t);
	fake.write_calls = 0;
	assert_int_equal(uvio_query_qp(dev, 13, 0, &old, NULL), -EINVAL);
	assert_int_equal(fake.write_calls, 0);
	uvio_device_close(dev);
}

static void destroy_open_mcast(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct ib_uverbs_destroy_qp_resp r = { .events_reported = 3 };
	struct ib_uverbs_create_qp_resp or = { .qp_handle = 4, .qpn = 0x66 };
	UVIO_OPTS(uvio_events_reported, ev, .comp_events_reported = 9, .async_events_reported = 9);
	UVIO_OPTS(uvio_open_qp_attr, oa, .user_handle = 5, .xrcd_handle = 2, .qp_num = 0x66,
		  .type = IB_UVERBS_QPT_XRC_TGT);
	UVIO_OPTS(uvio_qp, qp);
	const uint8_t gid[16] = { 0xff, 0x0e, [15] = 0x2a };
	(void)state;

	set_answer(&r, sizeof(r));
	assert_int_equal(uvio_destroy_qp(dev, 14, &ev, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_DESTROY_QP);
	assert_int_equal(hdr()->in_words, (8 + 16) / 4);
	assert_int_equal(hdr()->out_words, 1);
	assert_int_equal(CORE(struct ib_uverbs_destroy_qp)->qp_handle, 14);
	assert_int_equal(ev.async_events_reported, 3);
	assert_int_equal(ev.comp_events_reported, 0);

	set_answer(&or, sizeof(or));
	assert_int_equal(uvio_open_qp(dev, &oa, NULL, &qp, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_OPEN_QP);
	assert_int_equal(hdr()->in_words, (8 + 32) / 4);
	assert_int_equal(hdr()->out_words, (32 + 64) / 4);
	const struct ib_uverbs_open_qp *o = CORE(struct ib_uverbs_open_qp);
	assert_int_equal(o->user_handle, 5);
	assert_int_equal(o->pd_handle, 2);
	assert_int_equal(o->qpn, 0x66);
	assert_int_equal(o->qp_type, IB_UVERBS_QPT_XRC_TGT);
	assert_int_equal(qp.handle, 4);
	assert_int_equal(qp.qp_num, 0x66);

	answer_len = 0;
	assert_int_equal(uvio_attach_mcast(dev, 15, gid, 0xc001, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_ATTACH_MCAST);
	assert_int_equal(hdr()->in_words, (8 + 24) / 4);
	assert_int_equal(hdr()->out_words, 0);
	const struct ib_uverbs_attach_mcast *m = CORE(struct ib_uverbs_attach_mcast);
	assert_memory_equal(m->gid, gid, 16);
	assert_int_equal(m->qp_handle, 15);
	assert_int_equal(m->mlid, 0xc001);
	assert_int_equal(m->reserved, 0);
	assert_int_equal(uvio_detach_mcast(dev, 15, gid, 0xc001, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_DETACH_MCAST);
	uvio_device_close(dev);
}

static void post_encodings(void **state)
{
	struct uvio_device *dev = fresh_driver(UVIO_PATH_WRITE, KERNEL_QUEUES);
	struct ib_uverbs_send_wr wr[2] = {
		{ .wr_id = 1, .num_sge = 1, .opcode = IB_UVERBS_WR_SEND },
		{ .wr_id = 2, .num_sge = 2, .opcode = IB_UVERBS_WR_RDMA_WRITE,
		  .wr.rdma = { .remote_addr = 0x1000, .rkey = 7 } },
	};
	struct ib_uverbs_sge sge[3] = { { 0x10, 1, 2 }, { 0x20, 3, 4 }, { 0x30, 5, 6 } };
	struct ib_uverbs_recv_wr rwr = { .wr_id = 3, .num_sge = 1 };
	struct ib_uverbs_post_send_resp bad = { .bad_wr = 2 };
	uint32_t bad_wr = 99;
	const struct ib_uverbs_post_send *c = CORE(struct ib_uverbs_post_send);
	(void)state;

	assert_int_equal(uvio_post_send(dev, 16, wr, 2, sge, 3, &bad_wr, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_POST_SEND);
	assert_int_equal(wlen, 8 + 24 + 2 * 56 + 3 * 16);
	assert_int_equal(hdr()->in_words, wlen / 4);
	assert_int_equal(hdr()->out_words, 1);
	assert_true(c->response != 0);
	assert_int_equal(c->qp_handle, 16);
	assert_int_equal(c->wr_count, 2);
	assert_int_equal(c->sge_count, 3);
	assert_int_equal(c->wqe_size, 56);
	assert_memory_equal(wbuf + 8 + 24, wr, sizeof(wr));
	assert_memory_equal(wbuf + 8 + 24 + sizeof(wr), sge, sizeof(sge));
	assert_int_equal(bad_wr, 0);

	/* The doorbell: no WRs, a full wqe_size all the same. */
	assert_int_equal(uvio_post_send(dev, 16, NULL, 0, NULL, 0, NULL, NULL), 0);
	assert_int_equal(wlen, 8 + 24);
	assert_int_equal(c->wr_count, 0);
	assert_int_equal(c->wqe_size, 56);

	/* A failure names the WR, as the kernel writes it with the error. */
	set_answer(&bad, sizeof(bad));
	write_answer = ENOMEM;
	assert_int_equal(uvio_post_send(dev, 16, wr, 2, sge, 3, &bad_wr, NULL), -ENOMEM);
	assert_int_equal(bad_wr, 2);
	write_answer = 0;
	answer_len = 0;

	assert_int_equal(uvio_post_recv(dev, 17, &rwr, 1, sge, 1, &bad_wr, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_POST_RECV);
	assert_int_equal(wlen, 8 + 24 + 16 + 16);
	assert_int_equal(c->wqe_size, 16);
	assert_memory_equal(wbuf + 8 + 24, &rwr, sizeof(rwr));
	assert_int_equal(uvio_post_srq_recv(dev, 18, &rwr, 1, sge, 1, &bad_wr, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_POST_SRQ_RECV);
	assert_int_equal(CORE(struct ib_uverbs_post_srq_recv)->srq_handle, 18);

	/* Over INVOKE_WRITE: the same core, from the response field on. */
	uvio_device_close(dev);
	dev = fresh_driver(UVIO_PATH_AUTO, KERNEL_QUEUES);
	enum uvio_path p;
	assert_int_equal(uvio_post_send(dev, 16, wr, 2, sge, 3, &bad_wr, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(iattr(UVERBS_ATTR_WRITE_CMD)->data, IB_USER_VERBS_CMD_POST_SEND);
	assert_int_equal(iattr(UVERBS_ATTR_CORE_IN)->len, 24 + 2 * 56 + 3 * 16);
	assert_int_equal(iattr(UVERBS_ATTR_CORE_OUT)->len, 4);
	assert_int_equal(((const struct ib_uverbs_post_send *)wbuf)->response, 0);
	assert_int_equal(((const struct ib_uverbs_post_send *)wbuf)->wr_count, 2);
	uvio_device_close(dev);
}

static void notify_and_poll(void **state)
{
	struct uvio_device *dev = fresh_driver(UVIO_PATH_WRITE, KERNEL_QUEUES);
	struct {
		struct ib_uverbs_poll_cq_resp h;
		struct ib_uverbs_wc wc[2];
	} r = { .h = { .count = 2 }, .wc = { { .wr_id = 0x11, .status = 0, .byte_len = 64,
					       .qp_num = 0x21 },
					     { .wr_id = 0x12, .status = 5, .qp_num = 0x21 } } };
	struct ib_uverbs_wc wc[100];
	uint32_t n = 99;
	(void)state;

	assert_int_equal(uvio_req_notify_cq(dev, 19, 7, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	assert_int_equal(hdr()->in_words, (8 + 8) / 4);
	assert_int_equal(hdr()->out_words, 0);
	assert_int_equal(CORE(struct ib_uverbs_req_notify_cq)->cq_handle, 19);
	assert_int_equal(CORE(struct ib_uverbs_req_notify_cq)->solicited_only, 1);

	set_answer(&r, sizeof(r));
	assert_int_equal(uvio_poll_cq(dev, 20, wc, 4, &n, NULL), 0);
	assert_int_equal(hdr()->command, IB_USER_VERBS_CMD_POLL_CQ);
	assert_int_equal(hdr()->in_words, (8 + 16) / 4);
	assert_int_equal(hdr()->out_words, (8 + 4 * sizeof(struct ib_uverbs_wc)) / 4);
	assert_int_equal(sizeof(struct ib_uverbs_wc), 48);
	assert_int_equal(CORE(struct ib_uverbs_poll_cq)->cq_handle, 20);
	assert_int_equal(CORE(struct ib_uverbs_poll_cq)->ne, 4);
	assert_int_equal(n, 2);
	assert_int_equal(wc[0].wr_id, 0x11);
	assert_int_equal(wc[0].byte_len, 64);
	assert_int_equal(wc[1].status, 5);
	/* At most 64 a call. */
	assert_int_equal(uvio_poll_cq(dev, 20, wc, 100, &n, NULL), 0);
	assert_int_equal(CORE(struct ib_uverbs_poll_cq)->ne, UVIO_MAX_POLL_CQ);
	assert_int_equal(hdr()->out_words, (8 + 64 * 48) / 4);
	/* A kernel that claims more than asked is not believed. */
	assert_int_equal(uvio_poll_cq(dev, 20, wc, 1, &n, NULL), -EPROTO);
	assert_int_equal(n, 0);

	/* A disabled command: the error names it. */
	write_answer = EOPNOTSUPP;
	assert_int_equal(uvio_poll_cq(dev, 20, wc, 1, &n, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "does not enable the write() command POLL_CQ"));
	assert_int_equal(uvio_req_notify_cq(dev, 19, 0, NULL), -EOPNOTSUPP);
	assert_non_null(strstr(uvio_last_error(), "REQ_NOTIFY_CQ"));
	uvio_device_close(dev);
}

/*
 * rxe and siw keep their queues in user space: the kernel commands that
 * carry work are refused before any system call, naming the call of
 * <uvio/dp.h> that does it; the doorbell (no WRs) goes through, and so does
 * rxe's REQ_NOTIFY_CQ (siw arms in user space).
 */
static void user_queue_refusals(void **state)
{
	static const uint32_t drivers[] = { RDMA_DRIVER_RXE, RDMA_DRIVER_SIW };
	struct ib_uverbs_send_wr wr = { .wr_id = 1, .num_sge = 1, .opcode = IB_UVERBS_WR_SEND };
	struct ib_uverbs_recv_wr rwr = { .wr_id = 3, .num_sge = 1 };
	struct ib_uverbs_sge sge = { 0x10, 1, 2 };
	struct ib_uverbs_wc wc[4];
	uint32_t n = 9, bad = 9;
	enum uvio_path p = UVIO_PATH_WRITE;
	(void)state;

	for (size_t i = 0; i < 2; i++) {
		struct uvio_device *dev = fresh_driver(UVIO_PATH_AUTO, drivers[i]);
		int calls = fake.ioctl_calls + fake.write_calls;

		assert_int_equal(uvio_post_send(dev, 16, &wr, 1, &sge, 1, &bad, &p), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "uvio_dp_post_send()"));
		assert_int_equal(bad, 0);
		assert_int_equal(p, UVIO_PATH_AUTO);
		assert_int_equal(uvio_post_recv(dev, 17, &rwr, 1, &sge, 1, &bad, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "uvio_dp_post_recv()"));
		assert_int_equal(uvio_post_srq_recv(dev, 18, &rwr, 1, &sge, 1, &bad, NULL),
				 -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "uvio_dp_post_srq_recv()"));
		assert_int_equal(uvio_poll_cq(dev, 20, wc, 4, &n, NULL), -EOPNOTSUPP);
		assert_non_null(strstr(uvio_last_error(), "uvio_dp_poll_cq()"));
		assert_int_equal(n, 0);
		assert_int_equal(fake.ioctl_calls + fake.write_calls, calls);

		assert_int_equal(uvio_post_send(dev, 16, NULL, 0, NULL, 0, &bad, NULL), 0);
		assert_int_equal(fake.ioctl_calls + fake.write_calls, calls + 1);
		if (drivers[i] == RDMA_DRIVER_SIW) {
			assert_int_equal(uvio_req_notify_cq(dev, 19, 0, NULL), -EOPNOTSUPP);
			assert_non_null(strstr(uvio_last_error(), "uvio_dp_arm_cq()"));
			assert_int_equal(fake.ioctl_calls + fake.write_calls, calls + 1);
		} else {
			assert_int_equal(uvio_req_notify_cq(dev, 19, 0, NULL), 0);
			assert_int_equal(fake.ioctl_calls + fake.write_calls, calls + 2);
		}
		uvio_device_close(dev);
	}
}

static void events_decode(void **state)
{
	struct ib_uverbs_async_event_desc d = { .element = 0xaaa, .event_type = 5 };
	struct ib_uverbs_comp_event_desc c = { .cq_handle = 0xc0 };
	UVIO_OPTS(uvio_async_event, ev);
	UVIO_OPTS(uvio_comp_event, ce);
	struct uvio_async_event old;
	int fds[2];
	(void)state;

	assert_int_equal(uvio_decode_async_event(&d, sizeof(d), &ev), 0);
	assert_int_equal(ev.type, UVIO_EVENT_SQ_DRAINED);
	assert_int_equal(ev.element, 0xaaa);
	assert_int_equal(ev.element_kind, UVIO_ELEMENT_QP);
	assert_int_equal(uvio_decode_async_event(&d, sizeof(d) - 1, &ev), -EINVAL);
	assert_int_equal(uvio_decode_comp_event(&c, sizeof(c), &ce), 0);
	assert_int_equal(ce.cq_user_handle, 0xc0);
	assert_string_equal(uvio_event_type_name(UVIO_EVENT_PORT_ACTIVE), "PORT_ACTIVE");
	assert_string_equal(uvio_event_type_name(UVIO_EVENT_DEVICE_SPEED_CHANGE),
			    "DEVICE_SPEED_CHANGE");
	assert_null(uvio_event_type_name(21));
	assert_int_equal(uvio_event_element_kind(UVIO_EVENT_CQ_ERR), UVIO_ELEMENT_CQ);
	assert_int_equal(uvio_event_element_kind(UVIO_EVENT_PORT_ERR), UVIO_ELEMENT_PORT);
	assert_int_equal(uvio_event_element_kind(UVIO_EVENT_SRQ_LIMIT_REACHED), UVIO_ELEMENT_SRQ);
	assert_int_equal(uvio_event_element_kind(UVIO_EVENT_WQ_FATAL), UVIO_ELEMENT_WQ);
	assert_int_equal(uvio_event_element_kind(UVIO_EVENT_DEVICE_FATAL), UVIO_ELEMENT_DEVICE);
	assert_int_equal(uvio_event_element_kind(99), UVIO_ELEMENT_UNKNOWN);

	/* Records from an fd, one per read; non-blocking when empty. */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(__real_write(fds[1], &d, sizeof(d)), (ssize_t)sizeof(d));
	assert_int_equal(uvio_event_fd_set_nonblock(fds[0], true), 0);
	memset(&old, 0x5a, sizeof(old));
	old.sz = offsetof(struct uvio_async_event, type);	/* knows element only */
	assert_int_equal(uvio_get_async_event(fds[0], &old), 0);
	assert_int_equal(old.element, 0xaaa);
	assert_int_equal(old.type, 0x5a5a5a5a);
	assert_int_equal(uvio_get_async_event(fds[0], &ev), -EAGAIN);
	assert_int_equal(__real_write(fds[1], &c, sizeof(c)), (ssize_t)sizeof(c));
	assert_int_equal(uvio_get_comp_event(fds[0], &ce), 0);
	/* A short record is not an event. */
	assert_int_equal(__real_write(fds[1], &c, 4), 4);
	assert_int_equal(uvio_get_comp_event(fds[0], &ce), -EIO);
	old.sz = 4;
	assert_int_equal(uvio_get_async_event(fds[0], &old), -EINVAL);
	assert_int_equal(uvio_get_comp_event(-1, &ce), -EBADF);
	assert_int_equal(uvio_get_async_event(fds[0], NULL), -EINVAL);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(uvio_event_fd_set_nonblock(fds[0], true), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(create_plain_write),
		cmocka_unit_test(create_ex_write),
		cmocka_unit_test(create_ex_answer),
		cmocka_unit_test(create_invoke_write),
		cmocka_unit_test(create_method),
		cmocka_unit_test(modify_encodings),
		cmocka_unit_test(query_decoding),
		cmocka_unit_test(destroy_open_mcast),
		cmocka_unit_test(post_encodings),
		cmocka_unit_test(notify_and_poll),
		cmocka_unit_test(user_queue_refusals),
		cmocka_unit_test(events_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
