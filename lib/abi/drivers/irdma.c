// SPDX-License-Identifier: MIT
/*
 * irdma (RDMA_DRIVER_IRDMA, the enumerator that was I40IW: Intel E810 and
 * X722) described as data: its driver data (<rdma/irdma-abi.h>, 5.14 on),
 * as irdma uses it: the context's request (user space's ABI version) and
 * answer (limits, doorbell mmap key, hardware revision), the PD number,
 * CREATE_CQ and RESIZE_CQ (buffer, shadow area), CREATE_QP (buffers) and its
 * answer (QP id, caps, the push window), MODIFY_QP's flush request and push
 * window answer, REG_MR's region type and sizes, and CREATE_AH's AH id. No ioctl
 * namespace. Every struct by offset, as 6.1's header lays it out (Debian
 * 11's 5.10 has no irdma-abi.h), checked against the system's header where
 * it has one.
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#if __has_include(<rdma/irdma-abi.h>)
#include <rdma/irdma-abi.h>
#define UVIO_HAVE_IRDMA_ABI_H 1
#endif

#include "abi/abi.h"



/* Structs by offset, as of the headers that last changed them; checked
 * against the system header where it has them. */
#if defined(UVIO_HAVE_IRDMA_ABI_H)
_Static_assert(sizeof(struct irdma_alloc_ucontext_req) >= 16 &&
	       offsetof(struct irdma_alloc_ucontext_req, rsvd32) == 0 &&
	       offsetof(struct irdma_alloc_ucontext_req, userspace_ver) == 4 &&
	       offsetof(struct irdma_alloc_ucontext_req, rsvd8) == 5 &&
	       offsetof(struct irdma_alloc_ucontext_req, comp_mask) == 8, "irdma_alloc_ucontext_req");
_Static_assert(sizeof(struct irdma_alloc_ucontext_resp) >= 72 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_pds) == 0 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_qps) == 4 &&
	       offsetof(struct irdma_alloc_ucontext_resp, wq_size) == 8 &&
	       offsetof(struct irdma_alloc_ucontext_resp, kernel_ver) == 12 &&
	       offsetof(struct irdma_alloc_ucontext_resp, rsvd) == 13 &&
	       offsetof(struct irdma_alloc_ucontext_resp, feature_flags) == 16 &&
	       offsetof(struct irdma_alloc_ucontext_resp, db_mmap_key) == 24 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_wq_frags) == 32 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_read_sges) == 36 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_inline) == 40 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_rq_quanta) == 44 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_wq_quanta) == 48 &&
	       offsetof(struct irdma_alloc_ucontext_resp, min_hw_cq_size) == 52 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_cq_size) == 56 &&
	       offsetof(struct irdma_alloc_ucontext_resp, max_hw_sq_chunk) == 60 &&
	       offsetof(struct irdma_alloc_ucontext_resp, hw_rev) == 62 &&
	       offsetof(struct irdma_alloc_ucontext_resp, rsvd2) == 63 &&
	       offsetof(struct irdma_alloc_ucontext_resp, comp_mask) == 64, "irdma_alloc_ucontext_resp");
_Static_assert(sizeof(struct irdma_alloc_pd_resp) >= 8 &&
	       offsetof(struct irdma_alloc_pd_resp, pd_id) == 0 &&
	       offsetof(struct irdma_alloc_pd_resp, rsvd) == 4, "irdma_alloc_pd_resp");
_Static_assert(sizeof(struct irdma_resize_cq_req) >= 8 &&
	       offsetof(struct irdma_resize_cq_req, user_cq_buffer) == 0, "irdma_resize_cq_req");
_Static_assert(sizeof(struct irdma_create_cq_req) >= 16 &&
	       offsetof(struct irdma_create_cq_req, user_cq_buf) == 0 &&
	       offsetof(struct irdma_create_cq_req, user_shadow_area) == 8, "irdma_create_cq_req");
_Static_assert(sizeof(struct irdma_create_qp_req) >= 16 &&
	       offsetof(struct irdma_create_qp_req, user_wqe_bufs) == 0 &&
	       offsetof(struct irdma_create_qp_req, user_compl_ctx) == 8, "irdma_create_qp_req");
_Static_assert(sizeof(struct irdma_mem_reg_req) >= 8 &&
	       offsetof(struct irdma_mem_reg_req, reg_type) == 0 &&
	       offsetof(struct irdma_mem_reg_req, cq_pages) == 2 &&
	       offsetof(struct irdma_mem_reg_req, rq_pages) == 4 &&
	       offsetof(struct irdma_mem_reg_req, sq_pages) == 6, "irdma_mem_reg_req");
_Static_assert(sizeof(struct irdma_modify_qp_req) >= 8 &&
	       offsetof(struct irdma_modify_qp_req, sq_flush) == 0 &&
	       offsetof(struct irdma_modify_qp_req, rq_flush) == 1 &&
	       offsetof(struct irdma_modify_qp_req, rsvd) == 2, "irdma_modify_qp_req");
_Static_assert(sizeof(struct irdma_create_cq_resp) >= 8 &&
	       offsetof(struct irdma_create_cq_resp, cq_id) == 0 &&
	       offsetof(struct irdma_create_cq_resp, cq_size) == 4, "irdma_create_cq_resp");
_Static_assert(sizeof(struct irdma_create_qp_resp) >= 24 &&
	       offsetof(struct irdma_create_qp_resp, qp_id) == 0 &&
	       offsetof(struct irdma_create_qp_resp, actual_sq_size) == 4 &&
	       offsetof(struct irdma_create_qp_resp, actual_rq_size) == 8 &&
	       offsetof(struct irdma_create_qp_resp, irdma_drv_opt) == 12 &&
	       offsetof(struct irdma_create_qp_resp, push_idx) == 16 &&
	       offsetof(struct irdma_create_qp_resp, lsmm) == 18 &&
	       offsetof(struct irdma_create_qp_resp, rsvd) == 19 &&
	       offsetof(struct irdma_create_qp_resp, qp_caps) == 20, "irdma_create_qp_resp");
_Static_assert(sizeof(struct irdma_modify_qp_resp) >= 24 &&
	       offsetof(struct irdma_modify_qp_resp, push_wqe_mmap_key) == 0 &&
	       offsetof(struct irdma_modify_qp_resp, push_db_mmap_key) == 8 &&
	       offsetof(struct irdma_modify_qp_resp, push_offset) == 16 &&
	       offsetof(struct irdma_modify_qp_resp, push_valid) == 18 &&
	       offsetof(struct irdma_modify_qp_resp, rsvd) == 19, "irdma_modify_qp_resp");
_Static_assert(sizeof(struct irdma_create_ah_resp) >= 8 &&
	       offsetof(struct irdma_create_ah_resp, ah_id) == 0 &&
	       offsetof(struct irdma_create_ah_resp, rsvd) == 4, "irdma_create_ah_resp");
#endif


enum {
	VT_IRDMA_FIRST = ABI_VT_DRIVER_BASE(13),
	VT_IRDMA_ALLOC_UCONTEXT_REQ = VT_IRDMA_FIRST,
	VT_IRDMA_ALLOC_UCONTEXT_RESP,
	VT_IRDMA_ALLOC_PD_RESP,
	VT_IRDMA_RESIZE_CQ_REQ,
	VT_IRDMA_CREATE_CQ_REQ,
	VT_IRDMA_CREATE_QP_REQ,
	VT_IRDMA_MEM_REG_REQ,
	VT_IRDMA_MODIFY_QP_REQ,
	VT_IRDMA_CREATE_CQ_RESP,
	VT_IRDMA_CREATE_QP_RESP,
	VT_IRDMA_MODIFY_QP_RESP,
	VT_IRDMA_CREATE_AH_RESP,
	VT_IRDMA__END
};

static const struct abi_vtype vtypes[VT_IRDMA__END - VT_IRDMA_FIRST] = {
	STRUCT_SZ(IRDMA_ALLOC_UCONTEXT_REQ, irdma_alloc_ucontext_req, 16,
		  FO(rsvd32, 0, 4, RSVD),
		  FO(userspace_ver, 4, 1, U8),
		  FO(rsvd8, 5, 3, RSVD),
		  FO(comp_mask, 8, 8, X64)),
	STRUCT_SZ(IRDMA_ALLOC_UCONTEXT_RESP, irdma_alloc_ucontext_resp, 72,
		  FO(max_pds, 0, 4, U32),
		  FO(max_qps, 4, 4, U32),
		  FO(wq_size, 8, 4, U32),
		  FO(kernel_ver, 12, 1, U8),
		  FO(rsvd, 13, 3, RSVD),
		  FO(feature_flags, 16, 8, X64),
		  FO(db_mmap_key, 24, 8, X64),
		  FO(max_hw_wq_frags, 32, 4, U32),
		  FO(max_hw_read_sges, 36, 4, U32),
		  FO(max_hw_inline, 40, 4, U32),
		  FO(max_hw_rq_quanta, 44, 4, U32),
		  FO(max_hw_wq_quanta, 48, 4, U32),
		  FO(min_hw_cq_size, 52, 4, U32),
		  FO(max_hw_cq_size, 56, 4, U32),
		  FO(max_hw_sq_chunk, 60, 2, U16),
		  FO(hw_rev, 62, 1, U8),
		  FO(rsvd2, 63, 1, RSVD),
		  FO(comp_mask, 64, 8, X64)),
	STRUCT_SZ(IRDMA_ALLOC_PD_RESP, irdma_alloc_pd_resp, 8,
		  FO(pd_id, 0, 4, U32),
		  FO(rsvd, 4, 4, RSVD)),
	STRUCT_SZ(IRDMA_RESIZE_CQ_REQ, irdma_resize_cq_req, 8,
		  FO(user_cq_buffer, 0, 8, X64)),
	STRUCT_SZ(IRDMA_CREATE_CQ_REQ, irdma_create_cq_req, 16,
		  FO(user_cq_buf, 0, 8, X64),
		  FO(user_shadow_area, 8, 8, X64)),
	STRUCT_SZ(IRDMA_CREATE_QP_REQ, irdma_create_qp_req, 16,
		  FO(user_wqe_bufs, 0, 8, X64),
		  FO(user_compl_ctx, 8, 8, X64)),
	STRUCT_SZ(IRDMA_MEM_REG_REQ, irdma_mem_reg_req, 8,
		  FO(reg_type, 0, 2, U16),
		  FO(cq_pages, 2, 2, U16),
		  FO(rq_pages, 4, 2, U16),
		  FO(sq_pages, 6, 2, U16)),
	STRUCT_SZ(IRDMA_MODIFY_QP_REQ, irdma_modify_qp_req, 8,
		  FO(sq_flush, 0, 1, U8),
		  FO(rq_flush, 1, 1, U8),
		  FO(rsvd, 2, 6, RSVD)),
	STRUCT_SZ(IRDMA_CREATE_CQ_RESP, irdma_create_cq_resp, 8,
		  FO(cq_id, 0, 4, U32),
		  FO(cq_size, 4, 4, U32)),
	STRUCT_SZ(IRDMA_CREATE_QP_RESP, irdma_create_qp_resp, 24,
		  FO(qp_id, 0, 4, U32),
		  FO(actual_sq_size, 4, 4, U32),
		  FO(actual_rq_size, 8, 4, U32),
		  FO(irdma_drv_opt, 12, 4, U32),
		  FO(push_idx, 16, 2, U16),
		  FO(lsmm, 18, 1, U8),
		  FO(rsvd, 19, 1, RSVD),
		  FO(qp_caps, 20, 4, X32)),
	STRUCT_SZ(IRDMA_MODIFY_QP_RESP, irdma_modify_qp_resp, 24,
		  FO(push_wqe_mmap_key, 0, 8, X64),
		  FO(push_db_mmap_key, 8, 8, X64),
		  FO(push_offset, 16, 2, U16),
		  FO(push_valid, 18, 1, U8),
		  FO(rsvd, 19, 5, RSVD)),
	STRUCT_SZ(IRDMA_CREATE_AH_RESP, irdma_create_ah_resp, 8,
		  FO(ah_id, 0, 4, U32),
		  FO(rsvd, 4, 4, RSVD)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, IRDMA_ALLOC_UCONTEXT_REQ, IRDMA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(GET_CONTEXT, IRDMA_ALLOC_UCONTEXT_REQ, IRDMA_ALLOC_UCONTEXT_RESP),
	UD_WRITE(ALLOC_PD, NONE, IRDMA_ALLOC_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, IRDMA_CREATE_CQ_REQ, IRDMA_CREATE_CQ_RESP),
	UD_WRITE(CREATE_CQ, IRDMA_CREATE_CQ_REQ, IRDMA_CREATE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, IRDMA_CREATE_CQ_REQ, IRDMA_CREATE_CQ_RESP),
	UD_WRITE(RESIZE_CQ, IRDMA_RESIZE_CQ_REQ, NONE),
	UD_METHOD(QP, QP_CREATE, IRDMA_CREATE_QP_REQ, IRDMA_CREATE_QP_RESP),
	UD_WRITE(CREATE_QP, IRDMA_CREATE_QP_REQ, IRDMA_CREATE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, IRDMA_CREATE_QP_REQ, IRDMA_CREATE_QP_RESP),
	UD_WRITE(MODIFY_QP, IRDMA_MODIFY_QP_REQ, IRDMA_MODIFY_QP_RESP),
	UD_WRITE_EX(MODIFY_QP, IRDMA_MODIFY_QP_REQ, IRDMA_MODIFY_QP_RESP),
	UD_WRITE(REG_MR, IRDMA_MEM_REG_REQ, NONE),
	UD_WRITE(CREATE_AH, NONE, IRDMA_CREATE_AH_RESP),
};

const struct abi_driver abi_drv_irdma = {
	RDMA_DRIVER_I40IW /* RDMA_DRIVER_IRDMA since 5.14 */, N(irdma), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	0, 0, sizeof(udata) / sizeof(udata[0]), NULL, NULL, udata,
};
