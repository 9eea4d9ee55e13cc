/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSSE3 yuv420 kernels, bit-exact with pixel.h, 16 pixels per step: SSE2's
 * arithmetic (src/x86/yuv420_tmpl.h, src/sse2/rgb_pairs.h's luma split),
 * the 48 output bytes gathered by pshufb (src/x86/rgb_gather.h) into three
 * whole 16-byte stores instead of SSE2's punpck and eight 8-byte stores.
 */
#include <tmmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "sse2/rgb_pairs.h"
#include "x86/rgb_gather.h"

/* 8 chroma bytes as C << 8 in 16-bit lanes. */
static inline __m128i chroma_q8(const uint8_t *p)
{
	return _mm_unpacklo_epi8(_mm_setzero_si128(),
				 _mm_loadl_epi64((const __m128i *)p));
}

static inline void store_rgb(const __m128i p[3], uint8_t *dst, int last)
{
	(void)last;
	store_rgb48_pshufb(p, dst);
}

#include "x86/yuv420_tmpl.h"

YUV420_PLANAR(planar_rgb24_ssse3, 0, v4lc_yuv420_planar_rgb24_c)
YUV420_PLANAR(planar_bgr24_ssse3, 1, v4lc_yuv420_planar_bgr24_c)
YUV420_SEMI(nv12_rgb24_ssse3, 0, 0, v4lc_yuv420_nv12_rgb24_c)
YUV420_SEMI(nv12_bgr24_ssse3, 0, 1, v4lc_yuv420_nv12_bgr24_c)
YUV420_SEMI(nv21_rgb24_ssse3, 1, 0, v4lc_yuv420_nv21_rgb24_c)
YUV420_SEMI(nv21_bgr24_ssse3, 1, 1, v4lc_yuv420_nv21_bgr24_c)

void v4lc_yuv420_init_ssse3(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = planar_rgb24_ssse3;
	dsp->planar[V4LC_BGR24] = planar_bgr24_ssse3;
	dsp->nv12[V4LC_RGB24] = nv12_rgb24_ssse3;
	dsp->nv12[V4LC_BGR24] = nv12_bgr24_ssse3;
	dsp->nv21[V4LC_RGB24] = nv21_rgb24_ssse3;
	dsp->nv21[V4LC_BGR24] = nv21_bgr24_ssse3;
}
