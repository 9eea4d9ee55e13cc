/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The capture format as V4L1 sees it: palettes <-> V4L2 pixel formats,
 * making a format current through libv4l2's emulation, the size limits
 * of a device, and the palette shown for the current format.
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

static const struct {
	int palette;
	uint32_t fourcc;
	int depth; /* bits per pixel as V4L1 reports it */
} palettes[] = {
	{ VIDEO_PALETTE_GREY, V4L2_PIX_FMT_GREY, 8 },
	{ VIDEO_PALETTE_RGB565, V4L2_PIX_FMT_RGB565, 16 },
	/* V4L1's RGB24/RGB32 are B, G, R in memory. */
	{ VIDEO_PALETTE_RGB24, V4L2_PIX_FMT_BGR24, 24 },
	{ VIDEO_PALETTE_RGB32, V4L2_PIX_FMT_BGR32, 32 },
	{ VIDEO_PALETTE_RGB555, V4L2_PIX_FMT_RGB555, 16 },
	{ VIDEO_PALETTE_YUYV, V4L2_PIX_FMT_YUYV, 16 },
	{ VIDEO_PALETTE_YUV422, V4L2_PIX_FMT_YUYV, 16 },
	{ VIDEO_PALETTE_UYVY, V4L2_PIX_FMT_UYVY, 16 },
	{ VIDEO_PALETTE_YUV420P, V4L2_PIX_FMT_YUV420, 12 },
	{ VIDEO_PALETTE_YUV420, V4L2_PIX_FMT_YUV420, 12 },
	{ VIDEO_PALETTE_YUV410P, V4L2_PIX_FMT_YUV410, 9 },
	{ VIDEO_PALETTE_YUV411P, V4L2_PIX_FMT_YUV411P, 12 },
	{ VIDEO_PALETTE_YUV422P, V4L2_PIX_FMT_YUV422P, 16 },
};
#define N_PALETTES (sizeof(palettes) / sizeof(palettes[0]))

uint32_t lv1_palette_fourcc(int palette)
{
	for (size_t i = 0; i < N_PALETTES; i++)
		if (palettes[i].palette == palette)
			return palettes[i].fourcc;
	return 0;
}

int lv1_palette_depth(int palette)
{
	for (size_t i = 0; i < N_PALETTES; i++)
		if (palettes[i].palette == palette)
			return palettes[i].depth;
	return 0;
}

/* The first (preferred) palette of a V4L2 format; 0 when none. */
int lv1_fourcc_palette(uint32_t fourcc)
{
	for (size_t i = 0; i < N_PALETTES; i++)
		if (palettes[i].fourcc == fourcc)
			return palettes[i].palette;
	return 0;
}

int lv1_get_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return v4l2_ioctl(fd, VIDIOC_G_FMT, f);
}

/*
 * Make the capture format fourcc at w x h (through libv4l2's emulation).
 * Nothing is changed unless TRY_FMT promises exactly that pixel format;
 * with exact, the size must come out exactly too. The resulting format is
 * left in *out (when not NULL). 0 or -1 with errno.
 */
int lv1_set_fmt(int fd, uint32_t fourcc, uint32_t w, uint32_t h, int exact,
		struct v4l2_format *out)
{
	struct v4l2_format cur, f;

	if (lv1_get_fmt(fd, &cur) == 0 && cur.fmt.pix.pixelformat == fourcc &&
	    cur.fmt.pix.width == w && cur.fmt.pix.height == h) {
		if (out)
			*out = cur;
		return 0; /* nothing to do: keep a running stream */
	}
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	if (v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) < 0)
		return -1;
	if (f.fmt.pix.pixelformat != fourcc ||
	    (exact && (f.fmt.pix.width != w || f.fmt.pix.height != h))) {
		errno = EINVAL;
		return -1;
	}
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0)
		return -1;
	if (f.fmt.pix.pixelformat != fourcc ||
	    (exact && (f.fmt.pix.width != w || f.fmt.pix.height != h))) {
		errno = EINVAL;
		return -1;
	}
	if (out)
		*out = f;
	return 0;
}

/* Smallest and largest capture sizes over every format (emulated too). */
void lv1_probe_sizes(struct lv1_dev *dev, int fd)
{
	static const uint32_t tries[2][2] = { { 48, 32 }, { 100000, 100000 } };
	struct v4l2_fmtdesc d;

	dev->min_w = dev->min_h = dev->max_w = dev->max_h = 0;
	for (uint32_t i = 0; i < 256; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) < 0)
			break;
		for (int k = 0; k < 2; k++) {
			struct v4l2_format f;

			memset(&f, 0, sizeof(f));
			f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			f.fmt.pix.pixelformat = d.pixelformat;
			f.fmt.pix.width = tries[k][0];
			f.fmt.pix.height = tries[k][1];
			f.fmt.pix.field = V4L2_FIELD_ANY;
			if (v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) < 0 ||
			    f.fmt.pix.width == 0 || f.fmt.pix.height == 0 ||
			    f.fmt.pix.width > 65535 || f.fmt.pix.height > 65535)
				continue;
			if (!dev->min_w || (int)f.fmt.pix.width < dev->min_w)
				dev->min_w = (int)f.fmt.pix.width;
			if (!dev->min_h || (int)f.fmt.pix.height < dev->min_h)
				dev->min_h = (int)f.fmt.pix.height;
			if ((int)f.fmt.pix.width > dev->max_w)
				dev->max_w = (int)f.fmt.pix.width;
			if ((int)f.fmt.pix.height > dev->max_h)
				dev->max_h = (int)f.fmt.pix.height;
		}
	}
}

/* The palette shown for the current format. dev->lock held. */
int lv1_current_palette(struct lv1_dev *dev, int fd, int switch_unknown)
{
	struct v4l2_format f;
	int pal;

	if (lv1_get_fmt(fd, &f) < 0)
		return 0;
	if (dev->palette &&
	    lv1_palette_fourcc(dev->palette) == f.fmt.pix.pixelformat)
		return dev->palette;
	pal = lv1_fourcc_palette(f.fmt.pix.pixelformat);
	if (!pal && switch_unknown && !dev->fmt_chosen &&
	    (dev->caps & V4L2_CAP_VIDEO_CAPTURE)) {
		/*
		 * A format V4L1 cannot name, which the program did not ask
		 * for: offer RGB24 (BGR24) so "take what you get" programs
		 * work.
		 */
		if (lv1_set_fmt(fd, V4L2_PIX_FMT_BGR24, f.fmt.pix.width,
				f.fmt.pix.height, 0, NULL) == 0)
			pal = VIDEO_PALETTE_RGB24;
	}
	if (pal)
		dev->palette = pal;
	return pal;
}
