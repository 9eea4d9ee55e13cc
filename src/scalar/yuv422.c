/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed YUV 4:2:2 (YUYV, YVYU, UYVY, VYUY): one row to RGB24/BGR24 per the
 * formulas in pixel.h, and two rows to planar 4:2:0.
 *
 * A row of `width` pixels is (width + 1) / 2 complete 4-byte pixel pairs;
 * for an odd width the last pair's second luma byte is present but unused,
 * and the last pixel takes its pair's chroma. Exactly `width` pixels are
 * written (3 * width RGB bytes, or width luma and (width + 1) / 2 chroma
 * bytes).
 */
#include "scalar/yuv422.h"
#include "scalar/pixel.h"

/* The byte offsets of an order, constants once inlined. */
#define OFFSETS(order)                                                         \
	const int oy0 = v4lc_yuv422_offsets[order][V4LC_422_Y0],               \
		  ou = v4lc_yuv422_offsets[order][V4LC_422_U],                 \
		  oy1 = v4lc_yuv422_offsets[order][V4LC_422_Y1],               \
		  ov = v4lc_yuv422_offsets[order][V4LC_422_V]

static inline __attribute__((always_inline)) void
to_rgb(const uint8_t *src, uint8_t *dst, int width,
       const struct v4lc_yuv2rgb *kp, int order, int bgr)
{
	/* A local copy: stores through dst (uint8_t) may alias *kp. */
	const struct v4lc_yuv2rgb kc = *kp, *k = &kc;
	OFFSETS(order);
	int x;

	for (x = 0; x + 2 <= width; x += 2, src += 4, dst += 6) {
		struct v4lc_chroma_q5 c = v4lc_chroma_q5(k, src[ou], src[ov]);

		v4lc_put_rgb(dst, v4lc_luma_q5(k, src[oy0]), &c, bgr);
		v4lc_put_rgb(dst + 3, v4lc_luma_q5(k, src[oy1]), &c, bgr);
	}
	if (x < width) {
		struct v4lc_chroma_q5 c = v4lc_chroma_q5(k, src[ou], src[ov]);

		v4lc_put_rgb(dst, v4lc_luma_q5(k, src[oy0]), &c, bgr);
	}
}

static inline __attribute__((always_inline)) void
to_yuv420(const uint8_t *src0, const uint8_t *src1, uint8_t *y0, uint8_t *y1,
	  uint8_t *u, uint8_t *v, int width, int order)
{
	OFFSETS(order);
	int x;

	for (x = 0; x + 2 <= width; x += 2, src0 += 4, src1 += 4) {
		uint8_t a0 = src0[oy0], a1 = src0[oy1];
		uint8_t b0 = src1[oy0], b1 = src1[oy1];
		uint8_t cu = (uint8_t)((src0[ou] + src1[ou] + 1) >> 1);
		uint8_t cv = (uint8_t)((src0[ov] + src1[ov] + 1) >> 1);

		/* Read everything first: y1 may be y0 (odd last row). */
		y0[x] = a0;
		y0[x + 1] = a1;
		y1[x] = b0;
		y1[x + 1] = b1;
		u[x / 2] = cu;
		v[x / 2] = cv;
	}
	if (x < width) {
		uint8_t a0 = src0[oy0], b0 = src1[oy0];
		uint8_t cu = (uint8_t)((src0[ou] + src1[ou] + 1) >> 1);
		uint8_t cv = (uint8_t)((src0[ov] + src1[ov] + 1) >> 1);

		y0[x] = a0;
		y1[x] = b0;
		u[x / 2] = cu;
		v[x / 2] = cv;
	}
}

/* The kernels of each byte order, under the names the table gets. */
#define TO_RGB(fn, order, bgr)                                                 \
	void fn(const uint8_t *src, uint8_t *dst, int width,                   \
		const struct v4lc_yuv2rgb *k)                                  \
	{                                                                      \
		to_rgb(src, dst, width, k, order, bgr);                        \
	}
#define TO_YUV420(fn, order)                                                   \
	void fn(const uint8_t *src0, const uint8_t *src1, uint8_t *y0,         \
		uint8_t *y1, uint8_t *u, uint8_t *v, int width)                \
	{                                                                      \
		to_yuv420(src0, src1, y0, y1, u, v, width, order);             \
	}
TO_RGB(v4lc_yuv422_yuyv_to_rgb24_c, V4LC_YUYV, 0)
TO_RGB(v4lc_yuv422_yuyv_to_bgr24_c, V4LC_YUYV, 1)
TO_YUV420(v4lc_yuv422_yuyv_to_yuv420_c, V4LC_YUYV)
TO_RGB(v4lc_yuv422_yvyu_to_rgb24_c, V4LC_YVYU, 0)
TO_RGB(v4lc_yuv422_yvyu_to_bgr24_c, V4LC_YVYU, 1)
TO_YUV420(v4lc_yuv422_yvyu_to_yuv420_c, V4LC_YVYU)
TO_RGB(v4lc_yuv422_uyvy_to_rgb24_c, V4LC_UYVY, 0)
TO_RGB(v4lc_yuv422_uyvy_to_bgr24_c, V4LC_UYVY, 1)
TO_YUV420(v4lc_yuv422_uyvy_to_yuv420_c, V4LC_UYVY)
TO_RGB(v4lc_yuv422_vyuy_to_rgb24_c, V4LC_VYUY, 0)
TO_RGB(v4lc_yuv422_vyuy_to_bgr24_c, V4LC_VYUY, 1)
TO_YUV420(v4lc_yuv422_vyuy_to_yuv420_c, V4LC_VYUY)
#undef TO_RGB
#undef TO_YUV420

void v4lc_yuv422_init_c(struct v4lc_yuv422_dsp *dsp)
{
	dsp->to_rgb[V4LC_YUYV][V4LC_RGB24] = v4lc_yuv422_yuyv_to_rgb24_c;
	dsp->to_rgb[V4LC_YUYV][V4LC_BGR24] = v4lc_yuv422_yuyv_to_bgr24_c;
	dsp->to_yuv420[V4LC_YUYV] = v4lc_yuv422_yuyv_to_yuv420_c;
	dsp->to_rgb[V4LC_YVYU][V4LC_RGB24] = v4lc_yuv422_yvyu_to_rgb24_c;
	dsp->to_rgb[V4LC_YVYU][V4LC_BGR24] = v4lc_yuv422_yvyu_to_bgr24_c;
	dsp->to_yuv420[V4LC_YVYU] = v4lc_yuv422_yvyu_to_yuv420_c;
	dsp->to_rgb[V4LC_UYVY][V4LC_RGB24] = v4lc_yuv422_uyvy_to_rgb24_c;
	dsp->to_rgb[V4LC_UYVY][V4LC_BGR24] = v4lc_yuv422_uyvy_to_bgr24_c;
	dsp->to_yuv420[V4LC_UYVY] = v4lc_yuv422_uyvy_to_yuv420_c;
	dsp->to_rgb[V4LC_VYUY][V4LC_RGB24] = v4lc_yuv422_vyuy_to_rgb24_c;
	dsp->to_rgb[V4LC_VYUY][V4LC_BGR24] = v4lc_yuv422_vyuy_to_bgr24_c;
	dsp->to_yuv420[V4LC_VYUY] = v4lc_yuv422_vyuy_to_yuv420_c;
}
