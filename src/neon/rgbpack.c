/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arm_neon.h>

#include "scalar/rgbpack.h"

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
 * RGB565: vld2 splits the words into low bytes (G2..0 B4..0) and high
 * bytes (R4..0 G5..3). Bit replication is shift-right-and-insert, which
 * keeps the destination's top bits: R = vsri(hi, hi, 5); B = vsri(t, t, 5)
 * with t = lo << 3; G = vsri(t, t, 6) with t = vsri(hi << 5, lo, 3), the
 * six G bits at the top. 16 pixels a step, then 8.
 */
#define RGB565_STEP(q, vec, vec2, vec3, n)                                    \
	do {                                                                  \
		vec2 in = vld2##q##_u8(src + 2 * x);                          \
		vec lo = in.val[0], hi = in.val[1], t;                        \
		vec3 out;                                                     \
		vec r = vsri##q##_n_u8(hi, hi, 5);                            \
                                                                              \
		t = vshl##q##_n_u8(lo, 3);                                    \
		out.val[swap ? 0 : 2] = vsri##q##_n_u8(t, t, 5);              \
		t = vsri##q##_n_u8(vshl##q##_n_u8(hi, 5), lo, 3);             \
		out.val[1] = vsri##q##_n_u8(t, t, 6);                         \
		out.val[swap ? 2 : 0] = r;                                    \
		vst3##q##_u8(dst + 3 * x, out);                               \
		x += n;                                                       \
	} while (0)

static inline int rgb565(const uint8_t *src, uint8_t *dst, int width,
			 int swap)
{
	int x = 0;

	while (x + 16 <= width)
		RGB565_STEP(q, uint8x16_t, uint8x16x2_t, uint8x16x3_t, 16);
	if (x + 8 <= width)
		RGB565_STEP(, uint8x8_t, uint8x8x2_t, uint8x8x3_t, 8);
	return x;
}
#undef RGB565_STEP

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
