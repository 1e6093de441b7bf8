/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: the event fds: completion channels, reading events, and
 * what a destroy reports.
 *
 * Two kinds of fd carry events: the context's async event fd (from
 * uvio_get_context, or an fd given to QP.CREATE) delivers struct
 * ib_uverbs_async_event_desc records, and a completion channel delivers
 * struct ib_uverbs_comp_event_desc records for the CQs bound to it after
 * uvio_req_notify_cq(). Each call reads one event with one read().
 *
 * Blocking follows the fd: on a blocking fd a call waits for an event; on a
 * non-blocking one (uvio_event_fd_set_nonblock) it returns -EAGAIN when none
 * is queued. The caller owns poll()/epoll: both fds are readable (POLLIN)
 * while an event is queued.
 *
 * Acknowledgement: destroying a CQ or QP reports how many events the kernel
 * queued for it (uvio_destroy_cq's comp_events_reported and
 * async_events_reported, uvio_destroy_qp's events_reported). Events still
 * queued name the object's user_handle: a program that frees per-object
 * state at destroy reads (or has read) that many events first.
 */
#ifndef UVIO_EVENTS_H
#define UVIO_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A completion channel: its fd is the caller's (close it after its CQs).
 * Sized (sz first, see UVIO_OPTS): set sz before creating the channel. */
struct uvio_comp_channel {
	size_t sz;
	int fd;
	int reserved;			/* zero; room a later field may take */
};

UVIO_API int uvio_create_comp_channel(struct uvio_device *dev,
				      struct uvio_comp_channel *channel,
				      enum uvio_path *path);

/* What destroy reports: events the kernel delivered for the object, which
 * the caller must have read before the destroy returns (kernel rule). An
 * output, sized: set sz; fields past it are not written. A QP or SRQ has no
 * completion events of its own: comp_events_reported is 0 for them. */
struct uvio_events_reported {
	size_t sz;
	uint32_t comp_events_reported;
	uint32_t async_events_reported;
};

/* Event types as the kernel numbers them (enum ib_event_type). */
enum uvio_event_type {
	UVIO_EVENT_CQ_ERR = 0,
	UVIO_EVENT_QP_FATAL = 1,
	UVIO_EVENT_QP_REQ_ERR = 2,
	UVIO_EVENT_QP_ACCESS_ERR = 3,
	UVIO_EVENT_COMM_EST = 4,
	UVIO_EVENT_SQ_DRAINED = 5,
	UVIO_EVENT_PATH_MIG = 6,
	UVIO_EVENT_PATH_MIG_ERR = 7,
	UVIO_EVENT_DEVICE_FATAL = 8,
	UVIO_EVENT_PORT_ACTIVE = 9,
	UVIO_EVENT_PORT_ERR = 10,
	UVIO_EVENT_LID_CHANGE = 11,
	UVIO_EVENT_PKEY_CHANGE = 12,
	UVIO_EVENT_SM_CHANGE = 13,
	UVIO_EVENT_SRQ_ERR = 14,
	UVIO_EVENT_SRQ_LIMIT_REACHED = 15,
	UVIO_EVENT_QP_LAST_WQE_REACHED = 16,
	UVIO_EVENT_CLIENT_REREGISTER = 17,
	UVIO_EVENT_GID_CHANGE = 18,
	UVIO_EVENT_WQ_FATAL = 19,
	UVIO_EVENT_DEVICE_SPEED_CHANGE = 20,
};

/* What an async event's element is. */
enum uvio_event_element {
	UVIO_ELEMENT_UNKNOWN = 0,	/* a type this library does not know */
	UVIO_ELEMENT_CQ,		/* element: the CQ's user_handle */
	UVIO_ELEMENT_QP,		/* the QP's user_handle */
	UVIO_ELEMENT_SRQ,		/* the SRQ's user_handle */
	UVIO_ELEMENT_WQ,		/* the WQ's user_handle */
	UVIO_ELEMENT_PORT,		/* the port number */
	UVIO_ELEMENT_DEVICE,		/* nothing (0) */
};

struct uvio_async_event {
	size_t sz;
	uint64_t element;		/* see element_kind */
	uint32_t type;			/* enum uvio_event_type */
	uint32_t element_kind;		/* enum uvio_event_element, from type */
};

struct uvio_comp_event {
	size_t sz;
	uint64_t cq_user_handle;	/* the user_handle given at CQ.CREATE */
};

/* One event from an async event fd / a completion channel. 0, -EAGAIN
 * (non-blocking fd, nothing queued), -EINTR (a signal while waiting), -EIO
 * (the device went away), -EBADF (fd < 0 or not open), -EINVAL (ev NULL or
 * its sz short of the first field). */
UVIO_API int uvio_get_async_event(int fd, struct uvio_async_event *ev);
UVIO_API int uvio_get_comp_event(int fd, struct uvio_comp_event *ev);

/* Decode a raw record read by the caller itself (len bytes). -EINVAL when
 * len is not the record's size. */
UVIO_API int uvio_decode_async_event(const void *buf, size_t len,
				     struct uvio_async_event *ev);
UVIO_API int uvio_decode_comp_event(const void *buf, size_t len,
				    struct uvio_comp_event *ev);

/* "QP_FATAL", "PORT_ACTIVE", ...; NULL for a type this library does not
 * know. */
UVIO_API const char *uvio_event_type_name(uint32_t type);
UVIO_API enum uvio_event_element uvio_event_element_kind(uint32_t type);

/* Set or clear O_NONBLOCK on an event fd. */
UVIO_API int uvio_event_fd_set_nonblock(int fd, bool nonblock);

#ifdef __cplusplus
}
#endif
#endif
