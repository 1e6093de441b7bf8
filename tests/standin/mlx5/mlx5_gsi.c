// SPDX-License-Identifier: GPL-2.0
/*
 * mlx5_gsi: the kernel's own queues on the mlx5 stand-in: a kernel CQ and
 * the port's GSI QP (QP1), so that the MAD layer (ib_mad) opens the port
 * and the kernel's connection managers (ib_cm, and rdma_cm over it) run
 * over the emulated device as they do over a ConnectX's RoCE port. A test
 * fixture of libuverbs-ioctl, GPL-2.0 as the rest of the stand-in. The
 * rules are the IB core's (what ib_mad, ib_cq and ib_cm expect of a RoCE
 * device's kernel verbs) and mlx5_ib's for its GSI QP; the code is written
 * anew.
 *
 * What it does:
 *  - kernel CQs (ib_alloc_cq: create_cq without user data): a ring of work
 *    completions in kernel memory, cqe + 1 rounded up to a power of two;
 *    poll_cq takes them in order; req_notify_cq arms it (next completion
 *    or solicited only) and, asked with IB_CQ_REPORT_MISSED_EVENTS, says 1
 *    when completions wait; an armed CQ calls its comp_handler once, at
 *    the next completion that matches. A full CQ drops the completion
 *    (IB_EVENT_CQ_ERR, a log line), as an overrun does on the HCA;
 *  - the GSI QP (create_qp of IB_QPT_GSI without user data; one per
 *    device, as mlx5_ib has one per port), QPN 1: the core's state machine
 *    for a GSI QP (ib_modify_qp_is_ok), its Q_Key and P_Key index;
 *    post_send of UD SEND and SEND_WITH_IMM through a RoCE address handle
 *    (a GRH: the AH's source GID entry and destination GID), each data
 *    segment under the PD's local DMA lkey (the device declares
 *    IBK_LOCAL_DMA_LKEY, key 0; the core hands kernel addresses, there is
 *    no DMA device), post_recv; the queues are kernel rings whose sizes the
 *    QP's capabilities set (a full ring: ENOMEM and bad_wr, as drivers
 *    answer). The datagrams go where RoCE takes them: to QP1 of the device
 *    whose GID table holds the destination GID (the engine's routing,
 *    sd_route_gid: mlx5_0 to itself or to mlx5_1), whose receive buffer
 *    gets the 40-byte network header first, as the HCA writes it for a
 *    RoCE port: a GRH for RoCE v1, an IPv6 header for RoCE v2 over IPv6,
 *    an IPv4 header in the last 20 bytes for RoCE v2 over IPv4; its work
 *    completion has IB_WC_GRH and the network header type, the sender's
 *    QPN, P_Key index 0 and port 1. A datagram that no QP1 can take (no
 *    device holds the GID, QP1 not in RTR or RTS, another Q_Key, no receive
 *    posted) is lost, as on a wire, and the send completes; one that
 *    crosses between two devices logs its MAD class and attribute
 *    (ratelimited), what a test sees of QP1 to QP1 traffic. A receive
 *    buffer too short: "local length" at the receiver. A data segment
 *    under another lkey than the PD's: "local protection" at the sender,
 *    a scatter entry so: "local protection" at the receiver;
 *  - ERR: every posted request completes "flushed"; RESET drops them.
 * Datagrams move in a work item of the sending QP (post_send is called
 * with spinlocks held, by ib_mad among others): it takes the engine's lock
 * (the device table and every device's QP1 stay while it routes), each
 * QP's queues are under the QP's spinlock, each CQ's ring under its own.
 * What it does not: kernel QPs of other types (RC, UC, UD: EOPNOTSUPP, no
 * IPoIB or kernel ULPs beyond the MAD layer), kernel MRs and fast
 * registration, SMI (QP0: RoCE has none), P_Keys other than the default,
 * the GSI QP's asynchronous events, multicast.
 */
#include <linux/ip.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <net/ip.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>
#include "mlx5_standin.h"

enum {
	SD_GSI_QPN = 1,
	SD_GSI_MAX_WR = 8192,
	SD_GSI_MAX_SGE = 4,
	SD_GSI_HDR = 40,	/* the network header before a UD message */
	SD_KCQ_MAX_CQE = 1 << 16,
	SD_ROCE_UDP = 8, SD_BTH = 12, SD_DETH = 8, SD_ICRC = 4,
};

struct sd_kcq {
	spinlock_t lock;	/* the ring and the arm */
	struct ib_wc *ring;
	u32 nent;		/* a power of two */
	u32 head, tail;		/* completions written, taken */
	bool armed, solicited_only, overrun;
};

struct sd_gsi_swqe {
	u64 wr_id;
	u32 nsge, len;
	struct ib_sge sge[SD_GSI_MAX_SGE];
	u32 remote_qpn, remote_qkey;
	bool signaled, solicited, imm_valid;
	__be32 imm;
	/* the address handle as it was at the post: it may go after the send
	 * completes, not before, but the copy keeps the work item simple */
	union ib_gid sgid, dgid;
	enum rdma_network_type net;
	u32 flow_label;
	u8 tclass, hop_limit;
};

struct sd_gsi_rwqe {
	u64 wr_id;
	u32 nsge;
	struct ib_sge sge[SD_GSI_MAX_SGE];
};

struct sd_gsi {
	struct sd_qp *qp;
	spinlock_t lock;	/* the rings, the state, the Q_Key */
	enum ib_qp_state state;
	u32 qkey;
	u16 pkey_index;
	u32 sq_psn;
	struct ib_qp_cap cap;
	struct sd_gsi_swqe *sq;
	u32 sq_size, sq_head, sq_tail;	/* posted, done */
	struct sd_gsi_rwqe *rq;
	u32 rq_size, rq_head, rq_tail;	/* posted, taken */
	u32 resets;		/* RESETs: a send taken before one is not counted after */
	struct work_struct work;	/* moves the posted sends */
	u8 hdr[SD_GSI_HDR];		/* the work item's scratch */
};

/* ---- kernel CQs ------------------------------------------------------------- */

int sd_kcq_create(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr)
{
	struct sd_dev *dev = to_sddev(ibcq->device);
	struct sd_cq *cq = to_sdcq(ibcq);
	struct sd_kcq *k;
	int id;

	if (attr->cqe < 1 || attr->cqe >= SD_KCQ_MAX_CQE)
		return -EINVAL;
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	if (attr->flags)
		return -EOPNOTSUPP;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	spin_lock_init(&k->lock);
	k->nent = roundup_pow_of_two(attr->cqe + 1);
	k->ring = kvcalloc(k->nent, sizeof(*k->ring), GFP_KERNEL);
	if (!k->ring) {
		kfree(k);
		return -ENOMEM;
	}
	id = ida_alloc_range(&dev->cqn_ida, 1, (1 << 24) - 1, GFP_KERNEL);
	if (id < 0) {
		kvfree(k->ring);
		kfree(k);
		return id == -ENOSPC ? -ENOMEM : id;
	}
	cq->cqn = id;
	cq->k = k;
	ibcq->cqe = k->nent - 1;
	return 0;
}

void sd_kcq_destroy(struct ib_cq *ibcq)
{
	struct sd_cq *cq = to_sdcq(ibcq);

	ida_free(&to_sddev(ibcq->device)->cqn_ida, cq->cqn);
	kvfree(cq->k->ring);
	kfree(cq->k);
	cq->k = NULL;
}

/* A completion in the ring; the handler called when the arm matches. */
static void sd_kcq_push(struct sd_cq *cq, const struct ib_wc *wc, bool solicited)
{
	struct sd_kcq *k = cq->k;
	bool fire = false, overrun = false;
	unsigned long fl;

	spin_lock_irqsave(&k->lock, fl);
	if (k->overrun) {
		spin_unlock_irqrestore(&k->lock, fl);
		return;
	}
	if (k->head - k->tail == k->nent) {
		k->overrun = overrun = true;
	} else {
		k->ring[k->head & (k->nent - 1)] = *wc;
		k->head++;
		if (k->armed && (!k->solicited_only || solicited || wc->status != IB_WC_SUCCESS)) {
			k->armed = false;
			fire = true;
		}
	}
	spin_unlock_irqrestore(&k->lock, fl);
	if (overrun) {
		struct ib_event ev = { .device = cq->ibcq.device, .event = IB_EVENT_CQ_ERR,
				       .element.cq = &cq->ibcq };

		pr_notice("mlx5_standin: kernel CQ 0x%x overrun (%u entries): CQ error\n",
			  cq->cqn, k->nent);
		if (cq->ibcq.event_handler)
			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	}
	if (fire && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
}

static int sd_kcq_poll(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct sd_kcq *k = to_sdcq(ibcq)->k;
	unsigned long fl;
	int n = 0;

	if (!k)
		return -EOPNOTSUPP;	/* a user CQ: the library polls it */
	spin_lock_irqsave(&k->lock, fl);
	while (n < num_entries && k->tail != k->head) {
		wc[n++] = k->ring[k->tail & (k->nent - 1)];
		k->tail++;
	}
	spin_unlock_irqrestore(&k->lock, fl);
	return n;
}

static int sd_kcq_notify(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct sd_kcq *k = to_sdcq(ibcq)->k;
	unsigned long fl;
	int missed = 0;

	if (!k)
		return -EOPNOTSUPP;	/* a user CQ: armed through its doorbell */
	spin_lock_irqsave(&k->lock, fl);
	k->armed = true;
	k->solicited_only = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && k->head != k->tail)
		missed = 1;
	spin_unlock_irqrestore(&k->lock, fl);
	return missed;
}

/* ---- the GSI QP ------------------------------------------------------------- */

static void sd_gsi_work(struct work_struct *work);

int sd_gsi_create(struct ib_qp *ibqp, struct ib_qp_init_attr *attr)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_qp *qp = to_sdqp(ibqp);
	struct ib_qp_cap *cap = &attr->cap;
	struct sd_gsi *g;
	int err;

	if (attr->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;	/* the kernel gets QP1 alone */
	if (attr->srq || attr->create_flags || attr->rwq_ind_tbl)
		return -EOPNOTSUPP;
	if (attr->port_num != 1)
		return -EINVAL;
	if (!cap->max_send_wr || cap->max_send_wr > SD_GSI_MAX_WR ||
	    !cap->max_recv_wr || cap->max_recv_wr > SD_GSI_MAX_WR ||
	    cap->max_send_sge > SD_GSI_MAX_SGE || cap->max_recv_sge > SD_GSI_MAX_SGE ||
	    cap->max_inline_data)
		return -EINVAL;
	if (!attr->send_cq || !attr->recv_cq ||
	    !to_sdcq(attr->send_cq)->k || !to_sdcq(attr->recv_cq)->k)
		return -EINVAL;		/* a user CQ cannot take kernel completions */
	g = kzalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	spin_lock_init(&g->lock);
	INIT_WORK(&g->work, sd_gsi_work);
	g->qp = qp;
	g->state = IB_QPS_RESET;
	g->cap = *cap;
	g->sq_size = cap->max_send_wr;
	g->rq_size = cap->max_recv_wr;
	g->sq = kvcalloc(g->sq_size, sizeof(*g->sq), GFP_KERNEL);
	g->rq = kvcalloc(g->rq_size, sizeof(*g->rq), GFP_KERNEL);
	err = -ENOMEM;
	if (!g->sq || !g->rq)
		goto err;
	mutex_lock(dev->eng_lock);
	err = dev->gsi ? -EBUSY : 0;	/* one port, one QP1 */
	if (!err)
		dev->gsi = g;
	mutex_unlock(dev->eng_lock);
	if (err)
		goto err;
	qp->gsi = g;
	qp->qpn = SD_GSI_QPN;
	qp->state = IB_QPS_RESET;
	qp->port = 1;
	qp->sq_sig_type = attr->sq_sig_type;
	ibqp->qp_num = SD_GSI_QPN;
	return 0;
err:
	kvfree(g->sq);
	kvfree(g->rq);
	kfree(g);
	return err;
}

void sd_gsi_destroy(struct ib_qp *ibqp)
{
	struct sd_dev *dev = to_sddev(ibqp->device);
	struct sd_gsi *g = to_sdqp(ibqp)->gsi;

	/* out of every route first, then the last datagram moved */
	mutex_lock(dev->eng_lock);
	dev->gsi = NULL;
	mutex_unlock(dev->eng_lock);
	cancel_work_sync(&g->work);
	to_sdqp(ibqp)->gsi = NULL;
	kvfree(g->sq);
	kvfree(g->rq);
	kfree(g);
}

int sd_gsi_modify(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	struct sd_gsi *g = qp->gsi;
	enum ib_qp_state cur, next;
	unsigned long fl;
	int err = 0;

	spin_lock_irqsave(&g->lock, fl);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : g->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, next, IB_QPT_GSI, mask) ||
	    ((mask & IB_QP_PORT) && attr->port_num != 1) ||
	    ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index >= 1)) {
		err = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_QKEY)
		g->qkey = attr->qkey;
	if (mask & IB_QP_PKEY_INDEX)
		g->pkey_index = attr->pkey_index;
	if (mask & IB_QP_SQ_PSN)
		g->sq_psn = attr->sq_psn;
	if (next == IB_QPS_RESET) {
		/* the queues emptied without completions */
		g->sq_tail = g->sq_head;
		g->rq_tail = g->rq_head;
		g->resets++;
	}
	g->state = next;
	qp->state = next;
out:
	spin_unlock_irqrestore(&g->lock, fl);
	if (!err && next == IB_QPS_ERR)
		queue_work(system_wq, &g->work);	/* the flush */
	return err;
}

int sd_gsi_query(struct ib_qp *ibqp, struct ib_qp_attr *qa, struct ib_qp_init_attr *init)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	struct sd_gsi *g = qp->gsi;
	unsigned long fl;

	memset(qa, 0, sizeof(*qa));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&g->lock, fl);
	qa->qp_state = g->state;
	qa->qkey = g->qkey;
	qa->pkey_index = g->pkey_index;
	qa->sq_psn = g->sq_psn;
	spin_unlock_irqrestore(&g->lock, fl);
	qa->cur_qp_state = qa->qp_state;
	qa->port_num = 1;
	qa->path_mtu = IB_MTU_256;
	qa->cap = g->cap;
	init->event_handler = ibqp->event_handler;
	init->qp_context = ibqp->qp_context;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->qp_type = IB_QPT_GSI;
	init->cap = g->cap;
	init->sq_sig_type = qp->sq_sig_type;
	init->port_num = 1;
	return 0;
}

static int sd_gsi_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			    const struct ib_send_wr **bad_wr)
{
	struct sd_qp *qp = to_sdqp(ibqp);
	struct sd_gsi *g = qp->gsi;
	unsigned long fl;
	int err = 0;

	if (!g) {
		*bad_wr = wr;
		return -EOPNOTSUPP;	/* a user QP: its WQEs are the library's */
	}
	spin_lock_irqsave(&g->lock, fl);
	for (; wr; wr = wr->next) {
		const struct ib_ud_wr *ud = ud_wr(wr);
		const struct ib_gid_attr *sattr;
		struct sd_gsi_swqe *s;
		u64 len = 0;
		int i;

		if (g->state != IB_QPS_RTS && g->state != IB_QPS_ERR) {
			err = -EINVAL;
			break;
		}
		if ((wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM) ||
		    wr->num_sge < 0 || wr->num_sge > g->cap.max_send_sge ||
		    (wr->send_flags & IB_SEND_INLINE) || !ud->ah) {
			err = -EINVAL;
			break;
		}
		sattr = ud->ah->sgid_attr;
		if (!sattr) {		/* RoCE: every AH has a GRH */
			err = -EINVAL;
			break;
		}
		if (g->sq_head - g->sq_tail == g->sq_size) {
			err = -ENOMEM;
			break;
		}
		s = &g->sq[g->sq_head % g->sq_size];
		s->wr_id = wr->wr_id;
		s->nsge = wr->num_sge;
		for (i = 0; i < wr->num_sge; i++) {
			s->sge[i] = wr->sg_list[i];
			len += wr->sg_list[i].length;
		}
		if (len > U32_MAX) {
			err = -EINVAL;
			break;
		}
		s->len = len;
		s->remote_qpn = ud->remote_qpn;
		/* a Q_Key with its top bit set means the QP's own (IBA; ib_mad
		 * sends IB_QP_SET_QKEY) */
		s->remote_qkey = ud->remote_qkey & 0x80000000 ? g->qkey : ud->remote_qkey;
		s->signaled = qp->sq_sig_type == IB_SIGNAL_ALL_WR ||
			      (wr->send_flags & IB_SEND_SIGNALED);
		s->solicited = wr->send_flags & IB_SEND_SOLICITED;
		s->imm_valid = wr->opcode == IB_WR_SEND_WITH_IMM;
		s->imm = wr->ex.imm_data;
		s->sgid = sattr->gid;
		s->net = rdma_gid_attr_network_type(sattr);
		sd_ah_grh(ud->ah, &s->dgid, &s->flow_label, &s->tclass, &s->hop_limit);
		g->sq_head++;
	}
	spin_unlock_irqrestore(&g->lock, fl);
	if (err)
		*bad_wr = wr;
	queue_work(system_wq, &g->work);
	return err;
}

static int sd_gsi_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			    const struct ib_recv_wr **bad_wr)
{
	struct sd_gsi *g = to_sdqp(ibqp)->gsi;
	bool flush = false;
	unsigned long fl;
	int err = 0;

	if (!g) {
		*bad_wr = wr;
		return -EOPNOTSUPP;	/* a user QP: its WQEs are the library's */
	}
	spin_lock_irqsave(&g->lock, fl);
	for (; wr; wr = wr->next) {
		struct sd_gsi_rwqe *r;
		int i;

		if (g->state == IB_QPS_RESET) {
			err = -EINVAL;
			break;
		}
		if (wr->num_sge < 0 || wr->num_sge > g->cap.max_recv_sge) {
			err = -EINVAL;
			break;
		}
		if (g->rq_head - g->rq_tail == g->rq_size) {
			err = -ENOMEM;
			break;
		}
		r = &g->rq[g->rq_head % g->rq_size];
		r->wr_id = wr->wr_id;
		r->nsge = wr->num_sge;
		for (i = 0; i < wr->num_sge; i++)
			r->sge[i] = wr->sg_list[i];
		g->rq_head++;
	}
	flush = g->state == IB_QPS_ERR;
	spin_unlock_irqrestore(&g->lock, fl);
	if (err)
		*bad_wr = wr;
	if (flush)
		queue_work(system_wq, &g->work);
	return err;
}

/* ---- the datagrams ------------------------------------------------------------ */

/* The 40 bytes a RoCE HCA writes before a UD message: a GRH (v1), an IPv6
 * header (v2), or an IPv4 header in the last 20 bytes (v2 over IPv4). */
static void sd_gsi_header(u8 *h, const struct sd_gsi_swqe *s)
{
	memset(h, 0, SD_GSI_HDR);
	if (s->net == RDMA_NETWORK_IPV4) {
		struct iphdr *ip = (struct iphdr *)(h + 20);

		ip->version = 4;
		ip->ihl = 5;
		ip->tos = s->tclass;
		ip->tot_len = htons(sizeof(*ip) + SD_ROCE_UDP + SD_BTH + SD_DETH + s->len + SD_ICRC);
		ip->frag_off = htons(IP_DF);
		ip->ttl = s->hop_limit;
		ip->protocol = IPPROTO_UDP;
		memcpy(&ip->saddr, s->sgid.raw + 12, 4);
		memcpy(&ip->daddr, s->dgid.raw + 12, 4);
		ip->check = ip_fast_csum((u8 *)ip, ip->ihl);
		return;
	}
	*(__be32 *)h = cpu_to_be32(6u << 28 | (u32)s->tclass << 20 | (s->flow_label & 0xfffff));
	if (s->net == RDMA_NETWORK_IPV6)
		*(__be16 *)(h + 4) = cpu_to_be16(SD_ROCE_UDP + SD_BTH + SD_DETH + s->len + SD_ICRC);
	else
		*(__be16 *)(h + 4) = cpu_to_be16(SD_BTH + SD_DETH + s->len + SD_ICRC);
	h[6] = s->net == RDMA_NETWORK_IPV6 ? IPPROTO_UDP : 0x1b;	/* UDP, or IBA's BTH */
	h[7] = s->hop_limit;
	memcpy(h + 8, s->sgid.raw, 16);
	memcpy(h + 24, s->dgid.raw, 16);
}

/* Copies len bytes from src (kernel addresses, as the core hands them
 * without a DMA device) into the receive entries, from byte off of them. */
static void sd_gsi_scatter(const struct sd_gsi_rwqe *r, u64 *off, const u8 *src, u32 len)
{
	u64 o = *off;
	u32 i;

	*off += len;
	for (i = 0; i < r->nsge && len; i++) {
		u32 n;

		if (o >= r->sge[i].length) {
			o -= r->sge[i].length;
			continue;
		}
		n = min_t(u64, len, r->sge[i].length - o);
		memcpy((u8 *)(uintptr_t)r->sge[i].addr + o, src, n);
		src += n;
		len -= n;
		o = 0;
	}
}

static void sd_gsi_wc(struct ib_wc *wc, struct sd_gsi *g, u64 wr_id, enum ib_wc_status st,
		      enum ib_wc_opcode op)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->status = st;
	wc->opcode = op;
	wc->qp = &g->qp->ibqp;
	wc->port_num = 1;
}

/* Under the engine's lock: one datagram to QP1 of the device that holds
 * its destination GID. Returns the sender's completion status. */
static enum ib_wc_status sd_gsi_deliver(struct sd_gsi *src, const struct sd_gsi_swqe *s)
{
	struct sd_dev *ddev;
	struct sd_gsi *d = NULL;
	struct sd_gsi_rwqe r;
	const char *drop = NULL;
	struct ib_wc wc;
	unsigned long fl;
	u64 room = 0, off = 0;
	u32 i;

	for (i = 0; i < s->nsge; i++)
		if (s->sge[i].lkey != src->qp->ibqp.pd->local_dma_lkey) {
			pr_notice_ratelimited("mlx5_standin: QP1 send: data segment %u: lkey 0x%x is not the local DMA lkey\n",
					      i, s->sge[i].lkey);
			return IB_WC_LOC_PROT_ERR;
		}
	ddev = sd_route_gid(s->dgid.raw);
	if (ddev && s->remote_qpn == SD_GSI_QPN)
		d = ddev->gsi;
	if (!d) {
		drop = ddev ? "no QP there" : "no device holds the destination GID";
		goto dropped;
	}
	spin_lock_irqsave(&d->lock, fl);
	if (d->state != IB_QPS_RTR && d->state != IB_QPS_RTS)
		drop = "QP1 not ready";
	else if (d->qkey != s->remote_qkey)
		drop = "Q_Key mismatch";
	else if (d->rq_tail == d->rq_head)
		drop = "no receive posted";
	else
		r = d->rq[d->rq_tail++ % d->rq_size];
	spin_unlock_irqrestore(&d->lock, fl);
	if (drop)
		goto dropped;

	for (i = 0; i < r.nsge; i++) {
		if (r.sge[i].lkey != d->qp->ibqp.pd->local_dma_lkey) {
			pr_notice_ratelimited("mlx5_standin: QP1 receive: scatter entry %u: lkey 0x%x is not the local DMA lkey\n",
					      i, r.sge[i].lkey);
			sd_gsi_wc(&wc, d, r.wr_id, IB_WC_LOC_PROT_ERR, IB_WC_RECV);
			sd_kcq_push(to_sdcq(d->qp->ibqp.recv_cq), &wc, false);
			return IB_WC_SUCCESS;
		}
		room += r.sge[i].length;
	}
	if (room < SD_GSI_HDR + (u64)s->len) {
		pr_notice_ratelimited("mlx5_standin: QP1 receive: %u bytes and the header arrived for %llu\n",
				      s->len, room);
		sd_gsi_wc(&wc, d, r.wr_id, IB_WC_LOC_LEN_ERR, IB_WC_RECV);
		sd_kcq_push(to_sdcq(d->qp->ibqp.recv_cq), &wc, false);
		return IB_WC_SUCCESS;
	}
	/* between two devices (rare: one guest, two ports): a log line with
	 * the MAD's class and attribute, what a test can see crossing */
	if (d != src && s->nsge && s->sge[0].length >= 18) {
		const u8 *mad = (const u8 *)(uintptr_t)s->sge[0].addr;

		pr_info_ratelimited("mlx5_standin: QP1 of %s to QP1 of %s: MAD class 0x%02x attribute 0x%04x\n",
				    dev_name(&src->qp->ibqp.device->dev),
				    dev_name(&d->qp->ibqp.device->dev), mad[1],
				    be16_to_cpu(*(const __be16 *)(mad + 16)));
	}
	sd_gsi_header(src->hdr, s);
	sd_gsi_scatter(&r, &off, src->hdr, SD_GSI_HDR);
	for (i = 0; i < s->nsge; i++)
		sd_gsi_scatter(&r, &off, (const u8 *)(uintptr_t)s->sge[i].addr, s->sge[i].length);

	sd_gsi_wc(&wc, d, r.wr_id, IB_WC_SUCCESS, IB_WC_RECV);
	wc.byte_len = SD_GSI_HDR + s->len;
	wc.src_qp = src->qp->qpn;
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc.network_hdr_type = s->net;
	if (s->imm_valid) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = s->imm;
	}
	wc.pkey_index = 0;
	sd_kcq_push(to_sdcq(d->qp->ibqp.recv_cq), &wc, s->solicited);
	return IB_WC_SUCCESS;

dropped:
	pr_notice_ratelimited("mlx5_standin: QP1 datagram to QP 0x%x dropped: %s\n",
			      s->remote_qpn, drop);
	return IB_WC_SUCCESS;	/* a datagram lost on the wire */
}

/* The sending QP's work: its posted sends in order; in ERR, everything
 * posted completes flushed. */
static void sd_gsi_work(struct work_struct *work)
{
	struct sd_gsi *g = container_of(work, struct sd_gsi, work);
	struct sd_dev *dev = to_sddev(g->qp->ibqp.device);
	struct sd_cq *scq = to_sdcq(g->qp->ibqp.send_cq);
	struct sd_cq *rcq = to_sdcq(g->qp->ibqp.recv_cq);
	struct sd_gsi_swqe s;
	enum ib_wc_status st;
	struct ib_wc wc;
	unsigned long fl;
	u32 resets;
	bool err;

	mutex_lock(dev->eng_lock);
	for (;;) {
		spin_lock_irqsave(&g->lock, fl);
		err = g->state == IB_QPS_ERR;
		if (g->sq_tail == g->sq_head || (g->state != IB_QPS_RTS && !err)) {
			spin_unlock_irqrestore(&g->lock, fl);
			break;
		}
		s = g->sq[g->sq_tail % g->sq_size];
		resets = g->resets;
		spin_unlock_irqrestore(&g->lock, fl);

		st = err ? IB_WC_WR_FLUSH_ERR : sd_gsi_deliver(g, &s);

		spin_lock_irqsave(&g->lock, fl);
		if (resets != g->resets) {	/* RESET meanwhile: no completion */
			spin_unlock_irqrestore(&g->lock, fl);
			continue;
		}
		g->sq_tail++;
		if (st != IB_WC_SUCCESS && g->state != IB_QPS_ERR && g->state != IB_QPS_RESET) {
			g->state = IB_QPS_ERR;	/* a local error ends the QP */
			g->qp->state = IB_QPS_ERR;
		}
		spin_unlock_irqrestore(&g->lock, fl);
		if (st != IB_WC_SUCCESS || s.signaled) {
			sd_gsi_wc(&wc, g, s.wr_id, st, IB_WC_SEND);
			sd_kcq_push(scq, &wc, false);
		}
	}
	/* ERR: the receives posted and not taken */
	for (;;) {
		u64 wr_id;

		spin_lock_irqsave(&g->lock, fl);
		if (g->state != IB_QPS_ERR || g->rq_tail == g->rq_head) {
			spin_unlock_irqrestore(&g->lock, fl);
			break;
		}
		wr_id = g->rq[g->rq_tail++ % g->rq_size].wr_id;
		spin_unlock_irqrestore(&g->lock, fl);
		sd_gsi_wc(&wc, g, wr_id, IB_WC_WR_FLUSH_ERR, IB_WC_RECV);
		sd_kcq_push(rcq, &wc, false);
	}
	mutex_unlock(dev->eng_lock);
}

/* ---- the DMA MR ---------------------------------------------------------------- */

/*
 * get_dma_mr: an mkey over all of memory, as mlx5_ib's (the core counts a
 * device without one as no kernel verbs provider, and then adds none of
 * its kernel clients: no MAD layer, no CM). Not in the engine's table: a
 * user WQE cannot name it; QP1 takes the PD's local DMA lkey alone.
 */
static struct ib_mr *sd_get_dma_mr(struct ib_pd *pd, int access)
{
	struct sd_dev *dev = to_sddev(pd->device);
	struct sd_mr *mr;
	int id;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	id = ida_alloc_range(&dev->mkey_ida, 1, (1 << 24) - 1, GFP_KERNEL);
	if (id < 0) {
		kfree(mr);
		return ERR_PTR(id == -ENOSPC ? -ENOMEM : id);
	}
	mr->index = id;
	/* mlx5's key: index and an 8-bit variant; never the receive
	 * scatter terminator */
	mr->ibmr.lkey = (id << 8) | (atomic_inc_return(&dev->mkey_variant) & 0xff);
	if (mr->ibmr.lkey == SD_INVALID_LKEY)
		mr->ibmr.lkey |= 1;
	mr->ibmr.rkey = mr->ibmr.lkey;
	mr->pd = pd;
	mr->length = U64_MAX;
	mr->access = access;
	return &mr->ibmr;
}

/* The kernel verbs the core calls on this device's QPs and CQs; the user
 * objects refuse them (their queues are the library's). */
const struct ib_device_ops sd_gsi_ops = {
	.get_dma_mr = sd_get_dma_mr,
	.poll_cq = sd_kcq_poll,
	.post_recv = sd_gsi_post_recv,
	.post_send = sd_gsi_post_send,
	.req_notify_cq = sd_kcq_notify,
};
