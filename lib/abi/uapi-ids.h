/* SPDX-License-Identifier: MIT */
/*
 * The uverbs ids the ABI tables name that the system's UAPI headers may
 * lack. Those of Linux 7.2 come from lib/uapi-compat.h; here, the same way
 * (guarded by the headers' version, checked against them where they have
 * the id), what that file does not carry: the dma-buf memory registration
 * of Linux 5.12, which Debian 11's 5.10 headers lack.
 */
#ifndef UVIO_ABI_UAPI_IDS_H
#define UVIO_ABI_UAPI_IDS_H

#include <linux/version.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include "uapi-compat.h"

#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(5, 12, 0)
#define UVIO_SYS_UAPI_5_12 1
#else
#define UVIO_SYS_UAPI_5_12 0
#endif

#define UVIO_ABI_ID(name, value) UVIO_UAPI_CHECK(name, value)
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_METHOD_REG_DMABUF_MR)
#define UVERBS_METHOD_REG_DMABUF_MR 4
#define UVERBS_ATTR_REG_DMABUF_MR_HANDLE 0
#define UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE 1
#define UVERBS_ATTR_REG_DMABUF_MR_OFFSET 2
#define UVERBS_ATTR_REG_DMABUF_MR_LENGTH 3
#define UVERBS_ATTR_REG_DMABUF_MR_IOVA 4
#define UVERBS_ATTR_REG_DMABUF_MR_FD 5
#define UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS 6
#define UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY 7
#define UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY 8
#endif
UVIO_ABI_ID(UVERBS_METHOD_REG_DMABUF_MR, 4);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 1);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 2);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 3);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_IOVA, 4);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_FD, 5);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 6);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 7);
UVIO_ABI_ID(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 8);

#endif
