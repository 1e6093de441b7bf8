// SPDX-License-Identifier: MIT
/* Errno in words: its name (the library's own table, so that no libc
 * extension is needed) and what it means from the uverbs ABI. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <uvio/diag.h>

/* Indexed by the system's own values, so a name cannot sit at the wrong
 * number. Aliases (EWOULDBLOCK, EDEADLOCK, ENOTSUP) share a value with the
 * name listed and are left out. */
#define N(e) [e] = #e
static const char *const errno_names[] = {
	N(EPERM), N(ENOENT), N(ESRCH), N(EINTR), N(EIO), N(ENXIO), N(E2BIG), N(ENOEXEC),
	N(EBADF), N(ECHILD), N(EAGAIN), N(ENOMEM), N(EACCES), N(EFAULT), N(ENOTBLK), N(EBUSY),
	N(EEXIST), N(EXDEV), N(ENODEV), N(ENOTDIR), N(EISDIR), N(EINVAL), N(ENFILE), N(EMFILE),
	N(ENOTTY), N(ETXTBSY), N(EFBIG), N(ENOSPC), N(ESPIPE), N(EROFS), N(EMLINK), N(EPIPE),
	N(EDOM), N(ERANGE), N(EDEADLK), N(ENAMETOOLONG), N(ENOLCK), N(ENOSYS), N(ENOTEMPTY),
	N(ELOOP), N(ENOMSG), N(EIDRM), N(ECHRNG), N(EL2NSYNC), N(EL3HLT), N(EL3RST), N(ELNRNG),
	N(EUNATCH), N(ENOCSI), N(EL2HLT), N(EBADE), N(EBADR), N(EXFULL), N(ENOANO), N(EBADRQC),
	N(EBADSLT), N(EBFONT), N(ENOSTR), N(ENODATA), N(ETIME), N(ENOSR), N(ENONET), N(ENOPKG),
	N(EREMOTE), N(ENOLINK), N(EADV), N(ESRMNT), N(ECOMM), N(EPROTO), N(EMULTIHOP),
	N(EDOTDOT), N(EBADMSG), N(EOVERFLOW), N(ENOTUNIQ), N(EBADFD), N(EREMCHG), N(ELIBACC),
	N(ELIBBAD), N(ELIBSCN), N(ELIBMAX), N(ELIBEXEC), N(EILSEQ), N(ERESTART), N(ESTRPIPE),
	N(EUSERS), N(ENOTSOCK), N(EDESTADDRREQ), N(EMSGSIZE), N(EPROTOTYPE), N(ENOPROTOOPT),
	N(EPROTONOSUPPORT), N(ESOCKTNOSUPPORT), N(EOPNOTSUPP), N(EPFNOSUPPORT),
	N(EAFNOSUPPORT), N(EADDRINUSE), N(EADDRNOTAVAIL), N(ENETDOWN), N(ENETUNREACH),
	N(ENETRESET), N(ECONNABORTED), N(ECONNRESET), N(ENOBUFS), N(EISCONN), N(ENOTCONN),
	N(ESHUTDOWN), N(ETOOMANYREFS), N(ETIMEDOUT), N(ECONNREFUSED), N(EHOSTDOWN),
	N(EHOSTUNREACH), N(EALREADY), N(EINPROGRESS), N(ESTALE), N(EUCLEAN), N(ENOTNAM),
	N(ENAVAIL), N(EISNAM), N(EREMOTEIO), N(EDQUOT), N(ENOMEDIUM), N(EMEDIUMTYPE),
	N(ECANCELED), N(ENOKEY), N(EKEYEXPIRED), N(EKEYREVOKED), N(EKEYREJECTED),
	N(EOWNERDEAD), N(ENOTRECOVERABLE), N(ERFKILL), N(EHWPOISON)
};
#undef N

static __thread char unknown_name[24];

UVIO_API const char *uvio_errno_name(int err)
{
	unsigned int e = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (e < sizeof(errno_names) / sizeof(errno_names[0]) && errno_names[e])
		return errno_names[e];
	if (!e)
		return "0";
	snprintf(unknown_name, sizeof(unknown_name), "errno %u", e);
	return unknown_name;
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
		/* The core's credential check is write()'s alone; a driver may
		 * answer EACCES on either path (irdma's REREG_MR asking write
		 * access to memory pinned read-only). */
		return wr ? "the credentials differ from those that opened the fd (write() "
			    "checks them), or the driver refused the access asked" :
			    "the driver refused the access asked (e.g. write access to memory "
			    "it pinned read-only)";
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
