/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Chroma reshaping between YUV layouts: the specification (see dsp.h). */
#include "scalar/yuvlayout.h"
#include "scalar/pixel.h"

void v4lc_yuvlayout_deinterleave_c(const uint8_t *uv, uint8_t *a, uint8_t *b,
				   int n)
{
	for (int i = 0; i < n; i++) {
		a[i] = uv[2 * i];
		b[i] = uv[2 * i + 1];
	}
}

void v4lc_yuvlayout_deinterleave_avg_c(const uint8_t *uv0, const uint8_t *uv1,
				       uint8_t *a, uint8_t *b, int n)
{
	for (int i = 0; i < n; i++) {
		a[i] = (uint8_t)((uv0[2 * i] + uv1[2 * i] + 1) >> 1);
		b[i] = (uint8_t)((uv0[2 * i + 1] + uv1[2 * i + 1] + 1) >> 1);
	}
}

void v4lc_yuvlayout_avg_c(const uint8_t *p0, const uint8_t *p1, uint8_t *dst,
			  int n)
{
	for (int i = 0; i < n; i++)
		dst[i] = (uint8_t)((p0[i] + p1[i] + 1) >> 1);
}

/* One RGB row from full-resolution chroma; `swap`: V before U. */
static inline void nv24_row(const uint8_t *y, const uint8_t *uv, uint8_t *dst,
			    int width, const struct v4lc_yuv2rgb *k, int swap,
			    int bgr)
{
	for (int x = 0; x < width; x++) {
		int u = uv[2 * x + swap], v = uv[2 * x + 1 - swap];
		struct v4lc_chroma_q5 c = v4lc_chroma_q5(k, u, v);

		v4lc_put_rgb(dst + 3 * x, v4lc_luma_q5(k, y[x]), &c, bgr);
	}
}

void v4lc_yuvlayout_nv24_rgb_c(const uint8_t *y, const uint8_t *uv,
			       uint8_t *dst, int width,
			       const struct v4lc_yuv2rgb *k)
{
	nv24_row(y, uv, dst, width, k, 0, 0);
}

void v4lc_yuvlayout_nv24_bgr_c(const uint8_t *y, const uint8_t *uv,
			       uint8_t *dst, int width,
			       const struct v4lc_yuv2rgb *k)
{
	nv24_row(y, uv, dst, width, k, 0, 1);
}

void v4lc_yuvlayout_nv42_rgb_c(const uint8_t *y, const uint8_t *uv,
			       uint8_t *dst, int width,
			       const struct v4lc_yuv2rgb *k)
{
	nv24_row(y, uv, dst, width, k, 1, 0);
}

void v4lc_yuvlayout_nv42_bgr_c(const uint8_t *y, const uint8_t *uv,
			       uint8_t *dst, int width,
			       const struct v4lc_yuv2rgb *k)
{
	nv24_row(y, uv, dst, width, k, 1, 1);
}

void v4lc_yuvlayout_nv24_to_yuv420_c(const uint8_t *uv0, const uint8_t *uv1,
				     uint8_t *a, uint8_t *b, int width)
{
	int i;

	for (i = 0; 2 * i + 1 < width; i++) {
		a[i] = (uint8_t)((uv0[4 * i] + uv0[4 * i + 2] + uv1[4 * i] +
				  uv1[4 * i + 2] + 2) >>
				 2);
		b[i] = (uint8_t)((uv0[4 * i + 1] + uv0[4 * i + 3] +
				  uv1[4 * i + 1] + uv1[4 * i + 3] + 2) >>
				 2);
	}
	if (2 * i < width) {
		a[i] = (uint8_t)((2 * uv0[4 * i] + 2 * uv1[4 * i] + 2) >> 2);
		b[i] = (uint8_t)((2 * uv0[4 * i + 1] + 2 * uv1[4 * i + 1] +
				  2) >>
				 2);
	}
}

void v4lc_yuvlayout_init_c(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = v4lc_yuvlayout_deinterleave_c;
	dsp->deinterleave_avg = v4lc_yuvlayout_deinterleave_avg_c;
	dsp->avg = v4lc_yuvlayout_avg_c;
	dsp->nv24[V4LC_RGB24] = v4lc_yuvlayout_nv24_rgb_c;
	dsp->nv24[V4LC_BGR24] = v4lc_yuvlayout_nv24_bgr_c;
	dsp->nv42[V4LC_RGB24] = v4lc_yuvlayout_nv42_rgb_c;
	dsp->nv42[V4LC_BGR24] = v4lc_yuvlayout_nv42_bgr_c;
	dsp->nv24_to_yuv420 = v4lc_yuvlayout_nv24_to_yuv420_c;
}
