/*
 * The connection manager's commands against the real kernel: address and
 * route resolution to the guest's own address (192.0.2.1 on dummy0, where
 * the harness puts rxe0 or siw0), a listener, and on RoCE a connect request
 * with private data that the listener rejects with private data of its own;
 * events in order, each with its id's uid; then two QPs of the data-path
 * layer connected through the manager (RoCE and iWARP) and data over them.
 * Bad input gets a negative errno and a message; no cm_id is left behind.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uvio/dp.h>
#include <uvio.h>

#include "kt.h"

#define GUEST_ADDR "192.0.2.1"

/* This process's ids on dev, as `rdma resource show cm_id` lists them
 * ("link rxe0/1 cm-idn 1 ... pid 138 ..."). */
static int cm_ids(const char *dev)
{
	char out[8192], link[80], pid[32];
	int n = 0;

	kt_run("rdma resource show cm_id", out, sizeof(out));
	snprintf(link, sizeof(link), "link %s/", dev);
	snprintf(pid, sizeof(pid), " pid %d ", (int)getpid());
	for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n"))
		if (strstr(l, link) && strstr(l, pid))
			n++;
	return n;
}

/* The next event within ms, or a failure. */
static int next_event(struct uvio_cm *cm, struct rdma_ucm_event_resp *ev, int ms)
{
	struct pollfd p = { .fd = uvio_cm_fd(cm), .events = POLLIN };
	int n = poll(&p, 1, ms);

	KT_CHECK(n == 1, "no event within %d ms", ms);
	if (n != 1)
		return -ETIMEDOUT;
	return uvio_cm_get_event(cm, ev, sizeof(*ev));
}

static void expect_event(struct uvio_cm *cm, struct rdma_ucm_event_resp *ev, uint32_t event,
			 uint64_t uid)
{
	int ret = next_event(cm, ev, 5000);

	KT_EQ(ret, 0);
	if (ret)
		return;
	printf("event %s (status %d) for id %u uid 0x%llx\n",
	       uvio_cm_event_name(ev->event) ? uvio_cm_event_name(ev->event) : "?",
	       (int)ev->status, ev->id, (unsigned long long)ev->uid);
	KT_EQ(ev->event, event);
	KT_EQ(ev->uid, uid);
}

static void bad_input(struct uvio_cm *cm)
{
	uint32_t id;
	struct sockaddr_in sin = { .sin_family = AF_INET };

	KT_EQ(uvio_cm_create_id(cm, 1, RDMA_PS_TCP, IB_UVERBS_QPT_RC, NULL), -EINVAL);
	/* An id the kernel never gave. */
	KT_CHECK(uvio_cm_destroy_id(cm, 0x7fffff, NULL) < 0, "destroy of an unknown id");
	KT_CHECK(strstr(uvio_last_error(), "DESTROY_ID") != NULL, "message: %s",
		 uvio_last_error());
	printf("unknown id: %s\n", uvio_last_error());
	KT_EQ(uvio_cm_create_id(cm, 2, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &id), 0);
	/* An address of no sockaddr's size. */
	KT_EQ(uvio_cm_bind(cm, id, (struct sockaddr *)&sin, 1), -EINVAL);
	KT_EQ(uvio_cm_reject(cm, id, 0, NULL, 4), -EINVAL);
	KT_EQ(uvio_cm_get_event(cm, NULL, 0), -EINVAL);
	{
		/* An event buffer too small: refused before anything is read
		 * (an event stays queued for a caller with room). */
		struct rdma_ucm_event_resp ev;

		KT_EQ(uvio_cm_get_event(cm, &ev, 300), -EINVAL);
		KT_CHECK(strstr(uvio_last_error(), "GET_EVENT") && strstr(uvio_last_error(), "300"),
			 "message: %s", uvio_last_error());
		printf("small event buffer: %s\n", uvio_last_error());
	}
	KT_EQ(uvio_cm_destroy_id(cm, id, NULL), 0);
	/* Not a rdma_cm fd: refused before a command could land in it. */
	{
		struct uvio_cm *other = (struct uvio_cm *)1;

		KT_EQ(uvio_cm_adopt(STDOUT_FILENO, &other), -ENODEV);
		KT_CHECK(other == NULL, "a handle for stdout");
		printf("stdout: %s\n", uvio_last_error());
	}
}

/*
 * An RC connection made by the manager between two QPs of this process on
 * the device, as librdmacm makes one: the QPs are the data-path layer's,
 * their states come from INIT_QP_ATTR (uvio_cm_modify_qp). Then a message
 * each way, bytes compared, and a disconnect both ends see.
 */
#define MSG 64

static uint64_t ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static int wait_wc(struct uvio_dp_cq *cq, struct uvio_dp_wc *wc, int n)
{
	uint64_t end = ms_now() + 5000;
	int got = 0;

	while (got < n && ms_now() < end) {
		int r = uvio_dp_poll_cq(cq, wc + got, n - got);

		if (r < 0)
			return r;
		got += r;
		if (!r)
			usleep(200);
	}
	return got;
}

static void rc_through_cm(struct uvio_cm *cm, const char *devname, bool roce,
			  const struct sockaddr_in *server)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_mr, mr);
	struct uvio_dp_cq cq;
	struct uvio_dp_qp s, c;
	struct uvio_dp_wc wc[4];
	struct rdma_ucm_event_resp ev;
	struct sockaddr_in sin = *server;
	uint32_t pd, listener, active, req = UINT32_MAX;
	bool active_done = false, passive_done = false;
	uint8_t *buf = NULL;
	uint64_t end;
	static uint8_t mem[4 * MSG] __attribute__((aligned(4096)));

	KT_EQ(uvio_device_open(devname, &dev), 0);
	if (!dev)
		return;
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	KT_EQ(uvio_alloc_pd(dev, NULL, &pd, NULL), 0);
	buf = mem;
	{
		UVIO_OPTS(uvio_mr_attr, ma, .pd_handle = pd, .addr = buf, .length = sizeof(mem),
			  .iova = (uintptr_t)buf, .access = IB_UVERBS_ACCESS_LOCAL_WRITE |
			  IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_READ);
		UVIO_OPTS(uvio_cq_attr, ca, .cqe = 32);
		UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC, .pd_handle = pd,
			  .cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1,
				   .max_recv_sge = 1 });

		KT_EQ(uvio_reg_mr(dev, &ma, NULL, &mr, NULL), 0);
		KT_EQ(uvio_dp_create_cq(dev, &ca, &cq), 0);
		qa.send_cq_handle = qa.recv_cq_handle = cq.handle;
		qa.user_handle = 0x5;
		KT_EQ(uvio_dp_create_qp(dev, &qa, NULL, &s), 0);
		qa.user_handle = 0xc;
		KT_EQ(uvio_dp_create_qp(dev, &qa, NULL, &c), 0);
	}

	/* A listener on the guest's address, the active id resolved to it. */
	sin.sin_port = 0;
	KT_EQ(uvio_cm_create_id(cm, 0x51, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &listener), 0);
	KT_EQ(uvio_cm_bind(cm, listener, (struct sockaddr *)&sin, sizeof(sin)), 0);
	KT_EQ(uvio_cm_listen(cm, listener, 4), 0);
	{
		struct rdma_ucm_query_addr_resp q;

		KT_EQ(uvio_cm_query_addr(cm, listener, &q), 0);
		memcpy(&sin, &q.src_addr, sizeof(sin));
	}
	KT_EQ(uvio_cm_create_id(cm, 0xac, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &active), 0);
	KT_EQ(uvio_cm_resolve_addr(cm, active, NULL, 0, (struct sockaddr *)&sin, sizeof(sin),
				   2000), 0);
	expect_event(cm, &ev, UVIO_CM_EVENT_ADDR_RESOLVED, 0xac);
	KT_EQ(uvio_cm_resolve_route(cm, active, 2000), 0);
	expect_event(cm, &ev, UVIO_CM_EVENT_ROUTE_RESOLVED, 0xac);

	/* The client's QP to INIT through the manager, a receive for the
	 * answer, then the request. */
	KT_EQ(uvio_cm_modify_qp(cm, active, 1, dev, c.handle), 0);
	{
		struct uvio_dp_sge g = { (uintptr_t)(buf + 3 * MSG), MSG, mr.lkey };
		struct uvio_dp_recv_wr r = { .wr_id = 0xc1, .sg_list = &g, .num_sge = 1 };
		struct rdma_ucm_conn_param p = { .qp_num = c.qp_num, .responder_resources = 1,
						 .initiator_depth = 1, .retry_count = 7,
						 .rnr_retry_count = 7, .private_data_len = 5 };

		KT_EQ(uvio_dp_post_recv(&c, &r, 1, NULL), 0);
		memcpy(p.private_data, "ping", 5);
		KT_EQ(uvio_cm_connect(cm, active, &p, NULL), 0);
	}
	/* Both ends' events, in whatever order they come. */
	end = ms_now() + 10000;
	while ((!active_done || !passive_done) && ms_now() < end) {
		int ret = next_event(cm, &ev, 5000);

		if (ret) {
			KT_EQ(ret, 0);
			break;
		}
		printf("event %s (status %d) for id %u\n",
		       uvio_cm_event_name(ev.event) ? uvio_cm_event_name(ev.event) : "?",
		       (int)ev.status, ev.id);
		if (ev.event == UVIO_CM_EVENT_CONNECT_REQUEST) {
			struct uvio_dp_sge g = { (uintptr_t)(buf + MSG), MSG, mr.lkey };
			struct uvio_dp_recv_wr r = { .wr_id = 0x51, .sg_list = &g, .num_sge = 1 };
			struct rdma_ucm_conn_param p = { .qp_num = s.qp_num,
							 .responder_resources = 1,
							 .initiator_depth = 1, .retry_count = 7,
							 .rnr_retry_count = 7 };

			req = ev.id;
			KT_CHECK(!memcmp(ev.param.conn.private_data, "ping", 5),
				 "the request's private data differs");
			/* iWARP's MPA request carries no QP number. */
			KT_EQ(ev.param.conn.qp_num, roce ? c.qp_num : 0);
			KT_EQ(uvio_cm_modify_qp(cm, req, 1, dev, s.handle), 0);
			if (roce) {
				KT_EQ(uvio_cm_modify_qp(cm, req, 2, dev, s.handle), 0);
				KT_EQ(uvio_cm_modify_qp(cm, req, 3, dev, s.handle), 0);
			}
			KT_EQ(uvio_dp_post_recv(&s, &r, 1, NULL), 0);
			KT_EQ(uvio_cm_accept(cm, req, 0x5e, &p, NULL), 0);
		} else if (ev.event == UVIO_CM_EVENT_CONNECT_RESPONSE && ev.id == active) {
			/* RoCE: the client's QP to RTR and RTS, then the
			 * handshake's last message. */
			KT_EQ(uvio_cm_modify_qp(cm, active, 2, dev, c.handle), 0);
			KT_EQ(uvio_cm_modify_qp(cm, active, 3, dev, c.handle), 0);
			KT_EQ(uvio_cm_accept(cm, active, 0xac, NULL, NULL), 0);
			active_done = true;
		} else if (ev.event == UVIO_CM_EVENT_ESTABLISHED) {
			if (ev.id == active)
				active_done = true;
			else if (ev.id == req)
				passive_done = true;
			else
				KT_CHECK(0, "ESTABLISHED for id %u", ev.id);
		} else {
			KT_CHECK(0, "unexpected event %u status %d", ev.event, (int)ev.status);
			break;
		}
	}
	KT_CHECK(active_done && passive_done, "connection not established (active %d, passive %d)",
		 active_done, passive_done);
	/* Both ends take RDMA READ and WRITE (the connection asked for one
	 * responder resource each way): the active QP's access comes from
	 * attributes the manager knows only after the connect response. */
	for (int i = 0; i < 2 && active_done && passive_done; i++) {
		UVIO_OPTS(uvio_qp_attr, a);
		const uint32_t rw = IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_WRITE;

		KT_EQ(uvio_query_qp(dev, i ? c.handle : s.handle, UVIO_QP_ACCESS_FLAGS, &a, NULL), 0);
		KT_CHECK((a.qp_access_flags & rw) == rw, "%s QP: access flags 0x%x lack remote "
			 "read or write", i ? "the active" : "the passive", a.qp_access_flags);
		printf("%s QP: access flags 0x%x\n", i ? "active" : "passive", a.qp_access_flags);
	}
	if (active_done && passive_done) {
		/* A message each way over the connected QPs. */
		struct uvio_dp_sge g1 = { (uintptr_t)buf, MSG, mr.lkey };
		struct uvio_dp_sge g2 = { (uintptr_t)(buf + 2 * MSG), MSG, mr.lkey };
		struct uvio_dp_send_wr w = { .wr_id = 0xc5, .opcode = IB_UVERBS_WR_SEND,
					     .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &g1,
					     .num_sge = 1 };

		for (int i = 0; i < MSG; i++) {
			buf[i] = (uint8_t)(i * 3 + 1);
			buf[2 * MSG + i] = (uint8_t)(255 - i);
		}
		KT_EQ(uvio_dp_post_send(&c, &w, 1, NULL), 0);
		KT_EQ(wait_wc(&cq, wc, 2), 2);
		w.wr_id = 0x55;
		w.sg_list = &g2;
		KT_EQ(uvio_dp_post_send(&s, &w, 1, NULL), 0);
		KT_EQ(wait_wc(&cq, wc + 2, 2), 2);
		for (int i = 0; i < 4; i++)
			KT_CHECK(wc[i].status == 0, "wc %llu: %s", (unsigned long long)wc[i].wr_id,
				 uvio_wc_status_name(wc[i].status));
		KT_CHECK(!memcmp(buf + MSG, buf, MSG), "the server received other bytes");
		KT_CHECK(!memcmp(buf + 3 * MSG, buf + 2 * MSG, MSG),
			 "the client received other bytes");
		printf("%s: %d bytes each way over QPs %u and %u connected by rdma_cm\n", devname,
		       MSG, c.qp_num, s.qp_num);
		/* The client hangs up: both ends hear it. */
		KT_EQ(uvio_cm_disconnect(cm, active), 0);
		{
			bool a = false, p = false;

			while ((!a || !p) && next_event(cm, &ev, 5000) == 0) {
				KT_EQ(ev.event, UVIO_CM_EVENT_DISCONNECTED);
				a |= ev.id == active;
				/* The server answers the hang-up, as a
				 * librdmacm program does: the client
				 * hears its DREP. */
				if (ev.id == req && !p)
					KT_EQ(uvio_cm_disconnect(cm, req), 0);
				p |= ev.id == req;
			}
			KT_CHECK(a && p, "DISCONNECTED: active %d, passive %d", a, p);
		}
	}
	if (req != UINT32_MAX)
		KT_EQ(uvio_cm_destroy_id(cm, req, NULL), 0);
	KT_EQ(uvio_cm_destroy_id(cm, active, NULL), 0);
	KT_EQ(uvio_cm_destroy_id(cm, listener, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&c, NULL), 0);
	KT_EQ(uvio_dp_destroy_qp(&s, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&cq, NULL), 0);
	KT_EQ(uvio_dereg_mr(dev, mr.handle, NULL), 0);
	KT_EQ(uvio_dealloc_pd(dev, pd, NULL), 0);
	close(ctx.async_fd);
	uvio_device_close(dev);
	KT_EQ(cm_ids(devname), 0);
}

/* A QP of the device an id resolved to (uvio_cm_device_open), in INIT
 * through the manager: what an iWARP connect request must name. */
struct spare_qp {
	struct uvio_device *dev;
	int async_fd;
	uint32_t pd;
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
};

static void spare_qp_make(struct uvio_cm *cm, uint32_t id, struct spare_qp *sq)
{
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 8);
	UVIO_OPTS(uvio_qp_init_attr, qa, .type = IB_UVERBS_QPT_RC,
		  .cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1,
			   .max_recv_sge = 1 });

	KT_EQ(uvio_cm_device_open(cm, id, &sq->dev), 0);
	if (!sq->dev)
		return;
	printf("the id's device: %s\n", uvio_device_name(sq->dev));
	KT_EQ(uvio_get_context(sq->dev, NULL, &ctx, NULL), 0);
	sq->async_fd = ctx.async_fd;
	KT_EQ(uvio_alloc_pd(sq->dev, NULL, &sq->pd, NULL), 0);
	KT_EQ(uvio_dp_create_cq(sq->dev, &ca, &sq->cq), 0);
	qa.pd_handle = sq->pd;
	qa.send_cq_handle = qa.recv_cq_handle = sq->cq.handle;
	KT_EQ(uvio_dp_create_qp(sq->dev, &qa, NULL, &sq->qp), 0);
	KT_EQ(uvio_cm_modify_qp(cm, id, 1, sq->dev, sq->qp.handle), 0);
}

static void spare_qp_free(struct spare_qp *sq)
{
	if (!sq->dev)
		return;
	KT_EQ(uvio_dp_destroy_qp(&sq->qp, NULL), 0);
	KT_EQ(uvio_dp_destroy_cq(&sq->cq, NULL), 0);
	KT_EQ(uvio_dealloc_pd(sq->dev, sq->pd, NULL), 0);
	close(sq->async_fd);
	uvio_device_close(sq->dev);
}

/*
 * An id destroyed with its event unread: the kernel counts it as not
 * delivered and drops it from the queue. Then a handle whose fd was closed
 * under it (another thread's close, say): GET_EVENT answers -EBADF with the
 * command named, nothing blocks. A GET_EVENT already blocked is woken only
 * by an event (the kernel holds the file): uvio_cm(3) says to poll() the fd.
 */
static void unread_and_closed(struct uvio_cm *cm, const char *dev, const struct sockaddr_in *dst)
{
	struct pollfd p = { .fd = uvio_cm_fd(cm), .events = POLLIN };
	struct uvio_cm *other;
	uint32_t id, reported = 99;
	int fd;

	KT_EQ(uvio_cm_create_id(cm, 0x33, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &id), 0);
	KT_EQ(uvio_cm_resolve_addr(cm, id, NULL, 0, (const struct sockaddr *)dst, sizeof(*dst),
				   2000), 0);
	KT_EQ(poll(&p, 1, 5000), 1);	/* ADDR_RESOLVED is queued, not read */
	KT_EQ(uvio_cm_destroy_id(cm, id, &reported), 0);
	KT_EQ(reported, 0);
	KT_EQ(poll(&p, 1, 200), 0);	/* and gone with the id */
	KT_EQ(cm_ids(dev), 0);
	printf("an id destroyed with its event unread: %u reported, the queue empty\n",
	       reported);

	fd = dup(uvio_cm_fd(cm));
	KT_CHECK(fd >= 0, "dup");
	KT_EQ(uvio_cm_adopt(fd, &other), 0);
	if (!other)
		return;
	close(fd);
	{
		struct rdma_ucm_event_resp ev;

		KT_EQ(uvio_cm_get_event(other, &ev, sizeof(ev)), -EBADF);
		KT_CHECK(strstr(uvio_last_error(), "GET_EVENT") != NULL, "message: %s",
			 uvio_last_error());
		printf("closed fd: %s\n", uvio_last_error());
	}
	uvio_cm_close(other);
}

int main(void)
{
	struct uvio_cm *cm;
	struct rdma_ucm_event_resp ev;
	struct rdma_ucm_query_addr_resp q;
	struct sockaddr_in any = { .sin_family = AF_INET };
	struct sockaddr_in dst = { .sin_family = AF_INET };
	uint32_t listener, active, reported = 99;
	int ret = uvio_cm_open(&cm);
	bool roce;
	char dev[64] = "";

	printf("kernel %s\n", kt_kernel_release());
	KT_EQ(ret, 0);
	if (ret) {
		printf("rdma_cm: %s\n", uvio_last_error());
		return kt_exit();
	}
	{
		struct uvio_device_info d[4];

		KT_CHECK(uvio_list_devices(d, 4) >= 1, "no RDMA device");
		roce = !strncmp(d[0].name, "rxe", 3);
		snprintf(dev, sizeof(dev), "%s", d[0].name);
		printf("device %s\n", d[0].name);
	}
	bad_input(cm);

	/* A listener on every address, port chosen by the kernel. */
	inet_pton(AF_INET, GUEST_ADDR, &any.sin_addr);
	any.sin_addr.s_addr = htonl(INADDR_ANY);
	KT_EQ(uvio_cm_create_id(cm, 0x11, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &listener), 0);
	KT_EQ(uvio_cm_bind(cm, listener, (struct sockaddr *)&any, sizeof(any)), 0);
	KT_EQ(uvio_cm_listen(cm, listener, 4), 0);
	KT_EQ(uvio_cm_query_addr(cm, listener, &q), 0);
	memcpy(&dst, &q.src_addr, sizeof(dst));
	KT_EQ(dst.sin_family, AF_INET);
	KT_CHECK(dst.sin_port != 0, "the listener got no port");
	printf("listening on port %u\n", ntohs(dst.sin_port));

	/* The active side: address, then route, each an event. */
	inet_pton(AF_INET, GUEST_ADDR, &dst.sin_addr);
	KT_EQ(uvio_cm_create_id(cm, 0x22, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &active), 0);
	KT_EQ(uvio_cm_resolve_addr(cm, active, NULL, 0, (struct sockaddr *)&dst, sizeof(dst),
				   2000), 0);
	expect_event(cm, &ev, UVIO_CM_EVENT_ADDR_RESOLVED, 0x22);
	KT_EQ(ev.status, 0);
	KT_EQ(uvio_cm_resolve_route(cm, active, 2000), 0);
	expect_event(cm, &ev, UVIO_CM_EVENT_ROUTE_RESOLVED, 0x22);
	KT_EQ(ev.status, 0);
	KT_EQ(uvio_cm_query_addr(cm, active, &q), 0);
	printf("active id on port %u of device %u\n", q.port_num, q.ibdev_index);
	KT_EQ(q.port_num, 1);

	{
		/* A request with private data, rejected with private data.
		 * RoCE does not check the QP number; iWARP wants a QP of the
		 * device the id resolved to, in INIT. */
		static const char hello[] = "hello from uvio", no[] = "not today";
		struct rdma_ucm_conn_param p = { .qp_num = 0x1234, .retry_count = 7,
						 .rnr_retry_count = 7, .responder_resources = 1,
						 .initiator_depth = 1 };
		struct spare_qp sq = { 0 };
		uint32_t req;

		if (!roce) {
			spare_qp_make(cm, active, &sq);
			p.qp_num = sq.qp.qp_num;
		}

		p.private_data_len = sizeof(hello);
		memcpy(p.private_data, hello, sizeof(hello));
		KT_EQ(uvio_cm_connect(cm, active, &p, NULL), 0);
		expect_event(cm, &ev, UVIO_CM_EVENT_CONNECT_REQUEST, 0x11);
		req = ev.id;
		KT_CHECK(ev.param.conn.private_data_len >= sizeof(hello), "private data of %u bytes",
			 ev.param.conn.private_data_len);
		KT_CHECK(!memcmp(ev.param.conn.private_data, hello, sizeof(hello)),
			 "the request's private data differs");
		KT_EQ(ev.param.conn.qp_num, roce ? 0x1234 : 0);
		KT_EQ(uvio_cm_reject(cm, req, 0, no, sizeof(no)), 0);
		expect_event(cm, &ev, UVIO_CM_EVENT_REJECTED, 0x22);
		KT_CHECK(ev.param.conn.private_data_len >= sizeof(no), "private data of %u bytes",
			 ev.param.conn.private_data_len);
		KT_CHECK(!memcmp(ev.param.conn.private_data, no, sizeof(no)),
			 "the reject's private data differs");
		printf("rejected: status %d, %u bytes of private data\n", (int)ev.status,
		       ev.param.conn.private_data_len);
		KT_EQ(uvio_cm_destroy_id(cm, req, &reported), 0);
		printf("request id: %u events reported\n", reported);
		if (!roce)
			spare_qp_free(&sq);
	}
	/* rdma sees the ids (the listener, the active one), then not. */
	KT_EQ(cm_ids(dev), 2);
	KT_EQ(uvio_cm_destroy_id(cm, active, &reported), 0);
	KT_EQ(reported, 3);
	KT_EQ(uvio_cm_destroy_id(cm, listener, &reported), 0);
	printf("listener: %u events reported\n", reported);
	KT_EQ(cm_ids(dev), 0);
	unread_and_closed(cm, dev, &dst);
	{
		struct sockaddr_in server = { .sin_family = AF_INET };

		inet_pton(AF_INET, GUEST_ADDR, &server.sin_addr);
		rc_through_cm(cm, dev, roce, &server);
	}
	uvio_cm_close(cm);
	return kt_exit();
}
