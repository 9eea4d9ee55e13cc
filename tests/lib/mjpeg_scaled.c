/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG cameras asked for 1/2, 1/4 or 1/8 of a size they give: try_format
 * answers the request from that native size, and v4lconvert_convert
 * decodes straight to it with libjpeg-turbo's scaled IDCT. Checked through
 * the public API on a scripted MJPEG camera against libjpeg-turbo's own
 * scaled decode of the same frame (tjDecompress2 for RGB24/BGR24,
 * tjDecompressToYUVPlanes with the tests' chroma averaging for YU12/YV12),
 * byte for byte; a size that is no 1/n of a native one is still the
 * centred crop of the full-size decode, as before; a camera with a native
 * format that is not JPEG keeps its answers; corrupt frames at the scaled
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

static size_t dst_bytes(uint32_t fcc, int w, int h)
{
	if (fcc == V4L2_PIX_FMT_RGB24 || fcc == V4L2_PIX_FMT_BGR24)
		return (size_t)w * h * 3;
	return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

/* libjpeg-turbo's decode of jpg at w x h (scaled by it when smaller). */
static uint8_t *reference(const uint8_t *jpg, size_t n, uint32_t fcc, int w,
			  int h, int subsamp)
{
	size_t ys = (size_t)w * h, cs = (size_t)((w + 1) / 2) * ((h + 1) / 2);
	tjhandle d;
	uint8_t *out;

	if (fcc == V4L2_PIX_FMT_YUV420 || fcc == V4L2_PIX_FMT_YVU420) {
		out = jt_reference_yuv420(jpg, n, w, h, subsamp);
		if (out && fcc == V4L2_PIX_FMT_YVU420) {
			uint8_t *tmp = jt_xmalloc(cs);

			memcpy(tmp, out + ys, cs);
			memmove(out + ys, out + ys + cs, cs);
			memcpy(out + ys + cs, tmp, cs);
			free(tmp);
		}
		return out;
	}
	d = tjInitDecompress();
	out = jt_xmalloc(ys * 3);
	if (tjDecompress2(d, jpg, n, out, w, 3 * w, h,
			  fcc == V4L2_PIX_FMT_RGB24 ? TJPF_RGB : TJPF_BGR, 0)) {
		fprintf(stderr, "reference: %s\n", tjGetErrorStr2(d));
		exit(99);
	}
	tjDestroy(d);
	return out;
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
			size_t need = dst_bytes(dsts[f], w, h);
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
			ref = reference(bare, m, dsts[f], w, h, subsamp);
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
	uint8_t *full = reference(jpg, n, V4L2_PIX_FMT_RGB24, sw, sh, 0);
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
	printf("%d checks, %d failures\n", (int)check_count, (int)failures);
	return failures ? 1 : 0;
}
