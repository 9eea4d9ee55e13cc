/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 and AVX2 chroma reshaping, bit-exact with src/scalar/yuvlayout.c,
 * VEC_BYTES samples a step: even bytes by masking, odd bytes by a 16-bit
 * shift, both narrowed with packuswb (in order: v_packus_ordered); pavgb
 * is exactly (a + b + 1) >> 1. The rows come from
 * src/simd/yuvlayout_rows.h.
 */

/* 2 * VEC_BYTES interleaved bytes to VEC_BYTES even and VEC_BYTES odd. */
static inline void split(vec lo, vec hi, uint8_t *a, uint8_t *b)
{
	const vec even = V(set1_epi16)(0x00ff);

	v_store(a, v_packus_ordered(VSI(and)(lo, even), VSI(and)(hi, even)));
	v_store(b,
		v_packus_ordered(V(srli_epi16)(lo, 8), V(srli_epi16)(hi, 8)));
}

static inline void split_step(const uint8_t *uv, uint8_t *a, uint8_t *b)
{
	split(v_load(uv), v_load(uv + VEC_BYTES), a, b);
}

static inline void split_avg_step(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b)
{
	split(V(avg_epu8)(v_load(uv0), v_load(uv1)),
	      V(avg_epu8)(v_load(uv0 + VEC_BYTES), v_load(uv1 + VEC_BYTES)), a,
	      b);
}

static inline void avg_step(const uint8_t *p0, const uint8_t *p1, uint8_t *dst)
{
	v_store(dst, V(avg_epu8)(v_load(p0), v_load(p1)));
}

#define YUVLAYOUT_STEP VEC_BYTES

#include "simd/yuvlayout_rows.h"
