// SPDX-License-Identifier: MIT
/*
 * A record in words. Names and kinds come from the library (uvio_*_name,
 * uvio_decode, uvio_errno_meaning); what is here is layout: which bytes were
 * read before and after the call, and what could not be read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rdma/rdma_user_cm.h>
#include <uvio.h>

#include "abi/bytes.h"
#include "render.h"
#include "vwrite.h"


/* The first n (<= 8) bytes, little endian. */

const char *tr_errno_name(int err)
{
	const char *name;

	/* Seen only by a tracer: the kernel's own codes for a call that a
	 * signal interrupted. Every other name is the library's. */
	switch (err) {
	case 512: return "ERESTARTSYS";
	case 513: return "ERESTARTNOINTR";
	case 514: return "ERESTARTNOHAND";
	case 516: return "ERESTART_RESTARTBLOCK";
	case 524: return "ENOTSUPP";
	}
	name = uvio_errno_name(err);
	return strncmp(name, "errno ", 6) ? name : NULL;
}

static const char *errno_meaning(const struct tr_record *r, int err)
{
	if (err >= 512 && err <= 516)
		return "interrupted by a signal; the call is restarted";
	if (r->fdkind == TR_FD_OTHER && err == ENOTTY)
		return "the fd is not a uverbs device";
	if (r->fdkind == TR_FD_RDMA_CM || (r->call != TR_IOCTL && r->call != TR_IOCTL_2017 &&
					   r->fdkind != TR_FD_UVERBS))
		return strerror(err);
	return uvio_errno_meaning(err, r->call == TR_IOCTL ? UVIO_PATH_IOCTL :
				  r->call == TR_IOCTL_2017 ? UVIO_PATH_IOCTL_2017 : UVIO_PATH_WRITE);
}

static size_t ioctl_hdr_len(const struct tr_record *r)
{
	return r->call == TR_IOCTL_2017 ? sizeof(struct uvio_ioctl_hdr_2017) :
					  sizeof(struct ib_uverbs_ioctl_hdr);
}

static bool have_hdr(const struct tr_record *r)
{
	return r->cmd_len >= ioctl_hdr_len(r);
}

static const uint8_t *attr_at(const struct tr_record *r, uint32_t i)
{
	return r->cmd + ioctl_hdr_len(r) + (size_t)i * sizeof(struct ib_uverbs_attr);
}

/* The attribute as the kernel left it, or as sent when it could not be
 * read again. */
static const uint8_t *attr_after(const struct tr_record *r, uint32_t i)
{
	size_t at = (size_t)i * sizeof(struct ib_uverbs_attr);

	if (at + sizeof(struct ib_uverbs_attr) <= r->after_len)
		return r->after + at;
	return NULL;
}

static int find_attr(const struct tr_record *r, uint16_t id)
{
	for (uint32_t i = 0; i < r->nattrs; i++)
		if (ld16(attr_at(r, i)) == id)
			return (int)i;
	return -1;
}

/* Names in the namespace of the command's driver. */
static const char *attr_name(const struct tr_record *r, uint16_t obj, uint16_t meth, uint16_t id)
{
	struct uvio_attr_desc d = { .sz = sizeof(d) };

	return uvio_driver_describe_attr(tr_driver_id(r), obj, meth, id, &d) ? NULL : d.name;
}

static bool is_invoke_write(const struct tr_record *r)
{
	return have_hdr(r) && ld16(r->cmd + 2) == UVERBS_OBJECT_DEVICE &&
	       ld16(r->cmd + 4) == UVERBS_METHOD_INVOKE_WRITE;
}

/* INVOKE_WRITE's command number (inline WRITE_CMD), or -1. */
static int64_t invoke_cmd(const struct tr_record *r)
{
	int i = find_attr(r, UVERBS_ATTR_WRITE_CMD);
	const uint8_t *a;
	uint16_t len;

	if (i < 0)
		return -1;
	a = attr_at(r, (uint32_t)i);
	len = ld16(a + 2);
	if (len == 0 || len > 8)
		return -1;
	return (int64_t)ld_le(a + 8, len);
}

void tr_name(const struct tr_record *r, char *buf, size_t size, bool *unknown)
{
	char w[48];
	bool dummy;

	if (!unknown)
		unknown = &dummy;
	*unknown = false;
	if (r->call == TR_IOCTL || r->call == TR_IOCTL_2017) {
		uint16_t obj, meth;
		const char *o, *m;
		char ob[24], mb[24];

		if (!have_hdr(r)) {
			snprintf(buf, size, "ioctl(unreadable command)");
			return;
		}
		obj = ld16(r->cmd + 2);
		meth = ld16(r->cmd + 4);
		o = uvio_driver_object_name(tr_driver_id(r), obj);
		m = uvio_driver_method_name(tr_driver_id(r), obj, meth);
		if (!o) {
			snprintf(ob, sizeof(ob), "object_0x%x", obj);
			o = ob;
			*unknown = true;
		}
		if (!m) {
			snprintf(mb, sizeof(mb), "method_0x%x", meth);
			m = mb;
			*unknown = true;
		}
		if (is_invoke_write(r)) {
			int64_t c = invoke_cmd(r);

			if (c < 0) {
				snprintf(w, sizeof(w), "no WRITE_CMD");
			} else if (!vw_name((uint32_t)c, w, sizeof(w))) {
				*unknown = true;
			}
			snprintf(buf, size, "%s.%s(%s)", o, m, w);
			return;
		}
		snprintf(buf, size, "%s.%s", o, m);
		return;
	}
	if (!r->nw || r->w[0].cmd.got < 4) {
		snprintf(buf, size, "%s(unreadable command)", r->call == TR_WRITEV ? "writev" : "write");
		return;
	}
	{
		uint32_t c = ld32(tr_bytes(r, &r->w[0].cmd));

		if (r->fdkind == TR_FD_RDMA_CM) {
			const char *n = uvio_cm_cmd_name(c);

			if (!n) {
				snprintf(w, sizeof(w), "command_%u", c);
				*unknown = true;
			}
			snprintf(buf, size, "rdma_cm%s(%s)", r->call == TR_WRITEV ? ".writev" : "",
				 n ? n : w);
			return;
		}
		if (!vw_name(c, w, sizeof(w)))
			*unknown = true;
		snprintf(buf, size, "%s(%s)", r->call == TR_WRITEV ? "writev" : "write", w);
	}
}

unsigned int tr_unknown_ids(const struct tr_record *r)
{
	unsigned int n = 0;
	char name[128];
	bool unknown;

	if ((r->call == TR_IOCTL || r->call == TR_IOCTL_2017) && have_hdr(r)) {
		uint16_t obj = ld16(r->cmd + 2), meth = ld16(r->cmd + 4);
		int64_t c = is_invoke_write(r) ? invoke_cmd(r) : -1;

		n += !uvio_driver_object_name(tr_driver_id(r), obj);
		n += !uvio_driver_method_name(tr_driver_id(r), obj, meth);
		n += c >= 0 && !vw_name((uint32_t)c, name, sizeof(name));
		for (uint32_t i = 0; i < r->nattrs; i++)
			n += !attr_name(r, obj, meth, ld16(attr_at(r, i)));
		return n;
	}
	tr_name(r, name, sizeof(name), &unknown);
	return unknown;
}

/* --- text ---------------------------------------------------------------- */

/* What became of reading a buffer, when not all of it came. */
static void buf_note(struct sbuf *s, const struct tr_buf *b, bool json)
{
	if (json) {
		if (b->fault)
			sb_printf(s, ",\"fault\":true,\"readable\":%u", b->got);
		if (b->cut)
			sb_printf(s, ",\"cut\":true,\"shown\":%u", b->got);
		return;
	}
	if (b->fault && !b->got)
		sb_printf(s, " <unreadable: bad pointer 0x%llx>", (unsigned long long)b->addr);
	else if (b->fault)
		sb_printf(s, " <only %u of %u bytes readable>", b->got, b->want);
	else if (b->cut)
		sb_printf(s, " <%u of %u bytes kept>", b->got, b->want);
}

/* The write() command INVOKE_WRITE carries, in write() form. */
static size_t invoke_as_write(const struct tr_record *r, uint8_t *out, size_t size,
			      const uint8_t **resp, size_t *resp_len)
{
	int64_t c = invoke_cmd(r);
	int in = find_attr(r, UVERBS_ATTR_CORE_IN), o = find_attr(r, UVERBS_ATTR_CORE_OUT);
	const uint8_t *core = NULL;
	size_t core_len = 0, out_len = 0;

	*resp = NULL;
	*resp_len = 0;
	if (c < 0)
		return 0;
	if (in >= 0) {
		const uint8_t *a = attr_at(r, (uint32_t)in);
		uint16_t len = ld16(a + 2);

		if (len <= 8) {
			core = a + 8;
			core_len = len;
		} else {
			core = tr_bytes(r, &r->attrs[in].in);
			core_len = r->attrs[in].in.got;
		}
	}
	if (o >= 0) {
		out_len = ld16(attr_at(r, (uint32_t)o) + 2);
		if (r->attrs[o].out.read) {
			*resp = tr_bytes(r, &r->attrs[o].out);
			*resp_len = r->attrs[o].out.got;
		}
	}
	return vw_from_invoke((uint32_t)c, core, core_len, out_len, out, size);
}

/* Lines of text, each indented. */
static void put_indented(struct sbuf *s, const char *text, const char *indent)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);

		sb_puts(s, indent);
		sb_putn(s, text, n);
		sb_puts(s, "\n");
		text += n + (nl ? 1 : 0);
	}
}

static void text_header_problems(struct sbuf *s, const struct tr_record *r, bool verbose)
{
	size_t hl = ioctl_hdr_len(r);
	uint16_t length = ld16(r->cmd), num = ld16(r->cmd + 6);
	size_t claimed = hl + (size_t)num * sizeof(struct ib_uverbs_attr);

	if (verbose) {
		sb_printf(s, "    header: length %u object %u method %u num_attrs %u", length,
			  ld16(r->cmd + 2), ld16(r->cmd + 4), num);
		if (r->call == TR_IOCTL)
			sb_printf(s, " driver_id %u", ld32(r->cmd + 16));
		sb_printf(s, " at 0x%llx\n", (unsigned long long)r->arg);
	}
	if (length != claimed)
		sb_printf(s, "    ! header length %u, but %u attributes need %zu\n", length, num,
			  claimed);
	if (length > UVIO_CMD_MAX_BYTES || claimed > UVIO_CMD_MAX_BYTES)
		sb_printf(s, "    ! command over a page (%u bytes): the kernel refuses it\n",
			  r->cmd_want);
	if (r->cmd_fault)
		sb_printf(s, "    ! only %u of %u bytes of the command readable at 0x%llx\n",
			  r->cmd_len, r->cmd_want > TR_MAX_CMD ? TR_MAX_CMD : r->cmd_want,
			  (unsigned long long)r->arg);
	if (r->call == TR_IOCTL && (ld64(r->cmd + 8) || ld32(r->cmd + 20)))
		sb_printf(s, "    ! reserved header fields set: reserved1 0x%llx reserved2 0x%x\n",
			  (unsigned long long)ld64(r->cmd + 8), ld32(r->cmd + 20));
	if (r->call == TR_IOCTL_2017 && ld64(r->cmd + 8))
		sb_printf(s, "    ! reserved header field set: 0x%llx\n",
			  (unsigned long long)ld64(r->cmd + 8));
}

/* The library's decoder reads memory behind pointers through this: the
 * buffers captured from the tracee, inputs as they were before the call,
 * outputs as the kernel left them. Nothing else of the tracee is read. */
struct snap {
	const struct tr_record *r;
	bool after;
};

static bool from_buf(const struct tr_record *r, const struct tr_buf *b, uint64_t addr, void *buf,
		     size_t len)
{
	if (!b->read || addr < b->addr || addr - b->addr > b->got || len > b->got - (addr - b->addr))
		return false;
	memcpy(buf, r->payload + b->off + (addr - b->addr), len);
	return true;
}

static int snap_fetch(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct snap *sn = ctx;
	const struct tr_record *r = sn->r;

	for (uint32_t i = 0; i < r->nattrs; i++)
		if ((sn->after && from_buf(r, &r->attrs[i].out, addr, buf, len)) ||
		    from_buf(r, &r->attrs[i].in, addr, buf, len))
			return 0;
	return -EFAULT;
}

/* The command as the library decodes it: as sent, or (after) with the
 * attributes the kernel updated and the outputs it wrote. */
static void lib_decode(const struct tr_record *r, bool after, char *text, size_t size)
{
	static uint8_t buf[TR_MAX_CMD];
	struct snap sn = { r, after };
	struct uvio_decode_opts o = {
		.sz = sizeof(o),
		.layout = r->call == TR_IOCTL_2017 ? UVIO_LAYOUT_2017 : UVIO_LAYOUT_CURRENT,
		.flags = after ? UVIO_DECODE_AFTER : 0,
		.fetch = snap_fetch,
		.ctx = &sn,
		.driver_id = r->driver_id,	/* the 2017 layout carries none */
	};
	size_t hl = ioctl_hdr_len(r), n = (size_t)r->nattrs * sizeof(struct ib_uverbs_attr);

	memcpy(buf, r->cmd, r->cmd_len);
	if (after && r->after_len == n)
		memcpy(buf + hl, r->after, n);
	uvio_decode_cmd(buf, r->cmd_len, &o, text, size);
}

/* Lines of the library's decode: without its first (the header, which the
 * tracer's own line says) unless verbose, and without the write() command
 * INVOKE_WRITE carries, which is decoded apart (from the response as read). */
static void put_decode(struct sbuf *s, const char *text, bool verbose, const char *indent)
{
	bool first = true, in_write = false;

	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t n = nl ? (size_t)(nl - text) : strlen(text);

		if (!strncmp(text, "  write command ", 16))
			in_write = true;
		else if (in_write && strncmp(text, "    ", 4))
			in_write = false;
		if ((!first || verbose) && !in_write) {
			sb_puts(s, indent);
			if (first)
				sb_puts(s, "  ");	/* its attribute lines have two */
			sb_putn(s, text, n);
			sb_puts(s, "\n");
		}
		first = false;
		text += n + (nl ? 1 : 0);
	}
}

/* What could not be read of the buffers an attribute points to. */
static void text_read_notes(struct sbuf *s, const struct tr_record *r)
{
	uint16_t obj = ld16(r->cmd + 2), meth = ld16(r->cmd + 4);

	for (uint32_t i = 0; i < r->nattrs; i++) {
		const struct tr_buf *bufs[2] = { &r->attrs[i].in, &r->attrs[i].out };
		uint16_t id = ld16(attr_at(r, i));
		const char *name = attr_name(r, obj, meth, id);

		for (int k = 0; k < 2; k++) {
			if (!bufs[k]->read || !(bufs[k]->fault || bufs[k]->cut))
				continue;
			if (name)
				sb_printf(s, "    ! %s %s:", name, k ? "output" : "input");
			else
				sb_printf(s, "    ! attr 0x%04x %s:", id, k ? "output" : "input");
			buf_note(s, bufs[k], false);
			sb_puts(s, "\n");
		}
	}
}

static void text_ioctl(struct sbuf *s, const struct tr_record *r, const struct render_opts *o)
{
	static char text[1 << 17];

	if (!have_hdr(r)) {
		sb_printf(s, "    ! command unreadable at 0x%llx (%u of %zu header bytes)\n",
			  (unsigned long long)r->arg, r->cmd_len, ioctl_hdr_len(r));
		return;
	}
	text_header_problems(s, r, o->verbose);
	text_read_notes(s, r);
	lib_decode(r, r->done, text, sizeof(text));
	put_decode(s, text, o->verbose, "  ");
	if (is_invoke_write(r)) {
		uint8_t wbuf[TR_MAX_CMD + 32];
		const uint8_t *resp;
		size_t rn, n = invoke_as_write(r, wbuf, sizeof(wbuf), &resp, &rn);

		if (n)
			vw_render(s, false, o->verbose, "    | ", wbuf, n, resp, rn, 0);
	}
	if (o->verbose) {
		lib_decode(r, false, text, sizeof(text));
		sb_puts(s, "    as sent:\n");
		put_decode(s, text, true, "    ");
		sb_puts(s, "    hex: ");
		sb_hex(s, r->cmd, r->cmd_len, 0);
		sb_puts(s, "\n");
	}
}

static void text_write(struct sbuf *s, const struct tr_record *r, const struct render_opts *o)
{
	if (r->call == TR_WRITEV) {
		sb_printf(s, "    %u iovecs at 0x%llx", r->niov, (unsigned long long)r->arg);
		if (r->iov_fault)
			sb_printf(s, " <only %u readable>", r->nw);
		if (r->niov > TR_MAX_IOV)
			sb_printf(s, " <first %u shown>", TR_MAX_IOV);
		sb_puts(s, "\n");
	}
	for (uint32_t i = 0; i < r->nw; i++) {
		const struct tr_wcmd *w = &r->w[i];
		const uint8_t *resp = w->resp.read ? tr_bytes(r, &w->resp) : NULL;

		if (r->call == TR_WRITEV)
			sb_printf(s, "    iovec %u:\n", i);
		if (w->cmd.fault || w->cmd.cut) {
			sb_printf(s, "    ! %u bytes at 0x%llx", w->cmd.want,
				  (unsigned long long)w->cmd.addr);
			buf_note(s, &w->cmd, false);
			sb_puts(s, "\n");
		}
		if (r->fdkind == TR_FD_RDMA_CM) {
			static char tmp[16384];

			uvio_decode_cm(tr_bytes(r, &w->cmd), w->cmd.got, resp, resp ? w->resp.got : 0,
				       0, tmp, sizeof(tmp));
			put_indented(s, tmp, "    ");
		} else {
			vw_render(s, false, o->verbose, "    ", tr_bytes(r, &w->cmd), w->cmd.got, resp,
				  w->resp.got, r->driver_id);
		}
		if (w->resp.read && (w->resp.fault || w->resp.cut)) {
			sb_puts(s, "    ! response");
			buf_note(s, &w->resp, false);
			sb_puts(s, "\n");
		}
	}
}

/* --- JSON ---------------------------------------------------------------- */

static void json_str_or_null(struct sbuf *s, const char *p)
{
	if (p)
		sb_json_str(s, p);
	else
		sb_puts(s, "null");
}

static void json_buf(struct sbuf *s, const char *key, const struct tr_record *r,
		     const struct tr_buf *b)
{
	sb_printf(s, ",\"%s\":\"", key);
	sb_hex(s, tr_bytes(r, b), b->got, 0);
	sb_puts(s, "\"");
	buf_note(s, b, true);
}

/* The library's line for attribute i in its decode of the command (one
 * line per attribute, after the header's), without its indent; NULL. */
static const char *decoded_line(const char *text, uint32_t i, size_t *len)
{
	const char *l = strchr(text, '\n');

	for (uint32_t k = 0; l; k++) {
		const char *nl;

		l++;
		if (strncmp(l, "  [", 3))
			return NULL;
		nl = strchr(l, '\n');
		if (k == i) {
			*len = (nl ? (size_t)(nl - l) : strlen(l)) - 2;
			return l + 2;
		}
		l = nl;
	}
	return NULL;
}

static void json_attr(struct sbuf *s, const struct tr_record *r, uint32_t i, const char *text)
{
	static char one[8192];
	const char *line;
	size_t n = 0;

	const uint8_t *a = attr_at(r, i), *after = attr_after(r, i);
	uint16_t id = ld16(a), len = ld16(a + 2), flags = ld16(a + 4);
	uint16_t flags_after = after ? ld16(after + 4) : flags;
	uint64_t data = ld64(a + 8);
	const struct tr_attr *t = &r->attrs[i];
	const char *name = attr_name(r, ld16(r->cmd + 2), ld16(r->cmd + 4), id);
	const char *kind = t->kind ? uvio_kind_name((enum uvio_attr_kind)t->kind) : NULL;

	sb_printf(s, "%s{\"id\":%u,\"name\":", i ? "," : "", id);
	json_str_or_null(s, name);
	sb_puts(s, ",\"kind\":");
	json_str_or_null(s, kind);
	sb_printf(s, ",\"len\":%u,\"flags\":%u,\"flags_after\":%u,\"attr_data\":%u", len, flags,
		  flags_after, ld16(a + 6));
	/* the value as the library decodes it: fields by name, the driver's
	 * data by its driver's layout */
	line = decoded_line(text, i, &n);
	if (line) {
		if (n >= sizeof(one))
			n = sizeof(one) - 1;
		memcpy(one, line, n);
		one[n] = 0;
		sb_puts(s, ",\"decoded\":");
		sb_json_str(s, one);
	}
	switch (t->kind) {
	case UVIO_KIND_IDR:
		sb_printf(s, ",\"handle\":%u", (uint32_t)data);
		break;
	case UVIO_KIND_IDR_NEW:
		if (r->done && r->ret == 0 && after)
			sb_printf(s, ",\"handle\":%u", (uint32_t)ld64(after + 8));
		break;
	case UVIO_KIND_FD:
		sb_printf(s, ",\"fd\":%d", (int)(int32_t)data);
		break;
	case UVIO_KIND_FD_NEW:
		if (r->done && r->ret == 0 && after)
			sb_printf(s, ",\"fd\":%d", (int)(int32_t)ld64(after + 8));
		break;
	case UVIO_KIND_PTR_OUT:
		sb_printf(s, ",\"addr\":\"0x%llx\"", (unsigned long long)data);
		if (t->out.read) {
			json_buf(s, "out", r, &t->out);
			/* a number when all of it was read (the payload may have
			 * been full: cut, not a fault) */
			if (t->out.got == len && (len == 1 || len == 2 || len == 4 || len == 8))
				sb_printf(s, ",\"value\":%llu",
					  (unsigned long long)ld_le(tr_bytes(r, &t->out), len));
		}
		break;
	default:
		if (len <= 8) {
			sb_printf(s, ",\"value\":%llu", (unsigned long long)ld_le(a + 8, len));
		} else {
			sb_printf(s, ",\"addr\":\"0x%llx\"", (unsigned long long)data);
			if (t->in.read)
				json_buf(s, "in", r, &t->in);
		}
		if (!t->kind && t->out.read)
			json_buf(s, "after", r, &t->out);
		break;
	}
	sb_puts(s, "}");
}

static void json_ioctl(struct sbuf *s, const struct tr_record *r)
{
	static char text[1 << 17];
	size_t hl = ioctl_hdr_len(r);
	uint16_t obj, meth, length, num;
	const char *o, *m;

	sb_printf(s, ",\"layout\":\"%s\",\"cmd_len\":%u", r->call == TR_IOCTL_2017 ? "2017" : "current",
		  r->cmd_len);
	if (r->cmd_fault)
		sb_puts(s, ",\"fault\":true");
	if (!have_hdr(r))
		return;
	length = ld16(r->cmd);
	obj = ld16(r->cmd + 2);
	meth = ld16(r->cmd + 4);
	num = ld16(r->cmd + 6);
	o = uvio_driver_object_name(tr_driver_id(r), obj);
	m = uvio_driver_method_name(tr_driver_id(r), obj, meth);
	sb_printf(s, ",\"object_id\":%u,\"method_id\":%u,\"object\":", obj, meth);
	json_str_or_null(s, o);
	sb_puts(s, ",\"method\":");
	json_str_or_null(s, m);
	sb_printf(s, ",\"length\":%u,\"num_attrs\":%u", length, num);
	if (r->call == TR_IOCTL)
		sb_printf(s, ",\"driver_id\":%u,\"reserved1\":%llu,\"reserved2\":%u",
			  ld32(r->cmd + 16), (unsigned long long)ld64(r->cmd + 8),
			  ld32(r->cmd + 20));
	if (length != hl + (size_t)num * sizeof(struct ib_uverbs_attr))
		sb_puts(s, ",\"bad_length\":true");
	sb_puts(s, ",\"attrs\":[");
	lib_decode(r, r->done, text, sizeof(text));
	for (uint32_t i = 0; i < r->nattrs; i++)
		json_attr(s, r, i, text);
	sb_puts(s, "]");
	if (is_invoke_write(r)) {
		uint8_t wbuf[TR_MAX_CMD + 32];
		const uint8_t *resp;
		size_t rn, n = invoke_as_write(r, wbuf, sizeof(wbuf), &resp, &rn);

		if (n) {
			sb_puts(s, ",\"write\":{");
			vw_render(s, true, false, "", wbuf, n, resp, rn, 0);
			sb_puts(s, "}");
		}
	}
}

static void json_write(struct sbuf *s, const struct tr_record *r)
{
	if (r->call == TR_WRITEV) {
		sb_printf(s, ",\"iovcnt\":%u", r->niov);
		if (r->iov_fault)
			sb_puts(s, ",\"iov_fault\":true");
	}
	sb_puts(s, ",\"commands\":[");
	for (uint32_t i = 0; i < r->nw; i++) {
		const struct tr_wcmd *w = &r->w[i];
		const uint8_t *resp = w->resp.read ? tr_bytes(r, &w->resp) : NULL;

		sb_printf(s, "%s{\"addr\":\"0x%llx\",\"len\":%u", i ? "," : "",
			  (unsigned long long)w->cmd.addr, w->cmd.want);
		buf_note(s, &w->cmd, true);
		sb_puts(s, ",");
		if (r->fdkind == TR_FD_RDMA_CM) {
			static char tmp[16384];
			const uint8_t *c = tr_bytes(r, &w->cmd);
			const char *n = w->cmd.got >= 8 ? uvio_cm_cmd_name(ld32(c)) : NULL;

			uvio_decode_cm(c, w->cmd.got, resp, resp ? w->resp.got : 0, UVIO_DECODE_JSON,
				       tmp, sizeof(tmp));
			sb_puts(s, tmp);

			sb_puts(s, ",\"name\":");
			json_str_or_null(s, n);
		} else {
			char name[48];
			bool known = w->cmd.got >= 4 &&
				vw_name(ld32(tr_bytes(r, &w->cmd)), name, sizeof(name));

			vw_render(s, true, false, "", tr_bytes(r, &w->cmd), w->cmd.got, resp,
				  w->resp.got, r->driver_id);
			sb_puts(s, ",\"name\":");
			if (known)
				sb_json_str(s, name);
			else
				sb_puts(s, "null");
		}
		if (w->resp.read && (w->resp.fault || w->resp.cut)) {
			sb_puts(s, ",\"resp_read\":{\"ok\":false");
			buf_note(s, &w->resp, true);
			sb_puts(s, "}");
		}
		sb_puts(s, "}");
	}
	sb_puts(s, "]");
}

/* --- objects ------------------------------------------------------------- */


/* The cm_id a successful rdma_cm command created (1: CREATE_ID, its
 * answer's id) or destroyed (-1: DESTROY_ID, the id it names); 0 else. */
static int cm_object(const uint8_t *c, size_t len, const uint8_t *resp, size_t resp_len,
		     uint32_t *id)
{
	if (len < 8)
		return 0;
	if (ld32(c) == RDMA_USER_CM_CMD_CREATE_ID && resp && resp_len >= 4) {
		*id = ld32(resp);
		return 1;
	}
	if (ld32(c) == RDMA_USER_CM_CMD_DESTROY_ID && len >= 8 + 12) {
		*id = ld32(c + 8 + 8);	/* struct rdma_ucm_destroy_id's id */
		return -1;
	}
	return 0;
}

static void lower(char *dst, const char *src, size_t size)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = (char)(src[i] >= 'A' && src[i] <= 'Z' ? src[i] - 'A' + 'a' : src[i]);
	dst[i] = 0;
}

void tr_objects(const struct tr_record *r, tr_object_fn fn, void *ctx)
{
	const char *type;
	uint32_t handle;
	int dir;

	if (!r->done || r->ret < 0)
		return;
	if (r->call == TR_IOCTL || r->call == TR_IOCTL_2017) {
		uint16_t obj, meth;
		char t[32];

		if (!have_hdr(r))
			return;
		if (is_invoke_write(r)) {
			uint8_t wbuf[TR_MAX_CMD + 32];
			const uint8_t *resp;
			size_t rn, n = invoke_as_write(r, wbuf, sizeof(wbuf), &resp, &rn);

			dir = n ? vw_object(wbuf, n, resp, rn, &type, &handle) : 0;
			if (dir)
				fn(ctx, r, type, handle, dir);
			return;
		}
		obj = ld16(r->cmd + 2);
		meth = ld16(r->cmd + 4);
		if (obj == UVERBS_OBJECT_DEVICE && meth == UVERBS_METHOD_GET_CONTEXT) {
			fn(ctx, r, "ctx", 0, 1);
			return;
		}
		/* The library's tables say which attribute makes ("new") or
		 * ends ("destroy") which object. */
		for (uint32_t i = 0; i < r->nattrs; i++) {
			const uint8_t *after = attr_after(r, i);
			uint16_t of = 0;
			int d = tr_attr_lifecycle(tr_driver_id(r), obj, meth, ld16(attr_at(r, i)), &of);
			const char *o = d ? uvio_driver_object_name(tr_driver_id(r), of) : NULL;

			if (!o)
				continue;
			lower(t, o, sizeof(t));
			if (d > 0 && after)
				fn(ctx, r, t, (uint32_t)ld64(after + 8), 1);
			else if (d < 0)
				fn(ctx, r, t, (uint32_t)ld64(attr_at(r, i) + 8), -1);
		}
		return;
	}
	for (uint32_t i = 0; i < r->nw; i++) {
		const struct tr_wcmd *w = &r->w[i];
		const uint8_t *c = tr_bytes(r, &w->cmd);
		const uint8_t *resp = w->resp.read && !w->resp.fault ? tr_bytes(r, &w->resp) : NULL;

		if (r->fdkind == TR_FD_RDMA_CM) {
			dir = cm_object(c, w->cmd.got, resp, w->resp.got, &handle);
			type = "cm_id";
		} else if (w->cmd.got >= 4 && ld32(c) == IB_USER_VERBS_CMD_GET_CONTEXT) {
			dir = 1;
			type = "ctx";
			handle = 0;
		} else {
			dir = vw_object(c, w->cmd.got, resp, w->resp.got, &type, &handle);
		}
		if (dir)
			fn(ctx, r, type, handle, dir);
	}
}

struct obj_json {
	struct sbuf *s;
	int n;
};

static void obj_json_cb(void *ctx, const struct tr_record *r, const char *type, uint32_t handle,
			int dir)
{
	struct obj_json *j = ctx;

	(void)r;
	sb_printf(j->s, "%s{\"type\":\"%s\",\"handle\":%u,\"%s\":true}", j->n++ ? "," : "", type,
		  handle, dir > 0 ? "created" : "destroyed");
}

static void obj_text_cb(void *ctx, const struct tr_record *r, const char *type, uint32_t handle,
			int dir)
{
	struct sbuf *s = ctx;

	(void)r;
	sb_printf(s, "    %s %s %u\n", dir > 0 ? "+" : "-", type, handle);
}

/* --- the record ---------------------------------------------------------- */

static const char *call_name(const struct tr_record *r)
{
	switch (r->call) {
	case TR_IOCTL: case TR_IOCTL_2017: return "ioctl";
	case TR_WRITE: return "write";
	case TR_WRITEV: return "writev";
	}
	return "?";
}

void tr_render(struct sbuf *s, const struct tr_record *r, const struct render_opts *o)
{
	uint64_t t = r->t_entry >= o->t0 ? r->t_entry - o->t0 : 0;
	uint64_t dur = r->done && r->t_exit >= r->t_entry ? r->t_exit - r->t_entry : 0;
	int err = r->done && r->ret < 0 && r->ret > -4096 ? (int)-r->ret : 0;
	const char *en = err ? tr_errno_name(err) : NULL;
	char name[128];

	tr_name(r, name, sizeof(name), NULL);
	if (o->json) {
		struct obj_json j = { s, 0 };

		sb_printf(s, "{\"time\":%llu.%06llu,\"pid\":%d,\"tid\":%d,\"fd\":%d,\"call\":\"%s\"",
			  (unsigned long long)(t / 1000000000), (unsigned long long)(t / 1000 % 1000000),
			  (int)r->pid, (int)r->tid, r->fd, call_name(r));
		sb_puts(s, ",\"dev\":");
		sb_json_str(s, r->dev);
		if (r->ibdev[0]) {
			sb_puts(s, ",\"ibdev\":");
			sb_json_str(s, r->ibdev);
		}
		sb_puts(s, ",\"name\":");
		sb_json_str(s, name);
		sb_printf(s, ",\"unknown\":%u", tr_unknown_ids(r));
		if (r->done) {
			sb_printf(s, ",\"ret\":%lld,\"errno\":", (long long)(err ? -1 : r->ret));
			if (err && en)
				sb_json_str(s, en);
			else if (err)
				sb_printf(s, "%d", err);
			else
				sb_puts(s, "null");
			if (err) {
				sb_puts(s, ",\"meaning\":");
				sb_json_str(s, errno_meaning(r, err));
			}
			sb_printf(s, ",\"us\":%llu.%03llu", (unsigned long long)(dur / 1000),
				  (unsigned long long)(dur % 1000));
		} else {
			sb_puts(s, ",\"unfinished\":true");
		}
		if (r->call == TR_IOCTL || r->call == TR_IOCTL_2017)
			json_ioctl(s, r);
		else
			json_write(s, r);
		sb_puts(s, ",\"objects\":[");
		tr_objects(r, obj_json_cb, &j);
		sb_puts(s, "]}");
		if (s->cut) {
			/* A line cut short is no JSON: say so in one that is. */
			s->len = 0;
			s->cut = false;
			sb_printf(s, "{\"time\":%llu.%06llu,\"pid\":%d,\"tid\":%d,\"name\":",
				  (unsigned long long)(t / 1000000000),
				  (unsigned long long)(t / 1000 % 1000000), (int)r->pid, (int)r->tid);
			sb_json_str(s, name);
			sb_puts(s, ",\"too_long\":true}");
		}
		sb_puts(s, "\n");
		return;
	}

	sb_printf(s, "%llu.%06llu [%d] ", (unsigned long long)(t / 1000000000),
		  (unsigned long long)(t / 1000 % 1000000), (int)r->tid);
	if (r->ibdev[0])
		sb_printf(s, "%s ", r->ibdev);
	else if (r->dev[0])
		sb_printf(s, "%s ", r->dev);
	sb_printf(s, "fd %d %s", r->fd, name);
	if (!r->done)
		sb_puts(s, " = ? <unfinished>\n");
	else if (err)
		sb_printf(s, " = -1 %s <%llu.%03llu us>\n", en ? en : "?",
			  (unsigned long long)(dur / 1000), (unsigned long long)(dur % 1000));
	else
		sb_printf(s, " = %lld <%llu.%03llu us>\n", (long long)r->ret,
			  (unsigned long long)(dur / 1000), (unsigned long long)(dur % 1000));
	if (err)
		sb_printf(s, "    error %s: %s\n", en ? en : "?", errno_meaning(r, err));
	if (r->fdkind != TR_FD_UVERBS && r->fdkind != TR_FD_RDMA_CM)
		sb_printf(s, "    ! fd %d is not a uverbs device (%s)\n", r->fd,
			  r->dev[0] ? r->dev : "unknown");
	if (r->call == TR_IOCTL || r->call == TR_IOCTL_2017)
		text_ioctl(s, r, o);
	else
		text_write(s, r, o);
	tr_objects(r, obj_text_cb, s);
	if (s->cut) {
		/* Cut at a line, and say so. */
		char *nl = s->len ? memrchr(s->buf, '\n', s->len) : NULL;

		s->len = nl ? (size_t)(nl - s->buf) + 1 : 0;
		s->buf[s->len] = 0;
		s->cut = false;
		sb_puts(s, "    ... (output cut)\n");
	}
}
