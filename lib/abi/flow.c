// SPDX-License-Identifier: MIT
/* FLOW: steering rules, made by an extended write() command. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(FLOW_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_FLOW_HANDLE, HANDLE, FLOW, DESTROY, MAND)),
};

static const struct abi_write writes[] = {
	WRITE_EX(CREATE_FLOW, 0, CREATE_FLOW, CREATE_FLOW_RESP),
	WRITE_EX(DESTROY_FLOW, 0, DESTROY_FLOW, NONE),
};

const struct abi_object abi_obj_flow = OBJECT(FLOW, IDR, methods, writes);
