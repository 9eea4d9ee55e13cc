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
 * scalar kernel. This file defines the table entries and
 * v4lc_yuv422_init_<isa>.
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

#define ORDER(name, order)                                                     \
	static void V4LC_ISA_FN(name##_to_rgb24)(const uint8_t *src,           \
						 uint8_t *dst, int width,      \
						 const struct v4lc_yuv2rgb *k) \
	{                                                                      \
		int x = rgb_rows(src, dst, width, k, order, 0);                \
                                                                               \
		if (x < width)                                                 \
			v4lc_yuv422_##name##_to_rgb24_c(src + 2 * x,           \
							dst + 3 * x,           \
							width - x, k);         \
	}                                                                      \
	static void V4LC_ISA_FN(name##_to_bgr24)(const uint8_t *src,           \
						 uint8_t *dst, int width,      \
						 const struct v4lc_yuv2rgb *k) \
	{                                                                      \
		int x = rgb_rows(src, dst, width, k, order, 1);                \
                                                                               \
		if (x < width)                                                 \
			v4lc_yuv422_##name##_to_bgr24_c(src + 2 * x,           \
							dst + 3 * x,           \
							width - x, k);         \
	}                                                                      \
	static void V4LC_ISA_FN(                                               \
		name##_to_yuv420)(const uint8_t *s0, const uint8_t *s1,        \
				  uint8_t *y0, uint8_t *y1, uint8_t *u,        \
				  uint8_t *v, int width)                       \
	{                                                                      \
		int x = yuv420_rows(s0, s1, y0, y1, u, v, width, order);       \
                                                                               \
		if (x < width)                                                 \
			v4lc_yuv422_##name##_to_yuv420_c(s0 + 2 * x,           \
							 s1 + 2 * x, y0 + x,   \
							 y1 + x, u + x / 2,    \
							 v + x / 2,            \
							 width - x);           \
	}
ORDER(yuyv, V4LC_YUYV)
ORDER(yvyu, V4LC_YVYU)
ORDER(uyvy, V4LC_UYVY)
ORDER(vyuy, V4LC_VYUY)
#undef ORDER

void V4LC_ISA_INIT(yuv422)(struct v4lc_yuv422_dsp *dsp)
{
#define SET(ORD, name)                                                         \
	dsp->to_rgb[ORD][V4LC_RGB24] = V4LC_ISA_FN(name##_to_rgb24);           \
	dsp->to_rgb[ORD][V4LC_BGR24] = V4LC_ISA_FN(name##_to_bgr24);           \
	dsp->to_yuv420[ORD] = V4LC_ISA_FN(name##_to_yuv420);
	SET(V4LC_YUYV, yuyv)
	SET(V4LC_YVYU, yvyu)
	SET(V4LC_UYVY, uyvy)
	SET(V4LC_VYUY, vyuy)
#undef SET
}
