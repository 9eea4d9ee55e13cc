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
 * SSE2, packuswb, and vpermq to undo packuswb's lane interleave. The rows
 * come from src/simd/yuv422_rows.h.
 */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/prefetch.h"
#include "x86/vec.h"
#include "x86/yuv2rgb.h"
#include "dispatch/dsp.h"

#define YUV422_STEP 32

#define Z (-128)
/* gather[channel][k]: pixel whose channel goes to output byte 16k + i */
static const int8_t gather[3][3][16] __attribute__((aligned(16))) = {
	{
		/* R */
		{ 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z, Z, 5 },
		{ Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z, 10, Z },
		{ Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15, Z, Z },
	},
	{
		/* G */
		{ Z, 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z, Z },
		{ 5, Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z, 10 },
		{ Z, Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15, Z },
	},
	{
		/* B */
		{ Z, Z, 0, Z, Z, 1, Z, Z, 2, Z, Z, 3, Z, Z, 4, Z },
		{ Z, 5, Z, Z, 6, Z, Z, 7, Z, Z, 8, Z, Z, 9, Z, Z },
		{ 10, Z, Z, 11, Z, Z, 12, Z, Z, 13, Z, Z, 14, Z, Z, 15 },
	},
};

/*
 * vpshufb mask putting source byte 4 * (j / 2) + (j odd ? o1 : o0) in the
 * high byte of 16-bit lane j (low byte zero), per 128-bit lane.
 */
#define HB(j, o0, o1) Z, (char)(4 * ((j) / 2) + (((j)&1) ? (o1) : (o0)))
#define LANE(o0, o1)                                                           \
	HB(0, o0, o1), HB(1, o0, o1), HB(2, o0, o1), HB(3, o0, o1),            \
		HB(4, o0, o1), HB(5, o0, o1), HB(6, o0, o1), HB(7, o0, o1)
#define HIGH_BYTES(o0, o1) _mm256_setr_epi8(LANE(o0, o1), LANE(o0, o1))

/* R, G, B (unclamped, 16-bit) of 16 pixels: 8 per 128-bit lane. */
static inline __attribute__((always_inline)) void rgb16(__m256i s,
							const struct coefs *k,
							int order, __m256i *r,
							__m256i *g, __m256i *b)
{
	const uint8_t *o = v4lc_yuv422_offsets[order];
	const int oy0 = o[V4LC_422_Y0], ou = o[V4LC_422_U];
	const int oy1 = o[V4LC_422_Y1], ov = o[V4LC_422_V];
	/* 0x80 on the chroma bytes of every pair */
	const __m256i sign = _mm256_set1_epi32(
		(int)((0x80u << (8 * ou)) | (0x80u << (8 * ov))));

	s = _mm256_xor_si256(s, sign);
	yuv2rgb_lanes(_mm256_srli_epi16(_mm256_shuffle_epi8(s, HIGH_BYTES(oy0,
									  oy1)),
					1),
		      _mm256_shuffle_epi8(s, HIGH_BYTES(ou, ou)),
		      _mm256_shuffle_epi8(s, HIGH_BYTES(ov, ov)), k, r, g, b);
}
#undef HIGH_BYTES
#undef LANE
#undef HB
#undef Z

static inline __m256i load2(const uint8_t *lo, const uint8_t *hi)
{
	return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(
					       (const __m128i *)lo)),
				       _mm_loadu_si128((const __m128i *)hi), 1);
}

static inline __m256i gather3(__m256i r, __m256i g, __m256i b, int o)
{
	const __m128i *m = (const __m128i *)gather;

	return _mm256_or_si256(
		_mm256_or_si256(
			_mm256_shuffle_epi8(r, _mm256_broadcastsi128_si256(
						       _mm_load_si128(m + o))),
			_mm256_shuffle_epi8(g, _mm256_broadcastsi128_si256(
						       _mm_load_si128(m + 3 +
								      o)))),
		_mm256_shuffle_epi8(b, _mm256_broadcastsi128_si256(
					       _mm_load_si128(m + 6 + o))));
}

/* 32 pixels: reads 64 bytes, writes exactly 96. */
static inline __attribute__((always_inline)) void
rgb_step(const uint8_t *src, uint8_t *dst, const struct coefs *k, int order,
	 int bgr, int last)
{
	__m256i a = load2(src, src + 32), b = load2(src + 16, src + 48);
	__m256i ra, ga, ba, rb, gb, bb, r, g, bl, o0, o1, o2;

	(void)last;
	rgb16(a, k, order, &ra, &ga, &ba);
	rgb16(b, k, order, &rb, &gb, &bb);
	r = _mm256_packus_epi16(ra, rb);
	g = _mm256_packus_epi16(ga, gb);
	bl = _mm256_packus_epi16(ba, bb);
	if (bgr) {
		__m256i t = r;

		r = bl;
		bl = t;
	}
	/* Lane 0: output bytes 0..47, lane 1: bytes 48..95. */
	o0 = gather3(r, g, bl, 0);
	o1 = gather3(r, g, bl, 1);
	o2 = gather3(r, g, bl, 2);
	_mm256_storeu_si256((__m256i *)dst,
			    _mm256_permute2x128_si256(o0, o1, 0x20));
	_mm256_storeu_si256((__m256i *)(dst + 32),
			    _mm256_blend_epi32(o2, o0, 0xf0));
	_mm256_storeu_si256((__m256i *)(dst + 64),
			    _mm256_permute2x128_si256(o1, o2, 0x31));
}

/* The even (or, if odd, the odd) bytes of 64 bytes, in order. */
static inline __m256i half_bytes(__m256i a, __m256i b, int odd)
{
	const __m256i lo8 = _mm256_set1_epi16(0x00ff);
	__m256i p;

	if (odd)
		p = _mm256_packus_epi16(_mm256_srli_epi16(a, 8),
					_mm256_srli_epi16(b, 8));
	else
		p = _mm256_packus_epi16(_mm256_and_si256(a, lo8),
					_mm256_and_si256(b, lo8));
	return _mm256_permute4x64_epi64(p, 0xd8);
}

static inline __attribute__((always_inline)) void
yuv420_step(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
	    uint8_t *u, uint8_t *v, int order)
{
	const int yodd = v4lc_yuv422_luma_odd(order);
	const int vfirst = v4lc_yuv422_v_first(order);
	const __m256i lo8 = _mm256_set1_epi16(0x00ff);
	__m256i a0 = _mm256_loadu_si256((const __m256i *)s0);
	__m256i a1 = _mm256_loadu_si256((const __m256i *)(s0 + 32));
	__m256i b0 = _mm256_loadu_si256((const __m256i *)s1);
	__m256i b1 = _mm256_loadu_si256((const __m256i *)(s1 + 32));
	__m256i c;

	v_prefetch(s0 + YUV422_PF);
	v_prefetch(s1 + YUV422_PF);
	_mm256_storeu_si256((__m256i *)y0, half_bytes(a0, a1, yodd));
	_mm256_storeu_si256((__m256i *)y1, half_bytes(b0, b1, yodd));
	/* first/second chroma of 16 pairs, averaged over the rows */
	c = half_bytes(_mm256_avg_epu8(a0, b0), _mm256_avg_epu8(a1, b1), !yodd);
	c = _mm256_permute4x64_epi64(_mm256_packus_epi16(_mm256_and_si256(c,
									  lo8),
							 _mm256_srli_epi16(c,
									   8)),
				     0xd8);
	_mm_storeu_si128((__m128i *)(vfirst ? v : u),
			 _mm256_castsi256_si128(c));
	_mm_storeu_si128((__m128i *)(vfirst ? u : v),
			 _mm256_extracti128_si256(c, 1));
}

#include "simd/yuv422_rows.h"

YUV422_TO_RGB(yuyv_to_rgb24_avx2, V4LC_YUYV, 0, v4lc_yuv422_yuyv_to_rgb24_c)
YUV422_TO_RGB(yuyv_to_bgr24_avx2, V4LC_YUYV, 1, v4lc_yuv422_yuyv_to_bgr24_c)
YUV422_TO_YUV420(yuyv_to_yuv420_avx2, V4LC_YUYV, v4lc_yuv422_yuyv_to_yuv420_c)
YUV422_TO_RGB(yvyu_to_rgb24_avx2, V4LC_YVYU, 0, v4lc_yuv422_yvyu_to_rgb24_c)
YUV422_TO_RGB(yvyu_to_bgr24_avx2, V4LC_YVYU, 1, v4lc_yuv422_yvyu_to_bgr24_c)
YUV422_TO_YUV420(yvyu_to_yuv420_avx2, V4LC_YVYU, v4lc_yuv422_yvyu_to_yuv420_c)
YUV422_TO_RGB(uyvy_to_rgb24_avx2, V4LC_UYVY, 0, v4lc_yuv422_uyvy_to_rgb24_c)
YUV422_TO_RGB(uyvy_to_bgr24_avx2, V4LC_UYVY, 1, v4lc_yuv422_uyvy_to_bgr24_c)
YUV422_TO_YUV420(uyvy_to_yuv420_avx2, V4LC_UYVY, v4lc_yuv422_uyvy_to_yuv420_c)
YUV422_TO_RGB(vyuy_to_rgb24_avx2, V4LC_VYUY, 0, v4lc_yuv422_vyuy_to_rgb24_c)
YUV422_TO_RGB(vyuy_to_bgr24_avx2, V4LC_VYUY, 1, v4lc_yuv422_vyuy_to_bgr24_c)
YUV422_TO_YUV420(vyuy_to_yuv420_avx2, V4LC_VYUY, v4lc_yuv422_vyuy_to_yuv420_c)

void v4lc_yuv422_init_avx2(struct v4lc_yuv422_dsp *dsp)
{
	dsp->to_rgb[V4LC_YUYV][V4LC_RGB24] = yuyv_to_rgb24_avx2;
	dsp->to_rgb[V4LC_YUYV][V4LC_BGR24] = yuyv_to_bgr24_avx2;
	dsp->to_yuv420[V4LC_YUYV] = yuyv_to_yuv420_avx2;
	dsp->to_rgb[V4LC_YVYU][V4LC_RGB24] = yvyu_to_rgb24_avx2;
	dsp->to_rgb[V4LC_YVYU][V4LC_BGR24] = yvyu_to_bgr24_avx2;
	dsp->to_yuv420[V4LC_YVYU] = yvyu_to_yuv420_avx2;
	dsp->to_rgb[V4LC_UYVY][V4LC_RGB24] = uyvy_to_rgb24_avx2;
	dsp->to_rgb[V4LC_UYVY][V4LC_BGR24] = uyvy_to_bgr24_avx2;
	dsp->to_yuv420[V4LC_UYVY] = uyvy_to_yuv420_avx2;
	dsp->to_rgb[V4LC_VYUY][V4LC_RGB24] = vyuy_to_rgb24_avx2;
	dsp->to_rgb[V4LC_VYUY][V4LC_BGR24] = vyuy_to_bgr24_avx2;
	dsp->to_yuv420[V4LC_VYUY] = vyuy_to_yuv420_avx2;
}
