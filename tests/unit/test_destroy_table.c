// SPDX-License-Identifier: MIT
/* The destroy table (lib/verbs/destroy.h): every row's "OBJECT.METHOD" name
 * is the name lib/report/names.c gives its object and method ids, each
 * verb has one row, and each write() command core holds its handle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <uvio/decode.h>

#include "verbs/verb.h"
#include "verbs/destroy.h"

static void names_match_ids(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < DESTROY__COUNT; i++) {
		const struct destroy_row *r = &uvio_destroy_rows[i];
		const char *obj = uvio_object_name(r->object);
		const char *meth = uvio_method_name(r->object, r->method);
		char want[128];

		assert_non_null(r->desc.name);
		assert_non_null(obj);
		assert_non_null(meth);
		snprintf(want, sizeof(want), "%s.%s", obj, meth);
		if (strcmp(want, r->desc.name))
			fail_msg("row %u: named %s, its ids are %s", i, r->desc.name, want);
	}
}

static void one_row_a_verb(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < DESTROY__COUNT; i++) {
		const struct destroy_row *r = &uvio_destroy_rows[i];

		assert_true(r->desc.verb < UVIO_VERB__COUNT);
		for (unsigned int j = 0; j < i; j++)
			assert_int_not_equal(uvio_destroy_rows[j].desc.verb, r->desc.verb);
		/* A write() command's core holds the handle; the counted
		 * destroys answer on both paths. */
		if (r->command)
			assert_true(r->handle_at + 4u <= r->core_len && r->core_len <= 16);
		assert_int_equal(!!r->ioctl_resp, !!r->resp_attr);
		if (r->ioctl_resp && r->command)
			assert_true(r->write_resp > r->events_at);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_match_ids),
		cmocka_unit_test(one_row_a_verb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
