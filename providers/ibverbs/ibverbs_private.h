/* SPDX-License-Identifier: MIT */
/*
 * libibverbs' provider interface, IBVERBS_PRIVATE_34 (rdma-core 34 to 56:
 * Debian 12 and 13). libibverbs does not install the header that declares
 * it, so the plug-in declares what it uses here, from the layout of the
 * installed library:
 *
 *  - struct verbs_context_ops: 76 function pointers in alphabetical order.
 *    verbs_set_ops() copies every non-NULL op to the context's private
 *    table and, for 56 of them, also to a slot of the public verbs_context
 *    or ibv_context_ops; the offsets below are those it reads, and the
 *    public slot each lands in is checked again at run time against the
 *    library actually loaded (plugin.c, check_ops_layout()).
 *  - struct verbs_device_ops and struct verbs_match_ent: as the stock rxe
 *    and siw providers lay them out in their read-only data.
 *  - struct verbs_device: struct ibv_device, then the ops, a reference
 *    count, a list node, the sysfs record and core_support (0x2c0, which
 *    ibv_reg_mr() tests for optional access flags).
 *  - struct verbs_mr, struct verbs_qp: what libibverbs reads past the public
 *    struct (ibv_dereg_mr(): type and access; ibv_qp_to_qp_ex(): comp_mask).
 *
 * rdma-core 33 (Debian 11, IBVERBS_PRIVATE_33) lacks four ops of this table
 * and a field of the sysfs record; 57 and later renamed the version. Neither
 * is built (see docs/ibverbs-provider.md).
 */
#ifndef UVIO_IBVERBS_PRIVATE_H
#define UVIO_IBVERBS_PRIVATE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#define IBV_PRIVATE_VERSION 34

struct verbs_sysfs_dev;		/* libibverbs' record of a device: not read */
struct verbs_device_ops;

enum verbs_match_kind {
	VERBS_MATCH_SENTINEL = 0,
	VERBS_MATCH_PCI = 1,
	VERBS_MATCH_MODALIAS = 2,
	VERBS_MATCH_DRIVER_ID = 3,
};

struct verbs_match_ent {
	void *driver_data;
	union {
		const char *modalias;
		uint64_t driver_id;
	} u;
	uint16_t vendor;
	uint16_t device;
	uint8_t kind;
};

struct verbs_device {
	struct ibv_device device;
	const struct verbs_device_ops *ops;
	atomic_int refcount;
	struct {
		void *next, *prev;
	} entry;
	struct verbs_sysfs_dev *sysfs;
	uint64_t core_support;
};

struct verbs_device_ops {
	const char *name;
	uint32_t match_min_abi_version;
	uint32_t match_max_abi_version;
	const struct verbs_match_ent *match_table;
	const struct verbs_device_ops **static_providers;
	int (*match_device)(struct verbs_sysfs_dev *sysfs_dev);	/* bool in C */
	struct verbs_context *(*alloc_context)(struct ibv_device *device, int cmd_fd,
					       void *private_data);
	struct verbs_context *(*import_context)(struct ibv_device *device, int cmd_fd);
	struct verbs_device *(*alloc_device)(struct verbs_sysfs_dev *sysfs_dev);
	void (*uninit_device)(struct verbs_device *device);
};

enum ibv_mr_type_private {
	IBV_MR_TYPE_MR = 0,
};

struct verbs_mr {
	struct ibv_mr ibv_mr;
	int mr_type;			/* enum ibv_mr_type_private */
	int access;
};

enum { VERBS_QP_XRCD = 1 << 0, VERBS_QP_EX = 1 << 1 };

struct verbs_qp {
	union {
		struct ibv_qp qp;
		struct ibv_qp_ex qp_ex;
	};
	uint32_t comp_mask;
	void *xrcd;
};

/* An op this plug-in leaves to libibverbs' default (which answers
 * EOPNOTSUPP); its place in the table still counts. */
typedef void (*verbs_op_unused)(void);

struct verbs_context_ops {
	verbs_op_unused advise_mr;
	verbs_op_unused alloc_dm;
	struct ibv_mw *(*alloc_mw)(struct ibv_pd *pd, enum ibv_mw_type type);
	verbs_op_unused alloc_null_mr;
	struct ibv_pd *(*alloc_parent_domain)(struct ibv_context *context,
					      struct ibv_parent_domain_init_attr *attr);
	struct ibv_pd *(*alloc_pd)(struct ibv_context *context);
	verbs_op_unused alloc_td;
	void (*async_event)(struct ibv_context *context, struct ibv_async_event *event);
	verbs_op_unused attach_counters_point_flow;
	int (*attach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid);
	int (*bind_mw)(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *mw_bind);
	verbs_op_unused close_xrcd;
	void (*cq_event)(struct ibv_cq *cq);
	struct ibv_ah *(*create_ah)(struct ibv_pd *pd, struct ibv_ah_attr *attr);
	verbs_op_unused create_counters;
	struct ibv_cq *(*create_cq)(struct ibv_context *context, int cqe,
				    struct ibv_comp_channel *channel, int comp_vector);
	struct ibv_cq_ex *(*create_cq_ex)(struct ibv_context *context,
					  struct ibv_cq_init_attr_ex *init_attr);
	verbs_op_unused create_flow;
	verbs_op_unused create_flow_action_esp;
	struct ibv_qp *(*create_qp)(struct ibv_pd *pd, struct ibv_qp_init_attr *attr);
	struct ibv_qp *(*create_qp_ex)(struct ibv_context *context,
				       struct ibv_qp_init_attr_ex *attr);
	verbs_op_unused create_rwq_ind_table;
	struct ibv_srq *(*create_srq)(struct ibv_pd *pd, struct ibv_srq_init_attr *attr);
	verbs_op_unused create_srq_ex;
	verbs_op_unused create_wq;
	int (*dealloc_mw)(struct ibv_mw *mw);
	int (*dealloc_pd)(struct ibv_pd *pd);
	verbs_op_unused dealloc_td;
	int (*dereg_mr)(struct verbs_mr *mr);
	int (*destroy_ah)(struct ibv_ah *ah);
	verbs_op_unused destroy_counters;
	int (*destroy_cq)(struct ibv_cq *cq);
	verbs_op_unused destroy_flow;
	verbs_op_unused destroy_flow_action;
	int (*destroy_qp)(struct ibv_qp *qp);
	verbs_op_unused destroy_rwq_ind_table;
	int (*destroy_srq)(struct ibv_srq *srq);
	verbs_op_unused destroy_wq;
	int (*detach_mcast)(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid);
	void (*free_context)(struct ibv_context *context);
	verbs_op_unused free_dm;
	verbs_op_unused get_srq_num;
	verbs_op_unused import_dm;
	verbs_op_unused import_mr;
	verbs_op_unused import_pd;
	verbs_op_unused modify_cq;
	verbs_op_unused modify_flow_action_esp;
	int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask);
	verbs_op_unused modify_qp_rate_limit;
	int (*modify_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr, int attr_mask);
	verbs_op_unused modify_wq;
	verbs_op_unused open_qp;
	verbs_op_unused open_xrcd;
	int (*poll_cq)(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);
	int (*post_recv)(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
	int (*post_send)(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
	verbs_op_unused post_srq_ops;
	int (*post_srq_recv)(struct ibv_srq *srq, struct ibv_recv_wr *wr,
			     struct ibv_recv_wr **bad_wr);
	int (*query_device_ex)(struct ibv_context *context,
			       const struct ibv_query_device_ex_input *input,
			       struct ibv_device_attr_ex *attr, size_t attr_size);
	verbs_op_unused query_ece;
	int (*query_port)(struct ibv_context *context, uint8_t port_num,
			  struct ibv_port_attr *port_attr);
	int (*query_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask,
			struct ibv_qp_init_attr *init_attr);
	verbs_op_unused query_qp_data_in_order;
	verbs_op_unused query_rt_values;
	int (*query_srq)(struct ibv_srq *srq, struct ibv_srq_attr *attr);
	verbs_op_unused read_counters;
	verbs_op_unused reg_dm_mr;
	verbs_op_unused reg_dmabuf_mr;
	struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, uint64_t hca_va,
				 int access);
	int (*req_notify_cq)(struct ibv_cq *cq, int solicited_only);
	verbs_op_unused rereg_mr;
	int (*resize_cq)(struct ibv_cq *cq, int cqe);
	verbs_op_unused set_ece;
	verbs_op_unused unimport_dm;
	verbs_op_unused unimport_mr;
	verbs_op_unused unimport_pd;
};

/* Exported by libibverbs under IBVERBS_PRIVATE_34. */
void verbs_register_driver_34(const struct verbs_device_ops *ops);
void *_verbs_init_and_alloc_context(struct ibv_device *device, int cmd_fd, size_t alloc_size,
				    struct verbs_context *context_offset, uint32_t driver_id);
void verbs_uninit_context(struct verbs_context *context);
void verbs_set_ops(struct verbs_context *vctx, const struct verbs_context_ops *ops);

/*
 * The layout, as read from libibverbs 44 (rdma-core 34-56 share it): the
 * offset of each op in the table (verbs_set_ops() loads them from there),
 * and the sizes libibverbs allocates or reads.
 */
#define IBV_OP_AT(op, off) \
	_Static_assert(offsetof(struct verbs_context_ops, op) == (off), #op " offset")
IBV_OP_AT(advise_mr, 0x0);		IBV_OP_AT(alloc_mw, 0x10);
IBV_OP_AT(alloc_parent_domain, 0x20);
IBV_OP_AT(alloc_pd, 0x28);		IBV_OP_AT(async_event, 0x38);
IBV_OP_AT(attach_mcast, 0x48);		IBV_OP_AT(bind_mw, 0x50);
IBV_OP_AT(cq_event, 0x60);		IBV_OP_AT(create_ah, 0x68);
IBV_OP_AT(create_cq, 0x78);		IBV_OP_AT(create_cq_ex, 0x80);
IBV_OP_AT(create_flow, 0x88);		IBV_OP_AT(create_qp, 0x98);
IBV_OP_AT(create_qp_ex, 0xa0);		IBV_OP_AT(create_srq, 0xb0);
IBV_OP_AT(dealloc_mw, 0xc8);		IBV_OP_AT(dealloc_pd, 0xd0);
IBV_OP_AT(dereg_mr, 0xe0);		IBV_OP_AT(destroy_ah, 0xe8);
IBV_OP_AT(destroy_cq, 0xf8);		IBV_OP_AT(destroy_qp, 0x110);
IBV_OP_AT(destroy_srq, 0x120);		IBV_OP_AT(detach_mcast, 0x130);
IBV_OP_AT(free_context, 0x138);		IBV_OP_AT(import_dm, 0x150);
IBV_OP_AT(modify_qp, 0x178);		IBV_OP_AT(modify_srq, 0x188);
IBV_OP_AT(poll_cq, 0x1a8);		IBV_OP_AT(post_recv, 0x1b0);
IBV_OP_AT(post_send, 0x1b8);		IBV_OP_AT(post_srq_recv, 0x1c8);
IBV_OP_AT(query_device_ex, 0x1d0);	IBV_OP_AT(query_ece, 0x1d8);
IBV_OP_AT(query_port, 0x1e0);		IBV_OP_AT(query_qp, 0x1e8);
IBV_OP_AT(query_qp_data_in_order, 0x1f0); IBV_OP_AT(query_srq, 0x200);
IBV_OP_AT(reg_dmabuf_mr, 0x218);	IBV_OP_AT(reg_mr, 0x220);
IBV_OP_AT(req_notify_cq, 0x228);	IBV_OP_AT(resize_cq, 0x238);
IBV_OP_AT(set_ece, 0x240);		IBV_OP_AT(unimport_pd, 0x258);
_Static_assert(sizeof(struct verbs_context_ops) == 0x260, "76 ops");
#undef IBV_OP_AT

_Static_assert(sizeof(struct verbs_device_ops) == 0x48, "verbs_device_ops");
_Static_assert(offsetof(struct verbs_device_ops, alloc_context) == 0x28, "alloc_context");
_Static_assert(offsetof(struct verbs_device_ops, alloc_device) == 0x38, "alloc_device");
_Static_assert(sizeof(struct verbs_match_ent) == 0x18, "verbs_match_ent");
_Static_assert(offsetof(struct verbs_match_ent, kind) == 0x14, "verbs_match_ent.kind");
_Static_assert(offsetof(struct verbs_device, core_support) == 0x2c0, "core_support");
_Static_assert(sizeof(struct verbs_device) == 0x2c8, "verbs_device");
_Static_assert(offsetof(struct verbs_mr, mr_type) == 0x30 &&
	       offsetof(struct verbs_mr, access) == 0x34, "verbs_mr");
_Static_assert(offsetof(struct verbs_qp, comp_mask) == sizeof(struct ibv_qp_ex), "verbs_qp.comp_mask");
/* The public structs those offsets were read against. */
_Static_assert(sizeof(struct ibv_device) == 0x298, "ibv_device");
_Static_assert(offsetof(struct verbs_context, priv) == 0xd0 &&
	       offsetof(struct verbs_context, context) == 0x140, "verbs_context");

#endif
