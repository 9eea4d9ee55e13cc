/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Accuracy of the scalar rgb2yuv kernels against an independent
 * double-precision conversion written from the standard definitions:
 *   Y0 = Kr R + Kg G + Kb B,  Kg = 1 - Kr - Kb
 *   limited: Y = 16 + 219 Y0 / 255
 *            U = 128 + 224 (B - Y0) / (255 * 2 (1 - Kb))
 *            V = 128 + 224 (R - Y0) / (255 * 2 (1 - Kr))
 *   full:    Y = Y0, U = 128 + (B - Y0) / (2 (1 - Kb)), V likewise.
 * Luma must be within one level of the exact unrounded value; chroma
 * within one level of the exact value of the 2x2 block's average colour
 * (odd last column replicated, odd last row = the row twice). Both RGB24
 * and BGR24 kernels run on the same colours. A round trip through a
 * double-precision YUV -> RGB must land within two levels of the input.
 */
#include <linux/videodev2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/dsp.h"

#include "matrices.h"
#include "../common/check.h"
#include "../common/rng.h"

/* Exact Y, U, V (unrounded, clamped to the 8-bit range) of one colour. */
static void exact_yuv(const struct matrix *m, double r, double g, double b,
		      double yuv[3])
{
	double kg = 1.0 - m->kr - m->kb;
	double y0 = m->kr * r + kg * g + m->kb * b;
	double pb = (b - y0) / (2.0 * (1.0 - m->kb));
	double pr = (r - y0) / (2.0 * (1.0 - m->kr));

	if (m->full) {
		yuv[0] = y0;
		yuv[1] = 128.0 + pb;
		yuv[2] = 128.0 + pr;
	} else {
		yuv[0] = 16.0 + 219.0 * y0 / 255.0;
		yuv[1] = 128.0 + 224.0 * pb / 255.0;
		yuv[2] = 128.0 + 224.0 * pr / 255.0;
	}
	for (int i = 0; i < 3; i++)
		yuv[i] = clampd(yuv[i]);
}

/* The inverse, from the same definitions: YUV -> exact RGB. */
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
	rgb[0] = yy + 2.0 * (1.0 - m->kr) * pr;
	rgb[1] = yy - (2.0 * m->kb * (1.0 - m->kb) * pb +
		       2.0 * m->kr * (1.0 - m->kr) * pr) /
			      kg;
	rgb[2] = yy + 2.0 * (1.0 - m->kb) * pb;
}

/* Row width: odd, so every row also exercises the replicated last column. */
#define W 255
#define CW ((W + 1) / 2)

struct stats {
	double max[3], sum[3];
	long n[3];
	double rt_max, rt_sum;
	long rt_n;
};

static struct v4lc_dsp t;
static const char *const cname[3] = { "Y", "U", "V" };

static void account(struct stats *st, const struct matrix *m, int c, int got,
		    double exact, const char *what, int x, const uint8_t *p)
{
	double err = fabs(got - exact);

	st->sum[c] += err;
	st->n[c]++;
	if (err > st->max[c])
		st->max[c] = err;
	CHECK_HOT(err <= 1.0,
		  "%s %s %s at x=%d (RGB %d,%d,%d): got %d, exact %.3f",
		  m->name, what, cname[c], x, p[0], p[1], p[2], got, exact);
}

/*
 * Convert rows r0, r1 (RGB24, W pixels) with both kernels and check every
 * output against the exact values. single: one-row call (r1 ignored).
 */
static void check_rows(const struct matrix *m, const struct v4lc_rgb2yuv *k,
		       const uint8_t *r0, const uint8_t *r1, int single,
		       struct stats *st)
{
	uint8_t b0[3 * W], b1[3 * W];
	uint8_t y[2][2][W], u[2][CW], v[2][CW];

	if (single)
		r1 = r0;
	for (int x = 0; x < W; x++)
		for (int c = 0; c < 3; c++) {
			b0[3 * x + c] = r0[3 * x + 2 - c];
			b1[3 * x + c] = r1[3 * x + 2 - c];
		}
	memset(y, 0x5a, sizeof(y));
	memset(u, 0x5a, sizeof(u));
	memset(v, 0x5a, sizeof(v));
	if (single) {
		t.rgb2yuv.to_yuv420[V4LC_RGB24](r0, r0, y[0][0], y[0][0], u[0],
						v[0], W, k);
		t.rgb2yuv.to_yuv420[V4LC_BGR24](b0, b0, y[1][0], y[1][0], u[1],
						v[1], W, k);
	} else {
		t.rgb2yuv.to_yuv420[V4LC_RGB24](r0, r1, y[0][0], y[0][1], u[0],
						v[0], W, k);
		t.rgb2yuv.to_yuv420[V4LC_BGR24](b0, b1, y[1][0], y[1][1], u[1],
						v[1], W, k);
	}

	for (int o = 0; o < 2; o++) {
		const char *what = o ? "bgr24" : "rgb24";

		for (int row = 0; row < (single ? 1 : 2); row++) {
			const uint8_t *src = row ? r1 : r0;

			for (int x = 0; x < W; x++) {
				const uint8_t *p = src + 3 * x;
				double e[3];

				exact_yuv(m, p[0], p[1], p[2], e);
				account(st, m, 0, y[o][row][x], e[0], what, x,
					p);
			}
		}
		for (int i = 0; i < CW; i++) {
			int x0 = 2 * i, x1 = 2 * i + 1 < W ? 2 * i + 1 : 2 * i;
			double avg[3], e[3];

			for (int c = 0; c < 3; c++)
				avg[c] = (r0[3 * x0 + c] + r0[3 * x1 + c] +
					  r1[3 * x0 + c] + r1[3 * x1 + c]) /
					 4.0;
			exact_yuv(m, avg[0], avg[1], avg[2], e);
			account(st, m, 1, u[o][i], e[1], what, x0, r0 + 3 * x0);
			account(st, m, 2, v[o][i], e[2], what, x0, r0 + 3 * x0);
		}
	}
	/* The two orders must agree exactly. */
	if (!(!(memcmp(y[0][0], y[1][0], W) ||
		(!single && memcmp(y[0][1], y[1][1], W)) ||
		memcmp(u[0], u[1], CW) || memcmp(v[0], v[1], CW))))
		CHECK(!(memcmp(y[0][0], y[1][0], W) ||
			(!single && memcmp(y[0][1], y[1][1], W)) ||
			memcmp(u[0], u[1], CW) || memcmp(v[0], v[1], CW)),
		      "%s: BGR24 kernel differs from RGB24", m->name);
}

/*
 * Round trip of uniform 2x2 blocks (chroma equals the colour's own): the
 * exact inverse of our Y, U, V must be within two levels of the input.
 */
static void round_trip(const struct matrix *m, const struct v4lc_rgb2yuv *k,
		       const uint8_t *row, struct stats *st)
{
	uint8_t pairs[3 * W];
	uint8_t y0[W], y1[W], u[CW], v[CW];

	/* Each colour of `row` at an even index fills a whole 2x2 block. */
	for (int x = 0; x < W; x++)
		memcpy(pairs + 3 * x, row + 3 * (x & ~1), 3);
	t.rgb2yuv.to_yuv420[V4LC_RGB24](pairs, pairs, y0, y1, u, v, W, k);
	for (int x = 0; x < W; x++) {
		const uint8_t *p = pairs + 3 * x;
		double rgb[3];

		exact_rgb(m, y0[x], u[x / 2], v[x / 2], rgb);
		for (int c = 0; c < 3; c++) {
			double err = fabs(rgb[c] - p[c]);

			st->rt_sum += err;
			st->rt_n++;
			if (err > st->rt_max)
				st->rt_max = err;
			CHECK_HOT(
				err <= 2.0,
				"%s round trip (RGB %d,%d,%d) -> YUV %d,%d,%d -> %.3f,%.3f,%.3f",
				m->name, p[0], p[1], p[2], y0[x], u[x / 2],
				v[x / 2], rgb[0], rgb[1], rgb[2]);
		}
	}
}

static uint32_t rng = 0x12345678u;

static uint32_t rnd(void)
{
	return xorshift32(&rng);
}

/* Collects colours into rows of W pixels and checks each full row. */
struct feeder {
	const struct matrix *m;
	const struct v4lc_rgb2yuv *k;
	struct stats *st;
	uint8_t row[3 * W];
	int n;
};

static void flush(struct feeder *f)
{
	if (!f->n)
		return;
	/* Pad a partial row with the last colour. */
	for (int x = f->n; x < W; x++)
		memcpy(f->row + 3 * x, f->row + 3 * (f->n - 1), 3);
	/* Uniform 2x2 blocks: the kernel's chroma of the colour itself. */
	round_trip(f->m, f->k, f->row, f->st);
	{
		uint8_t blocks[3 * W];

		for (int x = 0; x < W; x++)
			memcpy(blocks + 3 * x, f->row + 3 * (x & ~1), 3);
		check_rows(f->m, f->k, blocks, blocks, 0, f->st);
	}
	/* Mixed blocks: the colours as they come, rows paired. */
	{
		uint8_t rev[3 * W];

		for (int x = 0; x < W; x++)
			memcpy(rev + 3 * x, f->row + 3 * (W - 1 - x), 3);
		check_rows(f->m, f->k, f->row, rev, 0, f->st);
		check_rows(f->m, f->k, f->row, NULL, 1, f->st);
	}
	f->n = 0;
}

static void feed(struct feeder *f, int r, int g, int b)
{
	f->row[3 * f->n] = (uint8_t)r;
	f->row[3 * f->n + 1] = (uint8_t)g;
	f->row[3 * f->n + 2] = (uint8_t)b;
	if (++f->n == W)
		flush(f);
}

int main(void)
{
	v4lc_dsp_init(&t, 0);

	for (size_t mi = 0; mi < NMATRICES; mi++) {
		const struct matrix *m = &matrices[mi];
		struct v4lc_rgb2yuv k;
		struct stats st;
		struct feeder f;

		memset(&st, 0, sizeof(st));
		v4lc_rgb2yuv_init(&k, &m->cm);
		f.m = m;
		f.k = &k;
		f.st = &st;
		f.n = 0;

		/* Grey ramp, primaries and secondaries at every level. */
		for (int i = 0; i < 256; i++) {
			feed(&f, i, i, i);
			feed(&f, i, 0, 0);
			feed(&f, 0, i, 0);
			feed(&f, 0, 0, i);
			feed(&f, i, i, 0);
			feed(&f, 0, i, i);
			feed(&f, i, 0, i);
			feed(&f, 255, i, i);
			feed(&f, i, 255, i);
			feed(&f, i, i, 255);
		}
		/* Extremes: the corners of the cube, then every R, G, B in
		 * steps of 5 (0, 5, ..., 255). */
		for (int c = 0; c < 8; c++)
			feed(&f, c & 1 ? 255 : 0, c & 2 ? 255 : 0,
			     c & 4 ? 255 : 0);
		for (int r = 0; r <= 255; r += 5)
			for (int g = 0; g <= 255; g += 5)
				for (int b = 0; b <= 255; b += 5)
					feed(&f, r, g, b);
		/* Random colours. */
		for (int i = 0; i < 100000; i++) {
			uint32_t x = rnd();

			feed(&f, x & 255, (x >> 8) & 255, (x >> 16) & 255);
		}
		flush(&f);

		for (int c = 0; c < 3; c++)
			printf("%-16s %s: max abs error %.3f, mean %.4f (%ld samples)\n",
			       m->name, cname[c], st.max[c],
			       st.sum[c] / st.n[c], st.n[c]);
		printf("%-16s round trip RGB: max abs error %.3f, mean %.4f\n",
		       m->name, st.rt_max, st.rt_sum / st.rt_n);
	}
	if (failures)
		fprintf(stderr, "accuracy-rgb2yuv: %d failures\n", failures);
	else
		printf("accuracy-rgb2yuv: luma and chroma within one level, round trip within two\n");
	return failures ? 1 : 0;
}
