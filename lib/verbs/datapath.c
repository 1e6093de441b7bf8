// SPDX-License-Identifier: MIT
/*
 * The data-path write() commands: POST_SEND, POST_RECV, POST_SRQ_RECV,
 * POLL_CQ and REQ_NOTIFY_CQ. The posts and the poll are variable-length
 * (WR and SGE arrays in, work completions out), so they are laid out here
 * in one stack buffer each: [struct ib_uverbs_cmd_hdr | core | WRs | SGEs],
 * which the write() module (lib/write/legacy.c) sends as it stands or, from the
 * core on, as the CORE_IN of INVOKE_WRITE.
 */
#include <uvio/diag.h>
#include <uvio/qp.h>
#include "verb.h"

/* What a driver answers for a command it leaves disabled: say so by name,
 * since EOPNOTSUPP alone reads like a library fault. */
static int disabled(struct uvio_device *dev, enum uvio_verb v, int ret, enum uvio_path p,
		    enum uvio_path *path)
{
	if (path)
		*path = p;
	if (__builtin_expect(ret == -EOPNOTSUPP, 0)) {
		uvio_set_last_error("%s: %s over %s: EOPNOTSUPP: the driver does not enable the "
				    "write() command %s (rxe and siw run the data path in "
				    "userspace rings; rxe enables only POST_SEND and "
				    "REQ_NOTIFY_CQ, siw only POST_SEND)",
				    dev->name, uvio_verb_rows[v].name, uvio_path_name(p),
				    uvio_write_cmd_name(uvio_verb_rows[v].write));
		uvio_log(LOG_INFO, "%s", uvio_last_error());
	}
	return ret;
}

/*
 * rxe and siw keep every user queue in memory the process maps: the kernel
 * ignores work requests sent by command for such a QP (rxe) or refuses them
 * (siw), and Linux 5.10's POLL_CQ on an rxe CQ that holds completions
 * crashes the kernel (it reads the user ring as kernel completions). So
 * these commands are refused for them before any system call, naming the
 * call that does the work.
 */
static int user_queues(struct uvio_device *dev, enum uvio_verb v, const char *instead,
		       enum uvio_path *path)
{
	const char *drv = dev->driver_id == RDMA_DRIVER_RXE ? "rxe" :
			  dev->driver_id == RDMA_DRIVER_SIW ? "siw" : NULL;

	if (!drv)
		return 0;
	if (path)
		*path = UVIO_PATH_AUTO;
	uvio_set_last_error("%s: %s: EOPNOTSUPP: %s keeps this queue in user space, where the "
			    "kernel command cannot reach it: use %s() of <uvio/dp.h>",
			    dev->name, uvio_verb_rows[v].name, drv, instead);
	uvio_log(LOG_INFO, "%s", uvio_last_error());
	return -EOPNOTSUPP;
}

/* struct ib_uverbs_post_send, _post_recv and _post_srq_recv share their
 * core: response, handle, wr_count, sge_count, wqe_size. */
_Static_assert(sizeof(struct ib_uverbs_post_send) == 24 &&
	       sizeof(struct ib_uverbs_post_recv) == 24 &&
	       sizeof(struct ib_uverbs_post_srq_recv) == 24 &&
	       offsetof(struct ib_uverbs_post_recv, wqe_size) ==
		       offsetof(struct ib_uverbs_post_send, wqe_size) &&
	       offsetof(struct ib_uverbs_post_srq_recv, srq_handle) ==
		       offsetof(struct ib_uverbs_post_send, qp_handle),
	       "the three posts share a core");
_Static_assert(sizeof(struct ib_uverbs_post_send_resp) == 4 &&
	       sizeof(struct ib_uverbs_post_recv_resp) == 4 &&
	       sizeof(struct ib_uverbs_post_srq_recv_resp) == 4, "bad_wr answers");

#define POST_BUF_BYTES (UVIO_WRITE_ROOM + sizeof(struct ib_uverbs_post_send) + UVIO_MAX_POST_BYTES)

struct post_args {
	uint32_t command;
	uint32_t handle, wr_count, sge_count, wqe_size;
	const void *wrs;
	const struct ib_uverbs_sge *sges;
	struct ib_uverbs_post_send_resp resp;
};

static int post_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct post_args *a = args;
	uint64_t buf[POST_BUF_BYTES / 8];
	struct ib_uverbs_post_send *c =
		(struct ib_uverbs_post_send *)((uint8_t *)buf + UVIO_WRITE_ROOM);
	size_t wr_bytes = (size_t)a->wr_count * a->wqe_size;
	size_t sge_bytes = (size_t)a->sge_count * sizeof(*a->sges);

	*c = (struct ib_uverbs_post_send){
		.qp_handle = a->handle,
		.wr_count = a->wr_count,
		.sge_count = a->sge_count,
		.wqe_size = a->wqe_size,
	};
	if (wr_bytes)
		memcpy(c->send_wr, a->wrs, wr_bytes);
	if (sge_bytes)
		memcpy((uint8_t *)c->send_wr + wr_bytes, a->sges, sge_bytes);
	/* The kernel may answer with less (a failure before its response):
	 * what it leaves reads as zero. */
	memset(&a->resp, 0, sizeof(a->resp));
	return uvio_write_run(dev, p, a->command, buf, sizeof(*c) + wr_bytes + sge_bytes, &a->resp,
			      sizeof(a->resp), NULL);
}

/* One of the three posts (v: its verb): the kernel's WR structs, each
 * wqe_size long. */
static int post(struct uvio_device *dev, enum uvio_verb v, uint32_t handle, const void *wrs,
		uint32_t wr_count, uint32_t wqe_size, const struct ib_uverbs_sge *sges,
		uint32_t sge_count, uint32_t *bad_wr, enum uvio_path *path)
{
	const char *name = uvio_verb_rows[v].name;
	struct post_args a = {
		.command = uvio_verb_rows[v].write, .handle = handle, .wr_count = wr_count,
		.sge_count = sge_count, .wqe_size = wqe_size, .wrs = wrs, .sges = sges,
	};
	size_t bytes = (size_t)wr_count * wqe_size + (size_t)sge_count * sizeof(*sges);
	enum uvio_path p = UVIO_PATH_AUTO;
	int ret = 0;

	if ((!wrs && wr_count) || (!sges && sge_count))
		ret = -EINVAL;
	else if (wr_count > UVIO_MAX_POST_BYTES || sge_count > UVIO_MAX_POST_BYTES ||
		 bytes > UVIO_MAX_POST_BYTES)
		ret = -E2BIG;
	if (bad_wr)
		*bad_wr = 0;
	if (ret)
		return uvio_verb_end(dev, name, UVIO_PATH_AUTO, ret, path);
	/* A send without WRs is the doorbell, which is what these drivers
	 * take; anything else goes through their rings. */
	if (wr_count || v != UVIO_VERB_POST_SEND) {
		ret = user_queues(dev, v, v == UVIO_VERB_POST_SEND ? "uvio_dp_post_send" :
				  v == UVIO_VERB_POST_RECV ? "uvio_dp_post_recv" :
				  "uvio_dp_post_srq_recv", path);
		if (ret)
			return ret;
	}
	{
		const struct uvio_verb_desc d = {
			.verb = v, .name = name, .on_write = post_write,
		};

		ret = uvio_run_verb_desc(dev, &d, &a, &p);
	}
	/* The kernel names the WR it stopped at even when it fails. */
	if (bad_wr)
		*bad_wr = a.resp.bad_wr;
	return disabled(dev, v, ret, p, path);
}

/* wqe_size is the whole WR struct: rxe refuses a smaller one even for a
 * doorbell without WRs. */
UVIO_API int uvio_post_send(struct uvio_device *dev, uint32_t qp_handle,
			    const struct ib_uverbs_send_wr *wrs, uint32_t wr_count,
			    const struct ib_uverbs_sge *sges, uint32_t sge_count,
			    uint32_t *bad_wr, enum uvio_path *path)
{
	return post(dev, UVIO_VERB_POST_SEND, qp_handle, wrs, wr_count, sizeof(*wrs), sges,
		    sge_count, bad_wr, path);
}

UVIO_API int uvio_post_recv(struct uvio_device *dev, uint32_t qp_handle,
			    const struct ib_uverbs_recv_wr *wrs, uint32_t wr_count,
			    const struct ib_uverbs_sge *sges, uint32_t sge_count,
			    uint32_t *bad_wr, enum uvio_path *path)
{
	return post(dev, UVIO_VERB_POST_RECV, qp_handle, wrs, wr_count, sizeof(*wrs), sges,
		    sge_count, bad_wr, path);
}

UVIO_API int uvio_post_srq_recv(struct uvio_device *dev, uint32_t srq_handle,
				const struct ib_uverbs_recv_wr *wrs, uint32_t wr_count,
				const struct ib_uverbs_sge *sges, uint32_t sge_count,
				uint32_t *bad_wr, enum uvio_path *path)
{
	return post(dev, UVIO_VERB_POST_SRQ_RECV, srq_handle, wrs, wr_count, sizeof(*wrs), sges,
		    sge_count, bad_wr, path);
}

struct notify_args {
	UVIO_WRITE_BUF(struct ib_uverbs_req_notify_cq) c;
};

static int notify_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct notify_args *a = args;

	return uvio_write(dev, p, VERB_WRITE(REQ_NOTIFY_CQ), a->c, NULL, 0, NULL);
}

UVIO_API int uvio_req_notify_cq(struct uvio_device *dev, uint32_t cq_handle,
				int solicited_only, enum uvio_path *path)
{
	struct notify_args a = { .c.core = { .cq_handle = cq_handle,
					.solicited_only = solicited_only ? 1 : 0 } };
	enum uvio_path p = UVIO_PATH_AUTO;
	int ret;

	/* rxe arms by this command; siw through the CQ's mapped control word. */
	if (dev->driver_id == RDMA_DRIVER_SIW)
		return user_queues(dev, UVIO_VERB_REQ_NOTIFY_CQ, "uvio_dp_arm_cq", path);
	ret = uvio_run_verb(dev, REQ_NOTIFY_CQ, NULL, notify_write, &a, &p);

	return disabled(dev, UVIO_VERB_REQ_NOTIFY_CQ, ret, p, path);
}

struct poll_args {
	uint32_t handle, ne;
	/* The kernel's answer: struct ib_uverbs_poll_cq_resp and its WCs. */
	uint64_t resp[(sizeof(struct ib_uverbs_poll_cq_resp) +
		       UVIO_MAX_POLL_CQ * sizeof(struct ib_uverbs_wc)) / 8];
};

static int poll_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct poll_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_poll_cq) c = {
		.core = { .cq_handle = a->handle, .ne = a->ne }
	};
	size_t len = sizeof(struct ib_uverbs_poll_cq_resp) + a->ne * sizeof(struct ib_uverbs_wc);

	/* The kernel may answer with less (a failure before its response):
	 * what it leaves reads as zero. */
	memset(a->resp, 0, len);
	return uvio_write(dev, p, VERB_WRITE(POLL_CQ), c, a->resp, len, NULL);
}

UVIO_API int uvio_poll_cq(struct uvio_device *dev, uint32_t cq_handle,
			  struct ib_uverbs_wc *wc, uint32_t max, uint32_t *count,
			  enum uvio_path *path)
{
	struct poll_args a = { .handle = cq_handle, .ne = max };
	const struct ib_uverbs_poll_cq_resp *r = (const void *)a.resp;
	enum uvio_path p = UVIO_PATH_AUTO;
	int ret;

	if (count)
		*count = 0;
	if (!count || (!wc && max))
		return uvio_verb_end(dev, VERB_NAME(POLL_CQ), UVIO_PATH_AUTO, -EINVAL, path);
	ret = user_queues(dev, UVIO_VERB_POLL_CQ, "uvio_dp_poll_cq", path);
	if (ret)
		return ret;
	if (a.ne > UVIO_MAX_POLL_CQ)
		a.ne = UVIO_MAX_POLL_CQ;
	ret = uvio_run_verb(dev, POLL_CQ, NULL, poll_write, &a, &p);
	if (!ret) {
		/* Never more than asked, whatever the kernel says. */
		if (r->count > a.ne)
			return uvio_verb_end(dev, VERB_NAME(POLL_CQ), p, -EPROTO, path);
		if (r->count)
			memcpy(wc, r->wc, r->count * sizeof(*wc));
		*count = r->count;
	}
	return disabled(dev, UVIO_VERB_POLL_CQ, ret, p, path);
}
