/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Accuracy of the scalar yuv422 kernels (all four byte orders, RGB24 and
 * BGR24) against a double-precision conversion written here from the
 * standard definitions:
 *   limited range: Y' = (Y - 16) / 219, Pb = (U - 128) / 224 (x 255)
 *   full range:    Y' = Y / 255,        Pb = (U - 128) / 255 (x 255)
 *   R = Y' + 2(1 - Kr) Pr
 *   B = Y' + 2(1 - Kb) Pb
 *   G = (Y' - Kr R - Kb B) / Kg
 * The exact value is clamped to 0..255 but not rounded; every output
 * channel must lie within one level of it. The matrices are chosen by
 * V4L2 colorimetry, including the defaults (colorspace only), and the
 * expected Kr/Kb/range for those defaults are written out here.
 *
 * to_yuv420 is checked against its definition: luma copied, chroma the
 * rounded-up average of the two rows, odd widths and the odd last row.
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
	double yy, pb, pr, r, b, g;

	if (m->full) {
		yy = y / 255.0;
		pb = (u - 128.0) / 255.0;
		pr = (v - 128.0) / 255.0;
	} else {
		yy = (y - 16.0) / 219.0;
		pb = (u - 128.0) / 224.0;
		pr = (v - 128.0) / 224.0;
	}
	r = yy + 2.0 * (1.0 - m->kr) * pr;
	b = yy + 2.0 * (1.0 - m->kb) * pb;
	g = (yy - m->kr * r - m->kb * b) / kg;
	rgb[0] = clampd(255.0 * r);
	rgb[1] = clampd(255.0 * g);
	rgb[2] = clampd(255.0 * b);
}

/* Byte offsets of Y0, U, Y1, V in a pair, per enum v4lc_yuv422_order. */
static const int offs[V4LC_YUV422_ORDERS][4] = {
	{ 0, 1, 2, 3 }, /* YUYV */
	{ 0, 3, 2, 1 }, /* YVYU */
	{ 1, 0, 3, 2 }, /* UYVY */
	{ 1, 2, 3, 0 }, /* VYUY */
};
static const char *const oname[V4LC_YUV422_ORDERS] = { "YUYV", "YVYU", "UYVY",
						       "VYUY" };

/* Width: all 256 luma values in 128 pairs plus an odd last pixel. */
#define W 257
#define PAIRS ((W + 1) / 2)
#define EPS 1e-9

static uint8_t luma_at(int x)
{
	return (uint8_t)((x * 37 + 11) & 255); /* a permutation of 0..255 */
}

static void pack(uint8_t *row, int order, const uint8_t *y, int u, int v,
		 int width)
{
	for (int p = 0; p < (width + 1) / 2; p++) {
		uint8_t *q = row + 4 * p;

		q[offs[order][0]] = y[2 * p];
		q[offs[order][2]] = 2 * p + 1 < width ? y[2 * p + 1] : 0x77;
		q[offs[order][1]] = (uint8_t)u;
		q[offs[order][3]] = (uint8_t)v;
	}
}

static int grid_value(int i)
{
	/* 0, 3, ..., 255, then 16, 128, 235, 240, 254 */
	static const int extra[] = { 16, 128, 235, 240, 254, 1 };

	return i < 86 ? 3 * i : extra[i - 86];
}
#define GRID (86 + 6)

static void check_rgb(void)
{
	static struct v4lc_dsp t;
	uint8_t y[W], row[V4LC_YUV422_ORDERS][4 * PAIRS];
	uint8_t out[V4LC_YUV422_ORDERS][V4LC_RGB_ORDERS][3 * W + 8];

	v4lc_dsp_init(&t, 0);
	for (int x = 0; x < W; x++)
		y[x] = luma_at(x);

	for (size_t mi = 0; mi < NMATRICES; mi++) {
		const struct matrix *m = &matrices[mi];
		struct v4lc_yuv2rgb k;
		double maxerr = 0.0, sumerr = 0.0;
		long n = 0;

		/* The defaults resolve to matrices checked in full above:
		 * a coarser chroma grid keeps the run short under qemu. */
		int stride = strstr(m->name, "default") ? 4 : 1;

		v4lc_yuv2rgb_init(&k, &m->cm);
		for (int gu = 0; gu < GRID; gu += stride) {
			for (int gv = 0; gv < GRID; gv += stride) {
				int cu = grid_value(gu), cv = grid_value(gv);

				memset(out, 0x5a, sizeof(out));
				for (int o = 0; o < V4LC_YUV422_ORDERS; o++) {
					pack(row[o], o, y, cu, cv, W);
					for (int c = 0; c < V4LC_RGB_ORDERS;
					     c++)
						t.yuv422.to_rgb[o][c](row[o],
								      out[o][c],
								      W, &k);
				}
				/* Every order gives the same bytes as YUYV... */
				for (int o = 1; o < V4LC_YUV422_ORDERS; o++)
					for (int c = 0; c < V4LC_RGB_ORDERS;
					     c++)
						CHECK_HOT(
							!memcmp(out[o][c],
								out[0][c],
								3 * W),
							"%s: %s differs from YUYV at U=%d V=%d",
							m->name, oname[o], cu,
							cv);
				/* ... and YUYV is within one level of exact. */
				for (int x = 0; x < W; x++) {
					double e[3];

					exact_rgb(m, y[x], cu, cv, e);
					for (int c = 0; c < V4LC_RGB_ORDERS;
					     c++) {
						const uint8_t *p =
							out[0][c] + 3 * x;

						for (int ch = 0; ch < 3; ch++) {
							int got = p[c ? 2 - ch
								      : ch];
							double err = fabs(
								got - e[ch]);

							n++;
							sumerr += err;
							if (err > maxerr)
								maxerr = err;
							CHECK_HOT(
								err <= 1.0 + EPS,
								"%s YUYV->%s: Y=%d U=%d V=%d channel %d: got %d, exact %.4f",
								m->name,
								c ? "BGR24"
								  : "RGB24",
								y[x], cu, cv,
								ch, got, e[ch]);
						}
					}
				}
				/* Nothing written past 3 * W. */
				for (int o = 0; o < V4LC_YUV422_ORDERS; o++)
					for (int c = 0; c < V4LC_RGB_ORDERS;
					     c++)
						for (int i = 3 * W;
						     i < 3 * W + 8; i++)
							CHECK_HOT(
								out[o][c][i] ==
									0x5a,
								"%s: wrote past the row",
								oname[o]);
			}
		}
		printf("%-16s max abs error %.4f, mean %.4f (%ld channel values)\n",
		       m->name, maxerr, sumerr / (double)n, n);
	}
}

static uint32_t rng = 12345;

static uint8_t rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return (uint8_t)(rng >> 16);
}

static void check_yuv420(void)
{
	static struct v4lc_dsp t;
	enum { MAXW = 101 };
	uint8_t s0[4 * MAXW], s1[4 * MAXW];
	uint8_t y0[MAXW + 8], y1[MAXW + 8], u[MAXW + 8], v[MAXW + 8];
	int before = failures;

	v4lc_dsp_init(&t, 0);
	for (int o = 0; o < V4LC_YUV422_ORDERS; o++) {
		for (int width = 1; width <= MAXW; width++) {
			int pairs = (width + 1) / 2;

			for (int rep = 0; rep < 8; rep++) {
				for (int i = 0; i < 4 * pairs; i++) {
					s0[i] = rnd();
					s1[i] = rep == 0   ? 255
						: rep == 1 ? 0
							   : rnd();
				}
				for (int last = 0; last < 2; last++) {
					const uint8_t *b = last ? s0 : s1;
					uint8_t *yb = last ? y0 : y1;

					memset(y0, 0xa5, sizeof(y0));
					memset(y1, 0xa5, sizeof(y1));
					memset(u, 0xa5, sizeof(u));
					memset(v, 0xa5, sizeof(v));
					t.yuv422.to_yuv420[o](s0, b, y0, yb, u,
							      v, width);
					for (int x = 0; x < width; x++) {
						const uint8_t *pa =
							s0 + 4 * (x / 2);
						const uint8_t *pb =
							b + 4 * (x / 2);
						int yo = offs[o]
							     [(x & 1) ? 2 : 0];

						CHECK_HOT(y0[x] == pa[yo] &&
							  yb[x] == pb[yo]);
					}
					for (int p = 0; p < pairs; p++) {
						const uint8_t *pa = s0 + 4 * p,
							      *pb = b + 4 * p;
						int eu = (pa[offs[o][1]] +
							  pb[offs[o][1]] + 1) /
							 2;
						int ev = (pa[offs[o][3]] +
							  pb[offs[o][3]] + 1) /
							 2;

						CHECK_HOT(u[p] == eu &&
							  v[p] == ev);
					}
					for (int i = width; i < width + 8; i++)
						CHECK_HOT(y0[i] == 0xa5 &&
							  y1[i] == 0xa5);
					if (!last)
						for (int i = pairs;
						     i < pairs + 8; i++)
							CHECK_HOT(
								u[i] == 0xa5 &&
								v[i] == 0xa5);
					if (last)
						for (int i = 0; i < width; i++)
							CHECK_HOT(y1[i] ==
								  0xa5);
				}
			}
		}
		if (failures > before)
			fprintf(stderr,
				"FAIL %s->YUV420 differs from its definition\n",
				oname[o]);
	}
	printf("to_yuv420: %s\n",
	       failures > before
		       ? "MISMATCH"
		       : "luma copy and rounded chroma average exact");
}

int main(void)
{
	check_rgb();
	check_yuv420();
	if (failures)
		fprintf(stderr, "accuracy-yuv422: %d failures\n", failures);
	else
		printf("accuracy-yuv422: every channel within one level\n");
	return failures ? 1 : 0;
}
