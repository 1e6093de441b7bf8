// SPDX-License-Identifier: MIT
/*
 * FLOW_ACTION. The IPsec ESP methods left the kernel in Linux 5.17 (only
 * DESTROY remains); their ids stay in the UAPI header, and their layout is
 * kept here for traces of older kernels.
 */
#include "abi/abi.h"

#define ESP_ATTRS(handle_flags, keymat_flags)                                  \
	A_IN_STRUCT(FLOW_ACTION_ESP_ATTRS, ATTRS, ESP_ATTRS, 24, 24, handle_flags), \
	A_IN(FLOW_ACTION_ESP_ESN, ESN, U32, 4, OPT),                           \
	A_ENUM(FLOW_ACTION_ESP_KEYMAT, KEYMAT, ESP_KEYMAT, keymat_flags),      \
	A_ENUM(FLOW_ACTION_ESP_REPLAY, REPLAY, ESP_REPLAY, OPT),               \
	A_IN(FLOW_ACTION_ESP_ENCAP, ENCAP, ESP_ENCAP, 24, OPT)

static const struct abi_method methods[] = {
	METHOD(FLOW_ACTION_ESP_CREATE, ESP_CREATE, 0,
	       A_IDR(CREATE_FLOW_ACTION_ESP_HANDLE, HANDLE, FLOW_ACTION, NEW, MAND),
	       ESP_ATTRS(MAND, MAND)),
	METHOD(FLOW_ACTION_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_FLOW_ACTION_HANDLE, HANDLE, FLOW_ACTION, DESTROY, MAND)),
	METHOD(FLOW_ACTION_ESP_MODIFY, ESP_MODIFY, 0,
	       A_IDR(MODIFY_FLOW_ACTION_ESP_HANDLE, HANDLE, FLOW_ACTION, WRITE, MAND),
	       ESP_ATTRS(OPT, OPT)),
};

const struct abi_object abi_obj_flow_action = {
	UVERBS_OBJECT_FLOW_ACTION, N(FLOW_ACTION), OT_IDR,
	sizeof(methods) / sizeof(methods[0]), 0, methods, NULL
};
