// SPDX-License-Identifier: MIT
/*
 * Cold start, measured from outside: each way is a program of its own,
 * started afresh with fork and execve in every round, the ways in an order
 * that rotates round by round. The child reads CLOCK_MONOTONIC just before
 * execve and hands it to the program, which reports how long after that its
 * first CQ (or QP in RTS) existed, and its memory then (bench/cold.h).
 *   cold_run ROUNDS DEVICE NODE DRIVER_ID cq|qp
 * Ways: exec (an empty start: cold_floor none), floor (cold_floor), uvio
 * (this library, cold_uvio), ibv (libibverbs, cold_ibv). Medians of the
 * rounds; "RESULT ..." lines for bench/run.sh.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stats.h"

enum { W_EXEC, W_FLOOR, W_UVIO, W_IBV, WAYS };
static const char *const way_name[] = { "exec", "floor", "uvio", "ibv" };
#define MAX_ROUNDS 200

struct sample {
	double us, vmsize_kb, rss_kb, maps_kb, objects;
};

static char dir[PATH_MAX];

static int run(int way, char **argv_tail, struct sample *s)
{
	const char *prog = way == W_UVIO ? "cold_uvio" : way == W_IBV ? "cold_ibv" : "cold_floor";
	char path[PATH_MAX + 32], out[512], t0[32];
	int pfd[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", dir, prog);
	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid == 0) {
		char *argv[6] = { (char *)prog, t0 };
		struct timespec t;

		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		if (way == W_UVIO || way == W_IBV) {
			argv[2] = argv_tail[0];	/* device name */
			argv[3] = argv_tail[3];	/* mode */
		} else {
			argv[2] = argv_tail[1];	/* node */
			argv[3] = argv_tail[2];	/* driver id */
			argv[4] = way == W_EXEC ? (char *)"none" : argv_tail[3];
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		snprintf(t0, sizeof(t0), "%llu",
			 (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec);
		execv(path, argv);
		_exit(127);
	}
	close(pfd[1]);
	while (got < (ssize_t)sizeof(out) - 1 && (n = read(pfd[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += n;
	out[got] = 0;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "cold_run: %s exited with %d\n", prog, WEXITSTATUS(status));
		return -1;
	}
	unsigned long long ns;
	if (sscanf(out, "COLD %llu %lf %lf %lf %lf", &ns, &s->vmsize_kb, &s->rss_kb, &s->maps_kb,
		   &s->objects) != 5) {
		fprintf(stderr, "cold_run: %s said: %s\n", prog, out);
		return -1;
	}
	s->us = (double)ns / 1e3;
	return 0;
}

int main(int argc, char **argv)
{
	static struct sample s[WAYS][MAX_ROUNDS];
	int rounds;
	const char *mode;
	ssize_t n;

	if (argc != 6) {
		fprintf(stderr, "usage: cold_run ROUNDS DEVICE NODE DRIVER_ID cq|qp\n");
		return 2;
	}
	rounds = atoi(argv[1]);
	mode = argv[5];
	if (rounds < 1 || rounds > MAX_ROUNDS)
		return 2;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return 1;
	dir[n] = 0;
	*strrchr(dir, '/') = 0;
	/* One unmeasured round: page cache and dentries warm for every way. */
	for (int w = 0; w < WAYS; w++)
		if (run(w, argv + 2, &s[w][0]))
			return 1;
	for (int r = 0; r < rounds; r++) {
		printf("round %d:", r + 1);
		for (int k = 0; k < WAYS; k++) {
			int w = (k + r) % WAYS;

			if (run(w, argv + 2, &s[w][r]))
				return 1;
		}
		for (int w = 0; w < WAYS; w++)
			printf(" %s %.0fus", way_name[w], s[w][r].us);
		printf("  uvio/ibv %.3f\n", s[W_UVIO][r].us / s[W_IBV][r].us);
	}
	double ratio[MAX_ROUNDS];

	for (int w = 0; w < WAYS; w++) {
		double v[5][MAX_ROUNDS];
		static const char *const what[] = { "us", "vmsize_kb", "rss_kb", "maps_kb", "objects" };

		for (int r = 0; r < rounds; r++) {
			v[0][r] = s[w][r].us;
			v[1][r] = s[w][r].vmsize_kb;
			v[2][r] = s[w][r].rss_kb;
			v[3][r] = s[w][r].maps_kb;
			v[4][r] = s[w][r].objects;
		}
		for (int k = 0; k < 5; k++)
			printf("RESULT cold_%s_%s_%s %.0f\n", mode, way_name[w], what[k],
			       stats_median(v[k], rounds));
	}
	for (int r = 0; r < rounds; r++)
		ratio[r] = s[W_UVIO][r].us / s[W_IBV][r].us;
	printf("RESULT ratio_cold_%s_uvio_to_ibv %.3f\n", mode, stats_median(ratio, rounds));
	for (int r = 0; r < rounds; r++)
		ratio[r] = s[W_UVIO][r].us / s[W_FLOOR][r].us;
	printf("RESULT ratio_cold_%s_uvio_to_floor %.3f\n", mode, stats_median(ratio, rounds));
	/* What each library adds to the start of an empty program. */
	for (int r = 0; r < rounds; r++)
		ratio[r] = (s[W_UVIO][r].us - s[W_EXEC][r].us) / (s[W_IBV][r].us - s[W_EXEC][r].us);
	printf("RESULT ratio_cold_%s_uvio_to_ibv_above_exec %.3f\n", mode,
	       stats_median(ratio, rounds));
	return 0;
}
