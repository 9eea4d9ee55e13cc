/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON chroma reshaping (aarch64 and armhf), 16 samples a step: vld2q
 * splits interleaved pairs, vrhaddq is exactly (a + b + 1) >> 1. The rows
 * come from src/simd/yuvlayout_rows.h.
 */
#include <arm_neon.h>

#include "dispatch/dsp.h"

static inline void split_step(const uint8_t *uv, uint8_t *a, uint8_t *b)
{
	uint8x16x2_t p = vld2q_u8(uv);

	vst1q_u8(a, p.val[0]);
	vst1q_u8(b, p.val[1]);
}

static inline void split_avg_step(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b)
{
	uint8x16x2_t p = vld2q_u8(uv0), q = vld2q_u8(uv1);

	vst1q_u8(a, vrhaddq_u8(p.val[0], q.val[0]));
	vst1q_u8(b, vrhaddq_u8(p.val[1], q.val[1]));
}

static inline void avg_step(const uint8_t *p0, const uint8_t *p1, uint8_t *dst)
{
	vst1q_u8(dst, vrhaddq_u8(vld1q_u8(p0), vld1q_u8(p1)));
}

#define YUVLAYOUT_STEP 16

#include "simd/yuvlayout_rows.h"

YUVLAYOUT_DEINTERLEAVE(deinterleave_neon)
YUVLAYOUT_DEINTERLEAVE_AVG(deinterleave_avg_neon)
YUVLAYOUT_AVG(avg_neon)

void v4lc_yuvlayout_init_neon(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = deinterleave_neon;
	dsp->deinterleave_avg = deinterleave_avg_neon;
	dsp->avg = avg_neon;
}
