/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of the Bayer kernels (dispatch/dsp.h, src/scalar/bayer.c), for
 * every instruction set. Its file defines, then includes this one:
 *   BAYER_STEP: the pixels of a demosaic step (even);
 *   dem_step(a, c, b, d, cfirst, ownfirst): BAYER_STEP pixels of a row from
 *     the rows above (a), at (c) and below (b), read from one pixel before
 *     to one after, to 3 * BAYER_STEP bytes at d (and perhaps 2 more);
 *     cfirst, ownfirst as in src/scalar/bayer.c;
 *   struct rgb2yuv_consts, rgb2yuv_consts_init(&k, kp) and
 *   yuv_step(rows, x, y0, y1, u, v, cfirst0, red0, &k): the fused
 *     Bayer -> YUV 4:2:0 of BAYER_STEP pixels of two rows from x (even);
 *   SPLIT_STEP and split_step(s, e, o): 2 * SPLIT_STEP bytes at s to
 *     SPLIT_STEP even and SPLIT_STEP odd samples;
 *   PAIR_STEP and pair_step(p, q, ap, aq, bp, bq, d, cfirst, ownfirst):
 *     PAIR_STEP column pairs of the planar path (below), to 6 * PAIR_STEP
 *     bytes at d; PAIR_SPARE: 1 when a step writes 2 bytes more, else 0;
 *   BAYER_ALIGN_STEPS, optionally: then row_restart(d), yuv_restart(y0) and
 *     pair_restart(d) say where the steps after the first continue (their
 *     stores aligned); by default right after it.
 * This file defines the rows and the macros that make them kernels:
 *   BAYER_ROW(fn, cfirst, ownfirst): a demosaic row kernel (row kind
 *     2 * cfirst + ownfirst: gb, gr, bg, rg);
 *   BAYER_YUV(fn, cfirst0, red0): a to_yuv420[] entry;
 *   BAYER_SPLIT(fn): the split entry;
 *   BAYER_PLANAR(fn, cfirst, ownfirst): a planar row kernel (row kind as
 *     BAYER_ROW's).
 * Each instruction set's file names its kernels in them and in its
 * v4lc_bayer_init_<isa> (with v4lc_bayer_fill_table and
 * v4lc_bayer_fill_planar, src/scalar/bayer.h).
 */
#include "scalar/bayer.h"
#include "simd/row_any.h"

#ifndef BAYER_ALIGN_STEPS
static inline int row_restart(const uint8_t *d)
{
	(void)d;
	return 2 + BAYER_STEP;
}

static inline int yuv_restart(const uint8_t *y0)
{
	(void)y0;
	return 2 + BAYER_STEP;
}

static inline int pair_restart(const uint8_t *d)
{
	(void)d;
	return PAIR_STEP;
}
#endif

/*
 * The demosaic steps start at even pixels from pixel 2 (pixel 0 reads the
 * mirrored column -1, so pixels 0 and 1 are scalar), and end before the
 * last pixel (a step reads one pixel past its own, and may write 2 bytes
 * of it): from `end`, the last one or two pixels are scalar. Rows too
 * short for that are scalar.
 */
static inline int dem_end(int w)
{
	return ((w - BAYER_STEP - 1) & ~1) + BAYER_STEP;
}

static inline __attribute__((always_inline)) void
row(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d, int w,
    int cfirst, int ownfirst)
{
	const int n = BAYER_STEP, kind = 2 * cfirst + ownfirst;
	const int end = dem_end(w);

	if (w < n + 3) {
		v4lc_bayer_span_c(a, c, b, d, w, 0, w, kind);
		return;
	}
	v4lc_bayer_span_c(a, c, b, d, w, 0, 2, kind);
	dem_step(a + 2, c + 2, b + 2, d + 6, cfirst, ownfirst);
	V4LC_STEPS(x, row_restart(d), n, end,
		   dem_step(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst));
	v4lc_bayer_span_c(a, c, b, d, w, end, w, kind);
}

#define BAYER_ROW(fn, cfirst, ownfirst)                                        \
	static void fn(const uint8_t *a, const uint8_t *c, const uint8_t *b,   \
		       uint8_t *d, int w)                                      \
	{                                                                      \
		row(a, c, b, d, w, cfirst, ownfirst);                          \
	}

/* The fused Bayer -> YUV 4:2:0: as row(), on two rows. */
static inline __attribute__((always_inline)) void
yuv_rows(const uint8_t *const rows[4], uint8_t *y0, uint8_t *y1, uint8_t *u,
	 uint8_t *v, int w, int cfirst0, int red0,
	 const struct v4lc_rgb2yuv *kp)
{
	const int n = BAYER_STEP, kind = 2 * cfirst0 + red0, end = dem_end(w);
	struct rgb2yuv_consts k;

	if (w < n + 3) {
		v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, 0, w, kind, kp);
		return;
	}
	rgb2yuv_consts_init(&k, kp);
	v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, 0, 2, kind, kp);
	yuv_step(rows, 2, y0, y1, u, v, cfirst0, red0, &k);
	V4LC_STEPS(x, yuv_restart(y0), n, end,
		   yuv_step(rows, x, y0, y1, u, v, cfirst0, red0, &k));
	v4lc_bayer_yuv_span_c(rows, y0, y1, u, v, w, end, w, kind, kp);
}

/* Row 0 (cfirst0, red0): BGGR "B G" (1, 0), GBRG "G B" (0, 0), GRBG
   "G R" (0, 1), RGGB "R G" (1, 1). */
#define BAYER_YUV(fn, cfirst0, red0)                                           \
	static void fn(const uint8_t *const rows[4], uint8_t *y0, uint8_t *y1, \
		       uint8_t *u, uint8_t *v, int w,                          \
		       const struct v4lc_rgb2yuv *k)                           \
	{                                                                      \
		yuv_rows(rows, y0, y1, u, v, w, cfirst0, red0, k);             \
	}

/* Split: whole steps of sample pairs, the last moved back; then the pads. */
static inline __attribute__((always_inline)) void
split_row(const uint8_t *src, uint8_t *even, uint8_t *odd, int w)
{
	const int n = SPLIT_STEP, end = w / 2;

	if (w < 2 * n) {
		v4lc_bayer_split_span_c(src, even, odd, w, 0);
		return;
	}
	V4LC_STEPS(i, 0, n, end, split_step(src + 2 * i, even + i, odd + i));
	v4lc_bayer_split_span_c(src, even, odd, w, end);
}

#define BAYER_SPLIT(fn)                                                        \
	static void fn(const uint8_t *src, uint8_t *even, uint8_t *odd, int w) \
	{                                                                      \
		split_row(src, even, odd, w);                                  \
	}

/*
 * Planar path: pair i is pixels 2 i and 2 i + 1. p, q are the row's planes
 * at pair i, ap .. bq those of the rows above and below; q, aq, bq are
 * also read at index -1, p at +1 (C-first) or -1 (G-first). C-first: pair
 * i is (C site 2 i, G site 2 i + 1), p the even plane, q the odd one.
 * G-first: pair i is (G site 2 i, C site 2 i + 1), p the odd plane and q
 * the even one + 1, so that the C site's arithmetic is the same and the G
 * site takes the values at i - 1. Whole pairs by steps, the last one moved
 * back (PAIR_SPARE pairs kept from the end); the rest scalar.
 */
static inline __attribute__((always_inline)) void
planar_row(const uint8_t *const pl[6], uint8_t *d, int w, int cfirst,
	   int ownfirst)
{
	const int n = PAIR_STEP, kind = 2 * cfirst + ownfirst;
	const int pairs = w / 2 - PAIR_SPARE;
	const uint8_t *p, *q, *ap, *aq, *bp, *bq;

	if (pairs < n) {
		v4lc_bayer_planar_span_c(pl, d, 0, w, kind);
		return;
	}
	if (cfirst) {
		ap = pl[0], aq = pl[1], p = pl[2], q = pl[3];
		bp = pl[4], bq = pl[5];
	} else {
		ap = pl[1], aq = pl[0] + 1, p = pl[3], q = pl[2] + 1;
		bp = pl[5], bq = pl[4] + 1;
	}
	pair_step(p, q, ap, aq, bp, bq, d, cfirst, ownfirst);
	V4LC_STEPS(i, pair_restart(d), n, pairs,
		   pair_step(p + i, q + i, ap + i, aq + i, bp + i, bq + i,
			     d + 6 * i, cfirst, ownfirst));
	v4lc_bayer_planar_span_c(pl, d, 2 * pairs, w, kind);
}

#define BAYER_PLANAR(fn, cfirst, ownfirst)                                     \
	static void fn(const uint8_t *const pl[6], uint8_t *d, int w)          \
	{                                                                      \
		planar_row(pl, d, w, cfirst, ownfirst);                        \
	}
