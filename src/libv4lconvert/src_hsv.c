/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * HSV sources: HSV24 (H S V) and HSV32 (X H S V), hue per the format's
 * hsv_enc: V4L2_HSV_ENC_180 (0..179 for 0..358 degrees) or
 * V4L2_HSV_ENC_256 (0..255 for 0..358.6 degrees). hsv_enc shares its field
 * with ycbcr_enc, so it arrives in data->colorimetry.ycbcr_enc; anything
 * but V4L2_HSV_ENC_256 is taken as 180. With ENC_180, hues 180..255 wrap
 * around (hue is periodic: 180 is 0 again).
 *
 * Integer HSV -> RGB, each channel the exact value rounded to nearest:
 * with N = 180 or 256 hue steps, 6h = i N + f (sector i, 0 <= f < N),
 *   p = v (255 - s) / 255
 *   q = v (255 N - s f) / (255 N)         (falling edge)
 *   t = v (255 N - s (N - f)) / (255 N)   (rising edge)
 * and per sector i = 0..5 (R, G, B) = (v, t, p), (q, v, p), (p, v, t),
 * (p, q, v), (t, p, v), (v, p, q). Every value equals the double-precision
 * formula rounded half up; the largest numerator is 255 * 255 * 256 < 2^31.
 *
 * The original library's results differ (by up to 2 levels with ENC_180,
 * up to 10 with ENC_256, e.g. hue 255, s = v = 255 gives B = 15 there and
 * 6 here; the model says 5.98): a deliberate difference, measured against
 * the double-precision model by tests/lib/sources_hsv.c, where ours is
 * within 0.5 of it everywhere and the original's mean error is 2-13x ours.
 *
 * RGB output is written directly; YUV output goes through RGB24 chunks and
 * the rgb2yuv kernels (BT.601 limited range unless the format says else).
 */
#include "src_rows.h"

static inline unsigned div_round(unsigned num, unsigned den)
{
	return (num + den / 2) / den;
}

static inline __attribute__((always_inline)) void
hsv_row(const uint8_t *src, uint8_t *dst, int n, int bpp, unsigned steps,
	int bgr)
{
	const unsigned den = 255 * steps;

	for (int x = 0; x < n; x++, src += bpp, dst += 3) {
		const uint8_t *px = src + bpp - 3;
		unsigned h = px[0], s = px[1], v = px[2];
		unsigned i, f, p, q, t, r, g, b;

		if (h >= steps)
			h -= steps; /* only with 180 steps: 180..255 */
		i = 6 * h / steps;
		f = 6 * h - i * steps;
		p = div_round(v * (255 - s), 255);
		q = div_round(v * (den - s * f), den);
		t = div_round(v * (den - s * (steps - f)), den);
		/*
		 * Sector i picks (R, G, B) from (v, q, t, p) by table, not by
		 * a switch: sectors of real images and of noise are not
		 * predictable branches.
		 */
		{
			static const uint8_t pick[6][3] = {
				{ 0, 2, 3 }, { 1, 0, 3 }, { 3, 0, 2 },
				{ 3, 1, 0 }, { 2, 3, 0 }, { 0, 3, 1 },
			};
			const unsigned val[4] = { v, q, t, p };

			r = val[pick[i][0]];
			g = val[pick[i][1]];
			b = val[pick[i][2]];
		}
		dst[bgr ? 2 : 0] = (uint8_t)r;
		dst[1] = (uint8_t)g;
		dst[bgr ? 0 : 2] = (uint8_t)b;
	}
}

/* Specialised per hue scale so the divisions are by constants. */
static void hsv_to_rgb(const uint8_t *src, uint8_t *dst, int n, int bpp,
		       int enc256, int bgr)
{
	if (enc256) {
		if (bgr)
			hsv_row(src, dst, n, bpp, 256, 1);
		else
			hsv_row(src, dst, n, bpp, 256, 0);
	} else {
		if (bgr)
			hsv_row(src, dst, n, bpp, 180, 1);
		else
			hsv_row(src, dst, n, bpp, 180, 0);
	}
}

struct hsv_ctx {
	int bpp, enc256;
};

static void hsv_chunk(const void *ctx, const uint8_t *row, int x0, int n,
		      uint8_t *rgb)
{
	const struct hsv_ctx *c = ctx;

	hsv_to_rgb(row + (size_t)x0 * c->bpp, rgb, n, c->bpp, c->enc256, 0);
}

int v4lc_conv_hsv(struct v4lconvert_data *data, const struct v4lc_format *f,
		  const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	struct v4lc_src_rows r;
	struct hsv_ctx c;
	int ret;

	c.bpp = f->layout == V4LC_L_HSV32 ? 4 : 3;
	c.enc256 = data->colorimetry.ycbcr_enc == V4L2_HSV_ENC_256;
	ret = v4lc_src_rows_init(data, f, src, dst, &r);
	if (ret < 0)
		return ret;
	if (r.yuv) {
		/* The field held hsv_enc: the YUV side uses the defaults. */
		struct v4lc_colorimetry yuv = data->colorimetry;

		yuv.ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
		v4lc_src_rows_to_yuv(data, &r, &yuv, hsv_chunk, &c);
		return 0;
	}
	for (int y = 0; y < r.height; y++)
		hsv_to_rgb(r.src + (size_t)y * r.stride,
			   r.dst + (size_t)y * r.dstride, r.width, c.bpp,
			   c.enc256, r.rgb_order == V4LC_BGR24);
	return 0;
}
