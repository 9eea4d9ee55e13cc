/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, SSSE3 tier: the row mirrors (8-bit, 24-bit, packed 4:2:2),
 * one pshufb where SSE2 needs a pshufd, pshuflw, pshufhw and two shifts (or
 * masks and shifts across registers for 24-bit). The rotations stay with
 * SSE2.
 *
 * mirror8: two 16-byte vectors a step, each reversed by one pshufb; the
 * loop is src/simd/flip_rows.h's.
 *
 * mirror24: src/x86/flip_pshufb.h, shared with AVX2.
 *
 * Packed 4:2:2 (see src/scalar/flip.c and the SSE2 file): a destination
 * vector at pixel x0 (even) holds luma words x0..x0+7, the source luma
 * words W-8-x0..W-1-x0 reversed, and the chroma of pairs x0/2..x0/2+3, the
 * source pairs P-4-x0/2..P-1-x0/2 reversed. For even widths the two loads
 * coincide and one pshufb does both; odd widths: two loads two bytes
 * apart, two pshufb zeroing the other's bytes, por.
 */
#include <stddef.h>
#include <tmmintrin.h>

#include "scalar/flip.h"
#include "simd/row_any.h"

static inline __m128i loadu(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void storeu(uint8_t *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

#include "x86/flip_pshufb.h"

static inline void mirror8_step(const uint8_t *s, uint8_t *d)
{
	const __m128i rev = _mm_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,
					  4, 3, 2, 1, 0);

	storeu(d, _mm_shuffle_epi8(loadu(s + 16), rev));
	storeu(d + 16, _mm_shuffle_epi8(loadu(s), rev));
}

#define MIRROR8_STEP 32

struct mirror422 {
	__m128i ml, mc; /* shuffles of the luma and the chroma load */
	int odd;        /* odd width: the two loads differ */
};

static inline void mirror422_init(struct mirror422 *m, int lo, int width)
{
	int8_t l[16], c[16];

	m->odd = width & 1;
	mirror422_masks(l, c, lo, m->odd);
	m->ml = loadu((const uint8_t *)l);
	m->mc = loadu((const uint8_t *)c);
}

/* 8 pixels from x0. */
static inline void mirror422_vec(const uint8_t *src, uint8_t *dst, int width,
				 int x0, const struct mirror422 *m)
{
	const uint8_t *sl = src + 2 * (ptrdiff_t)width - 16 - 2 * x0;
	__m128i v = _mm_shuffle_epi8(loadu(sl), m->ml);

	if (m->odd) {
		const uint8_t *sc =
			src + 4 * (ptrdiff_t)((width + 1) / 2) - 16 - 2 * x0;

		v = _mm_or_si128(v, _mm_shuffle_epi8(loadu(sc), m->mc));
	}
	storeu(dst + 2 * (ptrdiff_t)x0, v);
}

/* Two vectors a step, as mirror8. */
static inline void mirror422_step(const uint8_t *src, uint8_t *dst, int width,
				  int x0, const struct mirror422 *m)
{
	mirror422_vec(src, dst, width, x0, m);
	mirror422_vec(src, dst, width, x0 + 8, m);
}

#define MIRROR422_STEP 16

#include "simd/flip_rows.h"

void v4lc_flip_init_ssse3(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror24 = mirror24_ssse3;
	flip_init_rows(dsp);
}
