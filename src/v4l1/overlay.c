/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L1 frame buffer (VIDIOCGFBUF/SFBUF, on V4L2's) and the VBI
 * capture format (VIDIOCGVBIFMT/SVBIFMT).
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

/* Frame buffer depths (VIDIOCGFBUF/SFBUF). */
static const struct {
	int depth;
	uint32_t fourcc;
} fb_depths[] = {
	{ 8, V4L2_PIX_FMT_RGB332 },  { 15, V4L2_PIX_FMT_RGB555 },
	{ 16, V4L2_PIX_FMT_RGB565 }, { 24, V4L2_PIX_FMT_BGR24 },
	{ 32, V4L2_PIX_FMT_BGR32 },
};

/* Other frame buffer formats VIDIOCGFBUF can name a depth for. */
static const struct {
	int depth;
	uint32_t fourcc;
} fb_depths_more[] = {
	{ 15, V4L2_PIX_FMT_XRGB555 }, { 15, V4L2_PIX_FMT_ARGB555 },
	{ 15, V4L2_PIX_FMT_RGB555X }, { 16, V4L2_PIX_FMT_RGB565X },
	{ 24, V4L2_PIX_FMT_RGB24 },   { 32, V4L2_PIX_FMT_RGB32 },
	{ 32, V4L2_PIX_FMT_XRGB32 },  { 32, V4L2_PIX_FMT_ARGB32 },
	{ 32, V4L2_PIX_FMT_XBGR32 },  { 32, V4L2_PIX_FMT_ABGR32 },
	{ 8, V4L2_PIX_FMT_GREY },
};
int lv1_gfbuf(int fd, struct video_buffer *b)
{
	struct v4l2_framebuffer fb;

	memset(&fb, 0, sizeof(fb));
	if (v4l2_ioctl(fd, VIDIOC_G_FBUF, &fb) < 0)
		return -1;
	memset(b, 0, sizeof(*b));
	b->base = fb.base;
	b->width = (int)fb.fmt.width;
	b->height = (int)fb.fmt.height;
	for (size_t i = 0; i < sizeof(fb_depths) / sizeof(fb_depths[0]); i++)
		if (fb_depths[i].fourcc == fb.fmt.pixelformat)
			b->depth = fb_depths[i].depth;
	for (size_t i = 0;
	     i < sizeof(fb_depths_more) / sizeof(fb_depths_more[0]); i++)
		if (fb_depths_more[i].fourcc == fb.fmt.pixelformat)
			b->depth = fb_depths_more[i].depth;
	b->bytesperline = (int)fb.fmt.bytesperline;
	return 0;
}

int lv1_sfbuf(int fd, const struct video_buffer *b)
{
	struct v4l2_framebuffer fb;
	uint32_t fourcc = 0;

	for (size_t i = 0; i < sizeof(fb_depths) / sizeof(fb_depths[0]); i++)
		if (fb_depths[i].depth == b->depth)
			fourcc = fb_depths[i].fourcc;
	if (!fourcc || b->width <= 0 || b->height <= 0 || b->bytesperline < 0) {
		errno = EINVAL;
		return -1;
	}
	memset(&fb, 0, sizeof(fb));
	if (v4l2_ioctl(fd, VIDIOC_G_FBUF, &fb) < 0)
		return -1;
	fb.base = b->base;
	fb.fmt.width = (uint32_t)b->width;
	fb.fmt.height = (uint32_t)b->height;
	fb.fmt.pixelformat = fourcc;
	fb.fmt.bytesperline = (uint32_t)b->bytesperline;
	fb.fmt.sizeimage = fb.fmt.bytesperline * fb.fmt.height;
	return v4l2_ioctl(fd, VIDIOC_S_FBUF, &fb);
}

int lv1_gvbifmt(int fd, struct vbi_format *v)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VBI_CAPTURE;
	if (v4l2_ioctl(fd, VIDIOC_G_FMT, &f) < 0)
		return -1;
	if (f.fmt.vbi.sample_format != V4L2_PIX_FMT_GREY) {
		errno = EINVAL;
		return -1;
	}
	memset(v, 0, sizeof(*v));
	v->sampling_rate = f.fmt.vbi.sampling_rate;
	v->samples_per_line = f.fmt.vbi.samples_per_line;
	v->sample_format = VIDEO_PALETTE_RAW;
	v->start[0] = f.fmt.vbi.start[0];
	v->start[1] = f.fmt.vbi.start[1];
	v->count[0] = f.fmt.vbi.count[0];
	v->count[1] = f.fmt.vbi.count[1];
	if (f.fmt.vbi.flags & V4L2_VBI_UNSYNC)
		v->flags |= VBI_UNSYNC;
	if (f.fmt.vbi.flags & V4L2_VBI_INTERLACED)
		v->flags |= VBI_INTERLACED;
	return 0;
}

int lv1_svbifmt(int fd, const struct vbi_format *v)
{
	struct v4l2_format f;

	if (v->sample_format != VIDEO_PALETTE_RAW) {
		errno = EINVAL;
		return -1;
	}
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VBI_CAPTURE;
	if (v4l2_ioctl(fd, VIDIOC_G_FMT, &f) < 0)
		return -1;
	f.fmt.vbi.sampling_rate = v->sampling_rate;
	f.fmt.vbi.samples_per_line = v->samples_per_line;
	f.fmt.vbi.sample_format = V4L2_PIX_FMT_GREY;
	f.fmt.vbi.start[0] = v->start[0];
	f.fmt.vbi.start[1] = v->start[1];
	f.fmt.vbi.count[0] = v->count[0];
	f.fmt.vbi.count[1] = v->count[1];
	f.fmt.vbi.flags =
		((v->flags & VBI_UNSYNC) ? V4L2_VBI_UNSYNC : 0) |
		((v->flags & VBI_INTERLACED) ? V4L2_VBI_INTERLACED : 0);
	if (v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) < 0)
		return -1;
	/* V4L1 has no way to report an adjusted format: refuse it. */
	if (f.fmt.vbi.sampling_rate != v->sampling_rate ||
	    f.fmt.vbi.samples_per_line != v->samples_per_line ||
	    f.fmt.vbi.sample_format != V4L2_PIX_FMT_GREY ||
	    f.fmt.vbi.start[0] != v->start[0] ||
	    f.fmt.vbi.start[1] != v->start[1] ||
	    f.fmt.vbi.count[0] != v->count[0] ||
	    f.fmt.vbi.count[1] != v->count[1]) {
		errno = EINVAL;
		return -1;
	}
	return v4l2_ioctl(fd, VIDIOC_S_FMT, &f);
}
