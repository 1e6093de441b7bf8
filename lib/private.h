/* SPDX-License-Identifier: MIT */
/*
 * Internal to the library: never installed. Every internal header, for the
 * files that need most of them (the verbs). A file that needs one concern
 * includes that header alone; the layers, bottom up:
 *   sys.h      the two system calls
 *   report.h   last error, log callback
 *   (errno names and meanings are public: <uvio/diag.h>)
 *   names.h    the object/method/attribute table
 *   trace.h    UVERBS_IOCTL_TRACE
 *   dev.h      the device handle, a command on it
 *   legacy.h   the write() encoding
 *   path.h     path choice, running a verb
 */
#ifndef UVIO_PRIVATE_H
#define UVIO_PRIVATE_H

#include "sys.h"
#include "report.h"
#include "names.h"
#include "trace.h"
#include "dev.h"
#include "legacy.h"
#include "path.h"

#endif
