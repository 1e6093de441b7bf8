/*
 * The connection manager's decoder (uvio_decode_cm) on any command and any
 * answer, as text and as JSON members, into roomy and tiny buffers: the
 * same length returned either way, the text terminated, the JSON members
 * parseable once wrapped in braces; and uvio_cm_cmd_response() on the same
 * bytes: an answer's place only within what the header allows.
 * Input: 1 byte of flags (1: JSON; 2: no answer), 2 bytes of command
 * length, the command (struct rdma_ucm_cmd_hdr first), the answer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <uvio.h>
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No kernel here. */
int uvio_sys_ioctl(int fd, unsigned long req, void *arg);
int uvio_sys_ioctl(int fd, unsigned long req, void *arg)
{
	(void)fd; (void)req; (void)arg;
	return -ENOTTY;
}
ssize_t uvio_sys_write(int fd, const void *buf, size_t len);
ssize_t uvio_sys_write(int fd, const void *buf, size_t len)
{
	(void)fd; (void)buf; (void)len;
	return -EBADF;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char big[1 << 16];
	char tiny[13];
	const uint8_t *cmd, *resp;
	size_t len, resp_len;
	unsigned int flags;
	uint64_t addr;
	uint32_t rl;
	int a, b, r;

	if (size < 3)
		return 0;
	flags = data[0] & 1 ? UVIO_DECODE_JSON : 0;
	len = (size_t)(data[1] | data[2] << 8);
	cmd = data + 3;
	size -= 3;
	if (len > size)
		len = size;
	resp = data[0] & 2 ? NULL : cmd + len;
	resp_len = resp ? size - len : 0;

	a = uvio_decode_cm(cmd, len, resp, resp_len, flags, big, sizeof(big));
	b = uvio_decode_cm(cmd, len, resp, resp_len, flags, tiny, sizeof(tiny));
	if (a != b || strlen(tiny) >= sizeof(tiny))
		abort();
	if (a >= 0 && ((size_t)a >= sizeof(big) || strlen(big) != (size_t)a))
		abort();
	if (a < 0 && (a != -EINVAL || len >= 8))
		abort();
	if (flags && a >= 0)
		fuzz_check_json(big, (size_t)a);
	/* no output room, and flags it does not know */
	if (uvio_decode_cm(cmd, len, resp, resp_len, flags, NULL, 0) != a)
		abort();
	if (uvio_decode_cm(cmd, len, resp, resp_len, 0x80, big, sizeof(big)) != -EINVAL)
		abort();

	r = uvio_cm_cmd_response(cmd, len, &addr, &rl);
	if (r == 1 && (len < 8 || rl != (uint32_t)(cmd[6] | cmd[7] << 8) || !rl))
		abort();
	if (r != 0 && r != 1 && r != -EINVAL)
		abort();
	if (len >= 8 && !uvio_cm_cmd_name((uint32_t)(cmd[0] | cmd[1] << 8 | cmd[2] << 16 |
						     (uint32_t)cmd[3] << 24)) && r != -EINVAL)
		abort();
	return 0;
}
