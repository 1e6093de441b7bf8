/* SPDX-License-Identifier: MIT */
/*
 * rc_pingpong: an RC ping-pong over rxe or mlx5 with libuverbs-ioctl alone,
 * no libibverbs. It speaks to rdma-core's ibv_rc_pingpong: the same options,
 * the same out-of-band exchange, the same traffic, so either side may be the
 * reference program.
 *
 *   rc_pingpong [options]          server: wait for a client
 *   rc_pingpong [options] HOST     client: connect to the server at HOST
 *
 * What runs where:
 *  - Control path, through the library's verbs: open the device,
 *    GET_CONTEXT, query the port and the GID, ALLOC_PD, REG_MR, a
 *    completion channel, MODIFY_QP to INIT, RTR and RTS, and the destroys.
 *  - Data path, through the library's data-path layer (<uvio/dp.h>): the CQ
 *    and QP created with their rings mapped, receive and send WQEs written
 *    there, completions read from there, the doorbell after each send.
 *  - Waiting: uvio_dp_arm_cq() arms the CQ (REQ_NOTIFY_CQ on rxe, the CQ's
 *    doorbell record and UAR page on mlx5), a read() of the completion
 *    channel sleeps; the program never spins on the CQ.
 *
 * The out-of-band exchange (TCP, port 18515 by default), as ibv_rc_pingpong
 * does it: the client sends "LLLL:QQQQQQ:PPPPPP:GGGG...G" (LID, QPN and PSN
 * in hex, the 16 GID bytes as 32 hex digits, in memory order) with its
 * terminating NUL, 52 bytes; the server answers with its own after moving
 * its QP to RTR and RTS; the client sends "done" with its NUL and moves its
 * QP. The client then sends first; each side sends its next message when
 * its previous send and the peer's message have both completed.
 *
 * Payloads: message n, in either direction, is pattern(n): n, then bytes
 * of a fixed table shifted by n (pattern_fill()). The client checks that
 * reply n is pattern(n) (ibv_rc_pingpong as the server sends back what it
 * received: the same bytes). The server checks message n against
 * pattern(n); ibv_rc_pingpong as the client sends back each reply it
 * received (its receive and send buffer are one), so its message n is
 * pattern(n - 1) and its message 0 is its buffer's initial contents, 0x7b
 * bytes: when message 0 is not pattern(0) the server checks it against that
 * fill and every later message against its own previous reply. Every
 * message is checked byte for byte as it arrives; a mismatch ends the run
 * with an error.
 *
 * Bounds (the reference program has none): -T SEC limits every wait once
 * the exchange starts, TCP and completions alike (default 10 s). A timer
 * that ticks every tenth of it (at most every second) interrupts the sleep
 * on the completion channel; -T worth of ticks without a completion ends
 * the run. A round trip reads no clock and makes no system call beyond the
 * doorbell, the arming and the read. The QP's transport retries (timeout
 * 14, about 67 ms, 7 retries) end a send to a vanished peer with a
 * completion error well before -T. -W SEC limits how long the server waits
 * for a client (default: forever, as the reference). A client retries
 * connecting until -T expires, so it may start before the server.
 *
 * Devices: rxe, and mlx5 (ConnectX-4 and later: the data-path layer writes
 * the hardware's WQEs into queues the library allocates; shown on the mlx5
 * stand-in's emulated ConnectX, kernel/6.1-mlx5-dp). siw is left out
 * because an iWARP QP cannot reach RTS with MODIFY_QP alone: iWARP needs
 * the connection manager (/dev/infiniband/rdma_cm), a second ABI.
 *
 * Accepted for compatibility and always on: -e (events), -c (payload
 * checks). Refused: -o, -O, -P, -t, -j, -N (ODP, timestamps, device
 * memory, the new post-send API). Only RoCE needs -g: give the index of
 * the IPv4-mapped GID (1 on a netdev with one IPv4 address).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_verbs.h>
#include <uvio.h>
#include <uvio/dp.h>

#ifndef RDMA_DRIVER_RXE
#define RDMA_DRIVER_RXE 14
#endif

#define LINK_LAYER_ETHERNET 2		/* ib_uverbs_query_port_resp.link_layer */

enum { WRID_RECV = 1, WRID_SEND = 2 };
enum { CQ_USER_HANDLE = 1, QP_USER_HANDLE = 2 };

#define MSG_LEN sizeof("0000:000000:000000:00000000000000000000000000000000")

struct options {
	const char *dev, *host;
	unsigned int port, ib_port, size, rx_depth, iters, sl;
	int gidx, mtu;
	int timeout_ms, accept_timeout_ms;	/* -1: no bound */
	long corrupt;				/* test hook: message to spoil, or -1 */
};

struct dest {
	uint32_t lid, qpn, psn;
	uint8_t gid[16];
};

struct pp {
	struct uvio_device *dev;
	int async_fd;
	struct uvio_comp_channel channel;
	uint32_t pd;
	bool have_pd, have_mr, have_cq, have_qp;
	struct uvio_mr mr;
	struct uvio_dp_cq cq;
	struct uvio_dp_qp qp;
	uint8_t *buf;			/* send area, then receive area */
	size_t buf_len, area;
	uint32_t send_flags;
	uint64_t events, arms, doorbells;
};

static const char *prog = "rc_pingpong";

static void die_usage(void)
{
	fprintf(stderr,
"Usage:\n"
"  %s [options]        start a server and wait for a connection\n"
"  %s [options] HOST   connect to the server at HOST\n"
"\n"
"Options (as ibv_rc_pingpong's):\n"
"  -p, --port=PORT        listen on/connect to TCP port PORT (default 18515)\n"
"  -d, --ib-dev=DEV       use device DEV (default: the first)\n"
"  -i, --ib-port=PORT     use port PORT of the device (default 1)\n"
"  -s, --size=SIZE        size of message to exchange (default 4096)\n"
"  -m, --mtu=SIZE         path MTU (default 1024)\n"
"  -r, --rx-depth=DEPTH   receives to keep posted (default 500)\n"
"  -n, --iters=ITERS      number of exchanges (default 1000)\n"
"  -l, --sl=SL            service level (default 0)\n"
"  -e, --events           sleep on CQ events (always on here)\n"
"  -g, --gid-idx=INDEX    local port GID index (RoCE: the IPv4-mapped one)\n"
"  -c, --chk              validate received buffers (always on here)\n"
"Options of this program:\n"
"  -T, --timeout=SEC      bound every wait after the start (default 10)\n"
"  -W, --accept-timeout=SEC  bound the server's wait for a client (default: none)\n"
"      --corrupt=N        (tests) flip a bit in the middle of message N we send\n",
		prog, prog);
	exit(1);
}

static void log_cb(int level, const char *msg, void *ctx)
{
	(void)level; (void)ctx;
	fprintf(stderr, "%s: libuverbs-ioctl: %s\n", prog, msg);
}

/* A failed verb: what we were doing, the errno, and the library's words. */
static int verb_fail(const char *what, int err)
{
	const char *why = uvio_last_error();

	fprintf(stderr, "%s: %s failed: %s%s%s\n", prog, what, strerror(-err),
		*why ? " -- " : "", why);
	return err;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Milliseconds left until deadline (ns), for poll(); -1 without one. */
static int left_ms(uint64_t deadline)
{
	uint64_t now;

	if (!deadline)
		return -1;
	now = now_ns();
	if (now >= deadline)
		return 0;
	return (int)((deadline - now + 999999u) / 1000000u);
}

static uint64_t deadline_in(int ms)
{
	return ms < 0 ? 0 : now_ns() + (uint64_t)ms * 1000000u;
}

/* ---- payloads ---------------------------------------------------------- */

/*
 * Message n is a window of a fixed pseudo-random table that starts n % 251
 * bytes in, with n itself (little endian) in its first four bytes: no two
 * messages of a run are equal, consecutive ones differ almost everywhere,
 * and making or checking one costs a memcpy or a memcmp, which keeps the
 * checks out of the measured latency.
 */
#define PATTERN_SHIFTS 251u
static uint8_t *pattern_table;		/* size + PATTERN_SHIFTS bytes */

static int pattern_init(uint32_t size)
{
	uint64_t x = 0x9e3779b97f4a7c15u;

	pattern_table = malloc((size_t)size + PATTERN_SHIFTS);
	if (!pattern_table)
		return -ENOMEM;
	for (size_t i = 0; i < (size_t)size + PATTERN_SHIFTS; i++) {
		x ^= x << 13;			/* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		pattern_table[i] = (uint8_t)(x >> 32);
	}
	return 0;
}

static uint8_t pattern_byte(uint32_t n, uint32_t len, uint32_t off)
{
	if (len >= 4 && off < 4)
		return (uint8_t)(n >> (8 * off));
	return pattern_table[n % PATTERN_SHIFTS + off];
}

static void pattern_fill(uint8_t *p, uint32_t len, uint32_t n)
{
	memcpy(p, pattern_table + n % PATTERN_SHIFTS, len);
	if (len >= 4)
		for (uint32_t i = 0; i < 4; i++)
			p[i] = (uint8_t)(n >> (8 * i));
}

/* Offset of the first byte that differs from pattern(n), or -1. */
static long pattern_check(const uint8_t *p, uint32_t len, uint32_t n)
{
	uint32_t from = len >= 4 ? 4 : 0;
	bool same = true;

	for (uint32_t i = 0; i < from; i++)
		same &= p[i] == (uint8_t)(n >> (8 * i));
	if (same && !memcmp(p + from, pattern_table + n % PATTERN_SHIFTS + from, len - from))
		return -1;
	for (uint32_t i = 0; i < len; i++)	/* a mismatch: find it */
		if (p[i] != pattern_byte(n, len, i))
			return (long)i;
	return -1;
}

/* ibv_rc_pingpong's buffer before its first receive: 0x7b everywhere, 0 at
 * page starts when it runs with -c. Offset of the first other byte, or -1. */
static long reference_fill_check(const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (p[i] != 0x7b && !(p[i] == 0 && i % 4096 == 0))
			return (long)i;
	return -1;
}

/* ---- the out-of-band exchange ------------------------------------------ */

static int wait_fd(int fd, short what, uint64_t deadline, const char *doing)
{
	struct pollfd pfd = { .fd = fd, .events = what };

	for (;;) {
		int n = poll(&pfd, 1, left_ms(deadline));

		if (n > 0)
			return 0;
		if (n == 0) {
			if (doing)	/* NULL: the caller explains */
				fprintf(stderr, "%s: timed out %s\n", prog, doing);
			return -ETIMEDOUT;
		}
		if (errno != EINTR) {
			fprintf(stderr, "%s: poll while %s: %s\n", prog, doing, strerror(errno));
			return -errno;
		}
	}
}

static int write_all(int fd, const void *p, size_t len, uint64_t deadline, const char *doing)
{
	const char *c = p;

	while (len) {
		ssize_t n;
		int err = wait_fd(fd, POLLOUT, deadline, doing);

		if (err)
			return err;
		n = send(fd, c, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fprintf(stderr, "%s: %s: %s\n", prog, doing, strerror(errno));
			return -errno;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read exactly len bytes; the peer closing early is an error. */
static int read_all(int fd, void *p, size_t len, uint64_t deadline, const char *doing)
{
	char *c = p;

	while (len) {
		ssize_t n;
		int err = wait_fd(fd, POLLIN, deadline, doing);

		if (err)
			return err;
		n = recv(fd, c, len, 0);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			fprintf(stderr, "%s: %s: %s\n", prog, doing, strerror(errno));
			return -errno;
		}
		if (n == 0) {
			fprintf(stderr, "%s: %s: the peer closed the connection\n", prog, doing);
			return -ECONNRESET;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

static void dest_format(const struct dest *d, char msg[MSG_LEN])
{
	int n = snprintf(msg, MSG_LEN, "%04x:%06x:%06x:", d->lid, d->qpn, d->psn);

	for (int i = 0; i < 16; i++, n += 2)
		snprintf(msg + n, MSG_LEN - (size_t)n, "%02x", d->gid[i]);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Fixed-width hex field of msg at [at, at + width). */
static int hexfield(const char *msg, size_t at, size_t width, uint32_t *out)
{
	uint32_t v = 0;

	for (size_t i = at; i < at + width; i++) {
		int h = hexval(msg[i]);

		if (h < 0)
			return -EINVAL;
		v = v << 4 | (uint32_t)h;
	}
	*out = v;
	return 0;
}

static int dest_parse(const char msg[MSG_LEN], struct dest *d)
{
	uint32_t byte;

	if (msg[4] != ':' || msg[11] != ':' || msg[18] != ':' || msg[MSG_LEN - 1] ||
	    hexfield(msg, 0, 4, &d->lid) || hexfield(msg, 5, 6, &d->qpn) ||
	    hexfield(msg, 12, 6, &d->psn))
		goto bad;
	for (int i = 0; i < 16; i++) {
		if (hexfield(msg, 19 + 2 * (size_t)i, 2, &byte))
			goto bad;
		d->gid[i] = (uint8_t)byte;
	}
	return 0;
bad:
	fprintf(stderr, "%s: the peer's address message is malformed: \"%.*s\"\n", prog,
		(int)(MSG_LEN - 1), msg);
	return -EPROTO;
}

static void dest_print(const char *which, const struct dest *d)
{
	char gid[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, d->gid, gid, sizeof(gid));
	printf("  %s LID 0x%04x, QPN 0x%06x, PSN 0x%06x, GID %s\n", which, d->lid, d->qpn,
	       d->psn, gid);
}

/* Client: connect, retrying refusals (a server not listening yet) until the
 * deadline. */
static int tcp_connect(const struct options *o, uint64_t deadline)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *t;
	char service[16];
	int fd = -1, err, last = 0;

	snprintf(service, sizeof(service), "%u", o->port);
	err = getaddrinfo(o->host, service, &hints, &res);
	if (err) {
		fprintf(stderr, "%s: %s for %s:%u\n", prog, gai_strerror(err), o->host, o->port);
		return -EHOSTUNREACH;
	}
	for (;;) {
		for (t = res; t; t = t->ai_next) {
			int soerr = 0;
			socklen_t sl = sizeof(soerr);

			fd = socket(t->ai_family, t->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
				    t->ai_protocol);
			if (fd < 0) {
				last = errno;
				continue;
			}
			if (!connect(fd, t->ai_addr, t->ai_addrlen))
				goto connected;
			if (errno == EINPROGRESS &&
			    !wait_fd(fd, POLLOUT, deadline, "connecting to the server") &&
			    !getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) && !soerr)
				goto connected;
			last = soerr ? soerr : errno;
			close(fd);
			fd = -1;
		}
		if (left_ms(deadline) == 0 || (last != ECONNREFUSED && last != ETIMEDOUT))
			break;
		usleep(100000);
	}
	freeaddrinfo(res);
	fprintf(stderr, "%s: couldn't connect to %s:%u%s: %s\n", prog, o->host, o->port,
		deadline ? " before the timeout (-T)" : "", strerror(last ? last : ETIMEDOUT));
	return -(last ? last : ETIMEDOUT);
connected:
	freeaddrinfo(res);
	return fd;
}

static int tcp_accept(const struct options *o)
{
	struct addrinfo hints = { .ai_flags = AI_PASSIVE, .ai_family = AF_UNSPEC,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *res, *t;
	char service[16];
	int lfd = -1, fd, one = 1, err;

	snprintf(service, sizeof(service), "%u", o->port);
	err = getaddrinfo(NULL, service, &hints, &res);
	if (err) {
		fprintf(stderr, "%s: %s for port %u\n", prog, gai_strerror(err), o->port);
		return -EINVAL;
	}
	for (t = res; t; t = t->ai_next) {
		lfd = socket(t->ai_family, t->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			     t->ai_protocol);
		if (lfd < 0)
			continue;
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (!bind(lfd, t->ai_addr, t->ai_addrlen) && !listen(lfd, 1))
			break;
		close(lfd);
		lfd = -1;
	}
	freeaddrinfo(res);
	if (lfd < 0) {
		fprintf(stderr, "%s: couldn't listen on port %u\n", prog, o->port);
		return -EADDRINUSE;
	}
	err = wait_fd(lfd, POLLIN, deadline_in(o->accept_timeout_ms), "waiting for a client");
	fd = err ? err : accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd == -1) {
		fd = -errno;
		fprintf(stderr, "%s: accept: %s\n", prog, strerror(errno));
	}
	close(lfd);
	return fd;
}

/* ---- verbs ------------------------------------------------------------- */

/* The local GID: the library answers from sysfs where no command has it. */
static int read_gid(struct pp *pp, const struct options *o, uint8_t gid[16])
{
	struct uvio_gid_entry e;
	int err;

	memset(gid, 0, 16);
	if (o->gidx < 0)
		return 0;
	err = uvio_query_gid_entry(pp->dev, o->ib_port, (uint32_t)o->gidx, &e, NULL);
	if (err == -ENODATA)
		fprintf(stderr, "%s: GID index %d of port %u is empty\n", prog, o->gidx,
			o->ib_port);
	else if (err)
		return verb_fail("QUERY_GID_ENTRY", err);
	else
		memcpy(gid, e.gid, 16);
	return err;
}

static int pp_open(struct pp *pp, const struct options *o, struct dest *me)
{
	struct uvio_port_attr port = { .sz = sizeof(port) };
	struct uvio_context ctx = { .sz = sizeof(ctx) };
	long page = sysconf(_SC_PAGESIZE);
	int err;

	memset(pp, 0, sizeof(*pp));
	pp->async_fd = pp->channel.fd = -1;
	pp->mr.sz = sizeof(pp->mr);
	err = uvio_device_open(o->dev, &pp->dev);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, o->dev ? o->dev : "no RDMA device",
			strerror(-err));
		return err;
	}
	if (uvio_device_driver_id(pp->dev) != RDMA_DRIVER_RXE &&
	    uvio_device_driver_id(pp->dev) != RDMA_DRIVER_MLX5) {
		fprintf(stderr, "%s: %s is neither an rxe nor an mlx5 device (driver id %u): "
			"only those reach RTS without the connection manager and have the "
			"library's data path\n", prog, uvio_device_name(pp->dev),
			uvio_device_driver_id(pp->dev));
		return -EOPNOTSUPP;
	}
	err = uvio_get_context(pp->dev, NULL, &ctx, NULL);
	if (err)
		return verb_fail("GET_CONTEXT", err);
	pp->async_fd = ctx.async_fd;
	err = uvio_query_port(pp->dev, (uint8_t)o->ib_port, &port, NULL);
	if (err)
		return verb_fail("QUERY_PORT", err);
	me->lid = port.core.lid;
	if (port.core.link_layer != LINK_LAYER_ETHERNET && !me->lid) {
		fprintf(stderr, "%s: couldn't get the local LID\n", prog);
		return -ENODEV;
	}
	err = read_gid(pp, o, me->gid);
	if (err)
		return err;

	/* One buffer, page aligned: the send area, then the receive area. */
	pp->area = ((size_t)o->size + (size_t)page - 1) & ~((size_t)page - 1);
	if (!pp->area)
		pp->area = (size_t)page;
	pp->buf_len = 2 * pp->area;
	pp->buf = mmap(NULL, pp->buf_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pp->buf == MAP_FAILED) {
		pp->buf = NULL;
		return -errno;
	}
	memset(pp->buf, 0x7b, pp->buf_len);

	err = uvio_alloc_pd(pp->dev, NULL, &pp->pd, NULL);
	if (err)
		return verb_fail("ALLOC_PD", err);
	pp->have_pd = true;
	{
		UVIO_OPTS(uvio_mr_attr, a, .pd_handle = pp->pd, .addr = pp->buf,
			  .length = pp->buf_len, .iova = (uintptr_t)pp->buf,
			  .access = IB_UVERBS_ACCESS_LOCAL_WRITE);

		err = uvio_reg_mr(pp->dev, &a, NULL, &pp->mr, NULL);
		if (err)
			return verb_fail("REG_MR", err);
		pp->have_mr = true;
	}

	pp->channel.sz = sizeof(pp->channel);
	err = uvio_create_comp_channel(pp->dev, &pp->channel, NULL);
	if (err)
		return verb_fail("CREATE_COMP_CHANNEL", err);
	{
		UVIO_OPTS(uvio_cq_attr, a, .cqe = o->rx_depth + 1, .user_handle = CQ_USER_HANDLE,
			  .channel = &pp->channel);

		err = uvio_dp_create_cq(pp->dev, &a, &pp->cq);
		if (err)
			return verb_fail("CQ.CREATE", err);
		pp->have_cq = true;
	}

	{
		UVIO_OPTS(uvio_qp_init_attr, a, .type = IB_UVERBS_QPT_RC, .user_handle = QP_USER_HANDLE,
			  .pd_handle = pp->pd, .send_cq_handle = pp->cq.handle,
			  .recv_cq_handle = pp->cq.handle,
			  .cap = { .max_send_wr = 1, .max_recv_wr = o->rx_depth,
				   .max_send_sge = 1, .max_recv_sge = 1 });

		err = uvio_dp_create_qp(pp->dev, &a, NULL, &pp->qp);
		if (err)
			return verb_fail("QP.CREATE", err);
		pp->have_qp = true;
	}
	if (uvio_dp_queue_capacity(&pp->qp.rq) < o->rx_depth) {
		fprintf(stderr, "%s: the receive ring holds %u, fewer than -r %u\n", prog,
			uvio_dp_queue_capacity(&pp->qp.rq), o->rx_depth);
		return -ENOSPC;
	}
	/* As the reference: inline when the QP can carry the whole message. */
	pp->send_flags = UVIO_DP_SEND_SIGNALED;
	if (pp->qp.cap.max_inline_data >= o->size)
		pp->send_flags |= UVIO_DP_SEND_INLINE;
	me->qpn = pp->qp.qp_num;

	{
		UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_INIT, .pkey_index = 0,
			  .port_num = (uint8_t)o->ib_port, .qp_access_flags = 0,
			  .attr_mask = UVIO_QP_STATE | UVIO_QP_PKEY_INDEX | UVIO_QP_PORT |
				       UVIO_QP_ACCESS_FLAGS);

		err = uvio_modify_qp(pp->dev, pp->qp.handle, &a, NULL, NULL);
		if (err)
			return verb_fail("QP.MODIFY to INIT", err);
	}
	return 0;
}

static int pp_connect(struct pp *pp, const struct options *o, const struct dest *me,
		      const struct dest *rem)
{
	static const uint8_t zero[16];
	int err;
	UVIO_OPTS(uvio_qp_attr, a, .qp_state = UVIO_QPS_RTR, .path_mtu = (uint8_t)o->mtu,
		  .dest_qp_num = rem->qpn, .rq_psn = rem->psn, .max_dest_rd_atomic = 1,
		  .min_rnr_timer = 12,
		  .ah = { .dlid = (uint16_t)rem->lid, .sl = (uint8_t)o->sl,
			  .port_num = (uint8_t)o->ib_port },
		  .attr_mask = UVIO_QP_STATE | UVIO_QP_AV | UVIO_QP_PATH_MTU | UVIO_QP_DEST_QPN |
			       UVIO_QP_RQ_PSN | UVIO_QP_MAX_DEST_RD_ATOMIC |
			       UVIO_QP_MIN_RNR_TIMER);

	if (memcmp(rem->gid + 8, zero, 8)) {	/* interface id set: route by GID */
		a.ah.is_global = 1;
		a.ah.hop_limit = 1;
		memcpy(a.ah.dgid, rem->gid, 16);
		a.ah.sgid_index = (uint8_t)(o->gidx < 0 ? 0 : o->gidx);
	}
	err = uvio_modify_qp(pp->dev, pp->qp.handle, &a, NULL, NULL);
	if (err)
		return verb_fail("QP.MODIFY to RTR", err);

	/* timeout 14 (4.096 us << 14, about 67 ms) and 7 retries: a send to a
	 * peer that is gone fails after about half a second. */
	memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.qp_state = UVIO_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = me->psn;
	a.max_rd_atomic = 1;
	a.attr_mask = UVIO_QP_STATE | UVIO_QP_TIMEOUT | UVIO_QP_RETRY_CNT | UVIO_QP_RNR_RETRY |
		      UVIO_QP_SQ_PSN | UVIO_QP_MAX_QP_RD_ATOMIC;
	err = uvio_modify_qp(pp->dev, pp->qp.handle, &a, NULL, NULL);
	if (err)
		return verb_fail("QP.MODIFY to RTS", err);
	return 0;
}

static int exchange(struct pp *pp, const struct options *o, const struct dest *me,
		    struct dest *rem)
{
	char msg[MSG_LEN], done[sizeof("done")];
	uint64_t deadline;
	int fd, err;

	if (o->host) {
		deadline = deadline_in(o->timeout_ms);
		fd = tcp_connect(o, deadline);
		if (fd < 0)
			return fd;
		dest_format(me, msg);
		err = write_all(fd, msg, MSG_LEN, deadline, "sending the local address");
		if (!err)
			err = read_all(fd, msg, MSG_LEN, deadline, "reading the server's address");
		if (!err)
			err = dest_parse(msg, rem);
		if (!err)
			err = write_all(fd, "done", sizeof("done"), deadline, "sending done");
		close(fd);
		return err ? err : pp_connect(pp, o, me, rem);
	}
	fd = tcp_accept(o);
	if (fd < 0)
		return fd;
	deadline = deadline_in(o->timeout_ms);
	err = read_all(fd, msg, MSG_LEN, deadline, "reading the client's address");
	if (!err)
		err = dest_parse(msg, rem);
	if (!err)
		err = pp_connect(pp, o, me, rem);
	if (!err) {
		dest_format(me, msg);
		err = write_all(fd, msg, MSG_LEN, deadline, "sending the local address");
	}
	if (!err)
		err = read_all(fd, done, sizeof(done), deadline, "reading the client's done");
	if (!err && memcmp(done, "done", sizeof(done))) {
		fprintf(stderr, "%s: the client sent \"%.4s\", not \"done\"\n", prog, done);
		err = -EPROTO;
	}
	close(fd);
	return err;
}

/* ---- the ping-pong ------------------------------------------------------ */

static int post_recv(struct pp *pp, uint32_t size)
{
	struct uvio_dp_sge sge = { .addr = (uintptr_t)(pp->buf + pp->area), .length = size,
				   .lkey = pp->mr.lkey };
	struct uvio_dp_recv_wr wr = { .wr_id = WRID_RECV, .sg_list = &sge, .num_sge = 1 };
	int err = uvio_dp_post_recv(&pp->qp, &wr, 1, NULL);

	return err ? verb_fail("posting a receive", err) : 0;
}

static int post_send(struct pp *pp, const struct options *o, uint32_t size, uint32_t n)
{
	struct uvio_dp_sge sge = { .addr = (uintptr_t)pp->buf, .length = size,
				   .lkey = pp->mr.lkey };
	struct uvio_dp_send_wr wr = { .wr_id = WRID_SEND, .opcode = IB_UVERBS_WR_SEND,
				      .flags = pp->send_flags, .sg_list = &sge, .num_sge = 1 };
	int err;

	pattern_fill(pp->buf, size, n);
	if (o->corrupt == (long)n)
		pp->buf[size / 2] ^= 0x20;	/* the peer must notice */
	pp->doorbells++;	/* the layer rings one per call */
	err = uvio_dp_post_send(&pp->qp, &wr, 1, NULL);
	return err ? verb_fail("posting a send", err) : 0;
}

/*
 * The bound on the wait for completions: SIGALRM every tenth of -T (100 ms
 * to 1 s), without SA_RESTART, so that a read() of the completion channel
 * returns EINTR; the handler counts ticks, and the loop notes the count
 * whenever completions arrive. No clock is read per round trip: in the
 * test guests the clock source is the HPET, and every clock_gettime() is a
 * system call there. The handler stays installed after the timer stops: a
 * tick still pending must not kill us.
 */
static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
	(void)sig;
	ticks = ticks + 1;
}

/* Start ticking for -T of timeout_ms (-1: stop); the tick in ms, 0 for none. */
static int watchdog(int timeout_ms, int *tick_ms)
{
	struct sigaction sa = { .sa_handler = on_tick };	/* no SA_RESTART */
	long us = timeout_ms < 0 ? 0 : (long)timeout_ms * 100;	/* a tenth, in us */
	struct itimerval it;

	if (us && us < 100000)
		us = 100000;
	if (us > 1000000)
		us = 1000000;
	it.it_interval.tv_sec = us / 1000000;
	it.it_interval.tv_usec = us % 1000000;
	it.it_value = it.it_interval;
	*tick_ms = (int)(us / 1000);
	if (us && sigaction(SIGALRM, &sa, NULL))
		return -errno;
	return setitimer(ITIMER_REAL, &it, NULL) ? -errno : 0;
}

/*
 * Sleep until the CQ has something. Arming and then looking at the ring
 * again closes the window in which a completion arrives between the last
 * look and the arming: it is either in the ring now or it will raise an
 * event. -EINTR: a watchdog tick ended the sleep.
 */
static int wait_completion(struct pp *pp, bool *armed)
{
	struct uvio_comp_event ev = { .sz = sizeof(ev) };
	int err;

	if (!*armed) {
		err = uvio_dp_arm_cq(&pp->cq, 0);
		if (err)
			return verb_fail("arming the CQ", err);
		pp->arms++;
		*armed = true;
		return 0;	/* look at the ring once more before sleeping */
	}
	err = uvio_get_comp_event(pp->channel.fd, &ev);
	if (err == -EINTR)
		return err;
	if (err)
		return verb_fail("reading the completion channel", err);
	if (ev.cq_user_handle != CQ_USER_HANDLE) {
		fprintf(stderr, "%s: completion event for an unknown CQ (user handle %" PRIu64 ")\n",
			prog, (uint64_t)ev.cq_user_handle);
		return -EPROTO;
	}
	pp->events++;
	*armed = false;		/* an event disarms the CQ */
	return 0;
}

struct run {
	uint32_t scnt, rcnt, pending, checked;
	bool echo_peer;		/* the peer sends back our previous message */
};

static int on_recv(struct pp *pp, const struct options *o, struct run *r,
		   const struct uvio_dp_wc *wc)
{
	const uint8_t *got = pp->buf + pp->area;
	uint32_t n = r->rcnt;		/* this is message n */
	uint32_t expect = n;
	long bad;

	if (wc->byte_len != o->size) {
		fprintf(stderr, "%s: message %u has %u bytes, not %u\n", prog, n, wc->byte_len,
			o->size);
		return -EPROTO;
	}
	if (!o->host && n == 0 && pattern_check(got, o->size, 0) >= 0) {
		/* Not this program's first message. ibv_rc_pingpong sends its
		 * buffer as it starts (0x7b bytes; with its -c, 0 at each page
		 * start) and then sends back each reply: its message n is our
		 * reply n - 1. */
		bad = reference_fill_check(got, o->size);
		if (bad >= 0) {
			fprintf(stderr, "%s: message 0 is neither pattern 0 nor ibv_rc_pingpong's "
				"initial buffer: byte %ld is 0x%02x\n", prog, bad, got[bad]);
			return -EBADMSG;
		}
		r->echo_peer = true;
		printf("  the peer echoes (ibv_rc_pingpong): message 0 is its initial buffer, "
		       "message n our reply n - 1\n");
	} else {
		if (r->echo_peer)
			expect = n - 1;
		bad = pattern_check(got, o->size, expect);
		if (bad >= 0) {
			fprintf(stderr, "%s: message %u differs from pattern %u at byte %ld: "
				"0x%02x, expected 0x%02x\n", prog, n, expect, bad, got[bad],
				pattern_byte(expect, o->size, (uint32_t)bad));
			return -EBADMSG;
		}
	}
	r->checked++;
	r->rcnt++;
	return post_recv(pp, o->size);	/* keep rx_depth receives posted */
}

static int pingpong_loop(struct pp *pp, const struct options *o, double *secs,
			 uint32_t *checked);

static int run_pingpong(struct pp *pp, const struct options *o, double *secs,
			uint32_t *checked)
{
	int err = pingpong_loop(pp, o, secs, checked), tick_ms;

	watchdog(-1, &tick_ms);		/* stop the ticks */
	return err;
}

static int pingpong_loop(struct pp *pp, const struct options *o, double *secs,
			 uint32_t *checked)
{
	struct uvio_dp_wc wc[8];
	struct run r = { .pending = WRID_RECV };
	bool armed = false;
	sig_atomic_t seen;
	int err, tick_ms, limit;
	uint64_t t0;

	if (o->host) {
		err = post_send(pp, o, o->size, 0);
		if (err)
			return err;
		r.pending |= WRID_SEND;
	}
	err = watchdog(o->timeout_ms, &tick_ms);
	if (err) {
		fprintf(stderr, "%s: starting the watchdog timer: %s\n", prog, strerror(-err));
		return err;
	}
	/* Ticks without a completion that make the -T bound. */
	limit = tick_ms ? (o->timeout_ms + tick_ms - 1) / tick_ms : 0;
	seen = ticks;
	t0 = now_ns();
	while (r.rcnt < o->iters || r.scnt < o->iters) {
		int n = uvio_dp_poll_cq(&pp->cq, wc, 8);

		if (n < 0)
			return n;
		if (n == 0) {
			err = wait_completion(pp, &armed);
			if (err == -EINTR) {
				if (!limit || ticks - seen < limit)
					continue;
				fprintf(stderr, "%s: timed out waiting for a completion: nothing for "
					"%d s after %u sends and %u receives; the peer is gone or "
					"stalled\n", prog, o->timeout_ms / 1000, r.scnt, r.rcnt);
				return -ETIMEDOUT;
			}
			if (err)
				return err;
			continue;
		}
		seen = ticks;
		for (int i = 0; i < n; i++) {
			if (wc[i].status) {
				fprintf(stderr, "%s: %s completion failed: %s (status %u, vendor "
					"error 0x%x) after %u sends and %u receives\n", prog,
					wc[i].wr_id == WRID_SEND ? "send" : "receive",
					uvio_wc_status_name(wc[i].status), wc[i].status,
					wc[i].vendor_err, r.scnt, r.rcnt);
				return -EIO;
			}
			if (wc[i].qp_num != pp->qp.qp_num) {
				fprintf(stderr, "%s: completion for QP 0x%x, not ours\n", prog,
					wc[i].qp_num);
				return -EPROTO;
			}
			if (wc[i].wr_id == WRID_SEND && wc[i].opcode == UVIO_WC_SEND) {
				r.scnt++;
			} else if (wc[i].wr_id == WRID_RECV && wc[i].opcode == UVIO_WC_RECV) {
				err = on_recv(pp, o, &r, &wc[i]);
				if (err)
					return err;
			} else {
				fprintf(stderr, "%s: unexpected completion: wr_id %" PRIu64
					", opcode %u\n", prog, (uint64_t)wc[i].wr_id,
					wc[i].opcode);
				return -EPROTO;
			}
			r.pending &= ~(uint32_t)wc[i].wr_id;
			if (r.scnt < o->iters && !r.pending) {
				/* The client's message n follows reply n - 1;
				 * the server's reply n follows message n. */
				err = post_send(pp, o, o->size, o->host ? r.scnt : r.rcnt - 1);
				if (err)
					return err;
				r.pending = WRID_RECV | WRID_SEND;
			}
		}
	}
	*secs = (double)(now_ns() - t0) / 1e9;
	*checked = r.checked;
	return 0;
}

/* Everything that pp_open made, in reverse; safe on a half-made pp. */
static int pp_close(struct pp *pp, bool check_events)
{
	UVIO_OPTS(uvio_events_reported, ev);
	int err, ret = 0;

	if (pp->have_qp) {
		err = uvio_dp_destroy_qp(&pp->qp, NULL);
		if (err)
			ret = verb_fail("QP.DESTROY", err);
	}
	if (pp->have_cq) {
		err = uvio_dp_destroy_cq(&pp->cq, &ev);
		if (err)
			ret = verb_fail("CQ.DESTROY", err);
		else if (check_events && ev.comp_events_reported != pp->events) {
			fprintf(stderr, "%s: the kernel reported %u completion events, we read "
				"%" PRIu64 "\n", prog, ev.comp_events_reported, pp->events);
			ret = -EPROTO;
		}
	}
	if (pp->channel.fd >= 0)
		close(pp->channel.fd);
	if (pp->have_mr) {
		err = uvio_dereg_mr(pp->dev, pp->mr.handle, NULL);
		if (err)
			ret = verb_fail("DEREG_MR", err);
	}
	if (pp->have_pd) {
		err = uvio_dealloc_pd(pp->dev, pp->pd, NULL);
		if (err)
			ret = verb_fail("DEALLOC_PD", err);
	}
	if (pp->buf)
		munmap(pp->buf, pp->buf_len);
	if (pp->async_fd >= 0)
		close(pp->async_fd);
	if (pp->dev)
		uvio_device_close(pp->dev);
	return ret;
}

/* ---- options ------------------------------------------------------------ */

static unsigned long num(const char *s, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > max || *s == '-') {
		fprintf(stderr, "%s: bad number \"%s\" (at most %lu)\n", prog, s, max);
		die_usage();
	}
	return v;
}

static int mtu_enum(unsigned long mtu)
{
	switch (mtu) {
	case 256: return UVIO_MTU_256;
	case 512: return UVIO_MTU_512;
	case 1024: return UVIO_MTU_1024;
	case 2048: return UVIO_MTU_2048;
	case 4096: return UVIO_MTU_4096;
	default:
		fprintf(stderr, "%s: MTU %lu is none of 256, 512, 1024, 2048, 4096\n", prog, mtu);
		die_usage();
	}
	return 0;
}

static void parse(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{ "port", 1, NULL, 'p' }, { "ib-dev", 1, NULL, 'd' },
		{ "ib-port", 1, NULL, 'i' }, { "size", 1, NULL, 's' },
		{ "mtu", 1, NULL, 'm' }, { "rx-depth", 1, NULL, 'r' },
		{ "iters", 1, NULL, 'n' }, { "sl", 1, NULL, 'l' },
		{ "events", 0, NULL, 'e' }, { "gid-idx", 1, NULL, 'g' },
		{ "chk", 0, NULL, 'c' }, { "timeout", 1, NULL, 'T' },
		{ "accept-timeout", 1, NULL, 'W' }, { "corrupt", 1, NULL, 'C' },
		{ "odp", 0, NULL, 'o' }, { "iodp", 0, NULL, 'O' }, { "prefetch", 0, NULL, 'P' },
		{ "ts", 0, NULL, 't' }, { "dm", 0, NULL, 'j' }, { "new_send", 0, NULL, 'N' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct options){ .port = 18515, .ib_port = 1, .size = 4096, .rx_depth = 500,
			       .iters = 1000, .gidx = -1, .mtu = UVIO_MTU_1024,
			       .timeout_ms = 10000, .accept_timeout_ms = -1, .corrupt = -1 };
	while ((c = getopt_long(argc, argv, "p:d:i:s:m:r:n:l:eg:cT:W:oOPtjN", longs, NULL)) != -1) {
		switch (c) {
		case 'p': o->port = (unsigned int)num(optarg, 65535); break;
		case 'd': o->dev = optarg; break;
		case 'i': o->ib_port = (unsigned int)num(optarg, 255);
			  if (!o->ib_port)
				  die_usage();
			  break;
		case 's': o->size = (unsigned int)num(optarg, 1u << 30);
			  if (!o->size)
				  die_usage();
			  break;
		case 'm': o->mtu = mtu_enum(num(optarg, 4096)); break;
		case 'r': o->rx_depth = (unsigned int)num(optarg, 1u << 16);
			  if (!o->rx_depth)
				  die_usage();
			  break;
		case 'n': o->iters = (unsigned int)num(optarg, INT_MAX); break;
		case 'l': o->sl = (unsigned int)num(optarg, 15); break;
		case 'g': o->gidx = (int)num(optarg, 255); break;
		case 'e': case 'c': break;
		case 'C': o->corrupt = (long)num(optarg, UINT32_MAX); break;
		case 'T': o->timeout_ms = (int)num(optarg, INT_MAX / 1000) * 1000; break;
		case 'W': o->accept_timeout_ms = (int)num(optarg, INT_MAX / 1000) * 1000;
			  if (!o->accept_timeout_ms)
				  o->accept_timeout_ms = -1;
			  break;
		case 'o': case 'O': case 'P': case 't': case 'j': case 'N':
			fprintf(stderr, "%s: -%c is an ibv_rc_pingpong option this program does "
				"not carry (ODP, timestamps, device memory, new post-send API)\n",
				prog, c);
			exit(1);
		default:
			die_usage();
		}
	}
	if (optind == argc - 1)
		o->host = argv[optind];
	else if (optind < argc)
		die_usage();
	if (o->timeout_ms == 0)
		o->timeout_ms = -1;
}

/* A random 24-bit PSN, as the reference draws one. */
static uint32_t random_psn(void)
{
	uint32_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		v = (uint32_t)(now_ns() ^ (uint64_t)getpid() << 16);
	if (fd >= 0)
		close(fd);
	return v & 0xffffff;
}

int main(int argc, char **argv)
{
	struct options o;
	struct dest me = { 0 }, rem = { 0 };
	struct pp pp;
	double secs = 0;
	uint32_t checked = 0;
	int err, cerr;

	parse(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pattern_init(o.size)) {
		fprintf(stderr, "%s: no memory for %u-byte patterns\n", prog, o.size);
		return 1;
	}
	uvio_set_log(log_cb, NULL, NULL);

	err = pp_open(&pp, &o, &me);
	if (err)
		goto out;
	/* All receives up front, as the reference posts rx_depth. */
	for (uint32_t i = 0; i < o.rx_depth && !err; i++)
		err = post_recv(&pp, o.size);
	if (err)
		goto out;
	me.psn = random_psn();
	dest_print("local address: ", &me);
	err = exchange(&pp, &o, &me, &rem);
	if (err)
		goto out;
	dest_print("remote address:", &rem);
	err = run_pingpong(&pp, &o, &secs, &checked);
	if (err)
		goto out;
	{
		long long bytes = (long long)o.size * o.iters * 2;
		double usec = secs * 1e6;

		printf("%lld bytes in %.2f seconds = %.2f Mbit/sec\n", bytes, secs,
		       usec > 0 ? (double)bytes * 8. / usec : 0.);
		printf("%u iters in %.2f seconds = %.2f usec/iter\n", o.iters, secs,
		       o.iters ? usec / o.iters : 0.);
		printf("%u of %u received messages checked byte for byte; %" PRIu64
		       " completion events, %" PRIu64 " REQ_NOTIFY_CQ, %" PRIu64 " doorbells\n",
		       checked, o.iters, pp.events, pp.arms, pp.doorbells);
	}
out:
	cerr = pp_close(&pp, !err);
	if (!err)
		err = cerr;
	free(pattern_table);
	if (err)
		fprintf(stderr, "%s: FAILED: %s\n", prog, strerror(err < 0 ? -err : err));
	return err ? 1 : 0;
}
