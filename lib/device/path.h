/* SPDX-License-Identifier: MIT */
/* Internal: which path a verb takes, and running a verb on it. */
#ifndef UVIO_LIB_PATH_H
#define UVIO_LIB_PATH_H

#include <errno.h>
#include <stdbool.h>
#include <uvio/device.h>
#include "device/dev.h"

/* What a verb can be sent as: a bit per encoding it has. */
enum uvio_verb_has {
	UVIO_HAS_NATIVE = 1,	/* an ioctl method of its own */
	UVIO_HAS_WRITE = 2,	/* a write() command (also carried by INVOKE_WRITE) */
};
/* The device's path state (struct uvio_path_state): set up at open, pinned
 * by uvio_device_set_path(), read for uvio_device_path() and the stats.
 * Everything else about it happens inside uvio_run_verb_desc(). */
void uvio_path_init(struct uvio_path_state *s, enum uvio_path pinned);
void uvio_path_pin(struct uvio_path_state *s, enum uvio_path path);
enum uvio_path uvio_path_current(const struct uvio_path_state *s);
uint64_t uvio_path_fallbacks(const struct uvio_path_state *s);
/* Has the device's path answered (so that ENOTTY is a command's error)? And
 * the path a verb goes straight to (AUTO: none remembered). For tests and
 * diagnostics. */
bool uvio_path_decided(const struct uvio_path_state *s);
enum uvio_path uvio_path_remembered(const struct uvio_path_state *s, unsigned int verb);
/* The path a verb takes now, UVIO_PATH_AUTO when none can carry it. */
enum uvio_path uvio_path_pick(const struct uvio_path_state *s, unsigned int verb,
			      unsigned int has);

/* Finish a verb: log a failure naming verb and path, report the path. */
int uvio_verb_end(struct uvio_device *dev, const char *verb, enum uvio_path path,
		  int ret, enum uvio_path *out);

/*
 * Run one verb on the device's path: its native ioctl encoding (NULL when
 * the kernel has none) or its write() command (NULL when none), which goes
 * over INVOKE_WRITE or write(). An answer that says a path is missing
 * (ENOTTY while undecided, EPROTONOSUPPORT) runs it again on the next path.
 * Logs a failure and reports the path that ran.
 */
typedef int (*uvio_ioctl_enc)(struct uvio_device *dev, enum uvio_path path, void *args);
typedef int (*uvio_write_enc)(struct uvio_device *dev, enum uvio_path path, void *args);
/* What never changes about a verb, kept in one constant per call site so
 * that a call passes four arguments, not seven. */
struct uvio_verb_desc {
	unsigned int verb;		/* enum uvio_verb */
	const char *name;		/* "OBJECT.METHOD", for messages */
	uvio_ioctl_enc on_ioctl;
	uvio_write_enc on_write;
	/* When no path carries it, the caller answers another way: then
	 * UVIO_VERB_NO_PATH comes back, unlogged, instead of -EOPNOTSUPP. */
	bool fallback;
	/* Commands the caller built: EPROTONOSUPPORT is the command's own
	 * answer (its method), never remembered for the verb's slot, which
	 * every caller-built command shares. */
	bool caller_built;
};
#define UVIO_VERB_NO_PATH 1

/* Learning the path (path.c): a verb not run since the device was decided,
 * or one whose remembered path just answered ENOTTY or EPROTONOSUPPORT
 * (tried, with that answer in ret). */
int uvio_run_verb_slow(struct uvio_device *dev, const struct uvio_verb_desc *d, void *args,
		       enum uvio_path *path, enum uvio_path tried, int ret);
int uvio_verb_failed(struct uvio_device *dev, const char *verb, enum uvio_path path, int ret)
	__attribute__((cold));

/*
 * The common case, inline in each verb: the path this verb took last time,
 * which a decided device keeps unless the kernel says otherwise. With the
 * verb's constant descriptor its encoder is a direct call, and the verb a
 * call shallower: under emulation every return is an indirect jump, and a
 * verb of a few microseconds feels each.
 */
static inline __attribute__((always_inline)) int
uvio_run_verb_desc(struct uvio_device *dev, const struct uvio_verb_desc *d, void *args,
		   enum uvio_path *path)
{
	enum uvio_path p = (enum uvio_path)atomic_load_explicit(&dev->paths.verb_path[d->verb],
								 memory_order_relaxed);
	int ret = 0;

	if (__builtin_expect(p != UVIO_PATH_AUTO, 1)) {
		/* A remembered path is one the verb has an encoder for. */
		if (p == UVIO_PATH_IOCTL || p == UVIO_PATH_IOCTL_2017)
			ret = d->on_ioctl ? d->on_ioctl(dev, p, args) : -EOPNOTSUPP;
		else
			ret = d->on_write ? d->on_write(dev, p, args) : -EOPNOTSUPP;
		if (__builtin_expect(ret != -ENOTTY && ret != -EPROTONOSUPPORT, 1)) {
			if (path)
				*path = p;
			return __builtin_expect(ret, 0) ? uvio_verb_failed(dev, d->name, p, ret) : 0;
		}
	}
	return uvio_run_verb_slow(dev, d, args, path, p, ret);
}
/* A verb's constant descriptor, made where the verb calls: its address. */
#define uvio_verb_desc_const(verb_, name_, on_ioctl_, on_write_)                         \
	__extension__({                                                                 \
		static const struct uvio_verb_desc uvio_verb_desc_ = {                 \
			.verb = (verb_),                                               \
			.name = (name_),                                               \
			.on_ioctl = (on_ioctl_),                                       \
			.on_write = (on_write_),                                       \
		};                                                                     \
		&uvio_verb_desc_;                                                      \
	})

#endif
