/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our processing next to the original's (the distribution's libv4lconvert,
 * tests/common/origlib), on 8-bit Bayer frames, with the emulated white
 * balance and gamma controls enabled in both (LIBV4LCONTROL_CONTROLS=9):
 *
 * - gamma: frames of one constant value v come out of any demosaic as v
 *   mapped by the gamma table, so both libraries' tables can be read off
 *   and compared with round(255 * (v / 255) ^ (1000 / gamma));
 * - white balance: a frame with one level per Bayer colour (a colour
 *   cast) comes out as the three mapped levels; after both have settled,
 *   the three output levels of both libraries are printed and compared;
 * - the cost of each filter in ns per pixel, ours and the original's in
 *   the same run (printed; the median of 5 timed runs).
 * Differences are reported; the test fails only on ours being wrong or on
 * differences beyond the documented ones (see the README of tests/proc).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/origlib.h"
#include "../common/check.h"

static struct origlib o;
static struct fakedev dev;

/* The original's device: a capture device answering QUERYCAP alone. */
static int orig_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	(void)priv;
	(void)fd;
	if (req == VIDIOC_QUERYCAP) {
		struct v4l2_capability *cap = arg;

		memset(cap, 0, sizeof(*cap));
		snprintf((char *)cap->driver, sizeof(cap->driver), "v4lc-test");
		/* origlib_close removes the shm objects of this bus and card */
		snprintf((char *)cap->card, sizeof(cap->card), "v4lc-origlib");
		memcpy(cap->bus_info, o.fake_bus, sizeof(cap->bus_info));
		cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
		cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
		return 0;
	}
	errno = req == VIDIOC_ENUM_FMT || req == VIDIOC_QUERYCTRL ||
				req == VIDIOC_ENUM_FRAMESIZES
			? EINVAL
			: ENOTTY;
	return -1;
}

static const struct libv4l_dev_ops orig_ops = { .ioctl = orig_ioctl };

struct lib {
	const char *name;
	struct v4lconvert_data *cv;
	int (*convert)(struct v4lconvert_data *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);
	int (*s_ctrl)(struct v4lconvert_data *, void *);
};

static int set(struct lib *l, uint32_t id, int32_t v)
{
	struct v4l2_control c = { .id = id, .value = v };

	return l->s_ctrl(l->cv, &c);
}

static struct v4l2_format fmt(uint32_t fourcc, int w, int h, int bpp)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = (uint32_t)w;
	f.fmt.pix.height = (uint32_t)h;
	f.fmt.pix.bytesperline = (uint32_t)(w * bpp);
	f.fmt.pix.sizeimage = (uint32_t)(w * h * bpp);
	return f;
}

static int conv(struct lib *l, uint32_t sf, int sbpp, uint8_t *src, uint32_t df,
		int dbpp, uint8_t *dst, int w, int h)
{
	struct v4l2_format s = fmt(sf, w, h, sbpp), d = fmt(df, w, h, dbpp);

	if (df == V4L2_PIX_FMT_YUV420) {
		d.fmt.pix.bytesperline = (uint32_t)w;
		d.fmt.pix.sizeimage = (uint32_t)(w * h * 3 / 2);
		return l->convert(l->cv, &s, &d, src, w * h * sbpp, dst,
				  w * h * 3 / 2);
	}
	return l->convert(l->cv, &s, &d, src, w * h * sbpp, dst, w * h * dbpp);
}

/* Gamma tables read off constant frames. */
static void gamma_tables(struct lib *l, int gamma, uint8_t table[256])
{
	enum { S = 16 };
	uint8_t raw[S * S], out[S * S * 3];

	set(l, V4L2_CID_GAMMA, gamma);
	for (int v = 0; v < 256; v++) {
		memset(raw, v, sizeof(raw));
		conv(l, V4L2_PIX_FMT_SBGGR8, 1, raw, V4L2_PIX_FMT_RGB24, 3, out,
		     S, S);
		table[v] = out[(S / 2 * S + S / 2) * 3 + 1];
	}
	set(l, V4L2_CID_GAMMA, 1000);
}

static void compare_gamma(struct lib *ours, struct lib *orig)
{
	static const int gammas[] = { 500, 1500, 2200, 3000 };

	for (int g = 0; g < 4; g++) {
		uint8_t a[256], b[256];
		int da = 0, db = 0, dab = 0, worst = 0, dfloor = 0;

		gamma_tables(ours, gammas[g], a);
		gamma_tables(orig, gammas[g], b);
		for (int v = 0; v < 256; v++) {
			int ref = (int)lround(
				255.0 * pow(v / 255.0, 1000.0 / gammas[g]));

			dfloor += b[v] !=
				  (int)floor(255.0 * pow(v / 255.0,
							 1000.0 / gammas[g]));
			da += a[v] != ref;
			db += b[v] != ref;
			dab += a[v] != b[v];
			worst = abs(a[v] - b[v]) > worst ? abs(a[v] - b[v])
							 : worst;
		}
		printf("gamma %4d: ours %d entries off the formula, original %d "
		       "(%d off it truncated); ours vs original: %d differ, by "
		       "%d at most\n",
		       gammas[g], da, db, dfloor, dab, worst);
		CHECK(da == 0, "our gamma table off the formula");
		CHECK(worst <= 1, "gamma %d: the original differs by %d",
		      gammas[g], worst);
	}
}

/* One level per Bayer colour: R at odd/odd, B at even/even (BGGR). */
static void cast_frame(uint8_t *raw, int w, int h, int r, int g, int b)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			raw[y * w + x] =
				(uint8_t)(((y & 1) && (x & 1))     ? r
					  : (!(y & 1) && !(x & 1)) ? b
								   : g);
}

static void compare_wb(struct lib *ours, struct lib *orig)
{
	enum { S = 64 };
	static const int casts[3][3] = { { 150, 100, 60 },
					 { 60, 110, 170 },
					 { 120, 120, 40 } };
	uint8_t raw[S * S], copy[S * S], out[2][S * S * 3];
	struct lib *l[2] = { ours, orig };

	for (int k = 0; k < 2; k++)
		set(l[k], V4L2_CID_AUTO_WHITE_BALANCE, 1);
	for (int c = 0; c < 3; c++) {
		const uint8_t *p[2] = { out[0] + (S / 2 * S + S / 2) * 3,
					out[1] + (S / 2 * S + S / 2) * 3 };

		cast_frame(raw, S, S, casts[c][0], casts[c][1], casts[c][2]);
		/* long enough for both to settle */
		for (int f = 0; f < 60; f++)
			for (int k = 0; k < 2; k++) {
				/* the original processes Bayer in the source
				 * buffer: each gets a fresh copy */
				memcpy(copy, raw, sizeof(raw));
				CHECK(conv(l[k], V4L2_PIX_FMT_SBGGR8, 1, copy,
					   V4L2_PIX_FMT_RGB24, 3, out[k], S,
					   S) == S * S * 3,
				      "%s: convert", l[k]->name);
			}
		printf("white balance of (%d %d %d): ours (%d %d %d), original "
		       "(%d %d %d)\n",
		       casts[c][0], casts[c][1], casts[c][2], p[0][0], p[0][1],
		       p[0][2], p[1][0], p[1][1], p[1][2]);
		CHECK(abs(p[0][0] - p[0][1]) <= 2 &&
			      abs(p[0][2] - p[0][1]) <= 2,
		      "ours is grey");
		for (int ch = 0; ch < 3; ch++)
			CHECK(abs(p[0][ch] - p[1][ch]) <= 6,
			      "channel %d: ours %d, original %d", ch, p[0][ch],
			      p[1][ch]);
	}
	for (int k = 0; k < 2; k++)
		set(l[k], V4L2_CID_AUTO_WHITE_BALANCE, 0);
}

/* Does a library write into the source frame? (The original processes
 * Bayer in place, in the application's or driver's buffer.) */
static void source_untouched(struct lib *l, int expect_untouched)
{
	enum { S = 32 };
	uint8_t raw[S * S], keep[S * S], out[S * S * 3];

	for (int i = 0; i < S * S; i++)
		raw[i] = (uint8_t)(i * 13);
	memcpy(keep, raw, sizeof(raw));
	set(l, V4L2_CID_GAMMA, 2000);
	conv(l, V4L2_PIX_FMT_SBGGR8, 1, raw, V4L2_PIX_FMT_RGB24, 3, out, S, S);
	set(l, V4L2_CID_GAMMA, 1000);
	printf("%s: the Bayer source frame is %s\n", l->name,
	       memcmp(raw, keep, sizeof(raw)) ? "modified" : "left untouched");
	if (expect_untouched)
		CHECK(!memcmp(raw, keep, sizeof(raw)), "%s: source written",
		      l->name);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ns per pixel of one conversion: median of 5 runs of about 20 ms. */
static double cost(struct lib *l, uint32_t sf, int sbpp, uint8_t *src,
		   uint32_t df, int dbpp, uint8_t *dst, int w, int h)
{
	double r[5];

	for (int run = 0; run < 5; run++) {
		double t0 = now(), t1;
		int n = 0;

		do {
			if (conv(l, sf, sbpp, src, df, dbpp, dst, w, h) < 0)
				return -1;
			n++;
			t1 = now();
		} while (t1 - t0 < 0.02);
		r[run] = (t1 - t0) * 1e9 / ((double)n * w * h);
	}
	qsort(r, 5, sizeof(r[0]), cmpd);
	return r[2];
}

static void timing(struct lib *ours, struct lib *orig)
{
	enum { W = 640, H = 480 };
	static uint8_t src[W * H * 3], dst[W * H * 3];
	static const struct {
		const char *name;
		uint32_t sf, df;
		int sbpp, dbpp;
	} paths[] = {
		{ "BA81 -> RGB3", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_RGB24, 1,
		  3 },
		{ "RGB3 -> RGB3", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 3,
		  3 },
		{ "YUYV -> RGB3", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, 2, 3 },
		{ "YUYV -> YU12", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420, 2,
		  1 },
	};
	static const struct {
		const char *name;
		int awb, gamma;
	} filters[] = {
		{ "none", 0, 1000 },
		{ "gamma", 0, 1500 },
		{ "wb", 1, 1000 },
		{ "wb+gamma", 1, 1500 },
	};
	struct lib *l[2] = { ours, orig };

	for (int i = 0; i < W * H * 3; i++)
		src[i] = (uint8_t)(i * 7 + (i / 1920) * 3);
	printf("\ncost in ns/pixel at %dx%d (filter cost = total - none)\n", W,
	       H);
	printf("%-14s %-9s %8s %8s\n", "path", "filter", "ours", "original");
	for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		for (size_t f = 0; f < sizeof(filters) / sizeof(filters[0]);
		     f++) {
			double t[2];

			for (int k = 0; k < 2; k++) {
				set(l[k], V4L2_CID_AUTO_WHITE_BALANCE,
				    filters[f].awb);
				set(l[k], V4L2_CID_GAMMA, filters[f].gamma);
				t[k] = cost(l[k], paths[p].sf, paths[p].sbpp,
					    src, paths[p].df, paths[p].dbpp,
					    dst, W, H);
			}
			printf("%-14s %-9s %8.2f %8.2f\n", paths[p].name,
			       filters[f].name, t[0], t[1]);
		}
	}
	for (int k = 0; k < 2; k++) {
		set(l[k], V4L2_CID_AUTO_WHITE_BALANCE, 0);
		set(l[k], V4L2_CID_GAMMA, 1000);
	}
}

int main(int argc, char **argv)
{
	struct lib ours = { "ours", NULL, v4lconvert_convert,
			    v4lconvert_vidioc_s_ctrl };
	struct lib orig = { "original", NULL, NULL, NULL };

	if (origlib_open(&o, 1))
		return 77;
	snprintf(o.fake_bus, sizeof(o.fake_bus), "platform:v4lc-orig-%ld",
		 (long)getpid());
	/* white balance (bit 0) and gamma (bit 3) in both */
	setenv("LIBV4LCONTROL_CONTROLS", "9", 1);
	unsetenv("LIBV4LCONTROL_FLAGS");
	orig.cv = o.create_with_dev_ops(-1, &o, &orig_ops);
	orig.convert = o.convert;
	orig.s_ctrl = o.s_ctrl;
	memset(&dev, 0, sizeof(dev));
	dev.driver = "proccam";
	dev.n_formats = 1;
	dev.formats[0].fourcc = V4L2_PIX_FMT_SBGGR8;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = 640;
	dev.formats[0].sizes[0][1] = 480;
	ours.cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	CHECK(orig.cv && ours.cv, "instances");
	if (orig.cv && ours.cv) {
		CHECK(set(&orig, V4L2_CID_GAMMA, 1500) == 0 &&
			      set(&orig, V4L2_CID_GAMMA, 1000) == 0,
		      "the original has the emulated gamma");
		source_untouched(&ours, 1);
		source_untouched(&orig, 0);
		compare_gamma(&ours, &orig);
		compare_wb(&ours, &orig);
		if (argc > 1 && !strcmp(argv[1], "--timing"))
			timing(&ours, &orig);
	}
	if (orig.cv)
		o.destroy(orig.cv);
	v4lconvert_destroy(ours.cv);
	origlib_close(&o);
	printf("proc-orig: %d failures\n", failures);
	return failures != 0;
}
