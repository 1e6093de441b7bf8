// SPDX-License-Identifier: MIT
/*
 * The benchmark of every verb, of QP bring-up, and of user-space
 * instructions, inside the VM on a real kernel's rxe or siw:
 *
 *   uverbs_bench verbs DEVICE [ROUNDS] [BATCH]
 *	every verb of bench/verbs.c, this library against the bare floor,
 *	on the ioctl path (native method or INVOKE_WRITE) and on write();
 *	BATCH calls each way per round, library and floor taking turns call
 *	by call, each call timed; per round the median call each way, over
 *	ROUNDS rounds the medians and the median of the per-round ratios.
 *	First each verb runs once both ways under capture: the library and
 *	the floor must send the same commands.
 *   uverbs_bench qp DEVICE [ROUNDS] [BATCH]
 *	QP bring-ups per second (create, INIT, RTR, RTS, destroy): floor,
 *	this library on both paths, libibverbs' ibv_cmd_* and its public verbs;
 *	the six take turns sequence by sequence, each sequence timed.
 *   uverbs_bench insn DEVICE [REPEAT]
 *	run under valgrind --tool=callgrind --collect-atstart=no: each
 *	sequence and each verb is collected on its own and dumped with its
 *	name (CALLGRIND_DUMP_STATS_AT); bench/guest-bench.sh reads the dumps.
 *
 * Prints "RESULT ..." lines for bench/run.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "bench.h"
#include "stats.h"

double bench_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double bench_median(double *v, int n)
{
	return stats_median(v, n);
}

void bench_die(const char *what, int err)
{
	fprintf(stderr, "uverbs_bench: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static const char *const path_name[] = { "ioctl", "write" };

/* ================= every verb ================= */

#define MAX_ROUNDS 64

struct verb_state {
	int skip;			/* the device lacks it (or what it needs) */
	int failed;			/* the verb of the group the device refused */
	char why[64];
	double lib[2][MAX_ROUNDS], fl[2][MAX_ROUNDS];	/* seconds per call, per verb of the group */
};

/*
 * One round of group g: for each of its verbs, batch calls by the library
 * and batch by the floor, alternating call by call (which of the two goes
 * first alternates too), each call timed on its own; the median seconds per
 * call of each verb and way into med[way][verb]. The floor's objects live
 * at indices batch.. of the handle array, the library's at 0..
 */
static int round_group(const struct group *g, struct env *e, int batch, double med[2][2])
{
	static double t[2][BENCH_MAX_BATCH / 2];

	for (int k = 0; k < g->n; k++) {
		for (int i = 0; i < batch; i++) {
			for (int j = 0; j < 2; j++) {
				int way = (i + j) & 1, ret;
				verb_fn fn = way ? g->v[k].floor : g->v[k].lib;
				double t0;

				e->tick++;
				t0 = bench_now();
				ret = fn(e, i + way * batch);
				t[way][i] = bench_now() - t0;
				if (ret) {
					fprintf(stderr, "uverbs_bench: %s (%s, %s) call %d: %s\n",
						g->v[k].name, way ? "floor" : "library",
						path_name[e->use_write], i, strerror(-ret));
					return ret;
				}
			}
		}
		med[0][k] = stats_median(t[0], batch);
		med[1][k] = stats_median(t[1], batch);
	}
	return 0;
}

/* Commands in a signature: one per system call. */
static int count_cmds(const char *sig)
{
	int n = *sig ? 1 : 0;

	for (; *sig; sig++)
		n += *sig == ' ';
	return n;
}

static const char *needs_missing(const struct group *g, const struct env *e)
{
	if ((g->flags & G_NEEDS_QP) && !e->have_qp)
		return "no RC QP in INIT on this device";
	if ((g->flags & G_NEEDS_UD_QP) && !e->have_ud_qp)
		return "no UD QP on this device";
	if ((g->flags & G_NEEDS_SRQ) && !e->have_srq)
		return "no SRQ on this device";
	if ((g->flags & G_NEEDS_MR) && !e->have_mr)
		return "no MR on this device";
	if ((g->flags & G_NEEDS_GID) && !e->have_gid)
		return "no GID on port 1";
	if ((g->flags & G_NEEDS_RTS_QP) && !e->have_rts_qp)
		return "no QP reaches RTS by MODIFY_QP alone";
	return NULL;
}

static int mode_verbs(const char *name, int rounds, int batch)
{
	static struct verb_state st[64][2];	/* per group, per path */
	struct env env[2];
	int bad = 0;

	for (int p = 0; p < 2; p++) {
		int ret = env_open(&env[p], name, p);

		if (ret)
			bench_die("opening the device", ret);
	}
	/* Probe: each verb once, library then floor, under capture. */
	for (int gi = 0; gi < bench_n_groups; gi++) {
		const struct group *g = &bench_groups[gi];

		for (int p = 0; p < 2; p++) {
			struct verb_state *s = &st[gi][p];
			struct env *e = &env[p];
			const char *why = needs_missing(g, e);
			char lib_sig[2][1024];
			double t[2][2];
			int ret;

			if (p == 1 && (g->flags & G_NATIVE_ONLY))
				why = "no write() command";
			if (why) {
				s->skip = 1;
				s->failed = -1;
				snprintf(s->why, sizeof(s->why), "%s", why);
				continue;
			}
			for (int k = 0; k < g->n; k++) {
				long allocs;

				capture_start();
				ret = g->v[k].lib(e, 0);
				snprintf(lib_sig[k], sizeof(lib_sig[k]), "%s", capture_stop());
				allocs = capture_allocations();
				if (!ret)
					printf("RESULT verb_syscalls %s %s %d %ld\n", g->v[k].name,
					       path_name[p], count_cmds(lib_sig[k]), allocs);
				if (ret) {
					s->skip = 1;
					s->failed = k;
					snprintf(s->why, sizeof(s->why), "the device answers %s",
						 uvio_errno_name(ret));
					break;
				}
			}
			if (s->skip)
				continue;
			for (int k = 0; k < g->n; k++) {
				const char *fl_sig;
				int same;

				capture_start();
				ret = g->v[k].floor(e, 0);
				fl_sig = capture_stop();
				same = !strcmp(fl_sig, lib_sig[k]);
				printf("RESULT verb_cmd %s %s %s %s\n", g->v[k].name, path_name[p],
				       same ? "same" : "DIFFERENT", lib_sig[k]);
				if (!same) {
					printf("RESULT verb_cmd_floor %s %s %s\n", g->v[k].name,
					       path_name[p], fl_sig);
					bad = 1;
				}
				if (ret) {
					fprintf(stderr, "uverbs_bench: floor %s (%s): %s\n",
						g->v[k].name, path_name[p], strerror(-ret));
					return 1;
				}
			}
			/* a warm-up round */
			if (round_group(g, e, batch, t))
				return 1;
		}
	}
	/* What the device answers to the verbs it does not implement. */
	for (int k = 0; k < bench_n_probes; k++)
		for (int p = 0; p < 2; p++) {
			int ret = bench_probes[k].fn(&env[p]);

			printf("RESULT verb_probe %s %s %s\n", bench_probes[k].name, path_name[p],
			       ret ? uvio_errno_name(ret) : "ok");
		}
	for (int k = 0; bench_not_run[k]; k++)
		printf("RESULT verb_not_run %s\n", bench_not_run[k]);
	/* Rounds: library and floor back to back, order alternating. */
	for (int r = 0; r < rounds; r++) {
		for (int gi = 0; gi < bench_n_groups; gi++) {
			const struct group *g = &bench_groups[gi];

			for (int p = 0; p < 2; p++) {
				struct verb_state *s = &st[gi][p];
				double t[2][2];

				if (s->skip)
					continue;
				if (round_group(g, &env[p], batch, t))
					return 1;
				for (int k = 0; k < g->n; k++) {
					s->lib[k][r] = t[0][k];
					s->fl[k][r] = t[1][k];
				}
			}
		}
	}
	for (int gi = 0; gi < bench_n_groups; gi++) {
		const struct group *g = &bench_groups[gi];

		for (int p = 0; p < 2; p++) {
			struct verb_state *s = &st[gi][p];

			for (int k = 0; k < g->n; k++) {
				double ratio[MAX_ROUNDS], lib_us, fl_us;

				if (s->skip && k > s->failed && s->failed >= 0)
					printf("RESULT verb_skip %s %s not run: %s cannot make its object\n",
					       g->v[k].name, path_name[p], g->v[s->failed].name);
				else if (s->skip)
					printf("RESULT verb_skip %s %s %s\n", g->v[k].name, path_name[p],
					       s->why);
				if (s->skip)
					continue;
				for (int r = 0; r < rounds; r++)
					ratio[r] = s->lib[k][r] / s->fl[k][r];
				lib_us = bench_median(s->lib[k], rounds) * 1e6;
				fl_us = bench_median(s->fl[k], rounds) * 1e6;
				bench_median(ratio, rounds);	/* sorts */
				printf("RESULT verb %s %s %.2f %.2f %.3f %.3f %.3f\n", g->v[k].name,
				       path_name[p], lib_us, fl_us, bench_median(ratio, rounds),
				       stats_quantile(ratio, rounds, 0.25), stats_quantile(ratio, rounds, 0.75));
			}
		}
	}
	env_close(&env[0]);
	env_close(&env[1]);
	return bad;
}

/* ================= QP bring-up ================= */

enum { Q_FLOOR, Q_FLOOR_WRITE, Q_IOCTL, Q_WRITE, Q_IBVCMD, Q_IBV, Q_WAYS };
static const char *const q_name[] = { "floor", "floor_write", "ioctl", "write", "ibvcmd", "ibv" };

static struct env qenv[2];

static int q_run(int w, int n)
{
	for (int i = 0; i < n; i++) {
		int ret;

		switch (w) {
		case Q_FLOOR: ret = seq_qp_floor(&qenv[0]); break;
		case Q_FLOOR_WRITE: ret = seq_qp_floor(&qenv[1]); break;
		case Q_IOCTL: ret = seq_qp_lib(&qenv[0]); break;
		case Q_WRITE: ret = seq_qp_lib(&qenv[1]); break;
		case Q_IBVCMD: ret = seq_qp_ibvcmd(); break;
		default: ret = seq_qp_ibv(); break;
		}
		if (ret) {
			fprintf(stderr, "uverbs_bench: QP bring-up (%s): %s\n", q_name[w],
				strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int mode_qp(const char *name, int rounds, int batch)
{
	static double one[Q_WAYS][BENCH_MAX_BATCH];
	double t[Q_WAYS][MAX_ROUNDS];
	double r_floor[MAX_ROUNDS], r_ibvcmd[MAX_ROUNDS], r_ibv[MAX_ROUNDS], r_wfloor[MAX_ROUNDS];
	int ret;

	for (int p = 0; p < 2; p++)
		if ((ret = env_open(&qenv[p], name, p)))
			bench_die("opening the device", ret);
	if ((ret = ibv_env_open(name)))
		bench_die("libibverbs", ret);
	if (!qenv[0].have_gid) {
		printf("RESULT qp_skip no GID on port 1\n");
		return 0;
	}
	for (int w = 0; w < Q_WAYS; w++)
		if (q_run(w, 1)) {
			printf("RESULT qp_skip %s cannot bring a QP to RTS by MODIFY_QP alone\n",
			       name);
			return 0;
		}
	for (int w = 0; w < Q_WAYS; w++)
		if (q_run(w, batch / 4 + 1))
			return 1;
	/* The ways take turns sequence by sequence, each timed on its own;
	 * a round's time per way is the median of its sequences. */
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < batch; i++)
			for (int k = 0; k < Q_WAYS; k++) {
				int w = (k + i + r) % Q_WAYS;
				double t0 = bench_now();

				if (q_run(w, 1))
					return 1;
				one[w][i] = bench_now() - t0;
			}
		for (int w = 0; w < Q_WAYS; w++)
			t[w][r] = stats_median(one[w], batch);
		r_floor[r] = t[Q_IOCTL][r] / t[Q_FLOOR][r];
		r_wfloor[r] = t[Q_WRITE][r] / t[Q_FLOOR_WRITE][r];
		r_ibvcmd[r] = t[Q_IOCTL][r] / t[Q_IBVCMD][r];
		r_ibv[r] = t[Q_IOCTL][r] / t[Q_IBV][r];
		printf("round %d:", r + 1);
		for (int w = 0; w < Q_WAYS; w++)
			printf(" %s %.0f/s", q_name[w], 1 / t[w][r]);
		printf("  ioctl/floor %.3f ioctl/ibvcmd %.3f\n", r_floor[r], r_ibvcmd[r]);
	}
	for (int w = 0; w < Q_WAYS; w++)
		printf("RESULT qp_per_s_%s %.0f\n", q_name[w], 1 / stats_median(t[w], rounds));
	printf("RESULT ratio_qp_ioctl_to_floor %.3f\n", stats_median(r_floor, rounds));
	printf("RESULT ratio_qp_write_to_floor_write %.3f\n", stats_median(r_wfloor, rounds));
	printf("RESULT ratio_qp_ioctl_to_ibvcmd %.3f\n", stats_median(r_ibvcmd, rounds));
	printf("RESULT ratio_qp_ioctl_to_ibv %.3f\n", stats_median(r_ibv, rounds));
	return 0;
}

/* ================= instructions (callgrind) ================= */

static int insn_repeat = 10;

/* One region: warm up once outside collection (lazy binding, first-touch
 * paths), then collect repeat runs and dump them under this name. */
static void collect(const char *label, int (*fn)(void *), void *arg)
{
	char desc[160];
	int ret = fn(arg);

	if (ret) {
		printf("RESULT insn_skip %s %s\n", label, strerror(-ret));
		return;
	}
	CALLGRIND_ZERO_STATS;
	CALLGRIND_TOGGLE_COLLECT;
	for (int i = 0; i < insn_repeat && !ret; i++)
		ret = fn(arg);
	CALLGRIND_TOGGLE_COLLECT;
	snprintf(desc, sizeof(desc), "%s /%d", label, insn_repeat);
	CALLGRIND_DUMP_STATS_AT(desc);
	if (ret)
		printf("RESULT insn_skip %s %s (while collecting)\n", label, strerror(-ret));
}

static int c_cq_lib(void *e) { return seq_cq_lib(e); }
static int c_cq_floor(void *e) { return seq_cq_floor(e); }
static int c_qp_lib(void *e) { return seq_qp_lib(e); }
static int c_qp_floor(void *e) { return seq_qp_floor(e); }
static int c_cq_ibvcmd(void *e) { (void)e; return seq_cq_ibvcmd(); }
static int c_cq_ibv(void *e) { (void)e; return seq_cq_ibv(); }
static int c_qp_ibvcmd(void *e) { (void)e; return seq_qp_ibvcmd(); }
static int c_qp_ibv(void *e) { (void)e; return seq_qp_ibv(); }

struct one_verb {
	const struct group *g;
	struct env *e;
	int way;
	int i;
};

/* A group once (create and destroy together: the pair's instructions). */
static int c_group(void *arg)
{
	struct one_verb *v = arg;
	int ret = 0;

	for (int k = 0; k < v->g->n && !ret; k++)
		ret = (v->way ? v->g->v[k].floor : v->g->v[k].lib)(v->e, v->i);
	v->i = (v->i + 1) % BENCH_MAX_BATCH;
	return ret;
}

static int mode_insn(const char *name)
{
	struct env env[2];
	char label[128];
	int ret, ibv_ok;

	for (int p = 0; p < 2; p++)
		if ((ret = env_open(&env[p], name, p)))
			bench_die("opening the device", ret);
	ibv_ok = !ibv_env_open(name);
	collect("seq CQ.CREATE+DESTROY lib ioctl", c_cq_lib, &env[0]);
	collect("seq CQ.CREATE+DESTROY lib write", c_cq_lib, &env[1]);
	collect("seq CQ.CREATE+DESTROY floor ioctl", c_cq_floor, &env[0]);
	collect("seq CQ.CREATE+DESTROY floor write", c_cq_floor, &env[1]);
	if (ibv_ok) {
		collect("seq CQ.CREATE+DESTROY ibvcmd -", c_cq_ibvcmd, NULL);
		collect("seq CQ.CREATE+DESTROY ibv -", c_cq_ibv, NULL);
	}
	if (env[0].have_gid && !seq_qp_lib(&env[0])) {
		collect("seq QP.BRINGUP lib ioctl", c_qp_lib, &env[0]);
		collect("seq QP.BRINGUP lib write", c_qp_lib, &env[1]);
		collect("seq QP.BRINGUP floor ioctl", c_qp_floor, &env[0]);
		collect("seq QP.BRINGUP floor write", c_qp_floor, &env[1]);
		if (ibv_ok) {
			collect("seq QP.BRINGUP ibvcmd -", c_qp_ibvcmd, NULL);
			collect("seq QP.BRINGUP ibv -", c_qp_ibv, NULL);
		}
	}
	/* every verb group, both ways, both paths */
	for (int gi = 0; gi < bench_n_groups; gi++) {
		const struct group *g = &bench_groups[gi];

		for (int p = 0; p < 2; p++) {
			if ((p == 1 && (g->flags & G_NATIVE_ONLY)) || needs_missing(g, &env[p]))
				continue;
			for (int way = 0; way < 2; way++) {
				struct one_verb v = { g, &env[p], way, 0 };

				snprintf(label, sizeof(label), "verb %s%s%s %s %s", g->v[0].name,
					 g->n > 1 ? "+" : "", g->n > 1 ? g->v[1].name : "",
					 way ? "floor" : "lib", path_name[p]);
				collect(label, c_group, &v);
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *name = argc > 2 ? argv[2] : "rxe0";
	int rounds = argc > 3 ? atoi(argv[3]) : 9;
	int batch = argc > 4 ? atoi(argv[4]) : 100;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (rounds < 1 || rounds > MAX_ROUNDS || batch < 2 || batch > BENCH_MAX_BATCH / 2) {
		fprintf(stderr, "uverbs_bench: rounds 1..%d, batch 2..%d\n", MAX_ROUNDS,
			BENCH_MAX_BATCH / 2);
		return 2;
	}
	if (!strcmp(mode, "verbs"))
		return mode_verbs(name, rounds, batch);
	if (!strcmp(mode, "qp"))
		return mode_qp(name, rounds, batch);
	if (!strcmp(mode, "insn")) {
		if (argc > 3)
			insn_repeat = atoi(argv[3]) > 0 ? atoi(argv[3]) : 10;
		return mode_insn(name);
	}
	fprintf(stderr, "usage: uverbs_bench verbs|qp|insn DEVICE [ROUNDS] [BATCH]\n");
	return 2;
}
