/*
 * Which objects, methods and attributes each kernel has, per device, as the
 * capability probe (uvio_probe_method, uvio_probe_attr) finds them: the
 * methods the library has names for, and every id that 7.2 added to the UAPI
 * (lib/abi/uapi.h). Each line of the table below is what the suite saw on
 * Debian's 5.10, 6.1, 6.12 and 7.2 kernels, as one character per kernel in
 * that order: '1' present, '0' absent (EPROTONOSUPPORT). A kernel or device
 * that answers otherwise fails here, naming the id.
 *
 * Prints "probe DEV | NAME | present|absent | ok" lines, from which
 * scripts/kernels-doc.sh builds docs/kernels.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <uvio.h>
#include "abi/uapi.h"	/* uverbs ids older headers lack */
#include "kt.h"

#define NO_ATTR 0xffff

struct fact {
	const char *name;
	uint16_t obj, meth, attr;
	const char *rxe, *siw;	/* per kernel: 5.10, 6.1, 6.12, 7.2 */
};

#define O(x) UVERBS_OBJECT_##x
#define METHOD(obj, meth, rxe, siw) { #obj "." #meth, O(obj), UVERBS_METHOD_##meth, NO_ATTR, rxe, siw }
#define ATTR(obj, meth, attr, rxe, siw)                                          \
	{ #obj "." #meth " " #attr, O(obj), UVERBS_METHOD_##meth, UVERBS_ATTR_##attr, rxe, siw }

static const struct fact facts[] = {
	/* The methods the library has names for. Most depend on the driver:
	 * rxe and siw have no flows, WQs, XRC, device memory or counters, siw
	 * no address handles and neither had memory windows on 5.10. */
	METHOD(DEVICE, INVOKE_WRITE, "1111", "1111"),
	METHOD(DEVICE, INFO_HANDLES, "1111", "1111"),
	METHOD(DEVICE, QUERY_PORT, "1111", "1111"),
	METHOD(DEVICE, GET_CONTEXT, "1111", "1111"),
	METHOD(DEVICE, QUERY_CONTEXT, "1111", "1111"),
	METHOD(DEVICE, QUERY_GID_TABLE, "1111", "1111"),
	METHOD(DEVICE, QUERY_GID_ENTRY, "1111", "1111"),
	METHOD(PD, PD_DESTROY, "1111", "1111"),
	METHOD(CQ, CQ_CREATE, "1111", "1111"),
	METHOD(CQ, CQ_DESTROY, "1111", "1111"),
	METHOD(QP, QP_CREATE, "1111", "1111"),
	METHOD(QP, QP_DESTROY, "1111", "1111"),
	METHOD(SRQ, SRQ_CREATE, "1111", "1111"),
	METHOD(SRQ, SRQ_DESTROY, "1111", "1111"),
	METHOD(AH, AH_DESTROY, "1111", "0000"),
	METHOD(MR, DM_MR_REG, "0000", "0000"),
	METHOD(MR, MR_DESTROY, "1111", "1111"),
	METHOD(MR, ADVISE_MR, "1111", "1111"),
	METHOD(MR, QUERY_MR, "1111", "1111"),
	METHOD(MR, REG_DMABUF_MR, "0111", "0111"),
	METHOD(MW, MW_DESTROY, "0111", "0000"),
	METHOD(FLOW, FLOW_DESTROY, "0000", "0000"),
	METHOD(XRCD, XRCD_DESTROY, "0000", "0000"),
	METHOD(RWQ_IND_TBL, RWQ_IND_TBL_DESTROY, "0000", "0000"),
	METHOD(WQ, WQ_CREATE, "0000", "0000"),
	METHOD(WQ, WQ_DESTROY, "0000", "0000"),
	METHOD(FLOW_ACTION, FLOW_ACTION_ESP_CREATE, "0000", "0000"),
	METHOD(FLOW_ACTION, FLOW_ACTION_DESTROY, "0000", "0000"),
	METHOD(FLOW_ACTION, FLOW_ACTION_ESP_MODIFY, "0000", "0000"),
	METHOD(DM, DM_ALLOC, "0000", "0000"),
	METHOD(DM, DM_FREE, "0000", "0000"),
	METHOD(COUNTERS, COUNTERS_CREATE, "0000", "0000"),
	METHOD(COUNTERS, COUNTERS_DESTROY, "0000", "0000"),
	METHOD(COUNTERS, COUNTERS_READ, "0000", "0000"),
	METHOD(ASYNC_EVENT, ASYNC_EVENT_ALLOC, "1111", "1111"),

	/* New in 7.2 (none of them in 6.12). DMAH needs the driver's
	 * alloc_dmah, DMABUF its mmap_get_pfns: rxe and siw have neither, so
	 * 7.2 does not offer them on these devices either. */
	METHOD(DEVICE, QUERY_PORT_SPEED, "0001", "0001"),
	ATTR(DEVICE, QUERY_PORT_SPEED, QUERY_PORT_SPEED_PORT_NUM, "0001", "0001"),
	ATTR(DEVICE, QUERY_PORT_SPEED, QUERY_PORT_SPEED_RESP, "0001", "0001"),
	ATTR(DEVICE, GET_CONTEXT, GET_CONTEXT_FD_ARR, "0001", "0001"),
	ATTR(CQ, CQ_CREATE, CREATE_CQ_BUFFER_VA, "0001", "0001"),
	ATTR(CQ, CQ_CREATE, CREATE_CQ_BUFFER_LENGTH, "0001", "0001"),
	ATTR(CQ, CQ_CREATE, CREATE_CQ_BUFFER_FD, "0001", "0001"),
	ATTR(CQ, CQ_CREATE, CREATE_CQ_BUFFER_OFFSET, "0001", "0001"),
	ATTR(CQ, CQ_CREATE, CREATE_CQ_BUF_UMEM, "0001", "0001"),
	ATTR(QP, QP_CREATE, CREATE_QP_BUF_UMEM, "0001", "0001"),
	ATTR(QP, QP_CREATE, CREATE_QP_RQ_BUF_UMEM, "0001", "0001"),
	ATTR(QP, QP_CREATE, CREATE_QP_SQ_BUF_UMEM, "0001", "0001"),
	METHOD(MR, REG_MR, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_HANDLE, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_PD_HANDLE, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_DMA_HANDLE, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_IOVA, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_ADDR, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_LENGTH, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_ACCESS_FLAGS, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_FD, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_FD_OFFSET, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_RESP_LKEY, "0001", "0001"),
	ATTR(MR, REG_MR, REG_MR_RESP_RKEY, "0001", "0001"),
	METHOD(DMAH, DMAH_ALLOC, "0000", "0000"),
	METHOD(DMAH, DMAH_FREE, "0000", "0000"),
	METHOD(DMABUF, DMABUF_ALLOC, "0000", "0000"),
};

static const char *kernels[] = { "5.10", "6.1", "6.12", "7.2" };

static int want_of(const char *per_kernel)
{
	return (int)kt_per_kernel(per_kernel[0] - '0', per_kernel[1] - '0', per_kernel[2] - '0',
				  per_kernel[3] - '0');
}

static void check(const char *dev, const char *name, int got, const char *per_kernel)
{
	int want = want_of(per_kernel);

	printf("probe %s | %s | %s | %s\n", dev, name,
	       got == 1 ? "present" : got == 0 ? "absent" : uvio_errno_name(got),
	       got == want ? "ok" : "FAIL");
	KT_CHECK(got == want, "%s on %s, kernel %s: probe %d, want %d (seen %s on %s/%s/%s/%s)",
		 name, dev, kt_kernel_release(), got, want, per_kernel, kernels[0], kernels[1],
		 kernels[2], kernels[3]);
}

static void one_device(const struct uvio_device_info *info)
{
	bool siw = !strncmp(info->name, "siw", 3);
	int fd = open(info->path, O_RDWR | O_CLOEXEC);

	printf("device %s (%s), kernel %s\n", info->name, info->path, kt_kernel_release());
	KT_CHECK(fd >= 0, "open %s", info->path);
	if (fd < 0)
		return;
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct fact *f = &facts[i];
		int got = f->attr == NO_ATTR ?
				  uvio_probe_method(fd, info->driver_id, f->obj, f->meth) :
				  uvio_probe_attr(fd, info->driver_id, f->obj, f->meth, f->attr);

		check(info->name, f->name, got, siw ? f->siw : f->rxe);
	}
	close(fd);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	printf("kernel %s (series %s)\n", kt_kernel_release(), kt_kernel_series());
	KT_CHECK(n > 0, "no device");
	for (int i = 0; i < n && i < 8; i++)
		one_device(&devs[i]);
	return kt_exit();
}
