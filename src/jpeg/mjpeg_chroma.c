/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chroma resampling to 4:2:0 by rounded averages, shared by the YUV paths
 * of the MJPEG decoder (mjpeg_libjpeg.c, mjpeg_scaled.c): see mjpeg.h for
 * what each sampling becomes.
 */
#include "jpeg/mjpeg_priv.h"

#include <string.h>

/* 2x2 blocks of a full-width pair of rows; n output samples from sw input
 * samples (sw == 2n or 2n - 1). */
static void avg_2x2(const uint8_t *restrict r0, const uint8_t *restrict r1,
		    uint8_t *restrict dst, int n, int sw)
{
	int full = sw / 2;

	for (int x = 0; x < full; x++)
		dst[x] = (uint8_t)((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] +
				    r1[2 * x + 1] + 2) >>
				   2);
	if (full < n)
		dst[full] = (uint8_t)((r0[2 * full] + r1[2 * full] + 1) >> 1);
}

/* Column pairs of one row. */
static void avg_cols(const uint8_t *restrict r0, uint8_t *restrict dst, int n,
		     int sw)
{
	int full = sw / 2;

	for (int x = 0; x < full; x++)
		dst[x] = (uint8_t)((r0[2 * x] + r0[2 * x + 1] + 1) >> 1);
	if (full < n)
		dst[full] = r0[2 * full];
}

/* 4:1:1: each source sample covers two output samples; average row pairs. */
static void avg_rows_dup(const uint8_t *restrict r0, const uint8_t *restrict r1,
			 uint8_t *restrict dst, int n)
{
	for (int x = 0; x < n; x++)
		dst[x] = (uint8_t)((r0[x / 2] + r1[x / 2] + 1) >> 1);
}

void v4lc_jpeg_chroma_band(const struct v4lc_chroma_geom *g, const uint8_t *src,
			   size_t ss, uint8_t *dst, int valid)
{
	int cw = g->cw;

	if (g->rv == 2) { /* rows already halved */
		for (int k = 0; k < valid; k++, src += ss, dst += cw) {
			if (g->rh == 2)
				memcpy(dst, src, (size_t)cw);
			else
				avg_cols(src, dst, cw, g->sw);
		}
		return;
	}
	for (int k = 0; 2 * k < valid; k++, dst += cw) {
		const uint8_t *r0 = src + 2 * (size_t)k * ss;
		const uint8_t *r1 = 2 * k + 1 < valid ? r0 + ss : r0;

		if (g->rh == 2)
			g->avg(r0, r1, dst, cw);
		else if (g->rh == 1)
			avg_2x2(r0, r1, dst, cw, g->sw);
		else
			avg_rows_dup(r0, r1, dst, cw);
	}
}
