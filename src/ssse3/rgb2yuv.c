/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with SSSE3, 16 pixels per step: SSE2's arithmetic
 * and row loop (src/x86/rgb2yuv_tmpl.h) with a pshufb deinterleave. Four
 * loads 12 bytes apart each hold four whole pixels; one pshufb per load
 * groups them by channel (four bytes of each channel, one dword per
 * channel), a 4x4 dword transpose (seven punpck) leaves each channel's 16
 * bytes in pixel order, and a shift or a mask per 16-bit lane makes the
 * even and odd pixels c << 8: 4 loads and 17 operations where SSE2's
 * riffles take 3 loads and 21. The last load starts 4 bytes early so it
 * ends at the step's last byte.
 */
#include <tmmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"

#define Z (-128)
/* channel-major dwords of four pixels at byte `o` of a load */
#define BY_CHANNEL(o)                                                          \
	_mm_setr_epi8(o, o + 3, o + 6, o + 9, o + 1, o + 4, o + 7, o + 10,     \
		      o + 2, o + 5, o + 8, o + 11, Z, Z, Z, Z)

static inline void load_pixels(const uint8_t *s, __m128i e[3], __m128i o[3])
{
	const __m128i hi8 = _mm_set1_epi16((short)0xff00);
	__m128i a = _mm_shuffle_epi8(v_load(s), BY_CHANNEL(0));
	__m128i b = _mm_shuffle_epi8(v_load(s + 12), BY_CHANNEL(0));
	__m128i c = _mm_shuffle_epi8(v_load(s + 24), BY_CHANNEL(0));
	__m128i d = _mm_shuffle_epi8(v_load(s + 32), BY_CHANNEL(4));
	__m128i t0 = _mm_unpacklo_epi32(a, b), t1 = _mm_unpacklo_epi32(c, d);
	__m128i t2 = _mm_unpackhi_epi32(a, b), t3 = _mm_unpackhi_epi32(c, d);
	__m128i ch[3];

	ch[0] = _mm_unpacklo_epi64(t0, t1);
	ch[1] = _mm_unpackhi_epi64(t0, t1);
	ch[2] = _mm_unpacklo_epi64(t2, t3);
	for (int i = 0; i < 3; i++) {
		e[i] = _mm_slli_epi16(ch[i], 8);
		o[i] = _mm_and_si128(ch[i], hi8);
	}
}
#undef BY_CHANNEL
#undef Z

#define RGB2YUV_LOAD_PIXELS

static inline void store_uv(__m128i uv, uint8_t *u, uint8_t *v)
{
	_mm_storel_epi64((__m128i *)u, uv);
	_mm_storel_epi64((__m128i *)v, _mm_srli_si128(uv, 8));
}

#include "x86/rgb2yuv_tmpl.h"

RGB2YUV_TO_YUV420(rgb24_to_yuv420_ssse3, 0)
RGB2YUV_TO_YUV420(bgr24_to_yuv420_ssse3, 1)

void v4lc_rgb2yuv_init_ssse3(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = rgb24_to_yuv420_ssse3;
	dsp->to_yuv420[V4LC_BGR24] = bgr24_to_yuv420_ssse3;
}
