/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whole-frame conversions: validation, plane layout and the row loops around
 * the kernels of src/dispatch/dsp.h. Nothing here allocates.
 */
#include "core/frame.h"

#include <errno.h>
#include <limits.h>
#include <linux/videodev2.h>
#include <string.h>

/*
 * Which kernel families this build has. V4LC_FAMILIES(X) expands to
 * X(rgb) X(yuv422) ...; each detector below turns that list into a sum in
 * which only its own family contributes a 1 (identifiers that are not
 * macros evaluate to 0 in #if), so the code stays in step with the
 * generated table layout of struct v4lc_dsp.
 */
#define V4LC_IS_rgb_rgb 1
#define V4LC_IS_yuv422_yuv422 1
#define V4LC_IS_yuv420_yuv420 1
#define V4LC_IS_rgb2yuv_rgb2yuv 1
#define V4LC_FAM_RGB(f) +V4LC_IS_rgb_##f
#define V4LC_FAM_YUV422(f) +V4LC_IS_yuv422_##f
#define V4LC_FAM_YUV420(f) +V4LC_IS_yuv420_##f
#define V4LC_FAM_RGB2YUV(f) +V4LC_IS_rgb2yuv_##f
#if 0 V4LC_FAMILIES(V4LC_FAM_RGB)
#define HAVE_RGB 1
#endif
#if 0 V4LC_FAMILIES(V4LC_FAM_YUV422)
#define HAVE_YUV422 1
#endif
#if 0 V4LC_FAMILIES(V4LC_FAM_YUV420)
#define HAVE_YUV420 1
#endif
#if 0 V4LC_FAMILIES(V4LC_FAM_RGB2YUV)
#define HAVE_RGB2YUV 1
#endif

enum layout {
	L_NONE,
	L_PACKED422, /* YUYV, YVYU, UYVY, VYUY */
	L_PLANAR420, /* YU12, YV12 */
	L_SEMI420,   /* NV12, NV21 */
	L_RGB24,     /* RGB3, BGR3 */
};

struct fmt_info {
	enum layout layout;
	int order;   /* yuv422 byte order, or rgb order */
	int swap_uv; /* YV12, NV21: V before U */
};

static struct fmt_info fmt_lookup(uint32_t fourcc)
{
	struct fmt_info f = { L_NONE, 0, 0 };

	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
		f.layout = L_PACKED422;
		f.order = V4LC_YUYV;
		break;
	case V4L2_PIX_FMT_YVYU:
		f.layout = L_PACKED422;
		f.order = V4LC_YVYU;
		break;
	case V4L2_PIX_FMT_UYVY:
		f.layout = L_PACKED422;
		f.order = V4LC_UYVY;
		break;
	case V4L2_PIX_FMT_VYUY:
		f.layout = L_PACKED422;
		f.order = V4LC_VYUY;
		break;
	case V4L2_PIX_FMT_YUV420:
		f.layout = L_PLANAR420;
		break;
	case V4L2_PIX_FMT_YVU420:
		f.layout = L_PLANAR420;
		f.swap_uv = 1;
		break;
	case V4L2_PIX_FMT_NV12:
		f.layout = L_SEMI420;
		break;
	case V4L2_PIX_FMT_NV21:
		f.layout = L_SEMI420;
		f.swap_uv = 1;
		break;
	case V4L2_PIX_FMT_RGB24:
		f.layout = L_RGB24;
		f.order = V4LC_RGB24;
		break;
	case V4L2_PIX_FMT_BGR24:
		f.layout = L_RGB24;
		f.order = V4LC_BGR24;
		break;
	default:
		break;
	}
	return f;
}

int v4lc_frame_min_stride(uint32_t fourcc, int width)
{
	struct fmt_info f = fmt_lookup(fourcc);

	if (width <= 0)
		return 0;
	switch (f.layout) {
	case L_PACKED422:
		/* 4 * ((width + 1) / 2), without overflowing width + 1 */
		if (width / 2 + (width & 1) > INT_MAX / 4)
			return 0;
		return 4 * (width / 2 + (width & 1));
	case L_RGB24:
		if (width > INT_MAX / 3)
			return 0;
		return 3 * width;
	case L_PLANAR420:
		return width;
	case L_SEMI420:
		if (width == INT_MAX)
			return 0;
		return width + (width & 1);
	default:
		return 0;
	}
}

/* Plane geometry of a validated frame. */
struct planes {
	size_t stride;   /* first plane */
	size_t cstride;  /* chroma plane(s) */
	size_t luma;     /* bytes of the first plane */
	size_t chroma;   /* bytes of one chroma plane (planar) or the UV plane */
	size_t total;
};

static int mul_size(size_t a, size_t b, size_t *r)
{
	return __builtin_mul_overflow(a, b, r);
}

static int add_size(size_t a, size_t b, size_t *r)
{
	return __builtin_add_overflow(a, b, r);
}

/* Returns 0 on success, -EINVAL on bad or overflowing geometry. */
static int plane_layout(const struct fmt_info *f, uint32_t fourcc, int width,
			int height, int stride, struct planes *p)
{
	int min = v4lc_frame_min_stride(fourcc, width);
	size_t crows;

	if (f->layout == L_NONE || width <= 0 || height <= 0 || stride < 0 ||
	    min == 0)
		return -EINVAL;
	if (stride == 0)
		stride = min;
	if (stride < min)
		return -EINVAL;

	p->stride = (size_t)stride;
	if (mul_size(p->stride, (size_t)height, &p->luma))
		return -EINVAL;
	crows = (size_t)height / 2 + (size_t)(height & 1);
	switch (f->layout) {
	case L_PLANAR420:
		p->cstride = p->stride / 2 + (p->stride & 1);
		if (mul_size(p->cstride, crows, &p->chroma) ||
		    add_size(p->luma, p->chroma, &p->total) ||
		    add_size(p->total, p->chroma, &p->total))
			return -EINVAL;
		break;
	case L_SEMI420:
		p->cstride = p->stride;
		if (mul_size(p->cstride, crows, &p->chroma) ||
		    add_size(p->luma, p->chroma, &p->total))
			return -EINVAL;
		break;
	default:
		p->cstride = 0;
		p->chroma = 0;
		p->total = p->luma;
		break;
	}
	return 0;
}

size_t v4lc_frame_bytes(uint32_t fourcc, int width, int height, int stride)
{
	struct fmt_info f = fmt_lookup(fourcc);
	struct planes p;

	if (plane_layout(&f, fourcc, width, height, stride, &p))
		return 0;
	return p.total;
}

static const struct v4lc_colorimetry default_colorimetry;

/* Copy `rows` rows of `bytes` bytes between two strided planes. */
static void copy_plane(const uint8_t *src, size_t sstride, uint8_t *dst,
		       size_t dstride, size_t bytes, int rows)
{
	for (int r = 0; r < rows; r++, src += sstride, dst += dstride)
		memmove(dst, src, bytes);
}

/* Bytes one row of the first plane holds (the minimal stride). */
static size_t row_bytes(const struct fmt_info *f, int width)
{
	switch (f->layout) {
	case L_PACKED422:
		return 4 * ((size_t)width / 2 + (size_t)(width & 1));
	case L_RGB24:
		return 3 * (size_t)width;
	default:
		return (size_t)width; /* luma */
	}
}

/* Same format: every plane row by row, stride padding left alone. */
static void convert_copy(const struct fmt_info *f, const uint8_t *s,
			 const struct planes *sp, uint8_t *d,
			 const struct planes *dp, int width, int height)
{
	size_t cw = (size_t)width / 2 + (size_t)(width & 1);
	int crows = height / 2 + (height & 1);

	copy_plane(s, sp->stride, d, dp->stride, row_bytes(f, width), height);
	s += sp->luma;
	d += dp->luma;
	if (f->layout == L_PLANAR420) {
		copy_plane(s, sp->cstride, d, dp->cstride, cw, crows);
		copy_plane(s + sp->chroma, sp->cstride, d + dp->chroma,
			   dp->cstride, cw, crows);
	} else if (f->layout == L_SEMI420) {
		copy_plane(s, sp->cstride, d, dp->cstride, 2 * cw, crows);
	}
}

int v4lc_frame_convert(const struct v4lc_dsp *dsp, const struct v4lc_frame *src,
		       struct v4lc_frame *dst,
		       const struct v4lc_colorimetry *colorimetry)
{
	struct fmt_info sf, df;
	struct planes sp, dp;
	const uint8_t *s;
	uint8_t *d;
	int width, height, crows;
	size_t cw;

	if (!dsp || !src || !dst)
		return -EINVAL;
	if (!colorimetry)
		colorimetry = &default_colorimetry;

	sf = fmt_lookup(src->fourcc);
	df = fmt_lookup(dst->fourcc);
	if (sf.layout == L_NONE || df.layout == L_NONE)
		return -EINVAL;
	/* Destinations other than the source format: the 4 V4L2 ones. */
	if (src->fourcc != dst->fourcc && df.layout != L_RGB24 &&
	    df.layout != L_PLANAR420)
		return -EINVAL;
	if (src->width != dst->width || src->height != dst->height)
		return -EINVAL;
	width = src->width;
	height = src->height;
	if (plane_layout(&sf, src->fourcc, width, height, src->stride, &sp) ||
	    plane_layout(&df, dst->fourcc, width, height, dst->stride, &dp))
		return -EINVAL;
	if (!src->data || !dst->data || src->size < sp.total ||
	    dst->size < dp.total)
		return -EFAULT;

	s = src->data;
	d = dst->data;
	cw = (size_t)width / 2 + (size_t)(width & 1);
	crows = height / 2 + (height & 1);

	if (src->fourcc == dst->fourcc) {
		convert_copy(&sf, s, &sp, d, &dp, width, height);
		return 0;
	}

	switch (sf.layout) {
	case L_PACKED422:
		if (df.layout == L_RGB24) {
#ifdef HAVE_YUV422
			v4lc_yuv422_rgb_fn *fn =
				dsp->yuv422.to_rgb[sf.order][df.order];
			struct v4lc_yuv2rgb k;

			v4lc_yuv2rgb_init(&k, colorimetry);
			for (int y = 0; y < height; y++)
				fn(s + (size_t)y * sp.stride,
				   d + (size_t)y * dp.stride, width, &k);
			return 0;
#endif
		} else {
#ifdef HAVE_YUV422
			v4lc_yuv422_420_fn *fn = dsp->yuv422.to_yuv420[sf.order];
			uint8_t *u = d + dp.luma, *v = u + dp.chroma;

			if (df.swap_uv) {
				uint8_t *t = u;

				u = v;
				v = t;
			}
			for (int y = 0; y < height; y += 2) {
				const uint8_t *s0 = s + (size_t)y * sp.stride;
				uint8_t *y0 = d + (size_t)y * dp.stride;
				int last = y + 1 >= height;
				size_t c = (size_t)(y / 2) * dp.cstride;

				fn(s0, last ? s0 : s0 + sp.stride, y0,
				   last ? y0 : y0 + dp.stride, u + c, v + c,
				   width);
			}
			return 0;
#endif
		}
		break;

	case L_PLANAR420:
		if (df.layout == L_RGB24) {
#ifdef HAVE_YUV420
			v4lc_planar_rgb_fn *fn = dsp->yuv420.planar[df.order];
			const uint8_t *u = s + sp.luma, *v = u + sp.chroma;
			struct v4lc_yuv2rgb k;

			if (sf.swap_uv) {
				const uint8_t *t = u;

				u = v;
				v = t;
			}
			v4lc_yuv2rgb_init(&k, colorimetry);
			for (int y = 0; y < height; y++) {
				size_t c = (size_t)(y / 2) * sp.cstride;

				fn(s + (size_t)y * sp.stride, u + c, v + c,
				   d + (size_t)y * dp.stride, width, &k);
			}
			return 0;
#endif
		} else {
			/* YU12 <-> YV12: luma copy, chroma planes swapped. */
			const uint8_t *su = s + sp.luma, *sv = su + sp.chroma;
			uint8_t *du = d + dp.luma, *dv = du + dp.chroma;

			copy_plane(s, sp.stride, d, dp.stride, (size_t)width,
				   height);
			copy_plane(su, sp.cstride, dv, dp.cstride, cw, crows);
			copy_plane(sv, sp.cstride, du, dp.cstride, cw, crows);
			return 0;
		}
		break;

	case L_SEMI420:
		if (df.layout == L_RGB24) {
#ifdef HAVE_YUV420
			v4lc_semiplanar_rgb_fn *fn =
				sf.swap_uv ? dsp->yuv420.nv21[df.order]
					   : dsp->yuv420.nv12[df.order];
			const uint8_t *uv = s + sp.luma;
			struct v4lc_yuv2rgb k;

			v4lc_yuv2rgb_init(&k, colorimetry);
			for (int y = 0; y < height; y++)
				fn(s + (size_t)y * sp.stride,
				   uv + (size_t)(y / 2) * sp.cstride,
				   d + (size_t)y * dp.stride, width, &k);
			return 0;
#endif
		} else {
			/* De-interleave: first byte of a pair to `a`. */
			const uint8_t *uv = s + sp.luma;
			uint8_t *a = d + dp.luma, *b = a + dp.chroma;

			if (sf.swap_uv != df.swap_uv) {
				uint8_t *t = a;

				a = b;
				b = t;
			}
			copy_plane(s, sp.stride, d, dp.stride, (size_t)width,
				   height);
			for (int y = 0; y < crows; y++) {
				const uint8_t *in = uv + (size_t)y * sp.cstride;
				uint8_t *oa = a + (size_t)y * dp.cstride;
				uint8_t *ob = b + (size_t)y * dp.cstride;

				for (size_t x = 0; x < cw; x++) {
					oa[x] = in[2 * x];
					ob[x] = in[2 * x + 1];
				}
			}
			return 0;
		}
		break;

	case L_RGB24:
		if (df.layout == L_RGB24) {
#ifdef HAVE_RGB
			v4lc_row_copy_fn *fn = dsp->rgb.swap_rb24;

			for (int y = 0; y < height; y++)
				fn(s + (size_t)y * sp.stride,
				   d + (size_t)y * dp.stride, width);
			return 0;
#endif
		} else {
#ifdef HAVE_RGB2YUV
			v4lc_rgb2yuv_fn *fn = dsp->rgb2yuv.to_yuv420[sf.order];
			uint8_t *u = d + dp.luma, *v = u + dp.chroma;
			struct v4lc_rgb2yuv k;

			if (df.swap_uv) {
				uint8_t *t = u;

				u = v;
				v = t;
			}
			v4lc_rgb2yuv_init(&k, colorimetry);
			for (int y = 0; y < height; y += 2) {
				const uint8_t *s0 = s + (size_t)y * sp.stride;
				uint8_t *y0 = d + (size_t)y * dp.stride;
				int last = y + 1 >= height;
				size_t c = (size_t)(y / 2) * dp.cstride;

				fn(s0, last ? s0 : s0 + sp.stride, y0,
				   last ? y0 : y0 + dp.stride, u + c, v + c,
				   width, &k);
			}
			return 0;
#endif
		}
		break;

	default:
		break;
	}
	/* The kernel family for this pair is not part of this build. */
	return -EINVAL;
}
