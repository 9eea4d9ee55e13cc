/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared frame plumbing of the row-based source groups (src_rgb.c,
 * src_grey.c, src_hsv.c): source stride and size checks, destination
 * planes, and RGB -> YUV 4:2:0 through a small stack buffer of two RGB
 * rows, a chunk of columns at a time (no scratch, no full-frame buffer).
 */
#ifndef V4LC_LIBV4LCONVERT_SRC_ROWS_H
#define V4LC_LIBV4LCONVERT_SRC_ROWS_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "priv.h"

/* Pixels per chunk of the RGB -> YUV path (even: chunks share no chroma). */
#define V4LC_SRC_CHUNK 256

struct v4lc_src_rows {
	const uint8_t *src;
	size_t stride; /* source bytes per line */
	int width, height;
	uint8_t *dst; /* RGB24/BGR24 rows, or the Y plane */
	size_t dstride;
	uint8_t *u, *v; /* YU12/YV12 chroma planes (u, v in YUV order) */
	size_t cstride;
	int yuv;       /* destination is YU12/YV12 */
	int rgb_order; /* V4LC_RGB24 / V4LC_BGR24 for RGB destinations */
};

/*
 * Validate a frame of a row layout of the format table: the source stride
 * is src->stride when that is at least a row (v4lc_format_stride), a
 * source smaller than stride * height is a short frame. Returns 0,
 * -EINVAL (bad geometry or destination), -EFAULT (destination too small)
 * or -EPIPE.
 */
static inline int v4lc_src_rows_init(struct v4lconvert_data *data,
				     const struct v4lc_format *f,
				     const struct v4lc_frame *src,
				     const struct v4lc_frame *dst,
				     struct v4lc_src_rows *r)
{
	struct v4lc_planes p;
	struct v4lc_dst d;
	int ret;

	if (src->width <= 0 || src->height <= 0 || dst->width != src->width ||
	    dst->height != src->height ||
	    v4lc_format_planes(f, src->width, src->height,
			       v4lc_format_stride(f, src->width, src->stride),
			       &p))
		return -EINVAL;
	if (p.total > src->size) {
		v4lc_error(data, EPIPE, "short frame: %zu of %zu bytes",
			   src->size, p.total);
		return -EPIPE;
	}
	ret = v4lc_dst_init(dst, &d);
	if (ret < 0)
		return ret;
	r->src = src->data;
	r->stride = p.stride;
	r->width = src->width;
	r->height = src->height;
	r->dst = d.y;
	r->dstride = d.ys;
	r->u = d.u;
	r->v = d.v;
	r->cstride = d.cs;
	r->yuv = d.yuv;
	r->rgb_order = d.rgb_order;
	return 0;
}

/* Produce RGB24 (R, G, B order) for pixels x0 .. x0 + n - 1 of `row`. */
typedef void v4lc_src_rgb_fn(const void *ctx, const uint8_t *row, int x0, int n,
			     uint8_t *rgb);

/*
 * YU12/YV12 from any source that can produce RGB24 rows: two rows at a
 * time (the last odd row pairs with itself), V4LC_SRC_CHUNK columns at a
 * time through a stack buffer, colour per `colorimetry`.
 */
static inline void
v4lc_src_rows_to_yuv(const struct v4lconvert_data *data,
		     const struct v4lc_src_rows *r,
		     const struct v4lc_colorimetry *colorimetry,
		     v4lc_src_rgb_fn *fn, const void *ctx)
{
	uint8_t buf[2][3 * V4LC_SRC_CHUNK];
	v4lc_rgb2yuv_fn *k = data->dsp->rgb2yuv.to_yuv420[V4LC_RGB24];
	struct v4lc_rgb2yuv m;

	v4lc_rgb2yuv_init(&m, colorimetry);
	for (int y = 0; y < r->height; y += 2) {
		int pair = y + 1 < r->height;
		const uint8_t *s0 = r->src + (size_t)y * r->stride;
		const uint8_t *s1 = pair ? s0 + r->stride : s0;
		uint8_t *y0 = r->dst + (size_t)y * r->dstride;
		uint8_t *y1 = pair ? y0 + r->dstride : y0;
		uint8_t *u = r->u + (size_t)(y / 2) * r->cstride;
		uint8_t *v = r->v + (size_t)(y / 2) * r->cstride;

		for (int x = 0; x < r->width; x += V4LC_SRC_CHUNK) {
			int n = r->width - x < V4LC_SRC_CHUNK ? r->width - x
							      : V4LC_SRC_CHUNK;

			fn(ctx, s0, x, n, buf[0]);
			if (pair)
				fn(ctx, s1, x, n, buf[1]);
			k(buf[0], pair ? buf[1] : buf[0], y0 + x, y1 + x,
			  u + x / 2, v + x / 2, n, &m);
		}
	}
}

#endif
