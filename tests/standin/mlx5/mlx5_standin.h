/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The objects of the mlx5 stand-in, shared by its two halves: the verbs
 * (mlx5_verbs.c: the user-data contract of mlx5_ib) and the engine
 * (mlx5_engine.c: what a ConnectX does with the queues those verbs
 * created). Everything the engine reads or writes is under the device's
 * eng_lock: the verbs take it where they create, change or free what the
 * engine looks at (tables, QP state, rings), so that the engine never sees
 * an object half made or half gone.
 */
#ifndef MLX5_STANDIN_H
#define MLX5_STANDIN_H

#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

/* The largest send WQE (ds is 6 bits: 63 units of 16 bytes) and the
 * scatter/gather entries it can hold. */
/* mlx5's lkey that ends a receive WQE's scatter list: never an MR's */
#define SD_INVALID_LKEY 0x100

enum {
	SD_ENG_MAX_WQE = 16 * 64,	/* in whole basic blocks */
	SD_ENG_MAX_SGE = 64,
};

/* One piece of a message: a kernel address the engine may copy from or to
 * (an MR's pinned pages, or the inline bytes of a WQE). */
struct sd_eng_sge {
	u8 *kva;
	u32 len;
};

struct sd_dev {
	struct ib_device ibdev;
	int ifindex;
	struct ida pdn_ida, cqn_ida, qpn_ida, srqn_ida, mkey_ida, uar_ida;
	atomic_t mkey_variant;

	struct device *parent;	/* the "PCI function" in sysfs: ConnectX's ids */
	/* the engine (mlx5_engine.c): one thread per device, one lock for all
	 * the module's devices, so that a message may cross to another */
	struct mutex *eng_lock;
	struct xarray qps;	/* qpn -> sd_qp, every QP of the device */
	struct xarray cqs;	/* cqn -> sd_cq */
	struct xarray mrs;	/* mkey index -> sd_mr */
	struct xarray mws;	/* mkey index -> sd_mw (the same index space) */
	struct task_struct *eng_thread;
	wait_queue_head_t eng_wait;
	bool eng_live;		/* a QP is in RTS or ERR: keep polling */
	struct sd_gsi *gsi;	/* mlx5_gsi.c: the port's QP1, under eng_lock */
	/* scratch of the engine's thread, under eng_lock */
	u8 wqe[SD_ENG_MAX_WQE];
	struct sd_eng_sge gather[SD_ENG_MAX_SGE + 1];	/* + a UD receiver's GRH */
	u8 grh[40];
	struct sd_eng_sge scatter[SD_ENG_MAX_SGE];
};

/* A page of doorbell records, pinned once for the objects of one context
 * and one process that keep their records in it; kva maps it for the
 * engine. */
struct sd_db_page {
	struct list_head list;
	unsigned long user_virt;
	struct mm_struct *mm;
	struct ib_umem *umem;
	void *kva;
	unsigned int refcnt;
};

struct sd_ucontext {
	struct ib_ucontext ibuc;
	struct mutex lock;	/* bfreg counts, system pages, doorbell pages */
	int ver;		/* 0: the 8-byte request, 2: the v2 one */
	u8 cqe_version;
	u64 lib_caps;
	bool lib_uar_4k;
	bool lib_uar_dyn;
	u32 total_num_bfregs;	/* static and dynamic */
	u32 num_low_latency_bfregs;
	u32 num_static_sys_pages;
	u32 num_sys_pages;
	u32 num_dyn_bfregs;
	u32 *count;		/* users of each bfreg */
	u32 *sys_pages;		/* UAR id of each system page, or SD_INVALID_UAR */
	struct page **sys_page_mem;
	struct list_head db_pages;
	struct xarray uars;	/* the UAR ids this context may name -> their page */
};

struct sd_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

struct sd_cq {
	struct ib_cq ibcq;
	u32 cqn;
	int cqe_size;
	u32 uar_index;
	bool real_time_ts;
	u32 produced;		/* CQEs written (the resize CQEs too) */
	struct ib_umem *umem;
	struct sd_db_page *db;
	struct mutex resize_lock;
	/* the engine's view */
	void *vbuf;		/* vmap of the pinned buffer */
	u8 *buf;		/* its first CQE */
	__be32 *dbrec;		/* [0] consumer index, [1] arm request */
	struct page *uar_page;	/* the UAR whose offset 0x20 the arm rings */
	u32 arm_db_last;	/* dbrec[1] as last read */
	u32 arm_req_last;	/* the last arm request taken */
	bool armed, arm_solicited;
	bool ignore_overrun;	/* created with IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN */
	bool overrun;		/* in error after an overrun: CQEs dropped */
	struct sd_kcq *k;	/* mlx5_gsi.c: a kernel CQ's ring, else NULL */
};

struct sd_srq {
	struct ib_srq ibsrq;
	u32 srqn;
	u32 max;		/* descriptors, a power of two */
	u32 max_gs;
	u32 wqe_shift;
	bool wq_sig;
	u32 limit;		/* armed when not 0; under the device's eng_lock */
	u32 uidx;
	struct ib_umem *umem;
	struct sd_db_page *db;
	/* the engine's view */
	void *vbuf;
	u8 *buf;
	__be32 *dbrec;		/* [0] the library's counter of posted WQEs */
	u16 hw_cons;		/* WQEs taken */
	u16 hw_head;		/* the next WQE to take: the list's head */
};

struct sd_qp {
	struct ib_qp ibqp;
	u32 qpn;
	u32 flags_en;		/* the vendor flags taken */
	u32 uidx;
	u32 bfregn;		/* or SD_INVALID_BFREG */
	u32 uar_index;
	bool has_rq;
	u32 rq_wqe_cnt, rq_wqe_shift, rq_max_gs, sq_wqe_cnt;
	struct ib_umem *umem;
	struct sd_db_page *db;
	struct mutex lock;	/* attributes; the state is under eng_lock too */
	enum ib_qp_state state;
	struct sd_dev *dest_dev;	/* the device whose GID table has the path's
					 * destination GID (RC, UC), or NULL */
	struct ib_qp_attr attr;	/* as last set; sgid_attr pointers dropped */
	struct ib_qp_cap init_cap;
	enum ib_sig_type sq_sig_type;
	/* scatter to CQE as mlx5_ib sets it in the QP context at create
	 * (cs_res, cs_req): the most bytes a receive (scat_res) or a READ or
	 * atomic response (scat_req) puts in its CQE instead of the buffer;
	 * 0 (off), 32 (in the 64-byte CQE) or 64 (in the first half of a
	 * 128-byte CQE) */
	u8 scat_res, scat_req;
	u8 port;
	u8 resp_depth;
	int atomic_rd_en;
	int hw_access;		/* the remote rights in force: write alone without
				 * responder resources */
	/* the engine's view */
	bool cqe_v1;		/* the context's CQE version is 1 */
	void *vbuf;
	u8 *rq, *sq;		/* the rings in the pinned buffer */
	__be32 *dbrec;		/* [0] receive counter, [1] send counter */
	u16 sq_cons;		/* the next send WQE's index (basic blocks) */
	u16 rq_cons;		/* receive WQEs taken */
	bool stalled;		/* the head WQE waits: no receive WQE, peer not ready */
	unsigned long stall_start;
	struct sd_gsi *gsi;	/* mlx5_gsi.c: QP1's kernel queues, else NULL */
};

struct sd_mr {
	struct ib_mr ibmr;
	u32 index;
	struct ib_umem *umem;
	/* the engine's view */
	struct ib_pd *pd;
	u64 iova, length;
	int access;
	void *vbuf;
	u8 *kva;		/* the byte at iova */
};

/* A memory window: mlx5_verbs.c allocates it free, a UMR WQE binds it
 * (mlx5_engine.c, which reads and writes the fields below under eng_lock). */
struct sd_mw {
	struct ib_mw ibmw;
	u32 index;
	bool bound;
	u32 key;		/* the rkey in force: index << 8 | the last bind's tag */
	u32 qpn;		/* type 2: the QP it is bound to */
	u32 mr_key;		/* the MR under it, found again at each access */
	u64 addr, length;
	int access;		/* IB_ACCESS_REMOTE_* */
};

static inline struct sd_dev *to_sddev(struct ib_device *d) { return container_of(d, struct sd_dev, ibdev); }
static inline struct sd_cq *to_sdcq(struct ib_cq *c) { return container_of(c, struct sd_cq, ibcq); }
static inline struct sd_srq *to_sdsrq(struct ib_srq *s) { return container_of(s, struct sd_srq, ibsrq); }
static inline struct sd_qp *to_sdqp(struct ib_qp *q) { return container_of(q, struct sd_qp, ibqp); }
static inline struct sd_mr *to_sdmr(struct ib_mr *m) { return container_of(m, struct sd_mr, ibmr); }
static inline struct sd_mw *to_sdmw(struct ib_mw *m) { return container_of(m, struct sd_mw, ibmw); }

/* mlx5_engine.c */
void *sd_umem_vmap(struct ib_umem *umem);
int sd_engine_start(struct sd_dev *dev);
void sd_engine_stop(struct sd_dev *dev);
void sd_engine_qp_state(struct sd_dev *dev, struct sd_qp *qp, enum ib_qp_state next);
void sd_qp_event(struct sd_qp *qp, enum ib_event_type type);

/* mlx5_record.c: the record of the WQEs taken and CQEs written (debugfs
 * mlx5_standin/record), off unless enabled; the hooks return at once then */
int sd_record_init(void);
void sd_record_exit(void);
void sd_rec_wqe(struct sd_qp *qp, u16 idx, const u8 *wqe, unsigned int ds, unsigned int nbb);
void sd_rec_cqe(struct sd_cq *cq, u32 pos, const u8 *cqe);

/* mlx5_verbs.c: the device of the module whose GID table holds gid */
struct sd_dev *sd_route_gid(const u8 *gid);
/* mlx5_verbs.c: a RoCE address handle's GRH */
void sd_ah_grh(struct ib_ah *ah, union ib_gid *dgid, u32 *flow_label, u8 *tclass, u8 *hop_limit);

/* mlx5_gsi.c: the kernel's CQs and QP1 (the MAD layer's), which the verbs
 * of mlx5_verbs.c hand over when there is no user data */
struct sd_kcq;
struct sd_gsi;
extern const struct ib_device_ops sd_gsi_ops;
int sd_kcq_create(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr);
void sd_kcq_destroy(struct ib_cq *ibcq);
int sd_gsi_create(struct ib_qp *ibqp, struct ib_qp_init_attr *attr);
void sd_gsi_destroy(struct ib_qp *ibqp);
int sd_gsi_modify(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask);
int sd_gsi_query(struct ib_qp *ibqp, struct ib_qp_attr *qa, struct ib_qp_init_attr *init);

#endif /* MLX5_STANDIN_H */
