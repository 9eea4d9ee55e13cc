/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Focus measure, SSE2: 16 pixels per step in 16-bit lanes (|L| <= 1020),
 * squares summed pairwise by pmaddwd into 32-bit lanes, which are folded
 * into 64 bits every CHUNK steps, before they could overflow.
 */
#include <emmintrin.h>

#include "scalar/focus.h"

/* Per step a 32-bit lane gains at most 2 * 2 * 1020^2: 256 steps < 2^31. */
#define CHUNK 256

static inline __m128i lap16(__m128i c, __m128i l, __m128i r, __m128i a,
			    __m128i b)
{
	return _mm_sub_epi16(_mm_slli_epi16(c, 2),
			     _mm_add_epi16(_mm_add_epi16(l, r),
					   _mm_add_epi16(a, b)));
}

static int64_t hsum32(__m128i v)
{
	int32_t t[4];

	_mm_storeu_si128((__m128i *)t, v);
	return (int64_t)t[0] + t[1] + t[2] + t[3];
}

static void laplacian_sse2(const uint8_t *above, const uint8_t *cur,
			   const uint8_t *below, int width, int64_t *sum,
			   uint64_t *sumsq)
{
	const __m128i z = _mm_setzero_si128(), one = _mm_set1_epi16(1);
	int64_t s = 0;
	uint64_t q = 0;
	int x = 1;

	/* A step covers x .. x + 15 and reads cur[x - 1 .. x + 16]. */
	while (x + 16 <= width - 1) {
		__m128i acc_s = z, acc_q = z;

		for (int n = 0; n < CHUNK && x + 16 <= width - 1;
		     n++, x += 16) {
			__m128i c = _mm_loadu_si128((const __m128i *)(cur + x));
			__m128i l =
				_mm_loadu_si128((const __m128i *)(cur + x - 1));
			__m128i r =
				_mm_loadu_si128((const __m128i *)(cur + x + 1));
			__m128i a =
				_mm_loadu_si128((const __m128i *)(above + x));
			__m128i b =
				_mm_loadu_si128((const __m128i *)(below + x));
			__m128i lo = lap16(_mm_unpacklo_epi8(c, z),
					   _mm_unpacklo_epi8(l, z),
					   _mm_unpacklo_epi8(r, z),
					   _mm_unpacklo_epi8(a, z),
					   _mm_unpacklo_epi8(b, z));
			__m128i hi = lap16(_mm_unpackhi_epi8(c, z),
					   _mm_unpackhi_epi8(l, z),
					   _mm_unpackhi_epi8(r, z),
					   _mm_unpackhi_epi8(a, z),
					   _mm_unpackhi_epi8(b, z));

			acc_q = _mm_add_epi32(acc_q, _mm_madd_epi16(lo, lo));
			acc_q = _mm_add_epi32(acc_q, _mm_madd_epi16(hi, hi));
			acc_s = _mm_add_epi32(acc_s, _mm_madd_epi16(lo, one));
			acc_s = _mm_add_epi32(acc_s, _mm_madd_epi16(hi, one));
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

void v4lc_focus_init_sse2(struct v4lc_focus_dsp *dsp)
{
	dsp->laplacian = laplacian_sse2;
}
