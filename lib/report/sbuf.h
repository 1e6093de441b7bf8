/* SPDX-License-Identifier: MIT */
/* Internal: a bounded text buffer. Appends never overrun and say when text
 * was cut; need counts what the whole text takes (snprintf's answer). The
 * decoders and uverbs-trace write into it. */
#ifndef UVIO_LIB_SBUF_H
#define UVIO_LIB_SBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sbuf {
	char *buf;
	size_t size, len;	/* len < size always; buf[len] == 0 */
	size_t need;		/* what the whole text takes, cut or not */
	bool cut;		/* something did not fit */
};

void sb_init(struct sbuf *s, char *buf, size_t size);
void sb_printf(struct sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_putn(struct sbuf *s, const char *p, size_t n);
void sb_puts(struct sbuf *s, const char *p);
/* A number in decimal, without printf's machinery: device names are built
 * on every open, where a vsnprintf costs more than the rest of it. */
void sb_putu(struct sbuf *s, unsigned long long v);
/* A JSON string, quoted, with everything that needs it escaped: the tree's
 * one escaper (well-formed UTF-8 kept, any other byte >= 0x80 written as
 * \u00XX; sbuf.c says why). */
void sb_json_str(struct sbuf *s, const char *p);
void sb_json_strn(struct sbuf *s, const char *p, size_t n);
/* Bytes as hex, "00 11 22" (sep ' ') or "001122" (sep 0). */
void sb_hex(struct sbuf *s, const uint8_t *p, size_t n, char sep);

#endif /* UVIO_LIB_SBUF_H */
