/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Packed 4:2:2 destinations (beyond the original): with flips active
 * (LIBV4LCONTROL_FLAGS 1, 2, 3, set before create), a packed YUV camera
 * keeps offering its native packed formats next to the four emulated
 * destination formats, try_format keeps them, needs_conversion says yes,
 * and v4lconvert_convert flips them (and reorders YUYV <-> UYVY etc.).
 *
 * Expected frames come from code written here: a pixel-wise flip of packed
 * 4:2:2 (luma mirrored; chroma pair J taken from the source pair owning the
 * pixel that lands on 2J; an odd width's spare luma slot repeats the last
 * pixel for HFLIP/ROT180, is copied for VFLIP), a byte permutation for the
 * reorders, and a pixel-wise flip of RGB24 frames.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* flags: bit 0 hflip, bit 1 vflip (LIBV4LCONTROL_FLAGS) */
static struct v4lconvert_data *create(struct fakedev *dev, int flags)
{
	char v[12];

	snprintf(v, sizeof(v), "%d", flags);
	setenv("LIBV4LCONTROL_FLAGS", v, 1);
	return v4lconvert_create_with_dev_ops(-1, dev, &fakedev_ops);
}

static void add_format(struct fakedev *dev, uint32_t fourcc, uint32_t w,
		       uint32_t h)
{
	int f = dev->n_formats++;

	dev->formats[f].fourcc = fourcc;
	dev->formats[f].n_sizes = 1;
	dev->formats[f].sizes[0][0] = w;
	dev->formats[f].sizes[0][1] = h;
}

static size_t row_bytes(int w)
{
	return 4 * (size_t)((w + 1) / 2);
}

/* Offsets of Y0, U, Y1, V in a pair. */
static void offsets(uint32_t fourcc, int off[4])
{
	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
		off[0] = 0, off[1] = 1, off[2] = 2, off[3] = 3;
		break;
	case V4L2_PIX_FMT_YVYU:
		off[0] = 0, off[1] = 3, off[2] = 2, off[3] = 1;
		break;
	case V4L2_PIX_FMT_UYVY:
		off[0] = 1, off[1] = 0, off[2] = 3, off[3] = 2;
		break;
	default: /* VYUY */
		off[0] = 1, off[1] = 2, off[2] = 3, off[3] = 0;
		break;
	}
}

/*
 * Expected packed frame: src (format sf, minimal stride) flipped by
 * `flags` into format df.
 */
static void model(const uint8_t *src, uint32_t sf, uint8_t *dst, uint32_t df,
		  int w, int h, int flags)
{
	int so[4], d_o[4], pairs = (w + 1) / 2;
	size_t row = row_bytes(w);

	offsets(sf, so);
	offsets(df, d_o);
	for (int Y = 0; Y < h; Y++) {
		int y = (flags & 2) ? h - 1 - Y : Y;
		const uint8_t *s = src + (size_t)y * row;
		uint8_t *d = dst + (size_t)Y * row;

		for (int X = 0; X < w; X++) {
			int x = (flags & 1) ? w - 1 - X : X;

			d[4 * (X / 2) + d_o[2 * (X % 2)]] =
				s[4 * (x / 2) + so[2 * (x % 2)]];
		}
		if (w & 1) /* spare luma slot of the last pair */
			d[4 * (pairs - 1) + d_o[2]] =
				(flags & 1) ? d[4 * (pairs - 1) + d_o[0]]
					    : s[4 * (pairs - 1) + so[2]];
		for (int J = 0; J < pairs; J++) {
			int x = (flags & 1) ? w - 1 - 2 * J : 2 * J;

			d[4 * J + d_o[1]] = s[4 * (x / 2) + so[1]];
			d[4 * J + d_o[3]] = s[4 * (x / 2) + so[3]];
		}
	}
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(16 + (i * 37 + i / 7 + seed * 101) % 220);
}

/* One packed conversion through the API against the model. */
static void check_packed(uint32_t sf, uint32_t df, int w, int h, int flags)
{
	struct fakedev dev = { .driver = "fakecam" };
	struct v4l2_format s = pixfmt(sf, (uint32_t)w, (uint32_t)h);
	struct v4l2_format d = pixfmt(df, (uint32_t)w, (uint32_t)h);
	size_t n = row_bytes(w) * (size_t)h;
	uint8_t *in = malloc(n), *out = malloc(n + 16), *exp = malloc(n + 16);
	struct v4lconvert_data *cv;
	int ret;

	add_format(&dev, sf, (uint32_t)w, (uint32_t)h);
	cv = create(&dev, flags);
	fill(in, n, (unsigned)(w + h));
	memset(out, 0xee, n + 16);
	memset(exp, 0xee, n + 16);
	model(in, sf, exp, df, w, h, flags);
	CHECK(v4lconvert_needs_conversion(cv, &s, &d) == (flags || sf != df),
	      "%.4s->%.4s flags %d: needs_conversion", (char *)&sf, (char *)&df,
	      flags);
	ret = v4lconvert_convert(cv, &s, &d, in, (int)n, out, (int)n);
	CHECK(ret == (int)n, "%.4s->%.4s %dx%d flags %d: returned %d (%s)",
	      (char *)&sf, (char *)&df, w, h, flags, ret,
	      v4lconvert_get_error_message(cv));
	if (ret == (int)n && memcmp(out, exp, n + 16)) {
		size_t i = 0;

		while (out[i] == exp[i])
			i++;
		CHECK(0,
		      "%.4s->%.4s %dx%d flags %d: byte %zu is %u, "
		      "expected %u",
		      (char *)&sf, (char *)&df, w, h, flags, i, out[i], exp[i]);
	}
	v4lconvert_destroy(cv);
	free(in);
	free(out);
	free(exp);
}

static void test_enum_try(void)
{
	static const uint32_t emu[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
					V4L2_PIX_FMT_YUV420,
					V4L2_PIX_FMT_YVU420 };

	for (int flags = 0; flags < 4; flags++) {
		struct fakedev dev = { .driver = "fakecam" };
		struct v4lconvert_data *cv;
		struct v4l2_fmtdesc fd;
		struct v4l2_format d, s;
		int i;

		add_format(&dev, V4L2_PIX_FMT_YUYV, 640, 480);
		cv = create(&dev, flags);
		CHECK(v4lconvert_supported_dst_fmt_only(cv) == (flags != 0),
		      "flags %d: dst_fmt_only", flags);
		memset(&fd, 0, sizeof(fd));
		fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		CHECK(!v4lconvert_enum_fmt(cv, &fd) &&
			      fd.pixelformat == V4L2_PIX_FMT_YUYV &&
			      !!(fd.flags & V4L2_FMT_FLAG_EMULATED) ==
				      (flags != 0),
		      "flags %d: index 0 is not native YUYV (flagged "
		      "emulated when flipped)",
		      flags);
		for (i = 0; i < 4; i++) {
			memset(&fd, 0, sizeof(fd));
			fd.index = (uint32_t)i + 1;
			fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			CHECK(!v4lconvert_enum_fmt(cv, &fd) &&
				      fd.pixelformat == emu[i] &&
				      (fd.flags & V4L2_FMT_FLAG_EMULATED),
			      "flags %d: index %d is not emulated %.4s", flags,
			      i + 1, (const char *)&emu[i]);
		}
		memset(&fd, 0, sizeof(fd));
		fd.index = 5;
		fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		errno = 0;
		CHECK(v4lconvert_enum_fmt(cv, &fd) == -1 && errno == EINVAL,
		      "flags %d: index 5 exists", flags);

		d = pixfmt(V4L2_PIX_FMT_YUYV, 640, 480);
		CHECK(!v4lconvert_try_format(cv, &d, &s) &&
			      d.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
			      s.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
			      d.fmt.pix.width == 640 && d.fmt.pix.height == 480,
		      "flags %d: try YUYV gave %.4s %ux%u", flags,
		      (char *)&d.fmt.pix.pixelformat, d.fmt.pix.width,
		      d.fmt.pix.height);
		CHECK(v4lconvert_needs_conversion(cv, &s, &d) == (flags != 0),
		      "flags %d: needs_conversion YUYV->YUYV", flags);
		d = pixfmt(V4L2_PIX_FMT_RGB24, 640, 480);
		CHECK(!v4lconvert_try_format(cv, &d, &s) &&
			      d.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24 &&
			      s.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV,
		      "flags %d: try RGB24", flags);
		v4lconvert_destroy(cv);
	}

	/* MJPEG + YUYV, flipped: MJPEG hides, YUYV stays, MJPEG -> RGB24 */
	{
		struct fakedev dev = { .driver = "fakecam" };
		struct v4lconvert_data *cv;
		struct v4l2_fmtdesc fd;
		struct v4l2_format d, s;
		uint32_t seen[8];
		int n = 0;

		add_format(&dev, V4L2_PIX_FMT_MJPEG, 640, 480);
		add_format(&dev, V4L2_PIX_FMT_YUYV, 640, 480);
		cv = create(&dev, 3);
		for (;;) {
			memset(&fd, 0, sizeof(fd));
			fd.index = (uint32_t)n;
			fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			if (v4lconvert_enum_fmt(cv, &fd) || n == 8)
				break;
			seen[n++] = fd.pixelformat;
		}
		CHECK(n == 5 && seen[0] == V4L2_PIX_FMT_YUYV &&
			      seen[1] == V4L2_PIX_FMT_RGB24,
		      "MJPEG+YUYV flipped: %d formats, first %.4s", n,
		      (char *)&seen[0]);
		d = pixfmt(V4L2_PIX_FMT_MJPEG, 640, 480);
		CHECK(!v4lconvert_try_format(cv, &d, &s) &&
			      d.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24,
		      "MJPEG flipped not rewritten to RGB24 (%.4s)",
		      (char *)&d.fmt.pix.pixelformat);
		v4lconvert_destroy(cv);
	}

	/* UYVY-only camera, flipped: YUYV is served by reordering UYVY */
	{
		struct fakedev dev = { .driver = "fakecam" };
		struct v4lconvert_data *cv;
		struct v4l2_format d = pixfmt(V4L2_PIX_FMT_YUYV, 320, 240), s;

		add_format(&dev, V4L2_PIX_FMT_UYVY, 320, 240);
		cv = create(&dev, 1);
		CHECK(!v4lconvert_try_format(cv, &d, &s) &&
			      d.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
			      s.fmt.pix.pixelformat == V4L2_PIX_FMT_UYVY &&
			      d.fmt.pix.width == 320 &&
			      d.fmt.pix.bytesperline == 640 &&
			      d.fmt.pix.sizeimage == 640 * 240,
		      "UYVY camera: try YUYV gave %.4s from %.4s, %u/%u",
		      (char *)&d.fmt.pix.pixelformat,
		      (char *)&s.fmt.pix.pixelformat, d.fmt.pix.bytesperline,
		      d.fmt.pix.sizeimage);
		v4lconvert_destroy(cv);
	}
}

static void test_frames(void)
{
	static const int sizes[][2] = { { 640, 480 }, { 33, 7 }, { 1, 1 },
					{ 17, 3 },    { 16, 2 }, { 1279, 5 } };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int w = sizes[i][0], h = sizes[i][1];

		for (int flags = 0; flags < 4; flags++) {
			if (flags)
				check_packed(V4L2_PIX_FMT_YUYV,
					     V4L2_PIX_FMT_YUYV, w, h, flags);
			check_packed(V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YUYV, w, h,
				     flags);
			check_packed(V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, w, h,
				     flags);
			if (flags == 3 || i == 1) {
				check_packed(V4L2_PIX_FMT_UYVY,
					     V4L2_PIX_FMT_UYVY, w, h, 3);
				check_packed(V4L2_PIX_FMT_VYUY,
					     V4L2_PIX_FMT_YVYU, w, h, flags);
				check_packed(V4L2_PIX_FMT_YVYU,
					     V4L2_PIX_FMT_YVYU, w, h, 1);
			}
		}
	}
}

/* RGB24 frame of a YUYV frame through the API (flags as given). */
static int to_rgb(const uint8_t *in, uint32_t fourcc, int w, int h, int flags,
		  uint8_t *rgb)
{
	struct fakedev dev = { .driver = "fakecam" };
	struct v4l2_format s = pixfmt(fourcc, (uint32_t)w, (uint32_t)h);
	struct v4l2_format d =
		pixfmt(V4L2_PIX_FMT_RGB24, (uint32_t)w, (uint32_t)h);
	struct v4lconvert_data *cv;
	int n = (int)(row_bytes(w) * (size_t)h), ret;

	add_format(&dev, fourcc, (uint32_t)w, (uint32_t)h);
	cv = create(&dev, flags);
	ret = v4lconvert_convert(cv, &s, &d, (uint8_t *)in, n, rgb, w * h * 3);
	v4lconvert_destroy(cv);
	return ret;
}

/* Packed frame flipped by the API. */
static int to_packed(const uint8_t *in, int w, int h, int flags, uint8_t *out)
{
	struct fakedev dev = { .driver = "fakecam" };
	struct v4l2_format s =
		pixfmt(V4L2_PIX_FMT_YUYV, (uint32_t)w, (uint32_t)h);
	struct v4lconvert_data *cv;
	int n = (int)(row_bytes(w) * (size_t)h), ret;

	add_format(&dev, V4L2_PIX_FMT_YUYV, (uint32_t)w, (uint32_t)h);
	cv = create(&dev, flags);
	ret = v4lconvert_convert(cv, &s, &s, (uint8_t *)in, n, out, n);
	v4lconvert_destroy(cv);
	return ret;
}

/*
 * The RGB path and the packed path agree: RGB24 of the flipped camera ==
 * RGB24 of the unflipped camera flipped here == RGB24 (unflipped) of the
 * flipped YUYV output (even widths: each pixel keeps its own chroma).
 */
static void test_consistency(void)
{
	static const int sizes[][2] = { { 640, 480 }, { 34, 6 }, { 18, 3 } };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int w = sizes[i][0], h = sizes[i][1];
		size_t n = row_bytes(w) * (size_t)h, rn = (size_t)w * h * 3;
		uint8_t *in = malloc(n), *flipped = malloc(n);
		uint8_t *plain = malloc(rn), *rgb = malloc(rn),
			*via = malloc(rn), *exp = malloc(rn);

		fill(in, n, (unsigned)i);
		CHECK(to_rgb(in, V4L2_PIX_FMT_YUYV, w, h, 0, plain) == (int)rn,
		      "%dx%d: unflipped RGB24", w, h);
		for (int flags = 1; flags < 4; flags++) {
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					int sy = (flags & 2) ? h - 1 - y : y;
					int sx = (flags & 1) ? w - 1 - x : x;

					memcpy(exp + ((size_t)y * w + x) * 3,
					       plain + ((size_t)sy * w + sx) *
							       3,
					       3);
				}
			CHECK(to_rgb(in, V4L2_PIX_FMT_YUYV, w, h, flags, rgb) ==
					      (int)rn &&
				      !memcmp(rgb, exp, rn),
			      "%dx%d flags %d: flipped RGB24 != flip of RGB24",
			      w, h, flags);
			CHECK(to_packed(in, w, h, flags, flipped) == (int)n &&
				      to_rgb(flipped, V4L2_PIX_FMT_YUYV, w, h,
					     0, via) == (int)rn &&
				      !memcmp(via, exp, rn),
			      "%dx%d flags %d: RGB24 of flipped YUYV != "
			      "flipped RGB24",
			      w, h, flags);
		}
		free(in);
		free(flipped);
		free(plain);
		free(rgb);
		free(via);
		free(exp);
	}
}

static void test_errors(void)
{
	struct fakedev dev = { .driver = "fakecam" };
	struct v4l2_format s = pixfmt(V4L2_PIX_FMT_YUYV, 64, 8);
	struct v4l2_format u = pixfmt(V4L2_PIX_FMT_UYVY, 64, 8);
	static uint8_t in[64 * 8 * 2], out[64 * 8 * 2];
	struct v4lconvert_data *cv;
	int n = (int)sizeof(in), ret;

	add_format(&dev, V4L2_PIX_FMT_YUYV, 64, 8);
	cv = create(&dev, 1);
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &s, in, n - 1, out, n);
	CHECK(ret == -1 && errno == EPIPE, "short frame: %d errno %d", ret,
	      errno);
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &u, in, n - 1, out, n);
	CHECK(ret == -1 && errno == EPIPE, "short frame (reorder): %d errno %d",
	      ret, errno);
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &s, in, n, out, n - 1);
	CHECK(ret == -1 && errno == EFAULT, "dest too small: %d errno %d", ret,
	      errno);
	errno = 0;
	ret = v4lconvert_convert(cv, &s, &u, in, n, out, n - 1);
	CHECK(ret == -1 && errno == EFAULT,
	      "dest too small (reorder): %d errno %d", ret, errno);
	/* a padded destination stride is honoured */
	{
		static uint8_t big[160 * 8];
		struct v4l2_format p = s;

		p.fmt.pix.bytesperline = 160;
		ret = v4lconvert_convert(cv, &s, &p, in, n, big, 160 * 8 - 1);
		CHECK(ret == -1 && errno == EFAULT, "padded dest short: %d",
		      ret);
		ret = v4lconvert_convert(cv, &s, &p, in, n, big,
					 (int)sizeof(big));
		CHECK(ret == (int)sizeof(big), "padded dest: %d (%s)", ret,
		      v4lconvert_get_error_message(cv));
	}
	v4lconvert_destroy(cv);
}

/* The model must be able to fail: it is not the identity. */
static void test_negative_control(void)
{
	uint8_t in[4 * 3 * 2], a[sizeof(in)], b[sizeof(in)];

	fill(in, sizeof(in), 7);
	model(in, V4L2_PIX_FMT_YUYV, a, V4L2_PIX_FMT_YUYV, 6, 2, 1);
	model(in, V4L2_PIX_FMT_YUYV, b, V4L2_PIX_FMT_UYVY, 6, 2, 1);
	CHECK(memcmp(a, in, sizeof(in)) && memcmp(a, b, sizeof(in)),
	      "model is degenerate");
}

int main(void)
{
	test_negative_control();
	test_enum_try();
	test_frames();
	test_consistency();
	test_errors();
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
