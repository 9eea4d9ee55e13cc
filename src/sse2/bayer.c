/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 Bayer kernels, 16 pixels (or column pairs) a step:
 * src/x86/bayer_tmpl.h, with masks for the parity picks and, without a
 * byte shuffle, pixel pairs for the 24-bit output: a pixel pair is 6 bytes,
 * three 16-bit words (byte 0 / byte 1 of a pair's bytes), interleaved into
 * one 64-bit lane per pair (two spare bytes) and written with overlapping
 * 8-byte stores; the last one writes two bytes of the next pixel, which the
 * code after it rewrites.
 */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"

static inline __m128i pick_odd(__m128i e, __m128i o)
{
	const __m128i lo = _mm_set1_epi16(0x00ff);

	return _mm_or_si128(_mm_and_si128(e, lo), _mm_andnot_si128(lo, o));
}

/* Pixel pairs from their three 16-bit words: 8 pairs from each half. */
static inline __attribute__((always_inline)) void
store_words(__m128i w0, __m128i w1, __m128i w2, uint8_t *d)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i t0 = _mm_unpacklo_epi16(w0, w1);
	__m128i t1 = _mm_unpackhi_epi16(w0, w1);
	__m128i s0 = _mm_unpacklo_epi16(w2, zero);
	__m128i s1 = _mm_unpackhi_epi16(w2, zero);
	__m128i q[4] = { _mm_unpacklo_epi32(t0, s0), _mm_unpackhi_epi32(t0, s0),
			 _mm_unpacklo_epi32(t1, s1),
			 _mm_unpackhi_epi32(t1, s1) };

	for (int i = 0; i < 4; i++) {
		_mm_storel_epi64((__m128i *)(d + 12 * i), q[i]);
		_mm_storeh_pi((__m64 *)(void *)(d + 12 * i + 6),
			      _mm_castsi128_ps(q[i]));
	}
}

/* 16 pixels: per pair the words P0e|Ge, P2e|P0o, Go|P2o. */
static inline __attribute__((always_inline)) void store_rgb(const __m128i ch[3],
							    uint8_t *d)
{
	const __m128i lo = _mm_set1_epi16(0x00ff);

	store_words(_mm_or_si128(_mm_and_si128(ch[0], lo),
				 _mm_slli_epi16(ch[1], 8)),
		    _mm_or_si128(_mm_and_si128(ch[2], lo),
				 _mm_andnot_si128(lo, ch[0])),
		    _mm_or_si128(_mm_srli_epi16(ch[1], 8),
				 _mm_andnot_si128(lo, ch[2])),
		    d);
}

/* Sums of byte pairs (2i, 2i + 1) of two rows in 16-bit lanes. */
static inline __m128i pair_sums(__m128i p, __m128i q)
{
	const __m128i lo = _mm_set1_epi16(0x00ff);

	return _mm_add_epi16(_mm_add_epi16(_mm_and_si128(p, lo),
					   _mm_srli_epi16(p, 8)),
			     _mm_add_epi16(_mm_and_si128(q, lo),
					   _mm_srli_epi16(q, 8)));
}

static inline void store_uv(__m128i uv, uint8_t *u, uint8_t *v)
{
	_mm_storel_epi64((__m128i *)u, uv);
	_mm_storel_epi64((__m128i *)v, _mm_srli_si128(uv, 8));
}

static inline __attribute__((always_inline)) void
store_pairs(__m128i x0, __m128i x1, __m128i y0, __m128i y1, __m128i z0,
	    __m128i z1, uint8_t *d)
{
	store_words(_mm_unpacklo_epi8(x0, x1), _mm_unpacklo_epi8(y0, y1),
		    _mm_unpacklo_epi8(z0, z1), d);
	store_words(_mm_unpackhi_epi8(x0, x1), _mm_unpackhi_epi8(y0, y1),
		    _mm_unpackhi_epi8(z0, z1), d + 48);
}

#define PAIR_SPARE 1

#include "x86/bayer_tmpl.h"

BAYER_ROW(gb_sse2, 0, 0)
BAYER_ROW(gr_sse2, 0, 1)
BAYER_ROW(bg_sse2, 1, 0)
BAYER_ROW(rg_sse2, 1, 1)
BAYER_YUV(bggr_yuv_sse2, 1, 0)
BAYER_YUV(gbrg_yuv_sse2, 0, 0)
BAYER_YUV(grbg_yuv_sse2, 0, 1)
BAYER_YUV(rggb_yuv_sse2, 1, 1)
BAYER_SPLIT(split_sse2)
BAYER_PLANAR(planar_gb_sse2, 0, 0)
BAYER_PLANAR(planar_gr_sse2, 0, 1)
BAYER_PLANAR(planar_bg_sse2, 1, 0)
BAYER_PLANAR(planar_rg_sse2, 1, 1)

void v4lc_bayer_init_sse2(struct v4lc_bayer_dsp *dsp)
{
	/* by row kind, as src/scalar/bayer.h's fill functions take them */
	static v4lc_bayer_row_fn *const kinds[4] = { gb_sse2, gr_sse2, bg_sse2,
						     rg_sse2 };
	static v4lc_bayer_planar_fn *const planar[4] = {
		planar_gb_sse2, planar_gr_sse2, planar_bg_sse2, planar_rg_sse2
	};

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->to_yuv420[V4LC_BGGR] = bggr_yuv_sse2;
	dsp->to_yuv420[V4LC_GBRG] = gbrg_yuv_sse2;
	dsp->to_yuv420[V4LC_GRBG] = grbg_yuv_sse2;
	dsp->to_yuv420[V4LC_RGGB] = rggb_yuv_sse2;
	dsp->split = split_sse2;
	v4lc_bayer_fill_planar(dsp, planar);
}
