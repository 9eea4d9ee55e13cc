/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc statistics with SSE2: sum4 by 16-bit lane sums of even and odd
 * bytes; sum3 by psadbw against zero (eight bytes at once) after masking
 * one phase of the pattern (i % 3). Lookup tables stay scalar (no byte
 * shuffle, no gather in SSE2).
 */
#include <emmintrin.h>

#include "scalar/proc.h"

static uint32_t hsum64(__m128i v)
{
	return (uint32_t)_mm_cvtsi128_si32(
		_mm_add_epi64(v, _mm_unpackhi_epi64(v, v)));
}

static uint32_t hsum32(__m128i v)
{
	v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
	v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
	return (uint32_t)_mm_cvtsi128_si32(v);
}

/*
 * Even and odd bytes widened to 16-bit lanes and summed there (at most 128
 * vectors: 128 x 255 fits); then the low and high halves of each 32-bit
 * lane are phases 0 and 2 (even bytes) or 1 and 3 (odd bytes).
 */
static void sum4_sse2(const uint8_t *src, int n, uint32_t sum[4])
{
	const __m128i lo8 = _mm_set1_epi16(0x00ff);
	const __m128i lo16 = _mm_set1_epi32(0x0000ffff);
	__m128i acc[4] = { _mm_setzero_si128(), _mm_setzero_si128(),
			   _mm_setzero_si128(), _mm_setzero_si128() };
	uint32_t tail[4];
	int i = 0;

	while (i + 16 <= n) {
		__m128i ev = _mm_setzero_si128(), od = _mm_setzero_si128();

		for (int b = 0; b < 128 && i + 16 <= n; b++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(src + i));

			ev = _mm_add_epi16(ev, _mm_and_si128(v, lo8));
			od = _mm_add_epi16(od, _mm_srli_epi16(v, 8));
		}
		acc[0] = _mm_add_epi32(acc[0], _mm_and_si128(ev, lo16));
		acc[2] = _mm_add_epi32(acc[2], _mm_srli_epi32(ev, 16));
		acc[1] = _mm_add_epi32(acc[1], _mm_and_si128(od, lo16));
		acc[3] = _mm_add_epi32(acc[3], _mm_srli_epi32(od, 16));
	}
	v4lc_proc_sum4_c(src + i, n - i, tail);
	/* i is a multiple of 4: the tail's phases line up */
	for (int k = 0; k < 4; k++)
		sum[k] = hsum32(acc[k]) + tail[k];
}

/* Byte b of the p-th vector of a 48-byte block is channel (16p + b) mod 3. */
static const uint8_t masks3[3][3][16] __attribute__((aligned(16))) = {
	{ { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 },
	  { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 },
	  { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 } },
	{ { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 },
	  { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 },
	  { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 } },
	{ { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 },
	  { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 },
	  { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 } },
};

static void sum3_sse2(const uint8_t *src, int width, uint32_t sum[3])
{
	const __m128i zero = _mm_setzero_si128();
	__m128i acc[3] = { zero, zero, zero };
	const int n = width * 3;
	uint32_t tail[3];
	int i = 0;

	for (; i + 48 <= n; i += 48) {
		for (int p = 0; p < 3; p++) {
			__m128i v = _mm_loadu_si128(
				(const __m128i *)(src + i + 16 * p));

			for (int c = 0; c < 3; c++)
				acc[c] = _mm_add_epi64(acc[c], _mm_sad_epu8(
					_mm_and_si128(v, _mm_load_si128(
						(const __m128i *)masks3[p][c])),
					zero));
		}
	}
	v4lc_proc_sum3_c(src + i, width - i / 3, tail);
	for (int c = 0; c < 3; c++)
		sum[c] = hsum64(acc[c]) + tail[c];
}

void v4lc_proc_init_sse2(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = sum4_sse2;
	dsp->sum3 = sum3_sse2;
}
