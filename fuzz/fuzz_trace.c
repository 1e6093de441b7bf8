/*
 * uverbs-trace's decoding of tracee memory: the fuzzer's bytes are the
 * traced process's memory and the system call it made. The first bytes say
 * which call (ioctl in either layout, write(), writev()), on what kind of fd,
 * with which argument and count, what it returned and whether the device is
 * an mlx5 (whose tables then decode it); the memory before the
 * call is the rest of the input, and after the call the same bytes with
 * every 8-byte word rotated (the kernel "wrote" everywhere). Addresses below
 * 2^40 read the input cyclically, so that any pointer the bytes hold leads
 * somewhere; higher ones fault. The record is captured, rendered as text and
 * JSON (which must then parse), and its objects listed: nothing may crash,
 * hang, leak or read out of bounds, and no output line may be cut.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "abi/bytes.h"
#include "../tools/trace/record.h"
#include "../tools/trace/render.h"
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No kernel here. */
int uvio_sys_ioctl(int fd, unsigned long req, void *arg);
int uvio_sys_ioctl(int fd, unsigned long req, void *arg)
{
	(void)fd; (void)req; (void)arg;
	return -ENOTTY;
}
ssize_t uvio_sys_write(int fd, const void *buf, size_t len);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len)
{
	(void)fd; (void)buf; (void)len;
	return -EBADF;
}

struct fake {
	struct tmem m;
	const uint8_t *mem;	/* before the call */
	const uint8_t *rot;	/* after it */
	size_t len;
	bool after;
};

static ssize_t fake_read(struct tmem *m, uint64_t addr, void *buf, size_t len)
{
	struct fake *f = (struct fake *)m;
	const uint8_t *src = f->after ? f->rot : f->mem;
	uint8_t *out = buf;
	size_t done = 0;

	if (!f->len || addr >= (1ull << 40))
		return 0;
	if (len > (1ull << 40) - addr)
		len = (size_t)((1ull << 40) - addr);	/* memory ends there */
	while (done < len) {	/* the input, cyclically */
		size_t at = (size_t)((addr + done) % f->len), n = f->len - at;

		if (n > len - done)
			n = len - done;
		memcpy(out + done, src + at, n);
		done += n;
	}
	return (ssize_t)done;
}

/* after the call: each whole 8-byte word rotated by one byte */
HARNESS static void rotate(uint8_t *rot, const uint8_t *mem, size_t len)
{
	memcpy(rot, mem, len);
	for (size_t i = 0; i + 8 <= len; i += 8)
		for (size_t k = 0; k < 8; k++)
			rot[i + k] = mem[i + (k + 1) % 8];
}

/* One JSON line: an object, closed by the newline. */
HARNESS static void check_json(const char *s, size_t n)
{
	if (!n || s[0] != '{' || s[n - 1] != '\n')
		abort();
	fuzz_check_json(s, n - 1);
}

static void count_objects(void *ctx, const struct tr_record *r, const char *type,
			  uint32_t handle, int dir)
{
	(void)r; (void)handle;
	if (!type || !*type || (dir != 1 && dir != -1))
		abort();
	++*(int *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tr_record r;
	static char text[1 << 20];
	static uint8_t rot[1 << 20];
	struct fake f = { { fake_read }, NULL, NULL, 0, false };
	struct render_opts o = { false, false, 0 };
	struct sbuf s;
	int objects = 0;

	if (size < 26 || size - 24 > sizeof(rot))
		return 0;
	memset(&r, 0, offsetof(struct tr_record, cmd));
	r.call = (enum tr_call)(data[0] % 4);
	r.fdkind = (enum tr_fdkind)(data[1] % 4);
	r.ret = (int64_t)ld_le(data + 2, 8);
	if (data[1] & 0x80)
		r.ret = -(int64_t)(data[1] & 0x7f);	/* an errno, often */
	r.arg = ld_le(data + 10, 8) % (data[18] & 1 ? (1ull << 41) : 4096);
	r.count = ld_le(data + 19, 4) % (data[18] & 2 ? UINT32_MAX : 64);
	r.fd = 3;
	r.pid = r.tid = 1;
	/* the device's driver, as netlink tells the tracer: mlx5 (1) */
	r.driver_id = data[18] & 0x10 ? 1 : 0;
	r.t_entry = 1;
	r.t_exit = 2 + data[23];
	f.mem = data + 24;
	f.len = size - 24;
	rotate(rot, f.mem, f.len);
	f.rot = rot;

	tr_capture_entry(&r, &f.m);
	f.after = true;
	if (!(data[18] & 4))
		tr_capture_exit(&r, &f.m, r.ret);
	if (r.payload_len > TR_MAX_PAYLOAD || r.cmd_len > TR_MAX_CMD || r.nw > TR_MAX_IOV)
		abort();

	sb_init(&s, text, sizeof(text));
	o.verbose = data[18] & 8;
	tr_render(&s, &r, &o);
	if (s.len != strlen(text) || !s.len || text[s.len - 1] != '\n')
		abort();
	o.json = true;
	sb_init(&s, text, sizeof(text));
	tr_render(&s, &r, &o);
	check_json(text, s.len);
	tr_objects(&r, count_objects, &objects);
	/* at most one object per attribute or write() command (GET_CONTEXT's
	 * context has none) */
	if (objects > (int)(r.nattrs + r.nw + 1))
		abort();
	return 0;
}
