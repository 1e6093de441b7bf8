// SPDX-License-Identifier: MIT
/*
 * A libibverbs provider for rxe, siw and mlx5 whose every command goes
 * through libuverbs-ioctl and whose queues are its data-path layer (on mlx5
 * the library's mlx5 half lays out the queues and maps the doorbell page).
 * libibverbs loads it as it loads rdma-core's providers
 * (RDMAV_DRIVERS=/path/libuvio, or a .driver file); the first provider that
 * claims a device wins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/ib_user_ioctl_verbs.h>

#include "uvp.h"

static int query_device_ex(struct ibv_context *context,
			   const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr, size_t attr_size);
static int query_port(struct ibv_context *context, uint8_t port, struct ibv_port_attr *attr);
static void free_context(struct ibv_context *context);

static const struct verbs_context_ops uvp_ops = {
	.alloc_mw = uvp_alloc_mw,
	.alloc_pd = uvp_alloc_pd,
	.alloc_parent_domain = uvp_alloc_parent_domain,
	.attach_mcast = uvp_attach_mcast,
	.bind_mw = uvp_bind_mw,
	.create_ah = uvp_create_ah,
	.create_cq = uvp_create_cq,
	.create_cq_ex = uvp_create_cq_ex,
	.create_qp = uvp_create_qp,
	.create_qp_ex = uvp_create_qp_ex,
	.create_srq = uvp_create_srq,
	.dealloc_mw = uvp_dealloc_mw,
	.dealloc_pd = uvp_dealloc_pd,
	.dereg_mr = uvp_dereg_mr,
	.destroy_ah = uvp_destroy_ah,
	.destroy_cq = uvp_destroy_cq,
	.destroy_qp = uvp_destroy_qp,
	.destroy_srq = uvp_destroy_srq,
	.detach_mcast = uvp_detach_mcast,
	.free_context = free_context,
	.modify_qp = uvp_modify_qp,
	.modify_srq = uvp_modify_srq,
	.poll_cq = uvp_poll_cq,
	.post_recv = uvp_post_recv,
	.post_send = uvp_post_send,
	.post_srq_recv = uvp_post_srq_recv,
	.query_device_ex = query_device_ex,
	.query_port = query_port,
	.query_qp = uvp_query_qp,
	.query_srq = uvp_query_srq,
	.reg_mr = uvp_reg_mr,
	.req_notify_cq = uvp_req_notify_cq,
	.resize_cq = uvp_resize_cq,
};

/*
 * The op table's layout is read from libibverbs, not from a header it
 * installs: check it against the library this process loaded. verbs_set_ops()
 * copies ops that have a public slot there too; if each landed where the
 * public header says, the private table is laid out as declared.
 */
static int check_ops_layout(const struct verbs_context *v)
{
	const struct ibv_context_ops *o = &v->context.ops;

	if (o->poll_cq != uvp_ops.poll_cq || o->post_send != uvp_ops.post_send ||
	    o->post_recv != uvp_ops.post_recv || o->post_srq_recv != uvp_ops.post_srq_recv ||
	    o->req_notify_cq != uvp_ops.req_notify_cq || o->bind_mw != uvp_ops.bind_mw ||
	    o->alloc_mw != uvp_ops.alloc_mw || o->dealloc_mw != uvp_ops.dealloc_mw ||
	    v->create_qp_ex != uvp_ops.create_qp_ex ||
	    (void *)o->_compat_alloc_pd != (void *)uvp_ops.alloc_pd ||
	    (void *)o->_compat_dereg_mr != (void *)uvp_ops.dereg_mr ||
	    (void *)o->_compat_resize_cq != (void *)uvp_ops.resize_cq)
		return -1;
	return 0;
}

/* The driver id of the device libibverbs matched: the one entry of the
 * match table of the ops that claimed it (see uvp_drivers below). */
static uint32_t matched_driver_id(struct ibv_device *ibdev)
{
	return (uint32_t)((struct verbs_device *)ibdev)->ops->match_table[0].u.driver_id;
}

static struct verbs_context *alloc_context(struct ibv_device *ibdev, int cmd_fd,
					   void *private_data)
{
	uint32_t driver_id = matched_driver_id(ibdev);
	UVIO_OPTS(uvio_context, uctx);
	struct uvp_context *ctx;
	int err;

	(void)private_data;
	ctx = _verbs_init_and_alloc_context(ibdev, cmd_fd, sizeof(*ctx), NULL, driver_id);
	if (!ctx)
		return NULL;
	ctx->driver_id = driver_id;
	err = uvio_device_adopt(cmd_fd, driver_id, &ctx->dev);
	if (!err)
		err = uvio_get_context(ctx->dev, NULL, &uctx, NULL);
	if (err) {
		fprintf(stderr, "libuvio: %s: GET_CONTEXT: %s\n", ibdev->name,
			uvio_last_error()[0] ? uvio_last_error() : strerror(-err));
		goto fail;
	}
	ctx->vctx.context.async_fd = uctx.async_fd;
	ctx->vctx.context.num_comp_vectors = (int)uctx.num_comp_vectors;
	((struct verbs_device *)ibdev)->core_support = uctx.core_support;
	verbs_set_ops(&ctx->vctx, &uvp_ops);
	if (check_ops_layout(&ctx->vctx)) {
		fprintf(stderr, "libuvio: this libibverbs lays out its provider ops unlike "
				"IBVERBS_PRIVATE_34 of rdma-core 34-56; not loading\n");
		err = -EPROTO;
		goto fail;
	}
	return &ctx->vctx;
fail:
	uvio_device_close(ctx->dev);
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = -err;
	return NULL;
}

/* verbs_uninit_context() closes the cmd and async fds. */
static void free_context(struct ibv_context *context)
{
	struct uvp_context *ctx = uvp_ctx(context);

	uvio_device_close(ctx->dev);
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static struct verbs_device *alloc_device(struct verbs_sysfs_dev *sysfs)
{
	(void)sysfs;
	return calloc(1, sizeof(struct verbs_device));
}

static void uninit_device(struct verbs_device *device)
{
	free(device);
}

/*
 * One provider per driver, each with a match table of one entry: libibverbs
 * sets the verbs_device's ops to the provider that claimed the device, so
 * alloc_context reads the driver id from what matched (which entry of a
 * longer table matched is kept only in libibverbs' record of the device,
 * whose layout is not ours to read). Each checks its driver's own uverbs
 * ABI version, as rdma-core's providers do: rxe 2, siw 1, mlx5 1.
 */
#define UVP_MATCH(id)                                                              \
	{ { .u.driver_id = (id), .kind = VERBS_MATCH_DRIVER_ID },                  \
	  { .kind = VERBS_MATCH_SENTINEL } }
static const struct verbs_match_ent match_rxe[] = UVP_MATCH(RDMA_DRIVER_RXE);
static const struct verbs_match_ent match_siw[] = UVP_MATCH(RDMA_DRIVER_SIW);
static const struct verbs_match_ent match_mlx5[] = UVP_MATCH(RDMA_DRIVER_MLX5);

#define UVP_DRIVER(table, abi)                                                     \
	{ .name = "uvio", .match_min_abi_version = (abi), .match_max_abi_version = (abi), \
	  .match_table = (table), .alloc_context = alloc_context,                    \
	  .alloc_device = alloc_device, .uninit_device = uninit_device }
static const struct verbs_device_ops uvp_drivers[] = {
	UVP_DRIVER(match_rxe, 2),	/* RXE_UVERBS_ABI_VERSION */
	UVP_DRIVER(match_siw, 1),	/* SIW_ABI_VERSION */
	UVP_DRIVER(match_mlx5, 1),	/* MLX5_IB_UVERBS_ABI_VERSION */
};

__attribute__((constructor)) static void uvp_register(void)
{
	for (size_t i = 0; i < sizeof(uvp_drivers) / sizeof(uvp_drivers[0]); i++)
		verbs_register_driver_34(&uvp_drivers[i]);
}

/* fw_ver as rdma-core prints it: three 16-bit parts of the 64-bit value. */
static void fw_text(char *buf, size_t len, uint64_t fw)
{
	snprintf(buf, len, "%u.%u.%u", (unsigned)(fw >> 32) & 0xffff,
		 (unsigned)(fw >> 16) & 0xffff, (unsigned)fw & 0xffff);
}

static void device_attr_from(struct ibv_device_attr *a, const struct ib_uverbs_query_device_resp *r)
{
	fw_text(a->fw_ver, sizeof(a->fw_ver), r->fw_ver);
	a->node_guid = r->node_guid;
	a->sys_image_guid = r->sys_image_guid;
	a->max_mr_size = r->max_mr_size;
	a->page_size_cap = r->page_size_cap;
	a->vendor_id = r->vendor_id;
	a->vendor_part_id = r->vendor_part_id;
	a->hw_ver = r->hw_ver;
	a->max_qp = (int)r->max_qp;
	a->max_qp_wr = (int)r->max_qp_wr;
	a->device_cap_flags = (unsigned int)r->device_cap_flags;
	a->max_sge = (int)r->max_sge;
	a->max_sge_rd = (int)r->max_sge_rd;
	a->max_cq = (int)r->max_cq;
	a->max_cqe = (int)r->max_cqe;
	a->max_mr = (int)r->max_mr;
	a->max_pd = (int)r->max_pd;
	a->max_qp_rd_atom = (int)r->max_qp_rd_atom;
	a->max_ee_rd_atom = (int)r->max_ee_rd_atom;
	a->max_res_rd_atom = (int)r->max_res_rd_atom;
	a->max_qp_init_rd_atom = (int)r->max_qp_init_rd_atom;
	a->max_ee_init_rd_atom = (int)r->max_ee_init_rd_atom;
	a->atomic_cap = (enum ibv_atomic_cap)r->atomic_cap;
	a->max_ee = (int)r->max_ee;
	a->max_rdd = (int)r->max_rdd;
	a->max_mw = (int)r->max_mw;
	a->max_raw_ipv6_qp = (int)r->max_raw_ipv6_qp;
	a->max_raw_ethy_qp = (int)r->max_raw_ethy_qp;
	a->max_mcast_grp = (int)r->max_mcast_grp;
	a->max_mcast_qp_attach = (int)r->max_mcast_qp_attach;
	a->max_total_mcast_qp_attach = (int)r->max_total_mcast_qp_attach;
	a->max_ah = (int)r->max_ah;
	a->max_fmr = (int)r->max_fmr;
	a->max_map_per_fmr = (int)r->max_map_per_fmr;
	a->max_srq = (int)r->max_srq;
	a->max_srq_wr = (int)r->max_srq_wr;
	a->max_srq_sge = (int)r->max_srq_sge;
	a->max_pkeys = r->max_pkeys;
	a->local_ca_ack_delay = r->local_ca_ack_delay;
	a->phys_port_cnt = r->phys_port_cnt;
}

/* libibverbs' ibv_query_device() asks for the first attr_size bytes (the
 * plain struct); ibv_query_device_ex() for what its caller has. */
static int query_device_ex(struct ibv_context *context,
			   const struct ibv_query_device_ex_input *input,
			   struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp r;
	struct ibv_device_attr_ex x;
	int err;

	if (input && input->comp_mask)
		return EINVAL;
	if (attr_size < sizeof(attr->orig_attr))
		return EINVAL;
	memset(&r, 0, sizeof(r));
	err = uvio_query_device_ex(uvp_dev(context), &r, sizeof(r), NULL);
	if (err)
		return -err;
	memset(&x, 0, sizeof(x));
	device_attr_from(&x.orig_attr, &r.base);
	x.odp_caps.general_caps = r.odp_caps.general_caps;
	x.odp_caps.per_transport_caps.rc_odp_caps = r.odp_caps.per_transport_caps.rc_odp_caps;
	x.odp_caps.per_transport_caps.uc_odp_caps = r.odp_caps.per_transport_caps.uc_odp_caps;
	x.odp_caps.per_transport_caps.ud_odp_caps = r.odp_caps.per_transport_caps.ud_odp_caps;
	x.completion_timestamp_mask = r.timestamp_mask;
	x.hca_core_clock = r.hca_core_clock;
	x.device_cap_flags_ex = r.device_cap_flags_ex;
	x.rss_caps.supported_qpts = r.rss_caps.supported_qpts;
	x.rss_caps.max_rwq_indirection_tables = r.rss_caps.max_rwq_indirection_tables;
	x.rss_caps.max_rwq_indirection_table_size = r.rss_caps.max_rwq_indirection_table_size;
	x.max_wq_type_rq = r.max_wq_type_rq;
	x.raw_packet_caps = r.raw_packet_caps;
	x.tm_caps.max_rndv_hdr_size = r.tm_caps.max_rndv_hdr_size;
	x.tm_caps.max_num_tags = r.tm_caps.max_num_tags;
	x.tm_caps.flags = r.tm_caps.flags;
	x.tm_caps.max_ops = r.tm_caps.max_ops;
	x.tm_caps.max_sge = r.tm_caps.max_sge;
	x.cq_mod_caps.max_cq_count = r.cq_moderation_caps.max_cq_moderation_count;
	x.cq_mod_caps.max_cq_period = r.cq_moderation_caps.max_cq_moderation_period;
	x.max_dm_size = r.max_dm_size;
	x.xrc_odp_caps = r.xrc_odp_caps;
	x.phys_port_cnt_ex = r.base.phys_port_cnt;
	memcpy(attr, &x, attr_size < sizeof(x) ? attr_size : sizeof(x));
	if (attr_size > sizeof(x))
		memset((char *)attr + sizeof(x), 0, attr_size - sizeof(x));
	return 0;
}

static int query_port(struct ibv_context *context, uint8_t port, struct ibv_port_attr *a)
{
	UVIO_OPTS(uvio_port_attr, p);
	const struct ib_uverbs_query_port_resp *r = &p.core;
	int err;

	err = uvio_query_port(uvp_dev(context), port, &p, NULL);
	if (err)
		return -err;
	memset(a, 0, sizeof(*a));
	a->state = (enum ibv_port_state)r->state;
	a->max_mtu = (enum ibv_mtu)r->max_mtu;
	a->active_mtu = (enum ibv_mtu)r->active_mtu;
	a->gid_tbl_len = (int)r->gid_tbl_len;
	a->port_cap_flags = r->port_cap_flags;
	a->max_msg_sz = r->max_msg_sz;
	a->bad_pkey_cntr = r->bad_pkey_cntr;
	a->qkey_viol_cntr = r->qkey_viol_cntr;
	a->pkey_tbl_len = r->pkey_tbl_len;
	a->lid = r->lid;
	a->sm_lid = r->sm_lid;
	a->lmc = r->lmc;
	a->max_vl_num = r->max_vl_num;
	a->sm_sl = r->sm_sl;
	a->subnet_timeout = r->subnet_timeout;
	a->init_type_reply = r->init_type_reply;
	a->active_width = r->active_width;
	a->active_speed = r->active_speed;
	a->phys_state = r->phys_state;
	a->link_layer = r->link_layer;
	a->flags = r->flags;
	a->port_cap_flags2 = p.port_cap_flags2;
	return 0;
}

void uvp_wait_events(pthread_mutex_t *mutex, pthread_cond_t *cond, const uint32_t *done,
		     uint32_t reported)
{
	pthread_mutex_lock(mutex);
	while (*done != reported)
		pthread_cond_wait(cond, mutex);
	pthread_mutex_unlock(mutex);
}
