// SPDX-License-Identifier: MIT
/*
 * Render a command buffer in words. Input may be anything (a trace, a fuzzer):
 * every read is bounded by the buffer length, never by what the header says.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <uvio/decode.h>
#include "names.h"

struct text {
	char *buf;
	size_t size, len;	/* len counts what would have been written */
};

__attribute__((format(printf, 2, 3)))
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	size_t room = t->len < t->size ? t->size - t->len : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}

static void put_flags(struct text *t, uint16_t flags)
{
	put(t, " %s", flags & UVERBS_ATTR_F_MANDATORY ? "mandatory" : "optional");
	if (flags & UVERBS_ATTR_F_VALID_OUTPUT)
		put(t, ",valid-output");
	if (flags & ~(UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT))
		put(t, ",unknown-flags=0x%x",
		    flags & ~(UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT));
}

static void put_value(struct text *t, const struct ib_uverbs_attr *a, int kind)
{
	switch (kind) {
	case UVIO_KIND_IDR:
	case UVIO_KIND_IDR_NEW:
		put(t, " handle %llu", (unsigned long long)a->data);
		return;
	case UVIO_KIND_FD:
	case UVIO_KIND_FD_NEW:
		put(t, " fd %lld", (long long)a->data_s64);
		return;
	case UVIO_KIND_ENUM_IN:
		put(t, " elem %u", a->attr_data.enum_data.elem_id);
		break;
	case UVIO_KIND_PTR_OUT:
		put(t, " ptr 0x%llx", (unsigned long long)a->data);
		return;
	}
	if (a->len > sizeof(a->data)) {
		put(t, " ptr 0x%llx", (unsigned long long)a->data);
		return;
	}
	if (a->len == 0)
		return;
	{
		/* The kernel reads the first len bytes of data: show those,
		 * as a number where the width is a natural one. */
		unsigned char b[8];
		unsigned long long v = 0;
		unsigned int i;

		memcpy(b, &a->data, sizeof(b));
		if (a->len == 1 || a->len == 2 || a->len == 4 || a->len == 8) {
			uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;

			switch (a->len) {
			case 1: memcpy(&u8, b, 1); v = u8; break;
			case 2: memcpy(&u16, b, 2); v = u16; break;
			case 4: memcpy(&u32, b, 4); v = u32; break;
			default: memcpy(&u64, b, 8); v = u64; break;
			}
			put(t, " inline %llu (0x%llx)", v, v);
			return;
		}
		put(t, " inline");
		for (i = 0; i < a->len; i++)
			put(t, "%s%02x", i ? ":" : " ", b[i]);
	}
}

static int render(struct text *t, const void *buf, size_t len, enum uvio_layout layout,
		  const uint8_t *kinds)
{
	const struct ib_uverbs_ioctl_hdr *hdr = buf;
	size_t hdr_len = layout == UVIO_LAYOUT_2017 ?
		sizeof(struct uvio_ioctl_hdr_2017) : sizeof(struct ib_uverbs_ioctl_hdr);
	const struct ib_uverbs_attr *attrs;
	const char *obj, *meth;
	size_t i, have, claimed;

	if (len < hdr_len) {
		put(t, "truncated: %zu bytes, a %s header needs %zu", len,
		    layout == UVIO_LAYOUT_2017 ? "2017" : "current", hdr_len);
		return -EINVAL;
	}
	obj = uvio_object_name(hdr->object_id);
	meth = uvio_method_name(hdr->object_id, hdr->method_id);
	if (obj)
		put(t, "%s", obj);
	else
		put(t, "object 0x%x", hdr->object_id);
	if (meth)
		put(t, ".%s", meth);
	else
		put(t, ".method 0x%x", hdr->method_id);
	put(t, " (object %u, method %u) layout %s", hdr->object_id, hdr->method_id,
	    layout == UVIO_LAYOUT_2017 ? "2017" : "current");
	if (layout == UVIO_LAYOUT_2017) {
		const struct uvio_ioctl_hdr_2017 *h17 = buf;

		if (h17->reserved)
			put(t, " reserved=0x%llx(!)", (unsigned long long)h17->reserved);
	} else {
		put(t, " driver_id %u", hdr->driver_id);
		if (hdr->reserved1 || hdr->reserved2)
			put(t, " reserved1=0x%llx reserved2=0x%x(!)",
			    (unsigned long long)hdr->reserved1, hdr->reserved2);
	}
	put(t, ", %u attrs, length %u", hdr->num_attrs, hdr->length);

	claimed = hdr_len + (size_t)hdr->num_attrs * sizeof(struct ib_uverbs_attr);
	if (hdr->length != claimed)
		put(t, " (!= %zu for %u attrs)", claimed, hdr->num_attrs);
	if (claimed > UVIO_CMD_MAX_BYTES)
		put(t, " (over one page)");
	have = (len - hdr_len) / sizeof(struct ib_uverbs_attr);
	if (have < hdr->num_attrs)
		put(t, " (truncated: %zu attrs present)", have);
	else
		have = hdr->num_attrs;

	attrs = (const struct ib_uverbs_attr *)((const char *)buf + hdr_len);
	for (i = 0; i < have; i++) {
		struct ib_uverbs_attr a;
		const char *name;
		int kind;

		/* A caller's buffer may be misaligned: copy the record out. */
		memcpy(&a, &attrs[i], sizeof(a));
		name = uvio_attr_name(hdr->object_id, hdr->method_id, a.attr_id);
		kind = kinds ? kinds[i] :
			uvio_attr_known_kind(hdr->object_id, hdr->method_id, a.attr_id);
		put(t, "\n  [%zu] 0x%04x %-16s %-7s len %u", i, a.attr_id,
		    name ? name : (a.attr_id & UVERBS_ID_NS_MASK ? "driver" : "?"),
		    kind ? uvio_kind_name((enum uvio_attr_kind)kind) : "?", a.len);
		put_flags(t, a.flags);
		if (kind != UVIO_KIND_ENUM_IN && a.attr_data.reserved)
			put(t, " attr_data.reserved=0x%x(!)", a.attr_data.reserved);
		put_value(t, &a, kind);
	}
	return 0;
}

static int finish(struct text *t, int err)
{
	if (t->size && t->len >= t->size)
		t->buf[t->size - 1] = '\0';
	if (err)
		return err;
	return t->len > INT32_MAX ? -EOVERFLOW : (int)t->len;
}

UVIO_API int uvio_decode(const void *buf, size_t len, enum uvio_layout layout,
			 char *out, size_t size)
{
	struct text t = { out, size, 0 };

	if (size)
		out[0] = '\0';
	if (!buf && len)
		return -EFAULT;
	return finish(&t, render(&t, buf, len, layout, NULL));
}

UVIO_API int uvio_cmd_format(const struct uvio_cmd *cmd, char *out, size_t size)
{
	struct text t = { out, size, 0 };

	if (size)
		out[0] = '\0';
	if (cmd->error) {
		put(&t, "unbuilt command: %s (attr 0x%04x): %s", cmd->error_msg,
		    cmd->error_attr, strerror(-cmd->error));
		return finish(&t, 0);
	}
	/* Length and count are otherwise set at execution. */
	uvio_cmd_finish(cmd);
	return finish(&t, render(&t, cmd->hdr,
				 (size_t)(cmd->layout == UVIO_LAYOUT_2017 ? 16 : 24) +
				 cmd->num_attrs * sizeof(struct ib_uverbs_attr),
				 (enum uvio_layout)cmd->layout, cmd->kind));
}
