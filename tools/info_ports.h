/* SPDX-License-Identifier: MIT */
/* uverbs-info's ports: each port's words read from sysfs, and their JSON,
 * apart from the tool so that a test can give them a sysfs tree of its own
 * and any bytes. */
#ifndef UVIO_TOOLS_INFO_PORTS_H
#define UVIO_TOOLS_INFO_PORTS_H

#include <stdio.h>

struct info_port {
	unsigned int port;
	int state_num, phys_state_num;	/* the numbers before the colons; -1 none */
	char state[32], phys_state[32], link_layer[32];
};

/* The port's state, phys_state and link_layer under root ("/sys" but in a
 * test): "4: ACTIVE" is 4 and "ACTIVE"; a missing file an empty word. */
void info_read_port(const char *root, const char *ibdev, unsigned int port,
		    struct info_port *p);
/* v as a JSON string on out, escaped by the library's escaper (sb_json_str,
 * lib/report/sbuf.c): every string uverbs-info --json prints goes here. */
void info_json_str(FILE *out, const char *v);
/* The port's members of its JSON object, without the braces:
 * "port":1,"state":"ACTIVE","state_num":4,... */
void info_port_json(FILE *out, const struct info_port *p);

#endif
