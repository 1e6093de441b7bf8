/* SPDX-License-Identifier: MIT */
#ifndef UVIO_API_H
#define UVIO_API_H

#include <stddef.h>
#include <string.h>

/* Everything is hidden unless marked here and named in lib/libuverbs_ioctl.map. */
#if defined(__GNUC__) && !defined(UVIO_STATIC_BUILD)
#define UVIO_API __attribute__((visibility("default")))
#else
#define UVIO_API
#endif

/*
 * The builder's fast paths are inline functions of the headers. The library
 * also exports each of them under its own name (lib/cmd/ffi.c defines
 * UVIO_FFI_DEFINE before it includes the headers), for what cannot call a
 * C inline function: Rust's bindgen, Python's ctypes and cffi, dlsym(). C
 * and C++ callers get the inline copies.
 */
#ifdef UVIO_FFI_DEFINE
#define UVIO_INLINE UVIO_API
#else
#define UVIO_INLINE static inline
#endif

/*
 * Structs that a later kernel may grow begin with `size_t sz`, the size the
 * caller was compiled with. The library reads (and, for outputs, writes) only
 * the fields that lie inside sz, so a binary built against an older header
 * keeps working with a newer library, and a newer binary gets -E2BIG from an
 * older library only when it sets a field that library does not know (bytes
 * past the end it knows must be zero). Zero means "not given" for every
 * field. Declare such a struct with
 *
 *	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 256);
 *
 * or with a designated initializer, or memset it to zero and set sz. The
 * structs end in named fields (reserved ones where padding would be), so
 * that each of these ways leaves their last bytes zero: the library cannot
 * tell a non-zero byte there from a field it does not know.
 */
#define UVIO_OPTS(type, name, ...)                                              \
	struct type name;                                                      \
	memset(&name, 0, sizeof(name));                                        \
	name = (struct type){ .sz = sizeof(struct type), __VA_ARGS__ }

#endif
