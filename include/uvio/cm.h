/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: the RDMA connection manager's command ABI,
 * /dev/infiniband/rdma_cm (write() commands of <rdma/rdma_user_cm.h>,
 * ABI version 4), beside the uverbs device.
 *
 * An id (uint32_t) names one connection end; its events are read from the
 * handle's fd with uvio_cm_get_event(). Each call is one write() on that fd,
 * nothing allocated; a failure is a negative errno and, in
 * uvio_last_error(), a message naming the command. The kernel's own structs
 * are the interface where the kernel's layout is the data itself: the
 * connection parameters a peer sends and receives (struct
 * rdma_ucm_conn_param), the event (struct rdma_ucm_event_resp) and the
 * query answers.
 *
 * Thread safety: a handle may be shared by threads; each call is one
 * system call. Closing is not to be raced with use.
 */
#ifndef UVIO_CM_H
#define UVIO_CM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_cm.h>
#include <uvio/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The events GET_EVENT reports (rdma_ucm_event_resp.event): the kernel's
 * values, which its UAPI headers do not name. */
enum uvio_cm_event {
	UVIO_CM_EVENT_ADDR_RESOLVED = 0,
	UVIO_CM_EVENT_ADDR_ERROR = 1,
	UVIO_CM_EVENT_ROUTE_RESOLVED = 2,
	UVIO_CM_EVENT_ROUTE_ERROR = 3,
	UVIO_CM_EVENT_CONNECT_REQUEST = 4,
	UVIO_CM_EVENT_CONNECT_RESPONSE = 5,
	UVIO_CM_EVENT_CONNECT_ERROR = 6,
	UVIO_CM_EVENT_UNREACHABLE = 7,
	UVIO_CM_EVENT_REJECTED = 8,
	UVIO_CM_EVENT_ESTABLISHED = 9,
	UVIO_CM_EVENT_DISCONNECTED = 10,
	UVIO_CM_EVENT_DEVICE_REMOVAL = 11,
	UVIO_CM_EVENT_MULTICAST_JOIN = 12,
	UVIO_CM_EVENT_MULTICAST_ERROR = 13,
	UVIO_CM_EVENT_ADDR_CHANGE = 14,
	UVIO_CM_EVENT_TIMEWAIT_EXIT = 15,
};

struct uvio_cm;

/*
 * Open /dev/infiniband/rdma_cm after checking the kernel's ABI version
 * (/sys/class/misc/rdma_cm/abi_version): -EPROTO when it is not the 4 this
 * library speaks, -ENODEV when the kernel has no rdma_cm (module not
 * loaded). uvio_cm_adopt() takes an fd opened elsewhere (librdmacm's
 * channel fd) without owning it.
 */
UVIO_API int uvio_cm_open(struct uvio_cm **cm);
UVIO_API int uvio_cm_adopt(int fd, struct uvio_cm **cm);
/* Closes the fd if the handle owns it; the kernel destroys the ids left. */
UVIO_API void uvio_cm_close(struct uvio_cm *cm);
/* The fd to poll() for events (readable when one is queued). */
UVIO_API int uvio_cm_fd(const struct uvio_cm *cm);

/* CREATE_ID: uid comes back in the id's events; ps is enum
 * rdma_ucm_port_space (RDMA_PS_TCP for RC, RDMA_PS_UDP for UD), qp_type an
 * IB_UVERBS_QPT_* value. */
UVIO_API int uvio_cm_create_id(struct uvio_cm *cm, uint64_t uid, uint16_t ps, uint8_t qp_type,
			       uint32_t *id);
/* DESTROY_ID: events_reported (may be NULL) is how many events the kernel
 * delivered for the id; events still queued for it are dropped. */
UVIO_API int uvio_cm_destroy_id(struct uvio_cm *cm, uint32_t id, uint32_t *events_reported);

/* BIND, RESOLVE_ADDR (src may be NULL), RESOLVE_ROUTE. Addresses are
 * sockaddr_in, sockaddr_in6 or sockaddr_ib, len their size (at most that of
 * struct sockaddr_storage). */
UVIO_API int uvio_cm_bind(struct uvio_cm *cm, uint32_t id, const struct sockaddr *addr,
			  socklen_t len);
UVIO_API int uvio_cm_resolve_addr(struct uvio_cm *cm, uint32_t id, const struct sockaddr *src,
				  socklen_t src_len, const struct sockaddr *dst,
				  socklen_t dst_len, uint32_t timeout_ms);
UVIO_API int uvio_cm_resolve_route(struct uvio_cm *cm, uint32_t id, uint32_t timeout_ms);

/* QUERY: the id's addresses, device and port (RDMA_USER_CM_QUERY_ADDR), its
 * GIDs as addresses (RDMA_USER_CM_QUERY_GID, same struct), its path records
 * (RDMA_USER_CM_QUERY_PATH: struct rdma_ucm_query_path_resp and up to len
 * bytes of struct ib_path_rec_data after it). */
UVIO_API int uvio_cm_query_addr(struct uvio_cm *cm, uint32_t id,
				struct rdma_ucm_query_addr_resp *resp);
UVIO_API int uvio_cm_query_gid(struct uvio_cm *cm, uint32_t id,
			       struct rdma_ucm_query_addr_resp *resp);
UVIO_API int uvio_cm_query_path(struct uvio_cm *cm, uint32_t id, void *resp, size_t len);

/* Open the uverbs device the id is bound or resolved to (its RDMA index and
 * node GUID, from QUERY): after BIND to an RDMA address, ADDR_RESOLVED, or
 * on a CONNECT_REQUEST's new id. -ENOTCONN before that; -ENODEV when no
 * uverbs device matches. Close it with uvio_device_close(). */
struct uvio_device;
UVIO_API int uvio_cm_device_open(struct uvio_cm *cm, uint32_t id, struct uvio_device **dev);

UVIO_API int uvio_cm_listen(struct uvio_cm *cm, uint32_t id, uint32_t backlog);
/* CONNECT and ACCEPT send param (private_data_len bytes of private data,
 * the QP number the peer is to talk to); ece may be NULL. ACCEPT's uid
 * replaces the id's (a connect request's new id starts with the
 * listener's). ACCEPT without param, on the active id after its
 * CONNECT_RESPONSE and its QP in RTS, completes a RoCE handshake. */
UVIO_API int uvio_cm_connect(struct uvio_cm *cm, uint32_t id,
			     const struct rdma_ucm_conn_param *param,
			     const struct rdma_ucm_ece *ece);
UVIO_API int uvio_cm_accept(struct uvio_cm *cm, uint32_t id, uint64_t uid,
			    const struct rdma_ucm_conn_param *param,
			    const struct rdma_ucm_ece *ece);
/* REJECT with up to RDMA_MAX_PRIVATE_DATA bytes for the peer; reason is
 * 0 (the kernel's consumer-defined reject) unless the caller knows better. */
UVIO_API int uvio_cm_reject(struct uvio_cm *cm, uint32_t id, uint8_t reason,
			    const void *private_data, uint8_t private_data_len);
UVIO_API int uvio_cm_disconnect(struct uvio_cm *cm, uint32_t id);

/* INIT_QP_ATTR: the attributes that bring the id's QP to qp_state (an
 * IB_QPS_* value: 1 INIT, 2 RTR, 3 RTS), with the mask in attr->qp_attr_mask,
 * as the kernel lays them out. */
UVIO_API int uvio_cm_init_qp_attr(struct uvio_cm *cm, uint32_t id, uint32_t qp_state,
				  struct ib_uverbs_qp_attr *attr);

/*
 * A QP of the library's through the manager, as librdmacm does it: the
 * attributes INIT_QP_ATTR gives for qp_state, applied with uvio_modify_qp()
 * to the QP qp_handle of dev (the device the id resolved to). RoCE wants
 * INIT before connect or accept, RTR and RTS after the connect response
 * (active) or before accept (passive); iWARP wants INIT, and the kernel
 * takes the QP to RTS itself when the connection is made. Asked for RTR,
 * it applies INIT's attributes again first, as they stand once the peer
 * has answered (the remote access the connection's responder resources
 * grant): three commands. uvio_cm_qp_attr() is the translation alone.
 */
struct uvio_qp_attr;
UVIO_API int uvio_cm_qp_attr(const struct ib_uverbs_qp_attr *k, struct uvio_qp_attr *attr);
UVIO_API int uvio_cm_modify_qp(struct uvio_cm *cm, uint32_t id, uint32_t qp_state,
			       struct uvio_device *dev, uint32_t qp_handle);

/* GET_EVENT: the next event of any id of this handle, into len bytes at
 * event (sizeof(*event) as your headers have it: the kernel fills what the
 * caller's struct holds, at least the 328 bytes of the event before ECE;
 * fewer is -EINVAL, nothing read). Blocks unless the fd is non-blocking
 * (-EAGAIN then). A blocked GET_EVENT is woken by an event only, not by
 * another thread closing the fd (the kernel holds the file): to wait with a
 * bound or a way out, poll() uvio_cm_fd() beside fds of your own. On a
 * closed fd it answers -EBADF. */
UVIO_API int uvio_cm_get_event(struct uvio_cm *cm, struct rdma_ucm_event_resp *event,
			       size_t len);
/* The kernel's name of an event (RDMA_CM_EVENT_*, without the prefix). */
UVIO_API const char *uvio_cm_event_name(uint32_t event);

/* NOTIFY: pass an async event (IB_EVENT_*) to the id's connection. */
UVIO_API int uvio_cm_notify(struct uvio_cm *cm, uint32_t id, uint32_t event);
/* SET_OPTION: level RDMA_OPTION_ID or RDMA_OPTION_IB, optname of that
 * level, optlen bytes at optval. */
UVIO_API int uvio_cm_set_option(struct uvio_cm *cm, uint32_t id, uint32_t level,
				uint32_t optname, const void *optval, uint32_t optlen);
/* MIGRATE_ID: move the id (and its queued events) to the handle to. */
UVIO_API int uvio_cm_migrate_id(struct uvio_cm *cm, uint32_t id, struct uvio_cm *to,
				uint32_t *events_reported);
/* JOIN_MCAST (join_flags RDMA_MC_JOIN_FLAG_*): *mc_id names the group's
 * membership, for its events and for LEAVE_MCAST. */
UVIO_API int uvio_cm_join_mcast(struct uvio_cm *cm, uint32_t id, uint64_t uid,
				const struct sockaddr *addr, socklen_t len, uint16_t join_flags,
				uint32_t *mc_id);
UVIO_API int uvio_cm_leave_mcast(struct uvio_cm *cm, uint32_t mc_id, uint32_t *events_reported);

#ifdef __cplusplus
}
#endif
#endif
