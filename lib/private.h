/* SPDX-License-Identifier: MIT */
/* Internal to the library: never installed. */
#ifndef UVIO_PRIVATE_H
#define UVIO_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The only places that turn -1/errno into -errno. Kept out of line so that
 * unit tests can substitute ioctl() and write() with the linker's --wrap. */
int uvio_sys_ioctl(int fd, unsigned long request, void *arg);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len);

/* The kind the names table gives an attribute, 0 when unknown. */
int uvio_attr_known_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id);

#endif

#ifndef UVIO_PRIVATE_DEVICE_H
#define UVIO_PRIVATE_DEVICE_H
#include <stdatomic.h>
#include <stdbool.h>
#include <uvio/cmd.h>
#include <uvio/device.h>
#include <uvio/verbs.h>

/* Room for the per-verb "native method missing" bits; lib/verbs/verb.h
 * numbers the verbs and checks they fit. */
#define UVIO_VERB_SLOTS 256
/* Set in dev->path once a path has answered something other than ENOTTY:
 * from then on ENOTTY is an error of that command, not a path fact. */
#define UVIO_PATH_DECIDED 0x100

enum uvio_invoke_write {
	UVIO_INVOKE_WRITE_UNKNOWN = 0,
	UVIO_INVOKE_WRITE_MISSING,	/* answered EPROTONOSUPPORT */
};

struct uvio_device {
	int fd;
	bool owned;
	bool may_2017;			/* the running kernel could have it */
	uint32_t driver_id;
	char name[64];
	bool trace;			/* UVERBS_IOCTL_TRACE at open */
	/* ioctl GET_CONTEXT succeeded but its async fd could not be made
	 * (EMFILE, say): the next uvio_get_context() only retries the fd. */
	bool ctx_without_async_fd;
	uint32_t num_comp_vectors;
	enum uvio_path pinned;		/* AUTO: decide by answers */
	/* The device's path (AUTO: nothing answered yet), with
	 * UVIO_PATH_DECIDED once it answered anything but ENOTTY. */
	_Atomic int path;
	_Atomic int invoke_write;	/* enum uvio_invoke_write */
	/* Verbs whose native ioctl method answered EPROTONOSUPPORT. */
	_Atomic uint64_t native_missing[UVIO_VERB_SLOTS / 64];
	_Atomic uint64_t n_fallback;
};

/* What a verb can be sent as: a bit per encoding it has. */
enum uvio_verb_has {
	UVIO_HAS_NATIVE = 1,	/* an ioctl method of its own */
	UVIO_HAS_WRITE = 2,	/* a write() command (also carried by INVOKE_WRITE) */
};
/* The path a verb takes now, UVIO_PATH_AUTO when none can carry it. */
enum uvio_path uvio_path_pick(struct uvio_device *dev, unsigned int verb, unsigned int has);
/* After an attempt on path tried: record what the answer says about the
 * device's paths and return true when the verb should run again. */
bool uvio_path_retry(struct uvio_device *dev, unsigned int verb, unsigned int has,
		     enum uvio_path tried, int ret);

/* A command for this device on an ioctl path. */
#define UVIO_DEV_CMD(dev, name, n, path, object, method)                       \
	UVIO_CMD_DEFINE(name, (n) + UVIO_MAX_DRV_ATTRS, object, method);       \
	uvio_dev_cmd_setup(dev, &name, path)
static inline void uvio_dev_cmd_setup(struct uvio_device *dev, struct uvio_cmd *cmd,
				      enum uvio_path path)
{
	if (path == UVIO_PATH_IOCTL_2017)
		uvio_cmd_set_layout(cmd, UVIO_LAYOUT_2017);
	else
		uvio_cmd_set_driver_id(cmd, dev->driver_id);
}

int uvio_dev_exec_traced(struct uvio_device *dev, struct uvio_cmd *cmd);
static inline int uvio_dev_exec(struct uvio_device *dev, struct uvio_cmd *cmd)
{
	if (__builtin_expect(dev->trace, 0))
		return uvio_dev_exec_traced(dev, cmd);
	return uvio_cmd_exec(dev->fd, cmd);
}

/* A write() command as laid out by lib/legacy.c: all len bytes must go. */
int uvio_dev_write(struct uvio_device *dev, void *buf, size_t len);

/* A verb's driver data, checked, with the default response space. */
struct drv_bufs {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	struct uvio_cmd *attrs;		/* driver attributes to join, or NULL */
	uint64_t dflt[64 / sizeof(uint64_t)];	/* UVIO_DEFAULT_DRV_OUT */
};

/*
 * A verb's write() command, sent as write() or carried by INVOKE_WRITE as p
 * says. core is the kernel's struct for the command: for plain commands it
 * starts with the response pointer, filled in here for write(); for extended
 * ones (command is an IB_USER_VERBS_EX_CMD_*) it is the struct after
 * struct ib_uverbs_ex_cmd_hdr. resp receives the core response; drv (may be
 * NULL) travels after both.
 */
int uvio_legacy_cmd(struct uvio_device *dev, enum uvio_path p, uint32_t command,
		    const void *core, size_t core_len, void *resp, size_t resp_len,
		    const struct drv_bufs *drv);
int uvio_legacy_cmd_ex(struct uvio_device *dev, enum uvio_path p, uint32_t command,
		       const void *core, size_t core_len, void *resp, size_t resp_len,
		       const struct drv_bufs *drv);

/* Finish a verb: log a failure naming verb and path, report the path. */
int uvio_verb_end(struct uvio_device *dev, const char *verb, enum uvio_path path,
		  int ret, enum uvio_path *out);

void uvio_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool uvio_log_enabled(void);
void uvio_set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

bool uvio_trace_requested(void);
void uvio_trace_ioctl(const struct uvio_device *dev, const struct uvio_cmd *cmd, int ret,
		      uint64_t ns);
void uvio_trace_write(const struct uvio_device *dev, const void *buf, size_t len, int ret,
		      uint64_t ns);
uint64_t uvio_now_ns(void);

int uvio_probe_driver_id(int fd, uint32_t *driver_id);

#endif

#ifndef UVIO_PRIVATE_RUN_H
#define UVIO_PRIVATE_RUN_H
/*
 * Run one verb on the device's path: its native ioctl encoding (NULL when
 * the kernel has none) or its write() command (NULL when none), which goes
 * over INVOKE_WRITE or write(). An answer that says a path is missing
 * (ENOTTY while undecided, EPROTONOSUPPORT) runs it again on the next path.
 * Logs a failure and reports the path that ran.
 */
typedef int (*uvio_ioctl_enc)(struct uvio_device *dev, enum uvio_path path, void *args);
typedef int (*uvio_write_enc)(struct uvio_device *dev, enum uvio_path path, void *args);
int uvio_run_verb(struct uvio_device *dev, unsigned int verb, const char *name,
		  uvio_ioctl_enc on_ioctl, uvio_write_enc on_write, void *args,
		  enum uvio_path *path);
#endif
