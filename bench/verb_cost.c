/*
 * Instructions spent in user space by the verbs, the kernel replaced by a
 * stand-in ioctl in this program: CQ create+destroy pairs (run_pairs) and
 * the QP bring-up of the guest benchmark (run_qp: create, INIT, RTR, RTS,
 * destroy; MODIFY_QP over INVOKE_WRITE as on Linux 6.1), for
 *   valgrind --tool=callgrind --toggle-collect=run_pairs bench/verb_cost [N]
 *   valgrind --tool=callgrind --toggle-collect=run_qp bench/verb_cost N qp
 *   valgrind --tool=callgrind --toggle-collect=run_query bench/verb_cost N query
 *   valgrind --tool=callgrind --toggle-collect=run_query bench/verb_cost N query-ioctl
 *   valgrind --tool=callgrind --toggle-collect=run_context bench/verb_cost N context
 *   valgrind --tool=callgrind --toggle-collect=run_destroy bench/verb_cost N destroy
 *   valgrind --tool=callgrind --toggle-collect=run_query_qp bench/verb_cost N query-qp
 *   valgrind --tool=callgrind --toggle-collect=run_modify_srq bench/verb_cost N modify-srq[-drv]
 * (DEVICE.QUERY, the cheapest kind of verb, on the write() path, and on the
 * ioctl path, where it goes over INVOKE_WRITE)
 * (bench/build-cost.sh reports both). The stand-in's own instructions are
 * counted too; it does the same for every way. The guest's counts, with the
 * real kernel answering, are the ones bench/RESULTS.md states; these come
 * in seconds and follow them closely.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uvio.h>
#include "uvio_steps.h"
#include "fake_sysfs.h"

static uint32_t next_handle;
static int async_next;	/* the fd ASYNC_EVENT_ALLOC answers next */

/* The stand-in kernel: hand out a handle, fill RESP_CQE, give an async fd. */
int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	struct ib_uverbs_ioctl_hdr *hdr;
	va_list ap;

	(void)fd;
	(void)req;
	va_start(ap, req);
	hdr = va_arg(ap, struct ib_uverbs_ioctl_hdr *);
	va_end(ap);
	if ((hdr->object_id == UVERBS_OBJECT_CQ && hdr->method_id == UVERBS_METHOD_CQ_CREATE) ||
	    (hdr->object_id == UVERBS_OBJECT_QP && hdr->method_id == UVERBS_METHOD_QP_CREATE)) {
		hdr->attrs[0].data = next_handle++;
		for (unsigned int i = 1; i < hdr->num_attrs; i++)
			if (hdr->attrs[i].attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE)
				*(uint32_t *)(uintptr_t)hdr->attrs[i].data = 31;
	} else if (hdr->object_id == UVERBS_OBJECT_ASYNC_EVENT) {
		hdr->attrs[0].data = (uint64_t)async_next;
	}
	return 0;
}

/* The stand-in kernel's write(): every command consumed, nothing answered
 * (the response keeps what the library put there). */
ssize_t write(int fd, const void *buf, size_t len);
ssize_t write(int fd, const void *buf, size_t len)
{
	(void)fd;
	(void)buf;
	return (ssize_t)len;
}

__attribute__((noinline)) void run_query(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_query(struct uvio_device *dev, long n)
{
	struct ib_uverbs_query_device_resp resp;

	for (long i = 0; i < n; i++)
		if (uvio_query_device(dev, &resp, NULL))
			abort();
}

__attribute__((noinline)) void run_query_mr(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_query_mr(struct uvio_device *dev, long n)
{
	UVIO_OPTS(uvio_mr_info, info);

	for (long i = 0; i < n; i++)
		if (uvio_query_mr(dev, 1, &info, NULL))
			abort();
}

__attribute__((noinline)) void run_notify(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_notify(struct uvio_device *dev, long n)
{
	for (long i = 0; i < n; i++)
		if (uvio_req_notify_cq(dev, 1, 0, NULL))
			abort();
}

/* with_drv: the 8 bytes of driver input rxe reads, as the guest benchmark
 * passes them there. */
__attribute__((noinline)) void run_modify_srq(struct uvio_device *dev, long n, bool with_drv);
__attribute__((noinline)) void run_modify_srq(struct uvio_device *dev, long n, bool with_drv)
{
	static const uint64_t rxe_in;
	UVIO_OPTS(uvio_srq_modify, m, .attr_mask = UVIO_SRQ_LIMIT, .srq_limit = 1);
	UVIO_OPTS(uvio_drv, d, .in = &rxe_in, .in_len = sizeof(rxe_in));

	for (long i = 0; i < n; i++)
		if (uvio_modify_srq(dev, 1, &m, with_drv ? &d : NULL, NULL))
			abort();
}

/* QP.QUERY on the write() path: the kernel's response into the library's
 * struct (the stand-in kernel answers nothing: the response is what the
 * library's frame held). */
__attribute__((noinline)) void run_query_qp(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_query_qp(struct uvio_device *dev, long n)
{
	UVIO_OPTS(uvio_qp_attr, a);

	for (long i = 0; i < n; i++)
		if (uvio_query_qp(dev, 1, 0, &a, NULL))
			abort();
}

/* The smallest method: one IDR attribute (MW.DESTROY on the ioctl path;
 * the stand-in kernel destroys anything). */
__attribute__((noinline)) void run_destroy(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_destroy(struct uvio_device *dev, long n)
{
	for (long i = 0; i < n; i++)
		if (uvio_dealloc_mw(dev, 1, NULL))
			abort();
}

/* GET_CONTEXT as the guest benchmark times it: adopt, context, close. */
__attribute__((noinline)) void run_context(int fd, long n);
__attribute__((noinline)) void run_context(int fd, long n)
{
	for (long i = 0; i < n; i++) {
		struct uvio_device *d;
		UVIO_OPTS(uvio_context, ctx);

		async_next = dup(fd);	/* the stand-in kernel's new async fd */
		if (async_next < 0 || uvio_device_adopt(fd, 14, &d) || uvio_get_context(d, NULL, &ctx, NULL))
			abort();
		close(ctx.async_fd);
		uvio_device_close(d);
	}
}

__attribute__((noinline)) void run_pairs(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_pairs(struct uvio_device *dev, long n)
{
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);

	for (long i = 0; i < n; i++) {
		if (uvio_create_cq(dev, &attr, NULL, &cq, NULL) ||
		    uvio_destroy_cq(dev, cq.handle, NULL, NULL))
			abort();
	}
}

__attribute__((noinline)) void run_qp(struct uvio_device *dev, long n);
__attribute__((noinline)) void run_qp(struct uvio_device *dev, long n)
{
	struct uvio_qp_init_attr attr = {
		.sz = sizeof(attr), .type = IB_UVERBS_QPT_RC, .pd_handle = 1,
		.send_cq_handle = 2, .recv_cq_handle = 2,
		.cap = { .max_send_wr = BQ_CAP_WR, .max_recv_wr = BQ_CAP_WR,
			 .max_send_sge = BQ_CAP_SGE, .max_recv_sge = BQ_CAP_SGE },
	};
	/* an IPv4-mapped RoCE v2 GID, as rxe's index 1 */
	static const uint8_t gid[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 };
	struct uvio_qp_attr a;
	UVIO_OPTS(uvio_qp, qp);

	for (long i = 0; i < n; i++) {
		if (uvio_create_qp(dev, &attr, NULL, &qp, NULL))
			abort();
		for (int s = 0; s < 3; s++) {
			bq_uvio_step(s, qp.qp_num, gid, BQ_GID_INDEX, &a);
			if (uvio_modify_qp(dev, qp.handle, &a, NULL, NULL))
				abort();
		}
		if (uvio_destroy_qp(dev, qp.handle, NULL, NULL))
			abort();
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	const char *mode = argc > 2 ? argv[2] : "pairs";
	bool qp = !strcmp(mode, "qp");
	struct uvio_device *dev;

	/* /dev/null, listed as a uverbs device in a sysfs tree of our own */
	if (uvio_device_adopt(fake_uverbs_fd(), 14, &dev))
		return 1;
	if (!strcmp(mode, "query") || !strcmp(mode, "query-ioctl")) {
		if (uvio_device_set_path(dev, mode[5] ? UVIO_PATH_IOCTL : UVIO_PATH_WRITE))
			return 1;
		run_query(dev, n);
	} else if (!strncmp(mode, "modify-srq", 10)) {
		if (uvio_device_set_path(dev, UVIO_PATH_WRITE))
			return 1;
		run_modify_srq(dev, n, !strcmp(mode, "modify-srq-drv"));
	} else if (!strcmp(mode, "notify")) {
		run_notify(dev, n);
	} else if (!strcmp(mode, "query-mr")) {
		run_query_mr(dev, n);
	} else if (!strcmp(mode, "query-qp")) {
		if (uvio_device_set_path(dev, UVIO_PATH_WRITE))
			return 1;
		run_query_qp(dev, n);
	} else if (!strcmp(mode, "destroy")) {
		run_destroy(dev, n);
	} else if (!strcmp(mode, "context")) {
		run_context(uvio_device_fd(dev), n);
	} else if (qp) {
		run_qp(dev, n);
	} else {
		run_pairs(dev, n);
	}
	printf("%ld %s done\n", n, mode);
	uvio_device_close(dev);
	return 0;
}
