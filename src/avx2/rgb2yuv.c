/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with AVX2, 32 pixels per step: the SSE2 scheme
 * (see src/sse2/rgb2yuv.c) with each 128-bit lane holding one 48-byte group
 * (lane 0: pixels 0..15, lane 1: pixels 16..31), so the in-lane riffles
 * (vpshufd + vpunpcklbw) need no lane crossing. Summary:
 *  - three riffles (first 24 bytes interleaved with the last 24; byte i
 *    moves to 2i mod 47, and four riffles would give 16i mod 47, the
 *    channel-planar order) leave each channel's even and odd pixels in
 *    register halves, unpacked against zero to c << 8 in 16-bit lanes;
 *  - luma: vpmulhuw by the Q16 weights as v4lc_rgb_to_y, even pixels in
 *    the low byte (>> 8) and odd pixels in the high byte (& 0xff00);
 *  - chroma: vpavgw of c_even << 8 and c_odd << 8 is exactly
 *    (c_even + c_odd) << 7 (their sum is even), and vpavgw of the two rows'
 *    results exactly the 2x2 sum << 6; then vpmulhuw and wrapping 16-bit
 *    adds as v4lc_rgb_to_uv.
 * The end of a row is one overlapped step ending at the last even pixel
 * (recomputing identical values), then the scalar kernel for an odd last
 * pixel or rows shorter than 32 pixels.
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
#include <immintrin.h>

#include "scalar/rgb2yuv.h"

static inline __m256i load2x16(const uint8_t *s)
{
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)s)),
		_mm_loadu_si128((const __m128i *)(s + 48)), 1);
}

static inline void riffle(__m256i *v0, __m256i *v1, __m256i *v2)
{
	/* v1.hi moved down; v2's halves swapped (in each lane), which
	 * serves both of v2's pairings, one through vpunpckhbw. */
	__m256i h1 = _mm256_shuffle_epi32(*v1, 0xee);
	__m256i s2 = _mm256_shuffle_epi32(*v2, 0x4e);
	__m256i a = _mm256_unpacklo_epi8(*v0, h1);
	__m256i b = _mm256_unpackhi_epi8(*v0, s2);
	__m256i c = _mm256_unpacklo_epi8(*v1, s2);

	*v0 = a;
	*v1 = b;
	*v2 = c;
}

/* 32 pixels at s: even and odd pixels of each channel as c << 8. */
static inline void load32(const uint8_t *s, __m256i e[3], __m256i o[3])
{
	const __m256i z = _mm256_setzero_si256();
	__m256i v0 = load2x16(s);
	__m256i v1 = load2x16(s + 16);
	__m256i v2 = load2x16(s + 32);

	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	e[0] = _mm256_unpacklo_epi8(z, v0);
	o[0] = _mm256_unpackhi_epi8(z, v1);
	e[1] = _mm256_unpackhi_epi8(z, v0);
	o[1] = _mm256_unpacklo_epi8(z, v2);
	e[2] = _mm256_unpacklo_epi8(z, v1);
	o[2] = _mm256_unpackhi_epi8(z, v2);
}

struct consts {
	__m256i yr, yg, yb, yadd, hi8;
	__m256i ur, ug, ub, vr, vg, vb, cadd;
};

static inline __m256i luma_sum(const struct consts *k, __m256i r, __m256i g,
			       __m256i b)
{
	__m256i s = _mm256_add_epi16(_mm256_mulhi_epu16(r, k->yr),
				     _mm256_mulhi_epu16(g, k->yg));

	s = _mm256_add_epi16(s, _mm256_mulhi_epu16(b, k->yb));
	return _mm256_add_epi16(s, k->yadd);
}

static inline void row32(const struct consts *k, const uint8_t *src, int ri,
			 int bi, uint8_t *dst, __m256i pair[3])
{
	__m256i e[3], o[3], se, so;

	load32(src, e, o);
	se = luma_sum(k, e[ri], e[1], e[bi]);
	so = luma_sum(k, o[ri], o[1], o[bi]);
	_mm256_storeu_si256((__m256i *)dst,
			    _mm256_or_si256(_mm256_srli_epi16(se, 8),
					    _mm256_and_si256(so, k->hi8)));
	pair[0] = _mm256_avg_epu16(e[ri], o[ri]);
	pair[1] = _mm256_avg_epu16(e[1], o[1]);
	pair[2] = _mm256_avg_epu16(e[bi], o[bi]);
}

/* U and V of 32 pixel pairs from both rows' pair sums. */
static inline void chroma32(const struct consts *k, const __m256i p0[3],
			    const __m256i p1[3], uint8_t *u, uint8_t *v)
{
	__m256i sr, sg, sb, cu, cv;

	sr = _mm256_avg_epu16(p0[0], p1[0]);
	sg = _mm256_avg_epu16(p0[1], p1[1]);
	sb = _mm256_avg_epu16(p0[2], p1[2]);
	cu = _mm256_add_epi16(k->cadd, _mm256_mulhi_epu16(sb, k->ub));
	cu = _mm256_sub_epi16(cu, _mm256_mulhi_epu16(sr, k->ur));
	cu = _mm256_sub_epi16(cu, _mm256_mulhi_epu16(sg, k->ug));
	cv = _mm256_add_epi16(k->cadd, _mm256_mulhi_epu16(sr, k->vr));
	cv = _mm256_sub_epi16(cv, _mm256_mulhi_epu16(sg, k->vg));
	cv = _mm256_sub_epi16(cv, _mm256_mulhi_epu16(sb, k->vb));
	/* Per lane: U(8) V(8); reorder qwords to U(16) | V(16). */
	cu = _mm256_packus_epi16(_mm256_srli_epi16(cu, 8),
				 _mm256_srli_epi16(cv, 8));
	cu = _mm256_permute4x64_epi64(cu, 0xd8);
	_mm_storeu_si128((__m128i *)u, _mm256_castsi256_si128(cu));
	_mm_storeu_si128((__m128i *)v, _mm256_extracti128_si256(cu, 1));
}

static inline void step32(const struct consts *k, const uint8_t *src0,
			  const uint8_t *src1, uint8_t *y0, uint8_t *y1,
			  uint8_t *u, uint8_t *v, int ri, int bi)
{
	__m256i p0[3], p1[3];

	row32(k, src0, ri, bi, y0, p0);
	row32(k, src1, ri, bi, y1, p1);
	chroma32(k, p0, p1, u, v);
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

	k.yr = _mm256_set1_epi16((short)kp->yr);
	k.yg = _mm256_set1_epi16((short)kp->yg);
	k.yb = _mm256_set1_epi16((short)kp->yb);
	k.yadd = _mm256_set1_epi16((short)((kp->y_off << 8) + 128));
	k.hi8 = _mm256_set1_epi16((short)0xff00);
	k.ur = _mm256_set1_epi16((short)kp->ur);
	k.ug = _mm256_set1_epi16((short)kp->ug);
	k.ub = _mm256_set1_epi16((short)kp->ub);
	k.vr = _mm256_set1_epi16((short)kp->vr);
	k.vg = _mm256_set1_epi16((short)kp->vg);
	k.vb = _mm256_set1_epi16((short)kp->vb);
	k.cadd = _mm256_set1_epi16((short)32896);

	/* Row by row within a chunk: the first row's pair sums wait in buf,
	 * so the source is read in long runs, one row after the other. */
	while (x + 32 <= width) {
		__m256i buf[CHUNK / 32 * 3];
		int end = width - x > CHUNK ? x + CHUNK : width, x0 = x;

		for (int i = 0; x + 32 <= end; x += 32, i += 3) {
			_mm_prefetch((const char *)src0 + 3 * x + PF, _MM_HINT_T0);
			_mm_prefetch((const char *)src0 + 3 * x + PF + 48, _MM_HINT_T0);
			row32(&k, src0 + 3 * x, ri, bi, y0 + x, buf + i);
		}
		for (int i = 0, xx = x0; xx + 32 <= end; xx += 32, i += 3) {
			__m256i p1[3];

			_mm_prefetch((const char *)src1 + 3 * xx + PF, _MM_HINT_T0);
			_mm_prefetch((const char *)src1 + 3 * xx + PF + 48, _MM_HINT_T0);
			row32(&k, src1 + 3 * xx, ri, bi, y1 + xx, p1);
			chroma32(&k, buf + i, p1, u + xx / 2, v + xx / 2);
		}
	}
	if (x > 0 && x < (width & ~1)) {
		/* Overlap: 32 pixels ending at the last even pixel. */
		x = (width & ~1) - 32;
		step32(&k, src0 + 3 * x, src1 + 3 * x, y0 + x, y1 + x,
		       u + x / 2, v + x / 2, ri, bi);
		x = width & ~1;
	}
	if (x < width)
		(bgr ? v4lc_rgb2yuv_bgr24_to_yuv420_c
		     : v4lc_rgb2yuv_rgb24_to_yuv420_c)(
			src0 + 3 * x, src1 + 3 * x, y0 + x, y1 + x, u + x / 2,
			v + x / 2, width - x, kp);
}

static void rgb24_to_yuv420_avx2(const uint8_t *src0, const uint8_t *src1,
				 uint8_t *y0, uint8_t *y1, uint8_t *u,
				 uint8_t *v, int width,
				 const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 0);
}

static void bgr24_to_yuv420_avx2(const uint8_t *src0, const uint8_t *src1,
				 uint8_t *y0, uint8_t *y1, uint8_t *u,
				 uint8_t *v, int width,
				 const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 1);
}

void v4lc_rgb2yuv_init_avx2(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = rgb24_to_yuv420_avx2;
	dsp->to_yuv420[V4LC_BGR24] = bgr24_to_yuv420_avx2;
}
