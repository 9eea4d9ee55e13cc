/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JPGL through OUR public v4lconvert_convert (fake device offering JPGL)
 * against the original's: RGB24 and BGR24 byte-identical (encoder frames,
 * random bytes, a height that is not a multiple of 4 with the lines below
 * left untouched, a short frame: ours then fails with EPIPE, the original
 * succeeds, the pictures are the same), YUV420 / YVU420 equal to our
 * decoder's direct output (the decoder's YUV is checked against a model in
 * jpgl.c; the original's is broken), padded destination strides equal to
 * the minimal rows. Skips (77) when the original cannot be loaded beside
 * ours (e.g. under AddressSanitizer).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../../common/fakedev.h"
#include "../../common/origlib.h"
#include "../../jpeg/jpegtest.h"
#include "jpgltest.h"
#include "vcam/chipenc_jpgl.h"
#include "../../common/check.h"

#ifndef V4L2_PIX_FMT_JPGL
#define V4L2_PIX_FMT_JPGL v4l2_fourcc('J', 'P', 'G', 'L')
#endif

static struct origlib olib;
static struct fakedev fake;

static const uint32_t fmts[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				 V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

static struct v4lconvert_data *make_ours(int w, int h)
{
	memset(&fake, 0, sizeof(fake));
	fake.driver = "fakedev";
	fake.n_formats = 1;
	fake.formats[0].fourcc = V4L2_PIX_FMT_JPGL;
	fake.formats[0].n_sizes = 1;
	fake.formats[0].sizes[0][0] = (uint32_t)w;
	fake.formats[0].sizes[0][1] = (uint32_t)h;
	return v4lconvert_create_with_dev_ops(3, &fake, &fakedev_ops);
}

static int is_rgb(uint32_t f)
{
	return f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24;
}

/*
 * Convert with `bpl` destination bytes per line (0: minimal); the frame is
 * followed by zeros (what our decoder reads past its end). Returns the
 * result, errno in *err.
 */
static int conv(struct v4lconvert_data *cv, int orig, const uint8_t *frm,
		size_t n, int w, int h, uint32_t dfcc, int bpl, uint8_t *dst,
		size_t dsize, int *err)
{
	struct v4l2_format sf, df;
	size_t pad = 4 * (size_t)w * h + 64;
	uint8_t *src = jt_xmalloc(n + pad);
	int r;

	memcpy(src, frm, n);
	memset(src + n, 0, pad);
	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_JPGL;
	sf.fmt.pix.bytesperline = (uint32_t)w;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	df.fmt.pix.pixelformat = dfcc;
	df.fmt.pix.bytesperline = (uint32_t)(bpl            ? bpl
					     : is_rgb(dfcc) ? 3 * w
							    : w);
	df.fmt.pix.sizeimage = (uint32_t)dsize;
	errno = 0;
	r = orig ? olib.convert(cv, &sf, &df, src, (int)n, dst, (int)dsize)
		 : v4lconvert_convert(cv, &sf, &df, src, (int)n, dst,
				      (int)dsize);
	*err = errno;
	free(src);
	return r;
}

static size_t min_bytes(uint32_t f, int w, int h)
{
	return is_rgb(f) ? 3 * (size_t)w * h
			 : (size_t)w * h + 2 * (size_t)(w / 2) * ((h + 1) / 2);
}

static void one(const char *what, const uint8_t *frm, size_t n, int w, int h,
		struct v4lconvert_data *oc)
{
	struct v4lconvert_data *ours = make_ours(w, h);
	size_t big = 3 * (size_t)w * h + 4096;
	uint8_t *a = jt_xmalloc(big), *b = jt_xmalloc(big);
	uint8_t *c = jt_xmalloc(big);
	char err[160];
	int same = 1;

	if (!ours) {
		CHECK(0, "no instance of ours");
		return;
	}
	for (int f = 0; f < 4; f++) {
		size_t need = min_bytes(fmts[f], w, h);
		int r, ro, e, eo, rd;

		memset(a, 0xa5, big);
		memset(b, 0xa5, big);
		r = conv(ours, 0, frm, n, w, h, fmts[f], 0, a, need, &e);
		rd = jpgl_decode(frm, n, fmts[f], c, big, w, h, err,
				 sizeof(err));
		CHECK(rd == 0 || rd == -EPIPE, "%s: decoder %d", what, rd);
		CHECK(rd == 0 ? r == (int)need : r == -1 && e == EPIPE,
		      "%s %dx%d fmt %d: ours returned %d (errno %d), the "
		      "decoder %d",
		      what, w, h, f, r, e, rd);
		if (is_rgb(fmts[f])) {
			ro = conv(oc, 1, frm, n, w, h, fmts[f], 0, b, need,
				  &eo);
			CHECK(ro == (int)need, "%s: the original returned %d",
			      what, ro);
			if (memcmp(a, b, big)) {
				same = 0;
				CHECK(0,
				      "%s %dx%d fmt %d: differs from the "
				      "original",
				      what, w, h, f);
			}
		} else if (h % 4 == 0) {
			CHECK(!memcmp(a, c, need),
			      "%s %dx%d fmt %d: differs from the decoder", what,
			      w, h, f);
		}
		/* a padded destination: the same rows */
		if (h % 4 == 0) {
			int pad = is_rgb(fmts[f]) ? 3 * w + 12 : w + 8;
			size_t cw = (size_t)w / 2, ch = (size_t)(h + 1) / 2;
			size_t pn =
				is_rgb(fmts[f])
					? (size_t)pad * h
					: (size_t)pad * h +
						  2 * (size_t)(pad / 2) * ch;
			uint8_t *p = jt_xmalloc(pn);

			r = conv(ours, 0, frm, n, w, h, fmts[f], pad, p, pn,
				 &e);
			CHECK(r >= 0 || e == EPIPE, "%s padded: %d (%d)", what,
			      r, e);
			if (is_rgb(fmts[f])) {
				for (int y = 0; y < h; y++)
					CHECK(!memcmp(p + (size_t)y * pad,
						      a + (size_t)y * 3 * w,
						      3 * (size_t)w),
					      "%s padded fmt %d: row %d", what,
					      f, y);
			} else {
				const uint8_t *pc = p + (size_t)pad * h;
				const uint8_t *ac = a + (size_t)w * h;

				for (int y = 0; y < h; y++)
					CHECK(!memcmp(p + (size_t)y * pad,
						      a + (size_t)y * w,
						      (size_t)w),
					      "%s padded fmt %d: Y row %d",
					      what, f, y);
				for (size_t y = 0; y < 2 * ch; y++)
					CHECK(!memcmp(pc + y * (size_t)(pad /
									2),
						      ac + y * cw, cw),
					      "%s padded fmt %d: chroma row %zu",
					      what, f, y);
			}
			free(p);
		}
	}
	printf("  %-16s %4dx%-4d %7zu bytes: %s\n", what, w, h, n,
	       same ? "RGB24/BGR24 identical" : "DIFFERENT");
	v4lconvert_destroy(ours);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	static const int sizes[][2] = { { 320, 240 },
					{ 352, 288 },
					{ 640, 480 },
					{ 176, 144 },
					{ 64, 16 } };
	struct v4lconvert_data *oc =
		origlib_open_plain(&olib, ORIGLIB_LINKED_WITH_OURS);

	if (!oc)
		return 77;
	for (size_t i = 0; i < JT_ARRAY_SIZE(sizes); i++) {
		int w = sizes[i][0], h = sizes[i][1];
		uint8_t *img = jt_make_image(w, h, (unsigned)i);
		size_t n;
		uint8_t *frm = v4lc_jpgl_encode(img, w, h, NULL, &n);

		one("encoder", frm, n, w, h, oc);
		one("short", frm, n / 3, w, h, oc);
		free(frm);
		free(img);
	}
	for (int i = 0; i < 20; i++) {
		int w = 16 * (1 + (int)(jt_rand() % 6)),
		    h = 4 + (int)(jt_rand() % 12);
		size_t n = jt_rand() % (size_t)(w * h);
		uint8_t *frm = jt_xmalloc(n);

		for (size_t k = 0; k < n; k++)
			frm[k] = (uint8_t)jt_rand();
		one("random", frm, n, w, h, oc);
		free(frm);
	}
	olib.destroy(oc);
	origlib_close(&olib);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
