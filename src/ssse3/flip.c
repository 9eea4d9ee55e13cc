/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, SSSE3 tier: the row mirrors (8-bit, 24-bit, packed 4:2:2),
 * one pshufb where SSE2 needs a pshufd, pshuflw, pshufhw and two shifts (or
 * masks and shifts across registers for 24-bit), and the rotations.
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
 *
 * Rotations (the loops in src/simd/flip_rows.h): 8-bit, SSE2's 16x16 byte
 * tile (src/x86/transpose.h) in wider bands (ROT8_BAND). 24-bit, 8x8 pixel
 * tiles: a source row's 24 bytes are two 16-byte loads at +0 and +8, each
 * widened to four dword pixels by one pshufb; two 4x4 dword transposes per
 * half; a destination row's 24 bytes are its two dword quadruples narrowed
 * by pshufb into a 16-byte and an 8-byte store. Every access stays inside
 * the tile's rows, where SSE2 pieces its 4x4 tiles' 12-byte rows together
 * from 8- and 4-byte moves and widens and narrows with shifts and masks
 * (about 3x the instructions).
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
#include "x86/transpose.h"

/*
 * 8-bit rotations in bands of 32 destination columns (two tiles, half a
 * cache line of each destination row per visit): 1.06-1.37x the SSE2
 * order (one tile column at a time) on YUV420 frames from memory
 * (bench/compare, 640x480 to 1920x1080). Bands of 64 were bimodal from
 * run to run, 0.75x to 1.28x: 64 source rows read side by side.
 */
#define ROT8_BAND 32

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

#define Z -128
/* 12 bytes from byte `o` of a load to four dwords (pixel in bytes 0..2) */
#define WIDEN(o)                                                               \
	_mm_setr_epi8(o, o + 1, o + 2, Z, o + 3, o + 4, o + 5, Z, o + 6,       \
		      o + 7, o + 8, Z, o + 9, o + 10, o + 11, Z)

/*
 * Half h (pixels 4h..4h+3) of an 8x8 tile of 24-bit pixels: source rows
 * s + i * sstep, destination rows d + j * dstep for j in that half, each
 * written whole (24 bytes: destination pixel i = source row i's pixel j).
 */
static inline __attribute__((always_inline)) void
tile24_half(const uint8_t *s, ptrdiff_t sstep, uint8_t *d, ptrdiff_t dstep,
	    int h)
{
	/* a load at +8 holds pixels 4..7 in its bytes 4..15 */
	const __m128i w = h ? WIDEN(4) : WIDEN(0);
	const __m128i n0 = _mm_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14,
					 Z, Z, Z, Z);
	const __m128i n1 =
		_mm_setr_epi8(Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, 0, 1, 2, 4);
	const __m128i n2 = _mm_setr_epi8(5, 6, 8, 9, 10, 12, 13, 14, Z, Z, Z, Z,
					 Z, Z, Z, Z);
	__m128i r[8];

	for (int i = 0; i < 8; i++)
		r[i] = _mm_shuffle_epi8(loadu(s + i * sstep + 8 * h), w);
	transpose4x32(&r[0], &r[1], &r[2], &r[3]);
	transpose4x32(&r[4], &r[5], &r[6], &r[7]);
	/* r[j]: pixel 4h + j of source rows 0..3, r[4 + j]: of rows 4..7 */
	for (int j = 0; j < 4; j++) {
		uint8_t *p = d + (4 * h + j) * dstep;

		storeu(p, _mm_or_si128(_mm_shuffle_epi8(r[j], n0),
				       _mm_shuffle_epi8(r[4 + j], n1)));
		_mm_storel_epi64((__m128i *)(p + 16),
				 _mm_shuffle_epi8(r[4 + j], n2));
	}
}
#undef WIDEN
#undef Z

/* An 8x8 pixel tile (d_j pixel i = s_i pixel j), 192 bytes each way. */
static inline void tile24(const uint8_t *s, ptrdiff_t sstep, uint8_t *d,
			  ptrdiff_t dstep)
{
	tile24_half(s, sstep, d, dstep, 0);
	tile24_half(s, sstep, d, dstep, 1);
}

#define TILE24 8

#include "simd/flip_rows.h"

FLIP_MIRROR24_PSHUFB(mirror24_ssse3)
FLIP_MIRROR422(mirror_yuyv_ssse3, 0, v4lc_flip_mirror_yuyv_c)
FLIP_MIRROR422(mirror_uyvy_ssse3, 1, v4lc_flip_mirror_uyvy_c)
FLIP_MIRROR8(mirror8_ssse3)
FLIP_ROTATE(rot90cw8_ssse3, 1, 1, v4lc_flip_rot90cw8_c)
FLIP_ROTATE(rot90ccw8_ssse3, 1, 0, v4lc_flip_rot90ccw8_c)
FLIP_ROTATE(rot90cw24_ssse3, 3, 1, v4lc_flip_rot90cw24_c)
FLIP_ROTATE(rot90ccw24_ssse3, 3, 0, v4lc_flip_rot90ccw24_c)

void v4lc_flip_init_ssse3(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = mirror8_ssse3;
	dsp->mirror24 = mirror24_ssse3;
	dsp->mirror_yuyv = mirror_yuyv_ssse3;
	dsp->mirror_uyvy = mirror_uyvy_ssse3;
	dsp->rot90cw8 = rot90cw8_ssse3;
	dsp->rot90ccw8 = rot90ccw8_ssse3;
	dsp->rot90cw24 = rot90cw24_ssse3;
	dsp->rot90ccw24 = rot90ccw24_ssse3;
}
