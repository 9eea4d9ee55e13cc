/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame flips and rotations (v4lc_frame_transform) for RGB3/BGR3 and
 * YU12/YV12, and flips of packed 4:2:2 (YUYV, YVYU, UYVY, VYUY), built from
 * the flip kernels.
 *
 * Planar 4:2:0: each chroma plane is transformed as an image of its own
 * ((width + 1) / 2 x (height + 1) / 2, the op applied to it). For odd sizes
 * that keeps every chroma sample with the pixel at the top-left of its 2x2
 * block: destination chroma (X, Y) is the chroma of the source pixel that
 * lands on destination pixel (2X, 2Y). U and V keep their planes (the
 * format does not change).
 *
 * Packed 4:2:2: rows of whole pixel pairs; HFLIP and ROT180 mirror each row
 * with mirror_yuyv (luma at even bytes) or mirror_uyvy (odd bytes), which
 * keeps each chroma pair with its pixels (odd widths: see
 * src/scalar/flip.c); VFLIP copies whole rows, the spare luma slot of an
 * odd width's last pair included. A 90-degree rotation would need vertical chroma
 * subsampling the format cannot express: -EINVAL.
 */
#include "core/frame.h"

#include <errno.h>
#include <string.h>

#include "core/format.h"

/* Geometry of one validated frame. */
struct xf_planes {
	int bpp;      /* bytes per pixel of the first plane: 3, 2 or 1 */
	int luma_odd; /* packed 4:2:2 (bpp 2): luma at odd bytes */
	int planar;   /* YU12/YV12 */
	struct v4lc_planes p;
};

/*
 * The layout rules of core/format.h for the formats handled here. Returns
 * 0, or -EINVAL for another format or bad or overflowing geometry.
 */
static int xf_layout(uint32_t fourcc, int width, int height, int stride,
		     struct xf_planes *x)
{
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	if (!f)
		return -EINVAL;
	x->luma_odd = 0;
	x->planar = 0;
	switch (f->layout) {
	case V4LC_L_RGB24:
		x->bpp = 3;
		break;
	case V4LC_L_PLANAR420:
		x->bpp = 1;
		x->planar = 1;
		break;
	case V4LC_L_PACKED422:
		x->bpp = 2;
		x->luma_odd = v4lc_yuv422_luma_odd(f->order);
		break;
	default:
		return -EINVAL;
	}
	return v4lc_format_geometry(f, width, height, stride, &x->p);
}

/*
 * One plane of w x h pixels (source geometry) through `op`; bpp 2 is packed
 * 4:2:2 (flips only), luma_odd its luma position.
 */
static void xf_plane(const struct v4lc_flip_dsp *f, int bpp, int luma_odd,
		     const uint8_t *s, size_t sstride, uint8_t *d,
		     size_t dstride, int w, int h, enum v4lc_transform op)
{
	v4lc_row_copy_fn *mirror = bpp == 3 ? f->mirror24 : f->mirror8;
	size_t row = (size_t)w * (size_t)bpp;

	if (bpp == 2) {
		mirror = luma_odd ? f->mirror_uyvy : f->mirror_yuyv;
		row = 4 * (((size_t)w + 1) / 2);
	}

	/*
	 * Mirrors walk the source bottom-up: the kernels read a row from its
	 * end, so the source is read in one descending sweep (a zigzag of
	 * short descending rows was the slow part, apparently for the
	 * prefetchers) and, for ROT180, the destination written in one
	 * ascending one. Measured faster than top-down on every tier
	 * (bench/results/choices.md).
	 */
	switch (op) {
	case V4LC_XFORM_HFLIP:
		for (int y = h - 1; y >= 0; y--)
			mirror(s + (size_t)y * sstride, d + (size_t)y * dstride,
			       w);
		break;
	case V4LC_XFORM_VFLIP:
		for (int y = 0; y < h; y++)
			memcpy(d + (size_t)(h - 1 - y) * dstride,
			       s + (size_t)y * sstride, row);
		break;
	case V4LC_XFORM_ROT180:
		for (int y = h - 1; y >= 0; y--)
			mirror(s + (size_t)y * sstride,
			       d + (size_t)(h - 1 - y) * dstride, w);
		break;
	case V4LC_XFORM_ROT90CW:
		(bpp == 3 ? f->rot90cw24 : f->rot90cw8)(s, (int)sstride, d,
							(int)dstride, w, h);
		break;
	case V4LC_XFORM_ROT90CCW:
		(bpp == 3 ? f->rot90ccw24 : f->rot90ccw8)(s, (int)sstride, d,
							  (int)dstride, w, h);
		break;
	}
}

int v4lc_frame_transform(const struct v4lc_dsp *dsp,
			 const struct v4lc_frame *src, struct v4lc_frame *dst,
			 enum v4lc_transform op)
{
	struct xf_planes sp, dp;
	int w, h, rot;
	uintptr_t s0, s1, d0, d1;

	if (!dsp || !src || !dst)
		return -EINVAL;
	switch (op) {
	case V4LC_XFORM_HFLIP:
	case V4LC_XFORM_VFLIP:
	case V4LC_XFORM_ROT180:
		rot = 0;
		break;
	case V4LC_XFORM_ROT90CW:
	case V4LC_XFORM_ROT90CCW:
		rot = 1;
		break;
	default:
		return -EINVAL;
	}
	if (src->fourcc != dst->fourcc)
		return -EINVAL;
	w = src->width;
	h = src->height;
	if (rot ? (dst->width != h || dst->height != w)
		: (dst->width != w || dst->height != h))
		return -EINVAL;
	if (xf_layout(src->fourcc, w, h, src->stride, &sp) ||
	    xf_layout(dst->fourcc, dst->width, dst->height, dst->stride, &dp))
		return -EINVAL;
	if (rot && sp.bpp == 2)
		return -EINVAL; /* packed 4:2:2 has no rotated layout */
	if (!src->data || !dst->data || src->size < sp.p.total ||
	    dst->size < dp.p.total)
		return -EFAULT;
	s0 = (uintptr_t)src->data;
	s1 = s0 + sp.p.total;
	d0 = (uintptr_t)dst->data;
	d1 = d0 + dp.p.total;
	if (s0 < d1 && d0 < s1)
		return -EINVAL; /* overlapping buffers */

	/* Strides are at most INT_MAX (core/format.h): the rotation kernels
	 * take ints. */
	xf_plane(&dsp->flip, sp.bpp, sp.luma_odd, src->data, sp.p.stride,
		 dst->data, dp.p.stride, w, h, op);
	if (sp.planar) {
		int cw = w / 2 + (w & 1), ch = h / 2 + (h & 1);
		const uint8_t *su = src->data + sp.p.luma;
		uint8_t *du = dst->data + dp.p.luma;

		xf_plane(&dsp->flip, 1, 0, su, sp.p.cstride, du, dp.p.cstride,
			 cw, ch, op);
		xf_plane(&dsp->flip, 1, 0, su + sp.p.chroma, sp.p.cstride,
			 du + dp.p.chroma, dp.p.cstride, cw, ch, op);
	}
	return 0;
}
