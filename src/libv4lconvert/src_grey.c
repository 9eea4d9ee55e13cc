/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Luma-only sources. Every format is first reduced to 8 bits per pixel:
 *   GREY, Y4, Y6: one byte per pixel, used as is. V4L2 does not document
 *     where Y4/Y6 keep their 4/6 bits; like the original library we take
 *     the byte as an MSB-aligned 8-bit sample (low bits padding).
 *   Y10, Y12, Y16: little-endian 16-bit, >> 2, >> 4, >> 8.
 *   Y16_BE: big-endian 16-bit, the high byte.
 *   Y10BPACK: 4 pixels in 5 bytes MSB first, the top 8 of 10 bits; a row
 *     of width w takes (10 w + 7) / 8 bytes (rows start on a byte).
 * RGB output is R = G = B = grey. YUV output copies grey into Y (no range
 * mapping, as the original does) and fills both chroma planes with 128.
 */
#include <string.h>

#include "src_rows.h"

/* Pixels x0 .. x0 + n - 1 of a row to 8 bits (x0 a multiple of 4). */
static void grey_reduce(const struct v4lc_grey_dsp *k,
			const struct v4lc_format *f, const uint8_t *row, int x0,
			int n, uint8_t *out)
{
	switch (f->layout) {
	case V4LC_L_GREY16:
		k->le16(row + 2 * (size_t)x0, out, n, f->shift);
		break;
	case V4LC_L_GREY16BE:
		k->be16(row + 2 * (size_t)x0, out, n, f->shift);
		break;
	case V4LC_L_Y10BPACK:
		k->y10bpack(row + (size_t)x0 / 4 * 5, out, n);
		break;
	default:
		memcpy(out, row + x0, (size_t)n);
		break;
	}
}

/* YUV output: grey into Y, both chroma planes 128. */
static void grey_to_yuv(const struct v4lc_grey_dsp *k,
			const struct v4lc_format *f,
			const struct v4lc_src_rows *r)
{
	size_t cw = (size_t)(r->width / 2 + (r->width & 1));
	int crows = r->height / 2 + (r->height & 1);

	for (int y = 0; y < r->height; y++)
		grey_reduce(k, f, r->src + (size_t)y * r->stride, 0, r->width,
			    r->dst + (size_t)y * r->dstride);
	for (int y = 0; y < crows; y++) {
		memset(r->u + (size_t)y * r->cstride, 128, cw);
		memset(r->v + (size_t)y * r->cstride, 128, cw);
	}
}

int v4lc_conv_grey(struct v4lconvert_data *data, const struct v4lc_format *f,
		   const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	const struct v4lc_grey_dsp *k = &data->dsp->grey;
	struct v4lc_src_rows r;
	int ret;

	ret = v4lc_src_rows_init(data, f, src, dst, &r);
	if (ret < 0)
		return ret;
	if (r.yuv) {
		grey_to_yuv(k, f, &r);
		return 0;
	}
	for (int y = 0; y < r.height; y++) {
		const uint8_t *s = r.src + (size_t)y * r.stride;
		uint8_t *d = r.dst + (size_t)y * r.dstride;
		uint8_t buf[V4LC_SRC_CHUNK];

		if (f->layout == V4LC_L_GREY8) {
			k->to_rgb24(s, d, r.width);
			continue;
		}
		for (int x = 0; x < r.width; x += V4LC_SRC_CHUNK) {
			int n = r.width - x < V4LC_SRC_CHUNK ? r.width - x
							     : V4LC_SRC_CHUNK;

			grey_reduce(k, f, s, x, n, buf);
			k->to_rgb24(buf, d + 3 * (size_t)x, n);
		}
	}
	return 0;
}
