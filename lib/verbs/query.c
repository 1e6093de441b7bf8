// SPDX-License-Identifier: MIT
/* The device's queries: QUERY_DEVICE and EX_QUERY_DEVICE (write()
 * commands), QUERY_PORT (both), the GID entry and table (methods; sysfs
 * where no path has them), INFO_HANDLES (a method), and the completion
 * channel (a write() command). */
#include <rdma/ib_user_ioctl_verbs.h>
#include "verb.h"
#include "gid_sysfs.h"

static int query_device_write(struct uvio_device *dev, enum uvio_path p, void *resp)
{
	UVIO_WRITE_BUF(struct ib_uverbs_query_device) c = { .core = { 0 } };

	return uvio_write(dev, p, VERB_WRITE(QUERY_DEVICE), c, resp,
			  sizeof(struct ib_uverbs_query_device_resp), NULL);
}

UVIO_API int uvio_query_device(struct uvio_device *dev,
			       struct ib_uverbs_query_device_resp *resp,
			       enum uvio_path *path)
{
	if (!resp)
		return uvio_verb_end(dev, VERB_NAME(QUERY_DEVICE), UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_verb(dev, QUERY_DEVICE, NULL, query_device_write, resp, path);
}

struct port_args {
	uint8_t port;
	struct uvio_port_attr *attr;
};

/* The extended response as today's kernels lay it out; Debian 12's headers
 * still call active_speed_ex reserved (added in Linux 6.6). */
struct port_resp_ex {
	struct ib_uverbs_query_port_resp legacy_resp;
	__u16 port_cap_flags2;
	__u8 reserved[2];
	__u32 active_speed_ex;
};
_Static_assert(sizeof(struct port_resp_ex) == sizeof(struct ib_uverbs_query_port_resp_ex),
	       "struct ib_uverbs_query_port_resp_ex");
_Static_assert(offsetof(struct port_resp_ex, port_cap_flags2) ==
	       offsetof(struct ib_uverbs_query_port_resp_ex, port_cap_flags2),
	       "port_cap_flags2");

static int query_port_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct port_args *a = args;
	struct port_resp_ex ex;
	int ret;

	struct uvio_fx_cmd c;

	memset(&ex, 0, sizeof(ex));
	c.n = 0;
	/* A "const" attribute: the kernel takes it as a u64 whatever its type. */
	uvio_fx_u64(&c, UVERBS_ATTR_QUERY_PORT_PORT_NUM, a->port);
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_PORT_RESP, &ex, sizeof(ex));
	ret = uvio_fx_send(dev, p, &c, VERB_OBJECT(QUERY_PORT), VERB_METHOD(QUERY_PORT));
	if (ret)
		return ret;
	UVIO_OUT_SET(a->attr, core, ex.legacy_resp);
	UVIO_OUT_SET(a->attr, port_cap_flags2, ex.port_cap_flags2);
	UVIO_OUT_SET(a->attr, active_speed_ex, ex.active_speed_ex);
	return 0;
}

static int query_port_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct port_args *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_query_port) c = { .core = { .port_num = a->port } };
	struct ib_uverbs_query_port_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(QUERY_PORT), c, &r, sizeof(r), NULL);

	if (ret)
		return ret;
	UVIO_OUT_SET(a->attr, core, r);
	UVIO_OUT_SET(a->attr, port_cap_flags2, 0);
	UVIO_OUT_SET(a->attr, active_speed_ex, 0);
	return 0;
}

UVIO_API int uvio_query_port(struct uvio_device *dev, uint8_t port,
			     struct uvio_port_attr *attr, enum uvio_path *path)
{
	struct port_args a = { .port = port, .attr = attr };
	int ret = uvio_out_check(attr);

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(QUERY_PORT), UVIO_PATH_AUTO, ret, path);
	return uvio_run_verb(dev, QUERY_PORT, query_port_ioctl, query_port_write, &a, path);
}

static int comp_channel_write(struct uvio_device *dev, enum uvio_path p, void *ch)
{
	UVIO_WRITE_BUF(struct ib_uverbs_create_comp_channel) c = { .core = { 0 } };
	struct ib_uverbs_create_comp_channel_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(CREATE_COMP_CHANNEL), c, &r, sizeof(r), NULL);

	if (!ret)
		((struct uvio_comp_channel *)ch)->fd = (int)r.fd;
	return ret;
}

UVIO_API int uvio_create_comp_channel(struct uvio_device *dev,
				      struct uvio_comp_channel *channel,
				      enum uvio_path *path)
{
	/* The fd is the one field, so the struct must hold it. */
	if (uvio_out_check(channel) ||
	    channel->sz < uvio_offsetofend(struct uvio_comp_channel, fd))
		return uvio_verb_end(dev, VERB_NAME(CREATE_COMP_CHANNEL), UVIO_PATH_AUTO, -EINVAL,
				     path);
	channel->fd = -1;
	return uvio_run_verb(dev, CREATE_COMP_CHANNEL, NULL, comp_channel_write, channel, path);
}

static int query_device_ex_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct { void *resp; size_t len; } *a = args;
	UVIO_WRITE_BUF(struct ib_uverbs_ex_query_device) c = { .core = { 0 } };

	return uvio_write(dev, p, VERB_WRITE(QUERY_DEVICE_EX), c, a->resp, a->len, NULL);
}

UVIO_API int uvio_query_device_ex(struct uvio_device *dev,
				  struct ib_uverbs_ex_query_device_resp *resp, size_t len,
				  enum uvio_path *path)
{
	/* A caller's struct may be roomier than any kernel's (a newer header):
	 * the kernel is offered what a write() command can carry, and says in
	 * response_length how much it filled; the rest reads zero. */
	struct { void *resp; size_t len; } a = {
		resp, len < UVIO_LEGACY_MAX_RESP ? len : UVIO_LEGACY_MAX_RESP
	};

	/* The kernel refuses a response that ends before response_length. */
	if (!resp || len < uvio_offsetofend(struct ib_uverbs_ex_query_device_resp,
					    response_length))
		return uvio_verb_end(dev, VERB_NAME(QUERY_DEVICE_EX), UVIO_PATH_AUTO, -EINVAL,
				     path);
	/* Both paths zero what they offer the kernel and it leaves. */
	if (len > a.len)
		memset((char *)resp + a.len, 0, len - a.len);
	return uvio_run_verb(dev, QUERY_DEVICE_EX, NULL, query_device_ex_write, &a, path);
}

struct gid_args {
	uint32_t port, index;
	struct uvio_gid_entry *entries;
	size_t max;
	uint64_t n;
};

_Static_assert(sizeof(struct uvio_gid_entry) == 32, "struct ib_uverbs_gid_entry is 32 bytes");

static int gid_entry_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct gid_args *a = args;
	struct uvio_fx_cmd c;

	c.n = 0;
	uvio_fx_u64(&c, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, a->port);
	uvio_fx_u64(&c, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, a->index);
	/* No flag is defined, yet the kernel insists on the attribute. */
	uvio_fx_u64(&c, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0);
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, a->entries, sizeof(*a->entries));
	return uvio_fx_send(dev, p, &c, VERB_OBJECT(QUERY_GID_ENTRY), VERB_METHOD(QUERY_GID_ENTRY));
}

/* Without a path for the method (write(), or a kernel without it): sysfs. */
static const struct uvio_verb_desc gid_entry_desc = {
	.verb = UVIO_VERB_QUERY_GID_ENTRY, .name = VERB_NAME(QUERY_GID_ENTRY),
			.on_ioctl = gid_entry_ioctl, .fallback = true, };

UVIO_API int uvio_query_gid_entry(struct uvio_device *dev, uint32_t port, uint32_t index,
				  struct uvio_gid_entry *entry, enum uvio_path *path)
{
	struct gid_args a = { .port = port, .index = index, .entries = entry };
	int ret;

	if (!entry)
		return uvio_verb_end(dev, VERB_NAME(QUERY_GID_ENTRY), UVIO_PATH_AUTO, -EINVAL,
				     path);
	ret = uvio_run_verb_desc(dev, &gid_entry_desc, &a, path);
	if (ret != UVIO_VERB_NO_PATH)
		return ret;
	return uvio_verb_end(dev, VERB_NAME(QUERY_GID_ENTRY), UVIO_PATH_SYSFS, gid_sysfs_entry(dev,
			     port, index, entry), path);
}

static int gid_table_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct gid_args *a = args;
	struct uvio_fx_cmd c;

	/* The caller's array: uvio_query_gid_table() bounded it to 16 bits. */
	c.n = 0;
	uvio_fx_u64(&c, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, sizeof(*a->entries));
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, a->entries,
		    a->max * sizeof(*a->entries));
	uvio_fx_out(&c, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &a->n, sizeof(a->n));
	return uvio_fx_send(dev, p, &c, VERB_OBJECT(QUERY_GID_TABLE), VERB_METHOD(QUERY_GID_TABLE));
}

static const struct uvio_verb_desc gid_table_desc = {
	.verb = UVIO_VERB_QUERY_GID_TABLE, .name = VERB_NAME(QUERY_GID_TABLE),
			.on_ioctl = gid_table_ioctl, .fallback = true, };

UVIO_API int uvio_query_gid_table(struct uvio_device *dev, struct uvio_gid_entry *entries,
				  size_t max, enum uvio_path *path)
{
	struct gid_args a = { .entries = entries, .max = max };
	int ret;

	/* The array travels as one attribute: its length is 16 bits. */
	if (!entries || !max || max > UINT16_MAX / sizeof(*entries))
		return uvio_verb_end(dev, VERB_NAME(QUERY_GID_TABLE), UVIO_PATH_AUTO,
				     !entries || !max ? -EINVAL : -E2BIG, path);
	ret = uvio_run_verb_desc(dev, &gid_table_desc, &a, path);
	if (ret == UVIO_VERB_NO_PATH) {
		size_t n;

		ret = uvio_verb_end(dev, VERB_NAME(QUERY_GID_TABLE), UVIO_PATH_SYSFS,
				    gid_sysfs_table(dev, entries, max, &n), path);
		return ret ? ret : (int)n;
	}
	if (ret)
		return ret;
	/* A count beyond the array would be a kernel bug; never trust it. */
	return a.n > max ? -EOVERFLOW : (int)a.n;
}

struct handles_args {
	uint16_t object_id;
	uint32_t *handles;
	size_t max;
	uint32_t total;
};

static int info_handles_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct handles_args *a = args;
	struct uvio_fx_cmd c;

	/* The caller's list: uvio_info_handles() bounded it to 16 bits. */
	c.n = 0;
	uvio_fx_u64(&c, UVERBS_ATTR_INFO_OBJECT_ID, a->object_id);
	uvio_fx_out(&c, UVERBS_ATTR_INFO_TOTAL_HANDLES, &a->total, sizeof(a->total));
	uvio_fx_out(&c, UVERBS_ATTR_INFO_HANDLES_LIST, a->handles, a->max * sizeof(uint32_t));
	return uvio_fx_send(dev, p, &c, VERB_OBJECT(INFO_HANDLES), VERB_METHOD(INFO_HANDLES));
}

UVIO_API int uvio_info_handles(struct uvio_device *dev, uint16_t object_id,
			       uint32_t *handles, size_t max, enum uvio_path *path)
{
	struct handles_args a = { .object_id = object_id, .handles = handles, .max = max };
	int ret;

	/* The kernel wants room for at least one handle. */
	if (!handles || !max || max > UINT16_MAX / sizeof(uint32_t))
		return uvio_verb_end(dev, VERB_NAME(INFO_HANDLES), UVIO_PATH_AUTO,
				     !handles || !max ? -EINVAL : -E2BIG, path);
	ret = uvio_run_verb(dev, INFO_HANDLES, info_handles_ioctl, NULL, &a, path);
	return ret ? ret : a.total > max ? -EOVERFLOW : (int)a.total;
}
