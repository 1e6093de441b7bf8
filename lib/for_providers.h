/* SPDX-License-Identifier: MIT */
/*
 * What the data path (providers/) may use of the library's insides, and
 * nothing more: it is built into the library, but sits above the verbs and
 * reaches them through the public headers. Beyond those it takes the
 * report layer's failure and log helpers, and the send doorbell (laid out
 * by lib/write, rung on the device's fd).
 */
#ifndef UVIO_LIB_FOR_PROVIDERS_H
#define UVIO_LIB_FOR_PROVIDERS_H

#include "report/report.h"
#include "write/doorbell.h"

#endif
