/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 chroma reshaping, bit-exact with src/scalar/yuvlayout.c, 32 samples
 * a step: the SSE2 scheme (even bytes by masking, odd bytes by a 16-bit
 * shift, vpackuswb; vpavgb is exactly (a + b + 1) >> 1) on 256-bit
 * vectors, with one vpermq putting the in-lane packs in order. Rows of 32
 * samples or more end with one overlapping step (outputs depend only on
 * their own inputs, so rewriting is harmless); shorter rows go to the
 * scalar kernels.
 */
#include <immintrin.h>

#include "scalar/yuvlayout.h"

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

static void deinterleave_avx2(const uint8_t *uv, uint8_t *a, uint8_t *b,
			      int n)
{
	int i = 0;

	if (n < 32) {
		v4lc_yuvlayout_deinterleave_c(uv, a, b, n);
		return;
	}
	for (;;) {
		for (; i + 32 <= n; i += 32)
			split32(ld(uv + 2 * i), ld(uv + 2 * i + 32), a + i, b + i);
		if (i == n)
			return;
		i = n - 32;
	}
}

static void deinterleave_avg_avx2(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b, int n)
{
	int i = 0;

	if (n < 32) {
		v4lc_yuvlayout_deinterleave_avg_c(uv0, uv1, a, b, n);
		return;
	}
	for (;;) {
		for (; i + 32 <= n; i += 32)
			split32(_mm256_avg_epu8(ld(uv0 + 2 * i), ld(uv1 + 2 * i)),
				_mm256_avg_epu8(ld(uv0 + 2 * i + 32),
						ld(uv1 + 2 * i + 32)),
				a + i, b + i);
		if (i == n)
			return;
		i = n - 32;
	}
}

static void avg_avx2(const uint8_t *p0, const uint8_t *p1, uint8_t *dst, int n)
{
	int i = 0;

	if (n < 32) {
		v4lc_yuvlayout_avg_c(p0, p1, dst, n);
		return;
	}
	for (;;) {
		for (; i + 32 <= n; i += 32)
			_mm256_storeu_si256((__m256i *)(dst + i),
					    _mm256_avg_epu8(ld(p0 + i), ld(p1 + i)));
		if (i == n)
			return;
		i = n - 32;
	}
}

void v4lc_yuvlayout_init_avx2(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = deinterleave_avx2;
	dsp->deinterleave_avg = deinterleave_avg_avx2;
	dsp->avg = avg_avx2;
}
