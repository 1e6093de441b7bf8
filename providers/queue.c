// SPDX-License-Identifier: MIT
/*
 * What the drivers' queue code and the layer's objects share: mapping a
 * queue from the device fd, the queue locks' slow path, and saying why a
 * call failed (every failure of the layer is said, argument checks too). The bottom of providers/: it calls nothing above it.
 */
#include <sched.h>
#include <sys/mman.h>
#include <syslog.h>
#include <uvio/diag.h>

#include "dp.h"
#include "for_providers.h"

int uvio_dp_fail(struct uvio_device *dev, const char *what, int err, const char *why)
{
	return uvio_fail(LOG_INFO, err, "%s: %s: %s",
			 dev ? uvio_device_name(dev) : "(no device)", what, why);
}

int uvio_dp_bad_arg(const char *fn, const char *arg, const char *why)
{
	return uvio_fail(LOG_DEBUG, -EINVAL, "%s: EINVAL: argument %s: %s", fn, arg, why);
}

int uvio_dp_map_failed(struct uvio_device *dev, const char *what, int err)
{
	return uvio_fail(LOG_INFO, err, "%s: %s: %s: mapping the driver's queue failed%s",
			 uvio_device_name(dev), what, uvio_errno_name(err),
			 err == -EPROTO ? " (the driver's answer does not describe a queue)" : "");
}

int uvio_dp_map(struct uvio_dp_ring *r, struct uvio_device *dev, uint64_t offset, size_t len)
{
	void *p;

	memset(r, 0, sizeof(*r));
	if (!len || offset > (uint64_t)INT64_MAX)
		return -EPROTO;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, uvio_device_fd(dev), (off_t)offset);
	if (p == MAP_FAILED)
		return -errno;
	r->map = p;
	r->map_len = len;
	return 0;
}

void uvio_dp_unmap(struct uvio_dp_ring *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	memset(r, 0, sizeof(*r));
}

void uvio_dp_lock_wait(uint32_t *lock)
{
	for (unsigned int spins = 0;; spins++) {
		if (!__atomic_load_n(lock, __ATOMIC_RELAXED) &&
		    !__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
			return;
		if (spins > 100)
			sched_yield();
	}
}
