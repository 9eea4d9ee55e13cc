/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 packed 16/32-bit RGB rows to 24-bit RGB/BGR, 16 pixels a step, no
 * byte shuffle; the row loops come from src/simd/rgbpack_rows.h.
 */
#include <emmintrin.h>

#include "scalar/rgbpack.h"

/*
 * Four pixels as dwords whose top byte is zero, to 12 contiguous bytes in
 * bytes 0..11 (bytes 12..15 zero). First each qword's upper pixel moves
 * down next to the lower one (6 bytes per qword), then the upper qword's
 * 6 bytes move down by two bytes.
 */
static inline __m128i pack12(__m128i v)
{
	const __m128i lo32 = _mm_set_epi32(0, -1, 0, -1);
	const __m128i lo6 = _mm_set_epi32(0, 0, 0xffff, -1);
	__m128i q = _mm_or_si128(_mm_and_si128(v, lo32),
				 _mm_srli_epi64(_mm_andnot_si128(lo32, v), 8));

	return _mm_or_si128(_mm_and_si128(q, lo6),
			    _mm_andnot_si128(lo6, _mm_srli_si128(q, 2)));
}

/* Sixteen pixels in a..d (four dwords each, top bytes zero) to 48 bytes. */
static inline void store48(uint8_t *dst, __m128i a, __m128i b, __m128i c,
			   __m128i d)
{
	a = pack12(a);
	b = pack12(b);
	c = pack12(c);
	d = pack12(d);
	_mm_storeu_si128((__m128i *)dst,
			 _mm_or_si128(a, _mm_slli_si128(b, 12)));
	_mm_storeu_si128((__m128i *)(dst + 16),
			 _mm_or_si128(_mm_srli_si128(b, 4),
				      _mm_slli_si128(c, 8)));
	_mm_storeu_si128((__m128i *)(dst + 32),
			 _mm_or_si128(_mm_srli_si128(c, 8),
				      _mm_slli_si128(d, 4)));
}

/*
 * Four pixels in bytes 0..2 of each dword (byte 3 is ignored) to 12 bytes
 * at d, writing 14: two 8-byte stores of one qword's 6 bytes each (its
 * upper pixel moved down next to the lower one), the second 6 bytes on;
 * bytes 12 and 13 get zeros, which the next group overwrites.
 */
static inline void store12_over(uint8_t *d, __m128i v)
{
	const __m128i lo3 = _mm_set_epi32(0, 0xffffff, 0, 0xffffff);
	const __m128i mid3 =
		_mm_set_epi32(0xffff, (int)0xff000000, 0xffff, (int)0xff000000);
	__m128i q = _mm_or_si128(_mm_and_si128(v, lo3),
				 _mm_and_si128(_mm_srli_epi64(v, 8), mid3));

	_mm_storel_epi64((__m128i *)d, q);
	/* movq, not movhpd: the store is unaligned (a double* must not be) */
	_mm_storel_epi64((__m128i *)(d + 6), _mm_unpackhi_epi64(q, q));
}

/* Sixteen pixels to 48 bytes at dst, writing 2 more (see store12_over). */
static inline void store48_over(uint8_t *dst, __m128i a, __m128i b, __m128i c,
				__m128i d)
{
	store12_over(dst, a);
	store12_over(dst + 12, b);
	store12_over(dst + 24, c);
	store12_over(dst + 36, d);
}

/* Per dword: bytes 0, 1, 2 -> 2, 1, 0 (byte 3 of the input is dropped). */
static inline __m128i swap02(__m128i v)
{
	const __m128i m02 = _mm_set1_epi32(0x00ff00ff);
	const __m128i m1 = _mm_set1_epi32(0x0000ff00);
	__m128i rot = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xb1), 0xb1);

	/* rot bytes: 2 3 0 1 */
	return _mm_or_si128(_mm_and_si128(rot, m02), _mm_and_si128(v, m1));
}

static inline __m128i pick(__m128i v, int p)
{
	switch (p) {
	case V4LC_PICK012:
		return _mm_and_si128(v, _mm_set1_epi32(0x00ffffff));
	case V4LC_PICK210:
		return swap02(v);
	case V4LC_PICK123:
		return _mm_srli_epi32(v, 8);
	default:
		return swap02(_mm_srli_epi32(v, 8));
	}
}

/* 16 pixels; all but the last step of a row write 2 bytes more. */
static inline __attribute__((always_inline)) void
pick_step(const uint8_t *src, uint8_t *dst, int p, int last)
{
	const __m128i *s = (const __m128i *)src;
	__m128i a = pick(_mm_loadu_si128(s), p),
		b = pick(_mm_loadu_si128(s + 1), p);
	__m128i c = pick(_mm_loadu_si128(s + 2), p),
		d = pick(_mm_loadu_si128(s + 3), p);

	if (last)
		store48(dst, a, b, c, d);
	else
		store48_over(dst, a, b, c, d);
}

/*
 * RGB565 by multiplication (src/avx2/rgbpack.c explains the constants):
 * with m = p & 0xf81f, pmulhuw(m, 264) is R << 3 | R >> 2 and the high
 * byte of pmullw(m, 2112) is B << 3 | B >> 2; pmulhuw(p & 0x07e0, 8320)
 * is G << 2 | G >> 4. Words first | G << 8 and third, unpacked to dwords.
 */
static inline void rgb565_8(__m128i x, __m128i *lo, __m128i *hi, int swap)
{
	const __m128i m = _mm_and_si128(x, _mm_set1_epi16((short)0xf81f));
	__m128i k = _mm_set1_epi16(2112);
	__m128i r, g, b, first, third, two;

	/* opaque: the compiler would make the product shifts and an add */
	__asm__("" : "+x"(k));
	r = _mm_mulhi_epu16(m, _mm_set1_epi16(264));
	b = _mm_srli_epi16(_mm_mullo_epi16(m, k), 8);
	g = _mm_mulhi_epu16(_mm_and_si128(x, _mm_set1_epi16(0x07e0)),
			    _mm_set1_epi16(8320));
	first = swap ? b : r;
	third = swap ? r : b;
	two = _mm_or_si128(first, _mm_slli_epi16(g, 8));
	*lo = _mm_unpacklo_epi16(two, third);
	*hi = _mm_unpackhi_epi16(two, third);
}

static inline __attribute__((always_inline)) void
rgb565_step(const uint8_t *src, uint8_t *dst, int swap, int last)
{
	const __m128i *s = (const __m128i *)src;
	__m128i a, b, c, d;

	rgb565_8(_mm_loadu_si128(s), &a, &b, swap);
	rgb565_8(_mm_loadu_si128(s + 1), &c, &d, swap);
	if (last)
		store48(dst, a, b, c, d);
	else
		store48_over(dst, a, b, c, d);
}

#define RGBPACK_STEP 16

#include "simd/rgbpack_rows.h"

RGBPACK_PICK(pick012_sse2, V4LC_PICK012, v4lc_rgbpack_pick012_c)
RGBPACK_PICK(pick210_sse2, V4LC_PICK210, v4lc_rgbpack_pick210_c)
RGBPACK_PICK(pick123_sse2, V4LC_PICK123, v4lc_rgbpack_pick123_c)
RGBPACK_PICK(pick321_sse2, V4LC_PICK321, v4lc_rgbpack_pick321_c)
RGBPACK_565(rgb565_rgb_sse2, 0, v4lc_rgbpack_rgb565_rgb_c)
RGBPACK_565(rgb565_bgr_sse2, 1, v4lc_rgbpack_rgb565_bgr_c)

void v4lc_rgbpack_init_sse2(struct v4lc_rgbpack_dsp *dsp)
{
	dsp->rgb565[V4LC_RGB24] = rgb565_rgb_sse2;
	dsp->rgb565[V4LC_BGR24] = rgb565_bgr_sse2;
	dsp->rgb32[V4LC_BGRX32][V4LC_RGB24] = pick210_sse2;
	dsp->rgb32[V4LC_BGRX32][V4LC_BGR24] = pick012_sse2;
	dsp->rgb32[V4LC_XRGB32][V4LC_RGB24] = pick123_sse2;
	dsp->rgb32[V4LC_XRGB32][V4LC_BGR24] = pick321_sse2;
	dsp->rgb32[V4LC_XBGR32][V4LC_RGB24] = pick321_sse2;
	dsp->rgb32[V4LC_XBGR32][V4LC_BGR24] = pick123_sse2;
	dsp->rgb32[V4LC_RGBX32][V4LC_RGB24] = pick012_sse2;
	dsp->rgb32[V4LC_RGBX32][V4LC_BGR24] = pick210_sse2;
}
