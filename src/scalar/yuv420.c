/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Planar and semi-planar YUV (horizontally subsampled chroma) to one row of
 * RGB24/BGR24, per the formulas in pixel.h. Pixel x uses chroma sample x/2,
 * so an odd last pixel uses the last (half-used) chroma sample.
 */
#include "scalar/yuv420.h"
#include "scalar/pixel.h"

/*
 * u and v are read at u[i * step] and v[i * step]: step 1 for planar, 2 for
 * interleaved chroma. Constant arguments fold after inlining.
 */
static inline void row(const uint8_t *y, const uint8_t *u, const uint8_t *v,
		       int step, uint8_t *dst, int width,
		       const struct v4lc_yuv2rgb *kp, int bgr)
{
	/* A local copy: stores through dst (uint8_t) may alias *kp, which
	 * would otherwise be reloaded after every byte. */
	const struct v4lc_yuv2rgb kc = *kp, *k = &kc;
	int x;

	for (x = 0; x + 2 <= width; x += 2, dst += 6) {
		struct v4lc_chroma_q5 c =
			v4lc_chroma_q5(k, u[(x / 2) * step], v[(x / 2) * step]);

		v4lc_put_rgb(dst, v4lc_luma_q5(k, y[x]), &c, bgr);
		v4lc_put_rgb(dst + 3, v4lc_luma_q5(k, y[x + 1]), &c, bgr);
	}
	if (x < width) {
		struct v4lc_chroma_q5 c =
			v4lc_chroma_q5(k, u[(x / 2) * step], v[(x / 2) * step]);

		v4lc_put_rgb(dst, v4lc_luma_q5(k, y[x]), &c, bgr);
	}
}

void v4lc_yuv420_planar_rgb24_c(const uint8_t *y, const uint8_t *u,
				const uint8_t *v, uint8_t *dst, int width,
				const struct v4lc_yuv2rgb *k)
{
	row(y, u, v, 1, dst, width, k, 0);
}

void v4lc_yuv420_planar_bgr24_c(const uint8_t *y, const uint8_t *u,
				const uint8_t *v, uint8_t *dst, int width,
				const struct v4lc_yuv2rgb *k)
{
	row(y, u, v, 1, dst, width, k, 1);
}

void v4lc_yuv420_nv12_rgb24_c(const uint8_t *y, const uint8_t *uv, uint8_t *dst,
			      int width, const struct v4lc_yuv2rgb *k)
{
	row(y, uv, uv + 1, 2, dst, width, k, 0);
}

void v4lc_yuv420_nv12_bgr24_c(const uint8_t *y, const uint8_t *uv, uint8_t *dst,
			      int width, const struct v4lc_yuv2rgb *k)
{
	row(y, uv, uv + 1, 2, dst, width, k, 1);
}

void v4lc_yuv420_nv21_rgb24_c(const uint8_t *y, const uint8_t *vu, uint8_t *dst,
			      int width, const struct v4lc_yuv2rgb *k)
{
	row(y, vu + 1, vu, 2, dst, width, k, 0);
}

void v4lc_yuv420_nv21_bgr24_c(const uint8_t *y, const uint8_t *vu, uint8_t *dst,
			      int width, const struct v4lc_yuv2rgb *k)
{
	row(y, vu + 1, vu, 2, dst, width, k, 1);
}

void v4lc_yuv420_init_c(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = v4lc_yuv420_planar_rgb24_c;
	dsp->planar[V4LC_BGR24] = v4lc_yuv420_planar_bgr24_c;
	dsp->nv12[V4LC_RGB24] = v4lc_yuv420_nv12_rgb24_c;
	dsp->nv12[V4LC_BGR24] = v4lc_yuv420_nv12_bgr24_c;
	dsp->nv21[V4LC_RGB24] = v4lc_yuv420_nv21_rgb24_c;
	dsp->nv21[V4LC_BGR24] = v4lc_yuv420_nv21_bgr24_c;
}
