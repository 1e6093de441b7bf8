/* Small helpers for the programs that run inside the VM. */
#ifndef UVIO_KT_H
#define UVIO_KT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

extern int kt_failures;

#define KT_CHECK(cond, ...)                                                   \
	do {                                                                  \
		if (!(cond)) {                                                \
			kt_failures++;                                        \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                  \
			printf("\n");                                         \
		}                                                             \
	} while (0)
#define KT_EQ(a, b)                                                           \
	KT_CHECK((long long)(a) == (long long)(b), "%s = %lld, expected %lld", \
		 #a, (long long)(a), (long long)(b))

/* /dev/infiniband/uverbsN of every uverbs device, with its IB device name
 * from sysfs. Returns how many. */
struct kt_dev {
	char path[64];
	char name[64];
};
int kt_devices(struct kt_dev *devs, int max);

/* The first line of a file (a sysfs attribute), without its newline, into
 * out; 0, or -1 when it cannot be read. */
int kt_sysfs_line(const char *path, char *out, size_t size);

/* Output of a command (e.g. "rdma resource show cq"), into buf. */
int kt_run(const char *cmd, char *buf, size_t size);

/* Count lines of `rdma resource show TYPE` of device DEV with this pid. */
int kt_rdma_res_count(const char *type, const char *dev, int pid);

/* Exit status for main: 0, or 1 after any failure. */
int kt_exit(void);

/*
 * The kernel under test, as the harness booted it: the VM's init passes
 * uvio.kernel (uname -r) and uvio.series ("5.10", "6.1", "6.12", "7.2") from
 * the kernel command line as UVIO_KERNEL and UVIO_KERNEL_SERIES; the first
 * call checks them against uname (a mismatch is a failure). Outside the
 * harness, uname's release is used.
 */
const char *kt_kernel_release(void);
const char *kt_kernel_series(void);	/* "6.12" */
bool kt_kernel_ge(int major, int minor);

/*
 * What this kernel answers, out of the four kernels the suite runs on: the
 * value given for the newest of 5.10, 6.1, 6.12 and 7.2 that is not newer
 * than the kernel under test. Each is what that kernel was seen to answer;
 * a kernel between two of them is assumed to answer as the older one.
 */
long long kt_per_kernel(long long k5_10, long long k6_1, long long k6_12, long long k7_2);

#endif

/* Lines of `rdma resource show TYPE` for DEV and PID that also contain
 * EXTRA (when not NULL). */
int kt_rdma_res_find(const char *type, const char *dev, int pid, const char *extra);

/* How many of this process's mappings are of a uverbs device (a hardware
 * half's doorbell pages and the kernel's queues it mapped). */
int kt_uverbs_maps(void);

/* A refusal the library reported (msg: uvio_last_error()): printed as
 * "  refused: MSG" for the stand-in boots' guest scripts, and checked to
 * name the command verb and the errno errname. */
void kt_refused(const char *msg, const char *verb, const char *errname);

/* Make the verbs ioctl answer ENOTTY for this process, as an old kernel or a
 * filtering sandbox would; every other syscall is untouched. */
int kt_filter_verbs_ioctl(void);
