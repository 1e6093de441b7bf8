// SPDX-License-Identifier: MIT
/* UVERBS_IOCTL_TRACE=1: every command on a device, decoded, with its result
 * and the time it took. Off, it costs the command path one branch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <rdma/ib_user_verbs.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "report/report.h"
#include "device/trace.h"

uint64_t uvio_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void emit(const char *line)
{
	if (uvio_log_enabled())
		uvio_log(LOG_DEBUG, "%s", line);
	else
		fprintf(stderr, "uverbs-ioctl: %s\n", line);
}

static void result(char *buf, size_t size, int ret, uint64_t ns)
{
	if (ret < 0)
		snprintf(buf, size, "-> %s (%s) in %llu.%03llu us", uvio_errno_name(ret),
			 strerror(-ret), (unsigned long long)(ns / 1000),
			 (unsigned long long)(ns % 1000));
	else
		snprintf(buf, size, "-> %d in %llu.%03llu us", ret,
			 (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

void uvio_trace_ioctl(const char *devname, const struct uvio_cmd *cmd, int ret,
		      uint64_t ns)
{
	char text[4096], res[128], line[4352];
	char *save = NULL;

	uvio_cmd_format(cmd, text, sizeof(text));
	result(res, sizeof(res), ret, ns);
	/* The callback takes lines: the summary, then one per attribute. */
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (l == text)
			snprintf(line, sizeof(line), "%s %s: %s %s", devname,
				 uvio_path_name(cmd->layout == UVIO_LAYOUT_2017 ?
						UVIO_PATH_IOCTL_2017 : UVIO_PATH_IOCTL), l, res);
		else
			snprintf(line, sizeof(line), "%s   %s", devname, l);
		emit(line);
	}
	/* The bytes as sent, for uverbs-decode. */
	{
		static const char digits[] = "0123456789abcdef";
		const uint8_t *b = (const uint8_t *)cmd->hdr;
		char hex[2 * UVIO_CMD_MAX_BYTES + 64];
		int len = uvio_cmd_finish(cmd);
		size_t n = (size_t)snprintf(hex, sizeof(hex), "%s   hex ", devname);

		for (int i = 0; i < len && n + 2 < sizeof(hex); i++) {
			hex[n++] = digits[b[i] >> 4];
			hex[n++] = digits[b[i] & 15];
		}
		hex[n] = 0;
		if (len > 0)
			emit(hex);
	}
}

void uvio_trace_write(const char *devname, const void *buf, size_t len, int ret,
		      uint64_t ns)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	const char *name = uvio_write_cmd_name(h->command);
	char res[128], line[512];
	size_t n, i;

	result(res, sizeof(res), ret, ns);
	n = (size_t)snprintf(line, sizeof(line), "%s write: %s (command %u) in_words %u "
			     "out_words %u, %zu bytes:", devname, name ? name : "?",
			     h->command, h->in_words, h->out_words, len);
	/* The core struct, as the kernel reads it, in 8-byte words. */
	for (i = sizeof(*h); i + 8 <= len && i < sizeof(*h) + 64 && n < sizeof(line); i += 8) {
		uint64_t w;

		memcpy(&w, (const char *)buf + i, 8);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %016llx",
				      (unsigned long long)w);
	}
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, " %s", res);
	emit(line);
}
