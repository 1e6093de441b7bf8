// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_standin (this file, mlx5_verbs.c, and the engine, mlx5_engine.c,
 * make the module): an RDMA device that answers the uverbs ABI as mlx5_ib does,
 * without hardware. A test fixture of libuverbs-ioctl (the rest of that
 * project is MIT; this file is GPL-2.0 because it restates mlx5_ib's rules).
 * Never installed: tests/standin/build.sh builds it against the Debian
 * headers of the guest's kernel and the kernel suite loads it in a qemu
 * guest.
 *
 *   insmod mlx5_standin.ko [netdev=dummy0[,dummy1...]]
 *
 * registers mlx5_0 (driver id RDMA_DRIVER_MLX5, uverbs ABI version 1) with
 * one RoCE port on the first NETDEV, mlx5_1 on the second, and so on (four
 * at most), so that Debian's libmlx5 (rdma-core 44) drives them through
 * libibverbs as it drives ConnectX HCAs. Each device's parent in sysfs
 * (/sys/devices/mlx5_standin.N, the device link of mlx5_N) shows the PCI
 * ids of a ConnectX-5, vendor 0x15b3 and device 0x1017, where UCX looks to
 * know an mlx5 device; it is no PCI device and DMA stays virtual.
 *
 * What of mlx5_ib it reproduces, as Linux 6.1 states it (Debian 6.1.192,
 * drivers/infiniband/hw/mlx5 and include/uapi/rdma/mlx5*.h) and, built for
 * 6.12 or later, as Linux 6.12 states it (Debian 6.12.118): the user-data
 * (UHW) contract of every command below, the checks in mlx5_ib's order with
 * its errno, and the lengths it pins. The rules are transcribed; the code is
 * written anew. Only these two kernels were read: the 6.12 rules are taken
 * from 6.12 on (SD_V612), kernels between them are not told apart, and 7.x
 * (its umem and CQ ops reworked) does not build.
 * What 6.12 changed, and this follows (everything else below is the same
 * in both):
 *  - CREATE_CQ: the op takes the ioctl's attribute bundle, and the UAR page
 *    index may come as the optional attribute MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX
 *    (u32) of UVERBS_METHOD_CQ_CREATE, taken before the request's
 *    UAR_PAGE_INDEX flag;
 *  - EX_QUERY_DEVICE: mlx5_ib_query_device_resp's response_length also
 *    counts the reserved field and reg_c0 when the caller has room (reg_c0
 *    stays 0: no eswitch); max_qp_wr is the send queue's bytes over the
 *    largest one-entry WQE (8192 here), no longer its basic blocks (32768);
 *  - CREATE_AH: the static rate is checked (out of range: EINVAL, after the
 *    response is written); there and in MODIFY_QP the range reaches
 *    800 Gb/s, taken as the port's rate;
 *  - mmap: VM flags through vm_flags_set() (from 6.3; no rule changes).
 *  - GET_CONTEXT: mlx5_ib_alloc_ucontext_req (8 bytes, "version 0") or
 *    _req_v2 (16 bytes or more, up to max_cqe_version); anything else,
 *    no driver data included, is EINVAL. Unknown flags, comp_mask or a
 *    reserved field: EOPNOTSUPP. total_num_bfregs rounded up to 2;
 *    num_low_latency_bfregs above it less one: EINVAL. Without the dynamic
 *    UAR capability (lib_caps bit 1): total_num_bfregs 0 is EINVAL, above
 *    512 ENOMEM; the static UAR pages are allocated then, and 1024 dynamic
 *    bfregs are reserved behind them. DEVX (flags bit 0): EINVAL, as
 *    mlx5_ib answers on an HCA whose firmware has no user contexts
 *    (log_max_uctx 0); libmlx5 then asks again without it. cqe_version is
 *    the lesser of the request's max_cqe_version and 1. The response is
 *    mlx5_ib_alloc_ucontext_resp cut to the caller's length, and says so in
 *    response_length.
 *  - mmap: the command in bits 8-15 of the page offset. UAR pages by
 *    index (commands 0, 2 and 3: the static pages; 6: a dynamic page,
 *    index in bits 0-7 and 16-23, each one once), refused with EINVAL for a
 *    context with dynamic UARs, for a length other than a page, a private
 *    mapping or an index out of range. Command 1: ENOSYS. The core clock
 *    (5) and the clock info page (7): refused after mlx5_ib's own checks,
 *    EOPNOTSUPP (this HCA has no clock to show; the context does not offer
 *    the clock's offset, so libmlx5 does not ask). Anything else: an offset
 *    handed out by a UAR object (commands 9 to 255), else EINVAL.
 *  - MLX5_IB_OBJECT_UAR (alloc: handle, type BF or NC, and out the mmap
 *    offset, length and page id; destroy), declared with the kernel's
 *    uverbs_named_ioctl.h macros as mlx5_ib declares it; any other type:
 *    EOPNOTSUPP. Write-combining is "supported" (bf_reg_size 512).
 *  - ALLOC_PD: 4 bytes out, the pdn.
 *  - CREATE_CQ: mlx5_ib_create_cq at least up to flags (24 bytes), else
 *    EINVAL; unknown flags, a cqe_size other than 64 or 128, reserved
 *    fields: EINVAL. The buffer is pinned (ib_umem_get, local write) for
 *    exactly entries * cqe_size, entries being the cqe count plus one
 *    rounded up to a power of two; it must start on a page (the CQ's page
 *    offset is 0 in mlx5's layout), else EINVAL; the doorbell's page is
 *    pinned and shared by the context's objects in that page. The UAR: the
 *    page index given with the UAR_PAGE_INDEX flag, else EINVAL in a
 *    context with dynamic UARs, else the first static page. CQE compression
 *    (cqe_comp_en 1) and 128-byte padding: EOPNOTSUPP (not in this HCA's
 *    capabilities). 4 bytes out, the cqn. RESIZE_CQ: mlx5_ib_resize_cq
 *    (reserved fields: EINVAL; its cqe_size is not checked, as in mlx5_ib),
 *    the new buffer pinned for the new length and, as the HCA does, a
 *    "resize" CQE written in the old buffer at the producer index, where
 *    libmlx5 looks for it before it moves to the new buffer.
 *  - CREATE_QP (RC, UC, UD; other types EOPNOTSUPP): mlx5_ib_create_qp of
 *    at least 48 bytes (up to ece_options), bytes past it zero; flags
 *    SIGNATURE, BFREG_INDEX, UAR_PAGE_INDEX, SCATTER_CQE and
 *    ALLOW_SCATTER_CQE taken (the last two dropped with the module
 *    parameter scatter_cqe=0, as mlx5_ib drops them on an HCA without the
 *    capability; with them the QP's scatter to CQE is decided as mlx5_ib
 *    decides it: sd_scatter_decide), any other flag EINVAL;
 *    the user index rule of cqe version 0 and 1; any create flag
 *    EOPNOTSUPP; rq_wqe_count/rq_wqe_shift must be 0 when the QP has no
 *    receive queue (an SRQ, or max_recv_wr 0); sq_wqe_count a power of two
 *    within 2^15. The buffer is pinned for (rq_wqe_count << rq_wqe_shift) +
 *    (sq_wqe_count << 6) bytes and must start on 64 bytes. The UAR: by page
 *    index, by dynamic bfreg index, or (no flag) a bfreg allocated from the
 *    static pages in mlx5_ib's classes (low latency, medium, the shared
 *    bfreg 0); EINVAL without a UAR in a context with dynamic UARs. The
 *    response is mlx5_ib_create_qp_resp (bfreg_index; the rest 0).
 *    MODIFY_QP: mlx5_ib_modify_qp in, when there is any (less than 16
 *    bytes: EINVAL; bytes past it, comp_mask or the burst info's reserved
 *    field not zero: EOPNOTSUPP), the state machine of the core and
 *    mlx5's transition table, port 1, pkey index 0, path MTU 256-4096, a
 *    GRH for RoCE addresses, the sgid index within the table, the static
 *    rate's range, at most 16 outstanding reads and atomics each way,
 *    remote atomic access taken (the HCA has 8-byte compare-and-swap and
 *    fetch-and-add, IB_ATOMIC_HCA in QUERY_DEVICE; no masked atomics);
 *    mlx5_ib_modify_qp_resp out when the caller has room.
 *  - CREATE_SRQ: mlx5_ib_create_srq (reserved fields and bytes past it:
 *    EINVAL; the user index for XRC and tag-matching SRQs), the buffer
 *    pinned for (max_wr + 1 rounded to a power of two) descriptors of
 *    16 + 16 * max_sge bytes rounded to a power of two (at least 32),
 *    starting on 64 bytes; tag matching EINVAL (no list); srqn out.
 *  - REG_MR: the range pinned with the caller's access (on-demand paging:
 *    EOPNOTSUPP). CREATE_AH (RoCE): a GRH is required (EINVAL),
 *    mlx5_ib_create_ah_resp out (at least 10 bytes, else EINVAL) with the
 *    destination MAC the core resolved. EX_QUERY_DEVICE: the
 *    mlx5_ib_query_device_resp sections mlx5_ib counts for an Ethernet HCA
 *    without offloads, in the caller's length (less than 8: EINVAL; driver
 *    input not zero: EINVAL). QUERY_PORT: a RoCE port on NETDEV, active when
 *    it is up with carrier.
 * What stands in for the firmware: pdn, cqn, qpn, srqn, mkeys and UAR page
 * ids come from IDAs; a CQ's or QP's UAR page must be one this context holds
 * (EINVAL otherwise). The UAR pages are zeroed memory the process maps (its
 * doorbell writes land there); the doorbell records and queues stay in the
 * process's pinned pages.
 * The data path: mlx5_engine.c, a kernel thread that does with these
 * queues what a ConnectX does (its header says how far: RC and UC sends,
 * RDMA writes and reads, receive queues and SRQs, CQEs and arming). For it
 * this file keeps each ring, doorbell record and MR mapped in the kernel
 * (vmap of the pinned pages), every QP, CQ and MR in the device's tables,
 * an MR's iova, length and access, and takes the engine's lock where it
 * creates, changes or frees what the engine reads; an mkey is never
 * 0x100, the receive scatter terminator.
 * Kernel verbs (create_cq and create_qp without user data, kernel AHs,
 * get_dma_mr, post_send, post_recv, poll_cq, req_notify_cq): mlx5_gsi.c,
 * the kernel CQs and QP1 that ib_mad opens, so that ib_cm and rdma_cm run
 * over the device; the write commands POST_SEND, POST_RECV, POLL_CQ and
 * REQ_NOTIFY_CQ reach it and are refused on user objects (EOPNOTSUPP;
 * libmlx5 never sends them).
 * What it does not: no kernel QPs but QP1 (no IPoIB, no kernel ULPs),
 * no DEVX, VAR, DM, flow steering,
 * counters, XRC, DC, raw packet, RSS or WQs, no rereg or ODP, no
 * multicast attach, no clock. Memory windows (type 1 and 2) are allocated
 * here and bound by the engine. Delete NETDEV only after unloading
 * the module.
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/device.h>
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#define UVERBS_MODULE_NAME mlx5_standin
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/mlx5-abi.h>
#include "standin.h"
#include "mlx5_standin.h"
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>

/* The rules of 6.12 where they differ from 6.1's (see the header). */
#define SD_V612 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

static char *netdev = "dummy0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "the Ethernet devices under the RoCE ports, comma-separated: one device each, mlx5_0 first (default dummy0)");

/* The HCA's sctr_data_cqe capability: mlx5_ib then keeps the SCATTER_CQE
 * and ALLOW_SCATTER_CQE flags of a QP create and sets the QP's cs_res and
 * cs_req; without it it drops both flags silently. Every ConnectX has it. */
static bool scatter_cqe = true;
module_param(scatter_cqe, bool, 0444);
MODULE_PARM_DESC(scatter_cqe, "scatter small receives and READ or atomic responses to the CQE where the QP asks for it, as a ConnectX (default on; off: the flags are dropped, all data goes to the buffers)");

/* The HCA this stands in for: ConnectX-5-like limits, few capabilities. */
enum {
	SD_LOG_MAX_QP = 18,
	SD_LOG_MAX_QP_SZ = 15,
	SD_MAX_WQE_SZ_SQ = 1024,
	SD_MAX_WQE_SZ_RQ = 512,
	SD_LOG_MAX_SRQ = 23,
	SD_LOG_MAX_SRQ_SZ = 15,
	SD_LOG_MAX_CQ = 24,
	SD_LOG_MAX_CQ_SZ = 22,
	SD_LOG_MAX_MKEY = 24,
	SD_LOG_MAX_PD = 23,
	SD_LOG_MAX_RA_REQ = 4,	/* outstanding reads as responder, 2^n */
	SD_LOG_MAX_RA_RES = 4,	/* as requester */
	SD_LOG_MAX_MSG = 30,
	SD_LOG_BF_REG_SIZE = 9,
	SD_GID_TBL_LEN = 255,
	SD_PKEY_TBL_LEN = 1,
	SD_CQE_VERSION = 1,
	SD_LOCAL_CA_ACK_DELAY = 16,
	SD_VENDOR_ID = 0x02c9,	/* Mellanox */
	SD_VENDOR_PART = 4119,	/* ConnectX-5 */
	SD_PCI_VENDOR = 0x15b3,	/* Mellanox, as the PCI function says it */
	SD_PCI_DEVICE = 0x1017,	/* ConnectX-5 */
	SD_MAX_DEVS = 4,
	SD_FW_MAJOR = 16, SD_FW_MINOR = 35, SD_FW_SUB = 0,
};

/* mlx5's layout constants (4 KiB UARs, two non-fast-path bfregs in each). */
enum {
	SD_ADAPTER_PAGE = 4096,
	SD_UARS_IN_PAGE = PAGE_SIZE / SD_ADAPTER_PAGE,
	SD_NON_FP_BFREGS_PER_UAR = 2,
	SD_BFREGS_PER_UAR = 4,
	SD_MAX_UARS = 256,
	SD_MAX_BFREGS = SD_MAX_UARS * SD_NON_FP_BFREGS_PER_UAR,
	SD_MIN_DYN_BFREGS = 512,
	SD_MAX_DYN_BFREGS = 1024,
	SD_MMAP_CMD_SHIFT = 8,
	SD_MMAP_CMD_MASK = 0xff,
	SD_MMAP_ENTRY_FIRST_CMD = 9,
	SD_MMAP_ENTRY_LAST_CMD = 255,
	SD_DEFAULT_UIDX = 0xffffff,	/* "cqe version 0" in a user index */
	SD_UIDX_MASK = 0xffffff,
	SD_SEND_WQE_BB = 64,
	SD_DATA_SEG = 16,		/* one scatter entry of a WQE */
	SD_SRQ_NEXT_SEG = 16,		/* the link at the head of an SRQ WQE */
	SD_CTRL_SEG = 16,
	SD_RADDR_SEG = 16,
	SD_MAX_UAR_ID = 0xffff,		/* the CQ names its UAR in 16 bits */
};
#define SD_INVALID_UAR BIT(31)
#define SD_INVALID_BFREG BIT(31)

/* The module's devices, mlx5_0 first; under sd_eng_mutex once published
 * (the engine routes by GID among them). */
static DEFINE_MUTEX(sd_eng_mutex);
static struct sd_dev *sd_devs[SD_MAX_DEVS];
static int sd_ndevs;

/* Under sd_eng_mutex: the device whose GID table holds gid (RoCE v1 or v2
 * entry), or NULL. */
struct sd_dev *sd_route_gid(const u8 *gid)
{
	static const enum ib_gid_type types[] = { IB_GID_TYPE_ROCE_UDP_ENCAP, IB_GID_TYPE_ROCE };
	const struct ib_gid_attr *a;
	int i, t;

	for (i = 0; i < sd_ndevs; i++)
		for (t = 0; t < ARRAY_SIZE(types); t++) {
			a = rdma_find_gid(&sd_devs[i]->ibdev, (const union ib_gid *)gid, types[t], NULL);
			if (!IS_ERR(a)) {
				rdma_put_gid_attr(a);
				return sd_devs[i];
			}
		}
	return NULL;
}

struct sd_ah {
	struct ib_ah ibah;
	u8 dmac[ETH_ALEN];
	/* the GRH, for the kernel's QP1 (mlx5_gsi.c) */
	union ib_gid dgid;
	u32 flow_label;
	u8 tclass, hop_limit;
};

/* A UAR object's page, reached through an mmap offset. */
struct sd_uar_entry {
	struct rdma_user_mmap_entry rdma_entry;
	struct sd_dev *dev;
	struct page *page;
	u32 uar_index;
	bool nc;
};

static struct sd_ucontext *to_sduc(struct ib_ucontext *c) { return container_of(c, struct sd_ucontext, ibuc); }
static struct sd_pd *to_sdpd(struct ib_pd *p) { return container_of(p, struct sd_pd, ibpd); }
static struct sd_ah *to_sdah(struct ib_ah *a) { return container_of(a, struct sd_ah, ibah); }
static struct sd_uar_entry *to_sdentry(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct sd_uar_entry, rdma_entry);
}

static struct sd_ucontext *udata_uc(struct ib_udata *udata)
{
	return rdma_udata_to_drv_context(udata, struct sd_ucontext, ibuc);
}

static int sd_id_alloc(struct ida *ida, u32 first, u32 last)
{
	int id = ida_alloc_range(ida, first, last, GFP_KERNEL);

	return id == -ENOSPC ? -ENOMEM : id;
}

/* ---- UARs: an id and a zeroed page -------------------------------------- */

static int sd_uar_get(struct sd_dev *dev, u32 *index, struct page **page)
{
	int id = sd_id_alloc(&dev->uar_ida, 1, SD_MAX_UAR_ID);

	if (id < 0)
		return id;
	*page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!*page) {
		ida_free(&dev->uar_ida, id);
		return -ENOMEM;
	}
	*index = id;
	return 0;
}

/* The page may still be mapped: the mapping holds its own reference. */
static void sd_uar_put(struct sd_dev *dev, u32 index, struct page *page)
{
	put_page(page);
	ida_free(&dev->uar_ida, index);
}

/* The context may name the UAR index; the engine finds its page there. */
static int sd_uar_hold(struct sd_ucontext *uc, u32 index, struct page *page)
{
	return xa_err(xa_store(&uc->uars, index, page, GFP_KERNEL));
}

static bool sd_uar_held(struct sd_ucontext *uc, u32 index)
{
	return xa_load(&uc->uars, index) != NULL;
}

static u32 sd_uars_per_sys_page(const struct sd_ucontext *uc)
{
	return uc->lib_uar_4k ? SD_UARS_IN_PAGE : 1;	/* the HCA has 4K UARs */
}

/* ---- doorbell records ---------------------------------------------------- */

static int sd_db_map(struct sd_ucontext *uc, u64 virt, struct sd_db_page **out)
{
	unsigned long page_virt = (unsigned long)virt & PAGE_MASK;
	struct sd_db_page *p;
	int err = 0;

	mutex_lock(&uc->lock);
	list_for_each_entry(p, &uc->db_pages, list)
		if (p->mm == current->mm && p->user_virt == page_virt)
			goto found;
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p) {
		err = -ENOMEM;
		goto out;
	}
	p->user_virt = page_virt;
	p->umem = ib_umem_get(uc->ibuc.device, page_virt, PAGE_SIZE, 0);
	if (IS_ERR(p->umem)) {
		err = PTR_ERR(p->umem);
		kfree(p);
		goto out;
	}
	p->kva = sd_umem_vmap(p->umem);
	if (!p->kva) {
		ib_umem_release(p->umem);
		kfree(p);
		err = -ENOMEM;
		goto out;
	}
	mmgrab(current->mm);
	p->mm = current->mm;
	list_add(&p->list, &uc->db_pages);
found:
	p->refcnt++;
	*out = p;
out:
	mutex_unlock(&uc->lock);
	return err;
}

/* The record at virt in its pinned page, as the engine reads it. */
static __be32 *sd_db_rec(struct sd_db_page *p, u64 virt)
{
	return p->kva + (virt & ~PAGE_MASK);
}

static void sd_db_unmap(struct sd_ucontext *uc, struct sd_db_page *p)
{
	mutex_lock(&uc->lock);
	if (!--p->refcnt) {
		list_del(&p->list);
		mmdrop(p->mm);
		vunmap(p->kva);
		ib_umem_release(p->umem);
		kfree(p);
	}
	mutex_unlock(&uc->lock);
}

/* ---- device and port ----------------------------------------------------- */

/* max_qp_wr: 6.1 gives the queue's size in basic blocks; 6.12 divides the
 * send queue's bytes by the largest WQE of one scatter entry: mlx5's worst
 * overhead (an XRC initiator's UMR WQE: xrc 16 + ctrl 16 + umr ctrl 48 +
 * mkey 64 + 64 / 16 inline octowords, against a UD LSO WQE of 96) plus one
 * data segment, rounded up to a power of two and to a basic block. */
static u32 sd_max_qp_wr(void)
{
	u32 qp_bytes = (1u << SD_LOG_MAX_QP_SZ) * SD_SEND_WQE_BB;
	u32 wqe;

	if (!SD_V612)
		return 1u << SD_LOG_MAX_QP_SZ;
	wqe = max(16u + 16u + max(16u + 16u, 48u + 64u + 64u / 16u),
		  16u + 16u + 16u + 48u) + SD_DATA_SEG;
	wqe = ALIGN(roundup_pow_of_two(wqe), SD_SEND_WQE_BB);
	return qp_bytes / wqe;
}

static int sd_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			   struct ib_udata *uhw)
{
	size_t outlen = uhw ? uhw->outlen : 0;
	struct mlx5_ib_query_device_resp resp = {};
	int max_rq_sg = SD_MAX_WQE_SZ_RQ / SD_DATA_SEG;
	int max_sq_sg = (min(SD_MAX_WQE_SZ_SQ, 512) - SD_CTRL_SEG - SD_RADDR_SEG) / SD_DATA_SEG;

	resp.response_length = sizeof(resp.comp_mask) + sizeof(resp.response_length);
	if (outlen && outlen < resp.response_length)
		return -EINVAL;
	if (uhw && uhw->inlen && !ib_is_udata_cleared(uhw, 0, uhw->inlen))
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	/* the kernel's queues (mlx5_gsi.c) take the PD's lkey 0 for any
	 * kernel address, as mlx5_ib's reserved lkey does */
	props->kernel_cap_flags |= IBK_LOCAL_DMA_LKEY;
	props->sys_image_guid = ibdev->node_guid;
	props->max_pkeys = SD_PKEY_TBL_LEN;
	props->vendor_id = SD_VENDOR_ID;
	props->vendor_part_id = SD_VENDOR_PART;
	props->fw_ver = ((u64)SD_FW_MAJOR << 32) | (SD_FW_MINOR << 16) | SD_FW_SUB;
	props->device_cap_flags = IB_DEVICE_CHANGE_PHY_PORT | IB_DEVICE_PORT_ACTIVE_EVENT |
				  IB_DEVICE_SYS_IMAGE_GUID | IB_DEVICE_RC_RNR_NAK_GEN |
				  IB_DEVICE_MEM_WINDOW | IB_DEVICE_MEM_WINDOW_TYPE_2B;
	props->max_mw = 1 << SD_LOG_MAX_MKEY;
	props->max_mr_size = ~0ull;
	props->page_size_cap = ~(u64)(SD_ADAPTER_PAGE - 1);
	props->max_qp = 1 << SD_LOG_MAX_QP;
	props->max_qp_wr = sd_max_qp_wr();
	props->max_send_sge = max_sq_sg;
	props->max_recv_sge = max_rq_sg;
	props->max_sge_rd = max_sq_sg;
	props->max_cq = 1 << SD_LOG_MAX_CQ;
	props->max_cqe = (1 << SD_LOG_MAX_CQ_SZ) - 1;
	props->max_mr = 1 << SD_LOG_MAX_MKEY;
	props->max_pd = 1 << SD_LOG_MAX_PD;
	props->max_qp_rd_atom = 1 << SD_LOG_MAX_RA_REQ;
	props->max_qp_init_rd_atom = 1 << SD_LOG_MAX_RA_RES;
	props->max_srq = 1 << SD_LOG_MAX_SRQ;
	props->max_srq_wr = (1 << SD_LOG_MAX_SRQ_SZ) - 1;
	props->max_srq_sge = max_rq_sg - 1;
	props->local_ca_ack_delay = SD_LOCAL_CA_ACK_DELAY;
	props->max_res_rd_atom = props->max_qp_rd_atom * props->max_qp;
	/* 8-byte compare-and-swap and fetch-and-add, in the host byte order
	 * mlx5_ib asks of the HCA (the condition of IB_ATOMIC_HCA); no masked
	 * (extended) atomics */
	props->atomic_cap = IB_ATOMIC_HCA;
	props->masked_atomic_cap = IB_ATOMIC_NONE;
	props->max_ah = INT_MAX;
	props->timestamp_mask = 0x7FFFFFFFFFFFFFFFULL;

	/* The sections mlx5_ib counts for an Ethernet HCA with raw packet
	 * support and none of the offloads: all zero but the flag it always
	 * sets. */
	if (offsetofend(typeof(resp), tso_caps) <= outlen)
		resp.response_length += sizeof(resp.tso_caps);
	if (offsetofend(typeof(resp), rss_caps) <= outlen)
		resp.response_length += sizeof(resp.rss_caps);
	if (offsetofend(typeof(resp), cqe_comp_caps) <= outlen)
		resp.response_length += sizeof(resp.cqe_comp_caps);
	if (offsetofend(typeof(resp), packet_pacing_caps) <= outlen)
		resp.response_length += sizeof(resp.packet_pacing_caps);
	if (offsetofend(typeof(resp), mlx5_ib_support_multi_pkt_send_wqes) <= outlen)
		resp.response_length += sizeof(resp.mlx5_ib_support_multi_pkt_send_wqes);
	if (offsetofend(typeof(resp), flags) <= outlen) {
		resp.response_length += sizeof(resp.flags);
		resp.flags |= MLX5_IB_QUERY_DEV_RESP_FLAGS_SCAT2CQE_DCT;
	}
	if (offsetofend(typeof(resp), sw_parsing_caps) <= outlen)
		resp.response_length += sizeof(resp.sw_parsing_caps);
	if (offsetofend(typeof(resp), striding_rq_caps) <= outlen)
		resp.response_length += sizeof(resp.striding_rq_caps);
	if (offsetofend(typeof(resp), tunnel_offloads_caps) <= outlen)
		resp.response_length += sizeof(resp.tunnel_offloads_caps);
	if (offsetofend(typeof(resp), dci_streams_caps) <= outlen)
		resp.response_length += sizeof(resp.dci_streams_caps);
#if SD_V612
	/* 6.12 counts the reserved field and reg_c0 too (reg_c0 left zero:
	 * no eswitch in offloads mode). */
	if (offsetofend(typeof(resp), reserved) <= outlen)
		resp.response_length += sizeof(resp.reserved);
	if (offsetofend(typeof(resp), reg_c0) <= outlen)
		resp.response_length += sizeof(resp.reg_c0);
#endif
	if (outlen)
		return ib_copy_to_udata(uhw, &resp, resp.response_length);
	return 0;
}

static int sd_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *props)
{
	unsigned int mtu;

	/* the core zeroed props */
	props->active_width = IB_WIDTH_4X;
	props->active_speed = IB_SPEED_QDR;
	props->port_cap_flags |= IB_PORT_CM_SUP;
	props->ip_gids = true;
	props->gid_tbl_len = SD_GID_TBL_LEN;
	props->max_mtu = IB_MTU_4096;
	props->max_msg_sz = 1 << SD_LOG_MAX_MSG;
	props->pkey_tbl_len = SD_PKEY_TBL_LEN;
	props->state = IB_PORT_DOWN;
	props->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	props->active_mtu = IB_MTU_256;

	if (sd_port_link(to_sddev(ibdev)->ifindex, props, &mtu))
		props->active_mtu = min(props->max_mtu, iboe_get_mtu(mtu));
	return 0;
}

static int sd_port_immutable(struct ib_device *ibdev, u32 port,
			     struct ib_port_immutable *immutable)
{
	return sd_port_immutable_caps(ibdev, port, immutable,
				      RDMA_CORE_PORT_IBA_ROCE | RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP);
}

static int sd_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	return sd_default_pkey(index, SD_PKEY_TBL_LEN, pkey);
}

static void sd_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%d.%d.%04d", SD_FW_MAJOR, SD_FW_MINOR, SD_FW_SUB);
}

/* ---- user context -------------------------------------------------------- */

static void sd_free_uars(struct sd_dev *dev, struct sd_ucontext *uc)
{
	u32 i;

	/* a page is there exactly when its UAR was allocated */
	for (i = 0; uc->sys_pages && uc->sys_page_mem && i < uc->num_sys_pages; i++)
		if (uc->sys_page_mem[i])
			sd_uar_put(dev, uc->sys_pages[i], uc->sys_page_mem[i]);
	kfree(uc->sys_page_mem);
	kfree(uc->sys_pages);
	kfree(uc->count);
	uc->sys_page_mem = NULL;
	uc->sys_pages = NULL;
	uc->count = NULL;
}

/* The static bfregs the library asked for, and the dynamic ones behind
 * them, in system pages (mlx5_ib's calc_total_bfregs), and the static
 * pages' UARs (its allocate_uars). */
static int sd_setup_bfregs(struct sd_dev *dev, struct sd_ucontext *uc,
			   struct mlx5_ib_alloc_ucontext_req_v2 *req)
{
	u32 per_page = sd_uars_per_sys_page(uc) * SD_NON_FP_BFREGS_PER_UAR;
	u32 dyn = (sd_uars_per_sys_page(uc) == 1 && PAGE_SIZE > 4096) ?
		  SD_MIN_DYN_BFREGS : SD_MAX_DYN_BFREGS;
	u32 i;
	int err;

	if (req->total_num_bfregs == 0)
		return -EINVAL;
	if (req->total_num_bfregs > SD_MAX_BFREGS)
		return -ENOMEM;
	req->total_num_bfregs = ALIGN(req->total_num_bfregs, per_page);
	if (req->num_low_latency_bfregs > req->total_num_bfregs - 1)
		return -EINVAL;

	uc->num_static_sys_pages = req->total_num_bfregs / per_page;
	uc->num_dyn_bfregs = ALIGN(dyn, per_page);
	uc->total_num_bfregs = req->total_num_bfregs + uc->num_dyn_bfregs;
	uc->num_sys_pages = uc->total_num_bfregs / per_page;

	uc->count = kcalloc(uc->total_num_bfregs, sizeof(*uc->count), GFP_KERNEL);
	uc->sys_pages = kcalloc(uc->num_sys_pages, sizeof(*uc->sys_pages), GFP_KERNEL);
	uc->sys_page_mem = kcalloc(uc->num_sys_pages, sizeof(*uc->sys_page_mem), GFP_KERNEL);
	if (!uc->count || !uc->sys_pages || !uc->sys_page_mem)
		return -ENOMEM;
	for (i = 0; i < uc->num_sys_pages; i++)
		uc->sys_pages[i] = SD_INVALID_UAR;
	for (i = 0; i < uc->num_static_sys_pages; i++) {
		err = sd_uar_get(dev, &uc->sys_pages[i], &uc->sys_page_mem[i]);
		if (err) {
			uc->sys_pages[i] = SD_INVALID_UAR;
			uc->sys_page_mem[i] = NULL;
			return err;
		}
		err = sd_uar_hold(uc, uc->sys_pages[i], uc->sys_page_mem[i]);
		if (err)
			return err;
	}
	return 0;
}

static int sd_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibuc->device);
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct mlx5_ib_alloc_ucontext_req_v2 req = {};
	struct mlx5_ib_alloc_ucontext_resp resp = {};
	size_t min_req_v2 = offsetof(struct mlx5_ib_alloc_ucontext_req_v2, max_cqe_version);
	int ver, err;

	mutex_init(&uc->lock);
	INIT_LIST_HEAD(&uc->db_pages);
	xa_init(&uc->uars);

	if (udata->inlen == sizeof(struct mlx5_ib_alloc_ucontext_req))
		ver = 0;
	else if (udata->inlen >= min_req_v2)
		ver = 2;
	else
		return -EINVAL;
	err = ib_copy_from_udata(&req, udata, min(udata->inlen, sizeof(req)));
	if (err)
		return err;
	if (req.flags & ~MLX5_IB_ALLOC_UCTX_DEVX)
		return -EOPNOTSUPP;
	if (req.comp_mask || req.reserved0 || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	req.total_num_bfregs = ALIGN(req.total_num_bfregs, SD_NON_FP_BFREGS_PER_UAR);
	if (req.num_low_latency_bfregs > req.total_num_bfregs - 1)
		return -EINVAL;
	if (req.flags & MLX5_IB_ALLOC_UCTX_DEVX)
		return -EINVAL;		/* no user contexts in this firmware */

	uc->lib_uar_4k = req.lib_caps & MLX5_LIB_CAP_4K_UAR;
	uc->lib_uar_dyn = req.lib_caps & MLX5_LIB_CAP_DYN_UAR;
	if (!uc->lib_uar_dyn) {
		err = sd_setup_bfregs(dev, uc, &req);
		if (err)
			goto fail;
	}
	uc->cqe_version = min_t(u8, SD_CQE_VERSION, req.max_cqe_version);

	resp.qp_tab_size = 1 << SD_LOG_MAX_QP;
	resp.bf_reg_size = 1 << SD_LOG_BF_REG_SIZE;	/* write-combining "works" */
	resp.cache_line_size = cache_line_size();
	resp.max_sq_desc_sz = SD_MAX_WQE_SZ_SQ;
	resp.max_rq_desc_sz = SD_MAX_WQE_SZ_RQ;
	resp.max_send_wqebb = 1 << SD_LOG_MAX_QP_SZ;
	resp.max_recv_wr = 1 << SD_LOG_MAX_QP_SZ;
	resp.max_srq_recv_wr = 1 << SD_LOG_MAX_SRQ_SZ;
	resp.cqe_version = uc->cqe_version;
	resp.log_uar_size = ilog2(SD_ADAPTER_PAGE);
	resp.num_uars_per_page = SD_UARS_IN_PAGE;
	resp.tot_bfregs = uc->lib_uar_dyn ? 0 : uc->total_num_bfregs - uc->num_dyn_bfregs;
	resp.num_ports = 1;
	resp.cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE |
			     MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	/* the port's minimum inline mode, "none", off by one as mlx5 sends it */
	resp.eth_min_inline = MLX5_USER_INLINE_MODE_NONE;
	resp.num_dyn_bfregs = uc->num_dyn_bfregs;
	resp.comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_MKEY_UPDATE_TAG;
	resp.response_length = min(udata->outlen, sizeof(resp));
	err = ib_copy_to_udata(udata, &resp, resp.response_length);
	if (err)
		goto fail;

	uc->ver = ver;
	uc->num_low_latency_bfregs = req.num_low_latency_bfregs;
	uc->lib_caps = req.lib_caps;
	return 0;

fail:
	sd_free_uars(dev, uc);
	xa_destroy(&uc->uars);
	return err;
}

static void sd_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct sd_db_page *p, *tmp;

	sd_free_uars(to_sddev(ibuc->device), uc);
	list_for_each_entry_safe(p, tmp, &uc->db_pages, list) {	/* none, normally */
		list_del(&p->list);
		mmdrop(p->mm);
		vunmap(p->kva);
		ib_umem_release(p->umem);
		kfree(p);
	}
	xa_destroy(&uc->uars);
}

/* ---- mmap ---------------------------------------------------------------- */

static unsigned long sd_index(unsigned long pgoff)
{
	return pgoff & ((1UL << SD_MMAP_CMD_SHIFT) - 1);
}

/* a dynamic page's index: one more byte in bits 16-23 */
static unsigned long sd_ext_index(unsigned long pgoff)
{
	return sd_index(pgoff) | ((pgoff >> 16) & 0xff) << 8;
}

static int sd_map_page(struct vm_area_struct *vma, struct page *page, size_t size)
{
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != size)
		return -EINVAL;
	return sd_vm_insert_page(vma, page);
}

static int sd_uar_mmap(struct sd_dev *dev, struct sd_ucontext *uc, unsigned int cmd,
		       struct vm_area_struct *vma)
{
	bool dyn = cmd == MLX5_IB_MMAP_ALLOC_WC;
	u32 max_valid = dyn ? uc->num_sys_pages : uc->num_static_sys_pages;
	unsigned long idx;
	struct page *page;
	u32 uar, bfreg = 0;
	int err;

	if (uc->lib_uar_dyn)
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	idx = dyn ? sd_ext_index(vma->vm_pgoff) + uc->num_static_sys_pages :
		    sd_index(vma->vm_pgoff);
	if (idx >= max_valid)
		return -EINVAL;
	if (!dyn)
		return sd_map_page(vma, uc->sys_page_mem[idx], PAGE_SIZE);

	/* A dynamic page is mapped once; the count of its first bfreg says
	 * it is taken. */
	bfreg = idx * sd_uars_per_sys_page(uc) * SD_NON_FP_BFREGS_PER_UAR;
	if (bfreg >= uc->total_num_bfregs)
		return -EINVAL;
	mutex_lock(&uc->lock);
	if (uc->count[bfreg]) {
		mutex_unlock(&uc->lock);
		return -EINVAL;
	}
	uc->count[bfreg]++;
	mutex_unlock(&uc->lock);

	err = sd_uar_get(dev, &uar, &page);
	if (err)
		goto undo_count;
	err = sd_uar_hold(uc, uar, page);
	if (!err) {
		err = sd_map_page(vma, page, PAGE_SIZE);
		if (err)
			xa_erase(&uc->uars, uar);
	}
	if (err) {
		sd_uar_put(dev, uar, page);
		goto undo_count;
	}
	mutex_lock(&uc->lock);
	uc->sys_pages[idx] = uar;
	uc->sys_page_mem[idx] = page;
	mutex_unlock(&uc->lock);
	return 0;

undo_count:
	mutex_lock(&uc->lock);
	uc->count[bfreg]--;
	mutex_unlock(&uc->lock);
	return err;
}

static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct sd_dev *dev = to_sddev(ibuc->device);
	struct sd_ucontext *uc = to_sduc(ibuc);
	unsigned int cmd = (vma->vm_pgoff >> SD_MMAP_CMD_SHIFT) & SD_MMAP_CMD_MASK;
	struct rdma_user_mmap_entry *entry;
	int err;

	switch (cmd) {
	case MLX5_IB_MMAP_WC_PAGE:
	case MLX5_IB_MMAP_ALLOC_WC:
	case MLX5_IB_MMAP_NC_PAGE:
	case MLX5_IB_MMAP_REGULAR_PAGE:
		return sd_uar_mmap(dev, uc, cmd, vma);
	case MLX5_IB_MMAP_GET_CONTIGUOUS_PAGES:
		return -ENOSYS;
	case MLX5_IB_MMAP_CORE_CLOCK:
		if (vma->vm_end - vma->vm_start != PAGE_SIZE)
			return -EINVAL;
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		return -EOPNOTSUPP;	/* no clock */
	case MLX5_IB_MMAP_CLOCK_INFO:
		if (vma->vm_end - vma->vm_start != PAGE_SIZE || !(vma->vm_flags & VM_SHARED))
			return -EINVAL;
		if (sd_index(vma->vm_pgoff) != MLX5_IB_CLOCK_INFO_V1)
			return -EOPNOTSUPP;
		if (vma->vm_flags & (VM_WRITE | VM_EXEC))
			return -EPERM;
		return -EOPNOTSUPP;	/* no clock */
	default:
		break;
	}
	/* an offset a UAR object handed out */
	entry = rdma_user_mmap_entry_get_pgoff(ibuc, ((unsigned long)cmd << 16) |
						     sd_ext_index(vma->vm_pgoff));
	if (!entry)
		return -EINVAL;
	err = sd_map_page(vma, to_sdentry(entry)->page, entry->npages * PAGE_SIZE);
	rdma_user_mmap_entry_put(entry);
	return err;
}

static void sd_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct sd_uar_entry *ue = to_sdentry(entry);

	sd_uar_put(ue->dev, ue->uar_index, ue->page);
	kfree(ue);
}

/* The offset the library passes to mmap() for an entry: the command in
 * bits 8-15, the index in bits 0-7 and 16-23, in pages. */
static u64 sd_entry_offset(const struct sd_uar_entry *ue)
{
	u64 cmd = (ue->rdma_entry.start_pgoff >> 16) & 0xffff;
	u64 index = ue->rdma_entry.start_pgoff & 0xffff;

	return (((index >> 8) << 16) | (cmd << SD_MMAP_CMD_SHIFT) | (index & 0xff)) << PAGE_SHIFT;
}

/* ---- the UAR object (MLX5_IB_OBJECT_UAR) --------------------------------- */

static int sd_uar_obj_cleanup(struct ib_uobject *uobject, enum rdma_remove_reason why,
			      struct uverbs_attr_bundle *attrs)
{
	struct sd_uar_entry *ue = uobject->object;

	xa_erase(&to_sduc(ue->rdma_entry.ucontext)->uars, ue->uar_index);
	rdma_user_mmap_entry_remove(&ue->rdma_entry);
	return 0;
}

static int UVERBS_HANDLER(MLX5_IB_METHOD_UAR_OBJ_ALLOC)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);
	enum mlx5_ib_uapi_uar_alloc_type type;
	struct sd_uar_entry *ue;
	struct sd_ucontext *uc;
	u64 offset;
	u32 length;
	int err;

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	uc = to_sduc(ibuc);
	err = uverbs_get_const(&type, attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE);
	if (err)
		return err;
	if (type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF && type != MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
		return -EOPNOTSUPP;

	ue = kzalloc(sizeof(*ue), GFP_KERNEL);
	if (!ue)
		return -ENOMEM;
	ue->dev = to_sddev(ibuc->device);
	ue->nc = type == MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC;
	err = sd_uar_get(ue->dev, &ue->uar_index, &ue->page);
	if (err) {
		kfree(ue);
		return err;
	}
	err = rdma_user_mmap_entry_insert_range(ibuc, &ue->rdma_entry, PAGE_SIZE,
						SD_MMAP_ENTRY_FIRST_CMD << 16,
						(SD_MMAP_ENTRY_LAST_CMD << 16) + 0xffff);
	if (err) {
		sd_uar_put(ue->dev, ue->uar_index, ue->page);
		kfree(ue);
		return err;
	}
	err = sd_uar_hold(uc, ue->uar_index, ue->page);
	if (err) {
		rdma_user_mmap_entry_remove(&ue->rdma_entry);	/* frees ue */
		return err;
	}
	offset = sd_entry_offset(ue);
	length = ue->rdma_entry.npages * PAGE_SIZE;
	uobj->object = ue;
	uverbs_finalize_uobj_create(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);

	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &offset, sizeof(offset));
	if (err)
		return err;
	err = uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &ue->uar_index,
			     sizeof(ue->uar_index));
	if (err)
		return err;
	return uverbs_copy_to(attrs, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &length, sizeof(length));
}

DECLARE_UVERBS_NAMED_METHOD(
	MLX5_IB_METHOD_UAR_OBJ_ALLOC,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, MLX5_IB_OBJECT_UAR,
			UVERBS_ACCESS_NEW, UA_MANDATORY),
	UVERBS_ATTR_CONST_IN(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE,
			     enum mlx5_ib_uapi_uar_alloc_type, UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH,
			    UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
	UVERBS_ATTR_PTR_OUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET,
			    UVERBS_ATTR_TYPE(u64), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(
	MLX5_IB_METHOD_UAR_OBJ_DESTROY,
	UVERBS_ATTR_IDR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, MLX5_IB_OBJECT_UAR,
			UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(MLX5_IB_OBJECT_UAR,
			    UVERBS_TYPE_ALLOC_IDR(sd_uar_obj_cleanup),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_ALLOC),
			    &UVERBS_METHOD(MLX5_IB_METHOD_UAR_OBJ_DESTROY));

#if SD_V612
/* 6.12: CQ creation takes the UAR page index as an optional attribute. */
ADD_UVERBS_ATTRIBUTES_SIMPLE(sd_cq_create, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
			     UVERBS_ATTR_PTR_IN(MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX,
						UVERBS_ATTR_TYPE(u32), UA_OPTIONAL));
#endif

static const struct uapi_definition sd_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(MLX5_IB_OBJECT_UAR),
#if SD_V612
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_CQ, &sd_cq_create),
#endif
	{}
};

/* ---- PD ------------------------------------------------------------------ */

static int sd_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibpd->device);
	struct sd_pd *pd = to_sdpd(ibpd);
	struct mlx5_ib_alloc_pd_resp resp;
	int id = sd_id_alloc(&dev->pdn_ida, 1, (1 << SD_LOG_MAX_PD) - 1);

	if (id < 0)
		return id;
	pd->pdn = id;
	if (udata) {
		resp.pdn = pd->pdn;
		if (ib_copy_to_udata(udata, &resp, sizeof(resp))) {
			ida_free(&dev->pdn_ida, id);
			return -EFAULT;
		}
	}
	return 0;
}

static int sd_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ida_free(&to_sddev(ibpd->device)->pdn_ida, to_sdpd(ibpd)->pdn);
	return 0;
}

/* ---- CQ ------------------------------------------------------------------ */

#if SD_V612
static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct uverbs_attr_bundle *attrs)
{
	/* the kernel's CQs come without a bundle (mlx5_gsi.c) */
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
#else
static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct ib_udata *udata)
{
#endif
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);
	struct mlx5_ib_create_cq ucmd = {};
	struct sd_ucontext *uc;
	int entries = attr->cqe;
	size_t ucmdlen;
	u32 index;
	int id, err;

	if (!udata)
		return sd_kcq_create(ibcq, attr);	/* the kernel's (mlx5_gsi.c) */
	uc = udata_uc(udata);
	if (entries < 0 || entries > (1 << SD_LOG_MAX_CQ_SZ))
		return -EINVAL;
	if (attr->flags & ~(IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN |
			    IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION))
		return -EOPNOTSUPP;
	entries = roundup_pow_of_two(entries + 1);
	if (entries > (1 << SD_LOG_MAX_CQ_SZ))
		return -EINVAL;
	cq->ibcq.cqe = entries - 1;
	cq->ignore_overrun = attr->flags & IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN;
	mutex_init(&cq->resize_lock);

	ucmdlen = min(udata->inlen, sizeof(ucmd));
	if (ucmdlen < offsetof(struct mlx5_ib_create_cq, flags))
		return -EINVAL;
	if (ib_copy_from_udata(&ucmd, udata, ucmdlen))
		return -EFAULT;
	if (ucmd.flags & ~(MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD |
			   MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX |
			   MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS))
		return -EINVAL;
	if ((ucmd.cqe_size != 64 && ucmd.cqe_size != 128) || ucmd.reserved0 || ucmd.reserved1)
		return -EINVAL;
	cq->cqe_size = ucmd.cqe_size;

	cq->umem = ib_umem_get(&dev->ibdev, ucmd.buf_addr, entries * ucmd.cqe_size,
			       IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(cq->umem))
		return PTR_ERR(cq->umem);
	if (ucmd.buf_addr & ~PAGE_MASK) {
		err = -EINVAL;
		goto err_umem;
	}
	cq->vbuf = sd_umem_vmap(cq->umem);
	if (!cq->vbuf) {
		err = -ENOMEM;
		goto err_umem;
	}
	cq->buf = cq->vbuf + ib_umem_offset(cq->umem);
	err = sd_db_map(uc, ucmd.db_addr, &cq->db);
	if (err)
		goto err_umem;
	cq->dbrec = sd_db_rec(cq->db, ucmd.db_addr);

#if SD_V612
	/* 6.12: the UAR may come as an attribute of the ioctl, first. */
	if (uverbs_attr_is_valid(attrs, MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX)) {
		err = uverbs_copy_from(&index, attrs, MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX);
		if (err)
			goto err_db;
	} else
#endif
	if (ucmd.flags & MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX) {
		index = ucmd.uar_page_index;
	} else if (uc->lib_uar_dyn) {
		err = -EINVAL;
		goto err_db;
	} else {
		index = uc->sys_pages[0];
	}
	if (ucmd.cqe_comp_en == 1) {	/* no CQE compression */
		err = -EOPNOTSUPP;
		goto err_db;
	}
	if (ucmd.flags & MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD) {	/* no padding */
		err = -EOPNOTSUPP;
		goto err_db;
	}
	cq->real_time_ts = ucmd.flags & MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS;

	/* the firmware's part */
	if (!sd_uar_held(uc, index)) {
		err = -EINVAL;
		goto err_db;
	}
	cq->uar_index = index;
	id = sd_id_alloc(&dev->cqn_ida, 1, (1 << SD_LOG_MAX_CQ) - 1);
	if (id < 0) {
		err = id;
		goto err_db;
	}
	cq->cqn = id;
	if (ib_copy_to_udata(udata, &cq->cqn, sizeof(u32))) {
		err = -EFAULT;
		goto err_cqn;
	}
	/* the engine: the arm doorbell's page (held while the CQ lives),
	 * no request taken yet, the record as the library initialised it */
	cq->uar_page = xa_load(&uc->uars, index);
	get_page(cq->uar_page);
	cq->arm_req_last = U32_MAX;
	cq->arm_db_last = be32_to_cpu(READ_ONCE(cq->dbrec[1]));
	mutex_lock(dev->eng_lock);
	err = xa_insert(&dev->cqs, cq->cqn, cq, GFP_KERNEL);
	mutex_unlock(dev->eng_lock);
	if (err) {
		put_page(cq->uar_page);
		goto err_cqn;
	}
	return 0;

err_cqn:
	ida_free(&dev->cqn_ida, cq->cqn);
err_db:
	sd_db_unmap(uc, cq->db);
err_umem:
	if (cq->vbuf)
		vunmap(cq->vbuf);
	ib_umem_release(cq->umem);
	return err;
}

static int sd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);

	if (cq->k) {		/* the kernel's (mlx5_gsi.c) */
		sd_kcq_destroy(ibcq);
		return 0;
	}
	/* out of the engine's reach: no CQE and no event after this */
	mutex_lock(dev->eng_lock);
	xa_erase(&dev->cqs, cq->cqn);
	mutex_unlock(dev->eng_lock);
	put_page(cq->uar_page);
	sd_db_unmap(udata_uc(udata), cq->db);
	vunmap(cq->vbuf);
	ib_umem_release(cq->umem);
	ida_free(&to_sddev(ibcq->device)->cqn_ida, cq->cqn);
	return 0;
}

/* What the HCA does on a resize: a CQE of opcode "resize" at its producer
 * index in the old buffer, owned by software, where the library looks for
 * it before it moves to the new buffer. Only its last byte (opcode and
 * owner bit) is written. */
enum { SD_CQE_OPCODE_RESIZE = 5 };

static void sd_write_resize_cqe(struct sd_cq *cq)
{
	u32 nent = cq->ibcq.cqe + 1;
	size_t pos = (size_t)(cq->produced & (nent - 1)) * cq->cqe_size + cq->cqe_size - 1;

	WRITE_ONCE(cq->buf[pos], SD_CQE_OPCODE_RESIZE << 4 | !!(cq->produced & nent));
	cq->produced++;
}

static int sd_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);
	void *vbuf;
	struct mlx5_ib_resize_cq ucmd = {};
	struct ib_umem *umem;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	if (entries < 1 || entries > (1 << SD_LOG_MAX_CQ_SZ))
		return -EINVAL;
	entries = roundup_pow_of_two(entries + 1);
	if (entries > (1 << SD_LOG_MAX_CQ_SZ) + 1)
		return -EINVAL;
	if (entries == ibcq->cqe + 1)
		return 0;

	mutex_lock(&cq->resize_lock);
	/* mlx5_ib reads the whole struct, whatever the caller's length */
	err = ib_copy_from_udata(&ucmd, udata, sizeof(ucmd));
	if (err)
		goto out;
	if (ucmd.reserved0 || ucmd.reserved1) {
		err = -EINVAL;
		goto out;
	}
	if (ucmd.cqe_size && SIZE_MAX / ucmd.cqe_size <= entries - 1) {
		err = -EINVAL;
		goto out;
	}
	umem = ib_umem_get(ibcq->device, ucmd.buf_addr, (size_t)ucmd.cqe_size * entries,
			   IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto out;
	}
	if (ucmd.buf_addr & ~PAGE_MASK) {
		ib_umem_release(umem);
		err = -EINVAL;
		goto out;
	}
	vbuf = sd_umem_vmap(umem);
	if (!vbuf) {
		ib_umem_release(umem);
		err = -ENOMEM;
		goto out;
	}
	/* the engine writes the next CQE in the new buffer, at the same
	 * producer index */
	mutex_lock(dev->eng_lock);
	sd_write_resize_cqe(cq);
	swap(cq->umem, umem);
	swap(cq->vbuf, vbuf);
	cq->buf = cq->vbuf + ib_umem_offset(cq->umem);
	cq->cqe_size = ucmd.cqe_size;
	cq->ibcq.cqe = entries - 1;
	cq->overrun = false;
	mutex_unlock(dev->eng_lock);
	vunmap(vbuf);
	ib_umem_release(umem);
out:
	mutex_unlock(&cq->resize_lock);
	return err;
}

/* ---- SRQ ----------------------------------------------------------------- */

/* mlx5_ib's get_{qp,srq}_user_index: a user index is what cqe version 1
 * carries; with version 0 only the "none" value may be there. */
static int sd_user_index(struct sd_ucontext *uc, bool present, u32 uidx, u32 *out)
{
	if (present && !uc->cqe_version && uidx == SD_DEFAULT_UIDX)
		return 0;
	if (present != !!uc->cqe_version)
		return -EINVAL;
	if (uc->cqe_version) {
		if (uidx == SD_DEFAULT_UIDX || (uidx & ~SD_UIDX_MASK))
			return -EINVAL;
		*out = uidx;
	} else {
		*out = SD_DEFAULT_UIDX;
	}
	return 0;
}

static int sd_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			 struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibsrq->device);
	struct sd_srq *srq = to_sdsrq(ibsrq);
	struct mlx5_ib_create_srq ucmd = {};
	struct mlx5_ib_create_srq_resp resp = {};
	u32 max_wqes = 1 << SD_LOG_MAX_SRQ_SZ;
	u32 max_sge = SD_MAX_WQE_SZ_RQ / SD_DATA_SEG;
	struct sd_ucontext *uc;
	size_t desc, buf_size;
	int id, err;

	if (!udata)
		return -EOPNOTSUPP;
	uc = udata_uc(udata);
	if (init->srq_type != IB_SRQT_BASIC && init->srq_type != IB_SRQT_XRC &&
	    init->srq_type != IB_SRQT_TM)
		return -EOPNOTSUPP;
	if (init->attr.max_wr >= max_wqes || init->attr.max_sge > max_sge)
		return -EINVAL;
	srq->max = roundup_pow_of_two(init->attr.max_wr + 1);
	srq->max_gs = init->attr.max_sge;
	desc = SD_SRQ_NEXT_SEG + (size_t)srq->max_gs * SD_DATA_SEG;
	desc = max_t(size_t, 32, roundup_pow_of_two(desc));
	srq->wqe_shift = ilog2(desc);
	buf_size = srq->max * desc;
	if (buf_size < desc)
		return -EINVAL;

	if (ib_copy_from_udata(&ucmd, udata, min(udata->inlen, sizeof(ucmd))))
		return -EFAULT;
	if (ucmd.reserved0 || ucmd.reserved1)
		return -EINVAL;
	if (udata->inlen > sizeof(ucmd) &&
	    !ib_is_udata_cleared(udata, sizeof(ucmd), udata->inlen - sizeof(ucmd)))
		return -EINVAL;
	srq->uidx = SD_DEFAULT_UIDX;
	if (init->srq_type != IB_SRQT_BASIC) {
		err = sd_user_index(uc, offsetofend(typeof(ucmd), uidx) <= udata->inlen,
				    ucmd.uidx, &srq->uidx);
		if (err)
			return err;
	}
	srq->wq_sig = ucmd.flags & MLX5_SRQ_FLAG_SIGNATURE;

	srq->umem = ib_umem_get(ibsrq->device, ucmd.buf_addr, buf_size, 0);
	if (IS_ERR(srq->umem))
		return PTR_ERR(srq->umem);
	srq->vbuf = sd_umem_vmap(srq->umem);
	if (!srq->vbuf) {
		err = -ENOMEM;
		goto err_umem;
	}
	srq->buf = srq->vbuf + ib_umem_offset(srq->umem);
	err = sd_db_map(uc, ucmd.db_addr, &srq->db);
	if (err)
		goto err_umem;
	srq->dbrec = sd_db_rec(srq->db, ucmd.db_addr);
	if (init->srq_type == IB_SRQT_TM) {	/* no tag matching list */
		err = -EINVAL;
		goto err_db;
	}
	if (ucmd.buf_addr & (SD_SEND_WQE_BB - 1)) {	/* 64-byte page offsets */
		err = -EINVAL;
		goto err_db;
	}
	id = sd_id_alloc(&dev->srqn_ida, 1, (1 << SD_LOG_MAX_SRQ) - 1);
	if (id < 0) {
		err = id;
		goto err_db;
	}
	srq->srqn = id;
	resp.srqn = srq->srqn;
	if (ib_copy_to_udata(udata, &resp, min(udata->outlen, sizeof(resp)))) {
		err = -EFAULT;
		goto err_srqn;
	}
	init->attr.max_wr = srq->max - 1;
	return 0;

err_srqn:
	ida_free(&dev->srqn_ida, srq->srqn);
err_db:
	sd_db_unmap(uc, srq->db);
err_umem:
	if (srq->vbuf)
		vunmap(srq->vbuf);
	ib_umem_release(srq->umem);
	return err;
}

static int sd_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			 enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibsrq->device);
	struct sd_srq *srq = to_sdsrq(ibsrq);

	if (mask & IB_SRQ_MAX_WR)	/* mlx5_ib does not resize SRQs */
		return -EINVAL;
	if (mask & IB_SRQ_LIMIT) {
		if (attr->srq_limit >= srq->max)
			return -EINVAL;
		mutex_lock(dev->eng_lock);	/* the engine disarms it */
		srq->limit = attr->srq_limit;
		mutex_unlock(dev->eng_lock);
	}
	return 0;
}

static int sd_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	mutex_lock(to_sddev(ibsrq->device)->eng_lock);
	attr->srq_limit = srq->limit;
	mutex_unlock(to_sddev(ibsrq->device)->eng_lock);
	attr->max_wr = srq->max - 1;
	attr->max_sge = srq->max_gs;
	return 0;
}

static int sd_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	sd_db_unmap(udata_uc(udata), srq->db);
	vunmap(srq->vbuf);	/* its QPs, the engine's way to it, are gone */
	ib_umem_release(srq->umem);
	ida_free(&to_sddev(ibsrq->device)->srqn_ida, srq->srqn);
	return 0;
}

/* ---- QP ------------------------------------------------------------------ */

static u32 sd_max_bfregs(struct sd_ucontext *uc)
{
	return sd_uars_per_sys_page(uc) * uc->num_static_sys_pages * SD_NON_FP_BFREGS_PER_UAR;
}

/* mlx5_ib's classes of static bfregs: 0 shared without a lock, then the
 * medium ones (shared, least used first), then the low-latency ones (one
 * QP each) at the top. */
static int sd_alloc_bfreg(struct sd_ucontext *uc)
{
	int max = sd_max_bfregs(uc);
	int med = max - (int)uc->num_low_latency_bfregs - 1;
	int first_hi, i, n = -ENOMEM;

	if (uc->lib_uar_dyn)
		return -EINVAL;
	if (med < 0)
		med = 0;
	first_hi = med + 1;
	mutex_lock(&uc->lock);
	if (uc->ver >= 2) {
		for (i = first_hi; i < max; i++)
			if (!uc->count[i]) {
				n = i;
				break;
			}
		if (n < 0 && med) {
			n = 1;
			for (i = 1; i < first_hi; i++) {
				if (uc->count[i] < uc->count[n])
					n = i;
				if (!uc->count[n])
					break;
			}
		}
	}
	if (n < 0)
		n = 0;
	uc->count[n]++;
	mutex_unlock(&uc->lock);
	return n;
}

static void sd_free_bfreg(struct sd_ucontext *uc, u32 n)
{
	mutex_lock(&uc->lock);
	uc->count[n]--;
	mutex_unlock(&uc->lock);
}

static int sd_bfregn_to_uar(struct sd_ucontext *uc, u32 n, bool dyn, u32 *uar)
{
	u32 per_page = sd_uars_per_sys_page(uc) * SD_NON_FP_BFREGS_PER_UAR;
	u32 page = n / per_page;
	int err = 0;

	if (uc->lib_uar_dyn)
		return -EINVAL;
	mutex_lock(&uc->lock);
	if (dyn) {
		page += uc->num_static_sys_pages;
		if (page >= uc->num_sys_pages || n > uc->num_dyn_bfregs ||
		    uc->sys_pages[page] == SD_INVALID_UAR) {
			err = -EINVAL;
			goto out;
		}
	}
	*uar = uc->sys_pages[page] + n % per_page / SD_NON_FP_BFREGS_PER_UAR;
out:
	mutex_unlock(&uc->lock);
	return err;
}

/* what a bfreg number is to the library: four per UAR, two of them used */
static u32 sd_adjust_bfregn(u32 n)
{
	return n / SD_NON_FP_BFREGS_PER_UAR * SD_BFREGS_PER_UAR + n % SD_NON_FP_BFREGS_PER_UAR;
}

/* A CQ's CQE size as mlx5_ib reads it for the QP context: 128 when the QP
 * has no such CQ. */
static int sd_qp_cqe_size(struct ib_cq *cq)
{
	return cq ? to_sdcq(cq)->cqe_size : 128;
}

/*
 * Scatter to CQE, decided once at create as mlx5_ib's create_user_qp does
 * (6.1 and 6.12 alike): only with MLX5_QP_FLAG_SCATTER_CQE taken (the
 * module parameter scatter_cqe). The responder side (cs_res) for RC and
 * UC, SRQ or not: 64 bytes when the receive CQ has 128-byte CQEs, else 32.
 * The requester side (cs_req, configure_requester_scat_cqe) for RC alone,
 * and only when the QP signals every WR or the caller also gave
 * MLX5_QP_FLAG_ALLOW_SCATTER_CQE (a promise to signal the WRs whose data
 * is to come in the CQE): 64 bytes with a send CQ of 128-byte CQEs, else
 * 32. UD never: mlx5_ib sets neither for it. The engine acts on these.
 */
static void sd_scatter_decide(struct sd_qp *qp, const struct ib_qp_init_attr *attr)
{
	qp->scat_res = 0;
	qp->scat_req = 0;
	if (!(qp->flags_en & MLX5_QP_FLAG_SCATTER_CQE))
		return;
	if (attr->qp_type == IB_QPT_RC || attr->qp_type == IB_QPT_UC)
		qp->scat_res = sd_qp_cqe_size(attr->recv_cq) == 128 ? 64 : 32;
	if (attr->qp_type == IB_QPT_RC &&
	    ((qp->flags_en & MLX5_QP_FLAG_ALLOW_SCATTER_CQE) ||
	     attr->sq_sig_type == IB_SIGNAL_ALL_WR))
		qp->scat_req = sd_qp_cqe_size(attr->send_cq) == 128 ? 64 : 32;
}

static int sd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct mlx5_ib_create_qp ucmd = {};
	struct mlx5_ib_create_qp_resp resp = {};
	size_t min_inlen = offsetof(struct mlx5_ib_create_qp, ece_options);
	size_t last = offsetof(struct mlx5_ib_create_qp, reserved);
	size_t inlen, outlen;
	int rq_size, sq_size, buf_size, sq_offset, wqe_size;
	struct sd_ucontext *uc;
	u32 flags, wq_sig;
	int id, n, err;

	if (!udata)
		return sd_gsi_create(ibqp, attr);	/* QP1 alone (mlx5_gsi.c) */
	switch (attr->qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	default:		/* this HCA: no XRC, DC, raw packet */
		return -EOPNOTSUPP;
	}
	if (attr->rwq_ind_tbl)
		return -EINVAL;
	uc = udata_uc(udata);

	outlen = min(udata->outlen, sizeof(resp));
	inlen = udata->inlen < min_inlen ? 0 : min(udata->inlen, sizeof(ucmd));
	if (!inlen)
		return -EINVAL;
	if (udata->inlen > last && !ib_is_udata_cleared(udata, last, udata->inlen - last))
		return -EINVAL;
	if (ib_copy_from_udata(&ucmd, udata, inlen))
		return -EFAULT;

	/* the vendor flags */
	flags = ucmd.flags;
	if (flags & (MLX5_QP_FLAG_TYPE_DCI | MLX5_QP_FLAG_TYPE_DCT))
		return -EINVAL;		/* no DC */
	qp->flags_en = flags & (MLX5_QP_FLAG_SIGNATURE | MLX5_QP_FLAG_BFREG_INDEX |
				MLX5_QP_FLAG_UAR_PAGE_INDEX);
	if (scatter_cqe)	/* taken with the capability, else dropped: never refused */
		qp->flags_en |= flags & (MLX5_QP_FLAG_SCATTER_CQE | MLX5_QP_FLAG_ALLOW_SCATTER_CQE);
	flags &= ~(qp->flags_en | MLX5_QP_FLAG_SCATTER_CQE | MLX5_QP_FLAG_ALLOW_SCATTER_CQE);
	if (flags)
		return -EINVAL;
	/* mlx5_ib judges the user index on the whole struct's length */
	err = sd_user_index(uc, true, ucmd.uidx, &qp->uidx);
	if (err)
		return err;
	if (attr->create_flags)
		return -EOPNOTSUPP;	/* none of them is in this HCA */

	/* the receive queue is the library's to size */
	wq_sig = !!(qp->flags_en & MLX5_QP_FLAG_SIGNATURE);
	qp->has_rq = !attr->srq && attr->cap.max_recv_wr;
	if (attr->cap.max_recv_wr > (1 << SD_LOG_MAX_QP_SZ))
		return -EINVAL;
	if (!qp->has_rq) {
		qp->rq_wqe_cnt = 0;
		qp->rq_wqe_shift = 0;
		qp->rq_max_gs = 0;
		attr->cap.max_recv_wr = 0;
		attr->cap.max_recv_sge = 0;
	} else {
		qp->rq_wqe_cnt = ucmd.rq_wqe_count;
		qp->rq_wqe_shift = ucmd.rq_wqe_shift;
		if (check_shl_overflow(1, qp->rq_wqe_shift, &wqe_size))
			return -EINVAL;
		if (wqe_size / SD_DATA_SEG < wq_sig)
			return -EINVAL;
		qp->rq_max_gs = wqe_size / SD_DATA_SEG - wq_sig;
	}
	if (ucmd.rq_wqe_shift != qp->rq_wqe_shift || ucmd.rq_wqe_count != qp->rq_wqe_cnt)
		return -EINVAL;
	if (ucmd.sq_wqe_count > (1 << SD_LOG_MAX_QP_SZ))
		return -EINVAL;
	/* timestamps: free-running only, no real time */
	if ((attr->send_cq && to_sdcq(attr->send_cq)->real_time_ts) ||
	    (attr->recv_cq && to_sdcq(attr->recv_cq)->real_time_ts))
		return -EOPNOTSUPP;

	/* the UAR the QP rings */
	qp->bfregn = SD_INVALID_BFREG;
	switch (qp->flags_en & (MLX5_QP_FLAG_UAR_PAGE_INDEX | MLX5_QP_FLAG_BFREG_INDEX)) {
	case MLX5_QP_FLAG_UAR_PAGE_INDEX:
		qp->uar_index = ucmd.bfreg_index;
		break;
	case MLX5_QP_FLAG_BFREG_INDEX:
		err = sd_bfregn_to_uar(uc, ucmd.bfreg_index, true, &qp->uar_index);
		if (err)
			return err;
		break;
	case 0:
		n = sd_alloc_bfreg(uc);
		if (n < 0)
			return n;
		qp->bfregn = n;
		err = sd_bfregn_to_uar(uc, n, false, &qp->uar_index);
		if (err)
			goto err_bfreg;
		break;
	default:
		return -EINVAL;
	}

	/* the buffer: the receive queue, then the send queue in 64-byte units */
	if (check_shl_overflow(qp->rq_wqe_cnt, qp->rq_wqe_shift, &sq_offset)) {
		err = -EINVAL;
		goto err_bfreg;
	}
	if (ucmd.sq_wqe_count && !is_power_of_2(ucmd.sq_wqe_count)) {
		err = -EINVAL;
		goto err_bfreg;
	}
	qp->sq_wqe_cnt = ucmd.sq_wqe_count;
	if (check_shl_overflow(qp->rq_wqe_cnt, qp->rq_wqe_shift, &rq_size) ||
	    check_shl_overflow(qp->sq_wqe_cnt, ilog2(SD_SEND_WQE_BB), &sq_size) ||
	    check_add_overflow(rq_size, sq_size, &buf_size)) {
		err = -EINVAL;
		goto err_bfreg;
	}
	qp->umem = NULL;
	if (ucmd.buf_addr && buf_size) {
		qp->umem = ib_umem_get(ibqp->device, ucmd.buf_addr, buf_size, 0);
		if (IS_ERR(qp->umem)) {
			err = PTR_ERR(qp->umem);
			qp->umem = NULL;
			goto err_bfreg;
		}
		if (ucmd.buf_addr & (SD_SEND_WQE_BB - 1)) {	/* 64-byte page offsets */
			err = -EINVAL;
			goto err_umem;
		}
		qp->vbuf = sd_umem_vmap(qp->umem);
		if (!qp->vbuf) {
			err = -ENOMEM;
			goto err_umem;
		}
		qp->rq = qp->vbuf + ib_umem_offset(qp->umem);
		qp->sq = qp->rq + sq_offset;
	}
	resp.bfreg_index = qp->bfregn != SD_INVALID_BFREG ? sd_adjust_bfregn(qp->bfregn) :
							  SD_INVALID_BFREG;
	err = sd_db_map(uc, ucmd.db_addr, &qp->db);
	if (err)
		goto err_umem;
	qp->dbrec = sd_db_rec(qp->db, ucmd.db_addr);

	/* the firmware's part */
	if (!sd_uar_held(uc, qp->uar_index)) {
		err = -EINVAL;
		goto err_db;
	}
	id = sd_id_alloc(&dev->qpn_ida, 2, (1 << 24) - 1);
	if (id < 0) {
		err = id;
		goto err_db;
	}
	qp->qpn = id;
	qp->ibqp.qp_num = id;
	mutex_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->init_cap = attr->cap;
	qp->sq_sig_type = attr->sq_sig_type;
	sd_scatter_decide(qp, attr);
	qp->cqe_v1 = uc->cqe_version;

	if (ib_copy_to_udata(udata, &resp, outlen)) {
		err = -EFAULT;
		goto err_qpn;
	}
	mutex_lock(dev->eng_lock);
	err = xa_insert(&dev->qps, qp->qpn, qp, GFP_KERNEL);
	mutex_unlock(dev->eng_lock);
	if (err)
		goto err_qpn;
	return 0;

err_qpn:
	ida_free(&dev->qpn_ida, qp->qpn);
err_db:
	sd_db_unmap(uc, qp->db);
err_umem:
	if (qp->vbuf)
		vunmap(qp->vbuf);
	ib_umem_release(qp->umem);
err_bfreg:
	if (qp->bfregn != SD_INVALID_BFREG)
		sd_free_bfreg(uc, qp->bfregn);
	return err;
}

static int sd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct sd_ucontext *uc;

	if (qp->gsi) {		/* QP1 (mlx5_gsi.c) */
		sd_gsi_destroy(ibqp);
		return 0;
	}
	uc = udata_uc(udata);
	/* out of the engine's reach: neither its own WQEs nor a peer's
	 * messages touch it after this */
	mutex_lock(dev->eng_lock);
	xa_erase(&dev->qps, qp->qpn);
	mutex_unlock(dev->eng_lock);
	sd_db_unmap(uc, qp->db);
	if (qp->vbuf)
		vunmap(qp->vbuf);
	ib_umem_release(qp->umem);
	if (qp->bfregn != SD_INVALID_BFREG)
		sd_free_bfreg(uc, qp->bfregn);
	ida_free(&to_sddev(ibqp->device)->qpn_ida, qp->qpn);
	return 0;
}

/* The transitions mlx5's firmware has a command for. */
static bool sd_transition_ok(enum ib_qp_state cur, enum ib_qp_state next)
{
	if (next == IB_QPS_RESET || next == IB_QPS_ERR)
		return true;
	switch (cur) {
	case IB_QPS_RESET:
		return next == IB_QPS_INIT;
	case IB_QPS_INIT:
		return next == IB_QPS_INIT || next == IB_QPS_RTR;
	case IB_QPS_RTR:
	case IB_QPS_RTS:
	case IB_QPS_SQD:
	case IB_QPS_SQE:
		return next == IB_QPS_RTS;
	default:
		return false;
	}
}

/* The static rate's range: 2.5 to 600 Gb/s, or the port's; 6.12 adds
 * 800 Gb/s (taken as the port's). */
static int sd_check_rate(u8 rate)
{
#if SD_V612
	u8 top = IB_RATE_800_GBPS;
#else
	u8 top = IB_RATE_600_GBPS;
#endif

	if (rate == IB_RATE_PORT_CURRENT)
		return 0;
	if (rate < IB_RATE_2_5_GBPS || rate > top)
		return -EINVAL;
	return 0;
}

static int sd_check_path(struct sd_qp *qp, const struct rdma_ah_attr *ah)
{
	u8 rate = rdma_ah_get_static_rate(ah);

	if ((rdma_ah_get_ah_flags(ah) & IB_AH_GRH) &&
	    rdma_ah_read_grh(ah)->sgid_index >= SD_GID_TBL_LEN)
		return -EINVAL;
	if (ah->type == RDMA_AH_ATTR_TYPE_ROCE && !(rdma_ah_get_ah_flags(ah) & IB_AH_GRH))
		return -EINVAL;
	return sd_check_rate(rate);
}

static int sd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct mlx5_ib_modify_qp ucmd = {};
	struct mlx5_ib_modify_qp_resp resp = {};
	enum ib_qp_state cur, next;
	int dest_rd, access = 0, err = -EINVAL;

	if (mask & ~(IB_QP_ATTR_STANDARD_BITS | IB_QP_RATE_LIMIT))
		return -EOPNOTSUPP;
	if (qp->gsi)
		return sd_gsi_modify(ibqp, attr, mask);	/* QP1 (mlx5_gsi.c) */
	if (ibqp->rwq_ind_tbl)
		return -ENOSYS;
	if (udata && udata->inlen) {
		if (udata->inlen < offsetofend(typeof(ucmd), ece_options))
			return -EINVAL;
		if (udata->inlen > sizeof(ucmd) &&
		    !ib_is_udata_cleared(udata, sizeof(ucmd), udata->inlen - sizeof(ucmd)))
			return -EOPNOTSUPP;
		if (ib_copy_from_udata(&ucmd, udata, min(udata->inlen, sizeof(ucmd))))
			return -EFAULT;
		if (ucmd.comp_mask || ucmd.burst_info.reserved)
			return -EOPNOTSUPP;
	}

	mutex_lock(&qp->lock);
	mutex_lock(dev->eng_lock);	/* the engine moves a QP to ERR itself */
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		goto out;
	if ((mask & IB_QP_PORT) && (attr->port_num == 0 || attr->port_num > 1))
		goto out;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= SD_PKEY_TBL_LEN)
		goto out;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > (1 << SD_LOG_MAX_RA_RES))
		goto out;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > (1 << SD_LOG_MAX_RA_REQ))
		goto out;
	if (cur == next && cur == IB_QPS_RESET) {
		err = 0;
		goto out;
	}

	if (ibqp->qp_type != IB_QPT_UD && (mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		goto out;
	if (mask & IB_QP_AV) {
		err = sd_check_path(qp, &attr->ah_attr);
		if (err)
			goto out;
	}
	if (mask & IB_QP_ALT_PATH) {
		err = sd_check_path(qp, &attr->alt_ah_attr);
		if (err)
			goto out;
	}
	if (mask & (IB_QP_ACCESS_FLAGS | IB_QP_MAX_DEST_RD_ATOMIC)) {
		dest_rd = mask & IB_QP_MAX_DEST_RD_ATOMIC ? attr->max_dest_rd_atomic :
							    qp->resp_depth;
		access = mask & IB_QP_ACCESS_FLAGS ? attr->qp_access_flags : qp->atomic_rd_en;
		/* without responder resources only remote write stays; remote
		 * atomic is taken (this HCA has both 8-byte operations in host
		 * byte order) for every QP type mlx5_ib takes it on */
		if (!dest_rd)
			access &= IB_ACCESS_REMOTE_WRITE;
	}
	if (!sd_transition_ok(cur, next)) {
		err = -EINVAL;
		goto out;
	}
	if (udata)
		resp.response_length = sizeof(resp);	/* ece_options 0: no ECE */

	/* applied */
	err = 0;
	sd_engine_qp_state(dev, qp, next);
	if (mask & (IB_QP_ACCESS_FLAGS | IB_QP_MAX_DEST_RD_ATOMIC))
		qp->hw_access = access;		/* what the engine lets peers do */
	if (mask & IB_QP_ACCESS_FLAGS) {
		qp->atomic_rd_en = attr->qp_access_flags;
		qp->attr.qp_access_flags = attr->qp_access_flags;
	}
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC) {
		qp->resp_depth = attr->max_dest_rd_atomic;
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	}
	if (mask & IB_QP_PORT) {
		qp->port = attr->port_num;
		qp->attr.port_num = attr->port_num;
	}
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_AV) {
		sd_keep_ah(&qp->attr.ah_attr, &attr->ah_attr);
		/* RoCE: the message goes where the destination GID is */
		if (rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH)
			qp->dest_dev = sd_route_gid(rdma_ah_read_grh(&attr->ah_attr)->dgid.raw);
	}
	if (mask & IB_QP_ALT_PATH) {
		sd_keep_ah(&qp->attr.alt_ah_attr, &attr->alt_ah_attr);
		qp->attr.alt_port_num = attr->alt_port_num;
		qp->attr.alt_pkey_index = attr->alt_pkey_index;
		qp->attr.alt_timeout = attr->alt_timeout;
	}
	if (mask & IB_QP_PATH_MTU)
		qp->attr.path_mtu = attr->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->attr.retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->attr.rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		qp->attr.rq_psn = attr->rq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_SQ_PSN)
		qp->attr.sq_psn = attr->sq_psn;
	if (mask & IB_QP_PATH_MIG_STATE)
		qp->attr.path_mig_state = attr->path_mig_state;
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qp_num = attr->dest_qp_num;

	if (resp.response_length && udata->outlen >= resp.response_length)
		err = ib_copy_to_udata(udata, &resp, resp.response_length);
out:
	mutex_unlock(dev->eng_lock);
	mutex_unlock(&qp->lock);
	return err;
}

static int sd_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *qa, int mask,
		       struct ib_qp_init_attr *init)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	if (qp->gsi)
		return sd_gsi_query(ibqp, qa, init);	/* QP1 (mlx5_gsi.c) */
	memset(qa, 0, sizeof(*qa));
	memset(init, 0, sizeof(*init));
	mutex_lock(&qp->lock);
	*qa = qp->attr;
	mutex_lock(to_sddev(ibqp->device)->eng_lock);
	qa->qp_state = qp->state;
	mutex_unlock(to_sddev(ibqp->device)->eng_lock);
	qa->cur_qp_state = qa->qp_state;
	mutex_unlock(&qp->lock);
	/* a user QP's send queue is the library's: mlx5_ib reports none */
	qa->cap.max_recv_wr = qp->rq_wqe_cnt;
	qa->cap.max_recv_sge = qp->rq_max_gs;
	qa->cap.max_send_wr = 0;
	qa->cap.max_send_sge = 0;
	qa->cap.max_inline_data = 0;
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->qp_type = ibqp->qp_type;
	init->cap = qa->cap;
	init->sq_sig_type = qp->sq_sig_type;
	return 0;
}

/* ---- MR and AH ----------------------------------------------------------- */

static struct ib_mr *sd_reg_user_mr(struct ib_pd *pd, u64 start, u64 length, u64 iova,
				    int access, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(pd->device);
	struct sd_mr *mr;
	int id, err;

	if (access & IB_ACCESS_ON_DEMAND)
		return ERR_PTR(-EOPNOTSUPP);	/* no ODP */
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		struct ib_umem *umem = mr->umem;

		kfree(mr);
		return ERR_CAST(umem);
	}
	id = sd_id_alloc(&dev->mkey_ida, 1, (1 << SD_LOG_MAX_MKEY) - 1);
	if (id < 0) {
		ib_umem_release(mr->umem);
		kfree(mr);
		return ERR_PTR(id);
	}
	mr->index = id;
	mr->ibmr.lkey = (id << 8) | (atomic_inc_return(&dev->mkey_variant) & 0xff);
	if (mr->ibmr.lkey == SD_INVALID_LKEY)	/* the receive scatter terminator */
		mr->ibmr.lkey |= 1;
	mr->ibmr.rkey = mr->ibmr.lkey;
	/* the engine: bounds and rights of the key */
	mr->pd = pd;
	mr->iova = iova;
	mr->length = length;
	mr->access = access;
	if (length) {
		mr->vbuf = sd_umem_vmap(mr->umem);
		if (!mr->vbuf) {
			err = -ENOMEM;
			goto err_id;
		}
		mr->kva = mr->vbuf + ib_umem_offset(mr->umem);
	}
	mutex_lock(dev->eng_lock);
	err = xa_insert(&dev->mrs, mr->index, mr, GFP_KERNEL);
	mutex_unlock(dev->eng_lock);
	if (err)
		goto err_vmap;
	return &mr->ibmr;

err_vmap:
	if (mr->vbuf)
		vunmap(mr->vbuf);
err_id:
	ida_free(&dev->mkey_ida, id);
	ib_umem_release(mr->umem);
	kfree(mr);
	return ERR_PTR(err);
}

static int sd_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibmr->device);
	struct sd_mr *mr = to_sdmr(ibmr);

	mutex_lock(dev->eng_lock);
	xa_erase(&dev->mrs, mr->index);
	mutex_unlock(dev->eng_lock);
	if (mr->vbuf)
		vunmap(mr->vbuf);
	ib_umem_release(mr->umem);
	ida_free(&to_sddev(ibmr->device)->mkey_ida, mr->index);
	kfree(mr);
	return 0;
}

/*
 * Memory windows, type 1 and 2 (libmlx5 binds them with a UMR WQE, which
 * mlx5_engine.c carries). mlx5_ib_alloc_mw's user-data contract: struct
 * mlx5_ib_alloc_mw in (comp_mask and the reserved fields 0, anything past
 * it cleared), {comp_mask, response_length} out when there is room for it;
 * libmlx5 (rdma-core 44) sends and asks for none. The window's key is an
 * mkey of the MRs' index space, free until a bind.
 */
static int sd_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibmw->device);
	struct sd_mw *mw = to_sdmw(ibmw);
	struct mlx5_ib_alloc_mw req = {};
	struct {
		__u32 comp_mask;
		__u32 response_length;
	} resp = {};
	int id, err;

	err = ib_copy_from_udata(&req, udata, min(udata->inlen, sizeof(req)));
	if (err)
		return err;
	if (req.comp_mask || req.reserved1 || req.reserved2)
		return -EOPNOTSUPP;
	if (udata->inlen > sizeof(req) &&
	    !ib_is_udata_cleared(udata, sizeof(req), udata->inlen - sizeof(req)))
		return -EOPNOTSUPP;
	id = sd_id_alloc(&dev->mkey_ida, 1, (1 << SD_LOG_MAX_MKEY) - 1);
	if (id < 0)
		return id;
	mw->index = id;
	ibmw->rkey = (id << 8) | (atomic_inc_return(&dev->mkey_variant) & 0xff);
	mw->key = ibmw->rkey;
	resp.response_length = min_t(u32, offsetofend(typeof(resp), response_length),
				     udata->outlen);
	if (resp.response_length) {
		err = ib_copy_to_udata(udata, &resp, resp.response_length);
		if (err)
			goto err_id;
	}
	mutex_lock(dev->eng_lock);
	err = xa_insert(&dev->mws, id, mw, GFP_KERNEL);
	mutex_unlock(dev->eng_lock);
	if (err)
		goto err_id;
	return 0;

err_id:
	ida_free(&dev->mkey_ida, id);
	return err;
}

static int sd_dealloc_mw(struct ib_mw *ibmw)
{
	struct sd_dev *dev = to_sddev(ibmw->device);
	struct sd_mw *mw = to_sdmw(ibmw);

	mutex_lock(dev->eng_lock);
	xa_erase(&dev->mws, mw->index);
	mutex_unlock(dev->eng_lock);
	ida_free(&dev->mkey_ida, mw->index);
	return 0;
}

static int sd_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct rdma_ah_attr *a = init->ah_attr;
	struct sd_ah *ah = to_sdah(ibah);

	if (a->type == RDMA_AH_ATTR_TYPE_ROCE && !(rdma_ah_get_ah_flags(a) & IB_AH_GRH))
		return -EINVAL;
	if (a->type == RDMA_AH_ATTR_TYPE_ROCE && udata) {
		struct mlx5_ib_create_ah_resp resp = {};
		u32 min_len = offsetofend(struct mlx5_ib_create_ah_resp, dmac);
		int err;

		if (udata->outlen < min_len)
			return -EINVAL;
		resp.response_length = min_len;
		memcpy(resp.dmac, a->roce.dmac, ETH_ALEN);
		err = ib_copy_to_udata(udata, &resp, resp.response_length);
		if (err)
			return err;
	}
	if (a->type == RDMA_AH_ATTR_TYPE_ROCE)
		memcpy(ah->dmac, a->roce.dmac, ETH_ALEN);
	if (rdma_ah_get_ah_flags(a) & IB_AH_GRH) {
		const struct ib_global_route *grh = rdma_ah_read_grh(a);

		ah->dgid = grh->dgid;
		ah->flow_label = grh->flow_label;
		ah->tclass = grh->traffic_class;
		ah->hop_limit = grh->hop_limit;
	}
	/* 6.12 checks the static rate too, after the response is out. */
	if (SD_V612)
		return sd_check_rate(rdma_ah_get_static_rate(a));
	return 0;
}

static int sd_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

void sd_ah_grh(struct ib_ah *ibah, union ib_gid *dgid, u32 *flow_label, u8 *tclass, u8 *hop_limit)
{
	struct sd_ah *ah = to_sdah(ibah);

	*dgid = ah->dgid;
	*flow_label = ah->flow_label;
	*tclass = ah->tclass;
	*hop_limit = ah->hop_limit;
}

/* ---- registration -------------------------------------------------------- */

static const struct ib_device_ops sd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MLX5,
	.uverbs_abi_ver = MLX5_IB_UVERBS_ABI_VERSION,

	.alloc_pd = sd_alloc_pd,
	.alloc_ucontext = sd_alloc_ucontext,
	.create_ah = sd_create_ah,
	.create_cq = sd_create_cq,
	.create_qp = sd_create_qp,
	.create_srq = sd_create_srq,
	.create_user_ah = sd_create_ah,
	.dealloc_pd = sd_dealloc_pd,
	.dealloc_ucontext = sd_dealloc_ucontext,
	.dereg_mr = sd_dereg_mr,
	.alloc_mw = sd_alloc_mw,
	.dealloc_mw = sd_dealloc_mw,
	.destroy_ah = sd_destroy_ah,
	.destroy_cq = sd_destroy_cq,
	.destroy_qp = sd_destroy_qp,
	.destroy_srq = sd_destroy_srq,
	.get_dev_fw_str = sd_fw_str,
	.get_link_layer = sd_link_layer_ethernet,
	.get_port_immutable = sd_port_immutable,
	.mmap = sd_mmap,
	.mmap_free = sd_mmap_free,
	.modify_qp = sd_modify_qp,
	.modify_srq = sd_modify_srq,
	.query_device = sd_query_device,
	.query_pkey = sd_query_pkey,
	.query_port = sd_query_port,
	.query_qp = sd_query_qp,
	.query_srq = sd_query_srq,
	.reg_user_mr = sd_reg_user_mr,
	.resize_cq = sd_resize_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, sd_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, sd_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, sd_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, sd_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sd_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, sd_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, sd_ucontext, ibuc),
};

/* The parent of each ib_device: what a ConnectX's PCI function shows in
 * sysfs (/sys/class/infiniband/mlx5_N/device/{vendor,device}), where UCX
 * looks to know an mlx5 device. It is no PCI device: nothing binds to it. */
static ssize_t vendor_show(struct device *d, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", SD_PCI_VENDOR);
}
static DEVICE_ATTR_RO(vendor);

static ssize_t device_show(struct device *d, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", SD_PCI_DEVICE);
}
static DEVICE_ATTR_RO(device);

static struct attribute *sd_parent_attrs[] = {
	&dev_attr_vendor.attr,
	&dev_attr_device.attr,
	NULL,
};

static const struct attribute_group sd_parent_group = { .attrs = sd_parent_attrs };

static struct device *sd_parent_add(int n)
{
	char name[32];
	struct device *p;
	int err;

	snprintf(name, sizeof(name), "mlx5_standin.%d", n);
	p = root_device_register(name);
	if (IS_ERR(p))
		return p;
	err = sysfs_create_group(&p->kobj, &sd_parent_group);
	if (err) {
		root_device_unregister(p);
		return ERR_PTR(err);
	}
	return p;
}

static void sd_parent_del(struct device *p)
{
	sysfs_remove_group(&p->kobj, &sd_parent_group);
	root_device_unregister(p);
}

static void sd_destroy_ids(struct sd_dev *dev)
{
	ida_destroy(&dev->pdn_ida);
	ida_destroy(&dev->cqn_ida);
	ida_destroy(&dev->qpn_ida);
	ida_destroy(&dev->srqn_ida);
	ida_destroy(&dev->mkey_ida);
	ida_destroy(&dev->uar_ida);
}

/* One device on the netdev named name, the n-th: registered and published. */
static int sd_add_one(const char *name, int n)
{
	struct net_device *ndev;
	struct device *parent;
	struct sd_dev *dev;
	int err;

	ndev = sd_netdev_by_name(name);
	if (!ndev)
		return -ENODEV;
	parent = sd_parent_add(n);
	if (IS_ERR(parent)) {
		dev_put(ndev);
		return PTR_ERR(parent);
	}
	dev = ib_alloc_device(sd_dev, ibdev);
	if (!dev) {
		dev_put(ndev);
		sd_parent_del(parent);
		return -ENOMEM;
	}
	dev->parent = parent;
	dev->eng_lock = &sd_eng_mutex;
	dev->ifindex = ndev->ifindex;
	ida_init(&dev->pdn_ida);
	ida_init(&dev->cqn_ida);
	ida_init(&dev->qpn_ida);
	ida_init(&dev->srqn_ida);
	ida_init(&dev->mkey_ida);
	ida_init(&dev->uar_ida);
	atomic_set(&dev->mkey_variant, 0);
	err = sd_engine_start(dev);
	if (err)
		goto err_ids;

	sd_ibdev_on_netdev(&dev->ibdev, ndev, &sd_ops);
	ib_set_device_ops(&dev->ibdev, &sd_gsi_ops);	/* the kernel's verbs */
	dev->ibdev.local_dma_lkey = 0;
	dev->ibdev.driver_def = sd_uapi_defs;
	dev->ibdev.dev.parent = parent;

	err = sd_register_on_netdev(&dev->ibdev, ndev, "mlx5_%d");
	if (err)
		goto err_engine;
	mutex_lock(&sd_eng_mutex);
	sd_devs[sd_ndevs++] = dev;
	mutex_unlock(&sd_eng_mutex);
	pr_info("mlx5_standin: %s on %s\n", dev_name(&dev->ibdev.dev), name);
	return 0;

err_engine:
	sd_engine_stop(dev);
	sd_destroy_ids(dev);
	ib_dealloc_device(&dev->ibdev);
	sd_parent_del(parent);
	return err;
err_ids:
	dev_put(ndev);
	sd_destroy_ids(dev);
	ib_dealloc_device(&dev->ibdev);
	sd_parent_del(parent);
	return err;
}

static void sd_remove_all(void)
{
	struct sd_dev *dev;
	int n;

	/* unpublished first: no route leads to a device going away */
	mutex_lock(&sd_eng_mutex);
	n = sd_ndevs;
	sd_ndevs = 0;
	mutex_unlock(&sd_eng_mutex);
	while (n--) {
		dev = sd_devs[n];
		ib_unregister_device(&dev->ibdev);
	}
}

static void sd_free_all(int n)
{
	while (n--) {
		struct sd_dev *dev = sd_devs[n];
		struct device *parent = dev->parent;

		sd_engine_stop(dev);
		sd_destroy_ids(dev);
		ib_dealloc_device(&dev->ibdev);
		sd_parent_del(parent);
		sd_devs[n] = NULL;
	}
}

static int __init sd_init(void)
{
	char *list, *cur, *name;
	int err = 0, n;

	BUILD_BUG_ON(PAGE_SIZE != SD_ADAPTER_PAGE);	/* one UAR per system page */
	err = sd_record_init();
	if (err)
		return err;
	list = kstrdup(netdev, GFP_KERNEL);
	if (!list) {
		sd_record_exit();
		return -ENOMEM;
	}
	cur = list;
	while ((name = strsep(&cur, ",")) != NULL) {
		if (!*name)
			continue;
		if (sd_ndevs == SD_MAX_DEVS) {
			pr_err("mlx5_standin: at most %d devices\n", SD_MAX_DEVS);
			err = -EINVAL;
			break;
		}
		err = sd_add_one(name, sd_ndevs);
		if (err)
			break;
	}
	kfree(list);
	if (!err && !sd_ndevs)
		err = -EINVAL;
	if (err) {
		n = sd_ndevs;
		sd_remove_all();
		sd_free_all(n);
		sd_record_exit();
	}
	return err;
}

static void __exit sd_exit(void)
{
	int n = sd_ndevs;

	sd_remove_all();
	sd_free_all(n);
	sd_record_exit();	/* after the engines: no hook left running */
}

module_init(sd_init);
module_exit(sd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mlx5_ib's user ABI on a software device (a test fixture)");
