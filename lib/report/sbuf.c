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

void sb_json_strn(struct sbuf *s, const char *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";

	sb_putn(s, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		char esc[7];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			sb_putn(s, esc, 2);
		} else if (c == '\n') {
			sb_putn(s, "\\n", 2);
		} else if (c == '\t') {
			sb_putn(s, "\\t", 2);
		} else if (c < 0x20 || c >= 0x7f) {
			/* Bytes outside printable ASCII: escaped, so the line
			 * stays valid JSON whatever the tracee held. */
			memcpy(esc, "\\u00", 4);
			esc[4] = digits[c >> 4];
			esc[5] = digits[c & 15];
			sb_putn(s, esc, 6);
		} else {
			sb_putn(s, (const char *)&c, 1);
		}
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
