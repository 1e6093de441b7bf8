/* SPDX-License-Identifier: MIT */
/* Internal: what the names table knows beyond the public lookups. */
#ifndef UVIO_LIB_NAMES_H
#define UVIO_LIB_NAMES_H

#include <stdint.h>

/* The kind the names table gives an attribute, 0 when unknown. */
int uvio_attr_known_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id);

#endif
