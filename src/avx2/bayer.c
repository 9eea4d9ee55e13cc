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

#include "dispatch/dsp.h"

void v4lc_bayer_span_c(const uint8_t *a, const uint8_t *c, const uint8_t *b,
		       uint8_t *dst, int w, int x0, int x1, int kind);
void v4lc_bayer_fill_table(struct v4lc_bayer_dsp *dsp,
			   v4lc_bayer_row_fn *const kinds[4]);

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
void v4lc_bayer_yuv_span_c(const uint8_t *const rows[4], uint8_t *y0,
			   uint8_t *y1, uint8_t *u, uint8_t *v, int w, int x0,
			   int x1, int kind, const struct v4lc_rgb2yuv *k);

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

void v4lc_bayer_init_avx2(struct v4lc_bayer_dsp *dsp)
{
	static v4lc_bayer_row_fn *const kinds[4] = { gb_avx2, gr_avx2, bg_avx2,
						     rg_avx2 };

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->to_yuv420[V4LC_BGGR] = bggr_yuv_avx2;
	dsp->to_yuv420[V4LC_GBRG] = gbrg_yuv_avx2;
	dsp->to_yuv420[V4LC_GRBG] = grbg_yuv_avx2;
	dsp->to_yuv420[V4LC_RGGB] = rggb_yuv_avx2;
}
