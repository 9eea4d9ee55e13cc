/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pixel.h's YUV -> RGB on x86 vectors (src/x86/vec.h), for pixel pairs
 * that share a chroma sample: one 16-bit lane per pair, the pair's even
 * pixel in one vector and its odd pixel in another, so no chroma is
 * duplicated. Every intermediate fits the 16-bit lanes (see pixel.h).
 */
#ifndef V4LC_X86_YUV2RGB_H
#define V4LC_X86_YUV2RGB_H

#include "core/colour.h"
#include "x86/vec.h"

/* The matrix in lanes; y_off * 128 matches luma as Y << 7. */
struct coefs {
	vec yoff7, yk, vr, ug, vg, ub;
};

static inline void coefs_init(struct coefs *c, const struct v4lc_yuv2rgb *k)
{
	c->yoff7 = V(set1_epi16)((short)(k->y_off * 128));
	c->yk = V(set1_epi16)(k->yk);
	c->vr = V(set1_epi16)(k->vr);
	c->ug = V(set1_epi16)(k->ug);
	c->vg = V(set1_epi16)(k->vg);
	c->ub = V(set1_epi16)(k->ub);
}

/*
 * One pixel per 16-bit lane: y as Y << 7, u8 and v8 as (C - 128) << 8.
 * Out: R, G and B before the clamp (packuswb clamps).
 */
static inline __attribute__((always_inline)) void
yuv2rgb_lanes(vec y, vec u8, vec v8, const struct coefs *c, vec *r, vec *g,
	      vec *b)
{
	/* the +16 rounding of all three channels, on the luma term */
	y = V(add_epi16)(V(mulhi_epi16)(V(sub_epi16)(y, c->yoff7), c->yk),
			 V(set1_epi16)(16));
	*r = V(srai_epi16)(V(add_epi16)(y, V(mulhi_epi16)(v8, c->vr)), 5);
	*g = V(srai_epi16)(V(sub_epi16)(y,
					V(add_epi16)(V(mulhi_epi16)(u8, c->ug),
						     V(mulhi_epi16)(v8,
								    c->vg))),
			   5);
	*b = V(srai_epi16)(V(add_epi16)(y, V(mulhi_epi16)(u8, c->ub)), 5);
}

/*
 * Pixel pairs: ye, yo: the pairs' even and odd pixels as Y << 7; u8, v8:
 * the pairs' chroma (the two yuv2rgb_lanes calls make the same chroma
 * products, which the compiler computes once). Out, each packed to bytes
 * within 128-bit halves, lane i of a half's 8-lane groups being pair i:
 *   p[0] = [first channel, even pixels | last channel, even pixels],
 *   p[1] = [G, even pixels | first channel, odd pixels],
 *   p[2] = [G, odd pixels | last channel, odd pixels],
 * first / last = R / B, or B / R when bgr.
 */
static inline __attribute__((always_inline)) void
yuv2rgb_pairs(vec ye, vec yo, vec u8, vec v8, const struct coefs *c, int bgr,
	      vec p[3])
{
	vec re, ge, be, ro, go, bo;

	yuv2rgb_lanes(ye, u8, v8, c, &re, &ge, &be);
	yuv2rgb_lanes(yo, u8, v8, c, &ro, &go, &bo);
	p[0] = V(packus_epi16)(bgr ? be : re, bgr ? re : be);
	p[1] = V(packus_epi16)(ge, bgr ? bo : ro);
	p[2] = V(packus_epi16)(go, bgr ? ro : bo);
}

#endif
