// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/sbuf.h"

void sb_init(struct sbuf *s, char *buf, size_t size)
{
	s->buf = buf;
	s->size = size;
	s->len = 0;
	s->need = 0;
	s->cut = false;
	if (size)
		buf[0] = 0;
}

static size_t room(const struct sbuf *s)
{
	return s->size ? s->size - 1 - s->len : 0;
}

void sb_printf(struct sbuf *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->size ? s->buf + s->len : NULL, s->size - s->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s->need += (size_t)n;
	if (!s->size)
		return;
	if ((size_t)n > room(s)) {
		s->len = s->size - 1;
		s->cut = true;
	} else {
		s->len += (size_t)n;
	}
}

void sb_putn(struct sbuf *s, const char *p, size_t n)
{
	s->need += n;
	if (!s->size)
		return;
	if (n > room(s)) {
		n = room(s);
		s->cut = true;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = 0;
}

void sb_putu(struct sbuf *s, unsigned long long v)
{
	char digits[20];
	size_t n = sizeof(digits);

	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sb_putn(s, digits + n, sizeof(digits) - n);
}

void sb_puts(struct sbuf *s, const char *p)
{
	sb_putn(s, p, strlen(p));
}

/*
 * The length of the well-formed UTF-8 sequence of two to four bytes at p (n
 * bytes there), or 0: RFC 3629's table, so no overlong form, no surrogate
 * (U+D800-DFFF) and nothing past U+10FFFF, which strict decoders refuse.
 */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		lo = p[0] == 0xe0 ? 0xa0 : 0x80;
		hi = p[0] == 0xed ? 0x9f : 0xbf;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		lo = p[0] == 0xf0 ? 0x90 : 0x80;
		hi = p[0] == 0xf4 ? 0x8f : 0xbf;
	} else {
		return 0;
	}
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * The tree's one JSON string escaper (uverbs-trace's lines, the decoders'
 * JSON, uverbs-info --json). What it writes is strict JSON (RFC 8259) in
 * UTF-8, whatever the bytes: names and strings from sysfs, the kernel or a
 * tracee are bytes, not text, and may hold anything.
 *
 *   " and \             escaped with a backslash
 *   newline and tab     \n and \t
 *   other bytes < 0x20  \u00XX, and DEL (0x7f) too, to keep it visible
 *   well-formed UTF-8   as it is: a consumer reads the characters the
 *                       bytes spell (escaping them byte by byte would turn
 *                       "é" into "Ã©", mojibake that parses)
 *   any other byte      \u00XX: a stray byte >= 0x80, a sequence cut short
 *                       (a sysfs word cut at 31 bytes), an overlong form or
 *                       a surrogate. Written raw it makes the whole text
 *                       invalid UTF-8, which strict consumers (Python's
 *                       json.loads of the bytes, serde_json) refuse
 *                       outright; as U+00XX it parses everywhere and keeps
 *                       the byte's value. \udcXX (Python's surrogateescape)
 *                       would tell such a byte from a real U+00XX, but is a
 *                       lone surrogate that strict parsers refuse as well.
 *
 * Runs of bytes that need nothing go out in one append.
 */
void sb_json_strn(struct sbuf *s, const char *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0;

	sb_putn(s, "\"", 1);
	while (i < n) {
		size_t run = i, len;
		char esc[6];

		for (;;) {
			if (run < n && u[run] >= 0x20 && u[run] < 0x7f && u[run] != '"' &&
			    u[run] != '\\')
				run++;
			else if (run < n && u[run] >= 0x80 && (len = utf8_len(u + run, n - run)))
				run += len;
			else
				break;
		}
		if (run > i)
			sb_putn(s, p + i, run - i);
		if (run == n)
			break;
		esc[0] = '\\';
		if (u[run] == '"' || u[run] == '\\') {
			esc[1] = (char)u[run];
			sb_putn(s, esc, 2);
		} else if (u[run] == '\n') {
			sb_putn(s, "\\n", 2);
		} else if (u[run] == '\t') {
			sb_putn(s, "\\t", 2);
		} else {
			memcpy(esc, "\\u00", 4);
			esc[4] = digits[u[run] >> 4];
			esc[5] = digits[u[run] & 15];
			sb_putn(s, esc, 6);
		}
		i = run + 1;
	}
	sb_putn(s, "\"", 1);
}

void sb_json_str(struct sbuf *s, const char *p)
{
	sb_json_strn(s, p, strlen(p));
}

void sb_hex(struct sbuf *s, const uint8_t *p, size_t n, char sep)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		char b[3];
		size_t k = 0;

		if (sep && i)
			b[k++] = sep;
		b[k++] = digits[p[i] >> 4];
		b[k++] = digits[p[i] & 15];
		sb_putn(s, b, k);
	}
}
