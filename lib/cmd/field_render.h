/* SPDX-License-Identifier: MIT */
/* Internal: render a struct described by a field table (abi/field_table.h)
 * from bytes that may be short: a field past the end is left out and the
 * shortfall named. */
#ifndef UVIO_LIB_FIELD_RENDER_H
#define UVIO_LIB_FIELD_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/field_table.h"
#include "report/sbuf.h"

/* Render struct st from n bytes at p: text "name=value name=value ..." or
 * JSON members "name":value,... (no braces). */
void ff_render(struct sbuf *s, bool json, const struct fstruct *st, const uint8_t *p, size_t n);
/* The value of one field (for use in other renderers). */
void ff_value(struct sbuf *s, bool json, const struct ffield *f, const uint8_t *p, size_t n);

#endif /* UVIO_LIB_FIELD_RENDER_H */
