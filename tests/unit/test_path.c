/*
 * Path selection against a stand-in kernel: what the real kernel cannot be
 * made to do on demand (EPROTONOSUPPORT for one method, as 4.16-5.8 kernels
 * answer for CQ methods) and exact syscall counts under a race.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <uvio.h>
#include "device/dev.h"
#include "verbs/verb.h"
#include "fake_sysfs.h"
#include "wrap.h"

static int answer;			/* errno the stand-in's ioctl gives */
/* With stagger_us, the first ioctl answers once 8 are in flight and the
 * others this many us later: the first thread acts on its answer while the
 * others still wait for theirs. */
static _Atomic int stagger_us, ioctls_seen;
static int cq_enoproto;		/* CQ methods unknown on ioctl */
static int no_invoke_write;		/* DEVICE/INVOKE_WRITE unknown */
static _Atomic uint32_t last_write_cmd;		/* command of the last write() */
static _Atomic uint64_t last_invoked;		/* WRITE_CMD of the last INVOKE_WRITE */

/* INVOKE_WRITE of CREATE_CQ: answer through CORE_OUT, as the kernel does. */
static int invoke_write(struct ib_uverbs_ioctl_hdr *hdr)
{
	struct ib_uverbs_create_cq_resp *r = NULL;
	uint64_t cmd = UINT64_MAX;

	if (no_invoke_write)
		return EPROTONOSUPPORT;
	for (unsigned int i = 0; i < hdr->num_attrs; i++) {
		struct ib_uverbs_attr *a = &hdr->attrs[i];

		if (a->attr_id == UVERBS_ATTR_WRITE_CMD)
			cmd = a->data;
		if (a->attr_id == UVERBS_ATTR_CORE_OUT)
			r = (void *)(uintptr_t)a->data;
	}
	last_invoked = cmd;
	if (cmd == IB_USER_VERBS_CMD_CREATE_CQ && r) {
		r->cq_handle = 5;
		r->cqe = 32;
	}
	return 0;
}

static uint8_t last_ioctl[64];	/* the first bytes of the last command */

static int kernel_ioctl(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	/* length leads both layouts */
	memcpy(last_ioctl, arg,
	       hdr->length < sizeof(last_ioctl) ? hdr->length : sizeof(last_ioctl));
	if (answer) {
		if (stagger_us) {
			/* the first waits until all 8 racers are inside (at most
			 * a second), the others answer well after it */
			if (atomic_fetch_add(&ioctls_seen, 1) == 0)
				for (int i = 0; i < 10000 && ioctls_seen < 8; i++)
					usleep(100);
			else
				usleep((useconds_t)stagger_us);
		}
		return answer;
	}
	if (cq_enoproto && hdr->object_id == UVERBS_OBJECT_CQ)
		return EPROTONOSUPPORT;
	if (hdr->object_id == UVERBS_OBJECT_DEVICE &&
	    hdr->method_id == UVERBS_METHOD_INVOKE_WRITE)
		return invoke_write(hdr);
	if (hdr->object_id == UVERBS_OBJECT_CQ && hdr->method_id == UVERBS_METHOD_CQ_CREATE) {
		for (unsigned int i = 0; i < hdr->num_attrs; i++) {
			struct ib_uverbs_attr *a = &hdr->attrs[i];

			if (a->attr_id == UVERBS_ATTR_CREATE_CQ_HANDLE)
				a->data = 3;
			if (a->attr_id == UVERBS_ATTR_CREATE_CQ_RESP_CQE)
				*(uint32_t *)(uintptr_t)a->data = 64;
		}
	}
	return 0;
}

static ssize_t kernel_write(const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;

	last_write_cmd = h->command;
	if (h->command == IB_USER_VERBS_CMD_CREATE_CQ) {
		const struct ib_uverbs_create_cq *c = (const void *)(h + 1);
		struct ib_uverbs_create_cq_resp *r = (void *)(uintptr_t)c->response;

		assert_int_equal(len, h->in_words * 4u);
		assert_true(h->out_words * 4u >= sizeof(*r) + UVIO_DEFAULT_DRV_OUT);
		r->cq_handle = 9;
		r->cqe = c->cqe;
	}
	return (ssize_t)len;
}

static struct uvio_device *fresh(void)
{
	struct uvio_device *dev;

	fake_reset();
	fake.on_ioctl = kernel_ioctl;
	fake.on_write = kernel_write;
	answer = 0;
	cq_enoproto = 0;
	no_invoke_write = 0;
	last_write_cmd = 0;
	last_invoked = UINT64_MAX;
	unsetenv("UVERBS_IOCTL_PATH");
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 14, &dev), 0);
	return dev;
}

static const struct uvio_cq_attr attr = { .sz = sizeof(struct uvio_cq_attr), .cqe = 16 };

static void ioctl_when_present(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	(void)state;

	assert_int_equal(uvio_device_path(dev), UVIO_PATH_AUTO);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(cq.handle, 3);
	assert_int_equal(cq.cqe, 64);
	assert_int_equal(fake.ioctl_calls, 1);
	assert_int_equal(fake.last_request, 0xc0181b01UL);
	assert_int_equal(fake.write_calls, 0);
	assert_int_equal(uvio_device_path(dev), UVIO_PATH_IOCTL);
	uvio_device_close(dev);
	assert_int_equal(fake.close_calls, 0);	/* adopted fd stays open */
}

static void enotty_once_per_device(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_device_stats st;
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	(void)state;

	answer = ENOTTY;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(cq.handle, 9);
	assert_int_equal(fake.ioctl_calls, 1);
	assert_int_equal(fake.write_calls, 1);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(uvio_destroy_cq(dev, 9, NULL, &p), 0);
		assert_int_equal(p, UVIO_PATH_WRITE);
	}
	assert_int_equal(fake.ioctl_calls, 1);	/* never again */
	assert_int_equal(fake.write_calls, 6);
	uvio_device_get_stats(dev, &st);
	assert_int_equal(st.fallbacks, 1);
	uvio_device_close(dev);
}

static void enoprotoopt_per_verb(void **state)
{
	struct uvio_device *dev = fresh();
	enum uvio_path p;
	UVIO_OPTS(uvio_cq, cq);
	(void)state;

	/* The method is missing: its write() command, over the ioctl. */
	cq_enoproto = 1;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(cq.handle, 5);
	assert_int_equal(cq.cqe, 32);
	assert_int_equal(last_invoked, IB_USER_VERBS_CMD_CREATE_CQ);
	assert_int_equal(fake.ioctl_calls, 2);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(fake.ioctl_calls, 3);	/* remembered for CQ CREATE */
	/* other verbs keep their methods */
	assert_int_equal(uvio_dealloc_pd(dev, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(uvio_device_path(dev), UVIO_PATH_IOCTL);
	assert_int_equal(fake.write_calls, 0);
	uvio_device_close(dev);

	/* Neither the method nor INVOKE_WRITE (kernels 4.16-4.20): write(). */
	dev = fresh();
	cq_enoproto = 1;
	no_invoke_write = 1;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(cq.handle, 9);
	assert_int_equal(fake.ioctl_calls, 2);
	assert_int_equal(fake.write_calls, 1);
	/* Both facts are kept: a verb without a method goes to write() at
	 * once, a verb with one keeps it. */
	assert_int_equal(uvio_alloc_pd(dev, NULL, &(uint32_t){0}, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(uvio_dealloc_pd(dev, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(fake.ioctl_calls, 3);
	assert_int_equal(fake.write_calls, 2);
	uvio_device_close(dev);
}

/* Verbs without a method of their own go over INVOKE_WRITE, one ioctl each. */
static void invoke_write_for_write_commands(void **state)
{
	struct uvio_device *dev = fresh();
	uint32_t pd;
	enum uvio_path p;
	(void)state;

	for (int i = 0; i < 3; i++) {
		assert_int_equal(uvio_alloc_pd(dev, NULL, &pd, &p), 0);
		assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
		assert_int_equal(last_invoked, IB_USER_VERBS_CMD_ALLOC_PD);
	}
	assert_int_equal(fake.ioctl_calls, 3);
	assert_int_equal(fake.write_calls, 0);
	uvio_device_close(dev);
}

/* One decision per device: once the ioctl answered, a later ENOTTY is the
 * command's error, not a reason to start writing to the fd. */
static void enotty_after_decided_is_an_error(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_device_stats st;
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	(void)state;

	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	answer = ENOTTY;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), -ENOTTY);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(uvio_alloc_pd(dev, NULL, &(uint32_t){0}, &p), -ENOTTY);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(fake.write_calls, 0);
	assert_int_equal(uvio_device_path(dev), UVIO_PATH_IOCTL);
	uvio_device_get_stats(dev, &st);
	assert_int_equal(st.fallbacks, 0);
	uvio_device_close(dev);
}

/* A verb goes straight to the path it last ran on; pinning another path,
 * or that path failing later, is still obeyed at the next call. */
static void remembered_paths(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	(void)state;

	for (int i = 0; i < 3; i++) {
		assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
		assert_int_equal(p, UVIO_PATH_IOCTL);
	}
	assert_int_equal(fake.ioctl_calls, 3);
	uvio_device_set_path(dev, UVIO_PATH_WRITE);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(fake.write_calls, 1);
	uvio_device_set_path(dev, UVIO_PATH_AUTO);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	assert_int_equal(fake.ioctl_calls, 4);
	/* The method goes away: this call moves on, the next one goes
	 * straight to INVOKE_WRITE. */
	cq_enoproto = 1;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(fake.ioctl_calls, 6);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_INVOKE_WRITE);
	assert_int_equal(fake.ioctl_calls, 7);
	assert_int_equal(fake.write_calls, 1);
	uvio_device_close(dev);
}

/* A device on write(), moved there by ENOTTY or pinned, remembers each
 * verb's path as a device on the ioctl does: after the first answer a verb
 * goes straight to write(). */
static void write_devices_remember(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	(void)state;

	answer = ENOTTY;	/* a kernel, or a sandbox, without the ioctl */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
		assert_int_equal(p, UVIO_PATH_WRITE);
	}
	assert_int_equal(fake.ioctl_calls, 1);
	assert_int_equal(fake.write_calls, 3);
	assert_true(uvio_path_decided(&dev->paths));
	assert_int_equal(uvio_path_remembered(&dev->paths, UVIO_VERB_CREATE_CQ), UVIO_PATH_WRITE);
	uvio_device_close(dev);

	dev = fresh();
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_WRITE), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(uvio_path_remembered(&dev->paths, UVIO_VERB_CREATE_CQ), UVIO_PATH_WRITE);
	assert_int_equal(fake.ioctl_calls, 0);
	/* unpinned, it has learnt nothing about the ioctl: it tries it */
	assert_int_equal(uvio_device_set_path(dev, UVIO_PATH_AUTO), 0);
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL);
	uvio_device_close(dev);
}

/* No GID command on write(): the entries come from sysfs, as the method
 * would give them, and the path says so. */
static void gids_from_sysfs(void **state)
{
	struct uvio_device *dev = fresh();
	struct uvio_gid_entry e, t[4];
	enum uvio_path p;
	(void)state;

	fake_sysfs_put("class/infiniband/fake0/ports/1/link_layer", "Ethernet\n");
	fake_sysfs_put("class/infiniband/fake0/ports/1/gids/0",
		       "fe80:0000:0000:0000:5054:00ff:fe12:3456\n");
	fake_sysfs_put("class/infiniband/fake0/ports/1/gids/1",
		       "0000:0000:0000:0000:0000:ffff:c000:0201\n");
	fake_sysfs_put("class/infiniband/fake0/ports/1/gids/2",
		       "0000:0000:0000:0000:0000:0000:0000:0000\n");
	fake_sysfs_put("class/infiniband/fake0/ports/1/gid_attrs/types/0", "IB/RoCE v1\n");
	fake_sysfs_put("class/infiniband/fake0/ports/1/gid_attrs/types/1", "RoCE v2\n");
	fake_sysfs_put("class/infiniband/fake0/ports/1/gid_attrs/ndevs/1", "lo\n");
	uvio_device_set_path(dev, UVIO_PATH_WRITE);

	assert_int_equal(uvio_query_gid_entry(dev, 1, 1, &e, &p), 0);
	assert_int_equal(p, UVIO_PATH_SYSFS);
	assert_int_equal(((uint8_t *)e.gid)[10], 0xff);
	assert_int_equal(((uint8_t *)e.gid)[12], 0xc0);
	assert_int_equal(((uint8_t *)e.gid)[15], 0x01);
	assert_int_equal(e.gid_index, 1);
	assert_int_equal(e.port_num, 1);
	assert_int_equal(e.gid_type, IB_UVERBS_GID_TYPE_ROCE_V2);
	assert_int_equal(e.netdev_ifindex, 1);	/* lo */
	assert_int_equal(uvio_query_gid_entry(dev, 1, 0, &e, &p), 0);
	assert_int_equal(e.gid_type, IB_UVERBS_GID_TYPE_ROCE_V1);	/* Ethernet port */
	assert_int_equal(((uint8_t *)e.gid)[0], 0xfe);
	assert_int_equal(e.netdev_ifindex, 0);
	/* the same words on iWARP (an RNIC) mean IB, as the method says */
	fake_sysfs_put("class/infiniband/fake0/node_type", "4: RNIC\n");
	assert_int_equal(uvio_query_gid_entry(dev, 1, 0, &e, &p), 0);
	assert_int_equal(e.gid_type, IB_UVERBS_GID_TYPE_IB);
	fake_sysfs_put("class/infiniband/fake0/node_type", "1: CA\n");
	/* an empty slot, past the table, no such port: the method's answers */
	assert_int_equal(uvio_query_gid_entry(dev, 1, 2, &e, &p), -ENODATA);
	assert_int_equal(uvio_query_gid_entry(dev, 1, 3, &e, &p), -EINVAL);
	assert_int_equal(uvio_query_gid_entry(dev, 2, 0, &e, &p), -EINVAL);
	/* the table: the valid entries in order; too little room is EINVAL */
	assert_int_equal(uvio_query_gid_table(dev, t, 4, &p), 2);
	assert_int_equal(p, UVIO_PATH_SYSFS);
	assert_int_equal(t[0].gid_index, 0);
	assert_int_equal(t[1].gid_index, 1);
	assert_int_equal(uvio_query_gid_table(dev, t, 1, &p), -EINVAL);
	assert_int_equal(fake.write_calls, 0);
	assert_int_equal(fake.ioctl_calls, 0);
	/* malformed text is an error, not a GID */
	fake_sysfs_put("class/infiniband/fake0/ports/1/gids/0", "fe80::1\n");
	assert_int_equal(uvio_query_gid_entry(dev, 1, 0, &e, &p), -EIO);
	uvio_device_close(dev);

	/* A kernel without the method: asked once, sysfs from then on. */
	dev = fresh();
	answer = EPROTONOSUPPORT;
	assert_int_equal(uvio_query_gid_entry(dev, 1, 1, &e, &p), 0);
	assert_int_equal(p, UVIO_PATH_SYSFS);
	assert_int_equal(e.gid_type, IB_UVERBS_GID_TYPE_ROCE_V2);
	assert_int_equal(uvio_query_gid_entry(dev, 1, 1, &e, &p), 0);
	assert_int_equal(fake.ioctl_calls, 1);
	uvio_device_close(dev);
}

static int files_opened;

static const char *count_open(const char *path)
{
	files_opened++;
	return path;
}

/* Adopting an fd reads no file: the IB device's name, which only the GID
 * fallback needs, is asked of sysfs when that runs. */
static void adopt_reads_no_file(void **state)
{
	struct uvio_device *dev;
	struct uvio_gid_entry e;
	enum uvio_path p;
	(void)state;

	fake_reset();
	fake.on_open = count_open;
	files_opened = 0;
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 14, &dev), 0);
	assert_int_equal(files_opened, 0);
	fake_sysfs_put("class/infiniband/fake0/ports/1/gids/0",
		       "fe80:0000:0000:0000:5054:00ff:fe12:3456\n");
	uvio_device_set_path(dev, UVIO_PATH_WRITE);
	files_opened = 0;
	assert_int_equal(uvio_query_gid_entry(dev, 1, 0, &e, &p), 0);
	assert_int_equal(p, UVIO_PATH_SYSFS);
	assert_int_equal(((uint8_t *)e.gid)[0], 0xfe);
	assert_true(files_opened > 0);
	uvio_device_close(dev);
	fake.on_open = NULL;
}

static void pinned_paths(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_cq, cq);
	struct uvio_cq_attr flagged = attr;
	enum uvio_path p;
	(void)state;

	/* pinned ioctl: ENOTTY is the answer, no fallback */
	uvio_device_set_path(dev, UVIO_PATH_IOCTL);
	answer = ENOTTY;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), -ENOTTY);
	assert_int_equal(fake.write_calls, 0);
	/* pinned 2017 layout: its own request number */
	uvio_device_set_path(dev, UVIO_PATH_IOCTL_2017);
	answer = 0;
	assert_int_equal(uvio_dealloc_pd(dev, 1, &p), 0);
	assert_int_equal(p, UVIO_PATH_IOCTL_2017);
	assert_int_equal(fake.last_request, 0xc0101b01UL);
	{
		/* 16-byte header (length 32, PD, DESTROY, 1 attribute, reserved
		 * zero), then the handle's record right after it */
		const struct uvio_ioctl_hdr_2017 *h = (const void *)last_ioctl;
		struct ib_uverbs_attr a;

		assert_int_equal(h->length, 32);
		assert_int_equal(h->object_id, UVERBS_OBJECT_PD);
		assert_int_equal(h->method_id, UVERBS_METHOD_PD_DESTROY);
		assert_int_equal(h->num_attrs, 1);
		assert_int_equal(h->reserved, 0);
		memcpy(&a, last_ioctl + sizeof(*h), sizeof(a));
		assert_int_equal(a.attr_id, UVERBS_ATTR_DESTROY_PD_HANDLE);
		assert_int_equal(a.len, 0);
		assert_int_equal(a.flags, UVERBS_ATTR_F_MANDATORY);
		assert_int_equal(a.data, 1);
	}
	uvio_device_close(dev);

	/* pinned by the environment */
	setenv("UVERBS_IOCTL_PATH", "write", 1);
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 14, &dev), 0);
	fake_reset();
	fake.on_write = kernel_write;
	assert_int_equal(uvio_create_cq(dev, &attr, NULL, &cq, &p), 0);
	assert_int_equal(p, UVIO_PATH_WRITE);
	assert_int_equal(fake.ioctl_calls, 0);
	/* flags travel in the extended command */
	flagged.flags = 1;
	assert_int_equal(uvio_create_cq(dev, &flagged, NULL, &cq, &p), 0);
	assert_int_equal(fake.write_calls, 2);
	assert_int_equal(last_write_cmd,
			 IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ);
	/* a verb with no write() command cannot run pinned to write() */
	{
		UVIO_CMD_DEFINE(c, 1, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT);
		assert_int_equal(uvio_device_exec(dev, &c, &p), -EOPNOTSUPP);
		assert_int_equal(fake.ioctl_calls, 0);
	}
	uvio_device_close(dev);
	setenv("UVERBS_IOCTL_PATH", "bogus", 1);
	assert_int_equal(uvio_device_adopt(fake_uverbs_fd(), 14, &dev), -EINVAL);
	unsetenv("UVERBS_IOCTL_PATH");
}

/*
 * A caller-built command whose method the kernel lacks (a provider's driver
 * method, say) gets the kernel's EPROTONOSUPPORT, and nothing is
 * remembered: the next caller-built command, of any method, still goes to
 * the kernel. Caller-built commands share no method.
 */
static void caller_commands_are_not_remembered(void **state)
{
	struct uvio_device *dev = fresh();
	enum uvio_path p;
	(void)state;

	cq_enoproto = 1;	/* the CQ object "lacks" its methods */
	for (int i = 0; i < 2; i++) {
		UVIO_CMD_DEFINE(c, 1, UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY);
		int calls = fake.ioctl_calls;

		uvio_put_idr(&c, UVERBS_ATTR_DESTROY_CQ_HANDLE, 1);
		assert_int_equal(uvio_device_exec(dev, &c, &p), -EPROTONOSUPPORT);
		assert_int_equal(fake.ioctl_calls, calls + 1);
	}
	{
		UVIO_CMD_DEFINE(c, 1, UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY);
		int calls = fake.ioctl_calls;

		uvio_put_idr(&c, UVERBS_ATTR_DESTROY_PD_HANDLE, 1);
		assert_int_equal(uvio_device_exec(dev, &c, &p), 0);
		assert_int_equal(fake.ioctl_calls, calls + 1);
	}
	uvio_device_close(dev);
}

static void bad_driver_data(void **state)
{
	struct uvio_device *dev = fresh();
	static uint8_t big[UVIO_MAX_DRV_DATA + 1];
	UVIO_OPTS(uvio_drv, too_big, .out = big, .out_len = sizeof(big));
	UVIO_OPTS(uvio_drv, null_in, .in = NULL, .in_len = 4);
	UVIO_OPTS(uvio_cq, cq);
	(void)state;

	assert_int_equal(uvio_create_cq(dev, &attr, &too_big, &cq, NULL), -E2BIG);
	assert_int_equal(uvio_create_cq(dev, &attr, &null_in, &cq, NULL), -EFAULT);
	assert_int_equal(uvio_create_cq(dev, NULL, NULL, &cq, NULL), -EINVAL);
	assert_int_equal(fake.ioctl_calls + fake.write_calls, 0);
	uvio_device_close(dev);
	assert_int_equal(uvio_device_adopt(-1, 14, &dev), -EINVAL);
	assert_null(dev);
	assert_int_equal(uvio_device_adopt(999, 14, &dev), -EBADF);
	assert_null(dev);
}

static int async_fails;
static int get_context_calls, async_calls;

static int kernel_context(unsigned long request, void *arg)
{
	struct ib_uverbs_ioctl_hdr *hdr = arg;

	(void)request;
	if (hdr->object_id == UVERBS_OBJECT_DEVICE) {
		get_context_calls++;
		return 0;
	}
	if (hdr->object_id == UVERBS_OBJECT_ASYNC_EVENT) {
		async_calls++;
		if (async_fails)
			return EMFILE;
		hdr->attrs[0].data = 7;	/* the new fd */
	}
	return 0;
}

static void get_context_recovers_from_emfile(void **state)
{
	struct uvio_device *dev = fresh();
	UVIO_OPTS(uvio_context, ctx);
	(void)state;

	fake.on_ioctl = kernel_context;
	get_context_calls = async_calls = 0;
	async_fails = 1;
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), -EMFILE);
	assert_int_equal(get_context_calls, 1);
	assert_int_equal(async_calls, 1);
	async_fails = 0;
	/* the context exists: only the async fd is asked for again */
	assert_int_equal(uvio_get_context(dev, NULL, &ctx, NULL), 0);
	assert_int_equal(get_context_calls, 1);
	assert_int_equal(async_calls, 2);
	assert_int_equal(ctx.async_fd, 7);
	uvio_device_close(dev);
}

static struct uvio_device *shared;
static _Atomic int wrong_path;
static pthread_barrier_t start_line;

static void *racer(void *arg)
{
	UVIO_OPTS(uvio_cq, cq);
	enum uvio_path p;
	(void)arg;

	pthread_barrier_wait(&start_line);	/* all at the first command at once */
	for (int i = 0; i < 100; i++) {
		if (uvio_create_cq(shared, &attr, NULL, &cq, &p) || p != UVIO_PATH_WRITE)
			wrong_path++;
	}
	return NULL;
}

static void threads_agree(void **state)
{
	pthread_t t[8];
	(void)state;

	shared = fresh();
	answer = ENOTTY;
	/* The first ENOTTY moves the device to write() and a write() answer
	 * decides it while the other threads' ENOTTYs are still on their way:
	 * those must follow the device, not be taken for the command's own. */
	stagger_us = 20000;
	ioctls_seen = 0;
	pthread_barrier_init(&start_line, NULL, 8);
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, racer, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start_line);
	assert_int_equal(wrong_path, 0);
	assert_int_equal(uvio_device_path(shared), UVIO_PATH_WRITE);
	/* at most one refused ioctl per thread that raced the first command */
	assert_true(fake.ioctl_calls >= 1 && fake.ioctl_calls <= 8);
	stagger_us = 0;
	uvio_device_close(shared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ioctl_when_present),
		cmocka_unit_test(enotty_once_per_device),
		cmocka_unit_test(enoprotoopt_per_verb),
		cmocka_unit_test(invoke_write_for_write_commands),
		cmocka_unit_test(enotty_after_decided_is_an_error),
		cmocka_unit_test(remembered_paths),
		cmocka_unit_test(write_devices_remember),
		cmocka_unit_test(gids_from_sysfs),
		cmocka_unit_test(adopt_reads_no_file),
		cmocka_unit_test(pinned_paths),
		cmocka_unit_test(bad_driver_data),
		cmocka_unit_test(threads_agree),
		cmocka_unit_test(caller_commands_are_not_remembered),
		cmocka_unit_test(get_context_recovers_from_emfile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
