/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 yuv422 kernels, bit-exact with the scalar ones (pixel.h formulas in
 * 16-bit lanes), 16 pixels per step for RGB, 32 (then 16) for YUV 4:2:0.
 *
 * Unpacking: 32 source bytes are 8 pixel pairs. Masking or shifting the
 * 16-bit lanes separates luma from chroma; packuswb gathers 16 luma bytes
 * (pixel order) and 16 chroma bytes (first, second chroma of each pair).
 * Luma then splits into even and odd pixels as 16-bit lanes, so lane i of
 * each holds one pixel of pair i and one chroma lane serves both: no
 * chroma duplication. Chroma bytes are XORed with 0x80 once, after which
 * (C - 128) << 8 is a plain shift or mask.
 *
 * Output without pshufb: per pair, three 16-bit words (R0 G0, B0 R1,
 * G1 B1 for RGB24) are interleaved with punpck into one 64-bit lane per
 * pair (six bytes and a spare word), and each lane is written with an
 * 8-byte store that the next one partly overwrites. The last store of a
 * step writes two bytes past its 48, so the vector loop runs while one
 * more pixel follows; a last step ending at the row end stores its last
 * pair exactly (one byte shift), so no 16-pixel tail goes to the scalar
 * kernel (at 640 pixels that tail cost ~20 % of the row). (Compacting the lanes to 48 contiguous bytes with
 * 64-bit shifts, ORs and three 16-byte stores measured ~3 % slower.)
 */
#include <emmintrin.h>

#include "scalar/yuv422.h"

struct coefs {
	__m128i yoff7, yk, vr, ug, vg, ub, round, lo8, c80, k128, k8000;
};

static inline void coefs_init(struct coefs *c, const struct v4lc_yuv2rgb *k)
{
	c->yoff7 = _mm_set1_epi16((short)(k->y_off * 128));
	c->yk = _mm_set1_epi16(k->yk);
	c->vr = _mm_set1_epi16(k->vr);
	c->ug = _mm_set1_epi16(k->ug);
	c->vg = _mm_set1_epi16(k->vg);
	c->ub = _mm_set1_epi16(k->ub);
	c->round = _mm_set1_epi16(16);
	c->lo8 = _mm_set1_epi16(0x00ff);
	c->c80 = _mm_set1_epi8((char)0x80);
	c->k128 = _mm_set1_epi16(128);
	c->k8000 = _mm_set1_epi16((short)0x8000);
}

/*
 * Split 32 packed bytes (8 pairs) into 16 luma bytes in pixel order and 16
 * chroma bytes (first and second chroma of each pair).
 * yfirst: Y in the even bytes (YUYV, YVYU), else in the odd ones.
 */
static inline void split(__m128i a, __m128i b, int yfirst, __m128i lo8,
			 __m128i *y, __m128i *c)
{
	if (yfirst) {
		*y = _mm_packus_epi16(_mm_and_si128(a, lo8),
				      _mm_and_si128(b, lo8));
		*c = _mm_packus_epi16(_mm_srli_epi16(a, 8),
				      _mm_srli_epi16(b, 8));
	} else {
		*y = _mm_packus_epi16(_mm_srli_epi16(a, 8),
				      _mm_srli_epi16(b, 8));
		*c = _mm_packus_epi16(_mm_and_si128(a, lo8),
				      _mm_and_si128(b, lo8));
	}
}

/* Two pairs' six bytes from the low bytes of each quadword; the second
 * store overwrites the spare bytes of the first, and writes two spare
 * bytes past dst + 12. */
#define STORE2(d, q)                                                         \
	do {                                                                 \
		__m128i q_ = (q);                                            \
		_mm_storel_epi64((__m128i *)(d), q_);                        \
		_mm_storeh_pi((__m64 *)(void *)((d) + 6), _mm_castsi128_ps(q_));    \
	} while (0)

/*
 * 16 pixels from 32 source bytes at src; writes 48 bytes and, unless
 * exact, two spare bytes after them (the caller keeps one more pixel in
 * the row). ufirst: the first chroma byte of a pair is U (YUYV, UYVY).
 */
static inline void pixels16(const uint8_t *src, uint8_t *dst,
			    const struct coefs *k, int yfirst, int ufirst,
			    int bgr, int exact)
{
	__m128i a = _mm_loadu_si128((const __m128i *)src);
	__m128i b = _mm_loadu_si128((const __m128i *)(src + 16));
	__m128i y, c, ye, yo, c1, c2, u8, v8, cr, cg, cb;
	__m128i re, ge, be, ro, go, bo, p0, p1, p2, w0, w1, w2;
	__m128i lo, hi, z0, z1;

	split(a, b, yfirst, k->lo8, &y, &c);

	/* (Y - y_off) << 7 for even and odd pixels, then the luma term with
	 * the +16 rounding of all three channels. Y << 7 by multiplication
	 * (pmullw by 128; pmulhuw of Y << 8 by 0x8000): the multiplier ports
	 * are idle here, the shift/shuffle ones busy (+6 % in L1). */
	ye = _mm_mullo_epi16(_mm_and_si128(y, k->lo8), k->k128);
	yo = _mm_mulhi_epu16(_mm_andnot_si128(k->lo8, y), k->k8000);
	ye = _mm_mulhi_epi16(_mm_sub_epi16(ye, k->yoff7), k->yk);
	yo = _mm_mulhi_epi16(_mm_sub_epi16(yo, k->yoff7), k->yk);
	ye = _mm_add_epi16(ye, k->round);
	yo = _mm_add_epi16(yo, k->round);

	/* (C - 128) << 8 per pair lane. */
	c = _mm_xor_si128(c, k->c80);
	c1 = _mm_slli_epi16(c, 8);
	c2 = _mm_andnot_si128(k->lo8, c);
	u8 = ufirst ? c1 : c2;
	v8 = ufirst ? c2 : c1;

	/* Chroma terms (G subtracts cg). */
	cr = _mm_mulhi_epi16(v8, k->vr);
	cb = _mm_mulhi_epi16(u8, k->ub);
	cg = _mm_add_epi16(_mm_mulhi_epi16(u8, k->ug),
			   _mm_mulhi_epi16(v8, k->vg));

	re = _mm_srai_epi16(_mm_add_epi16(ye, cr), 5);
	ge = _mm_srai_epi16(_mm_sub_epi16(ye, cg), 5);
	be = _mm_srai_epi16(_mm_add_epi16(ye, cb), 5);
	ro = _mm_srai_epi16(_mm_add_epi16(yo, cr), 5);
	go = _mm_srai_epi16(_mm_sub_epi16(yo, cg), 5);
	bo = _mm_srai_epi16(_mm_add_epi16(yo, cb), 5);
	if (bgr) {
		__m128i t = re;

		re = be;
		be = t;
		t = ro;
		ro = bo;
		bo = t;
	}

	/* Per pair words: w0 = (first0, G0), w1 = (last0, first1),
	 * w2 = (G1, last1); first/last are R/B (or B/R). */
	p0 = _mm_packus_epi16(re, be);
	p1 = _mm_packus_epi16(ge, ro);
	p2 = _mm_packus_epi16(go, bo);
	w0 = _mm_unpacklo_epi8(p0, p1);
	w1 = _mm_unpackhi_epi8(p0, p1);
	w2 = _mm_unpacklo_epi8(p2, _mm_srli_si128(p2, 8));

	/* One quadword per pair: w0 w1 w2 and a spare word (w2 again). */
	lo = _mm_unpacklo_epi16(w0, w1);
	hi = _mm_unpackhi_epi16(w0, w1);
	z0 = _mm_unpacklo_epi16(w2, w2);
	z1 = _mm_unpackhi_epi16(w2, w2);
	STORE2(dst, _mm_unpacklo_epi32(lo, z0));
	STORE2(dst + 12, _mm_unpackhi_epi32(lo, z0));
	STORE2(dst + 24, _mm_unpacklo_epi32(hi, z1));
	if (exact) {
		/* The last pair as bytes 6..13 of its quadword pair: the
		 * previous pair's G1 B1 word, then its own six bytes. */
		__m128i q = _mm_unpackhi_epi32(hi, z1);

		_mm_storel_epi64((__m128i *)(dst + 36), q);
		_mm_storel_epi64((__m128i *)(dst + 40), _mm_srli_si128(q, 6));
	} else {
		STORE2(dst + 36, _mm_unpackhi_epi32(hi, z1));
	}
}

static inline int rgb_body(const uint8_t *src, uint8_t *dst, int width,
			   const struct v4lc_yuv2rgb *kp, int yfirst,
			   int ufirst, int bgr)
{
	struct coefs k;
	int x;

	coefs_init(&k, kp);
	for (x = 0; x + 17 <= width; x += 16)
		pixels16(src + 2 * x, dst + 3 * x, &k, yfirst, ufirst, bgr, 0);
	/* One exact step ending at the row end (or one pixel before it, to
	 * start at a pair), rewriting some pixels with the same values: the
	 * scalar kernel is left at most one pixel. */
	if (x < width - 1 && width >= 16) {
		x = (width - 16) & ~1;
		pixels16(src + 2 * x, dst + 3 * x, &k, yfirst, ufirst, bgr, 1);
		x += 16;
	}
	return x;
}

/* Luma of 32 source bytes (16 pixels). */
static inline __m128i luma16(__m128i a, __m128i b, int yfirst, __m128i lo8)
{
	if (yfirst)
		return _mm_packus_epi16(_mm_and_si128(a, lo8),
					_mm_and_si128(b, lo8));
	return _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8));
}

/* Chroma bytes (first, second per pair) of 32 source bytes. */
static inline __m128i chroma16(__m128i a, __m128i b, int yfirst, __m128i lo8)
{
	return luma16(a, b, !yfirst, lo8);
}

static inline int yuv420_body(const uint8_t *s0, const uint8_t *s1,
			      uint8_t *y0, uint8_t *y1, uint8_t *first,
			      uint8_t *second, int width, int yfirst)
{
	const __m128i lo8 = _mm_set1_epi16(0x00ff);
	int x;

	for (x = 0; x + 32 <= width; x += 32) {
		const __m128i *p0 = (const __m128i *)(s0 + 2 * x);
		const __m128i *p1 = (const __m128i *)(s1 + 2 * x);
		__m128i a0 = _mm_loadu_si128(p0), a1 = _mm_loadu_si128(p0 + 1);
		__m128i a2 = _mm_loadu_si128(p0 + 2), a3 = _mm_loadu_si128(p0 + 3);
		__m128i b0 = _mm_loadu_si128(p1), b1 = _mm_loadu_si128(p1 + 1);
		__m128i b2 = _mm_loadu_si128(p1 + 2), b3 = _mm_loadu_si128(p1 + 3);
		__m128i c01, c23;

		_mm_storeu_si128((__m128i *)(y0 + x), luma16(a0, a1, yfirst, lo8));
		_mm_storeu_si128((__m128i *)(y0 + x + 16),
				 luma16(a2, a3, yfirst, lo8));
		_mm_storeu_si128((__m128i *)(y1 + x), luma16(b0, b1, yfirst, lo8));
		_mm_storeu_si128((__m128i *)(y1 + x + 16),
				 luma16(b2, b3, yfirst, lo8));
		/* pavgb of whole pairs: the chroma bytes are what counts. */
		c01 = chroma16(_mm_avg_epu8(a0, b0), _mm_avg_epu8(a1, b1),
			       yfirst, lo8);
		c23 = chroma16(_mm_avg_epu8(a2, b2), _mm_avg_epu8(a3, b3),
			       yfirst, lo8);
		_mm_storeu_si128((__m128i *)(first + x / 2),
				 _mm_packus_epi16(_mm_and_si128(c01, lo8),
						  _mm_and_si128(c23, lo8)));
		_mm_storeu_si128((__m128i *)(second + x / 2),
				 _mm_packus_epi16(_mm_srli_epi16(c01, 8),
						  _mm_srli_epi16(c23, 8)));
	}
	if (x + 16 <= width) {
		const __m128i *p0 = (const __m128i *)(s0 + 2 * x);
		const __m128i *p1 = (const __m128i *)(s1 + 2 * x);
		__m128i a0 = _mm_loadu_si128(p0), a1 = _mm_loadu_si128(p0 + 1);
		__m128i b0 = _mm_loadu_si128(p1), b1 = _mm_loadu_si128(p1 + 1);
		__m128i c01;

		_mm_storeu_si128((__m128i *)(y0 + x), luma16(a0, a1, yfirst, lo8));
		_mm_storeu_si128((__m128i *)(y1 + x), luma16(b0, b1, yfirst, lo8));
		c01 = chroma16(_mm_avg_epu8(a0, b0), _mm_avg_epu8(a1, b1),
			       yfirst, lo8);
		_mm_storel_epi64((__m128i *)(first + x / 2),
				 _mm_packus_epi16(_mm_and_si128(c01, lo8), lo8));
		_mm_storel_epi64((__m128i *)(second + x / 2),
				 _mm_packus_epi16(_mm_srli_epi16(c01, 8), lo8));
		x += 16;
	}
	return x;
}

#define ORDER(name, yfirst, ufirst)                                          \
	static void name##_to_rgb24_sse2(const uint8_t *src, uint8_t *dst,   \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		int x = rgb_body(src, dst, width, k, yfirst, ufirst, 0);     \
		if (x < width)                                               \
			v4lc_yuv422_##name##_to_rgb24_c(src + 2 * x,         \
							dst + 3 * x,         \
							width - x, k);       \
	}                                                                    \
	static void name##_to_bgr24_sse2(const uint8_t *src, uint8_t *dst,   \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		int x = rgb_body(src, dst, width, k, yfirst, ufirst, 1);     \
		if (x < width)                                               \
			v4lc_yuv422_##name##_to_bgr24_c(src + 2 * x,         \
							dst + 3 * x,         \
							width - x, k);       \
	}                                                                    \
	static void name##_to_yuv420_sse2(const uint8_t *s0,                 \
					  const uint8_t *s1, uint8_t *y0,    \
					  uint8_t *y1, uint8_t *u,           \
					  uint8_t *v, int width)             \
	{                                                                    \
		int x = ufirst ? yuv420_body(s0, s1, y0, y1, u, v, width,    \
					     yfirst)                         \
			       : yuv420_body(s0, s1, y0, y1, v, u, width,    \
					     yfirst);                        \
		if (x < width)                                               \
			v4lc_yuv422_##name##_to_yuv420_c(                    \
				s0 + 2 * x, s1 + 2 * x, y0 + x, y1 + x,      \
				u + x / 2, v + x / 2, width - x);            \
	}

ORDER(yuyv, 1, 1)
ORDER(yvyu, 1, 0)
ORDER(uyvy, 0, 1)
ORDER(vyuy, 0, 0)

void v4lc_yuv422_init_sse2(struct v4lc_yuv422_dsp *dsp)
{
#define SET(ORD, name)                                                       \
	dsp->to_rgb[ORD][V4LC_RGB24] = name##_to_rgb24_sse2;                 \
	dsp->to_rgb[ORD][V4LC_BGR24] = name##_to_bgr24_sse2;                 \
	dsp->to_yuv420[ORD] = name##_to_yuv420_sse2;
	SET(V4LC_YUYV, yuyv)
	SET(V4LC_YVYU, yvyu)
	SET(V4LC_UYVY, uyvy)
	SET(V4LC_VYUY, vyuy)
#undef SET
}
