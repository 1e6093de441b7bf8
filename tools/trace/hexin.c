// SPDX-License-Identifier: MIT
/*
 * Pasted hex to bytes. The format is decided by the first line that holds
 * data; the offsets of the dump formats are checked against the bytes read so
 * far, which catches a missing or doubled line, and resolve '*' (lines equal
 * to the one before, left out by hexdump -C, od and xxd -a).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hexin.h"

#define MAX_OFFSET_DIGITS 16

static int fail(struct hexin *h, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct hexin *h, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (h->error)
		return h->error;
	n = snprintf(h->msg, sizeof(h->msg), "line %u: ", h->line);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(h->msg))
		vsnprintf(h->msg + n, sizeof(h->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	h->error = err;
	return err;
}

static int xval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

void hexin_init(struct hexin *h, void *buf, size_t cap)
{
	memset(h, 0, sizeof(*h));
	h->buf = buf;
	h->cap = cap;
}

const char *hexin_format_name(int format)
{
	switch (format) {
	case HEXIN_FMT_PLAIN: return "plain hex";
	case HEXIN_FMT_XXD: return "xxd";
	case HEXIN_FMT_HEXDUMP_C: return "hexdump -C";
	case HEXIN_FMT_OD: return "od";
	}
	return "none";
}

static int put(struct hexin *h, unsigned int byte)
{
	if (h->len >= h->cap)
		return fail(h, -E2BIG, "more than %zu bytes", h->cap);
	h->buf[h->len++] = (unsigned char)byte;
	return 0;
}

/* Digits [s, s + n) as bytes, two digits each. */
static int put_digits(struct hexin *h, const char *s, size_t n)
{
	if (n % 2)
		return fail(h, -EINVAL, "odd number of hex digits in '%.*s'", (int)(n > 40 ? 40 : n), s);
	for (size_t i = 0; i < n; i += 2) {
		int ret = put(h, (unsigned int)(xval(s[i]) << 4 | xval(s[i + 1])));

		if (ret)
			return ret;
	}
	return 0;
}

static size_t hex_span(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && xval(s[i]) >= 0)
		i++;
	return i;
}

/* Plain text: tokens separated by blanks and punctuation; a token is hex
 * digits, optionally after 0x, or a run of \xNN escapes. A one-digit token
 * after 0x or \x is one byte ("0x8,"). */
static int plain(struct hexin *h, const char *s, size_t n)
{
	size_t i = 0;

	/* An UVERBS_IOCTL_TRACE=1 line: "rxe0   hex 1800...". */
	for (size_t j = 0; j + 5 <= n; j++)
		if ((j == 0 || is_space(s[j - 1])) && !memcmp(s + j, "hex ", 4)) {
			i = j + 4;
			break;
		}
	while (i < n) {
		bool prefixed = false;
		size_t d;

		if (is_space(s[i]) || strchr(",;:{}[]()\"'", s[i])) {
			i++;
			continue;
		}
		if (i + 1 < n && (s[i] == '0' || s[i] == '\\') && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
			i += 2;
			prefixed = true;
		}
		d = hex_span(s + i, n - i);
		if (d == 0)
			return fail(h, -EINVAL, "not hex: '%.*s'", (int)(n - i > 20 ? 20 : n - i), s + i);
		if (i + d < n && !is_space(s[i + d]) && !strchr(",;:{}[]()\"'\\", s[i + d]))
			return fail(h, -EINVAL, "not hex: '%.*s'",
				    (int)(n - i > 20 ? 20 : n - i), s + i);
		if (d == 1 && prefixed) {
			int ret = put(h, (unsigned int)xval(s[i]));

			if (ret)
				return ret;
		} else {
			int ret = put_digits(h, s + i, d);

			if (ret)
				return ret;
		}
		i += d;
	}
	return 0;
}

/* Hex groups separated by blanks, up to n: any group size of whole bytes. */
static int groups(struct hexin *h, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t d;
		int ret;

		if (is_space(s[i])) {
			i++;
			continue;
		}
		d = hex_span(s + i, n - i);
		if (d == 0 || (i + d < n && !is_space(s[i + d])))
			return fail(h, -EINVAL, "not hex: '%.*s'", (int)(n - i > 20 ? 20 : n - i), s + i);
		ret = put_digits(h, s + i, d);
		if (ret)
			return ret;
		i += d;
	}
	return 0;
}

static int parse_off(const char *s, size_t n, int base, unsigned long long *v)
{
	unsigned long long x = 0;

	if (n == 0 || n > MAX_OFFSET_DIGITS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int d = xval(s[i]);

		if (d < 0 || d >= base)
			return -1;
		x = x * (unsigned int)base + (unsigned int)d;
	}
	*v = x;
	return 0;
}

/* The offset that starts a dump line: check it, and fill in what a '*'
 * left out. */
static int offset(struct hexin *h, const char *s, size_t n)
{
	unsigned long long off = 0, expect;

	if (!h->offset_base) {
		/* od: the first offset is the start; a later one tells the
		 * base, octal unless the offsets only fit decimal (-Ad) or hex
		 * (-Ax, which also prints 6 digits instead of 7). */
		static const int bases[] = { 8, 10, 16 };
		unsigned long long first;

		if (!h->have_last_off) {
			if (parse_off(s, n, 16, &off))
				return fail(h, -EINVAL, "bad offset '%.*s'", (int)n, s);
			snprintf(h->last_off_text, sizeof(h->last_off_text), "%.*s", (int)n, s);
			h->have_last_off = 1;
			return 0;
		}
		for (size_t b = n == 6 ? 2 : 0; b < 3 && !h->offset_base; b++) {
			if (parse_off(h->last_off_text, strlen(h->last_off_text), bases[b], &first) ||
			    parse_off(s, n, bases[b], &off))
				continue;
			if (h->star ? off >= first + h->len && h->last_len &&
				      (off - first - h->len) % h->last_len == 0 :
				      off == first + h->len)
				h->offset_base = bases[b];
		}
		if (!h->offset_base)
			return fail(h, -EINVAL, "offset %.*s does not follow the lines before it",
				    (int)n, s);
		parse_off(h->last_off_text, strlen(h->last_off_text), h->offset_base, &first);
		h->last_off = first;
	}
	if (parse_off(s, n, h->offset_base, &off))
		return fail(h, -EINVAL, "bad offset '%.*s'", (int)n, s);
	if (!h->have_last_off) {
		h->have_last_off = 1;
		h->last_off = off;	/* the start of the dump (xxd -s) */
		return 0;
	}
	expect = h->last_off + h->len;
	if (h->star) {
		h->star = 0;
		if (off < expect || !h->last_len || (off - expect) % h->last_len)
			return fail(h, -EINVAL, "offset %.*s does not follow the repeated line", (int)n, s);
		for (unsigned long long k = (off - expect) / h->last_len; k > 0; k--) {
			if (h->len + h->last_len > h->cap)
				return fail(h, -E2BIG, "more than %zu bytes", h->cap);
			memmove(h->buf + h->len, h->buf + h->last_start, h->last_len);
			h->len += h->last_len;
		}
		return 0;
	}
	if (off != expect)
		return fail(h, -EINVAL, "offset %.*s, but %zu bytes came before it (a line missing?)",
			    (int)n, s, (size_t)(expect - h->last_off));
	return 0;
}

/* The leading offset of a dump line and where the data starts, per format:
 * xxd "hhhhhhhh:", hexdump -C "hhhhhhhh  ", od "ooooooo ". */
static int detect(const char *s, size_t n)
{
	size_t d = hex_span(s, n);

	if (d >= 4 && d <= MAX_OFFSET_DIGITS && d < n && s[d] == ':')
		return HEXIN_FMT_XXD;
	if (d >= 8 && d <= MAX_OFFSET_DIGITS && d + 2 < n && s[d] == ' ' && s[d + 1] == ' ' &&
	    xval(s[d + 2]) >= 0)
		return HEXIN_FMT_HEXDUMP_C;
	if ((d == 6 || d == 7) && d + 3 <= n && s[d] == ' ' && xval(s[d + 1]) >= 0 &&
	    xval(s[d + 2]) >= 0 && (d + 3 == n || is_space(s[d + 3])))
		return HEXIN_FMT_OD;
	return HEXIN_FMT_PLAIN;
}

int hexin_line(struct hexin *h, const char *s, size_t n)
{
	size_t start, d, end;
	int ret;

	if (h->error)
		return h->error;
	h->line++;
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || is_space(s[n - 1])))
		n--;
	start = 0;
	while (start < n && is_space(s[start]))
		start++;
	if (start == n)
		return 0;
	if (n - start == 1 && s[start] == '*') {
		if (h->format == HEXIN_FMT_PLAIN || h->format == HEXIN_FMT_UNKNOWN)
			return fail(h, -EINVAL, "'*' (repeated lines) needs offsets: dump with -v, "
				    "or without -An");
		h->star = 1;
		return 0;
	}
	if (h->format == HEXIN_FMT_UNKNOWN) {
		h->format = detect(s + start, n - start);
		if (h->format == HEXIN_FMT_XXD || h->format == HEXIN_FMT_HEXDUMP_C)
			h->offset_base = 16;
	}
	if (h->format == HEXIN_FMT_PLAIN)
		return plain(h, s + start, n - start);

	s += start;
	n -= start;
	d = hex_span(s, n);
	if (d == 0 || d > MAX_OFFSET_DIGITS)
		return fail(h, -EINVAL, "expected a %s offset", hexin_format_name(h->format));
	ret = offset(h, s, d);
	if (ret)
		return ret;
	if (h->format == HEXIN_FMT_XXD) {
		if (d >= n || s[d] != ':')
			return fail(h, -EINVAL, "expected ':' after the xxd offset");
		d++;
		/* The hex ends where two blanks start the ASCII column. */
		for (end = d; end < n; end++)
			if (end > d + 1 && s[end] == ' ' && s[end - 1] == ' ' && !is_space(s[end - 2]))
				break;
	} else if (h->format == HEXIN_FMT_HEXDUMP_C) {
		const char *bar = memchr(s + d, '|', n - d);

		end = bar ? (size_t)(bar - s) : n;
	} else {
		end = n;
	}
	h->last_start = h->len;
	ret = groups(h, s + d, end - d);
	h->last_len = h->len - h->last_start;
	return ret;
}

int hexin_finish(struct hexin *h)
{
	if (h->error)
		return h->error;
	if (h->star)
		return fail(h, -EINVAL, "'*' (repeated lines) at the end, without the closing offset");
	return 0;
}
