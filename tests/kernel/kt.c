#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "kt.h"

int kt_failures;

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct kt_dev *)a)->path, ((const struct kt_dev *)b)->path);
}

int kt_devices(struct kt_dev *devs, int max)
{
	DIR *d = opendir("/sys/class/infiniband_verbs");
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char p[300];
		FILE *f;

		if (strncmp(e->d_name, "uverbs", 6))
			continue;
		snprintf(devs[n].path, sizeof(devs[n].path), "/dev/infiniband/%.40s", e->d_name);
		snprintf(p, sizeof(p), "/sys/class/infiniband_verbs/%.200s/ibdev", e->d_name);
		f = fopen(p, "r");
		if (!f || !fgets(devs[n].name, sizeof(devs[n].name), f))
			strcpy(devs[n].name, "?");
		if (f)
			fclose(f);
		devs[n].name[strcspn(devs[n].name, "\n")] = 0;
		n++;
	}
	closedir(d);
	qsort(devs, (size_t)n, sizeof(*devs), by_path);
	return n;
}

int kt_sysfs_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok;

	out[0] = 0;
	if (!f)
		return -1;
	ok = fgets(out, (int)size, f) != NULL;
	fclose(f);
	out[strcspn(out, "\n")] = 0;
	return ok ? 0 : -1;
}

int kt_run(const char *cmd, char *buf, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;

	buf[0] = 0;
	if (!p)
		return -1;
	while (n + 1 < size) {
		size_t r = fread(buf + n, 1, size - 1 - n, p);
		if (!r)
			break;
		n += r;
	}
	buf[n] = 0;
	return pclose(p);
}

int kt_rdma_res_count(const char *type, const char *dev, int pid)
{
	return kt_rdma_res_find(type, dev, pid, NULL);
}

int kt_rdma_res_find(const char *type, const char *dev, int pid, const char *extra)
{
	char cmd[128], out[16384], want_dev[80], want_link[80], want_pid[32];
	int count = 0;

	snprintf(cmd, sizeof(cmd), "rdma resource show %s", type);
	kt_run(cmd, out, sizeof(out));
	/* Most objects name their device ("dev rxe0 "), a QP its port
	 * ("link rxe0/1 "). */
	snprintf(want_dev, sizeof(want_dev), "dev %s ", dev);
	snprintf(want_link, sizeof(want_link), "link %s/", dev);
	snprintf(want_pid, sizeof(want_pid), "pid %d ", pid);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char l[1024];

		snprintf(l, sizeof(l), "%s ", line);
		if ((strstr(l, want_dev) || strstr(l, want_link)) && strstr(l, want_pid) &&
		    (!extra || strstr(l, extra)))
			count++;
	}
	return count;
}

static struct {
	char release[128], series[16];
	int major, minor;
	bool known;
} kernel;

static void kernel_init(void)
{
	const char *rel = getenv("UVIO_KERNEL"), *ser = getenv("UVIO_KERNEL_SERIES");
	struct utsname u;

	if (kernel.known)
		return;
	kernel.known = true;
	uname(&u);
	if (!rel || !*rel || !ser || !*ser) {
		printf("note: UVIO_KERNEL/UVIO_KERNEL_SERIES unset (not under the harness):"
		       " taking %s from uname\n", u.release);
		rel = u.release;
		ser = u.release;
	}
	snprintf(kernel.release, sizeof(kernel.release), "%s", rel);
	KT_CHECK(!strcmp(rel, u.release), "the harness booted %s, uname says %s", rel,
		 u.release);
	KT_CHECK(sscanf(ser, "%d.%d", &kernel.major, &kernel.minor) == 2,
		 "kernel series '%s'", ser);
	snprintf(kernel.series, sizeof(kernel.series), "%d.%d", kernel.major, kernel.minor);
}

const char *kt_kernel_release(void)
{
	kernel_init();
	return kernel.release;
}

const char *kt_kernel_series(void)
{
	kernel_init();
	return kernel.series;
}

bool kt_kernel_ge(int major, int minor)
{
	kernel_init();
	return kernel.major > major || (kernel.major == major && kernel.minor >= minor);
}

long long kt_per_kernel(long long k5_10, long long k6_1, long long k6_12, long long k7_2)
{
	if (kt_kernel_ge(7, 2))
		return k7_2;
	if (kt_kernel_ge(6, 12))
		return k6_12;
	if (kt_kernel_ge(6, 1))
		return k6_1;
	KT_CHECK(kt_kernel_ge(5, 10), "kernel %s is older than any the suite knows",
		 kernel.release);
	return k5_10;
}

int kt_exit(void)
{
	kernel_init();
	printf("%s: %d failure(s) on kernel %s\n", kt_failures ? "FAILED" : "ok", kt_failures,
	       kernel.release);
	return kt_failures ? 1 : 0;
}

int kt_filter_verbs_ioctl(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc0181b01, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOTTY),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -errno : 0;
}

int kt_uverbs_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, "/dev/infiniband/uverbs") != NULL;
	fclose(f);
	return n;
}

void kt_refused(const char *msg, const char *verb, const char *errname)
{
	printf("  refused: %s\n", msg);
	KT_CHECK(strstr(msg, verb) && strstr(msg, errname), "%s and %s named: %s", verb, errname,
		 msg);
}
