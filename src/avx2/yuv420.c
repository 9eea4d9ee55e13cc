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

#include "x86/rgb_gather.h"

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

YUV420_PLANAR(planar_rgb24_avx2, 0, v4lc_yuv420_planar_rgb24_c)
YUV420_PLANAR(planar_bgr24_avx2, 1, v4lc_yuv420_planar_bgr24_c)
YUV420_SEMI(nv12_rgb24_avx2, 0, 0, v4lc_yuv420_nv12_rgb24_c)
YUV420_SEMI(nv12_bgr24_avx2, 0, 1, v4lc_yuv420_nv12_bgr24_c)
YUV420_SEMI(nv21_rgb24_avx2, 1, 0, v4lc_yuv420_nv21_rgb24_c)
YUV420_SEMI(nv21_bgr24_avx2, 1, 1, v4lc_yuv420_nv21_bgr24_c)

void v4lc_yuv420_init_avx2(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = planar_rgb24_avx2;
	dsp->planar[V4LC_BGR24] = planar_bgr24_avx2;
	dsp->nv12[V4LC_RGB24] = nv12_rgb24_avx2;
	dsp->nv12[V4LC_BGR24] = nv12_bgr24_avx2;
	dsp->nv21[V4LC_RGB24] = nv21_rgb24_avx2;
	dsp->nv21[V4LC_BGR24] = nv21_bgr24_avx2;
}
