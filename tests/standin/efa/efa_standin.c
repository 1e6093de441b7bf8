// SPDX-License-Identifier: GPL-2.0
/*
 * efa_standin: an RDMA device that answers the uverbs ABI as the kernel's
 * efa driver (AWS Elastic Fabric Adapter) does, without hardware. A test
 * fixture of libuverbs-ioctl (the rest of that project is MIT; this file is
 * GPL-2.0 because it restates efa's rules). Never installed:
 * tests/standin/build.sh builds it against the Debian headers of the
 * guest's kernel and the kernel suite loads it in a qemu guest.
 *
 *   insmod efa_standin.ko
 *
 * registers efa_0 (driver id RDMA_DRIVER_EFA, uverbs ABI version
 * EFA_UVERBS_ABI_VERSION, node type unspecified) with one port whose link
 * layer is unspecified and whose one GID is the device's own address, as
 * efa reports it; no netdev (efa has none). Debian's libefa (rdma-core 44)
 * drives it through libibverbs as it drives an EFA.
 *
 * What of efa it reproduces, as Linux 6.1 states it (Debian 6.1.192,
 * drivers/infiniband/hw/efa/efa_verbs.c and efa_main.c,
 * include/uapi/rdma/efa-abi.h) and, built for 6.12, as Linux 6.12 states
 * it (Debian 6.12.118): the user-data contract of every command below, the
 * checks in efa's order with its errno. The rules are transcribed; the
 * code is written anew. Only these two kernels were read: kernels between
 * them do not build. What 6.12 changed, and this follows (everything else
 * below is the same in both):
 *  - CREATE_CQ: the op takes the ioctl's attribute bundle (the driver
 *    data is its driver_udata; no rule changes);
 *  - CREATE_QP: efa_ibv_create_qp grew flags and reserved_90 (24 bytes):
 *    reserved_90 not zero is EINVAL with comp_mask; a flag other than
 *    EFA_CREATE_QP_WITH_UNSOLICITED_WRITE_RECV, or that one on a device
 *    without the capability (this one), is EOPNOTSUPP; a 16-byte request
 *    (libefa 44's) is still taken;
 *  - EX_QUERY_DEVICE and REG_MR: the capabilities 6.12 adds (128-byte data
 *    polling, RDMA write, unsolicited write receive) are not this device's,
 *    so the answers and the access flags taken are 6.1's;
 *  - EFA_IB_METHOD_MR_QUERY (the MR's interconnect ids): not reproduced
 *    (libefa 44 does not call it).
 * Each command, with the function of efa_verbs.c it restates:
 *  - GET_CONTEXT (efa_alloc_ucontext): efa_ibv_alloc_ucontext_cmd read up
 *    to the caller's length (a short or absent request is taken as zeros;
 *    unknown comp_mask bits are ignored: "we will ack input fields in our
 *    response"). The handshake (efa_user_comp_handshake): this device has
 *    a TX batch size and a minimum SQ depth, so a request without
 *    EFA_ALLOC_UCONTEXT_CMD_COMP_TX_BATCH or without _COMP_MIN_SQ_WR is
 *    EOPNOTSUPP. The response, efa_ibv_alloc_ucontext_resp cut to the
 *    caller's length: cmds_supp_udata_mask QUERY_DEVICE | CREATE_AH,
 *    sub_cqs_per_cq, inline_buf_size, max_llq_size, max_tx_batch,
 *    min_sq_wr. A UAR number per context, freed at close.
 *  - EX_QUERY_DEVICE (efa_query_device): driver input not zero: EINVAL;
 *    efa_ibv_ex_query_device_resp cut to the caller's length, when it has
 *    room: max_sq_wr, max_rq_wr, max_sq_sge, max_rq_sge, max_rdma_size,
 *    device_caps (CQ_WITH_SGID always; RDMA_READ and RNR_RETRY, this
 *    device's capabilities; CQ_NOTIFICATIONS: it has one event queue). The
 *    core attributes: max_qp_wr the lesser of the SQ and RQ depths, one
 *    pkey, PCI ids of an EFA (vendor 0x1d0f, device 0xefa1).
 *  - QUERY_PORT (efa_query_port): active, link up, lmc 1, one GID, one
 *    pkey, EDR 4x, MTU the device's (8928 bytes: IB_MTU_4096), max_msg_sz
 *    the MTU, one VL; link layer unspecified (efa_port_link_layer); the
 *    immutable data pkey and GID table lengths only (no core capability:
 *    no MAD). QUERY_GID: the device's address, whatever the index. PKEY:
 *    index 0 is 0xffff, else EINVAL.
 *  - mmap (efa_mmap): only an offset an rdma_user_mmap_entry handed out
 *    (a CQ's or QP's key), on a shared mapping of exactly the entry's
 *    length, else EINVAL (rdma_user_mmap_entry_get). Three kinds, as efa:
 *    kernel queue pages (the CQ ring, the RQ ring) inserted page by page;
 *    doorbell pages (non-cached in efa) and LLQ descriptor pages
 *    (write-combined in efa) through rdma_user_mmap_io (shared only, the
 *    exact length: EINVAL). Here the "BARs" are RAM, so the I/O kinds keep
 *    the mapping's default caching: the keys, lengths and refusals are
 *    efa's, the memory type is not.
 *  - ALLOC_PD (efa_alloc_pd): driver input not zero: EINVAL;
 *    efa_ibv_alloc_pd_resp (pdn) cut to the caller's length.
 *  - CREATE_CQ (efa_create_cq): core flags: EOPNOTSUPP; entries below 1 or
 *    above max_cq_depth: EINVAL; a request shorter than up to num_sub_cqs:
 *    EINVAL; bytes past efa_ibv_create_cq not zero: EINVAL; comp_mask or
 *    reserved_58 not zero: EINVAL; cq_entry_size other than the extended
 *    RX descriptor's (32), or other than the plain one's (16) when
 *    EFA_CREATE_CQ_WITH_SGID is set or not 16 at all: EINVAL; num_sub_cqs
 *    other than the device's sub_cqs_per_cq: EINVAL. The ring is allocated
 *    here, PAGE_ALIGN(entry size * entries * sub CQs) bytes, zeroed, and
 *    handed out by q_mmap_key/q_mmap_size; the CQ's depth is the entries
 *    asked (efa's device keeps it); cq_idx is the device's index. The
 *    device gives every CQ a doorbell (db_valid): a page of the doorbell
 *    BAR by db_mmap_key, db_off the doorbell's offset in it, comp_mask
 *    EFA_CREATE_CQ_RESP_DB_OFF. The response cut to the caller's length.
 *    EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL: efa takes the event queue of
 *    the completion vector (efa_vec2eq); this device has one (one
 *    completion vector, num_comp_vectors 1: the core refuses others), and
 *    the CQ keeps it; no event is ever raised (no data path).
 *  - CREATE_QP (efa_create_qp): the caps first (efa_qp_validate_cap): send
 *    or receive WRs above max_sq_depth/max_rq_depth, SGEs above
 *    max_sq_sge/max_rq_sge, inline data above inline_buf_size: EINVAL;
 *    then (efa_qp_validate_attr) a type other than UD or DRIVER, an SRQ,
 *    any create flag: EOPNOTSUPP; a request shorter than up to
 *    driver_qp_type: EINVAL; bytes past efa_ibv_create_qp not zero:
 *    EINVAL; comp_mask: EINVAL; UD is UD, DRIVER with driver_qp_type
 *    EFA_QP_DRIVER_TYPE_SRD is SRD, any other DRIVER type EOPNOTSUPP. The
 *    RQ ring (PAGE_ALIGN(rq_ring_size) bytes) is allocated here when not
 *    empty. Keys out: the SQ doorbell's page (always), the LLQ descriptors
 *    (PAGE_ALIGN(sq_ring_size + the descriptors' offset in their page)),
 *    and, with an RQ, the RQ doorbell's page and the RQ ring
 *    (rq_mmap_size); the offsets in the response are in-page offsets. The
 *    device's part: sq_ring_size above max_llq_size is EINVAL (the
 *    firmware's refusal, as the stand-in states it); send and receive
 *    sub-CQ index 0 (one sub-CQ per CQ). The response cut to the caller's
 *    length.
 *  - MODIFY_QP (efa_modify_qp): mask bits past the standard ones:
 *    EOPNOTSUPP; driver input not zero: EINVAL; a mask outside
 *    STATE, CUR_STATE, EN_SQD_ASYNC_NOTIFY, PKEY_INDEX, PORT, QKEY, SQ_PSN,
 *    RNR_RETRY: EOPNOTSUPP; the transition: SRD by efa's own table
 *    (srd_qp_state_table: RESET->INIT needs PKEY_INDEX, PORT, QKEY; RTR->RTS
 *    SQ_PSN; RNR_RETRY optional there), UD by the core's
 *    (ib_modify_qp_is_ok): EINVAL; port other than 1 or pkey index other
 *    than 0: EOPNOTSUPP. The state, qkey, sq_psn and rnr_retry kept.
 *    QUERY_QP (efa_query_qp): a mask outside STATE, PKEY_INDEX, PORT, QKEY,
 *    SQ_PSN, CAP, RNR_RETRY: EOPNOTSUPP; what was kept, port 1, the caps
 *    created.
 *  - REG_MR (efa_reg_mr): driver input not zero: EINVAL; access flags
 *    (less IB_ACCESS_OPTIONAL) other than LOCAL_WRITE and REMOTE_READ
 *    (this device reads): EOPNOTSUPP; the range pinned; no page size of
 *    page_size_cap fits: EOPNOTSUPP. DEREG_MR releases it.
 *  - CREATE_AH (efa_create_ah): not sleepable: EOPNOTSUPP (never from
 *    user space); driver input not zero: EINVAL; efa_ibv_create_ah_resp
 *    (efa_address_handle, the device's AH number) cut to the caller's
 *    length. DESTROY_AH not sleepable: EOPNOTSUPP.
 * What stands in for the device: pdn, cq_idx, qp_num, AH numbers, UARs,
 * keys and doorbell slots come from IDAs; the doorbell BAR is a few zeroed
 * pages (each doorbell 8 bytes apart), the LLQ descriptors of each QP are
 * zeroed pages of their own (llq_desc_offset 0). Commands without user
 * data (kernel verbs) are refused with EOPNOTSUPP: no kernel client uses
 * this device.
 * What it does not: no data path (no kernel POST_SEND/POLL_CQ, nothing is
 * sent or received, no CQE is ever written, no completion event raised),
 * no statistics, no dma-buf MRs, no kernel verbs.
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/efa-abi.h>
#include "standin.h"

/* The rules of 6.12 where they differ from 6.1's (see the header). */
#define SD_V612 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#if !SD_V612 && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#error "efa_standin states Linux 6.1's and 6.12's efa; kernels between were not read"
#endif

/* The device this stands in for (an EFA's attributes, few of them). */
enum {
	SD_MAX_QP = 256,
	SD_MAX_CQ = 256,
	SD_MAX_PD = 256,
	SD_MAX_MR = 4096,
	SD_MAX_AH = 1024,
	SD_MAX_UAR = 256,
	SD_MAX_CQ_DEPTH = 4096,
	SD_MAX_SQ_DEPTH = 512,
	SD_MAX_RQ_DEPTH = 512,
	SD_MAX_SQ_SGE = 2,
	SD_MAX_RQ_SGE = 1,
	SD_MAX_WR_RDMA_SGE = 1,
	SD_INLINE_BUF = 32,
	SD_MAX_LLQ = 32768,		/* bytes: 512 descriptors of 64 */
	SD_SUB_CQS = 1,
	SD_MAX_TX_BATCH = 16,		/* units of 64 bytes */
	SD_MIN_SQ_DEPTH = 16,
	SD_MAX_RDMA_SIZE = 1 << 30,
	SD_MTU = 8928,
	SD_MAX_MR_PAGES = 1 << 20,
	SD_VENDOR_ID = 0x1d0f,		/* Amazon */
	SD_VENDOR_PART = 0xefa1,
	SD_DB_BAR_PAGES = 4,
	SD_DB_STRIDE = 8,
	SD_RX_CDESC = 16,		/* efa_io_rx_cdesc */
	SD_RX_CDESC_EX = 32,		/* efa_io_rx_cdesc_ex */
};
#define SD_PAGE_SIZE_CAP 0xfffff000ull	/* 4 KiB to 2 GiB */

/* The kinds of mapping (efa_verbs.c's EFA_MMAP_*). */
enum { SD_MMAP_DMA_PAGE, SD_MMAP_IO_WC, SD_MMAP_IO_NC };

struct sd_dev {
	struct ib_device ibdev;
	u8 addr[16];			/* the device's address, its GID */
	void *db_bar;			/* SD_DB_BAR_PAGES zeroed pages */
	struct ida pd_ida, cq_ida, qp_ida, mr_ida, ah_ida, uar_ida, db_ida;
};

static struct sd_dev *sd_the_dev;

struct sd_ucontext {
	struct ib_ucontext ibuc;
	u16 uarn;
};

struct sd_pd {
	struct ib_pd ibpd;
	u16 pdn;
};

struct sd_cq {
	struct ib_cq ibcq;
	u16 cq_idx;
	int eq;				/* the event queue (completion vector), or -1 */
	int db;				/* doorbell slot, or -1 */
	struct rdma_user_mmap_entry *q_entry, *db_entry;
};

struct sd_qp {
	struct ib_qp ibqp;
	int sq_db, rq_db;		/* doorbell slots, or -1 */
	struct rdma_user_mmap_entry *sq_db_entry, *llq_entry, *rq_db_entry, *rq_entry;
	struct mutex lock;
	enum ib_qp_state state;
	u32 qkey, sq_psn;
	u8 rnr_retry;
	struct ib_qp_cap cap;
};

struct sd_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	u32 id;
};

struct sd_ah {
	struct ib_ah ibah;
	u16 ah;
};

/* One mmap key: memory the entry owns (a ring, LLQ pages) or a page of the
 * doorbell BAR (owned by the device). */
struct sd_entry {
	struct rdma_user_mmap_entry rdma_entry;
	void *cpu;			/* the first byte mapped */
	size_t size;
	bool owned;			/* freed with the entry */
	u8 kind;
};

static struct sd_dev *to_sddev(struct ib_device *d) { return container_of(d, struct sd_dev, ibdev); }
static struct sd_ucontext *to_sduc(struct ib_ucontext *c) { return container_of(c, struct sd_ucontext, ibuc); }
static struct sd_pd *to_sdpd(struct ib_pd *p) { return container_of(p, struct sd_pd, ibpd); }
static struct sd_cq *to_sdcq(struct ib_cq *c) { return container_of(c, struct sd_cq, ibcq); }
static struct sd_qp *to_sdqp(struct ib_qp *q) { return container_of(q, struct sd_qp, ibqp); }
static struct sd_mr *to_sdmr(struct ib_mr *m) { return container_of(m, struct sd_mr, ibmr); }
static struct sd_ah *to_sdah(struct ib_ah *a) { return container_of(a, struct sd_ah, ibah); }
static struct sd_entry *to_sdentry(struct rdma_user_mmap_entry *e)
{
	return container_of(e, struct sd_entry, rdma_entry);
}

static int sd_id_alloc(struct ida *ida, u32 first, u32 last)
{
	return ida_alloc_range(ida, first, last, GFP_KERNEL);
}

/* ---- mmap entries -------------------------------------------------------- */

/* Insert an entry for size bytes at cpu; its key goes to *key. owned: the
 * entry frees cpu (alloc_pages_exact) when its last user is gone. */
static struct rdma_user_mmap_entry *sd_entry_insert(struct ib_ucontext *uc, void *cpu,
						     size_t size, bool owned, u8 kind, u64 *key)
{
	struct sd_entry *e = kzalloc(sizeof(*e), GFP_KERNEL);

	if (!e)
		return NULL;
	e->cpu = cpu;
	e->size = size;
	e->owned = owned;
	e->kind = kind;
	if (rdma_user_mmap_entry_insert(uc, &e->rdma_entry, size)) {
		kfree(e);
		return NULL;
	}
	*key = rdma_user_mmap_get_offset(&e->rdma_entry);
	return &e->rdma_entry;
}

static void sd_mmap_free(struct rdma_user_mmap_entry *entry)
{
	struct sd_entry *e = to_sdentry(entry);

	if (e->owned)
		free_pages_exact(e->cpu, e->size);
	kfree(e);
}

/* The page of the doorbell BAR that holds slot's doorbell. */
static void *sd_db_page(struct sd_dev *dev, int slot)
{
	return dev->db_bar + (((size_t)slot * SD_DB_STRIDE) & PAGE_MASK);
}

static u32 sd_db_off(int slot)
{
	return (slot * SD_DB_STRIDE) & ~PAGE_MASK;
}

static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *re = rdma_user_mmap_entry_get(ibuc, vma);
	struct sd_entry *e;
	unsigned long va;
	size_t off;
	int err = 0;

	if (!re)
		return -EINVAL;		/* no such key, a private mapping, or not its length */
	e = to_sdentry(re);
	switch (e->kind) {
	case SD_MMAP_IO_NC:
	case SD_MMAP_IO_WC:
		/* RAM standing in for a BAR: the default caching (see the header) */
		err = rdma_user_mmap_io(ibuc, vma, PHYS_PFN(virt_to_phys(e->cpu)),
					re->npages * PAGE_SIZE, vma->vm_page_prot, re);
		break;
	case SD_MMAP_DMA_PAGE:
		for (va = vma->vm_start, off = 0; va < vma->vm_end; va += PAGE_SIZE, off += PAGE_SIZE) {
			err = vm_insert_page(vma, va, virt_to_page(e->cpu + off));
			if (err)
				break;
		}
		break;
	default:
		err = -EINVAL;
	}
	rdma_user_mmap_entry_put(re);
	return err;
}

/* ---- device and port ----------------------------------------------------- */

static int sd_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			   struct ib_udata *udata)
{
	struct efa_ibv_ex_query_device_resp resp = {};

	if (udata && udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	props->max_mr_size = (u64)SD_MAX_MR_PAGES * PAGE_SIZE;
	props->page_size_cap = SD_PAGE_SIZE_CAP;
	props->vendor_id = SD_VENDOR_ID;
	props->vendor_part_id = SD_VENDOR_PART;
	props->hw_ver = SD_VENDOR_PART;
	props->max_qp = SD_MAX_QP;
	props->max_cq = SD_MAX_CQ;
	props->max_pd = SD_MAX_PD;
	props->max_mr = SD_MAX_MR;
	props->max_ah = SD_MAX_AH;
	props->max_cqe = SD_MAX_CQ_DEPTH;
	props->max_qp_wr = min(SD_MAX_SQ_DEPTH, SD_MAX_RQ_DEPTH);
	props->max_send_sge = SD_MAX_SQ_SGE;
	props->max_recv_sge = SD_MAX_RQ_SGE;
	props->max_sge_rd = SD_MAX_WR_RDMA_SGE;
	props->max_pkeys = 1;

	if (udata && udata->outlen) {
		resp.max_sq_sge = SD_MAX_SQ_SGE;
		resp.max_rq_sge = SD_MAX_RQ_SGE;
		resp.max_sq_wr = SD_MAX_SQ_DEPTH;
		resp.max_rq_wr = SD_MAX_RQ_DEPTH;
		resp.max_rdma_size = SD_MAX_RDMA_SIZE;
		resp.device_caps = EFA_QUERY_DEVICE_CAPS_CQ_WITH_SGID |
				   EFA_QUERY_DEVICE_CAPS_RDMA_READ |
				   EFA_QUERY_DEVICE_CAPS_RNR_RETRY |
				   EFA_QUERY_DEVICE_CAPS_CQ_NOTIFICATIONS;	/* one EQ */
		return ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	}
	return 0;
}

static int sd_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *props)
{
	/* the core zeroed props */
	props->lmc = 1;
	props->state = IB_PORT_ACTIVE;
	props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	props->gid_tbl_len = 1;
	props->pkey_tbl_len = 1;
	props->active_speed = IB_SPEED_EDR;
	props->active_width = IB_WIDTH_4X;
	props->max_mtu = ib_mtu_int_to_enum(SD_MTU);
	props->active_mtu = ib_mtu_int_to_enum(SD_MTU);
	props->max_msg_sz = SD_MTU;
	props->max_vl_num = 1;
	return 0;
}

static int sd_query_gid(struct ib_device *ibdev, u32 port, int index, union ib_gid *gid)
{
	memcpy(gid->raw, to_sddev(ibdev)->addr, sizeof(gid->raw));
	return 0;
}

static int sd_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	return sd_default_pkey(index, 1, pkey);
}

/* The tables alone: efa claims no core protocol and no MADs. */
static int sd_port_immutable(struct ib_device *ibdev, u32 port,
			     struct ib_port_immutable *immutable)
{
	return sd_port_tables(ibdev, port, immutable);
}

static enum rdma_link_layer sd_link_layer(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_UNSPECIFIED;
}

/* ---- user context -------------------------------------------------------- */

static int sd_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibuc->device);
	struct sd_ucontext *uc = to_sduc(ibuc);
	struct efa_ibv_alloc_ucontext_resp resp = {};
	struct efa_ibv_alloc_ucontext_cmd cmd = {};
	int id, err;

	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
	/* the handshake: this device has both attributes, the library must
	 * say it knows them */
	if (!(cmd.comp_mask & EFA_ALLOC_UCONTEXT_CMD_COMP_TX_BATCH) ||
	    !(cmd.comp_mask & EFA_ALLOC_UCONTEXT_CMD_COMP_MIN_SQ_WR))
		return -EOPNOTSUPP;

	id = sd_id_alloc(&dev->uar_ida, 1, SD_MAX_UAR);
	if (id < 0)
		return id;
	uc->uarn = id;

	resp.cmds_supp_udata_mask = EFA_USER_CMDS_SUPP_UDATA_QUERY_DEVICE |
				    EFA_USER_CMDS_SUPP_UDATA_CREATE_AH;
	resp.sub_cqs_per_cq = SD_SUB_CQS;
	resp.inline_buf_size = SD_INLINE_BUF;
	resp.max_llq_size = SD_MAX_LLQ;
	resp.max_tx_batch = SD_MAX_TX_BATCH;
	resp.min_sq_wr = SD_MIN_SQ_DEPTH;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		ida_free(&dev->uar_ida, uc->uarn);
	return err;
}

static void sd_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	ida_free(&to_sddev(ibuc->device)->uar_ida, to_sduc(ibuc)->uarn);
}

/* ---- PD ------------------------------------------------------------------ */

static int sd_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibpd->device);
	struct efa_ibv_alloc_pd_resp resp = {};
	struct sd_pd *pd = to_sdpd(ibpd);
	int id, err;

	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	if (udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;
	id = sd_id_alloc(&dev->pd_ida, 1, SD_MAX_PD - 1);
	if (id < 0)
		return id;
	pd->pdn = id;
	resp.pdn = id;
	if (udata->outlen) {
		err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
		if (err) {
			ida_free(&dev->pd_ida, id);
			return err;
		}
	}
	return 0;
}

static int sd_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ida_free(&to_sddev(ibpd->device)->pd_ida, to_sdpd(ibpd)->pdn);
	return 0;
}

/* ---- CQ ------------------------------------------------------------------ */

static void sd_cq_entries_remove(struct sd_cq *cq)
{
	rdma_user_mmap_entry_remove(cq->db_entry);
	rdma_user_mmap_entry_remove(cq->q_entry);
	cq->db_entry = cq->q_entry = NULL;
}

#if SD_V612
static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct uverbs_attr_bundle *attrs)
{
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
#else
static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct ib_udata *udata)
{
#endif
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);
	struct efa_ibv_create_cq_resp resp = {};
	struct efa_ibv_create_cq cmd = {};
	struct ib_ucontext *uc;
	int entries = attr->cqe;
	bool set_src_addr;
	size_t size;
	void *ring;
	int id, err;

	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	uc = &rdma_udata_to_drv_context(udata, struct sd_ucontext, ibuc)->ibuc;
	if (attr->flags)
		return -EOPNOTSUPP;
	if (entries < 1 || entries > SD_MAX_CQ_DEPTH)
		return -EINVAL;
	if (offsetofend(typeof(cmd), num_sub_cqs) > udata->inlen)
		return -EINVAL;
	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd), udata->inlen - sizeof(cmd)))
		return -EINVAL;
	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
	if (cmd.comp_mask || memchr_inv(cmd.reserved_58, 0, sizeof(cmd.reserved_58)))
		return -EINVAL;
	set_src_addr = cmd.flags & EFA_CREATE_CQ_WITH_SGID;
	if (cmd.cq_entry_size != SD_RX_CDESC_EX &&
	    (set_src_addr || cmd.cq_entry_size != SD_RX_CDESC))
		return -EINVAL;
	if (cmd.num_sub_cqs != SD_SUB_CQS)
		return -EINVAL;
	/* the event queue of the vector (the core checked it is below
	 * num_comp_vectors) */
	cq->eq = cmd.flags & EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL ? (int)attr->comp_vector : -1;

	size = PAGE_ALIGN((size_t)cmd.cq_entry_size * entries * cmd.num_sub_cqs);
	ring = alloc_pages_exact(size, GFP_KERNEL | __GFP_ZERO);
	if (!ring)
		return -ENOMEM;

	/* the device's part */
	id = sd_id_alloc(&dev->cq_ida, 0, SD_MAX_CQ - 1);
	if (id < 0) {
		free_pages_exact(ring, size);
		return id;
	}
	cq->cq_idx = id;
	cq->db = sd_id_alloc(&dev->db_ida, 0, SD_DB_BAR_PAGES * PAGE_SIZE / SD_DB_STRIDE - 1);
	if (cq->db < 0) {
		err = cq->db;
		goto err_idx;
	}
	cq->ibcq.cqe = entries;
	resp.cq_idx = id;

	resp.q_mmap_size = size;
	cq->q_entry = sd_entry_insert(uc, ring, size, true, SD_MMAP_DMA_PAGE, &resp.q_mmap_key);
	if (!cq->q_entry) {
		err = -ENOMEM;
		goto err_db;
	}
	ring = NULL;		/* the entry owns it */
	cq->db_entry = sd_entry_insert(uc, sd_db_page(dev, cq->db), PAGE_SIZE, false,
				       SD_MMAP_IO_NC, &resp.db_mmap_key);
	if (!cq->db_entry) {
		err = -ENOMEM;
		goto err_entries;
	}
	resp.db_off = sd_db_off(cq->db);
	resp.comp_mask |= EFA_CREATE_CQ_RESP_DB_OFF;

	if (udata->outlen) {
		err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
		if (err)
			goto err_entries;
	}
	return 0;

err_entries:
	sd_cq_entries_remove(cq);
err_db:
	ida_free(&dev->db_ida, cq->db);
err_idx:
	ida_free(&dev->cq_ida, cq->cq_idx);
	if (ring)
		free_pages_exact(ring, size);
	return err;
}

static int sd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);

	sd_cq_entries_remove(cq);
	ida_free(&dev->db_ida, cq->db);
	ida_free(&dev->cq_ida, cq->cq_idx);
	return 0;
}

/* ---- QP ------------------------------------------------------------------ */

static void sd_qp_entries_remove(struct sd_qp *qp)
{
	rdma_user_mmap_entry_remove(qp->rq_entry);
	rdma_user_mmap_entry_remove(qp->rq_db_entry);
	rdma_user_mmap_entry_remove(qp->llq_entry);
	rdma_user_mmap_entry_remove(qp->sq_db_entry);
	qp->rq_entry = qp->rq_db_entry = qp->llq_entry = qp->sq_db_entry = NULL;
}

static void sd_qp_free_ids(struct sd_dev *dev, struct sd_qp *qp)
{
	if (qp->rq_db >= 0)
		ida_free(&dev->db_ida, qp->rq_db);
	if (qp->sq_db >= 0)
		ida_free(&dev->db_ida, qp->sq_db);
	if (qp->ibqp.qp_num)
		ida_free(&dev->qp_ida, qp->ibqp.qp_num);
}

static int sd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct efa_ibv_create_qp_resp resp = {};
	struct efa_ibv_create_qp cmd = {};
	const int db_last = SD_DB_BAR_PAGES * PAGE_SIZE / SD_DB_STRIDE - 1;
	struct ib_ucontext *uc;
	size_t rq_size, llq_size;
	void *rq = NULL, *llq;
	int id, err;

	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	uc = &rdma_udata_to_drv_context(udata, struct sd_ucontext, ibuc)->ibuc;
	qp->sq_db = qp->rq_db = -1;

	/* efa_qp_validate_cap */
	if (init->cap.max_send_wr > SD_MAX_SQ_DEPTH || init->cap.max_recv_wr > SD_MAX_RQ_DEPTH ||
	    init->cap.max_send_sge > SD_MAX_SQ_SGE || init->cap.max_recv_sge > SD_MAX_RQ_SGE ||
	    init->cap.max_inline_data > SD_INLINE_BUF)
		return -EINVAL;
	/* efa_qp_validate_attr */
	if (init->qp_type != IB_QPT_DRIVER && init->qp_type != IB_QPT_UD)
		return -EOPNOTSUPP;
	if (init->srq || init->create_flags)
		return -EOPNOTSUPP;

	if (offsetofend(typeof(cmd), driver_qp_type) > udata->inlen)
		return -EINVAL;
	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd), udata->inlen - sizeof(cmd)))
		return -EINVAL;
	err = ib_copy_from_udata(&cmd, udata, min(sizeof(cmd), udata->inlen));
	if (err)
		return err;
#if SD_V612
	if (cmd.comp_mask || memchr_inv(cmd.reserved_90, 0, sizeof(cmd.reserved_90)))
		return -EINVAL;
	/* no unsolicited write receive on this device: no flag is taken */
	if (cmd.flags)
		return -EOPNOTSUPP;
#else
	if (cmd.comp_mask)
		return -EINVAL;
#endif
	if (init->qp_type != IB_QPT_UD && cmd.driver_qp_type != EFA_QP_DRIVER_TYPE_SRD)
		return -EOPNOTSUPP;

	rq_size = PAGE_ALIGN(cmd.rq_ring_size);
	if (rq_size) {
		rq = alloc_pages_exact(rq_size, GFP_KERNEL | __GFP_ZERO);
		if (!rq)
			return -ENOMEM;
	}

	/* the device's part: the LLQ cannot hold more than max_llq_size */
	if (cmd.sq_ring_size > SD_MAX_LLQ) {
		err = -EINVAL;
		goto err_rq;
	}
	id = sd_id_alloc(&dev->qp_ida, 1, SD_MAX_QP);
	if (id < 0) {
		err = id;
		goto err_rq;
	}
	qp->ibqp.qp_num = id;
	qp->sq_db = sd_id_alloc(&dev->db_ida, 0, db_last);
	if (qp->sq_db < 0) {
		err = qp->sq_db;
		goto err_ids;
	}
	if (rq_size) {
		qp->rq_db = sd_id_alloc(&dev->db_ida, 0, db_last);
		if (qp->rq_db < 0) {
			err = qp->rq_db;
			goto err_ids;
		}
	}

	/* qp_mmap_entries_setup */
	qp->sq_db_entry = sd_entry_insert(uc, sd_db_page(dev, qp->sq_db), PAGE_SIZE, false,
					  SD_MMAP_IO_NC, &resp.sq_db_mmap_key);
	if (!qp->sq_db_entry)
		goto err_nomem;
	resp.sq_db_offset = sd_db_off(qp->sq_db);
	/* the descriptors start on a page of their own here: offset 0 */
	llq_size = PAGE_ALIGN(cmd.sq_ring_size);
	llq = llq_size ? alloc_pages_exact(llq_size, GFP_KERNEL | __GFP_ZERO) : NULL;
	if (!llq)
		goto err_nomem;
	qp->llq_entry = sd_entry_insert(uc, llq, llq_size, true, SD_MMAP_IO_WC,
					&resp.llq_desc_mmap_key);
	if (!qp->llq_entry) {
		free_pages_exact(llq, llq_size);
		goto err_nomem;
	}
	resp.llq_desc_offset = 0;
	if (rq_size) {
		qp->rq_db_entry = sd_entry_insert(uc, sd_db_page(dev, qp->rq_db), PAGE_SIZE, false,
						  SD_MMAP_IO_NC, &resp.rq_db_mmap_key);
		if (!qp->rq_db_entry)
			goto err_nomem;
		resp.rq_db_offset = sd_db_off(qp->rq_db);
		qp->rq_entry = sd_entry_insert(uc, rq, rq_size, true, SD_MMAP_DMA_PAGE,
					       &resp.rq_mmap_key);
		if (!qp->rq_entry)
			goto err_nomem;
		rq = NULL;	/* the entry owns it */
		resp.rq_mmap_size = rq_size;
	}
	resp.send_sub_cq_idx = 0;
	resp.recv_sub_cq_idx = 0;

	mutex_init(&qp->lock);
	qp->state = IB_QPS_RESET;
	qp->cap = init->cap;
	if (udata->outlen) {
		err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
		if (err)
			goto err_entries;
	}
	return 0;

err_nomem:
	err = -ENOMEM;
err_entries:
	sd_qp_entries_remove(qp);
err_ids:
	sd_qp_free_ids(dev, qp);
err_rq:
	if (rq)
		free_pages_exact(rq, rq_size);
	return err;
}

static int sd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	sd_qp_entries_remove(qp);
	sd_qp_free_ids(to_sddev(ibqp->device), qp);
	return 0;
}

/* srd_qp_state_table of efa_verbs.c: for each transition, valid, the
 * attributes required and those allowed. */
static const struct {
	bool valid;
	int req, opt;
} sd_srd_table[IB_QPS_ERR + 1][IB_QPS_ERR + 1] = {
	[IB_QPS_RESET] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_INIT] = { true, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY, 0 },
	},
	[IB_QPS_INIT] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_ERR] = { true },
		[IB_QPS_INIT] = { true, 0, IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY },
		[IB_QPS_RTR] = { true, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	},
	[IB_QPS_RTR] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_ERR] = { true },
		[IB_QPS_RTS] = { true, IB_QP_SQ_PSN, IB_QP_CUR_STATE | IB_QP_QKEY | IB_QP_RNR_RETRY },
	},
	[IB_QPS_RTS] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_ERR] = { true },
		[IB_QPS_RTS] = { true, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
		[IB_QPS_SQD] = { true, 0, IB_QP_EN_SQD_ASYNC_NOTIFY },
	},
	[IB_QPS_SQD] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_ERR] = { true },
		[IB_QPS_RTS] = { true, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
		[IB_QPS_SQD] = { true, 0, IB_QP_PKEY_INDEX | IB_QP_QKEY },
	},
	[IB_QPS_SQE] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_ERR] = { true },
		[IB_QPS_RTS] = { true, 0, IB_QP_CUR_STATE | IB_QP_QKEY },
	},
	[IB_QPS_ERR] = {
		[IB_QPS_RESET] = { true },
		[IB_QPS_ERR] = { true },
	},
};

static bool sd_srd_ok(enum ib_qp_state cur, enum ib_qp_state next, int mask)
{
	int req, opt;

	if ((mask & IB_QP_CUR_STATE) && cur != IB_QPS_RTR && cur != IB_QPS_RTS &&
	    cur != IB_QPS_SQD && cur != IB_QPS_SQE)
		return false;
	if (!sd_srd_table[cur][next].valid)
		return false;
	req = sd_srd_table[cur][next].req;
	opt = sd_srd_table[cur][next].opt;
	if ((mask & req) != req)
		return false;
	return !(mask & ~(req | opt | IB_QP_STATE));
}

#define SD_MODIFY_MASK (IB_QP_STATE | IB_QP_CUR_STATE | IB_QP_EN_SQD_ASYNC_NOTIFY | \
			IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY | IB_QP_SQ_PSN | \
			IB_QP_RNR_RETRY)
#define SD_QUERY_MASK (IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY | \
		       IB_QP_SQ_PSN | IB_QP_CAP | IB_QP_RNR_RETRY)

static int sd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	enum ib_qp_state cur, next;
	bool ok;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;

	mutex_lock(&qp->lock);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	/* efa_modify_qp_validate */
	if (mask & ~SD_MODIFY_MASK)
		goto notsupp;
	if (ibqp->qp_type == IB_QPT_DRIVER)
		ok = cur <= IB_QPS_ERR && next <= IB_QPS_ERR && sd_srd_ok(cur, next, mask);
	else
		ok = ib_modify_qp_is_ok(cur, next, IB_QPT_UD, mask);
	if (!ok) {
		mutex_unlock(&qp->lock);
		return -EINVAL;
	}
	if ((mask & IB_QP_PORT) && attr->port_num != 1)
		goto notsupp;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		goto notsupp;

	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn;
	if (mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = attr->rnr_retry;
	qp->state = next;
	mutex_unlock(&qp->lock);
	return 0;

notsupp:
	mutex_unlock(&qp->lock);
	return -EOPNOTSUPP;
}

static int sd_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *qa, int mask,
		       struct ib_qp_init_attr *init)
{
	struct sd_qp *qp = to_sdqp(ibqp);

	if (mask & ~SD_QUERY_MASK)
		return -EOPNOTSUPP;
	memset(qa, 0, sizeof(*qa));
	memset(init, 0, sizeof(*init));
	mutex_lock(&qp->lock);
	qa->qp_state = qp->state;
	qa->qkey = qp->qkey;
	qa->sq_psn = qp->sq_psn;
	qa->rnr_retry = qp->rnr_retry;
	mutex_unlock(&qp->lock);
	qa->port_num = 1;
	qa->cap = qp->cap;
	init->qp_type = ibqp->qp_type;
	init->recv_cq = ibqp->recv_cq;
	init->send_cq = ibqp->send_cq;
	init->qp_context = ibqp->qp_context;
	init->cap = qa->cap;
	return 0;
}

/* ---- MR and AH ----------------------------------------------------------- */

static struct ib_mr *sd_reg_user_mr(struct ib_pd *pd, u64 start, u64 length, u64 iova,
				    int access, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(pd->device);
	int supp = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ;
	struct sd_mr *mr;
	int id, err;

	if (udata && udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return ERR_PTR(-EINVAL);
	if ((access & ~IB_ACCESS_OPTIONAL) & ~supp)
		return ERR_PTR(-EOPNOTSUPP);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	if (!ib_umem_find_best_pgsz(mr->umem, SD_PAGE_SIZE_CAP, iova)) {
		err = -EOPNOTSUPP;
		goto err_release;
	}
	id = sd_id_alloc(&dev->mr_ida, 1, SD_MAX_MR);
	if (id < 0) {
		err = id;
		goto err_release;
	}
	mr->id = id;
	mr->ibmr.lkey = id << 8;
	mr->ibmr.rkey = id << 8;
	mr->ibmr.length = length;
	return &mr->ibmr;

err_release:
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

static int sd_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct sd_mr *mr = to_sdmr(ibmr);

	ib_umem_release(mr->umem);
	ida_free(&to_sddev(ibmr->device)->mr_ida, mr->id);
	kfree(mr);
	return 0;
}

static int sd_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibah->device);
	struct efa_ibv_create_ah_resp resp = {};
	struct sd_ah *ah = to_sdah(ibah);
	int id, err;

	if (!(init->flags & RDMA_CREATE_AH_SLEEPABLE))
		return -EOPNOTSUPP;
	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	if (udata->inlen && !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;
	id = sd_id_alloc(&dev->ah_ida, 1, SD_MAX_AH);
	if (id < 0)
		return id;
	ah->ah = id;
	resp.efa_address_handle = id;
	if (udata->outlen) {
		err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
		if (err) {
			ida_free(&dev->ah_ida, id);
			return err;
		}
	}
	return 0;
}

static int sd_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	if (!(flags & RDMA_DESTROY_AH_SLEEPABLE))
		return -EOPNOTSUPP;
	ida_free(&to_sddev(ibah->device)->ah_ida, to_sdah(ibah)->ah);
	return 0;
}

/* ---- registration -------------------------------------------------------- */

static const struct ib_device_ops sd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_EFA,
	.uverbs_abi_ver = EFA_UVERBS_ABI_VERSION,

	.alloc_pd = sd_alloc_pd,
	.alloc_ucontext = sd_alloc_ucontext,
	.create_cq = sd_create_cq,
	.create_qp = sd_create_qp,
	.create_user_ah = sd_create_ah,
	.dealloc_pd = sd_dealloc_pd,
	.dealloc_ucontext = sd_dealloc_ucontext,
	.dereg_mr = sd_dereg_mr,
	.destroy_ah = sd_destroy_ah,
	.destroy_cq = sd_destroy_cq,
	.destroy_qp = sd_destroy_qp,
	.get_link_layer = sd_link_layer,
	.get_port_immutable = sd_port_immutable,
	.mmap = sd_mmap,
	.mmap_free = sd_mmap_free,
	.modify_qp = sd_modify_qp,
	.query_device = sd_query_device,
	.query_gid = sd_query_gid,
	.query_pkey = sd_query_pkey,
	.query_port = sd_query_port,
	.query_qp = sd_query_qp,
	.reg_user_mr = sd_reg_user_mr,

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
	ida_destroy(&dev->uar_ida);
	ida_destroy(&dev->db_ida);
}

static int __init sd_init(void)
{
	/* the device's address: a link-local IPv6-like GID, as EFA's are */
	static const u8 addr[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
				     0x1d, 0x0f, 0xef, 0xa1, 0, 0, 0, 0x01 };
	struct sd_dev *dev;
	int err;

	dev = ib_alloc_device(sd_dev, ibdev);
	if (!dev)
		return -ENOMEM;
	dev->db_bar = alloc_pages_exact(SD_DB_BAR_PAGES * PAGE_SIZE, GFP_KERNEL | __GFP_ZERO);
	if (!dev->db_bar) {
		ib_dealloc_device(&dev->ibdev);
		return -ENOMEM;
	}
	memcpy(dev->addr, addr, sizeof(addr));
	ida_init(&dev->pd_ida);
	ida_init(&dev->cq_ida);
	ida_init(&dev->qp_ida);
	ida_init(&dev->mr_ida);
	ida_init(&dev->ah_ida);
	ida_init(&dev->uar_ida);
	ida_init(&dev->db_ida);

	dev->ibdev.node_type = RDMA_NODE_UNSPECIFIED;
	dev->ibdev.phys_port_cnt = 1;
	dev->ibdev.num_comp_vectors = 1;
	memcpy(&dev->ibdev.node_guid, addr + 8, sizeof(dev->ibdev.node_guid));
	strscpy(dev->ibdev.node_desc, "efa_standin", sizeof(dev->ibdev.node_desc));
	ib_set_device_ops(&dev->ibdev, &sd_ops);

	/* no DMA device: the core maps user memory by kernel address */
	err = ib_register_device(&dev->ibdev, "efa_%d", NULL);
	if (err) {
		sd_destroy_ids(dev);
		free_pages_exact(dev->db_bar, SD_DB_BAR_PAGES * PAGE_SIZE);
		ib_dealloc_device(&dev->ibdev);
		return err;
	}
	sd_the_dev = dev;
	pr_info("efa_standin: %s\n", dev_name(&dev->ibdev.dev));
	return 0;
}

static void __exit sd_exit(void)
{
	struct sd_dev *dev = sd_the_dev;

	ib_unregister_device(&dev->ibdev);
	sd_destroy_ids(dev);
	free_pages_exact(dev->db_bar, SD_DB_BAR_PAGES * PAGE_SIZE);
	ib_dealloc_device(&dev->ibdev);
}

module_init(sd_init);
module_exit(sd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("efa's user ABI on a software device (a test fixture)");
