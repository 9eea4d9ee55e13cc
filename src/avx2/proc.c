/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc statistics with AVX2: the SSE2 methods on 32-byte vectors.
 * The lookup tables stay scalar: a vpgatherdd version (tables side by side,
 * index = 256 * table + byte) was bit-exact but 20-30% slower than the
 * scalar loop on the AMD EPYC it was measured on.
 */
#include <immintrin.h>

#include "scalar/proc.h"

static uint32_t hsum64(__m256i v)
{
	__m128i s = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	return (uint32_t)_mm_cvtsi128_si32(
		_mm_add_epi64(s, _mm_unpackhi_epi64(s, s)));
}

static uint32_t hsum32(__m256i v)
{
	__m128i s = _mm_add_epi32(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
	return (uint32_t)_mm_cvtsi128_si32(s);
}

/* As the SSE2 version: 16-bit lane sums of even and odd bytes. */
static void sum4_avx2(const uint8_t *src, int n, uint32_t sum[4])
{
	const __m256i lo8 = _mm256_set1_epi16(0x00ff);
	const __m256i lo16 = _mm256_set1_epi32(0x0000ffff);
	__m256i acc[4] = { _mm256_setzero_si256(), _mm256_setzero_si256(),
			   _mm256_setzero_si256(), _mm256_setzero_si256() };
	uint32_t tail[4];
	int i = 0;

	while (i + 32 <= n) {
		__m256i ev = _mm256_setzero_si256(), od = _mm256_setzero_si256();

		for (int b = 0; b < 128 && i + 32 <= n; b++, i += 32) {
			__m256i v = _mm256_loadu_si256((const __m256i *)(src + i));

			ev = _mm256_add_epi16(ev, _mm256_and_si256(v, lo8));
			od = _mm256_add_epi16(od, _mm256_srli_epi16(v, 8));
		}
		acc[0] = _mm256_add_epi32(acc[0], _mm256_and_si256(ev, lo16));
		acc[2] = _mm256_add_epi32(acc[2], _mm256_srli_epi32(ev, 16));
		acc[1] = _mm256_add_epi32(acc[1], _mm256_and_si256(od, lo16));
		acc[3] = _mm256_add_epi32(acc[3], _mm256_srli_epi32(od, 16));
	}
	v4lc_proc_sum4_c(src + i, n - i, tail);
	for (int k = 0; k < 4; k++)
		sum[k] = hsum32(acc[k]) + tail[k];
}

/* Byte b of the p-th vector of a 96-byte block is channel (32p + b) mod 3. */
static const uint8_t masks3[3][3][32] __attribute__((aligned(32))) = {
	{ { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 },
	  { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 },
	  { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 } },
	{ { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 },
	  { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 },
	  { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 } },
	{ { 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0 },
	  { 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0 },
	  { 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255 } },
};

static void sum3_avx2(const uint8_t *src, int width, uint32_t sum[3])
{
	const __m256i zero = _mm256_setzero_si256();
	__m256i acc[3] = { zero, zero, zero };
	const int n = width * 3;
	uint32_t tail[3];
	int i = 0;

	for (; i + 96 <= n; i += 96) {
		for (int p = 0; p < 3; p++) {
			__m256i v = _mm256_loadu_si256(
				(const __m256i *)(src + i + 32 * p));

			for (int c = 0; c < 3; c++)
				acc[c] = _mm256_add_epi64(acc[c], _mm256_sad_epu8(
					_mm256_and_si256(v, _mm256_load_si256(
						(const __m256i *)masks3[p][c])),
					zero));
		}
	}
	v4lc_proc_sum3_c(src + i, width - i / 3, tail);
	for (int c = 0; c < 3; c++)
		sum[c] = hsum64(acc[c]) + tail[c];
}

void v4lc_proc_init_avx2(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = sum4_avx2;
	dsp->sum3 = sum3_avx2;
}
