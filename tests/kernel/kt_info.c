/*
 * uverbs-info against independent witnesses:
 *  - ports, states and link layers as ibv_devinfo (libibverbs) reports them;
 *  - the capability probe's verdicts against the real commands: a method the
 *    probe calls missing answers EPROTONOSUPPORT when really issued, and one
 *    it calls present does not;
 *  - the probes create nothing: `rdma resource show` is the same before and
 *    after uverbs-info.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <uvio.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include "kt.h"
#include "abi/uapi.h"	/* uverbs ids older headers lack */

static char out[65536];

/* Port 1's netdev as `rdma link show` names it ("link rxe0/1 state ACTIVE
 * physical_state LINK_UP netdev eth0"), "" for none. */
static void link_netdev(const char *links, const char *dev, char netdev[static 16])
{
	char want[96];
	const char *l, *nd, *end;

	snprintf(want, sizeof(want), "link %s/1 ", dev);
	netdev[0] = '\0';
	l = strstr(links, want);
	if (!l)
		return;
	end = strchr(l, '\n');
	nd = strstr(l, " netdev ");
	if (nd && (!end || nd < end))
		sscanf(nd, " netdev %15s", netdev);
}

/* A field of the port's line "X, " or "X\n" (the line's end). */
static bool port_says(const char *pl, const char *field)
{
	char a[160], b[160];
	const char *eol = strchr(pl, '\n');

	snprintf(a, sizeof(a), "%s,", field);
	snprintf(b, sizeof(b), "%s\n", field);
	return (strstr(pl, a) && strstr(pl, a) < eol) || (strstr(pl, b) && strstr(pl, b) < eol);
}

/* ibv_devinfo: "hca_id:\trxe0", "transport:\t\t\tInfiniBand (0)", then per port
 * "port:\t1", "state:\t\tPORT_ACTIVE (4)", "link_layer:\t\tEthernet". `rdma link
 * show`: port 1's netdev. uverbs-info: "rxe0: ...", "  port 1: state ACTIVE (4),
 * physical state LINK_UP (5), link layer Ethernet, transport RoCE, netdev eth0
 * (ifindex 2)": RoCE is libibverbs' InfiniBand transport on an Ethernet link. */
static void compare_ports(void)
{
	static char info[65536], links[16384];
	char *save = NULL, dev[64] = "", want[256], transport[32] = "";
	int port = 0, state = -1, checked = 0;

	kt_run("rdma link show", links, sizeof(links));
	kt_run("ibv_devinfo", out, sizeof(out));
	kt_run("uverbs-info --no-caps", info, sizeof(info));
	printf("%s", info);
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char ll[64];

		l += strspn(l, " \t");
		if (sscanf(l, "hca_id: %63s", dev) == 1)
			continue;
		if (sscanf(l, "transport: %31s", transport) == 1)
			continue;
		if (sscanf(l, "port: %d", &port) == 1)
			continue;
		if (!strncmp(l, "state:", 6)) {
			char *p = strchr(l, '(');
			state = p ? atoi(p + 1) : -1;
		}
		if (sscanf(l, "link_layer: %63s", ll) == 1) {
			snprintf(want, sizeof(want), "port %d: state ", port);
			char *d = strstr(info, dev), *pl = d ? strstr(d, want) : NULL;
			char tail[128];

			KT_CHECK(pl != NULL, "uverbs-info lacks %s port %d", dev, port);
			if (!pl)
				continue;
			snprintf(tail, sizeof(tail), "(%d)", state);
			KT_CHECK(strstr(pl, tail) && strstr(pl, tail) < strchr(pl, '\n'),
				 "%s port %d: ibv_devinfo state %d", dev, port, state);
			snprintf(tail, sizeof(tail), "link layer %s", ll);
			KT_CHECK(port_says(pl, tail), "%s port %d: ibv_devinfo link layer %s", dev,
				 port, ll);
			if (port == 1) {
				char nd[16];
				const char *tr = !strcmp(transport, "iWARP") ? "iWARP" :
					!strcmp(transport, "InfiniBand") && !strcmp(ll, "Ethernet") ?
					"RoCE" : !strcmp(transport, "InfiniBand") ? "InfiniBand" : NULL;

				snprintf(tail, sizeof(tail), "transport %s", tr ? tr : "?");
				KT_CHECK(tr && port_says(pl, tail),
					 "%s port 1: ibv_devinfo transport %s, link layer %s", dev,
					 transport, ll);
				link_netdev(links, dev, nd);
				snprintf(tail, sizeof(tail), ", netdev %s (ifindex ", nd);
				KT_CHECK(nd[0] && strstr(pl, tail) && strstr(pl, tail) < strchr(pl, '\n'),
					 "%s port 1: rdma link show netdev \"%s\"", dev, nd);
			}
			checked++;
		}
	}
	printf("  ports compared with ibv_devinfo: %d\n", checked);
	KT_CHECK(checked > 0, "no port compared");
}

struct real {
	int fd;			/* with a context */
	uint32_t driver_id;
	uint32_t cq, pd, mr;
	int async_fd;
};

/* The real command for a method, with what it needs; its errno. */
static int issue_real(struct real *r, uint16_t obj, uint16_t meth)
{
	uint64_t drv[8] = { 0 }, u64 = 0;
	uint32_t u32 = 0, list[8];
	struct ib_uverbs_destroy_cq_resp dresp;
	struct ib_uverbs_query_port_resp_ex port;
	struct ib_uverbs_gid_entry gids[4];
	int ret;

	UVIO_CMD_DEFINE(cmd, 10, obj, meth);
	uvio_cmd_set_driver_id(&cmd, r->driver_id);
	switch (obj << 8 | meth) {
	case UVERBS_OBJECT_CQ << 8 | UVERBS_METHOD_CQ_CREATE:
		uvio_put_idr_new(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_CQE, 8);
		uvio_put_u64(&cmd, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0);
		uvio_put_u32(&cmd, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &u32, 4);
		uvio_put_fd(&cmd, UVERBS_ATTR_CREATE_CQ_EVENT_FD, r->async_fd);
		uvio_put_uhw_out(&cmd, drv, sizeof(drv));
		ret = uvio_cmd_exec(r->fd, &cmd);
		if (!ret)
			uvio_cmd_read_handle(&cmd, UVERBS_ATTR_CREATE_CQ_HANDLE, &r->cq);
		return ret;
	case UVERBS_OBJECT_CQ << 8 | UVERBS_METHOD_CQ_DESTROY:
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_CQ_HANDLE, r->cq);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_DESTROY_CQ_RESP, &dresp, sizeof(dresp));
		break;
	case UVERBS_OBJECT_PD << 8 | UVERBS_METHOD_PD_DESTROY:
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_PD_HANDLE, 0x7fff);
		return uvio_cmd_exec(r->fd, &cmd);
	case UVERBS_OBJECT_MR << 8 | UVERBS_METHOD_MR_DESTROY:
		uvio_put_idr(&cmd, UVERBS_ATTR_DESTROY_MR_HANDLE, 0x7fff);
		break;
	case UVERBS_OBJECT_MR << 8 | UVERBS_METHOD_QUERY_MR:
		uvio_put_idr(&cmd, UVERBS_ATTR_QUERY_MR_HANDLE, r->mr);
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &u32, 4));
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_MR_RESP_RKEY, list, 4));
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &u64, 8));
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_MR_RESP_IOVA,
						    &list[2], 8));
		break;
	case UVERBS_OBJECT_MR << 8 | UVERBS_METHOD_REG_DMABUF_MR:
		uvio_put_idr_new(&cmd, UVERBS_ATTR_REG_DMABUF_MR_HANDLE);
		uvio_put_idr(&cmd, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE, r->pd);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 0);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 4096);
		uvio_put_u64(&cmd, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0);
		uvio_put_fd(&cmd, UVERBS_ATTR_REG_DMABUF_MR_FD, -1);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY, &u32, 4);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY, list, 4);
		break;
	case UVERBS_OBJECT_DEVICE << 8 | UVERBS_METHOD_GET_CONTEXT:
		uvio_put_uhw_out(&cmd, drv, sizeof(drv));	/* twice: EINVAL, known */
		break;
	case UVERBS_OBJECT_DEVICE << 8 | UVERBS_METHOD_QUERY_PORT:
		uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 1);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_PORT_RESP, &port, sizeof(port));
		break;
	case UVERBS_OBJECT_DEVICE << 8 | UVERBS_METHOD_QUERY_CONTEXT:
		uvio_attr_optional(uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
						    &u32, 4));
		break;
	case UVERBS_OBJECT_DEVICE << 8 | UVERBS_METHOD_INFO_HANDLES:
		uvio_put_u64(&cmd, UVERBS_ATTR_INFO_OBJECT_ID, UVERBS_OBJECT_CQ);	/* const */
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_INFO_TOTAL_HANDLES, &u32, 4);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_INFO_HANDLES_LIST, list, sizeof(list));
		break;
	case UVERBS_OBJECT_DEVICE << 8 | UVERBS_METHOD_QUERY_GID_TABLE:
		uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(gids[0]));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, gids, sizeof(gids));
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &u64, 8);
		break;
	case UVERBS_OBJECT_DEVICE << 8 | UVERBS_METHOD_QUERY_GID_ENTRY:
		uvio_put_u32(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 1);
		uvio_put_u32(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, 0);
		uvio_put_flags(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, gids, sizeof(gids[0]));
		break;
	default:
		return 1;	/* no real command here for this one */
	}
	return uvio_cmd_exec(r->fd, &cmd);
}

static void compare_caps(const struct uvio_device_info *info)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	UVIO_OPTS(uvio_mr, mr);
	struct real r;
	uint16_t obj, meth;
	int probe_fd, compared = 0;
	void *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t siw_req = 0, siw_resp = 0;
	UVIO_OPTS(uvio_drv, siw_drv, .in = &siw_req, .in_len = 8, .out = &siw_resp, .out_len = 8);

	probe_fd = open(info->path, O_RDWR | O_CLOEXEC);
	KT_EQ(uvio_device_open(info->name, &dev), 0);
	KT_EQ(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	r.fd = uvio_device_fd(dev);
	r.driver_id = info->driver_id;
	r.async_fd = ctx.async_fd;
	KT_EQ(uvio_alloc_pd(dev, NULL, &r.pd, NULL), 0);
	UVIO_OPTS(uvio_mr_attr, mr_attr, .pd_handle = r.pd, .addr = buf, .length = 4096,
		  .iova = (uintptr_t)buf, .access = 1);
	KT_EQ(uvio_reg_mr(dev, &mr_attr, strncmp(info->name, "siw", 3) ? NULL : &siw_drv, &mr,
			  NULL), 0);
	r.mr = mr.handle;

	/* CQ CREATE first, so that DESTROY has a CQ; plus one unknown method
	 * of each object the issue names. */
	static const uint16_t extra[][2] = {
		{ UVERBS_OBJECT_CQ, 9 }, { UVERBS_OBJECT_PD, 5 },
		{ UVERBS_OBJECT_MR, 9 }, { UVERBS_OBJECT_DEVICE, 30 },
	};
	for (int i = 0;; i++) {
		int p, real;

		if (uvio_known_method((unsigned int)i, &obj, &meth))
			break;
		if (obj != UVERBS_OBJECT_CQ && obj != UVERBS_OBJECT_PD && obj != UVERBS_OBJECT_MR &&
		    obj != UVERBS_OBJECT_DEVICE)
			continue;
		real = issue_real(&r, obj, meth);
		if (real == 1)
			continue;
		p = uvio_probe_method(probe_fd, info->driver_id, obj, meth);
		printf("  %-6s %-16s probe %-3s real %s\n", uvio_object_name(obj),
		       uvio_method_name(obj, meth), p == 1 ? "yes" : p == 0 ? "no" : "?",
		       real ? uvio_errno_name(real) : "0");
		KT_CHECK(p == (real != -EPROTONOSUPPORT), "%s.%s: probe %d, real %d",
			 uvio_object_name(obj), uvio_method_name(obj, meth), p, real);
		compared++;
	}
	for (unsigned int i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		int p = uvio_probe_method(probe_fd, info->driver_id, extra[i][0], extra[i][1]);
		UVIO_CMD_DEFINE(cmd, 0, extra[i][0], extra[i][1]);
		uvio_cmd_set_driver_id(&cmd, info->driver_id);
		int real = uvio_cmd_exec(r.fd, &cmd);

		printf("  %-6s method %-9u probe %-3s real %s\n", uvio_object_name(extra[i][0]),
		       extra[i][1], p == 1 ? "yes" : p == 0 ? "no" : "?",
		       real ? uvio_errno_name(real) : "0");
		KT_EQ(p, 0);
		KT_EQ(real, -EPROTONOSUPPORT);
		compared++;
	}
	/* an attribute: CQ CREATE's EVENT_FD, used for real above */
	KT_EQ(uvio_probe_attr(probe_fd, info->driver_id, UVERBS_OBJECT_CQ,
			      UVERBS_METHOD_CQ_CREATE, UVERBS_ATTR_CREATE_CQ_EVENT_FD), 1);
	KT_EQ(uvio_probe_attr(probe_fd, info->driver_id, UVERBS_OBJECT_CQ,
			      UVERBS_METHOD_CQ_CREATE, 0x3f), 0);
	/* A wrong driver id makes the kernel answer EINVAL to everything; the
	 * probes must say they cannot tell, not that every method is there. */
	{
		uint32_t wrong = info->driver_id + 1;
		int bad = uvio_probe_method(probe_fd, wrong, UVERBS_OBJECT_CQ, 9);

		printf("  %s: probe with driver id %u: %d (%s)\n", info->name, wrong, bad,
		       uvio_last_error());
		KT_EQ(bad, -EINVAL);
		KT_EQ(uvio_probe_method(probe_fd, wrong, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE),
		      -EINVAL);
		KT_EQ(uvio_probe_attr(probe_fd, wrong, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE,
				      0x3f), -EINVAL);
	}
	printf("  %s: %d methods compared with real commands\n", info->name, compared);
	KT_CHECK(compared >= 14, "only %d compared", compared);

	uvio_dereg_mr(dev, mr.handle, NULL);
	uvio_dealloc_pd(dev, r.pd, NULL);
	close(ctx.async_fd);
	uvio_device_close(dev);
	close(probe_fd);
	munmap(buf, 4096);
}

int main(void)
{
	struct uvio_device_info devs[8];
	static char before[8192], after[8192];
	int n = uvio_list_devices(devs, 8);

	compare_ports();

	kt_run("rdma resource show", before, sizeof(before));
	kt_run("uverbs-info > /dev/null; uverbs-info --json > /tmp/info.json", out, sizeof(out));
	kt_run("rdma resource show", after, sizeof(after));
	printf("rdma resource show, before and after uverbs-info:\n%s", before);
	KT_CHECK(!strcmp(before, after), "objects changed:\n%s", after);
	kt_run("cat /tmp/info.json", out, sizeof(out));
	KT_CHECK(strstr(out, "\"command_path\":\"ioctl\"") != NULL, "json: %.200s", out);
	KT_CHECK(strstr(out, "{\"object\":\"CQ\",\"method\":\"CREATE\",\"object_id\":3,"
			     "\"method_id\":0,\"supported\":true") != NULL, "json lacks CQ.CREATE");

	for (int i = 0; i < n && i < 8; i++)
		compare_caps(&devs[i]);
	return kt_exit();
}
