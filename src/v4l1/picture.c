/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L1 picture (levels and palette, on V4L2 controls and formats),
 * the capture window (the format's size) and VIDIOCCAPTURE.
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

static const uint32_t pict_cids[5] = {
	V4L2_CID_BRIGHTNESS, V4L2_CID_HUE,       V4L2_CID_SATURATION,
	V4L2_CID_CONTRAST,   V4L2_CID_WHITENESS,
};

static uint16_t *pict_level(struct video_picture *p, int i)
{
	switch (i) {
	case 0:
		return &p->brightness;
	case 1:
		return &p->hue;
	case 2:
		return &p->colour;
	case 3:
		return &p->contrast;
	default:
		return &p->whiteness;
	}
}

int lv1_gpict(struct lv1_dev *dev, int fd, struct video_picture *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 5; i++) {
		int v = v4l2_get_control(fd, (int)pict_cids[i]);

		/* No such control: the middle of the scale. */
		*pict_level(p, i) = (uint16_t)(v < 0 ? 32768 : v);
	}
	p->palette = (uint16_t)lv1_current_palette(dev, fd, 1);
	p->depth = (uint16_t)lv1_palette_depth(p->palette);
	return 0;
}

int lv1_spict(struct lv1_dev *dev, int fd, const struct video_picture *p)
{
	struct video_picture want = *p;

	if (want.palette && want.palette != dev->palette) {
		uint32_t fourcc = lv1_palette_fourcc(want.palette);
		struct v4l2_format f;

		if (!fourcc || lv1_get_fmt(fd, &f) < 0) {
			errno = EINVAL;
			return -1;
		}
		if (lv1_set_fmt(fd, fourcc, f.fmt.pix.width, f.fmt.pix.height,
				0, NULL) < 0)
			return -1;
		dev->palette = want.palette;
		dev->fmt_chosen = 1;
	} else if (want.palette) {
		/* Same palette: re-assert it if a V4L2 call changed it. */
		struct v4l2_format f;

		if (lv1_get_fmt(fd, &f) == 0 &&
		    f.fmt.pix.pixelformat != lv1_palette_fourcc(want.palette) &&
		    lv1_set_fmt(fd, lv1_palette_fourcc(want.palette),
				f.fmt.pix.width, f.fmt.pix.height, 0, NULL) < 0)
			return -1;
		dev->fmt_chosen = 1;
	}
	for (int i = 0; i < 5; i++) {
		int cur = v4l2_get_control(fd, (int)pict_cids[i]);
		int v = *pict_level(&want, i);

		/* Only what changed, so an unchanged level is not rounded. */
		if (cur >= 0 && cur != v &&
		    v4l2_set_control(fd, (int)pict_cids[i], v) < 0)
			return -1;
	}
	return 0;
}

int lv1_capture(int fd, const int *on)
{
	int v = *on ? 1 : 0;

	if (!v) {
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		int saved = errno;

		/* Also ends streaming (a read() stream included). */
		v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
		errno = saved;
	}
	return v4l2_ioctl(fd, VIDIOC_OVERLAY, &v);
}

int lv1_gwin(int fd, struct video_window *w)
{
	struct v4l2_format f;

	if (lv1_get_fmt(fd, &f) < 0)
		return -1;
	memset(w, 0, sizeof(*w));
	w->width = f.fmt.pix.width;
	w->height = f.fmt.pix.height;
	if (f.fmt.pix.field == V4L2_FIELD_INTERLACED)
		w->flags = VIDEO_WINDOW_INTERLACE;
	return 0;
}

int lv1_swin(int fd, const struct video_window *w)
{
	struct v4l2_format f;

	if (w->width == 0 || w->height == 0 || w->width > 65535 ||
	    w->height > 65535) {
		errno = EINVAL;
		return -1;
	}
	if (lv1_get_fmt(fd, &f) < 0)
		return -1;
	/* The size only; the driver may adjust it (see VIDIOCGWIN). */
	if (lv1_set_fmt(fd, f.fmt.pix.pixelformat, w->width, w->height, 0,
			NULL) < 0)
		return -1;
	return 0;
}
