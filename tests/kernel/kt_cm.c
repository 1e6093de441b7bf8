/*
 * The connection manager's commands against the real kernel: address and
 * route resolution to the guest's own address (192.0.2.1 on dummy0, where
 * the harness puts rxe0 or siw0), a listener, and on RoCE a connect request
 * with private data that the listener rejects with private data of its own;
 * events in order, each with its id's uid. Bad input gets a negative errno
 * and a message; no cm_id is left behind.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uvio.h>

#include "kt.h"

#define GUEST_ADDR "192.0.2.1"
#define RDMA_CM_EVENT_ADDR_RESOLVED 0
#define RDMA_CM_EVENT_ROUTE_RESOLVED 2
#define RDMA_CM_EVENT_CONNECT_REQUEST 4
#define RDMA_CM_EVENT_REJECTED 8

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
	return uvio_cm_get_event(cm, ev);
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
	KT_EQ(uvio_cm_get_event(cm, NULL), -EINVAL);
	KT_EQ(uvio_cm_destroy_id(cm, id, NULL), 0);
	/* Not a rdma_cm fd: refused before a command could land in it. */
	{
		struct uvio_cm *other = (struct uvio_cm *)1;

		KT_EQ(uvio_cm_adopt(STDOUT_FILENO, &other), -ENODEV);
		KT_CHECK(other == NULL, "a handle for stdout");
		printf("stdout: %s\n", uvio_last_error());
	}
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
	expect_event(cm, &ev, RDMA_CM_EVENT_ADDR_RESOLVED, 0x22);
	KT_EQ(ev.status, 0);
	KT_EQ(uvio_cm_resolve_route(cm, active, 2000), 0);
	expect_event(cm, &ev, RDMA_CM_EVENT_ROUTE_RESOLVED, 0x22);
	KT_EQ(ev.status, 0);
	KT_EQ(uvio_cm_query_addr(cm, active, &q), 0);
	printf("active id on port %u of device %u\n", q.port_num, q.ibdev_index);
	KT_EQ(q.port_num, 1);

	if (roce) {
		/* A request with private data, rejected with private data:
		 * the kernel does not check the QP number on RoCE. */
		static const char hello[] = "hello from uvio", no[] = "not today";
		struct rdma_ucm_conn_param p = { .qp_num = 0x1234, .retry_count = 7,
						 .rnr_retry_count = 7, .responder_resources = 1,
						 .initiator_depth = 1 };
		uint32_t req;

		p.private_data_len = sizeof(hello);
		memcpy(p.private_data, hello, sizeof(hello));
		KT_EQ(uvio_cm_connect(cm, active, &p, NULL), 0);
		expect_event(cm, &ev, RDMA_CM_EVENT_CONNECT_REQUEST, 0x11);
		req = ev.id;
		KT_CHECK(ev.param.conn.private_data_len >= sizeof(hello), "private data of %u bytes",
			 ev.param.conn.private_data_len);
		KT_CHECK(!memcmp(ev.param.conn.private_data, hello, sizeof(hello)),
			 "the request's private data differs");
		KT_EQ(ev.param.conn.qp_num, 0x1234);
		KT_EQ(uvio_cm_reject(cm, req, 0, no, sizeof(no)), 0);
		expect_event(cm, &ev, RDMA_CM_EVENT_REJECTED, 0x22);
		KT_CHECK(ev.param.conn.private_data_len >= sizeof(no), "private data of %u bytes",
			 ev.param.conn.private_data_len);
		KT_CHECK(!memcmp(ev.param.conn.private_data, no, sizeof(no)),
			 "the reject's private data differs");
		printf("rejected: status %d, %u bytes of private data\n", (int)ev.status,
		       ev.param.conn.private_data_len);
		KT_EQ(uvio_cm_destroy_id(cm, req, &reported), 0);
		printf("request id: %u events reported\n", reported);
	} else {
		printf("iWARP: the connection needs a QP of the device (not run here)\n");
	}
	/* rdma sees the ids (the listener, the active one), then not. */
	KT_EQ(cm_ids(dev), 2);
	KT_EQ(uvio_cm_destroy_id(cm, active, &reported), 0);
	KT_EQ(reported, roce ? 3 : 2);
	KT_EQ(uvio_cm_destroy_id(cm, listener, &reported), 0);
	printf("listener: %u events reported\n", reported);
	KT_EQ(cm_ids(dev), 0);
	uvio_cm_close(cm);
	return kt_exit();
}
