/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 Bayer demosaic, bit-exact with src/scalar/bayer.c, 16 pixels a step.
 *
 * Every lane computes both the C-site and the G-site values and the even /
 * odd lanes pick theirs. Means of two are pavgb. The mean of four,
 * (a + b + c + d + 2) >> 2, is pavgb(p, q) with p = pavgb(a, b),
 * q = pavgb(c, d), minus one exactly when p + q is odd and a + b or c + d
 * was odd (then both pavgb rounded up): with a + b = 2p - e1 and
 * c + d = 2q - e2, (2p + 2q + 2 - e1 - e2) >> 2 equals (p + q + 1) >> 1
 * unless e1 + e2 > 0 and p + q is odd.
 *
 * A pixel pair is 6 bytes: three 16-bit words (byte 0 / byte 1 of a pair's
 * bytes), made from the even and odd lanes with masks and shifts,
 * interleaved into one 64-bit lane per pair (two spare bytes) and written
 * with overlapping 8-byte stores; the last one writes two bytes of the next
 * pixel, which the code after it rewrites.
 */
#include <emmintrin.h>

#include "scalar/bayer.h"

static inline __m128i ld(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

/* (a + b + c + d + 2) >> 2 from p = avg(a, b), q = avg(c, d). */
static inline __m128i avg4(__m128i a, __m128i b, __m128i c, __m128i d,
			   __m128i p, __m128i q)
{
	const __m128i one = _mm_set1_epi8(1);
	__m128i odd = _mm_or_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d));
	__m128i corr = _mm_and_si128(_mm_and_si128(odd, _mm_xor_si128(p, q)), one);

	return _mm_sub_epi8(_mm_avg_epu8(p, q), corr);
}

/* One row's own colour, green and other colour at 16 pixels. */
static inline __attribute__((always_inline)) void
dem16(const uint8_t *a, const uint8_t *c, const uint8_t *b, int cfirst,
      __m128i *ownp, __m128i *gp, __m128i *othp)
{
	const __m128i lo = _mm_set1_epi16(0x00ff);
	__m128i cl = ld(c - 1), cc = ld(c), cr = ld(c + 1);
	__m128i al = ld(a - 1), ac = ld(a), ar = ld(a + 1);
	__m128i bl = ld(b - 1), bc = ld(b), br = ld(b + 1);
	__m128i h2 = _mm_avg_epu8(cl, cr), v2 = _mm_avg_epu8(ac, bc);
	__m128i cross = avg4(cl, cr, ac, bc, h2, v2);
	__m128i diag = avg4(al, ar, bl, br, _mm_avg_epu8(al, ar),
			    _mm_avg_epu8(bl, br));

	/* even lanes: the low byte of each 16-bit lane */
	if (cfirst) {
		*ownp = _mm_or_si128(_mm_and_si128(cc, lo), _mm_andnot_si128(lo, h2));
		*gp = _mm_or_si128(_mm_and_si128(cross, lo), _mm_andnot_si128(lo, cc));
		*othp = _mm_or_si128(_mm_and_si128(diag, lo), _mm_andnot_si128(lo, v2));
	} else {
		*ownp = _mm_or_si128(_mm_and_si128(h2, lo), _mm_andnot_si128(lo, cc));
		*gp = _mm_or_si128(_mm_and_si128(cc, lo), _mm_andnot_si128(lo, cross));
		*othp = _mm_or_si128(_mm_and_si128(v2, lo), _mm_andnot_si128(lo, diag));
	}
}

static inline __attribute__((always_inline)) void
step16(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d,
       int cfirst, int ownfirst)
{
	const __m128i lo = _mm_set1_epi16(0x00ff), zero = _mm_setzero_si128();
	__m128i own, g, oth, p0, p2, w0, w1, w2, t0, t1, s0, s1;

	dem16(a, c, b, cfirst, &own, &g, &oth);
	p0 = ownfirst ? own : oth;
	p2 = ownfirst ? oth : own;
	/* pair words: P0e|Ge, P2e|P0o, Go|P2o */
	w0 = _mm_or_si128(_mm_and_si128(p0, lo), _mm_slli_epi16(g, 8));
	w1 = _mm_or_si128(_mm_and_si128(p2, lo), _mm_andnot_si128(lo, p0));
	w2 = _mm_or_si128(_mm_srli_epi16(g, 8), _mm_andnot_si128(lo, p2));
	t0 = _mm_unpacklo_epi16(w0, w1);
	t1 = _mm_unpackhi_epi16(w0, w1);
	s0 = _mm_unpacklo_epi16(w2, zero);
	s1 = _mm_unpackhi_epi16(w2, zero);
	{
		__m128i q0 = _mm_unpacklo_epi32(t0, s0), q1 = _mm_unpackhi_epi32(t0, s0);
		__m128i q2 = _mm_unpacklo_epi32(t1, s1), q3 = _mm_unpackhi_epi32(t1, s1);

		_mm_storel_epi64((__m128i *)d, q0);
		_mm_storeh_pi((__m64 *)(void *)(d + 6), _mm_castsi128_ps(q0));
		_mm_storel_epi64((__m128i *)(d + 12), q1);
		_mm_storeh_pi((__m64 *)(void *)(d + 18), _mm_castsi128_ps(q1));
		_mm_storel_epi64((__m128i *)(d + 24), q2);
		_mm_storeh_pi((__m64 *)(void *)(d + 30), _mm_castsi128_ps(q2));
		_mm_storel_epi64((__m128i *)(d + 36), q3);
		_mm_storeh_pi((__m64 *)(void *)(d + 42), _mm_castsi128_ps(q3));
	}
}

/*
 * Pixels 0, 1 by the scalar code (column -1 mirrors), steps of 16 from
 * pixel 2 while pixel x + 16 exists (loads reach it; the stores' two spare
 * bytes land in it), one step moved back to an even start for the rest,
 * and the last one or two pixels by the scalar code.
 */
static inline __attribute__((always_inline)) void
row(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d, int w,
    int cfirst, int ownfirst)
{
	int kind = 2 * cfirst + ownfirst, x = 2;

	if (w < 19) {
		v4lc_bayer_span_c(a, c, b, d, w, 0, w, kind);
		return;
	}
	v4lc_bayer_span_c(a, c, b, d, w, 0, 2, kind);
	for (; x <= w - 17; x += 16)
		step16(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
	if (w - x > 2) {
		x = (w - 17) & ~1;
		step16(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
		x += 16;
	}
	v4lc_bayer_span_c(a, c, b, d, w, x, w, kind);
}

#define KERNEL(name, cfirst, ownfirst)                                       \
	static void name##_sse2(const uint8_t *a, const uint8_t *c,          \
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
 * Fused Bayer -> YUV420 (spec: v4lc_bayer_yuv_span_c), 16 pixels of two
 * rows a step: R, G, B of both rows from dem16, luma by punpck{l,h}bw
 * against zero (c << 8) and pmulhuw as v4lc_rgb_to_y, chroma from the 2x2
 * sums (even + odd byte of each 16-bit lane, both rows) << 6, pmulhuw and
 * wrapping 16-bit adds as v4lc_rgb_to_uv.
 */

struct yk {
	__m128i yr, yg, yb, yadd, ur, ug, ub, vr, vg, vb, cadd;
};

static inline __m128i luma_half(const struct yk *k, __m128i r, __m128i g,
				__m128i b)
{
	__m128i s = _mm_add_epi16(_mm_mulhi_epu16(r, k->yr),
				  _mm_mulhi_epu16(g, k->yg));

	s = _mm_add_epi16(s, _mm_mulhi_epu16(b, k->yb));
	return _mm_srli_epi16(_mm_add_epi16(s, k->yadd), 8);
}

static inline __m128i luma16(const struct yk *k, __m128i r, __m128i g,
			     __m128i b)
{
	const __m128i z = _mm_setzero_si128();

	return _mm_packus_epi16(
		luma_half(k, _mm_unpacklo_epi8(z, r), _mm_unpacklo_epi8(z, g),
			  _mm_unpacklo_epi8(z, b)),
		luma_half(k, _mm_unpackhi_epi8(z, r), _mm_unpackhi_epi8(z, g),
			  _mm_unpackhi_epi8(z, b)));
}

/* Sums of byte pairs (2i, 2i + 1) of two rows, << 6, in 16-bit lanes. */
static inline __m128i sum4(__m128i p, __m128i q)
{
	const __m128i lo = _mm_set1_epi16(0x00ff);
	__m128i s = _mm_add_epi16(_mm_add_epi16(_mm_and_si128(p, lo),
						_mm_srli_epi16(p, 8)),
				  _mm_add_epi16(_mm_and_si128(q, lo),
						_mm_srli_epi16(q, 8)));

	return _mm_slli_epi16(s, 6);
}

static inline __attribute__((always_inline)) void
yuv_step16(const uint8_t *const rows[4], int x, uint8_t *y0, uint8_t *y1,
	   uint8_t *u, uint8_t *v, int cfirst0, int red0, const struct yk *k)
{
	__m128i o0, g0, t0, o1, g1, t1, r0, b0, r1, b1, sr, sg, sb, cu, cv;

	dem16(rows[0] + x, rows[1] + x, rows[2] + x, cfirst0, &o0, &g0, &t0);
	dem16(rows[1] + x, rows[2] + x, rows[3] + x, !cfirst0, &o1, &g1, &t1);
	r0 = red0 ? o0 : t0;
	b0 = red0 ? t0 : o0;
	r1 = red0 ? t1 : o1;
	b1 = red0 ? o1 : t1;
	_mm_storeu_si128((__m128i *)(y0 + x), luma16(k, r0, g0, b0));
	_mm_storeu_si128((__m128i *)(y1 + x), luma16(k, r1, g1, b1));
	sr = sum4(r0, r1);
	sg = sum4(g0, g1);
	sb = sum4(b0, b1);
	cu = _mm_add_epi16(k->cadd, _mm_mulhi_epu16(sb, k->ub));
	cu = _mm_sub_epi16(cu, _mm_mulhi_epu16(sr, k->ur));
	cu = _mm_sub_epi16(cu, _mm_mulhi_epu16(sg, k->ug));
	cv = _mm_add_epi16(k->cadd, _mm_mulhi_epu16(sr, k->vr));
	cv = _mm_sub_epi16(cv, _mm_mulhi_epu16(sg, k->vg));
	cv = _mm_sub_epi16(cv, _mm_mulhi_epu16(sb, k->vb));
	/* U(8) | V(8) */
	cu = _mm_packus_epi16(_mm_srli_epi16(cu, 8), _mm_srli_epi16(cv, 8));
	_mm_storel_epi64((__m128i *)(u + x / 2), cu);
	_mm_storel_epi64((__m128i *)(v + x / 2), _mm_srli_si128(cu, 8));
}

/* As row(): scalar pairs 0..1, 16-pixel steps from 2, an overlapped step. */
static inline __attribute__((always_inline)) void
yuv_rows(const uint8_t *const rows[4], uint8_t *y0, uint8_t *y1, uint8_t *u,
	 uint8_t *v, int w, int cfirst0, int red0, const struct v4lc_rgb2yuv *kp)
{
	int kind = 2 * cfirst0 + red0, x = 2;
	struct yk k;

	if (w < 19) {
		v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, 0, w, kind, kp);
		return;
	}
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
	v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, 0, 2, kind, kp);
	for (; x <= w - 17; x += 16)
		yuv_step16(rows, x, y0, y1, u, v, cfirst0, red0, &k);
	if (w - x > 2) {
		x = (w - 17) & ~1;
		yuv_step16(rows, x, y0, y1, u, v, cfirst0, red0, &k);
		x += 16;
	}
	v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, x, w, kind, kp);
}

#define YUV_KERNEL(name, cfirst0, red0)                                      \
	static void name##_yuv_sse2(const uint8_t *const rows[4],            \
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
 * split: 32 samples a step by pand / psrlw 8 and packuswb. planar: 16
 * column pairs (C site, G site) a step from plane loads at i - 1, i, i + 1
 * (the arithmetic of pair_step in src/avx2/bayer.c); the pair's three
 * 16-bit words go to one 64-bit lane each and overlapping 8-byte stores as
 * in step16, so the SIMD steps stop one pair before the row end (its
 * scalar pixels rewrite the two spare bytes).
 */

static inline void split_step(const uint8_t *s, uint8_t *e, uint8_t *o)
{
	const __m128i lo8 = _mm_set1_epi16(0x00ff);
	__m128i x = ld(s), y = ld(s + 16);

	_mm_storeu_si128((__m128i *)e,
			 _mm_packus_epi16(_mm_and_si128(x, lo8),
					  _mm_and_si128(y, lo8)));
	_mm_storeu_si128((__m128i *)o,
			 _mm_packus_epi16(_mm_srli_epi16(x, 8),
					  _mm_srli_epi16(y, 8)));
}

static void split_sse2(const uint8_t *src, uint8_t *even, uint8_t *odd, int w)
{
	int i = 0;

	if (w >= 32) {
		for (; 2 * i + 32 <= w; i += 16)
			split_step(src + 2 * i, even + i, odd + i);
		if (2 * i < w - 2) {
			i = (w - 32) >> 1;
			split_step(src + 2 * i, even + i, odd + i);
			i += 16;
		}
	}
	v4lc_bayer_split_span_c(src, even, odd, w, i);
}

static inline __attribute__((always_inline)) void
store_pairs(__m128i w0, __m128i w1, __m128i w2, uint8_t *d)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i t0 = _mm_unpacklo_epi16(w0, w1), t1 = _mm_unpackhi_epi16(w0, w1);
	__m128i s0 = _mm_unpacklo_epi16(w2, zero), s1 = _mm_unpackhi_epi16(w2, zero);
	__m128i q0 = _mm_unpacklo_epi32(t0, s0), q1 = _mm_unpackhi_epi32(t0, s0);
	__m128i q2 = _mm_unpacklo_epi32(t1, s1), q3 = _mm_unpackhi_epi32(t1, s1);

	_mm_storel_epi64((__m128i *)d, q0);
	_mm_storeh_pi((__m64 *)(void *)(d + 6), _mm_castsi128_ps(q0));
	_mm_storel_epi64((__m128i *)(d + 12), q1);
	_mm_storeh_pi((__m64 *)(void *)(d + 18), _mm_castsi128_ps(q1));
	_mm_storel_epi64((__m128i *)(d + 24), q2);
	_mm_storeh_pi((__m64 *)(void *)(d + 30), _mm_castsi128_ps(q2));
	_mm_storel_epi64((__m128i *)(d + 36), q3);
	_mm_storeh_pi((__m64 *)(void *)(d + 42), _mm_castsi128_ps(q3));
}

static inline __attribute__((always_inline)) void
pair_step(const uint8_t *p, const uint8_t *q, const uint8_t *ap,
	  const uint8_t *aq, const uint8_t *bp, const uint8_t *bq, uint8_t *d,
	  int ownfirst)
{
	__m128i p0 = ld(p), p1 = ld(p + 1), qm = ld(q - 1), q0 = ld(q);
	__m128i vap = ld(ap), vbp = ld(bp);
	__m128i aqm = ld(aq - 1), aq0 = ld(aq), bqm = ld(bq - 1), bq0 = ld(bq);
	__m128i h = _mm_avg_epu8(qm, q0), v = _mm_avg_epu8(vap, vbp);
	__m128i tm = _mm_avg_epu8(aqm, bqm), t0 = _mm_avg_epu8(aq0, bq0);
	__m128i cown = p0, cg = avg4(qm, q0, vap, vbp, h, v);
	__m128i coth = avg4(aqm, bqm, aq0, bq0, tm, t0);
	__m128i gown = _mm_avg_epu8(p0, p1), gg = q0, goth = t0;
	__m128i c0 = ownfirst ? cown : coth, c2 = ownfirst ? coth : cown;
	__m128i g0 = ownfirst ? gown : goth, g2 = ownfirst ? goth : gown;

	store_pairs(_mm_unpacklo_epi8(c0, cg), _mm_unpacklo_epi8(c2, g0),
		    _mm_unpacklo_epi8(gg, g2), d);
	store_pairs(_mm_unpackhi_epi8(c0, cg), _mm_unpackhi_epi8(c2, g0),
		    _mm_unpackhi_epi8(gg, g2), d + 48);
}

/* As planar_row in src/avx2/bayer.c, 16 pairs a step, one pair kept back. */
static inline __attribute__((always_inline)) void
planar_row(const uint8_t *const pl[6], uint8_t *d, int w, int cfirst,
	   int ownfirst)
{
	int kind = 2 * cfirst + ownfirst, x0 = cfirst ? 0 : 1;
	int pairs = (w - x0) / 2 - 1, i;
	const uint8_t *p, *q, *ap, *aq, *bp, *bq;

	if (pairs < 16) {
		v4lc_bayer_planar_span_c(pl, d, 0, w, kind);
		return;
	}
	if (cfirst) {
		ap = pl[0], aq = pl[1], p = pl[2], q = pl[3], bp = pl[4], bq = pl[5];
	} else {
		v4lc_bayer_planar_span_c(pl, d, 0, 1, kind);
		ap = pl[1], aq = pl[0] + 1, p = pl[3], q = pl[2] + 1;
		bp = pl[5], bq = pl[4] + 1;
	}
	d += 3 * x0;
	for (i = 0; i + 16 <= pairs; i += 16)
		pair_step(p + i, q + i, ap + i, aq + i, bp + i, bq + i,
			  d + 6 * i, ownfirst);
	if (i < pairs) {
		i = pairs - 16;
		pair_step(p + i, q + i, ap + i, aq + i, bp + i, bq + i,
			  d + 6 * i, ownfirst);
	}
	d -= 3 * x0;
	v4lc_bayer_planar_span_c(pl, d, x0 + 2 * pairs, w, kind);
}

#define PLANAR(name, cfirst, ownfirst)                                       \
	static void planar_##name##_sse2(const uint8_t *const pl[6],         \
					 uint8_t *d, int w)                  \
	{                                                                    \
		planar_row(pl, d, w, cfirst, ownfirst);                      \
	}
PLANAR(gb, 0, 0)
PLANAR(gr, 0, 1)
PLANAR(bg, 1, 0)
PLANAR(rg, 1, 1)
#undef PLANAR

void v4lc_bayer_init_sse2(struct v4lc_bayer_dsp *dsp)
{
	static v4lc_bayer_row_fn *const kinds[4] = { gb_sse2, gr_sse2, bg_sse2,
						     rg_sse2 };

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->to_yuv420[V4LC_BGGR] = bggr_yuv_sse2;
	dsp->to_yuv420[V4LC_GBRG] = gbrg_yuv_sse2;
	dsp->to_yuv420[V4LC_GRBG] = grbg_yuv_sse2;
	dsp->to_yuv420[V4LC_RGGB] = rggb_yuv_sse2;
	{
		static v4lc_bayer_planar_fn *const pk[4] = {
			planar_gb_sse2, planar_gr_sse2, planar_bg_sse2,
			planar_rg_sse2
		};

		dsp->split = split_sse2;
		v4lc_bayer_fill_planar(dsp, pk);
	}
}
