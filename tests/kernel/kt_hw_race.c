// SPDX-License-Identifier: MIT
/*
 * kt_hw_race DEV [ROUNDS]: threads sharing one device handle of a hardware
 * driver's stand-in create, use and destroy objects the library's driver
 * half keeps memory for, as fast as they can, so that the kernel hands a
 * handle just destroyed by one thread to another thread's create.
 *
 * Four threads, each ROUNDS rounds (default 3000) of: a CQ; a QP on it
 * (RC, or UD on efa; none on mana, whose raw QPs need a WQ table); an SRQ
 * where the driver has them; an MR; each destroyed again. Each thread asks
 * where its CQ's and QP's queues lie (uvio_hw_query_object), writes a mark
 * of its own into the first queue in the process's memory, and asks again
 * before the destroy: the same regions, its mark still there. A destroy
 * whose record removal took another thread's record (the library's bug
 * before the layer took records out first) shows as a region moved,
 * unmapped (a crash) or overwritten. Prints the rounds done and the wrong
 * answers seen; exit 0 when there were none and every verb succeeded.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <uvio.h>
#include <uvio/hw.h>

#define THREADS 4

static struct uvio_device *dev;
static uint32_t pd;
static unsigned int rounds = 3000;
static uint32_t qp_type;		/* 0: no QP */
static bool has_srq;
static _Atomic unsigned long done_rounds, wrong, failed;

static void verb_failed(const char *what, int ret)
{
	if (atomic_fetch_add(&failed, 1) < 10)
		printf("  %s: %d (%s)\n", what, ret, uvio_last_error());
}

/* Where the library says an object's queues lie. */
static bool where(uint16_t object, uint32_t handle, struct uvio_hw_object *o)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	return uvio_hw_query_object(dev, object, handle, o) == 0;
}

/* The first region in the process's memory (the device's may be read-only
 * mappings), or NULL. */
static void *own_memory(const struct uvio_hw_object *o)
{
	for (uint32_t i = 0; i < o->nregions; i++)
		if (!(o->regions[i].flags & UVIO_HW_MEM_OF_DEVICE) && o->regions[i].len >= 4)
			return o->regions[i].addr;
	return NULL;
}

static void mark_it(uint16_t object, uint32_t handle, struct uvio_hw_object *o, uint32_t mark)
{
	void *p;

	if (!where(object, handle, o) || !o->nregions) {
		if (atomic_fetch_add(&wrong, 1) < 10)
			printf("  wrong answer: object %u handle %u: no regions (%s)\n", object,
			       handle, uvio_last_error());
		return;
	}
	if ((p = own_memory(o)))
		memcpy(p, &mark, sizeof(mark));
}

static void check_same(const char *what, uint16_t object, uint32_t handle,
		       const struct uvio_hw_object *was, uint32_t mark)
{
	struct uvio_hw_object now;
	void *p = own_memory(was);

	if (!where(object, handle, &now) || now.nregions != was->nregions ||
	    memcmp(now.regions, was->regions, sizeof(now.regions)) ||
	    (p && memcmp(p, &mark, sizeof(mark)))) {
		if (atomic_fetch_add(&wrong, 1) < 10)
			printf("  wrong answer: %s %u: region %p (%llu bytes) became %p\n", what,
			       handle, was->regions[0].addr,
			       (unsigned long long)was->regions[0].len, now.regions[0].addr);
	}
}

static void *racer(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;
	size_t len = 4096;
	void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED)
		return NULL;
	for (unsigned int r = 0; r < rounds; r++) {
		/* sizes differ by thread, so that a moved buffer shows */
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8u << id);
		UVIO_OPTS(uvio_cq, cq);
		UVIO_OPTS(uvio_qp, qp);
		UVIO_OPTS(uvio_srq, srq);
		UVIO_OPTS(uvio_mr, mr);
		struct uvio_hw_object cqo, qpo;
		uint32_t mark = (id << 24) | (r & 0xffffff);
		bool have_qp = false, have_srq = false;
		int ret;

		ret = uvio_create_cq(dev, &ca, NULL, &cq, NULL);
		if (ret) {
			verb_failed("CQ.CREATE", ret);
			continue;
		}
		mark_it(UVERBS_OBJECT_CQ, cq.handle, &cqo, mark);
		if (qp_type) {
			UVIO_OPTS(uvio_qp_init_attr, qa, .type = qp_type, .pd_handle = pd,
				  .send_cq_handle = cq.handle, .recv_cq_handle = cq.handle,
				  .cap = { .max_send_wr = 4u << id, .max_recv_wr = 4, .max_send_sge = 1,
					   .max_recv_sge = 1 });

			ret = uvio_create_qp(dev, &qa, NULL, &qp, NULL);
			if (ret)
				verb_failed("QP.CREATE", ret);
			have_qp = !ret;
			if (have_qp)
				mark_it(UVERBS_OBJECT_QP, qp.handle, &qpo, mark);
		}
		if (has_srq) {
			UVIO_OPTS(uvio_srq_attr, sa, .pd_handle = pd, .max_wr = 4u << id, .max_sge = 1);

			ret = uvio_create_srq(dev, &sa, NULL, &srq, NULL);
			if (ret)
				verb_failed("SRQ.CREATE", ret);
			have_srq = !ret;
		}
		{
			UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = pd, .addr = mem, .length = len,
				  .iova = (uintptr_t)mem, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);

			ret = uvio_reg_mr(dev, &ma, NULL, &mr, NULL);
			if (ret)
				verb_failed("MR.REG", ret);
			else if ((ret = uvio_dereg_mr(dev, mr.handle, NULL)))
				verb_failed("MR.DEREG", ret);
		}
		if (have_srq && (ret = uvio_destroy_srq(dev, srq.handle, NULL, NULL)))
			verb_failed("SRQ.DESTROY", ret);
		if (have_qp) {
			check_same("QP", UVERBS_OBJECT_QP, qp.handle, &qpo, mark);
			if ((ret = uvio_destroy_qp(dev, qp.handle, NULL, NULL)))
				verb_failed("QP.DESTROY", ret);
		}
		check_same("CQ", UVERBS_OBJECT_CQ, cq.handle, &cqo, mark);
		if ((ret = uvio_destroy_cq(dev, cq.handle, NULL, NULL)))
			verb_failed("CQ.DESTROY", ret);
		atomic_fetch_add(&done_rounds, 1);
	}
	munmap(mem, len);
	return NULL;
}

int main(int argc, char **argv)
{
	UVIO_OPTS(uvio_context, ctx);
	pthread_t t[THREADS];
	uint32_t drv;
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DEVICE [ROUNDS]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		rounds = (unsigned int)strtoul(argv[2], NULL, 10);
	ret = uvio_device_open(argv[1], &dev);
	if (!ret)
		ret = uvio_get_context(dev, NULL, &ctx, NULL);
	if (!ret)
		ret = uvio_alloc_pd(dev, NULL, &pd, NULL);
	if (ret) {
		printf("FAIL %s: %d (%s)\n", argv[1], ret, uvio_last_error());
		return 1;
	}
	drv = uvio_device_driver_id(dev);
	switch (drv) {
	case RDMA_DRIVER_MLX5:
	case RDMA_DRIVER_MLX4:
	case RDMA_DRIVER_BNXT_RE:
		qp_type = IB_UVERBS_QPT_RC;
		has_srq = true;
		break;
	case RDMA_DRIVER_I40IW:		/* irdma */
		qp_type = IB_UVERBS_QPT_RC;
		break;
	case RDMA_DRIVER_EFA:
		qp_type = IB_UVERBS_QPT_UD;
		break;
	default:			/* mana: CQs and MRs */
		break;
	}
	for (uintptr_t i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, racer, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("%u threads x %u rounds on %s: %lu rounds done, %s%s%s, %lu wrong answers, "
	       "%lu verbs failed\n", THREADS, rounds, argv[1], (unsigned long)done_rounds,
	       qp_type ? "CQ, QP" : "CQ", has_srq ? ", SRQ" : "", ", MR",
	       (unsigned long)wrong, (unsigned long)failed);
	ret = uvio_dealloc_pd(dev, pd, NULL);
	uvio_device_close(dev);
	return wrong || failed || ret || done_rounds != (unsigned long)THREADS * rounds ? 1 : 0;
}
