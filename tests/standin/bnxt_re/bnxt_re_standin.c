// SPDX-License-Identifier: GPL-2.0
/*
 * bnxt_re_standin: an RDMA device that answers the uverbs ABI as bnxt_re
 * (Broadcom NetXtreme-E RoCE) does, without hardware. A test fixture of
 * libuverbs-ioctl (the rest of that project is MIT; this file is GPL-2.0
 * because it restates bnxt_re's rules). Never installed:
 * tests/standin/build.sh builds it against the Debian headers of the
 * guest's kernel and the kernel suite loads it in a qemu guest.
 *
 *   insmod bnxt_re_standin.ko [netdev=dummy0]
 *
 * registers bnxt_re0 (driver id RDMA_DRIVER_BNXT_RE, uverbs ABI version
 * BNXT_RE_ABI_VERSION, 1) with one RoCE port on NETDEV, so that Debian's
 * libbnxt_re (rdma-core 44) drives it through libibverbs (which matches it
 * by driver id) as it drives a BCM57414.
 *
 * The device profile: a BCM57414 (chip number 0x16d7, rev 1, metal 0), a
 * chip before gen P5, so bnxt_re's WQE mode is static
 * (BNXT_QPLIB_WQE_MODE_STATIC), the PSN search entries are 8 bytes, and
 * the firmware limits below (6 SGEs per WQE and per SRQ WQE, 96 bytes of
 * inline data, 65535 send WRs less bnxt_re's reserve).
 *
 * What of bnxt_re it reproduces, as Linux 6.1 states it (Debian 6.1.192,
 * drivers/infiniband/hw/bnxt_re/ib_verbs.c, include/uapi/rdma/bnxt_re-abi.h)
 * and, built for 6.12 or later, as Linux 6.12 states it (Debian 6.12.118,
 * the same files and main.c, qplib_sp.c): the user-data (UHW) contract of
 * every command below, the checks in bnxt_re's order with its errno, and
 * the lengths it pins. The rules are transcribed; the code is written anew.
 * Only these two kernels were read: the 6.12 rules are taken from 6.12 on
 * (SD_V612), kernels between them are not told apart, and later ones are
 * not known to build. The 6.1 rules first; what 6.12 changed after them.
 *  - GET_CONTEXT (bnxt_re_alloc_ucontext): the device's ABI version not
 *    BNXT_RE_ABI_VERSION: EPERM (cannot happen here). One zeroed shared
 *    page per context. No request is read; the answer is bnxt_re_uctx_resp
 *    (dev_id = the PCI devfn, 0 here; max_qp = the QP context count;
 *    pg_size = PAGE_SIZE; cqe_sz = 32, sizeof(struct cq_base); max_cqd =
 *    max_cq_wqes; comp_mask = HAVE_CCTX | HAVE_MODE; chip_id0 = chip
 *    number | rev << 16 | metal << 24; mode = the WQE mode), copied for
 *    min(the caller's length, 48 bytes). The copy failing: EFAULT.
 *  - mmap (bnxt_re_mmap): a length other than one page: EINVAL. Page
 *    offset 0: the context's shared page (its AV id slot at 0x10). Any other
 *    offset is taken by bnxt_re as the page frame of a doorbell page and
 *    mapped uncached, unchecked; the stand-in maps only the context's own
 *    doorbell page, at the offset its ALLOC_PD answer gave (dbr, the page's
 *    physical address), and refuses any other offset with EINVAL (bnxt_re
 *    would map whatever frame it is given: that is not reproduced).
 *  - ALLOC_PD (bnxt_re_alloc_pd): a pdid; the context's doorbell page
 *    index (DPI) allocated at its first PD (none left: ENOMEM) and kept
 *    until the context goes; the answer bnxt_re_pd_resp (pdid, dpi, dbr),
 *    16 bytes copied whatever the caller's length.
 *  - CREATE_CQ (bnxt_re_create_cq): any flag: EOPNOTSUPP; cqe < 1 or past
 *    max_cq_wqes: EINVAL; entries = cqe + 1 rounded up to a power of two,
 *    at most max_cq_wqes + 1. bnxt_re_cq_req (cq_va, cq_handle) read as 16
 *    bytes whatever the caller's length (EFAULT where there is none); the
 *    buffer at cq_va pinned (local write) for entries x 32 bytes; the
 *    answer bnxt_re_cq_resp (cqid, tail 0, phase 1: bnxt_re gives the CQ's
 *    "period", BNXT_QPLIB_QUEUE_START_PERIOD), 16 bytes. The core answers
 *    cqe = entries.
 *  - CREATE_QP (bnxt_re_create_qp): max_send_wr or max_recv_wr past
 *    max_qp_wqes, max_send_sge or max_recv_sge past max_qp_sges,
 *    max_inline_data past the device's: EINVAL; a type other than RC, UD
 *    (or GSI, kernel only): EOPNOTSUPP; create flags: EOPNOTSUPP. The
 *    receive queue (none on an SRQ): max_sge capped at max_qp_sges, WQEs
 *    of 32 + 16 x max_qp_sges bytes (static mode), max_recv_wr + 1 rounded
 *    up to a power of two, at most max_qp_wqes + 1. The send queue: inline
 *    data rounded up to 32 bytes; a WQE of 32 + 16 x max_send_sge, or of
 *    32 + the inline size (rounded up to 32) when larger; past
 *    32 + 16 x max_qp_sges: EINVAL; in static mode every WQE is that
 *    largest size; max_send_wr + 128 + 1 rounded up to a power of two, at
 *    most max_qp_wqes + 128 + 1. bnxt_re_qp_req (qpsva, qprva, qp_handle)
 *    read as 24 bytes (EFAULT); the send queue at qpsva pinned (local
 *    write) for PAGE_ALIGN(send WQEs x WQE size, plus for RC one 8-byte
 *    PSN search entry per send WQE); without an SRQ the receive queue at
 *    qprva pinned for PAGE_ALIGN(receive WQEs x WQE size). The answer
 *    bnxt_re_qp_resp (qpid, rsvd 0), 8 bytes; the QP number is the qpid.
 *  - MODIFY_QP (bnxt_re_modify_qp): attribute bits past the standard ones:
 *    EOPNOTSUPP; a transition the core's state machine refuses: EINVAL;
 *    to RTR with a path MTU past the netdev's: EINVAL; max_dest_rd_atomic
 *    past max_qp_init_rd_atom: EINVAL (max_rd_atomic is capped, not
 *    refused). QUERY_QP: the state and attributes last set; the caps are
 *    the queues' as sized (send WQEs, send SGEs, receive WQEs, receive
 *    SGEs, inline size).
 *  - CREATE_SRQ (bnxt_re_create_srq): max_wr at or past max_srq_wqes:
 *    EINVAL; a type other than basic: EOPNOTSUPP; WQEs max_wr + 1 rounded
 *    up to a power of two, at most max_srq_wqes + 1, each 32 + 16 x
 *    max_srq_sges bytes; bnxt_re_srq_req (srqva, srq_handle) read as 16
 *    bytes (EFAULT); the buffer pinned (local write) for PAGE_ALIGN(WQEs x
 *    WQE size); the answer bnxt_re_srq_resp (srqid), 4 bytes.
 *    MODIFY_SRQ: max_wr: EINVAL; a limit past the WQEs: EINVAL; any other
 *    mask (the two together too): EINVAL. QUERY_SRQ: max_wr the WQEs (not
 *    less one), max_sge as asked, the limit.
 *  - REG_MR (bnxt_re_reg_user_mr): a length past 2^39: ENOMEM; the range
 *    pinned with the caller's access, any failure of that answered EFAULT
 *    (bnxt_re does not pass the umem's errno on); lkey = rkey.
 *  - CREATE_AH (bnxt_re_create_ah): no GRH: EINVAL; the AH's id written
 *    into the context's shared page at BNXT_RE_AVID_OFFT (0x10), where
 *    libbnxt_re reads it after the command; no driver data out.
 * What 6.12 changed, and this follows when built for it (everything else
 * above is the same in both; for this chip the device's limits are too:
 * bnxt_qplib_get_dev_attr gives 6 SGEs and 96 bytes of inline data to
 * every static-mode chip):
 *  - GET_CONTEXT (bnxt_re_alloc_ucontext): a request, bnxt_re_uctx_req
 *    (comp_mask, 8 bytes), read when the caller sent at least 8 bytes
 *    (EFAULT); shorter, none is read. Its bit POW2_SUPPORT makes the
 *    context's queue depths exact (no rounding up to a power of two, in
 *    CQ, QP, SRQ create and CQ resize: bnxt_re_init_depth), answered with
 *    comp_mask POW2_DISABLED (0x10); its bit VAR_WQE_SUPPORT is answered
 *    with HAVE_MODE and the mode, and turns variable WQEs on where the
 *    chip's mode is variable (gen P7; not here). A context that does not
 *    ask gets no HAVE_MODE and no mode, and static WQEs on every chip. The
 *    comp_mask bits of push doorbells (WC_DPI_ENABLED), doorbell pacing
 *    (DBR_PACING_ENABLED) and the MSN table stay clear on this chip. The
 *    shared page is an mmap entry inserted at offset 0 (failing: ENOMEM).
 *  - mmap (bnxt_re_mmap): only an offset an entry was handed out for, as a
 *    shared mapping of exactly its length (one page), else EINVAL
 *    (rdma_user_mmap_entry_get; a private mapping of the shared page too).
 *    The shared page is inserted; a doorbell page is mapped uncached
 *    (rdma_user_mmap_io); the doorbell-pacing page (DBR_PAGE) asked
 *    writable: EFAULT.
 *  - ALLOC_PD (bnxt_re_alloc_pd): each PD inserts an mmap entry of the
 *    context's doorbell page (none to insert: ENOMEM) and answers its
 *    offset as dbr; the answer cut to the caller's room; the entry goes
 *    with the PD (a mapping keeps it until unmapped).
 *  - CREATE_CQ (bnxt_re_create_cq): the answer bnxt_re_cq_resp grows to
 *    24 bytes (comp_mask 0 here: the CQ toggle page is gen P7's), cut to
 *    the caller's room. The op takes the ioctl's attribute bundle.
 *  - RESIZE_CQ (bnxt_re_resize_cq, new): a kernel CQ: EOPNOTSUPP; a resize
 *    still pending: EBUSY; cqe < 1 or past max_cq_wqes: EINVAL; entries =
 *    cqe + 1 (rounded as above), at most max_cq_wqes + 1;
 *    bnxt_re_resize_cq_req (cq_va) read as 8 bytes (EFAULT); cq_va pinned
 *    (local write) for entries x 32 bytes, the pin's errno passed on; the
 *    core answers cqe = entries at once. The new buffer replaces the old
 *    one, which is let go, at the next poll of the CQ: 6.12 enables the
 *    POLL_CQ command for that (a poll here never returns a completion).
 *  - CREATE_QP (bnxt_re_create_qp): bnxt_re_qp_req grows to 40 bytes
 *    (comp_mask, sq_slots after qp_handle) and is read first of all, before
 *    the limits, as min(the caller's length, 40) bytes (EFAULT; a shorter
 *    request leaves the rest as whatever lay on bnxt_re's stack, zeroes
 *    here). Static mode fixes the send WQE at 128 bytes and the send queue's
 *    SGEs at 6 whatever was asked (bnxt_re_setup_swqe_size; no EINVAL for
 *    the inline size there), which QUERY_QP answers as max_send_sge 6;
 *    inline data answered as 96. Depths as above. sq_slots and comp_mask
 *    are read only by a variable-mode context (no sq_slots, or more than
 *    65536: EINVAL; not here: without VAR_WQE_SUPPORT, or on this chip,
 *    every user QP is static). QUERY_QP also answers the port (1).
 *  - CREATE_SRQ (bnxt_re_create_srq): the answer bnxt_re_srq_resp grows
 *    to 16 bytes (srqid, rsvd, comp_mask 0 here: the SRQ toggle page is
 *    gen P7's) and is written whole whatever the caller's room: a caller
 *    of 6.1's 4 bytes (libbnxt_re 44) gets 12 bytes written past them.
 *  - REG_MR (bnxt_re_reg_user_mr): the range is pinned first and the pin's
 *    errno passed on (no longer EFAULT for all); then a length past 2^39:
 *    ENOMEM; no page size of 4 KiB to 1 GiB fits the range: EINVAL
 *    (ib_umem_find_best_pgsz).
 *  - bnxt_re's own methods (BNXT_RE_OBJECT_*, declared as bnxt_re declares
 *    them): ALLOC_PAGE (handle, type, out mmap offset u64, length u32, DPI
 *    u32): a push-doorbell page (WC_PAGE) on a chip without push
 *    doorbells: EINVAL; a doorbell-pacing page (DBR_BAR_PAGE, DBR_PAGE):
 *    an mmap entry of a page, length one page, DPI 0; another type:
 *    EOPNOTSUPP; DESTROY_PAGE takes the entry away. NOTIFY_DRV: a pacing
 *    alert, nothing to do without pacing: 0. GET_TOGGLE_MEM (handle, type,
 *    in res_id u32, out page offset u64, offset u32, length u32): the type
 *    and the id read, then a CQ or SRQ id: EINVAL (no CQ or SRQ of a chip
 *    before gen P7 has a toggle page), another type: EOPNOTSUPP;
 *    RELEASE_TOGGLE_MEM.
 * What stands in for the firmware: pdid, DPI, cqid, qpid, srqid, AV ids
 * and MR keys come from IDAs; the doorbell page is zeroed memory the
 * process maps (its doorbell writes land there).
 * What it does not: no data path (nothing is sent, received or completed),
 * no kernel verbs (no GSI QP, MAD, CM or IPoIB), no resize_cq on 6.1
 * (bnxt_re 6.1 has none), no memory windows, counters or GID hardware
 * contexts; on 6.12 no dma-buf MR (reg_user_mr_dmabuf), and the pacing
 * pages ALLOC_PAGE hands out are not mapped: bnxt_re, on a device without
 * doorbell pacing as this one, would map physical frame 0 (DBR_BAR_PAGE)
 * or what address 0 translates to (DBR_PAGE); the stand-in refuses those
 * mappings with EINVAL. Delete NETDEV only after unloading the module.
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/bnxt_re-abi.h>
#include "standin.h"

/* 6.12's rules, and its op signatures, where they differ from 6.1's. */
#define SD_V612 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#if SD_V612
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/uverbs_std_types.h>
#include <rdma/uverbs_types.h>
#define UVERBS_MODULE_NAME bnxt_re_standin
#include <rdma/uverbs_named_ioctl.h>
#endif

static char *netdev = "dummy0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "the Ethernet device under the RoCE port (default dummy0)");

/* The adapter this stands in for: a BCM57414 with its firmware's limits as
 * bnxt_qplib_get_dev_attr turns them into the device's. */
enum {
	SD_CHIP_NUM = 0x16d7,		/* BCM57414: not gen P5 */
	SD_CHIP_REV = 1,
	SD_CHIP_METAL = 0,
	SD_VENDOR_ID = 0x14e4,		/* Broadcom */
	SD_VENDOR_PART = 0x16d7,
	SD_RESERVED_QP_WRS = 128,	/* BNXT_QPLIB_RESERVED_QP_WRS */
	SD_FW_MAX_QP_WR = 65535,
	SD_MAX_QP_WQES = SD_FW_MAX_QP_WR - 1 - (SD_RESERVED_QP_WRS + 1),
	SD_MAX_QP_SGES = 6,
	SD_MAX_INLINE = 96,
	SD_MAX_QP = 65536,
	SD_QPC_COUNT = 65536,		/* resp.max_qp: the QP context count */
	SD_MAX_CQ = 65536,
	SD_MAX_CQ_WQES = 65535,
	SD_MAX_SRQ = 8192,
	SD_MAX_SRQ_WQES = 65534,
	SD_MAX_SRQ_SGES = 6,
	SD_MAX_MR = 65536,
	SD_MAX_PD = 64 * 1024,
	SD_MAX_AH = 65536,
	SD_MAX_DPI = 1024,
	SD_MAX_RD_ATOM = 126,		/* BNXT_QPLIB_MAX_OUT_RD_ATOM */
	SD_MAX_SGID = 256,		/* BNXT_QPLIB_NUM_GIDS_SUPPORTED */
	SD_ACK_DELAY = 16,		/* BNXT_RE_DEFAULT_ACK_DELAY */
	SD_FW_MAJ = 220, SD_FW_MIN = 0, SD_FW_BLD = 59, SD_FW_RSVD = 0,
};

/* bnxt_re's layout constants (roce_hsi.h, qplib_fp.h). */
enum {
	SD_CQE_SIZE = 32,		/* struct cq_base */
	SD_WQE_HDR = 32,		/* struct sq_send_hdr, struct rq_wqe_hdr */
	SD_SGE = 16,			/* struct sq_sge */
	SD_PSN_SEARCH = 8,		/* struct sq_psn_search (not gen P5) */
	SD_CQ_START_PERIOD = 1,		/* BNXT_QPLIB_QUEUE_START_PERIOD */
	SD_WQE_MODE = BNXT_QPLIB_WQE_MODE_STATIC,
};
#define SD_MAX_MR_SIZE (1ULL << 39)	/* BNXT_RE_MAX_MR_SIZE */
#define SD_PAGE_SIZE_CAP 0x7FFFF000ULL	/* BNXT_RE_PAGE_SIZE_SUPPORTED */

struct sd_dev {
	struct ib_device ibdev;
	int ifindex;
	struct ida pd_ida, dpi_ida, cq_ida, qp_ida, srq_ida, ah_ida, mr_ida;
};

static struct sd_dev *sd_the_dev;

struct sd_ucontext {
	struct ib_ucontext ibuc;
	struct page *shpg;		/* the shared page */
	spinlock_t sh_lock;
	struct mutex dpi_lock;
	struct page *dbpage;		/* the doorbell page, from the first PD */
	int dpi;
#if SD_V612
	struct rdma_user_mmap_entry *shpg_entry;
	bool pow2_disabled;		/* the context asked for exact queue depths */
#endif
};

struct sd_pd {
	struct ib_pd ibpd;
	u32 pdid;
#if SD_V612
	struct rdma_user_mmap_entry *db_entry;	/* each PD offers the doorbell page anew */
#endif
};

struct sd_cq {
	struct ib_cq ibcq;
	u32 cqid;
	struct ib_umem *umem;
#if SD_V612
	spinlock_t resize_lock;
	struct ib_umem *resize_umem;	/* a resize's buffer, until the next poll */
#endif
};

#if SD_V612
/* What an mmap offset handed out stands for (bnxt_re_mmap_flag). */
enum sd_mmap_kind {
	SD_MMAP_SH_PAGE,
	SD_MMAP_UC_DB,
	SD_MMAP_DBR_BAR,	/* doorbell pacing: this device has none */
	SD_MMAP_DBR_PAGE,
};

struct sd_entry {
	struct rdma_user_mmap_entry rdma_entry;
	enum sd_mmap_kind kind;
	struct page *page;	/* NULL for the pacing pages */
};

static struct sd_entry *to_sdentry(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct sd_entry, rdma_entry);
}
#endif

struct sd_srq {
	struct ib_srq ibsrq;
	u32 srqid;
	u32 max_wqe, max_sge;
	u32 limit;
	struct ib_umem *umem;
	struct mutex lock;
};

struct sd_qp {
	struct ib_qp ibqp;
	u32 qpid;
	u32 sq_max_wqe, sq_max_sge, sq_wqe_size;
	u32 rq_max_wqe, rq_max_sge, rq_wqe_size;
	u32 max_inline;
	struct ib_umem *sumem, *rumem;
	struct mutex lock;	/* state and attributes */
	enum ib_qp_state state;
	struct ib_qp_attr attr;	/* as last set; sgid_attr pointers dropped */
	enum ib_sig_type sq_sig_type;
};

struct sd_mr {
	struct ib_mr ibmr;
	u32 index;
	struct ib_umem *umem;
};

struct sd_ah {
	struct ib_ah ibah;
	u32 id;
};

static struct sd_dev *to_sddev(struct ib_device *d) { return container_of(d, struct sd_dev, ibdev); }
static struct sd_ucontext *to_sduc(struct ib_ucontext *c) { return container_of(c, struct sd_ucontext, ibuc); }
static struct sd_pd *to_sdpd(struct ib_pd *p) { return container_of(p, struct sd_pd, ibpd); }
static struct sd_cq *to_sdcq(struct ib_cq *c) { return container_of(c, struct sd_cq, ibcq); }
static struct sd_srq *to_sdsrq(struct ib_srq *s) { return container_of(s, struct sd_srq, ibsrq); }
static struct sd_qp *to_sdqp(struct ib_qp *q) { return container_of(q, struct sd_qp, ibqp); }
static struct sd_mr *to_sdmr(struct ib_mr *m) { return container_of(m, struct sd_mr, ibmr); }
static struct sd_ah *to_sdah(struct ib_ah *a) { return container_of(a, struct sd_ah, ibah); }

static struct sd_ucontext *udata_uc(struct ib_udata *udata)
{
	return rdma_udata_to_drv_context(udata, struct sd_ucontext, ibuc);
}

static int sd_id_alloc(struct ida *ida, u32 first, u32 last)
{
	int id = ida_alloc_range(ida, first, last, GFP_KERNEL);

	return id == -ENOSPC ? -ENOMEM : id;
}

/* bnxt_re_get_swqe_size / bnxt_re_get_rwqe_size */
static u32 sd_wqe_size(u32 nsge)
{
	return SD_WQE_HDR + nsge * SD_SGE;
}

/* A user queue's depth: a power of two, unless a 6.12 context asked for
 * exact depths (bnxt_re_init_depth). */
static u32 sd_depth(u32 n, struct ib_udata *udata)
{
#if SD_V612
	if (udata_uc(udata)->pow2_disabled)
		return n;
#endif
	return roundup_pow_of_two(n);
}

/* ---- device and port ----------------------------------------------------- */

static int sd_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			   struct ib_udata *uhw)
{
	/* bnxt_re reads no driver data here and answers none */
	memset(props, 0, sizeof(*props));
	/* bnxt_re copies the firmware's four version bytes (major, minor,
	 * build, reserved) into fw_ver as they lie in memory */
	props->fw_ver = SD_FW_MAJ | (SD_FW_MIN << 8) | (SD_FW_BLD << 16) | ((u64)SD_FW_RSVD << 24);
	props->sys_image_guid = ibdev->node_guid;
	props->max_mr_size = SD_MAX_MR_SIZE;
	props->page_size_cap = SD_PAGE_SIZE_CAP;
	props->vendor_id = SD_VENDOR_ID;
	props->vendor_part_id = SD_VENDOR_PART;
	props->hw_ver = 0;
	props->max_qp = SD_MAX_QP;
	props->max_qp_wr = SD_MAX_QP_WQES;
	props->device_cap_flags = IB_DEVICE_CURR_QP_STATE_MOD | IB_DEVICE_RC_RNR_NAK_GEN |
				  IB_DEVICE_SHUTDOWN_PORT | IB_DEVICE_SYS_IMAGE_GUID |
				  IB_DEVICE_RESIZE_MAX_WR | IB_DEVICE_PORT_ACTIVE_EVENT |
				  IB_DEVICE_N_NOTIFY_CQ;
	props->max_send_sge = SD_MAX_QP_SGES;
	props->max_recv_sge = SD_MAX_QP_SGES;
	props->max_sge_rd = SD_MAX_QP_SGES;
	props->max_cq = SD_MAX_CQ;
	props->max_cqe = SD_MAX_CQ_WQES;
	props->max_mr = SD_MAX_MR;
	props->max_pd = SD_MAX_PD;
	props->max_qp_rd_atom = SD_MAX_RD_ATOM;
	props->max_qp_init_rd_atom = SD_MAX_RD_ATOM;
	props->atomic_cap = IB_ATOMIC_NONE;
	props->masked_atomic_cap = IB_ATOMIC_NONE;
	props->max_ah = SD_MAX_AH;
	props->max_srq = SD_MAX_SRQ;
	props->max_srq_wr = SD_MAX_SRQ_WQES;
	props->max_srq_sge = SD_MAX_SRQ_SGES;
	props->max_pkeys = 1;
	props->local_ca_ack_delay = SD_ACK_DELAY;
	return 0;
}

static int sd_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *props)
{
	unsigned int mtu;

	/* the core zeroed props */
	props->state = IB_PORT_DOWN;
	props->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = IB_MTU_256;
	props->gid_tbl_len = SD_MAX_SGID;
	props->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_REINIT_SUP |
				IB_PORT_DEVICE_MGMT_SUP | IB_PORT_VENDOR_CLASS_SUP;
	props->ip_gids = true;
	props->max_msg_sz = 1U << 30;	/* BNXT_RE_MAX_MR_SIZE_LOW */
	props->pkey_tbl_len = 1;
	props->max_vl_num = 4;
	props->active_speed = IB_SPEED_EDR;
	props->active_width = IB_WIDTH_1X;

	if (sd_port_link(to_sddev(ibdev)->ifindex, props, &mtu))
		props->active_mtu = iboe_get_mtu(mtu);
	return 0;
}

/* The netdev's MTU as bnxt_re takes it for a path (iboe_get_mtu). */
static enum ib_mtu sd_netdev_mtu(struct sd_dev *dev)
{
	struct net_device *ndev = dev_get_by_index(&init_net, dev->ifindex);
	enum ib_mtu mtu = IB_MTU_256;

	if (ndev) {
		mtu = iboe_get_mtu(ndev->mtu);
		dev_put(ndev);
	}
	return mtu;
}

static int sd_port_immutable(struct ib_device *ibdev, u32 port,
			     struct ib_port_immutable *immutable)
{
	return sd_port_immutable_caps(ibdev, port, immutable,
				      RDMA_CORE_PORT_IBA_ROCE | RDMA_CORE_CAP_PROT_ROCE_UDP_ENCAP);
}

static int sd_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	return sd_default_pkey(index, 1, pkey);
}

static void sd_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%d.%d.%d.%d", SD_FW_MAJ, SD_FW_MIN, SD_FW_BLD,
		 SD_FW_RSVD);
}

/* ---- user context and mmap ----------------------------------------------- */

#if SD_V612
/* bnxt_re_mmap_entry_insert: the shared page at offset 0, anything else
 * wherever the core finds room. */
static struct rdma_user_mmap_entry *sd_entry_insert(struct sd_ucontext *uc,
						    enum sd_mmap_kind kind,
						    struct page *page, u64 *offset)
{
	struct sd_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);
	int err;

	if (!e)
		return NULL;
	e->kind = kind;
	e->page = page;
	if (kind == SD_MMAP_SH_PAGE)
		err = rdma_user_mmap_entry_insert_exact(&uc->ibuc, &e->rdma_entry, PAGE_SIZE, 0);
	else
		err = rdma_user_mmap_entry_insert(&uc->ibuc, &e->rdma_entry, PAGE_SIZE);
	if (err) {
		kfree(e);
		return NULL;
	}
	if (offset)
		*offset = rdma_user_mmap_get_offset(&e->rdma_entry);
	return &e->rdma_entry;
}

static void sd_mmap_free(struct rdma_user_mmap_entry *entry)
{
	kfree(to_sdentry(entry));
}
#endif

static int sd_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct bnxt_re_uctx_resp resp = {};
	int err = -EFAULT;

	if (ibuc->device->ops.uverbs_abi_ver != BNXT_RE_ABI_VERSION)
		return -EPERM;
	uc->shpg = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!uc->shpg)
		return -ENOMEM;
	spin_lock_init(&uc->sh_lock);
	mutex_init(&uc->dpi_lock);
	uc->dpi = -1;

	resp.comp_mask = BNXT_RE_UCNTX_CMASK_HAVE_CCTX;
	resp.chip_id0 = SD_CHIP_NUM | ((u32)(SD_CHIP_REV & 0xff) << BNXT_RE_CHIP_ID0_CHIP_REV_SFT) |
			((u32)(SD_CHIP_METAL & 0xff) << BNXT_RE_CHIP_ID0_CHIP_MET_SFT);
	resp.dev_id = 0;		/* the PCI devfn: no PCI device here */
	resp.max_qp = SD_QPC_COUNT;
	resp.pg_size = PAGE_SIZE;
	resp.cqe_sz = SD_CQE_SIZE;
	resp.max_cqd = SD_MAX_CQ_WQES;
#if SD_V612
	/* no push doorbells, doorbell pacing or MSN table on this chip: those
	 * comp_mask bits stay clear */
	uc->shpg_entry = sd_entry_insert(uc, SD_MMAP_SH_PAGE, uc->shpg, NULL);
	if (!uc->shpg_entry) {
		err = -ENOMEM;
		goto err_page;
	}
	/* the mode only to a context that says it can take variable WQEs */
	if (udata->inlen >= sizeof(struct bnxt_re_uctx_req)) {
		struct bnxt_re_uctx_req req;

		if (ib_copy_from_udata(&req, udata, sizeof(req)))
			goto err_entry;
		if (req.comp_mask & BNXT_RE_COMP_MASK_REQ_UCNTX_POW2_SUPPORT) {
			resp.comp_mask |= BNXT_RE_UCNTX_CMASK_POW2_DISABLED;
			uc->pow2_disabled = true;
		}
		if (req.comp_mask & BNXT_RE_COMP_MASK_REQ_UCNTX_VAR_WQE_SUPPORT) {
			resp.comp_mask |= BNXT_RE_UCNTX_CMASK_HAVE_MODE;
			resp.mode = SD_WQE_MODE;	/* static: variable WQEs stay off */
		}
	}
#else
	resp.comp_mask |= BNXT_RE_UCNTX_CMASK_HAVE_MODE;
	resp.mode = SD_WQE_MODE;
#endif
	if (ib_copy_to_udata(udata, &resp, min_t(size_t, udata->outlen, sizeof(resp))))
		goto err_entry;
	return 0;

err_entry:
#if SD_V612
	rdma_user_mmap_entry_remove(uc->shpg_entry);
	uc->shpg_entry = NULL;
err_page:
#endif
	__free_page(uc->shpg);
	uc->shpg = NULL;
	return err;
}

/* The pages may still be mapped: each mapping holds its own reference. */
static void sd_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct sd_ucontext *uc = to_sduc(ibuc);

#if SD_V612
	rdma_user_mmap_entry_remove(uc->shpg_entry);
#endif
	if (uc->shpg)
		put_page(uc->shpg);
	if (uc->dbpage) {
		put_page(uc->dbpage);
		ida_free(&to_sddev(ibuc->device)->dpi_ida, uc->dpi);
	}
}

#if SD_V612
/* bnxt_re_mmap: only an offset handed out, as a shared mapping of exactly
 * its page (rdma_user_mmap_entry_get) */
static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *entry = rdma_user_mmap_entry_get(ibuc, vma);
	struct sd_entry *e;
	int err;

	if (!entry)
		return -EINVAL;
	e = to_sdentry(entry);
	switch (e->kind) {
	case SD_MMAP_SH_PAGE:
		err = vm_insert_page(vma, vma->vm_start, e->page);
		break;
	case SD_MMAP_UC_DB:
		err = rdma_user_mmap_io(ibuc, vma, page_to_pfn(e->page), PAGE_SIZE,
					pgprot_noncached(vma->vm_page_prot), entry);
		break;
	case SD_MMAP_DBR_PAGE:
		if (vma->vm_flags & VM_WRITE) {	/* bnxt_re's page is read-only */
			err = -EFAULT;
			break;
		}
		fallthrough;
	default:
		/* bnxt_re, without doorbell pacing, would map physical frame 0
		 * (DBR_BAR) or what address 0 translates to (DBR_PAGE): the
		 * stand-in refuses */
		err = -EINVAL;
		break;
	}
	rdma_user_mmap_entry_put(entry);
	return err;
}
#else
static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct page *db;

	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	if (!vma->vm_pgoff)
		return sd_vm_insert_page(vma, uc->shpg);
	/* the doorbell page, at the frame ALLOC_PD answered; no other frame */
	mutex_lock(&uc->dpi_lock);
	db = uc->dbpage;
	mutex_unlock(&uc->dpi_lock);
	if (!db || vma->vm_pgoff != page_to_pfn(db))
		return -EINVAL;
	return sd_vm_insert_page(vma, db);
}
#endif

/* ---- PD ------------------------------------------------------------------ */

static int sd_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibpd->device);
	struct sd_pd *pd = to_sdpd(ibpd);
	struct bnxt_re_pd_resp resp = {};
	struct sd_ucontext *uc;
	int id = sd_id_alloc(&dev->pd_ida, 1, SD_MAX_PD - 1);

	if (id < 0)
		return -ENOMEM;
	pd->pdid = id;
	if (!udata)
		return 0;
	uc = udata_uc(udata);
	mutex_lock(&uc->dpi_lock);
	if (!uc->dbpage) {	/* the context's first PD: its doorbell page */
		int dpi = sd_id_alloc(&dev->dpi_ida, 1, SD_MAX_DPI - 1);
		struct page *p = dpi < 0 ? NULL : alloc_page(GFP_KERNEL | __GFP_ZERO);

		if (!p) {
			if (dpi >= 0)
				ida_free(&dev->dpi_ida, dpi);
			mutex_unlock(&uc->dpi_lock);
			ida_free(&dev->pd_ida, pd->pdid);
			return -ENOMEM;
		}
		uc->dpi = dpi;
		uc->dbpage = p;
	}
	resp.pdid = pd->pdid;
	resp.dpi = uc->dpi;
#if SD_V612
	/* dbr: the mmap offset of an entry of this PD's own */
	pd->db_entry = sd_entry_insert(uc, SD_MMAP_UC_DB, uc->dbpage, &resp.dbr);
	mutex_unlock(&uc->dpi_lock);
	if (!pd->db_entry) {
		ida_free(&dev->pd_ida, pd->pdid);
		return -ENOMEM;
	}
	if (ib_copy_to_udata(udata, &resp, min_t(size_t, sizeof(resp), udata->outlen))) {
		rdma_user_mmap_entry_remove(pd->db_entry);
		pd->db_entry = NULL;
		ida_free(&dev->pd_ida, pd->pdid);
		return -EFAULT;
	}
#else
	resp.dbr = (u64)page_to_pfn(uc->dbpage) << PAGE_SHIFT;
	mutex_unlock(&uc->dpi_lock);
	if (ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		ida_free(&dev->pd_ida, pd->pdid);
		return -EFAULT;
	}
#endif
	return 0;
}

static int sd_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
#if SD_V612
	if (udata)
		rdma_user_mmap_entry_remove(to_sdpd(ibpd)->db_entry);
#endif
	ida_free(&to_sddev(ibpd->device)->pd_ida, to_sdpd(ibpd)->pdid);
	return 0;
}

/* ---- CQ ------------------------------------------------------------------ */

#if SD_V612
static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct uverbs_attr_bundle *attrs)
{
	struct ib_udata *udata = &attrs->driver_udata;
#else
static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct ib_udata *udata)
{
#endif
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);
	struct bnxt_re_cq_req req;
	struct bnxt_re_cq_resp resp = {};
	int cqe = attr->cqe;
	int entries, id;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (cqe < 1 || cqe > SD_MAX_CQ_WQES)
		return -EINVAL;
	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	entries = sd_depth(cqe + 1, udata);
	if (entries > SD_MAX_CQ_WQES + 1)
		entries = SD_MAX_CQ_WQES + 1;
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	cq->umem = ib_umem_get(&dev->ibdev, req.cq_va, (size_t)entries * SD_CQE_SIZE,
			       IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(cq->umem))
		return PTR_ERR(cq->umem);
	id = sd_id_alloc(&dev->cq_ida, 1, SD_MAX_CQ - 1);
	if (id < 0) {
		ib_umem_release(cq->umem);
		return id;
	}
	cq->cqid = id;
	cq->ibcq.cqe = entries;
	resp.cqid = cq->cqid;
	resp.tail = 0;
	resp.phase = SD_CQ_START_PERIOD;
	resp.rsvd = 0;
#if SD_V612
	/* comp_mask 0: no toggle page on this chip; cut to the caller's room */
	spin_lock_init(&cq->resize_lock);
	if (ib_copy_to_udata(udata, &resp, min_t(size_t, sizeof(resp), udata->outlen))) {
#else
	if (ib_copy_to_udata(udata, &resp, sizeof(resp))) {
#endif
		ida_free(&dev->cq_ida, cq->cqid);
		ib_umem_release(cq->umem);
		return -EFAULT;
	}
	return 0;
}

static int sd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct sd_cq *cq = to_sdcq(ibcq);

#if SD_V612
	ib_umem_release(cq->resize_umem);
#endif
	ib_umem_release(cq->umem);
	ida_free(&to_sddev(ibcq->device)->cq_ida, cq->cqid);
	return 0;
}

#if SD_V612
/* bnxt_re_resize_cq: the new buffer is pinned now and replaces the old one
 * at the next poll of the CQ (bnxt_re_poll_cq); until then another resize
 * is refused. */
static int sd_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct sd_cq *cq = to_sdcq(ibcq);
	struct bnxt_re_resize_cq_req req;
	struct ib_umem *umem;
	bool busy;
	u32 entries;

	if (!ibcq->uobject)
		return -EOPNOTSUPP;
	spin_lock(&cq->resize_lock);
	busy = cq->resize_umem;
	spin_unlock(&cq->resize_lock);
	if (busy)
		return -EBUSY;
	if (cqe < 1 || cqe > SD_MAX_CQ_WQES)
		return -EINVAL;
	entries = sd_depth(cqe + 1, udata);
	if (entries > SD_MAX_CQ_WQES + 1)
		entries = SD_MAX_CQ_WQES + 1;
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	umem = ib_umem_get(ibcq->device, req.cq_va, (size_t)entries * SD_CQE_SIZE,
			   IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	spin_lock(&cq->resize_lock);
	busy = cq->resize_umem;
	if (!busy)
		cq->resize_umem = umem;
	spin_unlock(&cq->resize_lock);
	if (busy) {	/* a resize beside this one got there first */
		ib_umem_release(umem);
		return -EBUSY;
	}
	cq->ibcq.cqe = entries;
	return 0;
}

/* No completions ever; a poll of a user CQ (the POLL_CQ command, which
 * bnxt_re 6.12 enables for this) completes a pending resize. */
static int sd_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct sd_cq *cq = to_sdcq(ibcq);
	struct ib_umem *old = NULL;

	spin_lock(&cq->resize_lock);
	if (cq->resize_umem) {
		old = cq->umem;
		cq->umem = cq->resize_umem;
		cq->resize_umem = NULL;
	}
	spin_unlock(&cq->resize_lock);
	ib_umem_release(old);
	return 0;
}
#endif

/* ---- SRQ ----------------------------------------------------------------- */

static int sd_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			 struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibsrq->device);
	struct sd_srq *srq = to_sdsrq(ibsrq);
	struct bnxt_re_srq_req req;
	struct bnxt_re_srq_resp resp = {};
	u32 entries;
	int id;

	if (init->attr.max_wr >= SD_MAX_SRQ_WQES)
		return -EINVAL;
	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!udata)
		return -EOPNOTSUPP;
	entries = sd_depth(init->attr.max_wr + 1, udata);
	if (entries > SD_MAX_SRQ_WQES + 1)
		entries = SD_MAX_SRQ_WQES + 1;
	srq->max_wqe = entries;
	srq->max_sge = init->attr.max_sge;
	srq->limit = init->attr.srq_limit;
	mutex_init(&srq->lock);
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
	srq->umem = ib_umem_get(ibsrq->device, req.srqva,
				PAGE_ALIGN((size_t)entries * sd_wqe_size(SD_MAX_SRQ_SGES)),
				IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(srq->umem))
		return PTR_ERR(srq->umem);
	id = sd_id_alloc(&dev->srq_ida, 1, SD_MAX_SRQ - 1);
	if (id < 0) {
		ib_umem_release(srq->umem);
		return id;
	}
	srq->srqid = id;
	resp.srqid = id;
	/* 6.12: 16 bytes (comp_mask 0: no toggle page on this chip), written
	 * whatever room the caller gave, as bnxt_re writes them */
	if (ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		ida_free(&dev->srq_ida, srq->srqid);
		ib_umem_release(srq->umem);
		return -EFAULT;
	}
	return 0;
}

static int sd_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			 enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	switch (mask) {
	case IB_SRQ_LIMIT:
		if (attr->srq_limit > srq->max_wqe)
			return -EINVAL;
		mutex_lock(&srq->lock);
		srq->limit = attr->srq_limit;
		mutex_unlock(&srq->lock);
		return 0;
	case IB_SRQ_MAX_WR:	/* no resize */
	default:
		return -EINVAL;
	}
}

static int sd_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	mutex_lock(&srq->lock);
	attr->srq_limit = srq->limit;
	mutex_unlock(&srq->lock);
	attr->max_wr = srq->max_wqe;
	attr->max_sge = srq->max_sge;
	return 0;
}

static int sd_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	ib_umem_release(srq->umem);
	ida_free(&to_sddev(ibsrq->device)->srq_ida, srq->srqid);
	return 0;
}

/* ---- QP ------------------------------------------------------------------ */

/* bnxt_re_init_rq_attr, static WQE mode */
static void sd_init_rq(struct sd_qp *qp, struct ib_qp_init_attr *attr, struct ib_udata *udata)
{
	u32 entries;

	if (attr->srq) {
		qp->rq_max_wqe = 0;
		return;
	}
	qp->rq_max_sge = min_t(u32, attr->cap.max_recv_sge, SD_MAX_QP_SGES);
	attr->cap.max_recv_sge = qp->rq_max_sge;
	qp->rq_wqe_size = sd_wqe_size(SD_MAX_QP_SGES);
	entries = sd_depth(attr->cap.max_recv_wr + 1, udata);
	qp->rq_max_wqe = min_t(u32, entries, SD_MAX_QP_WQES + 1);
}

/* bnxt_re_init_sq_attr and bnxt_re_setup_swqe_size, static WQE mode */
static int sd_init_sq(struct sd_qp *qp, struct ib_qp_init_attr *attr, struct ib_udata *udata)
{
#if !SD_V612
	u32 ilsize = ALIGN(attr->cap.max_inline_data, SD_WQE_HDR);
#endif
	u32 entries;

	qp->sq_max_sge = attr->cap.max_send_sge;
	if (qp->sq_max_sge > SD_MAX_QP_SGES) {
		qp->sq_max_sge = SD_MAX_QP_SGES;
		attr->cap.max_send_sge = qp->sq_max_sge;
	}
#if SD_V612
	/* every WQE the static size, room for 6 SGEs, whatever was asked */
	qp->sq_wqe_size = sd_wqe_size(SD_MAX_QP_SGES);
	qp->sq_max_sge = SD_MAX_QP_SGES;
	qp->max_inline = attr->cap.max_inline_data;
	if (attr->cap.max_inline_data) {
		qp->max_inline = qp->sq_wqe_size - SD_WQE_HDR;
		attr->cap.max_inline_data = qp->max_inline;
	}
#else
	qp->sq_wqe_size = sd_wqe_size(qp->sq_max_sge);
	if (ilsize)
		qp->sq_wqe_size = ALIGN(max_t(u32, SD_WQE_HDR + ilsize, qp->sq_wqe_size),
					SD_WQE_HDR);
	if (qp->sq_wqe_size > sd_wqe_size(SD_MAX_QP_SGES))
		return -EINVAL;
	qp->sq_wqe_size = sd_wqe_size(SD_MAX_QP_SGES);	/* static mode */
	qp->max_inline = attr->cap.max_inline_data;
	if (attr->cap.max_inline_data) {
		qp->max_inline = qp->sq_wqe_size - SD_WQE_HDR;
		attr->cap.max_inline_data = qp->max_inline;
		qp->sq_max_sge = qp->max_inline / SD_SGE;
	}
#endif
	entries = sd_depth(attr->cap.max_send_wr + SD_RESERVED_QP_WRS + 1, udata);
	qp->sq_max_wqe = min_t(u32, entries, SD_MAX_QP_WQES + SD_RESERVED_QP_WRS + 1);
	return 0;
}

static int sd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct bnxt_re_qp_req req = {};
	struct bnxt_re_qp_resp resp;
	size_t bytes;
	int id, err;

#if SD_V612
	/* first of all, as much of the request as the caller sent (what it
	 * leaves out is whatever lay on bnxt_re's stack; here, zeroes) */
	if (udata && ib_copy_from_udata(&req, udata, min_t(size_t, udata->inlen, sizeof(req))))
		return -EFAULT;
#endif
	/* bnxt_re_test_qp_limits */
	if (attr->cap.max_send_wr > SD_MAX_QP_WQES || attr->cap.max_recv_wr > SD_MAX_QP_WQES ||
	    attr->cap.max_send_sge > SD_MAX_QP_SGES || attr->cap.max_recv_sge > SD_MAX_QP_SGES ||
	    attr->cap.max_inline_data > SD_MAX_INLINE)
		return -EINVAL;
	/* bnxt_re_init_qp_type: RC, UD (and GSI, from the kernel) */
	if (attr->qp_type != IB_QPT_RC && attr->qp_type != IB_QPT_UD &&
	    attr->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (attr->create_flags)
		return -EOPNOTSUPP;
	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs (GSI) here */
	sd_init_rq(qp, attr, udata);
	err = sd_init_sq(qp, attr, udata);
	if (err)
		return err;

	/* bnxt_re_init_user_qp */
#if !SD_V612
	if (ib_copy_from_udata(&req, udata, sizeof(req)))
		return -EFAULT;
#endif
	bytes = (size_t)qp->sq_max_wqe * qp->sq_wqe_size;
	if (attr->qp_type == IB_QPT_RC)		/* the PSN search area */
		bytes += (size_t)qp->sq_max_wqe * SD_PSN_SEARCH;
	qp->sumem = ib_umem_get(ibqp->device, req.qpsva, PAGE_ALIGN(bytes), IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(qp->sumem))
		return PTR_ERR(qp->sumem);
	if (!attr->srq) {
		bytes = (size_t)qp->rq_max_wqe * qp->rq_wqe_size;
		qp->rumem = ib_umem_get(ibqp->device, req.qprva, PAGE_ALIGN(bytes),
					IB_ACCESS_LOCAL_WRITE);
		if (IS_ERR(qp->rumem)) {
			err = PTR_ERR(qp->rumem);
			qp->rumem = NULL;
			goto err_sumem;
		}
	}
	id = sd_id_alloc(&dev->qp_ida, 2, SD_MAX_QP - 1);	/* 0 and 1: QP0, QP1 */
	if (id < 0) {
		err = id;
		goto err_rumem;
	}
	qp->qpid = id;
	resp.qpid = id;
	resp.rsvd = 0;
	if (ib_copy_to_udata(udata, &resp, sizeof(resp))) {
		err = -EFAULT;
		goto err_id;
	}
	qp->ibqp.qp_num = id;
	mutex_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->sq_sig_type = attr->sq_sig_type;
	if (attr->qp_type == IB_QPT_RC) {
		qp->attr.max_rd_atomic = SD_MAX_RD_ATOM;
		qp->attr.max_dest_rd_atomic = SD_MAX_RD_ATOM;
	}
	return 0;

err_id:
	ida_free(&dev->qp_ida, id);
err_rumem:
	ib_umem_release(qp->rumem);
err_sumem:
	ib_umem_release(qp->sumem);
	return err;
}

static int sd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	ib_umem_release(qp->rumem);
	ib_umem_release(qp->sumem);
	ida_free(&to_sddev(ibqp->device)->qp_ida, qp->qpid);
	return 0;
}

static int sd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	enum ib_mtu mtu = sd_netdev_mtu(to_sddev(ibqp->device));
	int err = -EINVAL;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	mutex_lock(&qp->lock);
	if ((mask & IB_QP_STATE) &&
	    !ib_modify_qp_is_ok(qp->state, attr->qp_state, ibqp->qp_type, mask))
		goto out;
	/* bnxt_re reads qp_state for this whatever the mask says */
	if (attr->qp_state == IB_QPS_RTR && (mask & IB_QP_PATH_MTU) &&
	    ib_mtu_enum_to_int(attr->path_mtu) > ib_mtu_enum_to_int(mtu))
		goto out;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > SD_MAX_RD_ATOM)
		goto out;

	err = 0;
	if (mask & IB_QP_STATE)
		qp->state = attr->qp_state;
	if (attr->qp_state == IB_QPS_RTR)
		qp->attr.path_mtu = (mask & IB_QP_PATH_MTU) ? attr->path_mtu : mtu;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_AV)
		sd_keep_ah(&qp->attr.ah_attr, &attr->ah_attr);
	if (mask & IB_QP_TIMEOUT)
		qp->attr.timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->attr.retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->attr.rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_RQ_PSN)
		qp->attr.rq_psn = attr->rq_psn;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)	/* capped, not refused */
		qp->attr.max_rd_atomic = min_t(u32, attr->max_rd_atomic, SD_MAX_RD_ATOM);
	if (mask & IB_QP_SQ_PSN)
		qp->attr.sq_psn = attr->sq_psn;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qp_num = attr->dest_qp_num;
out:
	mutex_unlock(&qp->lock);
	return err;
}

static int sd_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *qa, int mask,
		       struct ib_qp_init_attr *init)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	memset(qa, 0, sizeof(*qa));
	memset(init, 0, sizeof(*init));
	mutex_lock(&qp->lock);
	*qa = qp->attr;
	qa->qp_state = qp->state;
	qa->cur_qp_state = qp->state;
	mutex_unlock(&qp->lock);
	qa->ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
#if SD_V612
	qa->port_num = 1;	/* 6.12 answers the QP's port */
#endif
	qa->cap.max_send_wr = qp->sq_max_wqe;
	qa->cap.max_send_sge = qp->sq_max_sge;
	qa->cap.max_recv_wr = qp->rq_max_wqe;
	qa->cap.max_recv_sge = qp->rq_max_sge;
	qa->cap.max_inline_data = qp->max_inline;
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
	int id;

#if SD_V612
	/* the range pinned first, its errno passed on; then the checks */
	struct ib_umem *umem = ib_umem_get(pd->device, start, length, access);

	if (IS_ERR(umem))
		return ERR_CAST(umem);
	if (length > SD_MAX_MR_SIZE) {
		ib_umem_release(umem);
		return ERR_PTR(-ENOMEM);
	}
	if (!ib_umem_find_best_pgsz(umem, SD_PAGE_SIZE_CAP, iova)) {
		ib_umem_release(umem);
		return ERR_PTR(-EINVAL);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	id = mr ? sd_id_alloc(&dev->mr_ida, 1, SD_MAX_MR - 1) : -ENOMEM;
	if (id < 0) {
		kfree(mr);
		ib_umem_release(umem);
		return ERR_PTR(id);
	}
	mr->index = id;
	mr->umem = umem;
#else
	if (length > SD_MAX_MR_SIZE)
		return ERR_PTR(-ENOMEM);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	id = sd_id_alloc(&dev->mr_ida, 1, SD_MAX_MR - 1);
	if (id < 0) {
		kfree(mr);
		return ERR_PTR(id);
	}
	mr->index = id;
	mr->umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(mr->umem)) {		/* bnxt_re answers EFAULT, whatever the cause */
		ida_free(&dev->mr_ida, id);
		kfree(mr);
		return ERR_PTR(-EFAULT);
	}
#endif
	mr->ibmr.lkey = ((u32)id << 8) | 0x01;
	mr->ibmr.rkey = mr->ibmr.lkey;
	return &mr->ibmr;
}

static int sd_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sd_mr *mr = to_sdmr(ibmr);

	ib_umem_release(mr->umem);
	ida_free(&to_sddev(ibmr->device)->mr_ida, mr->index);
	kfree(mr);
	return 0;
}

static int sd_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibah->device);
	struct sd_ah *ah = to_sdah(ibah);
	int id;

	if (!(rdma_ah_get_ah_flags(init->ah_attr) & IB_AH_GRH))
		return -EINVAL;
	id = ida_alloc_range(&dev->ah_ida, 1, SD_MAX_AH - 1,
			     (init->flags & RDMA_CREATE_AH_SLEEPABLE) ? GFP_KERNEL : GFP_ATOMIC);
	if (id < 0)
		return id == -ENOSPC ? -ENOMEM : id;
	ah->id = id;
	if (udata) {	/* the AV id in the shared page, for libbnxt_re */
		struct sd_ucontext *uc = udata_uc(udata);
		unsigned long flags;
		u32 *slot;

		spin_lock_irqsave(&uc->sh_lock, flags);
		slot = (u32 *)((u8 *)page_address(uc->shpg) + BNXT_RE_AVID_OFFT);
		WRITE_ONCE(*slot, ah->id);
		spin_unlock_irqrestore(&uc->sh_lock, flags);
	}
	return 0;
}

static int sd_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	ida_free(&to_sddev(ibah->device)->ah_ida, to_sdah(ibah)->id);
	return 0;
}

/* ---- bnxt_re's own methods (6.12) ---------------------------------------- */

#if SD_V612
/* ALLOC_PAGE: a push-doorbell page (this chip has none: EINVAL) or a
 * doorbell-pacing page; the answer the page's mmap offset, length and DPI */
static int UVERBS_HANDLER(BNXT_RE_METHOD_ALLOC_PAGE)(struct uverbs_attr_bundle *attrs)
{
	struct ib_uobject *uobj = uverbs_attr_get_uobject(attrs, BNXT_RE_ALLOC_PAGE_HANDLE);
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);
	enum bnxt_re_alloc_page_type type;
	struct rdma_user_mmap_entry *entry;
	enum sd_mmap_kind kind;
	u32 length = PAGE_SIZE, dpi = 0;
	u64 offset;
	int err;

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	err = uverbs_get_const(&type, attrs, BNXT_RE_ALLOC_PAGE_TYPE);
	if (err)
		return err;
	switch (type) {
	case BNXT_RE_ALLOC_WC_PAGE:
		return -EINVAL;
	case BNXT_RE_ALLOC_DBR_BAR_PAGE:
		kind = SD_MMAP_DBR_BAR;
		break;
	case BNXT_RE_ALLOC_DBR_PAGE:
		kind = SD_MMAP_DBR_PAGE;
		break;
	default:
		return -EOPNOTSUPP;
	}
	entry = sd_entry_insert(to_sduc(ibuc), kind, NULL, &offset);
	if (!entry)
		return -ENOMEM;
	uobj->object = entry;
	uverbs_finalize_uobj_create(attrs, BNXT_RE_ALLOC_PAGE_HANDLE);
	err = uverbs_copy_to(attrs, BNXT_RE_ALLOC_PAGE_MMAP_OFFSET, &offset, sizeof(offset));
	if (err)
		return err;
	err = uverbs_copy_to(attrs, BNXT_RE_ALLOC_PAGE_MMAP_LENGTH, &length, sizeof(length));
	if (err)
		return err;
	return uverbs_copy_to(attrs, BNXT_RE_ALLOC_PAGE_DPI, &dpi, sizeof(dpi));
}

/* An ALLOC_PAGE or GET_TOGGLE_MEM object is its mmap entry. */
static int sd_mmap_entry_cleanup(struct ib_uobject *uobject, enum rdma_remove_reason why,
				 struct uverbs_attr_bundle *attrs)
{
	rdma_user_mmap_entry_remove(uobject->object);
	return 0;
}

DECLARE_UVERBS_NAMED_METHOD(BNXT_RE_METHOD_ALLOC_PAGE,
			    UVERBS_ATTR_IDR(BNXT_RE_ALLOC_PAGE_HANDLE, BNXT_RE_OBJECT_ALLOC_PAGE,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(BNXT_RE_ALLOC_PAGE_TYPE,
						 enum bnxt_re_alloc_page_type, UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(BNXT_RE_ALLOC_PAGE_MMAP_OFFSET,
						UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(BNXT_RE_ALLOC_PAGE_MMAP_LENGTH,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(BNXT_RE_ALLOC_PAGE_DPI,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(BNXT_RE_METHOD_DESTROY_PAGE,
				    UVERBS_ATTR_IDR(BNXT_RE_DESTROY_PAGE_HANDLE,
						    BNXT_RE_OBJECT_ALLOC_PAGE,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(BNXT_RE_OBJECT_ALLOC_PAGE,
			    UVERBS_TYPE_ALLOC_IDR(sd_mmap_entry_cleanup),
			    &UVERBS_METHOD(BNXT_RE_METHOD_ALLOC_PAGE),
			    &UVERBS_METHOD(BNXT_RE_METHOD_DESTROY_PAGE));

/* NOTIFY_DRV: a doorbell-pacing alert; without pacing, nothing to do */
static int UVERBS_HANDLER(BNXT_RE_METHOD_NOTIFY_DRV)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);

	return PTR_ERR_OR_ZERO(ibuc);
}

DECLARE_UVERBS_NAMED_METHOD(BNXT_RE_METHOD_NOTIFY_DRV);

DECLARE_UVERBS_GLOBAL_METHODS(BNXT_RE_OBJECT_NOTIFY_DRV,
			      &UVERBS_METHOD(BNXT_RE_METHOD_NOTIFY_DRV));

/* GET_TOGGLE_MEM: the toggle page of a CQ or SRQ by its id; no CQ or SRQ
 * of this chip has one, so any id is EINVAL, after the type and the id are
 * read */
static int UVERBS_HANDLER(BNXT_RE_METHOD_GET_TOGGLE_MEM)(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *ibuc = ib_uverbs_get_ucontext(attrs);
	enum bnxt_re_get_toggle_mem_type type;
	u32 res_id;
	int err;

	if (IS_ERR(ibuc))
		return PTR_ERR(ibuc);
	err = uverbs_get_const(&type, attrs, BNXT_RE_TOGGLE_MEM_TYPE);
	if (err)
		return err;
	err = uverbs_copy_from(&res_id, attrs, BNXT_RE_TOGGLE_MEM_RES_ID);
	if (err)
		return err;
	switch (type) {
	case BNXT_RE_CQ_TOGGLE_MEM:
	case BNXT_RE_SRQ_TOGGLE_MEM:
		return -EINVAL;
	default:
		return -EOPNOTSUPP;
	}
}

DECLARE_UVERBS_NAMED_METHOD(BNXT_RE_METHOD_GET_TOGGLE_MEM,
			    UVERBS_ATTR_IDR(BNXT_RE_TOGGLE_MEM_HANDLE, BNXT_RE_OBJECT_GET_TOGGLE_MEM,
					    UVERBS_ACCESS_NEW, UA_MANDATORY),
			    UVERBS_ATTR_CONST_IN(BNXT_RE_TOGGLE_MEM_TYPE,
						 enum bnxt_re_get_toggle_mem_type, UA_MANDATORY),
			    UVERBS_ATTR_PTR_IN(BNXT_RE_TOGGLE_MEM_RES_ID,
					       UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(BNXT_RE_TOGGLE_MEM_MMAP_PAGE,
						UVERBS_ATTR_TYPE(u64), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(BNXT_RE_TOGGLE_MEM_MMAP_OFFSET,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY),
			    UVERBS_ATTR_PTR_OUT(BNXT_RE_TOGGLE_MEM_MMAP_LENGTH,
						UVERBS_ATTR_TYPE(u32), UA_MANDATORY));

DECLARE_UVERBS_NAMED_METHOD_DESTROY(BNXT_RE_METHOD_RELEASE_TOGGLE_MEM,
				    UVERBS_ATTR_IDR(BNXT_RE_RELEASE_TOGGLE_MEM_HANDLE,
						    BNXT_RE_OBJECT_GET_TOGGLE_MEM,
						    UVERBS_ACCESS_DESTROY, UA_MANDATORY));

DECLARE_UVERBS_NAMED_OBJECT(BNXT_RE_OBJECT_GET_TOGGLE_MEM,
			    UVERBS_TYPE_ALLOC_IDR(sd_mmap_entry_cleanup),
			    &UVERBS_METHOD(BNXT_RE_METHOD_GET_TOGGLE_MEM),
			    &UVERBS_METHOD(BNXT_RE_METHOD_RELEASE_TOGGLE_MEM));

static const struct uapi_definition sd_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(BNXT_RE_OBJECT_ALLOC_PAGE),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(BNXT_RE_OBJECT_NOTIFY_DRV),
	UAPI_DEF_CHAIN_OBJ_TREE_NAMED(BNXT_RE_OBJECT_GET_TOGGLE_MEM),
	{}
};
#endif

/* ---- registration -------------------------------------------------------- */

static const struct ib_device_ops sd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_BNXT_RE,
	.uverbs_abi_ver = BNXT_RE_ABI_VERSION,

	.alloc_pd = sd_alloc_pd,
	.alloc_ucontext = sd_alloc_ucontext,
	.create_ah = sd_create_ah,
	.create_user_ah = sd_create_ah,
	.create_cq = sd_create_cq,
	.create_qp = sd_create_qp,
	.create_srq = sd_create_srq,
	.dealloc_pd = sd_dealloc_pd,
	.dealloc_ucontext = sd_dealloc_ucontext,
	.dereg_mr = sd_dereg_mr,
	.destroy_ah = sd_destroy_ah,
	.destroy_cq = sd_destroy_cq,
	.destroy_qp = sd_destroy_qp,
	.destroy_srq = sd_destroy_srq,
	.get_dev_fw_str = sd_fw_str,
	.get_link_layer = sd_link_layer_ethernet,
	.get_port_immutable = sd_port_immutable,
	.mmap = sd_mmap,
#if SD_V612
	.mmap_free = sd_mmap_free,
	.poll_cq = sd_poll_cq,
	.resize_cq = sd_resize_cq,
#endif
	.modify_qp = sd_modify_qp,
	.modify_srq = sd_modify_srq,
	.query_device = sd_query_device,
	.query_pkey = sd_query_pkey,
	.query_port = sd_query_port,
	.query_qp = sd_query_qp,
	.query_srq = sd_query_srq,
	.reg_user_mr = sd_reg_user_mr,

	INIT_RDMA_OBJ_SIZE(ib_ah, sd_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, sd_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, sd_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sd_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, sd_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, sd_ucontext, ibuc),
};

static void sd_destroy_ids(struct sd_dev *dev)
{
	ida_destroy(&dev->pd_ida);
	ida_destroy(&dev->dpi_ida);
	ida_destroy(&dev->cq_ida);
	ida_destroy(&dev->qp_ida);
	ida_destroy(&dev->srq_ida);
	ida_destroy(&dev->ah_ida);
	ida_destroy(&dev->mr_ida);
}

static int __init sd_init(void)
{
	struct net_device *ndev;
	struct sd_dev *dev;
	int err;

	ndev = sd_netdev_by_name(netdev);
	if (!ndev)
		return -ENODEV;
	dev = ib_alloc_device(sd_dev, ibdev);
	if (!dev) {
		dev_put(ndev);
		return -ENOMEM;
	}
	dev->ifindex = ndev->ifindex;
	ida_init(&dev->pd_ida);
	ida_init(&dev->dpi_ida);
	ida_init(&dev->cq_ida);
	ida_init(&dev->qp_ida);
	ida_init(&dev->srq_ida);
	ida_init(&dev->ah_ida);
	ida_init(&dev->mr_ida);

	sd_ibdev_on_netdev(&dev->ibdev, ndev, &sd_ops);
	dev->ibdev.local_dma_lkey = 0;
#if SD_V612
	dev->ibdev.driver_def = sd_uapi_defs;
	/* for the poll that completes a resize */
	dev->ibdev.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POLL_CQ);
#endif

	err = sd_register_on_netdev(&dev->ibdev, ndev, "bnxt_re%d");
	if (err)
		goto err_dealloc;
	sd_the_dev = dev;
	pr_info("bnxt_re_standin: %s on %s\n", dev_name(&dev->ibdev.dev), netdev);
	return 0;

err_dealloc:
	sd_destroy_ids(dev);
	ib_dealloc_device(&dev->ibdev);
	return err;
}

static void __exit sd_exit(void)
{
	struct sd_dev *dev = sd_the_dev;

	ib_unregister_device(&dev->ibdev);
	sd_destroy_ids(dev);
	ib_dealloc_device(&dev->ibdev);
}

module_init(sd_init);
module_exit(sd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bnxt_re's user ABI on a software device (a test fixture)");
