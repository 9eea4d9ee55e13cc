/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SSE2 and SSSE3 yuv422 step to RGB, 16 pixels (see src/sse2/yuv422.c).
 * The entry file includes src/x86/vec.h (VEC_BITS 128), src/x86/yuv2rgb.h
 * and dispatch/dsp.h, and defines first:
 *   luma_q7(y, &ye, &yo): 16 luma bytes to even and odd pixels as Y << 7;
 *   store_rgb(p, dst, last): yuv2rgb_pairs' channels to 48 bytes at dst
 *     (and, unless last, perhaps 2 bytes more).
 * Then it defines its YUV 4:2:0 step, yuv420_step (32 pixels, each source
 * row prefetched YUV422_PF bytes ahead), and includes
 * src/simd/yuv422_rows.h for the rows.
 */
#include "x86/prefetch.h"

#define YUV422_STEP 16

/* The even (or, if odd, the odd) bytes of 32 bytes, in order. */
static inline __m128i half_bytes(__m128i a, __m128i b, int odd)
{
	const __m128i lo8 = _mm_set1_epi16(0x00ff);

	if (odd)
		return _mm_packus_epi16(_mm_srli_epi16(a, 8),
					_mm_srli_epi16(b, 8));
	return _mm_packus_epi16(_mm_and_si128(a, lo8), _mm_and_si128(b, lo8));
}

static inline __attribute__((always_inline)) void
rgb_step(const uint8_t *src, uint8_t *dst, const struct coefs *c, int order,
	 int bgr, int last)
{
	const int yodd = v4lc_yuv422_luma_odd(order);
	const int vfirst = v4lc_yuv422_v_first(order);
	__m128i a = _mm_loadu_si128((const __m128i *)src);
	__m128i b = _mm_loadu_si128((const __m128i *)(src + 16));
	__m128i ch = _mm_xor_si128(half_bytes(a, b, !yodd),
				   _mm_set1_epi8((char)0x80));
	__m128i c1 = _mm_slli_epi16(ch, 8);
	__m128i c2 = _mm_andnot_si128(_mm_set1_epi16(0x00ff), ch);
	__m128i ye, yo, p[3];

	luma_q7(half_bytes(a, b, yodd), &ye, &yo);
	yuv2rgb_pairs(ye, yo, vfirst ? c2 : c1, vfirst ? c1 : c2, c, bgr, p);
	store_rgb(p, dst, last);
}
