/*
 * The object verbs beyond QPs on the real kernel (SRQ, XRCD, AH, MW, MR
 * extras, DM, CQ extras, WQ, RWQ indirection tables, flows, flow actions,
 * counters), on each device, three ways as in kt_verbs.c:
 *   ioctl  - the path the library picks: the native method, else the write()
 *            command carried by INVOKE_WRITE;
 *   write  - pinned with UVERBS_IOCTL_PATH=write;
 *   filter - a seccomp filter makes the verbs ioctl answer ENOTTY and the
 *            library falls back to write() by itself.
 * For every verb the test states what the kernel answers on each device
 * (measured on rxe and siw, Linux 5.10, 6.1, 6.12 and 7.2; 5.10 differs where
 * noted) and checks the result, the
 * path reported, the syscalls spent (one per verb once the device and the
 * verb are known), and for failures that uvio_last_error() names the verb,
 * the path and the errno's meaning. `rdma resource show` witnesses the
 * objects it lists (srq, mr, cq, pd); uvio_probe_method() on a second fd
 * witnesses which native methods the kernel lacks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uvio.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include "kt.h"
#include "syscount.h"
#include "abi/uapi.h"	/* uverbs ids older headers lack */

enum mode { M_IOCTL, M_WRITE, M_FILTER };
static const char *const mode_name[] = { "ioctl", "write", "filter" };

/* Encodings the kernel defines for a verb. */
enum { N = 1, W = 2 };

struct ctx {
	enum mode m;
	const struct uvio_device_info *info;
	bool siw;
	bool rxe_rereg;		/* rxe changes access flags from 6.12 (not in 6.1) */
	bool mw;		/* memory windows: rxe from 6.1 (not 5.10), never siw */
	bool k5_10;		/* Linux 5.10, whose answers differ where noted */
	struct uvio_device *dev;
	int pid;
	/* verbs whose native method answered EPROTONOSUPPORT already */
	const char *missing_seen[64];
	int n_missing_seen;
};

static long syscalls(void)
{
	return syscount_ioctls + syscount_writes;
}

static bool seen_before(struct ctx *c, const char *verb)
{
	for (int i = 0; i < c->n_missing_seen; i++)
		if (!strcmp(c->missing_seen[i], verb))
			return true;
	if (c->n_missing_seen < 64)
		c->missing_seen[c->n_missing_seen++] = verb;
	return false;
}

/*
 * Check one verb's outcome. has: N and/or W. missing: the device's kernel
 * lacks the native method (EPROTONOSUPPORT). kern: what the kernel answers
 * on the encoding that carries the verb on this device (0 for success).
 */
static void expect(struct ctx *c, const char *verb, int got, enum uvio_path p, long sys0,
		   unsigned int has, bool missing, int kern)
{
	enum uvio_path want_p;
	int want = kern;
	long want_sys = 1, spent = syscalls() - sys0;

	if (c->m == M_IOCTL) {
		if ((has & N) && !missing) {
			want_p = UVIO_PATH_IOCTL;
		} else if (has & W) {
			want_p = UVIO_PATH_INVOKE_WRITE;
			/* The refused method, once, then INVOKE_WRITE. */
			if ((has & N) && !seen_before(c, verb))
				want_sys = 2;
		} else {
			/* No other encoding: the library says the verb cannot
			 * run here after the one EPROTONOSUPPORT. */
			want_p = UVIO_PATH_IOCTL;
			want = -EOPNOTSUPP;
			want_sys = seen_before(c, verb) ? 0 : 1;
		}
	} else {
		want_p = UVIO_PATH_WRITE;
		if (!(has & W)) {
			want = -EOPNOTSUPP;	/* no write() command exists */
			want_sys = 0;
		}
	}
	printf("  %-26s %-6s %-12s %-15s %ld syscall(s)\n", verb, c->info->name,
	       uvio_path_name(p), got ? uvio_errno_name(got) : "ok", spent);
	KT_CHECK(got == want, "%s on %s (%s): %s, expected %s", verb, c->info->name,
		 mode_name[c->m], got ? uvio_errno_name(got) : "0",
		 want ? uvio_errno_name(want) : "0");
	KT_CHECK(p == want_p, "%s ran over %s, expected %s", verb, uvio_path_name(p),
		 uvio_path_name(want_p));
	KT_CHECK(spent == want_sys, "%s took %ld syscalls, expected %ld", verb, spent, want_sys);
	if (got) {
		const char *e = uvio_last_error();

		KT_CHECK(strstr(e, verb) && strstr(e, uvio_path_name(p)) &&
			 strstr(e, uvio_errno_name(got)) &&
			 strstr(e, uvio_errno_meaning(got, p)),
			 "last error does not name %s, %s and the meaning of %s: %s", verb,
			 uvio_path_name(p), uvio_errno_name(got), e);
	}
}

#define RUN(c, verb, has, missing, kern, call)                                 \
	do {                                                                   \
		enum uvio_path p_ = UVIO_PATH_AUTO;                            \
		long s0_ = syscalls();                                         \
		int r_ = (call);                                               \
		expect(c, verb, r_, p_, s0_, has, missing, kern);              \
	} while (0)
#define P (&p_)
#define RET (r_)

static int srq_count(struct ctx *c)
{
	return kt_rdma_res_count("srq", c->info->name, c->pid);
}

static void srq_verbs(struct ctx *c, uint32_t pd, uint32_t cq, int async_fd)
{
	UVIO_OPTS(uvio_srq_attr, attr, .pd_handle = pd, .user_handle = 0x5151, .max_wr = 16,
		  .max_sge = 1);
	UVIO_OPTS(uvio_srq, srq);
	UVIO_OPTS(uvio_srq_state, st);
	uint32_t xrcd = 0;
	struct uvio_events_reported events = { .sz = sizeof(events), 99, 99 };
	/* rxe's MODIFY_SRQ wants struct rxe_modify_srq_cmd (the address where
	 * it writes the new ring's mmap info when resizing); siw takes none. */
	uint64_t mminfo[2] = { 0 }, rxe_cmd = (uintptr_t)mminfo;
	UVIO_OPTS(uvio_drv, rxe_drv, .in = &rxe_cmd, .in_len = sizeof(rxe_cmd));
	const struct uvio_drv *mdrv = c->siw ? NULL : &rxe_drv;

	RUN(c, "SRQ.CREATE", N | W, false, 0, uvio_create_srq(c->dev, &attr, NULL, &srq, P));
	KT_CHECK(srq.max_wr >= 16 && srq.max_sge >= 1, "srq max_wr %u max_sge %u", srq.max_wr,
		 srq.max_sge);
	KT_EQ(srq.srq_num, 0);		/* a basic SRQ has no number */
	/* 5.10's netlink lists no SRQs: `rdma resource show srq` is empty there */
	KT_EQ(kt_rdma_res_find("srq", c->info->name, c->pid, "type BASIC "),
	      kt_per_kernel(0, 1, 1, 1));

	UVIO_OPTS(uvio_srq_modify, lim, .attr_mask = UVIO_SRQ_LIMIT, .srq_limit = 4);
	RUN(c, "SRQ.MODIFY", W, false, 0, uvio_modify_srq(c->dev, srq.handle, &lim, mdrv, P));
	RUN(c, "SRQ.QUERY", W, false, 0, uvio_query_srq(c->dev, srq.handle, &st, P));
	KT_EQ(st.srq_limit, 4);
	KT_EQ(st.max_sge, srq.max_sge);
	KT_CHECK(st.max_wr >= 16, "max_wr %u", st.max_wr);
	/* Growing the ring: rxe does it (and reports the new ring in mminfo),
	 * siw refuses. */
	UVIO_OPTS(uvio_srq_modify, grow, .attr_mask = UVIO_SRQ_MAX_WR, .max_wr = 64);
	RUN(c, "SRQ.MODIFY", W, false, c->siw ? -EOPNOTSUPP : 0,
	    uvio_modify_srq(c->dev, srq.handle, &grow, mdrv, P));
	RUN(c, "SRQ.QUERY", W, false, 0, uvio_query_srq(c->dev, srq.handle, &st, P));
	if (!c->siw) {
		KT_CHECK(st.max_wr >= 64, "max_wr %u after growing", st.max_wr);
		KT_CHECK(mminfo[1] > 0, "rxe gave no mmap info for the new ring");
	}
	RUN(c, "SRQ.DESTROY", N | W, false, 0, uvio_destroy_srq(c->dev, srq.handle, &events, P));
	KT_EQ(events.async_events_reported, 0);
	KT_EQ(events.comp_events_reported, 0);
	KT_EQ(srq_count(c), 0);
	RUN(c, "SRQ.DESTROY", N | W, false, -ENOENT,
	    uvio_destroy_srq(c->dev, srq.handle, NULL, P));

	/* Its events on a given async fd: only the native method names one;
	 * write() refuses it before sending anything. */
	attr.event_fd = &async_fd;
	{
		enum uvio_path p;
		long s0 = syscalls();
		int ret = uvio_create_srq(c->dev, &attr, NULL, &srq, &p);

		KT_EQ(ret, c->m == M_IOCTL ? 0 : -EOPNOTSUPP);
		KT_EQ(p, c->m == M_IOCTL ? UVIO_PATH_IOCTL : UVIO_PATH_WRITE);
		KT_EQ(syscalls() - s0, c->m == M_IOCTL ? 1 : 0);
		KT_EQ(srq_count(c), c->m == M_IOCTL ? kt_per_kernel(0, 1, 1, 1) : 0);
		if (!ret)
			KT_EQ(uvio_destroy_srq(c->dev, srq.handle, NULL, NULL), 0);
	}
	/* a destroyed SRQ: 5.10 answers EINVAL, later kernels ENOENT */
	RUN(c, "SRQ.QUERY", W, false, kt_per_kernel(-EINVAL, -ENOENT, -ENOENT, -ENOENT),
	    uvio_query_srq(c->dev, srq.handle, &st, P));

	/* XRC and tag-matching SRQs: neither driver has them. XRC needs an
	 * XRCD, which neither can open; the kernel refuses the type itself. */
	RUN(c, "XRCD.OPEN", W, false, -EOPNOTSUPP,
	    uvio_open_xrcd(c->dev, -1, O_CREAT, NULL, &xrcd, P));
	RUN(c, "XRCD.DESTROY", N | W, true, -EOPNOTSUPP, uvio_close_xrcd(c->dev, 0, P));
	UVIO_OPTS(uvio_srq_attr, xattr, .type = IB_UVERBS_SRQT_XRC, .pd_handle = pd,
		  .max_wr = 16, .max_sge = 1, .xrcd_handle = 0, .cq_handle = cq);
	/* 5.10's write() command refuses the XRC type as unsupported */
	RUN(c, "SRQ.CREATE", N | W, false,
	    c->m != M_IOCTL && c->k5_10 ? -EOPNOTSUPP : -EINVAL,
	    uvio_create_srq(c->dev, &xattr, NULL, &srq, P));
	UVIO_OPTS(uvio_srq_attr, tattr, .type = IB_UVERBS_SRQT_TM, .pd_handle = pd,
		  .max_wr = 16, .max_sge = 1, .max_num_tags = 4, .cq_handle = cq);
	/* 5.10's native method does not look at the type and makes a basic SRQ */
	RUN(c, "SRQ.CREATE", N | W, false, c->m == M_IOCTL && c->k5_10 ? 0 : -EOPNOTSUPP,
	    uvio_create_srq(c->dev, &tattr, NULL, &srq, P));
	if (c->m == M_IOCTL && c->k5_10)
		KT_EQ(uvio_destroy_srq(c->dev, srq.handle, NULL, NULL), 0);
	KT_EQ(srq_count(c), 0);
}

static void ah_mw_verbs(struct ctx *c, uint32_t pd)
{
	/* RoCE v2 to 192.0.2.2 from the port's IPv4-mapped GID (index 1). */
	UVIO_OPTS(uvio_ah_attr, attr, .pd_handle = pd, .user_handle = 0xa4);
	static const uint8_t dgid[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, 2 };
	uint32_t ah = 0;
	UVIO_OPTS(uvio_mw, mw);

	memcpy(attr.av.dgid, dgid, sizeof(dgid));
	attr.av.sgid_index = 1;
	attr.av.hop_limit = 64;
	attr.av.is_global = 1;
	attr.av.port_num = 1;
	RUN(c, "AH.CREATE", W, false, c->siw ? -EOPNOTSUPP : 0,
	    uvio_create_ah(c->dev, &attr, NULL, &ah, P));
	RUN(c, "AH.DESTROY", N | W, c->siw, c->siw ? -EOPNOTSUPP : 0,
	    uvio_destroy_ah(c->dev, ah, P));
	if (!c->siw) {
		RUN(c, "AH.DESTROY", N | W, false, -ENOENT, uvio_destroy_ah(c->dev, ah, P));
		/* GID 0 is the link-local RoCE v1 one: rxe wants v2. */
		attr.av.sgid_index = 0;
		RUN(c, "AH.CREATE", W, false, -EINVAL, uvio_create_ah(c->dev, &attr, NULL, &ah, P));
	}

	for (uint8_t type = 1; type <= 2; type++) {
		UVIO_OPTS(uvio_mw_attr, ma, .pd_handle = pd, .type = type);

		RUN(c, "MW.ALLOC", W, false, c->mw ? 0 : -EOPNOTSUPP,
		    uvio_alloc_mw(c->dev, &ma, NULL, &mw, P));
		if (c->mw)
			KT_CHECK(mw.rkey != 0, "type %u window without rkey", type);
		RUN(c, "MW.DESTROY", N | W, !c->mw, c->mw ? 0 : -EOPNOTSUPP,
		    uvio_dealloc_mw(c->dev, mw.handle, P));
	}
	if (c->mw)
		RUN(c, "MW.DESTROY", N | W, false, -ENOENT, uvio_dealloc_mw(c->dev, mw.handle, P));
}

static void mr_verbs(struct ctx *c, uint32_t pd, const struct uvio_mr *mr, void *buf)
{
	UVIO_OPTS(uvio_mr_info, info);
	UVIO_OPTS(uvio_mr, keys);
	UVIO_OPTS(uvio_rereg_mr_attr, rr, .flags = UVIO_MR_REREG_ACCESS,
		  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ);
	struct ib_uverbs_sge sge = { .addr = (uintptr_t)buf, .length = 4096, .lkey = mr->lkey };
	uint32_t dm = 7;
	int nullfd = open("/dev/null", O_RDONLY);

	RUN(c, "MR.QUERY", N, false, 0, uvio_query_mr(c->dev, mr->handle, &info, P));
	if (c->m == M_IOCTL) {
		char want[64];

		KT_EQ(info.lkey, mr->lkey);
		KT_EQ(info.rkey, mr->rkey);
		KT_EQ(info.length, 65536);
		KT_EQ(info.iova, (uintptr_t)buf);
		/* The kernel's own list agrees. */
		snprintf(want, sizeof(want), "lkey 0x%x mrlen 65536 ", info.lkey);
		KT_EQ(kt_rdma_res_find("mr", c->info->name, c->pid, want), 1);
	}
	/* Neither driver advises or takes dma-bufs; siw does not re-register,
	 * rxe changes the access flags from 6.12 on. */
	RUN(c, "MR.REREG", W, false, c->rxe_rereg ? 0 : -EOPNOTSUPP,
	    uvio_rereg_mr(c->dev, mr->handle, &rr, NULL, &keys, P));
	if (c->rxe_rereg) {
		KT_EQ(keys.handle, mr->handle);
		RUN(c, "MR.QUERY", N, false, 0, uvio_query_mr(c->dev, mr->handle, &info, P));
		if (c->m == M_IOCTL) {
			KT_EQ(info.lkey, keys.lkey);
			KT_EQ(info.rkey, keys.rkey);
		}
	}
	/* Before 7.2, and on siw, the driver has no advise_mr. 7.2's rxe has
	 * one (for ODP) that treats this MR, which is not ODP, as ODP: in CI
	 * it answered EFAULT once and oopsed the kernel once (get_pid_task
	 * from ib_umem_odp_map_dma_and_lock). There an SGE naming no MR goes
	 * instead, which the driver refuses before touching any umem. */
	struct ib_uverbs_sge no_mr = { .addr = (uintptr_t)buf, .length = 4096,
				       .lkey = mr->lkey ^ 0xffffff00u };
	bool odp_advise = !c->siw && kt_per_kernel(0, 0, 0, 1);

	RUN(c, "MR.ADVISE", N, false,
	    c->siw ? -EOPNOTSUPP : kt_per_kernel(-EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP, -EINVAL),
	    uvio_advise_mr(c->dev, pd, IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH,
			   IB_UVERBS_ADVISE_MR_FLAG_FLUSH, odp_advise ? &no_mr : &sge, 1, P));
	UVIO_OPTS(uvio_dmabuf_mr_attr, dattr, .pd_handle = pd, .fd = nullfd, .length = 4096,
		  .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	RUN(c, "MR.REG_DMABUF", N, false, -EOPNOTSUPP,
	    uvio_reg_dmabuf_mr(c->dev, &dattr, NULL, &keys, P));
	/* No device memory on either: the DM object is not there at all. */
	UVIO_OPTS(uvio_dm_attr, da, .length = 4096, .log_align = 6);
	RUN(c, "DM.ALLOC", N, true, 0, uvio_alloc_dm(c->dev, &da, NULL, &dm, P));
	RUN(c, "DM.FREE", N, true, 0, uvio_free_dm(c->dev, dm, P));
	UVIO_OPTS(uvio_dm_mr_attr, dma, .pd_handle = pd, .dm_handle = dm, .length = 4096,
		  .access = IB_UVERBS_ACCESS_ZERO_BASED | IB_UVERBS_ACCESS_LOCAL_WRITE);
	RUN(c, "MR.DM_REG", N, true, 0, uvio_reg_dm_mr(c->dev, &dma, NULL, &keys, P));
	RUN(c, "DM.ALLOC", N, true, 0, uvio_alloc_dm(c->dev, &da, NULL, &dm, P));
	KT_EQ(kt_rdma_res_count("mr", c->info->name, c->pid), 1);
	close(nullfd);
}

static void cq_verbs(struct ctx *c, uint32_t cq)
{
	UVIO_OPTS(uvio_cq_attr, fattr, .cqe = 16);
	UVIO_OPTS(uvio_cq, fcq);
	UVIO_OPTS(uvio_cq_resize_attr, rattr, .cq_handle = cq, .cqe = 100);
	UVIO_OPTS(uvio_cq, resized);
	UVIO_OPTS(uvio_cq_moderation, mod, .cq_handle = cq, .count = 8, .period = 10);
	char want[32];

	RUN(c, "CQ.RESIZE", W, false, c->siw ? -EOPNOTSUPP : 0,
	    uvio_resize_cq(c->dev, &rattr, NULL, &resized, P));
	if (!c->siw) {
		KT_EQ(resized.handle, cq);
		KT_EQ(resized.cqe, 127);	/* rxe rounds to a power of two, less one */
		snprintf(want, sizeof(want), "cqe %u ", resized.cqe);
		KT_EQ(kt_rdma_res_find("cq", c->info->name, c->pid, want), 1);
	}
	RUN(c, "CQ.MODIFY", W, false, -EOPNOTSUPP, uvio_modify_cq(c->dev, &mod, P));
	/* The extended create flags reach the kernel on every path (write()
	 * sends EX_CREATE_CQ), which refuses both with these drivers. */
	for (int i = 0; i < 2; i++) {
		/* 5.10's native method passes the flags to the driver: rxe
		 * answers EINVAL, siw ignores them and makes the CQ. */
		int k = c->m == M_IOCTL && c->k5_10 ? (c->siw ? 0 : -EINVAL) : -EOPNOTSUPP;

		fattr.flags = i ? IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN :
				  IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;
		RUN(c, "CQ.CREATE", N | W, false, k, uvio_create_cq(c->dev, &fattr, NULL, &fcq, P));
		if (k == 0)
			KT_EQ(uvio_destroy_cq(c->dev, fcq.handle, NULL, NULL), 0);
	}
	if (c->m == M_IOCTL) {
		/* Pinned to INVOKE_WRITE the flags travel as EX_CREATE_CQ over
		 * the ioctl, refused the same way. (That the command carries
		 * the extended flag, these drivers cannot show: test_objects
		 * checks the bytes.) */
		KT_EQ(uvio_device_set_path(c->dev, UVIO_PATH_INVOKE_WRITE), 0);
		RUN(c, "CQ.CREATE", W, false, -EOPNOTSUPP,
		    uvio_create_cq(c->dev, &fattr, NULL, &fcq, P));
		KT_EQ(uvio_device_set_path(c->dev, UVIO_PATH_AUTO), 0);
	}
}

/* The running kernel's version as major * 1000 + minor. */
static int kernel_version(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

/* WQs, RWQ indirection tables, flow rules with a counters action, ESP flow
 * actions, counters: neither driver has any. The kernel drops the native
 * methods (EPROTONOSUPPORT) and answers the write() commands EOPNOTSUPP. */
static void steering_verbs(struct ctx *c, uint32_t pd, uint32_t cq)
{
	UVIO_OPTS(uvio_wq_attr, wattr, .type = IB_UVERBS_WQT_RQ, .pd_handle = pd,
		  .cq_handle = cq, .max_wr = 16, .max_sge = 1);
	UVIO_OPTS(uvio_wq, wq);
	UVIO_OPTS(uvio_wq_modify, wmod, .attr_mask = UVIO_WQ_STATE, .state = 1);
	UVIO_OPTS(uvio_rwq_ind_table, tbl);
	uint32_t wqs[2] = { 0, 0 }, flow = 0, counters = 0, action = 0;
	uint64_t values[2];
	/* A rule on the port with one counters action: the kernel's
	 * struct ib_uverbs_flow_attr and one spec after it. */
	struct {
		struct ib_uverbs_flow_attr attr;
		struct ib_uverbs_flow_spec_action_count count;
	} rule = {
		.attr = { .size = sizeof(rule), .num_of_specs = 1, .port = 1 },
		.count = { .hdr = { .type = UVIO_FLOW_SPEC_ACTION_COUNT,
				    .size = sizeof(rule.count) } },
	};
	struct ib_uverbs_flow_action_esp esp = { .spi = 1 };
	struct ib_uverbs_flow_action_esp_keymat_aes_gcm key = { .icv_len = 16, .key_len = 16 };
	UVIO_OPTS(uvio_flow_action_esp_attr, eattr, .esp = &esp, .keymat = &key);

	RUN(c, "WQ.CREATE", N | W, true, -EOPNOTSUPP, uvio_create_wq(c->dev, &wattr, NULL, &wq, P));
	RUN(c, "WQ.MODIFY", W, false, -EOPNOTSUPP, uvio_modify_wq(c->dev, 0, &wmod, NULL, P));
	RUN(c, "WQ.DESTROY", N | W, true, -EOPNOTSUPP, uvio_destroy_wq(c->dev, 0, NULL, P));
	RUN(c, "WQ.CREATE", N | W, true, -EOPNOTSUPP, uvio_create_wq(c->dev, &wattr, NULL, &wq, P));
	RUN(c, "RWQ_IND_TBL.CREATE", W, false, -EOPNOTSUPP,
	    uvio_create_rwq_ind_table(c->dev, 1, wqs, &tbl, P));
	RUN(c, "RWQ_IND_TBL.DESTROY", N | W, true, -EOPNOTSUPP,
	    uvio_destroy_rwq_ind_table(c->dev, 0, P));
	RUN(c, "COUNTERS.CREATE", N, true, 0, uvio_create_counters(c->dev, NULL, &counters, P));
	rule.count.handle = counters;
	RUN(c, "FLOW.CREATE", W, false, -EOPNOTSUPP,
	    uvio_create_flow(c->dev, 0, &rule.attr, sizeof(rule), NULL, &flow, P));
	RUN(c, "COUNTERS.READ", N, true, 0,
	    uvio_read_counters(c->dev, counters, values, 2, 0, P));
	RUN(c, "FLOW.DESTROY", N | W, true, -EOPNOTSUPP, uvio_destroy_flow(c->dev, flow, P));
	RUN(c, "COUNTERS.DESTROY", N, true, 0, uvio_destroy_counters(c->dev, counters, P));
	RUN(c, "FLOW_ACTION.ESP_CREATE", N, true, 0,
	    uvio_create_flow_action_esp(c->dev, &eattr, NULL, &action, P));
	RUN(c, "FLOW_ACTION.ESP_MODIFY", N, true, 0,
	    uvio_modify_flow_action_esp(c->dev, action, &eattr, NULL, P));
	RUN(c, "FLOW_ACTION.DESTROY", N, true, 0, uvio_destroy_flow_action(c->dev, action, P));
}

static void all_verbs(const struct uvio_device_info *info, enum mode m)
{
	struct ctx c = { .m = m, .info = info, .siw = !strncmp(info->name, "siw", 3),
			 .pid = getpid() };
	UVIO_OPTS(uvio_context, uctx);
	UVIO_OPTS(uvio_cq, cq);
	UVIO_OPTS(uvio_cq_attr, cq_attr, .cqe = 16);
	UVIO_OPTS(uvio_mr, mr);
	uint64_t siw_req = 0, siw_resp = 0;
	UVIO_OPTS(uvio_drv, siw_drv, .in = &siw_req, .in_len = sizeof(siw_req),
		  .out = &siw_resp, .out_len = sizeof(siw_resp));
	uint32_t pd;
	void *buf;

	c.rxe_rereg = !c.siw && kernel_version() >= 6012;
	c.mw = !c.siw && kt_kernel_ge(6, 1);
	c.k5_10 = !kt_kernel_ge(6, 1);
	if (m == M_WRITE)
		setenv("UVERBS_IOCTL_PATH", "write", 1);
	if (m == M_FILTER)
		KT_EQ(kt_filter_verbs_ioctl(), 0);
	KT_EQ(uvio_device_open(info->name, &c.dev), 0);
	if (!c.dev)
		return;
	syscount_fd = uvio_device_fd(c.dev);
	KT_EQ(uvio_get_context(c.dev, NULL, &uctx, NULL), 0);
	KT_EQ(uvio_alloc_pd(c.dev, NULL, &pd, NULL), 0);
	KT_EQ(uvio_create_cq(c.dev, &cq_attr, NULL, &cq, NULL), 0);
	buf = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	UVIO_OPTS(uvio_mr_attr, mr_attr, .pd_handle = pd, .addr = buf, .length = 65536,
		  .iova = (uintptr_t)buf, .access = IB_UVERBS_ACCESS_LOCAL_WRITE);
	KT_EQ(uvio_reg_mr(c.dev, &mr_attr, c.siw ? &siw_drv : NULL, &mr, NULL), 0);
	KT_EQ(uvio_device_path(c.dev), m == M_IOCTL ? UVIO_PATH_IOCTL : UVIO_PATH_WRITE);

	srq_verbs(&c, pd, cq.handle, uctx.async_fd);
	ah_mw_verbs(&c, pd);
	mr_verbs(&c, pd, &mr, buf);
	cq_verbs(&c, cq.handle);
	steering_verbs(&c, pd, cq.handle);

	KT_EQ(uvio_dereg_mr(c.dev, mr.handle, NULL), 0);
	KT_EQ(uvio_destroy_cq(c.dev, cq.handle, NULL, NULL), 0);
	KT_EQ(uvio_dealloc_pd(c.dev, pd, NULL), 0);
	KT_EQ(kt_rdma_res_count("pd", info->name, c.pid), 0);
	KT_EQ(kt_rdma_res_count("mr", info->name, c.pid), 0);
	KT_EQ(kt_rdma_res_count("cq", info->name, c.pid), 0);
	close(uctx.async_fd);
	munmap(buf, 65536);
	uvio_device_close(c.dev);
}

/* What the kernel itself says of the native methods that the verbs above
 * find missing: EPROTONOSUPPORT (probe 0) on a fresh fd. */
static void probe_methods(const struct uvio_device_info *info)
{
	static const struct {
		uint16_t object, method;
		bool on_rxe, on_siw;
	} m[] = {
		{ UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_CREATE, true, true },
		{ UVERBS_OBJECT_SRQ, UVERBS_METHOD_SRQ_DESTROY, true, true },
		{ UVERBS_OBJECT_XRCD, UVERBS_METHOD_XRCD_DESTROY, false, false },
		{ UVERBS_OBJECT_AH, UVERBS_METHOD_AH_DESTROY, true, false },
		{ UVERBS_OBJECT_MW, UVERBS_METHOD_MW_DESTROY, true, false },
		{ UVERBS_OBJECT_MR, UVERBS_METHOD_QUERY_MR, true, true },
		{ UVERBS_OBJECT_MR, UVERBS_METHOD_ADVISE_MR, true, true },
		{ UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, true, true },
		{ UVERBS_OBJECT_MR, UVERBS_METHOD_DM_MR_REG, false, false },
		{ UVERBS_OBJECT_DM, UVERBS_METHOD_DM_ALLOC, false, false },
		{ UVERBS_OBJECT_DM, UVERBS_METHOD_DM_FREE, false, false },
		{ UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_CREATE, false, false },
		{ UVERBS_OBJECT_WQ, UVERBS_METHOD_WQ_DESTROY, false, false },
		{ UVERBS_OBJECT_RWQ_IND_TBL, UVERBS_METHOD_RWQ_IND_TBL_DESTROY, false, false },
		{ UVERBS_OBJECT_FLOW, UVERBS_METHOD_FLOW_DESTROY, false, false },
		{ UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_CREATE, false, false },
		{ UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY, false, false },
		{ UVERBS_OBJECT_FLOW_ACTION, UVERBS_METHOD_FLOW_ACTION_DESTROY, false, false },
		{ UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_CREATE, false, false },
		{ UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_DESTROY, false, false },
		{ UVERBS_OBJECT_COUNTERS, UVERBS_METHOD_COUNTERS_READ, false, false },
	};
	int fd = open(info->path, O_RDWR | O_CLOEXEC);

	KT_CHECK(fd >= 0, "open %s", info->path);
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		bool want = !strncmp(info->name, "siw", 3) ? m[i].on_siw : m[i].on_rxe;

		/* 5.10: no dma-buf MRs, and rxe had no memory windows yet */
		if (!kt_kernel_ge(6, 1) && ((m[i].object == UVERBS_OBJECT_MR &&
					     m[i].method == UVERBS_METHOD_REG_DMABUF_MR) ||
					    m[i].object == UVERBS_OBJECT_MW))
			want = false;
		int got = uvio_probe_method(fd, info->driver_id, m[i].object, m[i].method);

		KT_CHECK(got == want, "%s: %s.%s: probe %d, expected %d", info->name,
			 uvio_object_name(m[i].object),
			 uvio_method_name(m[i].object, m[i].method), got, want);
	}
	close(fd);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device listed: %d", n);
	for (int i = 0; i < n && i < 8; i++) {
		printf("device %s\n", devs[i].name);
		probe_methods(&devs[i]);
		for (int m = M_IOCTL; m <= M_FILTER; m++) {
			pid_t pid;
			int status;

			fflush(stdout);
			pid = fork();
			if (pid == 0) {
				kt_failures = 0;
				printf(" %s:\n", mode_name[m]);
				all_verbs(&devs[i], (enum mode)m);
				fflush(stdout);
				_exit(kt_failures ? 1 : 0);
			}
			waitpid(pid, &status, 0);
			KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				 "%s on %s failed", mode_name[m], devs[i].name);
			/* the child's objects went with its fds */
			KT_EQ(kt_rdma_res_count("srq", devs[i].name, pid), 0);
			KT_EQ(kt_rdma_res_count("mr", devs[i].name, pid), 0);
		}
	}
	return kt_exit();
}
