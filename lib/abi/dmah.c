// SPDX-License-Identifier: MIT
/* DMAH (Linux 7.x): a DMA handle steering PCIe TPH hints to a CPU. */
#include "abi/abi.h"

static const struct abi_method methods[] = {
	METHOD(DMAH_ALLOC, ALLOC, ABI_M_NEWER,
	       A_IDR(ALLOC_DMAH_HANDLE, HANDLE, DMAH, NEW, MAND),
	       A_IN(ALLOC_DMAH_CPU_ID, CPU_ID, U32, 4, OPT),
	       A_ENUM(ALLOC_DMAH_TPH_MEM_TYPE, TPH_MEM_TYPE, TPH_MEM_TYPE, OPT),
	       A_IN(ALLOC_DMAH_PH, PH, U8, 1, OPT)),
	METHOD(DMAH_FREE, FREE, ABI_M_NEWER,
	       A_IDR(FREE_DMA_HANDLE, HANDLE, DMAH, DESTROY, MAND)),
};

const struct abi_object abi_obj_dmah = {
	UVERBS_OBJECT_DMAH, N(DMAH), OT_IDR, sizeof(methods) / sizeof(methods[0]), 0, methods, NULL
};
