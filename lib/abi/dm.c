// SPDX-License-Identifier: MIT
/* DM: device memory. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(DM_ALLOC, ALLOC, 0,
	       A_IDR(ALLOC_DM_HANDLE, HANDLE, DM, NEW, MAND),
	       A_IN(ALLOC_DM_LENGTH, LENGTH, U64, 8, MAND),
	       A_IN(ALLOC_DM_ALIGNMENT, ALIGNMENT, U32, 4, MAND)),
	METHOD(DM_FREE, FREE, 0,
	       A_IDR(FREE_DM_HANDLE, HANDLE, DM, DESTROY, MAND)),
};

const struct abi_object abi_obj_dm = {
	UVERBS_OBJECT_DM, N(DM), OT_IDR, sizeof(methods) / sizeof(methods[0]), 0, methods, NULL
};
