/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <emmintrin.h>

#include "scalar/rgb.h"

/*
 * Without a byte shuffle, output byte i is input byte i, i-2 or i+2
 * depending on i mod 3; two unaligned loads offset by two bytes bring both
 * neighbours. A 48-byte block (16 pixels) holds each 16-byte phase once:
 * masks[p] = { keep (G), take from i-2 (R moving right), take from i+2 }.
 */
static const uint8_t masks[3][3][16] __attribute__((aligned(16))) = {
	{ { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 },
	  { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 },
	  { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 } },
	{ { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 },
	  { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 },
	  { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 } },
	{ { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 },
	  { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 },
	  { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 } },
};

static void swap_rb24_sse2(const uint8_t *src, uint8_t *dst, int width)
{
	const int n = width * 3;
	int i;

	/* Start at pixel 1 so the load at i-2 stays inside the row. */
	for (i = 3; i + 48 + 2 <= n; i += 48) {
		for (int p = 0; p < 3; p++) {
			const uint8_t *s = src + i + 16 * p;
			const __m128i *m = (const __m128i *)masks[p];
			__m128i mid = _mm_loadu_si128((const __m128i *)s);
			__m128i lft = _mm_loadu_si128((const __m128i *)(s - 2));
			__m128i rgt = _mm_loadu_si128((const __m128i *)(s + 2));
			__m128i out = _mm_or_si128(
				_mm_and_si128(mid, _mm_load_si128(&m[0])),
				_mm_or_si128(_mm_and_si128(lft, _mm_load_si128(
									&m[1])),
					     _mm_and_si128(rgt,
							   _mm_load_si128(
								   &m[2]))));

			_mm_storeu_si128((__m128i *)(dst + i + 16 * p), out);
		}
	}
	v4lc_rgb_swap_rb24_c(src, dst, width < 1 ? width : 1);
	if (i < n)
		v4lc_rgb_swap_rb24_c(src + i, dst + i, width - i / 3);
}

void v4lc_rgb_init_sse2(struct v4lc_rgb_dsp *dsp)
{
	dsp->swap_rb24 = swap_rb24_sse2;
}
