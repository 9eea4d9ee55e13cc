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
