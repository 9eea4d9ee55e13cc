/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSSE3 24-bit R<->B swap, bit-exact with src/scalar/rgb.c: five pixels
 * (15 bytes) per 16-byte vector. A load at a pixel boundary holds five
 * pixels and one byte of the sixth; one pshufb swaps the five, and the
 * 16-byte store's junk last byte is overwritten by the next store (at
 * +15). One load, one shuffle and one store per 15 bytes: SSE2's masks
 * need three loads and five logic operations per 16, AVX2's two loads and
 * two shuffles. The store that ends the row is exact: its first byte (the
 * last channel of a pixel whose other bytes lie before it) comes from a
 * second load two bytes earlier. Rows under 6 pixels are scalar.
 */
#include <tmmintrin.h>

#include "scalar/rgb.h"

#define Z (-128)
/* Output byte j of a chunk at a pixel boundary: input byte j + 2 - 2 c. */
static const int8_t swap5[16] __attribute__((aligned(16))) = {
	2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9, 14, 13, 12, Z,
};
/* The row's last 16 bytes start at channel 2: byte 0 from 2 bytes before. */
static const int8_t tail_hi[16] __attribute__((aligned(16))) = {
	Z, 3, 2, 1, 6, 5, 4, 9, 8, 7, 12, 11, 10, 15, 14, 13,
};
static const int8_t tail_lo[16] __attribute__((aligned(16))) = {
	0, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z,
};
#undef Z

static inline __m128i loadu(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void storeu(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

static inline __m128i mask(const int8_t m[16])
{
	return _mm_load_si128((const __m128i *)m);
}

static void swap_rb24_ssse3(const uint8_t *src, uint8_t *dst, int width)
{
	const int n = 3 * width;
	const __m128i m = mask(swap5);
	int i = 0;

	if (width < 6) {
		v4lc_rgb_swap_rb24_c(src, dst, width);
		return;
	}
	for (; i + 60 + 1 <= n; i += 60) {
		__m128i a = loadu(src + i), b = loadu(src + i + 15);
		__m128i c = loadu(src + i + 30), d = loadu(src + i + 45);

		storeu(dst + i, _mm_shuffle_epi8(a, m));
		storeu(dst + i + 15, _mm_shuffle_epi8(b, m));
		storeu(dst + i + 30, _mm_shuffle_epi8(c, m));
		storeu(dst + i + 45, _mm_shuffle_epi8(d, m));
	}
	for (; i + 16 <= n; i += 15)
		storeu(dst + i, _mm_shuffle_epi8(loadu(src + i), m));
	if (i < n)
		storeu(dst + n - 16,
		       _mm_or_si128(_mm_shuffle_epi8(loadu(src + n - 16),
						     mask(tail_hi)),
				    _mm_shuffle_epi8(loadu(src + n - 18),
						     mask(tail_lo))));
}

void v4lc_rgb_init_ssse3(struct v4lc_rgb_dsp *dsp)
{
	dsp->swap_rb24 = swap_rb24_ssse3;
}
