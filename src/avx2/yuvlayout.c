/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 chroma reshaping, bit-exact with src/scalar/yuvlayout.c, 32 samples
 * a step: the SSE2 scheme (even bytes by masking, odd bytes by a 16-bit
 * shift, vpackuswb; vpavgb is exactly (a + b + 1) >> 1) on 256-bit
 * vectors, with one vpermq putting the in-lane packs in order. The rows
 * come from src/simd/yuvlayout_rows.h.
 */
#include <immintrin.h>

#include "dispatch/dsp.h"

static inline __m256i ld(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

/* 64 interleaved bytes (lo: 0..31, hi: 32..63) to 32 even and 32 odd. */
static inline void split32(__m256i lo, __m256i hi, uint8_t *a, uint8_t *b)
{
	const __m256i even = _mm256_set1_epi16(0x00ff);
	__m256i e = _mm256_packus_epi16(_mm256_and_si256(lo, even),
					_mm256_and_si256(hi, even));
	__m256i o = _mm256_packus_epi16(_mm256_srli_epi16(lo, 8),
					_mm256_srli_epi16(hi, 8));

	/* lanes hold lo.0 hi.0 | lo.1 hi.1: qwords 0 2 1 3 in order */
	_mm256_storeu_si256((__m256i *)a, _mm256_permute4x64_epi64(e, 0xd8));
	_mm256_storeu_si256((__m256i *)b, _mm256_permute4x64_epi64(o, 0xd8));
}

static inline void split_step(const uint8_t *uv, uint8_t *a, uint8_t *b)
{
	split32(ld(uv), ld(uv + 32), a, b);
}

static inline void split_avg_step(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b)
{
	split32(_mm256_avg_epu8(ld(uv0), ld(uv1)),
		_mm256_avg_epu8(ld(uv0 + 32), ld(uv1 + 32)), a, b);
}

static inline void avg_step(const uint8_t *p0, const uint8_t *p1,
			    uint8_t *dst)
{
	_mm256_storeu_si256((__m256i *)dst, _mm256_avg_epu8(ld(p0), ld(p1)));
}

#define YUVLAYOUT_STEP 32

#include "simd/yuvlayout_rows.h"
