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
#include <syslog.h>
#include <uvio/diag.h>
#include <uvio/events.h>
#include "opts.h"
#include "report/report.h"

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

/* A call refused before anything was read: said, as every failure is. */
static int bad_arg(const char *fn, const char *arg, const char *why)
{
	return uvio_fail(LOG_DEBUG, -EINVAL, "%s: EINVAL: argument %s: %s", fn, arg, why);
}

#define EV_TOO_SMALL "NULL, or its sz too small for the fields written"

UVIO_API int uvio_decode_async_event(const void *buf, size_t len, struct uvio_async_event *ev)
{
	struct ib_uverbs_async_event_desc d;

	if (!buf)
		return bad_arg("uvio_decode_async_event", "buf", "NULL");
	if (len != sizeof(d))
		return bad_arg("uvio_decode_async_event", "len",
			       "not the size of struct ib_uverbs_async_event_desc (16)");
	if (!UVIO_OPT_HAS(ev, element))
		return bad_arg("uvio_decode_async_event", "ev", EV_TOO_SMALL);
	memcpy(&d, buf, sizeof(d));
	UVIO_OUT_SET(ev, element, d.element);
	UVIO_OUT_SET(ev, type, d.event_type);
	UVIO_OUT_SET(ev, element_kind, (uint32_t)uvio_event_element_kind(d.event_type));
	return 0;
}

UVIO_API int uvio_decode_comp_event(const void *buf, size_t len, struct uvio_comp_event *ev)
{
	struct ib_uverbs_comp_event_desc d;

	if (!buf)
		return bad_arg("uvio_decode_comp_event", "buf", "NULL");
	if (len != sizeof(d))
		return bad_arg("uvio_decode_comp_event", "len",
			       "not the size of struct ib_uverbs_comp_event_desc (8)");
	if (!UVIO_OPT_HAS(ev, cq_user_handle))
		return bad_arg("uvio_decode_comp_event", "ev", EV_TOO_SMALL);
	memcpy(&d, buf, sizeof(d));
	UVIO_OUT_SET(ev, cq_user_handle, d.cq_handle);
	return 0;
}

/* One record: the kernel hands out exactly one per read() and refuses a
 * shorter buffer (EINVAL). This read() is the event fds' one system call,
 * and the one place here where -1/errno becomes -errno. */
static int read_event(const char *fn, int fd, void *buf, size_t len)
{
	ssize_t n;
	int err;

	if (fd < 0)
		return uvio_fail(LOG_DEBUG, -EBADF, "%s: EBADF: argument fd: %d", fn, fd);
	n = read(fd, buf, len);
	if ((size_t)n == len)
		return 0;
	err = n < 0 ? -errno : -EIO;
	/* EAGAIN is what a non-blocking fd with nothing to read answers:
	 * said quietly (it still is this thread's last error). */
	return uvio_fail(err == -EAGAIN ? LOG_DEBUG : LOG_INFO, err, "%s: %s: read() of fd %d: %s",
			 fn, uvio_errno_name(err), fd,
			 n < 0 ? uvio_errno_meaning(err, UVIO_PATH_AUTO) : "a short event record");
}

UVIO_API int uvio_get_async_event(int fd, struct uvio_async_event *ev)
{
	struct ib_uverbs_async_event_desc d;
	int ret;

	if (!UVIO_OPT_HAS(ev, element))
		return bad_arg("uvio_get_async_event", "ev", EV_TOO_SMALL);
	ret = read_event("uvio_get_async_event", fd, &d, sizeof(d));
	return ret ? ret : uvio_decode_async_event(&d, sizeof(d), ev);
}

UVIO_API int uvio_get_comp_event(int fd, struct uvio_comp_event *ev)
{
	struct ib_uverbs_comp_event_desc d;
	int ret;

	if (!UVIO_OPT_HAS(ev, cq_user_handle))
		return bad_arg("uvio_get_comp_event", "ev", EV_TOO_SMALL);
	ret = read_event("uvio_get_comp_event", fd, &d, sizeof(d));
	return ret ? ret : uvio_decode_comp_event(&d, sizeof(d), ev);
}

UVIO_API int uvio_event_fd_set_nonblock(int fd, bool nonblock)
{
	int fl = fcntl(fd, F_GETFL);
	int err;

	if (fl >= 0) {
		fl = nonblock ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
		if (!fcntl(fd, F_SETFL, fl))
			return 0;
	}
	err = -errno;
	return uvio_fail(LOG_INFO, err, "uvio_event_fd_set_nonblock: %s: fcntl() of fd %d: %s",
			 uvio_errno_name(err), fd, uvio_errno_meaning(err, UVIO_PATH_AUTO));
}
