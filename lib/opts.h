/* SPDX-License-Identifier: MIT */
/*
 * Sized structs (UVIO_OPTS in <uvio/api.h>): the caller's sz says how much
 * of the struct its header knew. Fields past it read as zero and are never
 * written; bytes past what this library knows must be zero.
 */
#ifndef UVIO_OPTS_PRIV_H
#define UVIO_OPTS_PRIV_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define uvio_offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* Does field lie inside the caller's struct? */
#define UVIO_OPT_HAS(p, field)                                                  \
	((p) && (p)->sz >= uvio_offsetofend(__typeof__(*(p)), field))
/* A field of an input struct, or zero when the caller's struct ends before. */
#define UVIO_OPT(p, field)                                                      \
	(UVIO_OPT_HAS(p, field) ? (p)->field : (__typeof__((p)->field))0)
/* Store into an output struct only where the caller has room. */
#define UVIO_OUT_SET(p, field, value)                                           \
	do {                                                                   \
		if (UVIO_OPT_HAS(p, field))                                    \
			(p)->field = (value);                                  \
	} while (0)

/*
 * Bytes from..to of b all zero? For a caller built with this header (its sz
 * the library's sizeof) both ends are constants at the call and the loops
 * fold into a compare or two: its reserved tail is checked on every call.
 */
static inline __attribute__((always_inline)) bool uvio_tail_zero(const unsigned char *b,
								size_t from, size_t to)
{
	size_t i = from;

	for (; i + 4 <= to; i += 4) {
		uint32_t w;

		memcpy(&w, b + i, 4);
		if (w)
			return false;
	}
	for (; i < to; i++)
		if (b[i])
			return false;
	return true;
}

/*
 * Check a sized struct: -EINVAL when missing (and required) or shorter than
 * its size field, -E2BIG when bytes past the known size are not zero. known
 * is the end of the last field this library knows, uvio_offsetofend(), not
 * sizeof: a field added later may sit in today's tail padding.
 */
static inline int uvio_opts_check(const void *p, size_t known, int required)
{
	const size_t *sz = (const size_t *)p;

	if (!p)
		return required ? -EINVAL : 0;
	if (*sz < sizeof(size_t))
		return -EINVAL;
	if (__builtin_expect(*sz <= known, 1))
		return 0;
	return uvio_tail_zero((const unsigned char *)p, known, *sz) ? 0 : -E2BIG;
}

/* uvio_opts_check() of a struct whose type the call knows: p points to the
 * library's struct, last is its last field this library knows. */
#define UVIO_OPTS_CHECK(p, last, required)                                      \
	uvio_opts_check_sized((p), uvio_offsetofend(__typeof__(*(p)), last), sizeof(*(p)),  \
			      (required))
static inline __attribute__((always_inline)) int
uvio_opts_check_sized(const void *p, size_t known, size_t full, int required)
{
	if (__builtin_expect(p && *(const size_t *)p == full, 1))
		return uvio_tail_zero((const unsigned char *)p, known, full) ? 0 : -E2BIG;
	return uvio_opts_check(p, known, required);
}

/* Outputs: only the size field must make sense. */
static inline int uvio_out_check(const void *p)
{
	return p && *(const size_t *)p >= sizeof(size_t) ? 0 : -EINVAL;
}

/* Copy the fields of the library's sized struct src (known bytes) that lie
 * inside the caller's dst->sz; dst->sz is left as it is. */
static inline void uvio_out_copy(void *dst, const void *src, size_t known)
{
	size_t sz = *(const size_t *)dst;

	if (sz > known)
		sz = known;
	if (sz > sizeof(size_t))
		memcpy((char *)dst + sizeof(size_t), (const char *)src + sizeof(size_t),
		       sz - sizeof(size_t));
}

#endif
