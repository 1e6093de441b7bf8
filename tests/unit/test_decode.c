/* The decoder: words for well-formed commands, survival for anything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <uvio/decode.h>

static char text[8192];

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
	assert_has("CQ.CREATE (object 3, method 0) layout current driver_id 14, 7 attrs, length 136");
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
