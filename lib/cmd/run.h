/* SPDX-License-Identifier: MIT */
/*
 * Internal: a laid-out command run on an fd, for the library's own callers.
 * uvio_cmd_exec() is this and, when the kernel refuses the command, the
 * refusal in words for uvio_last_error(); the verbs say their failures
 * themselves (uvio_verb_failed()), and the probes send commands that are
 * meant to be refused, so they run the command with this.
 */
#ifndef UVIO_LIB_CMD_RUN_H
#define UVIO_LIB_CMD_RUN_H

#include <uvio/cmd.h>

/* 0 or the kernel's -errno; a builder error as uvio_cmd_exec() has it
 * (returned without sending, and said). */
int uvio_cmd_run(int fd, struct uvio_cmd *cmd);

#endif
