/* SPDX-License-Identifier: MIT */
/*
 * uvio_rping: a peer of rdma-core's rping (librdmacm's example) with
 * libuverbs-ioctl alone: no librdmacm, no libibverbs. Same options, same
 * connection, same exchange, so either side may be the reference program.
 *
 *   uvio_rping -s [-a ADDR] [-p PORT] [-C COUNT] [-S SIZE] [-v] [-V] [-P]
 *   uvio_rping -c -a ADDR [-I SRC] [-p PORT] [-C COUNT] [-S SIZE] [-v] [-V]
 *
 * The connection: the connection manager (/dev/infiniband/rdma_cm, through
 * <uvio/cm.h>) resolves the address and route and connects one RC QP, port
 * space TCP, default port 7174; the QP is brought to INIT, RTR and RTS
 * through the manager's INIT_QP_ATTR as librdmacm does on RoCE (rxe); on
 * iWARP (siw) the kernel takes it to RTS when the connection is made. The
 * QP, its CQ and rings are the data-path layer's (<uvio/dp.h>).
 *
 * The exchange, per round (as rping): the client fills its start buffer
 * with "rdma-ping-N: " and a cycle of the letters 'A' to 'z' starting one
 * further each round, NUL at the end, and sends its address, rkey and size
 * (16 bytes: big-endian u64, u32, u32); the server RDMA-READs it into its
 * own buffer and sends a go-ahead; the client sends where its second buffer
 * is; the server RDMA-WRITEs what it read there and sends a go-ahead; the
 * client compares the two buffers. The client disconnects after COUNT
 * rounds (0: forever).
 *
 * Checked here (rping checks less): every message is 16 bytes; the server
 * checks what it read against the pattern of round N; the client clears its
 * second buffer each round and compares it whole with what it sent (-V is
 * accepted and always on). Every wait once connected is bounded by -T SEC
 * (default 10; rping has no bound): a peer that vanishes ends the run with
 * an error, and a disconnect is seen while waiting for a completion.
 * -P serves clients one after another (rping's -P serves them at once).
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uvio.h>
#include <uvio/cm.h>
#include <uvio/dp.h>

#define MIN_SIZE 26		/* "rdma-ping-2147483647: " and a letter or two */
#define MAX_SIZE (64 * 1024)
#define INFO_LEN 16		/* the advertisement: addr, rkey, size */
#define SQ_DEPTH 16

enum { WR_SEND = 1, WR_READ, WR_WRITE, WR_RECV };

static const char *prog = "uvio_rping";

struct opts {
	bool server, client, verbose, debug, persistent;
	const char *addr, *src;
	uint16_t port;
	unsigned long count;
	uint32_t size;
	int timeout_ms;
};

/* What one connection holds. */
struct conn {
	const struct opts *o;
	struct uvio_cm *cm;
	uint32_t id;
	struct uvio_device *dev;
	int async_fd;
	bool have_pd, have_mr, have_cq, have_qp, iwarp;
	uint32_t pd;
	struct uvio_mr mr;
	struct uvio_comp_channel channel;
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	bool armed;
	uint8_t *area;		/* recv info | send info | rdma buffer | start buffer */
	size_t area_len;
	uint8_t *recv_info, *send_info, *rdma_buf, *start_buf;
	/* Completions seen, by kind, and the last advertisement received. */
	unsigned long sends, reads, writes, recvs;
	uint64_t peer_addr;
	uint32_t peer_rkey, peer_size;
};

static int fail(const char *what, int err)
{
	const char *why = uvio_last_error();

	fprintf(stderr, "%s: %s: %s%s%s\n", prog, what, strerror(-err), why && *why ? ": " : "",
		why ? why : "");
	return err;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s -s [-vVdP] [-S size] [-C count] [-a addr] [-p port] [-T sec]\n"
		"       %s -c [-vVd] [-S size] [-C count] [-I addr] -a addr [-p port] [-T sec]\n",
		prog, prog);
}

/* Round n's start buffer, as rping fills it. */
static void pattern(uint8_t *buf, uint32_t size, unsigned long n)
{
	int cc = snprintf((char *)buf, size, "rdma-ping-%lu: ", n);
	unsigned char c = (unsigned char)(65 + n % 58);
	uint32_t i;

	for (i = (uint32_t)cc; i < size; i++) {
		buf[i] = c;
		if (++c > 122)
			c = 65;
	}
	buf[size - 1] = 0;
}

static int next_event(struct conn *c, struct rdma_ucm_event_resp *ev, int timeout_ms)
{
	struct pollfd p = { .fd = uvio_cm_fd(c->cm), .events = POLLIN };
	int n = poll(&p, 1, timeout_ms);

	if (n < 0)
		return -errno;
	if (n == 0) {
		fprintf(stderr, "%s: no connection manager event within %d ms\n", prog, timeout_ms);
		return -ETIMEDOUT;
	}
	n = uvio_cm_get_event(c->cm, ev, sizeof(*ev));
	if (n)
		return fail("GET_EVENT", n);
	if (c->o->debug)
		fprintf(stderr, "%s: event %s, status %d, id %u\n", prog,
			uvio_cm_event_name(ev->event) ? uvio_cm_event_name(ev->event) : "?",
			ev->status, ev->id);
	return 0;
}

static int expect_event(struct conn *c, struct rdma_ucm_event_resp *ev, uint32_t want,
			int timeout_ms)
{
	int err = next_event(c, ev, timeout_ms);

	if (err)
		return err;
	if (ev->event != want || ev->status) {
		const char *name = uvio_cm_event_name(ev->event);

		fprintf(stderr, "%s: expected %s, got %s (status %d)\n", prog,
			uvio_cm_event_name(want), name ? name : "an unknown event", ev->status);
		return -ECONNABORTED;
	}
	return 0;
}

static int post_recv(struct conn *c)
{
	struct uvio_dp_sge g = { (uintptr_t)c->recv_info, INFO_LEN, c->mr.lkey };
	struct uvio_dp_recv_wr wr = { .wr_id = WR_RECV, .sg_list = &g, .num_sge = 1 };
	int err = uvio_dp_post_recv(&c->qp, &wr, 1, NULL);

	return err ? fail("posting a receive", err) : 0;
}

/* Send where buf is (the advertisement rping sends). */
static int send_info(struct conn *c, const uint8_t *buf, uint32_t size)
{
	uint64_t a = htobe64((uintptr_t)buf);
	uint32_t k = htobe32(c->mr.rkey), s = htobe32(size);
	struct uvio_dp_sge g = { (uintptr_t)c->send_info, INFO_LEN, c->mr.lkey };
	struct uvio_dp_send_wr wr = { .wr_id = WR_SEND, .opcode = IB_UVERBS_WR_SEND,
				      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &g,
				      .num_sge = 1 };
	int err;

	memcpy(c->send_info, &a, 8);
	memcpy(c->send_info + 8, &k, 4);
	memcpy(c->send_info + 12, &s, 4);
	err = uvio_dp_post_send(&c->qp, &wr, 1, NULL);
	return err ? fail("posting a send", err) : 0;
}

static int post_rdma(struct conn *c, uint32_t opcode, uint64_t wr_id, uint32_t len)
{
	struct uvio_dp_sge g = { (uintptr_t)c->rdma_buf, len, c->mr.lkey };
	struct uvio_dp_send_wr wr = { .wr_id = wr_id, .opcode = opcode,
				      .flags = UVIO_DP_SEND_SIGNALED, .sg_list = &g,
				      .num_sge = 1 };
	int err;

	wr.rdma.remote_addr = c->peer_addr;
	wr.rdma.rkey = c->peer_rkey;
	err = uvio_dp_post_send(&c->qp, &wr, 1, NULL);
	return err ? fail(opcode == IB_UVERBS_WR_RDMA_READ ? "posting an RDMA READ" :
			  "posting an RDMA WRITE", err) : 0;
}

static int on_completion(struct conn *c, const struct uvio_dp_wc *wc)
{
	if (c->o->debug)
		fprintf(stderr, "%s: completion wr_id %" PRIu64 " %s status %u byte_len %u\n", prog,
			wc->wr_id, uvio_wc_opcode_name(wc->opcode) ? uvio_wc_opcode_name(wc->opcode) :
			"?", wc->status, wc->byte_len);
	if (wc->status == UVIO_WC_WR_FLUSH_ERR)
		return -ESHUTDOWN;	/* the QP went to error: await() asks why */
	if (wc->status) {
		const char *s = uvio_wc_status_name(wc->status);

		fprintf(stderr, "%s: completion error: %s (status %u, vendor error %u, wr_id %"
			PRIu64 ")\n", prog, s ? s : "?", wc->status, wc->vendor_err, wc->wr_id);
		/* A peer that dies mid-transfer can fail the request in
		 * flight before the QP flushes (siw: LOC_QP_OP_ERR): await()
		 * asks too, briefly. */
		return -ESHUTDOWN;
	}
	switch (wc->wr_id) {
	case WR_SEND:
		c->sends++;
		return 0;
	case WR_READ:
		c->reads++;
		return 0;
	case WR_WRITE:
		c->writes++;
		return 0;
	case WR_RECV: {
		uint64_t a;
		uint32_t k, s;

		if (wc->byte_len != INFO_LEN) {
			fprintf(stderr, "%s: received bogus data, size %u\n", prog, wc->byte_len);
			return -EPROTO;
		}
		memcpy(&a, c->recv_info, 8);
		memcpy(&k, c->recv_info + 8, 4);
		memcpy(&s, c->recv_info + 12, 4);
		c->peer_addr = be64toh(a);
		c->peer_rkey = be32toh(k);
		c->peer_size = be32toh(s);
		c->recvs++;
		return post_recv(c);
	}
	}
	fprintf(stderr, "%s: a completion for an unknown wr_id %" PRIu64 "\n", prog, wc->wr_id);
	return -EPROTO;
}

/*
 * A failed work request: the QP went to error, most often because the peer
 * disconnected and the manager's DISCONNECTED is on its way. Wait for it
 * to say so: within -T for a flush, within a second for another error
 * (already printed; a local fault may have no disconnect to come); else
 * name the flush.
 */
static int failed(struct conn *c, const struct uvio_dp_wc *wc)
{
	bool flush = wc->status == UVIO_WC_WR_FLUSH_ERR;
	int wait_ms = flush ? c->o->timeout_ms : 1000;	/* -T is 1 s at least */
	struct rdma_ucm_event_resp ev;

	if (!next_event(c, &ev, wait_ms) && ev.event == UVIO_CM_EVENT_DISCONNECTED) {
		fprintf(stderr, "%s DISCONNECT EVENT...\n", c->o->server ? "server" : "client");
		return -ECONNRESET;
	}
	if (flush)
		fprintf(stderr, "%s: completion error: WR_FLUSH_ERR (wr_id %" PRIu64 "): the QP "
			"is in error\n", prog, wc->wr_id);
	return -EIO;
}

/*
 * Until *counter reaches target: completions from the ring; when it is
 * empty, arm the CQ, look once more, then sleep on the completion channel
 * and the manager's fd together, so that a disconnect ends the wait
 * (-ECONNRESET) and -T bounds it.
 */
static int await(struct conn *c, const unsigned long *counter, unsigned long target)
{
	while (*counter < target) {
		struct uvio_dp_wc wc[4];
		struct pollfd p[2] = { { .fd = c->channel.fd, .events = POLLIN },
				       { .fd = uvio_cm_fd(c->cm), .events = POLLIN } };
		int n = uvio_dp_poll_cq(&c->cq, wc, 4), i, err;

		if (n < 0)
			return fail("polling the CQ", n);
		for (i = 0; i < n; i++) {
			err = on_completion(c, &wc[i]);
			if (err == -ESHUTDOWN)
				return failed(c, &wc[i]);
			if (err)
				return err;
		}
		if (n)
			continue;
		if (!c->armed) {
			err = uvio_dp_arm_cq(&c->cq, 0);
			if (err)
				return fail("arming the CQ", err);
			c->armed = true;
			continue;
		}
		n = poll(p, 2, c->o->timeout_ms);
		if (n < 0)
			return -errno;
		if (n == 0) {
			int late = uvio_dp_poll_cq(&c->cq, wc, 1);

			fprintf(stderr, "%s: no completion within %d ms%s\n", prog, c->o->timeout_ms,
				late > 0 ? " (one was in the ring: its event never came)" : "");
			return -ETIMEDOUT;
		}
		if (p[0].revents) {
			UVIO_OPTS(uvio_comp_event, ev);

			err = uvio_get_comp_event(c->channel.fd, &ev);
			if (err)
				return fail("reading the completion channel", err);
			c->armed = false;
		}
		if (p[1].revents) {
			struct rdma_ucm_event_resp ev;

			err = next_event(c, &ev, 0);
			if (err)
				return err;
			if (ev.event == UVIO_CM_EVENT_DISCONNECTED) {
				fprintf(stderr, "%s DISCONNECT EVENT...\n",
					c->o->server ? "server" : "client");
				return -ECONNRESET;
			}
			fprintf(stderr, "%s: unexpected event %s (status %d)\n", prog,
				uvio_cm_event_name(ev.event) ? uvio_cm_event_name(ev.event) : "?",
				ev.status);
			return -ECONNABORTED;
		}
	}
	return 0;
}

/* The id's device, memory, CQ and QP, the QP in INIT, a receive posted. */
static int conn_setup(struct conn *c)
{
	struct uvio_device_info info;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t size = c->o->size;
	int err;

	c->async_fd = c->channel.fd = -1;
	err = uvio_cm_device_open(c->cm, c->id, &c->dev);
	if (err)
		return fail("the connection's device", err);
	c->iwarp = !uvio_find_device(uvio_device_name(c->dev), &info) && info.node_type == 4;
	{
		UVIO_OPTS(uvio_context, ctx);

		err = uvio_get_context(c->dev, NULL, &ctx, NULL);
		if (err)
			return fail("GET_CONTEXT", err);
		c->async_fd = ctx.async_fd;
	}
	err = uvio_alloc_pd(c->dev, NULL, &c->pd, NULL);
	if (err)
		return fail("ALLOC_PD", err);
	c->have_pd = true;
	c->area_len = (2 * INFO_LEN + 2 * (size_t)size + (size_t)page - 1) & ~((size_t)page - 1);
	c->area = mmap(NULL, c->area_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (c->area == MAP_FAILED) {
		c->area = NULL;
		return fail("mmap", -errno);
	}
	c->recv_info = c->area;
	c->send_info = c->area + INFO_LEN;
	c->rdma_buf = c->area + 2 * INFO_LEN;
	c->start_buf = c->rdma_buf + size;
	{
		UVIO_OPTS(uvio_mr_attr, a, .pd_handle = c->pd, .addr = c->area,
			  .length = c->area_len, .iova = (uintptr_t)c->area,
			  .access = IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ |
				    IB_UVERBS_ACCESS_REMOTE_WRITE);

		c->mr.sz = sizeof(c->mr);
		err = uvio_reg_mr(c->dev, &a, NULL, &c->mr, NULL);
		if (err)
			return fail("REG_MR", err);
		c->have_mr = true;
	}
	c->channel.sz = sizeof(c->channel);
	err = uvio_create_comp_channel(c->dev, &c->channel, NULL);
	if (err)
		return fail("CREATE_COMP_CHANNEL", err);
	{
		UVIO_OPTS(uvio_cq_attr, a, .cqe = 2 * SQ_DEPTH, .channel = &c->channel);

		err = uvio_dp_create_cq(c->dev, &a, &c->cq);
		if (err)
			return fail("CQ.CREATE", err);
		c->have_cq = true;
	}
	{
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .pd_handle = c->pd,
			  .send_cq_handle = c->cq.handle, .recv_cq_handle = c->cq.handle,
			  .cap = { .max_send_wr = SQ_DEPTH, .max_recv_wr = 2, .max_send_sge = 1,
				   .max_recv_sge = 1 });

		err = uvio_dp_create_qp(c->dev, &a, NULL, &c->qp);
		if (err)
			return fail("QP.CREATE", err);
		c->have_qp = true;
	}
	err = uvio_cm_modify_qp(c->cm, c->id, 1, c->dev, c->qp.handle);
	if (err)
		return fail("the QP to INIT", err);
	return post_recv(c);
}

/* RoCE: RTR and RTS from the manager's attributes. iWARP: the kernel's. */
static int conn_rts(struct conn *c)
{
	int err = 0;

	if (!c->iwarp) {
		err = uvio_cm_modify_qp(c->cm, c->id, 2, c->dev, c->qp.handle);
		if (!err)
			err = uvio_cm_modify_qp(c->cm, c->id, 3, c->dev, c->qp.handle);
	}
	return err ? fail("the QP to RTR and RTS", err) : 0;
}

static int conn_teardown(struct conn *c)
{
	int err, ret = 0;

	if (c->have_qp && (err = uvio_dp_destroy_qp(&c->qp, NULL)))
		ret = fail("QP.DESTROY", err);
	if (c->have_cq && (err = uvio_dp_destroy_cq(&c->cq, NULL)))
		ret = fail("CQ.DESTROY", err);
	if (c->channel.fd >= 0)
		close(c->channel.fd);
	if (c->have_mr && (err = uvio_dereg_mr(c->dev, c->mr.handle, NULL)))
		ret = fail("DEREG_MR", err);
	if (c->have_pd && (err = uvio_dealloc_pd(c->dev, c->pd, NULL)))
		ret = fail("DEALLOC_PD", err);
	if (c->area)
		munmap(c->area, c->area_len);
	if (c->async_fd >= 0)
		close(c->async_fd);
	if (c->dev)
		uvio_device_close(c->dev);
	if ((err = uvio_cm_destroy_id(c->cm, c->id, NULL)))
		ret = fail("DESTROY_ID", err);
	return ret;
}

static struct rdma_ucm_conn_param conn_param(const struct conn *c)
{
	struct rdma_ucm_conn_param p;

	memset(&p, 0, sizeof(p));
	p.qp_num = c->qp.qp_num;
	p.responder_resources = 1;
	p.initiator_depth = 1;
	p.retry_count = 7;
	p.rnr_retry_count = 7;
	p.valid = 1;
	return p;
}

/* The server's rounds: until the client disconnects. */
static int serve(struct conn *c)
{
	uint8_t *expect = c->start_buf;		/* the server's start buffer is spare */
	unsigned long n;
	int err;

	for (n = 0; !c->o->count || n < c->o->count; n++) {
		err = await(c, &c->recvs, 2 * n + 1);
		if (err == -ECONNRESET)
			return 0;	/* the client is done */
		if (err)
			return err;
		if (c->peer_size < MIN_SIZE || c->peer_size > c->o->size) {
			fprintf(stderr, "%s: the client's buffer is %u bytes; this server takes %u "
				"to %u (-S)\n", prog, c->peer_size, MIN_SIZE, c->o->size);
			return -EMSGSIZE;
		}
		err = post_rdma(c, IB_UVERBS_WR_RDMA_READ, WR_READ, c->peer_size);
		if (!err)
			err = await(c, &c->reads, n + 1);
		if (err)
			return err;
		pattern(expect, c->peer_size, n);
		if (memcmp(c->rdma_buf, expect, c->peer_size)) {
			fprintf(stderr, "%s: round %lu: what the server read is not the client's "
				"pattern: \"%.*s\"\n", prog, n, (int)c->peer_size, c->rdma_buf);
			return -EBADMSG;
		}
		if (c->o->verbose)
			printf("server ping data: %s\n", (const char *)c->rdma_buf);
		err = send_info(c, c->rdma_buf, c->o->size);
		if (!err)
			err = await(c, &c->recvs, 2 * n + 2);
		if (err)
			return err;
		if (c->peer_size < strlen((const char *)c->rdma_buf) + 1) {
			fprintf(stderr, "%s: the client's second buffer is %u bytes, too small\n",
				prog, c->peer_size);
			return -EMSGSIZE;
		}
		err = post_rdma(c, IB_UVERBS_WR_RDMA_WRITE, WR_WRITE,
				(uint32_t)strlen((const char *)c->rdma_buf) + 1);
		if (!err)
			err = await(c, &c->writes, n + 1);
		if (!err)
			err = send_info(c, c->rdma_buf, c->o->size);
		if (err)
			return err;
	}
	/* A count given: the client disconnects after as many rounds. */
	err = await(c, &c->recvs, 2 * n + 1);
	return err == -ECONNRESET ? 0 : err ? err : -EPROTO;
}

static int run_server(const struct opts *o, struct uvio_cm *cm, const struct sockaddr *sa,
		      socklen_t len)
{
	struct conn lc = { .o = o, .cm = cm };
	struct rdma_ucm_event_resp ev;
	uint32_t listener;
	int err, ret = 0;

	err = uvio_cm_create_id(cm, 0, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &listener);
	if (err)
		return fail("CREATE_ID", err);
	err = uvio_cm_bind(cm, listener, sa, len);
	if (!err)
		err = uvio_cm_listen(cm, listener, 3);
	if (err) {
		fail("BIND and LISTEN", err);
		uvio_cm_destroy_id(cm, listener, NULL);
		return err;
	}
	do {
		struct conn c = { .o = o, .cm = cm };
		struct rdma_ucm_conn_param p;

		err = expect_event(&lc, &ev, UVIO_CM_EVENT_CONNECT_REQUEST, -1);
		if (err)
			break;
		c.id = ev.id;
		err = conn_setup(&c);
		if (!err)
			err = conn_rts(&c);
		if (!err) {
			p = conn_param(&c);
			err = uvio_cm_accept(cm, c.id, 1, &p, NULL);
			if (err)
				fail("ACCEPT", err);
		}
		if (!err)
			err = expect_event(&c, &ev, UVIO_CM_EVENT_ESTABLISHED, o->timeout_ms);
		if (!err)
			err = serve(&c);
		if (err)
			uvio_cm_disconnect(cm, c.id);
		if (conn_teardown(&c) && !err)
			err = -EIO;
		if (err)
			ret = err;
	} while (o->persistent);
	uvio_cm_destroy_id(cm, listener, NULL);
	return ret;
}

static int ping(struct conn *c)
{
	unsigned long n;
	int err;

	for (n = 0; !c->o->count || n < c->o->count; n++) {
		pattern(c->start_buf, c->o->size, n);
		memset(c->rdma_buf, 0, c->o->size);
		err = send_info(c, c->start_buf, c->o->size);
		if (!err)
			err = await(c, &c->recvs, 2 * n + 1);	/* the server has read it */
		if (!err)
			err = send_info(c, c->rdma_buf, c->o->size);
		if (!err)
			err = await(c, &c->recvs, 2 * n + 2);	/* and written it back */
		if (err)
			return err;
		if (memcmp(c->start_buf, c->rdma_buf, c->o->size)) {
			fprintf(stderr, "%s: data mismatch in round %lu: sent \"%s\", got back "
				"\"%.*s\"\n", prog, n, (const char *)c->start_buf, (int)c->o->size,
				(const char *)c->rdma_buf);
			return -EBADMSG;
		}
		if (c->o->verbose)
			printf("ping data: %s\n", (const char *)c->rdma_buf);
	}
	/* The sends' completions too, before the QP goes. */
	return await(c, &c->sends, 2 * n);
}

static int run_client(const struct opts *o, struct uvio_cm *cm, const struct sockaddr *dst,
		      socklen_t dst_len, const struct sockaddr *src, socklen_t src_len)
{
	struct conn c = { .o = o, .cm = cm };
	struct rdma_ucm_event_resp ev;
	struct rdma_ucm_conn_param p;
	int err;

	err = uvio_cm_create_id(cm, 1, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &c.id);
	if (err)
		return fail("CREATE_ID", err);
	c.async_fd = c.channel.fd = -1;
	err = uvio_cm_resolve_addr(cm, c.id, src, src_len, dst, dst_len, 2000);
	if (!err)
		err = expect_event(&c, &ev, UVIO_CM_EVENT_ADDR_RESOLVED, o->timeout_ms);
	if (!err)
		err = uvio_cm_resolve_route(cm, c.id, 2000);
	if (!err)
		err = expect_event(&c, &ev, UVIO_CM_EVENT_ROUTE_RESOLVED, o->timeout_ms);
	if (!err)
		err = conn_setup(&c);
	if (!err) {
		p = conn_param(&c);
		err = uvio_cm_connect(cm, c.id, &p, NULL);
		if (err)
			fail("CONNECT", err);
	}
	if (!err && !c.iwarp) {
		/* RoCE: the reply, then the QP to RTS, then the handshake's end. */
		err = expect_event(&c, &ev, UVIO_CM_EVENT_CONNECT_RESPONSE, o->timeout_ms);
		if (!err)
			err = conn_rts(&c);
		if (!err && (err = uvio_cm_accept(cm, c.id, 1, NULL, NULL)))
			fail("ACCEPT (the handshake's last message)", err);
	} else if (!err) {
		err = expect_event(&c, &ev, UVIO_CM_EVENT_ESTABLISHED, o->timeout_ms);
	}
	if (!err)
		err = ping(&c);
	if (!err) {
		err = uvio_cm_disconnect(cm, c.id);
		if (err)
			fail("DISCONNECT", err);
		else
			err = expect_event(&c, &ev, UVIO_CM_EVENT_DISCONNECTED, o->timeout_ms);
		if (!err)
			fprintf(stderr, "client DISCONNECT EVENT...\n");
	}
	if (conn_teardown(&c) && !err)
		err = -EIO;
	return err;
}

static int resolve(const char *host, uint16_t port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICSERV }, *res;
	char service[8];
	int err;

	snprintf(service, sizeof(service), "%u", port);
	err = getaddrinfo(host, service, &hints, &res);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, host, gai_strerror(err));
		return -EINVAL;
	}
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .port = 7174, .size = 64, .timeout_ms = 10000 };
	struct sockaddr_storage dst, src;
	socklen_t dst_len = 0, src_len = 0;
	struct uvio_cm *cm;
	char *end;
	int opt, err;

	if (argc > 0 && argv[0][0])
		prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	while ((opt = getopt(argc, argv, "a:I:Pp:C:S:T:t:scvVdq")) != -1) {
		unsigned long v;

		switch (opt) {
		case 'a': o.addr = optarg; break;
		case 'I': o.src = optarg; break;
		case 'P': o.persistent = true; break;
		case 's': o.server = true; break;
		case 'c': o.client = true; break;
		case 'v': o.verbose = true; break;
		case 'V': break;		/* always on */
		case 'd': o.debug = true; break;
		case 'q': break;		/* rping's own-QP mode: ours always is */
		case 't': break;		/* rping's type of service: the default here */
		case 'p': case 'C': case 'S': case 'T':
			errno = 0;
			v = strtoul(optarg, &end, 0);
			if (errno || *end || end == optarg) {
				usage();
				return 1;
			}
			if (opt == 'p' && v <= 65535) {
				o.port = (uint16_t)v;
			} else if (opt == 'C') {
				o.count = v;
			} else if (opt == 'S' && v >= MIN_SIZE && v <= MAX_SIZE) {
				o.size = (uint32_t)v;
			} else if (opt == 'T' && v >= 1 && v <= 3600) {
				o.timeout_ms = (int)v * 1000;
			} else {
				fprintf(stderr, "%s: -%c %s out of range%s\n", prog, opt, optarg,
					opt == 'S' ? " (26 to 65536)" : "");
				return 1;
			}
			break;
		default:
			usage();
			return 1;
		}
	}
	if (o.server == o.client || optind != argc || (o.client && !o.addr)) {
		usage();
		return 1;
	}
	if (o.addr && resolve(o.addr, o.port, &dst, &dst_len))
		return 1;
	if (!o.addr) {
		struct sockaddr_in any = { .sin_family = AF_INET, .sin_port = htons(o.port) };

		memcpy(&dst, &any, sizeof(any));
		dst_len = sizeof(any);
	}
	if (o.src && resolve(o.src, 0, &src, &src_len))
		return 1;
	err = uvio_cm_open(&cm);
	if (err)
		return fail("the connection manager", err) ? 1 : 0;
	if (o.server)
		err = run_server(&o, cm, (struct sockaddr *)&dst, dst_len);
	else
		err = run_client(&o, cm, (struct sockaddr *)&dst, dst_len,
				 o.src ? (struct sockaddr *)&src : NULL, src_len);
	uvio_cm_close(cm);
	return err ? 1 : 0;
}
