// SPDX-License-Identifier: MIT
/* ASYNC_EVENT: the fd that carries a context's asynchronous events. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(ASYNC_EVENT_ALLOC, ALLOC, 0,
	       A_FD(ASYNC_EVENT_ALLOC_FD_HANDLE, FD_HANDLE, ASYNC_EVENT, NEW, MAND)),
};

const struct abi_object abi_obj_async_event = {
	UVERBS_OBJECT_ASYNC_EVENT, N(ASYNC_EVENT), OT_FD, 1, 0, methods, NULL
};
