/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of the yuvlayout kernels (dispatch/dsp.h,
 * src/scalar/yuvlayout.c) that every instruction set speeds up. Its file
 * defines, then includes this one:
 *   YUVLAYOUT_STEP: the samples of a step;
 *   split_step(uv, a, b): 2 * YUVLAYOUT_STEP interleaved bytes at uv to
 *     YUVLAYOUT_STEP bytes at a (even) and at b (odd);
 *   split_avg_step(uv0, uv1, a, b): the same for the rounded average of
 *     two rows;
 *   avg_step(p0, p1, dst): YUVLAYOUT_STEP rounded averages.
 * Rows of a step or more end with a step moved back to end at the row end;
 * shorter rows go to the scalar kernels. This file defines the macros
 * that make the steps kernels (below).
 */
#include "scalar/yuvlayout.h"
#include "simd/row_any.h"

/*
 * YUVLAYOUT_DEINTERLEAVE(fn), YUVLAYOUT_DEINTERLEAVE_AVG(fn) and
 * YUVLAYOUT_AVG(fn) define the kernel `fn` of that table entry. Each
 * instruction set's file names its kernels in them and in its
 * v4lc_yuvlayout_init_<isa>.
 */
#define YUVLAYOUT_DEINTERLEAVE(fn)                                             \
	V4LC_ANY_BACK(fn,                                                      \
		      (const uint8_t *uv, uint8_t *a, uint8_t *b, int width),  \
		      YUVLAYOUT_STEP, split_step(uv + 2 * x, a + x, b + x),    \
		      v4lc_yuvlayout_deinterleave_c(uv, a, b, width))
#define YUVLAYOUT_DEINTERLEAVE_AVG(fn)                                         \
	V4LC_ANY_BACK(fn,                                                      \
		      (const uint8_t *uv0, const uint8_t *uv1, uint8_t *a,     \
		       uint8_t *b, int width),                                 \
		      YUVLAYOUT_STEP,                                          \
		      split_avg_step(uv0 + 2 * x, uv1 + 2 * x, a + x, b + x),  \
		      v4lc_yuvlayout_deinterleave_avg_c(uv0, uv1, a, b,        \
							width))
#define YUVLAYOUT_AVG(fn)                                                      \
	V4LC_ANY_BACK(fn,                                                      \
		      (const uint8_t *p0, const uint8_t *p1, uint8_t *dst,     \
		       int width),                                             \
		      YUVLAYOUT_STEP, avg_step(p0 + x, p1 + x, dst + x),       \
		      v4lc_yuvlayout_avg_c(p0, p1, dst, width))
