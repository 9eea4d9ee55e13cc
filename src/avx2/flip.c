/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, AVX2 tier: the row mirrors (8-bit, 24-bit, packed 4:2:2).
 * The rotations are the SSSE3 tier's (src/ssse3/flip.c).
 *
 * All mirrors read the source row from its end and write the destination
 * forward, as the scalar kernels do (v4lc_frame_transform walks the rows
 * bottom-up to make the reads one descending sweep).
 *
 * mirror8: 32 bytes per step; vpermq swaps the two 16-byte halves of the
 * source block, one in-lane vpshufb reverses each. The last block of a row
 * overlaps the previous one; rows of 16..31 bytes are two overlapping
 * 16-byte pshufb blocks.
 *
 * mirror24: src/x86/flip_pshufb.h (16-byte pshufb, shared with SSSE3).
 *
 * Packed 4:2:2 (see src/scalar/flip.c and the SSE2 file): a 32-byte
 * destination vector at pixel x0 (even) takes its luma words from the source
 * words W-16-x0..W-1-x0 reversed and its chroma from the source pairs
 * P-8-x0/2..P-1-x0/2 reversed. Both are in-lane byte shuffles of lane-
 * swapped loads; for even widths the two loads coincide and one vpshufb does
 * both. Odd widths: two loads two bytes apart, two vpshufb zeroing the
 * other's bytes, vpor. The loop is src/simd/flip_rows.h's.
 */
#include <immintrin.h>
#include <stddef.h>

#include "scalar/flip.h"
#include "simd/row_any.h"

static inline __m128i loadu(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void storeu(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

/* 32 bytes at p with the 16-byte halves swapped (lane 0 from p + 16) */
static inline __m256i load_swapped(const uint8_t *p)
{
	return _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)p),
					0x4e);
}

static inline void storeu256(uint8_t *p, __m256i v)
{
	_mm256_storeu_si256((__m256i *)p, v);
}

/* ---------------------------------------------------------------- 8-bit */

static void mirror8_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	const __m256i rev =
		_mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
				 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4,
				 3, 2, 1, 0);
	const uint8_t *s = src + width;
	int x = 0;

	if (width < 32) {
		const __m128i r = _mm256_castsi256_si128(rev);

		if (width < 16) {
			v4lc_flip_mirror8_c(src, dst, width);
			return;
		}
		storeu(dst, _mm_shuffle_epi8(loadu(src + width - 16), r));
		storeu(dst + width - 16, _mm_shuffle_epi8(loadu(src), r));
		return;
	}
	for (; x + 64 <= width; x += 64) {
		__m256i a = load_swapped(s - x - 32);
		__m256i b = load_swapped(s - x - 64);

		storeu256(dst + x, _mm256_shuffle_epi8(a, rev));
		storeu256(dst + x + 32, _mm256_shuffle_epi8(b, rev));
	}
	if (x + 32 <= width) {
		storeu256(dst + x,
			  _mm256_shuffle_epi8(load_swapped(s - x - 32), rev));
		x += 32;
	}
	/* the rest: the first 32 source bytes end the row (overlapping) */
	if (x < width)
		storeu256(dst + width - 32,
			  _mm256_shuffle_epi8(load_swapped(src), rev));
}

/* --------------------------------------------------------------- 24-bit */

#include "x86/flip_pshufb.h"

/* ------------------------------------------------------ packed 4:2:2 */

/*
 * In-lane shuffles of a lane-swapped 32-byte load (16 bytes = 8 luma words,
 * 4 pairs): luma word i of the lane = source word 7 - i, chroma of pair q
 * = source pair 3 - q. `lo` is the luma byte of a word (0 or 1).
 */
static inline __m256i lane_mask(const int8_t m[16])
{
	__m128i v = _mm_loadu_si128((const __m128i *)m);

	return _mm256_inserti128_si256(_mm256_castsi128_si256(v), v, 1);
}

struct mirror422 {
	__m256i ml, mc; /* shuffles of the luma and the chroma load */
	int odd;        /* odd width: the two loads differ */
};

static void mirror422_init(struct mirror422 *m, int lo, int width)
{
	int8_t l[16], c[16];

	m->odd = width & 1;
	mirror422_masks(l, c, lo, m->odd);
	m->ml = lane_mask(l);
	m->mc = lane_mask(c);
}

/*
 * 16 pixels from x0: luma from the source words from W - 16 - x0, chroma
 * from the source pairs from P - 8 - x0 / 2.
 */
static inline void mirror422_step(const uint8_t *src, uint8_t *dst, int width,
				  int x0, const struct mirror422 *m)
{
	const uint8_t *sl = src + 2 * (ptrdiff_t)width - 32 - 2 * x0;
	__m256i v = _mm256_shuffle_epi8(load_swapped(sl), m->ml);

	if (m->odd) {
		const uint8_t *sc =
			src + 4 * (ptrdiff_t)((width + 1) / 2) - 32 - 2 * x0;

		v = _mm256_or_si256(v, _mm256_shuffle_epi8(load_swapped(sc),
							   m->mc));
	}
	storeu256(dst + 2 * (ptrdiff_t)x0, v);
}

#define MIRROR422_STEP 16

#include "simd/flip_rows.h"

FLIP_MIRROR24_PSHUFB(mirror24_avx2)
FLIP_MIRROR422(mirror_yuyv_avx2, 0, v4lc_flip_mirror_yuyv_c)
FLIP_MIRROR422(mirror_uyvy_avx2, 1, v4lc_flip_mirror_uyvy_c)

void v4lc_flip_init_avx2(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = mirror8_avx2;
	dsp->mirror24 = mirror24_avx2;
	dsp->mirror_yuyv = mirror_yuyv_avx2;
	dsp->mirror_uyvy = mirror_uyvy_avx2;
}
