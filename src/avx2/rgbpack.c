/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 packed 16/32-bit RGB rows to 24-bit RGB/BGR, bit-exact with
 * src/scalar/rgbpack.c, 32 pixels a step. Pixels are first 32-bit lanes
 * whose bytes 0..2 hold (or, for rgb32, are picked into) the output
 * bytes: vpshufb packs each 128-bit lane's four pixels into its low 12
 * bytes (three dwords), and vpermd + vpblendd gather the eight 12-byte
 * groups of four vectors into three 32-byte stores.
 * Kernels are out of place: rows of 32 pixels or more end with a step that
 * overlaps the previous one (outputs depend only on inputs); shorter rows
 * go to the scalar kernels.
 */
#include <immintrin.h>

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_rgbpack_rgb565_rgb_c, v4lc_rgbpack_rgb565_bgr_c;
v4lc_row_copy_fn v4lc_rgbpack_pick012_c, v4lc_rgbpack_pick210_c;
v4lc_row_copy_fn v4lc_rgbpack_pick123_c, v4lc_rgbpack_pick321_c;

/* Byte j < 12 of a lane is byte sel[j % 3] of pixel j / 3. */
#define P(a, b, c, j)                                                         \
	((j) >= 12 ? 0x80 : 4 * ((j) / 3) + ((j) % 3 == 0 ? (a) : (j) % 3 == 1 ? (b) : (c)))
#define PLANE(a, b, c)                                                        \
	P(a, b, c, 0), P(a, b, c, 1), P(a, b, c, 2), P(a, b, c, 3),           \
	P(a, b, c, 4), P(a, b, c, 5), P(a, b, c, 6), P(a, b, c, 7),           \
	P(a, b, c, 8), P(a, b, c, 9), P(a, b, c, 10), P(a, b, c, 11),         \
	P(a, b, c, 12), P(a, b, c, 13), P(a, b, c, 14), P(a, b, c, 15)
#define PMASK(a, b, c) { PLANE(a, b, c), PLANE(a, b, c) }

enum pick { P012, P210, P123, P321 };

static const uint8_t pick_masks[4][32] __attribute__((aligned(32))) = {
	PMASK(0, 1, 2), PMASK(2, 1, 0), PMASK(1, 2, 3), PMASK(3, 2, 1),
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
			    _mm256_blend_epi32(_mm256_permutevar8x32_epi32(v0, i00),
					       _mm256_permutevar8x32_epi32(v1, i00),
					       0xc0));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_blend_epi32(_mm256_permutevar8x32_epi32(v1, i12),
					       _mm256_permutevar8x32_epi32(v2, i12),
					       0xf0));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_blend_epi32(_mm256_permutevar8x32_epi32(v2, i23),
					       _mm256_permutevar8x32_epi32(v3, i23),
					       0xfc));
}

static inline void pick_32(const uint8_t *s, uint8_t *d, __m256i m)
{
	const __m256i *p = (const __m256i *)s;

	store96(d, _mm256_loadu_si256(p), _mm256_loadu_si256(p + 1),
		_mm256_loadu_si256(p + 2), _mm256_loadu_si256(p + 3), m);
}

static inline __attribute__((always_inline)) void
pick32(const uint8_t *src, uint8_t *dst, int width, enum pick p)
{
	const __m256i m = _mm256_load_si256((const __m256i *)pick_masks[p]);
	int x;

	for (x = 0; x + 32 <= width; x += 32)
		pick_32(src + 4 * (size_t)x, dst + 3 * (size_t)x, m);
	if (x < width) {
		x = width - 32;
		pick_32(src + 4 * (size_t)x, dst + 3 * (size_t)x, m);
	}
}

#define PICK(name, p)                                                        \
	static void name##_avx2(const uint8_t *src, uint8_t *dst, int width) \
	{                                                                    \
		if (width < 32)                                              \
			v4lc_rgbpack_##name##_c(src, dst, width);            \
		else                                                         \
			pick32(src, dst, width, p);                          \
	}
PICK(pick012, P012)
PICK(pick210, P210)
PICK(pick123, P123)
PICK(pick321, P321)

/*
 * RGB565, 32 pixels a step. vperm2i128 of the two loads gives one vector
 * of pixels 0-7 | 16-23 and one of 8-15 | 24-31, so that each 128-bit
 * lane works on 16 consecutive pixels (lane 0: 0-15, lane 1: 16-31).
 * Bit replication is one vpmulhuw per channel: with the field v at the top
 * of its bits, (v << 11) * 264 >> 16 is v << 3 | v >> 2 for 5 bits and
 * (v << 5) * 8320 >> 16 is v << 2 | v >> 4 for 6 bits (both exact for
 * every v). The first two output bytes of a pixel stay a 16-bit word
 * (byte 0 | G << 8), the third is packed to bytes with vpackuswb; each
 * 16-byte piece of a lane's 48 output bytes is then two or three vpshufb
 * of those (words of pixels 0-7, of 8-15, third bytes) ORed, and
 * vperm2i128 puts the six pieces in memory order for three stores.
 */
#define Z 0x80
/* Byte q = 16 k + j of a lane's 48: pixel q / 3, channel q % 3. */
#define QP(k, j) ((16 * (k) + (j)) / 3)
#define QC(k, j) ((16 * (k) + (j)) % 3)
/* from the words of pixels 0-7 (lo) or 8-15 (hi), or the third bytes */
#define WLO(k, j) (QC(k, j) < 2 && QP(k, j) < 8 ? 2 * QP(k, j) + QC(k, j) : Z)
#define WHI(k, j) (QC(k, j) < 2 && QP(k, j) >= 8 ? 2 * (QP(k, j) - 8) + QC(k, j) : Z)
#define THD(k, j) (QC(k, j) == 2 ? QP(k, j) : Z)
#define L16(M, k)                                                             \
	M(k, 0), M(k, 1), M(k, 2), M(k, 3), M(k, 4), M(k, 5), M(k, 6),        \
	M(k, 7), M(k, 8), M(k, 9), M(k, 10), M(k, 11), M(k, 12), M(k, 13),    \
	M(k, 14), M(k, 15)
#define M2(M, k) { L16(M, k), L16(M, k) }
/* piece 0: lo, third; piece 1: lo, hi, third; piece 2: hi, third */
static const uint8_t w565_masks[7][32] __attribute__((aligned(32))) = {
	M2(WLO, 0), M2(THD, 0), M2(WLO, 1), M2(WHI, 1), M2(THD, 1),
	M2(WHI, 2), M2(THD, 2),
};
#undef M2
#undef L16
#undef THD
#undef WHI
#undef WLO
#undef QC
#undef QP
#undef Z

/* Output bytes 0, 1 as a word and byte 2 as a word, of 16 pixels. */
static inline void rgb565_words(__m256i x, __m256i *two, __m256i *third,
				int swap)
{
	const __m256i k5 = _mm256_set1_epi16(264), k6 = _mm256_set1_epi16(8320);
	__m256i r = _mm256_mulhi_epu16(
		_mm256_and_si256(x, _mm256_set1_epi16((short)0xf800)), k5);
	__m256i g = _mm256_mulhi_epu16(
		_mm256_and_si256(x, _mm256_set1_epi16(0x07e0)), k6);
	__m256i b = _mm256_mulhi_epu16(_mm256_slli_epi16(x, 11), k5);

	*two = _mm256_or_si256(swap ? b : r, _mm256_slli_epi16(g, 8));
	*third = swap ? r : b;
}

static inline __attribute__((always_inline)) void
rgb565_32(const uint8_t *s, uint8_t *d, const __m256i m[7], int swap)
{
	__m256i l0 = _mm256_loadu_si256((const __m256i *)s);
	__m256i l1 = _mm256_loadu_si256((const __m256i *)(s + 32));
	__m256i lo, hi, tlo, thi, t, o0, o1, o2;

	rgb565_words(_mm256_permute2x128_si256(l0, l1, 0x20), &lo, &tlo, swap);
	rgb565_words(_mm256_permute2x128_si256(l0, l1, 0x31), &hi, &thi, swap);
	t = _mm256_packus_epi16(tlo, thi);
	o0 = _mm256_or_si256(_mm256_shuffle_epi8(lo, m[0]),
			     _mm256_shuffle_epi8(t, m[1]));
	o1 = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(lo, m[2]),
					     _mm256_shuffle_epi8(hi, m[3])),
			     _mm256_shuffle_epi8(t, m[4]));
	o2 = _mm256_or_si256(_mm256_shuffle_epi8(hi, m[5]),
			     _mm256_shuffle_epi8(t, m[6]));
	_mm256_storeu_si256((__m256i *)d, _mm256_permute2x128_si256(o0, o1, 0x20));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_permute2x128_si256(o2, o0, 0x30));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_permute2x128_si256(o1, o2, 0x31));
}

static inline __attribute__((always_inline)) void
rgb565(const uint8_t *src, uint8_t *dst, int width, int swap)
{
	__m256i m[7];
	int x;

	for (int i = 0; i < 7; i++)
		m[i] = _mm256_load_si256((const __m256i *)w565_masks[i]);
	for (x = 0; x + 32 <= width; x += 32)
		rgb565_32(src + 2 * (size_t)x, dst + 3 * (size_t)x, m, swap);
	if (x < width) {
		x = width - 32;
		rgb565_32(src + 2 * (size_t)x, dst + 3 * (size_t)x, m, swap);
	}
}

static void rgb565_rgb_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	if (width < 32)
		v4lc_rgbpack_rgb565_rgb_c(src, dst, width);
	else
		rgb565(src, dst, width, 0);
}

static void rgb565_bgr_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	if (width < 32)
		v4lc_rgbpack_rgb565_bgr_c(src, dst, width);
	else
		rgb565(src, dst, width, 1);
}

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
