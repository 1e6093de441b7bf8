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
#include <string.h>
#include <uvio.h>
#include <uvio/hw.h>
#include "wrap.h"

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

/* A verb refused with -EINVAL before anything went to the kernel, its
 * message naming field. */
#define assert_limit(call, field)                                                               \
	do {                                                                                    \
		int sent_ = fake.ioctl_calls + fake.write_calls;                                  \
		assert_int_equal((call), -EINVAL);                                              \
		assert_int_equal(fake.ioctl_calls + fake.write_calls, sent_);                    \
		if (!strstr(uvio_last_error(), (field)))                                        \
			fail_msg("%s: %s", (field), uvio_last_error());                         \
	} while (0)

/* The numbers past every limit: 2^31 and 2^32 - 1. */
static const uint32_t hw_huge[] = { 1u << 31, 0xffffffffu };

/* Each of a QP's caps the half holds to a limit (bit f of checked:
 * send_wr, recv_wr, send_sge, recv_sge, inline_data) set to each huge
 * number and to limits[f] (the device's maximum plus one; 0: the kernel's
 * to know), the others small: refused, the field named. */
static inline void assert_qp_limits(struct uvio_device *dev, uint32_t type, unsigned int checked,
				    const uint32_t limits[5])
{
	static const char *const field[5] = { "cap.max_send_wr", "cap.max_recv_wr",
					      "cap.max_send_sge", "cap.max_recv_sge",
					      "cap.max_inline_data" };

	for (unsigned int f = 0; f < 5; f++)
		for (unsigned int v = 0; v < 3; v++) {
			uint32_t caps[5] = { 4, 4, 1, 1, 0 };
			UVIO_OPTS(uvio_qp, qp);

			if (!(checked & (1u << f)) || (v == 2 && !limits[f]))
				continue;
			caps[f] = v < 2 ? hw_huge[v] : limits[f];
			{
				UVIO_OPTS(uvio_qp_init_attr, qa, .type = type, .pd_handle = 1,
					  .send_cq_handle = 2, .recv_cq_handle = 2,
					  .cap = { .max_send_wr = caps[0], .max_recv_wr = caps[1],
						   .max_send_sge = caps[2], .max_recv_sge = caps[3],
						   .max_inline_data = caps[4] });

				assert_limit(uvio_create_qp(dev, &qa, NULL, &qp, NULL), field[f]);
			}
		}
}

/* A CQ of each huge count and of max_plus_one CQEs: refused. */
static inline void assert_cq_limits(struct uvio_device *dev, uint32_t max_plus_one)
{
	for (unsigned int v = 0; v < 3; v++) {
		UVIO_OPTS(uvio_cq_attr, a, .cqe = v < 2 ? hw_huge[v] : max_plus_one);
		UVIO_OPTS(uvio_cq, cq);

		assert_limit(uvio_create_cq(dev, &a, NULL, &cq, NULL), "cqe");
	}
}

/* An SRQ of each huge max_wr and max_sge, and of each limit plus one
 * (0: none the library knows): refused. */
static inline void assert_srq_limits(struct uvio_device *dev, uint32_t wr_plus_one,
				     uint32_t sge_plus_one)
{
	for (unsigned int v = 0; v < 3; v++) {
		UVIO_OPTS(uvio_srq_attr, a, .pd_handle = 1, .max_wr = 4, .max_sge = 1);
		UVIO_OPTS(uvio_srq, srq);

		if (v < 2 || wr_plus_one) {
			a.max_wr = v < 2 ? hw_huge[v] : wr_plus_one;
			assert_limit(uvio_create_srq(dev, &a, NULL, &srq, NULL), "max_wr");
		}
		a.max_wr = 4;
		if (v < 2 || sge_plus_one) {
			a.max_sge = v < 2 ? hw_huge[v] : sge_plus_one;
			assert_limit(uvio_create_srq(dev, &a, NULL, &srq, NULL), "max_sge");
		}
	}
}

#endif
