// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include <uvio/device.h>

#include "proc.h"

#define PAGE 4096u

static ssize_t via_mem(struct pmem *p, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	if (p->memfd < 0) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/%d/mem", (int)p->pid);
		p->memfd = open(path, O_RDONLY | O_CLOEXEC);
		if (p->memfd < 0)
			return -errno;
	}
	while (done < len) {
		/* A page at a time: a read stops at the first bad page. */
		size_t chunk = PAGE - (size_t)((addr + done) % PAGE);
		ssize_t n;

		if (chunk > len - done)
			chunk = len - done;
		if (addr + done > (uint64_t)INT64_MAX)
			break;	/* no offset for it */
		n = pread(p->memfd, (char *)buf + done, chunk, (off_t)(addr + done));
		if (n <= 0)
			break;
		done += (size_t)n;
		if ((size_t)n < chunk)
			break;
	}
	return (ssize_t)done;
}

static ssize_t pmem_read(struct tmem *m, uint64_t addr, void *buf, size_t len)
{
	struct pmem *p = (struct pmem *)m;
	struct iovec local, remote[TR_MAX_DATA / PAGE + 2];
	size_t done = 0;

	if (!len)
		return 0;
	if (addr + len < addr)	/* wraps: what fits below the top */
		len = (size_t)(UINT64_MAX - addr) + 1;
	if (p->use_mem)
		return via_mem(p, addr, buf, len);
	while (done < len) {
		/* One remote iovec per page: the kernel stops at the first one
		 * it cannot read, so the count says where memory ends. */
		size_t n = 0, span = 0;
		ssize_t got;

		while (n < sizeof(remote) / sizeof(remote[0]) && done + span < len) {
			uint64_t a = addr + done + span;
			size_t chunk = PAGE - (size_t)(a % PAGE);

			if (chunk > len - done - span)
				chunk = len - done - span;
			remote[n].iov_base = (void *)(uintptr_t)a;
			remote[n].iov_len = chunk;
			span += chunk;
			n++;
		}
		local.iov_base = (char *)buf + done;
		local.iov_len = span;
		got = process_vm_readv(p->pid, &local, 1, remote, (unsigned long)n, 0);
		if (got < 0) {
			if ((errno == ENOSYS || errno == EPERM) && !done) {
				p->use_mem = true;
				return via_mem(p, addr, buf, len);
			}
			if (errno == EFAULT)
				break;	/* the first byte is not mapped */
			return done ? (ssize_t)done : -errno;
		}
		done += (size_t)got;
		if ((size_t)got < span)
			break;
	}
	return (ssize_t)done;
}

void pmem_init(struct pmem *p, pid_t pid)
{
	static int force_procfs = -1;

	/* UVERBS_TRACE_MEM=procfs: read through /proc/PID/mem from the start,
	 * as where process_vm_readv is refused (to test that path). */
	if (force_procfs < 0) {
		const char *v = getenv("UVERBS_TRACE_MEM");

		force_procfs = v && !strcmp(v, "procfs");
	}
	p->m.read = pmem_read;
	p->pid = pid;
	p->memfd = -1;
	p->use_mem = force_procfs;
}

void pmem_close(struct pmem *p)
{
	if (p->memfd >= 0)
		close(p->memfd);
	p->memfd = -1;
}

/* Character devices seen, by number: sysfs tells what each is once. */
static struct {
	dev_t rdev;
	enum tr_fdkind kind;
	char dev[32], ibdev[32];
	uint32_t driver_id;
} seen[64];
static unsigned int nseen;

static void read_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "re");

	out[0] = 0;
	if (!f)
		return;
	if (fgets(out, (int)size, f))
		out[strcspn(out, "\n")] = 0;
	fclose(f);
}

static enum tr_fdkind by_sysfs(dev_t rdev, char *dev, size_t dev_size, char *ibdev,
			       size_t ibdev_size)
{
	char path[96], target[256], *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", major(rdev), minor(rdev));
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return TR_FD_UNKNOWN;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strstr(target, "/infiniband_verbs/")) {
		snprintf(dev, dev_size, "%s", base);
		snprintf(path, sizeof(path), "/sys/class/infiniband_verbs/%.32s/ibdev", base);
		read_line(path, ibdev, ibdev_size);
		return TR_FD_UVERBS;
	}
	if (!strcmp(base, "rdma_cm")) {
		snprintf(dev, dev_size, "rdma_cm");
		return TR_FD_RDMA_CM;
	}
	return TR_FD_OTHER;
}

static void fd_target(const char *path, char *dev, size_t dev_size)
{
	char target[256];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n > 0) {
		target[n] = 0;
		snprintf(dev, dev_size, "%s", target);
	}
}

/* The device's driver id, as RDMA netlink (or sysfs) tells the library:
 * what write() commands and the 2017 layout do not carry. 0: not known. */
static uint32_t driver_of(const char *ibdev, const char *dev)
{
	struct uvio_device_info info;

	if ((ibdev[0] && !uvio_find_device(ibdev, &info)) ||
	    (dev[0] && !uvio_find_device(dev, &info)))
		return info.driver_id_known ? info.driver_id : 0;
	return 0;
}

enum tr_fdkind fd_classify(pid_t tid, int fd, bool name_other, char *dev, size_t dev_size,
			   char *ibdev, size_t ibdev_size, uint32_t *driver_id)
{
	char path[64], target[256];
	enum tr_fdkind kind = TR_FD_UNKNOWN;
	struct stat st;
	ssize_t n;

	dev[0] = ibdev[0] = 0;
	*driver_id = 0;
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)tid, fd);
	if (stat(path, &st))
		return errno == ENOENT ? TR_FD_OTHER : TR_FD_UNKNOWN;	/* not open */
	if (!S_ISCHR(st.st_mode)) {
		/* A write() to a file or socket costs this one stat(). */
		if (name_other)
			fd_target(path, dev, dev_size);
		return TR_FD_OTHER;
	}
	for (unsigned int i = 0; i < nseen && kind == TR_FD_UNKNOWN; i++)
		if (seen[i].rdev == st.st_rdev) {
			kind = seen[i].kind;
			snprintf(dev, dev_size, "%s", seen[i].dev);
			snprintf(ibdev, ibdev_size, "%s", seen[i].ibdev);
			*driver_id = seen[i].driver_id;
		}
	if (kind == TR_FD_UNKNOWN) {
		kind = by_sysfs(st.st_rdev, dev, dev_size, ibdev, ibdev_size);
		if (kind == TR_FD_UNKNOWN) {
			/* No sysfs (a container): the name of the device node. */
			n = readlink(path, target, sizeof(target) - 1);
			if (n > 0) {
				target[n] = 0;
				if (!strncmp(target, "/dev/infiniband/uverbs", 22)) {
					kind = TR_FD_UVERBS;
					snprintf(dev, dev_size, "%s", target + 16);
				} else if (!strcmp(target, "/dev/infiniband/rdma_cm")) {
					kind = TR_FD_RDMA_CM;
					snprintf(dev, dev_size, "rdma_cm");
				} else {
					kind = TR_FD_OTHER;
				}
			}
		}
		if (kind == TR_FD_UVERBS)
			*driver_id = driver_of(ibdev, dev);
		if (kind != TR_FD_UNKNOWN && nseen < sizeof(seen) / sizeof(seen[0])) {
			seen[nseen].rdev = st.st_rdev;
			seen[nseen].kind = kind;
			snprintf(seen[nseen].dev, sizeof(seen[nseen].dev), "%s", dev);
			snprintf(seen[nseen].ibdev, sizeof(seen[nseen].ibdev), "%s", ibdev);
			seen[nseen].driver_id = *driver_id;
			nseen++;
		}
	}
	if (kind == TR_FD_OTHER) {
		dev[0] = 0;
		if (name_other)
			fd_target(path, dev, dev_size);
	}
	return kind;
}
