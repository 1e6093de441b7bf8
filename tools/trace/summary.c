// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "summary.h"

struct row {
	char name[96];
	unsigned long long calls, errors, ns;
	int last_err;
	bool unknown;
};

struct objrow {
	pid_t pid;
	char type[16];
	unsigned long long created, destroyed;
};

static struct row *rows;
static size_t nrows, caprows;
static struct objrow objs[256];
static size_t nobjs;
static unsigned long long dropped_objs;

static struct row *row_for(const char *name)
{
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	if (nrows == caprows) {
		size_t cap = caprows ? caprows * 2 : 64;
		struct row *n = realloc(rows, cap * sizeof(*n));

		if (!n)
			return NULL;
		rows = n;
		caprows = cap;
	}
	memset(&rows[nrows], 0, sizeof(rows[0]));
	snprintf(rows[nrows].name, sizeof(rows[0].name), "%s", name);
	return &rows[nrows++];
}

static void count_object(void *ctx, const struct tr_record *r, const char *type, uint32_t handle,
			 int dir)
{
	struct objrow *o = NULL;

	(void)ctx;
	(void)handle;
	for (size_t i = 0; i < nobjs; i++)
		if (objs[i].pid == r->pid && !strcmp(objs[i].type, type))
			o = &objs[i];
	if (!o) {
		if (nobjs == sizeof(objs) / sizeof(objs[0])) {
			dropped_objs++;
			return;
		}
		o = &objs[nobjs++];
		o->pid = r->pid;
		snprintf(o->type, sizeof(o->type), "%s", type);
		o->created = o->destroyed = 0;
	}
	if (dir > 0)
		o->created++;
	else
		o->destroyed++;
}

void summary_add(const struct tr_record *r)
{
	char name[96];
	bool unknown;
	struct row *w;

	tr_name(r, name, sizeof(name), &unknown);
	w = row_for(name);
	if (!w)
		return;
	w->calls++;
	w->unknown = unknown;
	if (r->done && r->t_exit >= r->t_entry)
		w->ns += r->t_exit - r->t_entry;
	if (r->done && r->ret < 0) {
		w->errors++;
		w->last_err = (int)-r->ret;
	}
	tr_objects(r, count_object, NULL);
}

static int by_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

void summary_print(FILE *f, bool json)
{
	unsigned long long total = 0, calls = 0, errors = 0;

	if (nrows)
		qsort(rows, nrows, sizeof(rows[0]), by_time);
	for (size_t i = 0; i < nrows; i++) {
		total += rows[i].ns;
		calls += rows[i].calls;
		errors += rows[i].errors;
	}
	if (json) {
		fprintf(f, "{\"summary\":[");
		for (size_t i = 0; i < nrows; i++) {
			const char *en = rows[i].errors ? tr_errno_name(rows[i].last_err) : NULL;

			fprintf(f, "%s{\"name\":\"%s\",\"calls\":%llu,\"errors\":%llu,\"us\":%llu",
				i ? "," : "", rows[i].name, rows[i].calls, rows[i].errors,
				rows[i].ns / 1000);
			if (en)
				fprintf(f, ",\"last_errno\":\"%s\"", en);
			fprintf(f, "%s}", rows[i].unknown ? ",\"unknown\":true" : "");
		}
		fprintf(f, "],\"objects\":[");
		for (size_t i = 0; i < nobjs; i++)
			fprintf(f, "%s{\"pid\":%d,\"type\":\"%s\",\"created\":%llu,\"destroyed\":%llu}",
				i ? "," : "", (int)objs[i].pid, objs[i].type, objs[i].created,
				objs[i].destroyed);
		fprintf(f, "],\"calls\":%llu,\"errors\":%llu,\"us\":%llu}\n", calls, errors,
			total / 1000);
		fflush(f);
		return;
	}
	fprintf(f, "%% time     seconds  usecs/call     calls    errors command\n");
	fprintf(f, "------ ----------- ----------- --------- --------- ----------------\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *w = &rows[i];
		const char *en = w->errors ? tr_errno_name(w->last_err) : NULL;
		char errs[48] = "";

		if (w->errors)
			snprintf(errs, sizeof(errs), "%llu", w->errors);
		fprintf(f, "%6.2f %11.6f %11llu %9llu %9s %s", total ? 100.0 * (double)w->ns / (double)total : 0.0,
			(double)w->ns / 1e9, w->calls ? w->ns / 1000 / w->calls : 0, w->calls, errs,
			w->name);
		if (en)
			fprintf(f, " (%s)", en);
		fprintf(f, "\n");
	}
	fprintf(f, "------ ----------- ----------- --------- --------- ----------------\n");
	fprintf(f, "100.00 %11.6f %11llu %9llu %9llu total\n", (double)total / 1e9,
		calls ? total / 1000 / calls : 0, calls, errors);
	if (nobjs) {
		fprintf(f, "\nobjects    pid  type          created destroyed\n");
		for (size_t i = 0; i < nobjs; i++)
			fprintf(f, "        %7d  %-12s %8llu %9llu\n", (int)objs[i].pid, objs[i].type,
				objs[i].created, objs[i].destroyed);
	}
	if (dropped_objs)
		fprintf(f, "(%llu object events not counted: table full)\n", dropped_objs);
	fflush(f);
}
