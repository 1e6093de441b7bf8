/*
 * QP verbs on the real kernel, on each device, three ways (as kt_verbs):
 *   ioctl  - the path the library picks: QP.CREATE and QP.DESTROY by their
 *            native methods, the write() commands through INVOKE_WRITE;
 *   write  - pinned with uvio_device_set_path(UVIO_PATH_WRITE);
 *   filter - a seccomp filter answers ENOTTY to the verbs ioctl and the
 *            library falls back to write() by itself.
 * Every verb is counted: exactly one syscall, of the kind its reported path
 * says. `rdma resource show qp` is the witness of what the kernel holds.
 * On rxe two RC QPs are brought to RTS against each other with a RoCE v2
 * address, and queried back. The data-path commands run on a QP in RESET
 * and (rxe) in RTS: the doorbell, and what each driver leaves disabled.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uvio.h>
#include "kt.h"
#include "syscount.h"

#ifndef RXE_DOORBELL_RESET_ERRNO
#define RXE_DOORBELL_RESET_ERRNO (-EINVAL)
#endif
/* A doorbell on a QP that cannot send yet. */
#define DOORBELL_RESET_ERRNO (siw ? -ENOTCONN : RXE_DOORBELL_RESET_ERRNO)
#ifndef SIW_RTR_ERRNO
#define SIW_RTR_ERRNO (-EINVAL)
#define SIW_UD_ERRNO (-EOPNOTSUPP)
#define XRC_TGT_ERRNO (-EINVAL)
#endif

enum mode { M_IOCTL, M_WRITE, M_FILTER };
static const char *const mode_name[] = { "ioctl", "write", "filter" };

static enum mode mode;
static const char *devname;
static bool siw;
static int verbs_counted;

/* The path a verb must report in this mode. */
static enum uvio_path want_path(bool native)
{
	if (mode != M_IOCTL)
		return UVIO_PATH_WRITE;
	return native ? UVIO_PATH_IOCTL : UVIO_PATH_INVOKE_WRITE;
}

/* Run one verb; check its answer, its path and that it cost exactly one
 * syscall of that path's kind. */
#define VERB(native, want_ret, call)                                                   \
	do {                                                                           \
		long i0_ = syscount_ioctls, w0_ = syscount_writes;                     \
		enum uvio_path p_ = UVIO_PATH_AUTO;                                    \
		int r_ = (call);                                                       \
		verb_check(#call, __LINE__, r_, (want_ret), p_, (native),             \
			   syscount_ioctls - i0_, syscount_writes - w0_);              \
	} while (0)
#define P (&p_)

static void verb_check(const char *what, int line, int ret, int want_ret, enum uvio_path p,
		       bool native, long ioctls, long writes)
{
	enum uvio_path want = want_path(native);
	bool by_ioctl = p == UVIO_PATH_IOCTL || p == UVIO_PATH_INVOKE_WRITE;

	verbs_counted++;
	if (ret != want_ret) {
		kt_failures++;
		printf("FAIL line %d: %s on %s (%s): %d (%s), want %d (%s): %s\n", line, what,
		       devname, mode_name[mode], ret, ret ? strerrorname_np(-ret) : "0", want_ret,
		       want_ret ? strerrorname_np(-want_ret) : "0", uvio_last_error());
	}
	KT_CHECK(p == want, "line %d: %s ran over %s, want %s", line, what, uvio_path_name(p),
		 uvio_path_name(want));
	KT_CHECK(ioctls == (by_ioctl ? 1 : 0) && writes == (by_ioctl ? 0 : 1),
		 "line %d: %s over %s cost %ld ioctl + %ld write", line, what,
		 uvio_path_name(p), ioctls, writes);
}

static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &ma, &mi);
	return ma > major || (ma == major && mi >= minor);
}

/* GID index 1 of port 1 from sysfs: rxe's RoCE v2 IPv4-mapped GID. */
static int read_gid(const char *dev, int index, uint8_t gid[16], char *type, size_t tlen)
{
	char p[128], s[64];
	unsigned int w[8];
	FILE *f;

	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/1/gids/%d", dev, index);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (!fgets(s, sizeof(s), f) || sscanf(s, "%x:%x:%x:%x:%x:%x:%x:%x", &w[0], &w[1], &w[2],
					       &w[3], &w[4], &w[5], &w[6], &w[7]) != 8) {
		fclose(f);
		return -1;
	}
	fclose(f);
	for (int i = 0; i < 8; i++) {
		gid[2 * i] = (uint8_t)(w[i] >> 8);
		gid[2 * i + 1] = (uint8_t)w[i];
	}
	snprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports/1/gid_attrs/types/%d", dev, index);
	f = fopen(p, "r");
	type[0] = 0;
	if (f) {
		if (fgets(type, (int)tlen, f))
			type[strcspn(type, "\n")] = 0;
		fclose(f);
	}
	return 0;
}

struct objs {
	struct uvio_device *dev;
	struct uvio_context ctx;
	uint32_t pd;
	struct uvio_cq cq;
	struct uvio_comp_channel channel;
};

static int setup(const struct uvio_device_info *info, struct objs *o)
{
	enum uvio_path p;

	if (mode == M_FILTER)
		KT_EQ(kt_filter_verbs_ioctl(), 0);
	KT_EQ(uvio_device_open(info->name, &o->dev), 0);
	if (!o->dev)
		return -1;
	if (mode == M_WRITE)
		KT_EQ(uvio_device_set_path(o->dev, UVIO_PATH_WRITE), 0);
	o->ctx.sz = sizeof(o->ctx);
	KT_EQ(uvio_get_context(o->dev, NULL, &o->ctx, &p), 0);
	KT_EQ(uvio_alloc_pd(o->dev, NULL, &o->pd, &p), 0);
	KT_EQ(uvio_create_comp_channel(o->dev, &o->channel, &p), 0);
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 64, .user_handle = 0xc0, .channel = &o->channel);
	o->cq.sz = sizeof(o->cq);
	KT_EQ(uvio_create_cq(o->dev, &ca, NULL, &o->cq, &p), 0);
	/* From here on, every verb is counted. */
	syscount_fd = uvio_device_fd(o->dev);
	syscount_ioctls = syscount_writes = 0;
	return 0;
}

static void teardown(struct objs *o)
{
	enum uvio_path p;

	syscount_fd = -1;
	KT_EQ(uvio_destroy_cq(o->dev, o->cq.handle, NULL, &p), 0);
	KT_EQ(uvio_dealloc_pd(o->dev, o->pd, &p), 0);
	close(o->channel.fd);
	close(o->ctx.async_fd);
	uvio_device_close(o->dev);
}

static void rc_init_attr(struct uvio_qp_init_attr *a, const struct objs *o, uint64_t uh)
{
	*a = (struct uvio_qp_init_attr){
		.sz = sizeof(*a),
		.type = IB_UVERBS_QPT_RC,
		.user_handle = uh,
		.pd_handle = o->pd,
		.send_cq_handle = o->cq.handle,
		.recv_cq_handle = o->cq.handle,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
	};
}

static int to_init(struct objs *o, uint32_t qp, enum uvio_path *p)
{
	struct uvio_qp_attr a = {
		.sz = sizeof(a),
		.attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
			     UVIO_QP_ACCESS_FLAGS,
		.qp_state = UVIO_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_READ,
	};

	return uvio_modify_qp(o->dev, qp, &a, NULL, p);
}

static int to_rtr(struct objs *o, uint32_t qp, uint32_t dest_qpn, const uint8_t gid[16],
		  enum uvio_path *p)
{
	struct uvio_qp_attr a = {
		.sz = sizeof(a),
		.attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN |
			     UVIO_QP_RQ_PSN | UVIO_QP_MAX_DEST_RD_ATOMIC | UVIO_QP_MIN_RNR_TIMER,
		.qp_state = UVIO_QPS_RTR,
		.path_mtu = UVIO_MTU_1024,
		.dest_qp_num = dest_qpn,
		.rq_psn = 0x1234,
		.max_dest_rd_atomic = 1,
		.min_rnr_timer = 12,
		.ah = { .is_global = 1, .sgid_index = 1, .hop_limit = 64, .port_num = 1,
			.traffic_class = 0, .flow_label = 0, .sl = 0 },
	};

	memcpy(a.ah.dgid, gid, 16);
	return uvio_modify_qp(o->dev, qp, &a, NULL, p);
}

static int to_rts(struct objs *o, uint32_t qp, enum uvio_path *p)
{
	struct uvio_qp_attr a = {
		.sz = sizeof(a),
		.attr_mask = UVIO_QP_STATE | UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT |
			     UVIO_QP_RNR_RETRY | UVIO_QP_SQ_PSN | UVIO_QP_MAX_QP_RD_ATOMIC,
		.qp_state = UVIO_QPS_RTS,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.sq_psn = 0x1234,
		.max_rd_atomic = 1,
	};

	return uvio_modify_qp(o->dev, qp, &a, NULL, p);
}

/* The line of `rdma resource show qp` for this device, pid and QPN, with
 * each of the space-separated words of `what` in it; how many match. */
static int qp_lines(uint32_t qpn, const char *what)
{
	char out[16384], dev[80], pid[32], lq[32];
	int count = 0;

	kt_run("rdma resource show qp", out, sizeof(out));
	snprintf(dev, sizeof(dev), "link %s/", devname);
	snprintf(pid, sizeof(pid), " pid %d ", getpid());
	snprintf(lq, sizeof(lq), " lqpn %u ", qpn);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char l[1024], w[256];
		bool all = true;

		snprintf(l, sizeof(l), "%s ", line);
		if (!strstr(l, dev) || !strstr(l, pid) || !strstr(l, lq))
			continue;
		snprintf(w, sizeof(w), "%s", what);
		for (char *save, *t = strtok_r(w, ",", &save); t; t = strtok_r(NULL, ",", &save))
			all = all && strstr(l, t);
		count += all;
	}
	return count;
}

/* QPs of this device and pid. */
static int qp_count(int pid)
{
	char out[16384], dev[80], p[32];
	int count = 0;

	kt_run("rdma resource show qp", out, sizeof(out));
	snprintf(dev, sizeof(dev), "link %s/", devname);
	snprintf(p, sizeof(p), " pid %d ", pid);
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		char l[1024];

		snprintf(l, sizeof(l), "%s ", line);
		count += strstr(l, dev) && strstr(l, p);
	}
	return count;
}

/* what: comma-separated pieces of the line, e.g. "type RC ,state INIT ". */
static void qp_witness(uint32_t qpn, const char *what, int want)
{
	if (qp_lines(qpn, what) != want) {
		char out[4096];

		kt_run("rdma resource show qp", out, sizeof(out));
		KT_CHECK(0, "rdma resource show qp: QPN %u with '%s' not %d times in:\n%s", qpn,
			 what, want, out);
	}
}

/* The data-path commands on a QP in RESET (rts false) or RTS. */
static void datapath(struct objs *o, uint32_t qp, bool rts)
{
	struct ib_uverbs_send_wr wr = { .wr_id = 1, .num_sge = 1, .opcode = IB_UVERBS_WR_SEND };
	struct ib_uverbs_recv_wr rwr = { .wr_id = 2, .num_sge = 1 };
	struct ib_uverbs_sge sge = { .addr = 0x1000, .length = 8, .lkey = 0 };
	struct ib_uverbs_wc wc[4];
	uint32_t bad = 99, n = 99;

	/* rxe's doorbell: no WRs, the kernel runs the send queue. */
	VERB(false, rts ? 0 : DOORBELL_RESET_ERRNO,
	     uvio_post_send(o->dev, qp, NULL, 0, NULL, 0, &bad, P));
	KT_EQ(bad, 0);
	/* A WR that wants more SGEs than the command has: the kernel's
	 * parser refuses it before the driver sees it. */
	VERB(false, -EINVAL, uvio_post_send(o->dev, qp, &wr, 1, NULL, 0, &bad, P));
	KT_EQ(bad, 0);
	/* A whole WR: rxe runs user QPs from their ring and ignores it (no
	 * error); siw refuses WRs for user QPs, naming the first. */
	VERB(false, siw ? -EINVAL : rts ? 0 : DOORBELL_RESET_ERRNO,
	     uvio_post_send(o->dev, qp, &wr, 1, &sge, 1, &bad, P));
	KT_EQ(bad, siw || !rts ? 1 : 0);
	/* Disabled on both drivers: the error says which command. */
	VERB(false, -EOPNOTSUPP, uvio_post_recv(o->dev, qp, &rwr, 1, &sge, 1, &bad, P));
	KT_CHECK(strstr(uvio_last_error(), "POST_RECV") != NULL, "%s", uvio_last_error());
	VERB(false, -EOPNOTSUPP, uvio_post_srq_recv(o->dev, 0, &rwr, 1, &sge, 1, &bad, P));
	KT_CHECK(strstr(uvio_last_error(), "POST_SRQ_RECV") != NULL, "%s", uvio_last_error());
	VERB(false, -EOPNOTSUPP, uvio_poll_cq(o->dev, o->cq.handle, wc, 4, &n, P));
	KT_CHECK(strstr(uvio_last_error(), "does not enable the write() command POLL_CQ"),
		 "%s", uvio_last_error());
	KT_EQ(n, 0);
	VERB(false, siw ? -EOPNOTSUPP : 0, uvio_req_notify_cq(o->dev, o->cq.handle, 0, P));
	VERB(false, siw ? -EOPNOTSUPP : 0, uvio_req_notify_cq(o->dev, o->cq.handle, 1, P));
	VERB(false, siw ? -EOPNOTSUPP : -ENOENT,
	     uvio_req_notify_cq(o->dev, 4242, 0, P));
}

/* Arguments the library refuses before any syscall. */
static void datapath_args(struct objs *o)
{
	static struct ib_uverbs_send_wr many[UVIO_MAX_POST_BYTES / sizeof(struct ib_uverbs_send_wr) + 1];
	struct ib_uverbs_wc wc[1];
	uint32_t n, bad = 7;
	long i0 = syscount_ioctls, w0 = syscount_writes;

	KT_EQ(uvio_post_send(o->dev, 0, NULL, 1, NULL, 0, &bad, NULL), -EINVAL);
	KT_EQ(bad, 0);
	KT_EQ(uvio_post_send(o->dev, 0, many, sizeof(many) / sizeof(many[0]), NULL, 0, NULL, NULL),
	      -E2BIG);
	KT_EQ(uvio_post_recv(o->dev, 0, NULL, 0, NULL, 1, NULL, NULL), -EINVAL);
	KT_EQ(uvio_poll_cq(o->dev, 0, NULL, 1, &n, NULL), -EINVAL);
	KT_EQ(uvio_poll_cq(o->dev, 0, wc, 1, NULL, NULL), -EINVAL);
	KT_EQ(syscount_ioctls - i0, 0);
	KT_EQ(syscount_writes - w0, 0);
}

/* Create, witness, modify, query, destroy: on every device. */
static void rc_lifecycle(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct uvio_qp qp = { .sz = sizeof(qp) };
	struct uvio_qp_attr q = { .sz = sizeof(q) };
	struct uvio_events_reported events = { 99, 99 };
	char what[96];

	rc_init_attr(&ia, o, 0x5150);
	ia.create_flags = IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &qp, P));
	KT_CHECK(qp.cap.max_send_wr >= 16 && qp.cap.max_recv_wr >= 16,
		 "granted send %u recv %u", qp.cap.max_send_wr, qp.cap.max_recv_wr);
	/* No port before INIT. */
	snprintf(what, sizeof(what), "type RC ,state RESET ,link %s/- ", devname);
	qp_witness(qp.qp_num, what, 1);

	VERB(false, 0, uvio_query_qp(o->dev, qp.handle, 0, &q, P));
	KT_EQ(q.qp_state, UVIO_QPS_RESET);
	KT_EQ(q.sq_sig_all, 1);
	/* What query reports may exceed what create granted (rxe rounds
	 * its rings up); never less than asked. */
	KT_CHECK(q.cap.max_send_wr >= 16 && q.cap.max_recv_wr >= 16 && q.cap.max_send_sge >= 1,
		 "query: send %u recv %u sge %u; create granted send %u recv %u",
		 q.cap.max_send_wr, q.cap.max_recv_wr, q.cap.max_send_sge, qp.cap.max_send_wr,
		 qp.cap.max_recv_wr);

	datapath(o, qp.handle, false);
	VERB(false, 0, to_init(o, qp.handle, P));
	q = (struct uvio_qp_attr){ .sz = sizeof(q) };
	VERB(false, 0, uvio_query_qp(o->dev, qp.handle, UVIO_QP_STATE, &q, P));
	if (siw) {
		/* siw keeps INIT as its IDLE state, which it reports as RESET,
		 * with every access right and no port. */
		KT_EQ(q.qp_state, UVIO_QPS_RESET);
		KT_EQ(q.port_num, 0);
		KT_EQ(q.qp_access_flags, IB_UVERBS_ACCESS_LOCAL_WRITE |
			IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_READ);
		qp_witness(qp.qp_num, "type RC ,state RESET ", 1);
	} else {
		KT_EQ(q.qp_state, UVIO_QPS_INIT);
		KT_EQ(q.port_num, 1);
		KT_EQ(q.qp_access_flags,
		      IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_READ);
		snprintf(what, sizeof(what), "type RC ,state INIT ,link %s/1 ", devname);
		qp_witness(qp.qp_num, what, 1);
	}

	/* A state the kernel does not know. */
	struct uvio_qp_attr bad = { .sz = sizeof(bad), .attr_mask = UVIO_QP_STATE, .qp_state = 9 };
	VERB(false, -EINVAL, uvio_modify_qp(o->dev, qp.handle, &bad, NULL, P));

	VERB(true, 0, uvio_destroy_qp(o->dev, qp.handle, &events, P));
	KT_EQ(events.async_events_reported, 0);
	KT_EQ(events.comp_events_reported, 0);
	qp_witness(qp.qp_num, "", 0);
	/* Gone: every verb on the handle now. */
	VERB(true, -ENOENT, uvio_destroy_qp(o->dev, qp.handle, NULL, P));
	VERB(false, -ENOENT, uvio_query_qp(o->dev, qp.handle, 0, &q, P));
	VERB(false, -ENOENT, to_init(o, qp.handle, P));
}

/* Two RC QPs brought to RTS against each other (rxe). */
static void rc_rts(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct uvio_qp a = { .sz = sizeof(a) }, b = { .sz = sizeof(b) };
	struct uvio_qp_attr q = { .sz = sizeof(q) };
	uint8_t gid[16];
	char type[32];

	KT_EQ(read_gid(devname, 1, gid, type, sizeof(type)), 0);
	KT_CHECK(!strcmp(type, "RoCE v2"), "GID 1 is %s", type);
	KT_CHECK(gid[10] == 0xff && gid[11] == 0xff, "GID 1 is not IPv4-mapped");

	rc_init_attr(&ia, o, 0xa);
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &a, P));
	rc_init_attr(&ia, o, 0xb);
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &b, P));
	VERB(false, 0, to_init(o, a.handle, P));
	VERB(false, 0, to_init(o, b.handle, P));
	/* RTS straight from INIT: the kernel's state table refuses it. */
	VERB(false, -EINVAL, to_rts(o, a.handle, P));
	VERB(false, 0, to_rtr(o, a.handle, b.qp_num, gid, P));
	VERB(false, 0, to_rtr(o, b.handle, a.qp_num, gid, P));
	VERB(false, 0, to_rts(o, a.handle, P));
	VERB(false, 0, to_rts(o, b.handle, P));

	VERB(false, 0, uvio_query_qp(o->dev, a.handle, 0, &q, P));
	printf("  %s %s: QP %u RTS: state %u dest_qpn %u mtu %u sq_psn 0x%x rq_psn 0x%x "
	       "timeout %u retry %u rnr %u sgid_index %u hop_limit %u global %u port %u\n",
	       devname, mode_name[mode], a.qp_num, q.qp_state, q.dest_qp_num, q.path_mtu,
	       q.sq_psn, q.rq_psn, q.timeout, q.retry_cnt, q.rnr_retry, q.ah.sgid_index,
	       q.ah.hop_limit, q.ah.is_global, q.ah.port_num);
	KT_EQ(q.qp_state, UVIO_QPS_RTS);
	KT_EQ(q.dest_qp_num, b.qp_num);
	KT_EQ(q.path_mtu, UVIO_MTU_1024);
	KT_EQ(q.sq_psn, 0x1234);
	KT_EQ(q.rq_psn, 0x1234);
	KT_EQ(q.timeout, 14);
	KT_EQ(q.retry_cnt, 7);
	KT_EQ(q.rnr_retry, 7);
	KT_EQ(q.max_rd_atomic, 1);
	KT_EQ(q.max_dest_rd_atomic, 1);
	KT_EQ(q.min_rnr_timer, 12);
	KT_EQ(q.ah.is_global, 1);
	KT_EQ(q.ah.sgid_index, 1);
	KT_EQ(q.ah.hop_limit, 64);
	KT_EQ(q.ah.port_num, 1);
	KT_CHECK(!memcmp(q.ah.dgid, gid, 16), "dgid differs");
	char extra[64];
	snprintf(extra, sizeof(extra), "rqpn %u ,type RC ,state RTS ,sq-psn 4660 ", b.qp_num);
	qp_witness(a.qp_num, extra, 1);
	snprintf(extra, sizeof(extra), "rqpn %u ,type RC ,state RTS ,rq-psn 4660 ", a.qp_num);
	qp_witness(b.qp_num, extra, 1);

	datapath(o, a.handle, true);

	/* An old caller's short struct: only the fields inside its sz. */
	struct uvio_qp_attr small = { .sz = offsetof(struct uvio_qp_attr, qkey) };
	memset((char *)&small + small.sz, 0x5a, sizeof(small) - small.sz);
	VERB(false, 0, uvio_query_qp(o->dev, b.handle, 0, &small, P));
	KT_EQ(small.qp_state, UVIO_QPS_RTS);
	KT_EQ(small.path_mtu, UVIO_MTU_1024);
	KT_EQ(small.dest_qp_num, 0x5a5a5a5a);	/* past sz: untouched */

	/* Driver data makes it EX_MODIFY_QP (rxe takes and ignores it). */
	uint64_t drv_out = 0;
	UVIO_OPTS(uvio_drv, d, .out = &drv_out, .out_len = sizeof(drv_out));
	struct uvio_qp_attr t = { .sz = sizeof(t), .attr_mask = UVIO_QP_MIN_RNR_TIMER,
				  .min_rnr_timer = 20 };
	VERB(false, 0, uvio_modify_qp(o->dev, a.handle, &t, &d, P));
	VERB(false, 0, uvio_query_qp(o->dev, a.handle, 0, &q, P));
	KT_EQ(q.min_rnr_timer, 20);
	/* The timeout in RTS to RTS: the kernel's state table refuses it on
	 * 6.1 and takes it on 6.12 (the two kernels measured). */
	t = (struct uvio_qp_attr){ .sz = sizeof(t), .attr_mask = UVIO_QP_TIMEOUT, .timeout = 18 };
	VERB(false, kernel_at_least(6, 12) ? 0 : -EINVAL,
	     uvio_modify_qp(o->dev, a.handle, &t, NULL, P));
	KT_EQ(q.qp_state, UVIO_QPS_RTS);
	/* The extended attribute goes as EX_MODIFY_QP too; rxe refuses any
	 * attribute past the standard bits. */
	struct uvio_qp_attr rl = { .sz = sizeof(rl), .attr_mask = UVIO_QP_RATE_LIMIT,
				   .rate_limit = 1000 };
	VERB(false, -EOPNOTSUPP, uvio_modify_qp(o->dev, a.handle, &rl, NULL, P));

	VERB(true, 0, uvio_destroy_qp(o->dev, a.handle, NULL, P));
	VERB(true, 0, uvio_destroy_qp(o->dev, b.handle, NULL, P));
	qp_witness(a.qp_num, "", 0);
	qp_witness(b.qp_num, "", 0);
}

/* siw: iWARP QPs leave INIT only through the connection manager. */
static void siw_rc(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct uvio_qp a = { .sz = sizeof(a) };
	uint8_t gid[16] = { 0 };

	rc_init_attr(&ia, o, 0xa);
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &a, P));
	VERB(false, 0, to_init(o, a.handle, P));
	VERB(false, SIW_RTR_ERRNO, to_rtr(o, a.handle, a.qp_num, gid, P));
	VERB(true, 0, uvio_destroy_qp(o->dev, a.handle, NULL, P));
}

/* UD: multicast membership (rxe), and what siw answers. */
static void ud_mcast(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct uvio_qp u = { .sz = sizeof(u) };
	const uint8_t mgid[16] = { 0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xef, 0, 0, 0x2a };
	struct uvio_events_reported events = { 99, 99 };

	rc_init_attr(&ia, o, 0xd);
	ia.type = IB_UVERBS_QPT_UD;
	if (siw) {
		VERB(true, SIW_UD_ERRNO, uvio_create_qp(o->dev, &ia, NULL, &u, P));
		/* A QP of the kind siw has: the command is not there. */
		ia.type = IB_UVERBS_QPT_RC;
		VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &u, P));
		VERB(false, -EOPNOTSUPP, uvio_attach_mcast(o->dev, u.handle, mgid, 0, P));
		VERB(true, 0, uvio_destroy_qp(o->dev, u.handle, NULL, P));
		return;
	}
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &u, P));
	qp_witness(u.qp_num, "type UD ,state RESET ", 1);
	VERB(false, 0, uvio_attach_mcast(o->dev, u.handle, mgid, 0, P));
	/* Attached twice: the kernel keeps one membership. */
	VERB(false, 0, uvio_attach_mcast(o->dev, u.handle, mgid, 0, P));
	/* A QP with a membership is not destroyed. */
	VERB(true, -EBUSY, uvio_destroy_qp(o->dev, u.handle, NULL, P));
	qp_witness(u.qp_num, "type UD ", 1);
	VERB(false, 0, uvio_detach_mcast(o->dev, u.handle, mgid, 0, P));
	VERB(false, -EINVAL, uvio_detach_mcast(o->dev, u.handle, mgid, 0, P));
	/* An extended create flag goes as EX_CREATE_QP on write(); rxe
	 * takes none. */
	struct uvio_qp v = { .sz = sizeof(v) };
	ia.create_flags = IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	VERB(true, -EOPNOTSUPP, uvio_create_qp(o->dev, &ia, NULL, &v, P));
	VERB(true, 0, uvio_destroy_qp(o->dev, u.handle, &events, P));
	KT_EQ(events.async_events_reported, 0);
	KT_EQ(events.comp_events_reported, 0);
	qp_witness(u.qp_num, "", 0);
}

/* XRC: rxe and siw have no XRC domains, so OPEN_QP is not there. */
static void xrc(struct objs *o)
{
	struct uvio_open_qp_attr oa = { .sz = sizeof(oa), .xrcd_handle = 0, .qp_num = 1,
					.type = IB_UVERBS_QPT_XRC_TGT };
	struct uvio_qp qp = { .sz = sizeof(qp) };
	struct uvio_qp_init_attr ia = { .sz = sizeof(ia), .type = IB_UVERBS_QPT_XRC_TGT };

	VERB(false, -EOPNOTSUPP, uvio_open_qp(o->dev, &oa, NULL, &qp, P));
	VERB(true, XRC_TGT_ERRNO, uvio_create_qp(o->dev, &ia, NULL, &qp, P));
}

/* Bad arguments: refused before any syscall. */
static void bad_args(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct uvio_qp qp = { .sz = sizeof(qp) };
	long i0 = syscount_ioctls, w0 = syscount_writes;

	rc_init_attr(&ia, o, 1);
	KT_EQ(uvio_create_qp(o->dev, NULL, NULL, &qp, NULL), -EINVAL);
	KT_EQ(uvio_create_qp(o->dev, &ia, NULL, NULL, NULL), -EINVAL);
	ia.type = 0x102;	/* would wrap to RC in write()'s byte */
	KT_EQ(uvio_create_qp(o->dev, &ia, NULL, &qp, NULL), -EINVAL);
	/* A newer caller's struct, with a field this library does not know. */
	struct { struct uvio_qp_init_attr a; uint64_t newer; } big = { .a = ia, .newer = 1 };
	big.a.type = IB_UVERBS_QPT_RC;
	big.a.sz = sizeof(big);
	KT_EQ(uvio_create_qp(o->dev, &big.a, NULL, &qp, NULL), -E2BIG);
	struct uvio_qp_init_attr tiny = { .sz = 2 };
	KT_EQ(uvio_create_qp(o->dev, &tiny, NULL, &qp, NULL), -EINVAL);
	struct uvio_qp tiny_out = { .sz = 4 };
	KT_EQ(uvio_create_qp(o->dev, &ia, NULL, &tiny_out, NULL), -EINVAL);
	KT_EQ(uvio_query_qp(o->dev, 0, 0, NULL, NULL), -EINVAL);
	KT_EQ(uvio_attach_mcast(o->dev, 0, NULL, 0, NULL), -EINVAL);
	KT_EQ(syscount_ioctls - i0, 0);
	KT_EQ(syscount_writes - w0, 0);
}

static void run(const struct uvio_device_info *info)
{
	struct objs o;

	if (setup(info, &o))
		return;
	rc_lifecycle(&o);
	if (siw)
		siw_rc(&o);
	else
		rc_rts(&o);
	ud_mcast(&o);
	xrc(&o);
	bad_args(&o);
	datapath_args(&o);
	printf("  %s on %s: %d QP verbs, each one syscall\n", mode_name[mode], devname,
	       verbs_counted);
	KT_EQ(uvio_device_path(o.dev), mode == M_IOCTL ? UVIO_PATH_IOCTL : UVIO_PATH_WRITE);
	teardown(&o);
	KT_EQ(qp_count(getpid()), 0);
}

int main(void)
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device listed: %d", n);
	for (int i = 0; i < n && i < 8; i++) {
		devname = devs[i].name;
		siw = !strncmp(devname, "siw", 3);
		for (int m = M_IOCTL; m <= M_FILTER; m++) {
			pid_t pid = fork();
			int status;

			if (pid == 0) {
				kt_failures = 0;	/* the child's own */
				mode = (enum mode)m;
				run(&devs[i]);
				_exit(kt_failures ? 1 : 0);
			}
			waitpid(pid, &status, 0);
			KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				 "%s on %s failed", mode_name[m], devname);
			/* The child's QPs went with its fd. */
			KT_EQ(qp_count(pid), 0);
		}
	}
	return kt_exit();
}
