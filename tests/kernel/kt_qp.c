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
#include <unistd.h>

#include <uvio.h>
#include "kt_qp_lib.h"

/* The kernel's answers, as measured on 5.10, 6.1 and 6.12. Before 6.1 (as
 * measured on 5.10) drivers still enabled the data-path write() commands
 * by a command mask, and a handle lookup that failed answered EINVAL. */
#define OLD (!kernel_at_least(6, 1))
#define LOOKUP_ERRNO (OLD ? -EINVAL : -ENOENT)	/* no such handle */
/* siw's IDLE state as QUERY_QP reports it: RESET on 5.10 and 6.1, INIT on
 * 6.12 and 7.2. */
#define NEW_SIW_IDLE kernel_at_least(6, 12)
#define SIW_IDLE (NEW_SIW_IDLE ? UVIO_QPS_INIT : UVIO_QPS_RESET)
#define DOORBELL_RESET_ERRNO (siw ? -ENOTCONN : -EINVAL)	/* a doorbell before RTS */
#define SIW_RTR_ERRNO (-EINVAL)		/* iWARP: RTR only through the CM */
#define SIW_UD_ERRNO (-EOPNOTSUPP)	/* siw has RC QPs only */
#define XRC_TGT_ERRNO (-EINVAL)		/* no XRC domain on rxe or siw */

/*
 * The data-path commands on a QP in RESET (rts false) or RTS. rxe and siw
 * keep their queues in user space (<uvio/dp.h> drives them): the commands
 * that carry work are refused before any system call; the doorbell and
 * rxe's REQ_NOTIFY_CQ reach the kernel.
 */
static void datapath(struct objs *o, uint32_t qp, bool rts)
{
	struct ib_uverbs_send_wr wr = { .wr_id = 1, .num_sge = 1, .opcode = IB_UVERBS_WR_SEND };
	struct ib_uverbs_recv_wr rwr = { .wr_id = 2, .num_sge = 1 };
	struct ib_uverbs_sge sge = { .addr = 0x1000, .length = 8, .lkey = 0 };
	struct ib_uverbs_wc wc[4];
	uint32_t bad = 99, n = 99;
	long i0, w0;

	/* The doorbell: no WRs, the kernel runs the send queue. */
	VERB(false, rts ? 0 : DOORBELL_RESET_ERRNO,
	     uvio_post_send(o->dev, qp, NULL, 0, NULL, 0, &bad, P));
	KT_EQ(bad, 0);
	i0 = syscount_ioctls;
	w0 = syscount_writes;
	KT_EQ(uvio_post_send(o->dev, qp, &wr, 1, &sge, 1, &bad, NULL), -EOPNOTSUPP);
	KT_CHECK(strstr(uvio_last_error(), "uvio_dp_post_send()") != NULL, "%s", uvio_last_error());
	KT_EQ(bad, 0);
	KT_EQ(uvio_post_recv(o->dev, qp, &rwr, 1, &sge, 1, &bad, NULL), -EOPNOTSUPP);
	KT_CHECK(strstr(uvio_last_error(), "uvio_dp_post_recv()") != NULL, "%s", uvio_last_error());
	KT_EQ(uvio_post_srq_recv(o->dev, 0, &rwr, 1, &sge, 1, &bad, NULL), -EOPNOTSUPP);
	KT_EQ(uvio_poll_cq(o->dev, o->cq.handle, wc, 4, &n, NULL), -EOPNOTSUPP);
	KT_CHECK(strstr(uvio_last_error(), "uvio_dp_poll_cq()") != NULL, "%s", uvio_last_error());
	KT_EQ(n, 0);
	if (siw) {
		KT_EQ(uvio_req_notify_cq(o->dev, o->cq.handle, 0, NULL), -EOPNOTSUPP);
		KT_CHECK(strstr(uvio_last_error(), "uvio_dp_arm_cq()") != NULL, "%s",
			 uvio_last_error());
	}
	KT_EQ(syscount_ioctls - i0, 0);
	KT_EQ(syscount_writes - w0, 0);
	if (!siw) {
		VERB(false, 0, uvio_req_notify_cq(o->dev, o->cq.handle, 0, P));
		VERB(false, 0, uvio_req_notify_cq(o->dev, o->cq.handle, 1, P));
		VERB(false, LOOKUP_ERRNO, uvio_req_notify_cq(o->dev, 4242, 0, P));
	}
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
	UVIO_OPTS(uvio_events_reported, events, .comp_events_reported = 99, .async_events_reported = 99);
	char what[96];

	rc_init_attr(&ia, o, 0x5150);
	ia.create_flags = IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &qp, P));
	KT_CHECK(qp.cap.max_send_wr >= 16 && qp.cap.max_recv_wr >= 16,
		 "granted send %u recv %u", qp.cap.max_send_wr, qp.cap.max_recv_wr);
	/* No port before INIT. siw's QPs sit in its IDLE state until the
	 * CM connects them, which it reports as RESET on 6.1 and as INIT
	 * on 6.12 and 7.2; on 5.10 it hands the witness garbage ("state RTS",
	 * "rq-psn -1"). */
	snprintf(what, sizeof(what), "type RC ,state %s ,link %s/- ",
		 siw && NEW_SIW_IDLE ? "INIT" : "RESET", devname);
	qp_witness(qp.qp_num, siw && OLD ? "type RC " : what, 1);

	VERB(false, 0, uvio_query_qp(o->dev, qp.handle, 0, &q, P));
	KT_EQ(q.qp_state, siw ? SIW_IDLE : UVIO_QPS_RESET);
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
		/* siw keeps INIT as its IDLE state, with every access
		 * right and no port. */
		KT_EQ(q.qp_state, SIW_IDLE);
		KT_EQ(q.port_num, 0);
		KT_EQ(q.qp_access_flags, IB_UVERBS_ACCESS_LOCAL_WRITE |
			IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_READ);
		qp_witness(qp.qp_num, OLD ? "type RC " : NEW_SIW_IDLE ? "type RC ,state INIT " :
			   "type RC ,state RESET ", 1);
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
	VERB(false, LOOKUP_ERRNO, uvio_query_qp(o->dev, qp.handle, 0, &q, P));
	VERB(false, LOOKUP_ERRNO, to_init(o, qp.handle, P));
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
	/* 5.10 enabled no extended QP command: EOPNOTSUPP. */
	VERB(false, OLD ? -EOPNOTSUPP : 0, uvio_modify_qp(o->dev, a.handle, &t, &d, P));
	VERB(false, 0, uvio_query_qp(o->dev, a.handle, 0, &q, P));
	KT_EQ(q.min_rnr_timer, OLD ? 12 : 20);
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
	UVIO_OPTS(uvio_events_reported, events, .comp_events_reported = 99, .async_events_reported = 99);

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
	/* An extended create flag goes as EX_CREATE_QP on write(). rxe
	 * takes no create flag since 6.1; on 5.10 its QP/CREATE method took
	 * this one, and it enabled no extended QP command (EOPNOTSUPP). */
	struct uvio_qp v = { .sz = sizeof(v) };
	bool created = OLD && mode == M_IOCTL;
	ia.create_flags = IB_UVERBS_QP_CREATE_BLOCK_MULTICAST_LOOPBACK;
	VERB(true, created ? 0 : -EOPNOTSUPP, uvio_create_qp(o->dev, &ia, NULL, &v, P));
	if (created)
		VERB(true, 0, uvio_destroy_qp(o->dev, v.handle, NULL, P));
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
	return kt_qp_main(M_IOCTL, M_FILTER, NULL, run);
}
