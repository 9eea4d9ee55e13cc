/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compiled against the DISTRIBUTION's /usr/include/libv4lconvert.h (Debian's
 * libv4l-dev) and linked against our libv4lconvert.so.0: a program built for
 * the original runs on ours. Exercises every exported function through a
 * scripted fake device.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4l-plugin.h>
#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

static struct v4l2_format pixfmt(uint32_t fourcc, uint32_t w, uint32_t h)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	return f;
}

/* BT.601 limited range, the V4L2 default for YUYV webcams. */
static double exact(int y, int u, int v, int ch)
{
	double Y = (y - 16) * 255.0 / 219.0, U = (u - 128) * 255.0 / 224.0,
	       V = (v - 128) * 255.0 / 224.0, r;

	if (ch == 0)
		r = Y + 1.402 * V;
	else if (ch == 1)
		r = Y - 0.114 * 1.772 / 0.587 * U - 0.299 * 1.402 / 0.587 * V;
	else
		r = Y + 1.772 * U;
	return r < 0 ? 0 : r > 255 ? 255 : r;
}

static void test_enum(struct v4lconvert_data *cv)
{
	static const uint32_t want[] = {
		V4L2_PIX_FMT_YUYV,  V4L2_PIX_FMT_MJPEG,  V4L2_PIX_FMT_RGB24,
		V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420
	};
	struct v4l2_fmtdesc d;
	unsigned i;

	for (i = 0; i < 6; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		CHECK(v4lconvert_enum_fmt(cv, &d) == 0, "enum_fmt %u", i);
		CHECK(d.pixelformat == want[i], "enum_fmt %u gave %.4s", i,
		      (char *)&d.pixelformat);
		CHECK(!!(d.flags & V4L2_FMT_FLAG_EMULATED) == (i >= 2),
		      "enum_fmt %u flags %x", i, d.flags);
	}
	memset(&d, 0, sizeof(d));
	d.index = 6;
	d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK(v4lconvert_enum_fmt(cv, &d) == -1 && errno == EINVAL,
	      "enum_fmt past the end");
	CHECK(v4lconvert_supported_dst_fmt_only(cv) == 0, "dst only");
}

static void test_try(struct v4lconvert_data *cv)
{
	struct v4l2_format dst = pixfmt(V4L2_PIX_FMT_RGB24, 640, 480), src;

	CHECK(v4lconvert_try_format(cv, &dst, &src) == 0, "try 640x480");
	/* YUYV is cheaper to convert than MJPEG at the same size */
	CHECK(src.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV,
	      "source for RGB24 640x480 is %.4s",
	      (char *)&src.fmt.pix.pixelformat);
	CHECK(dst.fmt.pix.width == 640 && dst.fmt.pix.height == 480 &&
		      dst.fmt.pix.bytesperline == 1920 &&
		      dst.fmt.pix.sizeimage == 1920 * 480,
	      "dst %ux%u bpl %u size %u", dst.fmt.pix.width, dst.fmt.pix.height,
	      dst.fmt.pix.bytesperline, dst.fmt.pix.sizeimage);
	CHECK(v4lconvert_needs_conversion(cv, &src, &dst), "needs conversion");

	dst = pixfmt(V4L2_PIX_FMT_YUV420, 1280, 720);
	CHECK(v4lconvert_try_format(cv, &dst, &src) == 0, "try 1280x720");
	CHECK(src.fmt.pix.pixelformat == V4L2_PIX_FMT_MJPEG &&
		      src.fmt.pix.width == 1280,
	      "source for 1280x720 is %.4s %u",
	      (char *)&src.fmt.pix.pixelformat, src.fmt.pix.width);

	/* native formats are answered by the device */
	dst = pixfmt(V4L2_PIX_FMT_YUYV, 320, 240);
	CHECK(v4lconvert_try_format(cv, &dst, &src) == 0 &&
		      dst.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
		      !v4lconvert_needs_conversion(cv, &src, &dst),
	      "native try");
}

static void test_sizes(struct v4lconvert_data *cv)
{
	struct v4l2_frmsizeenum fs;
	struct v4l2_frmivalenum fi;
	int n = 0, have720 = 0, have160 = 0;

	for (unsigned i = 0;; i++) {
		memset(&fs, 0, sizeof(fs));
		fs.index = i;
		fs.pixel_format = V4L2_PIX_FMT_RGB24;
		if (v4lconvert_enum_framesizes(cv, &fs))
			break;
		n++;
		have720 |=
			fs.discrete.width == 1280 && fs.discrete.height == 720;
		have160 |=
			fs.discrete.width == 160 && fs.discrete.height == 120;
	}
	/* the three native sizes, and a quarter of the MJPEG 640x480
	 * (decoded straight to it, src/jpeg/mjpeg.h); 640x360 is served
	 * from YUYV 640x480 instead, so not listed */
	CHECK(n == 4 && have720 && have160, "emulated RGB24 sizes: %d", n);

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = V4L2_PIX_FMT_BGR24;
	fi.width = 640;
	fi.height = 480;
	CHECK(v4lconvert_enum_frameintervals(cv, &fi) == 0 &&
		      fi.discrete.denominator == 30 &&
		      fi.pixel_format == V4L2_PIX_FMT_BGR24,
	      "emulated frame interval");
	v4lconvert_set_fps(cv, 15);
	CHECK(v4lconvert_get_fps(cv) == 15, "fps");
}

static void test_convert(struct v4lconvert_data *cv)
{
	enum { W = 64, H = 48 };
	static unsigned char yuyv[W * H * 2], rgb[W * H * 3], bgr[W * H * 3];
	struct v4l2_format s = pixfmt(V4L2_PIX_FMT_YUYV, W, H);
	struct v4l2_format d = pixfmt(V4L2_PIX_FMT_RGB24, W, H);
	double worst = 0;
	int ret;

	for (int i = 0; i < W * H / 2; i++) {
		yuyv[4 * i] = (unsigned char)(16 + i % 220);
		yuyv[4 * i + 1] = (unsigned char)(i * 7);
		yuyv[4 * i + 2] = (unsigned char)(16 + (i * 3) % 220);
		yuyv[4 * i + 3] = (unsigned char)(255 - i * 5);
	}
	v4lconvert_fixup_fmt(&d);
	ret = v4lconvert_convert(cv, &s, &d, yuyv, sizeof(yuyv), rgb,
				 sizeof(rgb));
	CHECK(ret == W * H * 3, "YUYV->RGB24 returned %d (%s)", ret,
	      v4lconvert_get_error_message(cv));
	for (int i = 0; i < W * H; i++) {
		int pair = i / 2, y = yuyv[4 * pair + 2 * (i & 1)];
		int u = yuyv[4 * pair + 1], v = yuyv[4 * pair + 3];

		for (int c = 0; c < 3; c++) {
			double e = fabs(rgb[3 * i + c] - exact(y, u, v, c));

			worst = e > worst ? e : worst;
		}
	}
	CHECK(worst <= 1.0, "YUYV->RGB24 error %.3f levels", worst);

	s = pixfmt(V4L2_PIX_FMT_RGB24, W, H);
	d = pixfmt(V4L2_PIX_FMT_BGR24, W, H);
	ret = v4lconvert_convert(cv, &s, &d, rgb, sizeof(rgb), bgr,
				 sizeof(bgr));
	CHECK(ret == W * H * 3, "RGB24->BGR24 returned %d", ret);
	for (int i = 0; i < W * H; i++)
		CHECK(bgr[3 * i] == rgb[3 * i + 2] &&
			      bgr[3 * i + 1] == rgb[3 * i + 1] &&
			      bgr[3 * i + 2] == rgb[3 * i],
		      "swap at %d", i);

	/* errors */
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &d, rgb, sizeof(rgb), bgr, 100);
	CHECK(ret == -1 && errno == EFAULT, "small dest: %d errno %d", ret,
	      errno);
	CHECK(strlen(v4lconvert_get_error_message(cv)) > 0, "error message");
	s = pixfmt(v4l2_fourcc('Z', 'Z', 'Z', 'Z'), W, H);
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &d, rgb, sizeof(rgb), bgr,
				 sizeof(bgr));
	CHECK(ret == -1 && errno == EINVAL, "unknown format: %d errno %d", ret,
	      errno);
	s = pixfmt(V4L2_PIX_FMT_YUYV, W, H);
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &d, yuyv, 1000, bgr, sizeof(bgr));
	CHECK(ret == -1 && errno == EPIPE, "short frame: %d errno %d", ret,
	      errno);
}

int main(void)
{
	struct fakedev dev = {
		.driver = "fakedev",
		.n_formats = 2,
		.formats = {
			{ V4L2_PIX_FMT_YUYV, 2, { { 640, 480 }, { 320, 240 } } },
			{ V4L2_PIX_FMT_MJPEG, 2, { { 1280, 720 }, { 640, 480 } } },
		},
	};
	struct v4l2_format f = pixfmt(V4L2_PIX_FMT_YUV420, 641, 479);
	struct v4lconvert_data *cv;

	CHECK(v4lconvert_get_default_dev_ops() != NULL, "default ops");
	CHECK(v4lconvert_supported_dst_format(V4L2_PIX_FMT_RGB24) &&
		      v4lconvert_supported_dst_format(V4L2_PIX_FMT_YVU420) &&
		      !v4lconvert_supported_dst_format(V4L2_PIX_FMT_YUYV),
	      "supported_dst_format");
	v4lconvert_fixup_fmt(&f);
	CHECK(f.fmt.pix.bytesperline == 641 &&
		      f.fmt.pix.sizeimage == 641 * 479 + 2 * 321 * 240,
	      "fixup YU12 641x479: %u %u", f.fmt.pix.bytesperline,
	      f.fmt.pix.sizeimage);

	cv = v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
	CHECK(cv != NULL, "create_with_dev_ops");
	if (!cv)
		return 1;
	test_enum(cv);
	test_try(cv);
	test_sizes(cv);
	test_convert(cv);
	v4lconvert_destroy(cv);

	printf("%s: %d failures\n", __FILE__, failures);
	return failures ? 1 : 0;
}
