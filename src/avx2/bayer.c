/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 Bayer demosaic, bit-exact with src/scalar/bayer.c, 32 pixels a step.
 * The arithmetic is that of src/sse2/bayer.c (pavgb, exact 4-mean by a
 * parity correction) on 32 lanes, vpblendvb picks by column parity, and
 * vpshufb interleaves the three channel vectors into 24-bit pixels within
 * each 128-bit lane (16 pixels, 48 bytes); vperm2i128 puts the six 16-byte
 * pieces in memory order for three 32-byte stores.
 */
#include <immintrin.h>

#include "scalar/bayer.h"

static inline __m256i ld(const uint8_t *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

static inline __m256i avg4(__m256i a, __m256i b, __m256i c, __m256i d,
			   __m256i p, __m256i q)
{
	const __m256i one = _mm256_set1_epi8(1);
	__m256i odd = _mm256_or_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d));
	__m256i corr = _mm256_and_si256(_mm256_and_si256(odd, _mm256_xor_si256(p, q)),
					one);

	return _mm256_sub_epi8(_mm256_avg_epu8(p, q), corr);
}

/*
 * shuf[k][p]: byte i of output piece k (bytes 16 k .. 16 k + 15 of 48)
 * takes pixel (16 k + i) / 3 of channel p when (16 k + i) % 3 == p.
 */
#define Z 0x80
static const uint8_t shuf[3][3][16] __attribute__((aligned(16))) = {
	{ { 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z, Z, 5 },
	  { Z, 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z, Z },
	  { Z, Z, 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z } },
	{ { Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z, 10, Z },
	  { 5, Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z, 10 },
	  { Z, 5, Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z } },
	{ { Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15, Z, Z },
	  { Z, Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15, Z },
	  { 10, Z, Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15 } },
};
#undef Z

static inline __m256i mask(int k, int p)
{
	return _mm256_broadcastsi128_si256(
		_mm_load_si128((const __m128i *)shuf[k][p]));
}

/* One row's own colour, green and other colour at 32 pixels. */
static inline __attribute__((always_inline)) void
dem32(const uint8_t *a, const uint8_t *c, const uint8_t *b, int cfirst,
      __m256i *own, __m256i *g, __m256i *oth)
{
	/* blendv takes the second operand where the mask byte's top bit is set */
	const __m256i odd_lanes = _mm256_set1_epi16((short)0xff00);
	__m256i cl = ld(c - 1), cc = ld(c), cr = ld(c + 1);
	__m256i al = ld(a - 1), ac = ld(a), ar = ld(a + 1);
	__m256i bl = ld(b - 1), bc = ld(b), br = ld(b + 1);
	__m256i h2 = _mm256_avg_epu8(cl, cr), v2 = _mm256_avg_epu8(ac, bc);
	__m256i cross = avg4(cl, cr, ac, bc, h2, v2);
	__m256i diag = avg4(al, ar, bl, br, _mm256_avg_epu8(al, ar),
			    _mm256_avg_epu8(bl, br));

	if (cfirst) {
		*own = _mm256_blendv_epi8(cc, h2, odd_lanes);
		*g = _mm256_blendv_epi8(cross, cc, odd_lanes);
		*oth = _mm256_blendv_epi8(diag, v2, odd_lanes);
	} else {
		*own = _mm256_blendv_epi8(h2, cc, odd_lanes);
		*g = _mm256_blendv_epi8(cc, cross, odd_lanes);
		*oth = _mm256_blendv_epi8(v2, diag, odd_lanes);
	}
}

static inline __attribute__((always_inline)) void
step32(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d,
       int cfirst, int ownfirst)
{
	__m256i own, g, oth, p[3], o[3];

	dem32(a, c, b, cfirst, &own, &g, &oth);
	p[0] = ownfirst ? own : oth;
	p[1] = g;
	p[2] = ownfirst ? oth : own;
	for (int k = 0; k < 3; k++)
		o[k] = _mm256_or_si256(
			_mm256_or_si256(_mm256_shuffle_epi8(p[0], mask(k, 0)),
					_mm256_shuffle_epi8(p[1], mask(k, 1))),
			_mm256_shuffle_epi8(p[2], mask(k, 2)));
	_mm256_storeu_si256((__m256i *)d, _mm256_permute2x128_si256(o[0], o[1], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_permute2x128_si256(o[2], o[0], 0x30));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_permute2x128_si256(o[1], o[2], 0x31));
}

/*
 * Pixels 0, 1 by the scalar code, steps of 32 from pixel 2 while pixel
 * x + 32 exists (the loads reach it), one step moved back to an even start
 * for the rest, the last one or two pixels by the scalar code.
 */
static inline __attribute__((always_inline)) void
row(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d, int w,
    int cfirst, int ownfirst)
{
	int kind = 2 * cfirst + ownfirst, x = 2;

	if (w < 35) {
		v4lc_bayer_span_c(a, c, b, d, w, 0, w, kind);
		return;
	}
	v4lc_bayer_span_c(a, c, b, d, w, 0, 2, kind);
	step32(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
	/*
	 * Then from the first even x > 2 where d + 3 x is 32-byte aligned
	 * (3 * 11 = 1 mod 32), if the row start allows one: the steps in
	 * between overlap and rewrite identical bytes.
	 */
	if (!((uintptr_t)d & 1)) {
		int xa = (int)((0u - (unsigned)(uintptr_t)d) * 11u & 31u);

		x = xa > 2 ? xa : xa + 32;
	} else {
		x += 32;
	}
	for (; x <= w - 33; x += 32)
		step32(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
	if (w - x > 2) {
		x = (w - 33) & ~1;
		step32(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
		x += 32;
	}
	v4lc_bayer_span_c(a, c, b, d, w, x, w, kind);
}

#define KERNEL(name, cfirst, ownfirst)                                       \
	static void name##_avx2(const uint8_t *a, const uint8_t *c,          \
				const uint8_t *b, uint8_t *d, int w)         \
	{                                                                    \
		row(a, c, b, d, w, cfirst, ownfirst);                        \
	}
KERNEL(gb, 0, 0)
KERNEL(gr, 0, 1)
KERNEL(bg, 1, 0)
KERNEL(rg, 1, 1)
#undef KERNEL

/*
 * Fused Bayer -> YUV420 (spec: v4lc_bayer_yuv_span_c): both rows'
 * R, G, B vectors from dem32, then the rgb2yuv arithmetic on them:
 * luma by vpunpck{l,h}bw against zero (c << 8 in 16-bit lanes, pixels
 * 0-7 | 16-23 and 8-15 | 24-31, which vpackuswb puts back in order) and
 * vpmulhuw; chroma from vpmaddubsw pair sums (16 block sums in pixel
 * order) of both rows, << 6, vpmulhuw and wrapping 16-bit adds.
 */

struct yk {
	__m256i yr, yg, yb, yadd, ur, ug, ub, vr, vg, vb, cadd, ones;
};

static inline __m256i luma_half(const struct yk *k, __m256i r, __m256i g,
				__m256i b)
{
	__m256i s = _mm256_add_epi16(_mm256_mulhi_epu16(r, k->yr),
				     _mm256_mulhi_epu16(g, k->yg));

	s = _mm256_add_epi16(s, _mm256_mulhi_epu16(b, k->yb));
	return _mm256_srli_epi16(_mm256_add_epi16(s, k->yadd), 8);
}

static inline __m256i luma32(const struct yk *k, __m256i r, __m256i g,
			     __m256i b)
{
	const __m256i z = _mm256_setzero_si256();
	__m256i lo = luma_half(k, _mm256_unpacklo_epi8(z, r),
			       _mm256_unpacklo_epi8(z, g),
			       _mm256_unpacklo_epi8(z, b));
	__m256i hi = luma_half(k, _mm256_unpackhi_epi8(z, r),
			       _mm256_unpackhi_epi8(z, g),
			       _mm256_unpackhi_epi8(z, b));

	return _mm256_packus_epi16(lo, hi);
}

static inline __attribute__((always_inline)) void
yuv_step32(const uint8_t *const rows[4], int x, uint8_t *y0, uint8_t *y1,
	   uint8_t *u, uint8_t *v, int cfirst0, int red0, const struct yk *k)
{
	__m256i o0, g0, t0, o1, g1, t1, r0, b0, r1, b1, sr, sg, sb, cu, cv;

	dem32(rows[0] + x, rows[1] + x, rows[2] + x, cfirst0, &o0, &g0, &t0);
	dem32(rows[1] + x, rows[2] + x, rows[3] + x, !cfirst0, &o1, &g1, &t1);
	r0 = red0 ? o0 : t0;
	b0 = red0 ? t0 : o0;
	r1 = red0 ? t1 : o1;
	b1 = red0 ? o1 : t1;
	_mm256_storeu_si256((__m256i *)(y0 + x), luma32(k, r0, g0, b0));
	_mm256_storeu_si256((__m256i *)(y1 + x), luma32(k, r1, g1, b1));
	sr = _mm256_add_epi16(_mm256_maddubs_epi16(r0, k->ones),
			      _mm256_maddubs_epi16(r1, k->ones));
	sg = _mm256_add_epi16(_mm256_maddubs_epi16(g0, k->ones),
			      _mm256_maddubs_epi16(g1, k->ones));
	sb = _mm256_add_epi16(_mm256_maddubs_epi16(b0, k->ones),
			      _mm256_maddubs_epi16(b1, k->ones));
	sr = _mm256_slli_epi16(sr, 6);
	sg = _mm256_slli_epi16(sg, 6);
	sb = _mm256_slli_epi16(sb, 6);
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
	_mm_storeu_si128((__m128i *)(u + x / 2), _mm256_castsi256_si128(cu));
	_mm_storeu_si128((__m128i *)(v + x / 2), _mm256_extracti128_si256(cu, 1));
}

/* As row(): scalar pairs 0..1, 32-pixel steps from 2, an overlapped step. */
static inline __attribute__((always_inline)) void
yuv_rows(const uint8_t *const rows[4], uint8_t *y0, uint8_t *y1, uint8_t *u,
	 uint8_t *v, int w, int cfirst0, int red0, const struct v4lc_rgb2yuv *kp)
{
	int kind = 2 * cfirst0 + red0, x = 2;
	struct yk k;

	if (w < 35) {
		v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, 0, w, kind, kp);
		return;
	}
	k.yr = _mm256_set1_epi16((short)kp->yr);
	k.yg = _mm256_set1_epi16((short)kp->yg);
	k.yb = _mm256_set1_epi16((short)kp->yb);
	k.yadd = _mm256_set1_epi16((short)((kp->y_off << 8) + 128));
	k.ur = _mm256_set1_epi16((short)kp->ur);
	k.ug = _mm256_set1_epi16((short)kp->ug);
	k.ub = _mm256_set1_epi16((short)kp->ub);
	k.vr = _mm256_set1_epi16((short)kp->vr);
	k.vg = _mm256_set1_epi16((short)kp->vg);
	k.vb = _mm256_set1_epi16((short)kp->vb);
	k.cadd = _mm256_set1_epi16((short)32896);
	k.ones = _mm256_set1_epi8(1);
	v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, 0, 2, kind, kp);
	yuv_step32(rows, x, y0, y1, u, v, cfirst0, red0, &k);
	/* then from the first even x > 2 with y0 + x 32-byte aligned */
	if (!((uintptr_t)y0 & 1)) {
		int xa = (int)((0u - (unsigned)(uintptr_t)y0) & 31u);

		x = xa > 2 ? xa : xa + 32;
	} else {
		x += 32;
	}
	for (; x <= w - 33; x += 32)
		yuv_step32(rows, x, y0, y1, u, v, cfirst0, red0, &k);
	if (w - x > 2) {
		x = (w - 33) & ~1;
		yuv_step32(rows, x, y0, y1, u, v, cfirst0, red0, &k);
		x += 32;
	}
	v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, x, w, kind, kp);
}

#define YUV_KERNEL(name, cfirst0, red0)                                      \
	static void name##_yuv_avx2(const uint8_t *const rows[4],            \
				    uint8_t *y0, uint8_t *y1, uint8_t *u,    \
				    uint8_t *v, int w,                       \
				    const struct v4lc_rgb2yuv *k)            \
	{                                                                    \
		yuv_rows(rows, y0, y1, u, v, w, cfirst0, red0, k);           \
	}
YUV_KERNEL(bggr, 1, 0)
YUV_KERNEL(gbrg, 0, 0)
YUV_KERNEL(grbg, 0, 1)
YUV_KERNEL(rggb, 1, 1)
#undef YUV_KERNEL

/*
 * Planar path (spec: v4lc_bayer_split_span_c, v4lc_bayer_planar_span_c).
 * split: 64 samples a step, vpand / vpsrlw by 8 and vpackuswb, vpermq to
 * put the quadwords back in order. planar: 32 column pairs (C site, G site)
 * a step, from plane loads at i - 1, i, i + 1 (no blends, no wasted lanes:
 * 2 averages and 2 exact 4-means per pair vector); the six byte vectors go
 * to three 16-bit pair streams (vpunpck{l,h}bw), then each 128-bit lane's
 * three streams are interleaved into 48 bytes by one vpshufb per stream
 * (a fixed rotation) and two vpblendw per 16-byte piece.
 */

static inline void split_step(const uint8_t *s, uint8_t *e, uint8_t *o)
{
	const __m256i lo8 = _mm256_set1_epi16(0x00ff);
	__m256i x = ld(s), y = ld(s + 32);
	__m256i ev = _mm256_packus_epi16(_mm256_and_si256(x, lo8),
					 _mm256_and_si256(y, lo8));
	__m256i od = _mm256_packus_epi16(_mm256_srli_epi16(x, 8),
					 _mm256_srli_epi16(y, 8));

	_mm256_storeu_si256((__m256i *)e, _mm256_permute4x64_epi64(ev, 0xd8));
	_mm256_storeu_si256((__m256i *)o, _mm256_permute4x64_epi64(od, 0xd8));
}

static void split_avx2(const uint8_t *src, uint8_t *even, uint8_t *odd, int w)
{
	int i = 0;

	if (w >= 64) {
		for (; 2 * i + 64 <= w; i += 32)
			split_step(src + 2 * i, even + i, odd + i);
		if (2 * i < w - 2) {
			i = (w - 64) >> 1;
			split_step(src + 2 * i, even + i, odd + i);
			i += 32;
		}
	}
	v4lc_bayer_split_span_c(src, even, odd, w, i);
}

/* rot[s]: stream s's words in the positions they take in the 3 pieces */
static const uint8_t rot3[3][16] __attribute__((aligned(16))) = {
	{ 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15, 4, 5, 10, 11 },
	{ 10, 11, 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15, 4, 5 },
	{ 4, 5, 10, 11, 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15 },
};

static inline __m256i rotm(int s)
{
	return _mm256_broadcastsi128_si256(
		_mm_load_si128((const __m128i *)rot3[s]));
}

/* Per lane: words x0 y0 z0 x1 y1 z1 ... x7 y7 z7 as pieces o[0..2]. */
static inline __attribute__((always_inline)) void
inter3w(__m256i x, __m256i y, __m256i z, __m256i o[3])
{
	x = _mm256_shuffle_epi8(x, rotm(0));
	y = _mm256_shuffle_epi8(y, rotm(1));
	z = _mm256_shuffle_epi8(z, rotm(2));
	o[0] = _mm256_blend_epi16(_mm256_blend_epi16(x, y, 0x92), z, 0x24);
	o[1] = _mm256_blend_epi16(_mm256_blend_epi16(x, y, 0x24), z, 0x49);
	o[2] = _mm256_blend_epi16(_mm256_blend_epi16(x, y, 0x49), z, 0x92);
}

static inline __m256i mean4(__m256i a, __m256i b, __m256i c, __m256i d,
			    __m256i p, __m256i q)
{
	return avg4(a, b, c, d, p, q);
}

/*
 * 32 column pairs of a row: p, q the row's planes at pair i, ap .. bq those
 * of the rows above and below; q, aq, bq are also read at index -1, p at
 * 32 (C-first) or -1 (G-first). C-first: pair i is (C site 2 i, G site
 * 2 i + 1), p the even plane, q the odd one. G-first: pair i is (G site
 * 2 i, C site 2 i + 1), p the odd plane and q the even one + 1, so that the
 * C site's arithmetic is the same and the G site takes the values at i - 1.
 */
static inline __attribute__((always_inline)) void
pair_step(const uint8_t *p, const uint8_t *q, const uint8_t *ap,
	  const uint8_t *aq, const uint8_t *bp, const uint8_t *bq, uint8_t *d,
	  int cfirst, int ownfirst)
{
	__m256i p0 = ld(p), pn = ld(cfirst ? p + 1 : p - 1);
	__m256i qm = ld(q - 1), q0 = ld(q);
	__m256i vap = ld(ap), vbp = ld(bp);
	__m256i aqm = ld(aq - 1), aq0 = ld(aq), bqm = ld(bq - 1), bq0 = ld(bq);
	__m256i h = _mm256_avg_epu8(qm, q0), v = _mm256_avg_epu8(vap, vbp);
	__m256i tm = _mm256_avg_epu8(aqm, bqm), t0 = _mm256_avg_epu8(aq0, bq0);
	__m256i cown = p0, cg = mean4(qm, q0, vap, vbp, h, v);
	__m256i coth = mean4(aqm, bqm, aq0, bq0, tm, t0);
	__m256i gown = _mm256_avg_epu8(p0, pn);
	__m256i gg = cfirst ? q0 : qm, goth = cfirst ? t0 : tm;
	__m256i c0 = ownfirst ? cown : coth, c2 = ownfirst ? coth : cown;
	__m256i g0 = ownfirst ? gown : goth, g2 = ownfirst ? goth : gown;
	/* the pair's 6 bytes as three 16-bit words x, y, z */
	__m256i x0 = cfirst ? c0 : g0, x1 = cfirst ? cg : gg;
	__m256i y0 = cfirst ? c2 : g2, y1 = cfirst ? g0 : c0;
	__m256i z0 = cfirst ? gg : cg, z1 = cfirst ? g2 : c2;
	__m256i lo[3], hi[3];

	inter3w(_mm256_unpacklo_epi8(x0, x1), _mm256_unpacklo_epi8(y0, y1),
		_mm256_unpacklo_epi8(z0, z1), lo);
	inter3w(_mm256_unpackhi_epi8(x0, x1), _mm256_unpackhi_epi8(y0, y1),
		_mm256_unpackhi_epi8(z0, z1), hi);
	/* lo: pairs 0-7 | 16-23, hi: pairs 8-15 | 24-31 */
	_mm256_storeu_si256((__m256i *)d, _mm256_permute2x128_si256(lo[0], lo[1], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_permute2x128_si256(lo[2], hi[0], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_permute2x128_si256(hi[1], hi[2], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 96),
			    _mm256_permute2x128_si256(lo[0], lo[1], 0x31));
	_mm256_storeu_si256((__m256i *)(d + 128),
			    _mm256_permute2x128_si256(lo[2], hi[0], 0x31));
	_mm256_storeu_si256((__m256i *)(d + 160),
			    _mm256_permute2x128_si256(hi[1], hi[2], 0x31));
}

/*
 * Steps of 32 pairs: one at pair 0, then from the first pair whose output
 * is 32-byte aligned (when the row start is even; the overlap rewrites
 * identical bytes), the last step moved back to end at the last whole
 * pair; an odd last pixel by the scalar code.
 */
static inline __attribute__((always_inline)) void
planar_row(const uint8_t *const pl[6], uint8_t *d, int w, int cfirst,
	   int ownfirst)
{
	int kind = 2 * cfirst + ownfirst, pairs = w / 2, i;
	const uint8_t *p, *q, *ap, *aq, *bp, *bq;

	if (pairs < 32) {
		v4lc_bayer_planar_span_c(pl, d, 0, w, kind);
		return;
	}
	if (cfirst) {
		ap = pl[0], aq = pl[1], p = pl[2], q = pl[3], bp = pl[4], bq = pl[5];
	} else {
		ap = pl[1], aq = pl[0] + 1, p = pl[3], q = pl[2] + 1;
		bp = pl[5], bq = pl[4] + 1;
	}
	pair_step(p, q, ap, aq, bp, bq, d, cfirst, ownfirst);
	i = 32;
	if (!((uintptr_t)d & 1)) {
		/* 6 i = -d (mod 32): 3 i = -d / 2 (mod 16), 3 * 11 = 1 */
		i = (int)((0u - ((unsigned)(uintptr_t)d >> 1)) * 11u & 15u);
		if (!i)
			i = 32;
	}
	for (; i + 32 <= pairs; i += 32)
		pair_step(p + i, q + i, ap + i, aq + i, bp + i, bq + i,
			  d + 6 * i, cfirst, ownfirst);
	if (i < pairs) {
		i = pairs - 32;
		pair_step(p + i, q + i, ap + i, aq + i, bp + i, bq + i,
			  d + 6 * i, cfirst, ownfirst);
	}
	v4lc_bayer_planar_span_c(pl, d, 2 * pairs, w, kind);
}

#define PLANAR(name, cfirst, ownfirst)                                       \
	static void planar_##name##_avx2(const uint8_t *const pl[6],         \
					 uint8_t *d, int w)                  \
	{                                                                    \
		planar_row(pl, d, w, cfirst, ownfirst);                      \
	}
PLANAR(gb, 0, 0)
PLANAR(gr, 0, 1)
PLANAR(bg, 1, 0)
PLANAR(rg, 1, 1)
#undef PLANAR

void v4lc_bayer_init_avx2(struct v4lc_bayer_dsp *dsp)
{
	static v4lc_bayer_row_fn *const kinds[4] = { gb_avx2, gr_avx2, bg_avx2,
						     rg_avx2 };

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->to_yuv420[V4LC_BGGR] = bggr_yuv_avx2;
	dsp->to_yuv420[V4LC_GBRG] = gbrg_yuv_avx2;
	dsp->to_yuv420[V4LC_GRBG] = grbg_yuv_avx2;
	dsp->to_yuv420[V4LC_RGGB] = rggb_yuv_avx2;
	{
		static v4lc_bayer_planar_fn *const pk[4] = {
			planar_gb_avx2, planar_gr_avx2, planar_bg_avx2,
			planar_rg_avx2
		};

		dsp->split = split_avx2;
		v4lc_bayer_fill_planar(dsp, pk);
	}
}
