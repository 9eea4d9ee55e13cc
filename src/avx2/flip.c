/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, AVX2 tier: the row mirrors (8-bit, 24-bit, packed 4:2:2).
 * The rotations stay with SSE2.
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
 * mirror24: five pixels (15 bytes) per 16-byte vector. A 16-byte load that
 * ends at the last byte of five source pixels holds them all (plus one byte
 * of the pixel before); one pshufb reverses the five pixels and the 16-byte
 * store leaves one junk byte after them, which the next store (at +15)
 * overwrites. That needs one source byte before the chunk and one
 * destination byte after it, so the chunks stop where the row would be
 * left; the row's last 16 destination pixels (the first 16 source pixels)
 * are then one 16-pixel block of two loads two bytes apart and two pshufb,
 * which reads and writes exactly its 48 bytes. Rows under 16 pixels go to
 * the scalar kernel.
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

#define Z -128
/*
 * Five pixels from a 16-byte window whose byte 0 is the last byte of the
 * pixel before them: destination byte 3i + c = window byte 13 - 3i + c.
 */
static const int8_t shuf5[16] __attribute__((aligned(16))) = {
	13, 14, 15, 10, 11, 12, 7, 8, 9, 4, 5, 6, 1, 2, 3, Z,
};
/*
 * 16 pixels, 48 bytes: destination byte j = source byte 45 - j + 2 (j mod 3).
 * Per output vector k: the shuffle of a load at load_at[k] and of a load two
 * bytes further (each zeroing the bytes the other supplies).
 */
static const int8_t shuf16[3][2][16] __attribute__((aligned(16))) = {
	{ { 15, Z, Z, 12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0 },
	  { Z, 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z } },
	{ { Z, Z, 12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1 },
	  { 14, 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z } },
	{ { Z, 12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1, 2 },
	  { 15, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z } },
};
#undef Z

/* 16 pixels at s (48 bytes) mirrored to d; touches exactly those bytes */
static inline void mirror24_block16(const uint8_t *s, uint8_t *d)
{
	static const int load_at[3] = { 30, 15, 0 };

	for (int k = 0; k < 3; k++) {
		const uint8_t *p = s + load_at[k];
		__m128i m0 = _mm_load_si128((const __m128i *)shuf16[k][0]);
		__m128i m1 = _mm_load_si128((const __m128i *)shuf16[k][1]);

		storeu(d + 16 * k,
		       _mm_or_si128(_mm_shuffle_epi8(loadu(p), m0),
				    _mm_shuffle_epi8(loadu(p + 2), m1)));
	}
}

static void mirror24_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	const __m128i m = _mm_load_si128((const __m128i *)shuf5);
	/* s: one byte before the five source pixels of destination pixel x */
	const uint8_t *s = src + 3 * (ptrdiff_t)width - 16;
	uint8_t *d = dst;
	int x = 0;

	if (width < 16) {
		v4lc_flip_mirror24_c(src, dst, width);
		return;
	}
	/* a chunk at x reads source byte 3 (width - x - 5) - 1 and writes
	   destination byte 3 x + 15: both inside while x + 6 <= width */
	for (; x + 21 <= width; x += 20, s -= 60, d += 60) {
		__m128i a = loadu(s), b = loadu(s - 15);
		__m128i c = loadu(s - 30), e = loadu(s - 45);

		storeu(d, _mm_shuffle_epi8(a, m));
		storeu(d + 15, _mm_shuffle_epi8(b, m));
		storeu(d + 30, _mm_shuffle_epi8(c, m));
		storeu(d + 45, _mm_shuffle_epi8(e, m));
	}
	for (; x + 6 <= width; x += 5, s -= 15, d += 15)
		storeu(d, _mm_shuffle_epi8(loadu(s), m));
	/* destination pixels width - 16 .. width - 1: source pixels 0..15 */
	mirror24_block16(src, dst + 3 * (ptrdiff_t)(width - 16));
}

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
	for (int b = 0; b < 16; b++) {
		int word = b / 2, q = b / 4;

		if ((b & 1) == lo) {
			/* luma: word 7 - word, same byte of the word */
			l[b] = (int8_t)(2 * (7 - word) + lo);
			c[b] = -128;
		} else {
			/* chroma: pair 3 - q, same byte of the pair; from the
			   chroma load (two bytes after the luma one if odd) */
			l[b] = -128;
			c[b] = (int8_t)(4 * (3 - q) + (b & 3));
		}
	}
	if (!m->odd) {
		for (int b = 0; b < 16; b++)
			if (l[b] < 0)
				l[b] = c[b];
	}
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

void v4lc_flip_init_avx2(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = mirror8_avx2;
	dsp->mirror24 = mirror24_avx2;
	flip_init_rows(dsp);
}
