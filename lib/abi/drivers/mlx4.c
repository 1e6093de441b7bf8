// SPDX-License-Identifier: MIT
/*
 * mlx4 (RDMA_DRIVER_MLX4, ConnectX-3) described as data: its driver data
 * (<rdma/mlx4-abi.h>), as mlx4_ib uses it: the context (v4 answer), the PD
 * number, the buffers and doorbells of CREATE_CQ, RESIZE_CQ, CREATE_SRQ,
 * CREATE_QP (or the RSS request for a QP over an indirection table) and
 * CREATE_WQ, MODIFY_WQ's mask, and EX_QUERY_DEVICE's capabilities. No ioctl
 * namespace. The header is 5.10's, unchanged since.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/mlx4-abi.h>

#include "abi/abi.h"

typedef struct mlx4_ib_alloc_ucontext_resp mlx4_ib_alloc_ucontext_resp;
typedef struct mlx4_ib_alloc_pd_resp mlx4_ib_alloc_pd_resp;
typedef struct mlx4_ib_create_cq mlx4_ib_create_cq;
typedef struct mlx4_ib_create_cq_resp mlx4_ib_create_cq_resp;
typedef struct mlx4_ib_resize_cq mlx4_ib_resize_cq;
typedef struct mlx4_ib_create_srq mlx4_ib_create_srq;
typedef struct mlx4_ib_create_srq_resp mlx4_ib_create_srq_resp;
typedef struct mlx4_ib_create_qp_rss mlx4_ib_create_qp_rss;
typedef struct mlx4_ib_create_qp mlx4_ib_create_qp;
typedef struct mlx4_ib_create_wq mlx4_ib_create_wq;
typedef struct mlx4_ib_modify_wq mlx4_ib_modify_wq;
typedef struct mlx4_ib_create_rwq_ind_tbl_resp mlx4_ib_create_rwq_ind_tbl_resp;
typedef struct mlx4_ib_rss_caps mlx4_ib_rss_caps;
typedef struct mlx4_ib_tso_caps mlx4_ib_tso_caps;
typedef struct mlx4_uverbs_ex_query_device_resp mlx4_uverbs_ex_query_device_resp;

_Static_assert(sizeof(mlx4_ib_alloc_ucontext_resp) == 16 &&
	       sizeof(mlx4_ib_alloc_pd_resp) == 8 &&
	       sizeof(mlx4_ib_create_cq) == 16 &&
	       sizeof(mlx4_ib_create_cq_resp) == 8 &&
	       sizeof(mlx4_ib_resize_cq) == 8 &&
	       sizeof(mlx4_ib_create_srq) == 16 &&
	       sizeof(mlx4_ib_create_srq_resp) == 8 &&
	       sizeof(mlx4_ib_create_qp_rss) == 64 &&
	       sizeof(mlx4_ib_create_qp) == 24 &&
	       sizeof(mlx4_ib_create_wq) == 24 &&
	       sizeof(mlx4_ib_modify_wq) == 8 &&
	       sizeof(mlx4_ib_create_rwq_ind_tbl_resp) == 8 &&
	       sizeof(mlx4_ib_rss_caps) == 16 &&
	       sizeof(mlx4_ib_tso_caps) == 8 &&
	       sizeof(mlx4_uverbs_ex_query_device_resp) == 48,
	       "mlx4-abi.h struct sizes");



enum {
	VT_MLX4_FIRST = ABI_VT_DRIVER_BASE(6),
	VT_MLX4_EX_QUERY_DEVICE = VT_MLX4_FIRST,
	VT_MLX4_IB_ALLOC_UCONTEXT_RESP,
	VT_MLX4_IB_ALLOC_PD_RESP,
	VT_MLX4_IB_CREATE_CQ,
	VT_MLX4_IB_CREATE_CQ_RESP,
	VT_MLX4_IB_RESIZE_CQ,
	VT_MLX4_IB_CREATE_SRQ,
	VT_MLX4_IB_CREATE_SRQ_RESP,
	VT_MLX4_IB_CREATE_QP_RSS,
	VT_MLX4_IB_CREATE_QP,
	VT_MLX4_IB_CREATE_WQ,
	VT_MLX4_IB_MODIFY_WQ,
	VT_MLX4_IB_CREATE_RWQ_IND_TBL_RESP,
	VT_MLX4_IB_RSS_CAPS,
	VT_MLX4_IB_TSO_CAPS,
	VT_MLX4_UVERBS_EX_QUERY_DEVICE_RESP,
	VT_MLX4__END
};

static const struct abi_vtype vtypes[VT_MLX4__END - VT_MLX4_FIRST] = {
	/* EX_QUERY_DEVICE's request: mlx4_ib's struct mlx4_uverbs_ex_query_device
	 * (kernel side only) */
	STRUCT_SZ(MLX4_EX_QUERY_DEVICE, mlx4_ex_query_device, 8,
		  FO(comp_mask, 0, 4, X32), FO(reserved, 4, 4, RSVD)),
	STRUCT(MLX4_IB_ALLOC_UCONTEXT_RESP, mlx4_ib_alloc_ucontext_resp,
	       F(mlx4_ib_alloc_ucontext_resp, dev_caps, X32),
	       F(mlx4_ib_alloc_ucontext_resp, qp_tab_size, U32),
	       F(mlx4_ib_alloc_ucontext_resp, bf_reg_size, U16),
	       F(mlx4_ib_alloc_ucontext_resp, bf_regs_per_page, U16),
	       F(mlx4_ib_alloc_ucontext_resp, cqe_size, U32)),
	STRUCT(MLX4_IB_ALLOC_PD_RESP, mlx4_ib_alloc_pd_resp,
	       F(mlx4_ib_alloc_pd_resp, pdn, U32),
	       F(mlx4_ib_alloc_pd_resp, reserved, RSVD)),
	STRUCT(MLX4_IB_CREATE_CQ, mlx4_ib_create_cq,
	       F(mlx4_ib_create_cq, buf_addr, X64),
	       F(mlx4_ib_create_cq, db_addr, X64)),
	STRUCT(MLX4_IB_CREATE_CQ_RESP, mlx4_ib_create_cq_resp,
	       F(mlx4_ib_create_cq_resp, cqn, U32),
	       F(mlx4_ib_create_cq_resp, reserved, RSVD)),
	STRUCT(MLX4_IB_RESIZE_CQ, mlx4_ib_resize_cq,
	       F(mlx4_ib_resize_cq, buf_addr, X64)),
	STRUCT(MLX4_IB_CREATE_SRQ, mlx4_ib_create_srq,
	       F(mlx4_ib_create_srq, buf_addr, X64),
	       F(mlx4_ib_create_srq, db_addr, X64)),
	STRUCT(MLX4_IB_CREATE_SRQ_RESP, mlx4_ib_create_srq_resp,
	       F(mlx4_ib_create_srq_resp, srqn, U32),
	       F(mlx4_ib_create_srq_resp, reserved, RSVD)),
	STRUCT(MLX4_IB_CREATE_QP_RSS, mlx4_ib_create_qp_rss,
	       F(mlx4_ib_create_qp_rss, rx_hash_fields_mask, X64),
	       F(mlx4_ib_create_qp_rss, rx_hash_function, U8),
	       F(mlx4_ib_create_qp_rss, reserved, RSVD),
	       F(mlx4_ib_create_qp_rss, rx_hash_key, BYTES),
	       F(mlx4_ib_create_qp_rss, comp_mask, X32),
	       F(mlx4_ib_create_qp_rss, reserved1, RSVD)),
	STRUCT(MLX4_IB_CREATE_QP, mlx4_ib_create_qp,
	       F(mlx4_ib_create_qp, buf_addr, X64),
	       F(mlx4_ib_create_qp, db_addr, X64),
	       F(mlx4_ib_create_qp, log_sq_bb_count, U8),
	       F(mlx4_ib_create_qp, log_sq_stride, U8),
	       F(mlx4_ib_create_qp, sq_no_prefetch, U8),
	       F(mlx4_ib_create_qp, reserved, RSVD),
	       F(mlx4_ib_create_qp, inl_recv_sz, U32)),
	STRUCT(MLX4_IB_CREATE_WQ, mlx4_ib_create_wq,
	       F(mlx4_ib_create_wq, buf_addr, X64),
	       F(mlx4_ib_create_wq, db_addr, X64),
	       F(mlx4_ib_create_wq, log_range_size, U8),
	       F(mlx4_ib_create_wq, reserved, RSVD),
	       F(mlx4_ib_create_wq, comp_mask, X32)),
	STRUCT(MLX4_IB_MODIFY_WQ, mlx4_ib_modify_wq,
	       F(mlx4_ib_modify_wq, comp_mask, X32),
	       F(mlx4_ib_modify_wq, reserved, RSVD)),
	STRUCT(MLX4_IB_CREATE_RWQ_IND_TBL_RESP, mlx4_ib_create_rwq_ind_tbl_resp,
	       F(mlx4_ib_create_rwq_ind_tbl_resp, response_length, U32),
	       F(mlx4_ib_create_rwq_ind_tbl_resp, reserved, RSVD)),
	STRUCT(MLX4_IB_RSS_CAPS, mlx4_ib_rss_caps,
	       F(mlx4_ib_rss_caps, rx_hash_fields_mask, X64),
	       F(mlx4_ib_rss_caps, rx_hash_function, U8),
	       F(mlx4_ib_rss_caps, reserved, RSVD)),
	STRUCT(MLX4_IB_TSO_CAPS, mlx4_ib_tso_caps,
	       F(mlx4_ib_tso_caps, max_tso, U32),
	       F(mlx4_ib_tso_caps, supported_qpts, X32)),
	STRUCT(MLX4_UVERBS_EX_QUERY_DEVICE_RESP, mlx4_uverbs_ex_query_device_resp,
	       F(mlx4_uverbs_ex_query_device_resp, comp_mask, X32),
	       F(mlx4_uverbs_ex_query_device_resp, response_length, U32),
	       F(mlx4_uverbs_ex_query_device_resp, hca_core_clock_offset, X64),
	       F(mlx4_uverbs_ex_query_device_resp, max_inl_recv_sz, U32),
	       F(mlx4_uverbs_ex_query_device_resp, reserved, RSVD),
	       F(mlx4_uverbs_ex_query_device_resp, rss_caps, MLX4_IB_RSS_CAPS),
	       F(mlx4_uverbs_ex_query_device_resp, tso_caps, MLX4_IB_TSO_CAPS)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, NONE, MLX4_IB_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, NONE, MLX4_IB_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, MLX4_IB_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, MLX4_IB_CREATE_CQ, MLX4_IB_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, MLX4_IB_CREATE_CQ, MLX4_IB_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, MLX4_IB_CREATE_CQ, MLX4_IB_CREATE_CQ_RESP),
	UD_WRITE(RESIZE_CQ, MLX4_IB_RESIZE_CQ, NONE),
	UD_METHOD(SRQ, SRQ_CREATE, MLX4_IB_CREATE_SRQ, MLX4_IB_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, MLX4_IB_CREATE_SRQ, MLX4_IB_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, MLX4_IB_CREATE_SRQ, MLX4_IB_CREATE_SRQ_RESP),
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), RSS, MLX4_IB_CREATE_QP_RSS, NONE),
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), ALWAYS, MLX4_IB_CREATE_QP, NONE),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), RSS, MLX4_IB_CREATE_QP_RSS, NONE),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), ALWAYS, MLX4_IB_CREATE_QP, NONE),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), RSS, MLX4_IB_CREATE_QP_RSS, NONE),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), ALWAYS, MLX4_IB_CREATE_QP, NONE),
	UD_METHOD(WQ, WQ_CREATE, MLX4_IB_CREATE_WQ, NONE),
	UD_WRITE_EX(CREATE_WQ, MLX4_IB_CREATE_WQ, NONE),
	UD_WRITE_EX(MODIFY_WQ, MLX4_IB_MODIFY_WQ, NONE),
	UD_WRITE_EX(CREATE_RWQ_IND_TBL, NONE, MLX4_IB_CREATE_RWQ_IND_TBL_RESP),
	UD_WRITE_EX(QUERY_DEVICE, MLX4_EX_QUERY_DEVICE, MLX4_UVERBS_EX_QUERY_DEVICE_RESP),
};

const struct abi_driver abi_drv_mlx4 = {
	RDMA_DRIVER_MLX4, N(mlx4), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
