/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * YUV layouts the frame layer does not know, to RGB24, BGR24, YU12, YV12.
 * `stride` below is the source bytesperline, or the minimal one when that
 * is 0 or too small.
 *   NV16, NV61: luma plane, then an interleaved chroma plane of the same
 *     stride and full height (U,V resp. V,U pairs, one per two pixels).
 *     Minimal stride: width rounded up to even.
 *   YUV422P ('422P'): luma plane, then a U and a V plane, each full height
 *     with stride (stride + 1) / 2. Minimal stride: width.
 *   M420: repeating groups of two luma lines and one interleaved U,V line,
 *     all `stride` bytes (an odd last group has one luma line). Minimal
 *     stride: width rounded up to even.
 *   HM12 (NV12_16L16): the luma plane (width x height bytes), then the
 *     interleaved U,V plane (width x height / 2 bytes), each cut into tiles
 *     of 16 x 16 bytes (a chroma tile: 8 U,V pairs by 16 lines) stored one
 *     after the other, 256 bytes each, left to right and then top to
 *     bottom, each tile line by line; width / 16 tiles per row. When
 *     height / 2 is not a multiple of 16 the last chroma tile row keeps the
 *     256-byte tile spacing and holds only its first lines (the original
 *     library addresses it the same way). Width and height must be
 *     multiples of 16 (else -EINVAL); bytesperline is ignored. (The
 *     original library assumes 720-pixel-wide tile rows whatever the
 *     width, as the cx2341x always delivers; for width 720 both agree.)
 *   NV24, NV42: luma plane, then an interleaved chroma plane with one U,V
 *     (V,U) pair per pixel and stride 2 * stride. Minimal stride: width.
 * RGB output uses the colour matrix of the frame's colorimetry. YUV 4:2:0
 * output copies the samples: vertical 4:2:2 -> 4:2:0 takes the rounded
 * average (a + b + 1) >> 1 of rows 2k and 2k + 1 (an odd last row alone),
 * 4:4:4 the rounded mean of each 2x2 block.
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

/* One validated frame. */
struct yuv_job {
	const struct v4lc_dsp *dsp;
	const struct v4lc_format *f;
	const uint8_t *s, *c; /* the frame, its chroma */
	struct v4lc_planes g;
	int w, h;
	size_t cw; /* 4:2:0 chroma bytes a row */
	struct v4lc_dst d;
	struct v4lc_yuv2rgb k;
};

static void copy_luma(const struct yuv_job *j)
{
	const struct v4lc_dst *d = &j->d;
	size_t w = (size_t)j->w;

	if (j->g.stride == w && d->ys == w) {
		memcpy(d->y, j->s, w * (size_t)j->h);
		return;
	}
	for (int y = 0; y < j->h; y++)
		memcpy(d->y + (size_t)y * d->ys, j->s + (size_t)y * j->g.stride,
		       w);
}

/* HM12: columns per strip of a detiled row (a multiple of 16). */
#define HM12_CHUNK 1024

/* Bytes x0 .. x0 + n - 1 of detiled line `line` of a 16x16-tiled plane. */
static void hm12_line(const uint8_t *plane, int tiles_x, int line, int x0,
		      int n, uint8_t *out)
{
	const uint8_t *p =
		plane +
		((size_t)(line / 16) * (size_t)tiles_x + (size_t)(x0 / 16)) *
			256 +
		(size_t)(line % 16) * 16;

	for (int x = 0; x < n; x += 16, p += 256)
		memcpy(out + x, p, 16);
}

/*
 * Lines `line` .. `line` + 3 (line a multiple of 4), bytes x0 .. x0 + n - 1,
 * of a 16x16-tiled plane to out, out + HM12_CHUNK / 4, ...: each tile's
 * 64 bytes of those lines are one cache line.
 */
static void hm12_lines4(const uint8_t *plane, int tiles_x, int line, int x0,
			int n, uint8_t *out)
{
	const uint8_t *p =
		plane +
		((size_t)(line / 16) * (size_t)tiles_x + (size_t)(x0 / 16)) *
			256 +
		(size_t)(line % 16) * 16;

	for (int x = 0; x < n; x += 16, p += 256) {
		memcpy(out + x, p, 16);
		memcpy(out + HM12_CHUNK / 4 + x, p + 16, 16);
		memcpy(out + 2 * (HM12_CHUNK / 4) + x, p + 32, 16);
		memcpy(out + 3 * (HM12_CHUNK / 4) + x, p + 48, 16);
	}
}

static void hm12_to_yuv(const struct yuv_job *j)
{
	const uint8_t *c = j->s + (size_t)j->w * (size_t)j->h;
	const struct v4lc_dst *d = &j->d;
	int w = j->w, tiles_x = w / 16;
	uint8_t cbuf[HM12_CHUNK];

	/*
	 * Luma line by line (each destination row written in order, the
	 * 16-byte pieces read 256 bytes apart), chroma through a strip.
	 */
	for (int ty = 0; ty < j->h / 16; ty++) {
		const uint8_t *trow = j->s + (size_t)ty * (size_t)tiles_x * 256;

		for (int l = 0; l < 16; l += 4) {
			const uint8_t *t = trow + 16 * l;
			uint8_t *o =
				d->y + ((size_t)ty * 16 + (size_t)l) * d->ys;

			for (int tx = 0; tx < tiles_x; tx++) {
				const uint8_t *p = t + 256 * (size_t)tx;
				uint8_t *q = o + 16 * (size_t)tx;

				memcpy(q, p, 16);
				memcpy(q + d->ys, p + 16, 16);
				memcpy(q + 2 * d->ys, p + 32, 16);
				memcpy(q + 3 * d->ys, p + 48, 16);
			}
		}
	}
	/* h / 2 is a multiple of 8: chroma 4 lines (a cache line of each
	 * tile) at a time. */
	for (int cy = 0; cy < j->h / 2; cy += 4)
		for (int x = 0; x < w; x += HM12_CHUNK / 4) {
			int n = w - x < HM12_CHUNK / 4 ? w - x : HM12_CHUNK / 4;

			hm12_lines4(c, tiles_x, cy, x, n, cbuf);
			for (int l = 0; l < 4; l++) {
				size_t o = (size_t)(cy + l) * d->cs +
					   (size_t)x / 2;

				j->dsp->yuvlayout
					.deinterleave(cbuf + l * (HM12_CHUNK /
								  4),
						      d->u + o, d->v + o,
						      n / 2);
			}
		}
}

static void hm12(const struct yuv_job *j)
{
	const uint8_t *c = j->s + (size_t)j->w * (size_t)j->h;
	const struct v4lc_dst *d = &j->d;
	int w = j->w, tiles_x = w / 16;
	uint8_t ybuf[HM12_CHUNK], cbuf[HM12_CHUNK];

	if (d->yuv) {
		hm12_to_yuv(j);
		return;
	}
	for (int y = 0; y < j->h; y++)
		for (int x = 0; x < w; x += HM12_CHUNK) {
			int n = w - x < HM12_CHUNK ? w - x : HM12_CHUNK;

			hm12_line(j->s, tiles_x, y, x, n, ybuf);
			hm12_line(c, tiles_x, y / 2, x, n, cbuf);
			j->dsp->yuv420
				.nv12[d->rgb_order](ybuf, cbuf,
						    d->y + (size_t)y * d->ys +
							    3 * (size_t)x,
						    n, &j->k);
		}
}

/* RGB from a luma plane and a U,V plane, one kernel call per row. */
static void semi_rgb(const struct yuv_job *j, v4lc_semiplanar_rgb_fn *fn)
{
	for (int y = 0; y < j->h; y++)
		fn(j->s + (size_t)y * j->g.stride,
		   j->c + (size_t)y * j->g.cstride,
		   j->d.y + (size_t)y * j->d.ys, j->w, &j->k);
}

static void semi422(const struct yuv_job *j)
{
	const struct v4lc_yuvlayout_dsp *L = &j->dsp->yuvlayout;
	const struct v4lc_dst *d = &j->d;
	uint8_t *a = j->f->swap_uv ? d->v : d->u;
	uint8_t *b = j->f->swap_uv ? d->u : d->v;

	if (!d->yuv) {
		semi_rgb(j, j->f->swap_uv ? j->dsp->yuv420.nv21[d->rgb_order]
					  : j->dsp->yuv420.nv12[d->rgb_order]);
		return;
	}
	copy_luma(j);
	for (int y = 0; y < j->h; y += 2) {
		const uint8_t *c0 = j->c + (size_t)y * j->g.cstride;
		size_t o = (size_t)(y / 2) * d->cs;

		if (y + 1 < j->h)
			L->deinterleave_avg(c0, c0 + j->g.cstride, a + o, b + o,
					    (int)j->cw);
		else
			L->deinterleave(c0, a + o, b + o, (int)j->cw);
	}
}

static void planar422(const struct yuv_job *j)
{
	const struct v4lc_yuvlayout_dsp *L = &j->dsp->yuvlayout;
	const struct v4lc_dst *d = &j->d;
	const uint8_t *u = j->c, *v = j->c + j->g.chroma;
	size_t cs = j->g.cstride;

	if (!d->yuv) {
		v4lc_planar_rgb_fn *fn = j->dsp->yuv420.planar[d->rgb_order];

		for (int y = 0; y < j->h; y++)
			fn(j->s + (size_t)y * j->g.stride, u + (size_t)y * cs,
			   v + (size_t)y * cs, d->y + (size_t)y * d->ys, j->w,
			   &j->k);
		return;
	}
	copy_luma(j);
	for (int y = 0; y < j->h; y += 2) {
		size_t i = (size_t)y * cs, o = (size_t)(y / 2) * d->cs;

		if (y + 1 < j->h) {
			L->avg(u + i, u + i + cs, d->u + o, (int)j->cw);
			L->avg(v + i, v + i + cs, d->v + o, (int)j->cw);
		} else {
			memcpy(d->u + o, u + i, j->cw);
			memcpy(d->v + o, v + i, j->cw);
		}
	}
}

static void m420(const struct yuv_job *j)
{
	const struct v4lc_dst *d = &j->d;
	size_t s = j->g.stride;

	for (int y = 0; y < j->h; y += 2) {
		const uint8_t *grp = j->s + (size_t)(y / 2) * 3 * s;
		int two = y + 1 < j->h;
		const uint8_t *uv = grp + (two ? 2 : 1) * s;

		if (!d->yuv) {
			v4lc_semiplanar_rgb_fn *fn =
				j->dsp->yuv420.nv12[d->rgb_order];

			fn(grp, uv, d->y + (size_t)y * d->ys, j->w, &j->k);
			if (two)
				fn(grp + s, uv, d->y + (size_t)(y + 1) * d->ys,
				   j->w, &j->k);
			continue;
		}
		memcpy(d->y + (size_t)y * d->ys, grp, (size_t)j->w);
		if (two)
			memcpy(d->y + (size_t)(y + 1) * d->ys, grp + s,
			       (size_t)j->w);
		j->dsp->yuvlayout.deinterleave(uv,
					       d->u + (size_t)(y / 2) * d->cs,
					       d->v + (size_t)(y / 2) * d->cs,
					       (int)j->cw);
	}
}

static void semi444(const struct yuv_job *j)
{
	const struct v4lc_yuvlayout_dsp *L = &j->dsp->yuvlayout;
	const struct v4lc_dst *d = &j->d;
	uint8_t *a = j->f->swap_uv ? d->v : d->u;
	uint8_t *b = j->f->swap_uv ? d->u : d->v;

	if (!d->yuv) {
		semi_rgb(j, j->f->swap_uv ? L->nv42[d->rgb_order]
					  : L->nv24[d->rgb_order]);
		return;
	}
	copy_luma(j);
	for (int y = 0; y < j->h; y += 2) {
		const uint8_t *c0 = j->c + (size_t)y * j->g.cstride;
		size_t o = (size_t)(y / 2) * d->cs;

		L->nv24_to_yuv420(c0, y + 1 < j->h ? c0 + j->g.cstride : c0,
				  a + o, b + o, j->w);
	}
}

int v4lc_conv_yuv(struct v4lconvert_data *data, const struct v4lc_format *f,
		  const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	struct yuv_job j;
	int ret;

	j.w = src->width;
	j.h = src->height;
	if (j.w <= 0 || j.h <= 0 || !src->data || dst->width != j.w ||
	    dst->height != j.h)
		return -EINVAL;
	ret = v4lc_format_planes(f, j.w, j.h,
				 v4lc_format_stride(f, j.w, src->stride), &j.g);
	if (ret < 0) {
		if (f->layout == V4LC_L_HM12)
			v4lc_error(data, EINVAL,
				   "HM12 needs a width and height that are "
				   "multiples of 16 (%dx%d)",
				   j.w, j.h);
		return ret;
	}
	if (j.g.total > src->size) {
		v4lc_error(data, EPIPE, "short frame: %zu of %zu bytes",
			   src->size, j.g.total);
		return -EPIPE;
	}
	ret = v4lc_dst_init(dst, &j.d);
	if (ret < 0)
		return ret;
	if (!j.d.yuv)
		v4lc_yuv2rgb_init(&j.k, &data->colorimetry);
	j.dsp = data->dsp;
	j.f = f;
	j.s = src->data;
	j.c = j.s + j.g.luma;
	j.cw = (size_t)(j.w / 2 + (j.w & 1));
	switch (f->layout) {
	case V4LC_L_SEMI422:
		semi422(&j);
		break;
	case V4LC_L_PLANAR422:
		planar422(&j);
		break;
	case V4LC_L_M420:
		m420(&j);
		break;
	case V4LC_L_HM12:
		hm12(&j);
		break;
	case V4LC_L_SEMI444:
		semi444(&j);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}
