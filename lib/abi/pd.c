// SPDX-License-Identifier: MIT
/* PD: allocation is a write() command only. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(PD_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_PD_HANDLE, HANDLE, PD, DESTROY, MAND)),
};

static const struct abi_write writes[] = {
	WRITE(ALLOC_PD, ABI_W_RESP | ABI_W_UDATA, ALLOC_PD, ALLOC_PD_RESP),
	WRITE(DEALLOC_PD, 0, DEALLOC_PD, NONE),
};

const struct abi_object abi_obj_pd = OBJECT(PD, IDR, methods, writes);
