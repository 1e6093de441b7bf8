// SPDX-License-Identifier: GPL-2.0
/*
 * mana_standin: an RDMA device that answers the uverbs ABI as the kernel's
 * mana_ib driver (Microsoft Azure Network Adapter) does, without hardware.
 * A test fixture of libuverbs-ioctl (the rest of that project is MIT; this
 * file is GPL-2.0 because it restates mana_ib's rules). Never installed:
 * tests/standin/build.sh builds it against the Debian headers of the
 * guest's kernel (6.12: mana_ib came in 6.2, Debian 12's 6.1 has none) and
 * the kernel suite loads it in a qemu guest.
 *
 *   insmod mana_standin.ko [netdev=dummy0]
 *
 * registers mana_0 (driver id RDMA_DRIVER_MANA, uverbs ABI version
 * MANA_IB_UVERBS_ABI_VERSION, an IB CA node) with one Ethernet port on the
 * netdev (RAW_PACKET and RoCE v2 capabilities, as mana_ib's port 1).
 * libibverbs matches rdma-core's libmana by that driver id alone, and
 * Debian's libmana (rdma-core 44) drives it as it drives a MANA.
 *
 * What of mana_ib it reproduces, as Linux 6.12 states it (Debian 6.12.118,
 * drivers/infiniband/hw/mana/{main,cq,qp,wq,mr,device}.c,
 * include/uapi/rdma/mana-abi.h): the user-data contract of every command
 * below, the checks in mana_ib's order with its errno. The rules are
 * transcribed; the code is written anew.
 *  - GET_CONTEXT (mana_ib_alloc_ucontext): no driver data read or written;
 *    a doorbell page allocated for the context (freed at close).
 *  - mmap (mana_ib_mmap): offset other than 0: EINVAL; the context's
 *    doorbell page through rdma_user_mmap_io (a shared mapping of exactly
 *    one page, else EINVAL).
 *  - ALLOC_PD (mana_ib_alloc_pd): no driver data; a PD number.
 *  - CREATE_CQ (mana_ib_create_cq): a request shorter than up to flags
 *    (8 bytes): EINVAL; read up to the caller's length (mana_ib_create_cq);
 *    without MANA_IB_CREATE_RNIC_CQ, entries above the device's max_qp_wr:
 *    EINVAL; the buffer (buf_addr, entries x 64 bytes) pinned for local
 *    write (ib_umem_get's errno), and a zero-offset DMA region of it: no
 *    page size of mana's (4 KiB to 2 MiB) that the buffer starts on:
 *    EINVAL (mana_ib_create_zero_offset_dma_region). An RNIC CQ gets its
 *    queue id now; a raw CQ when a QP's queue binds it. The answer
 *    (mana_ib_create_cq_resp: cqid, INVALID_QUEUE_ID while unbound) cut to
 *    the caller's length.
 *  - CREATE_WQ (mana_ib_create_wq): a request shorter than
 *    mana_ib_create_wq: EINVAL; the buffer (wq_buf_addr, wq_buf_size)
 *    pinned as the CQ's. MODIFY_WQ: EOPNOTSUPP. Indirection tables: taken
 *    as they are (no driver data).
 *  - CREATE_QP (mana_ib_create_qp), by type: RAW_PACKET over an
 *    indirection table (RSS), RAW_PACKET, RC; any other: EINVAL.
 *    RAW_PACKET (mana_ib_create_qp_raw): a request shorter than
 *    mana_ib_create_qp: EINVAL; send WRs above max_qp_wr, send SGEs above
 *    MAX_TX_WQE_SGL_ENTRIES (30): EINVAL; a port other than 1: EINVAL; the
 *    vPort configured for the PD (counted per PD); the send buffer pinned
 *    as the CQ's; the send CQ's queue bound: a CQ that backs a queue
 *    already (its memory is the first queue's): EPROTO (the firmware's
 *    refusal, as the stand-in states it). The answer
 *    (mana_ib_create_qp_resp: sqid, cqid, tx_vp_offset) is 16 bytes
 *    whatever the caller's length: mana_ib writes them all; the stand-in
 *    refuses a shorter answer space with EFAULT rather than write past it.
 *    RSS (mana_ib_create_qp_rss): a request shorter than
 *    mana_ib_create_qp_rss: EINVAL; receive WRs above max_qp_wr, receive
 *    SGEs above MAX_RX_WQE_SGL_ENTRIES (15), more than 64 WQs in the
 *    table, a hash function other than Toeplitz, a port other than 1:
 *    EINVAL; each WQ's and CQ's queue bound (a bound CQ: EPROTO); a hash
 *    key longer than 40 bytes: EINVAL; the answer
 *    (mana_ib_create_qp_rss_resp, 520 bytes, as the raw one's). RC
 *    (mana_ib_create_rc_qp): a request shorter than mana_ib_create_rc_qp:
 *    EINVAL; four queues (requester and responder send, requester and
 *    responder receive) pinned from queue_buf/queue_size as the CQ's; the
 *    QP number is the responder receive queue's id; the answer
 *    (mana_ib_create_rc_qp_resp: the four queue ids) cut to the caller's
 *    length.
 *  - MODIFY_QP (mana_ib_modify_qp): RC only (taken as the firmware takes
 *    it), any other type EOPNOTSUPP. No QUERY_QP (mana_ib has none).
 *  - REG_MR (mana_ib_reg_user_mr): access flags (less
 *    IB_ACCESS_OPTIONAL) past LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ:
 *    EINVAL; the range pinned; no page size of mana's for the IOVA:
 *    EINVAL. No driver data read.
 *  - QUERY_DEVICE, QUERY_PORT, QUERY_PKEY: mana_ib's answers from the
 *    adapter's capabilities (below); no vendor id (mana_ib sets none).
 * What stands in for the device: the adapter's capabilities (max_qp_wr
 * 8192 = the SQ and RQ sizes over 512- and 256-byte WQEs, 32/32 SGEs...),
 * queue, PD, MR and doorbell ids from IDAs, doorbell pages of zeroed RAM
 * (mapped with the default caching, not write-combined). Kernel verbs are
 * refused (EOPNOTSUPP). No data path, no events; the RoCE GIDs are the
 * core's, from the netdev's addresses (add_gid and del_gid take them).
 */
#include <linux/module.h>
#include <linux/version.h>
#include <linux/etherdevice.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/sizes.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>
#include <rdma/mana-abi.h>
#include "standin.h"

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#error "mana_standin states Linux 6.12's mana_ib; older kernels were not read"
#endif

static char *netdev = "dummy0";
module_param(netdev, charp, 0444);
MODULE_PARM_DESC(netdev, "the Ethernet device under the port (default dummy0)");

/* The adapter's capabilities (mana_ib_gd_query_adapter_caps's answer). */
enum {
	SD_MAX_QP = 1024,
	SD_MAX_CQ = 1024,
	SD_MAX_PD = 1024,
	SD_MAX_MR = 4096,
	SD_MAX_QUEUE_ID = 4096,
	SD_MAX_QP_WR = 8192,		/* min(sq size / 512, rq size / 256) */
	SD_MAX_SEND_SGE = 30,
	SD_MAX_RECV_SGE = 15,
	SD_MAX_TX_SGL = 30,		/* MAX_TX_WQE_SGL_ENTRIES */
	SD_MAX_RX_SGL = 15,		/* MAX_RX_WQE_SGL_ENTRIES */
	SD_CQE_SIZE = 64,		/* COMP_ENTRY_SIZE */
	SD_IND_TABLE_MAX = 64,		/* MANA_INDIRECT_TABLE_DEF_SIZE */
	SD_HASH_KEY = 40,		/* MANA_HASH_KEY_SIZE */
	SD_DB_PAGES = 64,
	SD_RC_QUEUES = 4,		/* the RC queues with a user buffer (no FMR) */
	SD_TX_VP_OFFSET = 0x10,
	SD_ACK_DELAY = 16,		/* MANA_CA_ACK_DELAY */
};
#define SD_PAGE_SZ_BM (SZ_4K | SZ_8K | SZ_16K | SZ_32K | SZ_64K | SZ_128K | SZ_256K | \
		       SZ_512K | SZ_1M | SZ_2M)
#define SD_INVALID_ID U32_MAX		/* INVALID_QUEUE_ID */

struct sd_dev {
	struct ib_device ibdev;
	void *db_pages;			/* SD_DB_PAGES zeroed pages */
	struct ida pd_ida, queue_ida, mr_ida, db_ida;
};

static struct sd_dev *sd_the_dev;

struct sd_ucontext {
	struct ib_ucontext ibuc;
	int db;
};

struct sd_pd {
	struct ib_pd ibpd;
	u32 pdn;
	struct mutex vport_lock;
	int vport_users;
};

/* A queue in the process's memory (mana_ib_queue): pinned, with an id
 * once the device made it. */
struct sd_queue {
	struct ib_umem *umem;
	u32 id;
};

struct sd_cq {
	struct ib_cq ibcq;
	struct sd_queue q;
};

struct sd_wq {
	struct ib_wq ibwq;
	struct sd_queue q;
};

struct sd_ind_table {
	struct ib_rwq_ind_table ibtbl;
};

struct sd_qp {
	struct ib_qp ibqp;
	struct sd_queue q[SD_RC_QUEUES];	/* raw: q[0] the send queue */
	bool vport;			/* a raw QP's vPort use */
};

struct sd_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	u32 id;
};

static struct sd_dev *to_sddev(struct ib_device *d) { return container_of(d, struct sd_dev, ibdev); }
static struct sd_ucontext *to_sduc(struct ib_ucontext *c) { return container_of(c, struct sd_ucontext, ibuc); }
static struct sd_pd *to_sdpd(struct ib_pd *p) { return container_of(p, struct sd_pd, ibpd); }
static struct sd_cq *to_sdcq(struct ib_cq *c) { return container_of(c, struct sd_cq, ibcq); }
static struct sd_wq *to_sdwq(struct ib_wq *w) { return container_of(w, struct sd_wq, ibwq); }
static struct sd_qp *to_sdqp(struct ib_qp *q) { return container_of(q, struct sd_qp, ibqp); }
static struct sd_mr *to_sdmr(struct ib_mr *m) { return container_of(m, struct sd_mr, ibmr); }

/* ---- queues (mana_ib_create_queue) --------------------------------------- */

static int sd_queue_pin(struct sd_dev *dev, struct sd_queue *q, u64 addr, u32 size)
{
	struct ib_umem *umem;

	q->umem = NULL;
	q->id = SD_INVALID_ID;
	umem = ib_umem_get(&dev->ibdev, addr, size, IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(umem))
		return PTR_ERR(umem);
	/* the hardware's DMA region starts at offset 0 of its page size */
	if (!ib_umem_find_best_pgoff(umem, SD_PAGE_SZ_BM, 0)) {
		ib_umem_release(umem);
		return -EINVAL;
	}
	q->umem = umem;
	return 0;
}

/* The device makes the queue: it gets an id. */
static int sd_queue_make(struct sd_dev *dev, struct sd_queue *q)
{
	int id = ida_alloc_range(&dev->queue_ida, 1, SD_MAX_QUEUE_ID, GFP_KERNEL);

	if (id < 0)
		return id;
	q->id = id;
	return 0;
}

static void sd_queue_release(struct sd_dev *dev, struct sd_queue *q)
{
	if (q->id != SD_INVALID_ID)
		ida_free(&dev->queue_ida, q->id);
	q->id = SD_INVALID_ID;
	ib_umem_release(q->umem);
	q->umem = NULL;
}

/* A CQ bound to the queue it completes for (its memory given to that
 * queue): once only. */
static int sd_cq_bind(struct sd_dev *dev, struct sd_cq *cq)
{
	if (cq->q.id != SD_INVALID_ID)
		return -EPROTO;
	return sd_queue_make(dev, &cq->q);
}

/* ---- device and port ------------------------------------------------------ */

static int sd_query_device(struct ib_device *ibdev, struct ib_device_attr *props,
			   struct ib_udata *uhw)
{
	memset(props, 0, sizeof(*props));
	props->max_mr_size = U64_MAX;
	props->page_size_cap = SD_PAGE_SZ_BM;
	props->max_qp = SD_MAX_QP;
	props->max_qp_wr = SD_MAX_QP_WR;
	props->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN;
	props->max_send_sge = SD_MAX_SEND_SGE;
	props->max_recv_sge = SD_MAX_RECV_SGE;
	props->max_sge_rd = SD_MAX_RECV_SGE;
	props->max_cq = SD_MAX_CQ;
	props->max_cqe = SD_MAX_QP_WR;
	props->max_mr = SD_MAX_MR;
	props->max_pd = SD_MAX_PD;
	props->atomic_cap = IB_ATOMIC_NONE;
	props->masked_atomic_cap = IB_ATOMIC_NONE;
	props->max_ah = INT_MAX;
	props->max_pkeys = 1;
	props->local_ca_ack_delay = SD_ACK_DELAY;
	return 0;
}

static int sd_query_port(struct ib_device *ibdev, u32 port, struct ib_port_attr *props)
{
	struct net_device *ndev = ib_device_get_netdev(ibdev, port);

	if (!ndev)
		return -EINVAL;
	memset(props, 0, sizeof(*props));
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = ib_mtu_int_to_enum(ndev->mtu);
	if (netif_carrier_ok(ndev) && netif_running(ndev)) {
		props->state = IB_PORT_ACTIVE;
		props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		props->state = IB_PORT_DOWN;
		props->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	dev_put(ndev);
	props->active_speed = IB_SPEED_EDR;
	props->active_width = IB_WIDTH_4X;
	props->pkey_tbl_len = 1;
	props->gid_tbl_len = 16;
	return 0;
}

static int sd_port_immutable(struct ib_device *ibdev, u32 port,
			     struct ib_port_immutable *immutable)
{
	return sd_port_immutable_caps(ibdev, port, immutable,
				      RDMA_CORE_PORT_RAW_PACKET | RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP);
}

static int sd_query_pkey(struct ib_device *ibdev, u32 port, u16 index, u16 *pkey)
{
	return sd_default_pkey(index, 1, pkey);
}

static int sd_query_gid(struct ib_device *ibdev, u32 port, int index, union ib_gid *gid)
{
	return 0;	/* as mana_ib: the core's GID table answers */
}

/* The RoCE GIDs of the netdev: the firmware's table, which the stand-in
 * does not keep (mana_ib_gd_add_gid, mana_ib_gd_del_gid). */
static int sd_add_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

static int sd_del_gid(const struct ib_gid_attr *attr, void **context)
{
	return 0;
}

/* ---- context and doorbell ------------------------------------------------ */

static int sd_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	int db = ida_alloc_range(&to_sddev(ibuc->device)->db_ida, 0, SD_DB_PAGES - 1, GFP_KERNEL);

	if (db < 0)
		return db;
	to_sduc(ibuc)->db = db;
	return 0;
}

static void sd_dealloc_ucontext(struct ib_ucontext *ibuc)
{
	ida_free(&to_sddev(ibuc->device)->db_ida, to_sduc(ibuc)->db);
}

static int sd_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct sd_dev *dev = to_sddev(ibuc->device);
	void *page = dev->db_pages + (size_t)to_sduc(ibuc)->db * PAGE_SIZE;

	if (vma->vm_pgoff != 0)
		return -EINVAL;
	/* RAM standing in for the doorbell BAR: the default caching */
	return rdma_user_mmap_io(ibuc, vma, PHYS_PFN(virt_to_phys(page)), PAGE_SIZE,
				 vma->vm_page_prot, NULL);
}

/* ---- PD -------------------------------------------------------------------- */

static int sd_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct sd_pd *pd = to_sdpd(ibpd);
	int id;

	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	id = ida_alloc_range(&to_sddev(ibpd->device)->pd_ida, 1, SD_MAX_PD, GFP_KERNEL);
	if (id < 0)
		return id;
	pd->pdn = id;
	mutex_init(&pd->vport_lock);
	pd->vport_users = 0;
	return 0;
}

static int sd_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	ida_free(&to_sddev(ibpd->device)->pd_ida, to_sdpd(ibpd)->pdn);
	return 0;
}

/* ---- CQ ---------------------------------------------------------------------- */

static int sd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			struct uverbs_attr_bundle *attrs)
{
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct mana_ib_create_cq_resp resp = {};
	struct mana_ib_create_cq ucmd = {};
	struct sd_cq *cq = to_sdcq(ibcq);
	bool rnic;
	int err;

	cq->q.id = SD_INVALID_ID;
	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	if (udata->inlen < offsetof(struct mana_ib_create_cq, flags))
		return -EINVAL;
	err = ib_copy_from_udata(&ucmd, udata, min(sizeof(ucmd), udata->inlen));
	if (err)
		return err;
	rnic = ucmd.flags & MANA_IB_CREATE_RNIC_CQ;
	if (!rnic && attr->cqe > SD_MAX_QP_WR)
		return -EINVAL;
	err = sd_queue_pin(dev, &cq->q, ucmd.buf_addr, attr->cqe * SD_CQE_SIZE);
	if (err)
		return err;
	if (rnic) {
		err = sd_queue_make(dev, &cq->q);
		if (err)
			goto err_release;
	}
	cq->ibcq.cqe = attr->cqe;
	resp.cqid = cq->q.id;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		goto err_release;
	return 0;

err_release:
	sd_queue_release(dev, &cq->q);
	return err;
}

static int sd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	sd_queue_release(to_sddev(ibcq->device), &to_sdcq(ibcq)->q);
	return 0;
}

/* ---- WQ and indirection table ---------------------------------------------- */

static struct ib_wq *sd_create_wq(struct ib_pd *pd, struct ib_wq_init_attr *init,
				  struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(pd->device);
	struct mana_ib_create_wq ucmd = {};
	struct sd_wq *wq;
	int err;

	if (!udata)
		return ERR_PTR(-EOPNOTSUPP);
	if (udata->inlen < sizeof(ucmd))
		return ERR_PTR(-EINVAL);
	err = ib_copy_from_udata(&ucmd, udata, min(sizeof(ucmd), udata->inlen));
	if (err)
		return ERR_PTR(err);
	wq = kzalloc(sizeof(*wq), GFP_KERNEL);
	if (!wq)
		return ERR_PTR(-ENOMEM);
	err = sd_queue_pin(dev, &wq->q, ucmd.wq_buf_addr, ucmd.wq_buf_size);
	if (err) {
		kfree(wq);
		return ERR_PTR(err);
	}
	return &wq->ibwq;
}

static int sd_modify_wq(struct ib_wq *wq, struct ib_wq_attr *attr, u32 mask,
			struct ib_udata *udata)
{
	return -EOPNOTSUPP;
}

static int sd_destroy_wq(struct ib_wq *ibwq, struct ib_udata *udata)
{
	struct sd_wq *wq = to_sdwq(ibwq);

	sd_queue_release(to_sddev(ibwq->device), &wq->q);
	kfree(wq);
	return 0;
}

static int sd_create_ind_table(struct ib_rwq_ind_table *tbl,
			       struct ib_rwq_ind_table_init_attr *init, struct ib_udata *udata)
{
	return 0;
}

static int sd_destroy_ind_table(struct ib_rwq_ind_table *tbl)
{
	return 0;
}

/* ---- QP ---------------------------------------------------------------------- */

/* The netdev of an IB port: port 1 only. */
static bool sd_port_ok(u32 port)
{
	return port == 1;
}

static int sd_create_qp_rss(struct sd_dev *dev, struct sd_qp *qp,
			    struct ib_qp_init_attr *init, struct ib_udata *udata)
{
	struct ib_rwq_ind_table *tbl = init->rwq_ind_tbl;
	struct mana_ib_create_qp_rss_resp *resp;
	struct mana_ib_create_qp_rss ucmd = {};
	unsigned int n, i;
	int err;

	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	err = ib_copy_from_udata(&ucmd, udata, min(sizeof(ucmd), udata->inlen));
	if (err)
		return err;
	if (init->cap.max_recv_wr > SD_MAX_QP_WR || init->cap.max_recv_sge > SD_MAX_RX_SGL)
		return -EINVAL;
	n = 1u << tbl->log_ind_tbl_size;
	if (n > SD_IND_TABLE_MAX)
		return -EINVAL;
	if (ucmd.rx_hash_function != MANA_IB_RX_HASH_FUNC_TOEPLITZ)
		return -EINVAL;
	if (!sd_port_ok(ucmd.port))
		return -EINVAL;
	if (udata->outlen < sizeof(*resp))
		return -EFAULT;		/* mana_ib would write past it (see the header) */
	resp = kzalloc(sizeof(*resp), GFP_KERNEL);
	if (!resp)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct sd_wq *wq = to_sdwq(tbl->ind_tbl[i]);
		struct sd_cq *cq = to_sdcq(tbl->ind_tbl[i]->cq);

		err = sd_queue_make(dev, &wq->q);
		if (!err) {
			err = sd_cq_bind(dev, cq);
			if (err) {
				ida_free(&dev->queue_ida, wq->q.id);
				wq->q.id = SD_INVALID_ID;
			}
		}
		if (err)
			goto err_unbind;
		resp->entries[i].cqid = cq->q.id;
		resp->entries[i].wqid = wq->q.id;
	}
	resp->num_entries = n;
	/* the vPort's steering (mana_ib_cfg_vport_steering) */
	if (ucmd.rx_hash_key_len > SD_HASH_KEY) {
		err = -EINVAL;
		goto err_unbind;
	}
	err = ib_copy_to_udata(udata, resp, sizeof(*resp));
	if (err)
		goto err_unbind;
	kfree(resp);
	return 0;

err_unbind:
	while (i-- > 0) {
		struct sd_wq *wq = to_sdwq(tbl->ind_tbl[i]);
		struct sd_cq *cq = to_sdcq(tbl->ind_tbl[i]->cq);

		ida_free(&dev->queue_ida, wq->q.id);
		wq->q.id = SD_INVALID_ID;
		ida_free(&dev->queue_ida, cq->q.id);
		cq->q.id = SD_INVALID_ID;
	}
	kfree(resp);
	return err;
}

static int sd_create_qp_raw(struct sd_dev *dev, struct sd_qp *qp,
			    struct ib_qp_init_attr *init, struct ib_udata *udata)
{
	struct sd_pd *pd = to_sdpd(qp->ibqp.pd);
	struct sd_cq *send_cq = to_sdcq(init->send_cq);
	struct mana_ib_create_qp_resp resp = {};
	struct mana_ib_create_qp ucmd = {};
	int err;

	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	err = ib_copy_from_udata(&ucmd, udata, min(sizeof(ucmd), udata->inlen));
	if (err)
		return err;
	if (init->cap.max_send_wr > SD_MAX_QP_WR || init->cap.max_send_sge > SD_MAX_TX_SGL)
		return -EINVAL;
	if (!sd_port_ok(ucmd.port))
		return -EINVAL;
	mutex_lock(&pd->vport_lock);
	pd->vport_users++;
	mutex_unlock(&pd->vport_lock);
	qp->vport = true;
	err = sd_queue_pin(dev, &qp->q[0], ucmd.sq_buf_addr, ucmd.sq_buf_size);
	if (err)
		goto err_vport;
	err = sd_queue_make(dev, &qp->q[0]);
	if (err)
		goto err_queue;
	err = sd_cq_bind(dev, send_cq);
	if (err)
		goto err_queue;
	resp.sqid = qp->q[0].id;
	resp.cqid = send_cq->q.id;
	resp.tx_vp_offset = SD_TX_VP_OFFSET;
	if (udata->outlen < sizeof(resp)) {
		err = -EFAULT;		/* mana_ib would write past it (see the header) */
		goto err_cq;
	}
	err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_cq;
	return 0;

err_cq:
	ida_free(&dev->queue_ida, send_cq->q.id);
	send_cq->q.id = SD_INVALID_ID;
err_queue:
	sd_queue_release(dev, &qp->q[0]);
err_vport:
	mutex_lock(&pd->vport_lock);
	pd->vport_users--;
	mutex_unlock(&pd->vport_lock);
	qp->vport = false;
	return err;
}

static int sd_create_qp_rc(struct sd_dev *dev, struct sd_qp *qp,
			   struct ib_qp_init_attr *init, struct ib_udata *udata)
{
	struct mana_ib_create_rc_qp_resp resp = {};
	struct mana_ib_create_rc_qp ucmd = {};
	int i, err;

	if (udata->inlen < sizeof(ucmd))
		return -EINVAL;
	err = ib_copy_from_udata(&ucmd, udata, min(sizeof(ucmd), udata->inlen));
	if (err)
		return err;
	for (i = 0; i < SD_RC_QUEUES; i++) {
		err = sd_queue_pin(dev, &qp->q[i], ucmd.queue_buf[i], ucmd.queue_size[i]);
		if (!err)
			err = sd_queue_make(dev, &qp->q[i]);
		if (err) {
			sd_queue_release(dev, &qp->q[i]);
			goto err_queues;
		}
		resp.queue_id[i] = qp->q[i].id;
	}
	/* the QP number: the responder's receive queue */
	qp->ibqp.qp_num = qp->q[SD_RC_QUEUES - 1].id;
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		goto err_queues;
	return 0;

err_queues:
	while (i-- > 0)
		sd_queue_release(dev, &qp->q[i]);
	return err;
}

static int sd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	int i;

	for (i = 0; i < SD_RC_QUEUES; i++)
		qp->q[i].id = SD_INVALID_ID;
	if (!udata)
		return -EOPNOTSUPP;	/* no kernel verbs */
	switch (init->qp_type) {
	case IB_QPT_RAW_PACKET:
		if (init->rwq_ind_tbl)
			return sd_create_qp_rss(dev, qp, init, udata);
		return sd_create_qp_raw(dev, qp, init, udata);
	case IB_QPT_RC:
		return sd_create_qp_rc(dev, qp, init, udata);
	default:
		return -EINVAL;
	}
}

static int sd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
			struct ib_udata *udata)
{
	return ibqp->qp_type == IB_QPT_RC ? 0 : -EOPNOTSUPP;
}

static int sd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct ib_rwq_ind_table *tbl = ibqp->rwq_ind_tbl;
	unsigned int i;

	if (ibqp->qp_type == IB_QPT_RAW_PACKET && tbl) {
		/* the WQs' receive objects go; their ids with the WQs */
		for (i = 0; i < (1u << tbl->log_ind_tbl_size); i++) {
			struct sd_wq *wq = to_sdwq(tbl->ind_tbl[i]);

			if (wq->q.id != SD_INVALID_ID)
				ida_free(&dev->queue_ida, wq->q.id);
			wq->q.id = SD_INVALID_ID;
		}
		return 0;
	}
	for (i = 0; i < SD_RC_QUEUES; i++)
		if (qp->q[i].umem)
			sd_queue_release(dev, &qp->q[i]);
	if (qp->vport) {
		struct sd_pd *pd = to_sdpd(ibqp->pd);

		mutex_lock(&pd->vport_lock);
		pd->vport_users--;
		mutex_unlock(&pd->vport_lock);
	}
	return 0;
}

/* ---- MR ------------------------------------------------------------------------ */

static struct ib_mr *sd_reg_user_mr(struct ib_pd *pd, u64 start, u64 length, u64 iova,
				    int access, struct ib_udata *udata)
{
	const int valid = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ;
	struct sd_dev *dev = to_sddev(pd->device);
	struct sd_mr *mr;
	int id, err;

	access &= ~IB_ACCESS_OPTIONAL;
	if (access & ~valid)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	if (!ib_umem_find_best_pgsz(mr->umem, SD_PAGE_SZ_BM, iova)) {
		err = -EINVAL;
		goto err_release;
	}
	id = ida_alloc_range(&dev->mr_ida, 1, SD_MAX_MR, GFP_KERNEL);
	if (id < 0) {
		err = id;
		goto err_release;
	}
	mr->id = id;
	mr->ibmr.lkey = id << 8;
	mr->ibmr.rkey = id << 8;
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

	ida_free(&to_sddev(ibmr->device)->mr_ida, mr->id);
	ib_umem_release(mr->umem);
	kfree(mr);
	return 0;
}

/* ---- registration -------------------------------------------------------------- */

static const struct ib_device_ops sd_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_MANA,
	.uverbs_abi_ver = MANA_IB_UVERBS_ABI_VERSION,

	.add_gid = sd_add_gid,
	.alloc_pd = sd_alloc_pd,
	.alloc_ucontext = sd_alloc_ucontext,
	.create_cq = sd_create_cq,
	.create_qp = sd_create_qp,
	.create_rwq_ind_table = sd_create_ind_table,
	.create_wq = sd_create_wq,
	.dealloc_pd = sd_dealloc_pd,
	.dealloc_ucontext = sd_dealloc_ucontext,
	.del_gid = sd_del_gid,
	.dereg_mr = sd_dereg_mr,
	.destroy_cq = sd_destroy_cq,
	.destroy_qp = sd_destroy_qp,
	.destroy_rwq_ind_table = sd_destroy_ind_table,
	.destroy_wq = sd_destroy_wq,
	.get_link_layer = sd_link_layer_ethernet,
	.get_port_immutable = sd_port_immutable,
	.mmap = sd_mmap,
	.modify_qp = sd_modify_qp,
	.modify_wq = sd_modify_wq,
	.query_device = sd_query_device,
	.query_gid = sd_query_gid,
	.query_pkey = sd_query_pkey,
	.query_port = sd_query_port,
	.reg_user_mr = sd_reg_user_mr,

	INIT_RDMA_OBJ_SIZE(ib_cq, sd_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, sd_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, sd_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, sd_ucontext, ibuc),
	INIT_RDMA_OBJ_SIZE(ib_rwq_ind_table, sd_ind_table, ibtbl),
};

static void sd_destroy_ids(struct sd_dev *dev)
{
	ida_destroy(&dev->pd_ida);
	ida_destroy(&dev->queue_ida);
	ida_destroy(&dev->mr_ida);
	ida_destroy(&dev->db_ida);
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
	dev->db_pages = alloc_pages_exact(SD_DB_PAGES * PAGE_SIZE, GFP_KERNEL | __GFP_ZERO);
	if (!dev->db_pages) {
		dev_put(ndev);
		ib_dealloc_device(&dev->ibdev);
		return -ENOMEM;
	}
	ida_init(&dev->pd_ida);
	ida_init(&dev->queue_ida);
	ida_init(&dev->mr_ida);
	ida_init(&dev->db_ida);

	sd_ibdev_on_netdev(&dev->ibdev, ndev, &sd_ops);

	err = sd_register_on_netdev(&dev->ibdev, ndev, "mana_%d");
	if (err)
		goto err_dealloc;
	sd_the_dev = dev;
	pr_info("mana_standin: %s on %s\n", dev_name(&dev->ibdev.dev), netdev);
	return 0;

err_dealloc:
	sd_destroy_ids(dev);
	free_pages_exact(dev->db_pages, SD_DB_PAGES * PAGE_SIZE);
	ib_dealloc_device(&dev->ibdev);
	return err;
}

static void __exit sd_exit(void)
{
	struct sd_dev *dev = sd_the_dev;

	ib_unregister_device(&dev->ibdev);
	sd_destroy_ids(dev);
	free_pages_exact(dev->db_pages, SD_DB_PAGES * PAGE_SIZE);
	ib_dealloc_device(&dev->ibdev);
}

module_init(sd_init);
module_exit(sd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mana_ib's user ABI on a software device (a test fixture)");
