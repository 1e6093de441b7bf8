// SPDX-License-Identifier: MIT
/*
 * bnxt_re (RDMA_DRIVER_BNXT_RE, Broadcom NetXtreme-E) described as data: its
 * driver data (<rdma/bnxt_re-abi.h>), as bnxt_re uses it: the context's
 * answer (chip, page and queue limits; the WQE mode from 6.1's header on),
 * the PD's doorbell page, the CQ, QP and SRQ requests (buffers, handles)
 * and answers (ids), with what came after 6.1's header by offset, as
 * Linux 7.2's states it (the context request, the comp_mask words, the
 * QP's fixed queue attributes, the resized CQ's buffer, EX_QUERY_DEVICE's
 * pacing caps); and its ioctl namespace: the page allocator
 * (BNXT_RE_OBJECT_ALLOC_PAGE, 6.5), NOTIFY_DRV, the toggle page
 * (GET_TOGGLE_MEM), doorbell regions (DBR, DEFAULT_DBR, 7.x) and
 * QP_CREATE's DBR handle. Ids the system's headers lack are defined here
 * and checked where they have them. bnxt_re_uctx_resp by offset (5.10's
 * lacks mode).
 */
#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/bnxt_re-abi.h>
#include "abi/uapi.h"

#include "abi/abi.h"

typedef struct bnxt_re_pd_resp bnxt_re_pd_resp;
typedef struct bnxt_re_cq_req bnxt_re_cq_req;
typedef struct bnxt_re_cq_resp bnxt_re_cq_resp;
typedef struct bnxt_re_qp_req bnxt_re_qp_req;
typedef struct bnxt_re_qp_resp bnxt_re_qp_resp;
typedef struct bnxt_re_srq_req bnxt_re_srq_req;
typedef struct bnxt_re_srq_resp bnxt_re_srq_resp;

_Static_assert(sizeof(bnxt_re_pd_resp) == 16 &&
	       sizeof(bnxt_re_cq_req) == 16 &&
	       sizeof(bnxt_re_cq_resp) == 16 &&
	       sizeof(bnxt_re_qp_req) == 24 &&
	       sizeof(bnxt_re_qp_resp) == 8 &&
	       sizeof(bnxt_re_srq_req) == 16 &&
	       sizeof(bnxt_re_srq_resp) == 4,
	       "bnxt_re-abi.h struct sizes");

/* Structs by offset, as of the headers that last changed them; checked
 * against the system header where it has them. */
#if UVIO_SYS_UAPI_6_1
_Static_assert(sizeof(struct bnxt_re_uctx_resp) >= 48 &&
	       offsetof(struct bnxt_re_uctx_resp, dev_id) == 0 &&
	       offsetof(struct bnxt_re_uctx_resp, max_qp) == 4 &&
	       offsetof(struct bnxt_re_uctx_resp, pg_size) == 8 &&
	       offsetof(struct bnxt_re_uctx_resp, cqe_sz) == 12 &&
	       offsetof(struct bnxt_re_uctx_resp, max_cqd) == 16 &&
	       offsetof(struct bnxt_re_uctx_resp, rsvd) == 20 &&
	       offsetof(struct bnxt_re_uctx_resp, comp_mask) == 24 &&
	       offsetof(struct bnxt_re_uctx_resp, chip_id0) == 32 &&
	       offsetof(struct bnxt_re_uctx_resp, chip_id1) == 36 &&
	       offsetof(struct bnxt_re_uctx_resp, mode) == 40 &&
	       offsetof(struct bnxt_re_uctx_resp, rsvd1) == 44, "bnxt_re_uctx_resp");
#endif


/* The namespace's ids (Linux 7.2's <rdma/bnxt_re-abi.h>). */
enum {
	UVIO_BNXT_RE_OBJECT_ALLOC_PAGE = 0x1000, UVIO_BNXT_RE_OBJECT_NOTIFY_DRV,
	UVIO_BNXT_RE_OBJECT_GET_TOGGLE_MEM, UVIO_BNXT_RE_OBJECT_DBR,
	UVIO_BNXT_RE_OBJECT_DEFAULT_DBR,
	/* methods: of ALLOC_PAGE, of GET_TOGGLE_MEM, of DBR and DEFAULT_DBR */
	UVIO_BNXT_RE_METHOD_ALLOC_PAGE = 0x1000, UVIO_BNXT_RE_METHOD_DESTROY_PAGE,
	UVIO_BNXT_RE_METHOD_NOTIFY_DRV = 0x1000,
	UVIO_BNXT_RE_METHOD_GET_TOGGLE_MEM = 0x1000, UVIO_BNXT_RE_METHOD_RELEASE_TOGGLE_MEM,
	UVIO_BNXT_RE_METHOD_DBR_ALLOC = 0x1000, UVIO_BNXT_RE_METHOD_DBR_FREE,
	UVIO_BNXT_RE_METHOD_GET_DEFAULT_DBR,
	/* attributes, each method's from 0x1000 */
	UVIO_BNXT_RE_ALLOC_PAGE_HANDLE = 0x1000, UVIO_BNXT_RE_ALLOC_PAGE_TYPE,
	UVIO_BNXT_RE_ALLOC_PAGE_DPI, UVIO_BNXT_RE_ALLOC_PAGE_MMAP_OFFSET,
	UVIO_BNXT_RE_ALLOC_PAGE_MMAP_LENGTH,
	UVIO_BNXT_RE_TOGGLE_MEM_HANDLE = 0x1000, UVIO_BNXT_RE_TOGGLE_MEM_TYPE,
	UVIO_BNXT_RE_TOGGLE_MEM_RES_ID, UVIO_BNXT_RE_TOGGLE_MEM_MMAP_PAGE,
	UVIO_BNXT_RE_TOGGLE_MEM_MMAP_OFFSET, UVIO_BNXT_RE_TOGGLE_MEM_MMAP_LENGTH,
	UVIO_BNXT_RE_ALLOC_DBR_HANDLE = 0x1000, UVIO_BNXT_RE_ALLOC_DBR_ATTR,
	UVIO_BNXT_RE_ALLOC_DBR_OFFSET,
	UVIO_BNXT_RE_DESTROY_HANDLE = 0x1000,	/* DESTROY_PAGE, RELEASE_TOGGLE_MEM, DBR_FREE */
	UVIO_BNXT_RE_DEFAULT_DBR_ATTR = 0x1000,
	UVIO_BNXT_RE_CREATE_QP_ATTR_DBR_HANDLE = 0x1002,	/* UVERBS_ID_DRIVER_NS_WITH_UHW */
};
#if UVIO_SYS_UAPI_6_12
UVIO_UAPI_CHECK(BNXT_RE_OBJECT_GET_TOGGLE_MEM, UVIO_BNXT_RE_OBJECT_GET_TOGGLE_MEM);
UVIO_UAPI_CHECK(BNXT_RE_METHOD_DESTROY_PAGE, UVIO_BNXT_RE_METHOD_DESTROY_PAGE);
UVIO_UAPI_CHECK(BNXT_RE_METHOD_NOTIFY_DRV, UVIO_BNXT_RE_METHOD_NOTIFY_DRV);
UVIO_UAPI_CHECK(BNXT_RE_METHOD_RELEASE_TOGGLE_MEM, UVIO_BNXT_RE_METHOD_RELEASE_TOGGLE_MEM);
UVIO_UAPI_CHECK(BNXT_RE_ALLOC_PAGE_MMAP_LENGTH, UVIO_BNXT_RE_ALLOC_PAGE_MMAP_LENGTH);
UVIO_UAPI_CHECK(BNXT_RE_TOGGLE_MEM_MMAP_LENGTH, UVIO_BNXT_RE_TOGGLE_MEM_MMAP_LENGTH);
UVIO_UAPI_CHECK(BNXT_RE_DESTROY_PAGE_HANDLE, UVIO_BNXT_RE_DESTROY_HANDLE);
UVIO_UAPI_CHECK(BNXT_RE_RELEASE_TOGGLE_MEM_HANDLE, UVIO_BNXT_RE_DESTROY_HANDLE);
#endif
#if UVIO_SYS_UAPI_7_2
UVIO_UAPI_CHECK(BNXT_RE_OBJECT_DEFAULT_DBR, UVIO_BNXT_RE_OBJECT_DEFAULT_DBR);
UVIO_UAPI_CHECK(BNXT_RE_METHOD_GET_DEFAULT_DBR, UVIO_BNXT_RE_METHOD_GET_DEFAULT_DBR);
UVIO_UAPI_CHECK(BNXT_RE_ALLOC_DBR_OFFSET, UVIO_BNXT_RE_ALLOC_DBR_OFFSET);
UVIO_UAPI_CHECK(BNXT_RE_FREE_DBR_HANDLE, UVIO_BNXT_RE_DESTROY_HANDLE);
UVIO_UAPI_CHECK(BNXT_RE_DEFAULT_DBR_ATTR, UVIO_BNXT_RE_DEFAULT_DBR_ATTR);
UVIO_UAPI_CHECK(BNXT_RE_CREATE_QP_ATTR_DBR_HANDLE, UVIO_BNXT_RE_CREATE_QP_ATTR_DBR_HANDLE);
#endif

enum {
	VT_BNXT_RE_FIRST = ABI_VT_DRIVER_BASE(10),
	VT_BNXT_RE_UCTX_RESP = VT_BNXT_RE_FIRST,
	VT_BNXT_RE_PD_RESP,
	VT_BNXT_RE_CQ_REQ,
	VT_BNXT_RE_CQ_RESP,
	VT_BNXT_RE_QP_REQ,
	VT_BNXT_RE_QP_RESP,
	VT_BNXT_RE_SRQ_REQ,
	VT_BNXT_RE_SRQ_RESP,
	VT_BNXT_RE_UCTX_REQ, VT_BNXT_RE_UCTX_REQ_MASK, VT_BNXT_RE_UCTX_MASK, VT_BNXT_RE_WQE_MODE,
	VT_BNXT_RE_CQ_REQ_MASK, VT_BNXT_RE_CQ_RESP_MASK, VT_BNXT_RE_QP_MASK, VT_BNXT_RE_SRQ_MASK,
	VT_BNXT_RE_RESIZE_CQ_REQ, VT_BNXT_RE_QUERY_DEVICE_EX_RESP, VT_BNXT_RE_DB_REGION,
	VT_BNXT_RE_PAGE_TYPE, VT_BNXT_RE_TOGGLE_MEM_TYPE,
	VT_BNXT_RE__END
};

static const struct abi_vtype vtypes[VT_BNXT_RE__END - VT_BNXT_RE_FIRST] = {
	STRUCT_SZ(BNXT_RE_UCTX_RESP, bnxt_re_uctx_resp, 48,
		  FO(dev_id, 0, 4, U32),
		  FO(max_qp, 4, 4, U32),
		  FO(pg_size, 8, 4, U32),
		  FO(cqe_sz, 12, 4, U32),
		  FO(max_cqd, 16, 4, U32),
		  FO(rsvd, 20, 4, RSVD),
		  FO(comp_mask, 24, 8, BNXT_RE_UCTX_MASK),
		  FO(chip_id0, 32, 4, U32),
		  FO(chip_id1, 36, 4, U32),
		  FO(mode, 40, 4, BNXT_RE_WQE_MODE),
		  FO(rsvd1, 44, 4, RSVD)),
	STRUCT(BNXT_RE_PD_RESP, bnxt_re_pd_resp,
	       F(bnxt_re_pd_resp, pdid, U32),
	       F(bnxt_re_pd_resp, dpi, U32),
	       F(bnxt_re_pd_resp, dbr, X64)),
	STRUCT_SZ(BNXT_RE_CQ_REQ, bnxt_re_cq_req, 24,
		  FO(cq_va, 0, 8, X64),
		  FO(cq_handle, 8, 8, X64),
		  FO(comp_mask, 16, 8, BNXT_RE_CQ_REQ_MASK)),
	STRUCT_SZ(BNXT_RE_CQ_RESP, bnxt_re_cq_resp, 24,
		  FO(cqid, 0, 4, U32),
		  FO(tail, 4, 4, U32),
		  FO(phase, 8, 4, U32),
		  FO(rsvd, 12, 4, RSVD),
		  FO(comp_mask, 16, 8, BNXT_RE_CQ_RESP_MASK)),
	STRUCT_SZ(BNXT_RE_QP_REQ, bnxt_re_qp_req, 40,
		  FO(qpsva, 0, 8, X64),
		  FO(qprva, 8, 8, X64),
		  FO(qp_handle, 16, 8, X64),
		  FO(comp_mask, 24, 8, BNXT_RE_QP_MASK),
		  FO(sq_slots, 32, 4, U32),
		  FO(sq_npsn, 36, 4, U32)),
	STRUCT(BNXT_RE_QP_RESP, bnxt_re_qp_resp,
	       F(bnxt_re_qp_resp, qpid, U32),
	       F(bnxt_re_qp_resp, rsvd, RSVD)),
	STRUCT(BNXT_RE_SRQ_REQ, bnxt_re_srq_req,
	       F(bnxt_re_srq_req, srqva, X64),
	       F(bnxt_re_srq_req, srq_handle, X64)),
	STRUCT_SZ(BNXT_RE_SRQ_RESP, bnxt_re_srq_resp, 16,
		  FO(srqid, 0, 4, U32),
		  FO(rsvd, 4, 4, RSVD),
		  FO(comp_mask, 8, 8, BNXT_RE_SRQ_MASK)),
	STRUCT_SZ(BNXT_RE_UCTX_REQ, bnxt_re_uctx_req, 8, FO(comp_mask, 0, 8, BNXT_RE_UCTX_REQ_MASK)),
	FLAGS(BNXT_RE_UCTX_REQ_MASK, bnxt_re_uctx_req_mask,
	      B(0x1, POW2_SUPPORT), B(0x2, VAR_WQE_SUPPORT)),
	FLAGS(BNXT_RE_UCTX_MASK, bnxt_re_ucntx_cmask,
	      B(0x1, HAVE_CCTX), B(0x2, HAVE_MODE), B(0x4, WC_DPI_ENABLED),
	      B(0x8, DBR_PACING_ENABLED), B(0x10, POW2_DISABLED), B(0x40, MSN_TABLE_ENABLED),
	      B(0x80, QP_RATE_LIMIT_ENABLED)),
	ENUM(BNXT_RE_WQE_MODE, bnxt_re_wqe_mode, C(0, STATIC), C(1, VARIABLE), C(2, INVALID)),
	FLAGS(BNXT_RE_CQ_REQ_MASK, bnxt_re_req_cq_mask, B(0x1, FIXED_NUM_CQE_ENABLE)),
	FLAGS(BNXT_RE_CQ_RESP_MASK, bnxt_re_resp_cq_mask, B(0x1, TOGGLE_PAGE_SUPPORT)),
	FLAGS(BNXT_RE_QP_MASK, bnxt_re_qp_mask, B(0x1, FIXED_QUE_ATTR)),
	FLAGS(BNXT_RE_SRQ_MASK, bnxt_re_srq_mask, B(0x1, TOGGLE_PAGE_SUPPORT)),
	STRUCT_SZ(BNXT_RE_RESIZE_CQ_REQ, bnxt_re_resize_cq_req, 8, FO(cq_va, 0, 8, X64)),
	/* packet_pacing_caps, the struct's one member, flattened */
	STRUCT_SZ(BNXT_RE_QUERY_DEVICE_EX_RESP, bnxt_re_query_device_ex_resp, 16,
		  FO(qp_rate_limit_min, 0, 4, U32),
		  FO(qp_rate_limit_max, 4, 4, U32),
		  FO(supported_qpts, 8, 4, X32),
		  FO(reserved, 12, 4, RSVD)),
	STRUCT_SZ(BNXT_RE_DB_REGION, bnxt_re_db_region, 16,
		  FO(dpi, 0, 4, U32),
		  FO(reserved, 4, 4, RSVD),
		  FO(reserved2, 8, 8, RSVD)),
	ENUM(BNXT_RE_PAGE_TYPE, bnxt_re_alloc_page_type,
	     C(0, WC_PAGE), C(1, DBR_BAR_PAGE), C(2, DBR_PAGE)),
	ENUM(BNXT_RE_TOGGLE_MEM_TYPE, bnxt_re_get_toggle_mem_type, C(0, CQ_TOGGLE_MEM),
	     C(1, SRQ_TOGGLE_MEM)),
};


static const struct abi_drv_udata udata[] = {
	UD_METHOD(DEVICE, GET_CONTEXT, BNXT_RE_UCTX_REQ, BNXT_RE_UCTX_RESP),
	UD_WRITE(GET_CONTEXT, BNXT_RE_UCTX_REQ, BNXT_RE_UCTX_RESP),
	UD_WRITE_EX(QUERY_DEVICE, NONE, BNXT_RE_QUERY_DEVICE_EX_RESP),
	UD_WRITE(RESIZE_CQ, BNXT_RE_RESIZE_CQ_REQ, NONE),
	UD_WRITE(ALLOC_PD, NONE, BNXT_RE_PD_RESP),
	UD_METHOD(CQ, CQ_CREATE, BNXT_RE_CQ_REQ, BNXT_RE_CQ_RESP),
	UD_WRITE(CREATE_CQ, BNXT_RE_CQ_REQ, BNXT_RE_CQ_RESP),
	UD_WRITE_EX(CREATE_CQ, BNXT_RE_CQ_REQ, BNXT_RE_CQ_RESP),
	UD_METHOD(QP, QP_CREATE, BNXT_RE_QP_REQ, BNXT_RE_QP_RESP),
	UD_WRITE(CREATE_QP, BNXT_RE_QP_REQ, BNXT_RE_QP_RESP),
	UD_WRITE_EX(CREATE_QP, BNXT_RE_QP_REQ, BNXT_RE_QP_RESP),
	UD_METHOD(SRQ, SRQ_CREATE, BNXT_RE_SRQ_REQ, BNXT_RE_SRQ_RESP),
	UD_WRITE(CREATE_SRQ, BNXT_RE_SRQ_REQ, BNXT_RE_SRQ_RESP),
	UD_WRITE(CREATE_XSRQ, BNXT_RE_SRQ_REQ, BNXT_RE_SRQ_RESP),
};

static const struct abi_method alloc_page[] = {
	METHOD_D(UVIO_BNXT_RE_METHOD_ALLOC_PAGE, ALLOC_PAGE, 0,
		 A_DIDR(UVIO_BNXT_RE_ALLOC_PAGE_HANDLE, HANDLE, UVIO_BNXT_RE_OBJECT_ALLOC_PAGE, NEW,
			MAND),
		 A_DCONST(UVIO_BNXT_RE_ALLOC_PAGE_TYPE, TYPE, BNXT_RE_PAGE_TYPE, MAND),
		 A_DOUT(UVIO_BNXT_RE_ALLOC_PAGE_DPI, DPI, U32, 4, MAND),
		 A_DOUT(UVIO_BNXT_RE_ALLOC_PAGE_MMAP_OFFSET, MMAP_OFFSET, X64, 8, MAND),
		 A_DOUT(UVIO_BNXT_RE_ALLOC_PAGE_MMAP_LENGTH, MMAP_LENGTH, U32, 4, MAND)),
	METHOD_D(UVIO_BNXT_RE_METHOD_DESTROY_PAGE, DESTROY_PAGE, 0,
		 A_DIDR(UVIO_BNXT_RE_DESTROY_HANDLE, HANDLE, UVIO_BNXT_RE_OBJECT_ALLOC_PAGE,
			DESTROY, MAND)),
};

static const struct abi_method notify_drv[] = {
	{ UVIO_BNXT_RE_METHOD_NOTIFY_DRV, N(NOTIFY_DRV), 0, 0, NULL },	/* no attributes */
};

static const struct abi_method toggle_mem[] = {
	METHOD_D(UVIO_BNXT_RE_METHOD_GET_TOGGLE_MEM, GET_TOGGLE_MEM, 0,
		 A_DIDR(UVIO_BNXT_RE_TOGGLE_MEM_HANDLE, HANDLE, UVIO_BNXT_RE_OBJECT_GET_TOGGLE_MEM,
			NEW, MAND),
		 A_DCONST(UVIO_BNXT_RE_TOGGLE_MEM_TYPE, TYPE, BNXT_RE_TOGGLE_MEM_TYPE, MAND),
		 A_DIN(UVIO_BNXT_RE_TOGGLE_MEM_RES_ID, RES_ID, U32, 4, MAND),
		 A_DOUT(UVIO_BNXT_RE_TOGGLE_MEM_MMAP_PAGE, MMAP_PAGE, X64, 8, MAND),
		 A_DOUT(UVIO_BNXT_RE_TOGGLE_MEM_MMAP_OFFSET, MMAP_OFFSET, U32, 4, MAND),
		 A_DOUT(UVIO_BNXT_RE_TOGGLE_MEM_MMAP_LENGTH, MMAP_LENGTH, U32, 4, MAND)),
	METHOD_D(UVIO_BNXT_RE_METHOD_RELEASE_TOGGLE_MEM, RELEASE_TOGGLE_MEM, 0,
		 A_DIDR(UVIO_BNXT_RE_DESTROY_HANDLE, HANDLE, UVIO_BNXT_RE_OBJECT_GET_TOGGLE_MEM,
			DESTROY, MAND)),
};

/* The region's answer: at least up to reserved2, as the kernel declares it */
static const struct abi_method dbr[] = {
	METHOD_D(UVIO_BNXT_RE_METHOD_DBR_ALLOC, DBR_ALLOC, 0,
		 A_DIDR(UVIO_BNXT_RE_ALLOC_DBR_HANDLE, HANDLE, UVIO_BNXT_RE_OBJECT_DBR, NEW, MAND),
		 A_DOUT_STRUCT(UVIO_BNXT_RE_ALLOC_DBR_ATTR, ATTR, BNXT_RE_DB_REGION, 16, 16, MAND),
		 A_DOUT(UVIO_BNXT_RE_ALLOC_DBR_OFFSET, OFFSET, X64, 8, MAND)),
	METHOD_D(UVIO_BNXT_RE_METHOD_DBR_FREE, DBR_FREE, 0,
		 A_DIDR(UVIO_BNXT_RE_DESTROY_HANDLE, HANDLE, UVIO_BNXT_RE_OBJECT_DBR, DESTROY,
			MAND)),
};

static const struct abi_method default_dbr[] = {
	METHOD_D(UVIO_BNXT_RE_METHOD_GET_DEFAULT_DBR, GET_DEFAULT_DBR, 0,
		 A_DOUT_STRUCT(UVIO_BNXT_RE_DEFAULT_DBR_ATTR, ATTR, BNXT_RE_DB_REGION, 16, 16,
			       MAND)),
};

static const struct abi_object objects[] = {
	OBJECT_D(UVIO_BNXT_RE_OBJECT_ALLOC_PAGE, ALLOC_PAGE, IDR, alloc_page),
	OBJECT_D(UVIO_BNXT_RE_OBJECT_NOTIFY_DRV, NOTIFY_DRV, GLOBAL, notify_drv),
	OBJECT_D(UVIO_BNXT_RE_OBJECT_GET_TOGGLE_MEM, GET_TOGGLE_MEM, IDR, toggle_mem),
	OBJECT_D(UVIO_BNXT_RE_OBJECT_DBR, DBR, IDR, dbr),
	OBJECT_D(UVIO_BNXT_RE_OBJECT_DEFAULT_DBR, DEFAULT_DBR, GLOBAL, default_dbr),
};

/* QP_CREATE over a doorbell region of the caller's (7.x) */
static const struct abi_drv_attrs attrs[] = {
	ATTRS_D(QP, QP_CREATE,
		A_DIDR(UVIO_BNXT_RE_CREATE_QP_ATTR_DBR_HANDLE, DBR_HANDLE, UVIO_BNXT_RE_OBJECT_DBR,
		       READ, OPT)),
};

const struct abi_driver abi_drv_bnxt_re = {
	RDMA_DRIVER_BNXT_RE, N(bnxt_re), sizeof(vtypes) / sizeof(vtypes[0]), vtypes,
	sizeof(objects) / sizeof(objects[0]), sizeof(attrs) / sizeof(attrs[0]),
	sizeof(udata) / sizeof(udata[0]), objects, attrs, udata,
};
