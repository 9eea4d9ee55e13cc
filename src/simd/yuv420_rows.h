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
 * table entries and v4lc_yuv420_init_<isa>.
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

#define PLANAR(name, bgr)                                                      \
	static void V4LC_ISA_FN(                                               \
		planar_##name)(const uint8_t *y, const uint8_t *u,             \
			       const uint8_t *v, uint8_t *dst, int width,      \
			       const struct v4lc_yuv2rgb *k)                   \
	{                                                                      \
		int x = planar_rows(y, u, v, dst, width, k, bgr);              \
                                                                               \
		if (x < width)                                                 \
			v4lc_yuv420_planar_##name##_c(y + x, u + x / 2,        \
						      v + x / 2, dst + 3 * x,  \
						      width - x, k);           \
	}
#define SEMI(fmt, name, vfirst, bgr)                                           \
	static void V4LC_ISA_FN(fmt##_##name)(const uint8_t *y,                \
					      const uint8_t *uv, uint8_t *dst, \
					      int width,                       \
					      const struct v4lc_yuv2rgb *k)    \
	{                                                                      \
		int x = semi_rows(y, uv, dst, width, k, vfirst, bgr);          \
                                                                               \
		if (x < width)                                                 \
			v4lc_yuv420_##fmt##_##name##_c(y + x, uv + x,          \
						       dst + 3 * x, width - x, \
						       k);                     \
	}
PLANAR(rgb24, 0)
PLANAR(bgr24, 1)
SEMI(nv12, rgb24, 0, 0)
SEMI(nv12, bgr24, 0, 1)
SEMI(nv21, rgb24, 1, 0)
SEMI(nv21, bgr24, 1, 1)
#undef PLANAR
#undef SEMI

void V4LC_ISA_INIT(yuv420)(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = V4LC_ISA_FN(planar_rgb24);
	dsp->planar[V4LC_BGR24] = V4LC_ISA_FN(planar_bgr24);
	dsp->nv12[V4LC_RGB24] = V4LC_ISA_FN(nv12_rgb24);
	dsp->nv12[V4LC_BGR24] = V4LC_ISA_FN(nv12_bgr24);
	dsp->nv21[V4LC_RGB24] = V4LC_ISA_FN(nv21_rgb24);
	dsp->nv21[V4LC_BGR24] = V4LC_ISA_FN(nv21_bgr24);
}
