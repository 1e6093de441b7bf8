// SPDX-License-Identifier: MIT
/* Probes that tell what a kernel has without changing it. They sit above
 * the command builder and the names table and below nothing. */
#include <errno.h>
#include <syslog.h>

#include <uvio/cmd.h>
#include <uvio/diag.h>
#include "cmd/run.h"
#include "report/report.h"

/* An object id no kernel has. */
#define UNKNOWN_OBJECT 0x3ff

/* The probes' commands are refused on purpose: they run with
 * uvio_cmd_run(), which leaves the refusals unsaid; what the probe cannot
 * tell is said here. */
static __attribute__((noinline, cold)) int cannot_tell(int fd, int ret)
{
	return uvio_fail(LOG_DEBUG, ret, "probe on fd %d: %s: %s", fd, uvio_errno_name(ret),
			 ret == -ENOTTY ? "no verbs ioctl on this fd (not a uverbs device, or "
					  "a kernel or sandbox without it)"
					: uvio_errno_meaning(ret, UVIO_PATH_IOCTL));
}

/* The probes read EPROTONOSUPPORT as "missing" and most other answers as
 * "present", which holds only where the kernel answers EPROTONOSUPPORT for
 * what it lacks. A wrong driver id makes it answer EINVAL to everything,
 * and a file that is not a uverbs device may answer anything: first ask
 * for an object no kernel has, which must answer EPROTONOSUPPORT. */
static int control(int fd, uint32_t driver_id)
{
	int ret;

	UVIO_CMD_DEFINE(cmd, 0, UNKNOWN_OBJECT, 0);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	ret = uvio_cmd_run(fd, &cmd);
	switch (ret) {
	case -EPROTONOSUPPORT:
		return 0;
	case -ENOTTY:	/* no verbs ioctl: nothing to probe */
	case -EBADF:
	case -EFAULT:
		return cannot_tell(fd, ret);
	case -EINVAL:
		uvio_set_last_error("probe on fd %d: unreliable: the kernel refuses even an "
				    "unknown object with EINVAL: a wrong driver id (%u)?",
				    fd, driver_id);
		return -EINVAL;
	}
	uvio_set_last_error("probe on fd %d: unreliable: an unknown object answered %s, "
			    "not EPROTONOSUPPORT", fd, uvio_errno_name(ret));
	return -EPROTO;
}

/* One attribute, mandatory, with attr_data.reserved set: a kernel that knows
 * the attribute refuses it (EINVAL) before any handler runs; one that does
 * not answers EPROTONOSUPPORT, as it does for an unknown method. */
static int probe(int fd, uint32_t driver_id, uint16_t object_id, uint16_t method_id,
		 uint16_t attr_id)
{
	int ret = control(fd, driver_id);

	if (ret)
		return ret;
	UVIO_CMD_DEFINE(cmd, 1, object_id, method_id);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	uvio_put_ptr_in(&cmd, attr_id, NULL, 0)->attr_data.reserved = 0x0101;
	ret = uvio_cmd_run(fd, &cmd);
	if (ret == -EPROTONOSUPPORT)
		return 0;
	if (ret == -ENOTTY || ret == -EFAULT || ret == -EBADF)
		return cannot_tell(fd, ret);
	return 1;
}

UVIO_API int uvio_probe_method(int fd, uint32_t driver_id, uint16_t object_id,
			       uint16_t method_id)
{
	uint16_t first = 0;

	/* Every method's first attribute has id 0 in the UAPI; the table
	 * says so where it knows the method. */
	uvio_known_attr(object_id, method_id, 0, &first);
	return probe(fd, driver_id, object_id, method_id, first);
}

UVIO_API int uvio_probe_attr(int fd, uint32_t driver_id, uint16_t object_id,
			     uint16_t method_id, uint16_t attr_id)
{
	return probe(fd, driver_id, object_id, method_id, attr_id);
}
