/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 chroma reshaping: even bytes by masking, odd bytes by a 16-bit
 * shift, both narrowed with packuswb; pavgb is exactly (a + b + 1) >> 1.
 * Rows of 16 samples or more end with one overlapping vector step (every
 * output depends only on its own inputs, so rewriting is harmless);
 * shorter rows go to the scalar kernels.
 */
#include <emmintrin.h>

#include "scalar/yuvlayout.h"

static inline void split16(__m128i lo, __m128i hi, uint8_t *a, uint8_t *b)
{
	const __m128i even = _mm_set1_epi16(0x00ff);

	_mm_storeu_si128((__m128i *)a,
			 _mm_packus_epi16(_mm_and_si128(lo, even),
					  _mm_and_si128(hi, even)));
	_mm_storeu_si128((__m128i *)b,
			 _mm_packus_epi16(_mm_srli_epi16(lo, 8),
					  _mm_srli_epi16(hi, 8)));
}

static void deinterleave_sse2(const uint8_t *uv, uint8_t *a, uint8_t *b,
			      int n)
{
	int i = 0;

	if (n < 16) {
		v4lc_yuvlayout_deinterleave_c(uv, a, b, n);
		return;
	}
	for (;;) {
		for (; i + 16 <= n; i += 16)
			split16(_mm_loadu_si128((const __m128i *)(uv + 2 * i)),
				_mm_loadu_si128((const __m128i *)(uv + 2 * i + 16)),
				a + i, b + i);
		if (i == n)
			return;
		i = n - 16;
	}
}

static void deinterleave_avg_sse2(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b, int n)
{
	int i = 0;

	if (n < 16) {
		v4lc_yuvlayout_deinterleave_avg_c(uv0, uv1, a, b, n);
		return;
	}
	for (;;) {
		for (; i + 16 <= n; i += 16) {
			__m128i lo = _mm_avg_epu8(
				_mm_loadu_si128((const __m128i *)(uv0 + 2 * i)),
				_mm_loadu_si128((const __m128i *)(uv1 + 2 * i)));
			__m128i hi = _mm_avg_epu8(
				_mm_loadu_si128((const __m128i *)(uv0 + 2 * i + 16)),
				_mm_loadu_si128((const __m128i *)(uv1 + 2 * i + 16)));

			split16(lo, hi, a + i, b + i);
		}
		if (i == n)
			return;
		i = n - 16;
	}
}

static void avg_sse2(const uint8_t *p0, const uint8_t *p1, uint8_t *dst, int n)
{
	int i = 0;

	if (n < 16) {
		v4lc_yuvlayout_avg_c(p0, p1, dst, n);
		return;
	}
	for (;;) {
		for (; i + 16 <= n; i += 16)
			_mm_storeu_si128(
				(__m128i *)(dst + i),
				_mm_avg_epu8(_mm_loadu_si128((const __m128i *)(p0 + i)),
					     _mm_loadu_si128((const __m128i *)(p1 + i))));
		if (i == n)
			return;
		i = n - 16;
	}
}

void v4lc_yuvlayout_init_sse2(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = deinterleave_sse2;
	dsp->deinterleave_avg = deinterleave_avg_sse2;
	dsp->avg = avg_sse2;
}
