/*
 * uverbs-trace: every RDMA command a program sends to the kernel, decoded.
 *
 *   uverbs-trace [-f] [-v] [--json] [-c|-C] [-o FILE] [--no-write] [--] PROGRAM [ARGS...]
 *   uverbs-trace [-f] [-v] [--json] [-c|-C] [-o FILE] -p PID
 *
 * See man/uverbs-trace.1.md; the loop is tools/trace/tracer.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tracer.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uverbs-trace [options] [--] PROGRAM [ARGS...]\n"
		"       uverbs-trace [options] -p PID\n"
		"Shows every uverbs command (ioctl, INVOKE_WRITE, write()) and rdma_cm command\n"
		"the program sends, decoded, with the kernel's answer and the time it took.\n"
		"  -f          follow child processes (threads are always followed)\n"
		"  -p PID      attach to a running process; SIGINT or SIGTERM detaches\n"
		"  -o FILE     write the trace to FILE instead of standard error\n"
		"  -v          everything: headers, every byte, the library's full decode\n"
		"  -j, --json  one JSON object per line\n"
		"  -c          only a summary at exit: calls, errors, time per command\n"
		"  -C          the summary as well as the commands\n"
		"  --no-write  stop on the verbs ioctl only (write() commands and rdma_cm\n"
		"              are then not seen, and other write() calls cost nothing)\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "no-write", no_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tracer_opts o = { .lines = true, .writes = true, .out = stderr };
	const char *outfile = NULL;
	int c, ret;

	while ((c = getopt_long(argc, argv, "+fp:o:vjcCh", longs, NULL)) != -1) {
		switch (c) {
		case 'f': o.follow = true; break;
		case 'p': {
			char *end;
			long pid = strtol(optarg, &end, 10);

			if (*end || pid <= 0 || pid > 0x3fffffff) {
				fprintf(stderr, "uverbs-trace: -p %s: not a process id\n", optarg);
				return 2;
			}
			o.attach = (pid_t)pid;
			break;
		}
		case 'o': outfile = optarg; break;
		case 'v': o.verbose = true; break;
		case 'j': o.json = true; break;
		case 'c': o.summary = true; o.lines = false; break;
		case 'C': o.summary = true; o.lines = true; break;
		case 'W': o.writes = false; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!o.attach == (optind >= argc)) {
		fprintf(stderr, "uverbs-trace: give either a program to run or -p PID\n");
		usage(stderr);
		return 2;
	}
	o.argv = argv + optind;
	if (outfile) {
		o.out = fopen(outfile, "we");
		if (!o.out) {
			fprintf(stderr, "uverbs-trace: %s: %s\n", outfile, strerror(errno));
			return 2;
		}
	}
	ret = tracer_run(&o);
	if (ret < 0) {
		fprintf(stderr, "uverbs-trace: cannot trace %s: %s\n",
			o.attach ? "that process" : o.argv[0], strerror(-ret));
		if (ret == -EPERM)
			fprintf(stderr, "uverbs-trace: ptrace is not allowed here (Yama "
				"ptrace_scope, a container without CAP_SYS_PTRACE?)\n");
		ret = 1;
	}
	if (outfile && fclose(o.out)) {
		fprintf(stderr, "uverbs-trace: %s: %s\n", outfile, strerror(errno));
		if (!ret)
			ret = 1;
	}
	return ret;
}
