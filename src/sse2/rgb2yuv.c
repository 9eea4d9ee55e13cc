/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with SSE2 (no byte shuffle), 16 pixels per step.
 *
 * Deinterleave: 48 bytes a[0..47] hold a[3p + c] for pixel p and channel c.
 * One "riffle" interleaves the first 24 bytes with the last 24
 * (n[2j] = a[j], n[2j + 1] = a[24 + j]): the byte at position i < 47 moves
 * to 2i mod 47. The wanted position of a[3p + c] is 16c + p, and
 * 3 * (16c + p) = 47c + i, so it is 16i = 2^4 i mod 47: four riffles leave
 * R, G and B in three registers, in pixel order. A riffle is three
 * punpck{l,h}bw and three 8-byte shifts.
 *
 * Luma: channels unpacked against zero as the high byte give c << 8, then
 * pmulhuw by the Q16 weights, exactly as v4lc_rgb_to_y. Chroma: pair sums of
 * each channel per row (low byte + high byte of each 16-bit lane), the two
 * rows added, << 6, pmulhuw and 16-bit wrapping adds as v4lc_rgb_to_uv.
 */
#include <emmintrin.h>

#include "dispatch/dsp.h"

v4lc_rgb2yuv_fn v4lc_rgb2yuv_rgb24_to_yuv420_c, v4lc_rgb2yuv_bgr24_to_yuv420_c;

static inline void riffle(__m128i *v0, __m128i *v1, __m128i *v2)
{
	__m128i a = _mm_unpacklo_epi8(*v0, _mm_srli_si128(*v1, 8));
	__m128i b = _mm_unpackhi_epi8(*v0, _mm_slli_si128(*v2, 8));
	__m128i c = _mm_unpacklo_epi8(*v1, _mm_srli_si128(*v2, 8));

	*v0 = a;
	*v1 = b;
	*v2 = c;
}

/* 16 pixels at s: channel 0, 1, 2 (in memory order) in c0, c1, c2. */
static inline void load16(const uint8_t *s, __m128i *c0, __m128i *c1,
			  __m128i *c2)
{
	__m128i v0 = _mm_loadu_si128((const __m128i *)s);
	__m128i v1 = _mm_loadu_si128((const __m128i *)(s + 16));
	__m128i v2 = _mm_loadu_si128((const __m128i *)(s + 32));

	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	riffle(&v0, &v1, &v2);
	*c0 = v0;
	*c1 = v1;
	*c2 = v2;
}

struct consts {
	__m128i yr, yg, yb, yadd;
	__m128i ur, ug, ub, vr, vg, vb, cadd;
	__m128i lo8;
};

/* Luma of 8 pixels given as c << 8 in 16-bit lanes. */
static inline __m128i luma8(const struct consts *k, __m128i r, __m128i g,
			    __m128i b)
{
	__m128i s = _mm_add_epi16(_mm_mulhi_epu16(r, k->yr),
				  _mm_mulhi_epu16(g, k->yg));

	s = _mm_add_epi16(s, _mm_mulhi_epu16(b, k->yb));
	s = _mm_add_epi16(s, k->yadd);
	return _mm_srli_epi16(s, 8);
}

static inline void luma16(const struct consts *k, __m128i r, __m128i g,
			  __m128i b, uint8_t *dst)
{
	const __m128i z = _mm_setzero_si128();
	__m128i lo = luma8(k, _mm_unpacklo_epi8(z, r), _mm_unpacklo_epi8(z, g),
			   _mm_unpacklo_epi8(z, b));
	__m128i hi = luma8(k, _mm_unpackhi_epi8(z, r), _mm_unpackhi_epi8(z, g),
			   _mm_unpackhi_epi8(z, b));

	_mm_storeu_si128((__m128i *)dst, _mm_packus_epi16(lo, hi));
}

/* Sums of horizontal pairs over both rows, << 6 (8 lanes, <= 65280). */
static inline __m128i block_sum(const struct consts *k, __m128i a, __m128i b)
{
	__m128i s = _mm_add_epi16(_mm_and_si128(a, k->lo8), _mm_srli_epi16(a, 8));

	s = _mm_add_epi16(s, _mm_and_si128(b, k->lo8));
	s = _mm_add_epi16(s, _mm_srli_epi16(b, 8));
	return _mm_slli_epi16(s, 6);
}

static inline __attribute__((always_inline)) void rows(const uint8_t *src0, const uint8_t *src1, uint8_t *y0,
			uint8_t *y1, uint8_t *u, uint8_t *v, int width,
			const struct v4lc_rgb2yuv *kp, int bgr)
{
	struct consts k;
	int x = 0;

	k.yr = _mm_set1_epi16((short)kp->yr);
	k.yg = _mm_set1_epi16((short)kp->yg);
	k.yb = _mm_set1_epi16((short)kp->yb);
	k.yadd = _mm_set1_epi16((short)((kp->y_off << 8) + 128));
	k.ur = _mm_set1_epi16((short)kp->ur);
	k.ug = _mm_set1_epi16((short)kp->ug);
	k.ub = _mm_set1_epi16((short)kp->ub);
	k.vr = _mm_set1_epi16((short)kp->vr);
	k.vg = _mm_set1_epi16((short)kp->vg);
	k.vb = _mm_set1_epi16((short)kp->vb);
	k.cadd = _mm_set1_epi16((short)32896);
	k.lo8 = _mm_set1_epi16(0x00ff);

	for (; x + 16 <= width; x += 16) {
		__m128i r0, g0, b0, r1, g1, b1, sr, sg, sb, cu, cv;

		if (bgr) {
			load16(src0 + 3 * x, &b0, &g0, &r0);
			load16(src1 + 3 * x, &b1, &g1, &r1);
		} else {
			load16(src0 + 3 * x, &r0, &g0, &b0);
			load16(src1 + 3 * x, &r1, &g1, &b1);
		}
		luma16(&k, r0, g0, b0, y0 + x);
		luma16(&k, r1, g1, b1, y1 + x);

		sr = block_sum(&k, r0, r1);
		sg = block_sum(&k, g0, g1);
		sb = block_sum(&k, b0, b1);
		cu = _mm_add_epi16(k.cadd, _mm_mulhi_epu16(sb, k.ub));
		cu = _mm_sub_epi16(cu, _mm_mulhi_epu16(sr, k.ur));
		cu = _mm_sub_epi16(cu, _mm_mulhi_epu16(sg, k.ug));
		cv = _mm_add_epi16(k.cadd, _mm_mulhi_epu16(sr, k.vr));
		cv = _mm_sub_epi16(cv, _mm_mulhi_epu16(sg, k.vg));
		cv = _mm_sub_epi16(cv, _mm_mulhi_epu16(sb, k.vb));
		cu = _mm_packus_epi16(_mm_srli_epi16(cu, 8),
				      _mm_srli_epi16(cv, 8));
		_mm_storel_epi64((__m128i *)(u + x / 2), cu);
		_mm_storel_epi64((__m128i *)(v + x / 2), _mm_srli_si128(cu, 8));
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
