/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* RGB24/BGR24 -> YUV420 with SSE2, 16 pixels per step: src/x86/rgb2yuv_tmpl.h. */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"

static inline void load3(const uint8_t *s, __m128i v[3])
{
	for (int i = 0; i < 3; i++)
		v[i] = _mm_loadu_si128((const __m128i *)(s + 16 * i));
}

static inline void store_uv(__m128i uv, uint8_t *u, uint8_t *v)
{
	_mm_storel_epi64((__m128i *)u, uv);
	_mm_storel_epi64((__m128i *)v, _mm_srli_si128(uv, 8));
}

#include "x86/rgb2yuv_tmpl.h"

RGB2YUV_TO_YUV420(rgb24_to_yuv420_sse2, 0)
RGB2YUV_TO_YUV420(bgr24_to_yuv420_sse2, 1)

void v4lc_rgb2yuv_init_sse2(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = rgb24_to_yuv420_sse2;
	dsp->to_yuv420[V4LC_BGR24] = bgr24_to_yuv420_sse2;
}
