/*
 * Cost of building a CQ CREATE command with its 9 attributes on the stack:
 * nanoseconds per build, and heap allocations during the builds (counted by
 * wrapping malloc and friends in this program). Run under
 *   valgrind --tool=callgrind --toggle-collect=build_cq_create
 * for instructions per build (bench/build-cost.sh does both).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <uvio/cmd.h>

static unsigned long allocations;

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *malloc(size_t n) { allocations++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { allocations++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { allocations++; return __libc_realloc(p, n); }

struct cq_out {
	uint32_t resp_cqe;
	uint8_t uhw_in[8];
	uint64_t uhw_out[2];
};

/* What a verb does before the syscall: the command on the stack, 9 attrs. */
__attribute__((noinline))
int build_cq_create(uint32_t driver_id, int channel_fd, struct cq_out *o);
__attribute__((noinline))
int build_cq_create(uint32_t driver_id, int channel_fd, struct cq_out *o)
{
	UVIO_CMD_DEFINE(cmd, 9, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE);
	uvio_cmd_set_driver_id(&cmd, driver_id);
	uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, 256);
	uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, (uintptr_t)o);
	uvio_put_fd(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, channel_fd);
	uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0);
	uvio_attr_optional(uvio_put_flags(&cmd, UVERBS_ATTR_CREATE_CQ_FLAGS, 0));
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &o->resp_cqe, sizeof(o->resp_cqe));
	uvio_put_uhw_in(&cmd, o->uhw_in, sizeof(o->uhw_in));
	uvio_put_uhw_out(&cmd, o->uhw_out, sizeof(o->uhw_out));
	/* Keep the compiler from discarding the built command. */
	__asm__ volatile("" : : "r"(cmd_buf) : "memory");
	return uvio_cmd_error(&cmd) ? uvio_cmd_error(&cmd) : cmd.num_attrs;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 10000000;
	struct cq_out o = { 0 };
	struct timespec t0, t1;
	unsigned long before;
	long sum = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	before = allocations;
	for (long i = 0; i < rounds; i++)
		sum += build_cq_create(14, 5, &o);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	before = allocations - before;
	if (sum != 9 * rounds) {
		fprintf(stderr, "build failed: %ld\n", sum);
		return 1;
	}
	double ns = ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / rounds;
	printf("builds %ld  ns/build %.1f  heap allocations during builds %lu\n",
	       rounds, ns, before);
	return before ? 1 : 0;
}
