/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 yuv422 kernels, bit-exact with the scalar ones (pixel.h formulas in
 * 16-bit lanes), 16 pixels per step to RGB (src/x86/yuv422_128_tmpl.h,
 * shared with SSSE3), 32 to YUV 4:2:0; the rows come from
 * src/simd/yuv422_rows.h.
 *
 * Unpacking: 32 source bytes are 8 pixel pairs. Masking or shifting the
 * 16-bit lanes separates luma from chroma; packuswb gathers 16 luma bytes
 * (pixel order) and 16 chroma bytes (first, second chroma of each pair);
 * to YUV 4:2:0, pavgb of the two rows' whole vectors first (only their
 * chroma bytes are kept), the chroma then split again into U and V.
 * Luma then splits into even and odd pixels as 16-bit lanes, so lane i of
 * each holds one pixel of pair i and one chroma lane serves both: no
 * chroma duplication (src/x86/yuv2rgb.h). Chroma bytes are XORed with 0x80
 * once, after which (C - 128) << 8 is a plain shift or mask. The output is
 * written as pixel pairs with overlapping 8-byte stores
 * (src/sse2/rgb_pairs.h), the last step of a row exactly.
 */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/yuv2rgb.h"
#include "sse2/rgb_pairs.h"
#include "dispatch/dsp.h"

static inline void store_rgb(const __m128i p[3], uint8_t *dst, int last)
{
	store_rgb48(p, dst, last);
}

#include "x86/yuv422_128_tmpl.h"

static inline __attribute__((always_inline)) void
yuv420_step(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
	    uint8_t *u, uint8_t *v, int order)
{
	const int yodd = v4lc_yuv422_luma_odd(order);
	const int vfirst = v4lc_yuv422_v_first(order);
	__m128i a[4], b[4], c01, c23;

	v_prefetch(s0 + YUV422_PF);
	v_prefetch(s1 + YUV422_PF);
	for (int i = 0; i < 4; i++) {
		a[i] = _mm_loadu_si128((const __m128i *)(s0 + 16 * i));
		b[i] = _mm_loadu_si128((const __m128i *)(s1 + 16 * i));
	}
	_mm_storeu_si128((__m128i *)y0, half_bytes(a[0], a[1], yodd));
	_mm_storeu_si128((__m128i *)(y0 + 16), half_bytes(a[2], a[3], yodd));
	_mm_storeu_si128((__m128i *)y1, half_bytes(b[0], b[1], yodd));
	_mm_storeu_si128((__m128i *)(y1 + 16), half_bytes(b[2], b[3], yodd));
	/* pavgb of whole pairs: the chroma bytes are what counts */
	c01 = half_bytes(_mm_avg_epu8(a[0], b[0]), _mm_avg_epu8(a[1], b[1]),
			 !yodd);
	c23 = half_bytes(_mm_avg_epu8(a[2], b[2]), _mm_avg_epu8(a[3], b[3]),
			 !yodd);
	_mm_storeu_si128((__m128i *)(vfirst ? v : u), half_bytes(c01, c23, 0));
	_mm_storeu_si128((__m128i *)(vfirst ? u : v), half_bytes(c01, c23, 1));
}

#include "simd/yuv422_rows.h"

YUV422_TO_RGB(yuyv_to_rgb24_sse2, V4LC_YUYV, 0, v4lc_yuv422_yuyv_to_rgb24_c)
YUV422_TO_RGB(yuyv_to_bgr24_sse2, V4LC_YUYV, 1, v4lc_yuv422_yuyv_to_bgr24_c)
YUV422_TO_YUV420(yuyv_to_yuv420_sse2, V4LC_YUYV, v4lc_yuv422_yuyv_to_yuv420_c)
YUV422_TO_RGB(yvyu_to_rgb24_sse2, V4LC_YVYU, 0, v4lc_yuv422_yvyu_to_rgb24_c)
YUV422_TO_RGB(yvyu_to_bgr24_sse2, V4LC_YVYU, 1, v4lc_yuv422_yvyu_to_bgr24_c)
YUV422_TO_YUV420(yvyu_to_yuv420_sse2, V4LC_YVYU, v4lc_yuv422_yvyu_to_yuv420_c)
YUV422_TO_RGB(uyvy_to_rgb24_sse2, V4LC_UYVY, 0, v4lc_yuv422_uyvy_to_rgb24_c)
YUV422_TO_RGB(uyvy_to_bgr24_sse2, V4LC_UYVY, 1, v4lc_yuv422_uyvy_to_bgr24_c)
YUV422_TO_YUV420(uyvy_to_yuv420_sse2, V4LC_UYVY, v4lc_yuv422_uyvy_to_yuv420_c)
YUV422_TO_RGB(vyuy_to_rgb24_sse2, V4LC_VYUY, 0, v4lc_yuv422_vyuy_to_rgb24_c)
YUV422_TO_RGB(vyuy_to_bgr24_sse2, V4LC_VYUY, 1, v4lc_yuv422_vyuy_to_bgr24_c)
YUV422_TO_YUV420(vyuy_to_yuv420_sse2, V4LC_VYUY, v4lc_yuv422_vyuy_to_yuv420_c)

void v4lc_yuv422_init_sse2(struct v4lc_yuv422_dsp *dsp)
{
	dsp->to_rgb[V4LC_YUYV][V4LC_RGB24] = yuyv_to_rgb24_sse2;
	dsp->to_rgb[V4LC_YUYV][V4LC_BGR24] = yuyv_to_bgr24_sse2;
	dsp->to_yuv420[V4LC_YUYV] = yuyv_to_yuv420_sse2;
	dsp->to_rgb[V4LC_YVYU][V4LC_RGB24] = yvyu_to_rgb24_sse2;
	dsp->to_rgb[V4LC_YVYU][V4LC_BGR24] = yvyu_to_bgr24_sse2;
	dsp->to_yuv420[V4LC_YVYU] = yvyu_to_yuv420_sse2;
	dsp->to_rgb[V4LC_UYVY][V4LC_RGB24] = uyvy_to_rgb24_sse2;
	dsp->to_rgb[V4LC_UYVY][V4LC_BGR24] = uyvy_to_bgr24_sse2;
	dsp->to_yuv420[V4LC_UYVY] = uyvy_to_yuv420_sse2;
	dsp->to_rgb[V4LC_VYUY][V4LC_RGB24] = vyuy_to_rgb24_sse2;
	dsp->to_rgb[V4LC_VYUY][V4LC_BGR24] = vyuy_to_bgr24_sse2;
	dsp->to_yuv420[V4LC_VYUY] = vyuy_to_yuv420_sse2;
}
