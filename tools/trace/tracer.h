/* SPDX-License-Identifier: MIT */
/* The ptrace side of uverbs-trace: start or attach, stop only where an RDMA
 * command can pass, hand each one to capture and output, detach cleanly. */
#ifndef UVIO_TRACE_TRACER_H
#define UVIO_TRACE_TRACER_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

struct tracer_opts {
	bool follow;		/* -f: child processes too */
	bool json, verbose;
	bool lines;		/* a line per command (off with -c alone) */
	bool summary;		/* -c / -C */
	bool writes;		/* stop on write()/writev() (off: ioctl only) */
	FILE *out;
	pid_t attach;		/* -p */
	char **argv;		/* the program, when not attaching */
};

/* Runs until the traced program ends (its exit status, as a shell would
 * give it) or, attached, until SIGINT/SIGTERM detached it (0). A negative
 * errno when tracing could not start. */
int tracer_run(const struct tracer_opts *o);

#endif
