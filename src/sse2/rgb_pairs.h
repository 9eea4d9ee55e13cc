/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SSE2 ends of the YUV -> RGB kernels (src/x86/yuv2rgb.h) that work on
 * pixel pairs: luma split into even and odd pixels, and the 48 output
 * bytes of 16 pixels written without a byte shuffle.
 */
#ifndef V4LC_SSE2_RGB_PAIRS_H
#define V4LC_SSE2_RGB_PAIRS_H

#include <emmintrin.h>

/*
 * 16 luma bytes in pixel order to even and odd pixels as Y << 7, by
 * multiplication (pmullw by 128; pmulhuw of Y << 8 by 0x8000): the
 * multiplier ports are idle in these kernels and the shift/shuffle ones
 * busy (bench/results/choices.md).
 */
static inline void luma_q7(__m128i y, __m128i *ye, __m128i *yo)
{
	const __m128i lo8 = _mm_set1_epi16(0x00ff);

	*ye = _mm_mullo_epi16(_mm_and_si128(y, lo8), _mm_set1_epi16(128));
	*yo = _mm_mulhi_epu16(_mm_andnot_si128(lo8, y),
			      _mm_set1_epi16((short)0x8000));
}

/* Two pairs' six bytes from the low bytes of each quadword of q. */
static inline void store_2pairs(uint8_t *d, __m128i q)
{
	_mm_storel_epi64((__m128i *)d, q);
	_mm_storeh_pi((__m64 *)(void *)(d + 6), _mm_castsi128_ps(q));
}

/*
 * 16 pixels' channels packed as yuv2rgb_pairs leaves them to 48 bytes at
 * dst. Per pair, three 16-bit words (first0 G0, last0 first1, G1 last1)
 * are interleaved with punpck into one quadword with a spare word (w2
 * again), and each quadword is an 8-byte store the next one partly
 * overwrites. The last store writes two bytes past the 48, unless `last`:
 * then the last pair goes as bytes 6..13 of its quadword pair (the
 * previous pair's G1 last1 word, then its own six bytes). (Compacting the
 * lanes to 48 contiguous bytes with 64-bit shifts, ORs and three 16-byte
 * stores was slower: bench/results/choices.md.)
 */
static inline void store_rgb48(const __m128i p[3], uint8_t *dst, int last)
{
	__m128i w0 = _mm_unpacklo_epi8(p[0], p[1]);
	__m128i w1 = _mm_unpackhi_epi8(p[0], p[1]);
	__m128i w2 = _mm_unpacklo_epi8(p[2], _mm_srli_si128(p[2], 8));
	__m128i lo = _mm_unpacklo_epi16(w0, w1);
	__m128i hi = _mm_unpackhi_epi16(w0, w1);
	__m128i z0 = _mm_unpacklo_epi16(w2, w2);
	__m128i z1 = _mm_unpackhi_epi16(w2, w2);
	__m128i q = _mm_unpackhi_epi32(hi, z1);

	store_2pairs(dst, _mm_unpacklo_epi32(lo, z0));
	store_2pairs(dst + 12, _mm_unpackhi_epi32(lo, z0));
	store_2pairs(dst + 24, _mm_unpacklo_epi32(hi, z1));
	if (last) {
		_mm_storel_epi64((__m128i *)(dst + 36), q);
		_mm_storel_epi64((__m128i *)(dst + 40), _mm_srli_si128(q, 6));
	} else {
		store_2pairs(dst + 36, q);
	}
}

#endif
