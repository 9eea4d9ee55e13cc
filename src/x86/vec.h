/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * x86 vectors of VEC_BITS bits for the kernel templates that SSE2 (128)
 * and AVX2 (256) share: the same algorithm, written once on `vec`.
 * V(op) is the intrinsic _mm_op or _mm256_op, VSI(op) _mm_op_si128 or
 * _mm256_op_si256. The entry file includes its instruction set's header
 * and defines VEC_BITS first. 256-bit operations work within each 128-bit
 * half (unpack, pack, byte shifts); templates keep to what both widths do
 * alike, and leave the rest to the entry file.
 */
#ifndef V4LC_X86_VEC_H
#define V4LC_X86_VEC_H

#include <stdint.h>

#if VEC_BITS == 128
typedef __m128i vec;
#define V(op) _mm_##op
#define VSI(op) _mm_##op##_si128
#elif VEC_BITS == 256
typedef __m256i vec;
#define V(op) _mm256_##op
#define VSI(op) _mm256_##op##_si256
#else
#error "VEC_BITS must be 128 or 256"
#endif

/* Bytes per vector. */
#define VEC_BYTES (VEC_BITS / 8)

static inline vec v_load(const uint8_t *p)
{
	return VSI(loadu)((const vec *)p);
}

static inline void v_store(uint8_t *p, vec v)
{
	VSI(storeu)((vec *)p, v);
}

/* The 16-bit lanes of a, then b, to bytes with unsigned saturation, in
 * order (vpackuswb packs within 128-bit halves: vpermq restores it). */
static inline vec v_packus_ordered(vec a, vec b)
{
#if VEC_BITS == 128
	return _mm_packus_epi16(a, b);
#else
	return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xd8);
#endif
}

/* The 32-bit (or 64-bit) lanes of both 128-bit halves added. */
static inline __m128i v_halves_add_epi32(vec v)
{
#if VEC_BITS == 128
	return v;
#else
	return _mm_add_epi32(_mm256_castsi256_si128(v),
			     _mm256_extracti128_si256(v, 1));
#endif
}

static inline __m128i v_halves_add_epi64(vec v)
{
#if VEC_BITS == 128
	return v;
#else
	return _mm_add_epi64(_mm256_castsi256_si128(v),
			     _mm256_extracti128_si256(v, 1));
#endif
}

#endif
