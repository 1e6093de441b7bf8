/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: address handles.
 *
 * Encodings the kernel has: create is write() CREATE_AH only (INVOKE_WRITE
 * on the ioctl path); destroy is native AH/DESTROY and write() DESTROY_AH.
 * RoCE needs a global route (is_global 1) whose sgid_index names a GID of
 * the port; on rxe that is the RoCE v2 GID, index 1 in the test VM.
 */
#ifndef UVIO_AH_H
#define UVIO_AH_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

struct uvio_drv;		/* <uvio/verbs.h> */

/*
 * An address vector: where a QP's path or an AH leads. One type for both,
 * the library's own: the kernel has two layouts for it (struct
 * ib_uverbs_qp_dest in QP commands, struct ib_uverbs_ah_attr in CREATE_AH),
 * with reserved bytes the caller should not have to clear. RoCE needs is_global with a
 * destination GID and the local GID's index: on rxe the IPv4-mapped RoCE v2
 * GID (::ffff:a.b.c.d), index 1 on a netdev with one IPv4 address.
 */
struct uvio_av {
	uint8_t dgid[16];
	uint32_t flow_label;
	uint16_t dlid;
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
	uint8_t sl;
	uint8_t src_path_bits;
	uint8_t static_rate;
	uint8_t is_global;
	uint8_t port_num;
};

/* Sized (see UVIO_OPTS): sz first. */
struct uvio_ah_attr {
	size_t sz;
	uint32_t pd_handle;
	uint32_t reserved;		/* zero; room a later field may take */
	uint64_t user_handle;
	struct uvio_av av;
};

UVIO_API int uvio_create_ah(struct uvio_device *dev, const struct uvio_ah_attr *attr,
			    const struct uvio_drv *drv, uint32_t *ah_handle,
			    enum uvio_path *path);
UVIO_API int uvio_destroy_ah(struct uvio_device *dev, uint32_t ah_handle,
			     enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
