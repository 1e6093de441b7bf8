// SPDX-License-Identifier: MIT
/*
 * Reading a command out of the tracee: before the call the command and its
 * inputs, after it the attributes the kernel updated and the outputs. Every
 * read is bounded (TR_MAX_CMD, TR_MAX_DATA, TR_MAX_PAYLOAD) whatever lengths
 * the tracee's bytes claim; nothing is ever written to the tracee.
 */
#include <errno.h>
#include <string.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/decode.h>

#include "abi/bytes.h"
#include "record.h"
#include "vwrite.h"

static bool kind_reads_input(int kind)
{
	return kind == UVIO_KIND_PTR_IN || kind == UVIO_KIND_ENUM_IN || kind == UVIO_KIND_IDRS ||
	       kind == 0;
}

static bool kind_is_output(int kind)
{
	return kind == UVIO_KIND_PTR_OUT || kind == 0;
}

/* Read want bytes at addr into the payload, as far as limits and the
 * tracee's memory allow. */
static void read_buf(struct tr_record *r, struct tmem *m, struct tr_buf *b, uint64_t addr,
		     uint64_t want)
{
	uint32_t n = want > TR_MAX_DATA ? TR_MAX_DATA : (uint32_t)want;
	ssize_t got;

	b->addr = addr;
	b->want = want > UINT32_MAX ? UINT32_MAX : (uint32_t)want;
	b->off = r->payload_len;
	b->got = 0;
	b->read = true;
	b->cut = want > TR_MAX_DATA;
	b->fault = false;
	if (n > TR_MAX_PAYLOAD - r->payload_len) {
		n = TR_MAX_PAYLOAD - r->payload_len;
		b->cut = true;
	}
	if (!n)
		return;
	got = m->read(m, addr, r->payload + b->off, n);
	if (got < 0)
		got = 0;
	if ((size_t)got > n)	/* a reader that overstates */
		got = n;
	b->got = (uint32_t)got;
	b->fault = (uint32_t)got < n;
	r->payload_len += b->got;
}

static size_t hdr_len(const struct tr_record *r)
{
	return r->call == TR_IOCTL_2017 ? sizeof(struct uvio_ioctl_hdr_2017) :
					  sizeof(struct ib_uverbs_ioctl_hdr);
}

static void ioctl_entry(struct tr_record *r, struct tmem *m)
{
	size_t hl = hdr_len(r), want;
	ssize_t got;
	uint16_t length, object, method, num;

	got = m->read(m, r->arg, r->cmd, hl);
	r->cmd_len = got > 0 ? (uint32_t)(got > (ssize_t)hl ? (ssize_t)hl : got) : 0;
	r->cmd_want = (uint32_t)hl;
	if (r->cmd_len < hl) {
		r->cmd_fault = true;
		return;
	}
	length = ld16(r->cmd);
	object = ld16(r->cmd + 2);
	method = ld16(r->cmd + 4);
	num = ld16(r->cmd + 6);
	/* The kernel refuses a length that disagrees with num_attrs or is over
	 * a page, before reading the attributes; show what the tracee meant
	 * either way, as far as a page goes. */
	want = hl + (size_t)num * sizeof(struct ib_uverbs_attr);
	if (length > want)
		want = length;
	r->cmd_want = (uint32_t)want;
	if (want > TR_MAX_CMD)
		want = TR_MAX_CMD;
	if (want > hl) {
		got = m->read(m, r->arg + hl, r->cmd + hl, want - hl);
		if (got < 0)
			got = 0;
		if ((size_t)got > want - hl)
			got = (ssize_t)(want - hl);
		r->cmd_len = (uint32_t)(hl + (size_t)got);
		r->cmd_fault = r->cmd_len < want;
	}
	r->nattrs = (uint32_t)((r->cmd_len - hl) / sizeof(struct ib_uverbs_attr));
	if (r->nattrs > num)
		r->nattrs = num;
	/* cmd holds a page at most: never more records than the array has */
	_Static_assert(sizeof(r->attrs) / sizeof(r->attrs[0]) >=
			       (TR_MAX_CMD - sizeof(struct uvio_ioctl_hdr_2017)) /
				       sizeof(struct ib_uverbs_attr),
		       "a record's attributes cannot hold a page of them");
	for (uint32_t i = 0; i < r->nattrs; i++) {
		const uint8_t *a = r->cmd + hl + i * sizeof(struct ib_uverbs_attr);
		uint16_t id = ld16(a), len = ld16(a + 2);
		struct tr_attr *t = &r->attrs[i];

		t->kind = (uint8_t)tr_attr_kind(tr_driver_id(r), object, method, id);
		if (len > sizeof(uint64_t) && kind_reads_input(t->kind))
			read_buf(r, m, &t->in, ld64(a + 8), len);
	}
}

static void ioctl_exit(struct tr_record *r, struct tmem *m)
{
	size_t hl = hdr_len(r);
	size_t n = (size_t)r->nattrs * sizeof(struct ib_uverbs_attr);
	ssize_t got;

	if (r->cmd_len < hl)
		return;
	/* The kernel writes new handles and fds into the attributes and marks
	 * the outputs it filled: read the array again. */
	got = n ? m->read(m, r->arg + hl, r->after, n) : 0;
	r->after_len = got > 0 ? (uint32_t)((size_t)got > n ? n : (size_t)got) : 0;
	for (uint32_t i = 0; i < r->nattrs; i++) {
		size_t at = i * sizeof(struct ib_uverbs_attr);
		const uint8_t *a = r->cmd + hl + at;
		uint16_t len = ld16(a + 2), flags = 0;
		struct tr_attr *t = &r->attrs[i];

		if (at + sizeof(struct ib_uverbs_attr) <= r->after_len)
			flags = ld16(r->after + at + 4);
		if (!kind_is_output(t->kind) || !len)
			continue;
		if (t->kind == 0 && len <= sizeof(uint64_t))
			continue;	/* unknown and inline: nothing behind it */
		/* An output is the kernel's only when it says so, or when the
		 * call succeeded (older kernels did not flag mandatory ones). */
		if (r->ret == 0 || (flags & UVERBS_ATTR_F_VALID_OUTPUT))
			read_buf(r, m, &t->out, ld64(a + 8), len);
	}
}

/* A write() command at addr, len bytes: the bytes, and where its response
 * goes. */
static void wcmd_entry(struct tr_record *r, struct tmem *m, struct tr_wcmd *w, uint64_t addr,
		       uint64_t len)
{
	read_buf(r, m, &w->cmd, addr, len > TR_MAX_CMD ? TR_MAX_CMD : len);
	w->cmd.want = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	w->cmd.cut = len > TR_MAX_CMD;
}

/* Where the kernel writes this command's response, and how much. */
static bool wcmd_resp(const struct tr_record *r, const struct tr_wcmd *w, uint64_t *addr,
		      uint64_t *len)
{
	const uint8_t *p = tr_bytes(r, &w->cmd);

	if (r->fdkind == TR_FD_RDMA_CM) {
		uint32_t n;

		if (uvio_cm_cmd_response(p, w->cmd.got, addr, &n) != 1)
			return false;
		*len = n;
		return true;
	}
	return vw_resp_ptr(p, w->cmd.got, addr, len);
}

static void write_entry(struct tr_record *r, struct tmem *m)
{
	if (r->call == TR_WRITE) {
		r->nw = 1;
		wcmd_entry(r, m, &r->w[0], r->arg, r->count);
		return;
	}
	/* writev(): the kernel runs each iovec as a command of its own. */
	{
		uint64_t iov[TR_MAX_IOV][2];
		size_t n = r->count < TR_MAX_IOV ? (size_t)r->count : TR_MAX_IOV;
		ssize_t got = m->read(m, r->arg, iov, n * sizeof(iov[0]));

		r->niov = r->count > UINT32_MAX ? UINT32_MAX : (uint32_t)r->count;
		if (got < 0)
			got = 0;
		r->nw = (uint32_t)((size_t)got / sizeof(iov[0]));
		if (r->nw > n)
			r->nw = (uint32_t)n;
		r->iov_fault = r->nw < n;
		for (uint32_t i = 0; i < r->nw; i++)
			wcmd_entry(r, m, &r->w[i], iov[i][0], iov[i][1]);
	}
}

static void write_exit(struct tr_record *r, struct tmem *m)
{
	uint64_t done = r->ret > 0 ? (uint64_t)r->ret : 0;

	/* A command ran when the bytes returned cover it. */
	for (uint32_t i = 0; i < r->nw; i++) {
		struct tr_wcmd *w = &r->w[i];
		uint64_t addr, len;

		if (done < w->cmd.want || !w->cmd.want)
			break;
		done -= w->cmd.want;
		if (wcmd_resp(r, w, &addr, &len))
			read_buf(r, m, &w->resp, addr, len);
	}
}

void tr_capture_entry(struct tr_record *r, struct tmem *m)
{
	r->payload_len = 0;
	r->cmd_len = r->cmd_want = r->after_len = r->nattrs = 0;
	r->cmd_fault = false;
	r->nw = r->niov = 0;
	r->iov_fault = false;
	r->done = false;
	r->ret = 0;
	memset(r->attrs, 0, sizeof(r->attrs));
	memset(r->w, 0, sizeof(r->w));
	if (r->call == TR_IOCTL || r->call == TR_IOCTL_2017)
		ioctl_entry(r, m);
	else
		write_entry(r, m);
}

void tr_capture_exit(struct tr_record *r, struct tmem *m, int64_t ret)
{
	r->ret = ret;
	r->done = true;
	if (r->call == TR_IOCTL || r->call == TR_IOCTL_2017)
		ioctl_exit(r, m);
	else
		write_exit(r, m);
}
