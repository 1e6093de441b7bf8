// SPDX-License-Identifier: MIT
/*
 * Every verb of the library that rxe or siw can answer, twice: as this
 * library calls it (lib_*) and as the bare floor issues the same command
 * (fl_*, bench/floor.h). On the ioctl path the floor sends the native method
 * where the library does, else INVOKE_WRITE; on the write() path, write().
 * Whether both sent the same command is checked at run time (capture.c),
 * not assumed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench.h"
#include "floor.h"
#include "floor_verbs.h"
#include "uvio_steps.h"

#define E_PATH(e) ((e)->use_write ? UVIO_PATH_WRITE : UVIO_PATH_AUTO)
#define FL_CMD_OF(e, command, core, resp, drv)                                   \
	fl_cmd((e)->fd, (e)->did, (e)->use_write, command, &(core), sizeof(core), resp,   \
	       sizeof(*(resp)) - (drv), drv)

/* siw wants 8 bytes of driver input to register memory (struct
 * siw_ureq_reg_mr, all zero here); rxe none. */
static const uint64_t siw_reg_mr_in;

static const struct uvio_drv *reg_mr_drv(const struct env *e, struct uvio_drv *d)
{
	if (!e->siw)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->sz = sizeof(*d);
	d->in = &siw_reg_mr_in;
	d->in_len = sizeof(siw_reg_mr_in);
	return d;
}

/* ================= DEVICE ================= */

/* GET_CONTEXT is once per fd: open, context, close, both ways. */
static int lib_get_context(struct env *e, int i)
{
	struct uvio_device *d;
	int fd = open(e->node, O_RDWR | O_CLOEXEC), ret;
	UVIO_OPTS(uvio_context, ctx);

	(void)i;
	if (fd < 0)
		return -errno;
	ret = uvio_device_adopt(fd, e->did, &d);
	if (!ret) {
		if (e->use_write)
			uvio_device_set_path(d, UVIO_PATH_WRITE);
		ret = uvio_get_context(d, NULL, &ctx, NULL);
		if (!ret && ctx.async_fd >= 0)
			close(ctx.async_fd);
		uvio_device_close(d);
	}
	close(fd);
	return ret;
}

static int fl_get_context(struct env *e, int i)
{
	int fd = open(e->node, O_RDWR | O_CLOEXEC), async_fd = -1, ret;

	(void)i;
	if (fd < 0)
		return -errno;
	ret = fl_get_context_fd(fd, e->did, e->use_write, &async_fd);
	if (!ret)
		close(async_fd);
	close(fd);
	return ret;
}

static int lib_query_device(struct env *e, int i)
{
	struct ib_uverbs_query_device_resp r;

	(void)i;
	return uvio_query_device(e->dev, &r, NULL);
}

static int fl_query_device(struct env *e, int i)
{
	struct ib_uverbs_query_device c = { 0 };
	struct ib_uverbs_query_device_resp r;

	(void)i;
	return FL_CMD_OF(e, IB_USER_VERBS_CMD_QUERY_DEVICE, c, &r, 0);
}

static int lib_query_device_ex(struct env *e, int i)
{
	struct ib_uverbs_ex_query_device_resp r;

	(void)i;
	return uvio_query_device_ex(e->dev, &r, sizeof(r), NULL);
}

static int fl_query_device_ex(struct env *e, int i)
{
	struct ib_uverbs_ex_query_device c = { 0 };
	struct ib_uverbs_ex_query_device_resp r;

	(void)i;
	return fl_cmd_ex(e->fd, e->did, e->use_write, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, &c,
			 sizeof(c), &r, sizeof(r), 0);
}

static int lib_query_port(struct env *e, int i)
{
	UVIO_OPTS(uvio_port_attr, a);

	(void)i;
	return uvio_query_port(e->dev, 1, &a, NULL);
}

static int fl_query_port(struct env *e, int i)
{
	(void)i;
	if (e->use_write) {
		struct ib_uverbs_query_port c = { .port_num = 1 };
		struct ib_uverbs_query_port_resp r;

		return FL_CMD_OF(e, IB_USER_VERBS_CMD_QUERY_PORT, c, &r, 0);
	}
	FL_CMD(c, 2);
	struct ib_uverbs_query_port_resp_ex r;

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_QUERY_PORT_PORT_NUM, 8, 1);
	fl_attr_out(&c.a[1], UVERBS_ATTR_QUERY_PORT_RESP, &r, sizeof(r));
	return fl_ioctl(e->fd, &c);
}

static int lib_gid_entry(struct env *e, int i)
{
	struct uvio_gid_entry g;

	(void)i;
	return uvio_query_gid_entry(e->dev, 1, e->gid_index, &g, NULL);
}

static int fl_gid_entry(struct env *e, int i)
{
	struct ib_uverbs_gid_entry g;

	(void)i;
	return fl_query_gid_entry(e->fd, e->did, BQ_PORT_NUM, e->gid_index, &g);
}

#define GID_MAX 16
static int lib_gid_table(struct env *e, int i)
{
	struct uvio_gid_entry g[GID_MAX];
	int n = uvio_query_gid_table(e->dev, g, GID_MAX, NULL);

	(void)i;
	return n < 0 ? n : 0;
}

static int fl_gid_table(struct env *e, int i)
{
	FL_CMD(c, 3);
	struct ib_uverbs_gid_entry g[GID_MAX];
	uint64_t n;

	(void)i;
	fl_begin(&c, sizeof(c), UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 8, sizeof(g[0]));
	fl_attr_out(&c.a[1], UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, g, sizeof(g));
	fl_attr_out(&c.a[2], UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &n, sizeof(n));
	return fl_ioctl(e->fd, &c);
}

#define HANDLES_MAX 16
static int lib_info_handles(struct env *e, int i)
{
	uint32_t h[HANDLES_MAX];
	int n = uvio_info_handles(e->dev, UVERBS_OBJECT_PD, h, HANDLES_MAX, NULL);

	(void)i;
	return n < 0 ? n : 0;
}

static int fl_info_handles(struct env *e, int i)
{
	FL_CMD(c, 3);
	uint32_t h[HANDLES_MAX], total;

	(void)i;
	fl_begin(&c, sizeof(c), UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INFO_HANDLES, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_INFO_OBJECT_ID, 8, UVERBS_OBJECT_PD);
	fl_attr_out(&c.a[1], UVERBS_ATTR_INFO_TOTAL_HANDLES, &total, sizeof(total));
	fl_attr_out(&c.a[2], UVERBS_ATTR_INFO_HANDLES_LIST, h, sizeof(h));
	return fl_ioctl(e->fd, &c);
}

/* A completion channel, closed again at once (both ways). */
static int lib_comp_channel(struct env *e, int i)
{
	UVIO_OPTS(uvio_comp_channel, ch);
	int ret = uvio_create_comp_channel(e->dev, &ch, NULL);

	(void)i;
	if (!ret)
		close(ch.fd);
	return ret;
}

static int fl_comp_channel(struct env *e, int i)
{
	struct ib_uverbs_create_comp_channel c = { 0 };
	struct ib_uverbs_create_comp_channel_resp r;
	int ret = FL_CMD_OF(e, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, c, &r, 0);

	(void)i;
	if (!ret)
		close((int)r.fd);
	return ret;
}

/* ================= PD ================= */

static int lib_alloc_pd(struct env *e, int i)
{
	return uvio_alloc_pd(e->dev, NULL, &e->h[i], NULL);
}

static int fl_alloc_pd(struct env *e, int i)
{
	return fl_alloc_pd_fd(e->fd, e->did, e->use_write, &e->h[i]);
}

static int lib_dealloc_pd(struct env *e, int i)
{
	return uvio_dealloc_pd(e->dev, e->h[i], NULL);
}

static int fl_dealloc_pd(struct env *e, int i)
{
	if (e->use_write) {
		struct ib_uverbs_dealloc_pd c = { .pd_handle = e->h[i] };

		return fl_write(e->fd, IB_USER_VERBS_CMD_DEALLOC_PD, &c, sizeof(c), NULL, 0, NULL,
				0, 0);
	}
	FL_CMD(c, 1);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_PD_HANDLE, 0, e->h[i]);
	return fl_ioctl(e->fd, &c);
}

/* ================= CQ ================= */

static int lib_create_cq(struct env *e, int i)
{
	UVIO_OPTS(uvio_cq_attr, attr, .cqe = 16);
	UVIO_OPTS(uvio_cq, cq);
	int ret = uvio_create_cq(e->dev, &attr, NULL, &cq, NULL);

	e->h[i] = cq.handle;
	return ret;
}

static int fl_create_cq(struct env *e, int i)
{
	return fl_create_cq_fd(e->fd, e->did, e->use_write, 16, &e->h[i]);
}

static int lib_destroy_cq(struct env *e, int i)
{
	return uvio_destroy_cq(e->dev, e->h[i], NULL, NULL);
}

static int fl_destroy_cq(struct env *e, int i)
{
	struct ib_uverbs_destroy_cq_resp r;

	if (e->use_write) {
		struct ib_uverbs_destroy_cq c = { .cq_handle = e->h[i] };

		return FL_CMD_OF(e, IB_USER_VERBS_CMD_DESTROY_CQ, c, &r, 0);
	}
	FL_CMD(c, 2);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_CQ_HANDLE, 0, e->h[i]);
	fl_attr_out(&c.a[1], UVERBS_ATTR_DESTROY_CQ_RESP, &r, sizeof(r));
	return fl_ioctl(e->fd, &c);
}

/* Between two sizes, so that every call resizes. */
static uint32_t resize_to(unsigned int tick)
{
	return tick & 1 ? 32 : 64;
}

static int lib_resize_cq(struct env *e, int i)
{
	UVIO_OPTS(uvio_cq_resize_attr, ra, .cq_handle = e->cq_resize, .cqe = resize_to(e->tick));

	(void)i;
	return uvio_resize_cq(e->dev, &ra, NULL, NULL, NULL);
}

static int fl_resize_cq(struct env *e, int i)
{
	struct ib_uverbs_resize_cq c = { .cq_handle = e->cq_resize, .cqe = resize_to(e->tick) };
	struct {
		struct ib_uverbs_resize_cq_resp r;
		uint8_t drv[FL_DRV_OUT];
	} r;

	(void)i;
	return FL_CMD_OF(e, IB_USER_VERBS_CMD_RESIZE_CQ, c, &r, FL_DRV_OUT);
}

/* ================= MR ================= */

static int lib_reg_mr(struct env *e, int i)
{
	UVIO_OPTS(uvio_mr_attr, attr, .pd_handle = e->pd, .addr = e->buf, .length = e->buf_len,
		  .iova = (uintptr_t)e->buf, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	UVIO_OPTS(uvio_mr, mr);
	struct uvio_drv d;
	int ret = uvio_reg_mr(e->dev, &attr, reg_mr_drv(e, &d), &mr, NULL);

	e->h[i] = mr.handle;
	return ret;
}

static int fl_reg_mr(struct env *e, int i)
{
	struct ib_uverbs_reg_mr c = {
		.start = (uintptr_t)e->buf,
		.length = e->buf_len,
		.hca_va = (uintptr_t)e->buf,
		.pd_handle = e->pd,
		.access_flags = IB_UVERBS_ACCESS_LOCAL_WRITE,
	};
	struct {
		struct ib_uverbs_reg_mr_resp r;
		uint8_t drv[FL_DRV_OUT];
	} r;
	size_t in_len = e->siw ? sizeof(siw_reg_mr_in) : 0;
	int ret;

	if (e->use_write)
		ret = fl_write(e->fd, IB_USER_VERBS_CMD_REG_MR, &c, sizeof(c), &siw_reg_mr_in,
			       in_len, &r, sizeof(r.r), FL_DRV_OUT);
	else
		ret = fl_invoke(e->fd, e->did, IB_USER_VERBS_CMD_REG_MR, &c, sizeof(c),
				&siw_reg_mr_in, in_len, &r, sizeof(r.r), FL_DRV_OUT);
	e->h[i] = r.r.mr_handle;
	return ret;
}

static int lib_dereg_mr(struct env *e, int i)
{
	return uvio_dereg_mr(e->dev, e->h[i], NULL);
}

static int fl_dereg_mr(struct env *e, int i)
{
	if (e->use_write) {
		struct ib_uverbs_dereg_mr c = { .mr_handle = e->h[i] };

		return fl_write(e->fd, IB_USER_VERBS_CMD_DEREG_MR, &c, sizeof(c), NULL, 0, NULL,
				0, 0);
	}
	FL_CMD(c, 1);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_MR_HANDLE, 0, e->h[i]);
	return fl_ioctl(e->fd, &c);
}

/* Access flags back and forth, so that every call changes the MR. */
static uint32_t rereg_access(unsigned int tick)
{
	return tick & 1 ? IB_UVERBS_ACCESS_LOCAL_WRITE :
		       IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ;
}

static int lib_rereg_mr(struct env *e, int i)
{
	UVIO_OPTS(uvio_rereg_mr_attr, attr, .flags = UVIO_MR_REREG_ACCESS,
		  .access = rereg_access(e->tick));
	UVIO_OPTS(uvio_mr, keys);

	(void)i;
	return uvio_rereg_mr(e->dev, e->mr, &attr, NULL, &keys, NULL);
}

static int fl_rereg_mr(struct env *e, int i)
{
	struct ib_uverbs_rereg_mr c = {
		.mr_handle = e->mr,
		.flags = UVIO_MR_REREG_ACCESS,
		.access_flags = rereg_access(e->tick),
	};
	struct {
		struct ib_uverbs_rereg_mr_resp r;
		uint8_t drv[FL_DRV_OUT];
	} r;

	(void)i;
	return FL_CMD_OF(e, IB_USER_VERBS_CMD_REREG_MR, c, &r, FL_DRV_OUT);
}

static int lib_query_mr(struct env *e, int i)
{
	UVIO_OPTS(uvio_mr_info, info);

	(void)i;
	return uvio_query_mr(e->dev, e->mr, &info, NULL);
}

static int fl_query_mr(struct env *e, int i)
{
	FL_CMD(c, 5);
	uint32_t lkey, rkey;
	uint64_t length, iova;

	(void)i;
	fl_begin(&c, sizeof(c), UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_QUERY_MR_HANDLE, 0, e->mr);
	fl_attr_out(&c.a[1], UVERBS_ATTR_QUERY_MR_RESP_LKEY, &lkey, 4);
	fl_attr_out(&c.a[2], UVERBS_ATTR_QUERY_MR_RESP_RKEY, &rkey, 4);
	fl_attr_out(&c.a[3], UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &length, 8);
	fl_attr_out(&c.a[4], UVERBS_ATTR_QUERY_MR_RESP_IOVA, &iova, 8);
	return fl_ioctl(e->fd, &c);
}

/* ================= MW ================= */

static int lib_alloc_mw(struct env *e, int i)
{
	UVIO_OPTS(uvio_mw, mw);
	UVIO_OPTS(uvio_mw_attr, ma, .pd_handle = e->pd, .type = 1);
	int ret = uvio_alloc_mw(e->dev, &ma, NULL, &mw, NULL);

	e->h[i] = mw.handle;
	return ret;
}

static int fl_alloc_mw(struct env *e, int i)
{
	struct ib_uverbs_alloc_mw c = { .pd_handle = e->pd, .mw_type = 1 };
	struct {
		struct ib_uverbs_alloc_mw_resp r;
		uint8_t drv[FL_DRV_OUT];
	} r;
	int ret = FL_CMD_OF(e, IB_USER_VERBS_CMD_ALLOC_MW, c, &r, FL_DRV_OUT);

	e->h[i] = r.r.mw_handle;
	return ret;
}

static int lib_dealloc_mw(struct env *e, int i)
{
	return uvio_dealloc_mw(e->dev, e->h[i], NULL);
}

static int fl_dealloc_mw(struct env *e, int i)
{
	if (e->use_write) {
		struct ib_uverbs_dealloc_mw c = { .mw_handle = e->h[i] };

		return fl_write(e->fd, IB_USER_VERBS_CMD_DEALLOC_MW, &c, sizeof(c), NULL, 0, NULL,
				0, 0);
	}
	FL_CMD(c, 1);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_MW_HANDLE, 0, e->h[i]);
	return fl_ioctl(e->fd, &c);
}

/* ================= AH ================= */

static void ah_av(const struct env *e, struct ib_uverbs_ah_attr *av)
{
	memset(av, 0, sizeof(*av));
	memcpy(av->grh.dgid, e->gid, 16);
	av->grh.sgid_index = (uint8_t)e->gid_index;
	av->grh.hop_limit = 1;
	av->is_global = 1;
	av->port_num = BQ_PORT_NUM;
}

static int lib_create_ah(struct env *e, int i)
{
	UVIO_OPTS(uvio_ah_attr, attr, .pd_handle = e->pd,
		  .av = { .sgid_index = (uint8_t)e->gid_index, .hop_limit = 1, .is_global = 1,
			  .port_num = BQ_PORT_NUM });

	memcpy(attr.av.dgid, e->gid, 16);
	return uvio_create_ah(e->dev, &attr, NULL, &e->h[i], NULL);
}

static int fl_create_ah(struct env *e, int i)
{
	struct ib_uverbs_create_ah c = { .pd_handle = e->pd };
	struct {
		struct ib_uverbs_create_ah_resp r;
		uint8_t drv[FL_DRV_OUT];
	} r;
	int ret;

	ah_av(e, &c.attr);
	ret = FL_CMD_OF(e, IB_USER_VERBS_CMD_CREATE_AH, c, &r, FL_DRV_OUT);
	e->h[i] = r.r.ah_handle;
	return ret;
}

static int lib_destroy_ah(struct env *e, int i)
{
	return uvio_destroy_ah(e->dev, e->h[i], NULL);
}

static int fl_destroy_ah(struct env *e, int i)
{
	if (e->use_write) {
		struct ib_uverbs_destroy_ah c = { .ah_handle = e->h[i] };

		return fl_write(e->fd, IB_USER_VERBS_CMD_DESTROY_AH, &c, sizeof(c), NULL, 0, NULL,
				0, 0);
	}
	FL_CMD(c, 1);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_AH_HANDLE, 0, e->h[i]);
	return fl_ioctl(e->fd, &c);
}

/* ================= SRQ ================= */

static int lib_create_srq(struct env *e, int i)
{
	UVIO_OPTS(uvio_srq_attr, attr, .pd_handle = e->pd, .max_wr = 16, .max_sge = 1);
	UVIO_OPTS(uvio_srq, srq);
	int ret = uvio_create_srq(e->dev, &attr, NULL, &srq, NULL);

	e->h[i] = srq.handle;
	return ret;
}

static int fl_create_srq(struct env *e, int i)
{
	if (e->use_write) {
		struct ib_uverbs_create_srq c = { .pd_handle = e->pd, .max_wr = 16, .max_sge = 1 };
		struct {
			struct ib_uverbs_create_srq_resp r;
			uint8_t drv[FL_DRV_OUT];
		} r;
		int ret = FL_CMD_OF(e, IB_USER_VERBS_CMD_CREATE_SRQ, c, &r, FL_DRV_OUT);

		e->h[i] = r.r.srq_handle;
		return ret;
	}
	FL_CMD(c, 11);
	uint32_t max_wr, max_sge, srqn;
	uint64_t drv[FL_DRV_OUT / 8];
	int ret;

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_CREATE_SRQ_HANDLE, 0, 0);
	fl_attr(&c.a[1], UVERBS_ATTR_CREATE_SRQ_PD_HANDLE, 0, e->pd);
	fl_attr(&c.a[2], UVERBS_ATTR_CREATE_SRQ_TYPE, 8, IB_UVERBS_SRQT_BASIC);
	fl_attr(&c.a[3], UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 8, 0);
	fl_attr(&c.a[4], UVERBS_ATTR_CREATE_SRQ_MAX_WR, 4, 16);
	fl_attr(&c.a[5], UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 4, 1);
	fl_attr(&c.a[6], UVERBS_ATTR_CREATE_SRQ_LIMIT, 4, 0);
	fl_attr_out(&c.a[7], UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &max_wr, 4);
	fl_attr_out(&c.a[8], UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &max_sge, 4);
	fl_attr_out(&c.a[9], UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, &srqn, 4);
	c.a[9].flags = 0;	/* filled for XRC only */
	fl_attr_out(&c.a[10], UVERBS_ATTR_UHW_OUT, drv, sizeof(drv));
	ret = fl_ioctl(e->fd, &c);
	e->h[i] = (uint32_t)c.a[0].data;
	return ret;
}

static int lib_destroy_srq(struct env *e, int i)
{
	return uvio_destroy_srq(e->dev, e->h[i], NULL, NULL);
}

static int fl_destroy_srq(struct env *e, int i)
{
	struct ib_uverbs_destroy_srq_resp r;

	if (e->use_write) {
		struct ib_uverbs_destroy_srq c = { .srq_handle = e->h[i] };

		return FL_CMD_OF(e, IB_USER_VERBS_CMD_DESTROY_SRQ, c, &r, 0);
	}
	FL_CMD(c, 2);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_SRQ_HANDLE, 0, e->h[i]);
	fl_attr_out(&c.a[1], UVERBS_ATTR_DESTROY_SRQ_RESP, &r, sizeof(r));
	return fl_ioctl(e->fd, &c);
}

/* The limit moves within max_wr, arming the SRQ each time. */
static uint32_t srq_limit(unsigned int tick)
{
	return 1 + (tick & 3);
}

/* rxe reads 8 bytes of driver input (struct rxe_modify_srq_cmd, where a
 * resize would say where to map the new ring); zero here. */
static const uint64_t rxe_modify_srq_in;

static int lib_modify_srq(struct env *e, int i)
{
	UVIO_OPTS(uvio_srq_modify, m, .attr_mask = UVIO_SRQ_LIMIT, .srq_limit = srq_limit(e->tick));
	UVIO_OPTS(uvio_drv, d, .in = &rxe_modify_srq_in, .in_len = sizeof(rxe_modify_srq_in));

	(void)i;
	return uvio_modify_srq(e->dev, e->srq, &m, e->siw ? NULL : &d, NULL);
}

static int fl_modify_srq(struct env *e, int i)
{
	struct ib_uverbs_modify_srq c = {
		.srq_handle = e->srq, .attr_mask = UVIO_SRQ_LIMIT, .srq_limit = srq_limit(e->tick),
	};
	size_t in_len = e->siw ? 0 : sizeof(rxe_modify_srq_in);

	(void)i;
	if (e->use_write)
		return fl_write(e->fd, IB_USER_VERBS_CMD_MODIFY_SRQ, &c, sizeof(c),
				&rxe_modify_srq_in, in_len, NULL, 0, 0);
	return fl_invoke(e->fd, e->did, IB_USER_VERBS_CMD_MODIFY_SRQ, &c, sizeof(c),
			 &rxe_modify_srq_in, in_len, NULL, 0, 0);
}

static int lib_query_srq(struct env *e, int i)
{
	UVIO_OPTS(uvio_srq_state, s);

	(void)i;
	return uvio_query_srq(e->dev, e->srq, &s, NULL);
}

static int fl_query_srq(struct env *e, int i)
{
	struct ib_uverbs_query_srq c = { .srq_handle = e->srq };
	struct ib_uverbs_query_srq_resp r;

	(void)i;
	return FL_CMD_OF(e, IB_USER_VERBS_CMD_QUERY_SRQ, c, &r, 0);
}

/* ================= QP ================= */

static void qp_init_attr(const struct env *e, struct uvio_qp_init_attr *a, uint32_t type)
{
	memset(a, 0, sizeof(*a));
	a->sz = sizeof(*a);
	a->type = type;
	a->pd_handle = e->pd;
	a->send_cq_handle = e->cq;
	a->recv_cq_handle = e->cq;
	a->cap.max_send_wr = BQ_CAP_WR;
	a->cap.max_recv_wr = BQ_CAP_WR;
	a->cap.max_send_sge = BQ_CAP_SGE;
	a->cap.max_recv_sge = BQ_CAP_SGE;
}

static int lib_create_qp_type(struct env *e, uint32_t *handle, uint32_t *qpn, uint32_t type)
{
	struct uvio_qp_init_attr attr;
	UVIO_OPTS(uvio_qp, qp);
	int ret;

	qp_init_attr(e, &attr, type);
	ret = uvio_create_qp(e->dev, &attr, NULL, &qp, NULL);
	*handle = qp.handle;
	if (qpn)
		*qpn = qp.qp_num;
	return ret;
}

static int fl_create_qp_type(struct env *e, uint32_t *handle, uint32_t *qpn, uint32_t type)
{
	return fl_create_qp_fd(e->fd, e->did, e->use_write, e->pd, e->cq, type, handle, qpn);
}

static int lib_create_qp(struct env *e, int i)
{
	return lib_create_qp_type(e, &e->h[i], NULL, IB_UVERBS_QPT_RC);
}

static int fl_create_qp(struct env *e, int i)
{
	return fl_create_qp_type(e, &e->h[i], NULL, IB_UVERBS_QPT_RC);
}

static int lib_destroy_qp_h(struct env *e, uint32_t h)
{
	return uvio_destroy_qp(e->dev, h, NULL, NULL);
}

static int fl_destroy_qp_h(struct env *e, uint32_t h)
{
	struct ib_uverbs_destroy_qp_resp r;

	if (e->use_write) {
		struct ib_uverbs_destroy_qp c = { .qp_handle = h };

		return FL_CMD_OF(e, IB_USER_VERBS_CMD_DESTROY_QP, c, &r, 0);
	}
	FL_CMD(c, 2);

	fl_begin(&c, sizeof(c), UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY, e->did);
	fl_attr(&c.a[0], UVERBS_ATTR_DESTROY_QP_HANDLE, 0, h);
	fl_attr_out(&c.a[1], UVERBS_ATTR_DESTROY_QP_RESP, &r, sizeof(r));
	return fl_ioctl(e->fd, &c);
}

static int lib_destroy_qp(struct env *e, int i)
{
	return lib_destroy_qp_h(e, e->h[i]);
}

static int fl_destroy_qp(struct env *e, int i)
{
	return fl_destroy_qp_h(e, e->h[i]);
}

/* The three transitions of the bring-up, in both encodings. */
static void lib_qp_step(const struct env *e, int step, uint32_t qpn, struct uvio_qp_attr *a)
{
	bq_uvio_step(step, qpn, e->gid, (uint8_t)e->gid_index, a);
}

static void fl_qp_step(const struct env *e, int step, uint32_t h, uint32_t qpn,
		       struct ib_uverbs_modify_qp *c)
{
	fl_qp_step_fill(step, h, qpn, e->gid, e->gid_index, c);
}

static int fl_modify_qp_cmd(struct env *e, const struct ib_uverbs_modify_qp *c)
{
	return fl_modify_qp_fd(e->fd, e->did, e->use_write, c);
}

/* QP.MODIFY on its own: INIT -> INIT, access flags back and forth. */
static int lib_modify_qp(struct env *e, int i)
{
	struct uvio_qp_attr a;

	(void)i;
	lib_qp_step(e, 0, 0, &a);
	a.qp_access_flags = e->tick & 1 ? BQ_ACCESS : IB_UVERBS_ACCESS_LOCAL_WRITE;
	return uvio_modify_qp(e->dev, e->qp, &a, NULL, NULL);
}

static int fl_modify_qp(struct env *e, int i)
{
	struct ib_uverbs_modify_qp c;

	(void)i;
	fl_qp_step(e, 0, e->qp, 0, &c);
	c.qp_access_flags = e->tick & 1 ? BQ_ACCESS : IB_UVERBS_ACCESS_LOCAL_WRITE;
	return fl_modify_qp_cmd(e, &c);
}

static int lib_query_qp(struct env *e, int i)
{
	UVIO_OPTS(uvio_qp_attr, a);

	(void)i;
	return uvio_query_qp(e->dev, e->qp, BQ_STATE, &a, NULL);
}

static int fl_query_qp(struct env *e, int i)
{
	struct ib_uverbs_query_qp c = { .qp_handle = e->qp, .attr_mask = BQ_STATE };
	struct ib_uverbs_query_qp_resp r;

	(void)i;
	return FL_CMD_OF(e, IB_USER_VERBS_CMD_QUERY_QP, c, &r, 0);
}

/* Multicast: a group per call on the UD QP, then each left again. */
static void mgid(int i, uint8_t gid[16])
{
	memset(gid, 0, 16);
	gid[0] = 0xff;
	gid[1] = 0x0e;
	gid[14] = (uint8_t)(i >> 8);
	gid[15] = (uint8_t)(i + 1);
}

static int lib_attach_mcast(struct env *e, int i)
{
	uint8_t gid[16];

	mgid(i, gid);
	return uvio_attach_mcast(e->dev, e->ud_qp, gid, 0, NULL);
}

static int lib_detach_mcast(struct env *e, int i)
{
	uint8_t gid[16];

	mgid(i, gid);
	return uvio_detach_mcast(e->dev, e->ud_qp, gid, 0, NULL);
}

static int fl_mcast(struct env *e, int i, uint32_t command)
{
	struct ib_uverbs_attach_mcast c = { .qp_handle = e->ud_qp };

	mgid(i, c.gid);
	if (e->use_write)
		return fl_write(e->fd, command, &c, sizeof(c), NULL, 0, NULL, 0, 0);
	return fl_invoke(e->fd, e->did, command, &c, sizeof(c), NULL, 0, NULL, 0, 0);
}

static int fl_attach_mcast(struct env *e, int i)
{
	return fl_mcast(e, i, IB_USER_VERBS_CMD_ATTACH_MCAST);
}

static int fl_detach_mcast(struct env *e, int i)
{
	return fl_mcast(e, i, IB_USER_VERBS_CMD_DETACH_MCAST);
}

/* ================= data path ================= */

static int lib_req_notify(struct env *e, int i)
{
	(void)i;
	return uvio_req_notify_cq(e->dev, e->cq, (int)(e->tick & 1), NULL);
}

static int fl_req_notify(struct env *e, int i)
{
	struct ib_uverbs_req_notify_cq c = { .cq_handle = e->cq, .solicited_only = e->tick & 1 };

	(void)i;
	if (e->use_write)
		return fl_write(e->fd, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &c, sizeof(c), NULL, 0, NULL,
				0, 0);
	return fl_invoke(e->fd, e->did, IB_USER_VERBS_CMD_REQ_NOTIFY_CQ, &c, sizeof(c), NULL, 0,
			 NULL, 0, 0);
}

/* The doorbell of a user QP's send queue: no work requests, the QP in RTS
 * (the kernel tells the driver to look at the ring, which is empty). */
static int lib_post_send(struct env *e, int i)
{
	uint32_t bad;

	(void)i;
	return uvio_post_send(e->dev, e->rts_qp, NULL, 0, NULL, 0, &bad, NULL);
}

static int fl_post_send(struct env *e, int i)
{
	struct ib_uverbs_post_send c = {
		.qp_handle = e->rts_qp, .wqe_size = sizeof(struct ib_uverbs_send_wr),
	};
	struct ib_uverbs_post_send_resp r;

	(void)i;
	return FL_CMD_OF(e, IB_USER_VERBS_CMD_POST_SEND, c, &r, 0);
}

/* ================= verbs rxe and siw do not implement =================
 * Called once each to record the device's answer; not timed. */

static int probe_query_context(struct env *e)
{
	UVIO_OPTS(uvio_context_info, info);

	return uvio_query_context(e->dev, &info, NULL);
}

static int probe_modify_cq(struct env *e)
{
	UVIO_OPTS(uvio_cq_moderation, m, .cq_handle = e->cq, .count = 1, .period = 1);

	return uvio_modify_cq(e->dev, &m, NULL);
}

static int probe_open_xrcd(struct env *e)
{
	uint32_t h;
	int ret = uvio_open_xrcd(e->dev, -1, O_CREAT, NULL, &h, NULL);

	if (!ret)
		uvio_close_xrcd(e->dev, h, NULL);
	return ret;
}

static int probe_advise_mr(struct env *e)
{
	struct ib_uverbs_sge sge = { (uintptr_t)e->buf, (uint32_t)e->buf_len, 0 };

	return uvio_advise_mr(e->dev, e->pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH, 0, &sge, 1,
			      NULL);
}

static int probe_alloc_dm(struct env *e)
{
	UVIO_OPTS(uvio_dm_attr, attr, .length = 4096);
	uint32_t h;
	int ret = uvio_alloc_dm(e->dev, &attr, NULL, &h, NULL);

	if (!ret)
		uvio_free_dm(e->dev, h, NULL);
	return ret;
}

static int probe_create_wq(struct env *e)
{
	UVIO_OPTS(uvio_wq_attr, attr, .pd_handle = e->pd, .cq_handle = e->cq, .max_wr = 16,
		  .max_sge = 1);
	UVIO_OPTS(uvio_wq, wq);
	int ret = uvio_create_wq(e->dev, &attr, NULL, &wq, NULL);

	if (!ret)
		uvio_destroy_wq(e->dev, wq.handle, NULL, NULL);
	return ret;
}

static int probe_create_counters(struct env *e)
{
	uint32_t h;
	int ret = uvio_create_counters(e->dev, NULL, &h, NULL);

	if (!ret)
		uvio_destroy_counters(e->dev, h, NULL);
	return ret;
}

static int probe_post_recv(struct env *e)
{
	uint32_t bad;

	return uvio_post_recv(e->dev, e->qp, NULL, 0, NULL, 0, &bad, NULL);
}

static int probe_post_srq_recv(struct env *e)
{
	uint32_t bad;

	return uvio_post_srq_recv(e->dev, e->srq, NULL, 0, NULL, 0, &bad, NULL);
}

static int probe_poll_cq(struct env *e)
{
	struct ib_uverbs_wc wc[1];
	uint32_t n;

	return uvio_poll_cq(e->dev, e->cq, wc, 1, &n, NULL);
}

const struct probe bench_probes[] = {
	{ "DEVICE.QUERY_CONTEXT", probe_query_context },
	{ "CQ.MODIFY", probe_modify_cq },
	{ "CQ.POLL", probe_poll_cq },
	{ "QP.POST_RECV", probe_post_recv },
	{ "SRQ.POST_RECV", probe_post_srq_recv },
	{ "XRCD.OPEN", probe_open_xrcd },
	{ "MR.ADVISE", probe_advise_mr },
	{ "DM.ALLOC", probe_alloc_dm },
	{ "WQ.CREATE", probe_create_wq },
	{ "COUNTERS.CREATE", probe_create_counters },
};
const int bench_n_probes = (int)(sizeof(bench_probes) / sizeof(bench_probes[0]));

/* Verbs that need an object neither device can make: listed, not run. */
const char *const bench_not_run[] = {
	"QP.OPEN (an XRC domain)", "XRCD.DESTROY (an XRC domain)",
	"DM.FREE, MR.DM_REG (device memory)", "MR.REG_DMABUF (a dma-buf exporter)",
	"WQ.MODIFY, WQ.DESTROY, RWQ_IND_TBL.CREATE/DESTROY (a WQ)",
	"FLOW.CREATE/DESTROY (a raw packet QP)",
	"FLOW_ACTION.ESP_CREATE/ESP_MODIFY/DESTROY (an IPsec offload)",
	"COUNTERS.DESTROY, COUNTERS.READ (a counters object)",
	NULL,
};

/* ================= the table ================= */

#define V(name, fn) { name, lib_##fn, fl_##fn }
const struct group bench_groups[] = {
	{ { V("DEVICE.GET_CONTEXT", get_context) }, 1, 0 },
	{ { V("DEVICE.QUERY", query_device) }, 1, 0 },
	{ { V("DEVICE.EX_QUERY", query_device_ex) }, 1, 0 },
	{ { V("DEVICE.QUERY_PORT", query_port) }, 1, 0 },
	{ { V("DEVICE.QUERY_GID_ENTRY", gid_entry) }, 1, G_NATIVE_ONLY | G_NEEDS_GID },
	{ { V("DEVICE.QUERY_GID_TABLE", gid_table) }, 1, G_NATIVE_ONLY },
	{ { V("DEVICE.INFO_HANDLES", info_handles) }, 1, G_NATIVE_ONLY },
	{ { V("COMP_CHANNEL.CREATE", comp_channel) }, 1, 0 },
	{ { V("PD.ALLOC", alloc_pd), V("PD.DESTROY", dealloc_pd) }, 2, 0 },
	{ { V("CQ.CREATE", create_cq), V("CQ.DESTROY", destroy_cq) }, 2, 0 },
	{ { V("CQ.RESIZE", resize_cq) }, 1, 0 },
	{ { V("MR.REG", reg_mr), V("MR.DESTROY", dereg_mr) }, 2, 0 },
	{ { V("MR.REREG", rereg_mr) }, 1, G_NEEDS_MR },
	{ { V("MR.QUERY", query_mr) }, 1, G_NATIVE_ONLY | G_NEEDS_MR },
	{ { V("MW.ALLOC", alloc_mw), V("MW.DESTROY", dealloc_mw) }, 2, 0 },
	{ { V("AH.CREATE", create_ah), V("AH.DESTROY", destroy_ah) }, 2, G_NEEDS_GID },
	{ { V("SRQ.CREATE", create_srq), V("SRQ.DESTROY", destroy_srq) }, 2, 0 },
	{ { V("SRQ.MODIFY", modify_srq) }, 1, G_NEEDS_SRQ },
	{ { V("SRQ.QUERY", query_srq) }, 1, G_NEEDS_SRQ },
	{ { V("QP.CREATE", create_qp), V("QP.DESTROY", destroy_qp) }, 2, 0 },
	{ { V("QP.MODIFY", modify_qp) }, 1, G_NEEDS_QP },
	{ { V("QP.QUERY", query_qp) }, 1, G_NEEDS_QP },
	{ { V("QP.ATTACH_MCAST", attach_mcast), V("QP.DETACH_MCAST", detach_mcast) }, 2,
	  G_NEEDS_UD_QP },
	{ { V("CQ.REQ_NOTIFY", req_notify) }, 1, 0 },
	{ { V("QP.POST_SEND", post_send) }, 1, G_NEEDS_RTS_QP },
};
const int bench_n_groups = (int)(sizeof(bench_groups) / sizeof(bench_groups[0]));

/* ================= sequences ================= */

/* QP bring-up: create, INIT, RTR, RTS, destroy. */
int seq_qp_lib(struct env *e)
{
	struct uvio_qp_attr a;
	uint32_t h, qpn;
	int ret = lib_create_qp_type(e, &h, &qpn, IB_UVERBS_QPT_RC);

	for (int s = 0; !ret && s < 3; s++) {
		lib_qp_step(e, s, qpn, &a);
		ret = uvio_modify_qp(e->dev, h, &a, NULL, NULL);
	}
	if (ret)
		return ret;
	return lib_destroy_qp_h(e, h);
}

int seq_qp_floor(struct env *e)
{
	struct ib_uverbs_modify_qp c;
	uint32_t h, qpn;
	int ret = fl_create_qp_type(e, &h, &qpn, IB_UVERBS_QPT_RC);

	for (int s = 0; !ret && s < 3; s++) {
		fl_qp_step(e, s, h, qpn, &c);
		ret = fl_modify_qp_cmd(e, &c);
	}
	if (ret)
		return ret;
	return fl_destroy_qp_h(e, h);
}

int seq_cq_lib(struct env *e)
{
	int ret = lib_create_cq(e, 0);

	return ret ? ret : lib_destroy_cq(e, 0);
}

int seq_cq_floor(struct env *e)
{
	int ret = fl_create_cq(e, 0);

	return ret ? ret : fl_destroy_cq(e, 0);
}

/* ================= the environment ================= */

int env_open(struct env *e, const char *name, int use_write)
{
	UVIO_OPTS(uvio_context, ctx);
	struct uvio_device_info info;
	struct uvio_qp_attr a;
	struct uvio_gid_entry g;
	uint32_t qpn;
	int ret;

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->use_write = use_write;
	ret = uvio_find_device(name, &info);
	if (ret)
		return ret;
	snprintf(e->node, sizeof(e->node), "%s", info.path);
	ret = uvio_device_open(name, &e->dev);
	if (ret)
		return ret;
	if (use_write)
		uvio_device_set_path(e->dev, UVIO_PATH_WRITE);
	ret = uvio_get_context(e->dev, NULL, &ctx, NULL);
	if (ret)
		return ret;
	e->fd = uvio_device_fd(e->dev);
	e->did = uvio_device_driver_id(e->dev);
	e->siw = e->did == 18;	/* RDMA_DRIVER_SIW */
	e->buf_len = 4096;
	e->buf = mmap(NULL, e->buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (e->buf == MAP_FAILED)
		return -ENOMEM;
	memset(e->buf, 1, e->buf_len);
	ret = uvio_alloc_pd(e->dev, NULL, &e->pd, NULL);
	if (!ret)
		ret = lib_create_cq(e, 0);
	e->cq = e->h[0];
	if (!ret)
		ret = lib_create_cq(e, 0);
	e->cq_resize = e->h[0];
	if (ret)
		return ret;
	/* The GID the AVs name: the IPv4-mapped one where there is one. The
	 * GID methods have no write() form: asked on the ioctl path. */
	uvio_device_set_path(e->dev, UVIO_PATH_AUTO);
	for (uint32_t idx = BQ_GID_INDEX + 1; idx-- > 0 && !e->have_gid;)
		if (!uvio_query_gid_entry(e->dev, BQ_PORT_NUM, idx, &g, NULL)) {
			memcpy(e->gid, g.gid, 16);
			e->gid_index = idx;
			e->have_gid = 1;
		}
	if (use_write)
		uvio_device_set_path(e->dev, UVIO_PATH_WRITE);
	/* Objects some verbs work on; a device without them skips those. */
	if (!lib_create_qp_type(e, &e->qp, &e->qpn, IB_UVERBS_QPT_RC)) {
		lib_qp_step(e, 0, 0, &a);
		e->have_qp = !uvio_modify_qp(e->dev, e->qp, &a, NULL, NULL);
	}
	/* An RC QP in RTS, connected to itself, for the send doorbell. */
	if (e->have_gid && !lib_create_qp_type(e, &e->rts_qp, &qpn, IB_UVERBS_QPT_RC)) {
		int s, ok = 1;

		for (s = 0; ok && s < 3; s++) {
			lib_qp_step(e, s, qpn, &a);
			ok = !uvio_modify_qp(e->dev, e->rts_qp, &a, NULL, NULL);
		}
		e->have_rts_qp = ok;
	}
	e->have_ud_qp = !lib_create_qp_type(e, &e->ud_qp, NULL, IB_UVERBS_QPT_UD);
	e->have_srq = !lib_create_srq(e, 0);
	e->srq = e->h[0];
	e->have_mr = !lib_reg_mr(e, 0);
	e->mr = e->h[0];
	return 0;
}

void env_close(struct env *e)
{
	if (e->dev)
		uvio_device_close(e->dev);
	if (e->buf && e->buf != MAP_FAILED)
		munmap(e->buf, e->buf_len);
	e->dev = NULL;
}
