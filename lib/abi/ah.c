// SPDX-License-Identifier: MIT
/* AH */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(AH_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_AH_HANDLE, HANDLE, AH, DESTROY, MAND)),
};

static const struct abi_write writes[] = {
	WRITE(CREATE_AH, ABI_W_RESP | ABI_W_UDATA, CREATE_AH, CREATE_AH_RESP),
	WRITE(MODIFY_AH, ABI_W_NONE, NONE, NONE),
	WRITE(QUERY_AH, ABI_W_NONE, NONE, NONE),
	WRITE(DESTROY_AH, 0, DESTROY_AH, NONE),
};

const struct abi_object abi_obj_ah = OBJECT(AH, IDR, methods, writes);
