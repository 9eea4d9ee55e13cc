/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * pixel.h's RGB -> YUV on x86 vectors (src/x86/vec.h): unsigned 16-bit
 * lanes, pmulhuw by the Q16 weights, wrapping adds.
 */
#ifndef V4LC_X86_RGB2YUV_H
#define V4LC_X86_RGB2YUV_H

#include "core/colour.h"
#include "x86/vec.h"

struct rgb2yuv_consts {
	vec yr, yg, yb, yadd;
	vec ur, ug, ub, vr, vg, vb, cadd;
};

static inline void rgb2yuv_consts_init(struct rgb2yuv_consts *k,
				       const struct v4lc_rgb2yuv *kp)
{
	k->yr = V(set1_epi16)((short)kp->yr);
	k->yg = V(set1_epi16)((short)kp->yg);
	k->yb = V(set1_epi16)((short)kp->yb);
	k->yadd = V(set1_epi16)((short)((kp->y_off << 8) + 128));
	k->ur = V(set1_epi16)((short)kp->ur);
	k->ug = V(set1_epi16)((short)kp->ug);
	k->ub = V(set1_epi16)((short)kp->ub);
	k->vr = V(set1_epi16)((short)kp->vr);
	k->vg = V(set1_epi16)((short)kp->vg);
	k->vb = V(set1_epi16)((short)kp->vb);
	k->cadd = V(set1_epi16)((short)32896);
}

/* v4lc_rgb_to_y's sum before >> 8, from R, G, B as c << 8. */
static inline vec luma_sum(const struct rgb2yuv_consts *k, vec r, vec g, vec b)
{
	vec s = V(add_epi16)(V(mulhi_epu16)(r, k->yr),
			     V(mulhi_epu16)(g, k->yg));

	s = V(add_epi16)(s, V(mulhi_epu16)(b, k->yb));
	return V(add_epi16)(s, k->yadd);
}

/*
 * v4lc_rgb_to_uv from the 2x2 block sums << 6: per 128-bit half, the U
 * bytes of its lanes, then the V bytes.
 */
static inline vec chroma_uv(const struct rgb2yuv_consts *k, vec sr, vec sg,
			    vec sb)
{
	vec cu = V(add_epi16)(k->cadd, V(mulhi_epu16)(sb, k->ub));
	vec cv = V(add_epi16)(k->cadd, V(mulhi_epu16)(sr, k->vr));

	cu = V(sub_epi16)(cu, V(mulhi_epu16)(sr, k->ur));
	cu = V(sub_epi16)(cu, V(mulhi_epu16)(sg, k->ug));
	cv = V(sub_epi16)(cv, V(mulhi_epu16)(sg, k->vg));
	cv = V(sub_epi16)(cv, V(mulhi_epu16)(sb, k->vb));
	return V(packus_epi16)(V(srli_epi16)(cu, 8), V(srli_epi16)(cv, 8));
}

#endif
