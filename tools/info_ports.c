// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "info_ports.h"
#include "report/sbuf.h"

/* "4: ACTIVE" -> 4 and "ACTIVE" */
static int read_port_file(const char *root, const char *ibdev, unsigned int port,
			  const char *file, char *word, size_t size)
{
	char path[512], line[64];
	FILE *f;
	int num = -1;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%u/%s", root, ibdev, port,
		 file);
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

void info_read_port(const char *root, const char *ibdev, unsigned int port,
		    struct info_port *p)
{
	p->port = port;
	p->state_num = read_port_file(root, ibdev, port, "state", p->state, sizeof(p->state));
	p->phys_state_num = read_port_file(root, ibdev, port, "phys_state", p->phys_state,
					   sizeof(p->phys_state));
	read_port_file(root, ibdev, port, "link_layer", p->link_layer, sizeof(p->link_layer));
}

void info_json_str(FILE *out, const char *v)
{
	char small[256], *big;
	struct sbuf s;

	sb_init(&s, small, sizeof(small));
	sb_json_str(&s, v);
	if (!s.cut) {
		fwrite(s.buf, 1, s.len, out);
		return;
	}
	/* Longer than any name: room for what it needs (a tool, not a
	 * command path), or an empty string rather than a cut one. */
	big = malloc(s.need + 1);
	if (!big) {
		fputs("\"\"", out);
		return;
	}
	sb_init(&s, big, s.need + 1);
	sb_json_str(&s, v);
	fwrite(s.buf, 1, s.len, out);
	free(big);
}

void info_port_json(FILE *out, const struct info_port *p)
{
	fprintf(out, "\"port\":%u,\"state\":", p->port);
	info_json_str(out, p->state);
	fprintf(out, ",\"state_num\":%d,\"phys_state\":", p->state_num);
	info_json_str(out, p->phys_state);
	fprintf(out, ",\"phys_state_num\":%d,\"link_layer\":", p->phys_state_num);
	info_json_str(out, p->link_layer);
}
