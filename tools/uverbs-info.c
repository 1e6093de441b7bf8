/*
 * uverbs-info: every uverbs device, its ports, the command path that works on
 * it, what a context tells (device and port attributes, and the driver's own
 * answer where the library speaks the driver's half: mlx5), and which core
 * methods, attributes and write() commands this kernel accepts, object by
 * object, found by probes that create nothing. The list of what to probe is
 * the library's ABI tables; --abi prints those tables.
 *
 *   uverbs-info [--json] [--no-caps] [--no-context] [DEVICE]
 *   uverbs-info --abi [--markdown]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5-abi.h>
#include <uvio.h>
#include <uvio/mlx5.h>
#include <uvio/provider.h>

#include "info_ports.h"

static const char *driver_name(uint32_t id)
{
	static const char *const names[] = {
		"unknown", "mlx5", "mlx4", "cxgb3", "cxgb4", "mthca", "bnxt_re", "ocrdma",
		"nes", "irdma", "vmw_pvrdma", "qedr", "hns", "usnic", "rxe", "hfi1", "qib",
		"efa", "siw", "erdma", "mana",
	};

	return id < sizeof(names) / sizeof(names[0]) ? names[id] : "?";
}

static const char *node_type_name(unsigned int t)
{
	static const char *const names[] = { "?", "CA", "SWITCH", "ROUTER", "RNIC",
					     "USNIC", "USNIC_UDP", "UNSPECIFIED" };

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "?";
}

static bool json;
static bool first_item;

static void json_sep(void)
{
	if (!first_item)
		printf(",");
	first_item = false;
}

/* A JSON string: the names, firmware versions and error messages printed
 * come from sysfs, the kernel and the library, and may hold any byte. */
static void json_str(const char *v)
{
	info_json_str(stdout, v);
}

static void show_ports(const struct uvio_device_info *d)
{
	for (unsigned int p = 1; p <= d->num_ports; p++) {
		struct info_port ip;

		/* Discovery found port 1's transport and netdev; other ports' are
		 * not in struct uvio_device_info. */
		const char *tr = p == 1 ? uvio_transport_name(d->transport) : NULL;

		info_read_port("/sys", d->name, p, &ip);
		if (json) {
			json_sep();
			printf("{");
			info_port_json(stdout, &ip);
			if (p == 1) {
				printf(",\"transport\":");
				json_str(tr ? tr : "unknown");
				printf(",\"netdev\":");
				json_str(d->netdev);
				printf(",\"netdev_ifindex\":%u", d->netdev_ifindex);
			}
			printf("}");
		} else {
			printf("  port %u: state %s (%d), physical state %s (%d), link layer %s",
			       p, ip.state, ip.state_num, ip.phys_state, ip.phys_state_num,
			       ip.link_layer);
			if (p == 1)
				printf(", transport %s", tr ? tr : "unknown");
			if (p == 1 && d->netdev[0])
				printf(", netdev %s (ifindex %u)", d->netdev, d->netdev_ifindex);
			printf("\n");
		}
	}
}

static const char *verdict(int r)
{
	return r == 1 ? "yes" : r == 0 ? "no" : "?";
}

/*
 * A write() command this kernel runs, found without running it. Commands
 * the kernel lacks, or a driver left out, share one handler that answers
 * EOPNOTSUPP, checked as a plain command with no core struct. So: a plain
 * command sent with a header alone is too short for a real one (ENOSPC,
 * before anything runs) and complete for the placeholder (EOPNOTSUPP); an
 * extended one sent as 24 bytes whose in_words count them in 4-byte words
 * is well formed for the placeholder (EOPNOTSUPP) and not for a real
 * extended command, which counts 8-byte words past both headers (EINVAL).
 * 1, 0, or -1 when the answer says neither.
 */
static int probe_write(int fd, uint32_t command)
{
	uint32_t b[6] = { command, 0 };
	bool ex = command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	struct ib_uverbs_cmd_hdr *h = (struct ib_uverbs_cmd_hdr *)b;

	h->in_words = ex ? 6 : 2;
	if (write(fd, b, ex ? 24 : 8) >= 0)
		return -1;
	if (errno == EOPNOTSUPP)
		return 0;
	return errno == (ex ? EINVAL : ENOSPC) ? 1 : -1;
}

static void show_writes(int fd, uint16_t obj, bool *first)
{
	uint32_t cmd;

	for (unsigned int i = 0; !uvio_known_write_cmd(i, &cmd); i++) {
		UVIO_OPTS(uvio_write_desc, w);
		int r;

		if (uvio_describe_write_cmd(cmd, &w) || w.object_id != obj)
			continue;
		r = probe_write(fd, cmd);
		if (json) {
			printf("%s{\"name\":\"%s\",\"command\":%u,\"extended\":%s,\"supported\":%s}",
			       *first ? "" : ",", w.name, cmd & ~IB_USER_VERBS_CMD_FLAG_EXTENDED,
			       w.flags & UVIO_WRITE_EXTENDED ? "true" : "false",
			       r == 1 ? "true" : r == 0 ? "false" : "null");
		} else {
			printf("%s%s%s%s", *first ? "      write():" : "", " ",
			       w.flags & UVIO_WRITE_EXTENDED ? "EX_" : "", w.name);
			printf("%s", r == 1 ? "" : r == 0 ? "(no)" : "(?)");
		}
		*first = false;
	}
}

/* Object by object: its methods, whether this kernel has each, and the
 * attributes of those it has; then its write() commands. */
static void show_caps(int fd, uint32_t driver_id)
{
	uint16_t obj, meth, attr, cur = UINT16_MAX;
	bool wfirst = true;

	for (unsigned int i = 0;; i++) {
		int more = !uvio_known_method(i, &obj, &meth), m;

		if ((!more || obj != cur) && cur != UINT16_MAX) {
			wfirst = true;
			if (json) {
				printf("],\"write\":[");
				show_writes(fd, cur, &wfirst);
				printf("]}");
			} else {
				show_writes(fd, cur, &wfirst);
				if (!wfirst)
					printf("\n");
			}
		}
		if (!more)
			break;
		if (obj != cur) {
			if (json) {
				json_sep();
				printf("{\"object\":\"%s\",\"object_id\":%u,\"methods\":[",
				       uvio_object_name(obj), obj);
			} else {
				printf("    %s\n", uvio_object_name(obj));
			}
			cur = obj;
			first_item = true;
		}
		m = uvio_probe_method(fd, driver_id, obj, meth);
		if (json) {
			json_sep();
			printf("{\"object\":\"%s\",\"method\":\"%s\",\"object_id\":%u,\"method_id\":%u,"
			       "\"supported\":%s,\"attrs\":{", uvio_object_name(obj),
			       uvio_method_name(obj, meth), obj, meth,
			       m == 1 ? "true" : m == 0 ? "false" : "null");
		} else {
			printf("      %-16s %-3s", uvio_method_name(obj, meth), verdict(m));
		}
		for (unsigned int j = 0; m == 1 && !uvio_known_attr(obj, meth, j, &attr); j++) {
			int a = uvio_probe_attr(fd, driver_id, obj, meth, attr);
			const char *name = uvio_attr_name(obj, meth, attr);

			if (json)
				printf("%s\"%s\":%s", j ? "," : "", name,
				       a == 1 ? "true" : a == 0 ? "false" : "null");
			else
				printf("%s%s%s", j ? " " : "  ", name, a == 1 ? "" : a == 0 ? "(no)" : "(?)");
		}
		printf(json ? "}}" : "\n");
	}
	/* Objects with write() commands and no ioctl method (COMP_CHANNEL). */
	for (uint16_t o = 0; o < 64; o++) {
		bool has_method = false;
		uint32_t cmd;

		for (unsigned int i = 0; !uvio_known_method(i, &obj, &meth); i++)
			has_method |= obj == o;
		if (has_method || !uvio_object_name(o))
			continue;
		for (unsigned int i = 0; !uvio_known_write_cmd(i, &cmd); i++) {
			UVIO_OPTS(uvio_write_desc, w);

			if (uvio_describe_write_cmd(cmd, &w) || w.object_id != o)
				continue;
			wfirst = true;
			if (json) {
				json_sep();
				printf("{\"object\":\"%s\",\"object_id\":%u,\"methods\":[],\"write\":[",
				       uvio_object_name(o), o);
				show_writes(fd, o, &wfirst);
				printf("]}");
			} else {
				printf("    %s\n", uvio_object_name(o));
				show_writes(fd, o, &wfirst);
				printf("\n");
			}
			break;
		}
	}
}

/* The ABI tables themselves: every object, method, attribute and write()
 * command this library knows, as text or as the body of a man page. */
static void show_abi(bool md)
{
	uint16_t obj, meth, attr, cur = UINT16_MAX;
	uint32_t cmd;

	for (unsigned int i = 0; !uvio_known_method(i, &obj, &meth); i++) {
		if (obj != cur) {
			printf(md ? "\n## %s (object %u)\n\n" : "%s (object %u)\n",
			       uvio_object_name(obj), obj);
			cur = obj;
		}
		printf(md ? "%s (method %u)\n" : "  %s (method %u)\n", uvio_method_name(obj, meth), meth);
		if (md)
			printf(":   ");
		for (unsigned int j = 0; !uvio_known_attr(obj, meth, j, &attr); j++) {
			UVIO_OPTS(uvio_attr_desc, a);
			char len[32];

			if (uvio_describe_attr(obj, meth, attr, &a))
				continue;
			if (a.kind == UVIO_KIND_IDR || a.kind == UVIO_KIND_IDR_NEW ||
			    a.kind == UVIO_KIND_FD || a.kind == UVIO_KIND_FD_NEW)
				snprintf(len, sizeof(len), "%s %s", a.object_id == UINT16_MAX ? "any" :
					 uvio_object_name(a.object_id), a.access ? a.access : "");
			else if (a.min_len == a.max_len)
				snprintf(len, sizeof(len), "%u bytes", a.min_len);
			else if (a.max_len == UVIO_LEN_ANY)
				snprintf(len, sizeof(len), "%u+ bytes", a.min_len);
			else
				snprintf(len, sizeof(len), "%u-%u bytes", a.min_len, a.max_len);
			if (md)
				printf("%s%s (%u, %s, %s, %s%s)", j ? "; " : "", a.name, attr,
				       uvio_kind_name(a.kind), a.type, len,
				       a.flags & UVIO_ATTR_MANDATORY ? ", mandatory" : "");
			else
				printf("    %-18s %2u %-7s %-18s %-20s%s\n", a.name, attr,
				       uvio_kind_name(a.kind), a.type, len,
				       a.flags & UVIO_ATTR_MANDATORY ? " mandatory" : "");
		}
		printf(md ? "\n\n" : "");
	}
	printf(md ? "\n# WRITE() COMMANDS\n\n" : "write() commands\n");
	for (unsigned int i = 0; !uvio_known_write_cmd(i, &cmd); i++) {
		UVIO_OPTS(uvio_write_desc, w);

		if (uvio_describe_write_cmd(cmd, &w))
			continue;
		if (md)
			printf("%s%s (%u, %s)\n:   request %s (%u bytes), response %s (%u bytes)%s%s\n\n",
			       w.flags & UVIO_WRITE_EXTENDED ? "EX_" : "", w.name,
			       cmd & ~IB_USER_VERBS_CMD_FLAG_EXTENDED, uvio_object_name(w.object_id),
			       w.request ? w.request : "none", w.request_len,
			       w.response ? w.response : "none", w.response_len,
			       w.flags & UVIO_WRITE_DRIVER_DATA ? ", then driver data" : "",
			       w.flags & UVIO_WRITE_UNHANDLED ? "; no kernel handles it" : "");
		else
			printf("  %s%-*s %2u %-12s %s / %s%s%s\n",
			       w.flags & UVIO_WRITE_EXTENDED ? "EX_" : "",
			       w.flags & UVIO_WRITE_EXTENDED ? 19 : 22, w.name,
			       cmd & ~IB_USER_VERBS_CMD_FLAG_EXTENDED, uvio_object_name(w.object_id),
			       w.request ? w.request : "-", w.response ? w.response : "-",
			       w.flags & UVIO_WRITE_DRIVER_DATA ? " + driver data" : "",
			       w.flags & UVIO_WRITE_UNHANDLED ? " (no kernel handles it)" : "");
	}
}

/* A field: "name value" in text (hex: "name 0x..."), "\"name\":value" in
 * JSON, where numbers are decimal. */
static void field_num(const char *name, unsigned long long v, bool hex)
{
	if (json) {
		json_sep();
		printf("\"%s\":%llu", name, v);
	} else {
		printf(hex ? " %s 0x%llx" : " %s %llu", name, v);
	}
}

static void field_u64(const char *name, unsigned long long v)
{
	field_num(name, v, false);
}

static void field_hex(const char *name, unsigned long long v)
{
	field_num(name, v, true);
}

static void field_str(const char *name, const char *v)
{
	if (json) {
		json_sep();
		printf("\"%s\":", name);
		json_str(v);
	} else {
		printf(" %s %s", name, v);
	}
}

static const char *mtu_name(unsigned int m)
{
	static const char *const n[] = { "?", "256", "512", "1024", "2048", "4096" };

	return m < sizeof(n) / sizeof(n[0]) ? n[m] : "?";
}

/* mlx5's answer to EX_QUERY_DEVICE in its driver data. */
static void show_mlx5_device(struct uvio_device *dev)
{
	struct ib_uverbs_ex_query_device c = { 0 };
	struct ib_uverbs_ex_query_device_resp r;
	struct mlx5_ib_query_device_resp m;
	UVIO_OPTS(uvio_drv, drv, .out = &m, .out_len = sizeof(m));
	int err;

	memset(&m, 0, sizeof(m));
	err = uvio_device_write_ex(dev, IB_USER_VERBS_EX_CMD_QUERY_DEVICE, &c, sizeof(c), &r,
				   sizeof(r), &drv, NULL);
	if (json)
		printf(",\"mlx5_device\":{");
	else
		printf("    mlx5 device (EX_QUERY_DEVICE driver data):");
	first_item = true;
	if (err) {
		field_str("error", strerror(-err));
	} else {
		field_u64("response_length", m.response_length);
		field_hex("comp_mask", m.comp_mask);
		field_u64("tso_max", m.tso_caps.max_tso);
		field_hex("tso_qpts", m.tso_caps.supported_qpts);
		field_hex("rss_hash_fields", m.rss_caps.rx_hash_fields_mask);
		field_hex("rss_hash_function", m.rss_caps.rx_hash_function);
		field_u64("cqe_comp_max", m.cqe_comp_caps.max_num);
		field_hex("cqe_comp_formats", m.cqe_comp_caps.supported_format);
		field_u64("pp_rate_min", m.packet_pacing_caps.qp_rate_limit_min);
		field_u64("pp_rate_max", m.packet_pacing_caps.qp_rate_limit_max);
		field_hex("multi_pkt_send_wqe", m.mlx5_ib_support_multi_pkt_send_wqes);
		field_hex("flags", m.flags);
		field_hex("sw_parsing", m.sw_parsing_caps.sw_parsing_offloads);
		field_hex("striding_rq_qpts", m.striding_rq_caps.supported_qpts);
		field_hex("tunnel_offloads", m.tunnel_offloads_caps);
	}
	printf(json ? "}" : "\n");
}

/*
 * What a context tells: its own handle (the probes' fd has none), the
 * device's attributes, each port's, and on mlx5 what the driver answered.
 * On a driver whose kernel wants driver data the library does not build,
 * the context fails and that is what is shown.
 */
static void show_context(const struct uvio_device_info *d)
{
	struct uvio_device *dev;
	UVIO_OPTS(uvio_context, ctx);
	struct ib_uverbs_query_device_resp q;
	enum uvio_path p;
	int err = uvio_device_open(d->path, &dev);

	if (json)
		printf(",\"context\":{");
	else
		printf("  context:");
	first_item = true;
	if (!err) {
		err = uvio_get_context(dev, NULL, &ctx, &p);
		if (err)
			uvio_device_close(dev);
	}
	if (err) {
		field_str("error", uvio_last_error());
		printf(json ? "}" : "\n");
		return;
	}
	field_str("path", uvio_path_name(p));
	field_u64("num_comp_vectors", ctx.num_comp_vectors);
	field_hex("core_support", ctx.core_support);
	if (!uvio_query_device(dev, &q, NULL)) {
		char fw[32];

		snprintf(fw, sizeof(fw), "%llu.%llu.%llu",
			 (unsigned long long)(q.fw_ver >> 32),
			 (unsigned long long)((q.fw_ver >> 16) & 0xffff),
			 (unsigned long long)(q.fw_ver & 0xffff));
		field_str("fw_ver", fw);
		field_hex("vendor_id", q.vendor_id);
		field_u64("vendor_part_id", q.vendor_part_id);
		field_u64("hw_ver", q.hw_ver);
		field_hex("device_cap_flags", q.device_cap_flags);
		field_u64("max_qp", q.max_qp);
		field_u64("max_qp_wr", q.max_qp_wr);
		field_u64("max_sge", q.max_sge);
		field_u64("max_cq", q.max_cq);
		field_u64("max_cqe", q.max_cqe);
		field_u64("max_mr", q.max_mr);
		field_u64("max_mr_size", q.max_mr_size);
		field_u64("max_pd", q.max_pd);
		field_u64("max_srq", q.max_srq);
		field_u64("max_srq_wr", q.max_srq_wr);
		field_u64("max_ah", q.max_ah);
		field_u64("atomic_cap", q.atomic_cap);
		field_u64("phys_port_cnt", q.phys_port_cnt);
	}
	if (json)
		printf(",\"ports\":[");
	else
		printf("\n");
	for (unsigned int port = 1; port <= d->num_ports; port++) {
		UVIO_OPTS(uvio_port_attr, pa);

		if (uvio_query_port(dev, (uint8_t)port, &pa, NULL))
			continue;
		if (json) {
			printf("%s{", port > 1 ? "," : "");
			first_item = true;
			field_u64("port", port);
		} else {
			printf("    port %u attributes:", port);
		}
		field_u64("state", pa.core.state);
		field_str("max_mtu", mtu_name(pa.core.max_mtu));
		field_str("active_mtu", mtu_name(pa.core.active_mtu));
		field_u64("gid_tbl_len", pa.core.gid_tbl_len);
		field_u64("pkey_tbl_len", pa.core.pkey_tbl_len);
		field_hex("port_cap_flags", pa.core.port_cap_flags);
		field_u64("max_msg_sz", pa.core.max_msg_sz);
		field_u64("active_width", pa.core.active_width);
		field_u64("active_speed", pa.core.active_speed);
		field_u64("link_layer", pa.core.link_layer);
		printf(json ? "}" : "\n");
	}
	if (json)
		printf("]");
	if (uvio_device_driver_id(dev) == RDMA_DRIVER_MLX5) {
		UVIO_OPTS(uvio_mlx5_context, m);

		if (!uvio_mlx5_query_context(dev, &m)) {
			if (json)
				printf(",\"mlx5_context\":{");
			else
				printf("    mlx5 context:");
			first_item = true;
			field_u64("cqe_version", m.cqe_version);
			field_str("uar", m.dynamic_uar ? "dynamic" : "static");
			field_u64("uar_page_id", m.uar_page_id);
			field_u64("tot_bfregs", m.tot_bfregs);
			field_u64("num_dyn_bfregs", m.num_dyn_bfregs);
			field_u64("bf_reg_size", m.bf_reg_size);
			field_u64("cache_line_size", m.cache_line_size);
			field_u64("max_sq_desc_sz", m.max_sq_desc_sz);
			field_u64("max_rq_desc_sz", m.max_rq_desc_sz);
			field_u64("max_send_wqebb", m.max_send_wqebb);
			field_u64("max_recv_wr", m.max_recv_wr);
			field_u64("max_srq_recv_wr", m.max_srq_recv_wr);
			field_u64("qp_tab_size", m.qp_tab_size);
			field_hex("cmds_supp_uhw", m.cmds_supp_uhw);
			field_u64("eth_min_inline", m.eth_min_inline);
			field_u64("num_uars_per_page", m.num_uars_per_page);
			field_u64("log_uar_size", m.log_uar_size);
			field_hex("comp_mask", m.comp_mask);
			field_hex("hca_core_clock_offset", m.hca_core_clock_offset);
			printf(json ? "}" : "\n");
		}
		show_mlx5_device(dev);
	}
	printf(json ? "}" : "");
	if (ctx.async_fd >= 0)
		close(ctx.async_fd);
	uvio_device_close(dev);
}

static int show_device(const struct uvio_device_info *d, bool caps, bool context)
{
	struct uvio_device *dev = NULL;
	const char *path = "?";
	int fd, ret;

	/* A private fd with no context: the probes leave nothing behind. */
	fd = open(d->path, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && !uvio_device_adopt(fd, d->driver_id_known ? d->driver_id :
					  UVIO_DRIVER_ID_PROBE, &dev)) {
		UVIO_CMD_DEFINE(cmd, 0, 0x3ff, 0);
		uvio_cmd_set_driver_id(&cmd, uvio_device_driver_id(dev));
		ret = uvio_cmd_exec(fd, &cmd);
		path = ret == -EPROTONOSUPPORT ? "ioctl" : ret == -ENOTTY ? "write" : "?";
	}
	if (json) {
		json_sep();
		printf("{\"name\":");
		json_str(d->name);
		printf(",\"uverbs\":");
		json_str(d->uverbs);
		printf(",\"path\":");
		json_str(d->path);
		printf(",\"index\":%u,\"driver\":", d->index);
		json_str(driver_name(dev ? uvio_device_driver_id(dev) : d->driver_id));
		printf(",\"driver_id\":%u,\"driver_id_source\":\"%s\",\"abi_version\":%u,"
		       "\"node_type\":", dev ? uvio_device_driver_id(dev) : d->driver_id,
		       d->driver_id_known ? "netlink" : "probe", d->abi_version);
		json_str(node_type_name(d->node_type));
		printf(",\"source\":\"%s\",\"command_path\":\"%s\",\"ports\":[",
		       d->source == UVIO_SOURCE_NETLINK ? "netlink" : "sysfs", path);
	} else {
		printf("%s: %s, driver %s (id %u, from %s), uverbs ABI %u, node type %s\n",
		       d->name, d->path, driver_name(dev ? uvio_device_driver_id(dev) : d->driver_id),
		       dev ? uvio_device_driver_id(dev) : d->driver_id,
		       d->driver_id_known ? "netlink" : "probe", d->abi_version,
		       node_type_name(d->node_type));
	}
	first_item = true;
	show_ports(d);
	if (json)
		printf("]");
	else
		printf("  command path: %s\n", path);
	if (context)
		show_context(d);
	if (json)
		printf(",\"capabilities\":[");
	first_item = true;
	if (caps && dev && !strcmp(path, "ioctl")) {
		if (!json)
			printf("  capabilities, per object (methods, their attributes, write() "
			       "commands; (no): this kernel lacks it):\n");
		show_caps(fd, uvio_device_driver_id(dev));
	}
	if (json)
		printf("]}");
	uvio_device_close(dev);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct uvio_device_info devs[32];
	const char *only = NULL;
	bool caps = true, abi = false, md = false, context = true;
	int n, ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--no-caps"))
			caps = false;
		else if (!strcmp(argv[i], "--no-context"))
			context = false;
		else if (!strcmp(argv[i], "--abi"))
			abi = true;
		else if (!strcmp(argv[i], "--markdown"))
			md = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: uverbs-info [--json] [--no-caps] [--no-context] [DEVICE]\n"
			       "       uverbs-info --abi [--markdown]\n");
			return 0;
		} else
			only = argv[i];
	}
	if (abi) {
		show_abi(md);
		return 0;
	}
	n = uvio_list_devices(devs, 32);
	if (n < 0) {
		fprintf(stderr, "uverbs-info: cannot list devices: %s\n", strerror(-n));
		return 1;
	}
	if (json)
		printf("{\"devices\":[");
	bool outer_first = true;
	for (int i = 0; i < n && i < 32; i++) {
		if (only && strcmp(only, devs[i].name) && strcmp(only, devs[i].uverbs))
			continue;
		if (json && !outer_first)
			printf(",");
		outer_first = false;
		first_item = true;
		if (show_device(&devs[i], caps, context))
			ret = 1;
	}
	if (json)
		printf("]}\n");
	if (!n && !json)
		printf("no uverbs devices\n");
	return ret;
}
