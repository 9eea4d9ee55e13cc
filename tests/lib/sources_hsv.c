/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * HSV sources through the public API, against the double-precision HSV
 * model, and against the distribution's libv4lconvert (which is measured,
 * not matched: see src/libv4lconvert/src_hsv.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources_common.h"
#include "../common/check.h"
#include "../common/fourcc.h"

/* Largest difference from the original allowed (measured: see the log). */
#define HSV_MAX_DIFF 10

static size_t row_bytes(uint32_t fourcc, int w)
{
	return (size_t)w * (fourcc == V4L2_PIX_FMT_HSV32 ? 4 : 3);
}

/* The textbook model in doubles: hue in degrees, chroma C = V S. */
static void hsv_double(uint32_t enc, unsigned h, unsigned s, unsigned v,
		       double rgb[3])
{
	double steps = enc == V4L2_HSV_ENC_256 ? 256 : 180;
	double hd = fmod(h, steps) * 360.0 / steps;
	double vv = v / 255.0, c = vv * s / 255.0;
	double hp = hd / 60.0;
	double xx = c * (1 - fabs(fmod(hp, 2.0) - 1));
	double r = 0, g = 0, b = 0, m = vv - c;

	switch ((int)hp) {
	case 0:
		r = c;
		g = xx;
		break;
	case 1:
		r = xx;
		g = c;
		break;
	case 2:
		g = c;
		b = xx;
		break;
	case 3:
		g = xx;
		b = c;
		break;
	case 4:
		r = xx;
		b = c;
		break;
	default:
		r = c;
		b = xx;
		break;
	}
	rgb[0] = (r + m) * 255;
	rgb[1] = (g + m) * 255;
	rgb[2] = (b + m) * 255;
}

static void ref_pixel(uint32_t fourcc, uint32_t enc, const uint8_t *row, int x,
		      uint8_t rgb[3])
{
	const uint8_t *p =
		row + (fourcc == V4L2_PIX_FMT_HSV32 ? 4 * x + 1 : 3 * x);
	double d[3];

	hsv_double(enc, p[0], p[1], p[2], d);
	for (int c = 0; c < 3; c++)
		/* exact ties may land just below .5 in doubles: round them up */
		rgb[c] = (uint8_t)floor(d[c] + 0.5 + 1e-9);
}

/* Every (h, s) with v in steps, against the model and the original. */
static void differential(struct v4lconvert_data *cv, struct orig *o)
{
	static const uint32_t encs[] = { V4L2_HSV_ENC_180, V4L2_HSV_ENC_256 };
	const int w = 256, h = 256;
	uint8_t *src = malloc((size_t)w * h * 3);
	uint8_t *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3);

	for (int e = 0; e < 2; e++) {
		for (int v = 0; v < 256; v += 51) {
			int worst_orig = 0;
			double err_ours = 0, err_orig = 0, max_ours = 0;

			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					uint8_t *p =
						src + 3 * ((size_t)y * w + x);

					p[0] = (uint8_t)
						y; /* hue, every value */
					p[1] = (uint8_t)x;
					p[2] = (uint8_t)v;
				}
			if (!run_both(cv, o, V4L2_PIX_FMT_HSV24, encs[e], w, h,
				      (size_t)w * 3, src, V4L2_PIX_FMT_RGB24, a,
				      b))
				continue;
			for (int i = 0; i < w * h; i++) {
				const uint8_t *p = src + 3 * i;
				double d[3];

				/* Hues past 179 are outside ENC_180: not compared. */
				if (encs[e] == V4L2_HSV_ENC_180 && p[0] >= 180)
					continue;
				hsv_double(encs[e], p[0], p[1], p[2], d);
				for (int c = 0; c < 3; c++) {
					double eo = fabs(a[3 * i + c] - d[c]);
					double et = fabs(b[3 * i + c] - d[c]);
					int diff = abs(a[3 * i + c] -
						       b[3 * i + c]);

					err_ours += eo;
					err_orig += et;
					if (eo > max_ours)
						max_ours = eo;
					if (diff > worst_orig)
						worst_orig = diff;
				}
			}
			printf("HSV24 enc %s v=%3d: max |ours - original| %d; mean "
			       "error vs model: ours %.3f, original %.3f; ours max %.3f\n",
			       encs[e] == V4L2_HSV_ENC_256 ? "256" : "180", v,
			       worst_orig, err_ours / (3.0 * w * h),
			       err_orig / (3.0 * w * h), max_ours);
			CHECK(max_ours <= 0.5 + 1e-6,
			      "HSV enc %u v %d: ours %.3f from model", encs[e],
			      v, max_ours);
			CHECK(err_ours <= err_orig,
			      "HSV enc %u v %d: ours less accurate", encs[e],
			      v);
			CHECK(worst_orig <= HSV_MAX_DIFF,
			      "HSV enc %u v %d: %d levels from the original",
			      encs[e], v, worst_orig);
		}
	}
	free(src);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	static const uint32_t hsvs[] = { V4L2_PIX_FMT_HSV24,
					 V4L2_PIX_FMT_HSV32 };
	struct v4lconvert_data *cv = make_ours(hsvs, 2);
	struct orig o;

	(void)argc;
	if (!cv) {
		printf("FAIL: cannot create an instance\n");
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		test_format(cv, hsvs[i], V4L2_HSV_ENC_180, ref_pixel, row_bytes,
			    0, 0);
		test_format(cv, hsvs[i], V4L2_HSV_ENC_256, ref_pixel, row_bytes,
			    0, 0);
	}
	if (orig_open(&o)) {
		differential(cv, &o);
		orig_close(&o);
	}
	v4lconvert_destroy(cv);
	printf("%s: %d failure(s)\n", argv[0], failures);
	return failures != 0;
}
