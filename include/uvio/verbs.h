/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: the device's and the context's verbs (GET_CONTEXT, the
 * queries, INFO_HANDLES) and what every verb shares (struct uvio_drv);
 * each object's verbs are in a header of its own, all included here:
 * <uvio/events.h> (completion channels, the event fds, what a destroy
 * reports), <uvio/pd.h>, <uvio/cq.h>, <uvio/mr.h>, <uvio/dm.h>,
 * <uvio/srq.h> (and XRCDs), <uvio/ah.h>, <uvio/qp.h>, <uvio/wq.h>,
 * <uvio/flow.h>, <uvio/counters.h>.
 *
 * Each verb knows every encoding the kernel has for it: its own ioctl
 * method, its write() command, and that write() command carried over the
 * ioctl by DEVICE/INVOKE_WRITE (Linux 5.0+). The device picks, per verb: the
 * native method where the kernel has it, else INVOKE_WRITE, else write() (old
 * kernels, or a filter that refuses the ioctl). The verb stores the path that ran in *path when path is not NULL.
 * All return 0 or a negative errno; on failure a message naming the verb and
 * path goes to the log callback and to uvio_last_error().
 *
 * Growth: the structs here begin with `size_t sz` (see UVIO_OPTS in
 * <uvio/api.h>); fields outside the caller's sz are neither read nor
 * written, so new fields land without new symbol versions.
 *
 * Driver data (struct uvio_drv): in/out pass through to the driver
 * (UHW_IN/UHW_OUT on ioctl, the bytes after the core command and response on
 * write()). Without out, a response space of UVIO_DEFAULT_DRV_OUT bytes of
 * the library's is offered, which is enough for the drivers we know (rxe's
 * and siw's largest answer, a QP's, is 32 bytes), and nothing reads it;
 * without in, REG_MR on siw sends the 8-byte request siw requires (struct
 * siw_ureq_reg_mr, zeroed). attrs joins
 * driver-namespace attributes that the caller built in a command of its own
 * to the verb's ioctl command; outputs among them (handles, fds, VALID_OUTPUT) are copied
 * back into that command. write() cannot carry them: -EOPNOTSUPP.
 *
 * ioctl GET_CONTEXT hands out no async event fd; the ioctl path then issues
 * ASYNC_EVENT/ALLOC as a second command. If that one fails (EMFILE when fds
 * are exhausted) the context exists already: the verb returns the error, and
 * calling it again retries only the async fd.
 */
#ifndef UVIO_VERBS_H
#define UVIO_VERBS_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>
/* Each object's verbs, one header each, in the order they build on each
 * other: the event fds and what a destroy reports, then the objects. */
#include <uvio/events.h>
#include <uvio/pd.h>
#include <uvio/cq.h>
#include <uvio/mr.h>
#include <uvio/dm.h>
#include <uvio/srq.h>
#include <uvio/ah.h>
#include <uvio/qp.h>
#include <uvio/wq.h>
#include <uvio/flow.h>
#include <uvio/counters.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_cmd;

#define UVIO_DEFAULT_DRV_OUT 64u
/* Driver data larger than this is refused with -E2BIG (write() needs it
 * next to the core struct on the stack). */
#define UVIO_MAX_DRV_DATA 1024u
/* At most this many driver attributes can be joined to a verb. */
#define UVIO_MAX_DRV_ATTRS 8u

struct uvio_drv {
	size_t sz;
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
	/* Driver-namespace attributes (ids from UVIO_DRIVER_ATTR(2)) to join
	 * to the verb's ioctl command, built with the uvio_put_*() functions
	 * in a command of the caller's; NULL for none. */
	struct uvio_cmd *attrs;
};

struct uvio_context {
	size_t sz;
	int async_fd;			/* owned by the caller; -1 when none */
	uint32_t num_comp_vectors;
	/* enum ib_uverbs_core_support bits (IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS),
	 * when the kernel says (5.10 and later do); 0 over write(). */
	uint64_t core_support;
};

UVIO_API int uvio_get_context(struct uvio_device *dev, const struct uvio_drv *drv,
			      struct uvio_context *ctx, enum uvio_path *path);

/* DEVICE/QUERY_CONTEXT: what GET_CONTEXT said, asked again. */
struct uvio_context_info {
	size_t sz;
	uint32_t num_comp_vectors;
	uint64_t core_support;		/* enum ib_uverbs_core_support bits */
};

UVIO_API int uvio_query_context(struct uvio_device *dev, struct uvio_context_info *info,
				enum uvio_path *path);

/* QUERY_DEVICE: the kernel's core struct. */
UVIO_API int uvio_query_device(struct uvio_device *dev,
			       struct ib_uverbs_query_device_resp *resp,
			       enum uvio_path *path);
/*
 * EX_QUERY_DEVICE: the kernel's extended struct, of which the caller has
 * len bytes (at least up to response_length; the kernel fills what it
 * knows, at most 512 bytes, and says how much in resp->response_length;
 * the rest of a roomier struct reads zero).
 */
UVIO_API int uvio_query_device_ex(struct uvio_device *dev,
				  struct ib_uverbs_ex_query_device_resp *resp, size_t len,
				  enum uvio_path *path);

/* QUERY_PORT, every field: the method answers the extended struct, write()
 * only the core one (the rest reads 0 there). */
struct uvio_port_attr {
	size_t sz;
	struct ib_uverbs_query_port_resp core;
	uint16_t port_cap_flags2;	/* enum ib_port_capability_mask2 bits */
	uint32_t active_speed_ex;	/* Linux 6.6+: speeds past active_speed's u8 */
};

UVIO_API int uvio_query_port(struct uvio_device *dev, uint8_t port,
			     struct uvio_port_attr *attr, enum uvio_path *path);

/*
 * GID table (methods, present on 5.10 and every later kernel the suite
 * boots). No write() command has them: on a device that uses write(), or a
 * kernel without the methods, the entries come from sysfs, as the method
 * would give them, and *path says UVIO_PATH_SYSFS. An empty entry answers
 * -ENODATA.
 * uvio_query_gid_table returns the number of entries written (at most max).
 * The entry is the kernel's struct ib_uverbs_gid_entry, which older
 * systems' headers lack.
 */
struct uvio_gid_entry {
	uint64_t gid[2];		/* network order bytes, as the kernel gives them */
	uint32_t gid_index;
	uint32_t port_num;
	uint32_t gid_type;		/* enum ib_uverbs_gid_type: 0 IB, 1 RoCE v1, 2 RoCE v2 */
	uint32_t netdev_ifindex;	/* 0 when no netdev */
};

UVIO_API int uvio_query_gid_entry(struct uvio_device *dev, uint32_t port, uint32_t index,
				  struct uvio_gid_entry *entry, enum uvio_path *path);
UVIO_API int uvio_query_gid_table(struct uvio_device *dev, struct uvio_gid_entry *entries,
				  size_t max, enum uvio_path *path);

/*
 * DEVICE/INFO_HANDLES: the handles of this context's objects of one type
 * (UVERBS_OBJECT_*, or a driver's object id). Returns how many were written
 * to handles, at most max (at least 1): the kernel stops at max, so a
 * result equal to max may mean more exist.
 */
UVIO_API int uvio_info_handles(struct uvio_device *dev, uint16_t object_id,
			       uint32_t *handles, size_t max, enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
