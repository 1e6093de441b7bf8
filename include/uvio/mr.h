/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: memory regions and memory windows. The registering verbs
 * (here, and uvio_reg_dm_mr() of <uvio/dm.h>) answer in struct uvio_mr
 * (handle, lkey, rkey).
 *
 * Encodings the kernel has:
 *   REREG_MR         write() only (INVOKE_WRITE on the ioctl path)
 *   QUERY_MR         native MR/QUERY_MR only
 *   ADVISE_MR        native MR/ADVISE_MR only
 *   REG_DMABUF_MR    native MR/REG_DMABUF_MR only
 *   DM_MR_REG        native MR/DM_MR_REG only (see <uvio/dm.h>)
 *   MW alloc         write() ALLOC_MW only
 *   MW dealloc       native MW/DESTROY; write() DEALLOC_MW
 * A verb with no write() encoding fails with -EOPNOTSUPP where the device
 * takes write() (pinned, or a kernel without the verbs ioctl).
 */
#ifndef UVIO_MR_H
#define UVIO_MR_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

struct uvio_mr_attr {
	size_t sz;
	uint32_t pd_handle;
	void *addr;
	size_t length;
	uint64_t iova;
	uint32_t access;		/* enum ib_uverbs_access_flags */
	uint32_t reserved;		/* zero; room a later field may take */
};

struct uvio_mr {
	size_t sz;
	uint32_t handle, lkey, rkey;
};

UVIO_API int uvio_reg_mr(struct uvio_device *dev, const struct uvio_mr_attr *attr,
			 const struct uvio_drv *drv, struct uvio_mr *mr,
			 enum uvio_path *path);
UVIO_API int uvio_dereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   enum uvio_path *path);

/* REREG_MR: flags say what changes (IB_MR_REREG_TRANS 1: addr, length,
 * iova; IB_MR_REREG_PD 2: pd_handle; IB_MR_REREG_ACCESS 4: access). */
#define UVIO_MR_REREG_TRANS  1u
#define UVIO_MR_REREG_PD     2u
#define UVIO_MR_REREG_ACCESS 4u
struct uvio_rereg_mr_attr {
	size_t sz;
	uint32_t flags;
	void *addr;
	uint64_t length;
	uint64_t iova;
	uint32_t pd_handle;
	uint32_t access;		/* enum ib_uverbs_access_flags */
};

UVIO_API int uvio_rereg_mr(struct uvio_device *dev, uint32_t mr_handle,
			   const struct uvio_rereg_mr_attr *attr, const struct uvio_drv *drv,
			   struct uvio_mr *keys, enum uvio_path *path);

/* QUERY_MR: output, sized. iova is optional to the kernel; 0 when a kernel
 * does not fill it. */
struct uvio_mr_info {
	size_t sz;
	uint32_t lkey;
	uint32_t rkey;
	uint64_t length;
	uint64_t iova;
};

UVIO_API int uvio_query_mr(struct uvio_device *dev, uint32_t mr_handle,
			   struct uvio_mr_info *info, enum uvio_path *path);

/* ADVISE_MR: advice is enum ib_uverbs_advise_mr_advice, flags enum
 * ib_uverbs_advise_mr_flag; at least one SGE. */
UVIO_API int uvio_advise_mr(struct uvio_device *dev, uint32_t pd_handle, uint32_t advice,
			    uint32_t flags, const struct ib_uverbs_sge *sge, size_t num_sge,
			    enum uvio_path *path);

/* REG_DMABUF_MR: memory exported by a dma-buf fd. offset and iova must
 * share their offset within a page. */
struct uvio_dmabuf_mr_attr {
	size_t sz;
	uint32_t pd_handle;
	int fd;				/* the dma-buf */
	uint64_t offset;
	uint64_t length;
	uint64_t iova;
	uint32_t access;
	uint32_t reserved;		/* zero; room a later field may take */
};

UVIO_API int uvio_reg_dmabuf_mr(struct uvio_device *dev,
				const struct uvio_dmabuf_mr_attr *attr,
				const struct uvio_drv *drv, struct uvio_mr *mr,
				enum uvio_path *path);

/* Memory windows: type 1 or 2 (IB_MW_TYPE_1, IB_MW_TYPE_2). */
struct uvio_mw {
	size_t sz;
	uint32_t handle;
	uint32_t rkey;
};

/* Sized input (UVIO_OPTS): sz first. */
struct uvio_mw_attr {
	size_t sz;
	uint32_t pd_handle;
	uint8_t type;			/* 1 or 2 */
	uint8_t reserved[3];		/* zero; room later fields may take */
};

UVIO_API int uvio_alloc_mw(struct uvio_device *dev, const struct uvio_mw_attr *attr,
			   const struct uvio_drv *drv, struct uvio_mw *mw,
			   enum uvio_path *path);
UVIO_API int uvio_dealloc_mw(struct uvio_device *dev, uint32_t mw_handle,
			     enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
