/*
 * Sized input structs made the ways the documentation shows (UVIO_OPTS, and
 * a plain designated initializer), on a stack full of old bytes: every byte
 * after the last field the library knows must read zero, since the library
 * refuses non-zero bytes there (-E2BIG, "a field this library does not
 * know"). Built by opts-padding.sh with gcc and clang at -O0 and -O2: clang
 * at -O0 copied a compound literal's tail padding, garbage, into UVIO_OPTS's
 * struct, and uvio_reg_mr refused it.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <uvio.h>

static int bad;

__attribute__((noinline)) static void dirty(void)
{
	volatile unsigned char junk[2048];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0xa5;
}

static void zero_after(const char *name, const void *p, size_t known, size_t size)
{
	const unsigned char *b = p;

	for (size_t i = known; i < size; i++)
		if (b[i]) {
			printf("%s: byte %zu (after the field the library knows last, at %zu) "
			       "is 0x%02x\n", name, i, known, b[i]);
			bad = 1;
			return;
		}
}

#define END(type, field) (offsetof(struct type, field) + sizeof(((struct type *)0)->field))
/* Each struct and the last field the library checks it by (lib/verbs/). */
#define CASE(type, field, ...)                                                         \
	__attribute__((noinline)) static void opts_##type(void)                         \
	{                                                                              \
		UVIO_OPTS(type, a, __VA_ARGS__);                                        \
		zero_after("UVIO_OPTS " #type, &a, END(type, field), sizeof(a));        \
	}                                                                              \
	__attribute__((noinline)) static void init_##type(void)                         \
	{                                                                              \
		struct type a = { .sz = sizeof(struct type), __VA_ARGS__ };            \
		zero_after("initializer " #type, &a, END(type, field), sizeof(a));      \
	}
CASE(uvio_mr_attr, access, .pd_handle = 1, .length = 64, .access = 1)
CASE(uvio_dm_attr, log_align, .length = 64)
CASE(uvio_dm_mr_attr, access, .pd_handle = 1, .length = 64, .access = 1)
CASE(uvio_dmabuf_mr_attr, access, .pd_handle = 1, .fd = 3, .access = 1)
CASE(uvio_open_qp_attr, type, .qp_num = 7, .type = 9)
CASE(uvio_qp_attr, rate_limit, .attr_mask = 1, .qp_state = 1)
CASE(uvio_srq_modify, srq_limit, .attr_mask = 2, .srq_limit = 4)
CASE(uvio_wq_modify, flags_mask, .attr_mask = 1)

int main(void)
{
	void (*const each[])(void) = {
		opts_uvio_mr_attr, init_uvio_mr_attr, opts_uvio_dm_attr, init_uvio_dm_attr,
		opts_uvio_dm_mr_attr, init_uvio_dm_mr_attr, opts_uvio_dmabuf_mr_attr,
		init_uvio_dmabuf_mr_attr, opts_uvio_open_qp_attr, init_uvio_open_qp_attr,
		opts_uvio_qp_attr, init_uvio_qp_attr, opts_uvio_srq_modify,
		init_uvio_srq_modify, opts_uvio_wq_modify, init_uvio_wq_modify,
	};

	for (size_t i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
		dirty();
		each[i]();
	}
	printf("opts_padding: %s\n", bad ? "garbage after a known field" : "all zero");
	return bad;
}
