/*
 * The decoder on any bytes, both layouts, into roomy and tiny buffers; the
 * write() decoder on any command and response ('W'); the ioctl decoder
 * following pointers into a fuzzed memory, as it does for a traced program
 * ('F'); the same with a driver's tables ('D': the driver id the options
 * give, for write() commands and the 2017 layout, or that the header
 * carries, mlx5's with the seeds); and the builder driven by a fuzzed
 * sequence of puts ('B'), whose command must then be either refused with a
 * reason or well formed.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include <uvio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No kernel here: the decoder and builder issue nothing. */
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

static void build(const uint8_t *d, size_t n)
{
	static uint8_t payload[70000];
	uint64_t buf[UVIO_CMD_BUF_SIZE(40) / 8];
	size_t cap = n ? (d[0] % 40) : 0, len;
	struct uvio_cmd cmd;
	char text[16384];
	uint16_t id;

	uvio_cmd_init(&cmd, buf, UVIO_CMD_BUF_SIZE(cap), 3, 0);
	if (n && (d[0] & 0x80))
		uvio_cmd_set_layout(&cmd, UVIO_LAYOUT_2017);
	/* each put: op, id (2 bytes), length (2 bytes), flags */
	for (size_t i = 1; i + 6 <= n; i += 6) {
		struct ib_uverbs_attr *a;

		id = (uint16_t)(d[i + 1] | d[i + 2] << 8);
		len = (size_t)(d[i + 3] | d[i + 4] << 8) * (d[i + 5] & 1 ? 2 : 1);
		switch (d[i] % 12) {
		case 0: a = uvio_put_ptr_in(&cmd, id, payload, len); break;
		case 1: a = uvio_put_ptr_out(&cmd, id, payload + (d[i + 5] >> 1) * 64, len); break;
		case 2: a = uvio_put_u32(&cmd, id, (uint32_t)len); break;
		case 3: a = uvio_put_u64(&cmd, id, len); break;
		case 4: a = uvio_put_idr(&cmd, id, (uint32_t)len); break;
		case 5: a = uvio_put_idr_new(&cmd, id); break;
		case 6: a = uvio_put_fd(&cmd, id, (int)len); break;
		case 7: a = uvio_put_fd_new(&cmd, id); break;
		case 8: a = uvio_put_enum(&cmd, id, d[i + 5], payload, len % 20); break;
		case 9: a = uvio_put_idrs(&cmd, id, (const uint32_t *)payload, len); break;
		case 10: a = uvio_put_ptr_in(&cmd, id, NULL, len); break;
		default: a = uvio_put_flags(&cmd, id, len); break;
		}
		if (d[i + 5] & 0x40)
			uvio_attr_optional(a);
	}
	uvio_cmd_format(&cmd, text, sizeof(text));
	int r = uvio_cmd_finish(&cmd);
	if (uvio_cmd_error(&cmd)) {
		if (r != uvio_cmd_error(&cmd) || !uvio_cmd_error_msg(&cmd, &id))
			abort();
		return;
	}
	/* A built command fits the buffer and a page, and says so. */
	if (r != (int)(((cmd.layout == UVIO_LAYOUT_2017) ? 16 : 24) + 16 * cmd.num_attrs) ||
	    r > (int)UVIO_CMD_MAX_BYTES || cmd.num_attrs > cap ||
	    cmd.hdr->num_attrs != cmd.num_attrs)
		abort();
	for (unsigned int i = 0; i < cmd.num_attrs; i++)
		for (unsigned int j = i + 1; j < cmd.num_attrs; j++)
			if (cmd.attrs[i].attr_id == cmd.attrs[j].attr_id)
				abort();
}

static char big[1 << 16];

/* The same text, whole and cut short: same length returned, terminated. */
static void same(int n, int m, const char *tiny, size_t tiny_size)
{
	if (n != m || (n >= 0 && (size_t)n < sizeof(big) && strlen(big) != (size_t)n) ||
	    strlen(tiny) >= tiny_size)
		abort();
}

/* 'W', 2 bytes of command length, the command, the response. */
static void write_cmd(const uint8_t *d, size_t n)
{
	size_t len = n >= 2 ? (size_t)(d[0] | d[1] << 8) : 0;
	char tiny[5];

	d += n >= 2 ? 2 : n;
	n -= n >= 2 ? 2 : n;
	if (len > n)
		len = n;
	same(uvio_decode_write(d, len, d + len, n - len, big, sizeof(big)),
	     uvio_decode_write(d, len, d + len, n - len, tiny, sizeof(tiny)), tiny, sizeof(tiny));
}

/* The traced program's memory: addresses are offsets into it (low 16 bits;
 * the rest must be zero), anything else faults. */
struct mem {
	const uint8_t *p;
	size_t n;
};

static int fetch(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct mem *m = ctx;

	if (len > 4096)	/* the decoder's promise: bounded reads */
		abort();
	if (addr > 0xffff || addr + len > m->n)
		return -EFAULT;
	memcpy(buf, m->p + addr, len);
	return 0;
}

/* 'F', flags, layout, 2 bytes of command length, the command, the memory. */
static void followed(const uint8_t *d, size_t n)
{
	struct mem m = { 0 };
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .ctx = &m };
	size_t len;
	char tiny[9];
	int a, b;

	if (n < 4)
		return;
	o.flags = d[0] & 1 ? UVIO_DECODE_AFTER : 0;
	o.layout = (enum uvio_layout)(d[1] & 1);
	len = (size_t)(d[2] | d[3] << 8);
	d += 4;
	n -= 4;
	if (len > n)
		len = n;
	m.p = d + len;
	m.n = n - len;
	a = uvio_decode_cmd(d, len, &o, big, sizeof(big));
	b = uvio_decode_cmd(d, len, &o, tiny, sizeof(tiny));
	same(a, b, tiny, sizeof(tiny));
}

/* 'D', driver id, flags (1: after the call, 2: a write() command, 4: the
 * 2017 layout), 2 bytes of command length, the command, the memory. */
static void driver(const uint8_t *d, size_t n)
{
	struct mem m = { 0 };
	struct uvio_decode_opts o = { .sz = sizeof(o), .fetch = fetch, .ctx = &m };
	size_t len;
	char tiny[11];
	int a, b;

	if (n < 4)
		return;
	o.driver_id = d[0];
	o.flags = (d[1] & 1 ? UVIO_DECODE_AFTER : 0) | (d[1] & 2 ? UVIO_DECODE_WRITE : 0);
	o.layout = d[1] & 4 ? UVIO_LAYOUT_2017 : UVIO_LAYOUT_CURRENT;
	len = (size_t)(d[2] | d[3] << 8);
	d += 4;
	n -= 4;
	if (len > n)
		len = n;
	m.p = d + len;
	m.n = n - len;
	a = uvio_decode_cmd(d, len, &o, big, sizeof(big));
	b = uvio_decode_cmd(d, len, &o, tiny, sizeof(tiny));
	same(a, b, tiny, sizeof(tiny));
	/* the names of what the command names, in the driver's namespace */
	if (len >= 8 && !(d[1] & 2)) {
		struct uvio_attr_desc desc = { .sz = sizeof(desc) };
		uint16_t obj = (uint16_t)(d[2] | d[3] << 8), meth = (uint16_t)(d[4] | d[5] << 8);
		const char *on = uvio_driver_object_name(o.driver_id, obj);
		const char *mn = uvio_driver_method_name(o.driver_id, obj, meth);

		if ((on && !*on) || (mn && !*mn))
			abort();
		if (!uvio_driver_describe_attr(o.driver_id, obj, meth, (uint16_t)(d[6] | d[7] << 8),
					       &desc) &&
		    (!desc.name || !desc.type || !desc.kind || desc.min_len > desc.max_len))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char tiny[7];

	if (size && data[0] == 'B') {
		build(data + 1, size - 1);
		return 0;
	}
	if (size && data[0] == 'W') {
		write_cmd(data + 1, size - 1);
		return 0;
	}
	if (size && data[0] == 'F') {
		followed(data + 1, size - 1);
		return 0;
	}
	if (size && data[0] == 'D') {
		driver(data + 1, size - 1);
		return 0;
	}
	for (int layout = 0; layout < 2; layout++)
		same(uvio_decode(data, size, (enum uvio_layout)layout, big, sizeof(big)),
		     uvio_decode(data, size, (enum uvio_layout)layout, tiny, sizeof(tiny)),
		     tiny, sizeof(tiny));
	return 0;
}
