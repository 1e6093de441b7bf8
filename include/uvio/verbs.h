/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: verbs. Each verb has its ioctl and its write() encoding
 * side by side; the device's path decides which runs, and the verb stores the
 * one that ran in *path (when path is not NULL). All return 0 or a negative
 * errno; on failure a message naming the verb and path goes to the log
 * callback.
 *
 * Driver data: drv_in/drv_out pass through to the driver (UHW_IN/UHW_OUT,
 * or the bytes after the core command and response on write()). When a verb
 * is called with no drv_out, a response space of UVIO_DEFAULT_DRV_OUT bytes
 * on the stack is offered, which is enough for the drivers we know (rxe and
 * siw need 8 to 16 bytes), and discarded.
 *
 * The structs below are fixed for the ABI they were released in: a release
 * that grows one adds a new version of the functions that take it to the
 * symbol map (LIBUVERBS_IOCTL_x.y), and binaries linked against the old one
 * keep the old layout. No struct carries a size field for that reason.
 *
 * Encodings the kernel does not have (Linux 6.1 and 6.12):
 *  - QUERY_DEVICE, ALLOC_PD, REG_MR and CREATE_COMP_CHANNEL exist only as
 *    write() commands: they always report UVIO_PATH_WRITE.
 *  - ioctl GET_CONTEXT hands out no async event fd; the ioctl path then
 *    issues ASYNC_EVENT/ALLOC as a second command. If that one fails (EMFILE
 *    when fds are exhausted) the context exists already: the verb returns
 *    the error, and calling it again retries only the async fd.
 */
#ifndef UVIO_VERBS_H
#define UVIO_VERBS_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UVIO_DEFAULT_DRV_OUT 64u
/* Driver data larger than this is refused with -E2BIG (write() needs it
 * next to the core struct on the stack). */
#define UVIO_MAX_DRV_DATA 1024u

struct uvio_drv {
	const void *in;
	size_t in_len;
	void *out;
	size_t out_len;
};

struct uvio_context {
	int async_fd;			/* owned by the caller */
	uint32_t num_comp_vectors;
};

UVIO_API int uvio_get_context(struct uvio_device *dev, const struct uvio_drv *drv,
			      struct uvio_context *ctx, enum uvio_path *path);

/* The core part of QUERY_DEVICE and QUERY_PORT, as the kernel's structs. */
UVIO_API int uvio_query_device(struct uvio_device *dev,
			       struct ib_uverbs_query_device_resp *resp,
			       enum uvio_path *path);
UVIO_API int uvio_query_port(struct uvio_device *dev, uint8_t port,
			     struct ib_uverbs_query_port_resp *resp,
			     enum uvio_path *path);

/* A completion channel fd, owned by the caller (close it after its CQs). */
UVIO_API int uvio_create_comp_channel(struct uvio_device *dev, int *fd,
				      enum uvio_path *path);

struct uvio_cq_attr {
	uint32_t cqe;
	uint64_t user_handle;
	int channel_fd;			/* -1 for none */
	uint32_t comp_vector;
	uint32_t flags;			/* enum ib_uverbs_ex_create_cq_flags; ioctl only */
};

struct uvio_cq {
	uint32_t handle;
	uint32_t cqe;			/* what the kernel granted */
};

UVIO_API int uvio_create_cq(struct uvio_device *dev, const struct uvio_cq_attr *attr,
			    const struct uvio_drv *drv, struct uvio_cq *cq,
			    enum uvio_path *path);

struct uvio_cq_events {
	uint32_t comp_events_reported;
	uint32_t async_events_reported;
};

UVIO_API int uvio_destroy_cq(struct uvio_device *dev, uint32_t handle,
			     struct uvio_cq_events *events, enum uvio_path *path);

UVIO_API int uvio_alloc_pd(struct uvio_device *dev, const struct uvio_drv *drv,
			   uint32_t *pd_handle, enum uvio_path *path);
UVIO_API int uvio_dealloc_pd(struct uvio_device *dev, uint32_t pd_handle,
			     enum uvio_path *path);

struct uvio_mr {
	uint32_t handle, lkey, rkey;
};

UVIO_API int uvio_reg_mr(struct uvio_device *dev, uint32_t pd_handle, void *addr,
			 size_t length, uint64_t iova, uint32_t access,
			 const struct uvio_drv *drv, struct uvio_mr *mr,
			 enum uvio_path *path);
UVIO_API int uvio_dereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
