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
 * Rotations: square tiles, 16x16 bytes for 8-bit (four rounds of
 * punpck{l,h}bw between rows i and i + 8 transpose a 16x16 byte matrix) and
 * 4x4 pixels for 24-bit (pixels widened to dwords, a 4x4 dword transpose,
 * narrowed again). The last tile of a row or column is moved back so it
 * ends at the plane's edge (overlapping the previous one: same bytes
 * written twice, nothing outside the plane); planes smaller than a tile go
 * to the scalar kernels. The source rows of a tile are loaded in the order
 * that makes the transpose land in destination order.
 *
 * Packed 4:2:2 mirrors: a destination vector starting at pixel x0 (even)
 * holds luma words x0..x0+7, which are the source luma words W-8-x0..W-1-x0
 * reversed (pshufd + pshuflw/pshufhw), and the chroma of pairs
 * x0/2..x0/2+3, which are source pairs P-4-x0/2..P-1-x0/2 reversed
 * (pshufd). The two loads coincide for even widths and are 2 bytes apart
 * for odd ones; a word mask picks luma from one and chroma from the other.
 * The last vector overlaps the previous one; an odd width's last pair (one
 * pixel and its spare slot) is the scalar kernel on the first source pair.
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

static void mirror8_sse2(const uint8_t *src, uint8_t *dst, int width)
{
	int x = 0;

	if (width < 16) {
		v4lc_flip_mirror8_c(src, dst, width);
		return;
	}
	for (; x + 32 <= width; x += 32) {
		__m128i a = loadu(src + width - 16 - x);
		__m128i b = loadu(src + width - 32 - x);

		storeu(dst + x, rev_bytes(a));
		storeu(dst + x + 16, rev_bytes(b));
	}
	if (x + 16 <= width) {
		storeu(dst + x, rev_bytes(loadu(src + width - 16 - x)));
		x += 16;
	}
	/* the rest: the first 16 source bytes end the row (overlapping) */
	if (x < width)
		storeu(dst + width - 16, rev_bytes(loadu(src)));
}

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
	__m128i p0 = _mm_or_si128(_mm_srli_si128(r0, 2), _mm_slli_si128(r1, 14));
	__m128i p1 = _mm_or_si128(_mm_srli_si128(r1, 2), _mm_slli_si128(r2, 14));
	__m128i p2 = _mm_srli_si128(r2, 2);
	__m128i n0 = _mm_slli_si128(r0, 2);
	__m128i n1 = _mm_or_si128(_mm_slli_si128(r1, 2), _mm_srli_si128(r0, 14));
	__m128i n2 = _mm_or_si128(_mm_slli_si128(r2, 2), _mm_srli_si128(r1, 14));

#define MIX(k, p, r, n)                                                      \
	_mm_or_si128(_mm_and_si128(p, m24_load(k, 0)),                       \
		     _mm_or_si128(_mm_and_si128(r, m24_load(k, 1)),          \
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
 * select: +10-15 % on 1280x720 frames.)
 */
static inline void mirror24_block_inner(const uint8_t *s, uint8_t *d)
{
	const __m128i lo3 = _mm_set_epi32(0, 0xffffff, 0, 0xffffff);

	for (int q = 0; q < 8; q += 2) {
		/* destination pairs q, q + 1: source pairs 7 - q, 6 - q */
		__m128i r = _mm_unpacklo_epi64(
			_mm_loadl_epi64((const __m128i *)(s + 6 * (7 - q))),
			_mm_loadl_epi64((const __m128i *)(s + 6 * (6 - q))));
		__m128i t = _mm_or_si128(
			_mm_and_si128(_mm_srli_epi64(r, 24), lo3),
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

/* Tile origin: steps of `tile`, the last one moved back to end at `n`. */
static inline int tile_at(int pos, int tile, int n)
{
	return pos + tile > n ? n - tile : pos;
}

static void rot90cw8_sse2(const uint8_t *src, int src_stride, uint8_t *dst,
			  int dst_stride, int width, int height)
{
	if (width < 16 || height < 16) {
		v4lc_flip_rot90cw8_c(src, src_stride, dst, dst_stride, width,
				     height);
		return;
	}
	/* dst[y][x] = src[height - 1 - x][y]; tile: dst x0.., y0.. */
	for (int xs = 0; xs < height; xs += 16) {
		int x0 = tile_at(xs, 16, height);
		const uint8_t *s = src + (ptrdiff_t)(height - 1 - x0) * src_stride;

		for (int ys = 0; ys < width; ys += 16) {
			int y0 = tile_at(ys, 16, width);
			uint8_t *d = dst + (ptrdiff_t)y0 * dst_stride + x0;
			__m128i r[16];

			for (int i = 0; i < 16; i++)
				r[i] = loadu(s - (ptrdiff_t)i * src_stride + y0);
			transpose16(r);
			for (int j = 0; j < 16; j++)
				storeu(d + (ptrdiff_t)j * dst_stride, r[j]);
		}
	}
}

static void rot90ccw8_sse2(const uint8_t *src, int src_stride, uint8_t *dst,
			   int dst_stride, int width, int height)
{
	if (width < 16 || height < 16) {
		v4lc_flip_rot90ccw8_c(src, src_stride, dst, dst_stride, width,
				      height);
		return;
	}
	/* dst[y][x] = src[x][width - 1 - y] */
	for (int xs = 0; xs < height; xs += 16) {
		int x0 = tile_at(xs, 16, height);
		const uint8_t *s = src + (ptrdiff_t)x0 * src_stride;

		for (int ys = 0; ys < width; ys += 16) {
			int y0 = tile_at(ys, 16, width);
			const uint8_t *sc = s + (width - 16 - y0);
			uint8_t *d = dst + (ptrdiff_t)(y0 + 15) * dst_stride + x0;
			__m128i r[16];

			for (int i = 0; i < 16; i++)
				r[i] = loadu(sc + (ptrdiff_t)i * src_stride);
			transpose16(r);
			for (int j = 0; j < 16; j++)
				storeu(d - (ptrdiff_t)j * dst_stride, r[j]);
		}
	}
}

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

/*
 * One 4x4 pixel tile: rows s0..s3 (12 bytes each) transposed into d0..d3
 * (d_j pixel i = s_i pixel j).
 */
static inline void tile24(const uint8_t *s0, const uint8_t *s1,
			  const uint8_t *s2, const uint8_t *s3, uint8_t *d0,
			  uint8_t *d1, uint8_t *d2, uint8_t *d3)
{
	__m128i a = widen24(load12(s0)), b = widen24(load12(s1));
	__m128i c = widen24(load12(s2)), d = widen24(load12(s3));

	transpose4x32(&a, &b, &c, &d);
	store12(d0, narrow24(a));
	store12(d1, narrow24(b));
	store12(d2, narrow24(c));
	store12(d3, narrow24(d));
}

static void rot90cw24_sse2(const uint8_t *src, int src_stride, uint8_t *dst,
			   int dst_stride, int width, int height)
{
	const ptrdiff_t ss = src_stride, ds = dst_stride;

	if (width < 4 || height < 4) {
		v4lc_flip_rot90cw24_c(src, src_stride, dst, dst_stride, width,
				      height);
		return;
	}
	/* dst[y][x] = src[height - 1 - x][y]; bands of 16 dst columns */
	for (int xb = 0; xb < height; xb += 16) {
		int xe = xb + 16 < height ? xb + 16 : height;

		for (int ys = 0; ys < width; ys += 4) {
			int y0 = tile_at(ys, 4, width);
			uint8_t *d = dst + y0 * ds;

			for (int xs = xb; xs < xe; xs += 4) {
				int x0 = tile_at(xs, 4, height);
				const uint8_t *s = src +
						   (height - 1 - x0) * ss +
						   3 * y0;
				uint8_t *dd = d + 3 * x0;

				tile24(s, s - ss, s - 2 * ss, s - 3 * ss, dd,
				       dd + ds, dd + 2 * ds, dd + 3 * ds);
			}
		}
	}
}

static void rot90ccw24_sse2(const uint8_t *src, int src_stride, uint8_t *dst,
			    int dst_stride, int width, int height)
{
	const ptrdiff_t ss = src_stride, ds = dst_stride;

	if (width < 4 || height < 4) {
		v4lc_flip_rot90ccw24_c(src, src_stride, dst, dst_stride, width,
				       height);
		return;
	}
	/* dst[y][x] = src[x][width - 1 - y] */
	for (int xb = 0; xb < height; xb += 16) {
		int xe = xb + 16 < height ? xb + 16 : height;

		for (int ys = 0; ys < width; ys += 4) {
			int y0 = tile_at(ys, 4, width);
			uint8_t *d = dst + (y0 + 3) * ds;

			for (int xs = xb; xs < xe; xs += 4) {
				int x0 = tile_at(xs, 4, height);
				const uint8_t *s = src + x0 * ss +
						   3 * (width - 4 - y0);
				uint8_t *dd = d + 3 * x0;

				tile24(s, s + ss, s + 2 * ss, s + 3 * ss, dd,
				       dd - ds, dd - 2 * ds, dd - 3 * ds);
			}
		}
	}
}

/* Reverse the 8 words of a vector. */
static inline __m128i rev_words(__m128i v)
{
	v = _mm_shuffle_epi32(v, _MM_SHUFFLE(0, 1, 2, 3));
	v = _mm_shufflelo_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
	return _mm_shufflehi_epi16(v, _MM_SHUFFLE(2, 3, 0, 1));
}

static inline void mirror422_vec(const uint8_t *src, uint8_t *dst, int width,
				 int pairs, int x0, __m128i lmask)
{
	__m128i l = loadu(src + 2 * (ptrdiff_t)(width - 8 - x0));
	__m128i c = loadu(src + 4 * (ptrdiff_t)pairs - 16 - 2 * (ptrdiff_t)x0);

	l = rev_words(l);
	c = _mm_shuffle_epi32(c, _MM_SHUFFLE(0, 1, 2, 3));
	storeu(dst + 2 * (ptrdiff_t)x0,
	       _mm_or_si128(_mm_and_si128(lmask, l), _mm_andnot_si128(lmask, c)));
}

static inline void mirror422_sse2(const uint8_t *src, uint8_t *dst, int width,
				  int lo, v4lc_row_copy_fn *scalar)
{
	__m128i lmask = _mm_set1_epi16(lo ? (short)0xff00 : 0x00ff);
	int pairs = (width + 1) / 2, n = width & ~1, x0 = 0;

	if (width < 16) {
		scalar(src, dst, width);
		return;
	}
	for (; x0 + 16 <= n; x0 += 16) {
		mirror422_vec(src, dst, width, pairs, x0, lmask);
		mirror422_vec(src, dst, width, pairs, x0 + 8, lmask);
	}
	if (x0 + 8 <= n) {
		mirror422_vec(src, dst, width, pairs, x0, lmask);
		x0 += 8;
	}
	if (x0 < n)
		mirror422_vec(src, dst, width, pairs, n - 8, lmask);
	if (width & 1)
		scalar(src, dst + 4 * (ptrdiff_t)(pairs - 1), 1);
}

static void mirror_yuyv_sse2(const uint8_t *src, uint8_t *dst, int width)
{
	mirror422_sse2(src, dst, width, 0, v4lc_flip_mirror_yuyv_c);
}

static void mirror_uyvy_sse2(const uint8_t *src, uint8_t *dst, int width)
{
	mirror422_sse2(src, dst, width, 1, v4lc_flip_mirror_uyvy_c);
}

void v4lc_flip_init_sse2(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = mirror8_sse2;
	dsp->mirror24 = mirror24_sse2;
	dsp->rot90cw8 = rot90cw8_sse2;
	dsp->rot90ccw8 = rot90ccw8_sse2;
	dsp->rot90cw24 = rot90cw24_sse2;
	dsp->rot90ccw24 = rot90ccw24_sse2;
	dsp->mirror_yuyv = mirror_yuyv_sse2;
	dsp->mirror_uyvy = mirror_uyvy_sse2;
}
