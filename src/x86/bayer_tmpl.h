/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SSE2 and AVX2 Bayer kernels, bit-exact with src/scalar/bayer.c,
 * VEC_BYTES pixels (or column pairs) a step; the rows come from
 * src/simd/bayer_rows.h.
 *
 * Every lane computes both the C-site and the G-site values and the even /
 * odd lanes pick theirs. Means of two are pavgb. The mean of four,
 * (a + b + c + d + 2) >> 2, is pavgb(p, q) with p = pavgb(a, b),
 * q = pavgb(c, d), minus one exactly when p + q is odd and a + b or c + d
 * was odd (then both pavgb rounded up): with a + b = 2p - e1 and
 * c + d = 2q - e2, (2p + 2q + 2 - e1 - e2) >> 2 equals (p + q + 1) >> 1
 * unless e1 + e2 > 0 and p + q is odd.
 *
 * Fused Bayer -> YUV420: R, G, B of both rows from dem, luma by punpck{l,h}bw
 * against zero (c << 8) and pmulhuw as v4lc_rgb_to_y, chroma from the 2x2
 * sums << 6, pmulhuw and wrapping 16-bit adds as v4lc_rgb_to_uv.
 * Planar path: split by pand / psrlw 8 and packuswb; the planar steps take
 * plane loads at i - 1, i, i + 1 (no parity picks, no wasted lanes: 2
 * averages and 2 exact 4-means per pair vector).
 *
 * The entry file defines, then includes this one:
 *   pick_odd(e, o): per 16-bit lane, the low byte of e and the high of o;
 *   store_rgb(ch, d): three channel vectors (pixel order) to 3 * VEC_BYTES
 *     bytes at d, and perhaps 2 more;
 *   pair_sums(p, q): per 16-bit lane, the sum of its two bytes in p and q;
 *   store_uv(uv, u, v): as for src/x86/rgb2yuv_tmpl.h;
 *   store_pairs(x0, x1, y0, y1, z0, z1, d): VEC_BYTES column pairs whose 6
 *     bytes are x0 x1 y0 y1 z0 z1 to 6 * VEC_BYTES bytes at d, and
 *     PAIR_SPARE pairs' worth more;
 *   optionally BAYER_ALIGN_STEPS and its hooks (src/simd/bayer_rows.h).
 */
#include "scalar/bayer.h"
#include "x86/rgb2yuv.h"

/* (a + b + c + d + 2) >> 2 from p = avg(a, b), q = avg(c, d). */
static inline vec avg4(vec a, vec b, vec c, vec d, vec p, vec q)
{
	vec odd = VSI(or)(VSI(xor)(a, b), VSI(xor)(c, d));
	vec corr = VSI(and)(VSI(and)(odd, VSI(xor)(p, q)), V(set1_epi8)(1));

	return V(sub_epi8)(V(avg_epu8)(p, q), corr);
}

/* One row's own colour, green and other colour at VEC_BYTES pixels. */
static inline __attribute__((always_inline)) void
dem(const uint8_t *a, const uint8_t *c, const uint8_t *b, int cfirst, vec *own,
    vec *g, vec *oth)
{
	vec cl = v_load(c - 1), cc = v_load(c), cr = v_load(c + 1);
	vec al = v_load(a - 1), ac = v_load(a), ar = v_load(a + 1);
	vec bl = v_load(b - 1), bc = v_load(b), br = v_load(b + 1);
	vec h2 = V(avg_epu8)(cl, cr), v2 = V(avg_epu8)(ac, bc);
	vec cross = avg4(cl, cr, ac, bc, h2, v2);
	vec diag =
		avg4(al, ar, bl, br, V(avg_epu8)(al, ar), V(avg_epu8)(bl, br));

	/* even pixels: the low byte of each 16-bit lane */
	if (cfirst) {
		*own = pick_odd(cc, h2);
		*g = pick_odd(cross, cc);
		*oth = pick_odd(diag, v2);
	} else {
		*own = pick_odd(h2, cc);
		*g = pick_odd(cc, cross);
		*oth = pick_odd(v2, diag);
	}
}

static inline __attribute__((always_inline)) void
dem_step(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d,
	 int cfirst, int ownfirst)
{
	vec own, oth, ch[3];

	dem(a, c, b, cfirst, &own, &ch[1], &oth);
	ch[0] = ownfirst ? own : oth;
	ch[2] = ownfirst ? oth : own;
	store_rgb(ch, d);
}

#define BAYER_STEP VEC_BYTES

/* Luma of R, G, B bytes. */
static inline vec luma(const struct rgb2yuv_consts *k, vec r, vec g, vec b)
{
	const vec z = VSI(setzero)();
	vec lo = luma_sum(k, V(unpacklo_epi8)(z, r), V(unpacklo_epi8)(z, g),
			  V(unpacklo_epi8)(z, b));
	vec hi = luma_sum(k, V(unpackhi_epi8)(z, r), V(unpackhi_epi8)(z, g),
			  V(unpackhi_epi8)(z, b));

	return V(packus_epi16)(V(srli_epi16)(lo, 8), V(srli_epi16)(hi, 8));
}

static inline __attribute__((always_inline)) void
yuv_step(const uint8_t *const rows[4], int x, uint8_t *y0, uint8_t *y1,
	 uint8_t *u, uint8_t *v, int cfirst0, int red0,
	 const struct rgb2yuv_consts *k)
{
	vec o0, g0, t0, o1, g1, t1, r0, b0, r1, b1;

	dem(rows[0] + x, rows[1] + x, rows[2] + x, cfirst0, &o0, &g0, &t0);
	dem(rows[1] + x, rows[2] + x, rows[3] + x, !cfirst0, &o1, &g1, &t1);
	r0 = red0 ? o0 : t0;
	b0 = red0 ? t0 : o0;
	r1 = red0 ? t1 : o1;
	b1 = red0 ? o1 : t1;
	v_store(y0 + x, luma(k, r0, g0, b0));
	v_store(y1 + x, luma(k, r1, g1, b1));
	store_uv(chroma_uv(k, V(slli_epi16)(pair_sums(r0, r1), 6),
			   V(slli_epi16)(pair_sums(g0, g1), 6),
			   V(slli_epi16)(pair_sums(b0, b1), 6)),
		 u + x / 2, v + x / 2);
}

static inline void split_step(const uint8_t *s, uint8_t *e, uint8_t *o)
{
	const vec lo8 = V(set1_epi16)(0x00ff);
	vec x = v_load(s), y = v_load(s + VEC_BYTES);

	v_store(e, v_packus_ordered(VSI(and)(x, lo8), VSI(and)(y, lo8)));
	v_store(o, v_packus_ordered(V(srli_epi16)(x, 8), V(srli_epi16)(y, 8)));
}

#define SPLIT_STEP VEC_BYTES

/* VEC_BYTES column pairs: see planar_row in src/simd/bayer_rows.h. */
static inline __attribute__((always_inline)) void
pair_step(const uint8_t *p, const uint8_t *q, const uint8_t *ap,
	  const uint8_t *aq, const uint8_t *bp, const uint8_t *bq, uint8_t *d,
	  int cfirst, int ownfirst)
{
	vec p0 = v_load(p), pn = v_load(cfirst ? p + 1 : p - 1);
	vec qm = v_load(q - 1), q0 = v_load(q);
	vec vap = v_load(ap), vbp = v_load(bp);
	vec aqm = v_load(aq - 1), aq0 = v_load(aq);
	vec bqm = v_load(bq - 1), bq0 = v_load(bq);
	vec h = V(avg_epu8)(qm, q0), v = V(avg_epu8)(vap, vbp);
	vec tm = V(avg_epu8)(aqm, bqm), t0 = V(avg_epu8)(aq0, bq0);
	vec cown = p0, cg = avg4(qm, q0, vap, vbp, h, v);
	vec coth = avg4(aqm, bqm, aq0, bq0, tm, t0);
	vec gown = V(avg_epu8)(p0, pn);
	vec gg = cfirst ? q0 : qm, goth = cfirst ? t0 : tm;
	vec c0 = ownfirst ? cown : coth, c2 = ownfirst ? coth : cown;
	vec g0 = ownfirst ? gown : goth, g2 = ownfirst ? goth : gown;

	/* the pair's 6 bytes, C site first or G site first */
	if (cfirst)
		store_pairs(c0, cg, c2, g0, gg, g2, d);
	else
		store_pairs(g0, gg, g2, c0, cg, c2, d);
}

#define PAIR_STEP VEC_BYTES

#include "simd/bayer_rows.h"
