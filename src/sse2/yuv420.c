/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 yuv420 kernels, bit-exact with pixel.h, 16 pixels per step.
 *
 * Even and odd pixels share a chroma sample, so luma is split into even and
 * odd 16-bit lanes and each chroma lane serves one of each: no chroma
 * duplication is needed. The output of a pixel pair is three 16-bit words
 * (for RGB24: R0G0, B0R1, G1B1); words are interleaved with punpck into one
 * 64-bit lane per pair (the fourth word is don't-care) and written with
 * overlapping 8-byte stores, each overwriting the previous one's spare two
 * bytes. The last store of a step writes two bytes past its 48, so the
 * vector loop stops while at least one more pixel follows.
 */
#include <emmintrin.h>

#include "scalar/yuv420.h"

struct coefs {
	__m128i yoff7, yk, vr, ug, vg, ub, round, sign, lo8, k128;
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
	c->sign = _mm_set1_epi16((short)0x8000);
	c->lo8 = _mm_set1_epi16(0x00ff);
	c->k128 = _mm_set1_epi16(128);
}

/* movhps: the high 8 bytes of q to an unaligned address. */
static inline void store_hi(uint8_t *p, __m128i q)
{
	_mm_storeh_pi((__m64 *)(void *)p, _mm_castsi128_ps(q));
}

/*
 * 16 pixels from 16 luma bytes and 8 chroma lanes holding (U - 128) << 8 and
 * (V - 128) << 8; writes 48 bytes plus two don't-care bytes after them.
 */
static inline void pixels16(const uint8_t *ysrc, __m128i u8, __m128i v8,
			    uint8_t *dst, const struct coefs *c, int bgr,
			    int exact)
{
	__m128i y = _mm_loadu_si128((const __m128i *)ysrc);
	__m128i ye = _mm_mullo_epi16(_mm_and_si128(y, c->lo8), c->k128);
	__m128i yo = _mm_mulhi_epu16(_mm_andnot_si128(c->lo8, y), c->sign);
	__m128i cr, cg, cb, re, ge, be, ro, go, bo, p0, p1, p2, w0, w1, w2;
	__m128i lo, hi, z0, z1, q;

	/* Luma terms with the +16 rounding of all three channels. */
	ye = _mm_add_epi16(_mm_mulhi_epi16(_mm_sub_epi16(ye, c->yoff7), c->yk),
			   c->round);
	yo = _mm_add_epi16(_mm_mulhi_epi16(_mm_sub_epi16(yo, c->yoff7), c->yk),
			   c->round);

	/* Chroma terms (G subtracts cg). */
	cr = _mm_mulhi_epi16(v8, c->vr);
	cb = _mm_mulhi_epi16(u8, c->ub);
	cg = _mm_add_epi16(_mm_mulhi_epi16(u8, c->ug),
			   _mm_mulhi_epi16(v8, c->vg));

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

	/* Words per pair: w0 = (first0, G0), w1 = (last0, first1),
	 * w2 = (G1, last1), where first/last are R/B or B/R. */
	p0 = _mm_packus_epi16(re, be);
	p1 = _mm_packus_epi16(ge, ro);
	p2 = _mm_packus_epi16(go, bo);
	w0 = _mm_unpacklo_epi8(p0, p1);
	w1 = _mm_unpackhi_epi8(p0, p1);
	w2 = _mm_unpacklo_epi8(p2, _mm_srli_si128(p2, 8));

	lo = _mm_unpacklo_epi16(w0, w1);
	hi = _mm_unpackhi_epi16(w0, w1);
	z0 = _mm_unpacklo_epi16(w2, w2);
	z1 = _mm_unpackhi_epi16(w2, w2);

	q = _mm_unpacklo_epi32(lo, z0);
	_mm_storel_epi64((__m128i *)dst, q);
	store_hi(dst + 6, q);
	q = _mm_unpackhi_epi32(lo, z0);
	_mm_storel_epi64((__m128i *)(dst + 12), q);
	store_hi(dst + 18, q);
	q = _mm_unpacklo_epi32(hi, z1);
	_mm_storel_epi64((__m128i *)(dst + 24), q);
	store_hi(dst + 30, q);
	q = _mm_unpackhi_epi32(hi, z1);
	_mm_storel_epi64((__m128i *)(dst + 36), q);
	if (exact) /* bytes 6..13: the previous pair's last word, the pair */
		_mm_storel_epi64((__m128i *)(dst + 40), _mm_srli_si128(q, 6));
	else
		store_hi(dst + 42, q);
}

static inline void planar_block(const uint8_t *y, const uint8_t *u,
				const uint8_t *v, uint8_t *dst, int x,
				const struct coefs *c, int bgr, int exact)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i cu = _mm_loadl_epi64((const __m128i *)(u + x / 2));
	__m128i cv = _mm_loadl_epi64((const __m128i *)(v + x / 2));

	cu = _mm_xor_si128(_mm_unpacklo_epi8(zero, cu), c->sign);
	cv = _mm_xor_si128(_mm_unpacklo_epi8(zero, cv), c->sign);
	pixels16(y + x, cu, cv, dst + 3 * x, c, bgr, exact);
}

/* vfirst: the chroma pairs are V,U (NV21) instead of U,V (NV12). */
static inline void semi_block(const uint8_t *y, const uint8_t *uv,
			      uint8_t *dst, int x, const struct coefs *c,
			      int vfirst, int bgr, int exact)
{
	const __m128i hi8 = _mm_set1_epi16((short)0xff00);
	__m128i p = _mm_loadu_si128((const __m128i *)(uv + x));
	__m128i first = _mm_xor_si128(_mm_slli_epi16(p, 8), c->sign);
	__m128i second = _mm_xor_si128(_mm_and_si128(p, hi8), c->sign);

	if (vfirst)
		pixels16(y + x, second, first, dst + 3 * x, c, bgr, exact);
	else
		pixels16(y + x, first, second, dst + 3 * x, c, bgr, exact);
}

/*
 * Steps of 16 pixels while a 17th follows (for the two spare bytes); then
 * one exact step (no spare bytes) moved back to end at the row end, or one
 * pixel before it (it starts at an even pixel, so it meets its chroma),
 * rewriting some pixels with the same values. Returns where the scalar
 * kernel takes over (at most one pixel).
 */
static inline int planar_body(const uint8_t *y, const uint8_t *u,
			      const uint8_t *v, uint8_t *dst, int width,
			      const struct v4lc_yuv2rgb *k, int bgr)
{
	struct coefs c;
	int x;

	coefs_init(&c, k);
	for (x = 0; x + 17 <= width; x += 16)
		planar_block(y, u, v, dst, x, &c, bgr, 0);
	if (x < width - 1 && width >= 16) {
		x = (width - 16) & ~1;
		planar_block(y, u, v, dst, x, &c, bgr, 1);
		x += 16;
	}
	return x;
}

static inline int semi_body(const uint8_t *y, const uint8_t *uv, uint8_t *dst,
			    int width, const struct v4lc_yuv2rgb *k, int vfirst,
			    int bgr)
{
	struct coefs c;
	int x;

	coefs_init(&c, k);
	for (x = 0; x + 17 <= width; x += 16)
		semi_block(y, uv, dst, x, &c, vfirst, bgr, 0);
	if (x < width - 1 && width >= 16) {
		x = (width - 16) & ~1;
		semi_block(y, uv, dst, x, &c, vfirst, bgr, 1);
		x += 16;
	}
	return x;
}

#define PLANAR(name, bgr)                                                    \
	static void planar_##name##_sse2(const uint8_t *y, const uint8_t *u, \
					 const uint8_t *v, uint8_t *dst,     \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		int x = planar_body(y, u, v, dst, width, k, bgr);            \
		if (x < width)                                               \
			v4lc_yuv420_planar_##name##_c(y + x, u + x / 2,      \
						      v + x / 2, dst + 3 * x, \
						      width - x, k);         \
	}
#define SEMI(fmt, name, vfirst, bgr)                                         \
	static void fmt##_##name##_sse2(const uint8_t *y, const uint8_t *uv, \
					uint8_t *dst, int width,             \
					const struct v4lc_yuv2rgb *k)        \
	{                                                                    \
		int x = semi_body(y, uv, dst, width, k, vfirst, bgr);        \
		if (x < width)                                               \
			v4lc_yuv420_##fmt##_##name##_c(y + x, uv + x,        \
						       dst + 3 * x,          \
						       width - x, k);        \
	}

PLANAR(rgb24, 0)
PLANAR(bgr24, 1)
SEMI(nv12, rgb24, 0, 0)
SEMI(nv12, bgr24, 0, 1)
SEMI(nv21, rgb24, 1, 0)
SEMI(nv21, bgr24, 1, 1)

void v4lc_yuv420_init_sse2(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = planar_rgb24_sse2;
	dsp->planar[V4LC_BGR24] = planar_bgr24_sse2;
	dsp->nv12[V4LC_RGB24] = nv12_rgb24_sse2;
	dsp->nv12[V4LC_BGR24] = nv12_bgr24_sse2;
	dsp->nv21[V4LC_RGB24] = nv21_rgb24_sse2;
	dsp->nv21[V4LC_BGR24] = nv21_bgr24_sse2;
}
