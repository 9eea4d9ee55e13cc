/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, AVX2 tier: only the 24-bit mirror, where a byte shuffle
 * pays (the SSE2 kernels are near memory speed for the rest).
 *
 * 16 pixels (48 bytes) per step: output byte j of the block is source byte
 * 45 - j + 2 (j mod 3). Each 16-byte output vector draws on 18 consecutive
 * source bytes, so two loads two bytes apart and two pshufb (zeroing the
 * bytes the other one supplies) build it; all loads stay inside the block.
 * The last block of a row overlaps the previous one; rows under 16 pixels
 * go to the scalar kernel.
 */
#include <immintrin.h>
#include <stddef.h>

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_flip_mirror24_c;

#define Z -128
/* per output vector k: load offset, shuffle of load A, of load A + 2 */
static const int8_t shuf[3][2][16] __attribute__((aligned(16))) = {
	{ { 15, Z, Z, 12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0 },
	  { Z, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z } },
	{ { Z, Z, 12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1 },
	  { 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z } },
	{ { Z, 12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1, 2 },
	  { 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z } },
};
#undef Z
static const int load_at[3] = { 30, 15, 0 };

static inline void mirror24_block(const uint8_t *s, uint8_t *d,
				  const __m128i m[3][2])
{
	for (int k = 0; k < 3; k++) {
		const uint8_t *p = s + load_at[k];
		__m128i a = _mm_loadu_si128((const __m128i *)p);
		__m128i b = _mm_loadu_si128((const __m128i *)(p + 2));

		_mm_storeu_si128((__m128i *)(d + 16 * k),
				 _mm_or_si128(_mm_shuffle_epi8(a, m[k][0]),
					      _mm_shuffle_epi8(b, m[k][1])));
	}
}

static void mirror24_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	__m128i m[3][2];
	int x = 0;

	if (width < 16) {
		v4lc_flip_mirror24_c(src, dst, width);
		return;
	}
	for (int k = 0; k < 3; k++)
		for (int h = 0; h < 2; h++)
			m[k][h] = _mm_load_si128((const __m128i *)shuf[k][h]);
	for (; x + 16 <= width; x += 16)
		mirror24_block(src + 3 * (ptrdiff_t)(width - 16 - x),
			       dst + 3 * (ptrdiff_t)x, m);
	if (x < width)
		mirror24_block(src, dst + 3 * (ptrdiff_t)(width - 16), m);
}

void v4lc_flip_init_avx2(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror24 = mirror24_avx2;
}
