/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 yuv420 kernels, bit-exact with pixel.h, 32 pixels per step
 * (src/x86/yuv420_tmpl.h, the rows from src/simd/yuv420_rows.h). Every
 * step stays inside a 128-bit lane: lane 0 holds pixels 0..15, lane 1
 * pixels 16..31 (planar chroma is widened with vpmovzxbw, which keeps that
 * order). Three vpshufb per output register gather the 48 bytes of a
 * lane's 16 pixels from the packed channels; vperm2i128 then joins the
 * lanes into 96 contiguous bytes, written exactly.
 */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"

static inline void luma_q7(__m256i y, __m256i *ye, __m256i *yo)
{
	*ye = _mm256_slli_epi16(_mm256_and_si256(y, _mm256_set1_epi16(0xff)),
				7);
	*yo = _mm256_slli_epi16(_mm256_srli_epi16(y, 8), 7);
}

/* 16 chroma bytes as C << 8 in 16-bit lanes. */
static inline __m256i chroma_q8(const uint8_t *p)
{
	return _mm256_slli_epi16(_mm256_cvtepu8_epi16(
					 _mm_loadu_si128((const __m128i *)p)),
				 8);
}

#define Z (-128)
/* gather[src][k]: bytes of p[src] that go to output bytes 16k..16k+15 */
static const int8_t gather[3][3][16] __attribute__((aligned(16))) = {
	{
		/* p[0] */
		{ 0, Z, 8, Z, Z, Z, 1, Z, 9, Z, Z, Z, 2, Z, 10, Z },
		{ Z, Z, 3, Z, 11, Z, Z, Z, 4, Z, 12, Z, Z, Z, 5, Z },
		{ 13, Z, Z, Z, 6, Z, 14, Z, Z, Z, 7, Z, 15, Z, Z, Z },
	},
	{
		/* p[1] */
		{ Z, 0, Z, 8, Z, Z, Z, 1, Z, 9, Z, Z, Z, 2, Z, 10 },
		{ Z, Z, Z, 3, Z, 11, Z, Z, Z, 4, Z, 12, Z, Z, Z, 5 },
		{ Z, 13, Z, Z, Z, 6, Z, 14, Z, Z, Z, 7, Z, 15, Z, Z },
	},
	{
		/* p[2] */
		{ Z, Z, Z, Z, 0, 8, Z, Z, Z, Z, 1, 9, Z, Z, Z, Z },
		{ 2, 10, Z, Z, Z, Z, 3, 11, Z, Z, Z, Z, 4, 12, Z, Z },
		{ Z, Z, 5, 13, Z, Z, Z, Z, 6, 14, Z, Z, Z, Z, 7, 15 },
	},
};
#undef Z

static inline __m256i gather_mask(int src, int k)
{
	return _mm256_broadcastsi128_si256(
		_mm_load_si128((const __m128i *)gather[src][k]));
}

/* Output bytes 16 k .. 16 k + 15 of each lane's 48. */
static inline __m256i gather3(const __m256i p[3], int k)
{
	return _mm256_or_si256(
		_mm256_or_si256(_mm256_shuffle_epi8(p[0], gather_mask(0, k)),
				_mm256_shuffle_epi8(p[1], gather_mask(1, k))),
		_mm256_shuffle_epi8(p[2], gather_mask(2, k)));
}

static inline void store_rgb(const __m256i p[3], uint8_t *dst, int last)
{
	__m256i o0 = gather3(p, 0), o1 = gather3(p, 1), o2 = gather3(p, 2);

	(void)last;
	_mm256_storeu_si256((__m256i *)dst,
			    _mm256_permute2x128_si256(o0, o1, 0x20));
	_mm256_storeu_si256((__m256i *)(dst + 32),
			    _mm256_permute2x128_si256(o2, o0, 0x30));
	_mm256_storeu_si256((__m256i *)(dst + 64),
			    _mm256_permute2x128_si256(o1, o2, 0x31));
}

#include "x86/yuv420_tmpl.h"
