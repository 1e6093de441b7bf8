// SPDX-License-Identifier: MIT
/*
 * The drivers whose queues the data-path layer drives, a table each
 * (rxe.c, siw.c, mlx5.c), found by driver id. dp.c knows none of them: another
 * driver is a file of its own with its table, and a row here.
 */
#include <stdio.h>

#include "dp.h"

static const struct dp_ops *const drivers[] = {
	&uvio_dp_rxe_ops,
	&uvio_dp_siw_ops,
	&uvio_dp_mlx5_ops,
};

#define N_DRIVERS (sizeof(drivers) / sizeof(drivers[0]))

const struct dp_ops *uvio_dp_ops_of(uint32_t driver_id)
{
	for (size_t i = 0; i < N_DRIVERS; i++)
		if (drivers[i]->driver_id == driver_id)
			return drivers[i];
	return NULL;
}

void uvio_dp_served(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < N_DRIVERS && len < size; i++) {
		int n = snprintf(buf + len, size - len, "%s%s",
				 !i ? "" : i + 1 < N_DRIVERS ? ", " : " and ", drivers[i]->name);

		if (n < 0)
			break;
		len += (size_t)n;
	}
}
