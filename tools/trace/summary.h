/* SPDX-License-Identifier: MIT */
/* -c: calls, errors and time per command name, and the objects each process
 * made and ended, printed at exit like strace -c. */
#ifndef UVIO_TRACE_SUMMARY_H
#define UVIO_TRACE_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "record.h"

void summary_add(const struct tr_record *r);
void summary_print(FILE *f, bool json);

#endif
