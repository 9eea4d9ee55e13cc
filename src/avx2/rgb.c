/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 24-bit R<->B swap, bit-exact with src/scalar/rgb.c, 32 pixels
 * (96 bytes) a step. Output byte q takes input byte q + 2 (R out of B),
 * q (G) or q - 2 (B out of R). Two unaligned loads per 32 output bytes, one
 * 2 bytes before and one 2 bytes after, hold all three in every 128-bit
 * lane; a vpshufb on each and an OR make the output. The lane's phase
 * (its offset mod 3 from a pixel boundary) picks the shuffle masks.
 * Steps after the first start on multiples of 96 bytes, so the stores are
 * aligned when the row is (faster on L2-resident rows:
 * bench/results/choices.md). Kernels are
 * out of place: the first and last steps overlap their neighbours
 * (every output byte depends only on the input, so rewriting is harmless).
 */
#include <immintrin.h>

#include "scalar/rgb.h"

/* Byte j of a lane with phase ph: channel c = (ph + j) % 3 of its pixel. */
#define C(ph, j) (((ph) + (j)) % 3)
/* From the load 2 bytes before: q - 2 is at j, q at j + 2 (for j <= 13). */
#define ML(ph, j)                                                              \
	(C(ph, j) == 2 ? (j) : C(ph, j) == 1 && (j) <= 13 ? (j) + 2 : 0x80)
/* From the load 2 bytes after: q + 2 is at j, q at j - 2 (for j >= 14). */
#define MR(ph, j)                                                              \
	(C(ph, j) == 0 ? (j) : C(ph, j) == 1 && (j) >= 14 ? (j)-2 : 0x80)
#define LANE(M, ph)                                                            \
	M(ph, 0), M(ph, 1), M(ph, 2), M(ph, 3), M(ph, 4), M(ph, 5), M(ph, 6),  \
		M(ph, 7), M(ph, 8), M(ph, 9), M(ph, 10), M(ph, 11), M(ph, 12), \
		M(ph, 13), M(ph, 14), M(ph, 15)

/* Vector v of a step starts 32 v bytes in: lane phases (32 v + 16 l) % 3. */
static const uint8_t masks[3][2][32] __attribute__((aligned(32))) = {
	{ { LANE(ML, 0), LANE(ML, 1) }, { LANE(MR, 0), LANE(MR, 1) } },
	{ { LANE(ML, 2), LANE(ML, 0) }, { LANE(MR, 2), LANE(MR, 0) } },
	{ { LANE(ML, 1), LANE(ML, 2) }, { LANE(MR, 1), LANE(MR, 2) } },
};

/* 96 bytes at byte offset i (a pixel boundary); reads i - 2 .. i + 97. */
static inline void step96(const uint8_t *src, uint8_t *dst, int i,
			  const __m256i m[3][2])
{
	for (int v = 0; v < 3; v++) {
		const uint8_t *s = src + i + 32 * v;
		__m256i l = _mm256_loadu_si256((const __m256i *)(s - 2));
		__m256i r = _mm256_loadu_si256((const __m256i *)(s + 2));

		_mm256_storeu_si256(
			(__m256i *)(dst + i + 32 * v),
			_mm256_or_si256(_mm256_shuffle_epi8(l, m[v][0]),
					_mm256_shuffle_epi8(r, m[v][1])));
	}
}

static void swap_rb24_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	const int n = width * 3;
	__m256i m[3][2];
	int i, end;

	/* Pixel 0 is scalar so the load at i - 2 stays inside the row. */
	if (n < 3 + 98) {
		v4lc_rgb_swap_rb24_c(src, dst, width);
		return;
	}
	for (int v = 0; v < 3; v++)
		for (int h = 0; h < 2; h++)
			m[v][h] =
				_mm256_load_si256((const __m256i *)masks[v][h]);
	/* One step at pixel 1, then steps on multiples of 96 bytes (aligned
	 * stores when the row is), overlapping the first. */
	step96(src, dst, 3, m);
	for (i = 96; i + 98 <= n; i += 96)
		step96(src, dst, i, m);
	end = i;
	if (i < n) {
		/* The last pixel boundary that leaves room for the read. */
		i = (n - 98) / 3 * 3;
		step96(src, dst, i, m);
		end = i + 96;
	}
	v4lc_rgb_swap_rb24_c(src, dst, 1);
	if (end < n)
		v4lc_rgb_swap_rb24_c(src + end, dst + end, width - end / 3);
}

void v4lc_rgb_init_avx2(struct v4lc_rgb_dsp *dsp)
{
	dsp->swap_rb24 = swap_rb24_avx2;
}
