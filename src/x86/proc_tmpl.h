/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc statistics with SSE2 or AVX2: sum4 by 16-bit lane sums of even and
 * odd bytes; sum3 by psadbw against zero (eight bytes at once) after
 * masking one phase of the pattern (i % 3). The lookup tables stay scalar:
 * there is no byte shuffle in SSE2, and a vpgatherdd version (tables side
 * by side, index = 256 * table + byte) was bit-exact but slower than the
 * scalar loop (bench/results/choices.md).
 */
#include "scalar/proc.h"
#include "simd/row_any.h"

static uint32_t hsum64(vec v)
{
	__m128i s = v_halves_add_epi64(v);

	return (uint32_t)_mm_cvtsi128_si32(
		_mm_add_epi64(s, _mm_unpackhi_epi64(s, s)));
}

static uint32_t hsum32(vec v)
{
	__m128i s = v_halves_add_epi32(v);

	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
	s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
	return (uint32_t)_mm_cvtsi128_si32(s);
}

/*
 * Even and odd bytes widened to 16-bit lanes and summed there (at most 128
 * vectors: 128 x 255 fits); then the low and high halves of each 32-bit
 * lane are phases 0 and 2 (even bytes) or 1 and 3 (odd bytes).
 */
static inline __attribute__((always_inline)) void
sum4_row(const uint8_t *src, int n, uint32_t sum[4])
{
	const vec lo8 = V(set1_epi16)(0x00ff);
	const vec lo16 = V(set1_epi32)(0x0000ffff);
	vec acc[4] = { VSI(setzero)(), VSI(setzero)(), VSI(setzero)(),
		       VSI(setzero)() };
	uint32_t tail[4];
	int i = 0;

	while (i + VEC_BYTES <= n) {
		vec ev = VSI(setzero)(), od = VSI(setzero)();

		for (int b = 0; b < 128 && i + VEC_BYTES <= n;
		     b++, i += VEC_BYTES) {
			vec v = v_load(src + i);

			ev = V(add_epi16)(ev, VSI(and)(v, lo8));
			od = V(add_epi16)(od, V(srli_epi16)(v, 8));
		}
		acc[0] = V(add_epi32)(acc[0], VSI(and)(ev, lo16));
		acc[2] = V(add_epi32)(acc[2], V(srli_epi32)(ev, 16));
		acc[1] = V(add_epi32)(acc[1], VSI(and)(od, lo16));
		acc[3] = V(add_epi32)(acc[3], V(srli_epi32)(od, 16));
	}
	v4lc_proc_sum4_c(src + i, n - i, tail);
	/* i is a multiple of 4: the tail's phases line up */
	for (int k = 0; k < 4; k++)
		sum[k] = hsum32(acc[k]) + tail[k];
}

/* masks3[o][c]: byte b is kept where (o + b) % 3 == c. */
#define M(o, c, b) (((o) + (b)) % 3 == (c) ? 255 : 0)
#define M8(o, c, b)                                                            \
	M(o, c, b), M(o, c, b + 1), M(o, c, b + 2), M(o, c, b + 3),            \
		M(o, c, b + 4), M(o, c, b + 5), M(o, c, b + 6), M(o, c, b + 7)
#define M32(o, c)                                                              \
	{                                                                      \
		M8(o, c, 0), M8(o, c, 8), M8(o, c, 16), M8(o, c, 24)           \
	}
static const uint8_t masks3[3][3][32] __attribute__((aligned(32))) = {
	{ M32(0, 0), M32(0, 1), M32(0, 2) },
	{ M32(1, 0), M32(1, 1), M32(1, 2) },
	{ M32(2, 0), M32(2, 1), M32(2, 2) },
};
#undef M32
#undef M8
#undef M

static inline __attribute__((always_inline)) void
sum3_row(const uint8_t *src, int width, uint32_t sum[3])
{
	const vec zero = VSI(setzero)();
	vec acc[3] = { zero, zero, zero };
	const int n = width * 3;
	uint32_t tail[3];
	int i = 0;

	/* vector p of a block starts (VEC_BYTES * p) % 3 bytes into a pixel */
	for (; i + 3 * VEC_BYTES <= n; i += 3 * VEC_BYTES) {
		for (int p = 0; p < 3; p++) {
			vec v = v_load(src + i + VEC_BYTES * p);

			for (int c = 0; c < 3; c++)
				acc[c] = V(add_epi64)(
					acc[c],
					V(sad_epu8)(
						VSI(and)(
							v,
							VSI(load)(
								(const vec
									 *)masks3
									[VEC_BYTES *
									 p % 3]
									[c])),
						zero));
		}
	}
	v4lc_proc_sum3_c(src + i, width - i / 3, tail);
	for (int c = 0; c < 3; c++)
		sum[c] = hsum64(acc[c]) + tail[c];
}

/*
 * PROC_SUM4(fn) and PROC_SUM3(fn) define the kernel `fn` of that table
 * entry. The entry file names its kernels in them and in its
 * v4lc_proc_init_<isa>.
 */
#define PROC_SUM4(fn)                                                          \
	static void fn(const uint8_t *src, int n, uint32_t sum[4])             \
	{                                                                      \
		sum4_row(src, n, sum);                                         \
	}
#define PROC_SUM3(fn)                                                          \
	static void fn(const uint8_t *src, int width, uint32_t sum[3])         \
	{                                                                      \
		sum3_row(src, width, sum);                                     \
	}
