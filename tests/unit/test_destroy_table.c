// SPDX-License-Identifier: MIT
/* The destroy table (lib/verbs/destroy.h): every row is a verb with a
 * method of its own, named as its row of the verb table names it (which
 * unit/test_verb_table holds to lib/report/names.c), each verb has one
 * row, its write() encoder and core layout agree with the verb's write()
 * command, and each write() command core holds its handle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <uvio/decode.h>

#include "verbs/verb.h"
#include "verbs/destroy.h"

static void rows_are_their_verbs(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < DESTROY__COUNT; i++) {
		const struct destroy_row *r = &uvio_destroy_rows[i];
		const struct uvio_verb_row *v;

		assert_true(r->desc.verb < UVIO_VERB__COUNT);
		v = &uvio_verb_rows[r->desc.verb];
		assert_ptr_equal(r->desc.name, v->name);
		assert_int_not_equal(v->object, UVIO_NO_IOCTL);
		assert_int_equal(r->object, v->object);
		assert_int_equal(r->method, v->method);
		assert_int_equal(r->command, v->write);
		assert_non_null(r->desc.on_ioctl);
		/* A write() encoder exactly where the verb has a command, whose
		 * core layout is the extended one (comp_mask, then the handle)
		 * exactly where the command is extended. */
		if ((r->desc.on_write != NULL) != (v->write != UVIO_NO_WRITE))
			fail_msg("row %u (%s): write() encoder and command disagree", i, v->name);
		if (v->write != UVIO_NO_WRITE)
			assert_int_equal(!!(v->write & IB_USER_VERBS_CMD_FLAG_EXTENDED),
					 r->core_len == 8 && r->handle_at == 4);
	}
}

static void one_row_a_verb(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < DESTROY__COUNT; i++) {
		const struct destroy_row *r = &uvio_destroy_rows[i];

		for (unsigned int j = 0; j < i; j++)
			assert_int_not_equal(uvio_destroy_rows[j].desc.verb, r->desc.verb);
		/* A write() command's core holds the handle; the counted
		 * destroys answer on both paths. */
		if (r->desc.on_write)
			assert_true(r->handle_at + 4u <= r->core_len && r->core_len <= 16);
		assert_int_equal(!!r->ioctl_resp, !!r->resp_attr);
		if (r->ioctl_resp && r->desc.on_write)
			assert_true(r->write_resp > r->events_at);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_their_verbs),
		cmocka_unit_test(one_row_a_verb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
