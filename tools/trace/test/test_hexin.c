/*
 * The hex reader of uverbs-decode, on the dumps people paste: real output of
 * xxd, hexdump -C and od (captured once from those tools), plain hex in its
 * spellings, a line longer than any line buffer, and input it must refuse.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../hexin.h"

/* The bytes every dump below shows: 72 'A', "BCD", 00 01 ff. */
static const unsigned char expect78[] = {
	'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
	'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
	'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
	'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A',
	'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'B', 'C', 'D', 0x00, 0x01, 0xff,
};

static int feed(struct hexin *h, const char *text)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) + 1 : strlen(text);
		int ret = hexin_line(h, text, n);

		if (ret)
			return ret;
		text += n;
	}
	return hexin_finish(h);
}

static void expect_bytes(const char *text, const unsigned char *want, size_t n, int format)
{
	static unsigned char buf[65536];
	struct hexin h;

	hexin_init(&h, buf, sizeof(buf));
	if (feed(&h, text))
		fail_msg("refused: %s", h.msg);
	assert_int_equal(h.format, format);
	assert_int_equal(h.len, n);
	assert_memory_equal(buf, want, n);
}

static void expect_error(const char *text, int err, const char *msg_part)
{
	static unsigned char buf[64];
	struct hexin h;

	hexin_init(&h, buf, sizeof(buf));
	assert_int_equal(feed(&h, text), err);
	if (!strstr(h.msg, msg_part))
		fail_msg("message '%s' lacks '%s'", h.msg, msg_part);
}

static void xxd_default(void **state)
{
	(void)state;
	/* The ASCII column ("AAAA...") is all hex digits: it must not be read. */
	expect_bytes("00000000: 4141 4141 4141 4141 4141 4141 4141 4141  AAAAAAAAAAAAAAAA\n"
		     "00000010: 4141 4141 4141 4141 4141 4141 4141 4141  AAAAAAAAAAAAAAAA\n"
		     "00000020: 4141 4141 4141 4141 4141 4141 4141 4141  AAAAAAAAAAAAAAAA\n"
		     "00000030: 4141 4141 4141 4141 4141 4141 4141 4141  AAAAAAAAAAAAAAAA\n"
		     "00000040: 4141 4141 4141 4141 4243 4400 01ff       AAAAAAAABCD...\n",
		     expect78, sizeof(expect78), HEXIN_FMT_XXD);
}

static void xxd_g1_autoskip(void **state)
{
	static const unsigned char zeros[80] = { [0] = 0x18, [79] = 0xee };

	(void)state;
	/* xxd -a -g1 on 80 bytes with zero lines in the middle: '*' */
	expect_bytes("00000000: 18 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n"
		     "00000010: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n"
		     "*\n"
		     "00000040: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 ee  ................\n",
		     zeros, sizeof(zeros), HEXIN_FMT_XXD);
}

static void hexdump_c(void **state)
{
	(void)state;
	expect_bytes("00000000  41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  |AAAAAAAAAAAAAAAA|\n"
		     "*\n"
		     "00000040  41 41 41 41 41 41 41 41  42 43 44 00 01 ff        |AAAAAAAABCD...|\n"
		     "0000004e\n",
		     expect78, sizeof(expect78), HEXIN_FMT_HEXDUMP_C);
}

static void od_offsets(void **state)
{
	(void)state;
	/* od -tx1: octal offsets */
	expect_bytes("0000000 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n"
		     "*\n"
		     "0000100 41 41 41 41 41 41 41 41 42 43 44 00 01 ff\n"
		     "0000116\n",
		     expect78, sizeof(expect78), HEXIN_FMT_OD);
	/* od -Ad -tx1: decimal */
	expect_bytes("0000000 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n"
		     "*\n"
		     "0000064 41 41 41 41 41 41 41 41 42 43 44 00 01 ff\n"
		     "0000078\n",
		     expect78, sizeof(expect78), HEXIN_FMT_OD);
	/* od -Ax -tx1: six hex digits */
	expect_bytes("000000 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41 41\n"
		     "*\n"
		     "000040 41 41 41 41 41 41 41 41 42 43 44 00 01 ff\n"
		     "00004e\n",
		     expect78, sizeof(expect78), HEXIN_FMT_OD);
}

static void od_no_offsets(void **state)
{
	static const unsigned char b[] = { 0x18, 0x00, 0x03, 0x00, 0xff };

	(void)state;
	expect_bytes(" 18 00 03\n 00 ff\n", b, sizeof(b), HEXIN_FMT_PLAIN);
	/* od -An without -v may leave lines out: there is no telling how many */
	expect_error(" 41 41\n*\n 42 43\n", -EINVAL, "needs offsets");
}

static void plain_spellings(void **state)
{
	static const unsigned char b[] = { 0x18, 0x00, 0x03, 0x08, 0xab, 0xcd };

	(void)state;
	expect_bytes("18 00 03 08 ab cd", b, sizeof(b), HEXIN_FMT_PLAIN);
	expect_bytes("180003\n08abcd\n", b, sizeof(b), HEXIN_FMT_PLAIN);
	expect_bytes("{ 0x18, 0x00, 0x3, 0x8, 0xAB, 0xcd };", b, sizeof(b), HEXIN_FMT_PLAIN);
	expect_bytes("\\x18\\x00\\x03\\x08\\xab\\xcd", b, sizeof(b), HEXIN_FMT_PLAIN);
	expect_bytes("18:00:03:08:ab:cd", b, sizeof(b), HEXIN_FMT_PLAIN);
	/* the hex of an UVERBS_IOCTL_TRACE=1 line */
	expect_bytes("rxe0   hex 18000308abcd\n", b, sizeof(b), HEXIN_FMT_PLAIN);
}

static void long_line(void **state)
{
	/* 12000 digits on one line: no half-byte shift anywhere. */
	static unsigned char want[6000];
	static char text[12002];

	(void)state;
	for (size_t i = 0; i < sizeof(want); i++) {
		static const char d[] = "0123456789abcdef";

		want[i] = (unsigned char)(i * 7 + 1);
		text[2 * i] = d[want[i] >> 4];
		text[2 * i + 1] = d[want[i] & 15];
	}
	text[12000] = '\n';
	expect_bytes(text, want, sizeof(want), HEXIN_FMT_PLAIN);
}

static void refusals(void **state)
{
	(void)state;
	expect_error("123", -EINVAL, "odd number");
	expect_error("18 zz 00", -EINVAL, "not hex");
	expect_error("18 0g", -EINVAL, "not hex");
	/* a dump line missing: the offset says so */
	expect_error("00000000: 4141 4141  AAAA\n00000008: 4141  AA\n", -EINVAL, "line missing");
	expect_error("00000000  41 41  |AA|\n*\n", -EINVAL, "at the end");
	/* more than the buffer */
	{
		char big[200];

		memset(big, 'a', 198);
		big[198] = '\n';
		big[199] = 0;
		expect_error(big, -E2BIG, "more than 64 bytes");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xxd_default),
		cmocka_unit_test(xxd_g1_autoskip),
		cmocka_unit_test(hexdump_c),
		cmocka_unit_test(od_offsets),
		cmocka_unit_test(od_no_offsets),
		cmocka_unit_test(plain_spellings),
		cmocka_unit_test(long_line),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
