/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with AVX2, 32 pixels per step: src/x86/rgb2yuv_tmpl.h
 * with each 128-bit lane holding one 48-byte group (lane 0: pixels 0..15,
 * lane 1: pixels 16..31), so the in-lane riffles need no lane crossing.
 */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"

static inline void load3(const uint8_t *s, __m256i v[3])
{
	for (int i = 0; i < 3; i++)
		v[i] = _mm256_inserti128_si256(
			_mm256_castsi128_si256(
				_mm_loadu_si128((const __m128i *)(s + 16 * i))),
			_mm_loadu_si128((const __m128i *)(s + 48 + 16 * i)), 1);
}

/* Per lane: U(8) V(8); reorder the quadwords to U(16) | V(16). */
static inline void store_uv(__m256i uv, uint8_t *u, uint8_t *v)
{
	uv = _mm256_permute4x64_epi64(uv, 0xd8);
	_mm_storeu_si128((__m128i *)u, _mm256_castsi256_si128(uv));
	_mm_storeu_si128((__m128i *)v, _mm256_extracti128_si256(uv, 1));
}

#include "x86/rgb2yuv_tmpl.h"

RGB2YUV_TO_YUV420(rgb24_to_yuv420_avx2, 0)
RGB2YUV_TO_YUV420(bgr24_to_yuv420_avx2, 1)

void v4lc_rgb2yuv_init_avx2(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = rgb24_to_yuv420_avx2;
	dsp->to_yuv420[V4LC_BGR24] = bgr24_to_yuv420_avx2;
}
