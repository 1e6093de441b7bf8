// SPDX-License-Identifier: MIT
/* XRCD, and OPEN_QP which the kernel files under it. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(XRCD_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_XRCD_HANDLE, HANDLE, XRCD, DESTROY, MAND)),
};

static const struct abi_write writes[] = {
	WRITE(OPEN_XRCD, ABI_W_RESP | ABI_W_UDATA, OPEN_XRCD, OPEN_XRCD_RESP),
	WRITE(CLOSE_XRCD, 0, CLOSE_XRCD, NONE),
	WRITE(OPEN_QP, ABI_W_RESP | ABI_W_UDATA, OPEN_QP, CREATE_QP_RESP),
};

const struct abi_object abi_obj_xrcd = OBJECT(XRCD, IDR, methods, writes);
