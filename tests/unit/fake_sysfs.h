/* A sysfs tree of the test's own, for what discovery and the fd check read:
 * class/infiniband_verbs/uverbsN/{dev,ibdev,abi_version}, and the links
 * dev/char/MAJ:MIN -> ../../devices/virtual/infiniband_verbs/uverbsN. */
#ifndef UVIO_TEST_FAKE_SYSFS_H
#define UVIO_TEST_FAKE_SYSFS_H

#include <sys/types.h>

/* Make an empty tree (once) and point the library at it; its path. */
const char *fake_sysfs(void);
/* Remove every uverbs entry. */
void fake_sysfs_clear(void);
/* Add uverbsN for IB device ibdev, with the major:minor of rdev. */
void fake_sysfs_add(unsigned int n, const char *ibdev, dev_t rdev);
/* Take dev/char away (as on a sysfs without it): the fd check then scans
 * the class directory. fake_sysfs_clear() brings it back. */
void fake_sysfs_no_dev_char(void);
/* Write a file of the tree (path relative to it, directories made). */
void fake_sysfs_put(const char *rel, const char *text);
/* The device number of a path (a character device such as /dev/null). */
dev_t fake_rdev(const char *path);
/* /dev/null opened read-write and listed as uverbs0 (ibdev "fake0"): an fd
 * the library accepts as a uverbs device; the stand-in kernel answers its
 * commands. Opened once. */
int fake_uverbs_fd(void);

#endif
