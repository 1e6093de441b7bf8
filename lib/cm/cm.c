// SPDX-License-Identifier: MIT
/*
 * The connection manager's commands: one write() each of
 * [struct rdma_ucm_cmd_hdr | the command's struct] on /dev/infiniband/rdma_cm,
 * laid out on the stack. A command that answers names its response buffer
 * in the struct's first field (in is the struct's size, out the response's).
 */
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <syslog.h>
#include <uvio/cm.h>
#include <uvio/qp.h>
#include <uvio/device.h>
#include <uvio/diag.h>

#include "abi/rdma_cm.h"
#include "cmd/memcheck.h"
#include "cmd/sys.h"
#include "device/discover.h"
#include "opts.h"
#include "report/report.h"

#define CM_ABI_VERSION 4	/* RDMA_USER_CM_ABI_VERSION */
_Static_assert(CM_ABI_VERSION == RDMA_USER_CM_ABI_VERSION, "rdma_cm ABI version");
/* Layouts: lib/abi/rdma_cm.c describes them and checks them against the header. */

struct uvio_cm {
	int fd;
	bool owned;
};

UVIO_API const char *uvio_cm_event_name(uint32_t event)
{
	return abi_cm_event_name(event);
}
_Static_assert(UVIO_CM_EVENT_TIMEWAIT_EXIT + 1 == ABI_CM_NEVENTS, "an enumerator per event");

/* Every failure is said: "rdma_cm LISTEN: EBADF: ...", or for what is no
 * command "uvio_cm_open: EINVAL: argument cm: NULL". */
static __attribute__((noinline, cold)) int cm_failed(uint32_t cmd, int ret, const char *why)
{
	return uvio_fail(LOG_DEBUG, ret, "rdma_cm %s: %s: %s", abi_cm_cmd(cmd)->name,
			 uvio_errno_name(ret), why ? why : "the kernel's answer");
}

static __attribute__((noinline, cold)) int cm_bad_arg(const char *fn, const char *arg,
						      const char *why)
{
	return uvio_fail(LOG_DEBUG, -EINVAL, "%s: EINVAL: argument %s: %s", fn, arg, why);
}

/*
 * One command: the header, then len bytes of the command's struct, with the
 * response address where the ABI's description puts it (the first field,
 * CREATE_ID's second) when resp_len is not 0. The kernel answers with the
 * bytes it consumed.
 */
static int cm_write(const struct uvio_cm *cm, uint32_t cmd, void *in, size_t len, void *resp,
		    size_t resp_len)
{
	uint64_t buf[(sizeof(struct rdma_ucm_cmd_hdr) + sizeof(struct rdma_ucm_accept) + 7) / 8];
	struct rdma_ucm_cmd_hdr *hdr = (struct rdma_ucm_cmd_hdr *)buf;
	const struct abi_cm_cmd *d = abi_cm_cmd(cmd);
	ssize_t n;

	_Static_assert(sizeof(struct rdma_ucm_accept) >= sizeof(struct rdma_ucm_resolve_addr) &&
		       sizeof(struct rdma_ucm_accept) >= sizeof(struct rdma_ucm_reject) &&
		       sizeof(struct rdma_ucm_accept) >= sizeof(struct rdma_ucm_connect),
		       "the buffer holds the longest command");
	if (!cm)
		return cm_failed(cmd, -EINVAL, "argument cm: NULL");
	if (len != d->in.size || (resp_len && d->resp_at < 0))
		return cm_failed(cmd, -EFAULT, "built against another description (a library bug)");
	hdr->cmd = cmd;
	hdr->in = (uint16_t)len;
	hdr->out = (uint16_t)resp_len;
	if (resp_len) {
		uint64_t at = (uintptr_t)resp;

		memcpy((char *)in + d->resp_at, &at, sizeof(at));
	}
	memcpy(hdr + 1, in, len);
	n = uvio_sys_write(cm->fd, buf, sizeof(*hdr) + len);
	if (n < 0)
		return cm_failed(cmd, (int)n, NULL);
	if ((size_t)n != sizeof(*hdr) + len)
		return cm_failed(cmd, -EIO, "the kernel took part of the command");
	uvio_memcheck_written(resp, resp_len);
	return 0;
}

static int abi_check(void)
{
	char path[256], v[16];
	int ret;

	snprintf(path, sizeof(path), "%s/class/misc/rdma_cm/abi_version", uvio_sysfs_root);
	ret = uvio_sysfs_read(path, v, sizeof(v));
	if (ret) {
		uvio_set_last_error("rdma_cm: no %s (%s): is rdma_ucm loaded?", path,
				    uvio_errno_name(ret));
		return -ENODEV;
	}
	if (atoi(v) != CM_ABI_VERSION) {
		uvio_set_last_error("rdma_cm: the kernel speaks ABI version %s, this library %d",
				    v, CM_ABI_VERSION);
		return -EPROTO;
	}
	return 0;
}

/* Commands go to the connection manager only: written to a file or a
 * pipe they would land there. fd must be the character device whose
 * major:minor /sys/class/misc/rdma_cm/dev names. */
static int cm_fd_check(int fd)
{
	char path[256];
	struct stat st;
	int ret = uvio_sys_fstat(fd, &st);

	if (ret)
		return uvio_fail(LOG_DEBUG, ret, "rdma_cm: fd %d: %s: fstat failed", fd,
				 uvio_errno_name(ret));
	snprintf(path, sizeof(path), "%s/class/misc/rdma_cm/dev", uvio_sysfs_root);
	if (S_ISCHR(st.st_mode) && uvio_sysfs_dev_is(path, st.st_rdev))
		return 0;
	uvio_set_last_error("rdma_cm: fd %d is not /dev/infiniband/rdma_cm", fd);
	return -ENODEV;
}

static int cm_new(int fd, bool owned, struct uvio_cm **out)
{
	struct uvio_cm *cm = malloc(sizeof(*cm));

	if (!cm)
		return uvio_fail(LOG_ERR, -ENOMEM, "rdma_cm: ENOMEM: no memory for the handle");
	cm->fd = fd;
	cm->owned = owned;
	*out = cm;
	return 0;
}

UVIO_API int uvio_cm_open(struct uvio_cm **cm)
{
	int fd, ret;

	if (!cm)
		return cm_bad_arg("uvio_cm_open", "cm", "NULL");
	*cm = NULL;
	ret = abi_check();
	if (ret)
		return ret;
	fd = open("/dev/infiniband/rdma_cm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		uvio_set_last_error("rdma_cm: /dev/infiniband/rdma_cm: %s", uvio_errno_name(ret));
		return ret;
	}
	ret = cm_fd_check(fd);
	if (!ret)
		ret = cm_new(fd, true, cm);
	if (ret)
		close(fd);
	return ret;
}

UVIO_API int uvio_cm_adopt(int fd, struct uvio_cm **cm)
{
	int ret;

	if (!cm)
		return cm_bad_arg("uvio_cm_adopt", "cm", "NULL");
	if (fd < 0)
		return cm_bad_arg("uvio_cm_adopt", "fd", "negative");
	*cm = NULL;
	ret = abi_check();
	if (!ret)
		ret = cm_fd_check(fd);
	return ret ? ret : cm_new(fd, false, cm);
}

UVIO_API void uvio_cm_close(struct uvio_cm *cm)
{
	if (!cm)
		return;
	if (cm->owned)
		close(cm->fd);
	free(cm);
}

UVIO_API int uvio_cm_fd(const struct uvio_cm *cm)
{
	return cm ? cm->fd : cm_bad_arg("uvio_cm_fd", "cm", "NULL");
}

UVIO_API int uvio_cm_create_id(struct uvio_cm *cm, uint64_t uid, uint16_t ps, uint8_t qp_type,
			       uint32_t *id)
{
	struct rdma_ucm_create_id c = { .uid = uid, .ps = ps, .qp_type = qp_type };
	struct rdma_ucm_create_id_resp r = { .id = UINT32_MAX };
	int ret;

	if (!id)
		return cm_failed(RDMA_USER_CM_CMD_CREATE_ID, -EINVAL, "argument id: NULL");
	ret = cm_write(cm, RDMA_USER_CM_CMD_CREATE_ID, &c, sizeof(c), &r, sizeof(r));
	if (!ret)
		*id = r.id;
	return ret;
}

/* DESTROY_ID, LEAVE_MCAST: the id, answered with its events' count. */
static int counted(struct uvio_cm *cm, uint32_t cmd, uint32_t id, uint32_t *events_reported)
{
	struct rdma_ucm_destroy_id c = { .id = id };
	struct rdma_ucm_destroy_id_resp r;
	int ret = cm_write(cm, cmd, &c, sizeof(c), &r, sizeof(r));

	if (!ret && events_reported)
		*events_reported = r.events_reported;
	return ret;
}

UVIO_API int uvio_cm_destroy_id(struct uvio_cm *cm, uint32_t id, uint32_t *events_reported)
{
	return counted(cm, RDMA_USER_CM_CMD_DESTROY_ID, id, events_reported);
}

UVIO_API int uvio_cm_leave_mcast(struct uvio_cm *cm, uint32_t id, uint32_t *events_reported)
{
	return counted(cm, RDMA_USER_CM_CMD_LEAVE_MCAST, id, events_reported);
}

/* An address the kernel takes as a sockaddr_storage of len bytes. */
static int addr_in(uint32_t cmd, struct __kernel_sockaddr_storage *dst, uint16_t *size,
		   const struct sockaddr *src, socklen_t len)
{
	if (!src || len < sizeof(sa_family_t) || len > sizeof(*dst))
		return cm_failed(cmd, -EINVAL, "an address of a size no sockaddr has");
	memcpy(dst, src, len);
	*size = (uint16_t)len;
	return 0;
}

UVIO_API int uvio_cm_bind(struct uvio_cm *cm, uint32_t id, const struct sockaddr *addr,
			  socklen_t len)
{
	struct rdma_ucm_bind c = { .id = id };
	int ret = addr_in(RDMA_USER_CM_CMD_BIND, &c.addr, &c.addr_size, addr, len);

	return ret ? ret : cm_write(cm, RDMA_USER_CM_CMD_BIND, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_resolve_addr(struct uvio_cm *cm, uint32_t id, const struct sockaddr *src,
				  socklen_t src_len, const struct sockaddr *dst,
				  socklen_t dst_len, uint32_t timeout_ms)
{
	struct rdma_ucm_resolve_addr c = { .id = id, .timeout_ms = timeout_ms };
	int ret = 0;

	if (src)
		ret = addr_in(RDMA_USER_CM_CMD_RESOLVE_ADDR, &c.src_addr, &c.src_size, src, src_len);
	if (!ret)
		ret = addr_in(RDMA_USER_CM_CMD_RESOLVE_ADDR, &c.dst_addr, &c.dst_size, dst, dst_len);
	return ret ? ret : cm_write(cm, RDMA_USER_CM_CMD_RESOLVE_ADDR, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_resolve_route(struct uvio_cm *cm, uint32_t id, uint32_t timeout_ms)
{
	struct rdma_ucm_resolve_route c = { .id = id, .timeout_ms = timeout_ms };

	return cm_write(cm, RDMA_USER_CM_CMD_RESOLVE_ROUTE, &c, sizeof(c), NULL, 0);
}

static int query(struct uvio_cm *cm, uint32_t id, uint32_t option, void *resp, size_t len)
{
	struct rdma_ucm_query c = { .id = id, .option = option };

	/* The header counts the answer's bytes in 16 bits. */
	if (!resp || !len || len > UINT16_MAX)
		return cm_failed(RDMA_USER_CM_CMD_QUERY, -EINVAL, "no room for the answer");
	memset(resp, 0, len);	/* the kernel may answer with less */
	return cm_write(cm, RDMA_USER_CM_CMD_QUERY, &c, sizeof(c), resp, len);
}

UVIO_API int uvio_cm_query_addr(struct uvio_cm *cm, uint32_t id,
				struct rdma_ucm_query_addr_resp *resp)
{
	return query(cm, id, RDMA_USER_CM_QUERY_ADDR, resp, sizeof(*resp));
}

/* The node GUID sysfs shows for an IB device, "0011:2233:4455:6677",
 * as a number: 0 when it cannot be read. */
static uint64_t sysfs_node_guid(const char *name)
{
	char path[256], v[32];
	unsigned int w[4];

	int len = snprintf(path, sizeof(path), "%s/class/infiniband/%s/node_guid",
			   uvio_sysfs_root, name);

	if (len < 0 || (size_t)len >= sizeof(path) || uvio_sysfs_read(path, v, sizeof(v)) ||
	    sscanf(v, "%4x:%4x:%4x:%4x", &w[0], &w[1], &w[2], &w[3]) != 4)
		return 0;
	return (uint64_t)w[0] << 48 | (uint64_t)w[1] << 32 | (uint64_t)w[2] << 16 | w[3];
}

/*
 * The kernel names the id's device by its RDMA index (ibdev_index, since
 * Linux 5.5) and by node GUID; two devices on one netdev (rxe0 and siw0)
 * share the GUID, so the index decides, and the GUID confirms it where
 * sysfs shows one. An older kernel leaves the index out: the first device
 * with the GUID, as librdmacm picks.
 */
UVIO_API int uvio_cm_device_open(struct uvio_cm *cm, uint32_t id, struct uvio_device **dev)
{
	struct rdma_ucm_query_addr_resp q;
	struct uvio_device_info devs[32];
	const struct uvio_device_info *by_guid = NULL, *pick = NULL;
	uint64_t guid;
	int n, i, ret;

	if (!dev)
		return cm_failed(RDMA_USER_CM_CMD_QUERY, -EINVAL, "no room for the device");
	*dev = NULL;
	memset(&q, 0, sizeof(q));
	q.ibdev_index = UINT32_MAX;	/* stays so where the kernel lacks it */
	ret = uvio_cm_query_addr(cm, id, &q);
	if (ret)
		return ret;
	guid = be64toh(q.node_guid);
	if (!guid)
		return cm_failed(RDMA_USER_CM_CMD_QUERY, -ENOTCONN,
				 "the id has no device yet: bind it to an RDMA address or resolve one");
	n = uvio_list_devices_bare(devs, sizeof(devs) / sizeof(devs[0]));
	if (n < 0)
		return n;
	if (n > (int)(sizeof(devs) / sizeof(devs[0])))
		n = sizeof(devs) / sizeof(devs[0]);
	for (i = 0; i < n && !pick; i++) {
		uint64_t g = sysfs_node_guid(devs[i].name);
		bool index = devs[i].source == UVIO_SOURCE_NETLINK && devs[i].index == q.ibdev_index;

		if (g == guid && !by_guid)
			by_guid = &devs[i];
		if (index && (g == guid || !g))
			pick = &devs[i];
	}
	if (!pick)
		pick = by_guid;
	if (!pick) {
		uvio_set_last_error("rdma_cm QUERY: no uverbs device has node GUID %016llx "
				    "(RDMA index %u)", (unsigned long long)guid, q.ibdev_index);
		return -ENODEV;
	}
	return uvio_device_open(pick->name, dev);
}

UVIO_API int uvio_cm_query_gid(struct uvio_cm *cm, uint32_t id,
			       struct rdma_ucm_query_addr_resp *resp)
{
	return query(cm, id, RDMA_USER_CM_QUERY_GID, resp, sizeof(*resp));
}

UVIO_API int uvio_cm_query_path(struct uvio_cm *cm, uint32_t id, void *resp, size_t len)
{
	if (len < sizeof(struct rdma_ucm_query_path_resp))
		return cm_failed(RDMA_USER_CM_CMD_QUERY, -EINVAL, "no room for the answer");
	return query(cm, id, RDMA_USER_CM_QUERY_PATH, resp, len);
}

UVIO_API int uvio_cm_listen(struct uvio_cm *cm, uint32_t id, uint32_t backlog)
{
	struct rdma_ucm_listen c = { .id = id, .backlog = backlog };

	return cm_write(cm, RDMA_USER_CM_CMD_LISTEN, &c, sizeof(c), NULL, 0);
}

static int conn_param_in(uint32_t cmd, struct rdma_ucm_conn_param *dst,
			 const struct rdma_ucm_conn_param *src)
{
	if (!src)
		return cm_failed(cmd, -EINVAL, "no connection parameters");
	*dst = *src;
	dst->valid = 1;		/* the kernel reads the parameters only then */
	return 0;
}

UVIO_API int uvio_cm_connect(struct uvio_cm *cm, uint32_t id,
			     const struct rdma_ucm_conn_param *param,
			     const struct rdma_ucm_ece *ece)
{
	struct rdma_ucm_connect c = { .id = id };
	int ret = conn_param_in(RDMA_USER_CM_CMD_CONNECT, &c.conn_param, param);

	if (ece)
		c.ece = *ece;
	return ret ? ret : cm_write(cm, RDMA_USER_CM_CMD_CONNECT, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_accept(struct uvio_cm *cm, uint32_t id, uint64_t uid,
			    const struct rdma_ucm_conn_param *param,
			    const struct rdma_ucm_ece *ece)
{
	struct rdma_ucm_accept c = { .uid = uid, .id = id };
	/* Without parameters (valid 0): the active side's completion of a
	 * RoCE handshake, once its QP is in RTS. */
	int ret = param ? conn_param_in(RDMA_USER_CM_CMD_ACCEPT, &c.conn_param, param) : 0;

	if (ece)
		c.ece = *ece;
	return ret ? ret : cm_write(cm, RDMA_USER_CM_CMD_ACCEPT, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_reject(struct uvio_cm *cm, uint32_t id, uint8_t reason,
			    const void *private_data, uint8_t private_data_len)
{
	struct rdma_ucm_reject c = { .id = id, .reason = reason,
				     .private_data_len = private_data_len };

	if (private_data_len) {
		if (!private_data)
			return cm_failed(RDMA_USER_CM_CMD_REJECT, -EINVAL,
					 "private data length without data");
		memcpy(c.private_data, private_data, private_data_len);
	}
	return cm_write(cm, RDMA_USER_CM_CMD_REJECT, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_disconnect(struct uvio_cm *cm, uint32_t id)
{
	struct rdma_ucm_disconnect c = { .id = id };

	return cm_write(cm, RDMA_USER_CM_CMD_DISCONNECT, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_init_qp_attr(struct uvio_cm *cm, uint32_t id, uint32_t qp_state,
				  struct ib_uverbs_qp_attr *attr)
{
	struct rdma_ucm_init_qp_attr c = { .id = id, .qp_state = qp_state };

	if (!attr)
		return cm_failed(RDMA_USER_CM_CMD_INIT_QP_ATTR, -EINVAL, "no room for the answer");
	memset(attr, 0, sizeof(*attr));
	return cm_write(cm, RDMA_USER_CM_CMD_INIT_QP_ATTR, &c, sizeof(c), attr, sizeof(*attr));
}

static void av_from_ah_attr(struct uvio_av *av, const struct ib_uverbs_ah_attr *k)
{
	memcpy(av->dgid, k->grh.dgid, sizeof(av->dgid));
	av->flow_label = k->grh.flow_label;
	av->sgid_index = k->grh.sgid_index;
	av->hop_limit = k->grh.hop_limit;
	av->traffic_class = k->grh.traffic_class;
	av->dlid = k->dlid;
	av->sl = k->sl;
	av->src_path_bits = k->src_path_bits;
	av->static_rate = k->static_rate;
	av->is_global = k->is_global;
	av->port_num = k->port_num;
}

/* The kernel's qp_attr_mask bits are the library's UVIO_QP_* bits. */
_Static_assert(UVIO_QP_STATE == 1 && UVIO_QP_AV == 1u << 7 && UVIO_QP_DEST_QPN == 1u << 20,
	       "IB_QP_* bits");

UVIO_API int uvio_cm_qp_attr(const struct ib_uverbs_qp_attr *k, struct uvio_qp_attr *a)
{
	if (!k)
		return cm_bad_arg("uvio_cm_qp_attr", "k", "NULL");
	if (!a || a->sz < uvio_offsetofend(struct uvio_qp_attr, attr_mask))
		return cm_bad_arg("uvio_cm_qp_attr", "attr",
				  "NULL, or its sz ends before attr_mask");
	{
		struct uvio_qp_attr x = {
			.sz = sizeof(x),
			.attr_mask = k->qp_attr_mask & UVIO_QP_STANDARD_BITS,
			.qp_state = k->qp_state,
			.cur_qp_state = k->cur_qp_state,
			.path_mtu = k->path_mtu,
			.path_mig_state = k->path_mig_state,
			.qkey = k->qkey,
			.rq_psn = k->rq_psn,
			.sq_psn = k->sq_psn,
			.dest_qp_num = k->dest_qp_num,
			.qp_access_flags = k->qp_access_flags,
			.pkey_index = k->pkey_index,
			.alt_pkey_index = k->alt_pkey_index,
			.en_sqd_async_notify = k->en_sqd_async_notify,
			.max_rd_atomic = k->max_rd_atomic,
			.max_dest_rd_atomic = k->max_dest_rd_atomic,
			.min_rnr_timer = k->min_rnr_timer,
			.port_num = k->port_num,
			.timeout = k->timeout,
			.retry_cnt = k->retry_cnt,
			.rnr_retry = k->rnr_retry,
			.alt_port_num = k->alt_port_num,
			.alt_timeout = k->alt_timeout,
		};

		av_from_ah_attr(&x.ah, &k->ah_attr);
		av_from_ah_attr(&x.alt_ah, &k->alt_ah_attr);
		/* Fields past the caller's sz are neither read nor written. */
		uvio_out_copy(a, &x, sizeof(x));
	}
	return 0;
}

static int cm_modify_qp(struct uvio_cm *cm, uint32_t id, uint32_t qp_state,
			struct uvio_device *dev, uint32_t qp_handle)
{
	struct ib_uverbs_qp_attr k;
	struct uvio_qp_attr a = { .sz = sizeof(a) };
	int ret = uvio_cm_init_qp_attr(cm, id, qp_state, &k);

	if (!ret)
		ret = uvio_cm_qp_attr(&k, &a);
	return ret ? ret : uvio_modify_qp(dev, qp_handle, &a, NULL, NULL);
}

/*
 * RTR takes INIT's attributes once more first: the active side moved its
 * QP to INIT before CONNECT, when the manager did not yet know the
 * connection's responder resources and so granted no remote access; the
 * connect response settled them (rxe's active QP kept access 0 and its
 * peer's RDMA READ failed with a remote invalid request).
 */
UVIO_API int uvio_cm_modify_qp(struct uvio_cm *cm, uint32_t id, uint32_t qp_state,
			       struct uvio_device *dev, uint32_t qp_handle)
{
	int ret = 0;

	if (qp_state == 2 /* IB_QPS_RTR */)
		ret = cm_modify_qp(cm, id, 1 /* IB_QPS_INIT */, dev, qp_handle);
	return ret ? ret : cm_modify_qp(cm, id, qp_state, dev, qp_handle);
}

UVIO_API int uvio_cm_get_event(struct uvio_cm *cm, struct rdma_ucm_event_resp *event,
			      size_t len)
{
	/* The event before ECE (Linux 5.9) is the shortest the kernel fills. */
	const size_t least = offsetof(struct rdma_ucm_event_resp, ece);
	struct rdma_ucm_get_event c = { 0 };

	if (!event)
		return cm_failed(RDMA_USER_CM_CMD_GET_EVENT, -EINVAL, "no room for the event");
	if (len < least) {
		char why[96];

		snprintf(why, sizeof(why), "an event buffer of %zu bytes: an event takes %zu to %zu",
			 len, least, sizeof(*event));
		return cm_failed(RDMA_USER_CM_CMD_GET_EVENT, -EINVAL, why);
	}
	memset(event, 0, len);
	return cm_write(cm, RDMA_USER_CM_CMD_GET_EVENT, &c, sizeof(c), event,
			len < sizeof(*event) ? len : sizeof(*event));
}

UVIO_API int uvio_cm_notify(struct uvio_cm *cm, uint32_t id, uint32_t event)
{
	struct rdma_ucm_notify c = { .id = id, .event = event };

	return cm_write(cm, RDMA_USER_CM_CMD_NOTIFY, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_set_option(struct uvio_cm *cm, uint32_t id, uint32_t level,
				uint32_t optname, const void *optval, uint32_t optlen)
{
	struct rdma_ucm_set_option c = {
		.optval = (uintptr_t)optval, .id = id, .level = level, .optname = optname,
		.optlen = optlen,
	};

	if (!optval && optlen)
		return cm_failed(RDMA_USER_CM_CMD_SET_OPTION, -EINVAL, "option length without value");
	return cm_write(cm, RDMA_USER_CM_CMD_SET_OPTION, &c, sizeof(c), NULL, 0);
}

UVIO_API int uvio_cm_migrate_id(struct uvio_cm *cm, uint32_t id, struct uvio_cm *to,
				uint32_t *events_reported)
{
	struct rdma_ucm_migrate_id c = { .id = id };
	struct rdma_ucm_migrate_resp r;
	int ret;

	if (!to)
		return cm_failed(RDMA_USER_CM_CMD_MIGRATE_ID, -EINVAL, "no handle to move to");
	c.fd = (uint32_t)to->fd;
	ret = cm_write(cm, RDMA_USER_CM_CMD_MIGRATE_ID, &c, sizeof(c), &r, sizeof(r));
	if (!ret && events_reported)
		*events_reported = r.events_reported;
	return ret;
}

UVIO_API int uvio_cm_join_mcast(struct uvio_cm *cm, uint32_t id, uint64_t uid,
				const struct sockaddr *addr, socklen_t len, uint16_t join_flags,
				uint32_t *mc_id)
{
	struct rdma_ucm_join_mcast c = { .uid = uid, .id = id, .join_flags = join_flags };
	struct rdma_ucm_create_id_resp r;
	int ret = addr_in(RDMA_USER_CM_CMD_JOIN_MCAST, &c.addr, &c.addr_size, addr, len);

	if (!ret && !mc_id)
		ret = cm_failed(RDMA_USER_CM_CMD_JOIN_MCAST, -EINVAL, "no room for the group's id");
	if (!ret)
		ret = cm_write(cm, RDMA_USER_CM_CMD_JOIN_MCAST, &c, sizeof(c), &r, sizeof(r));
	if (!ret)
		*mc_id = r.id;
	return ret;
}
