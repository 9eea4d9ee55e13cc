/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Raw Bayer sources through the public API:
 *  - against an independent per-pixel model of the bilinear rule written in
 *    src/scalar/bayer.c (colour of each site from the order, every missing
 *    channel from the neighbours of that colour, mirrored edges), for all
 *    four orders, every depth and packing, odd sizes, padded strides, into
 *    RGB24/BGR24 exactly and YU12/YV12 within one level of BT.601 in double
 *    precision; short frames fail with EPIPE;
 *  - for plausibility against the distribution's libv4lconvert: a smooth
 *    synthetic colour image is mosaicked, demosaiced by both, and our mean
 *    error against the true image must be no worse than the original's.
 * --bench: SBGGR8 -> RGB24 / YUV420 at 1280x720, ours and the original.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources_common.h"
#include "../common/fakedev.h"
#include "../common/check.h"
#include "../common/fourcc.h"

enum { B8, P10, LE16 };

static const struct {
	uint32_t fourcc;
	int order; /* 0 BGGR, 1 GBRG, 2 GRBG, 3 RGGB */
	int kind, shift;
} fmts[] = {
	{ V4L2_PIX_FMT_SBGGR8, 0, B8, 0 },
	{ V4L2_PIX_FMT_SGBRG8, 1, B8, 0 },
	{ V4L2_PIX_FMT_SGRBG8, 2, B8, 0 },
	{ V4L2_PIX_FMT_SRGGB8, 3, B8, 0 },
	{ V4L2_PIX_FMT_SBGGR10P, 0, P10, 0 },
	{ V4L2_PIX_FMT_SGBRG10P, 1, P10, 0 },
	{ V4L2_PIX_FMT_SGRBG10P, 2, P10, 0 },
	{ V4L2_PIX_FMT_SRGGB10P, 3, P10, 0 },
	{ V4L2_PIX_FMT_SBGGR10, 0, LE16, 2 },
	{ V4L2_PIX_FMT_SGBRG10, 1, LE16, 2 },
	{ V4L2_PIX_FMT_SGRBG10, 2, LE16, 2 },
	{ V4L2_PIX_FMT_SRGGB10, 3, LE16, 2 },
	{ V4L2_PIX_FMT_SBGGR12, 0, LE16, 4 },
	{ V4L2_PIX_FMT_SGBRG12, 1, LE16, 4 },
	{ V4L2_PIX_FMT_SGRBG12, 2, LE16, 4 },
	{ V4L2_PIX_FMT_SRGGB12, 3, LE16, 4 },
	{ V4L2_PIX_FMT_SBGGR16, 0, LE16, 8 },
	{ V4L2_PIX_FMT_SGBRG16, 1, LE16, 8 },
	{ V4L2_PIX_FMT_SGRBG16, 2, LE16, 8 },
	{ V4L2_PIX_FMT_SRGGB16, 3, LE16, 8 },
};
#define NF (int)(sizeof(fmts) / sizeof(fmts[0]))

/* Channel sampled at (x, y): 0 R, 1 G, 2 B. */
static int site_colour(int order, int x, int y)
{
	/* The 2x2 cell of each order, row-major. */
	static const int cell[4][4] = {
		{ 2, 1, 1, 0 }, /* B G / G R */
		{ 1, 2, 0, 1 }, /* G B / R G */
		{ 1, 0, 2, 1 }, /* G R / B G */
		{ 0, 1, 1, 2 }, /* R G / G B */
	};

	return cell[order][(y & 1) * 2 + (x & 1)];
}

static size_t row_bytes(int i, int w)
{
	switch (fmts[i].kind) {
	case B8:
		return (size_t)w;
	case P10:
		return ((size_t)w * 5 + 3) / 4;
	default:
		return (size_t)w * 2;
	}
}

struct frame {
	int fi, w, h;
	size_t stride;
	const uint8_t *data;
};

/* The 8-bit sample at (x, y), coordinates already inside the frame. */
static int sample_at(const struct frame *f, int x, int y)
{
	const uint8_t *row = f->data + (size_t)y * f->stride;

	switch (fmts[f->fi].kind) {
	case B8:
		return row[x];
	case P10: /* the high byte of pixel x: byte x % 4 of group x / 4 */
		return row[(size_t)(x / 4) * 5 + x % 4];
	default:
		return ((row[2 * x] | row[2 * x + 1] << 8) >>
			fmts[f->fi].shift) &
		       255;
	}
}

/* Mirror an index into 0 .. n - 1 (row -1 = row 1, row n = row n - 2). */
static int fold(int j, int n)
{
	if (j < 0)
		j = -j;
	if (j > n - 1)
		j = 2 * (n - 1) - j;
	if (j < 0) /* n == 1 */
		j = 0;
	return j;
}

static int s(const struct frame *f, int x, int y)
{
	return sample_at(f, fold(x, f->w), fold(y, f->h));
}

/* Reference RGB of the whole frame, per pixel and per channel. */
static void reference(const struct frame *f, uint8_t *rgb)
{
	int order = fmts[f->fi].order;

	for (int y = 0; y < f->h; y++)
		for (int x = 0; x < f->w; x++) {
			int here = site_colour(order, x, y);
			uint8_t *p = rgb + 3 * ((size_t)y * f->w + x);

			for (int ch = 0; ch < 3; ch++) {
				int v;

				if (ch == here)
					v = s(f, x, y);
				else if (ch == 1) /* green at a red/blue site */
					v = (s(f, x - 1, y) + s(f, x + 1, y) +
					     s(f, x, y - 1) + s(f, x, y + 1) +
					     2) /
					    4;
				else if (here !=
					 1) /* red <-> blue: diagonals */
					v = (s(f, x - 1, y - 1) +
					     s(f, x + 1, y - 1) +
					     s(f, x - 1, y + 1) +
					     s(f, x + 1, y + 1) + 2) /
					    4;
				else if (site_colour(order, x + 1, y) == ch)
					v = (s(f, x - 1, y) + s(f, x + 1, y) +
					     1) /
					    2;
				else
					v = (s(f, x, y - 1) + s(f, x, y + 1) +
					     1) /
					    2;
				p[ch] = (uint8_t)v;
			}
		}
}

static const int sizes[][2] = { { 1, 1 },   { 2, 2 },  { 3, 3 },   { 5, 1 },
				{ 1, 6 },   { 2, 7 },  { 7, 5 },   { 16, 2 },
				{ 33, 17 }, { 64, 9 }, { 130, 3 }, { 203, 6 } };

static void test_bayer(struct v4lconvert_data *cv, int fi)
{
	uint32_t fourcc = fmts[fi].fourcc;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		int w = sizes[si][0], h = sizes[si][1];

		for (int pad = 0; pad < 3; pad++) {
			size_t minb = row_bytes(fi, w);
			/* pad 0: bytesperline 0 (minimal); 1: exact; 2: +13 */
			int bpl =
				pad == 0 ? 0 : (int)minb + (pad == 2 ? 13 : 0);
			size_t sstride = bpl ? (size_t)bpl : minb;
			size_t ssize = sstride * h;
			uint8_t *src = malloc(ssize);
			uint8_t *refrgb = malloc((size_t)w * h * 3);
			struct frame f = { fi, w, h, sstride, src };
			char what[96];

			fill_random(src, ssize);
			if (rnd() & 1) /* sometimes extreme values */
				for (size_t i = 0; i < ssize; i += 3)
					src[i] = (rnd() & 1) ? 0 : 255;
			reference(&f, refrgb);
			for (int d = 0; d < 4; d++) {
				uint32_t df_cc = dst_fmts[d];
				int is_rgb = d < 2;
				int dmin = is_rgb ? 3 * w : w;
				int ds = pad == 2 ? dmin + 7 : dmin;
				size_t dsize = dst_bytes(df_cc, w, h, ds);
				uint8_t *dst = malloc(dsize + 64);
				struct v4l2_format sf, df;
				int ret;

				memset(dst, 0xa5, dsize + 64);
				set_fmts(&sf, &df, fourcc, w, h, bpl, 0, df_cc,
					 pad == 2 ? ds : 0);
				ret = v4lconvert_convert(cv, &sf, &df, src,
							 (int)ssize, dst,
							 (int)dsize + 64);
				snprintf(what, sizeof(what),
					 "%s -> %s %dx%d pad %d",
					 FOURCC_STR(fourcc), FOURCC_STR(df_cc),
					 w, h, pad);
				CHECK(ret == (int)dsize,
				      "%s: returned %d (%s), want %zu", what,
				      ret, v4lconvert_get_error_message(cv),
				      dsize);
				for (size_t i = 0; i < 64; i++)
					if (dst[dsize + i] != 0xa5) {
						CHECK(0,
						      "%s: guard byte %zu written",
						      what, i);
						break;
					}
				if (ret == (int)dsize) {
					if (is_rgb)
						check_rgb(dst, ds, df_cc,
							  refrgb, w, h, 0,
							  what);
					else
						check_yuv(dst, ds, df_cc,
							  refrgb, w, h, 1.0,
							  what);
				}
				/* A short frame: one byte missing. */
				errno = 0;
				ret = v4lconvert_convert(cv, &sf, &df, src,
							 (int)ssize - 1, dst,
							 (int)dsize + 64);
				CHECK(ret == -1 && errno == EPIPE,
				      "%s: short frame gave %d errno %d", what,
				      ret, errno);
				free(dst);
			}
			free(src);
			free(refrgb);
		}
	}
}

/* A smooth colour image: gradients and slow waves in every channel. */
static void render(uint8_t *rgb, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double u = (double)x / w, v = (double)y / h;
			uint8_t *p = rgb + 3 * ((size_t)y * w + x);

			p[0] = (uint8_t)lround(128 +
					       100 * sin(50.0 * u + 20.0 * v));
			p[1] = (uint8_t)lround(128 +
					       90 * cos(40.0 * v - 30.0 * u));
			p[2] = (uint8_t)lround(40 + 180 * u * v);
		}
}

static double mean_error(const uint8_t *out, uint32_t dst_cc,
			 const uint8_t *truth, int w, int h)
{
	double sum = 0;

	for (size_t i = 0; i < (size_t)w * h; i++)
		for (int c = 0; c < 3; c++) {
			int oc = dst_cc == V4L2_PIX_FMT_BGR24 ? 2 - c : c;

			sum += abs(out[3 * i + oc] - truth[3 * i + c]);
		}
	return sum / (3.0 * w * h);
}

static void plausibility(struct v4lconvert_data *cv, struct orig *o)
{
	const int w = 320, h = 240;
	uint8_t *truth = malloc((size_t)w * h * 3),
		*raw = malloc((size_t)w * h);
	uint8_t *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3);

	render(truth, w, h);
	for (int fi = 0; fi < 4; fi++)
		for (int d = 0; d < 2; d++) {
			double ea, eb;

			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					raw[(size_t)y * w + x] = truth
						[3 * ((size_t)y * w + x) +
						 site_colour(fmts[fi].order, x,
							     y)];
			if (!run_both(cv, o, fmts[fi].fourcc, 0, w, h,
				      (size_t)w, raw, dst_fmts[d], a, b))
				continue;
			ea = mean_error(a, dst_fmts[d], truth, w, h);
			eb = mean_error(b, dst_fmts[d], truth, w, h);
			printf("%s -> %s: mean error vs the true image: ours %.3f, "
			       "original %.3f\n",
			       FOURCC_STR(fmts[fi].fourcc),
			       FOURCC_STR(dst_fmts[d]), ea, eb);
			CHECK(ea <= eb + 0.05,
			      "%s -> %s: ours %.3f worse than %.3f",
			      FOURCC_STR(fmts[fi].fourcc),
			      FOURCC_STR(dst_fmts[d]), ea, eb);
		}
	free(truth);
	free(raw);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	uint32_t fourccs[FAKEDEV_MAX_FORMATS];
	struct v4lconvert_data *cv;
	struct orig o;
	int bench_only = argc > 1 && !strcmp(argv[1], "--bench");

	for (int i = 0; i < FAKEDEV_MAX_FORMATS; i++)
		fourccs[i] = fmts[i].fourcc;
	cv = make_ours(fourccs, FAKEDEV_MAX_FORMATS);
	if (!cv) {
		printf("FAIL: cannot create an instance\n");
		return 1;
	}
	if (!bench_only)
		for (int i = 0; i < NF; i++)
			test_bayer(cv, i);
	if (orig_open(&o)) {
		if (bench_only) {
			bench_format(cv, &o, V4L2_PIX_FMT_SBGGR8, 1280,
				     V4L2_PIX_FMT_RGB24);
			bench_format(cv, &o, V4L2_PIX_FMT_SBGGR8, 1280,
				     V4L2_PIX_FMT_YUV420);
		} else {
			plausibility(cv, &o);
		}
		orig_close(&o);
	}
	v4lconvert_destroy(cv);
	printf("%s: %d failure(s)\n", argv[0], failures);
	return failures != 0;
}
