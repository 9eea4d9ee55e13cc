/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Focus measure, NEON (AArch64 and armhf): 16 pixels per step in 16-bit
 * lanes (|L| <= 1020), squares accumulated by vmlal into 32-bit lanes and
 * folded into 64 bits every CHUNK steps, before they could overflow.
 */
#include <arm_neon.h>

#include "scalar/focus.h"

/* Per step a 32-bit lane gains at most 4 * 1020^2: 256 steps < 2^31. */
#define CHUNK 256

static inline int16x8_t lap16(uint8x8_t c, uint8x8_t l, uint8x8_t r,
			      uint8x8_t a, uint8x8_t b)
{
	uint16x8_t n = vaddq_u16(vaddl_u8(l, r), vaddl_u8(a, b));

	return vreinterpretq_s16_u16(vsubq_u16(vshll_n_u8(c, 2), n));
}

static int64_t hsum32(int32x4_t v)
{
	int64x2_t p = vpaddlq_s32(v);

	return vgetq_lane_s64(p, 0) + vgetq_lane_s64(p, 1);
}

static void laplacian_neon(const uint8_t *above, const uint8_t *cur,
			   const uint8_t *below, int width, int64_t *sum,
			   uint64_t *sumsq)
{
	int64_t s = 0;
	uint64_t q = 0;
	int x = 1;

	/* A step covers x .. x + 15 and reads cur[x - 1 .. x + 16]. */
	while (x + 16 <= width - 1) {
		int32x4_t acc_s = vdupq_n_s32(0), acc_q = vdupq_n_s32(0);

		for (int n = 0; n < CHUNK && x + 16 <= width - 1;
		     n++, x += 16) {
			uint8x16_t c = vld1q_u8(cur + x);
			uint8x16_t l = vld1q_u8(cur + x - 1);
			uint8x16_t r = vld1q_u8(cur + x + 1);
			uint8x16_t a = vld1q_u8(above + x);
			uint8x16_t b = vld1q_u8(below + x);
			int16x8_t lo = lap16(vget_low_u8(c), vget_low_u8(l),
					     vget_low_u8(r), vget_low_u8(a),
					     vget_low_u8(b));
			int16x8_t hi = lap16(vget_high_u8(c), vget_high_u8(l),
					     vget_high_u8(r), vget_high_u8(a),
					     vget_high_u8(b));

			acc_q = vmlal_s16(acc_q, vget_low_s16(lo),
					  vget_low_s16(lo));
			acc_q = vmlal_s16(acc_q, vget_high_s16(lo),
					  vget_high_s16(lo));
			acc_q = vmlal_s16(acc_q, vget_low_s16(hi),
					  vget_low_s16(hi));
			acc_q = vmlal_s16(acc_q, vget_high_s16(hi),
					  vget_high_s16(hi));
			acc_s = vpadalq_s16(acc_s, lo);
			acc_s = vpadalq_s16(acc_s, hi);
		}
		s += hsum32(acc_s);
		q += (uint64_t)hsum32(acc_q);
	}
	*sum += s;
	*sumsq += q;
	/* The rest: a sub-row whose interior starts at x. */
	if (x < width - 1)
		v4lc_focus_laplacian_c(above + x - 1, cur + x - 1,
				       below + x - 1, width - x + 1, sum,
				       sumsq);
}

void v4lc_focus_init_neon(struct v4lc_focus_dsp *dsp)
{
	dsp->laplacian = laplacian_neon;
}
