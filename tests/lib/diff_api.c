/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our libv4lconvert against the distribution's, through the public API on
 * the same frames and the same fake device:
 * - pure repacks (RGB24<->BGR24, YUV420<->YVU420) and MJPEG->RGB24/BGR24
 *   byte-identical;
 * - the same formats enumerated and the same source format chosen by
 *   try_format for common requests;
 * - both reject corrupt frames.
 * Exits 77 (skipped) when the original is not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/origlib.h"
#include "../jpeg/jpegtest.h"
#include "../common/check.h"

static struct origlib orig;

static struct v4l2_format pixfmt(uint32_t fourcc, int w, int h)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = (uint32_t)w;
	f.fmt.pix.height = (uint32_t)h;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	return f;
}

/* Convert with both; returns 1 when the outputs are byte-identical. */
static int same_output(struct v4lconvert_data *ours,
		       struct v4lconvert_data *theirs, uint32_t sfmt,
		       uint32_t dfmt, int w, int h, uint8_t *src, int src_size)
{
	struct v4l2_format s = pixfmt(sfmt, w, h), d = pixfmt(dfmt, w, h);
	int size = w * h * 3;
	uint8_t *a = calloc(1, (size_t)size), *b = calloc(1, (size_t)size);
	int ra, rb, same;

	/* Drivers always fill bytesperline; the original takes it literally. */
	s.fmt.pix.bytesperline =
		sfmt == V4L2_PIX_FMT_RGB24 || sfmt == V4L2_PIX_FMT_BGR24
			? (uint32_t)w * 3
		: sfmt == V4L2_PIX_FMT_MJPEG ? 0
					     : (uint32_t)w;
	v4lconvert_fixup_fmt(&d);
	ra = v4lconvert_convert(ours, &s, &d, src, src_size, a, size);
	rb = orig.convert(theirs, &s, &d, src, src_size, b, size);
	same = ra == rb && ra > 0 && !memcmp(a, b, (size_t)ra);
	if (!same) {
		int i = 0;

		while (ra > 0 && i < ra && a[i] == b[i])
			i++;
		printf("  %.4s->%.4s %dx%d: ours %d, original %d, first "
		       "difference at byte %d (%s)\n",
		       (char *)&sfmt, (char *)&dfmt, w, h, ra, rb, i,
		       ra < 0 ? v4lconvert_get_error_message(ours) : "");
	}
	free(a);
	free(b);
	return same;
}

static void test_repacks(struct v4lconvert_data *ours,
			 struct v4lconvert_data *theirs)
{
	static const int sizes[][2] = { { 64, 48 }, { 640, 480 }, { 320, 2 } };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++) {
		int w = sizes[s][0], h = sizes[s][1];
		int n = w * h * 3;
		uint8_t *src = malloc((size_t)n);

		for (int i = 0; i < n; i++)
			src[i] = (uint8_t)jt_rand();
		CHECK(same_output(ours, theirs, V4L2_PIX_FMT_RGB24,
				  V4L2_PIX_FMT_BGR24, w, h, src, n),
		      "RGB24->BGR24 %dx%d", w, h);
		CHECK(same_output(ours, theirs, V4L2_PIX_FMT_BGR24,
				  V4L2_PIX_FMT_RGB24, w, h, src, n),
		      "BGR24->RGB24 %dx%d", w, h);
		CHECK(same_output(ours, theirs, V4L2_PIX_FMT_YUV420,
				  V4L2_PIX_FMT_YVU420, w, h, src,
				  w * h * 3 / 2),
		      "YUV420->YVU420 %dx%d", w, h);
		CHECK(same_output(ours, theirs, V4L2_PIX_FMT_YVU420,
				  V4L2_PIX_FMT_YUV420, w, h, src,
				  w * h * 3 / 2),
		      "YVU420->YUV420 %dx%d", w, h);
		free(src);
	}
}

static void test_mjpeg(struct v4lconvert_data *ours,
		       struct v4lconvert_data *theirs)
{
	static const int sizes[][2] = { { 640, 480 },
					{ 1280, 720 },
					{ 160, 128 } };
	static const int samps[] = { TJSAMP_422, TJSAMP_420 };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++) {
		for (size_t k = 0; k < JT_ARRAY_SIZE(samps); k++) {
			int w = sizes[s][0], h = sizes[s][1], removed;
			uint8_t *img =
				jt_make_image(w, h, (unsigned)(s * 7 + k));
			size_t n, m;
			uint8_t *jpg =
				jt_compress(img, w, h, samps[k], 85, 0, &n);
			uint8_t *bare = jt_xmalloc(n);

			m = jt_strip_dht(jpg, n, bare, &removed);
			for (int dst = 0; dst < 2; dst++) {
				uint32_t d = dst ? V4L2_PIX_FMT_BGR24
						 : V4L2_PIX_FMT_RGB24;

				CHECK(same_output(ours, theirs,
						  V4L2_PIX_FMT_MJPEG, d, w, h,
						  jpg, (int)n),
				      "MJPEG %s %dx%d", jt_samp_name[samps[k]],
				      w, h);
				CHECK(removed &&
					      same_output(ours, theirs,
							  V4L2_PIX_FMT_MJPEG, d,
							  w, h, bare, (int)m),
				      "MJPEG without DHT %s %dx%d",
				      jt_samp_name[samps[k]], w, h);
			}
			free(img);
			free(jpg);
			free(bare);
		}
	}
}

static void test_corrupt(struct v4lconvert_data *ours,
			 struct v4lconvert_data *theirs)
{
	int w = 320, h = 240;
	uint8_t *img = jt_make_image(w, h, 3);
	size_t n;
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &n);
	uint8_t out[320 * 240 * 3];
	struct v4l2_format s = pixfmt(V4L2_PIX_FMT_MJPEG, w, h);
	struct v4l2_format d = pixfmt(V4L2_PIX_FMT_RGB24, w, h);
	int ra, rb, ea, eb;

	v4lconvert_fixup_fmt(&d);
	/* garbage instead of a JPEG header */
	memset(jpg, 0x5a, 64);
	errno = 0;
	ra = v4lconvert_convert(ours, &s, &d, jpg, (int)n, out, sizeof(out));
	ea = errno;
	errno = 0;
	rb = orig.convert(theirs, &s, &d, jpg, (int)n, out, sizeof(out));
	eb = errno;
	printf("  corrupt header: ours %d errno %d (%s); original %d errno %d\n",
	       ra, ea, v4lconvert_get_error_message(ours), rb, eb);
	CHECK(ra == -1 && ea == EAGAIN, "corrupt frame must give EAGAIN");
	CHECK(rb == -1, "the original rejects it too");
	free(img);
	free(jpg);
}

/* A UVC-like camera: YUYV at small sizes, MJPEG up to 1280x720. */
static struct fakedev camera = {
	.driver = "fakecam",
	.n_formats = 2,
	.formats = {
		{ V4L2_PIX_FMT_YUYV, 3, { { 640, 480 }, { 320, 240 }, { 160, 120 } } },
		{ V4L2_PIX_FMT_MJPEG, 3, { { 1280, 720 }, { 640, 480 }, { 320, 240 } } },
	},
};

static void test_negotiation(struct v4lconvert_data *ours,
			     struct v4lconvert_data *theirs)
{
	static const struct {
		uint32_t fourcc;
		int w, h;
	} req[] = {
		{ V4L2_PIX_FMT_RGB24, 640, 480 },
		{ V4L2_PIX_FMT_BGR24, 320, 240 },
		{ V4L2_PIX_FMT_YUV420, 1280, 720 },
		{ V4L2_PIX_FMT_RGB24, 1280, 720 },
		{ V4L2_PIX_FMT_YVU420, 160, 120 },
		{ V4L2_PIX_FMT_YUYV, 640, 480 },
	};

	for (unsigned i = 0;; i++) {
		struct v4l2_fmtdesc a = { .index = i,
					  .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_fmtdesc b = a;
		int ra = v4lconvert_enum_fmt(ours, &a),
		    rb = orig.enum_fmt(theirs, &b);

		CHECK(ra == rb, "enum_fmt %u: ours %d, original %d", i, ra, rb);
		if (ra || rb)
			break;
		CHECK(a.pixelformat == b.pixelformat && a.flags == b.flags,
		      "enum_fmt %u: ours %.4s/%x, original %.4s/%x", i,
		      (char *)&a.pixelformat, a.flags, (char *)&b.pixelformat,
		      b.flags);
	}
	for (size_t i = 0; i < JT_ARRAY_SIZE(req); i++) {
		struct v4l2_format da =
			pixfmt(req[i].fourcc, req[i].w, req[i].h);
		struct v4l2_format db = da, sa, sb;
		int ra = v4lconvert_try_format(ours, &da, &sa);
		int rb = orig.try_format(theirs, &db, &sb);

		CHECK(ra == 0 && rb == 0 &&
			      sa.fmt.pix.pixelformat ==
				      sb.fmt.pix.pixelformat &&
			      sa.fmt.pix.width == sb.fmt.pix.width &&
			      sa.fmt.pix.height == sb.fmt.pix.height &&
			      da.fmt.pix.width == db.fmt.pix.width &&
			      da.fmt.pix.height == db.fmt.pix.height &&
			      da.fmt.pix.bytesperline ==
				      db.fmt.pix.bytesperline &&
			      da.fmt.pix.sizeimage == db.fmt.pix.sizeimage,
		      "try %.4s %dx%d: ours %.4s %ux%u -> %ux%u (%u), original "
		      "%.4s %ux%u -> %ux%u (%u)",
		      (char *)&req[i].fourcc, req[i].w, req[i].h,
		      (char *)&sa.fmt.pix.pixelformat, sa.fmt.pix.width,
		      sa.fmt.pix.height, da.fmt.pix.width, da.fmt.pix.height,
		      da.fmt.pix.sizeimage, (char *)&sb.fmt.pix.pixelformat,
		      sb.fmt.pix.width, sb.fmt.pix.height, db.fmt.pix.width,
		      db.fmt.pix.height, db.fmt.pix.sizeimage);
	}
}

int main(void)
{
	struct v4lconvert_data *ours, *theirs;

	if (origlib_open(&orig, 1))
		return 77;
	setenv("LIBV4LCONTROL_CONTROLS", "0", 1);
	ours = v4lconvert_create_with_dev_ops(-1, &camera, &fakedev_ops);
	theirs = orig.create_with_dev_ops(-1, &camera, &fakedev_ops);
	if (!ours || !theirs) {
		printf("create failed: ours %p, original %p\n", (void *)ours,
		       (void *)theirs);
		return 1;
	}
	test_repacks(ours, theirs);
	test_mjpeg(ours, theirs);
	test_corrupt(ours, theirs);
	test_negotiation(ours, theirs);
	v4lconvert_destroy(ours);
	orig.destroy(theirs);
	origlib_close(&orig);
	printf("%s: %d checks, %d failures\n", __FILE__, check_count, failures);
	return failures ? 1 : 0;
}
