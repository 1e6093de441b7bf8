// SPDX-License-Identifier: MIT
/*
 * Which command path a device takes, decided by the kernel's answers:
 *  - ENOTTY on today's ioctl means the kernel (or a filter in front of it)
 *    has no verbs ioctl: the whole device moves on, once, to the 2017 layout
 *    where the running kernel is one of the few that had it, else to write().
 *  - EPROTONOSUPPORT for one method means this kernel lacks that method on
 *    ioctl (CQ methods on about 4.16-5.8): that verb alone uses write().
 * Both are cached, so once known every verb costs one syscall. The state is
 * atomic: threads racing on a fresh device get the same answers and so
 * agree on the path.
 */
#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <uvio/diag.h>
#include <rdma/ib_user_verbs.h>

#include "private.h"

UVIO_API const char *uvio_path_name(enum uvio_path path)
{
	switch (path) {
	case UVIO_PATH_AUTO: return "auto";
	case UVIO_PATH_IOCTL: return "ioctl";
	case UVIO_PATH_IOCTL_2017: return "ioctl-2017";
	case UVIO_PATH_WRITE: return "write";
	}
	return "?";
}

enum uvio_path uvio_path_pick(struct uvio_device *dev, enum uvio_verb verb)
{
	int p;

	if (dev->pinned != UVIO_PATH_AUTO)
		return dev->pinned;
	if (atomic_load_explicit(&dev->ioctl_missing, memory_order_relaxed) & (1u << verb))
		return UVIO_PATH_WRITE;
	p = atomic_load_explicit(&dev->path, memory_order_relaxed);
	return p == UVIO_PATH_AUTO ? UVIO_PATH_IOCTL : (enum uvio_path)p;
}

bool uvio_path_retry(struct uvio_device *dev, enum uvio_verb verb,
		     enum uvio_path tried, int ret)
{
	int expected = UVIO_PATH_AUTO;

	if (dev->pinned != UVIO_PATH_AUTO || tried == UVIO_PATH_WRITE)
		return false;
	if (ret == -ENOTTY) {
		int next = tried == UVIO_PATH_IOCTL && dev->may_2017 ?
			UVIO_PATH_IOCTL_2017 : UVIO_PATH_WRITE;

		/* From undecided or from the path that just failed; a
		 * racing thread may have moved it already, to the same. */
		if (!atomic_compare_exchange_strong(&dev->path, &expected, next)) {
			expected = tried;
			atomic_compare_exchange_strong(&dev->path, &expected, next);
		}
		atomic_fetch_add_explicit(&dev->n_fallback, 1, memory_order_relaxed);
		uvio_log(LOG_INFO, "%s: verbs ioctl answered ENOTTY, using %s from now on",
			 dev->name, uvio_path_name((enum uvio_path)next));
		return true;
	}
	/* Any other answer proves the ioctl exists. */
	atomic_compare_exchange_strong(&dev->path, &expected, (int)tried);
	if (ret == -EPROTONOSUPPORT) {
		atomic_fetch_or(&dev->ioctl_missing, 1u << verb);
		atomic_fetch_add_explicit(&dev->n_fallback, 1, memory_order_relaxed);
		return true;
	}
	return false;
}

uint64_t uvio_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int uvio_dev_exec_traced(struct uvio_device *dev, struct uvio_cmd *cmd)
{
	uint64_t t0 = uvio_now_ns();
	int ret = uvio_cmd_exec(dev->fd, cmd);

	uvio_trace_ioctl(dev, cmd, ret, uvio_now_ns() - t0);
	return ret;
}

int uvio_dev_write(struct uvio_device *dev, uint32_t command, void *buf,
		   size_t in_len, size_t resp_len)
{
	struct ib_uverbs_cmd_hdr *hdr = buf;
	ssize_t n;

	/* The ABI counts 4-byte words in 16 bits. */
	if ((in_len | resp_len) & 3 || in_len / 4 > UINT16_MAX || resp_len / 4 > UINT16_MAX)
		return -EINVAL;
	hdr->command = command;
	hdr->in_words = (__u16)(in_len / 4);
	hdr->out_words = (__u16)(resp_len / 4);
	if (__builtin_expect(dev->trace, 0)) {
		uint64_t t0 = uvio_now_ns();

		n = uvio_sys_write(dev->fd, buf, in_len);
		uvio_trace_write(dev, buf, in_len, (int)n, uvio_now_ns() - t0);
	} else {
		n = uvio_sys_write(dev->fd, buf, in_len);
	}
	if (n < 0)
		return (int)n;
	/* The kernel answers with the bytes it consumed: all of them. */
	return (size_t)n == in_len ? 0 : -EIO;
}

int uvio_verb_end(struct uvio_device *dev, const char *verb, enum uvio_path path,
		  int ret, enum uvio_path *out)
{
	if (out)
		*out = path;
	if (ret) {
		uvio_set_last_error("%s: %s over %s: %s: %s", dev->name, verb,
				    uvio_path_name(path), uvio_errno_name(ret),
				    uvio_errno_meaning(ret, path));
		uvio_log(LOG_ERR, "%s", uvio_last_error());
	}
	return ret;
}

int uvio_run_verb(struct uvio_device *dev, enum uvio_verb verb, const char *name,
		  uvio_ioctl_enc on_ioctl, uvio_write_enc on_write, void *args,
		  enum uvio_path *path)
{
	enum uvio_path p = UVIO_PATH_WRITE;
	int ret;

	for (;;) {
		if (on_ioctl)
			p = uvio_path_pick(dev, verb);
		if (p == UVIO_PATH_WRITE) {
			ret = on_write(dev, args);
			break;
		}
		ret = on_ioctl(dev, p, args);
		/* The common case: an answer that says nothing about paths,
		 * on a device whose path is decided. */
		if (__builtin_expect(ret != -ENOTTY && ret != -EPROTONOSUPPORT &&
				     atomic_load_explicit(&dev->path, memory_order_relaxed) != UVIO_PATH_AUTO, 1))
			break;
		if (!uvio_path_retry(dev, verb, p, ret))
			break;
	}
	return uvio_verb_end(dev, name, p, ret, path);
}
