/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed RGB sources: RGB565 (RGBP) and the 32-bit layouts. The alpha or
 * padding byte is ignored. RGB destinations are one kernel call per row;
 * YUV destinations go through RGB24 chunks and the rgb2yuv kernels.
 */
#include "src_rows.h"

struct rgb_ctx {
	v4lc_row_copy_fn *fn;
	int bpp;
};

static void rgb_chunk(const void *ctx, const uint8_t *row, int x0, int n,
		      uint8_t *rgb)
{
	const struct rgb_ctx *c = ctx;

	c->fn(row + (size_t)x0 * c->bpp, rgb, n);
}

int v4lc_conv_rgb(struct v4lconvert_data *data, const struct v4lc_format *f,
		  const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	/* The kernel for the RGB order; YUV output takes RGB24 order. */
	int order = dst->fourcc == V4L2_PIX_FMT_BGR24 ? V4LC_BGR24 : V4LC_RGB24;
	struct v4lc_src_rows r;
	struct rgb_ctx c;
	int ret;

	if (f->layout == V4LC_L_RGB565) {
		c.fn = data->dsp->rgbpack.rgb565[order];
		c.bpp = 2;
	} else {
		c.fn = data->dsp->rgbpack.rgb32[f->order][order];
		c.bpp = 4;
	}
	ret = v4lc_src_rows_init(data, f, src, dst, &r);
	if (ret < 0)
		return ret;
	if (r.yuv) {
		v4lc_src_rows_to_yuv(data, &r, &data->colorimetry, rgb_chunk,
				     &c);
		return 0;
	}
	for (int y = 0; y < r.height; y++)
		c.fn(r.src + (size_t)y * r.stride,
		     r.dst + (size_t)y * r.dstride, r.width);
	return 0;
}
