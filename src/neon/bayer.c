/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON Bayer kernels, bit-exact with src/scalar/bayer.c (aarch64 and armhf).
 *
 * Demosaic: 16 pixels a step; every lane computes both its C-site and
 * G-site values and vbsl picks by column parity (even columns are the low
 * bytes of 16-bit lanes). Means of two are vrhadd; the mean of four is
 * vrhadd(p, q) of the two pair means minus the exact parity correction
 * explained in src/x86/bayer_tmpl.h. vst3q interleaves the three channels.
 * Bayer -> YUV420: the same demosaic for two rows, then luma and chroma
 * straight from the channel vectors (see yuv_step). The rows come from
 * src/simd/bayer_rows.h.
 *
 * unpack10p: the high bytes of 5-byte groups are gathered with vtbl2 (it
 * exists on both ISAs).
 */
#include <arm_neon.h>

#include "scalar/bayer.h"

static inline uint8x16_t avg4(uint8x16_t a, uint8x16_t b, uint8x16_t c,
			      uint8x16_t d, uint8x16_t p, uint8x16_t q)
{
	uint8x16_t odd = vorrq_u8(veorq_u8(a, b), veorq_u8(c, d));
	uint8x16_t corr =
		vandq_u8(vandq_u8(odd, veorq_u8(p, q)), vdupq_n_u8(1));

	return vsubq_u8(vrhaddq_u8(p, q), corr);
}

/* One row's own colour, green and other colour at 16 pixels. */
static inline __attribute__((always_inline)) void
dem16(const uint8_t *a, const uint8_t *c, const uint8_t *b, int cfirst,
      uint8x16_t *ownp, uint8x16_t *gp, uint8x16_t *othp)
{
	const uint8x16_t even = vreinterpretq_u8_u16(vdupq_n_u16(0x00ff));
	uint8x16_t cl = vld1q_u8(c - 1), cc = vld1q_u8(c), cr = vld1q_u8(c + 1);
	uint8x16_t al = vld1q_u8(a - 1), ac = vld1q_u8(a), ar = vld1q_u8(a + 1);
	uint8x16_t bl = vld1q_u8(b - 1), bc = vld1q_u8(b), br = vld1q_u8(b + 1);
	uint8x16_t h2 = vrhaddq_u8(cl, cr), v2 = vrhaddq_u8(ac, bc);
	uint8x16_t cross = avg4(cl, cr, ac, bc, h2, v2);
	uint8x16_t diag =
		avg4(al, ar, bl, br, vrhaddq_u8(al, ar), vrhaddq_u8(bl, br));

	if (cfirst) {
		*ownp = vbslq_u8(even, cc, h2);
		*gp = vbslq_u8(even, cross, cc);
		*othp = vbslq_u8(even, diag, v2);
	} else {
		*ownp = vbslq_u8(even, h2, cc);
		*gp = vbslq_u8(even, cc, cross);
		*othp = vbslq_u8(even, v2, diag);
	}
}

static inline __attribute__((always_inline)) void
dem_step(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d,
	 int cfirst, int ownfirst)
{
	uint8x16_t own, oth;
	uint8x16x3_t out;

	dem16(a, c, b, cfirst, &own, &out.val[1], &oth);
	out.val[0] = ownfirst ? own : oth;
	out.val[2] = ownfirst ? oth : own;
	vst3q_u8(d, out);
}

#define BAYER_STEP 16

/*
 * Fused Bayer -> YUV420 (spec: v4lc_bayer_yuv_span_c), 16 pixels of two
 * rows a step. Luma: mulhi_u16(c << 8, w) is (c w) >> 8, i.e.
 * c (w >> 8) + ((c (w & 255)) >> 8) exactly, so each term is vmull_u8 /
 * vmlal_u8 by the high bytes plus vsra (shift right by 8 and accumulate)
 * of vmull_u8 by the low bytes, all in 16-bit lanes (the sum stays below
 * 2^16 as in v4lc_rgb_to_y). Chroma: vpaddl / vpadal give the 2x2 sums,
 * << 6, then mulhi_u16 by vmull_u16 and vshrn by 16, wrapping 16-bit adds.
 */

struct rgb2yuv_consts {
	uint8x8_t rh, rl, gh, gl, bh, bl;
	uint16x8_t yadd, cadd;
	uint16x4_t ur, ug, ub, vr, vg, vb;
};

static inline uint8x8_t luma8(const struct rgb2yuv_consts *k, uint8x8_t r,
			      uint8x8_t g, uint8x8_t b)
{
	uint16x8_t s = vmull_u8(r, k->rh);

	s = vmlal_u8(s, g, k->gh);
	s = vmlal_u8(s, b, k->bh);
	s = vsraq_n_u16(s, vmull_u8(r, k->rl), 8);
	s = vsraq_n_u16(s, vmull_u8(g, k->gl), 8);
	s = vsraq_n_u16(s, vmull_u8(b, k->bl), 8);
	return vshrn_n_u16(vaddq_u16(s, k->yadd), 8);
}

static inline uint8x16_t luma16(const struct rgb2yuv_consts *k, uint8x16_t r,
				uint8x16_t g, uint8x16_t b)
{
	return vcombine_u8(luma8(k, vget_low_u8(r), vget_low_u8(g),
				 vget_low_u8(b)),
			   luma8(k, vget_high_u8(r), vget_high_u8(g),
				 vget_high_u8(b)));
}

/* mulhi_u16 of 8 lanes by one coefficient */
static inline uint16x8_t mulhi8(uint16x8_t s, uint16x4_t c)
{
	return vcombine_u16(vshrn_n_u32(vmull_u16(vget_low_u16(s), c), 16),
			    vshrn_n_u32(vmull_u16(vget_high_u16(s), c), 16));
}

static inline __attribute__((always_inline)) void
yuv_step(const uint8_t *const rows[4], int x, uint8_t *y0, uint8_t *y1,
	 uint8_t *u, uint8_t *v, int cfirst0, int red0,
	 const struct rgb2yuv_consts *k)
{
	uint8x16_t o0, g0, t0, o1, g1, t1, r0, b0, r1, b1;
	uint16x8_t sr, sg, sb, cu, cv;

	dem16(rows[0] + x, rows[1] + x, rows[2] + x, cfirst0, &o0, &g0, &t0);
	dem16(rows[1] + x, rows[2] + x, rows[3] + x, !cfirst0, &o1, &g1, &t1);
	r0 = red0 ? o0 : t0;
	b0 = red0 ? t0 : o0;
	r1 = red0 ? t1 : o1;
	b1 = red0 ? o1 : t1;
	vst1q_u8(y0 + x, luma16(k, r0, g0, b0));
	vst1q_u8(y1 + x, luma16(k, r1, g1, b1));
	sr = vshlq_n_u16(vpadalq_u8(vpaddlq_u8(r0), r1), 6);
	sg = vshlq_n_u16(vpadalq_u8(vpaddlq_u8(g0), g1), 6);
	sb = vshlq_n_u16(vpadalq_u8(vpaddlq_u8(b0), b1), 6);
	cu = vaddq_u16(k->cadd, mulhi8(sb, k->ub));
	cu = vsubq_u16(cu, mulhi8(sr, k->ur));
	cu = vsubq_u16(cu, mulhi8(sg, k->ug));
	cv = vaddq_u16(k->cadd, mulhi8(sr, k->vr));
	cv = vsubq_u16(cv, mulhi8(sg, k->vg));
	cv = vsubq_u16(cv, mulhi8(sb, k->vb));
	vst1_u8(u + x / 2, vshrn_n_u16(cu, 8));
	vst1_u8(v + x / 2, vshrn_n_u16(cv, 8));
}

static inline void rgb2yuv_consts_init(struct rgb2yuv_consts *k,
				       const struct v4lc_rgb2yuv *kp)
{
	k->rh = vdup_n_u8((uint8_t)(kp->yr >> 8));
	k->rl = vdup_n_u8((uint8_t)(kp->yr & 255));
	k->gh = vdup_n_u8((uint8_t)(kp->yg >> 8));
	k->gl = vdup_n_u8((uint8_t)(kp->yg & 255));
	k->bh = vdup_n_u8((uint8_t)(kp->yb >> 8));
	k->bl = vdup_n_u8((uint8_t)(kp->yb & 255));
	k->yadd = vdupq_n_u16((uint16_t)((kp->y_off << 8) + 128));
	k->cadd = vdupq_n_u16(32896);
	k->ur = vdup_n_u16(kp->ur);
	k->ug = vdup_n_u16(kp->ug);
	k->ub = vdup_n_u16(kp->ub);
	k->vr = vdup_n_u16(kp->vr);
	k->vg = vdup_n_u16(kp->vg);
	k->vb = vdup_n_u16(kp->vb);
}

/*
 * 16 pixels (four groups, 20 bytes) a step: groups 0, 1 from bytes 0..15,
 * groups 2, 3 from bytes 10..25 with the same table, so a step reads 26
 * bytes and runs while they exist in the row.
 */
static void unpack10p_neon(const uint8_t *src, uint8_t *dst, int width)
{
	static const uint8_t idx[8] = { 0, 1, 2, 3, 5, 6, 7, 8 };
	const uint8x8_t t = vld1_u8(idx);
	long n = ((long)width * 5 + 3) / 4;
	int x = 0;

	for (; x + 16 <= width && (long)x / 4 * 5 + 26 <= n; x += 16) {
		const uint8_t *s = src + x / 4 * 5;
		uint8x8x2_t lo = { { vld1_u8(s), vld1_u8(s + 8) } };
		uint8x8x2_t hi = { { vld1_u8(s + 10), vld1_u8(s + 18) } };

		vst1_u8(dst + x, vtbl2_u8(lo, t));
		vst1_u8(dst + x + 8, vtbl2_u8(hi, t));
	}
	if (x < width)
		v4lc_bayer_unpack10p_c(src + x / 4 * 5, dst + x, width - x);
}

/*
 * Planar path (spec: v4lc_bayer_split_span_c, v4lc_bayer_planar_span_c).
 * split: vld2q de-interleaves 32 samples. planar: 16 column pairs a step
 * from plane loads at i - 1, i, i + 1 (the arithmetic of pair_step in
 * src/x86/bayer_tmpl.h); vzipq puts the two pixels' values of each channel
 * back in column order and two vst3q write the 32 pixels.
 */
static inline void split_step(const uint8_t *s, uint8_t *e, uint8_t *o)
{
	uint8x16x2_t v = vld2q_u8(s);

	vst1q_u8(e, v.val[0]);
	vst1q_u8(o, v.val[1]);
}

#define SPLIT_STEP 16

static inline __attribute__((always_inline)) void
pair_step(const uint8_t *p, const uint8_t *q, const uint8_t *ap,
	  const uint8_t *aq, const uint8_t *bp, const uint8_t *bq, uint8_t *d,
	  int cfirst, int ownfirst)
{
	uint8x16_t p0 = vld1q_u8(p), pn = vld1q_u8(cfirst ? p + 1 : p - 1);
	uint8x16_t qm = vld1q_u8(q - 1), q0 = vld1q_u8(q);
	uint8x16_t vap = vld1q_u8(ap), vbp = vld1q_u8(bp);
	uint8x16_t aqm = vld1q_u8(aq - 1), aq0 = vld1q_u8(aq);
	uint8x16_t bqm = vld1q_u8(bq - 1), bq0 = vld1q_u8(bq);
	uint8x16_t h = vrhaddq_u8(qm, q0), v = vrhaddq_u8(vap, vbp);
	uint8x16_t tm = vrhaddq_u8(aqm, bqm), t0 = vrhaddq_u8(aq0, bq0);
	uint8x16_t cown = p0, cg = avg4(qm, q0, vap, vbp, h, v);
	uint8x16_t coth = avg4(aqm, bqm, aq0, bq0, tm, t0);
	uint8x16_t gown = vrhaddq_u8(p0, pn);
	uint8x16_t gg = cfirst ? q0 : qm, goth = cfirst ? t0 : tm;
	uint8x16_t c0 = ownfirst ? cown : coth, c2 = ownfirst ? coth : cown;
	uint8x16_t g0 = ownfirst ? gown : goth, g2 = ownfirst ? goth : gown;
	/* per channel, the pair's two pixels: C site first or G site first */
	uint8x16x2_t z0 = cfirst ? vzipq_u8(c0, g0) : vzipq_u8(g0, c0);
	uint8x16x2_t z1 = cfirst ? vzipq_u8(cg, gg) : vzipq_u8(gg, cg);
	uint8x16x2_t z2 = cfirst ? vzipq_u8(c2, g2) : vzipq_u8(g2, c2);
	uint8x16x3_t o;

	o.val[0] = z0.val[0];
	o.val[1] = z1.val[0];
	o.val[2] = z2.val[0];
	vst3q_u8(d, o);
	o.val[0] = z0.val[1];
	o.val[1] = z1.val[1];
	o.val[2] = z2.val[1];
	vst3q_u8(d + 48, o);
}

#define PAIR_STEP 16
#define PAIR_SPARE 0

#include "simd/bayer_rows.h"

BAYER_ROW(gb_neon, 0, 0)
BAYER_ROW(gr_neon, 0, 1)
BAYER_ROW(bg_neon, 1, 0)
BAYER_ROW(rg_neon, 1, 1)
BAYER_YUV(bggr_yuv_neon, 1, 0)
BAYER_YUV(gbrg_yuv_neon, 0, 0)
BAYER_YUV(grbg_yuv_neon, 0, 1)
BAYER_YUV(rggb_yuv_neon, 1, 1)
BAYER_SPLIT(split_neon)
BAYER_PLANAR(planar_gb_neon, 0, 0)
BAYER_PLANAR(planar_gr_neon, 0, 1)
BAYER_PLANAR(planar_bg_neon, 1, 0)
BAYER_PLANAR(planar_rg_neon, 1, 1)

void v4lc_bayer_init_neon(struct v4lc_bayer_dsp *dsp)
{
	/* by row kind, as src/scalar/bayer.h's fill functions take them */
	static v4lc_bayer_row_fn *const kinds[4] = { gb_neon, gr_neon, bg_neon,
						     rg_neon };
	static v4lc_bayer_planar_fn *const planar[4] = {
		planar_gb_neon, planar_gr_neon, planar_bg_neon, planar_rg_neon
	};

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->to_yuv420[V4LC_BGGR] = bggr_yuv_neon;
	dsp->to_yuv420[V4LC_GBRG] = gbrg_yuv_neon;
	dsp->to_yuv420[V4LC_GRBG] = grbg_yuv_neon;
	dsp->to_yuv420[V4LC_RGGB] = rggb_yuv_neon;
	dsp->split = split_neon;
	v4lc_bayer_fill_planar(dsp, planar);
	dsp->unpack10p = unpack10p_neon;
}
