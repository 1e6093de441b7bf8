/* What the QP and event tests share: modes, the one-syscall check, a
 * device with context, PD, channel and CQ, RC QP transitions, and the
 * `rdma resource show qp` witness. */
#ifndef UVIO_KT_QP_LIB_H
#define UVIO_KT_QP_LIB_H

#include <stdbool.h>
#include <stdint.h>
#include <uvio.h>
#include "kt.h"
#include "syscount.h"

enum mode { M_IOCTL, M_WRITE, M_FILTER };
extern const char *const mode_name[];

extern enum mode mode;
extern const char *devname;
extern bool siw;
extern int verbs_counted;

/* Run one verb; check its answer, its path and that it cost exactly one
 * syscall of that path's kind. native: the verb has its own ioctl method. */
#define VERB(native, want_ret, call)                                                   \
	do {                                                                           \
		long i0_ = syscount_ioctls, w0_ = syscount_writes;                     \
		enum uvio_path p_ = UVIO_PATH_AUTO;                                    \
		int r_ = (call);                                                       \
		verb_check(#call, __LINE__, r_, (want_ret), p_, (native),             \
			   syscount_ioctls - i0_, syscount_writes - w0_);              \
	} while (0)
#define P (&p_)
void verb_check(const char *what, int line, int ret, int want_ret, enum uvio_path p,
		bool native, long ioctls, long writes);

bool kernel_at_least(int major, int minor);
/* GID index of port 1 from sysfs, with its type ("RoCE v2"). */
int read_gid(const char *dev, int index, uint8_t gid[16], char *type, size_t tlen);

struct objs {
	struct uvio_device *dev;
	struct uvio_context ctx;
	uint32_t pd;
	struct uvio_cq cq;
	struct uvio_comp_channel channel;
	uint64_t cq_drv[8];		/* the driver's CQ answer (rxe: ring mmap info) */
};
/* Open the device in this mode, with context, PD, channel and a CQ of 64
 * (user_handle 0xc0); from then on syscalls are counted. */
int setup(const struct uvio_device_info *info, struct objs *o);
void teardown(struct objs *o);

void rc_init_attr(struct uvio_qp_init_attr *a, const struct objs *o, uint64_t uh);
int to_init(struct objs *o, uint32_t qp, enum uvio_path *p);
int to_rtr(struct objs *o, uint32_t qp, uint32_t dest_qpn, const uint8_t gid[16],
	   enum uvio_path *p);
int to_rts(struct objs *o, uint32_t qp, enum uvio_path *p);

/* `rdma resource show qp`: lines of this device, pid and QPN with every
 * comma-separated piece of what; all QPs of a pid. */
int qp_lines(uint32_t qpn, const char *what);
int qp_count(int pid);
void qp_witness(uint32_t qpn, const char *what, int want);

/* For every device: before(info) in this process (may be NULL), then
 * run(info) in a child process per mode from first to last; a child's
 * failures count here, and its QPs must be gone after it exits. Returns
 * kt_exit(). */
int kt_qp_main(enum mode first, enum mode last,
	       void (*before)(const struct uvio_device_info *),
	       void (*run)(const struct uvio_device_info *));

#endif
