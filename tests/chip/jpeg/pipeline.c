/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JPEG-family chip formats through OUR public v4lconvert_convert
 * against the original's, all four destinations (frames from the test
 * encoders of src/vcam/chipenc_jpeg.h). PJPG RGB24/BGR24 must be within 90 dB (identical
 * but for rare float rounding, see pjpg.c), its YUV within 50 dB (chroma
 * averaged where the original keeps one row); S401 RGB24/BGR24 identical.
 * JL20 and S401 then go through the library's SRGGB8 and RGB24 paths,
 * whose differences from the original belong to those paths: here their
 * output must equal ours of the same mosaic / RGB24 frame given as such
 * (the decoders themselves are proven exact by jl20.c and s401.c), and
 * the distance from the original is printed. PJPG with the
 * ROT90_JPEG quirk (LIBV4LCONTROL_FLAGS=4): the header has the size
 * swapped and the frame comes out turned 90 degrees clockwise, checked
 * against our own unrotated decode. With CHIPJPEG_BENCH set: MPix/s of
 * both at 640x480. Skips (77) when the original cannot be loaded beside
 * ours (e.g. under AddressSanitizer).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4lconvert.h>

#include "../../common/fakedev.h"
#include "../../common/origlib.h"
#include "../../jpeg/jpegtest.h"
#include "vcam/chipenc_jpeg.h"
#include "jpeg/jl2005.h"
#include "jpeg/se401.h"
#include "../../common/check.h"

#ifndef V4L2_PIX_FMT_PJPG
#define V4L2_PIX_FMT_PJPG v4l2_fourcc('P', 'J', 'P', 'G')
#endif
#ifndef V4L2_PIX_FMT_JL2005BCD
#define V4L2_PIX_FMT_JL2005BCD v4l2_fourcc('J', 'L', '2', '0')
#endif
#ifndef V4L2_PIX_FMT_SE401
#define V4L2_PIX_FMT_SE401 v4l2_fourcc('S', '4', '0', '1')
#endif

typedef int convert_fn(struct v4lconvert_data *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);

static struct origlib olib;
static struct fakedev fake;

static const uint32_t fmts[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				 V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };
static const char *const fnames[] = { "RGB24", "BGR24", "YUV420", "YVU420" };

static size_t dst_bytes(uint32_t f, int w, int h)
{
	return f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24
		       ? (size_t)w * h * 3
		       : (size_t)w * h * 3 / 2;
}

static struct v4lconvert_data *make_ours(uint32_t fourcc, int w, int h)
{
	memset(&fake, 0, sizeof(fake));
	fake.driver = "fakedev";
	fake.n_formats = 1;
	fake.formats[0].fourcc = fourcc;
	fake.formats[0].n_sizes = 1;
	fake.formats[0].sizes[0][0] = (uint32_t)w;
	fake.formats[0].sizes[0][1] = (uint32_t)h;
	return v4lconvert_create_with_dev_ops(3, &fake, &fakedev_ops);
}

static void set_fmts(struct v4l2_format *sf, struct v4l2_format *df,
		     uint32_t sfcc, int w, int h, int bpl, size_t n,
		     uint32_t dfcc)
{
	memset(sf, 0, sizeof(*sf));
	memset(df, 0, sizeof(*df));
	sf->type = df->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf->fmt.pix.width = df->fmt.pix.width = (uint32_t)w;
	sf->fmt.pix.height = df->fmt.pix.height = (uint32_t)h;
	sf->fmt.pix.pixelformat = sfcc;
	sf->fmt.pix.bytesperline = (uint32_t)bpl;
	sf->fmt.pix.sizeimage = (uint32_t)n;
	sf->fmt.pix.field = df->fmt.pix.field = V4L2_FIELD_NONE;
	df->fmt.pix.pixelformat = dfcc;
	df->fmt.pix.bytesperline =
		(uint32_t)(dst_bytes(dfcc, w, 1) == (size_t)w * 3 ? 3 * w : w);
	df->fmt.pix.sizeimage = (uint32_t)dst_bytes(dfcc, w, h);
}

static int run(convert_fn *fn, struct v4lconvert_data *cv, uint32_t sfcc, int w,
	       int h, int bpl, const uint8_t *frm, size_t n, uint32_t dfcc,
	       uint8_t *dst)
{
	struct v4l2_format sf, df;
	uint8_t *src = jt_xmalloc(n + 65536);
	int r;

	memcpy(src, frm, n);
	memset(src + n, 0, 65536);
	set_fmts(&sf, &df, sfcc, w, h, bpl, n, dfcc);
	errno = 0;
	r = fn(cv, &sf, &df, src, (int)n, dst, (int)dst_bytes(dfcc, w, h));
	free(src);
	return r < 0 ? (errno ? -errno : -1000) : 0;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double mpix(convert_fn *fn, struct v4lconvert_data *cv, uint32_t sfcc,
		   int w, int h, int bpl, const uint8_t *frm, size_t n,
		   uint32_t dfcc, uint8_t *dst)
{
	double best = 1e9;

	for (int k = 0; k < 15; k++) {
		double t0 = now();

		run(fn, cv, sfcc, w, h, bpl, frm, n, dfcc, dst);
		if (now() - t0 < best)
			best = now() - t0;
	}
	return w * h / best / 1e6;
}

struct frame {
	const char *name;
	uint32_t fourcc;
	int w, h, bpl;
	uint8_t *data;
	size_t n;
	double min_psnr; /* 0: identical */
};

static void make_frames(struct frame *f, int w, int h)
{
	uint8_t *img = jt_make_image(w, h, 3);
	uint8_t *bay = jt_xmalloc((size_t)w * h);
	int *v = jt_xmalloc(sizeof(int) * 3 * (size_t)w * h);
	static const int m[] = { 0x44 }, c[] = { 1 };

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int ch = (y % 2 == 0 && x % 2 == 0)   ? 0
				 : (y % 2 == 1 && x % 2 == 1) ? 2
							      : 1;

			bay[(size_t)y * w + x] =
				img[((size_t)y * w + x) * 3 + ch];
		}
	for (size_t i = 0; i < 3 * (size_t)w * h; i++)
		v[i] = (int)(jt_rand() % 7) - 3;
	f[0] = (struct frame){
		"PJPG", V4L2_PIX_FMT_PJPG, w, h, 0, NULL, 0, 50
	};
	f[0].data = v4lc_chipenc_pjpg_encode(img, w, h, m, 1, c, 1, &f[0].n);
	f[1] = (struct frame){ "JL20", V4L2_PIX_FMT_JL2005BCD, w, h, w, NULL, 0,
			       0 };
	f[1].data = v4lc_chipenc_jl20_encode(bay, w, h, 80, &f[1].n);
	f[2] = (struct frame){ "S401", V4L2_PIX_FMT_SE401, w, h, 3 * w, NULL, 0,
			       0 };
	f[2].data = v4lc_chipenc_se401_packets(v, w * h, 200, &f[2].n);
	free(img);
	free(bay);
	free(v);
}

/*
 * JL20 / S401 output `out` (destination dfcc) must equal our conversion of
 * the decoded mosaic / RGB24 frame as an SRGGB8 / RGB24 source; prints how
 * far the original's conversion of that same intermediate is from ours.
 */
static void plumbing(const struct frame *fr, uint32_t dfcc, const uint8_t *out,
		     struct v4lconvert_data *od)
{
	int w = fr->w, h = fr->h, jl = fr->fourcc == V4L2_PIX_FMT_JL2005BCD;
	size_t mn = (size_t)w * h * (jl ? 1 : 3), dn = dst_bytes(dfcc, w, h);
	uint32_t mfcc = jl ? V4L2_PIX_FMT_SRGGB8 : V4L2_PIX_FMT_RGB24;
	uint8_t *mid = jt_xmalloc(mn), *x = jt_xmalloc(dn), *y = jt_xmalloc(dn);
	struct v4lconvert_data *c2 = make_ours(mfcc, w, h);
	char err[200];
	int r;

	r = jl ? v4lc_jl2005_decode(fr->data, fr->n, mid, w, h, err,
				    sizeof(err))
	       : v4lc_se401_decode(fr->data, fr->n, mid, w, h, err,
				   sizeof(err));
	CHECK(r == 0 && c2, "%s: decoding the intermediate: %d", fr->name, r);
	if (!r && c2) {
		r = run(v4lconvert_convert, c2, mfcc, w, h, jl ? w : 3 * w, mid,
			mn, dfcc, x);
		CHECK(r == 0 && !memcmp(x, out, dn),
		      "%s: output differs from ours of its %s intermediate",
		      fr->name, jl ? "SRGGB8" : "RGB24");
		run((convert_fn *)(void *)olib.convert, od, mfcc, w, h,
		    jl ? w : 3 * w, mid, mn, dfcc, y);
		if (memcmp(x, y, dn))
			printf("      (the same %s frame as a source: ours vs the "
			       "original %.2f dB)",
			       jl ? "SRGGB8" : "RGB24", jt_psnr(x, y, dn));
		else
			printf("      (the same %s frame as a source: identical)",
			       jl ? "SRGGB8" : "RGB24");
		printf("\n");
	}
	if (c2)
		v4lconvert_destroy(c2);
	free(mid);
	free(x);
	free(y);
}

static void compare(struct v4lconvert_data *od, int bench)
{
	struct frame fr[3];
	int w = 640, h = 480;
	uint8_t *a = jt_xmalloc((size_t)w * h * 3),
		*b = jt_xmalloc((size_t)w * h * 3);

	make_frames(fr, w, h);
	for (int k = 0; k < 3; k++) {
		struct v4lconvert_data *cv = make_ours(fr[k].fourcc, w, h);

		CHECK(cv, "creating our converter");
		if (!cv)
			continue;
		for (size_t f = 0; f < 4; f++) {
			size_t dn = dst_bytes(fmts[f], w, h);
			int r, ro;
			double p;

			memset(a, 1, dn);
			memset(b, 2, dn);
			r = run(v4lconvert_convert, cv, fr[k].fourcc, w, h,
				fr[k].bpl, fr[k].data, fr[k].n, fmts[f], a);
			ro = run((convert_fn *)(void *)olib.convert, od,
				 fr[k].fourcc, w, h, fr[k].bpl, fr[k].data,
				 fr[k].n, fmts[f], b);
			CHECK(r == 0 && ro == 0,
			      "%s -> %s: ours %d (%s), "
			      "original %d",
			      fr[k].name, fnames[f], r,
			      v4lconvert_get_error_message(cv), ro);
			p = jt_psnr(a, b, dn);
			printf("  %s -> %-6s %s", fr[k].name, fnames[f],
			       !memcmp(a, b, dn) ? "identical" : "");
			if (memcmp(a, b, dn))
				printf("%.2f dB", p);
			if (bench)
				printf("   ours %.1f MPix/s, original %.1f MPix/s",
				       mpix(v4lconvert_convert, cv,
					    fr[k].fourcc, w, h, fr[k].bpl,
					    fr[k].data, fr[k].n, fmts[f], a),
				       mpix((convert_fn *)(void *)olib.convert,
					    od, fr[k].fourcc, w, h, fr[k].bpl,
					    fr[k].data, fr[k].n, fmts[f], b));
			printf("\n");
			if (k == 0)
				CHECK(p >= (f < 2 ? 90 : fr[k].min_psnr),
				      "%s -> %s: %.2f dB", fr[k].name,
				      fnames[f], p);
			else if (k == 2 && f < 2)
				CHECK(!memcmp(a, b, dn),
				      "%s -> %s differs from the original",
				      fr[k].name, fnames[f]);
			if (k)
				plumbing(&fr[k], fmts[f], a, od);
		}
		v4lconvert_destroy(cv);
	}
	for (int k = 0; k < 3; k++)
		free(fr[k].data);
	free(a);
	free(b);
}

/* ROT90_JPEG: a 480x640 PJPG (header) shown as 640x480. */
static void rotated(void)
{
	int w = 640, h = 480;
	uint8_t *img = jt_make_image(h, w, 8); /* 480 wide, 640 high */
	static const int m[] = { 0xc4 }, c[] = { 1 };
	size_t n;
	uint8_t *frm = v4lc_chipenc_pjpg_encode(img, h, w, m, 1, c, 1, &n);
	uint8_t *up = jt_xmalloc((size_t)w * h * 3),
		*rot = jt_xmalloc((size_t)w * h * 3);
	struct v4lconvert_data *plain = make_ours(V4L2_PIX_FMT_PJPG, h, w), *cv;
	int r, bad = 0;

	setenv("LIBV4LCONTROL_FLAGS", "4", 1);
	cv = make_ours(V4L2_PIX_FMT_PJPG, w, h);
	unsetenv("LIBV4LCONTROL_FLAGS");
	CHECK(plain && cv, "creating our converters");
	if (!plain || !cv)
		return;
	r = run(v4lconvert_convert, plain, V4L2_PIX_FMT_PJPG, h, w, 0, frm, n,
		V4L2_PIX_FMT_RGB24, up);
	CHECK(r == 0, "unrotated decode: %d", r);
	r = run(v4lconvert_convert, cv, V4L2_PIX_FMT_PJPG, w, h, 0, frm, n,
		V4L2_PIX_FMT_RGB24, rot);
	CHECK(r == 0, "rotated decode: %d (%s)", r,
	      v4lconvert_get_error_message(cv));
	/* clockwise: rot(x, y) = up(y, H - 1 - x) with up H = 640 rows */
	for (int y = 0; y < h && !r; y++)
		for (int x = 0; x < w; x++)
			if (memcmp(rot + ((size_t)y * w + x) * 3,
				   up + ((size_t)(w - 1 - x) * h + y) * 3, 3)) {
				bad = 1;
				CHECK(0,
				      "rotated frame wrong at %d,%d: %d %d %d vs %d %d %d (ccw would be %d)",
				      x, y, rot[((size_t)y * w + x) * 3],
				      rot[((size_t)y * w + x) * 3 + 1],
				      rot[((size_t)y * w + x) * 3 + 2],
				      up[((size_t)(w - 1 - x) * h + y) * 3],
				      up[((size_t)(w - 1 - x) * h + y) * 3 + 1],
				      up[((size_t)(w - 1 - x) * h + y) * 3 + 2],
				      up[((size_t)x * h + (h - 1 - y)) * 3]);
				y = h;
				break;
			}
	printf("  PJPG with ROT90_JPEG: %s\n",
	       bad || r ? "FAILED" : "turned clockwise");
	v4lconvert_destroy(plain);
	v4lconvert_destroy(cv);
	free(img);
	free(frm);
	free(up);
	free(rot);
}

int main(void)
{
	struct v4lconvert_data *od;

	od = origlib_open_plain(&olib, ORIGLIB_LINKED_WITH_OURS);
	if (!od)
		return 77;
	compare(od, getenv("CHIPJPEG_BENCH") != NULL);
	rotated();
	olib.destroy(od);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
