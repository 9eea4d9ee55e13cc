/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The "fake" resolutions: a device that cannot give the requested size
 * exactly still serves it by crop (border pixels of a sensor, or a source up
 * to 125 %), a black border of up to 16 pixels, or a 2x reduction. Each case
 * is checked against the full-size conversion cut, padded or averaged by
 * independent code here.
 */
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
	return f;
}

/* Expected pixel of the request from the full-size RGB image. */
static int expect(const uint8_t *full, int fw, int fh, int rw, int rh,
		  int halve, int x, int y, int c)
{
	int sw = halve ? fw / 2 : fw, sh = halve ? fh / 2 : fh;
	int ox = ((sw - rw) / 2) & ~1, oy = ((sh - rh) / 2) & ~1;
	int sx = x + ox, sy = y + oy;

	if (sx < 0 || sy < 0 || sx >= sw || sy >= sh)
		return 0;
	if (!halve)
		return full[((size_t)sy * fw + sx) * 3 + c];
	return (full[((size_t)(2 * sy) * fw + 2 * sx) * 3 + c] +
		full[((size_t)(2 * sy) * fw + 2 * sx + 1) * 3 + c] +
		full[((size_t)(2 * sy + 1) * fw + 2 * sx) * 3 + c] +
		full[((size_t)(2 * sy + 1) * fw + 2 * sx + 1) * 3 + c] + 2) >>
	       2;
}

static void check_case(const char *name, uint32_t sw, uint32_t sh, uint32_t rw,
		       uint32_t rh, int halve)
{
	struct fakedev dev = { .driver = "fakecam", .n_formats = 1 };
	struct v4l2_format d = pixfmt(V4L2_PIX_FMT_RGB24, rw, rh), s;
	struct v4l2_format full_d = pixfmt(V4L2_PIX_FMT_RGB24, sw, sh);
	struct v4lconvert_data *cv;
	size_t n = (size_t)sw * sh * 2;
	uint8_t *yuyv = malloc(n), *full = malloc((size_t)sw * sh * 3),
		*out = malloc((size_t)rw * rh * 3);
	int bad = 0, ret;

	dev.formats[0].fourcc = V4L2_PIX_FMT_YUYV;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = sw;
	dev.formats[0].sizes[0][1] = sh;
	for (size_t i = 0; i < n; i++)
		yuyv[i] = (uint8_t)(16 + (i * 37 + i / 7) % 220);

	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	if (v4lconvert_try_format(cv, &d, &s) || s.fmt.pix.width != sw ||
	    s.fmt.pix.height != sh || d.fmt.pix.width != rw ||
	    d.fmt.pix.height != rh) {
		CHECK(0, "%s: try gave %ux%u from %ux%u", name, d.fmt.pix.width,
		      d.fmt.pix.height, s.fmt.pix.width, s.fmt.pix.height);
		goto out;
	}
	s.fmt.pix.bytesperline = sw * 2;
	v4lconvert_fixup_fmt(&full_d);
	ret = v4lconvert_convert(cv, &s, &full_d, yuyv, (int)n, full,
				 (int)(sw * sh * 3));
	ret |= v4lconvert_convert(cv, &s, &d, yuyv, (int)n, out,
				  (int)(rw * rh * 3)) != (int)(rw * rh * 3);
	for (uint32_t y = 0; y < rh && !bad; y++)
		for (uint32_t x = 0; x < rw && !bad; x++)
			for (int c = 0; c < 3; c++)
				if (out[(y * rw + x) * 3 + c] !=
				    expect(full, (int)sw, (int)sh, (int)rw,
					   (int)rh, halve, (int)x, (int)y, c)) {
					printf("%s: first difference at pixel "
					       "%u,%u\n",
					       name, x, y);
					bad = 1;
					break;
				}
	CHECK(ret >= 0 && !bad, "%s: %s", name,
	      ret < 0 ? v4lconvert_get_error_message(cv) : "pixels differ");
	if (ret >= 0 && !bad)
		printf("ok %s: %ux%u served from %ux%u\n", name, rw, rh, sw,
		       sh);
out:
	v4lconvert_destroy(cv);
	free(yuyv);
	free(full);
	free(out);
}

int main(void)
{
	check_case("sensor border pixels", 646, 481, 640, 480, 0);
	check_case("crop to 125%", 400, 300, 352, 288, 0);
	check_case("black border", 312, 232, 320, 240, 0);
	check_case("2x reduction", 704, 576, 320, 240, 1);
	printf("fake sizes: %d failures\n", failures);
	return failures != 0;
}
