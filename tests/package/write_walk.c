/*
 * The walk of write() verbs through the library's files, for
 * tests/package/write-walk.py: the library's objects are built with
 * -finstrument-functions (lib/CMakeLists.txt, uvio_obj_walk), so every
 * function of theirs, inline ones included where they are expanded, calls
 * the two hooks below on entry and on return. This program, built
 * without the flag, runs each verb once to let the device remember its
 * path, then again with the hooks recording, and prints the second walk:
 *   verb NAME
 *   > OFFSET     a function entered (its address less the load address)
 *   < OFFSET     that function returned
 *   end RET
 * The script maps the offsets to functions and source files.
 * The kernel is the unit tests' stand-in (tests/unit/wrap.c): every write()
 * consumed whole, a zeroed answer where the command names one.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uvio.h>
#include "wrap.h"
#include "fake_sysfs.h"

#define NO_HOOK __attribute__((no_instrument_function))

static int recording;
static uintptr_t base;

void __cyg_profile_func_enter(void *fn, void *site) NO_HOOK;
void __cyg_profile_func_exit(void *fn, void *site) NO_HOOK;

static NO_HOOK void event(char what, void *fn)
{
	if (!recording)
		return;
	if (!base) {
		Dl_info info;

		if (!dladdr(fn, &info))
			abort();
		base = (uintptr_t)info.dli_fbase;
	}
	printf("%c %#lx\n", what, (unsigned long)((uintptr_t)fn - base));
}

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	event('>', fn);
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)site;
	event('<', fn);
}

/* The stand-in kernel's write(): all of it consumed, a zeroed answer at
 * the response address (the u64 after the header, for either layout). */
static NO_HOOK ssize_t kernel_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	uint64_t at = 0;
	size_t out;

	if (len >= sizeof(*h) + sizeof(at))
		memcpy(&at, (const uint8_t *)buf + sizeof(*h), sizeof(at));
	out = (size_t)h->out_words * (h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED ? 8 : 4);
	if (at && out)
		memset((void *)(uintptr_t)at, 0, out);
	return (ssize_t)len;
}

#define WALK(name, call)                                                                        \
	do {                                                                                    \
		int ret_ = (call);	/* the first: the path remembered */                   \
                                                                                                \
		if (ret_)                                                                       \
			fprintf(stderr, "%s: %d (%s)\n", name, ret_, uvio_last_error());        \
		printf("verb %s\n", name);                                                      \
		fflush(stdout);                                                                 \
		recording = 1;                                                                  \
		ret_ = (call);                                                                  \
		recording = 0;                                                                  \
		printf("end %d\n", ret_);                                                       \
	} while (0)

int main(void)
{
	static const uint64_t drv_in[2] = { 1, 2 };
	uint64_t drv_out[2];
	UVIO_OPTS(uvio_drv, drv, .in = drv_in, .in_len = sizeof(drv_in), .out = drv_out,
		  .out_len = sizeof(drv_out));
	UVIO_OPTS(uvio_cq_attr, cq_attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_qp, qp);
	struct uvio_qp_init_attr qp_attr = {
		.sz = sizeof(qp_attr), .type = IB_UVERBS_QPT_RC, .pd_handle = 1,
		.send_cq_handle = 2, .recv_cq_handle = 2,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
	struct ib_uverbs_query_device_resp resp;
	struct uvio_device *dev;
	uint32_t pd;

	fake_reset();
	fake.on_write = kernel_write;
	/* rxe's driver id: no driver half, as on the kernels the suite boots */
	if (uvio_device_adopt(fake_uverbs_fd(), RDMA_DRIVER_RXE, &dev) ||
	    uvio_device_set_path(dev, UVIO_PATH_WRITE))
		return 1;
	WALK("DEVICE.QUERY", uvio_query_device(dev, &resp, NULL));
	WALK("PD.ALLOC", uvio_alloc_pd(dev, NULL, &pd, NULL));
	WALK("PD.DESTROY", uvio_dealloc_pd(dev, 1, NULL));
	WALK("CQ.CREATE", uvio_create_cq(dev, &cq_attr, NULL, &cq, NULL));
	WALK("CQ.CREATE+drv", uvio_create_cq(dev, &cq_attr, &drv, &cq, NULL));
	WALK("CQ.DESTROY", uvio_destroy_cq(dev, 1, NULL, NULL));
	WALK("QP.CREATE", uvio_create_qp(dev, &qp_attr, NULL, &qp, NULL));
	WALK("QP.CREATE+drv", uvio_create_qp(dev, &qp_attr, &drv, &qp, NULL));
	WALK("QP.DESTROY", uvio_destroy_qp(dev, 1, NULL, NULL));
	uvio_device_close(dev);
	return 0;
}
