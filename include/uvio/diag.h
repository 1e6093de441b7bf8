/* SPDX-License-Identifier: MIT */
/*
 * libuverbs-ioctl: diagnostics. Error text, and probes that tell what a
 * kernel supports without changing anything.
 *
 * Tracing: with UVERBS_IOCTL_TRACE=1 in the environment when a device is
 * opened or adopted, every command on it is logged decoded (object.method,
 * attributes, path, result, time taken) at LOG_DEBUG through the log
 * callback, or to stderr when no callback is set: the variable is the user
 * asking for output.
 */
#ifndef UVIO_DIAG_H
#define UVIO_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include <uvio/api.h>
#include <uvio/device.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The last failure in this thread, in words. Every call that returns a
 * negative errno sets it first, argument checks included: what failed (the
 * device, verb and path, "rxe0: CQ.DESTROY over ioctl"; the connection
 * manager's command, "rdma_cm LISTEN"; or the function, "uvio_dp_post_send"),
 * the errno's name, and the argument or cause ("argument qp: NULL, or not
 * created ...", the attribute where one is to blame, what the errno means
 * for this ABI where the kernel answered). A call that succeeds leaves it as
 * it was, and pays nothing for it: the text is the latest failure, not the
 * latest call, so read it right after a call failed. Empty when nothing
 * failed yet. Thread-local; valid until the thread's next failure.
 *
 * Answers that are not failures leave it too: -ENOENT from
 * uvio_known_method(), uvio_known_attr() and uvio_known_write_cmd() past
 * their last index (the end of the list), and the command builder's inline
 * calls (the puts, uvio_cmd_error()), whose error the command keeps until
 * uvio_cmd_exec() or uvio_cmd_finish() returns it and names it here.
 */
UVIO_API const char *uvio_last_error(void);

/* The symbolic name of an errno ("EPROTONOSUPPORT"; either sign), from the
 * library's own table. Never NULL: a number the table lacks reads
 * "errno N", in a buffer of the calling thread valid until its next call. */
UVIO_API const char *uvio_errno_name(int err);

/* What an errno from the uverbs ABI means, on this path. Never NULL. */
UVIO_API const char *uvio_errno_meaning(int err, enum uvio_path path);

/* Name of a legacy write() command (IB_USER_VERBS_CMD_*), or NULL. */
UVIO_API const char *uvio_write_cmd_name(uint32_t command);

/*
 * What the query verbs answer, in words: a port's state ("ACTIVE"; enum
 * ib_port_state, ib_uverbs_query_port_resp.state), its link layer
 * ("InfiniBand", "Ethernet", "unspecified"), NULL for values the library
 * does not know; an MTU (enum uvio_mtu) in bytes, 0 when unknown; and
 * QUERY_DEVICE's fw_ver as "major.minor.sub" (16 bits each, sub zero-padded
 * to three digits), 0 or -ENOSPC when len is too small (-EINVAL for none).
 */
UVIO_API const char *uvio_port_state_name(uint32_t state);
UVIO_API const char *uvio_link_layer_name(uint8_t link_layer);
UVIO_API int uvio_mtu_bytes(uint32_t mtu);
UVIO_API int uvio_fw_ver_str(uint64_t fw_ver, char *buf, size_t len);

/*
 * Probes, on an fd of the caller's that has no context yet (open one for
 * the purpose): a command that names the method, or the attribute as
 * mandatory, with a reserved field set so that a kernel that knows it
 * refuses it before doing anything. Each probe first checks that an object
 * no kernel has answers EPROTONOSUPPORT, without which the answers mean
 * nothing. 1: the kernel has it; 0: it answers EPROTONOSUPPORT; negative
 * errno: the probe could not tell: -ENOTTY, no verbs ioctl at all; -EINVAL,
 * the kernel refuses even the unknown object (a wrong driver_id); -EPROTO,
 * the unknown object got another answer (not a uverbs fd); -EBADF, -EFAULT.
 * uvio_last_error() says which.
 */
UVIO_API int uvio_probe_method(int fd, uint32_t driver_id, uint16_t object_id,
			       uint16_t method_id);
UVIO_API int uvio_probe_attr(int fd, uint32_t driver_id, uint16_t object_id,
			     uint16_t method_id, uint16_t attr_id);

/*
 * The methods and attributes this library has names for, to iterate:
 * index 0, 1, ... until -ENOENT.
 */
UVIO_API int uvio_known_method(unsigned int index, uint16_t *object_id,
			       uint16_t *method_id);
UVIO_API int uvio_known_attr(uint16_t object_id, uint16_t method_id, unsigned int index,
			     uint16_t *attr_id);

#ifdef __cplusplus
}
#endif
#endif
