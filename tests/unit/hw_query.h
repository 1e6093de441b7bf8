/* SPDX-License-Identifier: MIT */
/*
 * What the unit tests of the hardware halves (test_hw_*.c) check of
 * uvio_hw_query_object(): the region of a kind the library says an object
 * holds. Included after cmocka.h.
 */
#ifndef UVIO_TESTS_HW_QUERY_H
#define UVIO_TESTS_HW_QUERY_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <uvio.h>
#include <uvio/hw.h>

/* uvio_hw_query_object() names a region of kind at addr (of the device's
 * or the process's memory) for the object; returns its length. */
static inline uint64_t assert_region(struct uvio_device *dev, uint16_t object, uint32_t handle,
				     enum uvio_hw_mem kind, const void *addr, bool of_device)
{
	struct uvio_hw_object o = { .sz = sizeof(o) };

	assert_int_equal(uvio_hw_query_object(dev, object, handle, &o), 0);
	assert_int_equal(o.driver_id, uvio_device_driver_id(dev));
	for (uint32_t i = 0; i < o.nregions; i++)
		if (o.regions[i].kind == (uint32_t)kind) {
			assert_ptr_equal(o.regions[i].addr, addr);
			assert_int_equal(!!(o.regions[i].flags & UVIO_HW_MEM_OF_DEVICE), of_device);
			return o.regions[i].len;
		}
	fail_msg("no region of kind %d among %u", (int)kind, o.nregions);
	return 0;
}

static inline void assert_no_record(struct uvio_device *dev, uint16_t object, uint32_t handle)
{
	struct uvio_hw_object o = { .sz = sizeof(o) };

	assert_int_equal(uvio_hw_query_object(dev, object, handle, &o), -ENOENT);
}

#endif
