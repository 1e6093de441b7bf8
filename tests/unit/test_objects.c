/*
 * The object verbs' encodings, byte by byte, against a stand-in kernel: what
 * rxe and siw cannot show because they lack the verb (WQ, RWQ indirection
 * tables, flows, flow actions, counters, DM, XRC), and what they cannot tell
 * apart (an extended command over INVOKE_WRITE carries the extended flag).
 * Every expected byte is written from the kernel's structs in
 * <rdma/ib_user_verbs.h> and the method specs, not from the library.
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
#include "abi/uapi.h"	/* uverbs ids older headers lack */

/* What the stand-in kernel saw last, and what it answers. */
static struct {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[32];
	uint8_t ptr_in[32][4200];	/* bytes behind PTR_IN attributes over 8 */
	uint8_t wbuf[8192];		/* the last write() */
	size_t wlen;
	uint16_t new_attr;		/* IDR_NEW attribute to answer */
	uint8_t resp[512];		/* core response to give */
	size_t resp_len;
	int answer;			/* errno of every command */
} k;

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *h = arg;

	(void)request;
	memcpy(&k.hdr, h, sizeof(k.hdr));
	assert_true(h->num_attrs <= 32);
	for (unsigned int i = 0; i < h->num_attrs; i++) {
		struct ib_uverbs_attr *a = &h->attrs[i];

		k.attrs[i] = *a;
		if (a->len > 8 && !(h->object_id == UVERBS_OBJECT_DEVICE &&
				    a->attr_id == UVERBS_ATTR_CORE_OUT)) {
			assert_true(a->len <= sizeof(k.ptr_in[i]));
			memcpy(k.ptr_in[i], (void *)(uintptr_t)a->data, a->len);
		}
		if (k.answer)
			continue;
		if (a->attr_id == k.new_attr && h->object_id != UVERBS_OBJECT_DEVICE)
			a->data = 7;
		if (h->object_id == UVERBS_OBJECT_DEVICE && a->attr_id == UVERBS_ATTR_CORE_OUT)
			memcpy((void *)(uintptr_t)a->data, k.resp,
			       a->len < k.resp_len ? a->len : k.resp_len);
	}
	return k.answer;
}

static ssize_t kernel_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;

	assert_true(len <= sizeof(k.wbuf));
	memcpy(k.wbuf, buf, len);
	k.wlen = len;
	if (k.answer)
		return -k.answer;
	if (h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		const struct ib_uverbs_ex_cmd_hdr *x = (const void *)(h + 1);

		if (x->response)
			memcpy((void *)(uintptr_t)x->response, k.resp, k.resp_len);
	} else if (h->out_words) {
		uint64_t at;

		memcpy(&at, h + 1, sizeof(at));
		memcpy((void *)(uintptr_t)at, k.resp, k.resp_len);
	}
	return (ssize_t)len;
}

static struct uvio_device *fresh_driver(enum uvio_path pin, uint32_t driver_id);

static struct uvio_device *fresh(enum uvio_path pin)
{
	return fresh_driver(pin, RDMA_DRIVER_RXE);
}

static struct uvio_device *fresh_driver(enum uvio_path pin, uint32_t driver_id)
{
	struct uvio_device *dev;

	fake_reset();
	memset(&k, 0, sizeof(k));
	fake.on_ioctl = kernel_ioctl;
	fake.on_write = kernel_write;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), driver_id, &dev), 0);
	if (pin != UVIO_PATH_AUTO)
		assert_int_equal(uvio_device_set_path(dev, pin), 0);
	return dev;
}

static const struct ib_uverbs_attr *attr(uint16_t id)
{
	for (unsigned int i = 0; i < k.hdr.num_attrs; i++)
		if (k.attrs[i].attr_id == id)
			return &k.attrs[i];
	return NULL;
}

static const void *attr_bytes(uint16_t id)
{
	for (unsigned int i = 0; i < k.hdr.num_attrs; i++)
		if (k.attrs[i].attr_id == id)
			return k.attrs[i].len > 8 ? (const void *)k.ptr_in[i] :
						    (const void *)&k.attrs[i].data;
	fail_msg("attribute %u not sent", id);
	return NULL;
}

static void expect_attr(uint16_t id, const void *bytes, size_t len)
{
	const struct ib_uverbs_attr *a = attr(id);

	assert_non_null(a);
	assert_int_equal(a->len, len);
	assert_memory_equal(attr_bytes(id), bytes, len);
}

static void expect_u64(uint16_t id, uint64_t v)
{
	expect_attr(id, &v, sizeof(v));
}

static void expect_u32(uint16_t id, uint32_t v)
{
	expect_attr(id, &v, sizeof(v));
}

static void expect_method(uint16_t object, uint16_t method, unsigned int num_attrs)
{
	assert_int_equal(k.hdr.object_id, object);
	assert_int_equal(k.hdr.method_id, method);
	assert_int_equal(k.hdr.num_attrs, num_attrs);
}

/* The extended write() layout: header, extended header, core. */
static const void *expect_ex_write(uint32_t command, size_t core_len, size_t resp_len,
				   size_t drv_out)
{
	const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
	const struct ib_uverbs_ex_cmd_hdr *x = (const void *)(h + 1);

	assert_int_equal(h->command, IB_USER_VERBS_CMD_FLAG_EXTENDED | command);
	assert_int_equal(h->in_words, core_len / 8);
	assert_int_equal(h->out_words, resp_len / 8);
	assert_int_equal(k.wlen, sizeof(*h) + sizeof(*x) + core_len);
	assert_int_equal(x->provider_in_words, 0);
	assert_int_equal(x->provider_out_words, drv_out / 8);
	assert_int_equal(x->cmd_hdr_reserved, 0);
	assert_true(resp_len ? x->response != 0 : x->response == 0);
	return x + 1;
}

/* INVOKE_WRITE: the command number (with the extended flag where it is
 * one) and the core as CORE_IN. */
static void expect_invoke(uint32_t command, const void *core, size_t core_len)
{
	assert_int_equal(k.hdr.object_id, UVERBS_OBJECT_DEVICE);
	assert_int_equal(k.hdr.method_id, UVERBS_METHOD_INVOKE_WRITE);
	expect_u64(UVERBS_ATTR_WRITE_CMD, command);
	expect_attr(UVERBS_ATTR_CORE_IN, core, core_len);
}

static void ex_commands_over_invoke_write(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_AUTO);
	struct ib_uverbs_ex_modify_cq mc = {
		.cq_handle = 5, .attr_mask = 1, .attr = { .cq_count = 8, .cq_period = 10 },
	};
	UVIO_OPTS(uvio_cq_attr, cattr, .cqe = 16, .flags = IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	UVIO_OPTS(uvio_cq, cq);
	struct ib_uverbs_ex_create_cq cc = {
		.cqe = 16, .comp_channel = -1, .flags = IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN,
	};
	struct ib_uverbs_ex_create_cq_resp cr = { .base = { .cq_handle = 4, .cqe = 31 } };
	UVIO_OPTS(uvio_cq_moderation, m, .cq_handle = 5, .count = 8, .period = 10);
	enum uvio_path p;
	(void)state;

	assert_int_equal(uvio_modify_cq(dev, &m, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	/* Without the flag the kernel would look up plain command 57. */
	expect_invoke(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_CQ, &mc,
		      sizeof(mc));
	assert_null(attr(UVERBS_ATTR_CORE_OUT));

	/* EX_CREATE_CQ is number 18 like CREATE_CQ: only the flag tells. */
	memcpy(k.resp, &cr, sizeof(cr));
	k.resp_len = sizeof(cr);
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_INVOKE_WRITE), 0);
	assert_int_equal(uvio_create_cq(dev, &cattr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	expect_invoke(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ, &cc,
		      sizeof(cc));
	assert_int_equal(attr(UVERBS_ATTR_CORE_OUT)->len, sizeof(cr));
	assert_int_equal(cq.handle, 4);
	assert_int_equal(cq.cqe, 31);
	uvio_device_close(dev);
}

static void wq_encodings(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	UVIO_OPTS(uvio_wq_attr, wa, .type = IB_UVERBS_WQT_RQ, .pd_handle = 2, .cq_handle = 3,
		  .user_handle = 0x1122334455667788ull, .max_wr = 64, .max_sge = 2,
		  .flags = IB_UVERBS_WQ_FLAGS_SCATTER_FCS);
	UVIO_OPTS(uvio_wq, wq);
	UVIO_OPTS(uvio_wq_modify, wm, .attr_mask = UVIO_WQ_STATE | UVIO_WQ_FLAGS, .state = 1,
		  .flags = 1, .flags_mask = 3);
	struct ib_uverbs_ex_create_wq want = {
		.wq_type = IB_UVERBS_WQT_RQ, .user_handle = 0x1122334455667788ull,
		.pd_handle = 2, .cq_handle = 3, .max_wr = 64, .max_sge = 2,
		.create_flags = IB_UVERBS_WQ_FLAGS_SCATTER_FCS,
	};
	struct ib_uverbs_ex_modify_wq want_mod = {
		.attr_mask = 5, .wq_handle = 7, .wq_state = 1, .flags = 1, .flags_mask = 3,
	};
	struct ib_uverbs_ex_destroy_wq want_des = { .wq_handle = 7 };
	struct ib_uverbs_ex_create_wq_resp r = {
		.response_length = sizeof(r), .wq_handle = 7, .max_wr = 64, .max_sge = 2, .wqn = 0x99,
	};
	struct ib_uverbs_ex_destroy_wq_resp dr = { .events_reported = 3 };
	struct uvio_events_reported events = { .sz = sizeof(events), 9, 0 };
	enum uvio_path p;
	(void)state;

	memcpy(k.resp, &r, sizeof(r));
	k.resp_len = sizeof(r);
	assert_int_equal(uvio_create_wq(dev, &wa, NULL, &wq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	/* The default driver response space goes along, 64 bytes. */
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_CREATE_WQ, sizeof(want),
					    sizeof(r), UVIO_DEFAULT_DRV_OUT),
			    &want, sizeof(want));
	assert_int_equal(wq.handle, 7);
	assert_int_equal(wq.wq_num, 0x99);
	assert_int_equal(wq.max_wr, 64);

	assert_int_equal(uvio_modify_wq(dev, 7, &wm, NULL, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_MODIFY_WQ, sizeof(want_mod), 0, 0),
			    &want_mod, sizeof(want_mod));

	memcpy(k.resp, &dr, sizeof(dr));
	k.resp_len = sizeof(dr);
	assert_int_equal(uvio_destroy_wq(dev, 7, &events, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_DESTROY_WQ, sizeof(want_des),
					    sizeof(dr), 0),
			    &want_des, sizeof(want_des));
	assert_int_equal(events.async_events_reported, 3);
	assert_int_equal(events.comp_events_reported, 0);
	uvio_device_close(dev);

	/* The native method: every attribute as the kernel's spec has it. */
	dev = fresh(UVIO_PATH_IOCTL);
	k.new_attr = UVERBS_ATTR_CREATE_WQ_HANDLE;
	assert_int_equal(uvio_create_wq(dev, &wa, NULL, &wq, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	expect_method(UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE, 12);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_WQ_PD_HANDLE)->data, 2);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_WQ_CQ_HANDLE)->data, 3);
	expect_u64(UVERBS_ATTR_CREATE_WQ_TYPE, IB_UVERBS_WQT_RQ);	/* const: 8 bytes */
	expect_u64(UVERBS_ATTR_CREATE_WQ_USER_HANDLE, 0x1122334455667788ull);
	expect_u32(UVERBS_ATTR_CREATE_WQ_MAX_WR, 64);
	expect_u32(UVERBS_ATTR_CREATE_WQ_MAX_SGE, 2);
	expect_u64(UVERBS_ATTR_CREATE_WQ_FLAGS, IB_UVERBS_WQ_FLAGS_SCATTER_FCS);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM)->len, 4);
	assert_non_null(attr(UVERBS_ATTR_UHW_OUT));
	assert_int_equal(wq.handle, 7);
	assert_int_equal(uvio_destroy_wq(dev, 7, &events, &p), 0);
	expect_method(UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_DESTROY, 2);
	assert_int_equal(attr(UVERBS_ATTR_DESTROY_WQ_HANDLE)->data, 7);
	assert_int_equal(attr(UVERBS_ATTR_DESTROY_WQ_RESP)->len, 4);
	uvio_device_close(dev);
}

static void rwq_table_encodings(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	UVIO_OPTS(uvio_rwq_ind_table, t);
	uint32_t wqs[4] = { 11, 12, 13, 14 };
	struct ib_uverbs_ex_create_rwq_ind_table_resp r = {
		.response_length = sizeof(r), .ind_tbl_handle = 6, .ind_tbl_num = 0x42,
	};
	/* One WQ: the kernel still reads two handles' worth (8 bytes). */
	const uint32_t one[4] = { 0, 0, 11, 0 };
	const uint32_t four[6] = { 0, 2, 11, 12, 13, 14 };
	struct ib_uverbs_ex_destroy_rwq_ind_table des = { .ind_tbl_handle = 6 };
	enum uvio_path p;
	(void)state;

	memcpy(k.resp, &r, sizeof(r));
	k.resp_len = sizeof(r);
	assert_int_equal(uvio_create_rwq_ind_table(dev, 0, wqs, &t, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL,
					    sizeof(one), sizeof(r), 0),
			    one, sizeof(one));
	assert_int_equal(t.handle, 6);
	assert_int_equal(t.ind_tbl_num, 0x42);
	assert_int_equal(uvio_create_rwq_ind_table(dev, 2, wqs, &t, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL,
					    sizeof(four), sizeof(r), 0),
			    four, sizeof(four));
	/* Beyond what the library builds on its stack: refused, not sent. */
	assert_int_equal(uvio_create_rwq_ind_table(dev, UVIO_MAX_LOG_IND_TBL_SIZE + 1, wqs, &t,
						   &p), -E2BIG);
	assert_int_equal(uvio_create_rwq_ind_table(dev, 1, NULL, &t, &p), -EINVAL);
	assert_int_equal(fake.write_calls, 2);
	assert_int_equal(uvio_destroy_rwq_ind_table(dev, 6, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL,
					    sizeof(des), 0, 0),
			    &des, sizeof(des));
	uvio_device_close(dev);

	/* Over INVOKE_WRITE the same core goes as CORE_IN, with the flag. */
	dev = fresh(UVIO_PATH_AUTO);
	assert_int_equal(uvio_create_rwq_ind_table(dev, 2, wqs, &t, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	expect_invoke(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL,
		      four, sizeof(four));
	assert_int_equal(uvio_destroy_rwq_ind_table(dev, 6, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	expect_method(UVERBS_OBJECT_RWQ_IND_TBL, UVERBS_METHOD_RWQ_IND_TBL_DESTROY, 1);
	assert_int_equal(attr(UVERBS_ATTR_DESTROY_RWQ_IND_TBL_HANDLE)->data, 6);
	uvio_device_close(dev);
}

/* A rule with a counters action: attaching counters to a flow. */
static void flow_with_counters(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct {
		struct ib_uverbs_flow_attr attr;
		struct ib_uverbs_flow_spec_eth eth;
		struct ib_uverbs_flow_spec_action_count count;
	} rule = {
		.attr = { .type = 0, .size = sizeof(rule), .priority = 1, .num_of_specs = 2,
			  .port = 1 },
		.eth = { .type = UVIO_FLOW_SPEC_ETH, .size = sizeof(rule.eth),
			 .val = { .ether_type = 0x0008 }, .mask = { .ether_type = 0xffff } },
		.count = { .type = UVIO_FLOW_SPEC_ACTION_COUNT, .size = sizeof(rule.count),
			   .handle = 9 },
	};
	struct {
		uint32_t comp_mask, qp_handle;
		uint8_t rule[sizeof(rule)];
	} want = { 0, 4, { 0 } };
	struct ib_uverbs_create_flow_resp r = { .flow_handle = 8 };
	struct ib_uverbs_destroy_flow des = { .flow_handle = 8 };
	uint32_t flow = 0;
	enum uvio_path p;
	(void)state;

	_Static_assert(sizeof(rule) % 8 == 0, "a rule of whole words");
	memcpy(want.rule, &rule, sizeof(rule));
	memcpy(k.resp, &r, sizeof(r));
	k.resp_len = sizeof(r);
	assert_int_equal(uvio_create_flow(dev, 4, &rule.attr, sizeof(rule), NULL, &flow, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_CREATE_FLOW, sizeof(want),
					    sizeof(r), UVIO_DEFAULT_DRV_OUT),
			    &want, sizeof(want));
	assert_int_equal(flow, 8);
	assert_int_equal(uvio_destroy_flow(dev, 8, &p), 0);
	assert_memory_equal(expect_ex_write(IB_USER_VERBS_EX_CMD_DESTROY_FLOW, sizeof(des), 0, 0),
			    &des, sizeof(des));
	/* A size that disagrees with the length: refused before sending. */
	assert_int_equal(uvio_create_flow(dev, 4, &rule.attr, sizeof(rule) - 8, NULL, &flow, &p),
			 -EINVAL);
	assert_int_equal(fake.write_calls, 2);
	/* A rule that is not whole words is padded with zeros. */
	rule.attr.size = 20;
	assert_int_equal(uvio_create_flow(dev, 4, &rule.attr, 20, NULL, &flow, &p), 0);
	{
		const uint8_t *core = expect_ex_write(IB_USER_VERBS_EX_CMD_CREATE_FLOW, 32,
						      sizeof(r), UVIO_DEFAULT_DRV_OUT);
		static const uint8_t zero[4];

		assert_memory_equal(core + 8, &rule, 20);
		assert_memory_equal(core + 28, zero, 4);
	}
	uvio_device_close(dev);
}

static void counters_and_esp(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_IOCTL);
	uint64_t values[3];
	uint32_t h = 0, esn = 77;
	struct ib_uverbs_flow_action_esp esp = { .spi = 0x1234, .seq = 1, .flags = 1 };
	struct ib_uverbs_flow_action_esp_keymat_aes_gcm key = {
		.iv = 5, .salt = 6, .icv_len = 16, .key_len = 32, .aes_key = { 1, 2, 3 },
	};
	struct ib_uverbs_flow_action_esp_replay_bmp bmp = { .size = 64 };
	UVIO_OPTS(uvio_flow_action_esp_attr, ea, .esp = &esp, .keymat = &key, .replay = &bmp,
		  .esn = &esn);
	UVIO_OPTS(uvio_flow_action_esp_attr, off, .replay_none = 1);
	UVIO_OPTS(uvio_dm_attr, da, .length = 4096, .log_align = 6);
	enum uvio_path p;
	(void)state;

	k.new_attr = UVERBS_ATTR_CREATE_COUNTERS_HANDLE;
	assert_int_equal(uvio_create_counters(dev, NULL, &h, &p), 0);
	/* The method has no driver attributes: no default UHW_OUT. */
	expect_method(UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_CREATE, 1);
	assert_int_equal(h, 7);
	assert_int_equal(uvio_read_counters(dev, 7, values, 3, 0, &p), 0);
	expect_method(UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_READ, 2);
	assert_int_equal(attr(UVERBS_ATTR_READ_COUNTERS_HANDLE)->data, 7);
	assert_int_equal(attr(UVERBS_ATTR_READ_COUNTERS_BUFF)->len, sizeof(values));
	assert_int_equal(attr(UVERBS_ATTR_READ_COUNTERS_BUFF)->data, (uintptr_t)values);
	assert_int_equal(uvio_read_counters(dev, 7, values, 3,
					    IB_UVERBS_READ_COUNTERS_PREFER_CACHED, &p), 0);
	expect_u64(UVERBS_ATTR_READ_COUNTERS_FLAGS, IB_UVERBS_READ_COUNTERS_PREFER_CACHED);
	assert_int_equal(uvio_destroy_counters(dev, 7, &p), 0);
	expect_method(UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_DESTROY, 1);

	k.new_attr = UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE;
	assert_int_equal(uvio_create_flow_action_esp(dev, &ea, NULL, &h, &p), 0);
	expect_method(UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_CREATE, 5);
	expect_attr(UVERBS_ATTR_FLOW_ACTION_ESP_ATTRS, &esp, sizeof(esp));
	expect_u32(UVERBS_ATTR_FLOW_ACTION_ESP_ESN, 77);
	expect_attr(UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT, &key, sizeof(key));
	assert_int_equal(attr(UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT)->attr_data.enum_data.elem_id,
			 IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM);
	expect_attr(UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY, &bmp, sizeof(bmp));
	assert_int_equal(attr(UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY)->attr_data.enum_data.elem_id,
			 IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP);
	assert_int_equal(h, 7);
	assert_int_equal(uvio_modify_flow_action_esp(dev, 7, &off, NULL, &p), 0);
	expect_method(UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY, 2);
	assert_int_equal(attr(UVERBS_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE)->data, 7);
	assert_int_equal(attr(UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY)->len, 0);
	assert_int_equal(attr(UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY)->attr_data.enum_data.elem_id,
			 IB_UVERBS_FLOW_ACTION_ESP_REPLAY_NONE);
	assert_int_equal(uvio_destroy_flow_action(dev, 7, &p), 0);
	expect_method(UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_DESTROY, 1);
	/* create needs the ESP attributes and the key */
	assert_int_equal(uvio_create_flow_action_esp(dev, &off, NULL, &h, &p), -EINVAL);

	k.new_attr = UVERBS_ATTR_ALLOC_DM_HANDLE;
	assert_int_equal(uvio_alloc_dm(dev, &da, NULL, &h, &p), 0);
	expect_method(UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, 3);
	expect_u64(UVERBS_ATTR_ALLOC_DM_LENGTH, 4096);
	expect_u32(UVERBS_ATTR_ALLOC_DM_ALIGNMENT, 6);
	uvio_device_close(dev);

	/* Pinned to write(): nothing to send, nothing sent. */
	dev = fresh(UVIO_PATH_WRITE);
	assert_int_equal(uvio_create_counters(dev, NULL, &h, &p), -EOPNOTSUPP);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(uvio_alloc_dm(dev, &da, NULL, &h, &p), -EOPNOTSUPP);
	assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	uvio_device_close(dev);
}

static void mr_encodings(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_IOCTL);
	struct ib_uverbs_sge sge[2] = { { 0x1000, 4096, 5 }, { 0x3000, 64, 5 } };
	UVIO_OPTS(uvio_dm_mr_attr, dm, .pd_handle = 1, .dm_handle = 2, .offset = 64,
		  .length = 128, .access = IB_UVERBS_ACCESS_ZERO_BASED);
	UVIO_OPTS(uvio_dmabuf_mr_attr, db, .pd_handle = 1, .fd = 9, .offset = 4096,
		  .length = 8192, .iova = 0x10000, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	UVIO_OPTS(uvio_rereg_mr_attr, rr, .flags = UVIO_MR_REREG_TRANS | UVIO_MR_REREG_ACCESS,
		  .addr = (void *)0x7000, .length = 4096, .iova = 0x9000, .access = 7);
	UVIO_OPTS(uvio_mr, mr);
	struct ib_uverbs_rereg_mr want = {
		.mr_handle = 3, .flags = 5, .start = 0x7000, .length = 4096, .hca_va = 0x9000,
		.access_flags = 7,
	};
	struct ib_uverbs_rereg_mr_resp rr_resp = { .lkey = 0x11, .rkey = 0x22 };
	enum uvio_path p;
	(void)state;

	assert_int_equal(uvio_advise_mr(dev, 1, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE,
					IB_UVERBS_ADVISE_MR_FLAG_FLUSH, sge, 2, &p), 0);
	expect_method(UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, 4);
	expect_u64(UVERBS_ATTR_ADVISE_MR_ADVICE, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE);
	expect_u64(UVERBS_ATTR_ADVISE_MR_FLAGS, IB_UVERBS_ADVISE_MR_FLAG_FLUSH);
	expect_attr(UVERBS_ATTR_ADVISE_MR_SGE_LIST, sge, sizeof(sge));
	assert_int_equal(uvio_advise_mr(dev, 1, 0, 0, sge, 0, &p), -EINVAL);

	k.new_attr = UVERBS_ATTR_REG_DM_MR_HANDLE;
	assert_int_equal(uvio_reg_dm_mr(dev, &dm, NULL, &mr, &p), 0);
	expect_method(UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG, 9);	/* 8 + UHW_OUT */
	expect_u64(UVERBS_ATTR_REG_DM_MR_OFFSET, 64);
	expect_u64(UVERBS_ATTR_REG_DM_MR_LENGTH, 128);
	assert_int_equal(attr(UVERBS_ATTR_REG_DM_MR_DM_HANDLE)->data, 2);
	expect_u64(UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, IB_UVERBS_ACCESS_ZERO_BASED);
	assert_int_equal(mr.handle, 7);

	k.new_attr = UVERBS_ATTR_REG_DMABUF_MR_HANDLE;
	assert_int_equal(uvio_reg_dmabuf_mr(dev, &db, NULL, &mr, &p), 0);
	expect_method(UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, 10);
	expect_u32(UVERBS_ATTR_REG_DMABUF_MR_FD, 9);
	expect_u64(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 4096);
	expect_u64(UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0x10000);
	db.fd = -1;
	assert_int_equal(uvio_reg_dmabuf_mr(dev, &db, NULL, &mr, &p), -EBADF);
	uvio_device_close(dev);

	dev = fresh(UVIO_PATH_WRITE);
	memcpy(k.resp, &rr_resp, sizeof(rr_resp));
	k.resp_len = sizeof(rr_resp);
	assert_int_equal(uvio_rereg_mr(dev, 3, &rr, NULL, &mr, &p), 0);
	{
		const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
		struct ib_uverbs_rereg_mr got;

		assert_int_equal(h->command, IB_USER_VERBS_CMD_REREG_MR);
		assert_int_equal(h->in_words, (sizeof(*h) + sizeof(want)) / 4);
		memcpy(&got, h + 1, sizeof(got));
		got.response = 0;	/* the library's own buffer */
		assert_memory_equal(&got, &want, sizeof(want));
	}
	assert_int_equal(mr.handle, 3);
	assert_int_equal(mr.lkey, 0x11);
	assert_int_equal(mr.rkey, 0x22);
	/* QUERY_MR has no write() command */
	{
		UVIO_OPTS(uvio_mr_info, info);

		assert_int_equal(uvio_query_mr(dev, 3, &info, &p), -EOPNOTSUPP);
		assert_int_equal(fake.write_calls, 1);
	}
	uvio_device_close(dev);
}

/*
 * siw's REG_MR wants its 8-byte request (struct siw_ureq_reg_mr) as driver
 * input and answers EINVAL without it: the library supplies a zeroed one
 * when the caller gives no driver input. Other drivers get none.
 */
static void siw_reg_mr_request(void **state)
{
	static uint8_t page[4096];
	UVIO_OPTS(uvio_mr_attr, a, .pd_handle = 1, .addr = page, .length = sizeof(page),
		  .iova = (uintptr_t)page, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
	const size_t core = sizeof(struct ib_uverbs_reg_mr);
	uint64_t mine = 0x1122334455667788ull;
	(void)state;

	for (int siw = 0; siw < 2; siw++) {
		struct uvio_device *dev = fresh_driver(UVIO_PATH_WRITE,
						       siw ? RDMA_DRIVER_SIW : RDMA_DRIVER_RXE);
		UVIO_OPTS(uvio_mr, mr);

		assert_int_equal(uvio_reg_mr(dev, &a, NULL, &mr, NULL), 0);
		assert_int_equal(h->command, IB_USER_VERBS_CMD_REG_MR);
		assert_int_equal(h->in_words, (sizeof(*h) + core + (siw ? 8 : 0)) / 4);
		if (siw) {
			uint64_t req;

			memcpy(&req, k.wbuf + sizeof(*h) + core, 8);
			assert_int_equal(req, 0);
			/* the caller's own request goes as it is */
			UVIO_OPTS(uvio_drv, drv, .in = &mine, .in_len = 8);
			assert_int_equal(uvio_reg_mr(dev, &a, &drv, &mr, NULL), 0);
			memcpy(&req, k.wbuf + sizeof(*h) + core, 8);
			assert_int_equal(req, mine);
		}
		uvio_device_close(dev);
	}
}

/*
 * A creating verb on write() with driver input and no room of the caller's
 * for the driver's answer: the input after the core, padded to a word with
 * zeroes; the response and the default driver space counted in out_words;
 * the handle handed out, not the driver's bytes after it; nothing handed
 * out when the command fails.
 */
static void write_driver_input_default_space(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
	const size_t core = sizeof(struct ib_uverbs_alloc_pd);
	struct ib_uverbs_alloc_pd_resp r = { .pd_handle = 42 };
	static const uint8_t din[5] = { 1, 2, 3, 4, 5 };
	UVIO_OPTS(uvio_drv, drv, .in = din, .in_len = sizeof(din));
	uint32_t pd = 0;
	(void)state;

	memcpy(k.resp, &r, sizeof(r));
	memset(k.resp + sizeof(r), 0xdd, UVIO_DEFAULT_DRV_OUT);	/* all the space offered */
	k.resp_len = sizeof(r) + UVIO_DEFAULT_DRV_OUT;
	assert_int_equal(uvio_alloc_pd(dev, &drv, &pd, NULL), 0);
	assert_int_equal(pd, 42);
	assert_int_equal(h->command, IB_USER_VERBS_CMD_ALLOC_PD);
	assert_int_equal(k.wlen, sizeof(*h) + core + 8);
	assert_int_equal(h->in_words, (sizeof(*h) + core + 8) / 4);
	assert_int_equal(h->out_words, (sizeof(r) + UVIO_DEFAULT_DRV_OUT) / 4);
	assert_memory_equal(k.wbuf + sizeof(*h) + core, din, sizeof(din));
	assert_memory_equal(k.wbuf + sizeof(*h) + core + sizeof(din), "\0\0\0", 3);
	pd = 7;
	k.answer = EINVAL;
	assert_int_equal(uvio_alloc_pd(dev, &drv, &pd, NULL), -EINVAL);
	assert_int_equal(pd, 7);
	uvio_device_close(dev);
}

/*
 * EX_QUERY_DEVICE into a caller's struct larger than the library offers the
 * kernel (a newer header's): accepted, the kernel is offered what the
 * library can carry, the rest reads zero.
 */
static void query_device_ex_roomy(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	uint64_t big[2048 / 8];
	struct ib_uverbs_ex_query_device_resp *r = (void *)big;
	struct ib_uverbs_ex_query_device_resp answer = { .comp_mask = 1,
							 .response_length = sizeof(answer) };
	const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
	(void)state;

	memcpy(k.resp, &answer, sizeof(answer));
	k.resp_len = sizeof(answer);
	memset(big, 0xee, sizeof(big));
	assert_int_equal(uvio_query_device_ex(dev, r, sizeof(big), NULL), 0);
	assert_int_equal(h->command & ~IB_USER_VERBS_CMD_FLAG_EXTENDED,
			 IB_USER_VERBS_EX_CMD_QUERY_DEVICE);
	assert_true(h->out_words * 8 <= 512);
	assert_int_equal(r->response_length, sizeof(answer));
	assert_int_equal(big[2047 / 8], 0);	/* past what the kernel wrote: zero */
	uvio_device_close(dev);
}

/*
 * An output too small for the handle: refused before any system call, as
 * every create refuses it (a CQ or MR made and its handle dropped would
 * live on until the fd closes).
 */
static void outputs_too_small_for_the_handle(void **state)
{
	static uint8_t page[4096];
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8);
	UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = 1, .addr = page, .length = sizeof(page),
		  .iova = (uintptr_t)page, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	(void)state;

	for (int p = 0; p < 2; p++) {
		struct uvio_device *dev = fresh(p ? UVIO_PATH_WRITE : UVIO_PATH_IOCTL);
		struct uvio_cq cq = { .sz = offsetof(struct uvio_cq, handle) };
		struct uvio_mr mr = { .sz = offsetof(struct uvio_mr, handle) };

		assert_int_equal(uvio_create_cq(dev, &ca, NULL, &cq, NULL), -EINVAL);
		assert_int_equal(uvio_reg_mr(dev, &ma, NULL, &mr, NULL), -EINVAL);
		assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
		uvio_device_close(dev);
	}
}

/* XRC and tag-matching SRQs: the kernel's CREATE_XSRQ on write(), the
 * type-dependent attributes on the native method. */
static void srq_encodings(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	UVIO_OPTS(uvio_srq_attr, xa, .type = IB_UVERBS_SRQT_XRC, .pd_handle = 1,
		  .user_handle = 0xab, .max_wr = 32, .max_sge = 2, .srq_limit = 4,
		  .xrcd_handle = 5, .cq_handle = 6);
	UVIO_OPTS(uvio_srq, srq);
	struct ib_uverbs_create_xsrq want = {
		.user_handle = 0xab, .srq_type = IB_UVERBS_SRQT_XRC, .pd_handle = 1, .max_wr = 32,
		.max_sge = 2, .srq_limit = 4, .xrcd_handle = 5, .cq_handle = 6,
	};
	struct ib_uverbs_create_srq_resp r = { .srq_handle = 7, .max_wr = 32, .max_sge = 2,
					       .srqn = 0x55 };
	struct ib_uverbs_open_xrcd want_x = { .fd = (uint32_t)-1, .oflags = 0100 };
	uint32_t xrcd;
	enum uvio_path p;
	(void)state;

	memcpy(k.resp, &r, sizeof(r));
	k.resp_len = sizeof(r);
	assert_int_equal(uvio_create_srq(dev, &xa, NULL, &srq, &p), 0);
	{
		const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
		struct ib_uverbs_create_xsrq got;

		assert_int_equal(h->command, IB_USER_VERBS_CMD_CREATE_XSRQ);
		memcpy(&got, h + 1, sizeof(got));
		got.response = 0;
		assert_memory_equal(&got, &want, sizeof(want));
	}
	assert_int_equal(srq.handle, 7);
	assert_int_equal(srq.srq_num, 0x55);
	assert_int_equal(uvio_open_xrcd(dev, -1, 0100, NULL, &xrcd, &p), 0);
	{
		const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
		struct ib_uverbs_open_xrcd got;

		assert_int_equal(h->command, IB_USER_VERBS_CMD_OPEN_XRCD);
		memcpy(&got, h + 1, sizeof(got));
		got.response = 0;
		assert_memory_equal(&got, &want_x, sizeof(want_x));
	}
	uvio_device_close(dev);

	dev = fresh(UVIO_PATH_IOCTL);
	k.new_attr = UVERBS_ATTR_CREATE_SRQ_HANDLE;
	assert_int_equal(uvio_create_srq(dev, &xa, NULL, &srq, &p), 0);
	expect_method(UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, 13);
	expect_u64(UVERBS_ATTR_CREATE_SRQ_TYPE, IB_UVERBS_SRQT_XRC);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE)->data, 5);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE)->data, 6);
	assert_null(attr(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS));
	xa.type = IB_UVERBS_SRQT_TM;
	xa.max_num_tags = 64;
	assert_int_equal(uvio_create_srq(dev, &xa, NULL, &srq, &p), 0);
	expect_u32(UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS, 64);
	assert_null(attr(UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE));
	assert_int_equal(attr(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE)->data, 6);
	xa.type = IB_UVERBS_SRQT_BASIC;
	assert_int_equal(uvio_create_srq(dev, &xa, NULL, &srq, &p), 0);
	expect_method(UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, 11);
	assert_null(attr(UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE));
	uvio_device_close(dev);
}

/* The most a create command carries: every core attribute of the method,
 * driver input and output, and the eight driver attributes a caller may
 * join. Nothing may overflow the command. */
static void everything_at_once(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_IOCTL);
	int efd = 5;
	uint64_t din = 1, dout[2];
	UVIO_OPTS(uvio_srq_attr, sa, .type = IB_UVERBS_SRQT_XRC, .pd_handle = 1, .max_wr = 8,
		  .max_sge = 1, .xrcd_handle = 2, .cq_handle = 3, .event_fd = &efd);
	UVIO_OPTS(uvio_srq, srq);
	UVIO_OPTS(uvio_wq_attr, wa, .pd_handle = 1, .cq_handle = 3, .max_wr = 8, .max_sge = 1,
		  .event_fd = &efd);
	UVIO_OPTS(uvio_wq, wq);
	UVIO_CMD_DEFINE(extra, UVIO_MAX_DRV_ATTRS, 0, 0);
	UVIO_OPTS(uvio_drv, drv, .in = &din, .in_len = sizeof(din), .out = dout,
		  .out_len = sizeof(dout), .attrs = &extra);
	enum uvio_path p;
	(void)state;

	for (unsigned int i = 0; i < UVIO_MAX_DRV_ATTRS; i++)
		uvio_put_u32(&extra, UVIO_DRIVER_ATTR(2 + i), i);
	k.new_attr = UVERBS_ATTR_CREATE_SRQ_HANDLE;
	assert_int_equal(uvio_create_srq(dev, &sa, &drv, &srq, &p), 0);
	expect_method(UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, 13 + 2 + UVIO_MAX_DRV_ATTRS);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_SRQ_EVENT_FD)->data, 5);
	expect_u32(UVIO_DRIVER_ATTR(9), 7);
	k.new_attr = UVERBS_ATTR_CREATE_WQ_HANDLE;
	assert_int_equal(uvio_create_wq(dev, &wa, &drv, &wq, &p), 0);
	expect_method(UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE, 12 + 2 + UVIO_MAX_DRV_ATTRS);
	assert_int_equal(attr(UVERBS_ATTR_CREATE_WQ_EVENT_FD)->data, 5);
	uvio_device_close(dev);

	/* write() cannot name an event fd: refused, not dropped. */
	dev = fresh(UVIO_PATH_WRITE);
	assert_int_equal(uvio_create_srq(dev, &sa, NULL, &srq, &p), -EOPNOTSUPP);
	assert_int_equal(uvio_create_wq(dev, &wa, NULL, &wq, &p), -EOPNOTSUPP);
	assert_int_equal(fake.write_calls, 0);
	uvio_device_close(dev);
}

/* An old caller (a struct cut short) against this library: the fields it
 * does not have read as zero, nothing past its sz is read or written. */
static void old_callers(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	struct {
		struct uvio_srq_attr a;
		uint8_t after[16];
	} in;
	struct {
		struct uvio_srq s;
		uint8_t after[16];
	} out;
	struct ib_uverbs_create_srq_resp r = { .srq_handle = 7, .max_wr = 99, .max_sge = 3 };
	struct ib_uverbs_create_srq want = { .pd_handle = 1, .max_wr = 16, .max_sge = 1 };
	struct ib_uverbs_create_srq got;
	const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
	enum uvio_path p;
	(void)state;

	/* Whatever follows the caller's structs is not theirs to give. */
	memset(&in, 0xa5, sizeof(in));
	memset(&out, 0x5a, sizeof(out));
	in.a.sz = offsetof(struct uvio_srq_attr, max_sge) + sizeof(uint32_t);
	in.a.type = IB_UVERBS_SRQT_BASIC;
	in.a.pd_handle = 1;
	in.a.user_handle = 0;
	in.a.max_wr = 16;
	in.a.max_sge = 1;
	out.s.sz = offsetof(struct uvio_srq, handle) + sizeof(uint32_t);
	memcpy(k.resp, &r, sizeof(r));
	k.resp_len = sizeof(r);
	assert_int_equal(uvio_create_srq(dev, &in.a, NULL, &out.s, &p), 0);
	assert_int_equal(h->command, IB_USER_VERBS_CMD_CREATE_SRQ);
	memcpy(&got, h + 1, sizeof(got));
	got.response = 0;
	assert_memory_equal(&got, &want, sizeof(want));	/* srq_limit 0 */
	assert_int_equal(out.s.handle, 7);
	for (size_t i = offsetof(struct uvio_srq, handle) + 4; i < sizeof(out); i++)
		assert_int_equal(((uint8_t *)&out)[i], 0x5a);

	/* An output too short for the handle would lose the object. */
	out.s.sz = sizeof(size_t);
	assert_int_equal(uvio_create_srq(dev, &in.a, NULL, &out.s, &p), -EINVAL);
	/* A newer caller that sets a field this library does not know. */
	{
		struct {
			struct uvio_srq_attr a;
			uint64_t newer;
		} big;

		memset(&big, 0, sizeof(big));
		big.a.sz = sizeof(big);
		big.newer = 1;
		out.s.sz = sizeof(out.s);
		assert_int_equal(uvio_create_srq(dev, &big.a, NULL, &out.s, &p), -E2BIG);
		big.newer = 0;
		assert_int_equal(uvio_create_srq(dev, &big.a, NULL, &out.s, &p), 0);
	}
	assert_int_equal(uvio_create_srq(dev, NULL, NULL, &out.s, &p), -EINVAL);
	assert_int_equal(fake.write_calls, 2);
	uvio_device_close(dev);
}

/* The library's address vector reaches the kernel's layout field by field,
 * its reserved bytes zero. */
static void ah_reserved_zero(void **state)
{
	struct uvio_device *dev = fresh(UVIO_PATH_WRITE);
	UVIO_OPTS(uvio_ah_attr, a, .pd_handle = 1, .user_handle = 2);
	struct ib_uverbs_create_ah got;
	const struct ib_uverbs_cmd_hdr *h = (const void *)k.wbuf;
	uint32_t ah;
	enum uvio_path p;
	(void)state;

	a.av.is_global = 1;
	a.av.port_num = 1;
	a.av.sgid_index = 1;
	assert_int_equal(uvio_create_ah(dev, &a, NULL, &ah, &p), 0);
	assert_int_equal(h->command, IB_USER_VERBS_CMD_CREATE_AH);
	memcpy(&got, h + 1, sizeof(got));
	assert_int_equal(got.pd_handle, 1);
	assert_int_equal(got.user_handle, 2);
	assert_int_equal(got.attr.grh.sgid_index, 1);
	assert_int_equal(got.attr.grh.reserved, 0);
	assert_int_equal(got.attr.reserved, 0);
	assert_int_equal(got.reserved, 0);
	uvio_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ex_commands_over_invoke_write),
		cmocka_unit_test(wq_encodings),
		cmocka_unit_test(rwq_table_encodings),
		cmocka_unit_test(flow_with_counters),
		cmocka_unit_test(counters_and_esp),
		cmocka_unit_test(mr_encodings),
		cmocka_unit_test(siw_reg_mr_request),
		cmocka_unit_test(write_driver_input_default_space),
		cmocka_unit_test(query_device_ex_roomy),
		cmocka_unit_test(outputs_too_small_for_the_handle),
		cmocka_unit_test(srq_encodings),
		cmocka_unit_test(everything_at_once),
		cmocka_unit_test(old_callers),
		cmocka_unit_test(ah_reserved_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
