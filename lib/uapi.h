/* SPDX-License-Identifier: MIT */
/*
 * Internal: UAPI ids the library uses that older kernel headers lack
 * (Debian 11 and Ubuntu 20.04 ship 5.10 and 5.4 headers). The ids are enum
 * members, which the preprocessor cannot test, so the headers' version
 * decides: below the release that added an id, the library defines it;
 * from that release on, the system's value is used and checked against the
 * library's own. Include this after any <rdma/...> header: it includes
 * them itself first, so a later include cannot meet a macro of the same
 * name as an enum member.
 *
 * A new id goes here when the oldest supported headers (5.10) lack it: its
 * value in UVIO_UAPI_*, the release that added it in the guard.
 */
#ifndef UVIO_LIB_UAPI_H
#define UVIO_LIB_UAPI_H

#include <linux/version.h>
#include <rdma/ib_user_ioctl_cmds.h>

/* Linux 5.12: MR REG_DMABUF_MR. */
enum {
	UVIO_UAPI_METHOD_REG_DMABUF_MR = 4,		/* enum uverbs_methods_mr */
	UVIO_UAPI_ATTR_REG_DMABUF_MR_HANDLE = 0,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_PD_HANDLE,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_OFFSET,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_LENGTH,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_IOVA,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_FD,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_ACCESS_FLAGS,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_RESP_LKEY,
	UVIO_UAPI_ATTR_REG_DMABUF_MR_RESP_RKEY,
};
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 12, 0)
#define UVERBS_METHOD_REG_DMABUF_MR UVIO_UAPI_METHOD_REG_DMABUF_MR
#define UVERBS_ATTR_REG_DMABUF_MR_HANDLE UVIO_UAPI_ATTR_REG_DMABUF_MR_HANDLE
#define UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE UVIO_UAPI_ATTR_REG_DMABUF_MR_PD_HANDLE
#define UVERBS_ATTR_REG_DMABUF_MR_OFFSET UVIO_UAPI_ATTR_REG_DMABUF_MR_OFFSET
#define UVERBS_ATTR_REG_DMABUF_MR_LENGTH UVIO_UAPI_ATTR_REG_DMABUF_MR_LENGTH
#define UVERBS_ATTR_REG_DMABUF_MR_IOVA UVIO_UAPI_ATTR_REG_DMABUF_MR_IOVA
#define UVERBS_ATTR_REG_DMABUF_MR_FD UVIO_UAPI_ATTR_REG_DMABUF_MR_FD
#define UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS UVIO_UAPI_ATTR_REG_DMABUF_MR_ACCESS_FLAGS
#define UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY UVIO_UAPI_ATTR_REG_DMABUF_MR_RESP_LKEY
#define UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY UVIO_UAPI_ATTR_REG_DMABUF_MR_RESP_RKEY
#else
#define UVIO_UAPI_SAME(x) _Static_assert((int)UVERBS_##x == (int)UVIO_UAPI_##x, "UVERBS_" #x " differs")
UVIO_UAPI_SAME(METHOD_REG_DMABUF_MR);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_HANDLE);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_PD_HANDLE);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_OFFSET);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_LENGTH);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_IOVA);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_FD);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_ACCESS_FLAGS);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_RESP_LKEY);
UVIO_UAPI_SAME(ATTR_REG_DMABUF_MR_RESP_RKEY);
#undef UVIO_UAPI_SAME
#endif

#endif
