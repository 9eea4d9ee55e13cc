/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The flip kernels that SSSE3 and AVX2 share: 16-byte pshufb code (VEX
 * encoded in the AVX2 files), and the masks of the packed 4:2:2 mirror.
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
 * The entry file includes its instruction set's header and scalar/flip.h,
 * and defines loadu(p) and storeu(p, v) on __m128i first; it names its
 * mirror24 kernel in FLIP_MIRROR24_PSHUFB (below).
 */
#ifndef V4LC_X86_FLIP_PSHUFB_H
#define V4LC_X86_FLIP_PSHUFB_H

#include <stddef.h>
#include <stdint.h>

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

static inline __attribute__((always_inline)) void
mirror24_pshufb(const uint8_t *src, uint8_t *dst, int width)
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

/* FLIP_MIRROR24_PSHUFB(fn) defines the kernel `fn`, the mirror24 entry. */
#define FLIP_MIRROR24_PSHUFB(fn)                                               \
	static void fn(const uint8_t *src, uint8_t *dst, int width)            \
	{                                                                      \
		mirror24_pshufb(src, dst, width);                              \
	}

/*
 * pshufb masks of a packed 4:2:2 mirror over 16 bytes (8 luma words, 4
 * pairs), luma at byte `lo` of each word: luma word i = source word 7 - i
 * (from l's load), chroma of pair q = source pair 3 - q (from c's load).
 * For even widths the two loads coincide and l does both.
 */
static inline void mirror422_masks(int8_t l[16], int8_t c[16], int lo, int odd)
{
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
	if (!odd) {
		for (int b = 0; b < 16; b++)
			if (l[b] < 0)
				l[b] = c[b];
	}
}

#endif
