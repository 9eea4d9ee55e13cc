/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The size rules of the format table (format.h): the minimal stride and the
 * planes of the layouts with rows, and the bytesperline and sizeimage a
 * driver reports for any row of the table. Inline, so that the parts
 * outside libv4lconvert.so (the virtual camera, the frame server, the
 * autofocus daemon) compute them from the one table without a symbol
 * exported for it. Included by format.h.
 */
#ifndef V4LC_CORE_FORMAT_SIZE_H
#define V4LC_CORE_FORMAT_SIZE_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/*
 * v4lc_format_min_stride: bytes one row of width pixels takes in the first
 * plane (the minimal stride), or 0 when the layout has no rows
 * (device-specific and compressed formats), width <= 0, or the row would
 * exceed INT_MAX bytes.
 */
/* Half of n, rounded up. */
static inline size_t v4lc_half_up(size_t n)
{
	return n / 2 + (n & 1);
}

static inline size_t v4lc_format_min_stride(const struct v4lc_format *f,
					    int width)
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

/* Plane geometry of a frame. */
struct v4lc_planes {
	size_t stride;  /* first plane */
	size_t cstride; /* chroma plane(s); 0 when there are none */
	size_t luma;    /* bytes of the first plane: where chroma starts */
	size_t chroma;  /* bytes of one chroma plane (of the U,V plane) */
	size_t total;   /* bytes of the frame */
};

/* HM12: the chroma tile rows; a last partial row keeps the 256-byte tile
 * spacing and holds only its first lines (see src_yuv.c). */
static inline int v4lc_hm12_planes(int width, int height, struct v4lc_planes *p)
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

/*
 * v4lc_format_planes: the planes of a width x height frame with the given
 * stride (at least the minimal one). Returns 0, or -EINVAL for a layout
 * without rows, bad or overflowing geometry, or an HM12 size that is not
 * whole tiles.
 */
static inline int v4lc_format_planes(const struct v4lc_format *f, int width,
				     int height, size_t stride,
				     struct v4lc_planes *p)
{
	size_t h = (size_t)height, crows = v4lc_half_up(h), planes = 0;

	if (!f || width <= 0 || height <= 0 ||
	    !v4lc_format_min_stride(f, width))
		return -EINVAL;
	if (f->layout == V4LC_L_HM12)
		return v4lc_hm12_planes(width, height, p);
	p->stride = stride;
	p->cstride = 0;
	p->chroma = 0;
	if (__builtin_mul_overflow(stride, h, &p->luma))
		return -EINVAL;
	switch (f->layout) {
	case V4LC_L_PLANAR420: /* two planes of half the stride and rows */
		p->cstride = v4lc_half_up(stride);
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
		p->cstride = v4lc_half_up(stride);
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
		if (__builtin_mul_overflow(stride, h + v4lc_half_up(h),
					   &p->total))
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

/*
 * The bytesperline a driver reports for a frame of width w (w > 0): the
 * minimal stride of a layout with rows, w for the chip formats (as gspca
 * reports them), 0 for JPEG.
 */
static inline size_t v4lc_format_line(const struct v4lc_format *f, int w)
{
	switch (f->size) {
	case V4LC_SZ_ROWS:
		return v4lc_format_min_stride(f, w);
	case V4LC_SZ_VAR0:
		return 0;
	default:
		return (size_t)w;
	}
}

/*
 * The bytes of a w x h frame at the minimal stride (w and h even for the
 * chip formats), or 0 when the format is compressed (its frames vary: the
 * sizeimage is the driver's bound) or the geometry is bad.
 */
static inline size_t v4lc_format_frame(const struct v4lc_format *f, int w,
				       int h)
{
	size_t n = (size_t)w * (size_t)h;
	struct v4lc_planes p;

	if (w <= 0 || h <= 0)
		return 0;
	switch (f->size) {
	case V4LC_SZ_ROWS:
		return v4lc_format_planes(f, w, h, v4lc_format_min_stride(f, w),
					  &p)
			       ? 0
			       : p.total;
	case V4LC_SZ_FIX8:
		return n;
	case V4LC_SZ_FIX12:
		return n + n / 2;
	default:
		return 0;
	}
}

#endif
