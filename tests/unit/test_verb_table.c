// SPDX-License-Identifier: MIT
/*
 * The verb table (lib/verbs/verb_table.h) against itself and against the
 * ABI tables (lib/abi/, named by lib/report/names.c, which the decoder and
 * the tracer print): a verb with a method of its own is named "OBJECT.METHOD"
 * as the tables name its ids; each write() command is one the tables file
 * under the verb's object (their numbers are the system's
 * <rdma/ib_user_verbs.h> IB_USER_VERBS_[EX_]CMD_<name>), and its name is the
 * verb's, in the write() spelling; no two verbs share a name, a method or a
 * command. A wrong row fails here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <uvio/decode.h>

#include "verbs/verb.h"

/* The write() commands whose name is not the verb's method and object
 * (METHOD_OBJECT, or METHOD alone), said here once more. */
static const struct {
	const char *verb, *write;
} irregular[] = {
	{ "PD.DESTROY", "DEALLOC_PD" },
	{ "MR.DESTROY", "DEREG_MR" },
	{ "MW.DESTROY", "DEALLOC_MW" },
	{ "XRCD.DESTROY", "CLOSE_XRCD" },
	{ "SRQ.CREATE", "CREATE_XSRQ" },
	{ "SRQ.POST_RECV", "POST_SRQ_RECV" },
};

/* The kernel files OPEN_QP under the XRC domain it opens the QP through. */
static const struct {
	const char *verb, *object;
} filed_elsewhere[] = {
	{ "QP.OPEN", "XRCD" },
};

static const char *method_of(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? dot + 1 : NULL;
}

/* The MR methods the tables name with their object in them (QUERY_MR,
 * DM_MR_REG) the library names without it: MR.QUERY, MR.DM_REG. */
static bool without_object(const char *name, const char *obj, const char *meth)
{
	char want[128], *at;
	size_t olen = strlen(obj);

	snprintf(want, sizeof(want), "%s.%s", obj, meth);
	at = strstr(want + olen + 1, obj);
	if (!at || at[-1] != '_' || (at[olen] && at[olen] != '_'))
		return false;
	memmove(at - 1, at + olen, strlen(at + olen) + 1);
	return !strcmp(want, name);
}

static void names_are_the_abi_names(void **state)
{
	unsigned int wrong = 0;

	(void)state;
	for (unsigned int v = 0; v < UVIO_VERB__COUNT; v++) {
		const struct uvio_verb_row *r = &uvio_verb_rows[v];
		const char *obj, *meth;
		char want[128];

		assert_non_null(r->name);
		/* Only the caller-built commands go without "OBJECT.METHOD". */
		if (v == UVIO_VERB_RAW_IOCTL || v == UVIO_VERB_RAW_WRITE) {
			assert_null(method_of(r->name));
			assert_int_equal(r->object, UVIO_NO_IOCTL);
			assert_int_equal(r->write, UVIO_NO_WRITE);
			continue;
		}
		if (!method_of(r->name))
			fail_msg("verb %u: name %s has no OBJECT.METHOD", v, r->name);
		assert_true(r->object != UVIO_NO_IOCTL || r->write != UVIO_NO_WRITE);
		assert_int_equal(r->object == UVIO_NO_IOCTL, r->method == UVIO_NO_IOCTL);
		if (r->object == UVIO_NO_IOCTL)
			continue;
		obj = uvio_object_name(r->object);
		meth = uvio_method_name(r->object, r->method);
		if (!obj || !meth)
			fail_msg("verb %u (%s): the tables have no method 0x%x of object 0x%x", v,
				 r->name, r->method, r->object);
		snprintf(want, sizeof(want), "%s.%s", obj, meth);
		if (strcmp(want, r->name) && !without_object(r->name, obj, meth)) {
			print_error("verb %u: named %s, its ids are %s\n", v, r->name, want);
			wrong++;
		}
	}
	assert_int_equal(wrong, 0);
}

/* The verb's name in the write() spelling: METHOD_OBJECT, or METHOD, an
 * extended command's method without its "EX_". */
static bool write_name_fits(const char *verb, const char *write, bool ex)
{
	const char *meth = method_of(verb);
	size_t olen = (size_t)(meth - 1 - verb);
	char want[128];

	for (size_t i = 0; i < sizeof(irregular) / sizeof(irregular[0]); i++)
		if (!strcmp(irregular[i].verb, verb) && !strcmp(irregular[i].write, write))
			return true;
	if (ex && !strncmp(meth, "EX_", 3))
		meth += 3;
	if (!strcmp(meth, write))
		return true;
	snprintf(want, sizeof(want), "%s_%.*s", meth, (int)olen, verb);
	return !strcmp(want, write);
}

static unsigned int check_write(unsigned int v, uint32_t command)
{
	const struct uvio_verb_row *r = &uvio_verb_rows[v];
	struct uvio_write_desc d = { .sz = sizeof(d) };
	const char *meth = method_of(r->name);
	const char *obj;
	bool filed = false;

	if (uvio_describe_write_cmd(command, &d))
		fail_msg("verb %s: the tables have no write() command 0x%x", r->name, command);
	if (d.flags & UVIO_WRITE_UNHANDLED)
		fail_msg("verb %s: write() command %s is one the kernel does not handle", r->name,
			 d.name);
	/* Filed under the verb's object, by name and, with a method, by id. */
	obj = uvio_object_name(d.object_id);
	assert_non_null(obj);
	for (size_t i = 0; i < sizeof(filed_elsewhere) / sizeof(filed_elsewhere[0]); i++)
		if (!strcmp(filed_elsewhere[i].verb, r->name) &&
		    !strcmp(filed_elsewhere[i].object, obj))
			filed = true;
	if (!filed && (strlen(obj) != (size_t)(meth - 1 - r->name) ||
		       strncmp(obj, r->name, strlen(obj)) ||
		       (r->object != UVIO_NO_IOCTL && d.object_id != r->object))) {
		print_error("verb %s: write() command %s belongs to object %s\n", r->name, d.name,
			    obj);
		return 1;
	}
	if (!write_name_fits(r->name, d.name, d.flags & UVIO_WRITE_EXTENDED)) {
		print_error("verb %s: its write() command is %s%s\n", r->name,
			    d.flags & UVIO_WRITE_EXTENDED ? "EX_" : "", d.name);
		return 1;
	}
	return 0;
}

static void writes_are_the_verbs(void **state)
{
	unsigned int wrong = 0;

	(void)state;
	for (unsigned int v = 0; v < UVIO_VERB__COUNT; v++) {
		const struct uvio_verb_row *r = &uvio_verb_rows[v];

		if (r->write != UVIO_NO_WRITE)
			wrong += check_write(v, r->write);
		if (r->write2 != UVIO_NO_WRITE) {
			assert_int_not_equal(r->write, UVIO_NO_WRITE);
			assert_int_not_equal(r->write2, r->write);
			wrong += check_write(v, r->write2);
		}
	}
	assert_int_equal(wrong, 0);
}

/* The write() numbers of a few rows, spelled from the system's header
 * here rather than through the table's macros. */
static void write_numbers(void **state)
{
	(void)state;
	assert_int_equal(uvio_verb_rows[UVIO_VERB_GET_CONTEXT].write, IB_USER_VERBS_CMD_GET_CONTEXT);
	assert_int_equal(uvio_verb_rows[UVIO_VERB_QUERY_DEVICE].write, IB_USER_VERBS_CMD_QUERY_DEVICE);
	assert_int_equal(uvio_verb_rows[UVIO_VERB_CREATE_CQ].write, IB_USER_VERBS_CMD_CREATE_CQ);
	assert_int_equal(uvio_verb_rows[UVIO_VERB_CREATE_CQ].write2,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ);
	assert_int_equal(uvio_verb_rows[UVIO_VERB_DEALLOC_PD].write, IB_USER_VERBS_CMD_DEALLOC_PD);
	assert_int_equal(uvio_verb_rows[UVIO_VERB_POLL_CQ].write, IB_USER_VERBS_CMD_POLL_CQ);
	assert_int_equal(uvio_verb_rows[UVIO_VERB_DESTROY_WQ].write,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_DESTROY_WQ);
}

static void one_row_each(void **state)
{
	(void)state;
	assert_true(UVIO_VERB__COUNT <= UVIO_VERB_SLOTS);
	for (unsigned int v = 0; v < UVIO_VERB__COUNT; v++) {
		const struct uvio_verb_row *r = &uvio_verb_rows[v];

		for (unsigned int w = 0; w < v; w++) {
			const struct uvio_verb_row *o = &uvio_verb_rows[w];

			if (!strcmp(o->name, r->name))
				fail_msg("verbs %u and %u: both named %s", w, v, r->name);
			if (r->object != UVIO_NO_IOCTL && o->object == r->object &&
			    o->method == r->method)
				fail_msg("%s and %s: one method", o->name, r->name);
			if (r->write != UVIO_NO_WRITE &&
			    (r->write == o->write || r->write == o->write2))
				fail_msg("%s and %s: one write() command", o->name, r->name);
			if (r->write2 != UVIO_NO_WRITE &&
			    (r->write2 == o->write || r->write2 == o->write2))
				fail_msg("%s and %s: one write() command", o->name, r->name);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_are_the_abi_names),
		cmocka_unit_test(writes_are_the_verbs),
		cmocka_unit_test(write_numbers),
		cmocka_unit_test(one_row_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
