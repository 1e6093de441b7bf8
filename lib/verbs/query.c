// SPDX-License-Identifier: MIT
/* QUERY_DEVICE (a write() command), QUERY_PORT (both), and the completion
 * channel (a write() command). */
#include <rdma/ib_user_ioctl_verbs.h>
#include "verb.h"

static int query_device_write(struct uvio_device *dev, enum uvio_path p, void *resp)
{
	struct ib_uverbs_query_device c = { 0 };

	return uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_QUERY_DEVICE, &c, sizeof(c), resp,
			       sizeof(struct ib_uverbs_query_device_resp), NULL);
}

UVIO_API int uvio_query_device(struct uvio_device *dev,
			       struct ib_uverbs_query_device_resp *resp,
			       enum uvio_path *path)
{
	if (!resp)
		return uvio_verb_end(dev, "DEVICE.QUERY", UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_verb(dev, UVIO_VERB_QUERY_DEVICE, "DEVICE.QUERY", NULL,
			     query_device_write, resp, path);
}

struct port_args {
	uint8_t port;
	struct ib_uverbs_query_port_resp *resp;
};

static int query_port_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct port_args *a = args;
	struct ib_uverbs_query_port_resp_ex ex;
	int ret;

	UVIO_DEV_CMD(dev, cmd, 2, p, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
	/* A "const" attribute: the kernel takes it as a u64 whatever its type. */
	uvio_put_u64(&cmd, UVERBS_ATTR_QUERY_PORT_PORT_NUM, a->port);
	uvio_put_ptr_out(&cmd, UVERBS_ATTR_QUERY_PORT_RESP, &ex, sizeof(ex));
	ret = uvio_dev_exec(dev, &cmd);
	if (!ret)
		*a->resp = ex.legacy_resp;
	return ret;
}

static int query_port_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct port_args *a = args;
	struct ib_uverbs_query_port c = { .port_num = a->port };

	return uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_QUERY_PORT, &c, sizeof(c), a->resp,
			       sizeof(*a->resp), NULL);
}

UVIO_API int uvio_query_port(struct uvio_device *dev, uint8_t port,
			     struct ib_uverbs_query_port_resp *resp,
			     enum uvio_path *path)
{
	struct port_args a = { .port = port, .resp = resp };

	if (!resp)
		return uvio_verb_end(dev, "DEVICE.QUERY_PORT", UVIO_PATH_AUTO, -EINVAL, path);
	return uvio_run_verb(dev, UVIO_VERB_QUERY_PORT, "DEVICE.QUERY_PORT", query_port_ioctl,
			     query_port_write, &a, path);
}

static int comp_channel_write(struct uvio_device *dev, enum uvio_path p, void *ch)
{
	struct ib_uverbs_create_comp_channel c = { 0 };
	struct ib_uverbs_create_comp_channel_resp r;
	int ret = uvio_legacy_cmd(dev, p, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, &c, sizeof(c),
				  &r, sizeof(r), NULL);

	if (!ret)
		((struct uvio_comp_channel *)ch)->fd = (int)r.fd;
	return ret;
}

UVIO_API int uvio_create_comp_channel(struct uvio_device *dev,
				      struct uvio_comp_channel *channel,
				      enum uvio_path *path)
{
	if (!channel)
		return uvio_verb_end(dev, "COMP_CHANNEL.CREATE", UVIO_PATH_AUTO, -EINVAL, path);
	channel->fd = -1;
	return uvio_run_verb(dev, UVIO_VERB_CREATE_COMP_CHANNEL, "COMP_CHANNEL.CREATE", NULL,
			     comp_channel_write, channel, path);
}
