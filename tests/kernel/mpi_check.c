// SPDX-License-Identifier: MIT
/*
 * A small MPI job whose every answer is checked (tests/kernel/kt_provider.sh
 * runs it across two guests, over UCX, on this library's libibverbs
 * provider):
 *
 * - ping-pong between ranks 0 and 1 at several sizes: each message's
 *   payload depends on its size, its round and its sender, and every byte
 *   is compared on arrival;
 * - an allreduce (sum) of 4096 64-bit integers over every rank, compared
 *   element by element with the closed form;
 * - a broadcast from the last rank, checked on every rank.
 *
 * Rank 0 prints "MPI-CHECK PASS ranks N ..." with the round-trip times, or
 * each rank names the first wrong byte, and the job fails (MPI_Abort).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#define ROUNDS 20
#define REDUCE_N 4096

static int rank, nranks;

static void fail(const char *what, long where, long got, long want)
{
	fprintf(stderr, "MPI-CHECK FAIL rank %d: %s at %ld: %ld, expected %ld\n", rank, what,
		where, got, want);
	MPI_Abort(MPI_COMM_WORLD, 1);
}

static uint8_t pattern(size_t i, size_t size, int round, int from)
{
	return (uint8_t)(i * 131 + size * 7 + (size_t)round * 17 + (size_t)from * 101 + (i >> 8));
}

static void fill(uint8_t *b, size_t size, int round, int from)
{
	for (size_t i = 0; i < size; i++)
		b[i] = pattern(i, size, round, from);
}

static void check(const uint8_t *b, size_t size, int round, int from)
{
	for (size_t i = 0; i < size; i++)
		if (b[i] != pattern(i, size, round, from))
			fail("ping-pong byte", (long)i, b[i], pattern(i, size, round, from));
}

/* Rank 0 sends, rank 1 checks and answers with its own pattern. */
static double pingpong(uint8_t *buf, size_t size)
{
	double t0 = 0;

	for (int r = 0; r <= ROUNDS; r++) {
		if (r == 1)
			t0 = MPI_Wtime();	/* round 0 sets up the connection */
		if (rank == 0) {
			fill(buf, size, r, 0);
			MPI_Send(buf, (int)size, MPI_BYTE, 1, r, MPI_COMM_WORLD);
			memset(buf, 0, size);
			MPI_Recv(buf, (int)size, MPI_BYTE, 1, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			check(buf, size, r, 1);
		} else if (rank == 1) {
			memset(buf, 0, size);
			MPI_Recv(buf, (int)size, MPI_BYTE, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			check(buf, size, r, 0);
			fill(buf, size, r, 1);
			MPI_Send(buf, (int)size, MPI_BYTE, 0, r, MPI_COMM_WORLD);
		}
	}
	return (MPI_Wtime() - t0) / ROUNDS * 1e6;
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 8, 4096, 65536, 262144 };
	static int64_t in[REDUCE_N], out[REDUCE_N];
	char line[256];
	int len = 0;
	uint8_t *buf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (nranks < 2) {
		fprintf(stderr, "MPI-CHECK FAIL: needs 2 ranks or more, has %d\n", nranks);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	buf = malloc(sizes[3]);
	if (!buf)
		fail("malloc", 0, 0, 1);
	len += snprintf(line + len, sizeof(line) - len, "MPI-CHECK PASS ranks %d pingpong_us", nranks);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		double us = pingpong(buf, sizes[s]);

		len += snprintf(line + len, sizeof(line) - len, " %zu:%.0f", sizes[s], us);
	}

	/* Allreduce: element i of rank r is r * i + 1, so the sum is
	 * i * n (n - 1) / 2 + n. */
	for (int i = 0; i < REDUCE_N; i++)
		in[i] = (int64_t)rank * i + 1;
	MPI_Allreduce(in, out, REDUCE_N, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	for (int i = 0; i < REDUCE_N; i++) {
		int64_t want = (int64_t)i * nranks * (nranks - 1) / 2 + nranks;

		if (out[i] != want)
			fail("allreduce element", i, (long)out[i], (long)want);
	}

	/* Broadcast from the last rank. */
	fill(buf, 65536, 99, nranks - 1);
	if (rank != nranks - 1)
		memset(buf, 0, 65536);
	MPI_Bcast(buf, 65536, MPI_BYTE, nranks - 1, MPI_COMM_WORLD);
	check(buf, 65536, 99, nranks - 1);

	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("%s allreduce %d bcast 65536\n", line, REDUCE_N);
	free(buf);
	MPI_Finalize();
	return 0;
}
