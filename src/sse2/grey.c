/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 luma-only rows, 16 pixels a step; the row loops come from
 * src/simd/grey_rows.h.
 */
#include <emmintrin.h>

#include "scalar/grey.h"

/* Four pixels as dwords with a zero top byte to 12 bytes (see rgbpack). */
static inline __m128i pack12(__m128i v)
{
	const __m128i lo32 = _mm_set_epi32(0, -1, 0, -1);
	const __m128i lo6 = _mm_set_epi32(0, 0, 0xffff, -1);
	__m128i q = _mm_or_si128(_mm_and_si128(v, lo32),
				 _mm_srli_epi64(_mm_andnot_si128(lo32, v), 8));

	return _mm_or_si128(_mm_and_si128(q, lo6),
			    _mm_andnot_si128(lo6, _mm_srli_si128(q, 2)));
}

/* 16 pixels to 48 bytes: dwords g | g << 8 | g << 16, packed. */
static inline void rgb24_step(const uint8_t *src, uint8_t *o)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i g = _mm_loadu_si128((const __m128i *)src);
	__m128i gg_lo = _mm_unpacklo_epi8(g, g),
		gg_hi = _mm_unpackhi_epi8(g, g);
	__m128i g0_lo = _mm_unpacklo_epi8(g, zero),
		g0_hi = _mm_unpackhi_epi8(g, zero);
	__m128i a = pack12(_mm_unpacklo_epi16(gg_lo, g0_lo));
	__m128i b = pack12(_mm_unpackhi_epi16(gg_lo, g0_lo));
	__m128i c = pack12(_mm_unpacklo_epi16(gg_hi, g0_hi));
	__m128i d = pack12(_mm_unpackhi_epi16(gg_hi, g0_hi));

	_mm_storeu_si128((__m128i *)o, _mm_or_si128(a, _mm_slli_si128(b, 12)));
	_mm_storeu_si128((__m128i *)(o + 16),
			 _mm_or_si128(_mm_srli_si128(b, 4),
				      _mm_slli_si128(c, 8)));
	_mm_storeu_si128((__m128i *)(o + 32),
			 _mm_or_si128(_mm_srli_si128(c, 8),
				      _mm_slli_si128(d, 4)));
}

static inline __m128i bswap16(__m128i v)
{
	return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}

static inline void grey16_step(const uint8_t *src, uint8_t *dst, int shift,
			       int be)
{
	const __m128i low = _mm_set1_epi16(0xff);
	const __m128i cnt = _mm_cvtsi32_si128(shift);
	__m128i a = _mm_loadu_si128((const __m128i *)src);
	__m128i b = _mm_loadu_si128((const __m128i *)(src + 16));

	if (be) {
		a = bswap16(a);
		b = bswap16(b);
	}
	a = _mm_and_si128(_mm_srl_epi16(a, cnt), low);
	b = _mm_and_si128(_mm_srl_epi16(b, cnt), low);
	_mm_storeu_si128((__m128i *)dst, _mm_packus_epi16(a, b));
}

/*
 * Y10BPACK, 8 pixels (two 5-byte groups) per vector: with w_k the
 * big-endian word of bytes k, k+1 of a group, pixel k is bits 15-2k..8-2k
 * of w_k, i.e. (w_k << 2k) >> 8 in a 16-bit lane. Even words come from
 * the groups loaded at byte 0, odd ones from the groups loaded at byte 1.
 */
static inline __m128i y10b_8(const uint8_t *s)
{
	const __m128i mul = _mm_set_epi16(64, 16, 4, 1, 64, 16, 4, 1);
	__m128i e =
		_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)s),
				   _mm_loadl_epi64((const __m128i *)(s + 5)));
	__m128i o =
		_mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(s + 1)),
				   _mm_loadl_epi64((const __m128i *)(s + 6)));
	__m128i w;

	e = _mm_shuffle_epi32(bswap16(e), 0x88); /* w0 w2 | w0 w2 (next) */
	o = _mm_shuffle_epi32(bswap16(o), 0x88); /* w1 w3 | w1 w3 (next) */
	w = _mm_unpacklo_epi16(e, o);
	return _mm_srli_epi16(_mm_mullo_epi16(w, mul), 8);
}

static void y10bpack_sse2(const uint8_t *src, uint8_t *dst, int width)
{
	const int nbytes = (int)(((int64_t)width * 10 + 7) / 8);
	int x = 0, i = 0;

	/* 16 pixels use 20 bytes; the last 8-byte load reads bytes 16..23 + 6. */
	for (; x + 16 <= width && i + 29 <= nbytes; x += 16, i += 20) {
		__m128i a = y10b_8(src + i), b = y10b_8(src + i + 10);

		_mm_storeu_si128((__m128i *)(dst + x), _mm_packus_epi16(a, b));
	}
	if (x < width)
		v4lc_grey_y10bpack_c(src + i, dst + x, width - x);
}

#define GREY_STEP 16

#include "simd/grey_rows.h"

GREY_TO_RGB24(to_rgb24_sse2)
GREY_16(le16_sse2, 0, v4lc_grey_le16_c)
GREY_16(be16_sse2, 1, v4lc_grey_be16_c)

void v4lc_grey_init_sse2(struct v4lc_grey_dsp *dsp)
{
	dsp->to_rgb24 = to_rgb24_sse2;
	dsp->le16 = le16_sse2;
	dsp->be16 = be16_sse2;
	dsp->y10bpack = y10bpack_sse2;
}
