/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sharpness measure of the autofocus (measure.h). */
#include "focus/measure.h"

static double variance(int64_t sum, uint64_t sumsq, uint64_t n)
{
	double mean;

	if (!n)
		return 0;
	mean = (double)sum / (double)n;
	return (double)sumsq / (double)n - mean * mean;
}

double v4lc_focus_measure(const struct v4lc_dsp *dsp, const uint8_t *luma,
			  size_t stride, int w, int h)
{
	int x0 = w / 4, rw = w * 3 / 4 - x0, y0 = h / 4, y1 = h * 3 / 4;
	int64_t sum = 0;
	uint64_t sumsq = 0;

	if (rw < 3 || y1 - y0 < 1 || y0 < 1)
		return 0;
	for (int y = y0; y < y1; y++) {
		const uint8_t *cur = luma + (size_t)y * stride + (size_t)x0;

		dsp->focus.laplacian(cur - stride, cur, cur + stride, rw, &sum,
				     &sumsq);
	}
	return variance(sum, sumsq, (uint64_t)(rw - 2) * (uint64_t)(y1 - y0));
}

static void gather(const uint8_t *src, uint8_t *dst, int n)
{
	for (int i = 0; i < n; i++)
		dst[i] = src[2 * i];
}

double v4lc_focus_measure_packed(const struct v4lc_dsp *dsp,
				 const uint8_t *frame, size_t stride, int w,
				 int h, int first, uint8_t *rows)
{
	int x0 = w / 4, rw = w * 3 / 4 - x0, y0 = h / 4, y1 = h * 3 / 4;
	uint8_t *ring[3] = { rows, rows + rw, rows + 2 * (size_t)rw };
	int64_t sum = 0;
	uint64_t sumsq = 0;

	if (rw < 3 || y1 - y0 < 1 || y0 < 1)
		return 0;
	/* ring[k] holds luma row y - 1 + k of the centre columns. */
	for (int k = 0; k < 2; k++)
		gather(frame + (size_t)(y0 - 1 + k) * stride + 2 * (size_t)x0 +
			       (size_t)first,
		       ring[k], rw);
	for (int y = y0; y < y1; y++) {
		uint8_t *t;

		gather(frame + (size_t)(y + 1) * stride + 2 * (size_t)x0 +
			       (size_t)first,
		       ring[2], rw);
		dsp->focus.laplacian(ring[0], ring[1], ring[2], rw, &sum,
				     &sumsq);
		t = ring[0];
		ring[0] = ring[1];
		ring[1] = ring[2];
		ring[2] = t;
	}
	return variance(sum, sumsq, (uint64_t)(rw - 2) * (uint64_t)(y1 - y0));
}
