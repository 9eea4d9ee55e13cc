/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG cameras asked for 1/2, 1/4 or 1/8 of a size they give: try_format
 * answers the request from that native size, and v4lconvert_convert
 * decodes straight to it with libjpeg-turbo's scaled IDCT. Checked through
 * the public API on a scripted MJPEG camera against libjpeg-turbo's own
 * scaled decode of the same frame (tjDecompress2 for RGB24/BGR24,
 * tjDecompressToYUVPlanes with the tests' chroma averaging for YU12/YV12),
 * byte for byte; a size that is no 1/n of a native one is still the
 * centred crop of the full-size decode, as before; enum_framesizes lists
 * the fractions that need no rounding after the native sizes, each of them
 * a size try_format gives as it is; a camera with a native format that is
 * not JPEG keeps its answers and its list; corrupt frames at the scaled
 * sizes fail with EAGAIN or EPIPE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/check.h"
#include "../common/fakedev.h"
#include "../jpeg/jpegtest.h"

static struct v4l2_format pixfmt(uint32_t fourcc, uint32_t w, uint32_t h)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	return f;
}

static const uint32_t dsts[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				 V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

/* A camera of one MJPEG size sw x sh; requests of 1/2, 1/4 and 1/8. */
static void scaled_requests(const char *driver, int sw, int sh, int subsamp)
{
	struct fakedev dev = { .driver = driver, .n_formats = 1 };
	uint8_t *img = jt_make_image(sw, sh, 5), *bare;
	size_t n, m;
	uint8_t *jpg = jt_compress(img, sw, sh, subsamp, 85, 0, &n);
	struct v4lconvert_data *cv;
	int removed;

	bare = jt_xmalloc(n);
	m = jt_strip_dht(jpg, n, bare, &removed); /* as webcams send it */
	dev.formats[0].fourcc = V4L2_PIX_FMT_MJPEG;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = (uint32_t)sw;
	dev.formats[0].sizes[0][1] = (uint32_t)sh;
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	CHECK(cv != NULL, "v4lconvert_create_with_dev_ops");
	for (int denom = 2; denom <= 8; denom *= 2)
		for (size_t f = 0; f < JT_ARRAY_SIZE(dsts); f++) {
			int w = (sw + denom - 1) / denom;
			int h = (sh + denom - 1) / denom;
			struct v4l2_format d = pixfmt(dsts[f], (uint32_t)w,
						      (uint32_t)h),
					   s;
			size_t need = jt_dst_bytes(dsts[f], w, h);
			uint8_t *out = jt_xmalloc(need), *ref;
			int r;

			r = v4lconvert_try_format(cv, &d, &s);
			CHECK(r == 0 && d.fmt.pix.width == (uint32_t)w &&
				      d.fmt.pix.height == (uint32_t)h &&
				      s.fmt.pix.pixelformat ==
					      V4L2_PIX_FMT_MJPEG &&
				      s.fmt.pix.width == (uint32_t)sw &&
				      s.fmt.pix.height == (uint32_t)sh,
			      "%s %dx%d 1/%d %.4s: try gave %ux%u from %ux%u",
			      driver, sw, sh, denom, (const char *)&dsts[f],
			      d.fmt.pix.width, d.fmt.pix.height,
			      s.fmt.pix.width, s.fmt.pix.height);
			s = pixfmt(V4L2_PIX_FMT_MJPEG, (uint32_t)sw,
				   (uint32_t)sh);
			r = v4lconvert_convert(cv, &s, &d, bare, (int)m, out,
					       (int)need);
			ref = jt_reference_decode(bare, m, dsts[f], w, h,
						  subsamp);
			CHECK(r == (int)need && ref && !memcmp(out, ref, need),
			      "%s %dx%d 1/%d %.4s: convert %d (%s), differs "
			      "from libjpeg-turbo's scaled decode",
			      driver, sw, sh, denom, (const char *)&dsts[f], r,
			      v4lconvert_get_error_message(cv));
			/* a cut frame: the scaled path reports it */
			r = v4lconvert_convert(cv, &s, &d, bare, (int)(m / 3),
					       out, (int)need);
			CHECK(r < 0 && (errno == EAGAIN || errno == EPIPE),
			      "cut frame at 1/%d: %d errno %d", denom, r,
			      errno);
			r = v4lconvert_convert(cv, &s, &d, bare, 100, out,
					       (int)need);
			CHECK(r < 0 && errno == EAGAIN,
			      "header cut at 1/%d: %d errno %d", denom, r,
			      errno);
			free(out);
			free(ref);
		}
	v4lconvert_destroy(cv);
	free(img);
	free(jpg);
	free(bare);
}

/* Another size from the same frame: the centred crop of the full decode. */
static void other_size(void)
{
	const int sw = 1280, sh = 720, w = 800, h = 450;
	struct fakedev dev = { .driver = "uvcvideo", .n_formats = 1 };
	uint8_t *img = jt_make_image(sw, sh, 7);
	size_t n;
	uint8_t *jpg = jt_compress(img, sw, sh, TJSAMP_422, 85, 0, &n);
	uint8_t *full =
		jt_reference_decode(jpg, n, V4L2_PIX_FMT_RGB24, sw, sh, 0);
	uint8_t *out = jt_xmalloc((size_t)w * h * 3);
	struct v4l2_format s = pixfmt(V4L2_PIX_FMT_MJPEG, sw, sh);
	struct v4l2_format d = pixfmt(V4L2_PIX_FMT_RGB24, w, h);
	struct v4lconvert_data *cv;
	int ox = ((sw - w) / 2) & ~1, oy = ((sh - h) / 2) & ~1, bad = 0, r;

	dev.formats[0].fourcc = V4L2_PIX_FMT_MJPEG;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = sw;
	dev.formats[0].sizes[0][1] = sh;
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	r = v4lconvert_convert(cv, &s, &d, jpg, (int)n, out, w * h * 3);
	for (int y = 0; y < h && !bad; y++)
		bad = memcmp(out + (size_t)y * w * 3,
			     full + ((size_t)(y + oy) * sw + ox) * 3,
			     (size_t)w * 3) != 0;
	CHECK(r == w * h * 3 && !bad, "800x450 from 1280x720: %d, bad %d", r,
	      bad);
	/* try_format: the request is no 1/n of the camera's size */
	r = v4lconvert_try_format(cv, &d, &s);
	CHECK(r == 0 && d.fmt.pix.width == (uint32_t)sw &&
		      d.fmt.pix.height == (uint32_t)sh,
	      "try 800x450: %ux%u", d.fmt.pix.width, d.fmt.pix.height);
	v4lconvert_destroy(cv);
	free(img);
	free(jpg);
	free(full);
	free(out);
}

/* The sizes enum_framesizes lists for RGB24, "WxH WxH ..." */
static void listed(struct fakedev *dev, char *buf, size_t size)
{
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(-1, dev, &fakedev_ops);
	struct v4l2_frmsizeenum e;
	size_t o = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < 32; i++) {
		struct v4l2_format d, s;

		memset(&e, 0, sizeof(e));
		e.index = i;
		e.pixel_format = V4L2_PIX_FMT_RGB24;
		if (v4lconvert_enum_framesizes(cv, &e))
			break;
		o += (size_t)snprintf(buf + o, size - o, "%s%ux%u",
				      i ? " " : "", e.discrete.width,
				      e.discrete.height);
		d = pixfmt(V4L2_PIX_FMT_RGB24, e.discrete.width,
			   e.discrete.height);
		CHECK(!v4lconvert_try_format(cv, &d, &s) &&
			      d.fmt.pix.width == e.discrete.width &&
			      d.fmt.pix.height == e.discrete.height,
		      "listed %ux%u, try gives %ux%u", e.discrete.width,
		      e.discrete.height, d.fmt.pix.width, d.fmt.pix.height);
	}
	v4lconvert_destroy(cv);
}

static void frame_sizes(void)
{
	struct fakedev dev = { .driver = "uvcvideo", .n_formats = 1 };
	char got[256];

	dev.formats[0].fourcc = V4L2_PIX_FMT_MJPEG;
	dev.formats[0].n_sizes = 3;
	dev.formats[0].sizes[0][0] = 1920;
	dev.formats[0].sizes[0][1] = 1080;
	dev.formats[0].sizes[1][0] = 640;
	dev.formats[0].sizes[1][1] = 480;
	dev.formats[0].sizes[2][0] = 320;
	dev.formats[0].sizes[2][1] = 240;
	listed(&dev, got, sizeof(got));
	/* 240x135 needs rounding; 320x240 is native already */
	CHECK(!strcmp(got, "1920x1080 640x480 320x240 960x540 480x270 "
			   "160x120 80x60 40x30"),
	      "MJPEG camera lists %s", got);
	dev.formats[0].fourcc = V4L2_PIX_FMT_YUYV;
	listed(&dev, got, sizeof(got));
	CHECK(!strcmp(got, "1920x1080 640x480 320x240"), "YUYV camera lists %s",
	      got);
}

/* A YUYV camera asked for half its size: answered as before (its size). */
static void not_jpeg(void)
{
	struct fakedev dev = { .driver = "uvcvideo", .n_formats = 1 };
	struct v4l2_format d = pixfmt(V4L2_PIX_FMT_RGB24, 640, 360), s;
	struct v4lconvert_data *cv;
	int r;

	dev.formats[0].fourcc = V4L2_PIX_FMT_YUYV;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = 1280;
	dev.formats[0].sizes[0][1] = 720;
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	r = v4lconvert_try_format(cv, &d, &s);
	CHECK(r == 0 && d.fmt.pix.width == 1280 && d.fmt.pix.height == 720,
	      "YUYV camera, 640x360: %ux%u", d.fmt.pix.width, d.fmt.pix.height);
	v4lconvert_destroy(cv);
}

int main(void)
{
	scaled_requests("uvcvideo", 1920, 1080, TJSAMP_422);
	scaled_requests("fakecam", 1000, 750, TJSAMP_420);
	scaled_requests("uvcvideo", 640, 480, TJSAMP_444);
	other_size();
	not_jpeg();
	frame_sizes();
	printf("%d checks, %d failures\n", (int)check_count, (int)failures);
	return failures ? 1 : 0;
}
