// SPDX-License-Identifier: GPL-2.0
/*
 * mlx4_standin: an RDMA device that answers the uverbs ABI as mlx4_ib does,
 * without hardware. A test fixture of libuverbs-ioctl (the rest of that
 * project is MIT; this file is GPL-2.0 because it restates mlx4_ib's rules).
 * Never installed: tests/standin/build.sh builds it against the Debian
 * headers of the guest's kernel and the kernel suite loads it in a qemu
 * guest.
 *
 *   insmod mlx4_standin.ko [netdev=dummy0] [abi=3|4]
 *
 * registers mlx4_0 (driver id RDMA_DRIVER_MLX4, uverbs ABI version 4, as
 * mlx4_ib declares it for a device with user capabilities, or 3) with one RoCE
 * port on NETDEV, so that Debian's libmlx4 (rdma-core 44) drives it through
 * libibverbs as it drives a ConnectX-3.
 *
 * What of mlx4_ib it reproduces, as Linux 6.1 states it (Debian 6.1.192,
 * drivers/infiniband/hw/mlx4 and include/uapi/rdma/mlx4-abi.h): the
 * user-data (UHW) contract of every command below, the checks in mlx4_ib's
 * order with its errno, and the lengths it pins. The rules are transcribed;
 * the code is written anew. Linux 6.12 (Debian 6.12.118) was read too:
 * mlx4_ib's user-data rules below are the same there (its alloc_ucontext,
 * mmap, query_device, CQ, QP, SRQ, doorbell and AH code unchanged; create_cq
 * takes the ioctl's attribute bundle, its udata the bundle's), so built for
 * 6.12 or later (SD_V612) only that signature differs; kernels between
 * them are not told apart.
 *  - GET_CONTEXT (mlx4_ib_alloc_ucontext): no request is read; the answer
 *    is mlx4_ib_alloc_ucontext_resp (dev_caps, qp_tab_size, bf_reg_size,
 *    bf_regs_per_page, cqe_size), 16 bytes copied with ib_copy_to_udata,
 *    whatever the caller's length says. With abi=3 the device is one
 *    without user capabilities, registered as mlx4_ib registers it then:
 *    uverbs ABI version 3, the answer mlx4_ib_alloc_ucontext_resp_v3
 *    (qp_tab_size, bf_reg_size, bf_regs_per_page; 8 bytes) and 32-byte
 *    CQEs; by default ABI 4 and 64-byte CQEs (MLX4_USER_DEV_CAP_LARGE_CQE).
 *    Each context holds one UAR page and one blue-flame page.
 *  - mmap (mlx4_ib_mmap): page offset 0 the UAR page, 1 the blue-flame
 *    page (bf_reg_size is not 0), each exactly one page, shared (else
 *    EINVAL, from rdma_user_mmap_io); 3 the HCA clock: refused as
 *    mlx4_get_internal_clock_params refuses a device that does not map its
 *    clock to users (EOPNOTSUPP); any other offset EINVAL.
 *  - ALLOC_PD (mlx4_ib_alloc_pd): 4 bytes out, the pdn.
 *  - CREATE_CQ (mlx4_ib_create_cq): entries < 1 or past max_cqes: EINVAL;
 *    any flag but completion timestamps: EINVAL; entries = the count plus
 *    one rounded up to a power of two. mlx4_ib_create_cq (buf_addr,
 *    db_addr) read as 16 bytes whatever the caller's length (the core
 *    copies from the caller's memory: EFAULT where there is none). The
 *    buffer pinned (ib_umem_get, local write) for exactly entries x the
 *    device's CQE size (mlx4_ib_get_cq_umem), at any alignment (the MTT
 *    takes the offset); the doorbell's page pinned and shared by the
 *    context's records in that page (mlx4_ib_db_map_user). 4 bytes out,
 *    the cqn.
 *  - RESIZE_CQ (mlx4_ib_resize_cq, mlx4_alloc_resize_umem): entries < 1 or
 *    past max_cqes: EINVAL; the rounded count equal to the CQ's: nothing
 *    done, 0; past max_cqes + 1: EINVAL; mlx4_ib_resize_cq (buf_addr)
 *    read as 8 bytes, the new buffer pinned for entries x CQE size, the
 *    old one let go. (mlx4_alloc_resize_umem's EBUSY for a resize under way
 *    cannot be reached under mlx4_ib's resize mutex; a mutex here too.)
 *  - CREATE_QP (_mlx4_ib_create_qp, create_qp_common, set_rq_size,
 *    set_user_sq_size): create flags other than mlx4's own: EOPNOTSUPP;
 *    from a user, any but block-multicast-loopback: EINVAL; RC, UC, UD (and
 *    raw packet, which this device refuses as ib_core does without the
 *    capability); XRC: ENOSYS (no XRC capability); others EOPNOTSUPP.
 *    mlx4_ib_create_qp read as 24 bytes (sq_no_prefetch and inl_recv_sz
 *    kept; the reserved byte is not checked, as in mlx4_ib). The receive
 *    queue: max_recv_wr past max_wqes less the send queue's spare WQEs (33)
 *    or max_recv_sge past min(max_sq_sg, max_rq_sg): EINVAL; no receive
 *    queue (an SRQ) with max_recv_wr or inl_recv_sz: EINVAL; a receive
 *    queue from a user with max_recv_wr 0, max_recv_sge 0 or inl_recv_sz
 *    past max_rq_sg x 16: EINVAL; wqe_cnt and max_gs rounded up to powers of
 *    two, the stride 16 x max_gs (or inl_recv_sz, the larger). The send
 *    queue as the user states it: 2^log_sq_bb_count overflowing or past
 *    max_wqes: EINVAL; log_sq_stride past log2 of max_sq_desc_sz rounded up
 *    to a power of two, or below 6: EINVAL. The buffer pinned for
 *    (rq.wqe_cnt << rq.wqe_shift) + (2^log_sq_bb_count << log_sq_stride)
 *    bytes (access 0); the doorbell's page only where the QP has a receive
 *    queue. No driver data out. The caps the core answers are the
 *    receive queue's rounded ones.
 *  - MODIFY_QP: no driver data; attribute bits past the standard ones:
 *    EOPNOTSUPP; the core's state machine, port 1, pkey index within the
 *    table, at most max_qp_init_rdma / max_qp_dest_rdma outstanding reads:
 *    EINVAL; RoCE addresses need a GRH (EINVAL). QUERY_QP: the state and
 *    attributes last set; a user QP's send caps 0, its receive caps the
 *    rounded ones (mlx4_ib_query_qp).
 *  - CREATE_SRQ (mlx4_ib_create_srq): a type other than basic or XRC:
 *    EOPNOTSUPP; XRC: ENOSYS here (no XRC capability); max_wr at or past
 *    max_srq_wqes, max_sge past max_srq_sge: EINVAL; descriptors
 *    max_wr + 1 rounded up to a power of two, each 16 + 16 x max_sge
 *    rounded up to a power of two, at least 32; mlx4_ib_create_srq read as
 *    16 bytes; the buffer pinned for descriptors x size; the doorbell's
 *    page; 4 bytes out, the srqn; max_wr answered as descriptors less one.
 *    MODIFY_SRQ: max_wr EINVAL, a limit at or past the descriptors EINVAL.
 *  - REG_MR: the range pinned with the caller's access. CREATE_AH (RoCE):
 *    a GRH is required (EINVAL); no driver data.
 *  - EX_QUERY_DEVICE (mlx4_ib_query_device): driver input shorter than
 *    mlx4_uverbs_ex_query_device (8 bytes), or with comp_mask or reserved
 *    set: EINVAL; the answer's sections counted as mlx4_ib counts them for
 *    the caller's length: the clock offset (no clock: its bit clear), the
 *    largest inline receive, the RSS and TSO capabilities (none here).
 * What stands in for the firmware: pdn, cqn, qpn, srqn and mkeys come from
 * IDAs; the UAR and blue-flame pages are zeroed memory the process maps (its
 * doorbell writes land there). As a ConnectX-3 does, the CQ buffers are made
 * hardware-owned when a CQ is created or resized (the owner bit of each CQE
 * set; libmlx4 hands them over zeroed), and a resize writes a "resize" CQE
 * (opcode 0x16) in the old buffer at the producer index, which libmlx4 waits
 * for before it moves to the new buffer.
 * What it does not: no data path (nothing is sent, received or completed),
 * no kernel verbs (no MAD, CM or IPoIB), no XRC, RSS, WQs, raw packet QPs,
 * memory windows, flow steering, multicast, counters or clock. Delete NETDEV
 * only after unloading the module.
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/etherdevice.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <net/addrconf.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mlx4-abi.h>
#include "standin.h"

/* 6.12's op signatures where they differ from 6.1's (see the header). */
#define SD_V612 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

static char *netdev = "dummy0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "the Ethernet device under the RoCE port (default dummy0)");
static int abi = MLX4_IB_UVERBS_ABI_VERSION;
module_param(abi, int, 0444);
MODULE_PARM_DESC(abi, "4 (default): a device with user capabilities (64-byte CQEs); "
		 "3: one without, as mlx4_ib registers it then");

/* The HCA this stands in for: ConnectX-3-like limits. */
enum {
	SD_NUM_QPS = 1 << 17,		/* qp_tab_size */
	SD_MAX_WQES = 16384,
	SD_MAX_SQ_SG = 32,
	SD_MAX_RQ_SG = 32,
	SD_MAX_SQ_DESC_SZ = 1008,
	SD_MAX_CQES = (1 << 22) - 1,
	SD_MAX_CQS = 1 << 16,
	SD_MAX_SRQ_WQES = 16384,
	SD_MAX_SRQ_SGE = 31,
	SD_MAX_SRQS = 1 << 16,
	SD_MAX_MPTS = 1 << 20,
	SD_MAX_PDS = 1 << 15,
	SD_MAX_QP_INIT_RDMA = 16,
	SD_MAX_QP_DEST_RDMA = 16,
	SD_BF_REG_SIZE = 512,
	SD_BF_REGS_PER_PAGE = 8,
	SD_GID_TBL_LEN = 128,
	SD_PKEY_TBL_LEN = 1,
	SD_LOG_MAX_MSG = 31,
	SD_VENDOR_ID = 0x02c9,		/* Mellanox */
	SD_VENDOR_PART = 4099,		/* ConnectX-3 */
	SD_FW_MAJOR = 2, SD_FW_MINOR = 42, SD_FW_SUB = 5000,
};

/* mlx4's layout constants. */
enum {
	SD_SQ_MAX_SPARE = (2048 >> 6) + 1,	/* MLX4_IB_SQ_MAX_SPARE */
	SD_MIN_SQ_STRIDE = 6,			/* MLX4_IB_MIN_SQ_STRIDE */
	SD_DATA_SEG = 16,			/* struct mlx4_wqe_data_seg */
	SD_SRQ_NEXT_SEG = 16,			/* struct mlx4_wqe_srq_next_seg */
	SD_CQE_OWNER = 0x80,			/* MLX4_CQE_OWNER_MASK */
	SD_CQE_OPCODE_RESIZE = 0x16,		/* MLX4_CQE_OPCODE_RESIZE */
	SD_MMAP_UAR = 0,
	SD_MMAP_BF = 1,
	SD_MMAP_CLOCK = 3,
};

/* The driver input of EX_QUERY_DEVICE (mlx4_ib.h's, not in the UAPI). */
struct sd_ex_query_device {
	u32 comp_mask;
	u32 reserved;
};

/* mlx4_core gives 64-byte CQEs and says so to users (the large-CQE user
 * capability); a device without user capabilities has 32-byte ones. */
static bool sd_abi3(void)
{
	return abi == MLX4_IB_UVERBS_NO_DEV_CAPS_ABI_VERSION;
}

static size_t sd_cqe_size(void)
{
	return sd_abi3() ? 32 : 64;
}

struct sd_dev {
	struct ib_device ibdev;
	int ifindex;
	struct ida pdn_ida, cqn_ida, qpn_ida, srqn_ida, mkey_ida;
	atomic_t mkey_variant;
};

static struct sd_dev *sd_the_dev;

/* A page of doorbell records, pinned once for the records of one context
 * in it (mlx4_ib_user_db_page). */
struct sd_db_page {
	struct list_head list;
	unsigned long user_virt;
	struct ib_umem *umem;
	unsigned int refcnt;
};

struct sd_ucontext {
	struct ib_ucontext ibuc;
	struct mutex db_lock;
	struct list_head db_pages;
	struct page *uar, *bf;		/* the context's UAR and blue-flame pages */
};

struct sd_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

struct sd_cq {
	struct ib_cq ibcq;
	u32 cqn;
	u32 produced;		/* CQEs written: the resize CQEs */
	struct ib_umem *umem;
	struct sd_db_page *db;
	struct mutex resize_lock;
};

struct sd_srq {
	struct ib_srq ibsrq;
	u32 srqn;
	u32 max;		/* descriptors, a power of two */
	u32 max_gs;
	u32 limit;
	struct ib_umem *umem;
	struct sd_db_page *db;
	struct mutex lock;
};

struct sd_qp {
	struct ib_qp ibqp;
	u32 qpn;
	u32 rq_wqe_cnt, rq_max_gs, rq_wqe_shift;
	u32 sq_wqe_cnt, sq_wqe_shift;
	u8 sq_no_prefetch;
	u32 inl_recv_sz;
	struct ib_umem *umem;
	struct sd_db_page *db;	/* NULL: no receive queue */
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
	u8 dmac[ETH_ALEN];
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

/* ---- doorbell records (mlx4_ib_db_map_user) ------------------------------ */

static int sd_db_map(struct sd_ucontext *uc, u64 virt, struct sd_db_page **out)
{
	unsigned long page_virt = (unsigned long)virt & PAGE_MASK;
	struct sd_db_page *p;
	int err = 0;

	mutex_lock(&uc->db_lock);
	list_for_each_entry(p, &uc->db_pages, list)
		if (p->user_virt == page_virt)
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
	list_add(&p->list, &uc->db_pages);
found:
	p->refcnt++;
	*out = p;
out:
	mutex_unlock(&uc->db_lock);
	return err;
}

static void sd_db_unmap(struct sd_ucontext *uc, struct sd_db_page *p)
{
	mutex_lock(&uc->db_lock);
	if (!--p->refcnt) {
		list_del(&p->list);
		ib_umem_release(p->umem);
		kfree(p);
	}
	mutex_unlock(&uc->db_lock);
}

/* ---- device and port ----------------------------------------------------- */

static int sd_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			   struct ib_udata *uhw)
{
	struct sd_ex_query_device cmd;
	struct mlx4_uverbs_ex_query_device_resp resp = {};
	size_t outlen = uhw ? uhw->outlen : 0;
	int err;

	if (uhw && uhw->inlen) {
		if (uhw->inlen < sizeof(cmd))
			return -EINVAL;
		err = ib_copy_from_udata(&cmd, uhw, sizeof(cmd));
		if (err)
			return err;
		if (cmd.comp_mask || cmd.reserved)
			return -EINVAL;
	}
	resp.response_length = offsetofend(typeof(resp), response_length);

	memset(props, 0, sizeof(*props));
	props->sys_image_guid = ibdev->node_guid;
	props->max_pkeys = SD_PKEY_TBL_LEN;
	props->vendor_id = SD_VENDOR_ID;
	props->vendor_part_id = SD_VENDOR_PART;
	props->hw_ver = 0;
	props->fw_ver = ((u64)SD_FW_MAJOR << 32) | (SD_FW_MINOR << 16) | SD_FW_SUB;
	props->device_cap_flags = IB_DEVICE_CHANGE_PHY_PORT | IB_DEVICE_PORT_ACTIVE_EVENT |
				  IB_DEVICE_SYS_IMAGE_GUID | IB_DEVICE_RC_RNR_NAK_GEN;
	props->max_mr_size = ~0ull;
	props->page_size_cap = ~(u64)(PAGE_SIZE - 1);
	props->max_qp = SD_NUM_QPS;
	props->max_qp_wr = SD_MAX_WQES - SD_SQ_MAX_SPARE;
	props->max_send_sge = min(SD_MAX_SQ_SG, SD_MAX_RQ_SG);
	props->max_recv_sge = min(SD_MAX_SQ_SG, SD_MAX_RQ_SG);
	props->max_sge_rd = SD_MAX_SQ_SG;
	props->max_cq = SD_MAX_CQS;
	props->max_cqe = SD_MAX_CQES;
	props->max_mr = SD_MAX_MPTS;
	props->max_pd = SD_MAX_PDS;
	props->max_qp_rd_atom = SD_MAX_QP_DEST_RDMA;
	props->max_qp_init_rd_atom = SD_MAX_QP_INIT_RDMA;
	props->max_res_rd_atom = props->max_qp_rd_atom * props->max_qp;
	props->max_srq = SD_MAX_SRQS;
	props->max_srq_wr = SD_MAX_SRQ_WQES - 1;
	props->max_srq_sge = SD_MAX_SRQ_SGE;
	props->local_ca_ack_delay = 15;
	props->atomic_cap = IB_ATOMIC_NONE;
	props->masked_atomic_cap = IB_ATOMIC_NONE;
	props->max_ah = INT_MAX;
	props->max_pkeys = SD_PKEY_TBL_LEN;

	/* mlx4_ib_query_device's sections, as the caller's length allows */
	if (outlen >= resp.response_length + sizeof(resp.hca_core_clock_offset))
		resp.response_length += sizeof(resp.hca_core_clock_offset);	/* no clock */
	if (outlen >= resp.response_length + sizeof(resp.max_inl_recv_sz)) {
		resp.response_length += sizeof(resp.max_inl_recv_sz);
		resp.max_inl_recv_sz = SD_MAX_RQ_SG * SD_DATA_SEG;
	}
	if (offsetofend(typeof(resp), rss_caps) <= outlen)
		resp.response_length = offsetofend(typeof(resp), rss_caps);	/* no RSS */
	if (offsetofend(typeof(resp), tso_caps) <= outlen)
		resp.response_length = offsetofend(typeof(resp), tso_caps);	/* no TSO */
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
	props->max_msg_sz = 1U << SD_LOG_MAX_MSG;
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
	snprintf(str, IB_FW_VERSION_NAME_MAX, "%d.%d.%03d", SD_FW_MAJOR, SD_FW_MINOR, SD_FW_SUB);
}

/* ---- user context and mmap ----------------------------------------------- */

static int sd_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct mlx4_ib_alloc_ucontext_resp resp = {
		.dev_caps = MLX4_USER_DEV_CAP_LARGE_CQE,
		.qp_tab_size = SD_NUM_QPS,
		.bf_reg_size = SD_BF_REG_SIZE,
		.bf_regs_per_page = SD_BF_REGS_PER_PAGE,
		.cqe_size = sd_cqe_size(),
	};
	struct mlx4_ib_alloc_ucontext_resp_v3 resp_v3 = {
		.qp_tab_size = SD_NUM_QPS,
		.bf_reg_size = SD_BF_REG_SIZE,
		.bf_regs_per_page = SD_BF_REGS_PER_PAGE,
	};
	int err;

	uc->uar = alloc_page(GFP_KERNEL | __GFP_ZERO);
	uc->bf = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!uc->uar || !uc->bf)
		goto err;
	INIT_LIST_HEAD(&uc->db_pages);
	mutex_init(&uc->db_lock);
	if (sd_abi3())
		err = ib_copy_to_udata(udata, &resp_v3, sizeof(resp_v3));
	else
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_fault;
	return 0;

err_fault:
	__free_page(uc->uar);
	__free_page(uc->bf);
	return -EFAULT;
err:
	if (uc->uar)
		__free_page(uc->uar);
	if (uc->bf)
		__free_page(uc->bf);
	return -ENOMEM;
}

/* The pages may still be mapped: each mapping holds its own reference. */
static void sd_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	struct sd_ucontext *uc = to_sduc(ibuc);

	put_page(uc->uar);
	put_page(uc->bf);
}

/* rdma_user_mmap_io's checks, in its order: shared, one page. */
static int sd_map_page(struct vm_area_struct *vma, struct page *page)
{
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	return sd_vm_insert_page(vma, page);
}

static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct sd_ucontext *uc = to_sduc(ibuc);

	switch (vma->vm_pgoff) {
	case SD_MMAP_UAR:
		return sd_map_page(vma, uc->uar);
	case SD_MMAP_BF:	/* bf_reg_size is not 0 */
		return sd_map_page(vma, uc->bf);
	case SD_MMAP_CLOCK:	/* the clock is not mapped to users */
		return -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}

/* ---- PD ------------------------------------------------------------------ */

static int sd_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibpd->device);
	struct sd_pd *pd = to_sdpd(ibpd);
	int id = sd_id_alloc(&dev->pdn_ida, 1, SD_MAX_PDS - 1);

	if (id < 0)
		return id;
	pd->pdn = id;
	if (udata && ib_copy_to_udata(udata, &pd->pdn, sizeof(u32))) {
		ida_free(&dev->pdn_ida, id);
		return -EFAULT;
	}
	return 0;
}

static int sd_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ida_free(&to_sddev(ibpd->device)->pdn_ida, to_sdpd(ibpd)->pdn);
	return 0;
}

/* ---- CQ ------------------------------------------------------------------ */

/* Set the owner byte of CQEs first..first+n-1 (a CQE's last byte) to
 * val(i), in the pinned pages: what the HCA does to a buffer it is given. */
static int sd_cqe_bytes(struct ib_umem *umem, u32 first, u32 n, u8 (*val)(u32 i, void *arg),
			void *arg)
{
	size_t base = ib_umem_offset(umem);
	size_t pos = base + (size_t)first * sd_cqe_size() + sd_cqe_size() - 1;
	size_t end = pos + (size_t)n * sd_cqe_size();
	struct sg_page_iter it;
	size_t page_start;
	u32 i = first;
	u8 *p;

	if (!n)
		return 0;
	for_each_sgtable_page(&umem->sgt_append.sgt, &it, pos >> PAGE_SHIFT) {
		page_start = pos & PAGE_MASK;
		p = kmap_local_page(sg_page_iter_page(&it));
		while (pos < end && pos < page_start + PAGE_SIZE) {
			p[pos - page_start] = val(i++, arg);
			pos += sd_cqe_size();
		}
		kunmap_local(p);
		if (pos >= end)
			return 0;
		/* the next owner byte may lie pages further on */
		if ((pos >> PAGE_SHIFT) != (page_start >> PAGE_SHIFT) + 1) {
			u32 left = (u32)((end - pos) / sd_cqe_size());

			return sd_cqe_bytes(umem, i, left, val, arg);
		}
	}
	return -EFAULT;
}

static u8 sd_hw_owned(u32 i, void *arg)
{
	return SD_CQE_OWNER;
}

static int sd_get_cq_umem(struct ib_device *ibdev, u64 buf_addr, int entries,
			  struct ib_umem **out)
{
	struct ib_umem *umem = ib_umem_get(ibdev, buf_addr, (size_t)entries * sd_cqe_size(),
					   IB_ACCESS_LOCAL_WRITE);
	int err;

	if (IS_ERR(umem))
		return PTR_ERR(umem);
	err = sd_cqe_bytes(umem, 0, entries, sd_hw_owned, NULL);
	if (err) {
		ib_umem_release(umem);
		return err;
	}
	*out = umem;
	return 0;
}

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
	struct mlx4_ib_create_cq ucmd;
	struct sd_ucontext *uc;
	int entries = attr->cqe;
	int id, err;

	if (entries < 1 || entries > SD_MAX_CQES)
		return -EINVAL;
	if (attr->flags & ~IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION)
		return -EINVAL;
	entries = roundup_pow_of_two(entries + 1);
	cq->ibcq.cqe = entries - 1;
	mutex_init(&cq->resize_lock);
	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	uc = udata_uc(udata);

	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	err = sd_get_cq_umem(&dev->ibdev, ucmd.buf_addr, entries, &cq->umem);
	if (err)
		return err;
	err = sd_db_map(uc, ucmd.db_addr, &cq->db);
	if (err)
		goto err_umem;
	id = sd_id_alloc(&dev->cqn_ida, 1, SD_MAX_CQS - 1);
	if (id < 0) {
		err = id;
		goto err_db;
	}
	cq->cqn = id;
	if (ib_copy_to_udata(udata, &cq->cqn, sizeof(u32))) {
		err = -EFAULT;
		goto err_cqn;
	}
	return 0;

err_cqn:
	ida_free(&dev->cqn_ida, cq->cqn);
err_db:
	sd_db_unmap(uc, cq->db);
err_umem:
	ib_umem_release(cq->umem);
	return err;
}

static int sd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct sd_cq *cq = to_sdcq(ibcq);

	sd_db_unmap(udata_uc(udata), cq->db);
	ib_umem_release(cq->umem);
	ida_free(&to_sddev(ibcq->device)->cqn_ida, cq->cqn);
	return 0;
}

struct sd_resize_arg {
	u32 nent;
	u32 produced;
};

static u8 sd_resize_cqe(u32 i, void *arg)
{
	const struct sd_resize_arg *a = arg;

	return SD_CQE_OPCODE_RESIZE | ((a->produced & a->nent) ? SD_CQE_OWNER : 0);
}

static int sd_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct sd_cq *cq = to_sdcq(ibcq);
	struct mlx4_ib_resize_cq ucmd;
	struct sd_resize_arg ra;
	struct ib_umem *umem;
	int err = 0;

	mutex_lock(&cq->resize_lock);
	if (entries < 1 || entries > SD_MAX_CQES) {
		err = -EINVAL;
		goto out;
	}
	entries = roundup_pow_of_two(entries + 1);
	if (entries == ibcq->cqe + 1)
		goto out;
	if (entries > SD_MAX_CQES + 1) {
		err = -EINVAL;
		goto out;
	}
	if (!udata) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd))) {
		err = -EFAULT;
		goto out;
	}
	err = sd_get_cq_umem(ibcq->device, ucmd.buf_addr, entries, &umem);
	if (err)
		goto out;
	/* the HCA: a resize CQE in the old buffer at the producer index */
	ra.nent = ibcq->cqe + 1;
	ra.produced = cq->produced;
	err = sd_cqe_bytes(cq->umem, cq->produced & (ra.nent - 1), 1, sd_resize_cqe, &ra);
	if (err) {
		ib_umem_release(umem);
		goto out;
	}
	cq->produced++;		/* the producer index goes on in the new buffer */
	ib_umem_release(cq->umem);
	cq->umem = umem;
	cq->ibcq.cqe = entries - 1;
out:
	mutex_unlock(&cq->resize_lock);
	return err;
}

/* ---- SRQ ----------------------------------------------------------------- */

static int sd_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
			 struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibsrq->device);
	struct sd_srq *srq = to_sdsrq(ibsrq);
	struct mlx4_ib_create_srq ucmd;
	struct sd_ucontext *uc;
	int desc_size, buf_size, id, err;

	if (init->srq_type != IB_SRQT_BASIC && init->srq_type != IB_SRQT_XRC)
		return -EOPNOTSUPP;
	if (init->attr.max_wr >= SD_MAX_SRQ_WQES || init->attr.max_sge > SD_MAX_SRQ_SGE)
		return -EINVAL;
	if (init->srq_type == IB_SRQT_XRC)
		return -ENOSYS;		/* no XRC on this HCA */
	if (!udata)
		return -EOPNOTSUPP;
	uc = udata_uc(udata);
	mutex_init(&srq->lock);
	srq->max = roundup_pow_of_two(init->attr.max_wr + 1);
	srq->max_gs = init->attr.max_sge;
	desc_size = max_t(int, 32, roundup_pow_of_two(SD_SRQ_NEXT_SEG +
						      srq->max_gs * SD_DATA_SEG));
	buf_size = srq->max * desc_size;

	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	srq->umem = ib_umem_get(ibsrq->device, ucmd.buf_addr, buf_size, 0);
	if (IS_ERR(srq->umem))
		return PTR_ERR(srq->umem);
	err = sd_db_map(uc, ucmd.db_addr, &srq->db);
	if (err)
		goto err_umem;
	id = sd_id_alloc(&dev->srqn_ida, 1, SD_MAX_SRQS - 1);
	if (id < 0) {
		err = id;
		goto err_db;
	}
	srq->srqn = id;
	if (ib_copy_to_udata(udata, &srq->srqn, sizeof(u32))) {
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
	ib_umem_release(srq->umem);
	return err;
}

static int sd_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
			 enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	if (mask & IB_SRQ_MAX_WR)
		return -EINVAL;
	if (mask & IB_SRQ_LIMIT) {
		if (attr->srq_limit >= srq->max)
			return -EINVAL;
		mutex_lock(&srq->lock);
		srq->limit = attr->srq_limit;
		mutex_unlock(&srq->lock);
	}
	return 0;
}

static int sd_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	mutex_lock(&srq->lock);
	attr->srq_limit = srq->limit;
	mutex_unlock(&srq->lock);
	attr->max_wr = srq->max - 1;
	attr->max_sge = srq->max_gs;
	return 0;
}

static int sd_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct sd_srq *srq = to_sdsrq(ibsrq);

	sd_db_unmap(udata_uc(udata), srq->db);
	ib_umem_release(srq->umem);
	ida_free(&to_sddev(ibsrq->device)->srqn_ida, srq->srqn);
	return 0;
}

/* ---- QP ------------------------------------------------------------------ */

static bool sd_qp_has_rq(const struct ib_qp_init_attr *attr)
{
	return !attr->srq && attr->qp_type != IB_QPT_XRC_INI &&
	       attr->qp_type != IB_QPT_XRC_TGT;
}

/* set_rq_size, for a user QP */
static int sd_set_rq_size(struct ib_qp_cap *cap, bool has_rq, struct sd_qp *qp)
{
	if (cap->max_recv_wr > SD_MAX_WQES - SD_SQ_MAX_SPARE ||
	    cap->max_recv_sge > min(SD_MAX_SQ_SG, SD_MAX_RQ_SG))
		return -EINVAL;
	if (!has_rq) {
		if (cap->max_recv_wr || qp->inl_recv_sz)
			return -EINVAL;
		qp->rq_wqe_cnt = qp->rq_max_gs = 0;
	} else {
		if (!cap->max_recv_wr || !cap->max_recv_sge ||
		    qp->inl_recv_sz > SD_MAX_RQ_SG * SD_DATA_SEG)
			return -EINVAL;
		qp->rq_wqe_cnt = roundup_pow_of_two(cap->max_recv_wr);
		qp->rq_max_gs = roundup_pow_of_two(cap->max_recv_sge);
		qp->rq_wqe_shift = ilog2(max_t(u32, qp->rq_max_gs * SD_DATA_SEG, qp->inl_recv_sz));
	}
	cap->max_recv_wr = qp->rq_wqe_cnt;
	cap->max_recv_sge = qp->rq_max_gs;
	return 0;
}

/* set_user_sq_size */
static int sd_set_user_sq_size(struct sd_qp *qp, const struct mlx4_ib_create_qp *ucmd)
{
	u32 cnt;

	if (check_shl_overflow(1, ucmd->log_sq_bb_count, &cnt) || cnt > SD_MAX_WQES)
		return -EINVAL;
	if (ucmd->log_sq_stride > ilog2(roundup_pow_of_two(SD_MAX_SQ_DESC_SZ)) ||
	    ucmd->log_sq_stride < SD_MIN_SQ_STRIDE)
		return -EINVAL;
	qp->sq_wqe_cnt = 1 << ucmd->log_sq_bb_count;
	qp->sq_wqe_shift = ucmd->log_sq_stride;
	return 0;
}

static int sd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct mlx4_ib_create_qp ucmd;
	struct sd_ucontext *uc;
	size_t buf_size;
	int id, err;

	if (attr->rwq_ind_tbl)
		return -EOPNOTSUPP;	/* no RSS on this HCA */
	/* mlx4's own create flags; from a user, multicast loopback blocking */
	if (attr->create_flags & ~(IB_QP_CREATE_IPOIB_UD_LSO |
				   IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK |
				   IB_QP_CREATE_NETIF_QP))
		return -EOPNOTSUPP;
	if ((attr->create_flags & IB_QP_CREATE_NETIF_QP) && attr->qp_type != IB_QPT_UD)
		return -EINVAL;
	if (attr->create_flags && udata &&
	    (attr->create_flags & ~IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK))
		return -EINVAL;
	switch (attr->qp_type) {
	case IB_QPT_XRC_TGT:
	case IB_QPT_XRC_INI:
		return -ENOSYS;		/* no XRC on this HCA */
	case IB_QPT_RC:
	case IB_QPT_UC:
	case IB_QPT_UD:
		break;
	default:		/* raw packet: not in this stand-in (mlx4_ib has it) */
		return -EOPNOTSUPP;
	}
	if (!udata)
		return -EOPNOTSUPP;
	uc = udata_uc(udata);

	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	qp->inl_recv_sz = ucmd.inl_recv_sz;
	err = sd_set_rq_size(&attr->cap, sd_qp_has_rq(attr), qp);
	if (err)
		return err;
	qp->sq_no_prefetch = ucmd.sq_no_prefetch;
	err = sd_set_user_sq_size(qp, &ucmd);
	if (err)
		return err;
	buf_size = ((size_t)qp->rq_wqe_cnt << qp->rq_wqe_shift) +
		   ((size_t)qp->sq_wqe_cnt << qp->sq_wqe_shift);
	qp->umem = ib_umem_get(ibqp->device, ucmd.buf_addr, buf_size, 0);
	if (IS_ERR(qp->umem))
		return PTR_ERR(qp->umem);
	if (sd_qp_has_rq(attr)) {
		err = sd_db_map(uc, ucmd.db_addr, &qp->db);
		if (err)
			goto err_umem;
	}
	id = sd_id_alloc(&dev->qpn_ida, 0x40, SD_NUM_QPS - 1);
	if (id < 0) {
		err = id;
		goto err_db;
	}
	qp->qpn = id;
	qp->ibqp.qp_num = id;
	mutex_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->sq_sig_type = attr->sq_sig_type;
	return 0;

err_db:
	if (qp->db)
		sd_db_unmap(uc, qp->db);
err_umem:
	ib_umem_release(qp->umem);
	return err;
}

static int sd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	if (qp->db)
		sd_db_unmap(udata_uc(udata), qp->db);
	ib_umem_release(qp->umem);
	ida_free(&to_sddev(ibqp->device)->qpn_ida, qp->qpn);
	return 0;
}

static int sd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	enum ib_qp_state cur, next;
	int err = -EINVAL;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	mutex_lock(&qp->lock);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		goto out;
	if ((mask & IB_QP_PORT) && (attr->port_num == 0 || attr->port_num > 1))
		goto out;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= SD_PKEY_TBL_LEN)
		goto out;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > SD_MAX_QP_INIT_RDMA)
		goto out;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > SD_MAX_QP_DEST_RDMA)
		goto out;
	if (cur == next && cur == IB_QPS_RESET) {
		err = 0;
		goto out;
	}
	/* RoCE paths carry a GRH (mlx4_set_path) */
	if ((mask & IB_QP_AV) && !(rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH))
		goto out;
	if ((mask & IB_QP_AV) && attr->ah_attr.grh.sgid_index >= SD_GID_TBL_LEN)
		goto out;

	err = 0;
	qp->state = next;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->attr.qp_access_flags = attr->qp_access_flags;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->attr.max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PORT)
		qp->attr.port_num = attr->port_num;
	if (mask & IB_QP_PKEY_INDEX)
		qp->attr.pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->attr.qkey = attr->qkey;
	if (mask & IB_QP_AV)
		sd_keep_ah(&qp->attr.ah_attr, &attr->ah_attr);
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
	qa->cap.max_recv_wr = qp->rq_wqe_cnt;
	qa->cap.max_recv_sge = qp->rq_max_gs;
	/* a user QP's send queue is the library's: mlx4_ib reports none */
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

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		struct ib_umem *umem = mr->umem;

		kfree(mr);
		return ERR_CAST(umem);
	}
	id = sd_id_alloc(&dev->mkey_ida, 1, SD_MAX_MPTS - 1);
	if (id < 0) {
		ib_umem_release(mr->umem);
		kfree(mr);
		return ERR_PTR(id);
	}
	mr->index = id;
	mr->ibmr.lkey = (id << 8) | (atomic_inc_return(&dev->mkey_variant) & 0xff);
	mr->ibmr.rkey = mr->ibmr.lkey;
	return &mr->ibmr;
}

static int sd_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sd_mr *mr = to_sdmr(ibmr);

	ib_umem_release(mr->umem);
	ida_free(&to_sddev(ibmr->device)->mkey_ida, mr->index);
	kfree(mr);
	return 0;
}

static int sd_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct rdma_ah_attr *a = init->ah_attr;

	if (a->type == RDMA_AH_ATTR_TYPE_ROCE) {
		if (!(rdma_ah_get_ah_flags(a) & IB_AH_GRH))
			return -EINVAL;
		memcpy(to_sdah(ibah)->dmac, a->roce.dmac, ETH_ALEN);
	}
	return 0;
}

static int sd_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}

/* ---- registration -------------------------------------------------------- */

static const struct ib_device_ops sd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MLX4,
	.uverbs_abi_ver = MLX4_IB_UVERBS_ABI_VERSION,

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
	INIT_RDMA_OBJ_SIZE(ib_pd, sd_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sd_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, sd_srq, ibsrq),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, sd_ucontext, ibuc),
};

static void sd_destroy_ids(struct sd_dev *dev)
{
	ida_destroy(&dev->pdn_ida);
	ida_destroy(&dev->cqn_ida);
	ida_destroy(&dev->qpn_ida);
	ida_destroy(&dev->srqn_ida);
	ida_destroy(&dev->mkey_ida);
}

static int __init sd_init(void)
{
	struct net_device *ndev;
	struct sd_dev *dev;
	int err;

	if (abi != MLX4_IB_UVERBS_ABI_VERSION && !sd_abi3()) {
		pr_err("mlx4_standin: abi=%d: 3 or 4\n", abi);
		return -EINVAL;
	}
	ndev = sd_netdev_by_name(netdev);
	if (!ndev)
		return -ENODEV;
	dev = ib_alloc_device(sd_dev, ibdev);
	if (!dev) {
		dev_put(ndev);
		return -ENOMEM;
	}
	dev->ifindex = ndev->ifindex;
	ida_init(&dev->pdn_ida);
	ida_init(&dev->cqn_ida);
	ida_init(&dev->qpn_ida);
	ida_init(&dev->srqn_ida);
	ida_init(&dev->mkey_ida);
	atomic_set(&dev->mkey_variant, 0);

	sd_ibdev_on_netdev(&dev->ibdev, ndev, &sd_ops);
	dev->ibdev.local_dma_lkey = 0;
	if (sd_abi3())		/* as mlx4_ib does without user capabilities */
		dev->ibdev.ops.uverbs_abi_ver = MLX4_IB_UVERBS_NO_DEV_CAPS_ABI_VERSION;

	err = sd_register_on_netdev(&dev->ibdev, ndev, "mlx4_%d");
	if (err)
		goto err_dealloc;
	sd_the_dev = dev;
	pr_info("mlx4_standin: %s on %s\n", dev_name(&dev->ibdev.dev), netdev);
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
MODULE_DESCRIPTION("mlx4_ib's user ABI on a software device (a test fixture)");
