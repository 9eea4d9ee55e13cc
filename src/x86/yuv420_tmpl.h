/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SSE2 and AVX2 yuv420 steps, VEC_BYTES pixels each: even and odd
 * pixels in 16-bit lanes, one chroma lane serving both pixels of a pair
 * (src/x86/yuv2rgb.h). The entry file defines, then includes this one:
 *   luma_q7(y, &ye, &yo): VEC_BYTES luma bytes to even and odd pixels as
 *     Y << 7;
 *   chroma_q8(p): VEC_BYTES / 2 chroma bytes at p as C << 8, one 16-bit
 *     lane per pair, in luma_q7's lane order;
 *   store_rgb(p, dst, last): yuv2rgb_pairs' channels to 3 * VEC_BYTES
 *     bytes at dst (and, unless last, perhaps 2 bytes more).
 */
#include "x86/yuv2rgb.h"

static inline __attribute__((always_inline)) void
pixels(const uint8_t *ysrc, vec u8, vec v8, uint8_t *dst, const struct coefs *c,
       int bgr, int last)
{
	vec ye, yo, p[3];

	luma_q7(v_load(ysrc), &ye, &yo);
	yuv2rgb_pairs(ye, yo, u8, v8, c, bgr, p);
	store_rgb(p, dst, last);
}

static inline __attribute__((always_inline)) void
planar_step(const uint8_t *y, const uint8_t *u, const uint8_t *v, uint8_t *dst,
	    const struct coefs *c, int bgr, int last)
{
	const vec sign = V(set1_epi16)((short)0x8000);

	pixels(y, VSI(xor)(chroma_q8(u), sign), VSI(xor)(chroma_q8(v), sign),
	       dst, c, bgr, last);
}

/* Interleaved chroma: one pair's two samples per 16-bit lane. */
static inline __attribute__((always_inline)) void
semi_step(const uint8_t *y, const uint8_t *uv, uint8_t *dst,
	  const struct coefs *c, int vfirst, int bgr, int last)
{
	const vec sign = V(set1_epi16)((short)0x8000);
	const vec hi8 = V(set1_epi16)((short)0xff00);
	vec p = v_load(uv);
	vec first = VSI(xor)(V(slli_epi16)(p, 8), sign);
	vec second = VSI(xor)(VSI(and)(p, hi8), sign);

	pixels(y, vfirst ? second : first, vfirst ? first : second, dst, c, bgr,
	       last);
}

#define YUV420_STEP VEC_BYTES
#include "simd/yuv420_rows.h"
