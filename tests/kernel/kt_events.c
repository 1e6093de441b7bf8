/*
 * The event fds on the real kernel, on each device:
 *  - port events: the netdev under the device goes down and up; the async
 *    event fd delivers PORT_ERR and PORT_ACTIVE for port 1, read
 *    non-blocking after poll() and blocking while another process brings
 *    the link up (rxe on 7.2 delivers none: the blocking read ends by an
 *    alarm, EINTR);
 *  - (rxe) a completion event: a receive WQE in the QP's ring, the CQ armed
 *    with REQ_NOTIFY_CQ, the QP moved to ERR; the kernel flushes the WQE
 *    into the CQ ring and signals the channel once; CQ.DESTROY reports the
 *    one completion event;
 *  - (rxe) a QP's own async event: an RTS QP moved to SQD with
 *    EN_SQD_ASYNC_NOTIFY drains and reports SQ_DRAINED with its
 *    user_handle; QP.DESTROY reports the one event.
 * The verbs run on the ioctl path and pinned to write(), one syscall each.
 */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <rdma/rdma_user_rxe.h>

#include "kt_qp_lib.h"

/* The netdev under the device: "netdev NAME" of `rdma link show`. */
static int netdev_of(const char *dev, char *name, size_t len)
{
	char cmd[128], out[1024];
	const char *p;

	snprintf(cmd, sizeof(cmd), "rdma link show %s/1", dev);
	kt_run(cmd, out, sizeof(out));
	p = strstr(out, "netdev ");
	if (!p)
		return -1;
	p += strlen("netdev ");
	snprintf(name, len, "%.*s", (int)strcspn(p, " \n"), p);
	return 0;
}

static int link_set(const char *netdev, const char *state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "ip link set %s %s", netdev, state);
	return system(cmd);
}

static void on_alarm(int sig)
{
	(void)sig;	/* only to interrupt a blocking read */
}

/* Read async events until one of type want arrives (others may come with
 * it), waiting with poll() when nonblocking, else in the read itself,
 * which an alarm bounds (EINTR). */
static int wait_async(int fd, uint32_t want, bool nonblock, struct uvio_async_event *ev)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */

	sigaction(SIGALRM, &sa, NULL);
	for (int i = 0; i < 16; i++) {
		int ret;

		if (nonblock) {
			struct pollfd pf = { .fd = fd, .events = POLLIN };

			if (poll(&pf, 1, 5000) != 1)
				return -ETIME;
		}
		*ev = (struct uvio_async_event){ .sz = sizeof(*ev) };
		alarm(nonblock ? 0 : 10);
		ret = uvio_get_async_event(fd, ev);
		alarm(0);
		if (ret)
			return ret;
		printf("  %s: async event %s (%u), element %llu, kind %u\n", devname,
		       uvio_event_type_name(ev->type), ev->type, (unsigned long long)ev->element,
		       ev->element_kind);
		KT_CHECK(uvio_event_type_name(ev->type) != NULL, "unknown event type %u", ev->type);
		if (ev->type == want)
			return 0;
	}
	return -ENOMSG;
}

/* rxe's RoCE v2 GID comes back a little after the link. */
static void wait_gid_back(void)
{
	uint8_t gid[16];
	char type[32];

	for (int i = 0; i < 100; i++) {
		if (!read_gid(devname, 1, gid, type, sizeof(type)) && gid[10] == 0xff)
			return;
		usleep(100000);
	}
	KT_CHECK(0, "%s: GID 1 did not come back after the link", devname);
}

/* The port's state as the device reports it (4 ACTIVE, 1 DOWN). */
static int port_state(struct uvio_device *dev)
{
	UVIO_OPTS(uvio_port_attr, pa);

	return uvio_query_port(dev, 1, &pa, NULL) ? -1 : pa.core.state;
}

static void port_events(const struct uvio_device_info *info)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	struct uvio_async_event ev = { .sz = sizeof(ev) };
	char netdev[32];
	pid_t child;
	int status;
	/* rxe on 7.2 reports no port event for its netdev's link (the port's
	 * state follows it); 5.10, 6.1 and 6.12 do, and siw on all four. */
	bool quiet = !siw && kernel_at_least(7, 0);

	KT_EQ(uvio_device_open(info->name, &dev), 0);
	if (!dev)
		return;
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	KT_EQ(netdev_of(info->name, netdev, sizeof(netdev)), 0);

	/* Non-blocking: nothing queued yet. */
	KT_EQ(uvio_event_fd_set_nonblock(ctx.async_fd, true), 0);
	KT_EQ(uvio_get_async_event(ctx.async_fd, &ev), -EAGAIN);
	KT_EQ(link_set(netdev, "down"), 0);
	if (quiet) {
		/* Usually nothing within the 5 s that poll() waits; once, on a
		 * loaded machine, the event did come: both are taken. */
		int r = wait_async(ctx.async_fd, UVIO_EVENT_PORT_ERR, true, &ev);

		KT_CHECK(r == 0 || r == -ETIME, "port event wait on 7.x rxe: %d", r);
	} else {
		KT_EQ(wait_async(ctx.async_fd, UVIO_EVENT_PORT_ERR, true, &ev), 0);
		KT_EQ(ev.element, 1);
		KT_EQ(ev.element_kind, UVIO_ELEMENT_PORT);
	}
	printf("  %s: port state %d with %s down\n", devname, port_state(dev), netdev);

	/* Blocking: the read waits until another process brings the link up. */
	KT_EQ(uvio_event_fd_set_nonblock(ctx.async_fd, false), 0);
	child = fork();
	if (child == 0) {
		usleep(300000);
		_exit(link_set(netdev, "up") ? 1 : 0);
	}
	if (quiet) {
		/* The read waits until the alarm interrupts it, or (as above)
		 * the event comes after all. */
		int r = wait_async(ctx.async_fd, UVIO_EVENT_PORT_ACTIVE, false, &ev);

		KT_CHECK(r == 0 || r == -EINTR, "blocking port event read on 7.x rxe: %d", r);
	} else {
		KT_EQ(wait_async(ctx.async_fd, UVIO_EVENT_PORT_ACTIVE, false, &ev), 0);
		KT_EQ(ev.element, 1);
	}
	waitpid(child, &status, 0);
	printf("  %s: port state %d with %s up\n", devname, port_state(dev), netdev);
	KT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "link up failed");
	if (!siw)
		wait_gid_back();

	/* Bad arguments, without a read. */
	struct uvio_async_event small = { .sz = 4 };
	KT_EQ(uvio_get_async_event(ctx.async_fd, &small), -EINVAL);
	KT_EQ(uvio_get_async_event(-1, &ev), -EBADF);
	close(ctx.async_fd);
	uvio_device_close(dev);
}

static void *map_ring(struct objs *o, const struct mminfo *mi)
{
	void *p = mmap(NULL, mi->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       uvio_device_fd(o->dev), (off_t)mi->offset);

	KT_CHECK(p != MAP_FAILED, "mmap of %u bytes at 0x%llx: %s", mi->size,
		 (unsigned long long)mi->offset, strerror(errno));
	return p == MAP_FAILED ? NULL : p;
}

/* The head of an rxe ring, as the kernel lays it out (struct rxe_queue_buf
 * of <rdma/rdma_user_rxe.h>, which Debian 11's 5.10 headers lack; the
 * 5.10 kernel has the same layout). */
struct ring {
	uint32_t log2_elem_size;
	uint32_t index_mask;
	uint32_t pad_1[30];
	uint32_t producer_index;
	uint32_t pad_2[31];
	uint32_t consumer_index;
	uint32_t pad_3[31];
	uint8_t data[];
};
_Static_assert(offsetof(struct ring, producer_index) == 128 &&
	       offsetof(struct ring, consumer_index) == 256 && offsetof(struct ring, data) == 384,
	       "rxe ring head");

static void *ring_elem(struct ring *q, uint32_t index)
{
	return q->data + ((size_t)(index & q->index_mask) << q->log2_elem_size);
}

/* rxe: a flushed receive WQE makes a completion, and the armed CQ one
 * completion event. */
static void comp_event(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct rxe_create_qp_resp qresp;
	UVIO_OPTS(uvio_drv, drv, .out = &qresp, .out_len = sizeof(qresp));
	struct uvio_qp qp = { .sz = sizeof(qp) };
	struct uvio_comp_event ce = { .sz = sizeof(ce) };
	UVIO_OPTS(uvio_events_reported, rep, .comp_events_reported = 99, .async_events_reported = 99);
	const struct rxe_create_cq_resp *cresp = (const void *)o->cq_drv;
	struct ring *rq, *cq;
	struct pollfd pf = { .fd = o->channel.fd, .events = POLLIN };

	rc_init_attr(&ia, o, 0x77);
	VERB(true, 0, uvio_create_qp(o->dev, &ia, &drv, &qp, P));
	VERB(false, 0, to_init(o, qp.handle, P));
	rq = map_ring(o, &qresp.rq_mi);
	cq = map_ring(o, &cresp->mi);
	if (!rq || !cq)
		return;

	KT_EQ(uvio_event_fd_set_nonblock(o->channel.fd, true), 0);
	KT_EQ(uvio_get_comp_event(o->channel.fd, &ce), -EAGAIN);
	VERB(false, 0, uvio_req_notify_cq(o->dev, o->cq.handle, 0, P));

	/* One receive WQE, as a provider posts it: no syscall. */
	uint32_t prod = __atomic_load_n(&rq->producer_index, __ATOMIC_RELAXED);
	struct rxe_recv_wqe *w = ring_elem(rq, prod);
	memset(w, 0, (size_t)1 << rq->log2_elem_size);
	w->wr_id = 0xfeed;
	__atomic_store_n(&rq->producer_index, (prod + 1) & rq->index_mask, __ATOMIC_RELEASE);

	struct uvio_qp_attr err = { .sz = sizeof(err), .attr_mask = UVIO_QP_STATE,
				    .qp_state = UVIO_QPS_ERR };
	VERB(false, 0, uvio_modify_qp(o->dev, qp.handle, &err, NULL, P));

	KT_EQ(poll(&pf, 1, 5000), 1);
	KT_EQ(uvio_get_comp_event(o->channel.fd, &ce), 0);
	KT_EQ(ce.cq_user_handle, 0xc0);
	/* Armed once, signalled once. */
	KT_EQ(uvio_get_comp_event(o->channel.fd, &ce), -EAGAIN);

	uint32_t cprod = __atomic_load_n(&cq->producer_index, __ATOMIC_ACQUIRE);
	uint32_t ccons = cq->consumer_index;
	KT_EQ(cprod - ccons, 1);
	if (cprod != ccons) {
		const struct ib_uverbs_wc *wc = ring_elem(cq, ccons);

		printf("  %s %s: completion wr_id 0x%llx status %u qp %u after one comp event\n",
		       devname, mode_name[mode], (unsigned long long)wc->wr_id, wc->status,
		       wc->qp_num);
		KT_EQ(wc->wr_id, 0xfeed);
		KT_EQ(wc->status, 5);	/* IB_WC_WR_FLUSH_ERR */
		KT_EQ(wc->qp_num, qp.qp_num);
		__atomic_store_n(&cq->consumer_index, (ccons + 1) & cq->index_mask,
				 __ATOMIC_RELEASE);
	}
	munmap(rq, qresp.rq_mi.size);
	munmap(cq, cresp->mi.size);
	VERB(true, 0, uvio_destroy_qp(o->dev, qp.handle, &rep, P));
	KT_EQ(rep.async_events_reported, 0);
}

/* rxe: SQ_DRAINED, the QP's own async event, and destroy's count of it. */
static void qp_event(struct objs *o)
{
	struct uvio_qp_init_attr ia;
	struct uvio_qp a = { .sz = sizeof(a) }, b = { .sz = sizeof(b) };
	UVIO_OPTS(uvio_events_reported, rep, .comp_events_reported = 99, .async_events_reported = 99);
	struct uvio_async_event ev = { .sz = sizeof(ev) };
	uint8_t gid[16];
	char type[32];

	KT_EQ(read_gid(devname, 1, gid, type, sizeof(type)), 0);
	rc_init_attr(&ia, o, 0xaaa);
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &a, P));
	rc_init_attr(&ia, o, 0xbbb);
	VERB(true, 0, uvio_create_qp(o->dev, &ia, NULL, &b, P));
	VERB(false, 0, to_init(o, a.handle, P));
	VERB(false, 0, to_init(o, b.handle, P));
	VERB(false, 0, to_rtr(o, a.handle, b.qp_num, gid, P));
	VERB(false, 0, to_rtr(o, b.handle, a.qp_num, gid, P));
	VERB(false, 0, to_rts(o, a.handle, P));

	KT_EQ(uvio_event_fd_set_nonblock(o->ctx.async_fd, true), 0);
	KT_EQ(uvio_get_async_event(o->ctx.async_fd, &ev), -EAGAIN);
	struct uvio_qp_attr sqd = { .sz = sizeof(sqd),
				    .attr_mask = UVIO_QP_STATE | UVIO_QP_EN_SQD_ASYNC_NOTIFY,
				    .qp_state = UVIO_QPS_SQD, .en_sqd_async_notify = 1 };
	VERB(false, 0, uvio_modify_qp(o->dev, a.handle, &sqd, NULL, P));
	KT_EQ(wait_async(o->ctx.async_fd, UVIO_EVENT_SQ_DRAINED, true, &ev), 0);
	KT_EQ(ev.element, 0xaaa);
	KT_EQ(ev.element_kind, UVIO_ELEMENT_QP);

	VERB(true, 0, uvio_destroy_qp(o->dev, a.handle, &rep, P));
	printf("  %s %s: QP.DESTROY after SQ_DRAINED: async_events_reported %u\n", devname,
	       mode_name[mode], rep.async_events_reported);
	KT_EQ(rep.async_events_reported, 1);
	KT_EQ(rep.comp_events_reported, 0);
	VERB(true, 0, uvio_destroy_qp(o->dev, b.handle, &rep, P));
	KT_EQ(rep.async_events_reported, 0);
}

static void run(const struct uvio_device_info *info)
{
	struct objs o;
	UVIO_OPTS(uvio_events_reported, rep, .comp_events_reported = 99, .async_events_reported = 99);
	struct uvio_comp_event ce = { .sz = sizeof(ce) };

	if (setup(info, &o))
		return;
	if (!siw) {
		comp_event(&o);
		qp_event(&o);
	} else {
		/* siw leaves REQ_NOTIFY_CQ to its provider: nothing arrives. */
		KT_EQ(uvio_event_fd_set_nonblock(o.channel.fd, true), 0);
		KT_EQ(uvio_get_comp_event(o.channel.fd, &ce), -EAGAIN);
	}
	/* The CQ's count of completion events, then the rest as usual. */
	VERB(true, 0, uvio_destroy_cq(o.dev, o.cq.handle, &rep, P));
	printf("  %s %s: CQ.DESTROY: comp_events_reported %u async_events_reported %u\n",
	       devname, mode_name[mode], rep.comp_events_reported, rep.async_events_reported);
	KT_EQ(rep.comp_events_reported, siw ? 0 : 1);
	KT_EQ(rep.async_events_reported, 0);
	o.cq.handle = UINT32_MAX;	/* teardown: already gone */
	teardown(&o);
}

int main(void)
{
	/* Port events once per device; the verbs on the ioctl path and on
	 * write() pinned (reading events is one read() either way). */
	return kt_qp_main(M_IOCTL, M_WRITE, port_events, run);
}
