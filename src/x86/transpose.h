/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The transposes of the SSE2 and SSSE3 rotation tiles (src/simd/flip_rows.h).
 *
 * transpose4x32: four rows of four dwords, the core of both tiers' 24-bit
 * tiles once their pixels are widened to dwords.
 *
 * tile8, the 16x16 byte tile of the 8-bit rotations: four rounds of
 * punpck{l,h}bw between rows i and i + 8 transpose a 16x16 byte matrix.
 * Every round mixes two registers, and four levels of two-input mixing is
 * what 16 rows need, so pshufb has nothing to save here (it works inside
 * one register).
 *
 * The entry file includes its instruction set's header and defines
 * loadu(p) and storeu(p, v) on __m128i first.
 */
#ifndef V4LC_X86_TRANSPOSE_H
#define V4LC_X86_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>

static inline void transpose4x32(__m128i *a, __m128i *b, __m128i *c, __m128i *d)
{
	__m128i t0 = _mm_unpacklo_epi32(*a, *b);
	__m128i t1 = _mm_unpacklo_epi32(*c, *d);
	__m128i t2 = _mm_unpackhi_epi32(*a, *b);
	__m128i t3 = _mm_unpackhi_epi32(*c, *d);

	*a = _mm_unpacklo_epi64(t0, t1);
	*b = _mm_unpackhi_epi64(t0, t1);
	*c = _mm_unpacklo_epi64(t2, t3);
	*d = _mm_unpackhi_epi64(t2, t3);
}

/* Transpose 16 rows of 16 bytes in place. */
static inline void transpose16(__m128i r[16])
{
	for (int round = 0; round < 4; round++) {
		__m128i t[16];

		for (int i = 0; i < 8; i++) {
			t[2 * i] = _mm_unpacklo_epi8(r[i], r[i + 8]);
			t[2 * i + 1] = _mm_unpackhi_epi8(r[i], r[i + 8]);
		}
		for (int i = 0; i < 16; i++)
			r[i] = t[i];
	}
}

/* A 16x16 tile: source rows s + i * sstep to destination rows d + j * dstep. */
static inline void tile8(const uint8_t *s, ptrdiff_t sstep, uint8_t *d,
			 ptrdiff_t dstep)
{
	__m128i r[16];

	for (int i = 0; i < 16; i++)
		r[i] = loadu(s + i * sstep);
	transpose16(r);
	for (int j = 0; j < 16; j++)
		storeu(d + j * dstep, r[j]);
}

#define TILE8 16

#endif
