/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sharpness measure: a value worked out by hand, the packed-luma
 * variant equal to the planar one, and on the virtual camera's lens
 * picture a strictly falling measure as the blur grows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>

#include "focus/measure.h"
#include "vcam/vcam.h"
#include "../common/check.h"

/*
 * 16x16 black with one white pixel at (8, 8), inside the centre [4, 12):
 * L = 4 * 255 there, -255 at its four neighbours, 0 elsewhere; the centre
 * has 8 rows of 6 interior columns (x 5..10), 48 values:
 *   sum = 1020 - 4 * 255 = 0, sumsq = 1020^2 + 4 * 255^2 = 1300500,
 *   variance = 1300500 / 48 = 27093.75.
 */
static void test_hand_value(const struct v4lc_dsp *dsp)
{
	uint8_t img[16 * 16] = { 0 };
	double m;

	img[8 * 16 + 8] = 255;
	m = v4lc_focus_measure(dsp, img, 16, 16, 16);
	CHECK(m > 27093.74 && m < 27093.76);
	/* A flat picture has no sharpness. */
	memset(img, 77, sizeof(img));
	CHECK(v4lc_focus_measure(dsp, img, 16, 16, 16) == 0);
}

static void test_packed(const struct v4lc_dsp *dsp)
{
	enum { W = 320, H = 240 };
	uint8_t *yuyv = malloc(W * H * 2), *uyvy = malloc(W * H * 2);
	uint8_t *luma = malloc(W * H), *rows = malloc(3 * W);
	struct v4lc_vcam_optics o = { 1, 0 };
	double planar;

	CHECK(v4lc_vcam_render_optics(V4L2_PIX_FMT_YUYV, W, H, 3, 0, &o, yuyv,
				      W * H * 2) == W * H * 2);
	CHECK(v4lc_vcam_render_optics(V4L2_PIX_FMT_UYVY, W, H, 3, 0, &o, uyvy,
				      W * H * 2) == W * H * 2);
	for (int i = 0; i < W * H; i++)
		luma[i] = yuyv[2 * i];
	planar = v4lc_focus_measure(dsp, luma, W, W, H);
	CHECK(planar > 0);
	CHECK(v4lc_focus_measure_packed(dsp, yuyv, 2 * W, W, H, 0, rows) ==
	      planar);
	CHECK(v4lc_focus_measure_packed(dsp, uyvy, 2 * W, W, H, 1, rows) ==
	      planar);
	free(yuyv);
	free(uyvy);
	free(luma);
	free(rows);
}

static void test_blur_order(const struct v4lc_dsp *dsp)
{
	enum { W = 640, H = 480 };
	uint8_t *img = malloc(W * H);
	double prev = 0;

	/* Radii in 1/16 pixel: fractions first, then whole pixels. */
	for (int r = 0; r <= 640; r += r < 64 ? 4 : 96) {
		struct v4lc_vcam_optics o = { 1, r };
		double m;

		CHECK(v4lc_vcam_render_optics(V4L2_PIX_FMT_GREY, W, H, 0, 0, &o,
					      img, W * H) == W * H);
		m = v4lc_focus_measure(dsp, img, W, W, H);
		if (r > 0 && !(m < prev))
			printf("blur %d: measure %.1f not below %.1f\n", r, m,
			       prev);
		CHECK(r == 0 || m < prev);
		prev = m;
	}
	free(img);
}

int main(void)
{
	const struct v4lc_dsp *dsp = v4lc_dsp_get();

	test_hand_value(dsp);
	test_packed(dsp);
	test_blur_order(dsp);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
