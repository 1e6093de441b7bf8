#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device/discover.h"
#include "fake_sysfs.h"

static char root[64];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		abort();
	}
}

static void rm_tree(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (root[0] && system(cmd))
		fprintf(stderr, "fake_sysfs: could not remove %s\n", root);
}

const char *fake_sysfs(void)
{
	char p[256];

	if (!root[0]) {
		snprintf(root, sizeof(root), "/tmp/uvio-sysfs.XXXXXX");
		if (!mkdtemp(root))
			abort();
		snprintf(p, sizeof(p), "%s/class", root);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/class/infiniband_verbs", root);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/dev", root);
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/dev/char", root);
		mkdir(p, 0755);
		atexit(rm_tree);
	}
	uvio_sysfs_root = root;
	return root;
}

void fake_sysfs_clear(void)
{
	char cmd[200], p[128];

	fake_sysfs();
	snprintf(p, sizeof(p), "%s/dev/char", root);
	mkdir(p, 0755);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/class/infiniband_verbs/* '%s'/dev/char/*", root,
		 root);
	if (system(cmd))
		abort();
}

void fake_sysfs_add(unsigned int n, const char *ibdev, dev_t rdev)
{
	char dir[192], p[256], v[64];

	fake_sysfs();
	snprintf(dir, sizeof(dir), "%s/class/infiniband_verbs/uverbs%u", root, n);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/dev", dir);
	snprintf(v, sizeof(v), "%u:%u\n", major(rdev), minor(rdev));
	put(p, v);
	snprintf(p, sizeof(p), "%s/ibdev", dir);
	snprintf(v, sizeof(v), "%s\n", ibdev);
	put(p, v);
	snprintf(p, sizeof(p), "%s/abi_version", dir);
	put(p, "6\n");
	/* as the kernel links it: by number to the device's directory */
	snprintf(p, sizeof(p), "%s/dev/char/%u:%u", root, major(rdev), minor(rdev));
	snprintf(v, sizeof(v), "../../devices/virtual/infiniband_verbs/uverbs%u", n);
	unlink(p);
	if (symlink(v, p) && errno != ENOENT)	/* ENOENT: no dev/char, on purpose */
		abort();
}

void fake_sysfs_no_dev_char(void)
{
	char cmd[160];

	fake_sysfs();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/dev/char", root);
	if (system(cmd))
		abort();
}

void fake_sysfs_put(const char *rel, const char *text)
{
	char p[512];

	fake_sysfs();
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (char *c = p + strlen(root) + 1; (c = strchr(c, '/')); c++) {
		*c = 0;
		mkdir(p, 0755);
		*c = '/';
	}
	put(p, text);
}

dev_t fake_rdev(const char *path)
{
	struct stat st;

	if (stat(path, &st) || !S_ISCHR(st.st_mode))
		abort();
	return st.st_rdev;
}

int fake_uverbs_fd(void)
{
	static int fd = -1;
	char p[128];
	struct stat st;

	snprintf(p, sizeof(p), "%s/class/infiniband_verbs/uverbs0/dev", fake_sysfs());
	if (stat(p, &st))
		fake_sysfs_add(0, "fake0", fake_rdev("/dev/null"));
	if (fd < 0)
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		abort();
	return fd;
}
