// SPDX-License-Identifier: MIT
/*
 * Flow steering rules: created by the extended command EX_CMD_CREATE_FLOW
 * only, destroyed by FLOW/DESTROY or EX_CMD_DESTROY_FLOW. ESP flow actions:
 * native FLOW_ACTION methods only.
 */
#include <uvio/flow.h>
#include "obj.h"
#include "destroy.h"

/* struct ib_uverbs_create_flow: comp_mask and qp_handle, then the rule
 * (struct ib_uverbs_flow_attr and its specs) as the caller gave it. */
struct flow_head {
	uint32_t comp_mask;
	uint32_t qp_handle;
};
_Static_assert(offsetof(struct ib_uverbs_create_flow, flow_attr) == sizeof(struct flow_head) &&
	       offsetof(struct ib_uverbs_create_flow, qp_handle) ==
		       offsetof(struct flow_head, qp_handle),
	       "the rule follows comp_mask and qp_handle");

struct create_args {
	struct flow_head head;
	const struct ib_uverbs_flow_attr *flow;
	size_t len;
	struct drv_bufs b;
	uint32_t *handle;
};

static int create_flow_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	struct ib_uverbs_create_flow_resp r;
	/* The head, then the rule, after the headers' room. */
	uint64_t buf[(UVIO_WRITE_ROOM + sizeof(a->head) + UVIO_MAX_FLOW_ATTR + 7) / 8];
	uint8_t *core = (uint8_t *)buf + UVIO_WRITE_ROOM;
	/* The kernel reads whole 8-byte words: the padding goes as zero. */
	size_t len = (sizeof(a->head) + a->len + 7) & ~(size_t)7;
	int ret;

	memcpy(core, &a->head, sizeof(a->head));
	memcpy(core + sizeof(a->head), a->flow, a->len);
	memset(core + sizeof(a->head) + a->len, 0, len - sizeof(a->head) - a->len);
	ret = uvio_write_run(dev, p, VERB_WRITE(CREATE_FLOW), buf, len, &r, sizeof(r), &a->b);

	if (!ret)
		*a->handle = r.flow_handle;
	return ret;
}

UVIO_API int uvio_create_flow(struct uvio_device *dev, uint32_t qp_handle,
			      const struct ib_uverbs_flow_attr *flow, size_t len,
			      const struct uvio_drv *drv, uint32_t *flow_handle,
			      enum uvio_path *path)
{
	struct create_args a = { .handle = flow_handle };
	int ret = 0;

	if (!flow || !flow_handle || len < sizeof(*flow) || flow->size != len)
		ret = -EINVAL;
	else if (len > UVIO_MAX_FLOW_ATTR)
		ret = -E2BIG;
	if (!ret)
		ret = drv_prepare(dev, VERB_NAME(CREATE_FLOW), drv, &a.b);
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_FLOW), UVIO_PATH_AUTO, ret, path);
	a.head.qp_handle = qp_handle;
	a.flow = flow;
	a.len = len;
	return uvio_run_verb(dev, CREATE_FLOW, NULL, create_flow_write, &a, path);
}

UVIO_API int uvio_destroy_flow(struct uvio_device *dev, uint32_t flow_handle,
			       enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_FLOW, flow_handle, NULL, path);
}

struct esp_args {
	struct uvio_flow_action_esp_attr in;
	struct drv_bufs b;
	uint32_t handle;		/* modify: the action; create: the new one */
};

/* The ESP attributes that create and modify share. */
static void put_esp(struct uvio_cmd *cmd, const struct uvio_flow_action_esp_attr *in)
{
	if (in->esp)
		fput_in(cmd, UVERBS_ATTR_FLOW_ACTION_ESP_ATTRS, in->esp, sizeof(*in->esp));
	if (in->esn)
		fput_u32(cmd, UVERBS_ATTR_FLOW_ACTION_ESP_ESN, *in->esn);
	if (in->keymat)
		uvio_put_enum(cmd, UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT,
			      IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM, in->keymat,
			      sizeof(*in->keymat));
	if (in->replay)
		uvio_put_enum(cmd, UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY,
			      IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP, in->replay,
			      sizeof(*in->replay));
	else if (in->replay_none)
		uvio_put_enum(cmd, UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY,
			      IB_UVERBS_FLOW_ACTION_ESP_REPLAY_NONE, NULL, 0);
	if (in->encap)
		fput_in(cmd, UVERBS_ATTR_FLOW_ACTION_ESP_ENCAP, in->encap,
				sizeof(*in->encap));
}

static int create_esp_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct esp_args *a = args;
	struct ib_uverbs_attr *handle;

	UVIO_VERB_CMD(dev, cmd, 8, p, CREATE_FLOW_ACTION_ESP);
	handle = fput_idr_new(&cmd, UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE);
	put_esp(&cmd, &a->in);
	return obj_exec_new(dev, &cmd, &a->b, handle, &a->handle);
}

static int modify_esp_ioctl(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct esp_args *a = args;

	UVIO_VERB_CMD(dev, cmd, 8, p, MODIFY_FLOW_ACTION_ESP);
	/* An existing object the method writes: an IDR attribute. */
	fput_idr(&cmd, UVERBS_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE, a->handle);
	put_esp(&cmd, &a->in);
	uvio_put_drv(&cmd, &a->b);
	return uvio_dev_exec(dev, &cmd);
}

static int esp_begin(struct uvio_device *dev, const char *verb, struct esp_args *a,
		     const struct uvio_flow_action_esp_attr *attr, const struct uvio_drv *drv)
{
	int ret = obj_in(&a->in, sizeof(a->in), attr,
			 uvio_offsetofend(struct uvio_flow_action_esp_attr, esn));

	if (!ret)
		ret = drv_prepare(dev, verb, drv, &a->b);
	obj_drv_no_default(&a->b);
	return ret;
}

UVIO_API int uvio_create_flow_action_esp(struct uvio_device *dev,
					 const struct uvio_flow_action_esp_attr *attr,
					 const struct uvio_drv *drv, uint32_t *handle,
					 enum uvio_path *path)
{
	struct esp_args a = { 0 };
	int ret = handle ? esp_begin(dev, VERB_NAME(CREATE_FLOW_ACTION_ESP), &a, attr,
				     drv) : -EINVAL;

	/* The kernel requires both; say so before sending. */
	if (!ret && (!a.in.esp || !a.in.keymat))
		ret = -EINVAL;
	if (!ret)
		ret = uvio_run_verb(dev, CREATE_FLOW_ACTION_ESP, create_esp_ioctl, NULL, &a, path);
	else
		ret = uvio_verb_end(dev, VERB_NAME(CREATE_FLOW_ACTION_ESP), UVIO_PATH_AUTO, ret,
				    path);
	if (!ret)
		*handle = a.handle;
	return ret;
}

UVIO_API int uvio_modify_flow_action_esp(struct uvio_device *dev, uint32_t handle,
					 const struct uvio_flow_action_esp_attr *attr,
					 const struct uvio_drv *drv, enum uvio_path *path)
{
	struct esp_args a = { .handle = handle };
	int ret = esp_begin(dev, VERB_NAME(MODIFY_FLOW_ACTION_ESP), &a, attr, drv);

	if (ret)
		return uvio_verb_end(dev, VERB_NAME(MODIFY_FLOW_ACTION_ESP), UVIO_PATH_AUTO, ret,
				     path);
	return uvio_run_verb(dev, MODIFY_FLOW_ACTION_ESP, modify_esp_ioctl, NULL, &a, path);
}

UVIO_API int uvio_destroy_flow_action(struct uvio_device *dev, uint32_t handle,
				      enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_FLOW_ACTION, handle, NULL, path);
}

