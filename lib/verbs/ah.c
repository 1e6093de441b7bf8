// SPDX-License-Identifier: MIT
/* AH: created by write() command only, destroyed by both encodings. */
#include <uvio/ah.h>
#include "obj.h"
#include "destroy.h"

/* struct uvio_av -> the kernel's struct ib_uverbs_ah_attr; its reserved
 * bytes stay zero (the command struct starts zeroed). */
static void av_to_ah_attr(struct ib_uverbs_ah_attr *k, const struct uvio_av *av)
{
	memcpy(k->grh.dgid, av->dgid, sizeof(k->grh.dgid));
	k->grh.flow_label = av->flow_label;
	k->grh.sgid_index = av->sgid_index;
	k->grh.hop_limit = av->hop_limit;
	k->grh.traffic_class = av->traffic_class;
	k->dlid = av->dlid;
	k->sl = av->sl;
	k->src_path_bits = av->src_path_bits;
	k->static_rate = av->static_rate;
	k->is_global = av->is_global;
	k->port_num = av->port_num;
}

struct create_args {
	struct drv_bufs b;
	uint32_t *handle;
	UVIO_WRITE_BUF(struct ib_uverbs_create_ah) c;	/* last: it ends in a flexible array */
};

static int create_ah_write(struct uvio_device *dev, enum uvio_path p, void *args)
{
	struct create_args *a = args;
	struct ib_uverbs_create_ah_resp r;
	int ret = uvio_write(dev, p, VERB_WRITE(CREATE_AH), a->c, &r, sizeof(r), &a->b);

	if (!ret)
		*a->handle = r.ah_handle;
	return ret;
}

UVIO_API int uvio_create_ah(struct uvio_device *dev, const struct uvio_ah_attr *attr,
			    const struct uvio_drv *drv, uint32_t *ah_handle,
			    enum uvio_path *path)
{
	struct create_args a = { .handle = ah_handle };
	struct uvio_ah_attr in;
	int ret = obj_in(&in, sizeof(in), attr, uvio_offsetofend(struct uvio_ah_attr, av));

	if (!ret && !ah_handle)
		ret = -EINVAL;
	if (ret)
		return uvio_verb_end(dev, VERB_NAME(CREATE_AH), UVIO_PATH_AUTO, ret, path);
	a.c.core.user_handle = in.user_handle;
	a.c.core.pd_handle = in.pd_handle;
	av_to_ah_attr(&a.c.core.attr, &in.av);
	return uvio_run_hw_verb(dev, CREATE_AH, NULL, create_ah_write, &a, (&(struct hw_run){ drv,
				HW_AH, NULL, &a.b, ah_handle }), path);
}

UVIO_API int uvio_destroy_ah(struct uvio_device *dev, uint32_t ah_handle,
			     enum uvio_path *path)
{
	return uvio_destroy_object(dev, DESTROY_AH, ah_handle, NULL, path);
}

