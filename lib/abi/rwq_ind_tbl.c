// SPDX-License-Identifier: MIT
/* RWQ_IND_TBL: receive work queue indirection tables (RSS). */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(RWQ_IND_TBL_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_RWQ_IND_TBL_HANDLE, HANDLE, RWQ_IND_TBL, DESTROY, MAND)),
};

static const struct abi_write writes[] = {
	WRITE_EX(CREATE_RWQ_IND_TBL, 0, EX_CREATE_RWQ_IND_TBL, EX_CREATE_RWQ_IND_TBL_RESP),
	WRITE_EX(DESTROY_RWQ_IND_TBL, 0, EX_DESTROY_RWQ_IND_TBL, NONE),
};

const struct abi_object abi_obj_rwq_ind_tbl = OBJECT(RWQ_IND_TBL, IDR, methods, writes);
