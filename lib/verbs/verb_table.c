// SPDX-License-Identifier: MIT
/* The verbs' names, from the one table (verb_table.h). */
#include "verb_table.h"

const struct uvio_verb_names uvio_verb_names = {
#define X(v, name, ...) name,
	UVIO_VERB_TABLE(X)
#undef X
};
