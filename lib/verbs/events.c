// SPDX-License-Identifier: MIT
/*
 * The event fds: the async event fd delivers struct
 * ib_uverbs_async_event_desc, a completion channel struct
 * ib_uverbs_comp_event_desc, one record per read(). Nothing here touches a
 * device handle: the fds are the caller's.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <rdma/ib_user_verbs.h>
#include <uvio/events.h>
#include "opts.h"

static const struct {
	const char *name;
	enum uvio_event_element kind;
} event_types[] = {
	[UVIO_EVENT_CQ_ERR] = { "CQ_ERR", UVIO_ELEMENT_CQ },
	[UVIO_EVENT_QP_FATAL] = { "QP_FATAL", UVIO_ELEMENT_QP },
	[UVIO_EVENT_QP_REQ_ERR] = { "QP_REQ_ERR", UVIO_ELEMENT_QP },
	[UVIO_EVENT_QP_ACCESS_ERR] = { "QP_ACCESS_ERR", UVIO_ELEMENT_QP },
	[UVIO_EVENT_COMM_EST] = { "COMM_EST", UVIO_ELEMENT_QP },
	[UVIO_EVENT_SQ_DRAINED] = { "SQ_DRAINED", UVIO_ELEMENT_QP },
	[UVIO_EVENT_PATH_MIG] = { "PATH_MIG", UVIO_ELEMENT_QP },
	[UVIO_EVENT_PATH_MIG_ERR] = { "PATH_MIG_ERR", UVIO_ELEMENT_QP },
	[UVIO_EVENT_DEVICE_FATAL] = { "DEVICE_FATAL", UVIO_ELEMENT_DEVICE },
	[UVIO_EVENT_PORT_ACTIVE] = { "PORT_ACTIVE", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_PORT_ERR] = { "PORT_ERR", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_LID_CHANGE] = { "LID_CHANGE", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_PKEY_CHANGE] = { "PKEY_CHANGE", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_SM_CHANGE] = { "SM_CHANGE", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_SRQ_ERR] = { "SRQ_ERR", UVIO_ELEMENT_SRQ },
	[UVIO_EVENT_SRQ_LIMIT_REACHED] = { "SRQ_LIMIT_REACHED", UVIO_ELEMENT_SRQ },
	[UVIO_EVENT_QP_LAST_WQE_REACHED] = { "QP_LAST_WQE_REACHED", UVIO_ELEMENT_QP },
	[UVIO_EVENT_CLIENT_REREGISTER] = { "CLIENT_REREGISTER", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_GID_CHANGE] = { "GID_CHANGE", UVIO_ELEMENT_PORT },
	[UVIO_EVENT_WQ_FATAL] = { "WQ_FATAL", UVIO_ELEMENT_WQ },
	[UVIO_EVENT_DEVICE_SPEED_CHANGE] = { "DEVICE_SPEED_CHANGE", UVIO_ELEMENT_PORT },
};

UVIO_API const char *uvio_event_type_name(uint32_t type)
{
	return type < sizeof(event_types) / sizeof(event_types[0]) ? event_types[type].name
								    : NULL;
}

UVIO_API enum uvio_event_element uvio_event_element_kind(uint32_t type)
{
	return type < sizeof(event_types) / sizeof(event_types[0]) ? event_types[type].kind
								    : UVIO_ELEMENT_UNKNOWN;
}

UVIO_API int uvio_decode_async_event(const void *buf, size_t len, struct uvio_async_event *ev)
{
	struct ib_uverbs_async_event_desc d;

	if (!buf || len != sizeof(d) || !UVIO_OPT_HAS(ev, element))
		return -EINVAL;
	memcpy(&d, buf, sizeof(d));
	UVIO_OUT_SET(ev, element, d.element);
	UVIO_OUT_SET(ev, type, d.event_type);
	UVIO_OUT_SET(ev, element_kind, (uint32_t)uvio_event_element_kind(d.event_type));
	return 0;
}

UVIO_API int uvio_decode_comp_event(const void *buf, size_t len, struct uvio_comp_event *ev)
{
	struct ib_uverbs_comp_event_desc d;

	if (!buf || len != sizeof(d) || !UVIO_OPT_HAS(ev, cq_user_handle))
		return -EINVAL;
	memcpy(&d, buf, sizeof(d));
	UVIO_OUT_SET(ev, cq_user_handle, d.cq_handle);
	return 0;
}

/* One record: the kernel hands out exactly one per read() and refuses a
 * shorter buffer (EINVAL). This read() is the event fds' one system call,
 * and the one place here where -1/errno becomes -errno. */
static int read_event(int fd, void *buf, size_t len)
{
	ssize_t n;

	if (fd < 0)
		return -EBADF;
	n = read(fd, buf, len);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

UVIO_API int uvio_get_async_event(int fd, struct uvio_async_event *ev)
{
	struct ib_uverbs_async_event_desc d;
	int ret;

	if (!UVIO_OPT_HAS(ev, element))
		return -EINVAL;
	ret = read_event(fd, &d, sizeof(d));
	return ret ? ret : uvio_decode_async_event(&d, sizeof(d), ev);
}

UVIO_API int uvio_get_comp_event(int fd, struct uvio_comp_event *ev)
{
	struct ib_uverbs_comp_event_desc d;
	int ret;

	if (!UVIO_OPT_HAS(ev, cq_user_handle))
		return -EINVAL;
	ret = read_event(fd, &d, sizeof(d));
	return ret ? ret : uvio_decode_comp_event(&d, sizeof(d), ev);
}

UVIO_API int uvio_event_fd_set_nonblock(int fd, bool nonblock)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = nonblock ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl) ? -errno : 0;
}
