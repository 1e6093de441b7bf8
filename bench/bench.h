/* SPDX-License-Identifier: MIT */
/*
 * Shared by the programs of bench/: the per-path environment on one device,
 * the table of verbs (each as this library calls it and as the bare floor
 * issues the same command), the QP bring-up and CQ sequences, the command
 * signatures that prove library and floor send the same command, and the
 * libibverbs ways.
 */
#ifndef UVIO_BENCH_BENCH_H
#define UVIO_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <uvio.h>

#define BENCH_MAX_BATCH 256

/* One device context, used by the library (dev) and by the floor (fd). */
struct env {
	const char *name;
	int use_write;			/* 0: ioctl path (native or INVOKE_WRITE), 1: write() */
	int siw;
	struct uvio_device *dev;
	int fd;
	uint32_t did;			/* driver id */
	char node[64];			/* /dev/infiniband/uverbsN */
	uint32_t pd, cq, cq_resize, qp, qpn, ud_qp, rts_qp, srq, mr;
	int have_qp, have_ud_qp, have_rts_qp, have_srq, have_mr;
	uint8_t gid[16];
	uint32_t gid_index;
	int have_gid;
	void *buf;			/* a page to register */
	size_t buf_len;
	unsigned int tick;		/* counts calls: verbs that change an object
					 * alternate its state with it */
	uint32_t h[BENCH_MAX_BATCH];	/* handles of the batch in flight */
};

int env_open(struct env *e, const char *name, int use_write);
void env_close(struct env *e);

typedef int (*verb_fn)(struct env *e, int i);

/* A verb: this library's call and the bare floor's, same command. */
struct verb {
	const char *name;		/* OBJECT.METHOD as the kernel names it */
	verb_fn lib, floor;
};

enum {
	G_NATIVE_ONLY = 1,		/* no write() command: the write path is not timed */
	G_NEEDS_QP = 2,
	G_NEEDS_UD_QP = 4,
	G_NEEDS_SRQ = 8,
	G_NEEDS_MR = 16,
	G_NEEDS_GID = 32,
	G_NEEDS_RTS_QP = 64,
};

/* One verb, or a verb that creates (v[0], writing e->h[i]) and the verb
 * that destroys (v[1], reading it): each is timed on its own. */
struct group {
	struct verb v[2];
	int n;
	unsigned int flags;
};

extern const struct group bench_groups[];
extern const int bench_n_groups;

/* Verbs of the library that rxe and siw do not implement: each is called
 * once to record the device's answer. */
struct probe {
	const char *name;
	int (*fn)(struct env *e);
};
extern const struct probe bench_probes[];
extern const int bench_n_probes;
extern const char *const bench_not_run[];	/* NULL-terminated */

/* Sequences, one call each (for callgrind and the bring-up rates). */
int seq_qp_lib(struct env *e);
int seq_qp_floor(struct env *e);
int seq_cq_lib(struct env *e);
int seq_cq_floor(struct env *e);

/* ---- command signatures (capture.c): what reached the kernel ---- */
void capture_start(void);
const char *capture_stop(void);	/* "I3.0[0:0,1:4,...] W18:10:20 ..." */
long capture_allocations(void);		/* heap allocations during the capture */

/* ---- libibverbs (ibv.c) ---- */
int ibv_env_open(const char *name);	/* 0, or a negative errno */
int seq_qp_ibvcmd(void);
int seq_qp_ibv(void);
int seq_cq_ibvcmd(void);
int seq_cq_ibv(void);

/* ---- misc ---- */
double bench_now(void);
double bench_median(double *v, int n);
void bench_die(const char *what, int err);

#endif
