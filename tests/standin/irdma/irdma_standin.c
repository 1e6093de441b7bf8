// SPDX-License-Identifier: GPL-2.0
/*
 * irdma_standin: an RDMA device that answers the uverbs ABI as irdma does,
 * without hardware. A test fixture of libuverbs-ioctl (the rest of that
 * project is MIT; this file is GPL-2.0 because it restates irdma's rules).
 * Never installed: tests/standin/build.sh builds it against the Debian
 * headers of the guest's kernel and the kernel suite loads it in a qemu
 * guest.
 *
 *   insmod irdma_standin.ko [netdev=dummy0]
 *
 * registers irdma0 (driver id RDMA_DRIVER_IRDMA, which is RDMA_DRIVER_I40IW,
 * uverbs ABI version IRDMA_ABI_VER = 5, as irdma declares them) with one
 * RoCE v2 port on NETDEV, as an E810 (irdma's GEN_2 hardware) in RoCE mode,
 * so that Debian's libirdma (rdma-core 44) drives it through libibverbs.
 * RoCE and not iWARP: an iWARP device must bring the iw_cm's connection
 * verbs (connect, accept, reject, create_listen...) and a TCP stack under
 * them, which nothing here could honour; a RoCE port needs only a netdev
 * and the core's GID table. The user-data contract is the same for both but
 * for the QP types (RoCE: RC, UD and GSI; iWARP: RC) and the QP region's
 * page-offset check (iWARP only).
 *
 * What of irdma it reproduces, as Linux 6.1 states it (Debian 6.1.192,
 * drivers/infiniband/hw/irdma/verbs.c, uk.c, user.h, defs.h, icrdma_hw.c and
 * include/uapi/rdma/irdma-abi.h) and, built for 6.12 or later, as Linux 6.12
 * states it (Debian 6.12.118, the same files): the user-data (UHW) contract
 * of every command below, the checks in irdma's order with its errno. The
 * rules are transcribed; the code is written anew. Only these two kernels
 * were read: the 6.12 rules are taken from 6.12 on (SD_V612), kernels
 * between them are not told apart. The 6.1 rules first; what 6.12 changed
 * after them. The device is GEN_2 (hw_rev 2) with the features
 * icrdma_init_hw gives: RTS_AE and CQ_RESIZE.
 *  - QUERY_DEVICE (irdma_query_device): any driver data in or out: EINVAL.
 *  - GET_CONTEXT (irdma_alloc_ucontext): request shorter than
 *    offsetofend(irdma_alloc_ucontext_req, rsvd8) (8) or response room
 *    shorter than offsetofend(irdma_alloc_ucontext_resp, rsvd) (16): EINVAL;
 *    the request read as min(its size, inlen); userspace_ver below 4 or past
 *    IRDMA_ABI_VER: EINVAL; comp_mask bit IRDMA_ALLOC_UCTX_USE_RAW_ATTR
 *    remembered (QP sizes then computed by the kernel, below). Room of
 *    exactly 16 bytes is libi40iw's legacy mode, which irdma grants only to
 *    GEN_1 hardware: EOPNOTSUPP here (a GEN_2 device). Otherwise a one-page
 *    doorbell mmap entry is inserted (ENOMEM when it cannot be) and the
 *    answer carries kernel_ver 5, feature_flags, db_mmap_key, max_hw_wq_frags
 *    13, max_hw_read_sges 13, max_hw_inline 101, max_hw_rq_quanta and
 *    max_hw_wq_quanta 32768, max_hw_sq_chunk 8, min/max_hw_cq_size 1 and
 *    1048575, hw_rev 2, comp_mask with USE_RAW_ATTR; copied as min(its size,
 *    outlen) (EFAULT, the entry removed, when that fails).
 *  - mmap (irdma_mmap, rdma_user_mmap_entry_get, rdma_user_mmap_io): the
 *    offset must be a key the context was given and the length the entry's
 *    one page, the mapping shared: else EINVAL. The doorbell page is a zeroed
 *    page of the device (the BAR's doorbell page stands in), mapped by every
 *    context.
 *  - ALLOC_PD (irdma_alloc_pd): response room below
 *    offsetofend(irdma_alloc_pd_resp, rsvd) (8): EINVAL; pd_id from
 *    1..max_pd-1 (EOVERFLOW when none is left, as irdma_alloc_rsrc says).
 *  - REG_MR (irdma_reg_user_mr, irdma_handle_q_mem): length past max_mr_size
 *    (2^45): EINVAL; driver data shorter than irdma_mem_reg_req (8): EINVAL;
 *    the range pinned (ib_umem_get's errors); irdma_mem_reg_req read (EFAULT).
 *    Page size 4 KiB for QP and CQ regions; for MEM the best of 4K/2M/1G
 *    (none: EOPNOTSUPP). The page count is ib_umem_num_dma_blocks at that
 *    size. QP: sq_pages + rq_pages + 1 (the shadow area's page) past the
 *    page count: EINVAL; else the region goes on the context's QP list,
 *    keyed by the iova. CQ: the device has CQ_RESIZE, so the shadow area is
 *    registered on its own and needs no page here: cq_pages past the page
 *    count: EINVAL; else onto the context's CQ list. MEM: an STag (index <<
 *    8 | key) as lkey and rkey. Any other reg_type: EINVAL. QP and CQ
 *    regions have no keys (0).
 *  - DEREG_MR (irdma_dereg_mr, irdma_del_memlist): a QP or CQ region still
 *    on its list is taken off; the pages let go.
 *  - CREATE_CQ (irdma_create_cq): flags other than completion timestamps:
 *    EOPNOTSUPP; request shorter than offsetofend(irdma_create_cq_req,
 *    user_cq_buf) (8) or response room shorter than 8: EINVAL; cq_id
 *    allocated (EOVERFLOW); cq_size = max(cqe, 4); the request read as
 *    min(its size, inlen) (EFAULT); user_cq_buf looked up on the CQ list
 *    (found: taken off it) else EPROTO; then, CQ_RESIZE being set,
 *    user_shadow_area looked up the same way, else EPROTO (a region taken
 *    off before a failure stays off, as in irdma). No check of the buffer's
 *    size against cq_size (irdma has none). The answer cq_id and cq_size,
 *    copied as min(8, outlen) (EPROTO on failure); the CQ's cqe is cq_size.
 *  - CREATE_QP (irdma_create_qp, irdma_validate_qp_attrs,
 *    irdma_setup_umode_qp): create flags: EOPNOTSUPP; max_inline_data past
 *    101, max_send_sge or max_recv_sge past 13, max_send_wr past
 *    max_hw_wq_quanta, max_recv_wr past max_hw_rq_quanta: EINVAL; a type
 *    other than RC, UD or GSI: EOPNOTSUPP; request shorter than 16 or
 *    response room shorter than offsetofend(irdma_create_qp_resp, rsvd)
 *    (20): EINVAL; the QP number (GSI: 1; else allocated, EOVERFLOW);
 *    irdma_create_qp_req read (EFAULT); user_wqe_bufs looked up on the QP
 *    list (taken off) else ENODATA; user_compl_ctx kept. Sizes: without
 *    USE_RAW_ATTR the caps are in quanta already: sq_size = max_send_wr,
 *    rq_size = max_recv_wr (irdma_uk_calc_shift_wq's shifts only); with it
 *    the depths (max_wr << shift) + 258 (SQ) or + 1 (RQ) rounded up to a
 *    power of two, at least 8 << shift, past the quanta limits: EINVAL.
 *    The answer: qp_id, actual_sq_size, actual_rq_size, qp_caps (RC:
 *    SEND_WITH_IMM | WRITE_WITH_IMM | ROCE; UD: SEND_WITH_IMM | ROCE; both |
 *    PUSH_MODE on GEN_2), lsmm 0 (RoCE) and push_idx 0; room short of the
 *    whole answer (libi40iw's): lsmm 1, push_idx 0xffff. Copied as
 *    min(32, outlen).
 *  - MODIFY_QP (irdma_modify_qp_roce): driver request present but shorter
 *    than 2, or response room present but shorter than
 *    offsetofend(irdma_modify_qp_resp, push_valid) (19): EINVAL; attribute
 *    bits past the standard ones: EOPNOTSUPP; pkey index past the table of
 *    1: EINVAL; max_rd_atomic past 255 (max_hw_ord), max_dest_rd_atomic past
 *    127 (max_hw_ird): EINVAL; the state change the core's table allows, else
 *    EINVAL; with response room (GEN_2) irdma_modify_qp_resp copied as
 *    min(its size, outlen): push_valid 0 (no push page: irdma's push mode is
 *    off by default). QUERY_QP: the state, the caps as created and the
 *    attributes last set (irdma_query_qp).
 *  - CREATE_AH (irdma_create_user_ah): response room below 8: EINVAL; the
 *    answer ah_id.
 * What 6.12 changed, and this follows when built for it (everything else
 * above is the same in both, GEN_2's limits too):
 *  - GET_CONTEXT (irdma_alloc_ucontext): irdma_alloc_ucontext_resp grows to
 *    80 bytes: min_hw_wq_size (GEN_2: 8, ICRDMA_MIN_WQ_SIZE) after
 *    comp_mask, which says so with IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE (bit 1)
 *    beside USE_RAW_ATTR; still copied as min(its size, outlen), so a
 *    caller of 6.1's room (libirdma 44: 64 bytes, up to hw_rev) sees no
 *    change. With USE_RAW_ATTR the depths' floor is min_hw_wq_size << shift
 *    instead of IRDMA_QP_SW_MIN_WQSIZE << shift (irdma_uk_calc_depth_shift_
 *    sq/rq): both 8 on GEN_2, so the sizes are unchanged.
 *  - REG_MR (irdma_reg_user_mr, irdma_alloc_iwmr): a page size is looked
 *    for in every region, 4 KiB alone but for MEM, after the request is
 *    read and before the type is looked at: none fits: EOPNOTSUPP (a queue
 *    region cannot meet that from user space: the core already refuses an
 *    iova whose offset in its page is not the address's, EINVAL).
 *  - REREG_MR (irdma_rereg_user_mr, new): a length past max_mr_size:
 *    EINVAL; flags other than TRANS, PD, ACCESS: EOPNOTSUPP (the core
 *    refuses them first); a QP or CQ region: EINVAL; ACCESS without TRANS
 *    asking write of a range pinned read-only: EACCES (ib_umem_check_rereg);
 *    then the access and the PD as asked; with TRANS the old range let go,
 *    the new one pinned with the MR's access (its errno; the MR is then
 *    left with no range, as irdma leaves it de-registered) and a page size
 *    of 4 KiB, 2 MiB or 1 GiB found for it (none: EOPNOTSUPP). The STag,
 *    and so lkey and rkey, are kept: the core answers them unchanged.
 *  - CREATE_CQ: the op takes the ioctl's attribute bundle; mmap: VM flags
 *    through vm_flags_set() (from 6.3; no rule changes).
 * What stands in for the firmware: ids from IDAs; no memory is written.
 * What it does not: no data path, no resize of a CQ, no memory windows,
 * multicast, statistics, iWARP or GEN_1 (libi40iw) mode, no kernel verbs;
 * on 6.12 no dma-buf MR (reg_user_mr_dmabuf).
 * Delete NETDEV only after unloading the module.
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/sizes.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/irdma-abi.h>
#include "standin.h"

/* 6.12's rules, and its op signatures, where they differ from 6.1's. */
#define SD_V612 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

static char *netdev = "dummy0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "the Ethernet device under the RoCE port (default dummy0)");

/* irdma's GEN_2 limits (user.h, defs.h, icrdma_hw.h) and this function's. */
enum {
	SD_GEN_2 = 2,
	SD_FEATURE_RTS_AE = 1,
	SD_FEATURE_CQ_RESIZE = 2,
	SD_MAX_WQ_FRAGS = 13,
	SD_MAX_READ_SGES = 13,
	SD_MAX_INLINE = 101,
	SD_MAX_RQ_QUANTA = 32768,
	SD_MAX_WQ_QUANTA = 32768,
	SD_MAX_SQ_CHUNK = 8,		/* IRDMA_MAX_QUANTA_PER_WR */
	SD_MIN_CQ_SIZE = 1,
	SD_MAX_CQ_SIZE = 1048575,
	SD_MAX_IRD = 127,
	SD_MAX_ORD = 255,
	SD_SQ_RSVD = 258,
	SD_RQ_RSVD = 1,
	SD_MIN_WQSIZE = 8,		/* IRDMA_QP_SW_MIN_WQSIZE; 6.12: GEN_2's min_hw_wq_size */
	SD_PKEY_TBL_LEN = 1,
	SD_GID_TBL_LEN = 32,
	SD_MAX_PDS = 262144,
	/* what the HMC of this function would give */
	SD_MAX_QPS = 16384,
	SD_MAX_CQS = 32768,
	SD_MAX_MRS = 1 << 20,
	SD_MAX_AHS = 1 << 16,
	SD_FIRST_QP = 3,		/* 0 and 1 (GSI) are the device's */
	SD_VENDOR_ID = 0x8086,		/* Intel */
	SD_VENDOR_PART = 0x1592,	/* E810-C QSFP */
	SD_HW_REV = 2,
	SD_FW_MAJOR = 1, SD_FW_MINOR = 2,
	/* irdma_create_qp_resp.qp_caps (user.h) */
	SD_WRITE_WITH_IMM = 1,
	SD_SEND_WITH_IMM = 2,
	SD_ROCE = 4,
	SD_PUSH_MODE = 8,
	SD_INVALID_PUSH_IDX_GEN_1 = 0xffff,
};

#define SD_MAX_MR_SIZE 0x200000000000ULL	/* IRDMA_MAX_MR_SIZE */
#define SD_FEATURES (SD_FEATURE_RTS_AE | SD_FEATURE_CQ_RESIZE)

struct sd_dev {
	struct ib_device ibdev;
	int ifindex;
	struct page *db;		/* the doorbell page every context maps */
	struct ida pd_ida, cq_ida, qp_ida, mr_ida, ah_ida;
	atomic_t stag_key;
};

static struct sd_dev *sd_the_dev;

struct sd_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	struct page *page;
};

struct sd_ucontext {
	struct ib_ucontext ibuc;
	u8 abi_ver;
	bool use_raw_attrs;
	struct rdma_user_mmap_entry *db_entry;
	spinlock_t lists_lock;
	struct list_head cq_regs, qp_regs;	/* registered queue regions */
};

struct sd_pd {
	struct ib_pd ibpd;
	u32 pd_id;
};

struct sd_mr {
	struct ib_mr ibmr;
	u16 type;			/* enum irdma_memreg_type */
	int access;			/* MEM: as registered, or as a rereg changed it */
	struct ib_umem *umem;
	u64 user_base;
	struct list_head list;
	bool on_list;
	int stag_index;			/* MEM only; else -1 */
};

struct sd_cq {
	struct ib_cq ibcq;
	u32 cq_id;
};

struct sd_qp {
	struct ib_qp ibqp;
	u32 qpn;
	u64 compl_ctx;
	struct ib_qp_cap cap;		/* as created: sizes in the device's terms */
	struct mutex lock;
	enum ib_qp_state state;
	struct ib_qp_attr attr;		/* as last set; sgid_attr pointers dropped */
};

struct sd_ah {
	struct ib_ah ibah;
	u32 ah_id;
};

static struct sd_dev *to_sddev(struct ib_device *d) { return container_of(d, struct sd_dev, ibdev); }
static struct sd_ucontext *to_sduc(struct ib_ucontext *c) { return container_of(c, struct sd_ucontext, ibuc); }
static struct sd_pd *to_sdpd(struct ib_pd *p) { return container_of(p, struct sd_pd, ibpd); }
static struct sd_mr *to_sdmr(struct ib_mr *m) { return container_of(m, struct sd_mr, ibmr); }
static struct sd_cq *to_sdcq(struct ib_cq *c) { return container_of(c, struct sd_cq, ibcq); }
static struct sd_qp *to_sdqp(struct ib_qp *q) { return container_of(q, struct sd_qp, ibqp); }
static struct sd_ah *to_sdah(struct ib_ah *a) { return container_of(a, struct sd_ah, ibah); }

static struct sd_ucontext *udata_uc(struct ib_udata *udata)
{
	return rdma_udata_to_drv_context(udata, struct sd_ucontext, ibuc);
}

/* irdma_alloc_rsrc: EOVERFLOW when the table is full. */
static int sd_id_alloc(struct ida *ida, u32 first, u32 last)
{
	int id = ida_alloc_range(ida, first, last, GFP_KERNEL);

	return id == -ENOSPC ? -EOVERFLOW : id;
}

/* ---- device and port ----------------------------------------------------- */

static int sd_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			   struct ib_udata *udata)
{
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	props->sys_image_guid = ibdev->node_guid;
	props->fw_ver = (u64)SD_FW_MAJOR << 32 | SD_FW_MINOR;
	props->device_cap_flags = IB_DEVICE_MEM_WINDOW | IB_DEVICE_MEM_MGT_EXTENSIONS |
				  IB_DEVICE_RC_RNR_NAK_GEN;
	props->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	props->vendor_id = SD_VENDOR_ID;
	props->vendor_part_id = SD_VENDOR_PART;
	props->hw_ver = SD_HW_REV;
	props->page_size_cap = SZ_4K | SZ_2M | SZ_1G;
	props->max_mr_size = SD_MAX_MR_SIZE;
	props->max_qp = SD_MAX_QPS;
	props->max_qp_wr = (SD_MAX_WQ_QUANTA - SD_SQ_RSVD) / SD_MAX_SQ_CHUNK;
	props->max_send_sge = SD_MAX_WQ_FRAGS;
	props->max_recv_sge = SD_MAX_WQ_FRAGS;
	props->max_cq = SD_MAX_CQS;
	props->max_cqe = SD_MAX_CQ_SIZE - 1;
	props->max_mr = SD_MAX_MRS;
	props->max_mw = SD_MAX_MRS;
	props->max_pd = SD_MAX_PDS;
	props->max_sge_rd = SD_MAX_READ_SGES;
	props->max_qp_rd_atom = SD_MAX_IRD;
	props->max_qp_init_rd_atom = SD_MAX_ORD;
	props->max_pkeys = SD_PKEY_TBL_LEN;
	props->max_ah = SD_MAX_AHS;
	props->timestamp_mask = 0x1ffff;
	return 0;
}

static int sd_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *props)
{
	unsigned int mtu;

	/* the core zeroed props */
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = IB_MTU_256;
	props->lid = 1;
	props->state = IB_PORT_DOWN;
	props->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	props->active_width = IB_WIDTH_4X;
	props->active_speed = IB_SPEED_EDR;
	props->gid_tbl_len = SD_GID_TBL_LEN;
	props->ip_gids = true;
	props->pkey_tbl_len = SD_PKEY_TBL_LEN;
	props->port_cap_flags |= IB_PORT_CM_SUP | IB_PORT_REINIT_SUP;
	props->max_msg_sz = 0x7fffffff;

	if (sd_port_link(to_sddev(ibdev)->ifindex, props, &mtu))
		props->active_mtu = ib_mtu_int_to_enum(mtu);
	return 0;
}

/* Not sd_port_immutable_caps: irdma states the protocol before it queries
 * the port, as ib_query_port reads it to tell iWARP from RoCE. */
static int sd_port_immutable(struct ib_device *ibdev, u32 port,
			     struct ib_port_immutable *immutable)
{
	int err;

	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	err = sd_port_tables(ibdev, port, immutable);
	if (err)
		return err;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static int sd_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	return sd_default_pkey(index, SD_PKEY_TBL_LEN, pkey);
}

static void sd_fw_str(struct ib_device *ibdev, char *str)
{
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%d.%d", SD_FW_MAJOR, SD_FW_MINOR);
}

/* ---- user context and mmap ----------------------------------------------- */

static int sd_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibuc->device);
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct irdma_alloc_ucontext_req req = {};
	struct irdma_alloc_ucontext_resp resp = {};
	struct sd_mmap_entry *e;

	if (udata->inlen < offsetofend(struct irdma_alloc_ucontext_req, rsvd8) ||
	    udata->outlen < offsetofend(struct irdma_alloc_ucontext_resp, rsvd))
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EINVAL;
	if (req.userspace_ver < 4 || req.userspace_ver > IRDMA_ABI_VER)
		return -EINVAL;
	uc->abi_ver = req.userspace_ver;
	if (req.comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR)
		uc->use_raw_attrs = true;
	/* libi40iw's answer: GEN_1 hardware only */
	if (udata->outlen == offsetofend(struct irdma_alloc_ucontext_resp, rsvd))
		return -EOPNOTSUPP;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->page = dev->db;
	if (rdma_user_mmap_entry_insert(ibuc, &e->rdma_entry, PAGE_SIZE)) {
		kfree(e);
		return -ENOMEM;
	}
	uc->db_entry = &e->rdma_entry;
	resp.db_mmap_key = rdma_user_mmap_get_offset(&e->rdma_entry);
	resp.kernel_ver = IRDMA_ABI_VER;
	resp.feature_flags = SD_FEATURES;
	resp.max_hw_wq_frags = SD_MAX_WQ_FRAGS;
	resp.max_hw_read_sges = SD_MAX_READ_SGES;
	resp.max_hw_inline = SD_MAX_INLINE;
	resp.max_hw_rq_quanta = SD_MAX_RQ_QUANTA;
	resp.max_hw_wq_quanta = SD_MAX_WQ_QUANTA;
	resp.max_hw_sq_chunk = SD_MAX_SQ_CHUNK;
	resp.max_hw_cq_size = SD_MAX_CQ_SIZE;
	resp.min_hw_cq_size = SD_MIN_CQ_SIZE;
	resp.hw_rev = SD_GEN_2;
	resp.comp_mask |= IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
#if SD_V612
	resp.min_hw_wq_size = SD_MIN_WQSIZE;
	resp.comp_mask |= IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE;
#endif
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		rdma_user_mmap_entry_remove(uc->db_entry);
		return -EFAULT;
	}
	spin_lock_init(&uc->lists_lock);
	INIT_LIST_HEAD(&uc->cq_regs);
	INIT_LIST_HEAD(&uc->qp_regs);
	return 0;
}

static void sd_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	rdma_user_mmap_entry_remove(to_sduc(ibuc)->db_entry);
}

static void sd_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	kfree(container_of(rdma_entry, struct sd_mmap_entry, rdma_entry));
}

static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct sd_mmap_entry *e;
	int err;

	/* shared, a key of this context, the entry's length: else EINVAL */
	rdma_entry = rdma_user_mmap_entry_get(ibuc, vma);
	if (!rdma_entry)
		return -EINVAL;
	e = container_of(rdma_entry, struct sd_mmap_entry, rdma_entry);
	err = sd_vm_insert_page(vma, e->page);
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

/* ---- PD ------------------------------------------------------------------ */

static int sd_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibpd->device);
	struct irdma_alloc_pd_resp resp = {};
	int id;

	if (udata && udata->outlen < offsetofend(struct irdma_alloc_pd_resp, rsvd))
		return -EINVAL;
	id = sd_id_alloc(&dev->pd_ida, 1, SD_MAX_PDS - 1);
	if (id < 0)
		return id;
	to_sdpd(ibpd)->pd_id = id;
	resp.pd_id = id;
	if (udata && ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		ida_free(&dev->pd_ida, id);
		return -EFAULT;
	}
	return 0;
}

static int sd_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ida_free(&to_sddev(ibpd->device)->pd_ida, to_sdpd(ibpd)->pd_id);
	return 0;
}

/* ---- MR: memory and queue regions ------------------------------------------ */

/* irdma_get_pbl: the region registered at VA, taken off the list. */
static struct sd_mr *sd_take_region(struct sd_ucontext *uc, struct list_head *list, u64 va)
{
	struct sd_mr *mr, *found = NULL;

	spin_lock(&uc->lists_lock);
	list_for_each_entry(mr, list, list) {
		if (mr->user_base == va) {
			list_del(&mr->list);
			mr->on_list = false;
			found = mr;
			break;
		}
	}
	spin_unlock(&uc->lists_lock);
	return found;
}

static struct ib_mr *sd_reg_user_mr(struct ib_pd *pd, u64 start, u64 len, u64 virt,
				    int access, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(pd->device);
	struct sd_ucontext *uc;
	struct irdma_mem_reg_req req;
	struct ib_umem *umem;
	unsigned long page_size = SZ_4K;
	size_t page_cnt;
	struct sd_mr *mr;
	int err = -EINVAL;

	if (len > SD_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);
	if (udata->inlen < offsetofend(struct irdma_mem_reg_req, sq_pages))
		return ERR_PTR(-EINVAL);
	umem = ib_umem_get(pd->device, start, len, access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen))) {
		ib_umem_release(umem);
		return ERR_PTR(-EFAULT);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr) {
		ib_umem_release(umem);
		return ERR_PTR(-ENOMEM);
	}
	mr->umem = umem;
	mr->stag_index = -1;
	mr->ibmr.iova = virt;
	mr->user_base = virt;
	mr->type = req.reg_type;
	mr->access = access;
#if SD_V612
	/* irdma_alloc_iwmr: a page size for every type, 4 KiB alone but for
	 * MEM, before the type is looked at */
	page_size = ib_umem_find_best_pgsz(umem, req.reg_type == IRDMA_MEMREG_TYPE_MEM ?
						 SZ_4K | SZ_2M | SZ_1G : SZ_4K, virt);
	if (!page_size) {
		err = -EOPNOTSUPP;
		goto err;
	}
#else
	if (req.reg_type == IRDMA_MEMREG_TYPE_MEM) {
		page_size = ib_umem_find_best_pgsz(umem, SZ_4K | SZ_2M | SZ_1G, virt);
		if (!page_size) {
			err = -EOPNOTSUPP;
			goto err;
		}
	}
#endif
	page_cnt = ib_umem_num_dma_blocks(umem, page_size);
	uc = udata_uc(udata);

	switch (req.reg_type) {
	case IRDMA_MEMREG_TYPE_QP:
		/* RoCE: no page-offset check (iWARP's) */
		if ((size_t)req.sq_pages + req.rq_pages + 1 > page_cnt)
			goto err;
		spin_lock(&uc->lists_lock);
		list_add_tail(&mr->list, &uc->qp_regs);
		mr->on_list = true;
		spin_unlock(&uc->lists_lock);
		break;
	case IRDMA_MEMREG_TYPE_CQ:
		/* CQ_RESIZE: the shadow area is a region of its own */
		if (req.cq_pages > page_cnt)
			goto err;
		spin_lock(&uc->lists_lock);
		list_add_tail(&mr->list, &uc->cq_regs);
		mr->on_list = true;
		spin_unlock(&uc->lists_lock);
		break;
	case IRDMA_MEMREG_TYPE_MEM:
		err = sd_id_alloc(&dev->mr_ida, 1, SD_MAX_MRS - 1);
		if (err < 0) {
			err = -ENOMEM;
			goto err;
		}
		mr->stag_index = err;
		mr->ibmr.lkey = (u32)err << 8 | (atomic_inc_return(&dev->stag_key) & 0xff);
		mr->ibmr.rkey = mr->ibmr.lkey;
		break;
	default:
		goto err;
	}
	return &mr->ibmr;

err:
	ib_umem_release(umem);
	kfree(mr);
	return ERR_PTR(err);
}

#if SD_V612
/* irdma_rereg_user_mr: a MEM region alone, its STag kept, what the flags
 * name changed. A new range lets the old one go first: when taking the new
 * one fails, the MR is left with none, as irdma leaves it (de-registered
 * in the hardware). */
static struct ib_mr *sd_rereg_user_mr(struct ib_mr *ibmr, int flags, u64 start, u64 len,
				      u64 virt, int access, struct ib_pd *new_pd,
				      struct ib_udata *udata)
{
	struct sd_mr *mr = to_sdmr(ibmr);
	struct ib_umem *umem;
	int err;

	if (len > SD_MAX_MR_SIZE)
		return ERR_PTR(-EINVAL);
	if (flags & ~(IB_MR_REREG_TRANS | IB_MR_REREG_PD | IB_MR_REREG_ACCESS))
		return ERR_PTR(-EOPNOTSUPP);
	if (mr->type != IRDMA_MEMREG_TYPE_MEM)
		return ERR_PTR(-EINVAL);
	err = ib_umem_check_rereg(mr->umem, flags, access);
	if (err)
		return ERR_PTR(err);
	if (flags & IB_MR_REREG_ACCESS)
		mr->access = access;
	if (flags & IB_MR_REREG_PD) {
		ibmr->pd = new_pd;
		ibmr->device = new_pd->device;
	}
	if (!(flags & IB_MR_REREG_TRANS))
		return NULL;
	ib_umem_release(mr->umem);
	mr->umem = NULL;
	umem = ib_umem_get(ibmr->pd->device, start, len, mr->access);
	if (IS_ERR(umem))
		return ERR_CAST(umem);
	ibmr->iova = virt;
	if (!ib_umem_find_best_pgsz(umem, SZ_4K | SZ_2M | SZ_1G, virt)) {
		ib_umem_release(umem);
		return ERR_PTR(-EOPNOTSUPP);
	}
	mr->umem = umem;
	mr->user_base = virt;
	return NULL;
}
#endif

static int sd_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sd_mr *mr = to_sdmr(ibmr);

	if (mr->type != IRDMA_MEMREG_TYPE_MEM) {
		struct sd_ucontext *uc = udata_uc(udata);

		spin_lock(&uc->lists_lock);
		if (mr->on_list) {
			mr->on_list = false;
			list_del(&mr->list);
		}
		spin_unlock(&uc->lists_lock);
	} else {
		ida_free(&to_sddev(ibmr->device)->mr_ida, mr->stag_index);
	}
	ib_umem_release(mr->umem);
	kfree(mr);
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
	struct irdma_create_cq_req req = {};
	struct irdma_create_cq_resp resp = {};
	struct sd_ucontext *uc;
	u32 cq_size;
	int id, err;

	if (attr->flags & ~IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION)
		return -EOPNOTSUPP;
	if (!udata)		/* no kernel CQs here */
		return -EOPNOTSUPP;
	if (udata->inlen < offsetofend(struct irdma_create_cq_req, user_cq_buf) ||
	    udata->outlen < offsetofend(struct irdma_create_cq_resp, cq_size))
		return -EINVAL;
	id = sd_id_alloc(&dev->cq_ida, 1, SD_MAX_CQS - 1);
	if (id < 0)
		return id;
	cq_size = max_t(int, attr->cqe, 4);
	uc = udata_uc(udata);
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen))) {
		err = -EFAULT;
		goto err;
	}
	err = -EPROTO;
	if (!sd_take_region(uc, &uc->cq_regs, req.user_cq_buf))
		goto err;
	/* CQ_RESIZE and not legacy: the shadow area registered apart */
	if (!sd_take_region(uc, &uc->cq_regs, req.user_shadow_area))
		goto err;
	resp.cq_id = id;
	resp.cq_size = cq_size;
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen)))
		goto err;
	cq->cq_id = id;
	ibcq->cqe = cq_size;
	return 0;

err:
	ida_free(&dev->cq_ida, id);
	return err;
}

static int sd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	ida_free(&to_sddev(ibcq->device)->cq_ida, to_sdcq(ibcq)->cq_id);
	return 0;
}

/* ---- QP ------------------------------------------------------------------ */

/* irdma_get_wqe_shift, GEN_2 */
static u8 sd_wqe_shift(u32 sge, u32 inline_data)
{
	if (sge > 1 || inline_data > 8) {
		if (sge < 4 && inline_data <= 39)
			return 1;
		if (sge < 8 && inline_data <= 101)
			return 2;
		return 3;
	}
	return 0;
}

/* irdma_get_sqdepth / irdma_get_rqdepth */
static int sd_depth(u32 size, u8 shift, u32 rsvd, u32 max, u32 *depth)
{
	u64 d = roundup_pow_of_two((u64)(size << shift) + rsvd);

	if (d < (SD_MIN_WQSIZE << shift))
		d = SD_MIN_WQSIZE << shift;
	else if (d > max)
		return -EINVAL;
	*depth = d;
	return 0;
}

static int sd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct irdma_create_qp_req req;
	struct irdma_create_qp_resp resp = {};
	struct sd_ucontext *uc;
	u32 sq_size, rq_size;
	u8 sq_shift, rq_shift;
	int err;

	if (init->create_flags)
		return -EOPNOTSUPP;
	if (init->cap.max_inline_data > SD_MAX_INLINE ||
	    init->cap.max_send_sge > SD_MAX_WQ_FRAGS ||
	    init->cap.max_recv_sge > SD_MAX_WQ_FRAGS ||
	    init->cap.max_send_wr > SD_MAX_WQ_QUANTA ||
	    init->cap.max_recv_wr > SD_MAX_RQ_QUANTA)
		return -EINVAL;
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UD &&
	    init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (!udata)		/* no kernel QPs here */
		return -EOPNOTSUPP;
	if (udata->inlen < offsetofend(struct irdma_create_qp_req, user_compl_ctx) ||
	    udata->outlen < offsetofend(struct irdma_create_qp_resp, rsvd))
		return -EINVAL;

	if (init->qp_type == IB_QPT_GSI) {
		qp->qpn = 1;
	} else {
		err = sd_id_alloc(&dev->qp_ida, SD_FIRST_QP, SD_MAX_QPS - 1);
		if (err < 0)
			return err;
		qp->qpn = err;
	}
	uc = udata_uc(udata);
	err = ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen));
	if (err)
		goto err;
	qp->compl_ctx = req.user_compl_ctx;
	if (!sd_take_region(uc, &uc->qp_regs, req.user_wqe_bufs)) {
		err = -ENODATA;
		goto err;
	}

	/* GEN_2 carries immediate data: one fragment more for the SQ */
	sq_shift = sd_wqe_shift(init->cap.max_send_sge + 1, init->cap.max_inline_data);
	rq_shift = sd_wqe_shift(init->cap.max_recv_sge, 0);
	qp->cap = init->cap;
	if (!uc->use_raw_attrs) {
		/* the caps are the library's quanta counts */
		sq_size = init->cap.max_send_wr;
		rq_size = init->cap.max_recv_wr;
	} else {
		u32 sq_depth, rq_depth;

		err = sd_depth(init->cap.max_send_wr, sq_shift, SD_SQ_RSVD,
			       SD_MAX_WQ_QUANTA, &sq_depth);
		if (err)
			goto err;
		err = sd_depth(init->cap.max_recv_wr, rq_shift, SD_RQ_RSVD,
			       SD_MAX_RQ_QUANTA, &rq_depth);
		if (err)
			goto err;
		qp->cap.max_send_wr = (sq_depth - SD_SQ_RSVD) >> sq_shift;
		qp->cap.max_recv_wr = (rq_depth - SD_RQ_RSVD) >> rq_shift;
		sq_size = sq_depth >> sq_shift;
		rq_size = rq_depth >> rq_shift;
	}

	resp.qp_caps = init->qp_type == IB_QPT_RC ?
		       SD_SEND_WITH_IMM | SD_WRITE_WITH_IMM | SD_ROCE :
		       SD_SEND_WITH_IMM | SD_ROCE;
	resp.qp_caps |= SD_PUSH_MODE;		/* GEN_2 */
	if (udata->outlen < sizeof(resp)) {	/* libi40iw's shorter answer */
		resp.lsmm = 1;
		resp.push_idx = SD_INVALID_PUSH_IDX_GEN_1;
	}
	resp.actual_sq_size = sq_size;
	resp.actual_rq_size = rq_size;
	resp.qp_id = qp->qpn;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		goto err;

	ibqp->qp_num = qp->qpn;
	mutex_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->attr.port_num = 1;
	return 0;

err:
	if (init->qp_type != IB_QPT_GSI)
		ida_free(&dev->qp_ida, qp->qpn);
	return err;
}

static int sd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	if (ibqp->qp_type != IB_QPT_GSI)
		ida_free(&to_sddev(ibqp->device)->qp_ida, qp->qpn);
	return 0;
}

static int sd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	struct irdma_modify_qp_resp resp = {};
	int err = 0;

	if (udata &&
	    ((udata->inlen && udata->inlen < offsetofend(struct irdma_modify_qp_req, rq_flush)) ||
	     (udata->outlen && udata->outlen < offsetofend(struct irdma_modify_qp_resp, push_valid))))
		return -EINVAL;
	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= SD_PKEY_TBL_LEN)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > SD_MAX_ORD)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > SD_MAX_IRD)
		return -EINVAL;

	mutex_lock(&qp->lock);
	if ((mask & IB_QP_STATE) &&
	    !ib_modify_qp_is_ok(qp->state, attr->qp_state, ibqp->qp_type, mask)) {
		err = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_STATE)
		qp->state = attr->qp_state;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_AV) {
		qp->attr.ah_attr = attr->ah_attr;
		qp->attr.ah_attr.grh.sgid_attr = NULL;	/* the core owns it */
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
	if (mask & IB_QP_SQ_PSN)
		qp->attr.sq_psn = attr->sq_psn;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic)
		qp->attr.max_rd_atomic = attr->max_rd_atomic;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->attr.min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_DEST_QPN)
		qp->attr.dest_qp_num = attr->dest_qp_num;
out:
	mutex_unlock(&qp->lock);
	if (err)
		return err;
	/* GEN_2 answers when there is room: no push page to offer */
	if (udata && udata->outlen)
		return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	return 0;
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
	qa->cap = qp->cap;
	qa->port_num = 1;
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = qa->cap;
	return 0;
}

/* ---- AH ------------------------------------------------------------------ */

static int sd_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibah->device);
	struct irdma_create_ah_resp resp = {};
	int id;

	if (udata && udata->outlen < offsetofend(struct irdma_create_ah_resp, rsvd))
		return -EINVAL;
	id = sd_id_alloc(&dev->ah_ida, 1, SD_MAX_AHS - 1);
	if (id < 0)
		return id;
	to_sdah(ibah)->ah_id = id;
	resp.ah_id = id;
	if (udata && ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		ida_free(&dev->ah_ida, id);
		return -EFAULT;
	}
	return 0;
}

static int sd_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	ida_free(&to_sddev(ibah->device)->ah_ida, to_sdah(ibah)->ah_id);
	return 0;
}

/* ---- registration -------------------------------------------------------- */

static const struct ib_device_ops sd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_IRDMA,
	.uverbs_abi_ver = IRDMA_ABI_VER,

	.alloc_pd = sd_alloc_pd,
	.alloc_ucontext = sd_alloc_ucontext,
	.create_ah = sd_create_ah,
	.create_user_ah = sd_create_ah,
	.create_cq = sd_create_cq,
	.create_qp = sd_create_qp,
	.dealloc_pd = sd_dealloc_pd,
	.dealloc_ucontext = sd_dealloc_ucontext,
	.dereg_mr = sd_dereg_mr,
	.destroy_ah = sd_destroy_ah,
	.destroy_cq = sd_destroy_cq,
	.destroy_qp = sd_destroy_qp,
	.get_dev_fw_str = sd_fw_str,
	.get_link_layer = sd_link_layer_ethernet,
	.get_port_immutable = sd_port_immutable,
	.mmap = sd_mmap,
	.mmap_free = sd_mmap_free,
	.modify_qp = sd_modify_qp,
	.query_device = sd_query_device,
	.query_pkey = sd_query_pkey,
	.query_port = sd_query_port,
	.query_qp = sd_query_qp,
	.reg_user_mr = sd_reg_user_mr,
#if SD_V612
	.rereg_user_mr = sd_rereg_user_mr,
#endif

	INIT_RDMA_OBJ_SIZE(ib_ah, sd_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, sd_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, sd_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sd_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, sd_ucontext, ibuc),
};

static void sd_destroy_ids(struct sd_dev *dev)
{
	ida_destroy(&dev->pd_ida);
	ida_destroy(&dev->cq_ida);
	ida_destroy(&dev->qp_ida);
	ida_destroy(&dev->mr_ida);
	ida_destroy(&dev->ah_ida);
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
	dev->db = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!dev->db) {
		dev_put(ndev);
		ib_dealloc_device(&dev->ibdev);
		return -ENOMEM;
	}
	dev->ifindex = ndev->ifindex;
	ida_init(&dev->pd_ida);
	ida_init(&dev->cq_ida);
	ida_init(&dev->qp_ida);
	ida_init(&dev->mr_ida);
	ida_init(&dev->ah_ida);
	atomic_set(&dev->stag_key, 0);

	sd_ibdev_on_netdev(&dev->ibdev, ndev, &sd_ops);

	err = sd_register_on_netdev(&dev->ibdev, ndev, "irdma%d");
	if (err)
		goto err_dealloc;
	sd_the_dev = dev;
	pr_info("irdma_standin: %s on %s\n", dev_name(&dev->ibdev.dev), netdev);
	return 0;

err_dealloc:
	sd_destroy_ids(dev);
	put_page(dev->db);
	ib_dealloc_device(&dev->ibdev);
	return err;
}

static void __exit sd_exit(void)
{
	struct sd_dev *dev = sd_the_dev;

	ib_unregister_device(&dev->ibdev);
	sd_destroy_ids(dev);
	put_page(dev->db);	/* mappings hold their own references */
	ib_dealloc_device(&dev->ibdev);
}

module_init(sd_init);
module_exit(sd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("irdma's user ABI on a software device (a test fixture)");
