/*
 * The connection manager's commands as the kernel reads them: header, the
 * command's struct with the response address in its first field, one
 * write() each; bad input refused before any write; the ABI version checked
 * at open.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <netinet/in.h>
#include <cmocka.h>

#include <uvio.h>
#include "fake_sysfs.h"
#include "wrap.h"

static uint8_t last[512];		/* the last command written */
static size_t last_len;
static uint32_t next_id = 40;

/* A kernel that answers CREATE_ID with an id and GET_EVENT with one event. */
static ssize_t kernel_write(const void *buf, size_t len)
{
	const struct rdma_ucm_cmd_hdr *h = buf;
	uint64_t resp;

	memcpy(last, buf, len < sizeof(last) ? len : sizeof(last));
	last_len = len;
	if (len < sizeof(*h) || h->in != len - sizeof(*h))
		return -EINVAL;
	/* Every answering command names its response first, CREATE_ID second. */
	memcpy(&resp, (const char *)(h + 1) +
		      (h->cmd == RDMA_USER_CM_CMD_CREATE_ID ? 8 : 0), sizeof(resp));
	if (h->cmd == RDMA_USER_CM_CMD_CREATE_ID) {
		struct rdma_ucm_create_id_resp r = { .id = next_id++ };

		memcpy((void *)(uintptr_t)resp, &r, sizeof(r));
	} else if (h->cmd == RDMA_USER_CM_CMD_GET_EVENT) {
		struct rdma_ucm_event_resp ev = { .uid = 0x22, .id = 41, .event = 8 };

		ev.param.conn.private_data_len = 3;
		memcpy(ev.param.conn.private_data, "no", 3);
		memcpy((void *)(uintptr_t)resp, &ev, h->out < sizeof(ev) ? h->out : sizeof(ev));
	}
	return (ssize_t)len;
}

/* The device node is /dev/null here; sysfs is the fake tree. */
static const char *to_null(const char *path)
{
	return strcmp(path, "/dev/infiniband/rdma_cm") ? path : "/dev/null";
}

/* rdma_cm as the kernel lists it, with /dev/null's number standing in. */
static void cm_sysfs(const char *abi)
{
	char dev[32];
	dev_t d = fake_rdev("/dev/null");

	fake_sysfs();
	snprintf(dev, sizeof(dev), "%u:%u\n", major(d), minor(d));
	fake_sysfs_put("class/misc/rdma_cm/dev", dev);
	fake_sysfs_put("class/misc/rdma_cm/abi_version", abi);
}

static struct uvio_cm *open_cm(void)
{
	struct uvio_cm *cm;

	fake_reset();
	cm_sysfs("4\n");
	fake.on_open = to_null;
	fake.on_write = kernel_write;
	assert_int_equal(uvio_cm_open(&cm), 0);
	fake.on_open = NULL;
	return cm;
}

static const void *cmd_struct(uint32_t cmd, size_t size, size_t out)
{
	const struct rdma_ucm_cmd_hdr *h = (const void *)last;

	assert_int_equal(h->cmd, cmd);
	assert_int_equal(h->in, size);
	assert_int_equal(h->out, out);
	assert_int_equal(last_len, sizeof(*h) + size);
	return h + 1;
}

static void abi_version_checked(void **state)
{
	struct uvio_cm *cm = (struct uvio_cm *)1;
	char path[512];
	(void)state;

	fake_reset();
	cm_sysfs("3\n");
	assert_int_equal(uvio_cm_open(&cm), -EPROTO);
	assert_null(cm);
	assert_non_null(strstr(uvio_last_error(), "ABI version 3"));
	assert_int_equal(uvio_cm_adopt(5, &cm), -EPROTO);
	snprintf(path, sizeof(path), "%s/class/misc/rdma_cm/abi_version", fake_sysfs());
	unlink(path);
	assert_int_equal(uvio_cm_open(&cm), -ENODEV);
	assert_non_null(strstr(uvio_last_error(), "rdma_ucm"));
	assert_int_equal(fake.write_calls, 0);
}

/* A file, a pipe or another device is never taken for the manager. */
static void only_the_manager_is_adopted(void **state)
{
	struct uvio_cm *cm = (struct uvio_cm *)1;
	int p[2];
	(void)state;

	fake_reset();
	cm_sysfs("4\n");
	assert_int_equal(pipe(p), 0);
	assert_int_equal(uvio_cm_adopt(p[0], &cm), -ENODEV);
	assert_null(cm);
	assert_non_null(strstr(uvio_last_error(), "is not /dev/infiniband/rdma_cm"));
	close(p[0]);
	close(p[1]);
	assert_int_equal(uvio_cm_adopt(-1, &cm), -EINVAL);
	assert_int_equal(fake.write_calls, 0);
}

static void commands_as_laid_out(void **state)
{
	struct uvio_cm *cm = open_cm();
	const struct rdma_ucm_create_id *c;
	const struct rdma_ucm_connect *cc;
	const struct rdma_ucm_reject *rj;
	const struct rdma_ucm_resolve_addr *ra;
	struct rdma_ucm_conn_param p = { .qp_num = 0x1234, .private_data_len = 5 };
	struct rdma_ucm_event_resp ev;
	struct sockaddr_in6 dst = { .sin6_family = AF_INET6, .sin6_port = htons(7471) };
	uint32_t id = 0;
	(void)state;

	assert_int_equal(uvio_cm_create_id(cm, 0xabc, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &id), 0);
	assert_int_equal(id, 40);
	c = cmd_struct(RDMA_USER_CM_CMD_CREATE_ID, sizeof(*c), sizeof(struct rdma_ucm_create_id_resp));
	assert_int_equal(c->uid, 0xabc);
	assert_int_equal(c->ps, RDMA_PS_TCP);
	assert_int_equal(c->qp_type, IB_UVERBS_QPT_RC);
	assert_int_not_equal(c->response, 0);

	assert_int_equal(uvio_cm_resolve_addr(cm, id, NULL, 0, (struct sockaddr *)&dst,
					      sizeof(dst), 2000), 0);
	ra = cmd_struct(RDMA_USER_CM_CMD_RESOLVE_ADDR, sizeof(*ra), 0);
	assert_int_equal(ra->id, 40);
	assert_int_equal(ra->timeout_ms, 2000);
	assert_int_equal(ra->src_size, 0);
	assert_int_equal(ra->dst_size, sizeof(dst));
	assert_memory_equal(&ra->dst_addr, &dst, sizeof(dst));

	/* The parameters go as given, marked valid. */
	memcpy(p.private_data, "hello", 5);
	assert_int_equal(uvio_cm_connect(cm, id, &p, NULL), 0);
	cc = cmd_struct(RDMA_USER_CM_CMD_CONNECT, sizeof(*cc), 0);
	assert_int_equal(cc->id, 40);
	assert_int_equal(cc->conn_param.qp_num, 0x1234);
	assert_int_equal(cc->conn_param.valid, 1);
	assert_memory_equal(cc->conn_param.private_data, "hello", 5);

	assert_int_equal(uvio_cm_reject(cm, 41, 0, "no", 3), 0);
	rj = cmd_struct(RDMA_USER_CM_CMD_REJECT, sizeof(*rj), 0);
	assert_int_equal(rj->id, 41);
	assert_int_equal(rj->private_data_len, 3);
	assert_memory_equal(rj->private_data, "no", 3);

	assert_int_equal(uvio_cm_get_event(cm, &ev, sizeof(ev)), 0);
	cmd_struct(RDMA_USER_CM_CMD_GET_EVENT, sizeof(struct rdma_ucm_get_event), sizeof(ev));
	/* A caller built against headers before ECE: the kernel is asked
	 * for 328 bytes, and no byte past them is written. */
	{
		struct { struct rdma_ucm_event_resp ev; } big;
		unsigned char *b = (unsigned char *)&big;

		memset(b, 0xee, sizeof(big));
		assert_int_equal(uvio_cm_get_event(cm, &big.ev, 328), 0);
		cmd_struct(RDMA_USER_CM_CMD_GET_EVENT, sizeof(struct rdma_ucm_get_event), 328);
		for (size_t i = 328; i < sizeof(big); i++)
			assert_int_equal(b[i], 0xee);
	}
	assert_int_equal(uvio_cm_get_event(cm, &ev, 327), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "327"));
	assert_int_equal(ev.event, 8);
	assert_string_equal(uvio_cm_event_name(ev.event), "REJECTED");
	assert_null(uvio_cm_event_name(99));
	assert_int_equal(ev.param.conn.private_data_len, 3);
	uvio_cm_close(cm);
}

static void bad_input_sends_nothing(void **state)
{
	struct uvio_cm *cm = open_cm();
	struct sockaddr_in sin = { .sin_family = AF_INET };
	uint8_t big[sizeof(struct sockaddr_storage) + 1] = { 0 };
	uint32_t id;
	(void)state;

	fake.write_calls = 0;
	assert_int_equal(uvio_cm_create_id(cm, 1, RDMA_PS_TCP, IB_UVERBS_QPT_RC, NULL), -EINVAL);
	assert_int_equal(uvio_cm_bind(cm, 1, NULL, 0), -EINVAL);
	assert_int_equal(uvio_cm_bind(cm, 1, (struct sockaddr *)&sin, 1), -EINVAL);
	assert_int_equal(uvio_cm_bind(cm, 1, (struct sockaddr *)big, sizeof(big)), -EINVAL);
	assert_non_null(strstr(uvio_last_error(), "rdma_cm BIND"));
	assert_int_equal(uvio_cm_connect(cm, 1, NULL, NULL), -EINVAL);
	sin.sin_port = 0;
	assert_int_equal(uvio_cm_reject(cm, 1, 0, NULL, 2), -EINVAL);
	assert_int_equal(uvio_cm_get_event(cm, NULL, sizeof(struct rdma_ucm_event_resp)), -EINVAL);
	assert_int_equal(uvio_cm_query_addr(cm, 1, NULL), -EINVAL);
	assert_int_equal(uvio_cm_query_path(cm, 1, big, 4), -EINVAL);
	assert_int_equal(uvio_cm_init_qp_attr(cm, 1, 1, NULL), -EINVAL);
	assert_int_equal(uvio_cm_set_option(cm, 1, 0, 0, NULL, 4), -EINVAL);
	assert_int_equal(uvio_cm_migrate_id(cm, 1, NULL, NULL), -EINVAL);
	assert_int_equal(uvio_cm_join_mcast(cm, 1, 0, (struct sockaddr *)&sin, sizeof(sin), 0,
					    NULL), -EINVAL);
	assert_int_equal(uvio_cm_create_id(NULL, 1, RDMA_PS_TCP, IB_UVERBS_QPT_RC, &id), -EINVAL);
	assert_int_equal(fake.write_calls, 0);
	/* The kernel's refusal comes back as its errno, with the command. */
	fake.on_write = NULL;	/* -EBADF */
	assert_int_equal(uvio_cm_listen(cm, 1, 1), -EBADF);
	assert_non_null(strstr(uvio_last_error(), "LISTEN"));
	uvio_cm_close(cm);
}

/* The decoder reads the same description the commands are laid out by: a
 * RESOLVE_ADDR with its addresses, a GET_EVENT's answer with the event's
 * private data, as text and JSON; a buffer cut short is named, never read
 * past; the return value is the whole text's length, as snprintf's. */
static void decoded_from_the_description(void **state)
{
	struct {
		struct rdma_ucm_cmd_hdr h;
		struct rdma_ucm_resolve_addr c;
	} ra = { { RDMA_USER_CM_CMD_RESOLVE_ADDR, sizeof(ra.c), 0 }, { 0 } };
	struct {
		struct rdma_ucm_cmd_hdr h;
		struct rdma_ucm_get_event c;
	} ge = { { RDMA_USER_CM_CMD_GET_EVENT, sizeof(ge.c), sizeof(struct rdma_ucm_event_resp) },
		 { .response = 0x1000 } };
	struct rdma_ucm_event_resp ev = { .uid = 0xab, .id = 7, .event = UVIO_CM_EVENT_REJECTED,
					  .status = 28 };
	struct sockaddr_in dst = { .sin_family = AF_INET, .sin_port = htons(7174) };
	char out[2048], small[16];
	uint64_t addr = 0;
	uint32_t len = 0;
	int n;

	(void)state;
	inet_pton(AF_INET, "192.0.2.1", &dst.sin_addr);
	ra.c.id = 3;
	ra.c.timeout_ms = 2000;
	ra.c.dst_size = sizeof(dst);
	memcpy(&ra.c.dst_addr, &dst, sizeof(dst));
	n = uvio_decode_cm(&ra, sizeof(ra), NULL, 0, 0, out, sizeof(out));
	assert_true(n > 0 && (size_t)n == strlen(out));
	assert_non_null(strstr(out, "cmd 21 in 272 out 0"));
	assert_non_null(strstr(out, "id=3 timeout_ms=2000"));
	assert_non_null(strstr(out, "dst_addr=192.0.2.1:7174"));
	/* Cut: the length of the whole text all the same. */
	assert_int_equal(uvio_decode_cm(&ra, sizeof(ra), NULL, 0, 0, small, sizeof(small)), n);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	/* Fewer bytes than the struct: the fields present, the shortfall said. */
	uvio_decode_cm(&ra, 8 + 8, NULL, 0, 0, out, sizeof(out));
	assert_non_null(strstr(out, "(8 of 272 bytes)"));
	assert_int_equal(uvio_decode_cm(&ra, 4, NULL, 0, 0, out, sizeof(out)), -EINVAL);

	ev.param.conn.private_data_len = 3;
	memcpy(ev.param.conn.private_data, "no", 3);
	assert_int_equal(uvio_cm_cmd_response(&ge, sizeof(ge), &addr, &len), 1);
	assert_int_equal(addr, 0x1000);
	assert_int_equal(len, sizeof(ev));
	assert_int_equal(uvio_cm_cmd_response(&ra, sizeof(ra), &addr, &len), 0);
	n = uvio_decode_cm(&ge, sizeof(ge), &ev, sizeof(ev), 0, out, sizeof(out));
	assert_true(n > 0);
	assert_non_null(strstr(out, "event=REJECTED status=28"));
	assert_non_null(strstr(out, "private_data=3:6e6f00"));
	uvio_decode_cm(&ge, sizeof(ge), &ev, sizeof(ev), UVIO_DECODE_JSON, out, sizeof(out));
	assert_non_null(strstr(out, "\"event\":\"REJECTED\""));
	assert_non_null(strstr(out, "\"private_data\":\"6e6f00\""));
	assert_int_equal(uvio_decode_cm(&ge, sizeof(ge), NULL, 4, 0, out, sizeof(out)), -EFAULT);
	assert_int_equal(uvio_decode_cm(&ge, sizeof(ge), NULL, 0, 0x80, out, sizeof(out)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(abi_version_checked),
		cmocka_unit_test(only_the_manager_is_adopted),
		cmocka_unit_test(commands_as_laid_out),
		cmocka_unit_test(bad_input_sends_nothing),
		cmocka_unit_test(decoded_from_the_description),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
