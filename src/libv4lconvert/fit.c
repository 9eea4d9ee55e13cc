/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fitting a converted frame to the size the application asked for, for the
 * "fake" resolutions try_format offers: a centred crop (sensors with border
 * pixels), a black border of up to 16 pixels, or a 2x reduction first when
 * the source is at least twice the request.
 */
#include <string.h>

#include "priv.h"

static int is_rgb(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	return f && f->layout == V4LC_L_RGB24;
}

/* One plane: copy the centred window, black outside the source. */
static void fit_plane(const uint8_t *src, int sstride, int sw, int sh,
		      uint8_t *dst, int dstride, int dw, int dh, int ox, int oy,
		      int bpp, uint8_t black)
{
	for (int y = 0; y < dh; y++) {
		uint8_t *d = dst + (size_t)y * dstride;
		int sy = y + oy;
		int x0 = ox < 0 ? -ox : 0;            /* first copied column */
		int x1 = sw - ox < dw ? sw - ox : dw; /* one past the last */

		if (sy < 0 || sy >= sh || x1 <= x0) {
			memset(d, black, (size_t)dw * bpp);
			continue;
		}
		memset(d, black, (size_t)x0 * bpp);
		memcpy(d + (size_t)x0 * bpp,
		       src + (size_t)sy * sstride + (size_t)(x0 + ox) * bpp,
		       (size_t)(x1 - x0) * bpp);
		memset(d + (size_t)x1 * bpp, black, (size_t)(dw - x1) * bpp);
	}
}

void v4lc_fit(const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	/* Even offsets keep 4:2:0 chroma aligned with its luma. */
	int ox = ((src->width - dst->width) / 2) & ~1;
	int oy = ((src->height - dst->height) / 2) & ~1;
	int sstride = src->stride
			      ? src->stride
			      : v4lc_frame_min_stride(src->fourcc, src->width);
	int dstride = dst->stride
			      ? dst->stride
			      : v4lc_frame_min_stride(dst->fourcc, dst->width);

	if (is_rgb(dst->fourcc)) {
		fit_plane(src->data, sstride, src->width, src->height,
			  dst->data, dstride, dst->width, dst->height, ox, oy,
			  3, 0);
		return;
	}
	/* YU12/YV12: video black is Y 16, chroma 128. */
	fit_plane(src->data, sstride, src->width, src->height, dst->data,
		  dstride, dst->width, dst->height, ox, oy, 1, 16);
	const uint8_t *s = src->data + (size_t)sstride * src->height;
	uint8_t *d = dst->data + (size_t)dstride * dst->height;
	int scs = (sstride + 1) / 2, dcs = (dstride + 1) / 2;
	int scw = (src->width + 1) / 2, sch = (src->height + 1) / 2;
	int dcw = (dst->width + 1) / 2, dch = (dst->height + 1) / 2;

	for (int p = 0; p < 2; p++) {
		fit_plane(s, scs, scw, sch, d, dcs, dcw, dch, ox / 2, oy / 2, 1,
			  128);
		s += (size_t)scs * sch;
		d += (size_t)dcs * dch;
	}
}

/*
 * Rounded mean of 2x2 blocks of one plane; a block at the plane's odd edge
 * reuses its last row or column.
 */
static void halve_plane(const uint8_t *src, int sstride, int sw, int sh,
			uint8_t *dst, int dstride, int dw, int dh, int bpp)
{
	for (int y = 0; y < dh; y++) {
		const uint8_t *a = src + (size_t)(2 * y) * sstride;
		const uint8_t *b = 2 * y + 1 < sh ? a + sstride : a;
		uint8_t *d = dst + (size_t)y * dstride;

		for (int x = 0; x < dw; x++) {
			int i = 2 * x * bpp, j = 2 * x + 1 < sw ? i + bpp : i;

			for (int c = 0; c < bpp; c++)
				d[x * bpp + c] =
					(uint8_t)((a[i + c] + a[j + c] +
						   b[i + c] + b[j + c] + 2) >>
						  2);
		}
	}
}

/* dst gets (src->width / 2) x (src->height / 2), minimal stride. */
void v4lc_halve(const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	int sstride = src->stride
			      ? src->stride
			      : v4lc_frame_min_stride(src->fourcc, src->width);
	int dstride, bpp = is_rgb(src->fourcc) ? 3 : 1;

	dst->fourcc = src->fourcc;
	dst->width = src->width / 2;
	dst->height = src->height / 2;
	dst->stride = dstride = v4lc_frame_min_stride(dst->fourcc, dst->width);
	halve_plane(src->data, sstride, src->width, src->height, dst->data,
		    dstride, dst->width, dst->height, bpp);
	if (bpp == 3)
		return;

	const uint8_t *s = src->data + (size_t)sstride * src->height;
	uint8_t *d = dst->data + (size_t)dstride * dst->height;
	int scs = (sstride + 1) / 2, dcs = (dstride + 1) / 2;
	int scw = (src->width + 1) / 2, sch = (src->height + 1) / 2;
	int dcw = (dst->width + 1) / 2, dch = (dst->height + 1) / 2;

	for (int p = 0; p < 2; p++) {
		halve_plane(s, scs, scw, sch, d, dcs, dcw, dch, 1);
		s += (size_t)scs * sch;
		d += (size_t)dcs * dch;
	}
}
