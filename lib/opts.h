/* SPDX-License-Identifier: MIT */
/*
 * Sized structs (UVIO_OPTS in <uvio/api.h>): the caller's sz says how much
 * of the struct its header knew. Fields past it read as zero and are never
 * written; bytes past what this library knows must be zero.
 */
#ifndef UVIO_OPTS_PRIV_H
#define UVIO_OPTS_PRIV_H

#include <errno.h>
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
 * Check a sized struct: -EINVAL when missing (and required) or shorter than
 * its size field, -E2BIG when bytes past the known size are not zero. known
 * is the end of the last field this library knows, uvio_offsetofend(), not
 * sizeof: a field added later may sit in today's tail padding.
 */
static inline int uvio_opts_check(const void *p, size_t known, int required)
{
	const size_t *sz = (const size_t *)p;
	const unsigned char *b = (const unsigned char *)p;
	size_t i;

	if (!p)
		return required ? -EINVAL : 0;
	if (*sz < sizeof(size_t))
		return -EINVAL;
	if (__builtin_expect(*sz <= known, 1))
		return 0;
	for (i = known; i < *sz; i++)
		if (b[i])
			return -E2BIG;
	return 0;
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
