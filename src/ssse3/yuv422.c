/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSSE3 yuv422 kernels, bit-exact with the scalar ones.
 *
 * To RGB: SSE2's steps (src/x86/yuv422_128_tmpl.h), the 48 output bytes of
 * 16 pixels gathered by pshufb (src/x86/rgb_gather.h) into three whole
 * 16-byte stores.
 *
 * To YUV 4:2:0: one pshufb per 16 source bytes (4 pixel pairs) puts their
 * 8 luma bytes in the low half, the 4 U bytes next and the 4 V bytes last,
 * whatever the byte order; punpcklqdq joins two vectors' luma. pavgb is
 * per byte, so the two rows' shuffled vectors average as well as the raw
 * ones would, and four averaged vectors give 16 U and 16 V by punpckhdq
 * and punpck{l,h}qdq. Where SSE2 masks, shifts and packs three times over
 * (luma, chroma, then U from V), this is one shuffle and a few unpacks.
 */
#include <tmmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/yuv2rgb.h"
#include "sse2/rgb_pairs.h"
#include "x86/rgb_gather.h"
#include "dispatch/dsp.h"

static inline void store_rgb(const __m128i p[3], uint8_t *dst, int last)
{
	(void)last;
	store_rgb48_pshufb(p, dst);
}

#include "x86/yuv422_128_tmpl.h"

/* 4 pixel pairs to luma (bytes 0..7), U (8..11) and V (12..15). */
static inline __m128i split_mask(int order)
{
	const uint8_t *o = v4lc_yuv422_offsets[order];
	const int y = o[V4LC_422_Y0], u = o[V4LC_422_U], v = o[V4LC_422_V];

	return _mm_setr_epi8((char)y, (char)(y + 2), (char)(y + 4),
			     (char)(y + 6), (char)(y + 8), (char)(y + 10),
			     (char)(y + 12), (char)(y + 14), (char)u,
			     (char)(u + 4), (char)(u + 8), (char)(u + 12),
			     (char)v, (char)(v + 4), (char)(v + 8),
			     (char)(v + 12));
}

static inline __attribute__((always_inline)) void
yuv420_step(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
	    uint8_t *u, uint8_t *v, int order)
{
	const __m128i m = split_mask(order);
	__m128i a[4], b[4], c[4], lo, hi;

	v_prefetch(s0 + YUV422_PF);
	v_prefetch(s1 + YUV422_PF);
	for (int i = 0; i < 4; i++) {
		a[i] = _mm_shuffle_epi8(_mm_loadu_si128(
						(const __m128i *)(s0 + 16 * i)),
					m);
		b[i] = _mm_shuffle_epi8(_mm_loadu_si128(
						(const __m128i *)(s1 + 16 * i)),
					m);
		c[i] = _mm_avg_epu8(a[i], b[i]);
	}
	_mm_storeu_si128((__m128i *)y0, _mm_unpacklo_epi64(a[0], a[1]));
	_mm_storeu_si128((__m128i *)(y0 + 16), _mm_unpacklo_epi64(a[2], a[3]));
	_mm_storeu_si128((__m128i *)y1, _mm_unpacklo_epi64(b[0], b[1]));
	_mm_storeu_si128((__m128i *)(y1 + 16), _mm_unpacklo_epi64(b[2], b[3]));
	/* dwords U0 U1 V0 V1 and U2 U3 V2 V3 of vectors 0..3 */
	lo = _mm_unpackhi_epi32(c[0], c[1]);
	hi = _mm_unpackhi_epi32(c[2], c[3]);
	_mm_storeu_si128((__m128i *)u, _mm_unpacklo_epi64(lo, hi));
	_mm_storeu_si128((__m128i *)v, _mm_unpackhi_epi64(lo, hi));
}

#include "simd/yuv422_rows.h"

YUV422_TO_RGB(yuyv_to_rgb24_ssse3, V4LC_YUYV, 0, v4lc_yuv422_yuyv_to_rgb24_c)
YUV422_TO_RGB(yuyv_to_bgr24_ssse3, V4LC_YUYV, 1, v4lc_yuv422_yuyv_to_bgr24_c)
YUV422_TO_YUV420(yuyv_to_yuv420_ssse3, V4LC_YUYV, v4lc_yuv422_yuyv_to_yuv420_c)
YUV422_TO_RGB(yvyu_to_rgb24_ssse3, V4LC_YVYU, 0, v4lc_yuv422_yvyu_to_rgb24_c)
YUV422_TO_RGB(yvyu_to_bgr24_ssse3, V4LC_YVYU, 1, v4lc_yuv422_yvyu_to_bgr24_c)
YUV422_TO_YUV420(yvyu_to_yuv420_ssse3, V4LC_YVYU, v4lc_yuv422_yvyu_to_yuv420_c)
YUV422_TO_RGB(uyvy_to_rgb24_ssse3, V4LC_UYVY, 0, v4lc_yuv422_uyvy_to_rgb24_c)
YUV422_TO_RGB(uyvy_to_bgr24_ssse3, V4LC_UYVY, 1, v4lc_yuv422_uyvy_to_bgr24_c)
YUV422_TO_YUV420(uyvy_to_yuv420_ssse3, V4LC_UYVY, v4lc_yuv422_uyvy_to_yuv420_c)
YUV422_TO_RGB(vyuy_to_rgb24_ssse3, V4LC_VYUY, 0, v4lc_yuv422_vyuy_to_rgb24_c)
YUV422_TO_RGB(vyuy_to_bgr24_ssse3, V4LC_VYUY, 1, v4lc_yuv422_vyuy_to_bgr24_c)
YUV422_TO_YUV420(vyuy_to_yuv420_ssse3, V4LC_VYUY, v4lc_yuv422_vyuy_to_yuv420_c)

void v4lc_yuv422_init_ssse3(struct v4lc_yuv422_dsp *dsp)
{
	dsp->to_rgb[V4LC_YUYV][V4LC_RGB24] = yuyv_to_rgb24_ssse3;
	dsp->to_rgb[V4LC_YUYV][V4LC_BGR24] = yuyv_to_bgr24_ssse3;
	dsp->to_yuv420[V4LC_YUYV] = yuyv_to_yuv420_ssse3;
	dsp->to_rgb[V4LC_YVYU][V4LC_RGB24] = yvyu_to_rgb24_ssse3;
	dsp->to_rgb[V4LC_YVYU][V4LC_BGR24] = yvyu_to_bgr24_ssse3;
	dsp->to_yuv420[V4LC_YVYU] = yvyu_to_yuv420_ssse3;
	dsp->to_rgb[V4LC_UYVY][V4LC_RGB24] = uyvy_to_rgb24_ssse3;
	dsp->to_rgb[V4LC_UYVY][V4LC_BGR24] = uyvy_to_bgr24_ssse3;
	dsp->to_yuv420[V4LC_UYVY] = uyvy_to_yuv420_ssse3;
	dsp->to_rgb[V4LC_VYUY][V4LC_RGB24] = vyuy_to_rgb24_ssse3;
	dsp->to_rgb[V4LC_VYUY][V4LC_BGR24] = vyuy_to_bgr24_ssse3;
	dsp->to_yuv420[V4LC_VYUY] = vyuy_to_yuv420_ssse3;
}
