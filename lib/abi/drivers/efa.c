// SPDX-License-Identifier: MIT
/*
 * efa (RDMA_DRIVER_EFA, AWS Elastic Fabric Adapter) described as data: its
 * driver data (<rdma/efa-abi.h>), as efa uses it: the context's request
 * (comp_mask) and answer (limits, inline sizes), the PD number,
 * EX_QUERY_DEVICE's capabilities, CREATE_CQ (entry size, flags from 5.14)
 * and its answer (doorbell offset and key from 5.14), CREATE_QP (ring sizes,
 * the driver QP type) and its answer (mmap keys and offsets), CREATE_AH's AH
 * number; what came after 6.1's header by offset, as Linux 7.2's states it
 * (the context's inline_buf_size_ex, CREATE_QP's flags and service level);
 * and its ioctl addition, MR_QUERY on the core MR object (6.4: the
 * interconnect ids of an MR). The CQ structs by offset (5.10's lack flags,
 * db_off and db_mmap_key).
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/efa-abi.h>
#include "abi/uapi.h"

#include "abi/abi.h"

typedef struct efa_ibv_alloc_ucontext_cmd efa_alloc_ucontext_cmd;
typedef struct efa_ibv_alloc_ucontext_resp efa_alloc_ucontext_resp;
typedef struct efa_ibv_alloc_pd_resp efa_alloc_pd_resp;
typedef struct efa_ibv_create_qp efa_create_qp;
typedef struct efa_ibv_create_qp_resp efa_create_qp_resp;
typedef struct efa_ibv_create_ah_resp efa_create_ah_resp;
typedef struct efa_ibv_ex_query_device_resp efa_ex_query_device_resp;

_Static_assert(sizeof(efa_alloc_ucontext_cmd) == 8 &&
	       sizeof(efa_alloc_ucontext_resp) == 24 &&
	       sizeof(efa_alloc_pd_resp) == 8 &&
	       sizeof(efa_create_qp) == 16 &&
	       sizeof(efa_create_qp_resp) == 64 &&
	       sizeof(efa_create_ah_resp) == 8 &&
	       sizeof(efa_ex_query_device_resp) == 24,
	       "efa-abi.h struct sizes");

/* Structs by offset, as of the headers that last changed them; checked
 * against the system header where it has them. */
#if UVIO_SYS_UAPI_6_1
_Static_assert(sizeof(struct efa_ibv_create_cq) >= 16 &&
	       offsetof(struct efa_ibv_create_cq, comp_mask) == 0 &&
	       offsetof(struct efa_ibv_create_cq, cq_entry_size) == 4 &&
	       offsetof(struct efa_ibv_create_cq, num_sub_cqs) == 8 &&
	       offsetof(struct efa_ibv_create_cq, flags) == 10 &&
	       offsetof(struct efa_ibv_create_cq, reserved_58) == 11, "efa_ibv_create_cq");
_Static_assert(sizeof(struct efa_ibv_create_cq_resp) >= 40 &&
	       offsetof(struct efa_ibv_create_cq_resp, comp_mask) == 0 &&
	       offsetof(struct efa_ibv_create_cq_resp, reserved_20) == 4 &&
	       offsetof(struct efa_ibv_create_cq_resp, q_mmap_key) == 8 &&
	       offsetof(struct efa_ibv_create_cq_resp, q_mmap_size) == 16 &&
	       offsetof(struct efa_ibv_create_cq_resp, cq_idx) == 24 &&
	       offsetof(struct efa_ibv_create_cq_resp, reserved_d0) == 26 &&
	       offsetof(struct efa_ibv_create_cq_resp, db_off) == 28 &&
	       offsetof(struct efa_ibv_create_cq_resp, db_mmap_key) == 32, "efa_ibv_create_cq_resp");
#endif


/* MR_QUERY's ids (6.4's <rdma/efa-abi.h>). */
enum {
	UVIO_EFA_IB_METHOD_MR_QUERY = 0x1000,
	UVIO_EFA_IB_ATTR_QUERY_MR_HANDLE = 0x1000, UVIO_EFA_IB_ATTR_QUERY_MR_RESP_IC_ID_VALIDITY,
	UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RECV_IC_ID, UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RDMA_READ_IC_ID,
	UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RDMA_RECV_IC_ID,
};
#if UVIO_SYS_UAPI_6_12
UVIO_UAPI_CHECK(EFA_IB_METHOD_MR_QUERY, UVIO_EFA_IB_METHOD_MR_QUERY);
UVIO_UAPI_CHECK(EFA_IB_ATTR_QUERY_MR_HANDLE, UVIO_EFA_IB_ATTR_QUERY_MR_HANDLE);
UVIO_UAPI_CHECK(EFA_IB_ATTR_QUERY_MR_RESP_RDMA_RECV_IC_ID,
		UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RDMA_RECV_IC_ID);
#endif

enum {
	VT_EFA_FIRST = ABI_VT_DRIVER_BASE(11),
	VT_EFA_ALLOC_UCONTEXT_CMD = VT_EFA_FIRST,
	VT_EFA_ALLOC_UCONTEXT_RESP,
	VT_EFA_ALLOC_PD_RESP,
	VT_EFA_CREATE_CQ,
	VT_EFA_CREATE_CQ_RESP,
	VT_EFA_CREATE_QP,
	VT_EFA_CREATE_QP_RESP,
	VT_EFA_CREATE_AH_RESP,
	VT_EFA_EX_QUERY_DEVICE_RESP,
	VT_EFA_CREATE_QP_FLAGS, VT_EFA_MR_VALIDITY,
	VT_EFA__END
};

static const struct abi_vtype vtypes[VT_EFA__END - VT_EFA_FIRST] = {
	STRUCT(EFA_ALLOC_UCONTEXT_CMD, efa_alloc_ucontext_cmd,
	       F(efa_alloc_ucontext_cmd, comp_mask, X32),
	       F(efa_alloc_ucontext_cmd, reserved_20, RSVD)),
	STRUCT(EFA_ALLOC_UCONTEXT_RESP, efa_alloc_ucontext_resp,
	       F(efa_alloc_ucontext_resp, comp_mask, X32),
	       F(efa_alloc_ucontext_resp, cmds_supp_udata_mask, X32),
	       F(efa_alloc_ucontext_resp, sub_cqs_per_cq, U16),
	       F(efa_alloc_ucontext_resp, inline_buf_size, U16),
	       F(efa_alloc_ucontext_resp, max_llq_size, U32),
	       F(efa_alloc_ucontext_resp, max_tx_batch, U16),
	       F(efa_alloc_ucontext_resp, min_sq_wr, U16),
	       FO(inline_buf_size_ex, 20, 2, U16),
	       FO(reserved_b0, 22, 2, RSVD)),
	STRUCT(EFA_ALLOC_PD_RESP, efa_alloc_pd_resp,
	       F(efa_alloc_pd_resp, comp_mask, X32),
	       F(efa_alloc_pd_resp, pdn, U16),
	       F(efa_alloc_pd_resp, reserved_30, RSVD)),
	STRUCT_SZ(EFA_CREATE_CQ, efa_create_cq, 16,
		  FO(comp_mask, 0, 4, X32),
		  FO(cq_entry_size, 4, 4, U32),
		  FO(num_sub_cqs, 8, 2, U16),
		  FO(flags, 10, 1, U8),
		  FO(reserved_58, 11, 5, RSVD)),
	STRUCT_SZ(EFA_CREATE_CQ_RESP, efa_create_cq_resp, 40,
		  FO(comp_mask, 0, 4, X32),
		  FO(reserved_20, 4, 4, RSVD),
		  FO(q_mmap_key, 8, 8, X64),
		  FO(q_mmap_size, 16, 8, X64),
		  FO(cq_idx, 24, 2, U16),
		  FO(reserved_d0, 26, 2, RSVD),
		  FO(db_off, 28, 4, U32),
		  FO(db_mmap_key, 32, 8, X64)),
	STRUCT_SZ(EFA_CREATE_QP, efa_create_qp, 24,
		  FO(comp_mask, 0, 4, X32),
		  FO(rq_ring_size, 4, 4, U32),
		  FO(sq_ring_size, 8, 4, U32),
		  FO(driver_qp_type, 12, 4, U32),
		  FO(flags, 16, 2, EFA_CREATE_QP_FLAGS),
		  FO(sl, 18, 1, U8),
		  FO(reserved_98, 19, 5, RSVD)),
	STRUCT(EFA_CREATE_QP_RESP, efa_create_qp_resp,
	       F(efa_create_qp_resp, comp_mask, X32),
	       F(efa_create_qp_resp, rq_db_offset, U32),
	       F(efa_create_qp_resp, sq_db_offset, U32),
	       F(efa_create_qp_resp, llq_desc_offset, U32),
	       F(efa_create_qp_resp, rq_mmap_key, X64),
	       F(efa_create_qp_resp, rq_mmap_size, X64),
	       F(efa_create_qp_resp, rq_db_mmap_key, X64),
	       F(efa_create_qp_resp, sq_db_mmap_key, X64),
	       F(efa_create_qp_resp, llq_desc_mmap_key, X64),
	       F(efa_create_qp_resp, send_sub_cq_idx, U16),
	       F(efa_create_qp_resp, recv_sub_cq_idx, U16),
	       F(efa_create_qp_resp, reserved_1e0, RSVD)),
	STRUCT(EFA_CREATE_AH_RESP, efa_create_ah_resp,
	       F(efa_create_ah_resp, comp_mask, X32),
	       F(efa_create_ah_resp, efa_address_handle, U16),
	       F(efa_create_ah_resp, reserved_30, RSVD)),
	STRUCT(EFA_EX_QUERY_DEVICE_RESP, efa_ex_query_device_resp,
	       F(efa_ex_query_device_resp, comp_mask, X32),
	       F(efa_ex_query_device_resp, max_sq_wr, U32),
	       F(efa_ex_query_device_resp, max_rq_wr, U32),
	       F(efa_ex_query_device_resp, max_sq_sge, U16),
	       F(efa_ex_query_device_resp, max_rq_sge, U16),
	       F(efa_ex_query_device_resp, max_rdma_size, U32),
	       F(efa_ex_query_device_resp, device_caps, X32)),
	FLAGS(EFA_CREATE_QP_FLAGS, efa_create_qp_flags, B(0x1, UNSOLICITED_WRITE_RECV)),
	FLAGS(EFA_MR_VALIDITY, efa_query_mr_validity,
	      B(0x1, RECV_IC_ID), B(0x2, RDMA_READ_IC_ID), B(0x4, RDMA_RECV_IC_ID)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, EFA_ALLOC_UCONTEXT_CMD, EFA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, EFA_ALLOC_UCONTEXT_CMD, EFA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, EFA_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, EFA_CREATE_CQ, EFA_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, EFA_CREATE_CQ, EFA_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, EFA_CREATE_CQ, EFA_CREATE_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, EFA_CREATE_QP, EFA_CREATE_QP_RESP),
	UD_WRITE(CREATE_QP, EFA_CREATE_QP, EFA_CREATE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, EFA_CREATE_QP, EFA_CREATE_QP_RESP),
	UD_WRITE(CREATE_AH, NONE, EFA_CREATE_AH_RESP),
	UD_WRITE_EX(QUERY_DEVICE, NONE, EFA_EX_QUERY_DEVICE_RESP),
};

static const struct abi_method mr[] = {
	METHOD_D(UVIO_EFA_IB_METHOD_MR_QUERY, MR_QUERY, 0,
		 A_DIDR(UVIO_EFA_IB_ATTR_QUERY_MR_HANDLE, HANDLE, UVERBS_OBJECT_MR, READ, MAND),
		 A_DOUT(UVIO_EFA_IB_ATTR_QUERY_MR_RESP_IC_ID_VALIDITY, RESP_IC_ID_VALIDITY,
			EFA_MR_VALIDITY, 2, MAND),
		 A_DOUT(UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RECV_IC_ID, RESP_RECV_IC_ID, U16, 2, MAND),
		 A_DOUT(UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RDMA_READ_IC_ID, RESP_RDMA_READ_IC_ID, U16, 2,
			MAND),
		 A_DOUT(UVIO_EFA_IB_ATTR_QUERY_MR_RESP_RDMA_RECV_IC_ID, RESP_RDMA_RECV_IC_ID, U16, 2,
			MAND)),
};

/* efa's method of the core MR object, under the core object's name */
static const struct abi_object objects[] = {
	OBJECT_D(UVERBS_OBJECT_MR, MR, IDR, mr),
};

const struct abi_driver abi_drv_efa = {
	RDMA_DRIVER_EFA, N(efa), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	sizeof(objects) / sizeof(objects[0]), 0, sizeof(udata) / sizeof(udata[0]), objects, NULL,
	udata,
};
