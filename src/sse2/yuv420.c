/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 yuv420 kernels, bit-exact with pixel.h, 16 pixels per step
 * (src/x86/yuv420_tmpl.h, the rows from src/simd/yuv420_rows.h), written
 * as pixel pairs with overlapping 8-byte stores (src/sse2/rgb_pairs.h).
 */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "sse2/rgb_pairs.h"

/* 8 chroma bytes as C << 8 in 16-bit lanes. */
static inline __m128i chroma_q8(const uint8_t *p)
{
	return _mm_unpacklo_epi8(_mm_setzero_si128(),
				 _mm_loadl_epi64((const __m128i *)p));
}

static inline void store_rgb(const __m128i p[3], uint8_t *dst, int last)
{
	store_rgb48(p, dst, last);
}

#include "x86/yuv420_tmpl.h"

YUV420_PLANAR(planar_rgb24_sse2, 0, v4lc_yuv420_planar_rgb24_c)
YUV420_PLANAR(planar_bgr24_sse2, 1, v4lc_yuv420_planar_bgr24_c)
YUV420_SEMI(nv12_rgb24_sse2, 0, 0, v4lc_yuv420_nv12_rgb24_c)
YUV420_SEMI(nv12_bgr24_sse2, 0, 1, v4lc_yuv420_nv12_bgr24_c)
YUV420_SEMI(nv21_rgb24_sse2, 1, 0, v4lc_yuv420_nv21_rgb24_c)
YUV420_SEMI(nv21_bgr24_sse2, 1, 1, v4lc_yuv420_nv21_bgr24_c)

void v4lc_yuv420_init_sse2(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = planar_rgb24_sse2;
	dsp->planar[V4LC_BGR24] = planar_bgr24_sse2;
	dsp->nv12[V4LC_RGB24] = nv12_rgb24_sse2;
	dsp->nv12[V4LC_BGR24] = nv12_bgr24_sse2;
	dsp->nv21[V4LC_RGB24] = nv21_rgb24_sse2;
	dsp->nv21[V4LC_BGR24] = nv21_bgr24_sse2;
}
