/* SPDX-License-Identifier: MIT */
/* Internal: the last error of this thread and the log callback. The bottom
 * layer: depends on nothing else in the library. */
#ifndef UVIO_LIB_REPORT_H
#define UVIO_LIB_REPORT_H

#include <stdbool.h>

void uvio_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool uvio_log_enabled(void);
void uvio_set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A call failing: the text (which names the function or command, the errno
 * and the argument or cause, "uvio_dp_poll_cq: EINVAL: argument wc: NULL")
 * becomes this thread's last error and goes to the log callback at level;
 * returns err. Every negative errno a public function returns passes here,
 * through uvio_verb_failed() or through a message of its own: out of line
 * and cold, so that a call that succeeds never writes the thread's text.
 */
int uvio_fail(int level, int err, const char *fmt, ...)
	__attribute__((cold, noinline, format(printf, 3, 4)));

#endif
