/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of the yuv422 kernels (dispatch/dsp.h, src/scalar/yuv422.c),
 * for every instruction set. Its file defines, then includes this one:
 *   YUV422_STEP: the pixels of a step to RGB (even);
 *   struct coefs, coefs_init(&c, k): the matrix as its steps want it;
 *   rgb_step(src, dst, &c, order, bgr, last): YUV422_STEP pixels of byte
 *     order `order` (2 * YUV422_STEP bytes at src) to 3 * YUV422_STEP bytes
 *     at dst (BGR24 if bgr); unless last, a step may write 2 bytes more;
 *   yuv420_step(s0, s1, y0, y1, u, v, order): 32 pixels of two rows to 32
 *     luma bytes of each and 16 bytes of each chroma plane.
 * Steps start at pixel pairs and run to the last whole pair, the last one
 * moved back; an odd last pixel, or a row narrower than a step, goes to the
 * scalar kernel. This file defines the loops and the macros that make
 * them kernels (below).
 */
#include "scalar/yuv422.h"
#include "simd/row_any.h"

#define YUV422_420_STEP 32

/* The steps of a row; returns where the scalar kernel takes over. */
static inline __attribute__((always_inline)) int
rgb_rows(const uint8_t *src, uint8_t *dst, int width,
	 const struct v4lc_yuv2rgb *k, int order, int bgr)
{
	const int n = YUV422_STEP, end = width & ~1;
	struct coefs c;

	if (width < n)
		return 0;
	coefs_init(&c, k);
	V4LC_STEPS(x, 0, n, end,
		   rgb_step(src + 2 * x, dst + 3 * x, &c, order, bgr,
			    x + n == end));
	return end;
}

static inline __attribute__((always_inline)) int
yuv420_rows(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
	    uint8_t *u, uint8_t *v, int width, int order)
{
	const int n = YUV422_420_STEP, end = width & ~1;

	if (width < n)
		return 0;
	V4LC_STEPS(x, 0, n, end,
		   yuv420_step(s0 + 2 * x, s1 + 2 * x, y0 + x, y1 + x,
			       u + x / 2, v + x / 2, order));
	return end;
}

/*
 * YUV422_TO_RGB(fn, order, bgr, tail) defines the kernel `fn` (a
 * to_rgb[order] entry: RGB24, or BGR24 if bgr), the scalar `tail` making
 * what its steps leave; YUV422_TO_YUV420(fn, order, tail) the to_yuv420[order]
 * one. Each instruction set's file names its kernels in them and in its
 * v4lc_yuv422_init_<isa>.
 */
#define YUV422_TO_RGB(fn, order, bgr, tail)                                    \
	static void fn(const uint8_t *src, uint8_t *dst, int width,            \
		       const struct v4lc_yuv2rgb *k)                           \
	{                                                                      \
		int x = rgb_rows(src, dst, width, k, order, bgr);              \
                                                                               \
		if (x < width)                                                 \
			tail(src + 2 * x, dst + 3 * x, width - x, k);          \
	}
#define YUV422_TO_YUV420(fn, order, tail)                                      \
	static void fn(const uint8_t *s0, const uint8_t *s1, uint8_t *y0,      \
		       uint8_t *y1, uint8_t *u, uint8_t *v, int width)         \
	{                                                                      \
		int x = yuv420_rows(s0, s1, y0, y1, u, v, width, order);       \
                                                                               \
		if (x < width)                                                 \
			tail(s0 + 2 * x, s1 + 2 * x, y0 + x, y1 + x,           \
			     u + x / 2, v + x / 2, width - x);                 \
	}
