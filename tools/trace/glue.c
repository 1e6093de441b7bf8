// SPDX-License-Identifier: MIT
/*
 * What the library knows of an attribute's kind, asked through its public
 * decoder: a one-attribute command for (object, method, attribute) decoded
 * with uvio_decode(), whose attribute line carries the kind the library's
 * tables give. Remembered, so each triple is asked once.
 */
#include <stdio.h>
#include <string.h>

#include <uvio.h>

#include "record.h"

struct kind_cache {
	uint64_t key;		/* 1 << 48 | object << 32 | method << 16 | attr */
	uint8_t kind;
};

static struct kind_cache cache[1024];

static int ask_decoder(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	uint64_t buf[(sizeof(struct ib_uverbs_ioctl_hdr) + sizeof(struct ib_uverbs_attr)) / 8] = { 0 };
	struct ib_uverbs_ioctl_hdr *h = (struct ib_uverbs_ioctl_hdr *)buf;
	struct ib_uverbs_attr *a = (struct ib_uverbs_attr *)(h + 1);
	char text[512], word[32];
	const char *line;

	h->length = sizeof(buf);
	h->object_id = object_id;
	h->method_id = method_id;
	h->num_attrs = 1;
	a->attr_id = attr_id;
	if (uvio_decode(buf, sizeof(buf), UVIO_LAYOUT_CURRENT, text, sizeof(text)) < 0)
		return 0;
	/* "  [0] 0x0000 NAME KIND len 0 ..." */
	line = strstr(text, "[0] ");
	if (!line || sscanf(line, "[0] %*s %*s %31s", word) != 1)
		return 0;
	for (int k = UVIO_KIND_PTR_IN; k <= UVIO_KIND_IDRS; k++) {
		const char *name = uvio_kind_name((enum uvio_attr_kind)k);

		if (name && !strcmp(name, word))
			return k;
	}
	return 0;
}

int tr_attr_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	uint64_t key = 1ull << 48 | (uint64_t)object_id << 32 | (uint64_t)method_id << 16 | attr_id;
	struct kind_cache *c = &cache[(key ^ key >> 13 ^ key >> 29) % (sizeof(cache) / sizeof(cache[0]))];

	if (c->key != key) {
		c->key = key;
		c->kind = (uint8_t)ask_decoder(object_id, method_id, attr_id);
	}
	return c->kind;
}
