/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SSE2 and SSSE3 yuv422 steps, 16 pixels to RGB, 32 to YUV 4:2:0 (see
 * src/sse2/yuv422.c); the rows come from src/simd/yuv422_rows.h. The entry
 * file includes src/x86/vec.h (VEC_BITS 128), src/x86/yuv2rgb.h and
 * dispatch/dsp.h, and defines first:
 *   luma_q7(y, &ye, &yo): 16 luma bytes to even and odd pixels as Y << 7;
 *   store_rgb(p, dst, last): yuv2rgb_pairs' channels to 48 bytes at dst
 *     (and, unless last, perhaps 2 bytes more).
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

static inline __attribute__((always_inline)) void
yuv420_step(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
	    uint8_t *u, uint8_t *v, int order)
{
	const int yodd = v4lc_yuv422_luma_odd(order);
	const int vfirst = v4lc_yuv422_v_first(order);
	__m128i a[4], b[4], c01, c23;

	v_prefetch(s0 + YUV422_PF);
	v_prefetch(s1 + YUV422_PF);
	for (int i = 0; i < 4; i++) {
		a[i] = _mm_loadu_si128((const __m128i *)(s0 + 16 * i));
		b[i] = _mm_loadu_si128((const __m128i *)(s1 + 16 * i));
	}
	_mm_storeu_si128((__m128i *)y0, half_bytes(a[0], a[1], yodd));
	_mm_storeu_si128((__m128i *)(y0 + 16), half_bytes(a[2], a[3], yodd));
	_mm_storeu_si128((__m128i *)y1, half_bytes(b[0], b[1], yodd));
	_mm_storeu_si128((__m128i *)(y1 + 16), half_bytes(b[2], b[3], yodd));
	/* pavgb of whole pairs: the chroma bytes are what counts */
	c01 = half_bytes(_mm_avg_epu8(a[0], b[0]), _mm_avg_epu8(a[1], b[1]),
			 !yodd);
	c23 = half_bytes(_mm_avg_epu8(a[2], b[2]), _mm_avg_epu8(a[3], b[3]),
			 !yodd);
	_mm_storeu_si128((__m128i *)(vfirst ? v : u), half_bytes(c01, c23, 0));
	_mm_storeu_si128((__m128i *)(vfirst ? u : v), half_bytes(c01, c23, 1));
}

#include "simd/yuv422_rows.h"
