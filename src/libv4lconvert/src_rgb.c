/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed RGB sources: RGB565 (RGBP) and the 32-bit layouts. The alpha or
 * padding byte is ignored. RGB destinations are one kernel call per row;
 * YUV destinations go through RGB24 chunks and the rgb2yuv kernels.
 */
#include "src_rows.h"

/* Bytes per pixel and the kernel of a source fourcc; 0 when unknown. */
static int rgb_source_kernel(const struct v4lc_dsp *dsp, uint32_t fourcc,
			     int order, v4lc_row_copy_fn **fn)
{
	int layout;

	switch (fourcc) {
	case V4L2_PIX_FMT_RGB565:
		*fn = dsp->rgbpack.rgb565[order];
		return 2;
	case V4L2_PIX_FMT_BGR32:
	case V4L2_PIX_FMT_ABGR32:
	case V4L2_PIX_FMT_XBGR32:
		layout = V4LC_BGRX32;
		break;
	case V4L2_PIX_FMT_RGB32:
	case V4L2_PIX_FMT_ARGB32:
	case V4L2_PIX_FMT_XRGB32:
		layout = V4LC_XRGB32;
		break;
	case V4L2_PIX_FMT_BGRA32:
	case V4L2_PIX_FMT_BGRX32:
		layout = V4LC_XBGR32;
		break;
	case V4L2_PIX_FMT_RGBA32:
	case V4L2_PIX_FMT_RGBX32:
		layout = V4LC_RGBX32;
		break;
	default:
		return 0;
	}
	*fn = dsp->rgbpack.rgb32[layout][order];
	return 4;
}

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

static int convert_rgb(struct v4lconvert_data *data,
		       const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	struct v4lc_src_rows r;
	struct rgb_ctx c;
	int ret;

	/* The kernel for the RGB order; YUV output takes RGB24 order. */
	c.bpp = rgb_source_kernel(data->dsp, src->fourcc,
				  dst->fourcc == V4L2_PIX_FMT_BGR24 ? V4LC_BGR24
								    : V4LC_RGB24,
				  &c.fn);
	if (!c.bpp || src->width <= 0)
		return -EINVAL;
	ret = v4lc_src_rows_init(data, src, dst, (size_t)src->width * c.bpp,
				 &r);
	if (ret < 0)
		return ret;
	if (r.yuv) {
		v4lc_src_rows_to_yuv(data, &r, &data->colorimetry, rgb_chunk, &c);
		return 0;
	}
	for (int y = 0; y < r.height; y++)
		c.fn(r.src + (size_t)y * r.stride, r.dst + (size_t)y * r.dstride,
		     r.width);
	return 0;
}

const struct v4lc_source v4lc_sources_rgb[] = {
	{ V4L2_PIX_FMT_RGB565, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_BGR32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_ABGR32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_XBGR32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_RGB32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_ARGB32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_XRGB32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_BGRA32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_BGRX32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_RGBA32, 2, 4, 0, convert_rgb },
	{ V4L2_PIX_FMT_RGBX32, 2, 4, 0, convert_rgb },
	{ 0, 0, 0, 0, NULL },
};
