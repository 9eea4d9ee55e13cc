/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Accuracy of the scalar yuv420 kernels against an independent
 * double-precision conversion written from the standard definitions:
 *   Y' = (Y - 16) * 255/219, Pb = (U - 128) * 255/224 (limited range), or
 *   Y' = Y,                  Pb = U - 128             (full range), and
 *   R = Y' + 2(1-Kr) Pr
 *   G = Y' - (2 Kb (1-Kb) Pb + 2 Kr (1-Kr) Pr) / Kg
 *   B = Y' + 2(1-Kb) Pb
 * Every channel must be within one level of the clamped exact value. Also
 * checks that planar, NV12 and NV21 agree and that BGR is RGB swapped.
 */
#include <linux/videodev2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dsp.h"

#include "matrices.h"
#include "../common/check.h"

static void exact_rgb(const struct matrix *m, int y, int u, int v,
		      double rgb[3])
{
	double kg = 1.0 - m->kr - m->kb;
	double yy, pb, pr;

	if (m->full) {
		yy = y;
		pb = u - 128.0;
		pr = v - 128.0;
	} else {
		yy = (y - 16.0) * 255.0 / 219.0;
		pb = (u - 128.0) * 255.0 / 224.0;
		pr = (v - 128.0) * 255.0 / 224.0;
	}
	rgb[0] = clampd(yy + 2.0 * (1.0 - m->kr) * pr);
	rgb[1] = clampd(yy - (2.0 * m->kb * (1.0 - m->kb) * pb +
			      2.0 * m->kr * (1.0 - m->kr) * pr) /
				     kg);
	rgb[2] = clampd(yy + 2.0 * (1.0 - m->kb) * pb);
}

/* Row width: every luma value, plus one for an odd last pixel. */
#define W 257
#define CW ((W + 1) / 2)
#define STEP 5 /* chroma grid: 0, 5, ..., 255 */

static const char *const kname[6] = {
	"planar->rgb24", "planar->bgr24", "nv12->rgb24",
	"nv12->bgr24",   "nv21->rgb24",   "nv21->bgr24",
};

int main(void)
{
	static struct v4lc_dsp t;
	uint8_t y[W], u[CW], v[CW], uv[2 * CW], vu[2 * CW];
	uint8_t out[6][3 * W];

	v4lc_dsp_init(&t, 0);
	for (int x = 0; x < W; x++)
		y[x] = (uint8_t)((x * 7 + 3) &
				 255); /* all 256 values, shuffled */

	for (size_t mi = 0; mi < NMATRICES; mi++) {
		const struct matrix *m = &matrices[mi];
		struct v4lc_yuv2rgb k;
		double maxerr[6] = { 0 }, sumerr[6] = { 0 };
		long n = 0;

		v4lc_yuv2rgb_init(&k, &m->cm);
		for (int cu = 0; cu <= 255; cu += STEP) {
			for (int cv = 0; cv <= 255; cv += STEP) {
				memset(u, cu, sizeof(u));
				memset(v, cv, sizeof(v));
				for (int i = 0; i < CW; i++) {
					uv[2 * i] = vu[2 * i + 1] = (uint8_t)cu;
					uv[2 * i + 1] = vu[2 * i] = (uint8_t)cv;
				}
				memset(out, 0x5a, sizeof(out));
				t.yuv420.planar[V4LC_RGB24](y, u, v, out[0], W,
							    &k);
				t.yuv420.planar[V4LC_BGR24](y, u, v, out[1], W,
							    &k);
				t.yuv420.nv12[V4LC_RGB24](y, uv, out[2], W, &k);
				t.yuv420.nv12[V4LC_BGR24](y, uv, out[3], W, &k);
				t.yuv420.nv21[V4LC_RGB24](y, vu, out[4], W, &k);
				t.yuv420.nv21[V4LC_BGR24](y, vu, out[5], W, &k);

				for (int x = 0; x < W; x++) {
					double e[3];

					exact_rgb(m, y[x], cu, cv, e);
					n++;
					for (int kk = 0; kk < 6; kk++) {
						const uint8_t *p =
							out[kk] + 3 * x;
						int bgr = kk & 1;

						for (int c = 0; c < 3; c++) {
							int got = p[bgr ? 2 - c
									: c];
							double err = fabs(got -
									  e[c]);

							sumerr[kk] += err;
							if (err > maxerr[kk])
								maxerr[kk] =
									err;
							CHECK_HOT(
								err <= 1.0,
								"%s %s: Y=%d U=%d V=%d channel %d: got %d, exact %.3f",
								m->name,
								kname[kk], y[x],
								cu, cv, c, got,
								e[c]);
						}
					}
				}
				/* Layouts agree; BGR is RGB with R and B swapped. */
				for (int kk = 2; kk < 6; kk++) {
					CHECK_HOT(
						!memcmp(out[kk], out[kk & 1],
							sizeof(out[0])),
						"%s: %s differs from %s at U=%d V=%d",
						m->name, kname[kk],
						kname[kk & 1], cu, cv);
				}
				for (int x = 0; x < W; x++) {
					const uint8_t *a = out[0] + 3 * x,
						      *b = out[1] + 3 * x;

					CHECK_HOT(
						a[0] == b[2] && a[1] == b[1] &&
							a[2] == b[0],
						"%s: BGR is not swapped RGB at x=%d U=%d V=%d",
						m->name, x, cu, cv);
				}
			}
		}
		for (int kk = 0; kk < 6; kk++)
			printf("%-16s %-14s max abs error %.3f, mean %.4f\n",
			       m->name, kname[kk], maxerr[kk],
			       sumerr[kk] / (3.0 * n));
	}
	if (failures)
		fprintf(stderr, "accuracy-yuv420: %d failures\n", failures);
	else
		printf("accuracy-yuv420: all within one level\n");
	return failures ? 1 : 0;
}
