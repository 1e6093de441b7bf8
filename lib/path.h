/* SPDX-License-Identifier: MIT */
/* Internal: which path a verb takes, and running a verb on it. */
#ifndef UVIO_LIB_PATH_H
#define UVIO_LIB_PATH_H

#include <stdbool.h>
#include <uvio/device.h>
#include "dev.h"

/* Verbs that have an ioctl encoding; a bit each in ioctl_missing. */
enum uvio_verb {
	UVIO_VERB_GET_CONTEXT,
	UVIO_VERB_QUERY_PORT,
	UVIO_VERB_CREATE_CQ,
	UVIO_VERB_DESTROY_CQ,
	UVIO_VERB_DEALLOC_PD,
	UVIO_VERB_DEREG_MR,
	UVIO_VERB_WRITE_ONLY,	/* no ioctl encoding: never picks a path */
};

/* The path a verb takes now. */
enum uvio_path uvio_path_pick(struct uvio_device *dev, enum uvio_verb verb);
/* After an ioctl attempt: record what the answer says about the path and
 * return true when the verb should run again on the path picked next. */
bool uvio_path_retry(struct uvio_device *dev, enum uvio_verb verb,
		     enum uvio_path tried, int ret);

/* Finish a verb: log a failure naming verb and path, report the path. */
int uvio_verb_end(struct uvio_device *dev, const char *verb, enum uvio_path path,
		  int ret, enum uvio_path *out);

/*
 * Run one verb on the device's path: its ioctl encoding (NULL when the
 * kernel has none), and on ENOTTY or EPROTONOSUPPORT its write() encoding.
 * Logs a failure and reports the path that ran.
 */
typedef int (*uvio_ioctl_enc)(struct uvio_device *dev, enum uvio_path path, void *args);
typedef int (*uvio_write_enc)(struct uvio_device *dev, void *args);
int uvio_run_verb(struct uvio_device *dev, enum uvio_verb verb, const char *name,
		  uvio_ioctl_enc on_ioctl, uvio_write_enc on_write, void *args,
		  enum uvio_path *path);

#endif
