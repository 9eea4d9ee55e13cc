/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arm_neon.h>

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_rgbpack_rgb565_rgb_c, v4lc_rgbpack_rgb565_bgr_c;
v4lc_row_copy_fn v4lc_rgbpack_pick012_c, v4lc_rgbpack_pick210_c;
v4lc_row_copy_fn v4lc_rgbpack_pick123_c, v4lc_rgbpack_pick321_c;

/* De-interleave 16 pixels and store bytes a, b, c of each. */
#define PICK(name, a, b, c)                                                  \
	static void name##_neon(const uint8_t *src, uint8_t *dst, int width) \
	{                                                                    \
		int x = 0;                                                   \
		for (; x + 16 <= width; x += 16) {                           \
			uint8x16x4_t in = vld4q_u8(src + 4 * x);             \
			uint8x16x3_t out;                                    \
			out.val[0] = in.val[a];                              \
			out.val[1] = in.val[b];                              \
			out.val[2] = in.val[c];                              \
			vst3q_u8(dst + 3 * x, out);                          \
		}                                                            \
		if (x < width)                                               \
			v4lc_rgbpack_##name##_c(src + 4 * x, dst + 3 * x,    \
						width - x);                  \
	}
PICK(pick012, 0, 1, 2)
PICK(pick210, 2, 1, 0)
PICK(pick123, 1, 2, 3)
PICK(pick321, 3, 2, 1)

/*
 * RGB565, 8 pixels: each channel is narrowed into the top bits of a byte
 * (low bits cleared), then ch | ch >> width replicates it.
 */
static inline int rgb565(const uint8_t *src, uint8_t *dst, int width,
			 int swap)
{
	int x = 0;

	for (; x + 8 <= width; x += 8) {
		uint16x8_t p = vreinterpretq_u16_u8(vld1q_u8(src + 2 * x));
		uint8x8_t r = vand_u8(vshrn_n_u16(p, 8), vdup_n_u8(0xf8));
		uint8x8_t g = vand_u8(vshrn_n_u16(p, 3), vdup_n_u8(0xfc));
		uint8x8_t b = vshl_n_u8(vmovn_u16(p), 3);
		uint8x8x3_t out;

		r = vorr_u8(r, vshr_n_u8(r, 5));
		g = vorr_u8(g, vshr_n_u8(g, 6));
		b = vorr_u8(b, vshr_n_u8(b, 5));
		out.val[0] = swap ? b : r;
		out.val[1] = g;
		out.val[2] = swap ? r : b;
		vst3_u8(dst + 3 * x, out);
	}
	return x;
}

static void rgb565_rgb_neon(const uint8_t *src, uint8_t *dst, int width)
{
	int x = rgb565(src, dst, width, 0);

	if (x < width)
		v4lc_rgbpack_rgb565_rgb_c(src + 2 * x, dst + 3 * x, width - x);
}

static void rgb565_bgr_neon(const uint8_t *src, uint8_t *dst, int width)
{
	int x = rgb565(src, dst, width, 1);

	if (x < width)
		v4lc_rgbpack_rgb565_bgr_c(src + 2 * x, dst + 3 * x, width - x);
}

void v4lc_rgbpack_init_neon(struct v4lc_rgbpack_dsp *dsp)
{
	dsp->rgb565[V4LC_RGB24] = rgb565_rgb_neon;
	dsp->rgb565[V4LC_BGR24] = rgb565_bgr_neon;
	dsp->rgb32[V4LC_BGRX32][V4LC_RGB24] = pick210_neon;
	dsp->rgb32[V4LC_BGRX32][V4LC_BGR24] = pick012_neon;
	dsp->rgb32[V4LC_XRGB32][V4LC_RGB24] = pick123_neon;
	dsp->rgb32[V4LC_XRGB32][V4LC_BGR24] = pick321_neon;
	dsp->rgb32[V4LC_XBGR32][V4LC_RGB24] = pick321_neon;
	dsp->rgb32[V4LC_XBGR32][V4LC_BGR24] = pick123_neon;
	dsp->rgb32[V4LC_RGBX32][V4LC_RGB24] = pick012_neon;
	dsp->rgb32[V4LC_RGBX32][V4LC_BGR24] = pick210_neon;
}
