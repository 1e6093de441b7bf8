/*
 * A program that sends the kernel broken RDMA commands, for uverbs-trace to
 * show as broken: bad pointers, a command over a page, a command cut by the
 * end of mapped memory, lengths that disagree, an unknown object, the 2017
 * layout, short and unknown write() commands, a writev(). It prints what each
 * call returned, one line each, so that a run under the tracer can be
 * compared with a run without it: the tracer must not change any answer.
 *
 *   kt_trace_garbage [DEVICE_PATH]    (default /dev/infiniband/uverbs0,
 *                                      /dev/null when there is none)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#define REQ 0xc0181b01UL
#define REQ_2017 0xc0101b01UL

static void report(const char *what, long ret)
{
	printf("%-28s ret %ld errno %s\n", what, ret, ret < 0 ? strerror(errno) : "-");
	fflush(stdout);
}

struct cmd {
	struct ib_uverbs_ioctl_hdr hdr;
	struct ib_uverbs_attr attrs[4];
};

/* The driver id of the device: the first that answers an unknown object
 * with EPROTONOSUPPORT (anything else, e.g. /dev/null, gives 0). */
static uint32_t driver_id(int fd)
{
	for (uint32_t id = 0; id < 64; id++) {
		struct ib_uverbs_ioctl_hdr h = { .length = sizeof(h), .object_id = 0x3ff,
						 .driver_id = id };

		if (ioctl(fd, REQ, &h) < 0 && errno == EPROTONOSUPPORT)
			return id;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/infiniband/uverbs0";
	long page = sysconf(_SC_PAGESIZE);
	static uint8_t big[8192];
	struct cmd c;
	uint32_t drv;
	char *map;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 && argc == 1)
		fd = open(path = "/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	printf("device %s\n", path);
	drv = driver_id(fd);

	report("null command", ioctl(fd, REQ, NULL));

	memset(&c, 0, sizeof(c));
	c.hdr.length = 8192;
	c.hdr.object_id = UVERBS_OBJECT_DEVICE;
	c.hdr.num_attrs = 1;
	c.hdr.driver_id = drv;
	report("length over a page", ioctl(fd, REQ, &c));

	memset(&c, 0, sizeof(c));
	c.hdr.length = sizeof(c.hdr) + 2 * sizeof(c.attrs[0]);
	c.hdr.num_attrs = 3;
	c.hdr.driver_id = drv;
	report("length disagrees", ioctl(fd, REQ, &c));

	/* A command whose attributes run off the end of mapped memory. */
	map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map != MAP_FAILED) {
		struct ib_uverbs_ioctl_hdr *h;

		munmap(map + page, (size_t)page);
		h = (void *)(map + page - sizeof(*h) - sizeof(struct ib_uverbs_attr));
		memset(h, 0, sizeof(*h) + sizeof(struct ib_uverbs_attr));
		h->length = sizeof(*h) + 3 * sizeof(struct ib_uverbs_attr);
		h->num_attrs = 3;
		h->object_id = UVERBS_OBJECT_CQ;
		h->method_id = UVERBS_METHOD_CQ_DESTROY;
		h->driver_id = drv;
		report("command cut by unmapped page", ioctl(fd, REQ, h));
	}

	/* GET_CONTEXT with an input pointer that is no pointer, and a driver
	 * input over a page. */
	memset(&c, 0, sizeof(c));
	c.hdr.length = sizeof(c.hdr) + 2 * sizeof(c.attrs[0]);
	c.hdr.object_id = UVERBS_OBJECT_DEVICE;
	c.hdr.method_id = UVERBS_METHOD_GET_CONTEXT;
	c.hdr.num_attrs = 2;
	c.hdr.driver_id = drv;
	c.attrs[0].attr_id = UVERBS_ATTR_UHW_IN;
	c.attrs[0].len = 100;
	c.attrs[0].data = 0x10;
	c.attrs[1].attr_id = UVERBS_ATTR_UHW_OUT;
	c.attrs[1].len = 5000;
	c.attrs[1].data = (uintptr_t)big;
	report("bad input pointer", ioctl(fd, REQ, &c));

	memset(&c, 0, sizeof(c));
	c.hdr.length = sizeof(c.hdr);
	c.hdr.object_id = 0x3ff;
	c.hdr.driver_id = drv;
	report("unknown object", ioctl(fd, REQ, &c));

	memset(&c, 0, sizeof(c));
	c.hdr.length = 16;
	c.hdr.object_id = UVERBS_OBJECT_DEVICE;
	c.hdr.method_id = UVERBS_METHOD_GET_CONTEXT;
	report("2017 layout", ioctl(fd, REQ_2017, &c));

	memset(&c, 0, sizeof(c));
	c.hdr.length = sizeof(c.hdr);
	c.hdr.reserved1 = 1;
	c.hdr.driver_id = drv;
	report("reserved field set", ioctl(fd, REQ, &c));

	/* write(): too short for the header, an unknown command, a command
	 * whose buffer runs off mapped memory, and two commands in a writev. */
	{
		struct ib_uverbs_cmd_hdr wh = { .command = 0x7f, .in_words = 2 };
		struct { struct ib_uverbs_cmd_hdr h; struct ib_uverbs_query_device q; } qd;
		struct iovec iov[2];
		uint8_t resp[512];

		report("write short", write(fd, &wh, 4));
		report("write unknown command", write(fd, &wh, sizeof(wh)));
		if (map != MAP_FAILED)
			report("write off mapped memory",
			       write(fd, map + page - 4, sizeof(wh) + 8));
		memset(&qd, 0, sizeof(qd));
		qd.h.command = IB_USER_VERBS_CMD_QUERY_DEVICE;
		qd.h.in_words = sizeof(qd) / 4;
		qd.h.out_words = sizeof(resp) / 4;
		qd.q.response = (uintptr_t)resp;
		iov[0].iov_base = &wh;
		iov[0].iov_len = sizeof(wh);
		iov[1].iov_base = &qd;
		iov[1].iov_len = sizeof(qd);
		report("writev two commands", writev(fd, iov, 2));
	}
	close(fd);
	return 0;
}
