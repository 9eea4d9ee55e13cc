/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * AVX2 luma-only rows, bit-exact with src/scalar/grey.c, 32 pixels a step.
 * GREY -> RGB24: 16-byte output piece k takes pixels (16 k + j) / 3; the
 * three 32-byte outputs read the low half broadcast, the source as loaded,
 * and the high half broadcast, each through one vpshufb.
 * 16-bit -> 8-bit: shift, mask, vpackuswb, vpermq back into order.
 * Y10BPACK: one vpshufb gathers each pixel's big-endian byte pair, a
 * multiply by 4^k lines its 8 top bits up in bits 8..15 of the lane.
 * The row loops come from src/simd/grey_rows.h; Y10BPACK's moves its last
 * step back to a whole group.
 */
#include <immintrin.h>

#include "scalar/grey.h"

#define G(k, j) (((16 * (k) + (j)) / 3) & 15)
#define LANE(k)                                                                \
	G(k, 0), G(k, 1), G(k, 2), G(k, 3), G(k, 4), G(k, 5), G(k, 6),         \
		G(k, 7), G(k, 8), G(k, 9), G(k, 10), G(k, 11), G(k, 12),       \
		G(k, 13), G(k, 14), G(k, 15)
static const uint8_t rgb_masks[3][32] __attribute__((aligned(32))) = {
	{ LANE(0), LANE(1) },
	{ LANE(2), LANE(3) },
	{ LANE(4), LANE(5) },
};
#undef LANE
#undef G

static inline void rgb24_step(const uint8_t *s, uint8_t *d)
{
	__m256i lo = _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)s));
	__m256i hi = _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)(s + 16)));
	__m256i mid = _mm256_loadu_si256((const __m256i *)s);

	_mm256_storeu_si256((__m256i *)d,
			    _mm256_shuffle_epi8(lo,
						_mm256_load_si256(
							(const __m256i *)
								rgb_masks[0])));
	_mm256_storeu_si256((__m256i *)(d + 32),
			    _mm256_shuffle_epi8(mid,
						_mm256_load_si256(
							(const __m256i *)
								rgb_masks[1])));
	_mm256_storeu_si256((__m256i *)(d + 64),
			    _mm256_shuffle_epi8(hi,
						_mm256_load_si256(
							(const __m256i *)
								rgb_masks[2])));
}

static inline void grey16_step(const uint8_t *s, uint8_t *d, int shift, int be)
{
	const __m256i low = _mm256_set1_epi16(0xff);
	const __m256i swap =
		_mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12,
				 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
				 13, 12, 15, 14);
	const __m128i cnt = _mm_cvtsi32_si128(shift);
	__m256i a = _mm256_loadu_si256((const __m256i *)s);
	__m256i b = _mm256_loadu_si256((const __m256i *)(s + 32));

	if (be) {
		a = _mm256_shuffle_epi8(a, swap);
		b = _mm256_shuffle_epi8(b, swap);
	}
	a = _mm256_and_si256(_mm256_srl_epi16(a, cnt), low);
	b = _mm256_and_si256(_mm256_srl_epi16(b, cnt), low);
	_mm256_storeu_si256((__m256i *)d,
			    _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b),
						     0xd8));
}

/*
 * Y10BPACK, 16 pixels (four 5-byte groups, 20 bytes) per vector: the low
 * lane is loaded at byte 0 and uses bytes 0..9, the high lane at byte 4 and
 * uses bytes 6..15, so a step reads exactly its own 20 bytes. Word j of a
 * lane (group g = j / 4, k = j % 4) is bytes 5 g + k (high), 5 g + k + 1.
 */
#define Y(o, j) (o) + 5 * ((j) / 4) + (j) % 4 + 1, (o) + 5 * ((j) / 4) + (j) % 4
#define YLANE(o)                                                               \
	Y(o, 0), Y(o, 1), Y(o, 2), Y(o, 3), Y(o, 4), Y(o, 5), Y(o, 6), Y(o, 7)
static const uint8_t y10b_mask[32]
	__attribute__((aligned(32))) = { YLANE(0), YLANE(6) };
#undef YLANE
#undef Y

static inline __m256i y10b_16(const uint8_t *s, __m256i m, __m256i mul)
{
	__m256i v =
		_mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(
						(const __m128i *)s)),
					_mm_loadu_si128(
						(const __m128i *)(s + 4)),
					1);

	return _mm256_srli_epi16(_mm256_mullo_epi16(_mm256_shuffle_epi8(v, m),
						    mul),
				 8);
}

static inline void y10b_32(const uint8_t *s, uint8_t *d, __m256i m, __m256i mul)
{
	__m256i a = y10b_16(s, m, mul), b = y10b_16(s + 20, m, mul);

	_mm256_storeu_si256((__m256i *)d,
			    _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b),
						     0xd8));
}

static void y10bpack_avx2(const uint8_t *src, uint8_t *dst, int width)
{
	const __m256i mul = _mm256_setr_epi16(1, 4, 16, 64, 1, 4, 16, 64, 1, 4,
					      16, 64, 1, 4, 16, 64);
	__m256i m;
	int x;

	if (width < 32) {
		v4lc_grey_y10bpack_c(src, dst, width);
		return;
	}
	m = _mm256_load_si256((const __m256i *)y10b_mask);
	for (x = 0; x + 32 <= width; x += 32)
		y10b_32(src + (size_t)x / 4 * 5, dst + x, m, mul);
	if (x < width) {
		/* Whole groups only: the step starts on a multiple of 4. */
		x = (width - 32) & ~3;
		y10b_32(src + (size_t)x / 4 * 5, dst + x, m, mul);
		x += 32;
		if (x < width)
			v4lc_grey_y10bpack_c(src + (size_t)x / 4 * 5, dst + x,
					     width - x);
	}
}

#define GREY_STEP 32

#include "simd/grey_rows.h"

GREY_TO_RGB24(to_rgb24_avx2)
GREY_16(le16_avx2, 0, v4lc_grey_le16_c)
GREY_16(be16_avx2, 1, v4lc_grey_be16_c)

void v4lc_grey_init_avx2(struct v4lc_grey_dsp *dsp)
{
	dsp->to_rgb24 = to_rgb24_avx2;
	dsp->le16 = le16_avx2;
	dsp->be16 = be16_avx2;
	dsp->y10bpack = y10bpack_avx2;
}
