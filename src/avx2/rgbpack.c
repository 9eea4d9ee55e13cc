/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 packed 16/32-bit RGB rows to 24-bit RGB/BGR, bit-exact with
 * src/scalar/rgbpack.c, 32 pixels a step. Pixels are first 32-bit lanes
 * whose bytes 0..2 hold (or, for rgb32, are picked into) the output
 * bytes: vpshufb packs each 128-bit lane's four pixels into its low 12
 * bytes (three dwords), and vpermd + vpblendd gather the eight 12-byte
 * groups of four vectors into three 32-byte stores.
 * The row loops come from src/simd/rgbpack_rows.h.
 */
#include <immintrin.h>

#include "scalar/rgbpack.h"

/* Byte j < 12 of a lane is byte sel[j % 3] of pixel j / 3. */
#define P(a, b, c, j)                                                          \
	((j) >= 12 ? 0x80                                                      \
		   : 4 * ((j) / 3) + ((j) % 3 == 0   ? (a)                     \
				      : (j) % 3 == 1 ? (b)                     \
						     : (c)))
#define PLANE(a, b, c)                                                         \
	P(a, b, c, 0), P(a, b, c, 1), P(a, b, c, 2), P(a, b, c, 3),            \
		P(a, b, c, 4), P(a, b, c, 5), P(a, b, c, 6), P(a, b, c, 7),    \
		P(a, b, c, 8), P(a, b, c, 9), P(a, b, c, 10), P(a, b, c, 11),  \
		P(a, b, c, 12), P(a, b, c, 13), P(a, b, c, 14), P(a, b, c, 15)
#define PMASK(a, b, c)                                                         \
	{                                                                      \
		PLANE(a, b, c), PLANE(a, b, c)                                 \
	}

/* Indexed by enum v4lc_pick. */
static const uint8_t pick_masks[4][32] __attribute__((aligned(32))) = {
	PMASK(0, 1, 2),
	PMASK(2, 1, 0),
	PMASK(1, 2, 3),
	PMASK(3, 2, 1),
};
#undef PMASK
#undef PLANE
#undef P

/*
 * Four vectors of pixels in order (v[t] holds pixels 8 t .. 8 t + 7, low
 * lane first) to 96 bytes. After the shuffle, group g (pixels 4 g ..) is
 * dwords 0..2 (g even) or 4..6 (g odd) of v[g / 2].
 */
static inline void store96(uint8_t *d, __m256i v0, __m256i v1, __m256i v2,
			   __m256i v3, __m256i m)
{
	const __m256i i00 = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 0, 1);
	const __m256i i12 = _mm256_setr_epi32(2, 4, 5, 6, 0, 1, 2, 4);
	const __m256i i23 = _mm256_setr_epi32(5, 6, 0, 1, 2, 4, 5, 6);

	v0 = _mm256_shuffle_epi8(v0, m);
	v1 = _mm256_shuffle_epi8(v1, m);
	v2 = _mm256_shuffle_epi8(v2, m);
	v3 = _mm256_shuffle_epi8(v3, m);
	_mm256_storeu_si256((__m256i *)d,
			    _mm256_blend_epi32(_mm256_permutevar8x32_epi32(v0,
									   i00),
					       _mm256_permutevar8x32_epi32(v1,
									   i00),
					       0xc0));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_blend_epi32(_mm256_permutevar8x32_epi32(v1,
									   i12),
					       _mm256_permutevar8x32_epi32(v2,
									   i12),
					       0xf0));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_blend_epi32(_mm256_permutevar8x32_epi32(v2,
									   i23),
					       _mm256_permutevar8x32_epi32(v3,
									   i23),
					       0xfc));
}

static inline void pick_step(const uint8_t *s, uint8_t *d, int p, int last)
{
	const __m256i *v = (const __m256i *)s;

	(void)last;
	store96(d, _mm256_loadu_si256(v), _mm256_loadu_si256(v + 1),
		_mm256_loadu_si256(v + 2), _mm256_loadu_si256(v + 3),
		_mm256_load_si256((const __m256i *)pick_masks[p]));
}

/*
 * RGB565, 32 pixels a step. Two 16-byte broadcast loads and a vpblendd
 * per vector (no shuffle-port work) give one vector of pixels 0-7 | 16-23
 * and one of 8-15 | 24-31, so that each 128-bit lane works on 16
 * consecutive pixels (lane 0: 0-15, lane 1: 16-31). Bit replication is
 * multiplication, with no shifts:
 *  - m = p & 0xf81f (R at the top, B at the bottom of the word):
 *    vpmulhuw(m, 264) is R << 3 | R >> 2 (R * 8.25: the B bits and the
 *    fraction of R * 0.25 never carry into the integer part), and
 *    vpmullw(m, 2112) is (B * 33) << 6 modulo 2^16 (R * 2^17 * 33 vanishes),
 *    whose high byte is B << 3 | B >> 2; one vpblendvb keeps the low byte
 *    of the first and the high byte of the second: a word R | B << 8.
 *  - vpmulhuw(p & 0x07e0, 8320) is G << 2 | G >> 4 (exact for every G).
 * The G words of a lane's 16 pixels are packed to bytes (vpackuswb); each
 * 16-byte piece of a lane's 48 output bytes is then two or three vpshufb
 * of (R|B words of pixels 0-7, of 8-15, G bytes) ORed. The pieces go to
 * memory order with one vpblendd and two vperm2i128 for three stores.
 */
#define Z 0x80
/* Byte q = 16 k + j of a lane's 48: pixel q / 3, channel q % 3. */
#define QP(k, j) ((16 * (k) + (j)) / 3)
#define QC(k, j) ((16 * (k) + (j)) % 3)
/* Word byte of the channel: R is byte 0, B byte 1 (s: BGR order). */
#define WB(s, k, j) (QC(k, j) == 0 ? (s) : 1 - (s))
/* from the R|B words of pixels 0-7 (lo) or 8-15 (hi), or the G bytes */
#define WLO(s, k, j)                                                           \
	(QC(k, j) != 1 && QP(k, j) < 8 ? 2 * QP(k, j) + WB(s, k, j) : Z)
#define WHI(s, k, j)                                                           \
	(QC(k, j) != 1 && QP(k, j) >= 8 ? 2 * (QP(k, j) - 8) + WB(s, k, j) : Z)
#define GB(s, k, j) (QC(k, j) == 1 ? QP(k, j) : Z)
#define L16(M, s, k)                                                           \
	M(s, k, 0), M(s, k, 1), M(s, k, 2), M(s, k, 3), M(s, k, 4),            \
		M(s, k, 5), M(s, k, 6), M(s, k, 7), M(s, k, 8), M(s, k, 9),    \
		M(s, k, 10), M(s, k, 11), M(s, k, 12), M(s, k, 13),            \
		M(s, k, 14), M(s, k, 15)
#define M2(M, s, k)                                                            \
	{                                                                      \
		L16(M, s, k), L16(M, s, k)                                     \
	}
/* piece 0: lo, G; piece 1: lo, hi, G; piece 2: hi, G */
#define MASKS(s)                                                               \
	{                                                                      \
		M2(WLO, s, 0), M2(GB, s, 0), M2(WLO, s, 1), M2(WHI, s, 1),     \
			M2(GB, s, 1), M2(WHI, s, 2), M2(GB, s, 2)              \
	}
static const uint8_t w565_masks[2][7][32] __attribute__((aligned(32))) = {
	MASKS(0),
	MASKS(1),
};
#undef MASKS
#undef M2
#undef L16
#undef GB
#undef WHI
#undef WLO
#undef WB
#undef QC
#undef QP
#undef Z

/* R | B << 8 words and G words of 16 pixels. */
static inline void rgb565_words(__m256i x, __m256i *rb, __m256i *g)
{
	const __m256i m = _mm256_and_si256(x, _mm256_set1_epi16((short)0xf81f));
	const __m256i lo = _mm256_set1_epi16(0x00ff);
	__m256i k = _mm256_set1_epi16(2112);

	/* Opaque to the compiler, which would make the product two shifts
	 * and an add: one multiply is cheaper here. */
	__asm__("" : "+x"(k));
	*rb = _mm256_blendv_epi8(_mm256_mullo_epi16(m, k),
				 _mm256_mulhi_epu16(m, _mm256_set1_epi16(264)),
				 lo);
	*g = _mm256_mulhi_epu16(_mm256_and_si256(x, _mm256_set1_epi16(0x07e0)),
				_mm256_set1_epi16(8320));
}

static inline __m256i load2x128(const uint8_t *lo, const uint8_t *hi)
{
	return _mm256_blend_epi32(_mm256_broadcastsi128_si256(
					  _mm_loadu_si128((const __m128i *)lo)),
				  _mm256_broadcastsi128_si256(
					  _mm_loadu_si128((const __m128i *)hi)),
				  0xf0);
}

static inline __attribute__((always_inline)) void
rgb565_step(const uint8_t *s, uint8_t *d, int swap, int last)
{
	const __m256i *m = (const __m256i *)w565_masks[swap];
	__m256i lo, hi, glo, ghi, t, o0, o1, o2;

	(void)last;
	rgb565_words(load2x128(s, s + 32), &lo, &glo);
	rgb565_words(load2x128(s + 16, s + 48), &hi, &ghi);
	t = _mm256_packus_epi16(glo, ghi);
	o0 = _mm256_or_si256(_mm256_shuffle_epi8(lo, _mm256_load_si256(m)),
			     _mm256_shuffle_epi8(t, _mm256_load_si256(m + 1)));
	o1 = _mm256_or_si256(
		_mm256_or_si256(_mm256_shuffle_epi8(lo,
						    _mm256_load_si256(m + 2)),
				_mm256_shuffle_epi8(hi,
						    _mm256_load_si256(m + 3))),
		_mm256_shuffle_epi8(t, _mm256_load_si256(m + 4)));
	o2 = _mm256_or_si256(_mm256_shuffle_epi8(hi, _mm256_load_si256(m + 5)),
			     _mm256_shuffle_epi8(t, _mm256_load_si256(m + 6)));
	_mm256_storeu_si256((__m256i *)d,
			    _mm256_permute2x128_si256(o0, o1, 0x20));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_blend_epi32(o2, o0, 0xf0));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_permute2x128_si256(o1, o2, 0x31));
}

#define RGBPACK_STEP 32

#include "simd/rgbpack_rows.h"

RGBPACK_PICK(pick012_avx2, V4LC_PICK012, v4lc_rgbpack_pick012_c)
RGBPACK_PICK(pick210_avx2, V4LC_PICK210, v4lc_rgbpack_pick210_c)
RGBPACK_PICK(pick123_avx2, V4LC_PICK123, v4lc_rgbpack_pick123_c)
RGBPACK_PICK(pick321_avx2, V4LC_PICK321, v4lc_rgbpack_pick321_c)
RGBPACK_565(rgb565_rgb_avx2, 0, v4lc_rgbpack_rgb565_rgb_c)
RGBPACK_565(rgb565_bgr_avx2, 1, v4lc_rgbpack_rgb565_bgr_c)

void v4lc_rgbpack_init_avx2(struct v4lc_rgbpack_dsp *dsp)
{
	dsp->rgb565[V4LC_RGB24] = rgb565_rgb_avx2;
	dsp->rgb565[V4LC_BGR24] = rgb565_bgr_avx2;
	dsp->rgb32[V4LC_BGRX32][V4LC_RGB24] = pick210_avx2;
	dsp->rgb32[V4LC_BGRX32][V4LC_BGR24] = pick012_avx2;
	dsp->rgb32[V4LC_XRGB32][V4LC_RGB24] = pick123_avx2;
	dsp->rgb32[V4LC_XRGB32][V4LC_BGR24] = pick321_avx2;
	dsp->rgb32[V4LC_XBGR32][V4LC_RGB24] = pick321_avx2;
	dsp->rgb32[V4LC_XBGR32][V4LC_BGR24] = pick123_avx2;
	dsp->rgb32[V4LC_RGBX32][V4LC_RGB24] = pick012_avx2;
	dsp->rgb32[V4LC_RGBX32][V4LC_BGR24] = pick210_avx2;
}
