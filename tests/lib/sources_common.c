/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sources_<group>.c programs' shared helpers (sources_common.h). */
#include "sources_common.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/fakedev.h"
#include "../common/check.h"
#include "../common/fourcc.h"
#include "../common/rng.h"

static uint32_t rng_state = 12345;

uint32_t rnd(void)
{
	return xorshift32(&rng_state);
}

void fill_random(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(rnd() >> 7);
}

const uint32_t dst_fmts[4] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
			       V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

static struct fakedev fake;

struct v4lconvert_data *make_ours(const uint32_t *fourccs, int n)
{
	memset(&fake, 0, sizeof(fake));
	fake.driver = "fakedev";
	fake.n_formats = n;
	for (int i = 0; i < n; i++) {
		fake.formats[i].fourcc = fourccs[i];
		fake.formats[i].n_sizes = 1;
		fake.formats[i].sizes[0][0] = 640;
		fake.formats[i].sizes[0][1] = 480;
	}
	return v4lconvert_create_with_dev_ops(3, &fake, &fakedev_ops);
}

void set_fmts(struct v4l2_format *sf, struct v4l2_format *df,
	      uint32_t src_fourcc, int w, int h, int bpl, uint32_t hsv_enc,
	      uint32_t dst_fourcc, int dst_bpl)
{
	memset(sf, 0, sizeof(*sf));
	memset(df, 0, sizeof(*df));
	sf->type = df->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf->fmt.pix.width = df->fmt.pix.width = (uint32_t)w;
	sf->fmt.pix.height = df->fmt.pix.height = (uint32_t)h;
	sf->fmt.pix.pixelformat = src_fourcc;
	sf->fmt.pix.bytesperline = (uint32_t)bpl;
	sf->fmt.pix.sizeimage = (uint32_t)(bpl * h);
	sf->fmt.pix.field = df->fmt.pix.field = V4L2_FIELD_NONE;
	sf->fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
	sf->fmt.pix.hsv_enc = hsv_enc;
	df->fmt.pix.pixelformat = dst_fourcc;
	df->fmt.pix.bytesperline = (uint32_t)dst_bpl;
	df->fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
}

size_t dst_bytes(uint32_t f, int w, int h, int stride)
{
	(void)w;
	if (f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24)
		return (size_t)stride * h;
	return (size_t)stride * h +
	       2 * (size_t)((stride + 1) / 2) * (size_t)((h + 1) / 2);
}

int check_rgb(const uint8_t *out, int ds, uint32_t dst, const uint8_t *ref,
	      int w, int h, int tol, const char *what)
{
	int worst = 0, reported = 0;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			for (int c = 0; c < 3; c++) {
				int oc = dst == V4L2_PIX_FMT_BGR24 ? 2 - c : c;
				int o = out[(size_t)y * ds + 3 * x + oc];
				int e = ref[3 * ((size_t)y * w + x) + c];
				int d = abs(o - e);

				if (d > worst)
					worst = d;
				if (d > tol && !reported++)
					CHECK(0,
					      "%s: pixel %d,%d ch %d: %d, want %d",
					      what, x, y, c, o, e);
			}
	return worst;
}

void check_yuv(const uint8_t *out, int ds, uint32_t dst, const uint8_t *ref,
	       int w, int h, double tol, const char *what)
{
	const double kr = 0.299, kb = 0.114, kg = 1 - kr - kb;
	int cs = (ds + 1) / 2, ch = (h + 1) / 2, reported = 0;
	const uint8_t *u = out + (size_t)ds * h;
	const uint8_t *v = u + (size_t)cs * ch;

	if (dst == V4L2_PIX_FMT_YVU420) {
		const uint8_t *t = u;

		u = v;
		v = t;
	}
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = ref + 3 * ((size_t)y * w + x);
			double e = 16 +
				   219.0 / 255 *
					   (kr * p[0] + kg * p[1] + kb * p[2]);
			int o = out[(size_t)y * ds + x];

			if (fabs(o - e) > tol && !reported++)
				CHECK(0, "%s: Y at %d,%d: %d, want %.2f", what,
				      x, y, o, e);
		}
	for (int by = 0; by < ch; by++)
		for (int bx = 0; bx < (w + 1) / 2; bx++) {
			double r = 0, g = 0, b = 0, n = 0;

			for (int y = 2 * by; y < 2 * by + 2 && y < h; y++)
				for (int x = 2 * bx; x < 2 * bx + 2 && x < w;
				     x++) {
					const uint8_t *p =
						ref + 3 * ((size_t)y * w + x);

					r += p[0];
					g += p[1];
					b += p[2];
					n++;
				}
			r /= n;
			g /= n;
			b /= n;
			{
				double yl = kr * r + kg * g + kb * b;
				double eu = 128 + 224.0 / 255 * (b - yl) /
							  (2 * (1 - kb));
				double ev = 128 + 224.0 / 255 * (r - yl) /
							  (2 * (1 - kr));
				int ou = u[(size_t)by * cs + bx],
				    ov = v[(size_t)by * cs + bx];

				if ((fabs(ou - eu) > tol ||
				     fabs(ov - ev) > tol) &&
				    !reported++)
					CHECK(0,
					      "%s: UV at block %d,%d: %d,%d, want %.2f,%.2f",
					      what, bx, by, ou, ov, eu, ev);
			}
		}
}

int orig_open(struct orig *o)
{
	memset(o, 0, sizeof(*o));
	o->data = origlib_open_plain(&o->lib, ORIGLIB_LINKED_WITH_OURS);
	o->convert = (convert_fn *)(void *)o->lib.convert;
	if (!o->data)
		printf("SKIP differential\n");
	return o->data != NULL;
}

void orig_close(struct orig *o)
{
	if (o->data)
		o->lib.destroy(o->data);
	/* Not dlclosed: the library may keep thread-local state. */
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Median MPix/s of `runs` conversions of a w x h frame through `convert`
 * (ours: v4lconvert_convert; orig: the dlopened one).
 */
static double bench(convert_fn *fn, void *data, const struct v4l2_format *sf,
		    const struct v4l2_format *df, uint8_t *src, int src_size,
		    uint8_t *dst, int dst_size, int runs)
{
	double t[64];

	if (runs > 64)
		runs = 64;
	fn(data, sf, df, src, src_size, dst, dst_size);
	for (int i = 0; i < runs; i++) {
		double t0 = now_s();

		fn(data, sf, df, src, src_size, dst, dst_size);
		t[i] = now_s() - t0;
	}
	qsort(t, (size_t)runs, sizeof(t[0]), cmp_double);
	return sf->fmt.pix.width * (double)sf->fmt.pix.height / t[runs / 2] /
	       1e6;
}

static const int test_sizes[][2] = { { 1, 1 },  { 2, 2 },   { 3, 3 },
				     { 5, 1 },  { 1, 6 },   { 7, 5 },
				     { 16, 2 }, { 33, 17 }, { 64, 9 },
				     { 130, 3 } };

/* Grey into YUV: Y = the grey exactly, both chroma planes 128. */
static void check_grey_yuv(const uint8_t *dst, int ds, const uint8_t *refrgb,
			   int w, int h, const char *what)
{
	int cs = (ds + 1) / 2, ch = (h + 1) / 2, bad = 0;
	const uint8_t *c = dst + (size_t)ds * h;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			bad += dst[(size_t)y * ds + x] !=
			       refrgb[3 * ((size_t)y * w + x)];
	for (int p = 0; p < 2; p++)
		for (int y = 0; y < ch; y++)
			for (int x = 0; x < (w + 1) / 2; x++)
				bad += c[(size_t)(p * ch + y) * cs + x] != 128;
	CHECK(!bad, "%s: %d grey YUV bytes wrong", what, bad);
}

/* One source frame of test_format and what it must give. */
struct src_frame {
	uint32_t fourcc, hsv_enc;
	int w, h, bpl, pad;
	uint8_t *data, *refrgb;
	size_t size;
};

/* Frame s into destination d (dst_fmts[d]): its size, guard bytes and
 * pixels, then the same frame one byte short. */
static void test_dst(struct v4lconvert_data *cv, const struct src_frame *s,
		     int d, int grey, int rgb_tol)
{
	uint32_t df_cc = dst_fmts[d];
	int w = s->w, h = s->h, is_rgb = d < 2;
	int dmin = is_rgb ? 3 * w : w, ds = s->pad == 2 ? dmin + 7 : dmin;
	size_t dsize = dst_bytes(df_cc, w, h, ds);
	uint8_t *dst = malloc(dsize + 64);
	struct v4l2_format sf, df;
	char what[96];
	int ret;

	memset(dst, 0xa5, dsize + 64);
	set_fmts(&sf, &df, s->fourcc, w, h, s->bpl, s->hsv_enc, df_cc,
		 s->pad == 2 ? ds : 0);
	ret = v4lconvert_convert(cv, &sf, &df, s->data, (int)s->size, dst,
				 (int)dsize + 64);
	snprintf(what, sizeof(what), "%s enc %u -> %s %dx%d pad %d",
		 FOURCC_STR(s->fourcc), s->hsv_enc, FOURCC_STR(df_cc), w, h,
		 s->pad);
	CHECK(ret == (int)dsize, "%s: returned %d (%s), want %zu", what, ret,
	      v4lconvert_get_error_message(cv), dsize);
	for (size_t i = 0; i < 64; i++)
		if (dst[dsize + i] != 0xa5) {
			CHECK(0, "%s: guard byte %zu written", what, i);
			break;
		}
	if (ret == (int)dsize) {
		if (is_rgb)
			check_rgb(dst, ds, df_cc, s->refrgb, w, h, rgb_tol,
				  what);
		else if (grey)
			check_grey_yuv(dst, ds, s->refrgb, w, h, what);
		else
			check_yuv(dst, ds, df_cc, s->refrgb, w, h, 1.0, what);
	}
	/* A short frame: one byte missing. */
	ret = v4lconvert_convert(cv, &sf, &df, s->data, (int)s->size - 1, dst,
				 (int)dsize + 64);
	CHECK(ret == -1 && errno == EPIPE, "%s: short frame gave %d errno %d",
	      what, ret, errno);
	free(dst);
}

void test_format(struct v4lconvert_data *cv, uint32_t fourcc, uint32_t hsv_enc,
		 ref_fn *ref, rowbytes_fn *rb, int grey, int rgb_tol)
{
	for (size_t si = 0; si < sizeof(test_sizes) / sizeof(test_sizes[0]);
	     si++) {
		int w = test_sizes[si][0], h = test_sizes[si][1];

		for (int pad = 0; pad < 3; pad++) {
			size_t minb = rb(fourcc, w);
			/* pad 0: bytesperline 0 (minimal); 1: exact; 2: +13 */
			int bpl =
				pad == 0 ? 0 : (int)minb + (pad == 2 ? 13 : 0);
			size_t sstride = bpl ? (size_t)bpl : minb;
			struct src_frame s = { .fourcc = fourcc,
					       .hsv_enc = hsv_enc,
					       .w = w,
					       .h = h,
					       .bpl = bpl,
					       .pad = pad };

			s.size = sstride * h;
			s.data = malloc(s.size);
			s.refrgb = malloc((size_t)w * h * 3);
			fill_random(s.data, s.size);
			if (rnd() & 1) /* sometimes extreme values */
				for (size_t i = 0; i < s.size; i += 3)
					s.data[i] = (rnd() & 1) ? 0 : 255;
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					ref(fourcc, hsv_enc,
					    s.data + (size_t)y * sstride, x,
					    s.refrgb + 3 * ((size_t)y * w + x));
			for (int d = 0; d < 4; d++)
				test_dst(cv, &s, d, grey, rgb_tol);
			free(s.data);
			free(s.refrgb);
		}
	}
}

int run_both(struct v4lconvert_data *cv, struct orig *o, uint32_t fourcc,
	     uint32_t hsv_enc, int w, int h, size_t sstride, uint8_t *src,
	     uint32_t dst_cc, uint8_t *ours, uint8_t *theirs)
{
	struct v4l2_format sf, df;
	size_t ds = dst_bytes(dst_cc, w, h,
			      dst_cc == V4L2_PIX_FMT_RGB24 ||
					      dst_cc == V4L2_PIX_FMT_BGR24
				      ? 3 * w
				      : w);
	int a, b;

	set_fmts(&sf, &df, fourcc, w, h, (int)sstride, hsv_enc, dst_cc, 0);
	a = v4lconvert_convert(cv, &sf, &df, src, (int)(sstride * h), ours,
			       (int)ds);
	set_fmts(&sf, &df, fourcc, w, h, (int)sstride, hsv_enc, dst_cc, 0);
	b = o->convert(o->data, &sf, &df, src, (int)(sstride * h), theirs,
		       (int)ds);
	CHECK(a == (int)ds && b == (int)ds, "%s -> %s: ours %d, original %d",
	      FOURCC_STR(fourcc), FOURCC_STR(dst_cc), a, b);
	return a == (int)ds && b == (int)ds;
}

void bench_format(struct v4lconvert_data *cv, struct orig *o, uint32_t fourcc,
		  size_t sstride, uint32_t dst_cc)
{
	const int w = 1280, h = 720;
	uint8_t *src = malloc(sstride * h), *dst = malloc((size_t)w * h * 3);
	struct v4l2_format sf, df;
	double a, b = 0;

	fill_random(src, sstride * h);
	set_fmts(&sf, &df, fourcc, w, h, (int)sstride, 0, dst_cc, 0);
	a = bench((convert_fn *)(void *)v4lconvert_convert, cv, &sf, &df, src,
		  (int)(sstride * h), dst, w * h * 3, 31);
	if (o->data)
		b = bench(o->convert, o->data, &sf, &df, src,
			  (int)(sstride * h), dst, w * h * 3, 31);
	printf("bench %s -> %s 1280x720: ours %.0f MPix/s, original %.0f MPix/s\n",
	       FOURCC_STR(fourcc), FOURCC_STR(dst_cc), a, b);
	free(src);
	free(dst);
}
