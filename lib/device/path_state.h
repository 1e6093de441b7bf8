/* SPDX-License-Identifier: MIT */
/*
 * Internal: what the kernel's answers taught a device about its paths. One
 * struct with one owner, lib/device/path.c: nothing else reads or changes it but
 * through the functions of path.h.
 */
#ifndef UVIO_LIB_PATH_STATE_H
#define UVIO_LIB_PATH_STATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Room for the per-verb bits and remembered paths; lib/verbs/verb.h
 * numbers the verbs and checks they fit. */
#define UVIO_VERB_SLOTS 256

struct uvio_path_state {
	/*
	 * One word, so that a thread sees the device's facts together and
	 * changes them with one compare-and-swap (the PS_* bits of path.c):
	 * the pinned path, the path the device is on, whether that path has
	 * answered (from then on ENOTTY is a command's error, not a path
	 * fact), and whether INVOKE_WRITE is missing.
	 */
	_Atomic uint32_t word;
	/* Verbs whose native ioctl method answered EPROTONOSUPPORT. */
	_Atomic uint64_t native_missing[UVIO_VERB_SLOTS / 64];
	/* Per verb, the path it last ran on once the device was decided or
	 * pinned (UVIO_PATH_AUTO: not known): the next call goes straight
	 * there. A path that stops answering is forgotten; pinning forgets
	 * them all. */
	_Atomic uint8_t verb_path[UVIO_VERB_SLOTS];
	_Atomic uint64_t fallbacks;
};

#endif
