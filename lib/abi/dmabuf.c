// SPDX-License-Identifier: MIT
/* DMABUF (Linux 7.x): a dma-buf fd exporting a range of the device's mmap space. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(DMABUF_ALLOC, ALLOC, ABI_M_NEWER,
	       A_FD(ALLOC_DMABUF_HANDLE, HANDLE, DMABUF, NEW, MAND),
	       A_IN(ALLOC_DMABUF_PGOFF, PGOFF, U64, 8, MAND)),
};

const struct abi_object abi_obj_dmabuf = {
	UVERBS_OBJECT_DMABUF, N(DMABUF), OT_FD, 1, 0, methods, NULL
};
