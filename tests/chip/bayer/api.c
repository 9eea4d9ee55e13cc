/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chip Bayer sources through OUR public API: every destination (RGB24,
 * BGR24, YU12, YV12) of a compressed frame equals the same destination of
 * the 8-bit Bayer that the decoder gives on its own (so the frame really
 * goes decoder -> Bayer source); short frames fail with EPIPE, corrupt ones
 * with EAGAIN, as the decoder says; garbage never crashes (run under ASan).
 * --bench: 640x480 to RGB24, ours against the distribution's library
 * (MPix/s; "n/a" where it cannot be loaded beside ours).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4lconvert.h>

#include "../../common/fakedev.h"
#include "../../common/origlib.h"
#include "libv4lconvert/chipbayer.h"

#include "vcam/chipenc_bayer.h"
#include "../../common/check.h"

static const struct fmt {
	const char *name;
	uint32_t fourcc, bayer;
	v4lc_chipbayer_fn *dec;
	v4lc_chipenc_bayer_fn *enc;
} fmts[] = {
	{ "S910", V4L2_PIX_FMT_SN9C10X, V4LC_S910_ORDER, v4lc_decode_s910,
	  v4lc_chipenc_s910 },
	{ "P207", V4L2_PIX_FMT_PAC207, V4LC_P207_ORDER, v4lc_decode_p207,
	  v4lc_chipenc_p207 },
	{ "M310", V4L2_PIX_FMT_MR97310A, V4LC_M310_ORDER, v4lc_decode_m310,
	  v4lc_chipenc_m310 },
	{ "SONX", V4L2_PIX_FMT_SN9C2028, V4LC_SONX_ORDER, v4lc_decode_sonx,
	  v4lc_chipenc_sonx },
	{ "905C", V4L2_PIX_FMT_SQ905C, V4LC_905C_ORDER, v4lc_decode_905c,
	  v4lc_chipenc_905c },
	{ "S680", V4L2_PIX_FMT_STV0680, V4LC_S680_ORDER, v4lc_decode_s680,
	  v4lc_chipenc_s680 },
	{ "S561", V4L2_PIX_FMT_SPCA561, V4LC_S561_ORDER, v4lc_decode_s561,
	  v4lc_chipenc_s561 },
};
#define NF (int)(sizeof(fmts) / sizeof(fmts[0]))

static const uint32_t dsts[4] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				  V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

static uint32_t seed = 77;

static uint32_t rnd(void)
{
	return v4lc_chipenc_rng(&seed);
}

static int conv(struct v4lconvert_data *cv,
		int (*fn)(struct v4lconvert_data *, const struct v4l2_format *,
			  const struct v4l2_format *, unsigned char *, int,
			  unsigned char *, int),
		uint32_t fourcc, int w, int h, const uint8_t *src, size_t n,
		uint32_t dst_fourcc, uint8_t *dst, size_t dn)
{
	struct v4l2_format sf, df;

	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = fourcc;
	sf.fmt.pix.bytesperline = (uint32_t)w;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	df.fmt.pix.pixelformat = dst_fourcc;
	df.fmt.pix.bytesperline =
		(uint32_t)(dst_fourcc == V4L2_PIX_FMT_RGB24 ||
					   dst_fourcc == V4L2_PIX_FMT_BGR24
				   ? 3 * w
				   : w);
	errno = 0;
	if (fn(cv, &sf, &df, (unsigned char *)src, (int)n, dst, (int)dn) < 0)
		return errno ? errno : -1;
	return 0;
}

static size_t dst_size(uint32_t f, int w, int h)
{
	if (f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24)
		return (size_t)3 * w * h;
	return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

static struct fakedev fake;

static struct v4lconvert_data *make_ours(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.driver = "fakedev";
	fake.n_formats = NF + 1;
	fake.formats[0].fourcc = V4L2_PIX_FMT_SBGGR8;
	for (int i = 0; i < NF; i++)
		fake.formats[i + 1].fourcc = fmts[i].fourcc;
	for (int i = 0; i <= NF; i++) {
		fake.formats[i].n_sizes = 1;
		fake.formats[i].sizes[0][0] = 640;
		fake.formats[i].sizes[0][1] = 480;
	}
	return v4lconvert_create_with_dev_ops(3, &fake, &fakedev_ops);
}

static const int sizes[][2] = { { 2, 2 },     { 16, 4 },    { 34, 6 },
				{ 160, 120 }, { 176, 144 }, { 640, 480 } };

static void image(uint8_t *img, int w, int h)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			img[(size_t)y * w + x] = (uint8_t)v4lc_chipenc_clamp(
				100 + x / 3 - y / 2 + ((x & 1) ? 30 : 0) +
				((y & 1) ? -20 : 0) + (int)(rnd() % 9));
}

static void test_format(struct v4lconvert_data *cv, const struct fmt *f)
{
	int before = failures;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		int w = sizes[si][0], h = sizes[si][1];
		size_t px = (size_t)w * h, cap = 4 * px + 4096;
		uint8_t *img = malloc(px), *frame = malloc(cap),
			*bay = malloc(px);
		uint8_t *a = malloc(3 * px + 16), *b = malloc(3 * px + 16);

		image(img, w, h);
		for (int t = 0; t < 12; t++) {
			size_t n = f->enc(img, w, h, frame, cap, rnd(), NULL);
			const char *what = "valid";
			uint8_t *in;
			int dret, eret;

			if (n > cap)
				n = cap;
			if (t >= 4 && t < 8) {
				n = t == 4 ? 0 : rnd() % (n + 1);
				what = "truncated";
			} else if (t >= 8) {
				for (size_t i = 0; i < n; i++)
					frame[i] = (uint8_t)(rnd() >> 24);
				if (t >= 10)
					n = rnd() % (n + 1);
				what = "random";
			}
			/* exactly n bytes, so that ASan sees any over-read */
			in = malloc(n ? n : 1);
			memcpy(in, frame, n);
			dret = f->dec(in, n, bay, w, h, NULL, 0);
			eret = dret == -EPIPE    ? EPIPE
			       : dret == -EAGAIN ? EAGAIN
						 : 0;
			if (t < 4)
				CHECK(dret == 0, "%s %dx%d: valid frame: %d",
				      f->name, w, h, dret);
			for (int d = 0; d < 4; d++) {
				size_t dn = dst_size(dsts[d], w, h);
				int r1 = conv(cv, v4lconvert_convert, f->fourcc,
					      w, h, in, n, dsts[d], a, dn);

				CHECK(r1 == eret,
				      "%s %dx%d %s dst %d: errno %d, "
				      "want %d",
				      f->name, w, h, what, d, r1, eret);
				if (eret == EAGAIN || r1 != eret)
					continue;
				CHECK(!conv(cv, v4lconvert_convert, f->bayer, w,
					    h, bay, px, dsts[d], b, dn),
				      "Bayer conversion failed");
				CHECK(!memcmp(a, b, dn),
				      "%s %dx%d %s dst %d: "
				      "differs from decoder + Bayer",
				      f->name, w, h, what, d);
			}
			free(in);
		}
		free(img);
		free(frame);
		free(bay);
		free(a);
		free(b);
	}
	printf("%s: %s\n", f->name, failures == before ? "ok" : "FAILED");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
mpix(struct v4lconvert_data *cv,
     int (*fn)(struct v4lconvert_data *, const struct v4l2_format *,
	       const struct v4l2_format *, unsigned char *, int,
	       unsigned char *, int),
     const struct fmt *f, const uint8_t *frame, size_t n, uint8_t *out)
{
	int w = 640, h = 480;
	double best = 1e9;

	if (conv(cv, fn, f->fourcc, w, h, frame, n, V4L2_PIX_FMT_RGB24, out,
		 (size_t)3 * w * h)) {
		printf("%s: conversion fails\n", f->name);
		return 0;
	}
	for (int rep = 0; rep < 7; rep++) {
		double t = now();

		for (int i = 0; i < 20; i++)
			conv(cv, fn, f->fourcc, w, h, frame, n,
			     V4L2_PIX_FMT_RGB24, out, (size_t)3 * w * h);
		t = (now() - t) / 20;
		if (t < best)
			best = t;
	}
	return w * h / best / 1e6;
}

static void bench(struct v4lconvert_data *cv)
{
	struct origlib o;
	struct v4lconvert_data *orig =
		origlib_open_plain(&o,
				   ORIGLIB_LINKED_WITH_OURS | ORIGLIB_QUIET);
	int w = 640, h = 480;
	size_t px = (size_t)w * h;
	uint8_t *img = malloc(px), *frame = malloc(4 * px),
		*out = malloc(3 * px);

	image(img, w, h);
	for (int i = 0; i < NF; i++) {
		size_t n = fmts[i].enc(img, w, h, frame, 4 * px, 1, NULL);
		double ours =
			mpix(cv, v4lconvert_convert, &fmts[i], frame, n, out);

		if (orig)
			printf("%s 640x480 -> RGB24: ours %.0f MPix/s, original "
			       "%.0f MPix/s\n",
			       fmts[i].name, ours,
			       mpix(orig, o.convert, &fmts[i], frame, n, out));
		else
			printf("%s 640x480 -> RGB24: ours %.0f MPix/s, original "
			       "n/a\n",
			       fmts[i].name, ours);
	}
	if (orig) {
		o.destroy(orig);
		origlib_close(&o);
	}
	free(img);
	free(frame);
	free(out);
}

int main(int argc, char **argv)
{
	struct v4lconvert_data *cv = make_ours();

	if (!cv) {
		printf("no instance\n");
		return 1;
	}
	if (argc > 1 && !strcmp(argv[1], "--bench"))
		bench(cv);
	else
		for (int i = 0; i < NF; i++)
			test_format(cv, &fmts[i]);
	v4lconvert_destroy(cv);
	if (failures)
		printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
