/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of the yuv420 kernels (dispatch/dsp.h, src/scalar/yuv420.c), for
 * every instruction set. Its file defines, then includes this one:
 *   YUV420_STEP: the pixels of a step (even);
 *   struct coefs, coefs_init(&c, k): the matrix as its steps want it;
 *   planar_step(y, u, v, dst, &c, bgr, last),
 *   semi_step(y, uv, dst, &c, vfirst, bgr, last): YUV420_STEP pixels from
 *     the luma at y and the chroma at u and v, or interleaved at uv (V
 *     first if vfirst), to 3 * YUV420_STEP bytes at dst (BGR24 if bgr);
 *     unless last, a step may write 2 bytes more.
 * Steps start at even pixels, to meet their chroma sample: they run to the
 * last even pixel, the last one moved back; an odd last pixel, or a row
 * narrower than a step, goes to the scalar kernel. This file defines the
 * loops and the macros that make them kernels (below).
 */
#include "scalar/yuv420.h"
#include "simd/row_any.h"

/* The steps of a row; returns where the scalar kernel takes over. */
static inline __attribute__((always_inline)) int
planar_rows(const uint8_t *y, const uint8_t *u, const uint8_t *v, uint8_t *dst,
	    int width, const struct v4lc_yuv2rgb *k, int bgr)
{
	const int n = YUV420_STEP, end = width & ~1;
	struct coefs c;

	if (width < n)
		return 0;
	coefs_init(&c, k);
	V4LC_STEPS(x, 0, n, end,
		   planar_step(y + x, u + x / 2, v + x / 2, dst + 3 * x, &c,
			       bgr, x + n == end));
	return end;
}

static inline __attribute__((always_inline)) int
semi_rows(const uint8_t *y, const uint8_t *uv, uint8_t *dst, int width,
	  const struct v4lc_yuv2rgb *k, int vfirst, int bgr)
{
	const int n = YUV420_STEP, end = width & ~1;
	struct coefs c;

	if (width < n)
		return 0;
	coefs_init(&c, k);
	V4LC_STEPS(x, 0, n, end,
		   semi_step(y + x, uv + x, dst + 3 * x, &c, vfirst, bgr,
			     x + n == end));
	return end;
}

/*
 * YUV420_PLANAR(fn, bgr, tail) defines the kernel `fn`, a planar[] entry
 * (RGB24, or BGR24 if bgr), the scalar `tail` making what its steps leave;
 * YUV420_SEMI(fn, vfirst, bgr, tail) an nv12[] entry (nv21[] if vfirst).
 * Each instruction set's file names its kernels in them and in its
 * v4lc_yuv420_init_<isa>.
 */
#define YUV420_PLANAR(fn, bgr, tail)                                           \
	static void fn(const uint8_t *y, const uint8_t *u, const uint8_t *v,   \
		       uint8_t *dst, int width, const struct v4lc_yuv2rgb *k)  \
	{                                                                      \
		int x = planar_rows(y, u, v, dst, width, k, bgr);              \
                                                                               \
		if (x < width)                                                 \
			tail(y + x, u + x / 2, v + x / 2, dst + 3 * x,         \
			     width - x, k);                                    \
	}
#define YUV420_SEMI(fn, vfirst, bgr, tail)                                     \
	static void fn(const uint8_t *y, const uint8_t *uv, uint8_t *dst,      \
		       int width, const struct v4lc_yuv2rgb *k)                \
	{                                                                      \
		int x = semi_rows(y, uv, dst, width, k, vfirst, bgr);          \
                                                                               \
		if (x < width)                                                 \
			tail(y + x, uv + x, dst + 3 * x, width - x, k);        \
	}
