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

/* Output of a command (e.g. "rdma resource show cq"), into buf. */
int kt_run(const char *cmd, char *buf, size_t size);

/* Count lines of `rdma resource show TYPE` of device DEV with this pid. */
int kt_rdma_res_count(const char *type, const char *dev, int pid);

/* Exit status for main: 0, or 1 after any failure. */
int kt_exit(void);

#endif

/* Lines of `rdma resource show TYPE` for DEV and PID that also contain
 * EXTRA (when not NULL). */
int kt_rdma_res_find(const char *type, const char *dev, int pid, const char *extra);

/* Make the verbs ioctl answer ENOTTY for this process, as an old kernel or a
 * filtering sandbox would; every other syscall is untouched. */
int kt_filter_verbs_ioctl(void);
