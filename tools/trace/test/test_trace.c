/*
 * uverbs-trace's decoding of tracee memory, without a tracee: a fake memory
 * of a few regions stands for the traced process. Commands are captured
 * before and after a pretend call and rendered as text and JSON; the rdma_cm
 * tables are checked against the system's header.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <rdma/rdma_user_cm.h>

#include "../record.h"
#include "../render.h"
#include "../vwrite.h"

/* --- a fake tracee ------------------------------------------------------- */

struct region {
	uint64_t addr;
	uint8_t *bytes;
	size_t len;
};

struct fake {
	struct tmem m;
	struct region r[8];
	int n;
};

static ssize_t fake_read(struct tmem *m, uint64_t addr, void *buf, size_t len)
{
	struct fake *f = (struct fake *)m;

	for (int i = 0; i < f->n; i++) {
		const struct region *r = &f->r[i];

		if (addr >= r->addr && addr < r->addr + r->len) {
			size_t n = r->addr + r->len - addr;

			if (n > len)
				n = len;
			memcpy(buf, r->bytes + (addr - r->addr), n);
			return (ssize_t)n;	/* short where the region ends */
		}
	}
	return 0;
}

static void map(struct fake *f, uint64_t addr, void *bytes, size_t len)
{
	f->r[f->n++] = (struct region){ addr, bytes, len };
}

static struct tr_record rec;
static char out[1 << 18];

static const char *render(bool json, bool verbose)
{
	struct render_opts o = { json, verbose, 0 };
	struct sbuf s;

	sb_init(&s, out, sizeof(out));
	tr_render(&s, &rec, &o);
	return out;
}

static void has(const char *text, const char *part)
{
	if (!strstr(text, part))
		fail_msg("missing '%s' in:\n%s", part, text);
}

/* Strings, escapes and nesting of one JSON line: enough to know a script
 * can parse it. */
static void valid_json(const char *s)
{
	char stack[64];
	int depth = 0;
	bool in_str = false;

	assert_int_equal(s[0], '{');
	for (; *s && *s != '\n'; s++) {
		if (in_str) {
			if ((unsigned char)*s < 0x20)
				fail_msg("control byte in a string");
			if (*s == '\\') {
				s++;
				if (!strchr("\"\\/bfnrtu", *s))
					fail_msg("bad escape \\%c", *s);
			} else if (*s == '"') {
				in_str = false;
			}
			continue;
		}
		if (*s == '"')
			in_str = true;
		else if (*s == '{' || *s == '[')
			stack[depth++] = *s;
		else if (*s == '}' || *s == ']') {
			assert_true(depth > 0);
			assert_int_equal(stack[--depth], *s == '}' ? '{' : '[');
		}
		assert_true(depth < 64);
	}
	assert_false(in_str);
	assert_int_equal(depth, 0);
	assert_int_equal(*s, '\n');
}

static void start(enum tr_call call, enum tr_fdkind kind, uint64_t arg, uint64_t count)
{
	memset(&rec, 0, sizeof(rec));
	rec.call = call;
	rec.fdkind = kind;
	rec.fd = 3;
	snprintf(rec.dev, sizeof(rec.dev), "%s", kind == TR_FD_RDMA_CM ? "rdma_cm" : "uverbs0");
	snprintf(rec.ibdev, sizeof(rec.ibdev), "%s", kind == TR_FD_RDMA_CM ? "" : "rxe0");
	rec.pid = rec.tid = 42;
	rec.arg = arg;
	rec.count = count;
	rec.t_entry = 1000;
	rec.t_exit = 46000;
}

/* --- ioctl --------------------------------------------------------------- */

struct cq_cmd {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr a[4];
};

static void cq_create(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct cq_cmd c = { 0 };
	uint32_t cqe_out = 0;
	const char *t;

	(void)state;
	c.hdr = (struct ib_uverbs_ioctl_hdr){ .length = sizeof(c), .object_id = UVERBS_OBJECT_CQ,
		.method_id = UVERBS_METHOD_CQ_CREATE, .num_attrs = 4, .driver_id = 14 };
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_HANDLE,
					  .flags = UVERBS_ATTR_F_MANDATORY };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_CQE, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 16 };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CREATE_CQ_RESP_CQE, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 0x9000 };
	c.a[3] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_UHW_OUT, .len = 64,
					  .data = 0xdead0000 };	/* unmapped */
	map(&f, 0x1000, &c, sizeof(c));
	map(&f, 0x9000, &cqe_out, sizeof(cqe_out));
	start(TR_IOCTL, TR_FD_UVERBS, 0x1000, 0);
	tr_capture_entry(&rec, &f.m);
	assert_int_equal(rec.nattrs, 4);
	assert_int_equal(rec.attrs[2].kind, UVIO_KIND_PTR_OUT);
	/* the kernel's work: a handle, the cqe, the valid bits */
	c.a[0].data = 7;
	c.a[2].flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	c.a[3].flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	cqe_out = 31;
	tr_capture_exit(&rec, &f.m, 0);

	t = render(false, false);
	has(t, "rxe0 fd 3 CQ.CREATE = 0 <45.000 us>");
	/* the library's decode of the command as the kernel left it */
	has(t, "HANDLE           idr-new len 0 mandatory new CQ handle 7");
	has(t, "CQE              ptr-in  len 4 mandatory = 16");
	has(t, "RESP_CQE         ptr-out len 4 mandatory,valid-output ptr 0x9000 = 31");
	/* what the tracer could not read */
	has(t, "! UHW_OUT output: <unreadable: bad pointer 0xdead0000>");
	has(t, "+ cq 7");
	t = render(true, false);
	valid_json(t);
	has(t, "\"name\":\"CQ.CREATE\"");
	has(t, "\"unknown\":0");
	has(t, "\"handle\":7");
	has(t, "\"value\":31");
	has(t, "{\"type\":\"cq\",\"handle\":7,\"created\":true}");
	has(t, "\"decoded\":\"[2] 0x0006 RESP_CQE         ptr-out len 4 "
	       "mandatory,valid-output ptr 0x9000 = 31\"");
	t = render(false, true);
	has(t, "    as sent:\n      CQ.CREATE (object 3, method 0)");
	has(t, "driver_id 14");
}

/*
 * The 2017 layout's header is 16 bytes: a page holds 255 attributes, one
 * more than today's layout. A traced program that sends them must not make
 * the tracer write past its record's attribute array (it wrote over the
 * count that follows).
 */
/* The tracer's errno names are the library's, and the kernel's own codes
 * for an interrupted call besides. */
static void errno_names(void **state)
{
	(void)state;
	assert_string_equal(tr_errno_name(EPROTONOSUPPORT), "EPROTONOSUPPORT");
	assert_string_equal(tr_errno_name(EHWPOISON), uvio_errno_name(EHWPOISON));
	assert_string_equal(tr_errno_name(512), "ERESTARTSYS");
	assert_null(tr_errno_name(9999));
}

static void ioctl_2017_full_page(void **state)
{
	struct fake f = { .m = { fake_read } };
	static uint8_t page[4096];
	struct uvio_ioctl_hdr_2017 *h = (void *)page;
	const uint32_t n = (sizeof(page) - sizeof(*h)) / sizeof(struct ib_uverbs_attr);
	const char *t;

	(void)state;
	assert_int_equal(n, 255);
	*h = (struct uvio_ioctl_hdr_2017){ .length = sizeof(page), .object_id = UVERBS_OBJECT_CQ,
		.method_id = UVERBS_METHOD_CQ_CREATE, .num_attrs = (uint16_t)n };
	for (uint32_t i = 0; i < n; i++) {
		struct ib_uverbs_attr a = { .attr_id = (uint16_t)(0x100 + i), .len = 4,
					    .data = i };

		memcpy(page + sizeof(*h) + i * sizeof(a), &a, sizeof(a));
	}
	map(&f, 0x1000, page, sizeof(page));
	start(TR_IOCTL_2017, TR_FD_UVERBS, 0x1000, 0);
	rec.request = UVIO_IOCTL_REQ_2017;
	tr_capture_entry(&rec, &f.m);
	tr_capture_exit(&rec, &f.m, -EINVAL);
	assert_int_equal(rec.nattrs, n);
	t = render(false, false);
	has(t, "CQ.CREATE");
}

static void ioctl_garbage(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct cq_cmd c = { 0 };
	const char *t;

	(void)state;
	/* nothing mapped at the argument */
	start(TR_IOCTL, TR_FD_UVERBS, 0, 0);
	tr_capture_entry(&rec, &f.m);
	tr_capture_exit(&rec, &f.m, -EFAULT);
	t = render(false, false);
	has(t, "ioctl(unreadable command) = -1 EFAULT");
	has(t, "command unreadable at 0x0 (0 of 24 header bytes)");
	valid_json(render(true, false));

	/* a header that claims 3 attributes where only one is mapped, a
	 * length over a page, an unknown object, reserved fields */
	c.hdr = (struct ib_uverbs_ioctl_hdr){ .length = 60000, .object_id = 0x3ff, .method_id = 9,
		.num_attrs = 3, .reserved1 = 5 };
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1234, .len = 40000, .data = 0x1000 };
	map(&f, 0x1000, &c, sizeof(c.hdr) + sizeof(c.a[0]));
	start(TR_IOCTL, TR_FD_UVERBS, 0x1000, 0);
	tr_capture_entry(&rec, &f.m);
	assert_int_equal(rec.nattrs, 1);
	assert_true(rec.cmd_fault);
	tr_capture_exit(&rec, &f.m, -EINVAL);
	t = render(false, false);
	has(t, "object_0x3ff.method_0x9 = -1 EINVAL");
	has(t, "header length 60000, but 3 attributes need 72");
	has(t, "command over a page");
	has(t, "only 40 of 4096 bytes of the command readable");
	has(t, "reserved header fields set: reserved1 0x5");
	has(t, "[0] 0x1234 driver");
	/* the unknown attribute's 40000 bytes: read up to a page, and only
	 * what is mapped (the 40 bytes of the command itself) */
	has(t, "! attr 0x1234 input: <only 40 of 40000 bytes readable>");
	t = render(true, false);
	valid_json(t);
	has(t, "\"unknown\":3");
}

static void invoke_write(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct cq_cmd c = { 0 };
	struct ib_uverbs_alloc_pd core = { .response = 0 };
	struct ib_uverbs_alloc_pd_resp resp = { 0 };
	const char *t;

	(void)state;
	c.hdr = (struct ib_uverbs_ioctl_hdr){ .length = sizeof(c.hdr) + 3 * sizeof(c.a[0]),
		.object_id = UVERBS_OBJECT_DEVICE, .method_id = UVERBS_METHOD_INVOKE_WRITE,
		.num_attrs = 3, .driver_id = 14 };
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_WRITE_CMD, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = IB_USER_VERBS_CMD_ALLOC_PD };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CORE_IN, .len = sizeof(core),
		.flags = UVERBS_ATTR_F_MANDATORY, .data = 0x3000 };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = UVERBS_ATTR_CORE_OUT, .len = sizeof(resp),
		.flags = UVERBS_ATTR_F_MANDATORY, .data = 0x4000 };
	map(&f, 0x1000, &c, sizeof(c));
	map(&f, 0x3000, &core, sizeof(core));
	map(&f, 0x4000, &resp, sizeof(resp));
	start(TR_IOCTL, TR_FD_UVERBS, 0x1000, 0);
	tr_capture_entry(&rec, &f.m);
	resp.pd_handle = 3;
	tr_capture_exit(&rec, &f.m, 0);
	t = render(false, false);
	has(t, "DEVICE.INVOKE_WRITE(ALLOC_PD) = 0");
	has(t, "| write PD.ALLOC_PD (command 3)");
	has(t, "|     pd_handle = 3");
	has(t, "+ pd 3");
	t = render(true, false);
	valid_json(t);
	has(t, "\"write\":{\"command\":3");
	has(t, "{\"type\":\"pd\",\"handle\":3,\"created\":true}");
}

/*
 * mlx5's UAR allocation (object 0x1008, method 0x1000): its attributes
 * 0x1000 and 0x1001 are the driver's (the new UAR, its type as an inline
 * constant), not UHW_IN and UHW_OUT; nothing inline is read as a pointer.
 */
struct uar_cmd {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr a[5];
};

static void uar_alloc(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct uar_cmd c = { 0 };
	uint64_t off = 0;
	uint32_t len = 0, page = 0;
	const char *t;

	(void)state;
	c.hdr = (struct ib_uverbs_ioctl_hdr){ .length = sizeof(c), .object_id = 0x1008,
		.method_id = 0x1000, .num_attrs = 5, .driver_id = 1 /* RDMA_DRIVER_MLX5 */ };
	c.a[0] = (struct ib_uverbs_attr){ .attr_id = 0x1000, .flags = UVERBS_ATTR_F_MANDATORY };
	c.a[1] = (struct ib_uverbs_attr){ .attr_id = 0x1001, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 1 };
	c.a[2] = (struct ib_uverbs_attr){ .attr_id = 0x1002, .len = 8,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 0x7000 };
	c.a[3] = (struct ib_uverbs_attr){ .attr_id = 0x1003, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 0x7008 };
	c.a[4] = (struct ib_uverbs_attr){ .attr_id = 0x1004, .len = 4,
					  .flags = UVERBS_ATTR_F_MANDATORY, .data = 0x700c };
	map(&f, 0x1000, &c, sizeof(c));
	map(&f, 0x7000, &off, sizeof(off));
	map(&f, 0x7008, &len, sizeof(len));
	map(&f, 0x700c, &page, sizeof(page));
	start(TR_IOCTL, TR_FD_UVERBS, 0x1000, 0);
	snprintf(rec.ibdev, sizeof(rec.ibdev), "mlx5_0");
	tr_capture_entry(&rec, &f.m);
	c.a[0].data = 5;
	for (int i = 2; i < 5; i++)
		c.a[i].flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	off = 0x3000000;
	len = 4096;
	page = 17;
	tr_capture_exit(&rec, &f.m, 0);
	assert_int_not_equal(rec.attrs[1].kind, UVIO_KIND_PTR_OUT);
	assert_false(rec.attrs[1].out.read);
	t = render(false, false);
	if (strstr(t, "UHW_IN") || strstr(t, "UHW_OUT") || strstr(t, "bad pointer 0x1>"))
		fail_msg("a driver object's attributes read as UHW_IN/UHW_OUT:\n%s", t);
	/* mlx5's tables name it all, and the outputs were read */
	has(t, "mlx5_0 fd 3 UAR.ALLOC = 0");
	has(t, "[0] 0x1000 HANDLE           idr-new len 0 mandatory new UAR handle 5\n");
	has(t, "[1] 0x1001 TYPE             ptr-in  len 4 mandatory (!length: the kernel wants 8)"
	       " = NC(1)\n");
	has(t, "MMAP_OFFSET      ptr-out len 8 mandatory,valid-output ptr 0x7000 = 0x3000000\n");
	has(t, "MMAP_LENGTH      ptr-out len 4 mandatory,valid-output ptr 0x7008 = 4096\n");
	has(t, "PAGE_ID          ptr-out len 4 mandatory,valid-output ptr 0x700c = 17\n");
	has(t, "+ uar 5");
	t = render(true, false);
	valid_json(t);
	if (strstr(t, "UHW_"))
		fail_msg("a driver object's attributes named UHW in JSON:\n%s", t);
	has(t, "\"name\":\"UAR.ALLOC\"");
	has(t, "\"unknown\":0");
	has(t, "\"object\":\"UAR\",\"method\":\"ALLOC\"");
	has(t, "{\"id\":4097,\"name\":\"TYPE\",\"kind\":\"ptr-in\"");
	has(t, "{\"type\":\"uar\",\"handle\":5,\"created\":true}");
	has(t, "\"decoded\":\"[4] 0x1004 PAGE_ID          ptr-out len 4 mandatory,valid-output "
	       "ptr 0x700c = 17\"");
}

/* A write() command to an mlx5 device: the device's driver decodes the
 * driver data after the core structs, both ways. */
static void mlx5_write(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_alloc_pd c;
	} cmd = { { IB_USER_VERBS_CMD_ALLOC_PD, sizeof(cmd) / 4, 2 }, { .response = 0x5000 } };
	struct {
		struct ib_uverbs_alloc_pd_resp r;
		uint32_t pdn;
	} resp = { { 0 }, 0 };
	const char *t;

	(void)state;
	map(&f, 0x2000, &cmd, sizeof(cmd));
	map(&f, 0x5000, &resp, sizeof(resp));
	start(TR_WRITE, TR_FD_UVERBS, 0x2000, sizeof(cmd));
	snprintf(rec.ibdev, sizeof(rec.ibdev), "mlx5_0");
	rec.driver_id = 1;	/* RDMA_DRIVER_MLX5, as netlink tells the tracer */
	tr_capture_entry(&rec, &f.m);
	resp.r.pd_handle = 2;
	resp.pdn = 0x1234;
	tr_capture_exit(&rec, &f.m, sizeof(cmd));
	t = render(false, false);
	has(t, "mlx5_0 fd 3 write(ALLOC_PD) = 16");
	has(t, "    driver mlx5\n");
	has(t, "        pd_handle = 2\n        driver data out = mlx5_alloc_pd_resp {pdn = 4660}\n");
	has(t, "+ pd 2");
	t = render(true, false);
	valid_json(t);
	has(t, "driver data out = mlx5_alloc_pd_resp {pdn = 4660}");
	/* no driver known: bytes */
	rec.driver_id = 0;
	t = render(false, false);
	has(t, "        driver data out = 34:12:00:00\n");
}

/* --- write() ------------------------------------------------------------- */

static void verbs_write(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct {
		struct ib_uverbs_cmd_hdr h;
		struct ib_uverbs_destroy_cq d;
	} cmd = { { IB_USER_VERBS_CMD_DESTROY_CQ, sizeof(cmd) / 4, 2 }, { 0x5000, 9, 0 } };
	struct ib_uverbs_destroy_cq_resp resp = { 0 };
	const char *t;

	(void)state;
	map(&f, 0x2000, &cmd, sizeof(cmd));
	map(&f, 0x5000, &resp, sizeof(resp));
	start(TR_WRITE, TR_FD_UVERBS, 0x2000, sizeof(cmd));
	tr_capture_entry(&rec, &f.m);
	resp.comp_events_reported = 4;
	tr_capture_exit(&rec, &f.m, sizeof(cmd));
	assert_int_equal(rec.w[0].resp.got, 8);
	t = render(false, false);
	has(t, "write(DESTROY_CQ) = 24");
	has(t, "- cq 9");
	valid_json(render(true, false));

	/* a count far past the mapped bytes, and a failed call: no response */
	start(TR_WRITE, TR_FD_UVERBS, 0x2000, 1 << 20);
	tr_capture_entry(&rec, &f.m);
	tr_capture_exit(&rec, &f.m, -EINVAL);
	assert_false(rec.w[0].resp.read);
	t = render(false, false);
	has(t, "<only 24 of 1048576 bytes readable>");
	valid_json(render(true, false));
}

static void rdma_cm_write(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct {
		struct rdma_ucm_cmd_hdr h;
		struct rdma_ucm_create_id c;
	} cmd = { { RDMA_USER_CM_CMD_CREATE_ID, sizeof(cmd.c), 4 },
		  { .uid = 0x77, .response = 0x6000, .ps = RDMA_PS_TCP, .qp_type = 2 } };
	struct rdma_ucm_create_id_resp resp = { 0 };
	const char *t;

	(void)state;
	map(&f, 0x2000, &cmd, sizeof(cmd));
	map(&f, 0x6000, &resp, sizeof(resp));
	start(TR_WRITE, TR_FD_RDMA_CM, 0x2000, sizeof(cmd));
	tr_capture_entry(&rec, &f.m);
	resp.id = 5;
	tr_capture_exit(&rec, &f.m, sizeof(cmd));
	t = render(false, false);
	has(t, "rdma_cm fd 3 rdma_cm(CREATE_ID) = 32");
	has(t, "uid=0x77 response=0x6000 ps=TCP qp_type=RC");
	has(t, "-> id=5");
	has(t, "+ cm_id 5");
	t = render(true, false);
	valid_json(t);
	has(t, "\"fields\":{\"uid\":\"0x77\"");
	has(t, "\"response\":{\"id\":5}");
}

static void writev_two(void **state)
{
	struct fake f = { .m = { fake_read } };
	struct ib_uverbs_cmd_hdr h1 = { 0x7f, 2, 0 };
	uint64_t iov[3][2] = { { 0x2000, sizeof(h1) }, { 0x2100, 4 }, { 0, 0 } };
	const char *t;

	(void)state;
	map(&f, 0x1000, iov, sizeof(iov[0]) * 2);	/* the third iovec unmapped */
	map(&f, 0x2000, &h1, sizeof(h1));
	start(TR_WRITEV, TR_FD_UVERBS, 0x1000, 3);
	tr_capture_entry(&rec, &f.m);
	assert_int_equal(rec.nw, 2);
	assert_true(rec.iov_fault);
	tr_capture_exit(&rec, &f.m, -EOPNOTSUPP);
	t = render(false, false);
	has(t, "writev(command_0x7f) = -1 EOPNOTSUPP");
	has(t, "3 iovecs at 0x1000 <only 2 readable>");
	has(t, "<unreadable: bad pointer 0x2100>");
	valid_json(render(true, false));
}

/* --- the tables ---------------------------------------------------------- */

static void rdma_cm_names(void **state)
{
	/* The library's description (its offsets are checked against the
	 * header where it is built): names at both ends of the table. */
	(void)state;
	assert_string_equal(uvio_cm_cmd_name(RDMA_USER_CM_CMD_CREATE_ID), "CREATE_ID");
	assert_string_equal(uvio_cm_cmd_name(RDMA_USER_CM_CMD_JOIN_MCAST), "JOIN_MCAST");
	assert_null(uvio_cm_cmd_name(RDMA_USER_CM_CMD_JOIN_MCAST + 1));
	assert_string_equal(uvio_cm_event_name(15), "TIMEWAIT_EXIT");
	assert_null(uvio_cm_event_name(16));
}

static void write_names(void **state)
{
	char n[48];

	(void)state;
	assert_true(vw_name(IB_USER_VERBS_CMD_CREATE_CQ, n, sizeof(n)));
	assert_string_equal(n, "CREATE_CQ");
	assert_true(vw_name(IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP, n,
			    sizeof(n)));
	assert_string_equal(n, "EX_CREATE_QP");
	assert_false(vw_name(0x7f, n, sizeof(n)));
	assert_string_equal(n, "command_0x7f");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cq_create),
		cmocka_unit_test(ioctl_garbage),
		cmocka_unit_test(invoke_write),
		cmocka_unit_test(uar_alloc),
		cmocka_unit_test(mlx5_write),
		cmocka_unit_test(verbs_write),
		cmocka_unit_test(rdma_cm_write),
		cmocka_unit_test(writev_two),
		cmocka_unit_test(ioctl_2017_full_page),
		cmocka_unit_test(errno_names),
		cmocka_unit_test(rdma_cm_names),
		cmocka_unit_test(write_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
