// SPDX-License-Identifier: MIT
/* COMP_CHANNEL: an fd object with no ioctl method; made by write(). */
#include "abi/abi.h"

static const struct abi_write writes[] = {
	WRITE(CREATE_COMP_CHANNEL, ABI_W_RESP, CREATE_COMP_CHANNEL, CREATE_COMP_CHANNEL_RESP),
};

const struct abi_object abi_obj_comp_channel = {
	UVERBS_OBJECT_COMP_CHANNEL, N(COMP_CHANNEL), OT_FD, 0, 1, NULL, writes
};
