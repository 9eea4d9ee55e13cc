/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pshufb store of the YUV -> RGB kernels that SSSE3 and AVX2 share:
 * the channels as src/x86/yuv2rgb.h's yuv2rgb_pairs leaves them (per
 * 128-bit half, lane i of each 8-byte group being pixel pair i) gathered
 * to 48 bytes of 16 pixels per 128-bit half, three pshufb per output
 * vector. The entry file includes its instruction set's header and
 * src/x86/vec.h first.
 */
#ifndef V4LC_X86_RGB_GATHER_H
#define V4LC_X86_RGB_GATHER_H

#include <stdint.h>

#include "x86/vec.h"

#define Z (-128)
/* gather[src][k]: bytes of p[src] that go to output bytes 16k..16k+15 */
static const int8_t gather[3][3][16] __attribute__((aligned(16))) = {
	{
		/* p[0] */
		{ 0, Z, 8, Z, Z, Z, 1, Z, 9, Z, Z, Z, 2, Z, 10, Z },
		{ Z, Z, 3, Z, 11, Z, Z, Z, 4, Z, 12, Z, Z, Z, 5, Z },
		{ 13, Z, Z, Z, 6, Z, 14, Z, Z, Z, 7, Z, 15, Z, Z, Z },
	},
	{
		/* p[1] */
		{ Z, 0, Z, 8, Z, Z, Z, 1, Z, 9, Z, Z, Z, 2, Z, 10 },
		{ Z, Z, Z, 3, Z, 11, Z, Z, Z, 4, Z, 12, Z, Z, Z, 5 },
		{ Z, 13, Z, Z, Z, 6, Z, 14, Z, Z, Z, 7, Z, 15, Z, Z },
	},
	{
		/* p[2] */
		{ Z, Z, Z, Z, 0, 8, Z, Z, Z, Z, 1, 9, Z, Z, Z, Z },
		{ 2, 10, Z, Z, Z, Z, 3, 11, Z, Z, Z, Z, 4, 12, Z, Z },
		{ Z, Z, 5, 13, Z, Z, Z, Z, 6, 14, Z, Z, Z, Z, 7, 15 },
	},
};
#undef Z

static inline vec gather_mask(int src, int k)
{
	__m128i m = _mm_load_si128((const __m128i *)gather[src][k]);
#if VEC_BITS == 128
	return m;
#else
	return _mm256_broadcastsi128_si256(m);
#endif
}

/* Output bytes 16 k .. 16 k + 15 of each 128-bit half's 48. */
static inline vec gather3(const vec p[3], int k)
{
	return VSI(or)(VSI(or)(V(shuffle_epi8)(p[0], gather_mask(0, k)),
			       V(shuffle_epi8)(p[1], gather_mask(1, k))),
		       V(shuffle_epi8)(p[2], gather_mask(2, k)));
}

#if VEC_BITS == 128
/* 16 pixels' channels to exactly 48 bytes at dst. */
static inline void store_rgb48_pshufb(const vec p[3], uint8_t *dst)
{
	for (int k = 0; k < 3; k++)
		v_store(dst + 16 * k, gather3(p, k));
}
#endif

#endif
