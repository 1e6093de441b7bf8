/* SPDX-License-Identifier: MIT */
/* Internal: the last error of this thread and the log callback. The bottom
 * layer: depends on nothing else in the library. */
#ifndef UVIO_LIB_REPORT_H
#define UVIO_LIB_REPORT_H

#include <stdbool.h>

void uvio_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool uvio_log_enabled(void);
void uvio_set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
