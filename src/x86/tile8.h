/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The 16x16 byte tile of the 8-bit rotations (src/simd/flip_rows.h), shared
 * by SSE2 and SSSE3: four rounds of punpck{l,h}bw between rows i and i + 8
 * transpose a 16x16 byte matrix. Every round mixes two registers, and four
 * levels of two-input mixing is what 16 rows need, so pshufb has nothing to
 * save here (it works inside one register).
 *
 * The entry file includes its instruction set's header and defines
 * loadu(p) and storeu(p, v) on __m128i first.
 */
#ifndef V4LC_X86_TILE8_H
#define V4LC_X86_TILE8_H

#include <stddef.h>
#include <stdint.h>

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
