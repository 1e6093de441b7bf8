// SPDX-License-Identifier: MIT
/*
 * mlx5 (RDMA_DRIVER_MLX5, ConnectX-4 and later) described once, as data:
 *  - the driver data of the core commands (<rdma/mlx5-abi.h>): what UHW_IN
 *    and UHW_OUT hold on a core ioctl method, and what follows the core
 *    structs of a write() command, per command;
 *  - mlx5's namespace of the ioctl ABI (<rdma/mlx5_user_ioctl_cmds.h>,
 *    <rdma/mlx5_user_ioctl_verbs.h>): its objects (DEVX, DEVX_OBJ, UMEM,
 *    FLOW_MATCHER, the async fds, VAR, PP, UAR, STEERING_ANCHOR), the
 *    methods it adds to core objects (DEVICE, PD, DM, FLOW, FLOW_ACTION)
 *    and the attributes it adds to core methods, each as mlx5_ib declares
 *    it (type, access, mandatory, length), with the value types.
 * Ids come from the system's headers, those older headers lack from
 * mlx5_uapi.h. Structs of the header are described field by field from it
 * (F); members that an older supported header lacks, by offset (FO), and
 * checked against the header wherever it has them. Layouts are 7.2's.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>

#include "abi/drivers/mlx5_uapi.h"
#include "abi/abi.h"

typedef struct mlx5_ib_alloc_ucontext_req mlx5_uctx_req;
typedef struct mlx5_ib_alloc_ucontext_req_v2 mlx5_uctx_req_v2;
typedef struct mlx5_ib_alloc_ucontext_resp mlx5_uctx_resp;
typedef struct mlx5_ib_alloc_pd_resp mlx5_alloc_pd_resp;
typedef struct mlx5_ib_tso_caps mlx5_tso_caps;
typedef struct mlx5_ib_rss_caps mlx5_rss_caps;
typedef struct mlx5_ib_cqe_comp_caps mlx5_cqe_comp_caps;
typedef struct mlx5_packet_pacing_caps mlx5_packet_pacing_caps;
typedef struct mlx5_ib_sw_parsing_caps mlx5_sw_parsing_caps;
typedef struct mlx5_ib_striding_rq_caps mlx5_striding_rq_caps;
typedef struct mlx5_ib_query_device_resp mlx5_query_device_resp;
typedef struct mlx5_ib_create_cq mlx5_create_cq;
typedef struct mlx5_ib_create_cq_resp mlx5_create_cq_resp;
typedef struct mlx5_ib_resize_cq mlx5_resize_cq;
typedef struct mlx5_ib_create_srq mlx5_create_srq;
typedef struct mlx5_ib_create_srq_resp mlx5_create_srq_resp;
typedef struct mlx5_ib_create_qp mlx5_create_qp;
typedef struct mlx5_ib_create_qp_rss mlx5_create_qp_rss;
typedef struct mlx5_ib_create_qp_resp mlx5_create_qp_resp;
typedef struct mlx5_ib_alloc_mw mlx5_alloc_mw;
typedef struct mlx5_ib_create_wq mlx5_create_wq;
typedef struct mlx5_ib_create_wq_resp mlx5_create_wq_resp;
typedef struct mlx5_ib_create_ah_resp mlx5_create_ah_resp;
typedef struct mlx5_ib_burst_info mlx5_burst_info;
typedef struct mlx5_ib_modify_qp mlx5_modify_qp;
typedef struct mlx5_ib_modify_qp_resp mlx5_modify_qp_resp;
typedef struct mlx5_ib_create_rwq_ind_tbl_resp mlx5_rwq_ind_tbl_resp;
typedef struct mlx5_ib_modify_wq mlx5_modify_wq;
typedef struct mlx5_ib_flow_counters_data mlx5_flow_counters_data;
typedef struct mlx5_ib_create_flow mlx5_create_flow;

/* Layouts as this file describes them (7.2's), against the header of the
 * build where it has them. */
_Static_assert(sizeof(mlx5_uctx_req) == 8 && sizeof(mlx5_uctx_req_v2) == 32 &&
	       sizeof(mlx5_uctx_resp) == 72 && sizeof(mlx5_alloc_pd_resp) == 4 &&
	       sizeof(mlx5_create_cq) == 32 && sizeof(mlx5_create_cq_resp) == 8 &&
	       sizeof(mlx5_resize_cq) == 16 && sizeof(mlx5_create_srq) == 32 &&
	       sizeof(mlx5_create_srq_resp) == 8 && sizeof(mlx5_create_qp) == 56 &&
	       sizeof(mlx5_create_qp_rss) == 152 && sizeof(mlx5_create_qp_resp) == 40 &&
	       sizeof(mlx5_alloc_mw) == 8 && sizeof(mlx5_create_wq) == 48 &&
	       sizeof(mlx5_create_wq_resp) == 8 && sizeof(mlx5_create_ah_resp) == 16 &&
	       sizeof(mlx5_modify_qp) == 16 && sizeof(mlx5_modify_qp_resp) == 16 &&
	       sizeof(mlx5_rwq_ind_tbl_resp) == 8 && sizeof(mlx5_modify_wq) == 8 &&
	       sizeof(mlx5_flow_counters_data) == 16 && sizeof(mlx5_create_flow) == 8,
	       "mlx5-abi.h struct sizes");
/* mlx5_ib_query_device_resp: 5.10's ends in a u32 reserved at 100, 6.1's
 * puts dci_streams_caps and a u16 there, 6.12's adds reg_c0 (112 bytes).
 * mlx5_ib_create_qp: 5.10's u32 reserved at 52 became dci_streams and a
 * u16 in 6.1. */
#define QDR_DCI 100
#define QDR_REG_C0 104
#define QDR_SIZE 112
#define CQP_DCI 52
_Static_assert(offsetof(mlx5_query_device_resp, tunnel_offloads_caps) == 96 &&
	       offsetof(mlx5_create_qp, ece_options) == 48, "mlx5 offsets");
#if UVIO_SYS_UAPI_6_1
_Static_assert(offsetof(mlx5_query_device_resp, dci_streams_caps) == QDR_DCI &&
	       offsetof(mlx5_create_qp, dci_streams) == CQP_DCI &&
	       sizeof(struct mlx5_ib_uapi_query_port) == 40 &&
	       offsetof(struct mlx5_ib_uapi_query_port, reg_c0) == 32 &&
	       sizeof(struct mlx5_ib_dci_streams_caps) == 2 &&
	       sizeof(struct mlx5_ib_create_qp_dci_streams) == 2, "mlx5 6.1 layouts");
#endif
#if UVIO_SYS_UAPI_6_12
_Static_assert(offsetof(mlx5_query_device_resp, reg_c0) == QDR_REG_C0 &&
	       sizeof(mlx5_query_device_resp) == QDR_SIZE, "mlx5 6.12 layouts");
#endif

/* ---- value types ------------------------------------------------------- */

enum {
	VT_MLX5_FIRST = ABI_VT_DRIVER_BASE(1),
	/* flags */
	VT_MLX5_QP_FLAGS = VT_MLX5_FIRST, VT_MLX5_SRQ_FLAGS, VT_MLX5_WQ_FLAGS,
	VT_MLX5_LIB_CAPS, VT_MLX5_UCTX_FLAGS, VT_MLX5_UCTX_RESP_MASK, VT_MLX5_SUPP_UHW,
	VT_MLX5_FLOW_ACTION_CAPS, VT_MLX5_QPTS, VT_MLX5_CQE_COMP_FORMAT, VT_MLX5_PP_CAPS,
	VT_MLX5_MPW_CAPS, VT_MLX5_SW_PARSING, VT_MLX5_DEV_FLAGS, VT_MLX5_TUNNEL_OFFLOADS,
	VT_MLX5_CQ_FLAGS, VT_MLX5_RX_HASH_FUNC, VT_MLX5_RX_HASH_FIELDS, VT_MLX5_QP_RESP_MASK,
	VT_MLX5_WQ_MASK, VT_MLX5_MODIFY_QP_MASK, VT_MLX5_FLOW_ACTION_FLAGS,
	VT_MLX5_DMABUF_FLAGS, VT_MLX5_EVENT_FD_FLAGS, VT_MLX5_PP_FLAGS, VT_MLX5_VAR_FLAGS,
	VT_MLX5_PORT_FLAGS, VT_MLX5_CREATE_FLOW_FLAGS, VT_MLX5_IB_FLOW_FLAGS,
	/* enums */
	VT_MLX5_INLINE_MODE, VT_MLX5_FT_TYPE, VT_MLX5_REFORMAT_TYPE, VT_MLX5_DM_TYPE,
	VT_MLX5_UAR_TYPE, VT_MLX5_FLOW_TYPE, VT_MLX5_DM_OP,
	/* structs */
	VT_MLX5_UCTX_REQ, VT_MLX5_UCTX_REQ_V2, VT_MLX5_UCTX_RESP, VT_MLX5_ALLOC_PD_RESP,
	VT_MLX5_TSO_CAPS, VT_MLX5_RSS_CAPS, VT_MLX5_CQE_COMP_CAPS, VT_MLX5_PP_CAPS_S,
	VT_MLX5_SW_PARSING_CAPS, VT_MLX5_STRIDING_RQ_CAPS, VT_MLX5_DCI_STREAMS_CAPS,
	VT_MLX5_REG, VT_MLX5_QUERY_DEVICE_RESP, VT_MLX5_CREATE_CQ, VT_MLX5_CREATE_CQ_RESP,
	VT_MLX5_RESIZE_CQ, VT_MLX5_CREATE_SRQ, VT_MLX5_CREATE_SRQ_RESP, VT_MLX5_QP_DCI_STREAMS,
	VT_MLX5_CREATE_QP, VT_MLX5_CREATE_QP_RSS, VT_MLX5_CREATE_QP_RESP, VT_MLX5_ALLOC_MW,
	VT_MLX5_ALLOC_MW_RESP, VT_MLX5_CREATE_WQ, VT_MLX5_CREATE_WQ_RESP,
	VT_MLX5_CREATE_AH_RESP, VT_MLX5_BURST_INFO, VT_MLX5_MODIFY_QP, VT_MLX5_MODIFY_QP_RESP,
	VT_MLX5_RWQ_IND_TBL_RESP, VT_MLX5_MODIFY_WQ, VT_MLX5_FLOW_COUNTERS_DATA,
	VT_MLX5_CREATE_FLOW, VT_MLX5_QUERY_PORT, VT_MLX5_DEVX_CMD_IN, VT_MLX5_DEVX_CMD_OUT,
	VT_MLX5_MATCH_PARAMS,
	VT_MLX5__END
};

/* Bits of enum ib_qp_type, as supported_qpts has them (1 << type). */
#define QPT_BITS                                                               \
	B(0x1, SMI), B(0x2, GSI), B(0x4, RC), B(0x8, UC), B(0x10, UD),         \
	B(0x20, RAW_IPV6), B(0x40, RAW_ETHERTYPE), B(0x100, RAW_PACKET),      \
	B(0x200, XRC_INI), B(0x400, XRC_TGT)

static const struct abi_vtype vtypes[VT_MLX5__END - VT_MLX5_FIRST] = {
	/* ---- flags ---- */
	FLAGS(MLX5_QP_FLAGS, mlx5_qp_flags,
	      B(MLX5_QP_FLAG_SIGNATURE, SIGNATURE), B(MLX5_QP_FLAG_SCATTER_CQE, SCATTER_CQE),
	      B(MLX5_QP_FLAG_TUNNEL_OFFLOADS, TUNNEL_OFFLOADS),
	      B(MLX5_QP_FLAG_BFREG_INDEX, BFREG_INDEX), B(MLX5_QP_FLAG_TYPE_DCT, TYPE_DCT),
	      B(MLX5_QP_FLAG_TYPE_DCI, TYPE_DCI),
	      B(MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC, TIR_ALLOW_SELF_LB_UC),
	      B(MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC, TIR_ALLOW_SELF_LB_MC),
	      B(MLX5_QP_FLAG_ALLOW_SCATTER_CQE, ALLOW_SCATTER_CQE),
	      B(MLX5_QP_FLAG_PACKET_BASED_CREDIT_MODE, PACKET_BASED_CREDIT_MODE),
	      B(MLX5_QP_FLAG_UAR_PAGE_INDEX, UAR_PAGE_INDEX),
	      B(MLX5_QP_FLAG_DCI_STREAM, DCI_STREAM)),
	FLAGS(MLX5_SRQ_FLAGS, mlx5_srq_flags, B(MLX5_SRQ_FLAG_SIGNATURE, SIGNATURE)),
	FLAGS(MLX5_WQ_FLAGS, mlx5_wq_flags, B(MLX5_WQ_FLAG_SIGNATURE, SIGNATURE)),
	FLAGS(MLX5_LIB_CAPS, mlx5_lib_caps,
	      B(MLX5_LIB_CAP_4K_UAR, CAP_4K_UAR), B(MLX5_LIB_CAP_DYN_UAR, DYN_UAR)),
	FLAGS(MLX5_UCTX_FLAGS, mlx5_alloc_uctx_flags, B(MLX5_IB_ALLOC_UCTX_DEVX, DEVX)),
	FLAGS(MLX5_UCTX_RESP_MASK, mlx5_alloc_uctx_resp_mask,
	      B(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET, CORE_CLOCK_OFFSET),
	      B(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_DUMP_FILL_MKEY, DUMP_FILL_MKEY),
	      B(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_ECE, ECE),
	      B(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_SQD2RTS, SQD2RTS),
	      B(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_REAL_TIME_TS, REAL_TIME_TS),
	      B(MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_MKEY_UPDATE_TAG, MKEY_UPDATE_TAG)),
	FLAGS(MLX5_SUPP_UHW, mlx5_cmds_supp_uhw,
	      B(MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE, QUERY_DEVICE),
	      B(MLX5_USER_CMDS_SUPP_UHW_CREATE_AH, CREATE_AH)),
	FLAGS(MLX5_FLOW_ACTION_CAPS, mlx5_flow_action_caps,
	      B(MLX5_USER_ALLOC_UCONTEXT_FLOW_ACTION_FLAGS_ESP_AES_GCM, ESP_AES_GCM),
	      B(MLX5_USER_ALLOC_UCONTEXT_FLOW_ACTION_FLAGS_ESP_AES_GCM_REQ_METADATA, ESP_AES_GCM_REQ_METADATA),
	      B(MLX5_USER_ALLOC_UCONTEXT_FLOW_ACTION_FLAGS_ESP_AES_GCM_SPI_STEERING, ESP_AES_GCM_SPI_STEERING),
	      B(MLX5_USER_ALLOC_UCONTEXT_FLOW_ACTION_FLAGS_ESP_AES_GCM_FULL_OFFLOAD, ESP_AES_GCM_FULL_OFFLOAD),
	      B(MLX5_USER_ALLOC_UCONTEXT_FLOW_ACTION_FLAGS_ESP_AES_GCM_TX_IV_IS_ESN, ESP_AES_GCM_TX_IV_IS_ESN)),
	FLAGS(MLX5_QPTS, mlx5_qp_types, QPT_BITS),
	FLAGS(MLX5_CQE_COMP_FORMAT, mlx5_cqe_comp_res_format,
	      B(MLX5_IB_CQE_RES_FORMAT_HASH, HASH), B(MLX5_IB_CQE_RES_FORMAT_CSUM, CSUM),
	      B(MLX5_IB_CQE_RES_FORMAT_CSUM_STRIDX, CSUM_STRIDX)),
	FLAGS(MLX5_PP_CAPS, mlx5_pp_cap_flags, B(MLX5_IB_PP_SUPPORT_BURST, SUPPORT_BURST)),
	FLAGS(MLX5_MPW_CAPS, mlx5_mpw_caps,
	      B(MPW_RESERVED, RESERVED), B(MLX5_IB_ALLOW_MPW, ALLOW_MPW),
	      B(MLX5_IB_SUPPORT_EMPW, SUPPORT_EMPW)),
	FLAGS(MLX5_SW_PARSING, mlx5_sw_parsing_offloads,
	      B(MLX5_IB_SW_PARSING, SW_PARSING), B(MLX5_IB_SW_PARSING_CSUM, CSUM),
	      B(MLX5_IB_SW_PARSING_LSO, LSO)),
	FLAGS(MLX5_DEV_FLAGS, mlx5_query_dev_resp_flags,
	      B(MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_COMP, CQE_128B_COMP),
	      B(MLX5_IB_QUERY_DEV_RESP_FLAGS_CQE_128B_PAD, CQE_128B_PAD),
	      B(MLX5_IB_QUERY_DEV_RESP_PACKET_BASED_CREDIT_MODE, PACKET_BASED_CREDIT_MODE),
	      B(MLX5_IB_QUERY_DEV_RESP_FLAGS_SCAT2CQE_DCT, SCAT2CQE_DCT),
	      B(MLX5_IB_QUERY_DEV_RESP_FLAGS_OOO_DP, OOO_DP)),
	FLAGS(MLX5_TUNNEL_OFFLOADS, mlx5_tunnel_offloads,
	      B(MLX5_IB_TUNNELED_OFFLOADS_VXLAN, VXLAN), B(MLX5_IB_TUNNELED_OFFLOADS_GRE, GRE),
	      B(MLX5_IB_TUNNELED_OFFLOADS_GENEVE, GENEVE),
	      B(MLX5_IB_TUNNELED_OFFLOADS_MPLS_GRE, MPLS_GRE),
	      B(MLX5_IB_TUNNELED_OFFLOADS_MPLS_UDP, MPLS_UDP)),
	FLAGS(MLX5_CQ_FLAGS, mlx5_create_cq_flags,
	      B(MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD, CQE_128B_PAD),
	      B(MLX5_IB_CREATE_CQ_FLAGS_UAR_PAGE_INDEX, UAR_PAGE_INDEX),
	      B(MLX5_IB_CREATE_CQ_FLAGS_REAL_TIME_TS, REAL_TIME_TS)),
	FLAGS(MLX5_RX_HASH_FUNC, mlx5_rx_hash_function, B(MLX5_RX_HASH_FUNC_TOEPLITZ, TOEPLITZ)),
	FLAGS(MLX5_RX_HASH_FIELDS, mlx5_rx_hash_fields,
	      B(MLX5_RX_HASH_SRC_IPV4, SRC_IPV4), B(MLX5_RX_HASH_DST_IPV4, DST_IPV4),
	      B(MLX5_RX_HASH_SRC_IPV6, SRC_IPV6), B(MLX5_RX_HASH_DST_IPV6, DST_IPV6),
	      B(MLX5_RX_HASH_SRC_PORT_TCP, SRC_PORT_TCP),
	      B(MLX5_RX_HASH_DST_PORT_TCP, DST_PORT_TCP),
	      B(MLX5_RX_HASH_SRC_PORT_UDP, SRC_PORT_UDP),
	      B(MLX5_RX_HASH_DST_PORT_UDP, DST_PORT_UDP),
	      B(MLX5_RX_HASH_IPSEC_SPI, IPSEC_SPI), B(MLX5_RX_HASH_INNER, INNER)),
	FLAGS(MLX5_QP_RESP_MASK, mlx5_create_qp_resp_mask,
	      B(MLX5_IB_CREATE_QP_RESP_MASK_TIRN, TIRN), B(MLX5_IB_CREATE_QP_RESP_MASK_TISN, TISN),
	      B(MLX5_IB_CREATE_QP_RESP_MASK_RQN, RQN), B(MLX5_IB_CREATE_QP_RESP_MASK_SQN, SQN),
	      B(MLX5_IB_CREATE_QP_RESP_MASK_TIR_ICM_ADDR, TIR_ICM_ADDR)),
	FLAGS(MLX5_WQ_MASK, mlx5_create_wq_mask, B(MLX5_IB_CREATE_WQ_STRIDING_RQ, STRIDING_RQ)),
	FLAGS(MLX5_MODIFY_QP_MASK, mlx5_modify_qp_mask, B(MLX5_IB_MODIFY_QP_OOO_DP, OOO_DP)),
	FLAGS(MLX5_FLOW_ACTION_FLAGS, mlx5_flow_action_flags,
	      B(MLX5_IB_UAPI_FLOW_ACTION_FLAGS_REQUIRE_METADATA, REQUIRE_METADATA)),
	FLAGS(MLX5_DMABUF_FLAGS, mlx5_reg_dmabuf_flags,
	      B(MLX5_IB_UAPI_REG_DMABUF_ACCESS_DATA_DIRECT, ACCESS_DATA_DIRECT)),
	FLAGS(MLX5_EVENT_FD_FLAGS, mlx5_event_channel_flags,
	      B(MLX5_IB_UAPI_DEVX_CR_EV_CH_FLAGS_OMIT_DATA, OMIT_DATA)),
	FLAGS(MLX5_PP_FLAGS, mlx5_pp_alloc_flags,
	      B(MLX5_IB_UAPI_PP_ALLOC_FLAGS_DEDICATED_INDEX, DEDICATED_INDEX)),
	FLAGS(MLX5_VAR_FLAGS, mlx5_var_alloc_flags, B(MLX5_IB_UAPI_VAR_ALLOC_FLAG_TLP, TLP)),
	FLAGS(MLX5_PORT_FLAGS, mlx5_query_port_flags,
	      B(MLX5_IB_UAPI_QUERY_PORT_VPORT, VPORT),
	      B(MLX5_IB_UAPI_QUERY_PORT_VPORT_VHCA_ID, VPORT_VHCA_ID),
	      B(MLX5_IB_UAPI_QUERY_PORT_VPORT_STEERING_ICM_RX, VPORT_STEERING_ICM_RX),
	      B(MLX5_IB_UAPI_QUERY_PORT_VPORT_STEERING_ICM_TX, VPORT_STEERING_ICM_TX),
	      B(MLX5_IB_UAPI_QUERY_PORT_VPORT_REG_C0, VPORT_REG_C0),
	      B(MLX5_IB_UAPI_QUERY_PORT_ESW_OWNER_VHCA_ID, ESW_OWNER_VHCA_ID)),
	FLAGS(MLX5_CREATE_FLOW_FLAGS, mlx5_create_flow_flags,
	      B(MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DEFAULT_MISS, DEFAULT_MISS),
	      B(MLX5_IB_ATTR_CREATE_FLOW_FLAGS_DROP, DROP)),
	/* the kernel's enum ib_flow_flags */
	FLAGS(MLX5_IB_FLOW_FLAGS, ib_flow_flags, B(0x2, DONT_TRAP), B(0x4, EGRESS)),

	/* ---- enums ---- */
	ENUM(MLX5_INLINE_MODE, mlx5_inline_mode,
	     C(MLX5_USER_INLINE_MODE_NA, NA), C(MLX5_USER_INLINE_MODE_NONE, NONE),
	     C(MLX5_USER_INLINE_MODE_L2, L2), C(MLX5_USER_INLINE_MODE_IP, IP),
	     C(MLX5_USER_INLINE_MODE_TCP_UDP, TCP_UDP)),
	ENUM(MLX5_FT_TYPE, mlx5_flow_table_type,
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_RX, NIC_RX),
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_NIC_TX, NIC_TX),
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_FDB, FDB),
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_RX, RDMA_RX),
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_TX, RDMA_TX),
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_TRANSPORT_RX, RDMA_TRANSPORT_RX),
	     C(MLX5_IB_UAPI_FLOW_TABLE_TYPE_RDMA_TRANSPORT_TX, RDMA_TRANSPORT_TX)),
	ENUM(MLX5_REFORMAT_TYPE, mlx5_packet_reformat_type,
	     C(MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TUNNEL_TO_L2, L2_TUNNEL_TO_L2),
	     C(MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L2_TUNNEL, L2_TO_L2_TUNNEL),
	     C(MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L3_TUNNEL_TO_L2, L3_TUNNEL_TO_L2),
	     C(MLX5_IB_UAPI_FLOW_ACTION_PACKET_REFORMAT_TYPE_L2_TO_L3_TUNNEL, L2_TO_L3_TUNNEL)),
	ENUM(MLX5_DM_TYPE, mlx5_dm_type,
	     C(MLX5_IB_UAPI_DM_TYPE_MEMIC, MEMIC),
	     C(MLX5_IB_UAPI_DM_TYPE_STEERING_SW_ICM, STEERING_SW_ICM),
	     C(MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_SW_ICM, HEADER_MODIFY_SW_ICM),
	     C(MLX5_IB_UAPI_DM_TYPE_HEADER_MODIFY_PATTERN_SW_ICM, HEADER_MODIFY_PATTERN_SW_ICM),
	     C(MLX5_IB_UAPI_DM_TYPE_ENCAP_SW_ICM, ENCAP_SW_ICM)),
	ENUM(MLX5_UAR_TYPE, mlx5_uar_alloc_type,
	     C(MLX5_IB_UAPI_UAR_ALLOC_TYPE_BF, BF), C(MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC, NC)),
	/* FLOW_MATCHER's FLOW_TYPE: an ENUM_IN, NORMAL with its priority */
	ENUM(MLX5_FLOW_TYPE, mlx5_flow_type,
	     CP(MLX5_IB_FLOW_TYPE_NORMAL, NORMAL, U16), C(MLX5_IB_FLOW_TYPE_SNIFFER, SNIFFER),
	     C(MLX5_IB_FLOW_TYPE_ALL_DEFAULT, ALL_DEFAULT),
	     C(MLX5_IB_FLOW_TYPE_MC_DEFAULT, MC_DEFAULT)),
	/* DM MAP_OP_ADDR's operation: a PRM opcode of MEMIC operations */
	SCALAR(MLX5_DM_OP, mlx5_dm_op, HEX, 1),

	/* ---- structs ---- */
	STRUCT(MLX5_UCTX_REQ, mlx5_uctx_req,
	       F(mlx5_uctx_req, total_num_bfregs, U32),
	       F(mlx5_uctx_req, num_low_latency_bfregs, U32)),
	STRUCT(MLX5_UCTX_REQ_V2, mlx5_uctx_req_v2,
	       F(mlx5_uctx_req_v2, total_num_bfregs, U32),
	       F(mlx5_uctx_req_v2, num_low_latency_bfregs, U32),
	       F(mlx5_uctx_req_v2, flags, MLX5_UCTX_FLAGS),
	       F(mlx5_uctx_req_v2, comp_mask, X32),
	       F(mlx5_uctx_req_v2, max_cqe_version, U8),
	       F(mlx5_uctx_req_v2, reserved0, RSVD),
	       F(mlx5_uctx_req_v2, reserved1, RSVD),
	       F(mlx5_uctx_req_v2, reserved2, RSVD),
	       F(mlx5_uctx_req_v2, lib_caps, MLX5_LIB_CAPS)),
	STRUCT(MLX5_UCTX_RESP, mlx5_uctx_resp,
	       F(mlx5_uctx_resp, qp_tab_size, U32),
	       F(mlx5_uctx_resp, bf_reg_size, U32),
	       F(mlx5_uctx_resp, tot_bfregs, U32),
	       F(mlx5_uctx_resp, cache_line_size, U32),
	       F(mlx5_uctx_resp, max_sq_desc_sz, U16),
	       F(mlx5_uctx_resp, max_rq_desc_sz, U16),
	       F(mlx5_uctx_resp, max_send_wqebb, U32),
	       F(mlx5_uctx_resp, max_recv_wr, U32),
	       F(mlx5_uctx_resp, max_srq_recv_wr, U32),
	       F(mlx5_uctx_resp, num_ports, U16),
	       F(mlx5_uctx_resp, flow_action_flags, MLX5_FLOW_ACTION_CAPS),
	       F(mlx5_uctx_resp, comp_mask, MLX5_UCTX_RESP_MASK),
	       F(mlx5_uctx_resp, response_length, U32),
	       F(mlx5_uctx_resp, cqe_version, U8),
	       F(mlx5_uctx_resp, cmds_supp_uhw, MLX5_SUPP_UHW),
	       F(mlx5_uctx_resp, eth_min_inline, MLX5_INLINE_MODE),
	       F(mlx5_uctx_resp, clock_info_versions, X32),
	       F(mlx5_uctx_resp, hca_core_clock_offset, X64),
	       F(mlx5_uctx_resp, log_uar_size, U32),
	       F(mlx5_uctx_resp, num_uars_per_page, U32),
	       F(mlx5_uctx_resp, num_dyn_bfregs, U32),
	       F(mlx5_uctx_resp, dump_fill_mkey, X32)),
	STRUCT(MLX5_ALLOC_PD_RESP, mlx5_alloc_pd_resp, F(mlx5_alloc_pd_resp, pdn, U32)),
	STRUCT(MLX5_TSO_CAPS, mlx5_tso_caps,
	       F(mlx5_tso_caps, max_tso, U32), F(mlx5_tso_caps, supported_qpts, MLX5_QPTS)),
	STRUCT(MLX5_RSS_CAPS, mlx5_rss_caps,
	       F(mlx5_rss_caps, rx_hash_fields_mask, MLX5_RX_HASH_FIELDS),
	       F(mlx5_rss_caps, rx_hash_function, MLX5_RX_HASH_FUNC),
	       F(mlx5_rss_caps, reserved, RSVD)),
	STRUCT(MLX5_CQE_COMP_CAPS, mlx5_cqe_comp_caps,
	       F(mlx5_cqe_comp_caps, max_num, U32),
	       F(mlx5_cqe_comp_caps, supported_format, MLX5_CQE_COMP_FORMAT)),
	STRUCT(MLX5_PP_CAPS_S, mlx5_packet_pacing_caps,
	       F(mlx5_packet_pacing_caps, qp_rate_limit_min, U32),
	       F(mlx5_packet_pacing_caps, qp_rate_limit_max, U32),
	       F(mlx5_packet_pacing_caps, supported_qpts, MLX5_QPTS),
	       F(mlx5_packet_pacing_caps, cap_flags, MLX5_PP_CAPS),
	       F(mlx5_packet_pacing_caps, reserved, RSVD)),
	STRUCT(MLX5_SW_PARSING_CAPS, mlx5_sw_parsing_caps,
	       F(mlx5_sw_parsing_caps, sw_parsing_offloads, MLX5_SW_PARSING),
	       F(mlx5_sw_parsing_caps, supported_qpts, MLX5_QPTS)),
	STRUCT(MLX5_STRIDING_RQ_CAPS, mlx5_striding_rq_caps,
	       F(mlx5_striding_rq_caps, min_single_stride_log_num_of_bytes, U32),
	       F(mlx5_striding_rq_caps, max_single_stride_log_num_of_bytes, U32),
	       F(mlx5_striding_rq_caps, min_single_wqe_log_num_of_strides, U32),
	       F(mlx5_striding_rq_caps, max_single_wqe_log_num_of_strides, U32),
	       F(mlx5_striding_rq_caps, supported_qpts, MLX5_QPTS),
	       F(mlx5_striding_rq_caps, reserved, RSVD)),
	/* structs of 6.1's headers, by offset */
	STRUCT_SZ(MLX5_DCI_STREAMS_CAPS, mlx5_dci_streams_caps, 2,
		  FO(max_log_num_concurent, 0, 1, U8), FO(max_log_num_errored, 1, 1, U8)),
	STRUCT_SZ(MLX5_REG, mlx5_uapi_reg, 8,
		  FO(value, 0, 4, X32), FO(mask, 4, 4, X32)),
	STRUCT_SZ(MLX5_QUERY_DEVICE_RESP, mlx5_query_device_resp, QDR_SIZE,
		  F(mlx5_query_device_resp, comp_mask, X32),
		  F(mlx5_query_device_resp, response_length, U32),
		  F(mlx5_query_device_resp, tso_caps, MLX5_TSO_CAPS),
		  F(mlx5_query_device_resp, rss_caps, MLX5_RSS_CAPS),
		  F(mlx5_query_device_resp, cqe_comp_caps, MLX5_CQE_COMP_CAPS),
		  F(mlx5_query_device_resp, packet_pacing_caps, MLX5_PP_CAPS_S),
		  F(mlx5_query_device_resp, mlx5_ib_support_multi_pkt_send_wqes, MLX5_MPW_CAPS),
		  F(mlx5_query_device_resp, flags, MLX5_DEV_FLAGS),
		  F(mlx5_query_device_resp, sw_parsing_caps, MLX5_SW_PARSING_CAPS),
		  F(mlx5_query_device_resp, striding_rq_caps, MLX5_STRIDING_RQ_CAPS),
		  F(mlx5_query_device_resp, tunnel_offloads_caps, MLX5_TUNNEL_OFFLOADS),
		  FO(dci_streams_caps, QDR_DCI, 2, MLX5_DCI_STREAMS_CAPS),
		  FO(reserved, QDR_DCI + 2, 2, RSVD),
		  FO(reg_c0, QDR_REG_C0, 8, MLX5_REG)),
	STRUCT(MLX5_CREATE_CQ, mlx5_create_cq,
	       F(mlx5_create_cq, buf_addr, X64),
	       F(mlx5_create_cq, db_addr, X64),
	       F(mlx5_create_cq, cqe_size, U32),
	       F(mlx5_create_cq, cqe_comp_en, U8),
	       F(mlx5_create_cq, cqe_comp_res_format, MLX5_CQE_COMP_FORMAT),
	       F(mlx5_create_cq, flags, MLX5_CQ_FLAGS),
	       F(mlx5_create_cq, uar_page_index, U16),
	       F(mlx5_create_cq, reserved0, RSVD),
	       F(mlx5_create_cq, reserved1, RSVD)),
	STRUCT(MLX5_CREATE_CQ_RESP, mlx5_create_cq_resp,
	       F(mlx5_create_cq_resp, cqn, U32), F(mlx5_create_cq_resp, reserved, RSVD)),
	STRUCT(MLX5_RESIZE_CQ, mlx5_resize_cq,
	       F(mlx5_resize_cq, buf_addr, X64),
	       F(mlx5_resize_cq, cqe_size, U16),
	       F(mlx5_resize_cq, reserved0, RSVD),
	       F(mlx5_resize_cq, reserved1, RSVD)),
	STRUCT(MLX5_CREATE_SRQ, mlx5_create_srq,
	       F(mlx5_create_srq, buf_addr, X64),
	       F(mlx5_create_srq, db_addr, X64),
	       F(mlx5_create_srq, flags, MLX5_SRQ_FLAGS),
	       F(mlx5_create_srq, reserved0, RSVD),
	       F(mlx5_create_srq, uidx, U32),
	       F(mlx5_create_srq, reserved1, RSVD)),
	STRUCT(MLX5_CREATE_SRQ_RESP, mlx5_create_srq_resp,
	       F(mlx5_create_srq_resp, srqn, U32), F(mlx5_create_srq_resp, reserved, RSVD)),
	STRUCT_SZ(MLX5_QP_DCI_STREAMS, mlx5_create_qp_dci_streams, 2,
		  FO(log_num_concurent, 0, 1, U8), FO(log_num_errored, 1, 1, U8)),
	STRUCT(MLX5_CREATE_QP, mlx5_create_qp,
	       F(mlx5_create_qp, buf_addr, X64),
	       F(mlx5_create_qp, db_addr, X64),
	       F(mlx5_create_qp, sq_wqe_count, U32),
	       F(mlx5_create_qp, rq_wqe_count, U32),
	       F(mlx5_create_qp, rq_wqe_shift, U32),
	       F(mlx5_create_qp, flags, MLX5_QP_FLAGS),
	       F(mlx5_create_qp, uidx, U32),
	       F(mlx5_create_qp, bfreg_index, U32),
	       /* a union: sq_buf_addr, or a DCT's access_key */
	       F(mlx5_create_qp, sq_buf_addr, X64),
	       F(mlx5_create_qp, ece_options, X32),
	       FO(dci_streams, CQP_DCI, 2, MLX5_QP_DCI_STREAMS),
	       FO(reserved, CQP_DCI + 2, 2, RSVD)),
	STRUCT(MLX5_CREATE_QP_RSS, mlx5_create_qp_rss,
	       F(mlx5_create_qp_rss, rx_hash_fields_mask, MLX5_RX_HASH_FIELDS),
	       F(mlx5_create_qp_rss, rx_hash_function, MLX5_RX_HASH_FUNC),
	       F(mlx5_create_qp_rss, rx_key_len, U8),
	       F(mlx5_create_qp_rss, reserved, RSVD),
	       F(mlx5_create_qp_rss, rx_hash_key, BYTES),
	       F(mlx5_create_qp_rss, comp_mask, X32),
	       F(mlx5_create_qp_rss, flags, MLX5_QP_FLAGS)),
	STRUCT(MLX5_CREATE_QP_RESP, mlx5_create_qp_resp,
	       F(mlx5_create_qp_resp, bfreg_index, U32),
	       F(mlx5_create_qp_resp, ece_options, X32),
	       F(mlx5_create_qp_resp, comp_mask, MLX5_QP_RESP_MASK),
	       F(mlx5_create_qp_resp, tirn, U32),
	       F(mlx5_create_qp_resp, tisn, U32),
	       F(mlx5_create_qp_resp, rqn, U32),
	       F(mlx5_create_qp_resp, sqn, U32),
	       F(mlx5_create_qp_resp, reserved1, RSVD),
	       F(mlx5_create_qp_resp, tir_icm_addr, X64)),
	STRUCT(MLX5_ALLOC_MW, mlx5_alloc_mw,
	       F(mlx5_alloc_mw, comp_mask, X32),
	       F(mlx5_alloc_mw, num_klms, U8),
	       F(mlx5_alloc_mw, reserved1, RSVD),
	       F(mlx5_alloc_mw, reserved2, RSVD)),
	/* ALLOC_MW's answer has no struct in the header: two u32 (mr.c) */
	STRUCT_SZ(MLX5_ALLOC_MW_RESP, mlx5_alloc_mw_resp, 8,
		  FO(comp_mask, 0, 4, X32), FO(response_length, 4, 4, U32)),
	STRUCT(MLX5_CREATE_WQ, mlx5_create_wq,
	       F(mlx5_create_wq, buf_addr, X64),
	       F(mlx5_create_wq, db_addr, X64),
	       F(mlx5_create_wq, rq_wqe_count, U32),
	       F(mlx5_create_wq, rq_wqe_shift, U32),
	       F(mlx5_create_wq, user_index, U32),
	       F(mlx5_create_wq, flags, MLX5_WQ_FLAGS),
	       F(mlx5_create_wq, comp_mask, MLX5_WQ_MASK),
	       F(mlx5_create_wq, single_stride_log_num_of_bytes, U32),
	       F(mlx5_create_wq, single_wqe_log_num_of_strides, U32),
	       F(mlx5_create_wq, two_byte_shift_en, U32)),
	STRUCT(MLX5_CREATE_WQ_RESP, mlx5_create_wq_resp,
	       F(mlx5_create_wq_resp, response_length, U32),
	       F(mlx5_create_wq_resp, reserved, RSVD)),
	STRUCT(MLX5_CREATE_AH_RESP, mlx5_create_ah_resp,
	       F(mlx5_create_ah_resp, response_length, U32),
	       F(mlx5_create_ah_resp, dmac, MAC),
	       F(mlx5_create_ah_resp, reserved, RSVD)),
	STRUCT(MLX5_BURST_INFO, mlx5_burst_info,
	       F(mlx5_burst_info, max_burst_sz, U32),
	       F(mlx5_burst_info, typical_pkt_sz, U16),
	       F(mlx5_burst_info, reserved, RSVD)),
	STRUCT(MLX5_MODIFY_QP, mlx5_modify_qp,
	       F(mlx5_modify_qp, comp_mask, MLX5_MODIFY_QP_MASK),
	       F(mlx5_modify_qp, burst_info, MLX5_BURST_INFO),
	       F(mlx5_modify_qp, ece_options, X32)),
	STRUCT(MLX5_MODIFY_QP_RESP, mlx5_modify_qp_resp,
	       F(mlx5_modify_qp_resp, response_length, U32),
	       F(mlx5_modify_qp_resp, dctn, U32),
	       F(mlx5_modify_qp_resp, ece_options, X32),
	       F(mlx5_modify_qp_resp, reserved, RSVD)),
	STRUCT(MLX5_RWQ_IND_TBL_RESP, mlx5_rwq_ind_tbl_resp,
	       F(mlx5_rwq_ind_tbl_resp, response_length, U32),
	       F(mlx5_rwq_ind_tbl_resp, reserved, RSVD)),
	STRUCT(MLX5_MODIFY_WQ, mlx5_modify_wq,
	       F(mlx5_modify_wq, comp_mask, X32), F(mlx5_modify_wq, reserved, RSVD)),
	STRUCT(MLX5_FLOW_COUNTERS_DATA, mlx5_flow_counters_data,
	       F(mlx5_flow_counters_data, counters_data, X64),
	       F(mlx5_flow_counters_data, ncounters, U32),
	       F(mlx5_flow_counters_data, reserved, RSVD)),
	STRUCT(MLX5_CREATE_FLOW, mlx5_create_flow,
	       F(mlx5_create_flow, ncounters_data, U32),
	       F(mlx5_create_flow, reserved, RSVD),
	       FX(mlx5_create_flow, data, MLX5_FLOW_COUNTERS_DATA)),
	STRUCT_SZ(MLX5_QUERY_PORT, mlx5_uapi_query_port, 40,
		  FO(flags, 0, 8, MLX5_PORT_FLAGS), FO(vport, 8, 2, U16),
		  FO(vport_vhca_id, 10, 2, U16), FO(esw_owner_vhca_id, 12, 2, U16),
		  FO(rsvd0, 14, 2, RSVD), FO(vport_steering_icm_rx, 16, 8, X64),
		  FO(vport_steering_icm_tx, 24, 8, X64), FO(reg_c0, 32, 8, MLX5_REG)),
	/* DEVX commands are the device's own mailboxes (its PRM, not a UAPI
	 * header): the words every command and answer start with, then the
	 * rest as bytes. */
	STRUCT_SZ(MLX5_DEVX_CMD_IN, mlx5_devx_cmd_in, 8,
		  FO(opcode, 0, 2, BE16), FO(uid, 2, 2, BE16), FO(op_mod, 6, 2, BE16),
		  FO(data, 8, 0, BYTES)),
	STRUCT_SZ(MLX5_DEVX_CMD_OUT, mlx5_devx_cmd_out, 8,
		  FO(status, 0, 1, U8), FO(syndrome, 4, 4, BE32), FO(data, 8, 0, BYTES)),
	/* match parameters: the device's own layout, in words */
	SCALAR(MLX5_MATCH_PARAMS, mlx5_match_params, BE, 4),
};

/* ---- mlx5's methods and objects ---------------------------------------- */

#define COPY ABI_ALLOC_COPY
/* DEVX command mailboxes: at least the general object headers (16 bytes) */
#define DEVX_HDR 16

static const struct abi_method devx[] = {
	METHOD_D(MLX5_IB_METHOD_DEVX_OTHER, OTHER, 0,
		 A_DIN_MIN(MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, CMD_IN, MLX5_DEVX_CMD_IN, DEVX_HDR,
			   MAND | COPY),
		 A_DOUT_MIN(MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, CMD_OUT, MLX5_DEVX_CMD_OUT, DEVX_HDR,
			    MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_QUERY_UAR, QUERY_UAR, 0,
		 A_DIN(MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX, USER_IDX, U32, 4, MAND),
		 A_DOUT(MLX5_IB_ATTR_DEVX_QUERY_UAR_DEV_IDX, DEV_IDX, U32, 4, MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_QUERY_EQN, QUERY_EQN, 0,
		 A_DIN(MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, USER_VEC, U32, 4, MAND),
		 A_DOUT(MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, DEV_EQN, U32, 4, MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_SUBSCRIBE_EVENT, SUBSCRIBE_EVENT, 0,
		 A_DFD(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_HANDLE, FD_HANDLE,
		       MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD, READ, MAND),
		 A_DIDR(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_OBJ_HANDLE, OBJ_HANDLE,
			MLX5_IB_OBJECT_DEVX_OBJ, READ, OPT),
		 A_DIN_MIN(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_TYPE_NUM_LIST, TYPE_NUM_LIST, U16, 2,
			   MAND | COPY),
		 A_DIN(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_COOKIE, COOKIE, X64, 8, OPT),
		 A_DIN(MLX5_IB_ATTR_DEVX_SUBSCRIBE_EVENT_FD_NUM, FD_NUM, U32, 4, OPT)),
};

/* MODIFY, QUERY and ASYNC_QUERY take a handle of any object DEVX made. */
static const struct abi_method devx_obj[] = {
	METHOD_D(MLX5_IB_METHOD_DEVX_OBJ_CREATE, CREATE, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE, HANDLE, MLX5_IB_OBJECT_DEVX_OBJ,
			NEW, MAND),
		 A_DIN_MIN(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, CMD_IN, MLX5_DEVX_CMD_IN,
			   DEVX_HDR, MAND | COPY),
		 A_DOUT_MIN(MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, CMD_OUT, MLX5_DEVX_CMD_OUT,
			    DEVX_HDR, MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_OBJ_DESTROY, DESTROY, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE, HANDLE, MLX5_IB_OBJECT_DEVX_OBJ,
			DESTROY, MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_OBJ_MODIFY, MODIFY, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE, HANDLE, ABI_ANY_OBJECT, READ, MAND),
		 A_DIN_MIN(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN, CMD_IN, MLX5_DEVX_CMD_IN,
			   DEVX_HDR, MAND | COPY),
		 A_DOUT_MIN(MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT, CMD_OUT, MLX5_DEVX_CMD_OUT,
			    DEVX_HDR, MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_OBJ_QUERY, QUERY, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE, HANDLE, ABI_ANY_OBJECT, READ, MAND),
		 A_DIN_MIN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN, CMD_IN, MLX5_DEVX_CMD_IN,
			   DEVX_HDR, MAND | COPY),
		 A_DOUT_MIN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT, CMD_OUT, MLX5_DEVX_CMD_OUT,
			    DEVX_HDR, MAND)),
	/* the answer comes later on the async cmd fd, after wr_id */
	METHOD_D(MLX5_IB_METHOD_DEVX_OBJ_ASYNC_QUERY, ASYNC_QUERY, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_HANDLE, HANDLE, ABI_ANY_OBJECT, READ,
			MAND),
		 A_DIN_MIN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_CMD_IN, CMD_IN, MLX5_DEVX_CMD_IN,
			   DEVX_HDR, MAND | COPY),
		 A_DCONST(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_OUT_LEN, OUT_LEN, U16, MAND),
		 A_DFD(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_FD, FD, MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD,
		       READ, MAND),
		 A_DIN(MLX5_IB_ATTR_DEVX_OBJ_QUERY_ASYNC_WR_ID, WR_ID, X64, 8, MAND)),
};

static const struct abi_method devx_umem[] = {
	METHOD_D(MLX5_IB_METHOD_DEVX_UMEM_REG, REG, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE, HANDLE, MLX5_IB_OBJECT_DEVX_UMEM, NEW,
			MAND),
		 A_DIN(MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, ADDR, X64, 8, MAND),
		 A_DIN(MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, LEN, U64, 8, MAND),
		 A_DRAW_FD(MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD, DMABUF_FD, OPT),
		 A_DFLAGS(MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS, ACCESS, ACCESS, OPT),
		 A_DCONST(MLX5_IB_ATTR_DEVX_UMEM_REG_PGSZ_BITMAP, PGSZ_BITMAP, X64, OPT),
		 A_DOUT(MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, OUT_ID, U32, 4, MAND)),
	METHOD_D(MLX5_IB_METHOD_DEVX_UMEM_DEREG, DEREG, 0,
		 A_DIDR(MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE, HANDLE, MLX5_IB_OBJECT_DEVX_UMEM,
			DESTROY, MAND)),
};

static const struct abi_method flow_matcher[] = {
	METHOD_D(MLX5_IB_METHOD_FLOW_MATCHER_CREATE, CREATE, 0,
		 A_DIDR(MLX5_IB_ATTR_FLOW_MATCHER_CREATE_HANDLE, HANDLE,
			MLX5_IB_OBJECT_FLOW_MATCHER, NEW, MAND),
		 A_DIN_SIZE(MLX5_IB_ATTR_FLOW_MATCHER_MATCH_MASK, MATCH_MASK, MLX5_MATCH_PARAMS,
			    1, UVIO_MLX5_MATCH_PARAMS_MAX, MAND),
		 A_DENUM(MLX5_IB_ATTR_FLOW_MATCHER_FLOW_TYPE, FLOW_TYPE, MLX5_FLOW_TYPE, MAND),
		 A_DIN(MLX5_IB_ATTR_FLOW_MATCHER_MATCH_CRITERIA, MATCH_CRITERIA, X32, 1, MAND),
		 A_DFLAGS(MLX5_IB_ATTR_FLOW_MATCHER_FLOW_FLAGS, FLOW_FLAGS, MLX5_IB_FLOW_FLAGS,
			  OPT),
		 A_DCONST(MLX5_IB_ATTR_FLOW_MATCHER_FT_TYPE, FT_TYPE, MLX5_FT_TYPE, OPT),
		 A_DIN(MLX5_IB_ATTR_FLOW_MATCHER_IB_PORT, IB_PORT, U32, 4, OPT)),
	METHOD_D(MLX5_IB_METHOD_FLOW_MATCHER_DESTROY, DESTROY, 0,
		 A_DIDR(MLX5_IB_ATTR_FLOW_MATCHER_DESTROY_HANDLE, HANDLE,
			MLX5_IB_OBJECT_FLOW_MATCHER, DESTROY, MAND)),
};

static const struct abi_method async_cmd_fd[] = {
	METHOD_D(MLX5_IB_METHOD_DEVX_ASYNC_CMD_FD_ALLOC, ALLOC, 0,
		 A_DFD(MLX5_IB_ATTR_DEVX_ASYNC_CMD_FD_ALLOC_HANDLE, HANDLE,
		       MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD, NEW, MAND)),
};

static const struct abi_method async_event_fd[] = {
	METHOD_D(MLX5_IB_METHOD_DEVX_ASYNC_EVENT_FD_ALLOC, ALLOC, 0,
		 A_DFD(MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_HANDLE, HANDLE,
		       MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD, NEW, MAND),
		 A_DFLAGS(MLX5_IB_ATTR_DEVX_ASYNC_EVENT_FD_ALLOC_FLAGS, FLAGS,
			  MLX5_EVENT_FD_FLAGS, MAND)),
};

static const struct abi_method var[] = {
	METHOD_D(MLX5_IB_METHOD_VAR_OBJ_ALLOC, ALLOC, 0,
		 A_DIDR(MLX5_IB_ATTR_VAR_OBJ_ALLOC_HANDLE, HANDLE, MLX5_IB_OBJECT_VAR, NEW, MAND),
		 A_DFLAGS(MLX5_IB_ATTR_VAR_OBJ_ALLOC_FLAGS, FLAGS, MLX5_VAR_FLAGS, OPT),
		 A_DOUT(MLX5_IB_ATTR_VAR_OBJ_ALLOC_PAGE_ID, PAGE_ID, U32, 4, MAND),
		 A_DOUT(MLX5_IB_ATTR_VAR_OBJ_ALLOC_MMAP_LENGTH, MMAP_LENGTH, U32, 4, MAND),
		 A_DOUT(MLX5_IB_ATTR_VAR_OBJ_ALLOC_MMAP_OFFSET, MMAP_OFFSET, X64, 8, MAND)),
	METHOD_D(MLX5_IB_METHOD_VAR_OBJ_DESTROY, DESTROY, 0,
		 A_DIDR(MLX5_IB_ATTR_VAR_OBJ_DESTROY_HANDLE, HANDLE, MLX5_IB_OBJECT_VAR, DESTROY,
			MAND)),
};

/* PP's context is the device's set_pp_rate_limit_context (PRM, 48 bytes) */
static const struct abi_method pp[] = {
	METHOD_D(MLX5_IB_METHOD_PP_OBJ_ALLOC, ALLOC, 0,
		 A_DIDR(MLX5_IB_ATTR_PP_OBJ_ALLOC_HANDLE, HANDLE, MLX5_IB_OBJECT_PP, NEW, MAND),
		 A_DIN_SIZE(MLX5_IB_ATTR_PP_OBJ_ALLOC_CTX, CTX, BYTES, 1, 48, MAND | COPY),
		 A_DFLAGS(MLX5_IB_ATTR_PP_OBJ_ALLOC_FLAGS, FLAGS, MLX5_PP_FLAGS, MAND),
		 A_DOUT(MLX5_IB_ATTR_PP_OBJ_ALLOC_INDEX, INDEX, U16, 2, MAND)),
	METHOD_D(MLX5_IB_METHOD_PP_OBJ_DESTROY, DESTROY, 0,
		 A_DIDR(MLX5_IB_ATTR_PP_OBJ_DESTROY_HANDLE, HANDLE, MLX5_IB_OBJECT_PP, DESTROY,
			MAND)),
};

static const struct abi_method uar[] = {
	METHOD_D(MLX5_IB_METHOD_UAR_OBJ_ALLOC, ALLOC, 0,
		 A_DIDR(MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE, HANDLE, MLX5_IB_OBJECT_UAR, NEW, MAND),
		 A_DCONST(MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, TYPE, MLX5_UAR_TYPE, MAND),
		 A_DOUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, PAGE_ID, U32, 4, MAND),
		 A_DOUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, MMAP_LENGTH, U32, 4, MAND),
		 A_DOUT(MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, MMAP_OFFSET, X64, 8, MAND)),
	METHOD_D(MLX5_IB_METHOD_UAR_OBJ_DESTROY, DESTROY, 0,
		 A_DIDR(MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, HANDLE, MLX5_IB_OBJECT_UAR, DESTROY,
			MAND)),
};

static const struct abi_method steering_anchor[] = {
	METHOD_D(MLX5_IB_METHOD_STEERING_ANCHOR_CREATE, CREATE, 0,
		 A_DIDR(MLX5_IB_ATTR_STEERING_ANCHOR_CREATE_HANDLE, HANDLE,
			MLX5_IB_OBJECT_STEERING_ANCHOR, NEW, MAND),
		 A_DCONST(MLX5_IB_ATTR_STEERING_ANCHOR_FT_TYPE, FT_TYPE, MLX5_FT_TYPE, MAND),
		 A_DIN(MLX5_IB_ATTR_STEERING_ANCHOR_PRIORITY, PRIORITY, U16, 2, MAND),
		 A_DOUT(MLX5_IB_ATTR_STEERING_ANCHOR_FT_ID, FT_ID, U32, 4, MAND)),
	METHOD_D(MLX5_IB_METHOD_STEERING_ANCHOR_DESTROY, DESTROY, 0,
		 A_DIDR(MLX5_IB_ATTR_STEERING_ANCHOR_DESTROY_HANDLE, HANDLE,
			MLX5_IB_OBJECT_STEERING_ANCHOR, DESTROY, MAND)),
};

/* Methods of mlx5's on core objects. DEVICE's QUERY_PORT is named apart
 * from the core's QUERY_PORT. */
static const struct abi_method device[] = {
	METHOD_D(MLX5_IB_METHOD_QUERY_PORT, MLX5_QUERY_PORT, 0,
		 A_DIN(MLX5_IB_ATTR_QUERY_PORT_PORT_NUM, PORT_NUM, U32, 4, MAND),
		 A_DOUT_STRUCT(MLX5_IB_ATTR_QUERY_PORT, QUERY_PORT, MLX5_QUERY_PORT, 40, 40, MAND)),
	METHOD_D(MLX5_IB_METHOD_GET_DATA_DIRECT_SYSFS_PATH, GET_DATA_DIRECT_SYSFS_PATH, 0,
		 A_DOUT_MIN(MLX5_IB_ATTR_GET_DATA_DIRECT_SYSFS_PATH, SYSFS_PATH, BYTES, 0, MAND)),
};

static const struct abi_method pd[] = {
	METHOD_D(MLX5_IB_METHOD_PD_QUERY, QUERY, 0,
		 A_DIDR(MLX5_IB_ATTR_QUERY_PD_HANDLE, HANDLE, UVERBS_OBJECT_PD, READ, MAND),
		 A_DOUT(MLX5_IB_ATTR_QUERY_PD_RESP_PDN, RESP_PDN, U32, 4, MAND)),
};

static const struct abi_method dm[] = {
	METHOD_D(MLX5_IB_METHOD_DM_MAP_OP_ADDR, MAP_OP_ADDR, 0,
		 A_DIDR(MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_HANDLE, REQ_HANDLE, UVERBS_OBJECT_DM,
			READ, MAND),
		 A_DIN(MLX5_IB_ATTR_DM_MAP_OP_ADDR_REQ_OP, REQ_OP, MLX5_DM_OP, 1, MAND),
		 A_DOUT(MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_START_OFFSET, RESP_START_OFFSET, X64, 8,
			MAND),
		 A_DOUT(MLX5_IB_ATTR_DM_MAP_OP_ADDR_RESP_PAGE_INDEX, RESP_PAGE_INDEX, U16, 2,
			OPT)),
	METHOD_D(MLX5_IB_METHOD_DM_QUERY, QUERY, 0,
		 A_DIDR(MLX5_IB_ATTR_QUERY_DM_REQ_HANDLE, REQ_HANDLE, UVERBS_OBJECT_DM, READ,
			MAND),
		 A_DOUT(MLX5_IB_ATTR_QUERY_DM_RESP_START_OFFSET, RESP_START_OFFSET, X64, 8, MAND),
		 A_DOUT(MLX5_IB_ATTR_QUERY_DM_RESP_PAGE_INDEX, RESP_PAGE_INDEX, U16, 2, MAND),
		 A_DOUT(MLX5_IB_ATTR_QUERY_DM_RESP_LENGTH, RESP_LENGTH, U64, 8, MAND)),
};

#define COUNTERS_OFFSET MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX_OFFSET
/* CREATE_FLOW takes up to MLX5_IB_CREATE_FLOW_MAX_FLOW_ACTIONS (32) flow
 * actions and one DEVX counter object. */
static const struct abi_method flow[] = {
	METHOD_D(MLX5_IB_METHOD_CREATE_FLOW, CREATE_FLOW, 0,
		 A_DIDR(MLX5_IB_ATTR_CREATE_FLOW_HANDLE, HANDLE, UVERBS_OBJECT_FLOW, NEW, MAND),
		 A_DIN_SIZE(MLX5_IB_ATTR_CREATE_FLOW_MATCH_VALUE, MATCH_VALUE, MLX5_MATCH_PARAMS,
			    1, UVIO_MLX5_MATCH_PARAMS_MAX, MAND | COPY),
		 A_DIDR(MLX5_IB_ATTR_CREATE_FLOW_MATCHER, MATCHER, MLX5_IB_OBJECT_FLOW_MATCHER,
			READ, MAND),
		 A_DIDR(MLX5_IB_ATTR_CREATE_FLOW_DEST_QP, DEST_QP, UVERBS_OBJECT_QP, READ, OPT),
		 A_DIDR(MLX5_IB_ATTR_CREATE_FLOW_DEST_DEVX, DEST_DEVX, MLX5_IB_OBJECT_DEVX_OBJ,
			READ, OPT),
		 A_D(MLX5_IB_ATTR_CREATE_FLOW_ARR_FLOW_ACTIONS, ARR_FLOW_ACTIONS, IDRS,
		     ABI_ACCESS(AC_READ), UVERBS_OBJECT_FLOW_ACTION, HANDLE, 4, 32 * 4),
		 A_DIN(MLX5_IB_ATTR_CREATE_FLOW_TAG, TAG, X32, 4, OPT),
		 A_D(MLX5_IB_ATTR_CREATE_FLOW_ARR_COUNTERS_DEVX, ARR_COUNTERS_DEVX, IDRS,
		     ABI_ACCESS(AC_READ), MLX5_IB_OBJECT_DEVX_OBJ, HANDLE, 4, 4),
		 A_DIN_MIN(COUNTERS_OFFSET, ARR_COUNTERS_DEVX_OFFSET, U32, 4, COPY),
		 A_DFLAGS(MLX5_IB_ATTR_CREATE_FLOW_FLAGS, FLAGS, MLX5_CREATE_FLOW_FLAGS, OPT)),
	METHOD_D(MLX5_IB_METHOD_DESTROY_FLOW, DESTROY_FLOW, 0,
		 A_DIDR(MLX5_IB_ATTR_DESTROY_FLOW_HANDLE, HANDLE, UVERBS_OBJECT_FLOW, DESTROY,
			MAND)),
};

/* The modify-header actions are the device's (PRM) 8-byte actions. */
static const struct abi_method flow_action[] = {
	METHOD_D(MLX5_IB_METHOD_FLOW_ACTION_CREATE_MODIFY_HEADER, CREATE_MODIFY_HEADER, 0,
		 A_DIDR(MLX5_IB_ATTR_CREATE_MODIFY_HEADER_HANDLE, HANDLE,
			UVERBS_OBJECT_FLOW_ACTION, NEW, MAND),
		 A_DIN_MIN(MLX5_IB_ATTR_CREATE_MODIFY_HEADER_ACTIONS_PRM, ACTIONS_PRM, BE64, 8,
			   MAND | COPY),
		 A_DCONST(MLX5_IB_ATTR_CREATE_MODIFY_HEADER_FT_TYPE, FT_TYPE, MLX5_FT_TYPE, MAND)),
	METHOD_D(MLX5_IB_METHOD_FLOW_ACTION_CREATE_PACKET_REFORMAT, CREATE_PACKET_REFORMAT, 0,
		 A_DIDR(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_HANDLE, HANDLE,
			UVERBS_OBJECT_FLOW_ACTION, NEW, MAND),
		 A_DIN_MIN(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_DATA_BUF, DATA_BUF, BYTES, 1,
			   OPT | COPY),
		 A_DCONST(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_TYPE, TYPE, MLX5_REFORMAT_TYPE, MAND),
		 A_DCONST(MLX5_IB_ATTR_CREATE_PACKET_REFORMAT_FT_TYPE, FT_TYPE, MLX5_FT_TYPE,
			  MAND)),
};

static const struct abi_object objects[] = {
	OBJECT_D(MLX5_IB_OBJECT_DEVX, DEVX, GLOBAL, devx),
	OBJECT_D(MLX5_IB_OBJECT_DEVX_OBJ, DEVX_OBJ, IDR, devx_obj),
	OBJECT_D(MLX5_IB_OBJECT_DEVX_UMEM, DEVX_UMEM, IDR, devx_umem),
	OBJECT_D(MLX5_IB_OBJECT_FLOW_MATCHER, FLOW_MATCHER, IDR, flow_matcher),
	OBJECT_D(MLX5_IB_OBJECT_DEVX_ASYNC_CMD_FD, DEVX_ASYNC_CMD_FD, FD, async_cmd_fd),
	OBJECT_D(MLX5_IB_OBJECT_DEVX_ASYNC_EVENT_FD, DEVX_ASYNC_EVENT_FD, FD, async_event_fd),
	OBJECT_D(MLX5_IB_OBJECT_VAR, VAR, IDR, var),
	OBJECT_D(MLX5_IB_OBJECT_PP, PP, IDR, pp),
	OBJECT_D(MLX5_IB_OBJECT_UAR, UAR, IDR, uar),
	OBJECT_D(MLX5_IB_OBJECT_STEERING_ANCHOR, STEERING_ANCHOR, IDR, steering_anchor),
	/* mlx5's methods of core objects, under the core objects' names */
	OBJECT_D(UVERBS_OBJECT_DEVICE, DEVICE, GLOBAL, device),
	OBJECT_D(UVERBS_OBJECT_PD, PD, IDR, pd),
	OBJECT_D(UVERBS_OBJECT_DM, DM, IDR, dm),
	OBJECT_D(UVERBS_OBJECT_FLOW, FLOW, IDR, flow),
	OBJECT_D(UVERBS_OBJECT_FLOW_ACTION, FLOW_ACTION, IDR, flow_action),
};

/* Attributes mlx5 adds to core methods. FLOW_ACTION ESP_CREATE's FLAGS is
 * of the kernels that had ESP (until 5.16). */
static const struct abi_drv_attrs attrs[] = {
	ATTRS_D(CQ, CQ_CREATE,
		A_DIN(MLX5_IB_ATTR_CREATE_CQ_UAR_INDEX, UAR_INDEX, U32, 4, OPT),
		A_DIN(MLX5_IB_ATTR_CREATE_CQ_DBR_BUF_UMEM, DBR_BUF_UMEM, BUFFER_DESC, 32, OPT)),
	ATTRS_D(QP, QP_CREATE,
		A_DIN(MLX5_IB_ATTR_CREATE_QP_DBR_BUF_UMEM, DBR_BUF_UMEM, BUFFER_DESC, 32, OPT)),
	ATTRS_D(DM, DM_ALLOC,
		A_DOUT(MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, RESP_START_OFFSET, X64, 8, MAND),
		A_DOUT(MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, RESP_PAGE_INDEX, U16, 2, OPT),
		A_DCONST(MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, REQ_TYPE, MLX5_DM_TYPE, OPT)),
	ATTRS_D(DEVICE, QUERY_CONTEXT,
		A_DOUT_STRUCT(MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, RESP_UCTX, MLX5_UCTX_RESP,
			      (uint16_t)(offsetof(mlx5_uctx_resp, dump_fill_mkey) + 4),
			      sizeof(mlx5_uctx_resp), MAND)),
	ATTRS_D(MR, REG_DMABUF_MR,
		A_DFLAGS(MLX5_IB_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, ACCESS_FLAGS,
			 MLX5_DMABUF_FLAGS, OPT)),
	ATTRS_D(FLOW_ACTION, FLOW_ACTION_ESP_CREATE,
		A_DFLAGS(MLX5_IB_ATTR_CREATE_FLOW_ACTION_FLAGS, FLAGS, MLX5_FLOW_ACTION_FLAGS,
			 OPT)),
};

/* ---- driver data, per command ------------------------------------------ */


static const struct abi_drv_udata udata[] = {
	/* the context: v2 of the request unless it is exactly v1's 8 bytes */
	UD_WHEN(UD_KEY_METHOD(DEVICE, GET_CONTEXT), LEN, MLX5_UCTX_REQ, MLX5_UCTX_RESP),
	UD_WHEN(UD_KEY_METHOD(DEVICE, GET_CONTEXT), ALWAYS, MLX5_UCTX_REQ_V2, MLX5_UCTX_RESP),
	UD_WHEN(UD_KEY_WRITE(GET_CONTEXT), LEN, MLX5_UCTX_REQ, MLX5_UCTX_RESP),
	UD_WHEN(UD_KEY_WRITE(GET_CONTEXT), ALWAYS, MLX5_UCTX_REQ_V2, MLX5_UCTX_RESP),
	UD_WRITE_EX(QUERY_DEVICE, NONE, MLX5_QUERY_DEVICE_RESP),
	UD_WRITE(ALLOC_PD, NONE, MLX5_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, MLX5_CREATE_CQ, MLX5_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, MLX5_CREATE_CQ, MLX5_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, MLX5_CREATE_CQ, MLX5_CREATE_CQ_RESP),
	UD_WRITE(RESIZE_CQ, MLX5_RESIZE_CQ, NONE),
	UD_METHOD(SRQ, SRQ_CREATE, MLX5_CREATE_SRQ, MLX5_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, MLX5_CREATE_SRQ, MLX5_CREATE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, MLX5_CREATE_SRQ, MLX5_CREATE_SRQ_RESP),
	/* a QP over an indirection table (RSS) takes the RSS request */
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), RSS, MLX5_CREATE_QP_RSS, MLX5_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_METHOD(QP, QP_CREATE), ALWAYS, MLX5_CREATE_QP, MLX5_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), RSS, MLX5_CREATE_QP_RSS, MLX5_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_WRITE(CREATE_QP), ALWAYS, MLX5_CREATE_QP, MLX5_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), RSS, MLX5_CREATE_QP_RSS, MLX5_CREATE_QP_RESP),
	UD_WHEN(UD_KEY_WRITE_EX(CREATE_QP), ALWAYS, MLX5_CREATE_QP, MLX5_CREATE_QP_RESP),
	UD_WRITE_EX(MODIFY_QP, MLX5_MODIFY_QP, MLX5_MODIFY_QP_RESP),
	UD_WRITE(CREATE_AH, NONE, MLX5_CREATE_AH_RESP),
	UD_WRITE(ALLOC_MW, MLX5_ALLOC_MW, MLX5_ALLOC_MW_RESP),
	UD_METHOD(WQ, WQ_CREATE, MLX5_CREATE_WQ, MLX5_CREATE_WQ_RESP),
	UD_WRITE_EX(CREATE_WQ, MLX5_CREATE_WQ, MLX5_CREATE_WQ_RESP),
	UD_WRITE_EX(MODIFY_WQ, MLX5_MODIFY_WQ, NONE),
	UD_WRITE_EX(CREATE_RWQ_IND_TBL, NONE, MLX5_RWQ_IND_TBL_RESP),
	UD_WRITE_EX(CREATE_FLOW, MLX5_CREATE_FLOW, NONE),
};

const struct abi_driver abi_drv_mlx5 = {
	RDMA_DRIVER_MLX5, N(mlx5), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	sizeof(objects) / sizeof(objects[0]), sizeof(attrs) / sizeof(attrs[0]),
	sizeof(udata) / sizeof(udata[0]), objects, attrs, udata,
};
