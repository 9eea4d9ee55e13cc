/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 yuv422 kernels, bit-exact with pixel.h, 32 pixels per step.
 *
 * RGB: lane 0 of the two source registers holds pixels 0..7 and 8..15,
 * lane 1 pixels 16..23 and 24..31 (two 128-bit loads each). Chroma bytes
 * are XORed with 0x80 first; then one vpshufb per quantity places luma,
 * U and V in the high byte of 16-bit lanes in pixel order, duplicating
 * each chroma sample for both pixels of its pair: Y << 8 and
 * (C - 128) << 8 directly. After the arithmetic and packuswb, each lane
 * holds R, G and B of 16 consecutive pixels, and three vpshufb per output
 * register gather 48 RGB bytes; vperm2i128 and a blend join the lanes
 * into 96 contiguous bytes.
 *
 * YUV 4:2:0: luma and chroma bytes separated with masks and shifts as in
 * SSE2, packuswb, and vpermq to undo packuswb's lane interleave.
 */
#include <immintrin.h>

#include "scalar/yuv422.h"

#define Z (-128)
/* gather[channel][k]: pixel whose channel goes to output byte 16k + i */
static const int8_t gather[3][3][16] __attribute__((aligned(16))) = {
	{ /* R */
	  { 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z, Z, 5 },
	  { Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z, 10, Z },
	  { Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15, Z, Z },
	},
	{ /* G */
	  { Z, 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z, Z },
	  { 5, Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z, 10 },
	  { Z, Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15, Z },
	},
	{ /* B */
	  { Z, Z, 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z },
	  { Z, 5, Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z },
	  { 10, Z, Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15 },
	},
};

/*
 * vpshufb mask putting source byte 4 * (j / 2) + (j odd ? o1 : o0) in the
 * high byte of 16-bit lane j (low byte zero), per 128-bit lane.
 */
#define HB(j, o0, o1) Z, (char)(4 * ((j) / 2) + (((j) & 1) ? (o1) : (o0)))
#define LANE(o0, o1)                                                         \
	HB(0, o0, o1), HB(1, o0, o1), HB(2, o0, o1), HB(3, o0, o1),          \
		HB(4, o0, o1), HB(5, o0, o1), HB(6, o0, o1), HB(7, o0, o1)
#define HIGH_BYTES(o0, o1) _mm256_setr_epi8(LANE(o0, o1), LANE(o0, o1))

struct coefs {
	__m256i yoff7, yk, vr, ug, vg, ub, round;
	__m256i my, mu, mv, sign;
	__m256i g[3][3];
};

static inline void coefs_init(struct coefs *c, const struct v4lc_yuv2rgb *k,
			      int oy0, int ou, int oy1, int ov)
{
	c->yoff7 = _mm256_set1_epi16((short)(k->y_off * 128));
	c->yk = _mm256_set1_epi16(k->yk);
	c->vr = _mm256_set1_epi16(k->vr);
	c->ug = _mm256_set1_epi16(k->ug);
	c->vg = _mm256_set1_epi16(k->vg);
	c->ub = _mm256_set1_epi16(k->ub);
	c->round = _mm256_set1_epi16(16);
	c->my = HIGH_BYTES(oy0, oy1);
	c->mu = HIGH_BYTES(ou, ou);
	c->mv = HIGH_BYTES(ov, ov);
	/* 0x80 on the chroma bytes of every pair */
	c->sign = _mm256_set1_epi32((int)((0x80u << (8 * ou)) |
					  (0x80u << (8 * ov))));
	for (int ch = 0; ch < 3; ch++)
		for (int o = 0; o < 3; o++)
			c->g[ch][o] = _mm256_broadcastsi128_si256(
				_mm_load_si128((const __m128i *)gather[ch][o]));
}

/* R, G, B (unclamped, 16-bit) of 16 pixels: 8 per 128-bit lane. */
static inline void rgb16(__m256i s, const struct coefs *k, __m256i *r,
			 __m256i *g, __m256i *b)
{
	__m256i y, u8, v8, cr, cg, cb;

	s = _mm256_xor_si256(s, k->sign);
	y = _mm256_srli_epi16(_mm256_shuffle_epi8(s, k->my), 1);
	u8 = _mm256_shuffle_epi8(s, k->mu);
	v8 = _mm256_shuffle_epi8(s, k->mv);
	y = _mm256_mulhi_epi16(_mm256_sub_epi16(y, k->yoff7), k->yk);
	y = _mm256_add_epi16(y, k->round);
	cr = _mm256_mulhi_epi16(v8, k->vr);
	cb = _mm256_mulhi_epi16(u8, k->ub);
	cg = _mm256_add_epi16(_mm256_mulhi_epi16(u8, k->ug),
			      _mm256_mulhi_epi16(v8, k->vg));
	*r = _mm256_srai_epi16(_mm256_add_epi16(y, cr), 5);
	*g = _mm256_srai_epi16(_mm256_sub_epi16(y, cg), 5);
	*b = _mm256_srai_epi16(_mm256_add_epi16(y, cb), 5);
}

static inline __m256i load2(const uint8_t *lo, const uint8_t *hi)
{
	return _mm256_inserti128_si256(
		_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
		_mm_loadu_si128((const __m128i *)hi), 1);
}

static inline __m256i gather3(__m256i r, __m256i g, __m256i b,
			      const struct coefs *k, int o)
{
	return _mm256_or_si256(
		_mm256_or_si256(_mm256_shuffle_epi8(r, k->g[0][o]),
				_mm256_shuffle_epi8(g, k->g[1][o])),
		_mm256_shuffle_epi8(b, k->g[2][o]));
}

/* 32 pixels: reads 64 bytes, writes exactly 96. */
static inline void pixels32(const uint8_t *src, uint8_t *dst,
			    const struct coefs *k, int bgr)
{
	__m256i a = load2(src, src + 32), b = load2(src + 16, src + 48);
	__m256i ra, ga, ba, rb, gb, bb, r, g, bl, o0, o1, o2;

	rgb16(a, k, &ra, &ga, &ba);
	rgb16(b, k, &rb, &gb, &bb);
	r = _mm256_packus_epi16(ra, rb);
	g = _mm256_packus_epi16(ga, gb);
	bl = _mm256_packus_epi16(ba, bb);
	if (bgr) {
		__m256i t = r;

		r = bl;
		bl = t;
	}
	/* Lane 0: output bytes 0..47, lane 1: bytes 48..95. */
	o0 = gather3(r, g, bl, k, 0);
	o1 = gather3(r, g, bl, k, 1);
	o2 = gather3(r, g, bl, k, 2);
	_mm256_storeu_si256((__m256i *)dst, _mm256_permute2x128_si256(o0, o1, 0x20));
	_mm256_storeu_si256((__m256i *)(dst + 32), _mm256_blend_epi32(o2, o0, 0xf0));
	_mm256_storeu_si256((__m256i *)(dst + 64), _mm256_permute2x128_si256(o1, o2, 0x31));
}

static inline void rgb_row(const uint8_t *src, uint8_t *dst, int width,
			   const struct v4lc_yuv2rgb *kp, int oy0, int ou,
			   int oy1, int ov, int bgr, v4lc_yuv422_rgb_fn *tail)
{
	struct coefs k;
	int x;

	coefs_init(&k, kp, oy0, ou, oy1, ov);
	for (x = 0; x + 32 <= width; x += 32)
		pixels32(src + 2 * x, dst + 3 * x, &k, bgr);
	if (x < width)
		tail(src + 2 * x, dst + 3 * x, width - x, kp);
}

/* 32 bytes of the luma (or, with yfirst == 0, chroma) of 32 pixels. */
static inline __m256i even_bytes(__m256i a, __m256i b, int odd, __m256i lo8)
{
	__m256i p;

	if (odd)
		p = _mm256_packus_epi16(_mm256_srli_epi16(a, 8),
					_mm256_srli_epi16(b, 8));
	else
		p = _mm256_packus_epi16(_mm256_and_si256(a, lo8),
					_mm256_and_si256(b, lo8));
	return _mm256_permute4x64_epi64(p, 0xd8);
}

static inline int yuv420_body(const uint8_t *s0, const uint8_t *s1,
			      uint8_t *y0, uint8_t *y1, uint8_t *first,
			      uint8_t *second, int width, int yfirst)
{
	const __m256i lo8 = _mm256_set1_epi16(0x00ff);
	int x;

	for (x = 0; x + 32 <= width; x += 32) {
		const __m256i *p0 = (const __m256i *)(s0 + 2 * x);
		const __m256i *p1 = (const __m256i *)(s1 + 2 * x);
		__m256i a0 = _mm256_loadu_si256(p0), a1 = _mm256_loadu_si256(p0 + 1);
		__m256i b0 = _mm256_loadu_si256(p1), b1 = _mm256_loadu_si256(p1 + 1);
		__m256i c;

		_mm256_storeu_si256((__m256i *)(y0 + x),
				    even_bytes(a0, a1, !yfirst, lo8));
		_mm256_storeu_si256((__m256i *)(y1 + x),
				    even_bytes(b0, b1, !yfirst, lo8));
		/* first/second chroma of 16 pairs, averaged over the rows */
		c = even_bytes(_mm256_avg_epu8(a0, b0), _mm256_avg_epu8(a1, b1),
			       yfirst, lo8);
		c = _mm256_permute4x64_epi64(
			_mm256_packus_epi16(_mm256_and_si256(c, lo8),
					    _mm256_srli_epi16(c, 8)),
			0xd8);
		_mm_storeu_si128((__m128i *)(first + x / 2),
				 _mm256_castsi256_si128(c));
		_mm_storeu_si128((__m128i *)(second + x / 2),
				 _mm256_extracti128_si256(c, 1));
	}
	return x;
}

/* Byte offsets of Y0, U, Y1, V inside a pixel pair, per order. */
#define YUYV_OFFS 0, 1, 2, 3
#define YVYU_OFFS 0, 3, 2, 1
#define UYVY_OFFS 1, 0, 3, 2
#define VYUY_OFFS 1, 2, 3, 0

#define ORDER(name, OFFS, yfirst, ufirst)                                    \
	static void name##_to_rgb24_avx2(const uint8_t *src, uint8_t *dst,   \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		rgb_row(src, dst, width, k, OFFS, 0,                         \
			v4lc_yuv422_##name##_to_rgb24_c);                    \
	}                                                                    \
	static void name##_to_bgr24_avx2(const uint8_t *src, uint8_t *dst,   \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		rgb_row(src, dst, width, k, OFFS, 1,                         \
			v4lc_yuv422_##name##_to_bgr24_c);                    \
	}                                                                    \
	static void name##_to_yuv420_avx2(const uint8_t *s0,                 \
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

ORDER(yuyv, YUYV_OFFS, 1, 1)
ORDER(yvyu, YVYU_OFFS, 1, 0)
ORDER(uyvy, UYVY_OFFS, 0, 1)
ORDER(vyuy, VYUY_OFFS, 0, 0)

void v4lc_yuv422_init_avx2(struct v4lc_yuv422_dsp *dsp)
{
#define SET(ORD, name)                                                       \
	dsp->to_rgb[ORD][V4LC_RGB24] = name##_to_rgb24_avx2;                 \
	dsp->to_rgb[ORD][V4LC_BGR24] = name##_to_bgr24_avx2;                 \
	dsp->to_yuv420[ORD] = name##_to_yuv420_avx2;
	SET(V4LC_YUYV, yuyv)
	SET(V4LC_YVYU, yvyu)
	SET(V4LC_UYVY, uyvy)
	SET(V4LC_VYUY, vyuy)
#undef SET
}
