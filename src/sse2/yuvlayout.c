/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 chroma reshaping, 16 samples a step: even bytes by masking, odd
 * bytes by a 16-bit shift, both narrowed with packuswb; pavgb is exactly
 * (a + b + 1) >> 1. The rows come from src/simd/yuvlayout_rows.h.
 */
#include <emmintrin.h>

#include "dispatch/dsp.h"

static inline __m128i ld(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

/* 32 interleaved bytes (lo: 0..15, hi: 16..31) to 16 even and 16 odd. */
static inline void split16(__m128i lo, __m128i hi, uint8_t *a, uint8_t *b)
{
	const __m128i even = _mm_set1_epi16(0x00ff);

	_mm_storeu_si128((__m128i *)a,
			 _mm_packus_epi16(_mm_and_si128(lo, even),
					  _mm_and_si128(hi, even)));
	_mm_storeu_si128((__m128i *)b,
			 _mm_packus_epi16(_mm_srli_epi16(lo, 8),
					  _mm_srli_epi16(hi, 8)));
}

static inline void split_step(const uint8_t *uv, uint8_t *a, uint8_t *b)
{
	split16(ld(uv), ld(uv + 16), a, b);
}

static inline void split_avg_step(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b)
{
	split16(_mm_avg_epu8(ld(uv0), ld(uv1)),
		_mm_avg_epu8(ld(uv0 + 16), ld(uv1 + 16)), a, b);
}

static inline void avg_step(const uint8_t *p0, const uint8_t *p1,
			    uint8_t *dst)
{
	_mm_storeu_si128((__m128i *)dst, _mm_avg_epu8(ld(p0), ld(p1)));
}

#define YUVLAYOUT_STEP 16

#include "simd/yuvlayout_rows.h"
