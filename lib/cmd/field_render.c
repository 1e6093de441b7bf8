// SPDX-License-Identifier: MIT
/* Field tables (abi/field_table.h) as text or JSON. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "abi/abi.h"
#include "abi/bytes.h"
#include "abi/rdma_cm.h"
#include "cmd/field_render.h"

#ifndef AF_IB
#define AF_IB 27
#endif

static const char *enum_name(uint8_t fmt, uint64_t v)
{
	switch (fmt) {
	case FF_PS:
		switch (v) {
		case 0x0002: return "IPOIB";
		case 0x013f: return "IB";
		case 0x0106: return "TCP";
		case 0x0111: return "UDP";
		}
		return NULL;
	case FF_QPT:
		return v <= UINT32_MAX ? abi_const_name(VT_QP_TYPE, (uint32_t)v) : NULL;
	case FF_QPS:
		return v <= UINT32_MAX ? abi_const_name(VT_QP_STATE, (uint32_t)v) : NULL;
	case FF_CM_EVENT:
		return v <= UINT32_MAX ? abi_cm_event_name((uint32_t)v) : NULL;
	}
	return NULL;
}

/* A socket address as the kernel would read it; n bytes are present. */
static void sockaddr_text(struct sbuf *s, const uint8_t *p, size_t n)
{
	char a[INET6_ADDRSTRLEN];
	uint16_t family = (uint16_t)ld_le(p, 2);

	if (family == AF_INET && n >= 8) {
		inet_ntop(AF_INET, p + 4, a, sizeof(a));
		sb_printf(s, "%s:%u", a, (unsigned int)ld_be(p + 2, 2));
	} else if (family == AF_INET6 && n >= 24) {
		inet_ntop(AF_INET6, p + 8, a, sizeof(a));
		sb_printf(s, "[%s]:%u", a, (unsigned int)ld_be(p + 2, 2));
	} else if (family == AF_IB && n >= 40) {
		/* struct sockaddr_ib: family, pkey, flowinfo, gid, service id */
		inet_ntop(AF_INET6, p + 8, a, sizeof(a));
		sb_printf(s, "ib:pkey=0x%04x,gid=%s,sid=0x%016llx", (unsigned int)ld_be(p + 2, 2), a,
			  (unsigned long long)ld_be(p + 24, 8));
	} else if (family == 0) {
		sb_puts(s, "unspec");
	} else {
		sb_printf(s, "family-%u", family);
	}
}

void ff_value(struct sbuf *s, bool json, const struct ffield *f, const uint8_t *p, size_t n)
{
	size_t sz = ff_size(f);
	const char *name;
	uint64_t v;

	switch (f->fmt) {
	case FF_U8: case FF_U16: case FF_U32: case FF_U64:
		sb_printf(s, "%llu", (unsigned long long)ld_le(p, sz));
		return;
	case FF_X16: case FF_X32: case FF_X64: case FF_PTR:
		v = ld_le(p, sz);
		if (json)
			sb_printf(s, "\"0x%llx\"", (unsigned long long)v);
		else
			sb_printf(s, "0x%llx", (unsigned long long)v);
		return;
	case FF_BE16: case FF_BE32: case FF_BE64:
		v = ld_be(p, sz);
		if (json)
			sb_printf(s, "\"0x%llx\"", (unsigned long long)v);
		else
			sb_printf(s, "0x%llx", (unsigned long long)v);
		return;
	case FF_PS: case FF_QPT: case FF_QPS: case FF_CM_EVENT:
		v = ld_le(p, sz);
		name = enum_name(f->fmt, v);
		if (json && name)
			sb_printf(s, "\"%s\"", name);
		else if (json)
			sb_printf(s, "%llu", (unsigned long long)v);
		else if (name)
			sb_puts(s, name);
		else
			sb_printf(s, "%llu(?)", (unsigned long long)v);
		return;
	case FF_SA_IN6: case FF_SA_STORAGE: {
		char tmp[128];
		struct sbuf t;

		sb_init(&t, tmp, sizeof(tmp));
		sockaddr_text(&t, p, n < sz ? n : sz);
		if (json)
			sb_json_str(s, tmp);
		else
			sb_puts(s, tmp);
		return;
	}
	case FF_GID: {
		char a[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, p, a, sizeof(a));
		if (json)
			sb_json_str(s, a);
		else
			sb_puts(s, a);
		return;
	}
	case FF_DATA: {
		size_t len = f->aux;

		if (len > n)
			len = n;
		if (json) {
			sb_putn(s, "\"", 1);
			sb_hex(s, p, len, 0);
			sb_putn(s, "\"", 1);
		} else if (!len) {
			sb_puts(s, "none");
		} else {
			sb_printf(s, "%zu:", len);
			sb_hex(s, p, len > 32 ? 32 : len, 0);
			if (len > 32)
				sb_puts(s, "...");
		}
		return;
	}
	case FF_STRUCT: {
		struct fstruct sub = { f->name, f->sub_size, f->sub };

		sb_puts(s, "{");
		ff_render(s, json, &sub, p, n < sz ? n : sz);
		sb_puts(s, "}");
		return;
	}
	}
}

void ff_render(struct sbuf *s, bool json, const struct fstruct *st, const uint8_t *p, size_t n)
{
	bool first = true;

	for (const struct ffield *f = st->fields; f->name; f++) {
		size_t sz = ff_size(f);

		if ((size_t)f->off + sz > n)
			break;
		if (!first)
			sb_puts(s, json ? "," : " ");
		first = false;
		if (json) {
			sb_json_str(s, f->name);
			sb_puts(s, ":");
		} else {
			sb_printf(s, "%s=", f->name);
		}
		if (f->fmt == FF_DATA && f->len_at >= 0) {
			/* The length lives elsewhere in the struct. */
			struct ffield g = *f;
			size_t len = (size_t)f->len_at < n ? p[f->len_at] : 0;

			g.len_at = -1;
			g.aux = (uint16_t)(len < f->aux ? len : f->aux);
			ff_value(s, json, &g, p + f->off, sz);
		} else {
			ff_value(s, json, f, p + f->off, sz);
		}
	}
	if (n < st->size) {
		if (json)
			sb_printf(s, "%s\"short\":%zu", first ? "" : ",", n);
		else
			sb_printf(s, "%s(%zu of %u bytes)", first ? "" : " ", n, st->size);
	}
}
