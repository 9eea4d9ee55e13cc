/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's controls (see vcam.h): brightness and focus, and
 * with the simulated lens its private in-focus control (lens.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vcam/priv.h"

struct ctrl_desc {
	uint32_t id;
	const char *name;
	int min, max, def;
};

static const struct ctrl_desc ctrls[] = {
	{ V4L2_CID_BRIGHTNESS, "Brightness", 0, 255, 128 },
	{ V4L2_CID_FOCUS_ABSOLUTE, "Focus, Absolute", 0, 1023, 512 },
};
#define NCTRLS ((int)(sizeof(ctrls) / sizeof(ctrls[0])))

static int *ctrl_value(struct vcam *c, uint32_t id)
{
	if (id == V4L2_CID_BRIGHTNESS)
		return &c->brightness;
	if (id == V4L2_CID_FOCUS_ABSOLUTE)
		return &c->focus;
	return NULL;
}

static const struct ctrl_desc *find_ctrl(uint32_t id)
{
	const struct ctrl_desc *d = NULL;

	if (id & V4L2_CTRL_FLAG_NEXT_CTRL) {
		uint32_t after = id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
					V4L2_CTRL_FLAG_NEXT_COMPOUND);

		/* ctrls[] is sorted by id. */
		for (int i = 0; i < NCTRLS && !d; i++)
			if (ctrls[i].id > after)
				d = &ctrls[i];
	} else {
		for (int i = 0; i < NCTRLS && !d; i++)
			if (ctrls[i].id == id)
				d = &ctrls[i];
	}
	return d;
}

static int clamp_ctrl(const struct ctrl_desc *d, int v)
{
	return v < d->min ? d->min : v > d->max ? d->max : v;
}

int v4lc_vcam_query_ext_ctrl(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_query_ext_ctrl *q = arg;
	const struct ctrl_desc *d = find_ctrl(q->id);

	(void)c;
	(void)req;
	if (!d)
		return v4lc_vcam_fail(EINVAL);
	memset(q, 0, sizeof(*q));
	q->id = d->id;
	q->type = V4L2_CTRL_TYPE_INTEGER;
	snprintf(q->name, sizeof(q->name), "%s", d->name);
	q->minimum = d->min;
	q->maximum = d->max;
	q->step = 1;
	q->default_value = d->def;
	q->flags = V4L2_CTRL_FLAG_SLIDER;
	q->elem_size = sizeof(int32_t);
	q->elems = 1;
	return 0;
}

/*
 * G/S/TRY_EXT_CTRLS: every id is checked first (an unknown one fails the
 * whole call with error_idx at it, nothing changed); values are clamped.
 */
int v4lc_vcam_ext_ctrls(struct vcam *c, unsigned long request, void *arg)
{
	struct v4l2_ext_controls *e = arg;
	uint32_t which = e->which;

	if (which != V4L2_CTRL_WHICH_CUR_VAL &&
	    which != V4L2_CTRL_WHICH_DEF_VAL && which != V4L2_CTRL_CLASS_USER &&
	    which != V4L2_CTRL_CLASS_CAMERA)
		return v4lc_vcam_fail(EINVAL);
	if (which == V4L2_CTRL_WHICH_DEF_VAL && request != VIDIOC_G_EXT_CTRLS)
		return v4lc_vcam_fail(EINVAL);
	if (e->count && !e->controls)
		return v4lc_vcam_fail(EFAULT);
	for (uint32_t i = 0; i < e->count; i++) {
		uint32_t id = e->controls[i].id;

		if (!find_ctrl(id) || (id & V4L2_CTRL_FLAG_NEXT_CTRL) ||
		    ((which == V4L2_CTRL_CLASS_USER ||
		      which == V4L2_CTRL_CLASS_CAMERA) &&
		     V4L2_CTRL_ID2WHICH(id) != which)) {
			e->error_idx = i;
			return v4lc_vcam_fail(EINVAL);
		}
	}
	for (uint32_t i = 0; i < e->count; i++) {
		struct v4l2_ext_control *x = &e->controls[i];
		const struct ctrl_desc *d = find_ctrl(x->id);

		if (request == VIDIOC_G_EXT_CTRLS) {
			x->value = which == V4L2_CTRL_WHICH_DEF_VAL
					   ? d->def
					   : *ctrl_value(c, x->id);
		} else {
			x->value = clamp_ctrl(d, x->value);
			if (request == VIDIOC_S_EXT_CTRLS)
				*ctrl_value(c, x->id) = x->value;
		}
	}
	e->error_idx = e->count;
	return 0;
}

int v4lc_vcam_queryctrl(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_queryctrl *q = arg;
	const struct ctrl_desc *d = find_ctrl(q->id);

	(void)c;
	(void)req;
	if (!d)
		return v4lc_vcam_fail(EINVAL);
	memset(q, 0, sizeof(*q));
	q->id = d->id;
	q->type = V4L2_CTRL_TYPE_INTEGER;
	snprintf((char *)q->name, sizeof(q->name), "%s", d->name);
	q->minimum = d->min;
	q->maximum = d->max;
	q->step = 1;
	q->default_value = d->def;
	q->flags = V4L2_CTRL_FLAG_SLIDER;
	return 0;
}

int v4lc_vcam_g_ctrl(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_control *ctl = arg;
	int *v = ctrl_value(c, ctl->id);

	(void)req;
	if (c->lens.enabled && ctl->id == V4LC_VCAM_CID_INFOCUS) {
		ctl->value = c->lens.infocus;
		return 0;
	}
	if (!v)
		return v4lc_vcam_fail(EINVAL);
	ctl->value = *v;
	return 0;
}

int v4lc_vcam_s_ctrl(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_control *ctl = arg;
	int *v = ctrl_value(c, ctl->id);

	(void)req;
	if (c->lens.enabled && ctl->id == V4LC_VCAM_CID_INFOCUS) {
		if (ctl->value < 0 || ctl->value > V4LC_VCAM_LENS_MAX)
			return v4lc_vcam_fail(ERANGE);
		c->lens.infocus = ctl->value;
		return 0;
	}
	if (!v)
		return v4lc_vcam_fail(EINVAL);
	/* Integer controls clamp, as the kernel's control core does. */
	ctl->value = clamp_ctrl(find_ctrl(ctl->id), ctl->value);
	*v = ctl->value;
	return 0;
}
