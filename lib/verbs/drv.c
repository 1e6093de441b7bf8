// SPDX-License-Identifier: MIT
/* Driver data of a verb: checked, given response space, joined and copied
 * back. */
#include <stdio.h>
#include <uvio/cmd.h>
#include <uvio/diag.h>
#include "verb.h"

_Static_assert(sizeof(struct uvio_drv) == uvio_offsetofend(struct uvio_drv, attrs),
	       "struct uvio_drv has no bytes past its last field");

int drv_prepare_given(struct uvio_device *dev, const char *verb, const struct uvio_drv *drv,
		      struct drv_bufs *b)
{
	int ret;
	uint16_t i;

	if (__builtin_expect(drv->sz == sizeof(*drv), 1)) {
		/* This library's own struct: every field there, none past it. */
		b->in = drv->in;
		b->in_len = drv->in_len;
		b->out = drv->out;
		b->out_len = drv->out_len;
		b->attrs = drv->attrs;
	} else {
		ret = uvio_opts_check(drv, uvio_offsetofend(struct uvio_drv, attrs), 0);
		if (ret) {
			uvio_log(LOG_ERR, "%s: %s: struct uvio_drv: %s", dev->name, verb,
				 ret == -E2BIG ? "fields unknown to this library are set" : "bad sz");
			return ret;
		}
		b->in = UVIO_OPT(drv, in);
		b->in_len = UVIO_OPT(drv, in_len);
		b->out = UVIO_OPT(drv, out);
		b->out_len = UVIO_OPT(drv, out_len);
		b->attrs = UVIO_OPT(drv, attrs);
	}
	if (b->in_len > UVIO_MAX_DRV_DATA || b->out_len > UVIO_MAX_DRV_DATA) {
		uvio_log(LOG_ERR, "%s: %s: driver data over %u bytes", dev->name, verb,
			 UVIO_MAX_DRV_DATA);
		return -E2BIG;
	}
	if ((!b->in && b->in_len) || (!b->out && b->out_len))
		return -EFAULT;
	if (b->attrs) {
		if (b->attrs->error)
			return b->attrs->error;
		if (b->attrs->num_attrs > UVIO_MAX_DRV_ATTRS) {
			uvio_log(LOG_ERR, "%s: %s: over %u driver attributes", dev->name, verb,
				 UVIO_MAX_DRV_ATTRS);
			return -E2BIG;
		}
		for (i = 0; i < b->attrs->num_attrs; i++) {
			uint16_t id = b->attrs->attrs[i].attr_id;

			/* Core ids would collide with the verb's own;
			 * UHW_IN/UHW_OUT are what in/out are for. */
			if (!(id & UVIO_DRIVER_NS) ||
			    id == UVERBS_ATTR_UHW_IN || id == UVERBS_ATTR_UHW_OUT) {
				uvio_log(LOG_ERR, "%s: %s: attribute 0x%04x is not a driver attribute",
					 dev->name, verb, id);
				return -EINVAL;
			}
		}
	}
	if (!b->out) {
		b->out = uvio_drv_sink;
		b->out_len = sizeof(uvio_drv_sink);
	}
	return 0;
}

void uvio_put_drv(struct uvio_cmd *cmd, const struct drv_bufs *b)
{
	uint16_t i;

	if (b->in_len)
		uvio_put_uhw_in(cmd, b->in, b->in_len);
	if (b->out_len)
		uvio_put_uhw_out(cmd, b->out, b->out_len);
	if (!b->attrs)
		return;
	for (i = 0; i < b->attrs->num_attrs; i++) {
		const struct ib_uverbs_attr *src = &b->attrs->attrs[i];
		struct ib_uverbs_attr *a = uvio__cmd_slot(cmd, src->attr_id,
							 (enum uvio_attr_kind)b->attrs->kind[i]);

		if (a != &cmd->scratch)
			*a = *src;
	}
}

void uvio_drv_copy_back(const struct uvio_cmd *cmd, const struct drv_bufs *b)
{
	struct uvio_cmd *own = b->attrs;
	uint16_t i, j;

	if (!own || cmd->error || cmd->num_attrs < own->num_attrs)
		return;
	/* The joined records are the last ones, in the caller's order. */
	j = (uint16_t)(cmd->num_attrs - own->num_attrs);
	for (i = 0; i < own->num_attrs; i++, j++) {
		own->attrs[i].flags = cmd->attrs[j].flags;
		own->attrs[i].data = cmd->attrs[j].data;
	}
	own->state = cmd->state;
	own->result = cmd->result;
}

int drv_prepare_hw_slow(struct uvio_device *dev, const char *verb, struct hw_call *c,
			union hw_params *p, struct drv_bufs *b)
{
	c->name = verb;
	c->ops = uvio_hw_ops(dev->driver_id);
	if (!c->ops)
		return 0;
	b->attrs = NULL;
	/* The half's state comes with a context the library made; a handle
	 * adopted from another library has none. */
	if (c->verb != HW_CONTEXT && !uvio_hw_state(dev))
		return uvio_hw_refuse(c, -EOPNOTSUPP,
				      "this handle has no context the library made (an adopted fd, "
				      "or no GET_CONTEXT yet); pass struct uvio_drv with the "
				      "driver's request");
	return uvio_hw_prepare(dev, c, p, b);
}

void drv_finish_hw_slow(struct uvio_device *dev, const struct uvio_drv *drv, struct hw_call *c,
			int ret, uint32_t handle)
{
	const char *name, *header;
	char was[384];

	if (c->ops) {
		uvio_hw_finish(dev, c, ret, handle);
		return;
	}
	if (drv || !(ret == -EINVAL || ret == -EFAULT || ret == -EOPNOTSUPP))
		return;
	name = uvio_hw_unbuilt_driver(dev->driver_id, &header);
	if (!name)
		return;
	/* The kernel's refusal, with what it most likely lacked. */
	snprintf(was, sizeof(was), "%s", uvio_last_error());
	uvio_set_last_error("%s (the %s driver takes its own request in the driver data, "
			    "struct uvio_drv, as %s lays out; this library does not build it "
			    "for %s)",
			    was, name, header, name);
	uvio_log(LOG_ERR, "%s", uvio_last_error());
}

int drv_refused(struct uvio_device *dev, const char *verb, const struct hw_call *c, int ret,
		enum uvio_path *path)
{
	if (!c->why || !c->ops)
		return uvio_verb_end(dev, verb, UVIO_PATH_AUTO, ret, path);
	if (path)
		*path = UVIO_PATH_AUTO;
	uvio_set_last_error("%s: %s: %s: %s: %s", dev->name, verb, c->ops->driver,
			    uvio_errno_name(ret), c->why);
	uvio_log(LOG_ERR, "%s", uvio_last_error());
	return ret;
}
