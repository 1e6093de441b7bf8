/* SPDX-License-Identifier: MIT */
/*
 * Bytes from the hex people paste: xxd (with its offsets and ASCII column,
 * any -g grouping, -p plain), hexdump -C (with its '|ASCII|' column and the
 * '*' of repeated lines), od -tx1 with or without offsets (-An), plain or
 * spaced hex, "0x18, 0x00", "\x18\x00", and the "hex" lines of an
 * UVERBS_IOCTL_TRACE=1 trace. Lines of any length, fed one at a time.
 */
#ifndef UVIO_TRACE_HEXIN_H
#define UVIO_TRACE_HEXIN_H

#include <stddef.h>
#include <stdint.h>

struct hexin {
	unsigned char *buf;
	size_t cap, len;
	unsigned int line;		/* lines seen */
	int format;			/* HEXIN_FMT_*, decided by the first data line */
	int offset_base;		/* 8, 10 or 16 once known; 0 before */
	/* The line before a '*' (repeated lines) and where it started. */
	size_t last_start, last_len;
	unsigned long long last_off;
	int have_last_off;
	int star;			/* a '*' waits for the next offset */
	char last_off_text[24];
	int error;			/* first error, negative errno */
	char msg[160];
};

enum {
	HEXIN_FMT_UNKNOWN = 0,
	HEXIN_FMT_PLAIN,		/* hex, spaced or not, C or \x escapes */
	HEXIN_FMT_XXD,			/* "00000010: 1800 0300 ...  ASCII" */
	HEXIN_FMT_HEXDUMP_C,		/* "00000010  18 00 ...  |ASCII|" */
	HEXIN_FMT_OD,			/* "0000020 18 00 ..." (offsets, od -tx1) */
};

void hexin_init(struct hexin *h, void *buf, size_t cap);
/* One line, without or with its newline; n bytes (no terminator needed).
 * Returns 0 or the first error (negative errno, h->msg says why). */
int hexin_line(struct hexin *h, const char *line, size_t n);
/* After the last line: a '*' left without an offset to end it is an error. */
int hexin_finish(struct hexin *h);
const char *hexin_format_name(int format);

#endif
