/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, SSE2 (no pshufb).
 *
 * Byte reversal of a vector: reverse the dwords (pshufd), the words in each
 * dword (pshuflw/pshufhw), then the bytes in each word (two shifts).
 *
 * 24-bit mirror: 16 pixels are 48 bytes. With r the byte reversal of those
 * 48 bytes (r[j] = in[47 - j]), output byte j = 3P + c (pixel P, channel c)
 * is in[3 (15 - P) + c] = in[45 - j + 2c] = r[j + 2 - 2c]: byte-reverse, then
 * per byte take r[j + 2], r[j] or r[j - 2] by j mod 3 (the neighbours come
 * from byte shifts across the three registers). That is for the first and
 * last block of a row, which must stay inside it; the blocks between are
 * pixel pairs rotated in qwords (see mirror24_block_inner).
 *
 * Rotations (the loops in src/simd/flip_rows.h): square tiles, 16x16 bytes
 * for 8-bit (src/x86/transpose.h) and 4x4 pixels for 24-bit (pixels
 * widened to dwords, a 4x4 dword transpose, narrowed again).
 *
 * Packed 4:2:2 mirrors: a destination vector starting at pixel x0 (even)
 * holds luma words x0..x0+7, which are the source luma words W-8-x0..W-1-x0
 * reversed (pshufd + pshuflw/pshufhw), and the chroma of pairs
 * x0/2..x0/2+3, which are source pairs P-4-x0/2..P-1-x0/2 reversed
 * (pshufd). The two loads coincide for even widths and are 2 bytes apart
 * for odd ones; a word mask picks luma from one and chroma from the other.
 */
#include <emmintrin.h>
#include <stddef.h>
#include <string.h>

#include "scalar/flip.h"

static inline __m128i rev_bytes(__m128i v)
{
	v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
	v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
	v = _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
	return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}

static inline __m128i loadu(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void storeu(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

/* Two vectors a step (one a step was slower: bench/results/choices.md). */
static inline void mirror8_step(const uint8_t *s, uint8_t *d)
{
	storeu(d, rev_bytes(loadu(s + 16)));
	storeu(d + 16, rev_bytes(loadu(s)));
}

#define MIRROR8_STEP 32

/* (16k + i) mod 3 == 0, 1, 2 for output vector k, byte i */
static const uint8_t m24[3][3][16] __attribute__((aligned(16))) = {
#define A 255
	{ { A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A },
	  { 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0 },
	  { 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0 } },
	{ { 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0 },
	  { A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A },
	  { 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0 } },
	{ { 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0 },
	  { 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0 },
	  { A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A, 0, 0, A } },
#undef A
};

static inline __m128i m24_load(int k, int c)
{
	return _mm_load_si128((const __m128i *)m24[k][c]);
}

/* 16 pixels: d pixel i = s pixel 15 - i. */
static inline void mirror24_block(const uint8_t *s, uint8_t *d)
{
	__m128i r0 = rev_bytes(loadu(s + 32));
	__m128i r1 = rev_bytes(loadu(s + 16));
	__m128i r2 = rev_bytes(loadu(s));
	/* r[j + 2] and r[j - 2] for each output vector */
	__m128i p0 =
		_mm_or_si128(_mm_srli_si128(r0, 2), _mm_slli_si128(r1, 14));
	__m128i p1 =
		_mm_or_si128(_mm_srli_si128(r1, 2), _mm_slli_si128(r2, 14));
	__m128i p2 = _mm_srli_si128(r2, 2);
	__m128i n0 = _mm_slli_si128(r0, 2);
	__m128i n1 =
		_mm_or_si128(_mm_slli_si128(r1, 2), _mm_srli_si128(r0, 14));
	__m128i n2 =
		_mm_or_si128(_mm_slli_si128(r2, 2), _mm_srli_si128(r1, 14));

#define MIX(k, p, r, n)                                                        \
	_mm_or_si128(_mm_and_si128(p, m24_load(k, 0)),                         \
		     _mm_or_si128(_mm_and_si128(r, m24_load(k, 1)),            \
				  _mm_and_si128(n, m24_load(k, 2))))
	storeu(d, MIX(0, p0, r0, n0));
	storeu(d + 16, MIX(1, p1, r1, n1));
	storeu(d + 32, MIX(2, p2, r2, n2));
#undef MIX
}

/*
 * The same away from the row's ends, as 8 pixel pairs: a pair is 6 bytes
 * and its mirror the same 6 bytes rotated by 3 (its two pixels swapped).
 * Two pairs per register, one per qword (loaded with the 2 bytes after
 * it), rotated by qword shifts and a mask, stored as two 8-byte stores
 * whose 2 junk bytes the next store overwrites (the last one's: the next
 * block's, or the row's final block). Reads 2 bytes after the 48-byte
 * block and writes 2 after it, so the caller keeps a pixel of the row on
 * both sides. (Fewer instructions than a byte reversal plus the mod-3
 * select, and faster: bench/results/choices.md.)
 */
static inline void mirror24_block_inner(const uint8_t *s, uint8_t *d)
{
	const __m128i lo3 = _mm_set_epi32(0, 0xffffff, 0, 0xffffff);

	for (int q = 0; q < 8; q += 2) {
		/* destination pairs q, q + 1: source pairs 7 - q, 6 - q */
		__m128i r = _mm_unpacklo_epi64(
			_mm_loadl_epi64((const __m128i *)(s + 6 * (7 - q))),
			_mm_loadl_epi64((const __m128i *)(s + 6 * (6 - q))));
		__m128i t =
			_mm_or_si128(_mm_and_si128(_mm_srli_epi64(r, 24), lo3),
				     _mm_slli_epi64(r, 24));

		_mm_storel_epi64((__m128i *)(d + 6 * q), t);
		_mm_storel_epi64((__m128i *)(d + 6 * q + 6),
				 _mm_unpackhi_epi64(t, t));
	}
}

static void mirror24_sse2(const uint8_t *src, uint8_t *dst, int width)
{
	int x;

	if (width < 16) {
		v4lc_flip_mirror24_c(src, dst, width);
		return;
	}
	/* the first block ends the source row: no reads past it */
	mirror24_block(src + 3 * (ptrdiff_t)(width - 16), dst);
	/* blocks with a pixel of the row on both sides */
	for (x = 16; x + 16 < width; x += 16)
		mirror24_block_inner(src + 3 * (ptrdiff_t)(width - 16 - x),
				     dst + 3 * (ptrdiff_t)x);
	/* the last (possibly overlapping) block starts the source row */
	if (x < width)
		mirror24_block(src, dst + 3 * (ptrdiff_t)(width - 16));
}

#include "x86/transpose.h"

/* 4 pixels of 3 bytes, exactly 12 bytes read or written. */
static inline __m128i load12(const uint8_t *p)
{
	int32_t hi;

	memcpy(&hi, p + 8, 4);
	return _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p),
				  _mm_cvtsi32_si128(hi));
}

static inline void store12(uint8_t *p, __m128i v)
{
	int32_t hi = _mm_cvtsi128_si32(_mm_srli_si128(v, 8));

	_mm_storel_epi64((__m128i *)p, v);
	memcpy(p + 8, &hi, 4);
}

/* 12 bytes of 4 pixels -> 4 dwords, pixel in the low 3 bytes (top: junk). */
static inline __m128i widen24(__m128i v)
{
	const __m128i lo = _mm_set_epi32(0, -1, 0, -1);
	/* pixels 0,1 in the low qword, 2,3 (bytes 6..11) in the high one */
	__m128i t = _mm_unpacklo_epi64(v, _mm_srli_si128(v, 6));

	return _mm_or_si128(_mm_and_si128(t, lo),
			    _mm_andnot_si128(lo, _mm_slli_epi64(t, 8)));
}

/* The inverse: 4 dwords -> 12 bytes in the low part. */
static inline __m128i narrow24(__m128i v)
{
	const __m128i m3 = _mm_set_epi32(0, 0x00ffffff, 0, 0x00ffffff);
	const __m128i m6 = _mm_set_epi32(0, 0, 0x0000ffff, (int)0xffffffff);
	/* each qword: bytes 0..5 = its two pixels */
	__m128i q = _mm_or_si128(_mm_and_si128(v, m3),
				 _mm_andnot_si128(m3, _mm_srli_epi64(v, 8)));

	/* high qword's 6 bytes to bytes 6..11 (bytes 12..15: junk) */
	return _mm_or_si128(_mm_and_si128(q, m6),
			    _mm_andnot_si128(m6, _mm_srli_si128(q, 2)));
}

/* A 4x4 pixel tile: source rows s + i * sstep (12 bytes each) transposed
 * to destination rows d + j * dstep (d_j pixel i = s_i pixel j). */
static inline void tile24(const uint8_t *s, ptrdiff_t sstep, uint8_t *d,
			  ptrdiff_t dstep)
{
	__m128i a = widen24(load12(s)), b = widen24(load12(s + sstep));
	__m128i c = widen24(load12(s + 2 * sstep));
	__m128i e = widen24(load12(s + 3 * sstep));

	transpose4x32(&a, &b, &c, &e);
	store12(d, narrow24(a));
	store12(d + dstep, narrow24(b));
	store12(d + 2 * dstep, narrow24(c));
	store12(d + 3 * dstep, narrow24(e));
}

#define TILE24 4

/* Reverse the 8 words of a vector. */
static inline __m128i rev_words(__m128i v)
{
	v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
	v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
	return _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
}

struct mirror422 {
	__m128i lmask; /* the luma bytes of each word */
};

static inline void mirror422_init(struct mirror422 *m, int lo, int width)
{
	(void)width;
	m->lmask = _mm_set1_epi16(lo ? (short)0xff00 : 0x00ff);
}

/* 8 pixels: the two loads coincide for even widths. */
static inline void mirror422_vec(const uint8_t *src, uint8_t *dst, int width,
				 int x0, const struct mirror422 *m)
{
	int pairs = (width + 1) / 2;
	__m128i l = loadu(src + 2 * (ptrdiff_t)(width - 8 - x0));
	__m128i c = loadu(src + 4 * (ptrdiff_t)pairs - 16 - 2 * (ptrdiff_t)x0);

	l = rev_words(l);
	c = _mm_shuffle_epi32(c, _MM_SHUFFLE(0, 1, 2, 3));
	storeu(dst + 2 * (ptrdiff_t)x0,
	       _mm_or_si128(_mm_and_si128(m->lmask, l),
			    _mm_andnot_si128(m->lmask, c)));
}

/* Two vectors a step, as mirror8. */
static inline void mirror422_step(const uint8_t *src, uint8_t *dst, int width,
				  int x0, const struct mirror422 *m)
{
	mirror422_vec(src, dst, width, x0, m);
	mirror422_vec(src, dst, width, x0 + 8, m);
}

#define MIRROR422_STEP 16

#include "simd/flip_rows.h"

FLIP_MIRROR422(mirror_yuyv_sse2, 0, v4lc_flip_mirror_yuyv_c)
FLIP_MIRROR422(mirror_uyvy_sse2, 1, v4lc_flip_mirror_uyvy_c)
FLIP_MIRROR8(mirror8_sse2)
FLIP_ROTATE(rot90cw8_sse2, 1, 1, v4lc_flip_rot90cw8_c)
FLIP_ROTATE(rot90ccw8_sse2, 1, 0, v4lc_flip_rot90ccw8_c)
FLIP_ROTATE(rot90cw24_sse2, 3, 1, v4lc_flip_rot90cw24_c)
FLIP_ROTATE(rot90ccw24_sse2, 3, 0, v4lc_flip_rot90ccw24_c)

void v4lc_flip_init_sse2(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = mirror8_sse2;
	dsp->mirror24 = mirror24_sse2;
	dsp->mirror_yuyv = mirror_yuyv_sse2;
	dsp->mirror_uyvy = mirror_uyvy_sse2;
	dsp->rot90cw8 = rot90cw8_sse2;
	dsp->rot90ccw8 = rot90ccw8_sse2;
	dsp->rot90cw24 = rot90cw24_sse2;
	dsp->rot90ccw24 = rot90ccw24_sse2;
}
