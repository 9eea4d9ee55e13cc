/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with SSE2 (no byte shuffle), 16 pixels per step.
 *
 * Deinterleave: 48 bytes a[0..47] hold a[3p + c] for pixel p and channel c.
 * One "riffle" interleaves the first 24 bytes with the last 24
 * (n[2j] = a[j], n[2j + 1] = a[24 + j]): the byte at position i < 47 moves
 * to 2i mod 47. The wanted position of a[3p + c] is 16c + p, and
 * 3 * (16c + p) = 47c + i, so it is 16i = 2^4 i mod 47: four riffles leave
 * R, G and B in three registers, in pixel order. With registers v0, v1, v2
 * a riffle interleaves v0.lo with v1.hi, v0.hi with v2.lo and v1.lo with
 * v2.hi: two pshufd (v1.hi moved down; v2's halves swapped, which serves
 * both of its pairings, one through punpckhbw) and three punpck.
 *
 * The fourth riffle is not done: its two inputs per channel are exactly
 * the even and the odd pixels, which are unpacked against zero (as the high
 * byte) to c << 8 in 16-bit lanes: the operands of v4lc_rgb_to_y, pmulhuw
 * by the Q16 weights. Even-pixel luma lands in the low byte (>> 8), odd
 * pixels in the high byte (& 0xff00) of each output lane.
 *
 * Chroma sums: with e = c_even << 8 and o = c_odd << 8, pavgw(e, o) is
 * (e + o + 1) >> 1 = (c_even + c_odd) << 7 exactly (e + o is even), and
 * pavgw of the two rows' results is the 2x2 sum << 6, again exactly: a sum,
 * not a rounded average. Then pmulhuw and wrapping 16-bit adds as in
 * v4lc_rgb_to_uv.
 *
 * The end of a row is one overlapped step ending at the last even pixel
 * (recomputing identical values), then the scalar kernel for an odd last
 * pixel or rows shorter than 16 pixels.
 *
 * Memory order: the two rows are not walked side by side (two interleaved
 * source streams restart the hardware prefetchers at every row pair and
 * reached only 40-60 % of memcpy on frames fresh from memory) but one after
 * the other within chunks of up to CHUNK pixels: the first row's luma and
 * pair sums (kept in a stack buffer, in L1), then the second row's luma
 * and the chroma. A software prefetch PF bytes ahead of each source row
 * (a hint: it cannot fault, and whatever lies there is never read) crosses
 * the 4 KiB pages the hardware prefetchers stop at.
 */
#include <emmintrin.h>

#include "scalar/rgb2yuv.h"

static inline void riffle(__m128i *v0, __m128i *v1, __m128i *v2)
{
	__m128i h1 = _mm_shuffle_epi32(*v1, 0xee); /* v1.hi in the low half */
	__m128i s2 = _mm_shuffle_epi32(*v2, 0x4e); /* v2's halves swapped */
	__m128i a = _mm_unpacklo_epi8(*v0, h1);
	__m128i b = _mm_unpackhi_epi8(*v0, s2);
	__m128i c = _mm_unpacklo_epi8(*v1, s2);

	*v0 = a;
	*v1 = b;
	*v2 = c;
}

/*
 * 16 pixels at s: even and odd pixels of channel 0, 1, 2 (memory order),
 * each as c << 8 in 16-bit lanes.
 */
static inline void load16(const uint8_t *s, __m128i e[3], __m128i o[3])
{
	const __m128i z = _mm_setzero_si128();
	__m128i v0 = _mm_loadu_si128((const __m128i *)s);
	__m128i v1 = _mm_loadu_si128((const __m128i *)(s + 16));
	__m128i v2 = _mm_loadu_si128((const __m128i *)(s + 32));

	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	/* The fourth riffle would interleave v0.lo|v1.hi, v0.hi|v2.lo and
	 * v1.lo|v2.hi: even|odd pixels of each channel. */
	e[0] = _mm_unpacklo_epi8(z, v0);
	o[0] = _mm_unpackhi_epi8(z, v1);
	e[1] = _mm_unpackhi_epi8(z, v0);
	o[1] = _mm_unpacklo_epi8(z, v2);
	e[2] = _mm_unpacklo_epi8(z, v1);
	o[2] = _mm_unpackhi_epi8(z, v2);
}

struct consts {
	__m128i yr, yg, yb, yadd, hi8;
	__m128i ur, ug, ub, vr, vg, vb, cadd;
};

/* The Q8 luma sum of 8 pixels (before >> 8). */
static inline __m128i luma_sum(const struct consts *k, __m128i r, __m128i g,
			       __m128i b)
{
	__m128i s = _mm_add_epi16(_mm_mulhi_epu16(r, k->yr),
				  _mm_mulhi_epu16(g, k->yg));

	s = _mm_add_epi16(s, _mm_mulhi_epu16(b, k->yb));
	return _mm_add_epi16(s, k->yadd);
}

static inline void luma16(const struct consts *k, const __m128i e[3],
			  const __m128i o[3], int ri, int bi, uint8_t *dst)
{
	__m128i se = luma_sum(k, e[ri], e[1], e[bi]);
	__m128i so = luma_sum(k, o[ri], o[1], o[bi]);

	_mm_storeu_si128((__m128i *)dst,
			 _mm_or_si128(_mm_srli_epi16(se, 8),
				      _mm_and_si128(so, k->hi8)));
}

/*
 * One row of 16 pixels: luma to dst, and per channel the pair sums << 7
 * (pavgw of even and odd, exact: see the top of the file).
 */
static inline void row16(const struct consts *k, const uint8_t *src,
			 int ri, int bi, uint8_t *dst, __m128i pair[3])
{
	__m128i e[3], o[3];

	load16(src, e, o);
	luma16(k, e, o, ri, bi, dst);
	pair[0] = _mm_avg_epu16(e[ri], o[ri]);
	pair[1] = _mm_avg_epu16(e[1], o[1]);
	pair[2] = _mm_avg_epu16(e[bi], o[bi]);
}

/* U and V of 8 pixel pairs from both rows' pair sums. */
static inline void chroma16(const struct consts *k, const __m128i p0[3],
			    const __m128i p1[3], uint8_t *u, uint8_t *v)
{
	__m128i sr, sg, sb, cu, cv;

	/* 2x2 block sums << 6: pavgw of the pair sums << 7, exact. */
	sr = _mm_avg_epu16(p0[0], p1[0]);
	sg = _mm_avg_epu16(p0[1], p1[1]);
	sb = _mm_avg_epu16(p0[2], p1[2]);
	cu = _mm_add_epi16(k->cadd, _mm_mulhi_epu16(sb, k->ub));
	cu = _mm_sub_epi16(cu, _mm_mulhi_epu16(sr, k->ur));
	cu = _mm_sub_epi16(cu, _mm_mulhi_epu16(sg, k->ug));
	cv = _mm_add_epi16(k->cadd, _mm_mulhi_epu16(sr, k->vr));
	cv = _mm_sub_epi16(cv, _mm_mulhi_epu16(sg, k->vg));
	cv = _mm_sub_epi16(cv, _mm_mulhi_epu16(sb, k->vb));
	cu = _mm_packus_epi16(_mm_srli_epi16(cu, 8),
			      _mm_srli_epi16(cv, 8));
	_mm_storel_epi64((__m128i *)u, cu);
	_mm_storel_epi64((__m128i *)v, _mm_srli_si128(cu, 8));
}

static inline void step16(const struct consts *k, const uint8_t *src0,
			  const uint8_t *src1, uint8_t *y0, uint8_t *y1,
			  uint8_t *u, uint8_t *v, int ri, int bi)
{
	__m128i p0[3], p1[3];

	row16(k, src0, ri, bi, y0, p0);
	row16(k, src1, ri, bi, y1, p1);
	chroma16(k, p0, p1, u, v);
}

#define CHUNK 2048 /* pixels of one row per pass */
#define PF 4096    /* prefetch distance in source bytes */

static inline __attribute__((always_inline)) void
rows(const uint8_t *src0, const uint8_t *src1, uint8_t *y0, uint8_t *y1,
     uint8_t *u, uint8_t *v, int width, const struct v4lc_rgb2yuv *kp,
     int bgr)
{
	const int ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;
	struct consts k;
	int x = 0;

	k.yr = _mm_set1_epi16((short)kp->yr);
	k.yg = _mm_set1_epi16((short)kp->yg);
	k.yb = _mm_set1_epi16((short)kp->yb);
	k.yadd = _mm_set1_epi16((short)((kp->y_off << 8) + 128));
	k.hi8 = _mm_set1_epi16((short)0xff00);
	k.ur = _mm_set1_epi16((short)kp->ur);
	k.ug = _mm_set1_epi16((short)kp->ug);
	k.ub = _mm_set1_epi16((short)kp->ub);
	k.vr = _mm_set1_epi16((short)kp->vr);
	k.vg = _mm_set1_epi16((short)kp->vg);
	k.vb = _mm_set1_epi16((short)kp->vb);
	k.cadd = _mm_set1_epi16((short)32896);

	/* Row by row within a chunk: the first row's pair sums wait in buf,
	 * so the source is read in long runs, one row after the other. */
	while (x + 16 <= width) {
		__m128i buf[CHUNK / 16 * 3];
		int end = width - x > CHUNK ? x + CHUNK : width, x0 = x;

		for (int i = 0; x + 16 <= end; x += 16, i += 3) {
			_mm_prefetch((const char *)src0 + 3 * x + PF, _MM_HINT_T0);
			row16(&k, src0 + 3 * x, ri, bi, y0 + x, buf + i);
		}
		for (int i = 0, xx = x0; xx + 16 <= end; xx += 16, i += 3) {
			__m128i p1[3];

			_mm_prefetch((const char *)src1 + 3 * xx + PF, _MM_HINT_T0);
			row16(&k, src1 + 3 * xx, ri, bi, y1 + xx, p1);
			chroma16(&k, buf + i, p1, u + xx / 2, v + xx / 2);
		}
	}
	if (x > 0 && x < (width & ~1)) {
		/* Overlap: 16 pixels ending at the last even pixel. */
		x = (width & ~1) - 16;
		step16(&k, src0 + 3 * x, src1 + 3 * x, y0 + x, y1 + x,
		       u + x / 2, v + x / 2, ri, bi);
		x = width & ~1;
	}
	if (x < width)
		(bgr ? v4lc_rgb2yuv_bgr24_to_yuv420_c
		     : v4lc_rgb2yuv_rgb24_to_yuv420_c)(
			src0 + 3 * x, src1 + 3 * x, y0 + x, y1 + x, u + x / 2,
			v + x / 2, width - x, kp);
}

static void rgb24_to_yuv420_sse2(const uint8_t *src0, const uint8_t *src1,
				 uint8_t *y0, uint8_t *y1, uint8_t *u,
				 uint8_t *v, int width,
				 const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 0);
}

static void bgr24_to_yuv420_sse2(const uint8_t *src0, const uint8_t *src1,
				 uint8_t *y0, uint8_t *y1, uint8_t *u,
				 uint8_t *v, int width,
				 const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 1);
}

void v4lc_rgb2yuv_init_sse2(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = rgb24_to_yuv420_sse2;
	dsp->to_yuv420[V4LC_BGR24] = bgr24_to_yuv420_sse2;
}
