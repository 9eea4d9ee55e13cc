/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * VIDIOC_ENUM_FRAMEINTERVALS for a size the driver lists but gives no
 * interval for. Most gspca drivers (sq905c, pac207, ... : every chip that
 * has no frame rate table) fail ENUM_FRAMEINTERVALS at index 0 for every
 * size they list. A program that keeps only the sizes with an interval
 * (PipeWire's V4L2 node does) then sees no format at all. For such a size
 * index 0 is answered with one discrete interval: the driver's
 * G_PARM timeperframe when it says one, else LV2_DEFAULT_INTERVAL; index
 * 1 and beyond EINVAL (doc/libv4l2-differences.md).
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

/* 1/30 s: what a USB webcam without a frame rate of its own streams at
 * most, near enough for a program choosing among sizes. */
#define LV2_DEFAULT_INTERVAL_NUM 1
#define LV2_DEFAULT_INTERVAL_DEN 30
/* Beyond this many sizes of one format a list is not looked through. */
#define LV2_MAX_SIZES 256

static int served_ioctl(struct lv2_dev *dev, unsigned long request, void *arg)
{
	if (!dev->conv)
		return lv2_dev_ioctl(dev, request, arg);
	if (request == VIDIOC_ENUM_FRAMESIZES)
		return v4lconvert_enum_framesizes(dev->conv, arg);
	return v4lconvert_enum_frameintervals(dev->conv, arg);
}

static int in_range(uint32_t v, uint32_t min, uint32_t max, uint32_t step)
{
	return v >= min && v <= max && (step <= 1 || (v - min) % step == 0);
}

/* Whether the size of fi is one of its format's sizes, as listed to us. */
static int size_listed(struct lv2_dev *dev, const struct v4l2_frmivalenum *fi)
{
	struct v4l2_frmsizeenum s;

	for (uint32_t i = 0; i < LV2_MAX_SIZES; i++) {
		memset(&s, 0, sizeof(s));
		s.index = i;
		s.pixel_format = fi->pixel_format;
		if (served_ioctl(dev, VIDIOC_ENUM_FRAMESIZES, &s) < 0)
			return 0;
		if (s.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			if (s.discrete.width == fi->width &&
			    s.discrete.height == fi->height)
				return 1;
			continue;
		}
		return in_range(fi->width, s.stepwise.min_width,
				s.stepwise.max_width, s.stepwise.step_width) &&
		       in_range(fi->height, s.stepwise.min_height,
				s.stepwise.max_height, s.stepwise.step_height);
	}
	return 0;
}

/* The one interval given for such a size. */
static struct v4l2_fract one_interval(struct lv2_dev *dev)
{
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_fract t = { LV2_DEFAULT_INTERVAL_NUM,
				LV2_DEFAULT_INTERVAL_DEN };

	if (lv2_dev_ioctl(dev, VIDIOC_G_PARM, &p) == 0 &&
	    p.parm.capture.timeperframe.numerator &&
	    p.parm.capture.timeperframe.denominator)
		t = p.parm.capture.timeperframe;
	return t;
}

int lv2_enum_frameintervals(struct lv2_dev *dev, struct v4l2_frmivalenum *fi)
{
	int e;

	if (served_ioctl(dev, VIDIOC_ENUM_FRAMEINTERVALS, fi) == 0)
		return 0;
	e = errno;
	if (e != EINVAL && e != ENOTTY)
		return -1;
	/* Only index 0, and only where the driver failed it too: a size
	 * it lists without any interval. */
	if (fi->index != 0 || !size_listed(dev, fi))
		goto fail;
	fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	fi->discrete = one_interval(dev);
	memset(fi->reserved, 0, sizeof(fi->reserved));
	return 0;
fail:
	errno = e == ENOTTY && fi->index != 0 ? EINVAL : e;
	return -1;
}
