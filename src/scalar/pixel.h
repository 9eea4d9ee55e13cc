/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The per-pixel colour formulas: the specification every kernel (scalar and
 * SIMD) reproduces bit for bit. Intermediate values are exactly what 16-bit
 * SIMD lanes hold, so a vector kernel needs no wider arithmetic.
 */
#ifndef V4LC_SCALAR_PIXEL_H
#define V4LC_SCALAR_PIXEL_H

#include <stdint.h>

#include "core/colour.h"

/* Branch-free: on natural images a branchy clamp mispredicts often. */
static inline uint8_t v4lc_clamp_u8(int x)
{
	x &= -(x >= 0);
	x |= -(x > 255);
	return (uint8_t)x;
}

/* (a * b) >> 16 on signed 16-bit values, floor: what pmulhw computes. */
static inline int v4lc_mulhi_s16(int a, int b)
{
	return (int)(((int32_t)(int16_t)a * (int16_t)b) >> 16);
}

/* (a * b) >> 16 on unsigned 16-bit values: what pmulhuw computes. */
static inline unsigned v4lc_mulhi_u16(unsigned a, unsigned b)
{
	return ((uint32_t)(uint16_t)a * (uint16_t)b) >> 16;
}

/*
 * YUV -> RGB in Q5 fixed point.
 * Luma:   ys = mulhi_s16((Y - y_off) << 7, yk)            (Y' * yk * 32)
 * Chroma: per U,V pair, from u8 = (U - 128) << 8 and v8 = (V - 128) << 8:
 *         cr = mulhi_s16(v8, vr)
 *         cg = mulhi_s16(u8, ug) + mulhi_s16(v8, vg)
 *         cb = mulhi_s16(u8, ub)
 * Output: R = clamp((ys + cr + 16) >> 5), G = clamp((ys - cg + 16) >> 5),
 *         B = clamp((ys + cb + 16) >> 5), arithmetic shifts.
 * Every intermediate fits a signed 16-bit lane for all supported matrices.
 */
struct v4lc_chroma_q5 {
	int r, g, b;
};

static inline int v4lc_luma_q5(const struct v4lc_yuv2rgb *k, int y)
{
	return v4lc_mulhi_s16((y - k->y_off) * 128, k->yk);
}

static inline struct v4lc_chroma_q5 v4lc_chroma_q5(const struct v4lc_yuv2rgb *k,
						   int u, int v)
{
	struct v4lc_chroma_q5 c;
	int u8 = (u - 128) * 256, v8 = (v - 128) * 256;

	c.r = v4lc_mulhi_s16(v8, k->vr);
	c.g = v4lc_mulhi_s16(u8, k->ug) + v4lc_mulhi_s16(v8, k->vg);
	c.b = v4lc_mulhi_s16(u8, k->ub);
	return c;
}

/* Write one pixel; bgr selects B,G,R byte order instead of R,G,B. */
static inline void v4lc_put_rgb(uint8_t *dst, int ys,
				const struct v4lc_chroma_q5 *c, int bgr)
{
	uint8_t r = v4lc_clamp_u8((ys + c->r + 16) >> 5);
	uint8_t g = v4lc_clamp_u8((ys - c->g + 16) >> 5);
	uint8_t b = v4lc_clamp_u8((ys + c->b + 16) >> 5);

	dst[0] = bgr ? b : r;
	dst[1] = g;
	dst[2] = bgr ? r : b;
}

/*
 * RGB -> Y, unsigned 16-bit arithmetic in Q8:
 *   Y = (mulhi_u16(R << 8, yr) + mulhi_u16(G << 8, yg) + mulhi_u16(B << 8, yb)
 *        + (y_off << 8) + 128) >> 8
 */
static inline uint8_t v4lc_rgb_to_y(const struct v4lc_rgb2yuv *k, int r, int g,
				    int b)
{
	unsigned s = v4lc_mulhi_u16(r << 8, k->yr) +
		     v4lc_mulhi_u16(g << 8, k->yg) +
		     v4lc_mulhi_u16(b << 8, k->yb) + (k->y_off << 8) + 128;

	return (uint8_t)(s >> 8);
}

/*
 * RGB -> U, V from the sums sr, sg, sb of a 2x2 block (always four samples;
 * edges are replicated), arithmetic modulo 2^16 as in 16-bit lanes:
 *   U = (32896 + mulhi_u16(sb << 6, ub) - mulhi_u16(sr << 6, ur)
 *              - mulhi_u16(sg << 6, ug)) >> 8
 *   V = (32896 + mulhi_u16(sr << 6, vr) - mulhi_u16(sg << 6, vg)
 *              - mulhi_u16(sb << 6, vb)) >> 8
 * (32896 = 128 << 8 plus 128 for rounding.) The true sum always lies in
 * 0..65535, so the modular result is exact.
 */
static inline void v4lc_rgb_to_uv(const struct v4lc_rgb2yuv *k, int sr, int sg,
				  int sb, uint8_t *u, uint8_t *v)
{
	uint16_t su = (uint16_t)(32896u + v4lc_mulhi_u16(sb << 6, k->ub) -
				 v4lc_mulhi_u16(sr << 6, k->ur) -
				 v4lc_mulhi_u16(sg << 6, k->ug));
	uint16_t sv = (uint16_t)(32896u + v4lc_mulhi_u16(sr << 6, k->vr) -
				 v4lc_mulhi_u16(sg << 6, k->vg) -
				 v4lc_mulhi_u16(sb << 6, k->vb));

	*u = (uint8_t)(su >> 8);
	*v = (uint8_t)(sv >> 8);
}

#endif
