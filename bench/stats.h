/* SPDX-License-Identifier: MIT */
/* Medians and quantiles of the benchmarks' rounds (libc only). */
#ifndef UVIO_BENCH_STATS_H
#define UVIO_BENCH_STATS_H

#include <stdlib.h>

static inline int stats_by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v. */
static inline double stats_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), stats_by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* v sorted: the value nearest the fraction q of the way. */
static inline double stats_quantile(const double *v, int n, double q)
{
	return v[(int)(q * (n - 1) + 0.5)];
}

#endif
