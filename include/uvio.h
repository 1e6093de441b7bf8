/* SPDX-License-Identifier: MIT */
/* libuverbs-ioctl: everything. */
#ifndef UVIO_H
#define UVIO_H

/* In the order they build on each other. <uvio/dp.h> (the data path of
 * rxe and siw), <uvio/hw.h> (what the hardware halves made) and
 * <uvio/mlx5.h> are included by name. */
#include <uvio/device.h>
#include <uvio/cmd.h>
#include <uvio/decode.h>
#include <uvio/diag.h>
#include <uvio/verbs.h>
#include <uvio/provider.h>
#include <uvio/cm.h>

#endif
