/* SPDX-License-Identifier: MIT */
/*
 * Internal: every uverbs id and layout the library uses that the oldest
 * system headers it builds with (Linux 5.10's, Debian 11) may lack. One
 * file, one rule:
 *  - an id goes here when some supported headers lack it, under the
 *    version of the headers that added it (UVIO_SYS_UAPI_x_y);
 *  - headers older than that get the value as a macro (unless a macro of
 *    that name exists);
 *  - every id is checked against the headers' own value wherever they have
 *    it (UVIO_UAPI_CHECK): a disagreement stops the build.
 * The UAPI declares ids as enum constants, which the preprocessor cannot
 * see: hence the version guard (<linux/version.h> comes from the same
 * kernel tree as the rdma headers). Values are facts of the kernel's UAPI;
 * the newest here are Linux 7.2's (linux-source-7.2, 7.2.13). Debian 12's
 * headers (6.1) lack all 7.2 ids; Debian 13's (6.12) have the FLUSH access
 * bits and RDMA_DRIVER_MANA; Debian 11's (5.10) lack REG_DMABUF_MR too.
 *
 * This header includes the system's rdma headers first: include them
 * before it, never after (a later header would meet a macro of the same
 * name as its enum member). What real kernels answer for the new methods
 * and attributes (rxe and siw, 5.10 to 7.2) is in docs/kernels.md;
 * tests/kernel/kt_uapi.c probes them.
 */
#ifndef UVIO_LIB_ABI_UAPI_H
#define UVIO_LIB_ABI_UAPI_H

#include <stdint.h>
#include <stddef.h>
#include <linux/version.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>

#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#define UVIO_SYS_UAPI_7_2 1	/* the system's headers carry all of 7.2's ids */
#else
#define UVIO_SYS_UAPI_7_2 0
#endif
#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define UVIO_SYS_UAPI_6_12 1
#else
#define UVIO_SYS_UAPI_6_12 0
#endif
#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define UVIO_SYS_UAPI_6_1 1
#else
#define UVIO_SYS_UAPI_6_1 0
#endif
#if defined(LINUX_VERSION_CODE) && LINUX_VERSION_CODE >= KERNEL_VERSION(5, 12, 0)
#define UVIO_SYS_UAPI_5_12 1
#else
#define UVIO_SYS_UAPI_5_12 0
#endif

#if defined(__cplusplus)
#define UVIO_UAPI_CHECK(name, value) static_assert((name) == (value), #name " differs")
#else
#define UVIO_UAPI_CHECK(name, value) _Static_assert((name) == (value), #name " differs")
#endif

/* Each id: defined where the headers are older than the version that has
 * it; checked against the headers' own value where they are not. */
/* Linux 5.12: MR REG_DMABUF_MR (method 4) and its attributes. */
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_METHOD_REG_DMABUF_MR)
#define UVERBS_METHOD_REG_DMABUF_MR 4
#endif
UVIO_UAPI_CHECK(UVERBS_METHOD_REG_DMABUF_MR, 4);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_HANDLE)
#define UVERBS_ATTR_REG_DMABUF_MR_HANDLE 0
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_HANDLE, 0);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE)
#define UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE 1
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, 1);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_OFFSET)
#define UVERBS_ATTR_REG_DMABUF_MR_OFFSET 2
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 2);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_LENGTH)
#define UVERBS_ATTR_REG_DMABUF_MR_LENGTH 3
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 3);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_IOVA)
#define UVERBS_ATTR_REG_DMABUF_MR_IOVA 4
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_IOVA, 4);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_FD)
#define UVERBS_ATTR_REG_DMABUF_MR_FD 5
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_FD, 5);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS)
#define UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS 6
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 6);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY)
#define UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY 7
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, 7);
#if !UVIO_SYS_UAPI_5_12 && !defined(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY)
#define UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY 8
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, 8);

/* Objects (enum uverbs_default_objects). */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_OBJECT_DMAH)
#define UVERBS_OBJECT_DMAH 17
#endif
UVIO_UAPI_CHECK(UVERBS_OBJECT_DMAH, 17);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_OBJECT_DMABUF)
#define UVERBS_OBJECT_DMABUF 18
#endif
UVIO_UAPI_CHECK(UVERBS_OBJECT_DMABUF, 18);

/* The driver namespace under its 7.2 name (7.2's headers no longer define
 * UVERBS_UDATA_DRIVER_DATA_NS and UVERBS_UDATA_DRIVER_DATA_FLAG), and the
 * first driver id past UHW_IN and UHW_OUT. */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ID_DRIVER_NS)
#define UVERBS_ID_DRIVER_NS 0x1000
#endif
UVIO_UAPI_CHECK(UVERBS_ID_DRIVER_NS, 0x1000);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ID_DRIVER_NS_WITH_UHW)
#define UVERBS_ID_DRIVER_NS_WITH_UHW 0x1002
#endif
UVIO_UAPI_CHECK(UVERBS_ID_DRIVER_NS_WITH_UHW, 0x1002);

/* DEVICE: QUERY_PORT_SPEED (method 7) and its attributes; GET_CONTEXT's
 * FD_ARR. */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_METHOD_QUERY_PORT_SPEED)
#define UVERBS_METHOD_QUERY_PORT_SPEED 7
#endif
UVIO_UAPI_CHECK(UVERBS_METHOD_QUERY_PORT_SPEED, 7);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM)
#define UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM 0
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_QUERY_PORT_SPEED_RESP)
#define UVERBS_ATTR_QUERY_PORT_SPEED_RESP 1
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_QUERY_PORT_SPEED_RESP, 1);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_GET_CONTEXT_FD_ARR)
#define UVERBS_ATTR_GET_CONTEXT_FD_ARR 2
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_GET_CONTEXT_FD_ARR, 2);

/* CQ CREATE: the CQ ring in a buffer of the caller's (VA or dma-buf). */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_CQ_BUFFER_VA)
#define UVERBS_ATTR_CREATE_CQ_BUFFER_VA 8
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_CQ_BUFFER_VA, 8);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH)
#define UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH 9
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_CQ_BUFFER_LENGTH, 9);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_CQ_BUFFER_FD)
#define UVERBS_ATTR_CREATE_CQ_BUFFER_FD 10
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_CQ_BUFFER_FD, 10);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET)
#define UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET 11
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_CQ_BUFFER_OFFSET, 11);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_CQ_BUF_UMEM)
#define UVERBS_ATTR_CREATE_CQ_BUF_UMEM 12
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_CQ_BUF_UMEM, 12);

/* QP CREATE: the queues in buffers of the caller's. */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_QP_BUF_UMEM)
#define UVERBS_ATTR_CREATE_QP_BUF_UMEM 15
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_QP_BUF_UMEM, 15);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_QP_RQ_BUF_UMEM)
#define UVERBS_ATTR_CREATE_QP_RQ_BUF_UMEM 16
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_QP_RQ_BUF_UMEM, 16);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_CREATE_QP_SQ_BUF_UMEM)
#define UVERBS_ATTR_CREATE_QP_SQ_BUF_UMEM 17
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_CREATE_QP_SQ_BUF_UMEM, 17);

/* DMAH (object 17): ALLOC and FREE. */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_METHOD_DMAH_ALLOC)
#define UVERBS_METHOD_DMAH_ALLOC 0
#endif
UVIO_UAPI_CHECK(UVERBS_METHOD_DMAH_ALLOC, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_METHOD_DMAH_FREE)
#define UVERBS_METHOD_DMAH_FREE 1
#endif
UVIO_UAPI_CHECK(UVERBS_METHOD_DMAH_FREE, 1);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_ALLOC_DMAH_HANDLE)
#define UVERBS_ATTR_ALLOC_DMAH_HANDLE 0
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_ALLOC_DMAH_HANDLE, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_ALLOC_DMAH_CPU_ID)
#define UVERBS_ATTR_ALLOC_DMAH_CPU_ID 1
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_ALLOC_DMAH_CPU_ID, 1);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE)
#define UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE 2
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE, 2);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_ALLOC_DMAH_PH)
#define UVERBS_ATTR_ALLOC_DMAH_PH 3
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_ALLOC_DMAH_PH, 3);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_FREE_DMA_HANDLE)
#define UVERBS_ATTR_FREE_DMA_HANDLE 0
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_FREE_DMA_HANDLE, 0);

/* DMABUF (object 18): ALLOC. */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_METHOD_DMABUF_ALLOC)
#define UVERBS_METHOD_DMABUF_ALLOC 0
#endif
UVIO_UAPI_CHECK(UVERBS_METHOD_DMABUF_ALLOC, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_ALLOC_DMABUF_HANDLE)
#define UVERBS_ATTR_ALLOC_DMABUF_HANDLE 0
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_ALLOC_DMABUF_HANDLE, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_ALLOC_DMABUF_PGOFF)
#define UVERBS_ATTR_ALLOC_DMABUF_PGOFF 1
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_ALLOC_DMABUF_PGOFF, 1);

/* MR: REG_MR (method 5), one registration for a VA, a dma-buf or a DMA
 * handle. */
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_METHOD_REG_MR)
#define UVERBS_METHOD_REG_MR 5
#endif
UVIO_UAPI_CHECK(UVERBS_METHOD_REG_MR, 5);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_HANDLE)
#define UVERBS_ATTR_REG_MR_HANDLE 0
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_HANDLE, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_PD_HANDLE)
#define UVERBS_ATTR_REG_MR_PD_HANDLE 1
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_PD_HANDLE, 1);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_DMA_HANDLE)
#define UVERBS_ATTR_REG_MR_DMA_HANDLE 2
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_DMA_HANDLE, 2);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_IOVA)
#define UVERBS_ATTR_REG_MR_IOVA 3
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_IOVA, 3);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_ADDR)
#define UVERBS_ATTR_REG_MR_ADDR 4
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_ADDR, 4);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_LENGTH)
#define UVERBS_ATTR_REG_MR_LENGTH 5
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_LENGTH, 5);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_ACCESS_FLAGS)
#define UVERBS_ATTR_REG_MR_ACCESS_FLAGS 6
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_ACCESS_FLAGS, 6);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_FD)
#define UVERBS_ATTR_REG_MR_FD 7
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_FD, 7);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_FD_OFFSET)
#define UVERBS_ATTR_REG_MR_FD_OFFSET 8
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_FD_OFFSET, 8);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_RESP_LKEY)
#define UVERBS_ATTR_REG_MR_RESP_LKEY 9
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_RESP_LKEY, 9);
#if !UVIO_SYS_UAPI_7_2 && !defined(UVERBS_ATTR_REG_MR_RESP_RKEY)
#define UVERBS_ATTR_REG_MR_RESP_RKEY 10
#endif
UVIO_UAPI_CHECK(UVERBS_ATTR_REG_MR_RESP_RKEY, 10);

/* Values that attributes carry (ib_user_ioctl_verbs.h). The FLUSH access
 * bits and RDMA_DRIVER_MANA are in 6.12's headers already, not in 6.1's. */
#if !UVIO_SYS_UAPI_7_2 && !defined(IB_UVERBS_CORE_SUPPORT_ROBUST_UDATA)
#define IB_UVERBS_CORE_SUPPORT_ROBUST_UDATA (1 << 1)
#endif
UVIO_UAPI_CHECK(IB_UVERBS_CORE_SUPPORT_ROBUST_UDATA, (1 << 1));
#if !UVIO_SYS_UAPI_6_12 && !defined(IB_UVERBS_ACCESS_FLUSH_GLOBAL)
#define IB_UVERBS_ACCESS_FLUSH_GLOBAL (1 << 8)
#endif
UVIO_UAPI_CHECK(IB_UVERBS_ACCESS_FLUSH_GLOBAL, (1 << 8));
#if !UVIO_SYS_UAPI_6_12 && !defined(IB_UVERBS_ACCESS_FLUSH_PERSISTENT)
#define IB_UVERBS_ACCESS_FLUSH_PERSISTENT (1 << 9)
#endif
UVIO_UAPI_CHECK(IB_UVERBS_ACCESS_FLUSH_PERSISTENT, (1 << 9));
#if !UVIO_SYS_UAPI_6_12 && !defined(RDMA_DRIVER_MANA)
#define RDMA_DRIVER_MANA 20
#endif
UVIO_UAPI_CHECK(RDMA_DRIVER_MANA, 20);
#if !UVIO_SYS_UAPI_7_2 && !defined(RDMA_DRIVER_IONIC)
#define RDMA_DRIVER_IONIC 21
#endif
UVIO_UAPI_CHECK(RDMA_DRIVER_IONIC, 21);
#if !UVIO_SYS_UAPI_7_2 && !defined(IB_UVERBS_BUFFER_TYPE_DMABUF)
#define IB_UVERBS_BUFFER_TYPE_DMABUF 0
#endif
UVIO_UAPI_CHECK(IB_UVERBS_BUFFER_TYPE_DMABUF, 0);
#if !UVIO_SYS_UAPI_7_2 && !defined(IB_UVERBS_BUFFER_TYPE_VA)
#define IB_UVERBS_BUFFER_TYPE_VA 1
#endif
UVIO_UAPI_CHECK(IB_UVERBS_BUFFER_TYPE_VA, 1);

/*
 * The buffer description that the *_BUF_UMEM attributes carry (struct
 * ib_uverbs_buffer_desc in 7.2), under the project's name so that it never
 * clashes with the kernel's: type is an IB_UVERBS_BUFFER_TYPE_*, fd the
 * dma-buf (for that type), flags must be 0 (unknown bits: EINVAL),
 * optional_flags are ignored where unknown, addr is the dma-buf offset or
 * the virtual address.
 */
struct uvio_uapi_buffer_desc {
	uint32_t type;
	int32_t fd;
	uint32_t flags;
	uint32_t optional_flags;
	uint64_t addr __attribute__((aligned(8)));
	uint64_t length __attribute__((aligned(8)));
};
#if defined(__cplusplus)
static_assert(sizeof(struct uvio_uapi_buffer_desc) == 32, "buffer_desc size");
#else
_Static_assert(sizeof(struct uvio_uapi_buffer_desc) == 32, "buffer_desc size");
_Static_assert(offsetof(struct uvio_uapi_buffer_desc, addr) == 16, "buffer_desc addr");
#endif
#if UVIO_SYS_UAPI_7_2 && !defined(__cplusplus)
_Static_assert(sizeof(struct ib_uverbs_buffer_desc) == sizeof(struct uvio_uapi_buffer_desc),
	       "ib_uverbs_buffer_desc differs");
_Static_assert(offsetof(struct ib_uverbs_buffer_desc, length) ==
	       offsetof(struct uvio_uapi_buffer_desc, length), "ib_uverbs_buffer_desc differs");
#endif

/* DEVICE QUERY_PORT's struct ib_uverbs_query_port_resp_ex: 7.2 took 4 of its
 * 6 reserved bytes for a u32 active_speed_ex, at this offset. */
#define UVIO_UAPI_PORT_RESP_EX_ACTIVE_SPEED_EX                                 \
	(offsetof(struct ib_uverbs_query_port_resp_ex, port_cap_flags2) + 4)
#if UVIO_SYS_UAPI_7_2 && !defined(__cplusplus)
_Static_assert(offsetof(struct ib_uverbs_query_port_resp_ex, active_speed_ex) ==
	       UVIO_UAPI_PORT_RESP_EX_ACTIVE_SPEED_EX, "active_speed_ex moved");
#endif

#endif
