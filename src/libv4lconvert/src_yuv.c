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

enum yuv_kind { SEMI422, PLANAR422, M420, HM12, SEMI444 };

struct yuv_fmt {
	enum yuv_kind kind;
	int swap; /* chroma pairs are V,U */
};

static int yuv_fmt(uint32_t fourcc, struct yuv_fmt *f)
{
	f->swap = 0;
	switch (fourcc) {
	case V4L2_PIX_FMT_NV61:
		f->swap = 1;
		/* fall through */
	case V4L2_PIX_FMT_NV16:
		f->kind = SEMI422;
		return 0;
	case V4L2_PIX_FMT_YUV422P:
		f->kind = PLANAR422;
		return 0;
	case V4L2_PIX_FMT_M420:
		f->kind = M420;
		return 0;
	case V4L2_PIX_FMT_NV12_16L16:
		f->kind = HM12;
		return 0;
	case V4L2_PIX_FMT_NV42:
		f->swap = 1;
		/* fall through */
	case V4L2_PIX_FMT_NV24:
		f->kind = SEMI444;
		return 0;
	default:
		return -1;
	}
}

/* Destination planes (u and v in YUV order whatever the fourcc). */
struct yuv_dst {
	uint8_t *y;
	size_t ys;
	uint8_t *u, *v;
	size_t cs;
	int yuv, order;
};

static int dst_init(const struct v4lc_frame *dst, struct yuv_dst *d)
{
	size_t need = v4lc_frame_bytes(dst->fourcc, dst->width, dst->height,
				       dst->stride);

	if (!need || !dst->data)
		return -EINVAL;
	if (need > dst->size)
		return -EFAULT;
	d->y = dst->data;
	d->ys = dst->stride > 0 ? (size_t)dst->stride
				: (size_t)v4lc_frame_min_stride(dst->fourcc,
								dst->width);
	switch (dst->fourcc) {
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
		d->yuv = 0;
		d->order = dst->fourcc == V4L2_PIX_FMT_RGB24 ? V4LC_RGB24
							     : V4LC_BGR24;
		d->u = d->v = NULL;
		d->cs = 0;
		return 0;
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420: {
		size_t crows = (size_t)(dst->height / 2 + (dst->height & 1));
		uint8_t *p1 = d->y + d->ys * (size_t)dst->height, *p2;

		d->cs = d->ys / 2 + (d->ys & 1);
		p2 = p1 + d->cs * crows;
		d->yuv = 1;
		d->order = V4LC_RGB24;
		d->u = dst->fourcc == V4L2_PIX_FMT_YUV420 ? p1 : p2;
		d->v = dst->fourcc == V4L2_PIX_FMT_YUV420 ? p2 : p1;
		return 0;
	}
	default:
		return -EINVAL;
	}
}

/* Source geometry: luma stride, chroma stride, chroma offset, total. */
struct yuv_src {
	size_t s, cs, coff, need;
};

static int src_init(const struct yuv_fmt *f, const struct v4lc_frame *src,
		    struct yuv_src *g)
{
	size_t w = (size_t)src->width, h = (size_t)src->height, minrow, t;

	switch (f->kind) {
	case SEMI422:
	case M420:
		minrow = w + (w & 1);
		break;
	case HM12:
		if (w % 16 || h % 16)
			return -EINVAL;
		minrow = w;
		break;
	default:
		minrow = w;
		break;
	}
	g->s = f->kind != HM12 && src->stride > 0 &&
			       (size_t)src->stride >= minrow
		       ? (size_t)src->stride
		       : minrow;
	if (__builtin_mul_overflow(g->s, h, &g->coff))
		return -EINVAL;
	switch (f->kind) {
	case SEMI422:
		g->cs = g->s;
		if (__builtin_mul_overflow(g->coff, 2, &g->need))
			return -EINVAL;
		break;
	case PLANAR422:
		g->cs = g->s / 2 + (g->s & 1);
		if (__builtin_mul_overflow(g->cs, 2 * h, &t) ||
		    __builtin_add_overflow(g->coff, t, &g->need))
			return -EINVAL;
		break;
	case M420:
		g->cs = g->s;
		g->coff = 0;
		if (__builtin_mul_overflow(g->s, h + (h + 1) / 2, &g->need))
			return -EINVAL;
		break;
	case HM12: {
		size_t crows = h / 2, rem = crows % 16;

		g->cs = g->s;
		g->need = g->coff + w * crows;
		if (rem)
			g->need = g->coff + w * (crows - rem) + (w / 16 - 1) * 256 +
				  rem * 16;
		break;
	}
	case SEMI444:
		if (__builtin_mul_overflow(g->s, 2, &g->cs) ||
		    __builtin_mul_overflow(g->coff, 3, &g->need))
			return -EINVAL;
		break;
	}
	return 0;
}

static void copy_luma(const uint8_t *s, size_t ss, const struct yuv_dst *d,
		      int w, int h)
{
	if (ss == (size_t)w && d->ys == (size_t)w) {
		memcpy(d->y, s, (size_t)w * (size_t)h);
		return;
	}
	for (int y = 0; y < h; y++)
		memcpy(d->y + (size_t)y * d->ys, s + (size_t)y * ss, (size_t)w);
}

/* HM12: columns per strip of a detiled row (a multiple of 16). */
#define HM12_CHUNK 1024

/* Bytes x0 .. x0 + n - 1 of detiled line `line` of a 16x16-tiled plane. */
static void hm12_line(const uint8_t *plane, int tiles_x, int line, int x0,
		      int n, uint8_t *out)
{
	const uint8_t *p = plane +
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
	const uint8_t *p = plane +
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

static void convert_hm12(const struct v4lc_dsp *dsp, const uint8_t *s,
			 int w, int h, const struct yuv_dst *d,
			 const struct v4lc_yuv2rgb *k)
{
	const uint8_t *c = s + (size_t)w * (size_t)h;
	int tiles_x = w / 16;
	uint8_t ybuf[HM12_CHUNK], cbuf[HM12_CHUNK];

	if (d->yuv) {
		/*
		 * Luma line by line (each destination row written in order,
		 * the 16-byte pieces read 256 bytes apart), chroma through a
		 * strip.
		 */
		const size_t ys = d->ys;
		uint8_t *const yp = d->y;

		for (int ty = 0; ty < h / 16; ty++) {
			const uint8_t *trow = s + (size_t)ty * (size_t)tiles_x * 256;

			for (int l = 0; l < 16; l += 4) {
				const uint8_t *t = trow + 16 * l;
				uint8_t *o = yp + ((size_t)ty * 16 + (size_t)l) * ys;

				for (int tx = 0; tx < tiles_x; tx++) {
					const uint8_t *p = t + 256 * (size_t)tx;
					uint8_t *q = o + 16 * (size_t)tx;

					memcpy(q, p, 16);
					memcpy(q + ys, p + 16, 16);
					memcpy(q + 2 * ys, p + 32, 16);
					memcpy(q + 3 * ys, p + 48, 16);
				}
			}
		}
		/* h / 2 is a multiple of 8: chroma 4 lines (a cache line of
		 * each tile) at a time. */
		for (int cy = 0; cy < h / 2; cy += 4)
			for (int x = 0; x < w; x += HM12_CHUNK / 4) {
				int n = w - x < HM12_CHUNK / 4 ? w - x
							       : HM12_CHUNK / 4;

				hm12_lines4(c, tiles_x, cy, x, n, cbuf);
				for (int l = 0; l < 4; l++) {
					size_t o = (size_t)(cy + l) * d->cs +
						   (size_t)x / 2;

					dsp->yuvlayout.deinterleave(
						cbuf + l * (HM12_CHUNK / 4),
						d->u + o, d->v + o, n / 2);
				}
			}
		return;
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x += HM12_CHUNK) {
			int n = w - x < HM12_CHUNK ? w - x : HM12_CHUNK;

			hm12_line(s, tiles_x, y, x, n, ybuf);
			hm12_line(c, tiles_x, y / 2, x, n, cbuf);
			dsp->yuv420.nv12[d->order](ybuf, cbuf,
						   d->y + (size_t)y * d->ys +
							   3 * (size_t)x,
						   n, k);
		}
}

static int convert_yuv(struct v4lconvert_data *data,
		       const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	const struct v4lc_dsp *dsp = data->dsp;
	const struct v4lc_yuvlayout_dsp *L = &dsp->yuvlayout;
	struct yuv_fmt f;
	struct yuv_src g;
	struct yuv_dst d;
	struct v4lc_yuv2rgb k;
	const uint8_t *s = src->data, *c;
	int w = src->width, h = src->height, ret;
	size_t cw = (size_t)(w / 2 + (w & 1));

	if (yuv_fmt(src->fourcc, &f) || w <= 0 || h <= 0 || !s ||
	    dst->width != w || dst->height != h)
		return -EINVAL;
	ret = src_init(&f, src, &g);
	if (ret < 0) {
		if (f.kind == HM12)
			v4lc_error(data, EINVAL,
				   "HM12 needs a width and height that are "
				   "multiples of 16 (%dx%d)", w, h);
		return ret;
	}
	if (g.need > src->size) {
		v4lc_error(data, EPIPE, "short frame: %zu of %zu bytes",
			   src->size, g.need);
		return -EPIPE;
	}
	ret = dst_init(dst, &d);
	if (ret < 0)
		return ret;
	if (!d.yuv)
		v4lc_yuv2rgb_init(&k, &data->colorimetry);
	c = s + g.coff;

	switch (f.kind) {
	case SEMI422:
		if (!d.yuv) {
			v4lc_semiplanar_rgb_fn *fn =
				f.swap ? dsp->yuv420.nv21[d.order]
				       : dsp->yuv420.nv12[d.order];

			for (int y = 0; y < h; y++)
				fn(s + (size_t)y * g.s, c + (size_t)y * g.cs,
				   d.y + (size_t)y * d.ys, w, &k);
		} else {
			uint8_t *a = f.swap ? d.v : d.u, *b = f.swap ? d.u : d.v;

			copy_luma(s, g.s, &d, w, h);
			for (int y = 0; y < h; y += 2) {
				const uint8_t *c0 = c + (size_t)y * g.cs;
				size_t o = (size_t)(y / 2) * d.cs;

				if (y + 1 < h)
					L->deinterleave_avg(c0, c0 + g.cs, a + o,
							    b + o, (int)cw);
				else
					L->deinterleave(c0, a + o, b + o, (int)cw);
			}
		}
		return 0;

	case PLANAR422: {
		const uint8_t *u = c, *v = c + g.cs * (size_t)h;

		if (!d.yuv) {
			v4lc_planar_rgb_fn *fn = dsp->yuv420.planar[d.order];

			for (int y = 0; y < h; y++)
				fn(s + (size_t)y * g.s, u + (size_t)y * g.cs,
				   v + (size_t)y * g.cs, d.y + (size_t)y * d.ys,
				   w, &k);
		} else {
			copy_luma(s, g.s, &d, w, h);
			for (int y = 0; y < h; y += 2) {
				size_t i = (size_t)y * g.cs, o = (size_t)(y / 2) * d.cs;

				if (y + 1 < h) {
					L->avg(u + i, u + i + g.cs, d.u + o, (int)cw);
					L->avg(v + i, v + i + g.cs, d.v + o, (int)cw);
				} else {
					memcpy(d.u + o, u + i, cw);
					memcpy(d.v + o, v + i, cw);
				}
			}
		}
		return 0;
	}

	case M420:
		for (int y = 0; y < h; y += 2) {
			const uint8_t *grp = s + (size_t)(y / 2) * 3 * g.s;
			int two = y + 1 < h;
			const uint8_t *uv = grp + (two ? 2 : 1) * g.s;

			if (!d.yuv) {
				v4lc_semiplanar_rgb_fn *fn = dsp->yuv420.nv12[d.order];

				fn(grp, uv, d.y + (size_t)y * d.ys, w, &k);
				if (two)
					fn(grp + g.s, uv,
					   d.y + (size_t)(y + 1) * d.ys, w, &k);
			} else {
				size_t o = (size_t)(y / 2) * d.cs;

				memcpy(d.y + (size_t)y * d.ys, grp, (size_t)w);
				if (two)
					memcpy(d.y + (size_t)(y + 1) * d.ys,
					       grp + g.s, (size_t)w);
				L->deinterleave(uv, d.u + o, d.v + o, (int)cw);
			}
		}
		return 0;

	case HM12:
		convert_hm12(dsp, s, w, h, &d, &k);
		return 0;

	case SEMI444:
		if (!d.yuv) {
			v4lc_semiplanar_rgb_fn *fn = f.swap ? L->nv42[d.order]
							    : L->nv24[d.order];

			for (int y = 0; y < h; y++)
				fn(s + (size_t)y * g.s, c + (size_t)y * g.cs,
				   d.y + (size_t)y * d.ys, w, &k);
		} else {
			uint8_t *a = f.swap ? d.v : d.u, *b = f.swap ? d.u : d.v;

			copy_luma(s, g.s, &d, w, h);
			for (int y = 0; y < h; y += 2) {
				const uint8_t *c0 = c + (size_t)y * g.cs;
				size_t o = (size_t)(y / 2) * d.cs;

				L->nv24_to_yuv420(c0, y + 1 < h ? c0 + g.cs : c0,
						  a + o, b + o, w);
			}
		}
		return 0;
	}
	return -EINVAL;
}

/*
 * Ranks: 4:2:2 and 4:4:4 layouts like packed 4:2:2, M420 like NV12, HM12
 * (a tiled, device-specific layout) likewise but needing conversion.
 */
const struct v4lc_source v4lc_sources_yuv[] = {
	{ V4L2_PIX_FMT_NV16, 3, 2, 1, convert_yuv },
	{ V4L2_PIX_FMT_NV61, 3, 2, 1, convert_yuv },
	{ V4L2_PIX_FMT_YUV422P, 3, 2, 0, convert_yuv },
	{ V4L2_PIX_FMT_M420, 3, 2, 1, convert_yuv },
	{ V4L2_PIX_FMT_NV12_16L16, 3, 2, 1, convert_yuv },
	{ V4L2_PIX_FMT_NV24, 3, 2, 0, convert_yuv },
	{ V4L2_PIX_FMT_NV42, 3, 2, 0, convert_yuv },
	{ 0, 0, 0, 0, NULL },
};
