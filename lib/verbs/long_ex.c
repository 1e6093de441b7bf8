// SPDX-License-Identifier: MIT
/*
 * Extended write() commands whose core has a length of its own: the WQ
 * handles of an RWQ indirection table, the specs of a flow rule. The common
 * encoder (lib/legacy.c) takes cores of fixed, small structs; these can be
 * up to UVIO_LONG_EX_CORE bytes. Built on the stack like the others.
 */
#include "obj.h"

static int long_ex_invoke(struct uvio_device *dev, uint32_t command, const void *core,
			  size_t core_len, void *resp, size_t resp_len,
			  const struct drv_bufs *drv)
{
	UVIO_DEV_CMD(dev, cmd, 5, UVIO_PATH_IOCTL, UVERBS_OBJECT_DEVICE,
		     UVERBS_METHOD_INVOKE_WRITE);
	uvio_put_u64(&cmd, UVERBS_ATTR_WRITE_CMD, IB_USER_VERBS_CMD_FLAG_EXTENDED | command);
	uvio_put_ptr_in(&cmd, UVERBS_ATTR_CORE_IN, core, core_len);
	if (resp_len)
		uvio_put_ptr_out(&cmd, UVERBS_ATTR_CORE_OUT, resp, resp_len);
	if (drv && drv->in_len)
		uvio_put_uhw_in(&cmd, drv->in, drv->in_len);
	if (drv && drv->out_len && resp_len)
		uvio_put_uhw_out(&cmd, drv->out, drv->out_len);
	return uvio_dev_exec(dev, &cmd);
}

int obj_long_ex(struct uvio_device *dev, enum uvio_path p, uint32_t command,
		const void *core, size_t core_len, void *resp, size_t resp_len,
		const struct drv_bufs *drv)
{
	uint64_t in[(sizeof(struct ib_uverbs_cmd_hdr) + sizeof(struct ib_uverbs_ex_cmd_hdr) +
		     UVIO_LONG_EX_CORE + UVIO_MAX_DRV_DATA) / 8];
	uint64_t out[(UVIO_LONG_EX_RESP + UVIO_MAX_DRV_DATA) / 8];
	struct ib_uverbs_cmd_hdr *hdr = (struct ib_uverbs_cmd_hdr *)in;
	struct ib_uverbs_ex_cmd_hdr *ex = (struct ib_uverbs_ex_cmd_hdr *)(hdr + 1);
	uint8_t *q = (uint8_t *)(ex + 1);
	size_t in_drv = drv ? (drv->in_len + 7) & ~(size_t)7 : 0;
	size_t out_drv = drv && resp_len ? (drv->out_len + 7) & ~(size_t)7 : 0;
	int ret;

	/* The extended header counts 8-byte words: callers pad the core. */
	if (core_len > UVIO_LONG_EX_CORE || core_len % 8 || resp_len > UVIO_LONG_EX_RESP ||
	    resp_len % 8)
		return -EINVAL;
	if (drv && drv->attrs && drv->attrs->num_attrs)
		return -EOPNOTSUPP;
	if (p == UVIO_PATH_INVOKE_WRITE)
		return long_ex_invoke(dev, command, core, core_len, resp, resp_len, drv);
	hdr->command = IB_USER_VERBS_CMD_FLAG_EXTENDED | command;
	hdr->in_words = (uint16_t)(core_len / 8);
	hdr->out_words = (uint16_t)(resp_len / 8);
	ex->response = resp_len ? (uintptr_t)out : 0;
	ex->provider_in_words = (uint16_t)(in_drv / 8);
	ex->provider_out_words = (uint16_t)(out_drv / 8);
	ex->cmd_hdr_reserved = 0;
	memcpy(q, core, core_len);
	if (in_drv) {
		memcpy(q + core_len, drv->in, drv->in_len);
		memset(q + core_len + drv->in_len, 0, in_drv - drv->in_len);
	}
	if (resp_len)
		memset(out, 0, resp_len + out_drv);
	ret = uvio_dev_write(dev, in, sizeof(*hdr) + sizeof(*ex) + core_len + in_drv);
	if (ret)
		return ret;
	if (resp_len)
		memcpy(resp, out, resp_len);
	if (out_drv)
		memcpy(drv->out, (uint8_t *)out + resp_len, drv->out_len);
	return 0;
}
