/* Shared by kt_qp and kt_events: see kt_qp_lib.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kt_qp_lib.h"

const char *const mode_name[] = { "ioctl", "write", "filter" };

enum mode mode;
const char *devname;
bool siw;
int verbs_counted;

/* The path a verb must report in this mode. */
static enum uvio_path want_path(bool native)
{
	if (mode != M_IOCTL)
		return UVIO_PATH_WRITE;
	return native ? UVIO_PATH_IOCTL : UVIO_PATH_INVOKE_WRITE;
}

void verb_check(const char *what, int line, int ret, int want_ret, enum uvio_path p,
		bool native, long ioctls, long writes)
{
	enum uvio_path want = want_path(native);
	bool by_ioctl = p == UVIO_PATH_IOCTL || p == UVIO_PATH_INVOKE_WRITE;

	verbs_counted++;
	if (ret != want_ret) {
		kt_failures++;
		printf("FAIL line %d: %s on %s (%s): %d (%s), want %d (%s): %s\n", line, what,
		       devname, mode_name[mode], ret, ret ? uvio_errno_name(ret) : "0", want_ret,
		       want_ret ? uvio_errno_name(want_ret) : "0", uvio_last_error());
	}
	KT_CHECK(p == want, "line %d: %s ran over %s, want %s", line, what, uvio_path_name(p),
		 uvio_path_name(want));
	KT_CHECK(ioctls == (by_ioctl ? 1 : 0) && writes == (by_ioctl ? 0 : 1),
		 "line %d: %s over %s cost %ld ioctl + %ld write", line, what,
		 uvio_path_name(p), ioctls, writes);
}

bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &ma, &mi);
	return ma > major || (ma == major && mi >= minor);
}

/* GID index 1 of port 1 from sysfs: rxe's RoCE v2 IPv4-mapped GID. */
int read_gid(const char *dev, int index, uint8_t gid[16], char *type, size_t tlen)
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

int setup(const struct uvio_device_info *info, struct objs *o)
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
	o->channel.sz = sizeof(o->channel);
	KT_EQ(uvio_create_comp_channel(o->dev, &o->channel, &p), 0);
	UVIO_OPTS(uvio_cq_attr, ca, .cqe = 64, .user_handle = 0xc0, .channel = &o->channel);
	UVIO_OPTS(uvio_drv, drv, .out = o->cq_drv, .out_len = sizeof(o->cq_drv));
	o->cq.sz = sizeof(o->cq);
	KT_EQ(uvio_create_cq(o->dev, &ca, &drv, &o->cq, &p), 0);
	/* From here on, every verb is counted. */
	syscount_fd = uvio_device_fd(o->dev);
	syscount_ioctls = syscount_writes = 0;
	return 0;
}

void teardown(struct objs *o)
{
	enum uvio_path p;

	syscount_fd = -1;
	if (o->cq.handle != UINT32_MAX)	/* UINT32_MAX: destroyed by the test */
		KT_EQ(uvio_destroy_cq(o->dev, o->cq.handle, NULL, &p), 0);
	KT_EQ(uvio_dealloc_pd(o->dev, o->pd, &p), 0);
	close(o->channel.fd);
	close(o->ctx.async_fd);
	uvio_device_close(o->dev);
}

void rc_init_attr(struct uvio_qp_init_attr *a, const struct objs *o, uint64_t uh)
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

int to_init(struct objs *o, uint32_t qp, enum uvio_path *p)
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

int to_rtr(struct objs *o, uint32_t qp, uint32_t dest_qpn, const uint8_t gid[16],
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

int to_rts(struct objs *o, uint32_t qp, enum uvio_path *p)
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
int qp_lines(uint32_t qpn, const char *what)
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
int qp_count(int pid)
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
void qp_witness(uint32_t qpn, const char *what, int want)
{
	if (qp_lines(qpn, what) != want) {
		char out[4096];

		kt_run("rdma resource show qp", out, sizeof(out));
		KT_CHECK(0, "rdma resource show qp: QPN %u with '%s' not %d times in:\n%s", qpn,
			 what, want, out);
	}
}


int kt_qp_main(enum mode first, enum mode last,
	       void (*before)(const struct uvio_device_info *),
	       void (*run)(const struct uvio_device_info *))
{
	struct uvio_device_info devs[8];
	int n = uvio_list_devices(devs, 8);

	KT_CHECK(n > 0, "no device listed: %d", n);
	for (int i = 0; i < n && i < 8; i++) {
		devname = devs[i].name;
		siw = !strncmp(devname, "siw", 3);
		if (before)
			before(&devs[i]);
		for (int m = first; m <= (int)last; m++) {
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
