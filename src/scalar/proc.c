/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc kernels, the specification (see dispatch/dsp_proc.h). */
#include "dispatch/dsp.h"

void v4lc_proc_sum4_c(const uint8_t *src, int n, uint32_t sum[4])
{
	uint32_t s[4] = { 0, 0, 0, 0 };
	int i = 0;

	for (; i + 4 <= n; i += 4) {
		s[0] += src[i];
		s[1] += src[i + 1];
		s[2] += src[i + 2];
		s[3] += src[i + 3];
	}
	for (; i < n; i++)
		s[i & 3] += src[i];
	for (int k = 0; k < 4; k++)
		sum[k] = s[k];
}

void v4lc_proc_sum3_c(const uint8_t *src, int width, uint32_t sum[3])
{
	uint32_t s0 = 0, s1 = 0, s2 = 0;

	for (int j = 0; j < width; j++, src += 3) {
		s0 += src[0];
		s1 += src[1];
		s2 += src[2];
	}
	sum[0] = s0;
	sum[1] = s1;
	sum[2] = s2;
}

void v4lc_proc_lut4_c(const uint8_t *src, uint8_t *dst, int n,
		      const uint8_t lut[4][256])
{
	int i = 0;

	for (; i + 4 <= n; i += 4) {
		uint8_t a = lut[0][src[i]], b = lut[1][src[i + 1]];
		uint8_t c = lut[2][src[i + 2]], d = lut[3][src[i + 3]];

		dst[i] = a;
		dst[i + 1] = b;
		dst[i + 2] = c;
		dst[i + 3] = d;
	}
	for (; i < n; i++)
		dst[i] = lut[i & 3][src[i]];
}

void v4lc_proc_lut3_c(const uint8_t *src, uint8_t *dst, int width,
		      const uint8_t lut[3][256])
{
	for (int j = 0; j < width; j++, src += 3, dst += 3) {
		uint8_t a = lut[0][src[0]], b = lut[1][src[1]];
		uint8_t c = lut[2][src[2]];

		dst[0] = a;
		dst[1] = b;
		dst[2] = c;
	}
}

void v4lc_proc_init_c(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = v4lc_proc_sum4_c;
	dsp->sum3 = v4lc_proc_sum3_c;
	dsp->lut4 = v4lc_proc_lut4_c;
	dsp->lut3 = v4lc_proc_lut3_c;
}
