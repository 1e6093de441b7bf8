/*
 * uverbs-decode: a uverbs ioctl command buffer in words.
 *
 *   uverbs-decode [--2017] [HEX...]
 *
 * The bytes come from the arguments or, without any, from standard input,
 * as hex in any common spelling: "18 00 03 00", "0x18,0x00", "\x18\x00",
 * hexdump or xxd lines (a leading offset ending in ':' is skipped).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uvio.h>

static unsigned char buf[65536];
static size_t len;

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

/* Take every pair of hex digits; "0x" and "\x" prefixes, separators and
 * xxd/hexdump offsets are skipped. */
static void take(const char *s)
{
	const char *colon = strchr(s, ':');

	/* "00000010: 18 00 ..." (xxd) or "0000010:" offsets */
	if (colon && colon - s >= 4 && strspn(s, "0123456789abcdefABCDEF") == (size_t)(colon - s))
		s = colon + 1;
	while (*s && len < sizeof(buf)) {
		if ((s[0] == '0' || s[0] == '\\') && (s[1] == 'x' || s[1] == 'X')) {
			s += 2;
			continue;
		}
		if (isxdigit((unsigned char)s[0]) && isxdigit((unsigned char)s[1])) {
			buf[len++] = (unsigned char)(hexval(s[0]) << 4 | hexval(s[1]));
			s += 2;
			continue;
		}
		if (isxdigit((unsigned char)s[0]) && !isxdigit((unsigned char)s[1])) {
			buf[len++] = (unsigned char)hexval(s[0]);	/* "0x8," */
		}
		s++;
	}
}

int main(int argc, char **argv)
{
	enum uvio_layout layout = UVIO_LAYOUT_CURRENT;
	static char text[1 << 20];
	bool from_args = false;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--2017")) {
			layout = UVIO_LAYOUT_2017;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: uverbs-decode [--2017] [HEX...]  (stdin without HEX)\n");
			return 0;
		} else {
			take(argv[i]);
			from_args = true;
		}
	}
	if (!from_args) {
		char line[4096];

		while (fgets(line, sizeof(line), stdin))
			take(line);
	}
	ret = uvio_decode(buf, len, layout, text, sizeof(text));
	printf("%s\n", text);
	return ret < 0 ? 1 : 0;
}
