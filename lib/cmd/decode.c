// SPDX-License-Identifier: MIT
/*
 * Render uverbs commands in words, from the ABI tables of lib/abi/: ioctl
 * commands attribute by attribute, write() commands field by field, values
 * typed. Input may be anything (a trace of another program, a fuzzer):
 * every read is bounded by the lengths given, never by what the bytes claim,
 * and memory behind a pointer is read only through the caller's fetch
 * function, at most UVIO_CMD_MAX_BYTES per attribute.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <syslog.h>
#include <unistd.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "abi/abi.h"
#include "report/names.h"
#include "opts.h"
#include "report/report.h"

/* Longest array or byte run printed before "...". */
#define MAX_ELEMS 16u
#define MAX_BYTES 64u
#define MAX_DEPTH 4

struct text {
	char *buf;
	size_t size, len;	/* len counts what would have been written */
	const char *fn;		/* the public function: names a refusal */
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

/* Bytes too few for a command: said in the text (where it ends) and as the
 * calling thread's last error. */
static int too_short(struct text *t, size_t len, const char *what, size_t need)
{
	put(t, "truncated: %zu bytes, %s needs %zu", len, what, need);
	return uvio_fail(LOG_DEBUG, -EINVAL, "%s: EINVAL: argument len: %zu bytes, %s needs %zu",
			 t->fn, len, what, need);
}

/* Arguments refused before anything is rendered. */
__attribute__((format(printf, 3, 4)))
static int bad_arg(const char *fn, int err, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return uvio_fail(LOG_DEBUG, err, "%s: %s: %s", fn, uvio_errno_name(err), why);
}

static int finish(struct text *t, int err)
{
	if (t->size && t->len >= t->size)
		t->buf[t->size - 1] = '\0';
	if (err)
		return err;
	return t->len > INT32_MAX ? -EOVERFLOW : (int)t->len;
}

/* ---- values ----------------------------------------------------------- */

static uint64_t get_uint(const uint8_t *p, size_t n)
{
	uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64 = 0;

	switch (n) {
	case 1: memcpy(&u8, p, 1); return u8;
	case 2: memcpy(&u16, p, 2); return u16;
	case 4: memcpy(&u32, p, 4); return u32;
	case 8: memcpy(&u64, p, 8); return u64;
	}
	return 0;
}

static bool natural(size_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

static void put_bytes(struct text *t, const uint8_t *p, size_t n)
{
	size_t i;

	if (!n) {
		put(t, "(empty)");
		return;
	}
	for (i = 0; i < n && i < MAX_BYTES; i++)
		put(t, "%s%02x", i ? ":" : "", p[i]);
	if (n > MAX_BYTES)
		put(t, "... (%zu bytes)", n);
}

static void put_flags(struct text *t, unsigned int vt, uint64_t v)
{
	uint64_t rest = v;
	bool first = true;

	put(t, "0x%llx", (unsigned long long)v);
	if (!v)
		return;
	put(t, "(");
	for (unsigned int bit = 0; bit < 64; bit++) {
		const char *name;

		if (!(v >> bit & 1) || !(name = abi_const_name(vt, bit)))
			continue;
		put(t, "%s%s", first ? "" : "|", name);
		rest &= ~(1ull << bit);
		first = false;
	}
	if (rest)
		put(t, "%s0x%llx", first ? "" : "|", (unsigned long long)rest);
	put(t, ")");
}

/* A number of type vt, es bytes wide. */
static void put_scalar(struct text *t, unsigned int vt, uint64_t v, size_t es)
{
	const char *name;

	switch (abi_vtype(vt)->kind) {
	case V_SINT:
	case V_FD:
		put(t, "%lld", es == 4 ? (long long)(int32_t)v :
		    es == 2 ? (long long)(int16_t)v : es == 1 ? (long long)(int8_t)v :
		    (long long)v);
		return;
	case V_HEX:
		put(t, "0x%llx", (unsigned long long)v);
		return;
	case V_BE:
		v = es == 2 ? ntohs((uint16_t)v) : es == 4 ? ntohl((uint32_t)v) :
		    es == 8 ? ((uint64_t)ntohl((uint32_t)v) << 32 | ntohl((uint32_t)(v >> 32))) :
		    v;
		put(t, "0x%0*llx", (int)es * 2, (unsigned long long)v);
		return;
	case V_FLAGS:
		put_flags(t, vt, v);
		return;
	case V_ENUM:
		name = v <= UINT32_MAX ? abi_const_name(vt, (uint32_t)v) : NULL;
		if (name)
			put(t, "%s(%llu)", name, (unsigned long long)v);
		else
			put(t, "%llu(unknown)", (unsigned long long)v);
		return;
	case V_OBJECT:
		name = v <= UINT16_MAX ? uvio_object_name((uint16_t)v) : NULL;
		put(t, "%s(%llu)", name ? name : "unknown", (unsigned long long)v);
		return;
	case V_WRITE_CMD:
		name = v <= UINT32_MAX ? uvio_write_cmd_name((uint32_t)v) : NULL;
		put(t, "%s%s(%llu)", v & IB_USER_VERBS_CMD_FLAG_EXTENDED ? "EX_" : "",
		    name ? name : "unknown",
		    (unsigned long long)(v & ~(uint64_t)IB_USER_VERBS_CMD_FLAG_EXTENDED));
		return;
	default:	/* UINT, HANDLE */
		put(t, "%llu", (unsigned long long)v);
		return;
	}
}

static void put_struct(struct text *t, unsigned int vt, const uint8_t *p, size_t n,
		       int depth);

/* One value of type vt held in n bytes at p (n is the field's size, which
 * may hold an array of the type's scalars). */
static void put_value(struct text *t, unsigned int vt, const uint8_t *p, size_t n, int depth)
{
	const struct abi_vtype *ty = abi_vtype(vt);
	size_t es = ty->size;

	if (ty->kind == V_STRUCT) {
		put_struct(t, vt, p, n, depth);
		return;
	}
	if (ty->kind == V_RAW || ty->kind == V_RESERVED) {
		put_bytes(t, p, n);
		return;
	}
	if (ty->kind == V_GID || ty->kind == V_MAC) {
		if (n < es) {
			put_bytes(t, p, n);
		} else if (ty->kind == V_GID) {
			char a[INET6_ADDRSTRLEN];

			put(t, "%s", inet_ntop(AF_INET6, p, a, sizeof(a)) ? a : "?");
		} else {
			put(t, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3], p[4], p[5]);
		}
		return;
	}
	/* Scalars: as wide as the field unless the type says otherwise. */
	if (!es || (es > n && natural(n)))
		es = n;
	if (!natural(es) || n % es) {
		put_bytes(t, p, n);
		return;
	}
	if (n > es) {		/* an array of scalars */
		put(t, "[");
		for (size_t i = 0; i < n / es && i < MAX_ELEMS; i++) {
			put(t, "%s", i ? ", " : "");
			put_value(t, vt, p + i * es, es, depth);
		}
		put(t, "%s]", n / es > MAX_ELEMS ? ", ..." : "");
		return;
	}
	put_scalar(t, vt, get_uint(p, es), es);
}

/* A struct that ends in a flexible array: one of it, however long. */
static bool open_ended(unsigned int vt)
{
	const struct abi_vtype *ty = abi_vtype(vt);
	const struct abi_field *f = ty->items;

	return ty->kind == V_STRUCT && ty->count && f[ty->count - 1].size == 0;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * A struct held in n bytes: its fields as far as n reaches. Reserved fields
 * show only when not zero; a flexible array at the end gets the bytes left.
 * At depth 0 with sep "\n    " each field has its own line.
 */
static void put_fields(struct text *t, unsigned int vt, const uint8_t *p, size_t n,
		       int depth, const char *sep)
{
	const struct abi_vtype *ty = abi_vtype(vt);
	const struct abi_field *f = ty->items;
	bool first = true;

	for (unsigned int i = 0; i < ty->count; i++, f++) {
		size_t fs = f->size;

		if (f->off >= n && !(fs == 0 && f->off == n))
			break;
		if (fs == 0) {		/* flexible array: what is left */
			const struct abi_vtype *et = abi_vtype(f->vtype);
			size_t left = n - f->off;

			if (!left)
				break;
			put(t, "%s%s[] = ", first ? "" : sep, abi_str(f->name));
			first = false;
			if (et->kind == V_STRUCT && et->size) {
				size_t k;

				for (k = 0; k < left / et->size && k < MAX_ELEMS; k++) {
					put(t, "%s", k ? ", " : "");
					put_struct(t, f->vtype, p + f->off + k * et->size, et->size,
						   depth + 1);
				}
				if (left / et->size > MAX_ELEMS)
					put(t, ", ...");
				if (left % et->size)
					put(t, " + %zu bytes", left % et->size);
			} else {
				put_value(t, f->vtype, p + f->off, left, depth + 1);
			}
			break;
		}
		if (f->off + fs > n) {
			put(t, "%s%s: truncated", first ? "" : sep, abi_str(f->name));
			first = false;
			break;
		}
		if (abi_vtype(f->vtype)->kind == V_RESERVED) {
			if (all_zero(p + f->off, fs))
				continue;
			put(t, "%s%s = ", first ? "" : sep, abi_str(f->name));
			put_bytes(t, p + f->off, fs);
			put(t, "(!)");
			first = false;
			continue;
		}
		put(t, "%s%s = ", first ? "" : sep, abi_str(f->name));
		first = false;
		put_value(t, f->vtype, p + f->off, fs, depth + 1);
	}
}

static void put_struct(struct text *t, unsigned int vt, const uint8_t *p, size_t n, int depth)
{
	const struct abi_vtype *ty = abi_vtype(vt);

	if (depth > MAX_DEPTH) {
		put_bytes(t, p, n);
		return;
	}
	put(t, "{");
	put_fields(t, vt, p, n, depth, ", ");
	put(t, "}");
	if (ty->size && n > ty->size && !all_zero(p + ty->size, n - ty->size))
		put(t, " + %zu bytes", n - ty->size);
}

/* ---- write() commands -------------------------------------------------- */

/* The layout a driver gives its data (u: the row abi_drv_udata() chose):
 * in or out; VT_NONE when the driver reads or writes none, VT_BYTES when
 * there is no driver to ask. */
static unsigned int ud_vtype(const struct abi_drv_udata *u, bool out)
{
	if (!u)
		return VT_BYTES;
	return out ? u->out : u->in;
}

/* Driver data: field by field where the driver's table has its layout. */
static void put_drv_data(struct text *t, const struct abi_driver *drv,
			 const struct abi_drv_udata *u, bool out, const uint8_t *p, size_t n)
{
	unsigned int vt = ud_vtype(u, out);

	if (drv && vt == VT_NONE) {
		put(t, "(%s %s none) ", abi_str(drv->name), out ? "writes" : "reads");
		vt = VT_BYTES;
	} else if (vt != VT_BYTES) {
		put(t, "%s ", abi_str(abi_vtype(vt)->name));
	}
	put_value(t, vt, p, n, 1);
}

/* EX_CREATE_QP over an indirection table: the core says so. */
static bool ex_create_qp_rss(uint32_t command, const uint8_t *core, size_t len)
{
	struct ib_uverbs_ex_create_qp q;

	if (command != (IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP) ||
	    len < uvio_offsetofend(struct ib_uverbs_ex_create_qp, comp_mask))
		return false;
	memset(&q, 0, sizeof(q));
	memcpy(&q, core, len < sizeof(q) ? len : sizeof(q));
	return q.comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
}

/* How a write() command's driver data reads, for put_write_core(). */
struct wdrv {
	const struct abi_driver *drv;
	const struct abi_drv_udata *u;
};

/*
 * The core struct of a write() command and its response, as the kernel reads
 * and writes them: core holds what follows the header(s); for commands whose
 * core struct starts with the response pointer, that field is shown too.
 * Driver data (udata) past the core struct is shown as the driver's table
 * says (wd), else as bytes.
 */
static void put_write_core(struct text *t, const struct abi_write *w, const uint8_t *core,
			   size_t core_len, const uint8_t *resp, size_t resp_len,
			   const char *ind, bool drv_in, bool drv_out, const struct wdrv *wd)
{
	const struct abi_vtype *req = abi_vtype(w->req), *rsp = abi_vtype(w->resp);
	char sep[16], sep2[16];

	snprintf(sep, sizeof(sep), "\n%s", ind);
	snprintf(sep2, sizeof(sep2), "\n%s  ", ind);
	if (w->flags & ABI_W_NONE) {
		put(t, "%s(no kernel handles this command)", sep);
		return;
	}
	if (core) {
		size_t fixed = req->size < core_len ? req->size : core_len;

		put(t, "%s", sep);
		if (core_len < req->size)
			put(t, "core %zu bytes, %u expected: ", core_len, req->size);
		put_fields(t, w->req, core, drv_in ? fixed : core_len, 0, sep);
		if (core_len > req->size && drv_in) {
			put(t, "%sdriver data in = ", sep);
			put_drv_data(t, wd ? wd->drv : NULL, wd ? wd->u : NULL, false,
				     core + req->size, core_len - req->size);
		} else if (core_len > req->size && !all_zero(core + req->size,
							     core_len - req->size)) {
			put(t, "%spast the struct = ", sep);
			put_bytes(t, core + req->size, core_len - req->size);
		}
	}
	if (resp && w->resp != VT_NONE) {
		size_t fixed = rsp->size < resp_len ? rsp->size : resp_len;

		put(t, "%sresponse (%zu bytes):", sep, resp_len);
		if (resp_len < rsp->size)
			put(t, " %u expected:", rsp->size);
		put(t, "%s", sep2);
		put_fields(t, w->resp, resp, drv_out ? fixed : resp_len, 0, sep2);
		if (resp_len > rsp->size && drv_out) {
			put(t, "%sdriver data out = ", sep2);
			put_drv_data(t, wd ? wd->drv : NULL, wd ? wd->u : NULL, true,
				     resp + rsp->size, resp_len - rsp->size);
		} else if (resp_len > rsp->size && !all_zero(resp + rsp->size,
							     resp_len - rsp->size)) {
			put(t, "%spast the struct = ", sep2);
			put_bytes(t, resp + rsp->size, resp_len - rsp->size);
		}
	} else if (resp && resp_len) {
		put(t, "%sresponse (%zu bytes, none expected): ", sep, resp_len);
		put_bytes(t, resp, resp_len);
	}
}

static int render_write(struct text *t, const uint8_t *buf, size_t len, const uint8_t *resp,
			size_t resp_len, const struct abi_driver *drv)
{
	struct wdrv wd = { drv, NULL };
	long udata_in;
	struct ib_uverbs_cmd_hdr h;
	const struct abi_object *obj = NULL;
	const struct abi_write *w;
	const uint8_t *core;
	size_t core_len, drv_in = 0;

	if (len < sizeof(h))
		return too_short(t, len, "a write() command", sizeof(h));
	memcpy(&h, buf, sizeof(h));
	w = abi_write(h.command, &obj);
	put(t, "write %s%s%s (command %u%s) in_words %u out_words %u, %zu bytes",
	    obj ? abi_str(obj->name) : "", obj ? "." : "", w ? abi_str(w->name) : "unknown",
	    h.command & IB_USER_VERBS_CMD_COMMAND_MASK,
	    h.command & IB_USER_VERBS_CMD_FLAG_EXTENDED ? " extended" : "",
	    h.in_words, h.out_words, len);
	if (h.command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_CMD_COMMAND_MASK))
		put(t, " (unknown bits 0x%x: EOPNOTSUPP)",
		    h.command & ~(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_CMD_COMMAND_MASK));
	if (h.command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		struct ib_uverbs_ex_cmd_hdr ex;
		size_t want;

		if (len < sizeof(h) + sizeof(ex)) {
			put(t, "\n  truncated: no room for the extended header");
			return 0;
		}
		memcpy(&ex, buf + sizeof(h), sizeof(ex));
		want = ((size_t)h.in_words + ex.provider_in_words) * 8;
		put(t, "\n  response 0x%llx provider_in_words %u provider_out_words %u",
		    (unsigned long long)ex.response, ex.provider_in_words, ex.provider_out_words);
		if (ex.cmd_hdr_reserved)
			put(t, " cmd_hdr_reserved=0x%x(!)", ex.cmd_hdr_reserved);
		if (want != len - sizeof(h) - sizeof(ex))
			put(t, " (words say %zu bytes after the headers, %zu written)", want,
			    len - sizeof(h) - sizeof(ex));
		core = buf + sizeof(h) + sizeof(ex);
		core_len = len - sizeof(h) - sizeof(ex);
		if (core_len > (size_t)h.in_words * 8) {
			drv_in = core_len - (size_t)h.in_words * 8;
			core_len = (size_t)h.in_words * 8;
		}
	} else {
		if ((size_t)h.in_words * 4 != len)
			put(t, " (in_words say %u bytes)", h.in_words * 4);
		core = buf + sizeof(h);
		core_len = len - sizeof(h);
	}
	if (drv)
		put(t, "\n  driver %s", abi_str(drv->name));
	if (!w)
		return 0;
	/* Plain commands with driver data carry it after the core struct;
	 * extended ones say its length in the extended header. */
	udata_in = (long)drv_in;
	if ((w->flags & ABI_W_UDATA) && !(w->flags & ABI_W_EX))
		udata_in = core_len > abi_vtype(w->req)->size ?
				   (long)(core_len - abi_vtype(w->req)->size) : 0;
	wd.u = abi_drv_udata(drv, ABI_UD_WRITE(h.command), udata_in,
			     ex_create_qp_rss(h.command, core, core_len));
	put_write_core(t, w, core, core_len, resp, resp_len, "  ",
		       (w->flags & ABI_W_UDATA) && !(w->flags & ABI_W_EX),
		       (w->flags & (ABI_W_UDATA | ABI_W_EX)) != 0, &wd);
	if (drv_in) {
		put(t, "\n  driver data in = ");
		put_drv_data(t, drv, wd.u, false, core + core_len, drv_in);
	}
	return 0;
}

/* Where the kernel writes a write() command's response, and at most how
 * much: false for a command without one. */
static bool write_resp_at(const uint8_t *buf, size_t len, uint64_t *addr, size_t *resp_len)
{
	struct ib_uverbs_cmd_hdr h;
	const struct abi_write *w;

	if (len < sizeof(h))
		return false;
	memcpy(&h, buf, sizeof(h));
	if (h.command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		struct ib_uverbs_ex_cmd_hdr ex;

		if (len < sizeof(h) + sizeof(ex))
			return false;
		memcpy(&ex, buf + sizeof(h), sizeof(ex));
		*addr = ex.response;
		*resp_len = ((size_t)h.out_words + ex.provider_out_words) * 8;
		return *resp_len != 0;
	}
	w = abi_write(h.command, NULL);
	if (!w || !(w->flags & ABI_W_RESP) || !h.out_words || len < sizeof(h) + sizeof(*addr))
		return false;
	memcpy(addr, buf + sizeof(h), sizeof(*addr));
	*resp_len = (size_t)h.out_words * 4;
	return true;
}

/* UVIO_DECODE_WRITE: a write() command, its driver from the options, and
 * after the call its response read through fetch (the whole of it, else
 * the core struct alone). */
static int render_write_opts(struct text *t, const uint8_t *buf, size_t len,
			     const struct uvio_decode_opts *o)
{
	uint8_t resp[UVIO_CMD_MAX_BYTES];
	const struct abi_write *w;
	struct ib_uverbs_cmd_hdr h;
	size_t rn = 0, core;
	uint64_t addr;
	bool got = false;

	if (o->fetch && (o->flags & UVIO_DECODE_AFTER) && write_resp_at(buf, len, &addr, &rn)) {
		if (rn > sizeof(resp))
			rn = sizeof(resp);
		got = !o->fetch(o->ctx, addr, resp, rn);
		memcpy(&h, buf, sizeof(h));
		w = abi_write(h.command, NULL);
		core = w && w->resp != VT_NONE ? abi_vtype(w->resp)->size : 0;
		if (!got && core && core < rn) {
			rn = core;
			got = !o->fetch(o->ctx, addr, resp, rn);
		}
	}
	return render_write(t, buf, len, got ? resp : NULL, got ? rn : 0, abi_driver(o->driver_id));
}

UVIO_API int uvio_decode_write(const void *buf, size_t len, const void *resp, size_t resp_len,
			       char *out, size_t size)
{
	struct text t = { out, size, 0, "uvio_decode_write" };

	if ((!buf && len) || (!resp && resp_len) || (!out && size))
		return bad_arg(t.fn, -EFAULT, "argument %s: NULL with a length",
			       !buf && len ? "buf" : !resp && resp_len ? "resp" : "out");
	if (size)
		out[0] = '\0';
	return finish(&t, render_write(&t, buf, len, resp, resp_len, NULL));
}

/* ---- ioctl commands ---------------------------------------------------- */

struct ctx {
	struct text *t;
	const struct uvio_decode_opts *o;
	const struct ib_uverbs_attr *attrs;	/* the command's, maybe misaligned */
	size_t nattrs;
	const struct abi_driver *drv;		/* the command's driver, NULL: none known */
	uint16_t object_id, method_id;
	uint8_t mem[UVIO_CMD_MAX_BYTES];
};

/* The command's attribute with this id, copied out; false when absent. */
static bool find_attr(const struct ctx *c, uint16_t id, struct ib_uverbs_attr *out)
{
	for (size_t i = 0; i < c->nattrs; i++) {
		memcpy(out, &c->attrs[i], sizeof(*out));
		if (out->attr_id == id)
			return true;
	}
	return false;
}

/* UHW_IN or UHW_OUT of a core method: the layout the driver gives it there
 * (for INVOKE_WRITE, the write() command's), VT_BYTES when unknown. */
static unsigned int uhw_vtype(const struct ctx *c, const struct ib_uverbs_attr *a)
{
	const struct abi_drv_udata *u;
	struct ib_uverbs_attr x;
	uint64_t key;
	long in_len;
	bool rss = false;

	if (!c->drv || (c->object_id & UVERBS_ID_NS_MASK) || (c->method_id & UVERBS_ID_NS_MASK))
		return VT_BYTES;
	in_len = find_attr(c, UVERBS_ATTR_UHW_IN, &x) ? (long)x.len : 0;
	if (c->object_id == UVERBS_OBJECT_DEVICE && c->method_id == UVERBS_METHOD_INVOKE_WRITE) {
		uint8_t core[sizeof(struct ib_uverbs_ex_create_qp)];
		size_t n;

		if (!find_attr(c, UVERBS_ATTR_WRITE_CMD, &x) || x.len != 8 || x.data > UINT32_MAX)
			return VT_BYTES;
		key = ABI_UD_WRITE(x.data);
		/* EX_CREATE_QP's core says whether it is over a table */
		if (x.data == (IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP) &&
		    find_attr(c, UVERBS_ATTR_CORE_IN, &x)) {
			n = x.len < sizeof(core) ? x.len : sizeof(core);
			if (x.len <= sizeof(x.data))
				memcpy(core, &x.data, n);
			else if (!c->o || !c->o->fetch || c->o->fetch(c->o->ctx, x.data, core, n))
				n = 0;
			rss = ex_create_qp_rss(IB_USER_VERBS_CMD_FLAG_EXTENDED |
					       IB_USER_VERBS_EX_CMD_CREATE_QP, core, n);
		}
	} else {
		key = ABI_UD_METHOD(c->object_id, c->method_id);
		rss = c->object_id == UVERBS_OBJECT_QP &&
		      find_attr(c, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE, &x);
	}
	u = abi_drv_udata(c->drv, key, in_len, rss);
	if (!u)
		return VT_NONE;
	return ud_vtype(u, a->attr_id == UVERBS_ATTR_UHW_OUT);
}

/* After the call, the element count the kernel wrote for a counted list
 * (ABI_COUNTED: the method's next attribute, a u64). -1 when the command
 * has no such output or its bytes cannot be read. */
static long long counted(const struct ctx *c, const struct abi_attr *d)
{
	struct ib_uverbs_attr a;
	uint64_t v;

	if (!d || !(d->flags & ABI_COUNTED) || !c->o || !c->o->fetch)
		return -1;
	for (size_t i = 0; i < c->nattrs; i++) {
		memcpy(&a, &c->attrs[i], sizeof(a));
		if (a.attr_id != d[1].id || a.len != sizeof(v))
			continue;
		if (c->o->fetch(c->o->ctx, a.data, &v, sizeof(v)))
			return -1;
		return v > INT32_MAX ? -1 : (long long)v;
	}
	return -1;
}

/* Bytes an attribute carries: an input's inline in data up to 8 bytes, else
 * (and an output's always) behind the pointer when a fetch function can read
 * it. NULL when not available. */
static const uint8_t *attr_bytes(struct ctx *c, const struct ib_uverbs_attr *a, bool out,
				 size_t *n, bool *cut)
{
	*cut = false;
	*n = a->len;
	if (a->len <= sizeof(a->data) && !out)
		return (const uint8_t *)&a->data;
	if (!c->o || !c->o->fetch)
		return NULL;
	if (*n > sizeof(c->mem)) {
		*n = sizeof(c->mem);
		*cut = true;
	}
	if (c->o->fetch(c->o->ctx, a->data, c->mem, *n))
		return NULL;
	return c->mem;
}

static void put_attr_value(struct ctx *c, const struct ib_uverbs_attr *a,
			   const struct abi_attr *d, int kind)
{
	struct text *t = c->t;
	bool after = c->o && (c->o->flags & UVIO_DECODE_AFTER);
	unsigned int vt = d ? d->vtype : VT_BYTES;
	const uint8_t *p;
	size_t n;
	bool cut, uhw = false, none = false;

	/* Driver data: the driver's layout where the tables know it. */
	if (d && (a->attr_id == UVERBS_ATTR_UHW_IN || a->attr_id == UVERBS_ATTR_UHW_OUT) &&
	    d->vtype == VT_BYTES) {
		uhw = true;
		vt = uhw_vtype(c, a);
		none = vt == VT_NONE;
		if (none)
			vt = VT_BYTES;
	}

	switch (kind) {
	case UVIO_KIND_IDR:
	case UVIO_KIND_IDR_NEW:
	case UVIO_KIND_FD:
	case UVIO_KIND_FD_NEW: {
		bool is_new = kind == UVIO_KIND_IDR_NEW || kind == UVIO_KIND_FD_NEW;
		bool fd = kind == UVIO_KIND_FD || kind == UVIO_KIND_FD_NEW;
		const struct abi_object *o = d && d->type != AT_RAW_FD ?
			abi_object_drv(c->drv, d->obj) : NULL;

		put(t, " %s%s%s%s", is_new ? "new " : "", o ? abi_str(o->name) : "",
		    o ? " " : "", fd ? "fd" : "handle");
		/* A new one exists only once the kernel has answered. */
		if (!is_new || after) {
			if (fd)
				put(t, " %lld", (long long)a->data_s64);
			else
				put(t, " %llu", (unsigned long long)a->data);
		}
		return;
	}
	case UVIO_KIND_ENUM_IN:
		put(t, " elem %u", a->attr_data.enum_data.elem_id);
		if (d) {
			const struct abi_vtype *ty = abi_vtype(d->vtype);
			const struct abi_const *k = ty->items;
			const char *name = abi_const_name(d->vtype, a->attr_data.enum_data.elem_id);

			put(t, " %s", name ? name : "(unknown element)");
			vt = VT_BYTES;
			for (unsigned int i = 0; ty->kind == V_ENUM && i < ty->count; i++)
				if (k[i].value == a->attr_data.enum_data.elem_id && k[i].payload)
					vt = k[i].payload;
		}
		if (!a->len)
			return;
		break;
	case UVIO_KIND_PTR_OUT:
		/* an output is always a pointer; its bytes exist after the call */
		put(t, " ptr 0x%llx", (unsigned long long)a->data);
		if (!after || (d && d->vtype == VT_WRITE_CORE) || !a->len)
			return;
		break;
	}
	if (d && d->vtype == VT_WRITE_CORE) {	/* shown apart (INVOKE_WRITE's core) */
		put(t, " ptr 0x%llx", (unsigned long long)a->data);
		return;
	}
	if (!d && a->len <= sizeof(a->data) && natural(a->len)) {
		uint64_t v = get_uint((const uint8_t *)&a->data, a->len);

		put(t, " inline %llu (0x%llx)", (unsigned long long)v, (unsigned long long)v);
		return;
	}
	p = attr_bytes(c, a, kind == UVIO_KIND_PTR_OUT, &n, &cut);
	if (!p) {
		if (kind != UVIO_KIND_PTR_OUT)
			put(t, " ptr 0x%llx", (unsigned long long)a->data);
		return;
	}
	if (a->len > sizeof(a->data) && kind != UVIO_KIND_PTR_OUT)
		put(t, " ptr 0x%llx", (unsigned long long)a->data);
	put(t, " = ");
	if (uhw) {
		/* one struct of the driver's, never a list */
		if (none)
			put(t, "(%s %s none) ", abi_str(c->drv->name),
			    a->attr_id == UVERBS_ATTR_UHW_OUT ? "writes" : "reads");
		else if (vt != VT_BYTES)
			put(t, "%s ", abi_str(abi_vtype(vt)->name));
		put_value(t, vt, p, n, 1);
	} else if (d && (d->type == AT_CONST_IN || d->type == AT_FLAGS_IN) && natural(n) &&
	    abi_vtype(vt)->kind != V_STRUCT) {
		put_scalar(t, vt, get_uint(p, n), n);
	} else if (d && d->type != AT_ENUM_IN && abi_vtype(vt)->kind != V_STRUCT &&
		   abi_vtype(vt)->size &&
	    n > abi_vtype(vt)->size && d->max_len == ABI_LEN_ANY) {
		/* a list of elements (handles, GID entries, SGEs) */
		size_t es = abi_vtype(vt)->size;

		put_value(t, vt, p, n - n % es, 1);
	} else if (d && abi_vtype(vt)->kind == V_STRUCT && d->max_len == ABI_LEN_ANY &&
		   d->type != AT_ENUM_IN && abi_vtype(vt)->size && n >= abi_vtype(vt)->size &&
		   !open_ended(vt)) {
		size_t es = abi_vtype(vt)->size, shown = n / es;
		long long filled = counted(c, d);

		/* Past the kernel's count the slots hold whatever the caller
		 * left there: not the kernel's answer. */
		if (filled >= 0 && (size_t)filled < shown)
			shown = (size_t)filled;
		put(t, "[");
		for (size_t i = 0; i < shown && i < MAX_ELEMS; i++) {
			put(t, "%s", i ? ", " : "");
			put_struct(t, vt, p + i * es, es, 1);
		}
		put(t, "%s]", shown > MAX_ELEMS ? ", ..." : "");
		if (filled >= 0 && (size_t)filled < n / es)
			put(t, " (%lld of %zu slots filled)", filled, n / es);
	} else {
		put_value(t, vt, p, n, 1);
	}
	if (cut)
		put(t, " (first %zu of %u bytes)", n, a->len);
}

static void put_attr_flags(struct text *t, uint16_t flags)
{
	put(t, " %s", flags & UVERBS_ATTR_F_MANDATORY ? "mandatory" : "optional");
	if (flags & UVERBS_ATTR_F_VALID_OUTPUT)
		put(t, ",valid-output");
	if (flags & ~(UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT))
		put(t, ",unknown-flags=0x%x",
		    flags & ~(UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT));
}

/* What the kernel would refuse about this attribute's length. */
static void put_len_check(struct text *t, const struct ib_uverbs_attr *a,
			  const struct abi_attr *d)
{
	if (!d || d->type == AT_IDR || d->type == AT_FD || d->type == AT_RAW_FD)
		return;
	if (d->type == AT_ENUM_IN)
		return;
	if (a->len < d->min_len || (d->max_len != ABI_LEN_ANY && a->len > d->max_len &&
				    !(d->flags & ABI_ZERO_TAIL))) {
		if (d->min_len == d->max_len)
			put(t, " (!length: the kernel wants %u)", d->min_len);
		else if (d->max_len == ABI_LEN_ANY)
			put(t, " (!length: the kernel wants at least %u)", d->min_len);
		else
			put(t, " (!length: the kernel wants %u to %u)", d->min_len, d->max_len);
	}
}

/* DEVICE/INVOKE_WRITE: the write() command inside, decoded as one. */
static void put_invoke_write(struct ctx *c, const struct ib_uverbs_attr *attrs, size_t n)
{
	const struct ib_uverbs_attr *cmd = NULL, *in = NULL, *outa = NULL;
	const struct abi_object *obj = NULL;
	const struct abi_write *w;
	uint8_t core[UVIO_CMD_MAX_BYTES], resp[UVIO_CMD_MAX_BYTES];
	size_t core_len = 0, resp_len = 0;
	const uint8_t *cp = NULL, *rp = NULL;
	bool after = c->o && (c->o->flags & UVIO_DECODE_AFTER);
	struct ib_uverbs_attr a;

	for (size_t i = 0; i < n; i++) {
		memcpy(&a, &attrs[i], sizeof(a));
		if (a.attr_id == UVERBS_ATTR_WRITE_CMD && !cmd)
			cmd = &attrs[i];
		else if (a.attr_id == UVERBS_ATTR_CORE_IN && !in)
			in = &attrs[i];
		else if (a.attr_id == UVERBS_ATTR_CORE_OUT && !outa)
			outa = &attrs[i];
	}
	if (!cmd)
		return;
	memcpy(&a, cmd, sizeof(a));
	if (a.len != 8 || a.data > UINT32_MAX)
		return;
	w = abi_write((uint32_t)a.data, &obj);
	put(c->t, "\n  write command %s.%s:", obj ? abi_str(obj->name) : "?",
	    w ? abi_str(w->name) : "unknown");
	if (!w)
		return;
	if (in) {
		memcpy(&a, in, sizeof(a));
		core_len = a.len;
		if (a.len <= sizeof(a.data)) {
			memcpy(core, &a.data, a.len);
			cp = core;
		} else if (c->o && c->o->fetch) {
			core_len = a.len < sizeof(core) ? a.len : sizeof(core);
			if (!c->o->fetch(c->o->ctx, a.data, core, core_len))
				cp = core;
		}
		if (!cp)
			put(c->t, "\n    core in: %u bytes at 0x%llx", a.len, (unsigned long long)a.data);
	}
	if (outa && after) {
		memcpy(&a, outa, sizeof(a));
		resp_len = a.len < sizeof(resp) ? a.len : sizeof(resp);
		/* An output is always written through its pointer, however
		 * short (only inputs of 8 bytes or less travel inline). */
		if (c->o && c->o->fetch && !c->o->fetch(c->o->ctx, a.data, resp, resp_len))
			rp = resp;
	}
	/* Driver data travels in UHW_IN/UHW_OUT here, not after the core. */
	put_write_core(c->t, w, cp, cp ? core_len : 0, rp, rp ? resp_len : 0, "    ", false, false,
		       NULL);
}

/* A mandatory attribute the command lacks (seen: ids present, by namespace),
 * named; returns whether none was named yet. */
static bool put_missing(struct text *t, const struct abi_attr *d, const uint64_t seen[2],
			bool first)
{
	unsigned int ns = d->id >> UVERBS_ID_NS_SHIFT, low = d->id & 0xfff;

	if (!(d->flags & ABI_MANDATORY) || ns > 1 || low >= 64 || (seen[ns] >> low & 1))
		return first;
	put(t, "%s%s", first ? "\n  missing mandatory: " : ", ", abi_str(d->name));
	return false;
}

static int render(struct text *t, const void *buf, size_t len,
		  const struct uvio_decode_opts *o, const uint8_t *kinds)
{
	enum uvio_layout layout = o ? o->layout : UVIO_LAYOUT_CURRENT;
	struct ib_uverbs_ioctl_hdr hv = { 0 }, *hdr = &hv;
	size_t hdr_len = layout == UVIO_LAYOUT_2017 ?
		sizeof(struct uvio_ioctl_hdr_2017) : sizeof(struct ib_uverbs_ioctl_hdr);
	const struct ib_uverbs_attr *attrs;
	const struct abi_method *m;
	const struct abi_object *ob;
	const char *obj, *meth;
	size_t i, have, claimed;
	uint64_t seen[2] = { 0, 0 };
	uint32_t driver_id;
	struct ctx ctx, *c = &ctx;

	if (len < hdr_len)
		return too_short(t, len, layout == UVIO_LAYOUT_2017 ? "a 2017 header" :
				 "a current header", hdr_len);
	/* A caller's buffer may be misaligned: copy the header out. The 2017
	 * one is the first 16 bytes of today's, its reserved where reserved1 is. */
	memcpy(&hv, buf, hdr_len);
	c->t = t;
	c->o = o;
	c->attrs = NULL;
	c->nattrs = 0;
	/* The driver: the header's (the kernel refuses any other than the
	 * device's), else the caller's word for the device. */
	driver_id = layout == UVIO_LAYOUT_CURRENT && hdr->driver_id ? hdr->driver_id :
		    o ? o->driver_id : 0;
	c->drv = abi_driver(driver_id);
	c->object_id = hdr->object_id;
	c->method_id = hdr->method_id;
	ob = abi_object_drv(c->drv, hdr->object_id);
	obj = ob ? abi_str(ob->name) : NULL;
	m = abi_method_drv(c->drv, hdr->object_id, hdr->method_id);
	meth = m ? abi_str(m->name) : NULL;
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
		if (hv.reserved1)
			put(t, " reserved=0x%llx(!)", (unsigned long long)hv.reserved1);
	} else {
		put(t, " driver_id %u", hdr->driver_id);
		if (c->drv && hdr->driver_id == driver_id)
			put(t, "(%s)", abi_str(c->drv->name));
		if (hdr->reserved1 || hdr->reserved2)
			put(t, " reserved1=0x%llx reserved2=0x%x(!)",
			    (unsigned long long)hdr->reserved1, hdr->reserved2);
	}
	if (c->drv && (layout != UVIO_LAYOUT_CURRENT || hdr->driver_id != driver_id))
		put(t, " driver %s", abi_str(c->drv->name));
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
	c->attrs = attrs;
	c->nattrs = have;
	for (i = 0; i < have; i++) {
		struct ib_uverbs_attr a;
		const struct abi_attr *d;
		unsigned int ns;
		int kind;

		/* A caller's buffer may be misaligned: copy the record out. */
		memcpy(&a, &attrs[i], sizeof(a));
		d = abi_attr_drv(c->drv, hdr->object_id, hdr->method_id, a.attr_id);
		kind = kinds ? kinds[i] : uvio_abi_attr_kind(d);
		put(t, "\n  [%zu] 0x%04x %-16s %-7s len %u", i, a.attr_id,
		    d ? abi_str(d->name) : (a.attr_id & UVERBS_ID_NS_MASK ? "driver" : "?"),
		    kind ? uvio_kind_name((enum uvio_attr_kind)kind) : "?", a.len);
		put_attr_flags(t, a.flags);
		if (kind != UVIO_KIND_ENUM_IN && a.attr_data.reserved)
			put(t, " attr_data.reserved=0x%x(!)", a.attr_data.reserved);
		ns = a.attr_id >> UVERBS_ID_NS_SHIFT;
		if (ns < 2 && (a.attr_id & 0xfff) < 64) {
			uint64_t bit = 1ull << (a.attr_id & 63);

			if (seen[ns] & bit)
				put(t, " (duplicate)");
			seen[ns] |= bit;
		}
		put_len_check(t, &a, d);
		put_attr_value(c, &a, d, kind);
	}
	/* What the method requires and the command lacks: its own
	 * attributes, and those the driver adds to it. */
	if (m && have == hdr->num_attrs) {
		bool first = true;

		for (unsigned int j = 0; j < m->nattrs; j++)
			first = put_missing(t, &m->attrs[j], seen, first);
		for (unsigned int j = 0; c->drv && j < c->drv->nattrs; j++) {
			const struct abi_drv_attrs *x = &c->drv->attrs[j];

			if (x->object != hdr->object_id || x->method != hdr->method_id)
				continue;
			for (unsigned int k = 0; k < x->nattrs; k++)
				first = put_missing(t, &x->attrs[k], seen, first);
		}
	}
	if (hdr->object_id == UVERBS_OBJECT_DEVICE && hdr->method_id == UVERBS_METHOD_INVOKE_WRITE)
		put_invoke_write(c, attrs, have);
	return 0;
}

static int decode_cmd(const char *fn, const void *buf, size_t len,
		      const struct uvio_decode_opts *opts, char *out, size_t size)
{
	struct text t = { out, size, 0, fn };
	struct uvio_decode_opts o = { 0 };
	size_t known = uvio_offsetofend(struct uvio_decode_opts, reserved);
	int ret;

	if ((!buf && len) || (!out && size))
		return bad_arg(t.fn, -EFAULT, "argument %s: NULL with a length",
			       !buf && len ? "buf" : "out");
	if (size)
		out[0] = '\0';
	if (!opts)
		return finish(&t, render(&t, buf, len, NULL, NULL));
	ret = uvio_opts_check(opts, known, 1);
	if (ret)
		return bad_arg(t.fn, ret, "argument opts: %s", ret == -E2BIG ?
			       "fields unknown to this library are set" : "sz smaller than a size_t");
	/* What the caller's struct has (an older one: its first sz bytes),
	 * the rest zero; checked the same whichever release built it. */
	memcpy(&o, opts, opts->sz < known ? opts->sz : known);
	if (o.reserved)
		return bad_arg(t.fn, -EINVAL, "argument opts: reserved is not zero");
	if (o.layout != UVIO_LAYOUT_CURRENT && o.layout != UVIO_LAYOUT_2017)
		return bad_arg(t.fn, -EINVAL, "argument opts: layout %d unknown", (int)o.layout);
	if (o.flags & ~(UVIO_DECODE_AFTER | UVIO_DECODE_WRITE))
		return bad_arg(t.fn, -EINVAL, "argument opts: unknown flags 0x%x",
			       o.flags & ~(UVIO_DECODE_AFTER | UVIO_DECODE_WRITE));
	if (o.flags & UVIO_DECODE_WRITE)
		return finish(&t, render_write_opts(&t, buf, len, &o));
	return finish(&t, render(&t, buf, len, &o, NULL));
}

UVIO_API int uvio_decode(const void *buf, size_t len, enum uvio_layout layout,
			 char *out, size_t size)
{
	struct uvio_decode_opts o = { .sz = sizeof(o), .layout = layout };

	return decode_cmd("uvio_decode", buf, len, &o, out, size);
}

UVIO_API int uvio_decode_cmd(const void *buf, size_t len, const struct uvio_decode_opts *opts,
			     char *out, size_t size)
{
	return decode_cmd("uvio_decode_cmd", buf, len, opts, out, size);
}

/* This process's memory, read by the kernel: a bad pointer in a command
 * answers EFAULT here as it would to the ioctl, instead of a crash. */
static int self_fetch(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n;

	(void)ctx;
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

UVIO_API int uvio_cmd_format(const struct uvio_cmd *cmd, char *out, size_t size)
{
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = self_fetch };
	struct text t = { out, size, 0, "uvio_cmd_format" };

	if (!cmd)
		return bad_arg(t.fn, -EINVAL, "argument cmd: NULL");
	if (!out && size)
		return bad_arg(t.fn, -EFAULT, "argument out: NULL with a length");
	o.layout = cmd->layout;
	o.flags = cmd->state == UVIO_CMD_SUCCEEDED ? UVIO_DECODE_AFTER : 0;
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
				 &o, cmd->kind));
}
