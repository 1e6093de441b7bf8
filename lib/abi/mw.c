// SPDX-License-Identifier: MIT
/* MW */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(MW_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_MW_HANDLE, HANDLE, MW, DESTROY, MAND)),
};

static const struct abi_write writes[] = {
	WRITE(ALLOC_MW, ABI_W_RESP | ABI_W_UDATA, ALLOC_MW, ALLOC_MW_RESP),
	WRITE(BIND_MW, ABI_W_NONE, NONE, NONE),
	WRITE(DEALLOC_MW, 0, DEALLOC_MW, NONE),
};

const struct abi_object abi_obj_mw = OBJECT(MW, IDR, methods, writes);
