/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Two rows of RGB24/BGR24 to two luma rows and one row of each chroma plane
 * (4:2:0), per v4lc_rgb_to_y and v4lc_rgb_to_uv in pixel.h. Chroma comes
 * from the sum of each 2x2 block; an odd last column counts twice (its block
 * sum is 2 * (row0 + row1) of that column). For an odd last row the caller
 * passes src1 == src0 and y1 == y0, so the block sum is twice the row's pair.
 */
#include "scalar/rgb2yuv.h"
#include "scalar/pixel.h"

static inline __attribute__((always_inline)) void
rows(const uint8_t *src0, const uint8_t *src1, uint8_t *y0, uint8_t *y1,
     uint8_t *u, uint8_t *v, int width, const struct v4lc_rgb2yuv *kp, int bgr)
{
	/* A local copy: byte stores may alias *kp and force reloads. */
	const struct v4lc_rgb2yuv kc = *kp, *k = &kc;
	const int ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;
	int x;

	for (x = 0; x + 2 <= width; x += 2) {
		const uint8_t *a = src0 + 3 * x, *b = src1 + 3 * x;
		int sr = a[ri] + a[3 + ri] + b[ri] + b[3 + ri];
		int sg = a[1] + a[4] + b[1] + b[4];
		int sb = a[bi] + a[3 + bi] + b[bi] + b[3 + bi];

		y0[x] = v4lc_rgb_to_y(k, a[ri], a[1], a[bi]);
		y0[x + 1] = v4lc_rgb_to_y(k, a[3 + ri], a[4], a[3 + bi]);
		y1[x] = v4lc_rgb_to_y(k, b[ri], b[1], b[bi]);
		y1[x + 1] = v4lc_rgb_to_y(k, b[3 + ri], b[4], b[3 + bi]);
		v4lc_rgb_to_uv(k, sr, sg, sb, &u[x / 2], &v[x / 2]);
	}
	if (x < width) {
		const uint8_t *a = src0 + 3 * x, *b = src1 + 3 * x;
		int sr = 2 * (a[ri] + b[ri]);
		int sg = 2 * (a[1] + b[1]);
		int sb = 2 * (a[bi] + b[bi]);

		y0[x] = v4lc_rgb_to_y(k, a[ri], a[1], a[bi]);
		y1[x] = v4lc_rgb_to_y(k, b[ri], b[1], b[bi]);
		v4lc_rgb_to_uv(k, sr, sg, sb, &u[x / 2], &v[x / 2]);
	}
}

void v4lc_rgb2yuv_rgb24_to_yuv420_c(const uint8_t *src0, const uint8_t *src1,
				    uint8_t *y0, uint8_t *y1, uint8_t *u,
				    uint8_t *v, int width,
				    const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 0);
}

void v4lc_rgb2yuv_bgr24_to_yuv420_c(const uint8_t *src0, const uint8_t *src1,
				    uint8_t *y0, uint8_t *y1, uint8_t *u,
				    uint8_t *v, int width,
				    const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 1);
}

void v4lc_rgb2yuv_init_c(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = v4lc_rgb2yuv_rgb24_to_yuv420_c;
	dsp->to_yuv420[V4LC_BGR24] = v4lc_rgb2yuv_bgr24_to_yuv420_c;
}
