/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential test against the distribution's libv4lconvert (Debian
 * libv4lconvert0), loaded by absolute path with dlopen: this binary links no
 * libv4l (ours carries the same SONAME).
 *
 * (a) RGB24<->BGR24 and YUV420<->YVU420 are byte-identical with the original.
 * (b) Flips: the original flips only through its emulated HFLIP/VFLIP
 *     controls (enabled by LIBV4LCONTROL_CONTROLS, served by a fake device
 *     given through v4lconvert_create_with_dev_ops); its RGB24->RGB24 and
 *     YUV420->YUV420 hflip, vflip and 180 must equal v4lc_frame_transform.
 * (c) YUYV/UYVY/YUV420/NV12 -> RGB24 and RGB24 -> YUV420: both libraries
 *     against a double-precision BT.601 limited-range reference; ours must
 *     have the smaller mean absolute error and a max error of at most 1.
 *
 * Exits 77 (skip) when the distribution library is not installed.
 */
#include <linux/videodev2.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/origlib.h"
/* The report: a line per comparison (CHECK), only failures of the
 * conversions it needs (CHECK_HOT). */
#define CHECK_PRINT_PASSES
#include "../common/check.h"
#include "../common/fourcc.h"
#include "../common/rng.h"
#include "core/frame.h"

/* The original, and its instance with emulated HFLIP/VFLIP controls. */
static struct origlib orig;
static struct v4lconvert_data *odata;

static int load_original(void)
{
	int ret = origlib_open(&orig, 0);

	if (ret == -1)
		return 0; /* the reason is printed */
	if (ret) {
		printf("FAIL: %s is incomplete\n", orig.path);
		exit(1);
	}
	odata = origlib_create_flip(&orig);
	if (!odata) {
		printf("FAIL: v4lconvert_create_with_dev_ops failed\n");
		exit(1);
	}
	return 1;
}

static void unload_original(void)
{
	orig.destroy(odata);
	origlib_close(&orig);
}

/* ------------------------------------------------------------------ */

static size_t frame_size(uint32_t fourcc, int w, int h)
{
	return v4lc_frame_bytes(fourcc, w, h, 0);
}

static void v4l2_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = (uint32_t)w;
	f->fmt.pix.height = (uint32_t)h;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	f->fmt.pix.bytesperline = (uint32_t)v4lc_frame_min_stride(fourcc, w);
	f->fmt.pix.sizeimage = (uint32_t)frame_size(fourcc, w, h);
}

static int orig_convert(uint32_t sfc, uint32_t dfc, int w, int h, uint8_t *src,
			uint8_t *dst)
{
	struct v4l2_format sf, df;
	int ret;

	v4l2_fmt(&sf, sfc, w, h);
	v4l2_fmt(&df, dfc, w, h);
	ret = orig.convert(odata, &sf, &df, src, (int)frame_size(sfc, w, h),
			   dst, (int)frame_size(dfc, w, h));
	CHECK_HOT(ret == (int)frame_size(dfc, w, h),
		  "original %s->%s %dx%d returned %d (%s)", FOURCC_STR(sfc),
		  FOURCC_STR(dfc), w, h, ret, orig.get_error_message(odata));
	return ret == (int)frame_size(dfc, w, h) ? 0 : -1;
}

static int ours_convert(uint32_t sfc, uint32_t dfc, int w, int h, uint8_t *src,
			uint8_t *dst)
{
	struct v4lc_frame s = { sfc, w, h, 0, src, frame_size(sfc, w, h) };
	struct v4lc_frame d = { dfc, w, h, 0, dst, frame_size(dfc, w, h) };
	int ret = v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);

	CHECK_HOT(ret == 0, "ours %s->%s %dx%d returned %d", FOURCC_STR(sfc),
		  FOURCC_STR(dfc), w, h, ret);
	return ret;
}

static uint32_t rng = 0x9e3779b9u;

static void randomise(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(xorshift32(&rng) >> 24);
}

static uint8_t *xalloc(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);

	if (!p) {
		printf("out of memory\n");
		exit(2);
	}
	return p;
}

static const int sizes[][2] = {
	{ 64, 48 }, { 640, 480 }, { 320, 2 }, { 8, 2 }
};
#define NSIZES (int)(sizeof(sizes) / sizeof(sizes[0]))

/* (a) identical byte shuffles */
static void check_identical(void)
{
	static const uint32_t pairs[][2] = {
		{ V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24 },
		{ V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_RGB24 },
		{ V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 },
		{ V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_YUV420 },
	};

	for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
		for (int i = 0; i < NSIZES; i++) {
			int w = sizes[i][0], h = sizes[i][1];
			size_t ss = frame_size(pairs[p][0], w, h);
			size_t ds = frame_size(pairs[p][1], w, h);
			uint8_t *s = xalloc(ss), *a = xalloc(ds),
				*b = xalloc(ds);

			randomise(s, ss);
			memset(a, 0x11, ds);
			memset(b, 0x22, ds);
			if (!orig_convert(pairs[p][0], pairs[p][1], w, h, s,
					  a) &&
			    !ours_convert(pairs[p][0], pairs[p][1], w, h, s,
					  b)) {
				int same = !memcmp(a, b, ds);

				CHECK(same, "(a) %s->%s %dx%d: %s",
				      FOURCC_STR(pairs[p][0]),
				      FOURCC_STR(pairs[p][1]), w, h,
				      same ? "identical" : "DIFFERENT");
			}
			free(s);
			free(a);
			free(b);
		}
}

/* (b) flips through the original's emulated controls */
/* Naive flip of a frame with minimal strides (RGB24 or YUV420). */
static void naive_flip(uint32_t fourcc, const uint8_t *s, uint8_t *d, int w,
		       int h, int hf, int vf)
{
	int planes = fourcc == V4L2_PIX_FMT_RGB24 ? 1 : 3;
	int bpp = fourcc == V4L2_PIX_FMT_RGB24 ? 3 : 1;

	for (int p = 0; p < planes; p++) {
		int pw = p ? w / 2 : w, ph = p ? h / 2 : h;

		for (int y = 0; y < ph; y++)
			for (int x = 0; x < pw; x++) {
				int sx = hf ? pw - 1 - x : x;
				int sy = vf ? ph - 1 - y : y;

				memcpy(d + ((size_t)y * pw + x) * bpp,
				       s + ((size_t)sy * pw + sx) * bpp,
				       (size_t)bpp);
			}
		s += (size_t)pw * ph * bpp;
		d += (size_t)pw * ph * bpp;
	}
}

static void check_flips(void)
{
	static const uint32_t fmts[] = { V4L2_PIX_FMT_RGB24,
					 V4L2_PIX_FMT_YUV420 };
	static const struct {
		int h, v;
		enum v4lc_transform op;
		const char *name;
	} ops[] = {
		{ 1, 0, V4LC_XFORM_HFLIP, "hflip" },
		{ 0, 1, V4LC_XFORM_VFLIP, "vflip" },
		{ 1, 1, V4LC_XFORM_ROT180, "rot180" },
	};

	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
		for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++)
			for (int i = 0; i < NSIZES; i++) {
				int w = sizes[i][0], h = sizes[i][1];
				size_t n = frame_size(fmts[f], w, h);
				uint8_t *s = xalloc(n), *a = xalloc(n),
					*e = xalloc(n);
				int ret;

				randomise(s, n);
				if (origlib_set_flip(&orig, odata, ops[o].h,
						     ops[o].v)) {
					CHECK_HOT(
						0,
						"cannot set the original's flip "
						"controls");
					free(s);
					free(a);
					free(e);
					return;
				}
				ret = orig_convert(fmts[f], fmts[f], w, h, s,
						   a);
				origlib_set_flip(&orig, odata, 0, 0);
				naive_flip(fmts[f], s, e, w, h, ops[o].h,
					   ops[o].v);
				if (!ret)
					CHECK_HOT(
						!memcmp(a, e, n),
						"(b) the original's %s %s %dx%d is "
						"not the naive flip",
						FOURCC_STR(fmts[f]),
						ops[o].name, w, h);
				if (!ret) {
					uint8_t *b = xalloc(n);
					struct v4lc_frame sf = {
						fmts[f], w, h, 0, s, n
					};
					struct v4lc_frame df = {
						fmts[f], w, h, 0, b, n
					};
					int same;

					memset(b, 0x5a, n);
					ret = v4lc_frame_transform(
						v4lc_dsp_get(), &sf, &df,
						ops[o].op);
					same = !ret && !memcmp(a, b, n);
					CHECK(same, "(b) %s %s %dx%d: %s (%d)",
					      FOURCC_STR(fmts[f]), ops[o].name,
					      w, h,
					      same ? "identical" : "DIFFERENT",
					      ret);
					free(b);
				}
				free(s);
				free(a);
				free(e);
			}
}

/* (c) colour accuracy against double-precision BT.601 limited range */
#define KR 0.299
#define KB 0.114
#define KG (1.0 - KR - KB)

static double clamp255(double x)
{
	return x < 0.0 ? 0.0 : x > 255.0 ? 255.0 : x;
}

static void ref_yuv2rgb(int y, int u, int v, double rgb[3])
{
	double ys = (y - 16) * 255.0 / 219.0;
	double cb = (u - 128) * 255.0 / 224.0, cr = (v - 128) * 255.0 / 224.0;

	rgb[0] = clamp255(round(ys + 2.0 * (1.0 - KR) * cr));
	rgb[1] = clamp255(round(ys - 2.0 * KB * (1.0 - KB) / KG * cb -
				2.0 * KR * (1.0 - KR) / KG * cr));
	rgb[2] = clamp255(round(ys + 2.0 * (1.0 - KB) * cb));
}

struct err {
	double sum;
	long n;
	int max;
};

static void err_add(struct err *e, int got, double want)
{
	int d = (int)fabs(got - want);

	e->sum += fabs(got - want);
	e->n++;
	if (d > e->max)
		e->max = d;
}

/* Y, U, V of pixel (x, y) of a YUV frame with minimal strides. */
static void yuv_of(uint32_t fourcc, const uint8_t *p, int w, int h, int x,
		   int y, int yuv[3])
{
	const uint8_t *q;

	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
		q = p + (size_t)y * 2 * w + 4 * (x / 2);
		yuv[0] = q[2 * (x & 1)];
		yuv[1] = q[1];
		yuv[2] = q[3];
		break;
	case V4L2_PIX_FMT_UYVY:
		q = p + (size_t)y * 2 * w + 4 * (x / 2);
		yuv[0] = q[1 + 2 * (x & 1)];
		yuv[1] = q[0];
		yuv[2] = q[2];
		break;
	case V4L2_PIX_FMT_YUV420:
		yuv[0] = p[(size_t)y * w + x];
		q = p + (size_t)w * h + (size_t)(y / 2) * (w / 2) + x / 2;
		yuv[1] = q[0];
		yuv[2] = q[(size_t)(w / 2) * (h / 2)];
		break;
	default: /* NV12 */
		yuv[0] = p[(size_t)y * w + x];
		q = p + (size_t)w * h + (size_t)(y / 2) * w + 2 * (x / 2);
		yuv[1] = q[0];
		yuv[2] = q[1];
		break;
	}
}

static void check_to_rgb(uint32_t sfc, int w, int h)
{
	size_t ss = frame_size(sfc, w, h);
	size_t ds = frame_size(V4L2_PIX_FMT_RGB24, w, h);
	uint8_t *s = xalloc(ss), *a = xalloc(ds), *b = xalloc(ds);
	struct err eo = { 0, 0, 0 }, en = { 0, 0, 0 };

	randomise(s, ss);
	if (orig_convert(sfc, V4L2_PIX_FMT_RGB24, w, h, s, a) ||
	    ours_convert(sfc, V4L2_PIX_FMT_RGB24, w, h, s, b))
		goto out;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int yuv[3];
			double ref[3];
			size_t o = (size_t)y * 3 * w + 3 * (size_t)x;

			yuv_of(sfc, s, w, h, x, y, yuv);
			ref_yuv2rgb(yuv[0], yuv[1], yuv[2], ref);
			for (int c = 0; c < 3; c++) {
				err_add(&eo, a[o + c], ref[c]);
				err_add(&en, b[o + c], ref[c]);
			}
		}
	CHECK(en.sum / en.n < eo.sum / eo.n && en.max <= 1,
	      "(c) %s->RGB3 %dx%d: mean abs error ours %.4f original %.4f, "
	      "max ours %d original %d",
	      FOURCC_STR(sfc), w, h, en.sum / en.n, eo.sum / eo.n, en.max,
	      eo.max);
out:
	free(s);
	free(a);
	free(b);
}

static void check_from_rgb(int w, int h, int smooth)
{
	size_t ss = frame_size(V4L2_PIX_FMT_RGB24, w, h);
	size_t ds = frame_size(V4L2_PIX_FMT_YUV420, w, h);
	uint8_t *s = xalloc(ss), *a = xalloc(ds), *b = xalloc(ds);
	struct err eo[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	struct err en[2] = { { 0, 0, 0 }, { 0, 0, 0 } };
	double mo, mn;
	int ok;

	randomise(s, ss);
	if (smooth) /* gradients with a little noise */
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				for (int c = 0; c < 3; c++) {
					uint8_t *p = s + (size_t)y * 3 * w +
						     3 * (size_t)x + c;
					int v = (c == 0 ? x * 255 / w
						 : c == 1
							 ? y * 255 / h
							 : (x +
							    y) * 127 / (w + h) +
								   64) +
						(*p & 7) - 4;

					*p = (uint8_t)clamp255(v);
				}
	if (orig_convert(V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420, w, h, s, a) ||
	    ours_convert(V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420, w, h, s, b))
		goto out;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p =
				s + (size_t)y * 3 * w + 3 * (size_t)x;
			double ry = 16.0 +
				    219.0 / 255.0 *
					    (KR * p[0] + KG * p[1] + KB * p[2]);
			size_t o = (size_t)y * w + x;

			ry = round(ry);
			err_add(&eo[0], a[o], ry);
			err_add(&en[0], b[o], ry);
		}
	for (int by = 0; by < h / 2; by++)
		for (int bx = 0; bx < w / 2; bx++) {
			double r = 0, g = 0, bl = 0, yl, ru, rv;
			size_t cs = (size_t)(w / 2) * (h / 2);
			size_t o = (size_t)w * h + (size_t)by * (w / 2) + bx;

			for (int i = 0; i < 2; i++)
				for (int j = 0; j < 2; j++) {
					const uint8_t *p =
						s +
						(size_t)(2 * by + i) * 3 * w +
						3 * (size_t)(2 * bx + j);

					r += p[0] / 4.0;
					g += p[1] / 4.0;
					bl += p[2] / 4.0;
				}
			yl = KR * r + KG * g + KB * bl;
			ru = round(128.0 + 224.0 / 255.0 * (bl - yl) /
						   (2.0 * (1.0 - KB)));
			rv = round(128.0 + 224.0 / 255.0 * (r - yl) /
						   (2.0 * (1.0 - KR)));
			err_add(&eo[1], a[o], ru);
			err_add(&en[1], b[o], ru);
			err_add(&eo[1], a[o + cs], rv);
			err_add(&en[1], b[o + cs], rv);
		}
	mo = (eo[0].sum + eo[1].sum) / (eo[0].n + eo[1].n);
	mn = (en[0].sum + en[1].sum) / (en[0].n + en[1].n);
	ok = mn < mo && en[0].max <= 1 && en[1].max <= 1;
	CHECK(ok,
	      "(c) RGB3->YU12 %dx%d %s: mean abs error ours %.4f original "
	      "%.4f (Y %.4f/%.4f, UV %.4f/%.4f), max Y %d/%d, UV %d/%d "
	      "(ours/original)",
	      w, h, smooth ? "smooth" : "random", mn, mo, en[0].sum / en[0].n,
	      eo[0].sum / eo[0].n, en[1].sum / en[1].n, eo[1].sum / eo[1].n,
	      en[0].max, eo[0].max, en[1].max, eo[1].max);
out:
	free(s);
	free(a);
	free(b);
}

static void check_colour(void)
{
	static const uint32_t srcs[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY,
					 V4L2_PIX_FMT_YUV420,
					 V4L2_PIX_FMT_NV12 };

	for (size_t f = 0; f < sizeof(srcs) / sizeof(srcs[0]); f++) {
		check_to_rgb(srcs[f], 64, 48);
		check_to_rgb(srcs[f], 640, 480);
	}
	for (int smooth = 0; smooth < 2; smooth++) {
		check_from_rgb(64, 48, smooth);
		check_from_rgb(640, 480, smooth);
	}
}

int main(void)
{
	if (!load_original())
		return 77;
	printf("original: %s; ours: %s tier\n", orig.path,
	       v4lc_cpu_tier_name(v4lc_cpu_flags()));
	check_identical();
	check_flips();
	check_colour();
	unload_original();
	if (failures) {
		printf("diff-libv4lconvert: %d failure(s)\n", failures);
		return 1;
	}
	printf("diff-libv4lconvert: all checks passed\n");
	return 0;
}
