/*
 * Instructions per CQ create+destroy pair spent in user space by the verbs
 * (the kernel is replaced by a stand-in ioctl in this program), for
 *   valgrind --tool=callgrind --toggle-collect=run_pairs bench/verb_cost
 * (bench/build-cost.sh reports it). The stand-in's own instructions are
 * counted too; it does the same for every way.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uvio.h>
#include "fake_sysfs.h"

static uint32_t next_handle;

/* The stand-in kernel: hand out a handle, fill RESP_CQE. */
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
	if (hdr->method_id == UVERBS_METHOD_CQ_CREATE) {
		hdr->attrs[0].data = next_handle++;
		for (unsigned int i = 1; i < hdr->num_attrs; i++)
			if (hdr->attrs[i].attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE)
				*(uint32_t *)(uintptr_t)hdr->attrs[i].data = 31;
	}
	return 0;
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

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	struct uvio_device *dev;

	/* /dev/null, listed as a uverbs device in a sysfs tree of our own */
	if (uvio_device_adopt(fake_uverbs_fd(), 14, &dev))
		return 1;
	run_pairs(dev, n);
	printf("%ld pairs done\n", n);
	uvio_device_close(dev);
	return 0;
}
