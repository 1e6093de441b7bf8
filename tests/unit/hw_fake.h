/* SPDX-License-Identifier: MIT */
/*
 * What the unit tests of the hardware halves (test_hw_*.c) share: the
 * attributes of a command the fake kernel answers, and, where a test links
 * with --wrap=mmap,--wrap=munmap and defines HW_FAKE_MAPS first, the
 * mappings of the device the half asks for (anonymous memory here, each
 * one kept: maps[], nmaps, nunmaps). Included once, by one test file.
 */
#ifndef UVIO_TESTS_HW_FAKE_H
#define UVIO_TESTS_HW_FAKE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include "fake_sysfs.h"

/* The attribute id of command h, or NULL. */
static inline const struct ib_uverbs_attr *find(const struct ib_uverbs_ioctl_hdr *h,
						uint16_t id)
{
	for (unsigned int i = 0; i < h->num_attrs; i++)
		if (h->attrs[i].attr_id == id)
			return &h->attrs[i];
	return NULL;
}

/* The kernel's answer in an output attribute, cut to its length. */
static inline void put_out(struct ib_uverbs_attr *a, const void *v, size_t len)
{
	memcpy((void *)(uintptr_t)a->data, v, len < a->len ? len : a->len);
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
}

#ifdef HW_FAKE_MAPS
static struct {
	void *p;
	off_t off;
	size_t len;
	int prot;
	bool unmapped;
} maps[HW_FAKE_MAPS];
static unsigned int nmaps, nunmaps;

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (fd == fake_uverbs_fd()) {
		void *p = __real_mmap(addr, len, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		assert_true(flags & MAP_SHARED);
		if (nmaps < HW_FAKE_MAPS)
			maps[nmaps++] = (typeof(maps[0])){ p, off, len, prot, false };
		return p;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

int __real_munmap(void *addr, size_t len);
int __wrap_munmap(void *addr, size_t len);
int __wrap_munmap(void *addr, size_t len)
{
	for (unsigned int i = 0; i < nmaps; i++)
		if (maps[i].p == addr && !maps[i].unmapped) {
			assert_int_equal(maps[i].len, len);
			maps[i].unmapped = true;
			nunmaps++;
		}
	return __real_munmap(addr, len);
}
#endif

#endif
