/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: flow steering rules and flow actions.
 *
 * Encodings the kernel has:
 *   flow create                extended write() EX_CMD_CREATE_FLOW only
 *   flow destroy               native FLOW/DESTROY; extended write()
 *   flow action ESP create,    native FLOW_ACTION/ESP_CREATE, ESP_MODIFY and
 *   modify, destroy            DESTROY only (-EOPNOTSUPP where the device
 *                              takes write())
 *
 * A rule is the kernel's struct ib_uverbs_flow_attr followed by its specs
 * (struct ib_uverbs_flow_spec_*), num_of_specs of them, flow_attr.size bytes
 * in all; the library passes it as given. A counters object (see
 * <uvio/counters.h>) is attached to a rule by a spec of type
 * UVIO_FLOW_SPEC_ACTION_COUNT (struct ib_uverbs_flow_spec_action_count) that
 * names its handle.
 */
#ifndef UVIO_FLOW_H
#define UVIO_FLOW_H

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

/* The type field of a spec (struct ib_uverbs_flow_spec_hdr): the kernel's
 * enum ib_flow_spec_type, which its UAPI headers do not carry. A header spec
 * OR UVIO_FLOW_SPEC_INNER matches inside a tunnel. */
enum uvio_flow_spec_type {
	UVIO_FLOW_SPEC_ETH = 0x20,
	UVIO_FLOW_SPEC_IB = 0x22,
	UVIO_FLOW_SPEC_IPV4 = 0x30,
	UVIO_FLOW_SPEC_IPV6 = 0x31,
	UVIO_FLOW_SPEC_ESP = 0x34,
	UVIO_FLOW_SPEC_TCP = 0x40,
	UVIO_FLOW_SPEC_UDP = 0x41,
	UVIO_FLOW_SPEC_VXLAN_TUNNEL = 0x50,
	UVIO_FLOW_SPEC_GRE = 0x51,
	UVIO_FLOW_SPEC_MPLS = 0x60,
	UVIO_FLOW_SPEC_INNER = 0x100,
	UVIO_FLOW_SPEC_ACTION_TAG = 0x1000,
	UVIO_FLOW_SPEC_ACTION_DROP = 0x1001,
	UVIO_FLOW_SPEC_ACTION_HANDLE = 0x1002,	/* a flow action's handle */
	UVIO_FLOW_SPEC_ACTION_COUNT = 0x1003,	/* a counters object's handle */
};

/* The largest rule (flow_attr with its specs) the library sends: the
 * command is built on its stack. */
#define UVIO_MAX_FLOW_ATTR 4096u

/* flow->size must equal len (else -EINVAL before anything is sent); the
 * library pads the command to the 8-byte words the extended command
 * counts. */
UVIO_API int uvio_create_flow(struct uvio_device *dev, uint32_t qp_handle,
			      const struct ib_uverbs_flow_attr *flow, size_t len,
			      const struct uvio_drv *drv, uint32_t *flow_handle,
			      enum uvio_path *path);
UVIO_API int uvio_destroy_flow(struct uvio_device *dev, uint32_t flow_handle,
			       enum uvio_path *path);

/* An ESP (IPsec) flow action. Sized: sz first. esp and keymat are required
 * for create; for modify any subset may be given. NULL or 0 means not
 * given. replay_none sends the REPLAY attribute as "none" (modify: turn
 * replay protection off); replay sends it as a bitmap window. */
struct uvio_flow_action_esp_attr {
	size_t sz;
	const struct ib_uverbs_flow_action_esp *esp;
	const struct ib_uverbs_flow_action_esp_keymat_aes_gcm *keymat;
	const struct ib_uverbs_flow_action_esp_replay_bmp *replay;
	uint32_t replay_none;
	const struct ib_uverbs_flow_action_esp_encap *encap;
	const uint32_t *esn;
};

UVIO_API int uvio_create_flow_action_esp(struct uvio_device *dev,
					 const struct uvio_flow_action_esp_attr *attr,
					 const struct uvio_drv *drv, uint32_t *handle,
					 enum uvio_path *path);
UVIO_API int uvio_modify_flow_action_esp(struct uvio_device *dev, uint32_t handle,
					 const struct uvio_flow_action_esp_attr *attr,
					 const struct uvio_drv *drv, enum uvio_path *path);
UVIO_API int uvio_destroy_flow_action(struct uvio_device *dev, uint32_t handle,
				      enum uvio_path *path);

#ifdef __cplusplus
}
#endif
#endif
