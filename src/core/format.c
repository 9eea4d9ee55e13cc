/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The source format table and the geometry derived from it (format.h). */
#include "core/format.h"

#include <errno.h>
#include <limits.h>

#define V4LC_FORMAT_ROW(fcc, layout, order, swap, shift, rgb, yuv, needs,      \
			conv)                                                  \
	{ V4L2_PIX_FMT_##fcc,                                                  \
	  V4LC_L_##layout,                                                     \
	  order,                                                               \
	  swap,                                                                \
	  shift,                                                               \
	  rgb,                                                                 \
	  yuv,                                                                 \
	  needs },
const struct v4lc_format v4lc_formats[] = { V4LC_FORMAT_TABLE(
	V4LC_FORMAT_ROW) };
#undef V4LC_FORMAT_ROW

const size_t v4lc_n_formats = sizeof(v4lc_formats) / sizeof(v4lc_formats[0]);

const struct v4lc_format *v4lc_format_find(uint32_t fourcc)
{
	for (size_t i = 0; i < v4lc_n_formats; i++)
		if (v4lc_formats[i].fourcc == fourcc)
			return &v4lc_formats[i];
	return NULL;
}

/* Half of n, rounded up. */
static inline size_t half_up(size_t n)
{
	return n / 2 + (n & 1);
}

size_t v4lc_format_min_stride(const struct v4lc_format *f, int width)
{
	uint64_t w = (uint64_t)width, row;

	if (!f || width <= 0)
		return 0;
	switch (f->layout) {
	case V4LC_L_PACKED422:
		row = 4 * (w / 2 + (w & 1));
		break;
	case V4LC_L_RGB24:
	case V4LC_L_HSV24:
		row = 3 * w;
		break;
	case V4LC_L_SEMI420:
	case V4LC_L_SEMI422:
	case V4LC_L_M420:
		row = w + (w & 1);
		break;
	case V4LC_L_PLANAR420:
	case V4LC_L_BAYER8:
	case V4LC_L_GREY8:
	case V4LC_L_PLANAR422:
	case V4LC_L_HM12:
	case V4LC_L_SEMI444:
		row = w;
		break;
	case V4LC_L_BAYER10P:
		row = (5 * w + 3) / 4;
		break;
	case V4LC_L_BAYER16:
	case V4LC_L_GREY16:
	case V4LC_L_GREY16BE:
	case V4LC_L_RGB565:
		row = 2 * w;
		break;
	case V4LC_L_Y10BPACK:
		row = (10 * w + 7) / 8;
		break;
	case V4LC_L_RGB32:
	case V4LC_L_HSV32:
		row = 4 * w;
		break;
	default:
		return 0;
	}
	/* Strides are ints (kernels, v4l2_pix_format). */
	return row > INT_MAX ? 0 : (size_t)row;
}

size_t v4lc_format_stride(const struct v4lc_format *f, int width, long stride)
{
	size_t min = v4lc_format_min_stride(f, width);

	if (f && f->layout == V4LC_L_HM12)
		return min;
	return stride > 0 && (unsigned long)stride >= min ? (size_t)stride
							  : min;
}

/* HM12: the chroma tile rows; a last partial row keeps the 256-byte tile
 * spacing and holds only its first lines (see src_yuv.c). */
static int hm12_planes(int width, int height, struct v4lc_planes *p)
{
	size_t w = (size_t)width, crows = (size_t)height / 2;
	size_t rem = crows % 16;

	if (width % 16 || height % 16)
		return -EINVAL;
	p->stride = p->cstride = w;
	p->luma = w * (size_t)height;
	p->chroma = w * crows;
	p->total = p->luma + p->chroma;
	if (rem)
		p->total = p->luma + w * (crows - rem) + (w / 16 - 1) * 256 +
			   rem * 16;
	return 0;
}

int v4lc_format_planes(const struct v4lc_format *f, int width, int height,
		       size_t stride, struct v4lc_planes *p)
{
	size_t h = (size_t)height, crows = half_up(h), planes = 0;

	if (!f || width <= 0 || height <= 0 ||
	    !v4lc_format_min_stride(f, width))
		return -EINVAL;
	if (f->layout == V4LC_L_HM12)
		return hm12_planes(width, height, p);
	p->stride = stride;
	p->cstride = 0;
	p->chroma = 0;
	if (__builtin_mul_overflow(stride, h, &p->luma))
		return -EINVAL;
	switch (f->layout) {
	case V4LC_L_PLANAR420: /* two planes of half the stride and rows */
		p->cstride = half_up(stride);
		planes = 2;
		break;
	case V4LC_L_SEMI420: /* one U,V plane of half the rows */
		p->cstride = stride;
		planes = 1;
		break;
	case V4LC_L_SEMI422: /* one U,V plane of the luma's size */
		p->cstride = stride;
		crows = h;
		planes = 1;
		break;
	case V4LC_L_PLANAR422: /* two planes of half the stride, all rows */
		p->cstride = half_up(stride);
		crows = h;
		planes = 2;
		break;
	case V4LC_L_SEMI444: /* one U,V plane of twice the stride */
		if (__builtin_mul_overflow(stride, 2, &p->cstride))
			return -EINVAL;
		crows = h;
		planes = 1;
		break;
	case V4LC_L_M420: /* luma and chroma lines interleaved */
		if (__builtin_mul_overflow(stride, h + half_up(h), &p->total))
			return -EINVAL;
		p->luma = p->total;
		return 0;
	default: /* rows of one plane */
		break;
	}
	if (__builtin_mul_overflow(p->cstride, crows, &p->chroma) ||
	    __builtin_mul_overflow(p->chroma, planes, &p->total) ||
	    __builtin_add_overflow(p->total, p->luma, &p->total))
		return -EINVAL;
	return 0;
}

int v4lc_format_geometry(const struct v4lc_format *f, int width, int height,
			 int stride, struct v4lc_planes *p)
{
	size_t min = v4lc_format_min_stride(f, width);

	if (!min || height <= 0 || stride < 0 ||
	    (stride && (size_t)stride < min))
		return -EINVAL;
	return v4lc_format_planes(f, width, height,
				  stride ? (size_t)stride : min, p);
}
