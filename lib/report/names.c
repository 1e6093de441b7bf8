// SPDX-License-Identifier: MIT
/*
 * Names of the uverbs objects, methods, attributes and write() commands, for
 * the decoder, the probes and error messages: lookups in the ABI tables of
 * lib/abi/.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

#include <uvio/decode.h>
#include <uvio/diag.h>
#include "abi/abi.h"
#include "report/names.h"
#include "report/report.h"
#include "opts.h"

/* Here, with the other names, rather than with path choice: the tracer and
 * the error texts name paths without depending on the path layer. */
UVIO_API const char *uvio_path_name(enum uvio_path path)
{
	switch (path) {
	case UVIO_PATH_AUTO: return "auto";
	case UVIO_PATH_IOCTL: return "ioctl";
	case UVIO_PATH_IOCTL_2017: return "ioctl-2017";
	case UVIO_PATH_WRITE: return "write";
	case UVIO_PATH_INVOKE_WRITE: return "invoke-write";
	case UVIO_PATH_SYSFS: return "sysfs";
	}
	return "?";
}

UVIO_API const char *uvio_object_name(uint16_t object_id)
{
	const struct abi_object *o = abi_object(object_id);

	return o ? abi_str(o->name) : NULL;
}

UVIO_API const char *uvio_method_name(uint16_t object_id, uint16_t method_id)
{
	const struct abi_method *m = abi_method(object_id, method_id);

	return m ? abi_str(m->name) : NULL;
}

UVIO_API const char *uvio_attr_name(uint16_t object_id, uint16_t method_id,
				    uint16_t attr_id)
{
	const struct abi_attr *a = abi_attr(object_id, method_id, attr_id);

	return a ? abi_str(a->name) : NULL;
}

int uvio_abi_attr_kind(const struct abi_attr *a)
{
	if (!a)
		return 0;
	switch (a->type) {
	case AT_PTR_IN:
	case AT_CONST_IN:
	case AT_FLAGS_IN:
		return UVIO_KIND_PTR_IN;
	case AT_PTR_OUT:
		return UVIO_KIND_PTR_OUT;
	case AT_IDR:
		return ABI_ACCESS_OF(a->flags) == AC_NEW ? UVIO_KIND_IDR_NEW : UVIO_KIND_IDR;
	case AT_FD:
		return ABI_ACCESS_OF(a->flags) == AC_NEW ? UVIO_KIND_FD_NEW : UVIO_KIND_FD;
	case AT_RAW_FD:
		return UVIO_KIND_FD;
	case AT_ENUM_IN:
		return UVIO_KIND_ENUM_IN;
	case AT_IDRS:
		return UVIO_KIND_IDRS;
	}
	return 0;
}

int uvio_attr_known_kind(uint16_t object_id, uint16_t method_id, uint16_t attr_id)
{
	return uvio_abi_attr_kind(abi_attr(object_id, method_id, attr_id));
}

UVIO_API const char *uvio_kind_name(enum uvio_attr_kind kind)
{
	switch (kind) {
	case UVIO_KIND_PTR_IN: return "ptr-in";
	case UVIO_KIND_PTR_OUT: return "ptr-out";
	case UVIO_KIND_IDR: return "idr";
	case UVIO_KIND_IDR_NEW: return "idr-new";
	case UVIO_KIND_FD: return "fd";
	case UVIO_KIND_FD_NEW: return "fd-new";
	case UVIO_KIND_ENUM_IN: return "enum-in";
	case UVIO_KIND_IDRS: return "idrs";
	}
	return NULL;
}

UVIO_API int uvio_known_method(unsigned int index, uint16_t *object_id, uint16_t *method_id)
{
	for (unsigned int i = 0; i < abi_num_objects(); i++) {
		const struct abi_object *o = abi_object_at(i);

		if (index < o->nmethods) {
			*object_id = o->id;
			*method_id = o->methods[index].id;
			return 0;
		}
		index -= o->nmethods;
	}
	return -ENOENT;
}

UVIO_API int uvio_known_attr(uint16_t object_id, uint16_t method_id, unsigned int index,
			     uint16_t *attr_id)
{
	const struct abi_method *m = abi_method(object_id, method_id);

	if (!m || index >= m->nattrs)
		return -ENOENT;
	*attr_id = m->attrs[index].id;
	return 0;
}

UVIO_API const char *uvio_write_cmd_name(uint32_t command)
{
	const struct abi_write *w = abi_write(command, NULL);

	return w ? abi_str(w->name) : NULL;
}

UVIO_API const char *uvio_driver_object_name(uint32_t driver_id, uint16_t object_id)
{
	const struct abi_object *o = abi_object_drv(abi_driver(driver_id), object_id);

	return o ? abi_str(o->name) : NULL;
}

UVIO_API const char *uvio_driver_method_name(uint32_t driver_id, uint16_t object_id,
					     uint16_t method_id)
{
	const struct abi_method *m = abi_method_drv(abi_driver(driver_id), object_id, method_id);

	return m ? abi_str(m->name) : NULL;
}

/* A lookup that found nothing, or had nowhere to write: said. (The
 * iterators' -ENOENT past the last index ends a list and is not.) */
static __attribute__((noinline, cold)) int no_desc(const char *fn, int err, uint32_t driver_id,
						   uint16_t object_id, uint16_t method_id,
						   uint16_t attr_id)
{
	if (err != -ENOENT)
		return uvio_fail(LOG_DEBUG, err, "%s: %s: argument desc: NULL, or its sz less than "
				 "a size_t", fn, uvio_errno_name(err));
	return uvio_fail(LOG_DEBUG, err, "%s: ENOENT: the table has no attribute 0x%04x of "
			 "object 0x%04x method 0x%04x%s", fn, attr_id, object_id, method_id,
			 driver_id == UINT32_MAX ? "" : " in this driver's namespace");
}

static int describe(const struct abi_attr *a, uint16_t attr_id, struct uvio_attr_desc *desc)
{
	static const char *const access[] = { "read", "write", "new", "destroy" };
	bool obj;
	int ret = uvio_out_check(desc);

	if (ret)
		return ret;
	if (!a)
		return -ENOENT;
	obj = a->type == AT_IDR || a->type == AT_FD || a->type == AT_IDRS;
	UVIO_OUT_SET(desc, name, abi_str(a->name));
	UVIO_OUT_SET(desc, kind, (enum uvio_attr_kind)uvio_abi_attr_kind(a));
	UVIO_OUT_SET(desc, flags, (a->flags & ABI_MANDATORY ? UVIO_ATTR_MANDATORY : 0) |
		     (a->flags & ABI_ALLOC_COPY ? UVIO_ATTR_COPY_ALL : 0) |
		     (a->flags & ABI_ZERO_TAIL ? UVIO_ATTR_ZERO_TAIL : 0) |
		     (attr_id & UVERBS_ID_NS_MASK ? UVIO_ATTR_DRIVER : 0));
	UVIO_OUT_SET(desc, min_len, a->min_len);
	UVIO_OUT_SET(desc, max_len, a->max_len);
	UVIO_OUT_SET(desc, object_id, obj ? a->obj : UINT16_MAX);
	UVIO_OUT_SET(desc, access, obj ? access[ABI_ACCESS_OF(a->flags)] : NULL);
	UVIO_OUT_SET(desc, type, abi_str(abi_vtype(a->vtype)->name));
	return 0;
}

UVIO_API int uvio_describe_attr(uint16_t object_id, uint16_t method_id, uint16_t attr_id,
				struct uvio_attr_desc *desc)
{
	int ret = describe(abi_attr(object_id, method_id, attr_id), attr_id, desc);

	return __builtin_expect(ret, 0) ? no_desc("uvio_describe_attr", ret, UINT32_MAX, object_id,
						  method_id, attr_id) : 0;
}

UVIO_API int uvio_driver_describe_attr(uint32_t driver_id, uint16_t object_id,
				       uint16_t method_id, uint16_t attr_id,
				       struct uvio_attr_desc *desc)
{
	int ret = describe(abi_attr_drv(abi_driver(driver_id), object_id, method_id, attr_id),
			   attr_id, desc);

	return __builtin_expect(ret, 0) ? no_desc("uvio_driver_describe_attr", ret, driver_id,
						  object_id, method_id, attr_id) : 0;
}

UVIO_API int uvio_known_write_cmd(unsigned int index, uint32_t *command)
{
	for (unsigned int i = 0; i < abi_num_objects(); i++) {
		const struct abi_object *o = abi_object_at(i);

		if (index < o->nwrites) {
			const struct abi_write *w = &o->writes[index];

			*command = w->cmd | (w->flags & ABI_W_EX ? IB_USER_VERBS_CMD_FLAG_EXTENDED : 0);
			return 0;
		}
		index -= o->nwrites;
	}
	return -ENOENT;
}

UVIO_API int uvio_describe_write_cmd(uint32_t command, struct uvio_write_desc *desc)
{
	const struct abi_object *o = NULL;
	const struct abi_write *w;
	int ret = uvio_out_check(desc);

	if (ret)
		return uvio_fail(LOG_DEBUG, ret, "uvio_describe_write_cmd: EINVAL: argument desc: "
				 "NULL, or its sz less than a size_t");
	w = abi_write(command, &o);
	if (!w)
		return uvio_fail(LOG_DEBUG, -ENOENT, "uvio_describe_write_cmd: ENOENT: the table "
				 "has no write() command %u (0x%x)", command, command);
	UVIO_OUT_SET(desc, name, abi_str(w->name));
	UVIO_OUT_SET(desc, object_id, o->id);
	UVIO_OUT_SET(desc, flags, (w->flags & ABI_W_EX ? UVIO_WRITE_EXTENDED : 0) |
		     (w->flags & ABI_W_UDATA ? UVIO_WRITE_DRIVER_DATA : 0) |
		     (w->flags & ABI_W_RESP ? UVIO_WRITE_RESPONSE : 0) |
		     (w->flags & ABI_W_NONE ? UVIO_WRITE_UNHANDLED : 0));
	UVIO_OUT_SET(desc, request, w->req != VT_NONE ? abi_str(abi_vtype(w->req)->name) : NULL);
	UVIO_OUT_SET(desc, response, w->resp != VT_NONE ? abi_str(abi_vtype(w->resp)->name) : NULL);
	UVIO_OUT_SET(desc, request_len, w->req != VT_NONE ? abi_vtype(w->req)->size : 0);
	UVIO_OUT_SET(desc, response_len, w->resp != VT_NONE ? abi_vtype(w->resp)->size : 0);
	return 0;
}
