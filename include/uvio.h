/* SPDX-License-Identifier: MIT */
/* libuverbs-ioctl: everything. */
#ifndef UVIO_H
#define UVIO_H

#include <uvio/cm.h>
#include <uvio/cmd.h>
#include <uvio/decode.h>
#include <uvio/device.h>
#include <uvio/provider.h>
#include <uvio/diag.h>
#include <uvio/verbs.h>

#endif
