/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 Bayer kernels, 32 pixels (or column pairs) a step:
 * src/x86/bayer_tmpl.h, with vpblendvb for the parity picks and vpmaddubsw
 * for the chroma sums. vpshufb interleaves the three channel vectors into
 * 24-bit pixels within each 128-bit lane (16 pixels, 48 bytes); vperm2i128
 * puts the six 16-byte pieces in memory order for three 32-byte stores.
 * The planar path's three 16-bit pair streams are interleaved per lane by
 * one vpshufb per stream (a fixed rotation) and two vpblendw per 16-byte
 * piece. After their first step, the row loops continue where the stores
 * are 32-byte aligned (when the row start allows it): the steps in between
 * overlap and rewrite identical bytes.
 */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"

/* blendv takes the second operand where the mask byte's top bit is set */
static inline __m256i pick_odd(__m256i e, __m256i o)
{
	return _mm256_blendv_epi8(e, o, _mm256_set1_epi16((short)0xff00));
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

static inline __attribute__((always_inline)) void store_rgb(const __m256i ch[3],
							    uint8_t *d)
{
	__m256i o[3];

	for (int k = 0; k < 3; k++)
		o[k] = _mm256_or_si256(
			_mm256_or_si256(_mm256_shuffle_epi8(ch[0], mask(k, 0)),
					_mm256_shuffle_epi8(ch[1], mask(k, 1))),
			_mm256_shuffle_epi8(ch[2], mask(k, 2)));
	_mm256_storeu_si256((__m256i *)d,
			    _mm256_permute2x128_si256(o[0], o[1], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_permute2x128_si256(o[2], o[0], 0x30));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_permute2x128_si256(o[1], o[2], 0x31));
}

/* Sums of byte pairs (2i, 2i + 1) of two rows in 16-bit lanes. */
static inline __m256i pair_sums(__m256i p, __m256i q)
{
	static const uint8_t ones[32] __attribute__((aligned(32))) = {
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	};
	const __m256i one = _mm256_load_si256((const __m256i *)ones);

	return _mm256_add_epi16(_mm256_maddubs_epi16(p, one),
				_mm256_maddubs_epi16(q, one));
}

/* Per lane: U(8) V(8); reorder the quadwords to U(16) | V(16). */
static inline void store_uv(__m256i uv, uint8_t *u, uint8_t *v)
{
	uv = _mm256_permute4x64_epi64(uv, 0xd8);
	_mm_storeu_si128((__m128i *)u, _mm256_castsi256_si128(uv));
	_mm_storeu_si128((__m128i *)v, _mm256_extracti128_si256(uv, 1));
}

/* rot[s]: stream s's words in the positions they take in the 3 pieces */
static const uint8_t rot3[3][16] __attribute__((aligned(16))) = {
	{ 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15, 4, 5, 10, 11 },
	{ 10, 11, 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15, 4, 5 },
	{ 4, 5, 10, 11, 0, 1, 6, 7, 12, 13, 2, 3, 8, 9, 14, 15 },
};

static inline __m256i rotm(int s)
{
	return _mm256_broadcastsi128_si256(
		_mm_load_si128((const __m128i *)rot3[s]));
}

/* Per lane: words x0 y0 z0 x1 y1 z1 ... x7 y7 z7 as pieces o[0..2]. */
static inline __attribute__((always_inline)) void
inter3w(__m256i x, __m256i y, __m256i z, __m256i o[3])
{
	x = _mm256_shuffle_epi8(x, rotm(0));
	y = _mm256_shuffle_epi8(y, rotm(1));
	z = _mm256_shuffle_epi8(z, rotm(2));
	o[0] = _mm256_blend_epi16(_mm256_blend_epi16(x, y, 0x92), z, 0x24);
	o[1] = _mm256_blend_epi16(_mm256_blend_epi16(x, y, 0x24), z, 0x49);
	o[2] = _mm256_blend_epi16(_mm256_blend_epi16(x, y, 0x49), z, 0x92);
}

static inline __attribute__((always_inline)) void
store_pairs(__m256i x0, __m256i x1, __m256i y0, __m256i y1, __m256i z0,
	    __m256i z1, uint8_t *d)
{
	__m256i lo[3], hi[3];

	inter3w(_mm256_unpacklo_epi8(x0, x1), _mm256_unpacklo_epi8(y0, y1),
		_mm256_unpacklo_epi8(z0, z1), lo);
	inter3w(_mm256_unpackhi_epi8(x0, x1), _mm256_unpackhi_epi8(y0, y1),
		_mm256_unpackhi_epi8(z0, z1), hi);
	/* lo: pairs 0-7 | 16-23, hi: pairs 8-15 | 24-31 */
	_mm256_storeu_si256((__m256i *)d,
			    _mm256_permute2x128_si256(lo[0], lo[1], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_permute2x128_si256(lo[2], hi[0], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_permute2x128_si256(hi[1], hi[2], 0x20));
	_mm256_storeu_si256((__m256i *)(d + 96),
			    _mm256_permute2x128_si256(lo[0], lo[1], 0x31));
	_mm256_storeu_si256((__m256i *)(d + 128),
			    _mm256_permute2x128_si256(lo[2], hi[0], 0x31));
	_mm256_storeu_si256((__m256i *)(d + 160),
			    _mm256_permute2x128_si256(hi[1], hi[2], 0x31));
}

#define PAIR_SPARE 0

/*
 * Where the steps continue after the first: the first even x > 2 where
 * d + 3 x is 32-byte aligned (3 * 11 = 1 mod 32), when d is even.
 */
#define BAYER_ALIGN_STEPS
static inline int row_restart(const uint8_t *d)
{
	int xa = (int)((0u - (unsigned)(uintptr_t)d) * 11u & 31u);

	if ((uintptr_t)d & 1)
		return 2 + 32;
	return xa > 2 ? xa : xa + 32;
}

/* The first even x > 2 with y0 + x 32-byte aligned, when y0 is even. */
static inline int yuv_restart(const uint8_t *y0)
{
	int xa = (int)((0u - (unsigned)(uintptr_t)y0) & 31u);

	if ((uintptr_t)y0 & 1)
		return 2 + 32;
	return xa > 2 ? xa : xa + 32;
}

/* The first pair i > 0 with d + 6 i 32-byte aligned, when d is even:
 * 6 i = -d (mod 32) is 3 i = -d / 2 (mod 16). */
static inline int pair_restart(const uint8_t *d)
{
	int i = (int)((0u - ((unsigned)(uintptr_t)d >> 1)) * 11u & 15u);

	if ((uintptr_t)d & 1)
		return 32;
	return i ? i : 32;
}

#include "x86/bayer_tmpl.h"

BAYER_ROW(gb_avx2, 0, 0)
BAYER_ROW(gr_avx2, 0, 1)
BAYER_ROW(bg_avx2, 1, 0)
BAYER_ROW(rg_avx2, 1, 1)
BAYER_YUV(bggr_yuv_avx2, 1, 0)
BAYER_YUV(gbrg_yuv_avx2, 0, 0)
BAYER_YUV(grbg_yuv_avx2, 0, 1)
BAYER_YUV(rggb_yuv_avx2, 1, 1)
BAYER_SPLIT(split_avx2)
BAYER_PLANAR(planar_gb_avx2, 0, 0)
BAYER_PLANAR(planar_gr_avx2, 0, 1)
BAYER_PLANAR(planar_bg_avx2, 1, 0)
BAYER_PLANAR(planar_rg_avx2, 1, 1)

void v4lc_bayer_init_avx2(struct v4lc_bayer_dsp *dsp)
{
	/* by row kind, as src/scalar/bayer.h's fill functions take them */
	static v4lc_bayer_row_fn *const kinds[4] = { gb_avx2, gr_avx2, bg_avx2,
						     rg_avx2 };
	static v4lc_bayer_planar_fn *const planar[4] = {
		planar_gb_avx2, planar_gr_avx2, planar_bg_avx2, planar_rg_avx2
	};

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->to_yuv420[V4LC_BGGR] = bggr_yuv_avx2;
	dsp->to_yuv420[V4LC_GBRG] = gbrg_yuv_avx2;
	dsp->to_yuv420[V4LC_GRBG] = grbg_yuv_avx2;
	dsp->to_yuv420[V4LC_RGGB] = rggb_yuv_avx2;
	dsp->split = split_avx2;
	v4lc_bayer_fill_planar(dsp, planar);
}
