/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed RGB sources through the public API: RGB565 and the 32-bit
 * layouts, against a per-pixel reference written from the V4L2 tables,
 * and against the distribution's libv4lconvert.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources_common.h"
#include "../common/check.h"
#include "../common/fourcc.h"

/* Byte offsets of R, G, B in the 4 bytes of each 32-bit layout. */
static const struct {
	uint32_t fourcc;
	int r, g, b, in_original;
} rgb32[] = {
	{ V4L2_PIX_FMT_BGR32, 2, 1, 0, 1 },  /* B G R A */
	{ V4L2_PIX_FMT_ABGR32, 2, 1, 0, 1 }, /* B G R A */
	{ V4L2_PIX_FMT_XBGR32, 2, 1, 0, 1 }, /* B G R X */
	{ V4L2_PIX_FMT_RGB32, 1, 2, 3, 1 },  /* A R G B */
	{ V4L2_PIX_FMT_ARGB32, 1, 2, 3, 1 }, /* A R G B */
	{ V4L2_PIX_FMT_XRGB32, 1, 2, 3, 1 }, /* X R G B */
	{ V4L2_PIX_FMT_BGRA32, 3, 2, 1, 0 }, /* A B G R */
	{ V4L2_PIX_FMT_BGRX32, 3, 2, 1, 0 }, /* X B G R */
	{ V4L2_PIX_FMT_RGBA32, 0, 1, 2, 0 }, /* R G B A */
	{ V4L2_PIX_FMT_RGBX32, 0, 1, 2, 0 }, /* R G B X */
};
#define N32 (int)(sizeof(rgb32) / sizeof(rgb32[0]))

static size_t row_bytes(uint32_t fourcc, int w)
{
	return (size_t)w * (fourcc == V4L2_PIX_FMT_RGB565 ? 2 : 4);
}

static void ref_pixel(uint32_t fourcc, uint32_t enc, const uint8_t *row, int x,
		      uint8_t rgb[3])
{
	(void)enc;
	if (fourcc == V4L2_PIX_FMT_RGB565) {
		unsigned word = row[2 * x] + 256u * row[2 * x + 1];
		unsigned r5 = word / 2048, g6 = word / 32 % 64, b5 = word % 32;

		/* 5/6-bit to 8-bit by repeating the top bits below. */
		rgb[0] = (uint8_t)(r5 * 8 + r5 / 4);
		rgb[1] = (uint8_t)(g6 * 4 + g6 / 16);
		rgb[2] = (uint8_t)(b5 * 8 + b5 / 4);
		return;
	}
	for (int i = 0; i < N32; i++)
		if (rgb32[i].fourcc == fourcc) {
			rgb[0] = row[4 * x + rgb32[i].r];
			rgb[1] = row[4 * x + rgb32[i].g];
			rgb[2] = row[4 * x + rgb32[i].b];
			return;
		}
	rgb[0] = rgb[1] = rgb[2] = 0;
}

static void differential(struct v4lconvert_data *cv, struct orig *o)
{
	const int w = 64, h = 24;
	uint8_t *src = malloc((size_t)w * h * 4);
	uint8_t *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3);
	size_t n = (size_t)w * h * 3;

	fill_random(src, (size_t)w * h * 4);
	for (int d = 0; d < 2; d++) {
		/* 32-bit: identical. */
		for (int i = 0; i < N32; i++) {
			if (!rgb32[i].in_original)
				continue;
			if (!run_both(cv, o, rgb32[i].fourcc, 0, w, h,
				      (size_t)w * 4, src, dst_fmts[d], a, b))
				continue;
			CHECK(!memcmp(a, b, n),
			      "%s -> %s differs from the original",
			      FOURCC_STR(rgb32[i].fourcc),
			      FOURCC_STR(dst_fmts[d]));
		}
		/*
		 * RGB565: the original widens by plain shifts (31 -> 248), we by
		 * bit replication (31 -> 255, the exact v * 255 / 31 rounded):
		 * ours = theirs | theirs >> 5 (R, B) or >> 6 (G).
		 */
		if (run_both(cv, o, V4L2_PIX_FMT_RGB565, 0, w, h, (size_t)w * 2,
			     src, dst_fmts[d], a, b)) {
			int bad = 0, differ = 0;

			for (size_t i = 0; i < n; i++) {
				int g = i % 3 == 1;
				int want = b[i] | b[i] >> (g ? 6 : 5);

				bad += a[i] != want;
				differ += a[i] != b[i];
			}
			CHECK(!bad,
			      "RGB565 -> %s: %d bytes break ours = theirs | "
			      "theirs >> 5/6",
			      FOURCC_STR(dst_fmts[d]), bad);
			printf("RGB565 -> %s: %d of %zu bytes differ from the original "
			       "(bit replication vs plain shifts), relation holds\n",
			       FOURCC_STR(dst_fmts[d]), differ, n);
		}
	}
	free(src);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	uint32_t fourccs[N32 + 1];
	struct v4lconvert_data *cv;
	struct orig o;
	int bench_only = argc > 1 && !strcmp(argv[1], "--bench");

	fourccs[0] = V4L2_PIX_FMT_RGB565;
	for (int i = 0; i < N32; i++)
		fourccs[i + 1] = rgb32[i].fourcc;
	cv = make_ours(fourccs, N32 + 1);
	if (!cv) {
		printf("FAIL: cannot create an instance\n");
		return 1;
	}
	if (!bench_only) {
		for (int i = 0; i <= N32; i++)
			test_format(cv, fourccs[i], 0, ref_pixel, row_bytes, 0,
				    0);
	}
	if (orig_open(&o)) {
		if (bench_only) {
			bench_format(cv, &o, V4L2_PIX_FMT_RGB565, 1280 * 2,
				     V4L2_PIX_FMT_RGB24);
			bench_format(cv, &o, V4L2_PIX_FMT_XRGB32, 1280 * 4,
				     V4L2_PIX_FMT_RGB24);
		} else {
			differential(cv, &o);
		}
		orig_close(&o);
	}
	v4lconvert_destroy(cv);
	printf("%s: %d failure(s)\n", argv[0], failures);
	return failures != 0;
}
