/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whole-frame conversions: validation, plane layout (from the format table,
 * core/format.h) and the row loops around the kernels of src/dispatch/dsp.h.
 * Nothing here allocates.
 */
#include "core/frame.h"

#include <errno.h>
#include <string.h>

#include "core/format.h"

/* A format of the frame layer, or NULL. */
static const struct v4lc_format *frame_format(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	return f && v4lc_layout_is_frame(f->layout) ? f : NULL;
}

int v4lc_frame_min_stride(uint32_t fourcc, int width)
{
	return (int)v4lc_format_min_stride(frame_format(fourcc), width);
}

size_t v4lc_frame_bytes(uint32_t fourcc, int width, int height, int stride)
{
	const struct v4lc_format *f = frame_format(fourcc);
	struct v4lc_planes p;

	if (!f || v4lc_format_geometry(f, width, height, stride, &p))
		return 0;
	return p.total;
}

/* One validated conversion. */
struct job {
	const struct v4lc_dsp *dsp;
	const struct v4lc_format *sf, *df;
	const uint8_t *s;
	struct v4lc_planes sp;
	uint8_t *d;
	struct v4lc_planes dp;
	int width, height;
	const struct v4lc_colorimetry *colorimetry;
};

/* Chroma rows and bytes of a chroma row of 4:2:0. */
static int crows(const struct job *j)
{
	return j->height / 2 + (j->height & 1);
}

static size_t cw(const struct job *j)
{
	return (size_t)j->width / 2 + (size_t)(j->width & 1);
}

/* Copy `rows` rows of `bytes` bytes between two strided planes. */
static void copy_plane(const uint8_t *src, size_t sstride, uint8_t *dst,
		       size_t dstride, size_t bytes, int rows)
{
	for (int r = 0; r < rows; r++, src += sstride, dst += dstride)
		memmove(dst, src, bytes);
}

/* The first plane: whole pixels (the luma of 4:2:0 has no padding). */
static void copy_luma(const struct job *j)
{
	size_t bytes = j->sf->layout == V4LC_L_PACKED422 ||
				       j->sf->layout == V4LC_L_RGB24
			       ? v4lc_format_min_stride(j->sf, j->width)
			       : (size_t)j->width;

	copy_plane(j->s, j->sp.stride, j->d, j->dp.stride, bytes, j->height);
}

/* The destination's U and V planes (YU12/YV12), in YUV order. */
static void dst_uv(const struct job *j, uint8_t **u, uint8_t **v)
{
	uint8_t *p1 = j->d + j->dp.luma, *p2 = p1 + j->dp.chroma;

	*u = j->df->swap_uv ? p2 : p1;
	*v = j->df->swap_uv ? p1 : p2;
}

/* Same format: every plane row by row, stride padding left alone. */
static void copy_frame(const struct job *j)
{
	const uint8_t *s = j->s + j->sp.luma;
	uint8_t *d = j->d + j->dp.luma;

	copy_luma(j);
	if (j->sf->layout == V4LC_L_PLANAR420) {
		copy_plane(s, j->sp.cstride, d, j->dp.cstride, cw(j), crows(j));
		copy_plane(s + j->sp.chroma, j->sp.cstride, d + j->dp.chroma,
			   j->dp.cstride, cw(j), crows(j));
	} else if (j->sf->layout == V4LC_L_SEMI420) {
		copy_plane(s, j->sp.cstride, d, j->dp.cstride, 2 * cw(j),
			   crows(j));
	}
}

static void packed_to_rgb(const struct job *j)
{
	v4lc_yuv422_rgb_fn *fn =
		j->dsp->yuv422.to_rgb[j->sf->order][j->df->order];
	struct v4lc_yuv2rgb k;

	v4lc_yuv2rgb_init(&k, j->colorimetry);
	for (int y = 0; y < j->height; y++)
		fn(j->s + (size_t)y * j->sp.stride,
		   j->d + (size_t)y * j->dp.stride, j->width, &k);
}

static void packed_to_yuv(const struct job *j)
{
	v4lc_yuv422_420_fn *fn = j->dsp->yuv422.to_yuv420[j->sf->order];
	uint8_t *u, *v;

	dst_uv(j, &u, &v);
	for (int y = 0; y < j->height; y += 2) {
		const uint8_t *s0 = j->s + (size_t)y * j->sp.stride;
		uint8_t *y0 = j->d + (size_t)y * j->dp.stride;
		int last = y + 1 >= j->height;
		size_t c = (size_t)(y / 2) * j->dp.cstride;

		fn(s0, last ? s0 : s0 + j->sp.stride, y0,
		   last ? y0 : y0 + j->dp.stride, u + c, v + c, j->width);
	}
}

static void planar_to_rgb(const struct job *j)
{
	v4lc_planar_rgb_fn *fn = j->dsp->yuv420.planar[j->df->order];
	const uint8_t *p1 = j->s + j->sp.luma, *p2 = p1 + j->sp.chroma;
	const uint8_t *u = j->sf->swap_uv ? p2 : p1;
	const uint8_t *v = j->sf->swap_uv ? p1 : p2;
	struct v4lc_yuv2rgb k;

	v4lc_yuv2rgb_init(&k, j->colorimetry);
	for (int y = 0; y < j->height; y++) {
		size_t c = (size_t)(y / 2) * j->sp.cstride;

		fn(j->s + (size_t)y * j->sp.stride, u + c, v + c,
		   j->d + (size_t)y * j->dp.stride, j->width, &k);
	}
}

/* YU12 <-> YV12: luma copied, chroma planes swapped. */
static void planar_to_yuv(const struct job *j)
{
	const uint8_t *su = j->s + j->sp.luma, *sv = su + j->sp.chroma;
	uint8_t *du = j->d + j->dp.luma, *dv = du + j->dp.chroma;

	copy_luma(j);
	copy_plane(su, j->sp.cstride, dv, j->dp.cstride, cw(j), crows(j));
	copy_plane(sv, j->sp.cstride, du, j->dp.cstride, cw(j), crows(j));
}

static void semi_to_rgb(const struct job *j)
{
	v4lc_semiplanar_rgb_fn *fn =
		j->sf->swap_uv ? j->dsp->yuv420.nv21[j->df->order]
			       : j->dsp->yuv420.nv12[j->df->order];
	const uint8_t *uv = j->s + j->sp.luma;
	struct v4lc_yuv2rgb k;

	v4lc_yuv2rgb_init(&k, j->colorimetry);
	for (int y = 0; y < j->height; y++)
		fn(j->s + (size_t)y * j->sp.stride,
		   uv + (size_t)(y / 2) * j->sp.cstride,
		   j->d + (size_t)y * j->dp.stride, j->width, &k);
}

/* De-interleave the chroma pairs: their first byte to `a`. */
static void semi_to_yuv(const struct job *j)
{
	const uint8_t *uv = j->s + j->sp.luma;
	uint8_t *a = j->d + j->dp.luma, *b = a + j->dp.chroma;

	if (j->sf->swap_uv != j->df->swap_uv) {
		uint8_t *t = a;

		a = b;
		b = t;
	}
	copy_luma(j);
	for (int y = 0; y < crows(j); y++) {
		const uint8_t *in = uv + (size_t)y * j->sp.cstride;
		uint8_t *oa = a + (size_t)y * j->dp.cstride;
		uint8_t *ob = b + (size_t)y * j->dp.cstride;

		for (size_t x = 0; x < cw(j); x++) {
			oa[x] = in[2 * x];
			ob[x] = in[2 * x + 1];
		}
	}
}

static void rgb_to_rgb(const struct job *j)
{
	for (int y = 0; y < j->height; y++)
		j->dsp->rgb.swap_rb24(j->s + (size_t)y * j->sp.stride,
				      j->d + (size_t)y * j->dp.stride,
				      j->width);
}

static void rgb_to_yuv(const struct job *j)
{
	v4lc_rgb2yuv_fn *fn = j->dsp->rgb2yuv.to_yuv420[j->sf->order];
	struct v4lc_rgb2yuv k;
	uint8_t *u, *v;

	dst_uv(j, &u, &v);
	v4lc_rgb2yuv_init(&k, j->colorimetry);
	for (int y = 0; y < j->height; y += 2) {
		const uint8_t *s0 = j->s + (size_t)y * j->sp.stride;
		uint8_t *y0 = j->d + (size_t)y * j->dp.stride;
		int last = y + 1 >= j->height;
		size_t c = (size_t)(y / 2) * j->dp.cstride;

		fn(s0, last ? s0 : s0 + j->sp.stride, y0,
		   last ? y0 : y0 + j->dp.stride, u + c, v + c, j->width, &k);
	}
}

/*
 * The row loop of a pair of different formats: source layout x
 * destination (RGB24/BGR24, or planar YU12/YV12).
 */
typedef void row_loop(const struct job *j);
static row_loop *const loops[][2] = {
	[V4LC_L_PACKED422] = { packed_to_rgb, packed_to_yuv },
	[V4LC_L_PLANAR420] = { planar_to_rgb, planar_to_yuv },
	[V4LC_L_SEMI420] = { semi_to_rgb, semi_to_yuv },
	[V4LC_L_RGB24] = { rgb_to_rgb, rgb_to_yuv },
};

static const struct v4lc_colorimetry default_colorimetry;

int v4lc_frame_convert(const struct v4lc_dsp *dsp, const struct v4lc_frame *src,
		       struct v4lc_frame *dst,
		       const struct v4lc_colorimetry *colorimetry)
{
	struct job j;

	if (!dsp || !src || !dst)
		return -EINVAL;
	j.sf = frame_format(src->fourcc);
	j.df = frame_format(dst->fourcc);
	if (!j.sf || !j.df)
		return -EINVAL;
	/* Destinations other than the source format: the 4 V4L2 ones. */
	if (src->fourcc != dst->fourcc && j.df->layout != V4LC_L_RGB24 &&
	    j.df->layout != V4LC_L_PLANAR420)
		return -EINVAL;
	if (src->width != dst->width || src->height != dst->height)
		return -EINVAL;
	j.width = src->width;
	j.height = src->height;
	if (v4lc_format_geometry(j.sf, j.width, j.height, src->stride, &j.sp) ||
	    v4lc_format_geometry(j.df, j.width, j.height, dst->stride, &j.dp))
		return -EINVAL;
	if (!src->data || !dst->data || src->size < j.sp.total ||
	    dst->size < j.dp.total)
		return -EFAULT;
	j.dsp = dsp;
	j.s = src->data;
	j.d = dst->data;
	j.colorimetry = colorimetry ? colorimetry : &default_colorimetry;

	if (src->fourcc == dst->fourcc)
		copy_frame(&j);
	else
		loops[j.sf->layout][j.df->layout == V4LC_L_PLANAR420](&j);
	return 0;
}
