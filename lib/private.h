/* SPDX-License-Identifier: MIT */
/*
 * Internal to the library: never installed. Every internal header, for the
 * verbs (lib/verbs/verb.h), which use most of them; a lower layer includes
 * the headers it needs by its layer's folder (docs/architecture.md), and
 * providers/ lib/for_providers.h. It includes:
 *   report/report.h  last error, log callback
 *   report/names.h   the object/method/attribute names
 *   (errno names and meanings are public: <uvio/diag.h>)
 *   cmd/sys.h        the two system calls
 *   device/trace.h   UVERBS_IOCTL_TRACE
 *   device/dev.h     the device handle, a command on it
 *   device/path.h    path choice, running a verb
 *   write/legacy.h   the write() commands
 */
#ifndef UVIO_PRIVATE_H
#define UVIO_PRIVATE_H

#include "report/report.h"
#include "report/names.h"
#include "cmd/sys.h"
#include "device/trace.h"
#include "device/dev.h"
#include "device/path.h"
#include "write/legacy.h"

#endif
