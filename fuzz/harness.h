/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz targets share: the mark that keeps the harness's own loops
 * out of the coverage the fuzzer steers by, and the check of the JSON the
 * decoders write.
 */
#ifndef UVIO_FUZZ_HARNESS_H
#define UVIO_FUZZ_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_attribute)
#if __has_attribute(no_sanitize_coverage)
#define HARNESS __attribute__((no_sanitize_coverage))
#endif
#endif
#ifndef HARNESS
#define HARNESS
#endif

/* JSON text of n bytes, on one line: strings closed and free of control
 * characters, escapes whole, brackets nested and closed. Aborts (the
 * fuzzer's finding) otherwise. */
HARNESS static inline void fuzz_check_json(const char *s, size_t n)
{
	int depth = 0;
	bool in_str = false;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (in_str) {
			if ((unsigned char)c < 0x20)
				abort();
			if (c == '\\') {
				if (++i >= n || !strchr("\"\\/bfnrtu", s[i]))
					abort();
			} else if (c == '"') {
				in_str = false;
			}
			continue;
		}
		if (c == '"')
			in_str = true;
		else if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']')
			depth--;
		if (depth < 0 || c == '\n')
			abort();
	}
	if (depth || in_str)
		abort();
}

#endif
