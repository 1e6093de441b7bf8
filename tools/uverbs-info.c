/*
 * uverbs-info: every uverbs device, its ports, the command path that works on
 * it, and which core methods and attributes this kernel accepts, found by
 * probes that create nothing.
 *
 *   uverbs-info [--json] [--no-caps] [DEVICE]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uvio.h>

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

/* "4: ACTIVE" -> 4 and "ACTIVE" */
static int read_port_file(const char *dev, unsigned int port, const char *file,
			  char *word, size_t size)
{
	char path[256], line[64];
	FILE *f;
	int num = -1;

	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/%u/%s", dev, port, file);
	word[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		line[strcspn(line, "\n")] = 0;
		if (colon) {
			num = atoi(line);
			snprintf(word, size, "%.31s", colon + 1 + (colon[1] == ' '));
		} else {
			snprintf(word, size, "%.31s", line);
		}
	}
	fclose(f);
	return num;
}

static bool json;
static bool first_item;

static void json_sep(void)
{
	if (!first_item)
		printf(",");
	first_item = false;
}

static void show_ports(const struct uvio_device_info *d)
{
	for (unsigned int p = 1; p <= d->num_ports; p++) {
		char state[32], phys[32], ll[32];
		int s = read_port_file(d->name, p, "state", state, sizeof(state));
		int ph = read_port_file(d->name, p, "phys_state", phys, sizeof(phys));

		read_port_file(d->name, p, "link_layer", ll, sizeof(ll));
		if (json) {
			json_sep();
			printf("{\"port\":%u,\"state\":\"%s\",\"state_num\":%d,\"phys_state\":\"%s\","
			       "\"phys_state_num\":%d,\"link_layer\":\"%s\"}", p, state, s, phys, ph, ll);
		} else {
			printf("  port %u: state %s (%d), physical state %s (%d), link layer %s\n",
			       p, state, s, phys, ph, ll);
		}
	}
}

static const char *verdict(int r)
{
	return r == 1 ? "yes" : r == 0 ? "no" : "?";
}

static void show_caps(int fd, uint32_t driver_id)
{
	uint16_t obj, meth, attr;

	for (unsigned int i = 0; !uvio_known_method(i, &obj, &meth); i++) {
		int m = uvio_probe_method(fd, driver_id, obj, meth);

		if (json) {
			json_sep();
			printf("{\"object\":\"%s\",\"method\":\"%s\",\"object_id\":%u,\"method_id\":%u,"
			       "\"supported\":%s,\"attrs\":{", uvio_object_name(obj),
			       uvio_method_name(obj, meth), obj, meth,
			       m == 1 ? "true" : m == 0 ? "false" : "null");
		} else {
			printf("    %-12s %-16s %-3s", uvio_object_name(obj),
			       uvio_method_name(obj, meth), verdict(m));
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
}

static int show_device(const struct uvio_device_info *d, bool caps)
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
		printf("{\"name\":\"%s\",\"uverbs\":\"%s\",\"path\":\"%s\",\"index\":%u,"
		       "\"driver\":\"%s\",\"driver_id\":%u,\"driver_id_source\":\"%s\","
		       "\"abi_version\":%u,\"node_type\":\"%s\",\"source\":\"%s\","
		       "\"command_path\":\"%s\",\"ports\":[", d->name, d->uverbs, d->path, d->index,
		       driver_name(dev ? uvio_device_driver_id(dev) : d->driver_id),
		       dev ? uvio_device_driver_id(dev) : d->driver_id,
		       d->driver_id_known ? "netlink" : "probe", d->abi_version,
		       node_type_name(d->node_type),
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
		printf("],\"capabilities\":[");
	else
		printf("  command path: %s\n", path);
	first_item = true;
	if (caps && dev && !strcmp(path, "ioctl")) {
		if (!json)
			printf("  capabilities (method, then attributes; (no): this kernel lacks it):\n");
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
	bool caps = true;
	int n, ret = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--no-caps"))
			caps = false;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: uverbs-info [--json] [--no-caps] [DEVICE]\n");
			return 0;
		} else
			only = argv[i];
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
		if (show_device(&devs[i], caps))
			ret = 1;
	}
	if (json)
		printf("]}\n");
	if (!n && !json)
		printf("no uverbs devices\n");
	return ret;
}
