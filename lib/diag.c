// SPDX-License-Identifier: MIT
/* Error text, and probes that tell what a kernel has without changing it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "private.h"

static __thread char last_error[384];

UVIO_API const char *uvio_last_error(void)
{
	return last_error;
}

void uvio_set_last_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

/* What the answers mean, from what Linux 4.14 to 6.12 do (see the kernel
 * suite's kt_errno for the rows measured on 6.1 and 6.12). */
UVIO_API const char *uvio_errno_meaning(int err, enum uvio_path path)
{
	bool wr = path == UVIO_PATH_WRITE;

	switch (err < 0 ? -err : err) {
	case 0:
		return "success";
	case ENOTTY:
		return wr ? "not a uverbs fd" :
			"no verbs ioctl here: a kernel before 4.14 (or 4.14-4.16 without "
			"CONFIG_INFINIBAND_EXP_USER_ACCESS), or a seccomp filter refusing it";
	case EPROTONOSUPPORT:
		return "this kernel lacks the object, the method, or an attribute marked "
		       "mandatory (or a reserved header field is set)";
	case EINVAL:
		return wr ? "refused: lengths disagree with in_words, GET_CONTEXT twice, "
			    "no context yet, or the driver refused its data or the values" :
			    "refused: wrong driver_id, bad header length, a missing mandatory, "
			    "duplicate or wrongly sized attribute, an unknown FLAGS bit, GET_CONTEXT "
			    "twice or no context yet, or the driver refused its data (too little "
			    "response space) or the values";
	case ENOSPC:
		return wr ? "the response space (out_words) is smaller than the core response" :
			    "the device or driver has no room for another object";
	case ENOENT:
		return "no object with this handle: never created, destroyed already, or "
		       "another object type";
	case EFAULT:
		return "the kernel could not read or write a buffer: a bad pointer in the "
		       "command or in an attribute";
	case EOPNOTSUPP:
		return wr ? "an unknown write() command (or bit 31 without the extended header), "
			    "or a request this encoding cannot carry" :
			    "the driver does not implement this method, or unknown non-zero bytes "
			    "past a struct the kernel knows, or a bad enum element";
	case EIO:
		return "the device was removed (disassociated): close the fd and reopen";
	case EACCES:
		return "write() commands must come from the credentials that opened the fd";
	case EBADF:
		return "not an open fd, or an fd attribute names no object of the right type";
	case ENOMEM:
		return "the kernel or the driver is out of memory, or RLIMIT_MEMLOCK was reached";
	case EMFILE:
		return "no free file descriptor for the new fd (RLIMIT_NOFILE)";
	case EEXIST:
	case E2BIG:
		return "the command was built wrongly (see the builder's message)";
	}
	return strerror(err < 0 ? -err : err);
}

/* One attribute, mandatory, with attr_data.reserved set: a kernel that knows
 * the attribute refuses it (EINVAL) before any handler runs; one that does
 * not answers EPROTONOSUPPORT, as it does for an unknown method. */
static int probe(int fd, uint32_t driver_id, uint16_t object_id, uint16_t method_id,
		 uint16_t attr_id)
{
	int ret;

	UVIO_CMD_DEFINE(cmd, 1, object_id, method_id);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	uvio_put_ptr_in(&cmd, attr_id, NULL, 0)->attr_data.reserved = 0x0101;
	ret = uvio_cmd_exec(fd, &cmd);
	if (ret == -EPROTONOSUPPORT)
		return 0;
	if (ret == -ENOTTY || ret == -EFAULT || ret == -EBADF)
		return ret;
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
