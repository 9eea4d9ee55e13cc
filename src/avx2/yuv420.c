/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 yuv420 kernels, bit-exact with pixel.h, 32 pixels per step.
 *
 * The arithmetic is the SSE2 kernel's, on 256-bit registers: every step
 * stays inside a 128-bit lane, and lane 0 holds pixels 0..15, lane 1 pixels
 * 16..31 (planar chroma is widened with vpmovzxbw, which keeps that order).
 * After packing, each lane holds p0 = [first even | last even],
 * p1 = [G even | first odd], p2 = [G odd | last odd] (first/last = R/B, or
 * B/R for BGR), and three vpshufb per output register gather the 48 output
 * bytes of its 16 pixels; vperm2i128 then joins the lanes into 96
 * contiguous bytes.
 */
#include <immintrin.h>

#include "scalar/yuv420.h"

#define Z (-128)
/* gather[src][k]: bytes of p<src> that go to output bytes 16k..16k+15 */
static const int8_t gather[3][3][16] __attribute__((aligned(16))) = {
	{ /* p0 */
	  { 0, Z, 8, Z, Z, Z, 1, Z, 9, Z, Z, Z, 2, Z, 10, Z },
	  { Z, Z, 3, Z, 11, Z, Z, Z, 4, Z, 12, Z, Z, Z, 5, Z },
	  { 13, Z, Z, Z, 6, Z, 14, Z, Z, Z, 7, Z, 15, Z, Z, Z },
	},
	{ /* p1 */
	  { Z, 0, Z, 8, Z, Z, Z, 1, Z, 9, Z, Z, Z, 2, Z, 10 },
	  { Z, Z, Z, 3, Z, 11, Z, Z, Z, 4, Z, 12, Z, Z, Z, 5 },
	  { Z, 13, Z, Z, Z, 6, Z, 14, Z, Z, Z, 7, Z, 15, Z, Z },
	},
	{ /* p2 */
	  { Z, Z, Z, Z, 0, 8, Z, Z, Z, Z, 1, 9, Z, Z, Z, Z },
	  { 2, 10, Z, Z, Z, Z, 3, 11, Z, Z, Z, Z, 4, 12, Z, Z },
	  { Z, Z, 5, 13, Z, Z, Z, Z, 6, 14, Z, Z, Z, Z, 7, 15 },
	},
};
#undef Z

struct coefs {
	__m256i yoff7, yk, vr, ug, vg, ub, round, sign, lo8;
	__m256i g[3][3];
};

static inline void coefs_init(struct coefs *c, const struct v4lc_yuv2rgb *k)
{
	c->yoff7 = _mm256_set1_epi16((short)(k->y_off * 128));
	c->yk = _mm256_set1_epi16(k->yk);
	c->vr = _mm256_set1_epi16(k->vr);
	c->ug = _mm256_set1_epi16(k->ug);
	c->vg = _mm256_set1_epi16(k->vg);
	c->ub = _mm256_set1_epi16(k->ub);
	c->round = _mm256_set1_epi16(16);
	c->sign = _mm256_set1_epi16((short)0x8000);
	c->lo8 = _mm256_set1_epi16(0x00ff);
	for (int s = 0; s < 3; s++)
		for (int o = 0; o < 3; o++)
			c->g[s][o] = _mm256_broadcastsi128_si256(
				_mm_load_si128((const __m128i *)gather[s][o]));
}

static inline __m256i gather3(__m256i p0, __m256i p1, __m256i p2,
			      const struct coefs *c, int o)
{
	return _mm256_or_si256(
		_mm256_or_si256(_mm256_shuffle_epi8(p0, c->g[0][o]),
				_mm256_shuffle_epi8(p1, c->g[1][o])),
		_mm256_shuffle_epi8(p2, c->g[2][o]));
}

/* 32 pixels; u8, v8: 16 lanes of (U - 128) << 8 and (V - 128) << 8. */
static inline void pixels32(const uint8_t *ysrc, __m256i u8, __m256i v8,
			    uint8_t *dst, const struct coefs *c, int bgr)
{
	__m256i y = _mm256_loadu_si256((const __m256i *)ysrc);
	__m256i ye = _mm256_slli_epi16(_mm256_and_si256(y, c->lo8), 7);
	__m256i yo = _mm256_slli_epi16(_mm256_srli_epi16(y, 8), 7);
	__m256i cr, cg, cb, re, ge, be, ro, go, bo, p0, p1, p2, o0, o1, o2;

	ye = _mm256_mulhi_epi16(_mm256_sub_epi16(ye, c->yoff7), c->yk);
	yo = _mm256_mulhi_epi16(_mm256_sub_epi16(yo, c->yoff7), c->yk);

	cr = _mm256_add_epi16(_mm256_mulhi_epi16(v8, c->vr), c->round);
	cb = _mm256_add_epi16(_mm256_mulhi_epi16(u8, c->ub), c->round);
	cg = _mm256_sub_epi16(_mm256_add_epi16(_mm256_mulhi_epi16(u8, c->ug),
					       _mm256_mulhi_epi16(v8, c->vg)),
			      c->round);

	re = _mm256_srai_epi16(_mm256_add_epi16(ye, cr), 5);
	ge = _mm256_srai_epi16(_mm256_sub_epi16(ye, cg), 5);
	be = _mm256_srai_epi16(_mm256_add_epi16(ye, cb), 5);
	ro = _mm256_srai_epi16(_mm256_add_epi16(yo, cr), 5);
	go = _mm256_srai_epi16(_mm256_sub_epi16(yo, cg), 5);
	bo = _mm256_srai_epi16(_mm256_add_epi16(yo, cb), 5);
	if (bgr) {
		__m256i t = re;

		re = be;
		be = t;
		t = ro;
		ro = bo;
		bo = t;
	}
	p0 = _mm256_packus_epi16(re, be);
	p1 = _mm256_packus_epi16(ge, ro);
	p2 = _mm256_packus_epi16(go, bo);
	o0 = gather3(p0, p1, p2, c, 0);
	o1 = gather3(p0, p1, p2, c, 1);
	o2 = gather3(p0, p1, p2, c, 2);
	_mm256_storeu_si256((__m256i *)dst, _mm256_permute2x128_si256(o0, o1, 0x20));
	_mm256_storeu_si256((__m256i *)(dst + 32),
			    _mm256_permute2x128_si256(o2, o0, 0x30));
	_mm256_storeu_si256((__m256i *)(dst + 64),
			    _mm256_permute2x128_si256(o1, o2, 0x31));
}

static inline void planar_block(const uint8_t *y, const uint8_t *u,
				const uint8_t *v, uint8_t *dst, int x,
				const struct coefs *c, int bgr)
{
	__m256i cu = _mm256_cvtepu8_epi16(
		_mm_loadu_si128((const __m128i *)(u + x / 2)));
	__m256i cv = _mm256_cvtepu8_epi16(
		_mm_loadu_si128((const __m128i *)(v + x / 2)));

	cu = _mm256_xor_si256(_mm256_slli_epi16(cu, 8), c->sign);
	cv = _mm256_xor_si256(_mm256_slli_epi16(cv, 8), c->sign);
	pixels32(y + x, cu, cv, dst + 3 * x, c, bgr);
}

static inline void semi_block(const uint8_t *y, const uint8_t *uv,
			      uint8_t *dst, int x, const struct coefs *c,
			      int vfirst, int bgr)
{
	const __m256i hi8 = _mm256_set1_epi16((short)0xff00);
	__m256i p = _mm256_loadu_si256((const __m256i *)(uv + x));
	__m256i first = _mm256_xor_si256(_mm256_slli_epi16(p, 8), c->sign);
	__m256i second = _mm256_xor_si256(_mm256_and_si256(p, hi8), c->sign);

	if (vfirst)
		pixels32(y + x, second, first, dst + 3 * x, c, bgr);
	else
		pixels32(y + x, first, second, dst + 3 * x, c, bgr);
}

/*
 * Steps of 32 pixels, then one more step moved back to end at most one
 * pixel before the row end (at an even pixel, so it meets its chroma),
 * rewriting some pixels with the same values. Returns where the scalar
 * kernel takes over.
 */
static inline int planar_body(const uint8_t *y, const uint8_t *u,
			      const uint8_t *v, uint8_t *dst, int width,
			      const struct v4lc_yuv2rgb *k, int bgr)
{
	struct coefs c;
	int x;

	coefs_init(&c, k);
	for (x = 0; x + 32 <= width; x += 32)
		planar_block(y, u, v, dst, x, &c, bgr);
	if (x + 1 < width && width >= 32) {
		x = (width - 32) & ~1;
		planar_block(y, u, v, dst, x, &c, bgr);
		x += 32;
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
	for (x = 0; x + 32 <= width; x += 32)
		semi_block(y, uv, dst, x, &c, vfirst, bgr);
	if (x + 1 < width && width >= 32) {
		x = (width - 32) & ~1;
		semi_block(y, uv, dst, x, &c, vfirst, bgr);
		x += 32;
	}
	return x;
}

#define PLANAR(name, bgr)                                                    \
	static void planar_##name##_avx2(const uint8_t *y, const uint8_t *u, \
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
	static void fmt##_##name##_avx2(const uint8_t *y, const uint8_t *uv, \
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

void v4lc_yuv420_init_avx2(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = planar_rgb24_avx2;
	dsp->planar[V4LC_BGR24] = planar_bgr24_avx2;
	dsp->nv12[V4LC_RGB24] = nv12_rgb24_avx2;
	dsp->nv12[V4LC_BGR24] = nv12_bgr24_avx2;
	dsp->nv21[V4LC_RGB24] = nv21_rgb24_avx2;
	dsp->nv21[V4LC_BGR24] = nv21_bgr24_avx2;
}
