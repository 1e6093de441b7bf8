/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: mlx5 (ConnectX-4 and later) beside the verbs.
 *
 * On an mlx5 device the verbs need no driver data from the caller: given
 * none (drv NULL), uvio_get_context(), uvio_alloc_pd(), uvio_create_cq(),
 * uvio_resize_cq(), uvio_create_qp() (RC, UC, UD), uvio_create_srq() (basic)
 * and uvio_create_ah() send what mlx5_ib requires, as rdma-core's libmlx5
 * sends it: the context asks for dynamic UARs and CQE version 1, and the
 * library maps one doorbell (UAR) page for all CQs and QPs; each CQ, QP and
 * SRQ gets a queue buffer in whole pages, sized by mlx5's rules, and a
 * doorbell record; destroying the object (or closing the device) frees them.
 * A caller who passes struct uvio_drv sends its own driver data instead, and
 * the library allocates nothing for that object.
 *
 * The library's data path (<uvio/dp.h>) posts and polls on these queues;
 * the two queries below tell where the library put things, for it and for
 * a caller who writes its own.
 *
 * Both structs are outputs sized by the caller (sz first, as UVIO_OPTS):
 * fields past sz are not written. They answer -ENODEV on a device that is
 * not mlx5, -ENOENT where the library made no context (an adopted fd) or
 * keeps no such object (one made with the caller's driver data).
 */
#ifndef UVIO_MLX5_H
#define UVIO_MLX5_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What GET_CONTEXT answered (struct mlx5_ib_alloc_ucontext_resp), and the
 * doorbell page the library mapped. */
struct uvio_mlx5_context {
	size_t sz;
	uint32_t cqe_version;
	uint32_t tot_bfregs;		/* static blue-flame registers; 0 with dynamic UARs */
	uint32_t num_dyn_bfregs;
	uint32_t bf_reg_size;
	uint32_t cache_line_size;
	uint32_t max_sq_desc_sz;
	uint32_t max_rq_desc_sz;
	uint32_t max_send_wqebb;
	uint32_t max_recv_wr;
	uint32_t max_srq_recv_wr;
	uint32_t qp_tab_size;
	uint32_t num_ports;
	uint32_t cmds_supp_uhw;		/* enum mlx5_user_cmds_supp_uhw */
	uint32_t eth_min_inline;	/* enum mlx5_user_inline_mode */
	uint32_t log_uar_size;
	uint32_t num_uars_per_page;
	uint32_t comp_mask;		/* enum mlx5_ib_alloc_ucontext_resp_mask */
	uint32_t flow_action_flags;
	uint32_t clock_info_versions;
	uint32_t dump_fill_mkey;
	uint64_t hca_core_clock_offset;
	void *uar;			/* mapped doorbell page; NULL when none */
	uint32_t uar_page_id;		/* dynamic UARs: the UAR object's page */
	uint32_t dynamic_uar;		/* 1: a UAR object; 0: the static pages */
};

UVIO_API int uvio_mlx5_query_context(struct uvio_device *dev, struct uvio_mlx5_context *ctx);

/* What the library keeps for one object it made the driver data of. */
struct uvio_mlx5_object {
	size_t sz;
	uint32_t num;			/* PD: pdn; CQ: cqn; SRQ: srqn */
	uint32_t uidx;			/* QP: user index (0xffffff: none) */
	void *buf;			/* CQ, QP, SRQ: the queue the kernel pinned */
	size_t buf_len;
	volatile uint32_t *dbrec;	/* CQ, QP, SRQ: doorbell record */
	uint32_t cqe_size, ncqe;	/* CQ */
	uint32_t rq_wqe_cnt, rq_wqe_shift;	/* QP's receive queue; SRQ's entries */
	uint32_t sq_wqe_cnt;		/* QP: 64-byte send blocks */
	uint32_t sq_offset;		/* QP: where the send queue starts in buf */
	uint32_t bfreg_index;		/* QP: the kernel's answer */
	uint32_t flags;			/* QP: the mlx5 create flags sent */
	uint8_t dmac[6];		/* AH (RoCE): the destination MAC the kernel gave */
	uint16_t reserved;
	/* QP: the register its doorbell goes to, the first blue-flame
	 * register of the UAR page (page + 0x800), shared by every QP the
	 * library made on this device handle; NULL with static UAR pages
	 * (kernels before dynamic UARs: the kernel's bfreg_index names it).
	 * CQ: the page's CQ doorbell (page + 0x20), where an arm goes. Both lie
	 * in the context's mapped page (uvio_mlx5_query_context). */
	volatile void *reg;
	/* QP: the bytes one blue-flame write may hold (bf_reg_size / 2): the
	 * register is two halves of this size, and a writer alternates between
	 * them (offset ^= bf_size after each doorbell, as libmlx5 does). 0:
	 * the context has no blue-flame registers. */
	uint32_t bf_size;
	/* QP: 1 when the page is mapped write-combining (a blue-flame UAR):
	 * a WQE of at most bf_size bytes may then be copied whole into the
	 * register. 0: the page is non-cached (the library asks for that
	 * first), and a doorbell is the control segment's first 8 bytes in
	 * one store, as libmlx5 rings such a page. A copy is several stores
	 * on a register every QP of the handle shares: threads ringing it at
	 * once must take turns. */
	uint32_t bf_wc;
};

/* object: UVERBS_OBJECT_PD, _CQ, _QP, _SRQ or _AH. */
UVIO_API int uvio_mlx5_query_object(struct uvio_device *dev, uint16_t object, uint32_t handle,
				    struct uvio_mlx5_object *obj);

#ifdef __cplusplus
}
#endif

#endif
