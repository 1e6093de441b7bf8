// SPDX-License-Identifier: MIT
/* COUNTERS */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(COUNTERS_CREATE, CREATE, 0,
	       A_IDR(CREATE_COUNTERS_HANDLE, HANDLE, COUNTERS, NEW, MAND)),
	METHOD(COUNTERS_DESTROY, DESTROY, 0,
	       A_IDR(DESTROY_COUNTERS_HANDLE, HANDLE, COUNTERS, DESTROY, MAND)),
	METHOD(COUNTERS_READ, READ, 0,
	       A_IDR(READ_COUNTERS_HANDLE, HANDLE, COUNTERS, READ, MAND),
	       A_OUT_MIN(READ_COUNTERS_BUFF, BUFF, U64, 0, MAND),
	       A_FLAGS(READ_COUNTERS_FLAGS, FLAGS, READ_COUNTERS, OPT)),
};

const struct abi_object abi_obj_counters = {
	UVERBS_OBJECT_COUNTERS, N(COUNTERS), OT_IDR, sizeof(methods) / sizeof(methods[0]), 0,
	methods, NULL
};
