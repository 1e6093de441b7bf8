/* SPDX-License-Identifier: MIT */
/*
 * The uverbs ids the ABI tables name that the system's UAPI headers may
 * lack: Linux 7.2's from lib/uapi-compat.h, older ones that Debian 11's 5.10
 * headers lack (the dma-buf registration of 5.12) from lib/uapi.h. Both
 * guard by the headers' version and check their values against the
 * headers where these have the ids.
 */
#ifndef UVIO_ABI_UAPI_IDS_H
#define UVIO_ABI_UAPI_IDS_H

#include "uapi.h"
#include "uapi-compat.h"

#endif
