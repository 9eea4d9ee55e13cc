/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* v4l2_set_control / v4l2_get_control: values scaled to 0..65535. */
#include <errno.h>
#include <string.h>

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
		return errno == EINVAL ? 0 : -1;	/* no such control */
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
		c.value = (int32_t)(q.minimum + (range * value + 32767) / 65535);
		if (q.step > 1) {
			int64_t k = ((int64_t)c.value - q.minimum +
				     q.step / 2) / q.step;
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
