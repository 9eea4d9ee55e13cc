/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* v4l2_set_control / v4l2_get_control: values scaled to 0..65535. */
#include <errno.h>
#include <string.h>

#include "libv4lconvert/private_api.h"
#include "priv.h"

static int query(int fd, struct v4l2_queryctrl *q, int cid)
{
	memset(q, 0, sizeof(*q));
	q->id = (uint32_t)cid;
	return v4l2_ioctl(fd, VIDIOC_QUERYCTRL, q);
}

LIBV4L_PUBLIC int v4l2_set_control(int fd, int cid, int value)
{
	struct v4l2_queryctrl q;
	struct v4l2_control c = { .id = (uint32_t)cid };
	int64_t range;

	if (query(fd, &q, cid) < 0)
		return errno == EINVAL ? 0 : -1; /* no such control */
	if (q.flags & (V4L2_CTRL_FLAG_DISABLED | V4L2_CTRL_FLAG_GRABBED))
		return 0;
	if (value < 0)
		value = 0;
	if (value > 65535)
		value = 65535;
	if (q.type == V4L2_CTRL_TYPE_BOOLEAN) {
		c.value = value != 0;
	} else {
		range = (int64_t)q.maximum - q.minimum;
		c.value =
			(int32_t)(q.minimum + (range * value + 32767) / 65535);
		if (q.step > 1) {
			int64_t k =
				((int64_t)c.value - q.minimum + q.step / 2) /
				q.step;
			int64_t v = q.minimum + k * q.step;

			c.value = (int32_t)(v > q.maximum ? v - q.step : v);
		}
	}
	return v4l2_ioctl(fd, VIDIOC_S_CTRL, &c);
}

LIBV4L_PUBLIC int v4l2_get_control(int fd, int cid)
{
	struct v4l2_queryctrl q;
	struct v4l2_control c = { .id = (uint32_t)cid };
	int64_t range;

	if (query(fd, &q, cid) < 0)
		return -1;
	if (q.flags & V4L2_CTRL_FLAG_DISABLED)
		return 0;
	if (v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) < 0)
		return -1;
	range = (int64_t)q.maximum - q.minimum;
	if (range <= 0)
		return 0;
	return (int)((((int64_t)c.value - q.minimum) * 65535 + range / 2) /
		     range);
}

/*
 * VIDIOC_QUERY_EXT_CTRL and VIDIOC_QUERYMENU with the emulated controls
 * merged in (the original passes them to the driver, which does not know
 * them). libv4lconvert answers about its emulated controls alone through
 * a private entry point (libv4lconvert/private_api.h).
 */
static int fake_query(struct lv2_dev *dev, uint32_t id,
		      struct v4l2_queryctrl *q)
{
	memset(q, 0, sizeof(*q));
	q->id = id;
	return v4lc_query_emulated_ctrl(dev->conv, q);
}

static void to_ext(const struct v4l2_queryctrl *q,
		   struct v4l2_query_ext_ctrl *e)
{
	memset(e, 0, sizeof(*e));
	e->id = q->id;
	e->type = q->type;
	memcpy(e->name, q->name, sizeof(q->name));
	e->minimum = q->minimum;
	e->maximum = q->maximum;
	e->step = (uint64_t)q->step;
	e->default_value = q->default_value;
	e->flags = q->flags;
	e->elem_size = sizeof(int32_t);
	e->elems = 1;
}

int lv2_query_ext_ctrl(struct lv2_dev *dev, struct v4l2_query_ext_ctrl *q)
{
	const uint32_t next =
		V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
	uint32_t flags = q->id & next, base = q->id & ~next;
	struct v4l2_query_ext_ctrl hw;
	struct v4l2_queryctrl f, s;
	int have_fake, ret, err;

	if (!flags) {
		if (!fake_query(dev, base, &f)) {
			to_ext(&f, q);
			return 0;
		}
		return lv2_dev_ioctl(dev, VIDIOC_QUERY_EXT_CTRL, q);
	}
	/* emulated controls are plain ones: not listed for compound only */
	have_fake = (flags & V4L2_CTRL_FLAG_NEXT_CTRL) &&
		    !fake_query(dev, base | V4L2_CTRL_FLAG_NEXT_CTRL, &f);
	hw = *q;
	ret = lv2_dev_ioctl(dev, VIDIOC_QUERY_EXT_CTRL, &hw);
	/* a driver control shadowed by an emulated one is skipped past */
	while (ret == 0 && !fake_query(dev, hw.id, &s)) {
		uint32_t skip = hw.id;

		memset(&hw, 0, sizeof(hw));
		hw.id = skip | flags;
		ret = lv2_dev_ioctl(dev, VIDIOC_QUERY_EXT_CTRL, &hw);
	}
	err = errno;
	if (have_fake && (ret != 0 || f.id < hw.id)) {
		to_ext(&f, q);
		return 0;
	}
	if (ret == 0)
		*q = hw;
	errno = err;
	return ret;
}

int lv2_querymenu(struct lv2_dev *dev, struct v4l2_querymenu *m)
{
	struct v4l2_queryctrl f;

	if (!fake_query(dev, m->id, &f)) {
		errno = EINVAL; /* no emulated control is a menu */
		return -1;
	}
	return lv2_dev_ioctl(dev, VIDIOC_QUERYMENU, m);
}
