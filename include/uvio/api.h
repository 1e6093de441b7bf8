/* SPDX-License-Identifier: MIT */
#ifndef UVIO_API_H
#define UVIO_API_H

/* Everything is hidden unless marked here and named in lib/libuverbs_ioctl.map. */
#if defined(__GNUC__) && !defined(UVIO_STATIC_BUILD)
#define UVIO_API __attribute__((visibility("default")))
#else
#define UVIO_API
#endif

#endif
