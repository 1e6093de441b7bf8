/* SPDX-License-Identifier: MIT */
/*
 * What the stand-in boots' witnesses share (kt_mlx5_witness.c,
 * kt_mlx4_witness.c, kt_efa_witness.c, kt_bnxt_re_witness.c,
 * kt_irdma_witness.c, kt_mana_witness.c: rdma-core's provider driving a stand-in through
 * libibverbs): a step name, its verdicts, the checks of a verb's answer,
 * the pages the kernel pinned for the process (and the doorbell pages
 * among them), the port's RoCE GIDs and a QP's state. Each witness is one
 * file defining WITNESS_DRIVER and including this once; the first failure
 * ends the program.
 */
#ifndef UVIO_TESTS_WITNESS_H
#define UVIO_TESTS_WITNESS_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#ifndef WITNESS_DRIVER
#error "define WITNESS_DRIVER (the driver's name) before including witness.h"
#endif

extern char *program_invocation_short_name;

static const char *step = "start";	/* what the program is doing, for the verdicts */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn, unused));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: FAIL at %s: ", program_invocation_short_name, step);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void ok(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void ok(const char *fmt, ...)
{
	va_list ap;

	printf("ok %s: ", step);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A verb that returns 0 or an errno value (some set errno instead). */
static void __attribute__((unused)) check_rc(int rc, const char *what)
{
	if (rc)
		fail("%s: %s (%d)", what, strerror(rc > 0 ? rc : errno), rc > 0 ? rc : errno);
}

static void *__attribute__((unused)) check_ptr(void *p, const char *what)
{
	if (!p)
		fail("%s: %s (errno %d)", what, strerror(errno), errno);
	return p;
}

/* ---- the pages the kernel pinned for this process ---- */

static long page_size;	/* set by main() before any of these */

static long __attribute__((unused)) vmpin_pages(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		fail("/proc/self/status: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb < 0)
		fail("no VmPin in /proc/self/status");
	return kb * 1024 / page_size;
}

/* The pages [p, p + len) touches. */
static long __attribute__((unused)) pages_of(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;

	return len ? (long)((a + len + (size_t)page_size - 1) / (size_t)page_size -
			    a / (size_t)page_size) : 0;
}

/* The pages pinned at the last reading; expect_pinned() checks the growth
 * since then against WITNESS_DRIVER's sizes (which the witness defines
 * before including this file) and reads again. */
static long pinned_pages;

static void __attribute__((unused)) expect_pinned(long delta, const char *what)
{
	long now = vmpin_pages();

	if (now - pinned_pages != delta)
		fail("%s: the kernel pinned %ld pages more, " WITNESS_DRIVER "'s sizes make %ld", what,
		     now - pinned_pages, delta);
	pinned_pages = now;
}

/* The doorbell record pages in use: the kernel pins each once. db_get()
 * counts a record's page: 1 when it is the first record there. */
#define WITNESS_DB_PAGES 16
static struct { uintptr_t page; int users; } db_pages[WITNESS_DB_PAGES];

static long __attribute__((unused)) db_get(const void *rec)
{
	uintptr_t page = (uintptr_t)rec / (uintptr_t)page_size;
	int i, free_slot = -1;

	for (i = 0; i < WITNESS_DB_PAGES; i++) {
		if (db_pages[i].users && db_pages[i].page == page) {
			db_pages[i].users++;
			return 0;
		}
		if (!db_pages[i].users && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		fail("more than %d doorbell pages", WITNESS_DB_PAGES);
	db_pages[free_slot].page = page;
	db_pages[free_slot].users = 1;
	return 1;
}

/* ---- the port's GIDs (RoCE stand-ins, port 1) ---- */

#define WITNESS_PORT 1

struct gids {
	int v2_ipv4;		/* index of the RoCE v2 GID of an IPv4 address */
	union ibv_gid gid;
	uint8_t mac[6];		/* the port's MAC, from its link-local GID */
};

static void __attribute__((unused)) find_gids(struct ibv_context *ctx, int len, struct gids *g)
{
	struct ibv_gid_entry *e = calloc((size_t)len, sizeof(*e));
	static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	int have_ll = 0;
	ssize_t n;

	check_ptr(e, "calloc");
	n = ibv_query_gid_table(ctx, e, (size_t)len, 0);
	if (n <= 0)
		fail("ibv_query_gid_table: %zd (errno %d)", n, errno);
	g->v2_ipv4 = -1;
	for (ssize_t i = 0; i < n; i++) {
		const uint8_t *raw = e[i].gid.raw;

		if (e[i].port_num != WITNESS_PORT)
			continue;
		if (e[i].gid_type == IBV_GID_TYPE_ROCE_V2 && !memcmp(raw, v4mapped, 12) &&
		    g->v2_ipv4 < 0) {
			g->v2_ipv4 = (int)e[i].gid_index;
			g->gid = e[i].gid;
		}
		if (raw[0] == 0xfe && raw[1] == 0x80 && !have_ll) {
			/* EUI-64 back to the MAC */
			g->mac[0] = raw[8] ^ 2;
			g->mac[1] = raw[9];
			g->mac[2] = raw[10];
			g->mac[3] = raw[13];
			g->mac[4] = raw[14];
			g->mac[5] = raw[15];
			have_ll = 1;
		}
	}
	free(e);
	if (g->v2_ipv4 < 0)
		fail("no RoCE v2 GID of an IPv4 address among %zd", n);
	if (!have_ll)
		fail("no link-local GID among %zd", n);
}

static void __attribute__((unused)) expect_state(struct ibv_qp *qp, enum ibv_qp_state want, const char *name)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;

	check_rc(ibv_query_qp(qp, &a, IBV_QP_STATE, &ia), "ibv_query_qp");
	if (a.qp_state != want)
		fail("%s QP %u is in state %d, not %d", name, qp->qp_num, a.qp_state, want);
}

#endif
