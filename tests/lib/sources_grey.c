/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Luma-only sources through the public API, against per-pixel references
 * from the V4L2 layouts, and against the distribution's libv4lconvert.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources_common.h"
#include "../common/check.h"
#include "../common/fourcc.h"

static const uint32_t greys[] = {
	V4L2_PIX_FMT_GREY,   V4L2_PIX_FMT_Y4,       V4L2_PIX_FMT_Y6,
	V4L2_PIX_FMT_Y10,    V4L2_PIX_FMT_Y12,      V4L2_PIX_FMT_Y16,
	V4L2_PIX_FMT_Y16_BE, V4L2_PIX_FMT_Y10BPACK,
};
#define NG (int)(sizeof(greys) / sizeof(greys[0]))

static size_t row_bytes(uint32_t fourcc, int w)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_GREY:
	case V4L2_PIX_FMT_Y4:
	case V4L2_PIX_FMT_Y6:
		return (size_t)w;
	case V4L2_PIX_FMT_Y10BPACK:
		return ((size_t)w * 10 + 7) / 8;
	default:
		return (size_t)w * 2;
	}
}

/* Bit `i` (0 = most significant of byte 0) of a bit-packed row. */
static unsigned bit_at(const uint8_t *row, size_t i)
{
	return row[i / 8] >> (7 - i % 8) & 1;
}

static void ref_pixel(uint32_t fourcc, uint32_t enc, const uint8_t *row, int x,
		      uint8_t rgb[3])
{
	unsigned v = 0;

	(void)enc;
	switch (fourcc) {
	case V4L2_PIX_FMT_Y10:
		v = (row[2 * x] + 256u * row[2 * x + 1]) / 4 % 256;
		break;
	case V4L2_PIX_FMT_Y12:
		v = (row[2 * x] + 256u * row[2 * x + 1]) / 16 % 256;
		break;
	case V4L2_PIX_FMT_Y16:
		v = row[2 * x + 1];
		break;
	case V4L2_PIX_FMT_Y16_BE:
		v = row[2 * x];
		break;
	case V4L2_PIX_FMT_Y10BPACK:
		/* The 10-bit sample starts at bit 10 x; keep its top 8 bits. */
		for (int b = 0; b < 8; b++)
			v = v * 2 + bit_at(row, (size_t)x * 10 + b);
		break;
	default: /* GREY, Y4, Y6: the byte as is */
		v = row[x];
		break;
	}
	rgb[0] = rgb[1] = rgb[2] = (uint8_t)v;
}

static void differential(struct v4lconvert_data *cv, struct orig *o)
{
	/* The formats the original handles; width a multiple of 4 for Y10B. */
	static const uint32_t both[] = {
		V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_Y4,     V4L2_PIX_FMT_Y6,
		V4L2_PIX_FMT_Y16,  V4L2_PIX_FMT_Y16_BE, V4L2_PIX_FMT_Y10BPACK
	};
	const int w = 64, h = 24;
	uint8_t *src = malloc((size_t)w * h * 2);
	uint8_t *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3);

	fill_random(src, (size_t)w * h * 2);
	for (size_t i = 0; i < sizeof(both) / sizeof(both[0]); i++)
		for (int d = 0; d < 4; d++) {
			size_t n = d < 2 ? (size_t)w * h * 3
					 : (size_t)w * h * 3 / 2;

			if (!run_both(cv, o, both[i], 0, w, h,
				      row_bytes(both[i], w), src, dst_fmts[d],
				      a, b))
				continue;
			CHECK(!memcmp(a, b, n),
			      "%s -> %s differs from the original",
			      FOURCC_STR(both[i]), FOURCC_STR(dst_fmts[d]));
		}
	free(src);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	struct v4lconvert_data *cv = make_ours(greys, NG);
	struct orig o;
	int bench_only = argc > 1 && !strcmp(argv[1], "--bench");

	if (!cv) {
		printf("FAIL: cannot create an instance\n");
		return 1;
	}
	if (!bench_only)
		for (int i = 0; i < NG; i++)
			test_format(cv, greys[i], 0, ref_pixel, row_bytes, 1,
				    0);
	if (orig_open(&o)) {
		if (bench_only) {
			bench_format(cv, &o, V4L2_PIX_FMT_GREY, 1280,
				     V4L2_PIX_FMT_RGB24);
			bench_format(cv, &o, V4L2_PIX_FMT_Y16, 2560,
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
