/* SPDX-License-Identifier: MIT */
/*
 * What a cold-start program reports at the moment its first CQ (or its QP
 * in RTS) exists: nanoseconds since the exec that started it (argv[1], the
 * CLOCK_MONOTONIC time its parent read just before execve), the memory it
 * maps and holds at that point, and how many shared objects it mapped.
 *   COLD <ns> <VmSize kB> <VmRSS kB> <mapped kB from /proc/self/maps> <objects>
 * libc only (and valgrind's header-only client requests): the floor program
 * links nothing else.
 */
#ifndef UVIO_BENCH_COLD_H
#define UVIO_BENCH_COLD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

static unsigned long long cold_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

static long cold_status_kb(const char *key)
{
	char line[256];
	size_t n = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/self/status", "re");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			v = atol(line + n + 1);
	if (f)
		fclose(f);
	return v;
}

/* Sum of all mappings, and the number of distinct shared objects. */
static void cold_maps(unsigned long *kb, int *objects)
{
	char line[512], seen[64][160];
	int n = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	*kb = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char *path = strchr(line, '/');

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			*kb += (hi - lo) / 1024;
		if (!path || !strstr(path, ".so"))
			continue;
		path[strcspn(path, "\n")] = 0;
		int known = 0;

		for (int i = 0; i < n && !known; i++)
			known = !strncmp(seen[i], path, sizeof(seen[i]) - 1);
		if (!known && n < 64)
			snprintf(seen[n++], sizeof(seen[0]), "%s", path);
	}
	if (f)
		fclose(f);
	*objects = n;
}

/* Call at the moment measured; t0 is argv[1]. Under callgrind (started
 * with collection on) the count stops here: the report is not part of the
 * start. */
static void cold_report(const char *t0)
{
	unsigned long long ns = cold_now_ns() - strtoull(t0, NULL, 10);

	CALLGRIND_TOGGLE_COLLECT;
	unsigned long kb;
	int objects;

	cold_maps(&kb, &objects);
	printf("COLD %llu %ld %ld %lu %d\n", ns, cold_status_kb("VmSize"), cold_status_kb("VmRSS"),
	       kb, objects);
}

#endif
