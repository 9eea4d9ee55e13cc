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
