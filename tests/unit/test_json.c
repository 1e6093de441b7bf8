/*
 * The tree's one JSON string escaper (lib/report/sbuf.c) byte by byte, and
 * uverbs-info's ports (tools/info_ports.c) read from a sysfs tree of the
 * test's own whose words hold a quote, a backslash, control bytes, UTF-8
 * and bytes that are not UTF-8: exactly what it prints, and that Python's
 * json.loads, a strict consumer, parses it to the words sysfs held.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "report/sbuf.h"
#include "../../tools/info_ports.h"
#include "fake_sysfs.h"

static void json_is(const char *in, size_t n, const char *want)
{
	char buf[512];
	struct sbuf s;

	sb_init(&s, buf, sizeof(buf));
	sb_json_strn(&s, in, n);
	assert_false(s.cut);
	assert_int_equal(s.need, strlen(want));
	assert_string_equal(buf, want);
}

#define JSON_IS(lit, want) json_is(lit, sizeof(lit) - 1, want)

static void escapes(void **state)
{
	(void)state;
	JSON_IS("", "\"\"");
	JSON_IS("ACTIVE", "\"ACTIVE\"");
	JSON_IS("a\"b\\c", "\"a\\\"b\\\\c\"");
	JSON_IS("\n\t\r\x01\x1f\x7f", "\"\\n\\t\\u000d\\u0001\\u001f\\u007f\"");
	JSON_IS("a\0b", "\"a\\u0000b\"");		/* the length, not the NUL, ends it */
}

/* Well-formed UTF-8 as it is: the characters a consumer reads are the
 * ones the bytes spell (not "Ã©" for "é"). */
static void utf8_kept(void **state)
{
	(void)state;
	JSON_IS("\xc3\xa9", "\"\xc3\xa9\"");			/* é, 2 bytes */
	JSON_IS("\xe2\x82\xac", "\"\xe2\x82\xac\"");		/* €, 3 */
	JSON_IS("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");	/* U+1F600, 4 */
	JSON_IS("\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf",
		"\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\"");	/* the edges */
	JSON_IS("x\xc3\xa9\"y", "\"x\xc3\xa9\\\"y\"");
}

/* Every other byte >= 0x80 as \u00XX, and what follows it read afresh. */
static void invalid_escaped(void **state)
{
	(void)state;
	JSON_IS("\xff", "\"\\u00ff\"");
	JSON_IS("\x80", "\"\\u0080\"");				/* a lone continuation */
	JSON_IS("a\xe2\x82", "\"a\\u00e2\\u0082\"");		/* cut short at the end */
	JSON_IS("\xe2\x82z", "\"\\u00e2\\u0082z\"");		/* cut short inside */
	JSON_IS("\xc0\xaf", "\"\\u00c0\\u00af\"");		/* overlong '/' */
	JSON_IS("\xe0\x9f\xbf", "\"\\u00e0\\u009f\\u00bf\"");	/* overlong, 3 bytes */
	JSON_IS("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");	/* a surrogate */
	JSON_IS("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");	/* past U+10FFFF */
	JSON_IS("\xf5\x80", "\"\\u00f5\\u0080\"");
	JSON_IS("\xc3\xc3\xa9", "\"\\u00c3\xc3\xa9\"");		/* a bad lead, then é */
}

/* What a buffer too small for the text counts: need is the whole text. */
static void need_counted(void **state)
{
	char buf[4];
	struct sbuf s;
	(void)state;

	sb_init(&s, buf, sizeof(buf));
	sb_json_str(&s, "\xff\"x");
	assert_true(s.cut);
	assert_int_equal(s.need, strlen("\"\\u00ff\\\"x\""));
}

/* s piped to python3's json.loads, which must parse it and find in it what
 * check (a Python expression over d) says; true when it did. The bytes, not
 * sys.stdin's text: its decoding depends on the locale (under C.UTF-8 it
 * lets invalid UTF-8 through as surrogates), json.loads of bytes is strict
 * UTF-8 always. */
static bool python_agrees(const char *s, const char *check)
{
	char cmd[1024];
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys; d = json.loads(sys.stdin.buffer.read()); "
		 "sys.exit(0 if %s else ascii(d))'", check);
	p = popen(cmd, "w");
	assert_non_null(p);
	fputs(s, p);
	st = pclose(p);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static bool have_python(void)
{
	return system("command -v python3 >/dev/null 2>&1") == 0;
}

#define PORT "class/infiniband/dev\"0/ports/1/"

static void info_port_parses(void **state)
{
	struct info_port ip;
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	fake_sysfs_put(PORT "state", "4: AC\"T\\IVE\x01\xc3\xa9\xff\n");
	fake_sysfs_put(PORT "phys_state", "5: Link\tUp \xe2\x82\n");
	fake_sysfs_put(PORT "link_layer", "Eth\x7f" "ernet \xe2\x82\xac\n");
	info_read_port(fake_sysfs(), "dev\"0", 1, &ip);
	assert_int_equal(ip.state_num, 4);
	assert_int_equal(ip.phys_state_num, 5);

	f = open_memstream(&out, &len);
	assert_non_null(f);
	fputc('{', f);
	info_port_json(f, &ip);
	fputc('}', f);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(out,
		"{\"port\":1,\"state\":\"AC\\\"T\\\\IVE\\u0001\xc3\xa9\\u00ff\",\"state_num\":4,"
		"\"phys_state\":\"Link\\tUp \\u00e2\\u0082\",\"phys_state_num\":5,"
		"\"link_layer\":\"Eth\\u007fernet \xe2\x82\xac\"}");
	if (!have_python()) {
		free(out);
		skip();	/* the bytes above are checked; the parse needs python3 */
	}
	assert_true(python_agrees(out,
		"d[\"state\"] == \"AC\\\"T\\\\IVE\\x01\\u00e9\\u00ff\" and "
		"d[\"phys_state\"] == \"Link\\tUp \\u00e2\\u0082\" and "
		"d[\"link_layer\"] == \"Eth\\x7fernet \\u20ac\" and d[\"state_num\"] == 4"));
	free(out);
}

/* A missing file: an empty word and -1, still JSON. */
static void info_port_missing(void **state)
{
	struct info_port ip;
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	info_read_port(fake_sysfs(), "nosuch", 2, &ip);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	info_port_json(f, &ip);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(out, "\"port\":2,\"state\":\"\",\"state_num\":-1,\"phys_state\":\"\","
				 "\"phys_state_num\":-1,\"link_layer\":\"\"");
	free(out);
}

/* A string longer than the tool's stack buffer: escaped whole, not cut. */
static void info_long_string(void **state)
{
	char in[1001], *out = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	memset(in, '"', sizeof(in) - 1);
	in[sizeof(in) - 1] = 0;
	in[500] = '\xff';
	f = open_memstream(&out, &len);
	assert_non_null(f);
	info_json_str(f, in);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 2 + 999 * 2 + 6);
	assert_memory_equal(out + 1 + 500 * 2, "\\u00ff\\\"", 8);
	if (have_python())
		assert_true(python_agrees(out, "len(d) == 1000 and d[500] == \"\\u00ff\""));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
		cmocka_unit_test(utf8_kept),
		cmocka_unit_test(invalid_escaped),
		cmocka_unit_test(need_counted),
		cmocka_unit_test(info_port_parses),
		cmocka_unit_test(info_port_missing),
		cmocka_unit_test(info_long_string),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
