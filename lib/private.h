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
	_Atomic int path;		/* decided path, AUTO before */
	_Atomic uint32_t ioctl_missing;	/* verbs answered EPROTONOSUPPORT */
	_Atomic uint64_t n_fallback;
};

/* The path a verb takes now. */
enum uvio_path uvio_path_pick(struct uvio_device *dev, enum uvio_verb verb);
/* After an ioctl attempt: record what the answer says about the path and
 * return true when the verb should run again on the path picked next. */
bool uvio_path_retry(struct uvio_device *dev, enum uvio_verb verb,
		     enum uvio_path tried, int ret);

/* A command for this device on an ioctl path. */
#define UVIO_DEV_CMD(dev, name, n, path, object, method)                       \
	UVIO_CMD_DEFINE(name, n, object, method);                              \
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

/* A legacy write() command: buf starts with struct ib_uverbs_cmd_hdr and
 * holds in_len bytes (hdr included); resp_len bytes of response. */
int uvio_dev_write(struct uvio_device *dev, uint32_t command, void *buf,
		   size_t in_len, size_t resp_len);

/* A verb's driver data, checked, with the default response space. */
struct drv_bufs {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	uint64_t dflt[64 / sizeof(uint64_t)];	/* UVIO_DEFAULT_DRV_OUT */
};

/* A verb's legacy write() command: core is its struct without the header
 * (response pointer first when resp_len > 0, filled in here), resp receives
 * the core response; drv (may be NULL) travels after both. */
int uvio_legacy_cmd(struct uvio_device *dev, uint32_t command, const void *core,
		    size_t core_len, void *resp, size_t resp_len,
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
