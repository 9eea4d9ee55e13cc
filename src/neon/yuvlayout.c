/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON chroma reshaping: vld2q splits interleaved pairs, vrhaddq is exactly
 * (a + b + 1) >> 1. Rows of 16 samples or more end with one overlapping
 * vector step; shorter rows go to the scalar kernels. aarch64 and armhf.
 */
#include <arm_neon.h>

#include "scalar/yuvlayout.h"

static void deinterleave_neon(const uint8_t *uv, uint8_t *a, uint8_t *b,
			      int n)
{
	int i = 0;

	if (n < 16) {
		v4lc_yuvlayout_deinterleave_c(uv, a, b, n);
		return;
	}
	for (;;) {
		for (; i + 16 <= n; i += 16) {
			uint8x16x2_t p = vld2q_u8(uv + 2 * i);

			vst1q_u8(a + i, p.val[0]);
			vst1q_u8(b + i, p.val[1]);
		}
		if (i == n)
			return;
		i = n - 16;
	}
}

static void deinterleave_avg_neon(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b, int n)
{
	int i = 0;

	if (n < 16) {
		v4lc_yuvlayout_deinterleave_avg_c(uv0, uv1, a, b, n);
		return;
	}
	for (;;) {
		for (; i + 16 <= n; i += 16) {
			uint8x16x2_t p = vld2q_u8(uv0 + 2 * i);
			uint8x16x2_t q = vld2q_u8(uv1 + 2 * i);

			vst1q_u8(a + i, vrhaddq_u8(p.val[0], q.val[0]));
			vst1q_u8(b + i, vrhaddq_u8(p.val[1], q.val[1]));
		}
		if (i == n)
			return;
		i = n - 16;
	}
}

static void avg_neon(const uint8_t *p0, const uint8_t *p1, uint8_t *dst, int n)
{
	int i = 0;

	if (n < 16) {
		v4lc_yuvlayout_avg_c(p0, p1, dst, n);
		return;
	}
	for (;;) {
		for (; i + 16 <= n; i += 16)
			vst1q_u8(dst + i,
				 vrhaddq_u8(vld1q_u8(p0 + i), vld1q_u8(p1 + i)));
		if (i == n)
			return;
		i = n - 16;
	}
}

void v4lc_yuvlayout_init_neon(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = deinterleave_neon;
	dsp->deinterleave_avg = deinterleave_avg_neon;
	dsp->avg = avg_neon;
}
