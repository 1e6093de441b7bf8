/* SPDX-License-Identifier: MIT */
/* Internal: reading numbers from bytes a caller or a tracee gave: any
 * alignment, host byte order as the kernel reads them (ld_be for the
 * network-order fields). */
#ifndef UVIO_LIB_BYTES_H
#define UVIO_LIB_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t ld16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The first n (<= 8) bytes as a little-endian number. */
static inline uint64_t ld_le(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

/* n (<= 8) bytes as a big-endian number. */
static inline uint64_t ld_be(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

#endif
