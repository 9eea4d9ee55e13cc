/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A destination format the device offers itself, beside one that needs
 * converting (the frame server's MJPEG camera offers MJPG and YU12; some
 * UVC cameras MJPG and YU12 or RGB3): try_format chooses the native one at
 * an enumerated size and must give its layout, the driver's answer and
 * never less than the frame needs. It gave bytesperline 0 and sizeimage 0,
 * and libv4l2 passed that to the application.
 *
 * The fake device answers TRY_FMT with bytesperline 0 and sizeimage
 * width * height * 2 (tests/common/fakedev.c): the expected layout is the
 * larger of that and the frame's own size, computed here.
 */
#include <stdio.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/check.h"
#include "../common/fakedev.h"

#define W 640
#define H 480

/* stride and frame: the format's own, at W x H */
static void check_native(uint32_t fourcc, uint32_t stride, uint32_t frame)
{
	struct fakedev dev = { .driver = "fakecam", .n_formats = 2 };
	struct v4l2_format d, s;
	struct v4lconvert_data *cv;
	uint32_t w = W, h = H, fake = W * H * 2;

	dev.formats[0].fourcc = V4L2_PIX_FMT_MJPEG;
	dev.formats[1].fourcc = fourcc;
	for (int f = 0; f < 2; f++) {
		dev.formats[f].n_sizes = 2;
		dev.formats[f].sizes[0][0] = w;
		dev.formats[f].sizes[0][1] = h;
		dev.formats[f].sizes[1][0] = 320;
		dev.formats[f].sizes[1][1] = 240;
	}
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	CHECK(cv != NULL);
	if (!cv)
		return;
	memset(&d, 0, sizeof(d));
	d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	d.fmt.pix.pixelformat = fourcc;
	d.fmt.pix.width = w;
	d.fmt.pix.height = h;
	CHECK(v4lconvert_try_format(cv, &d, &s) == 0);
	CHECK(s.fmt.pix.pixelformat == fourcc, "%.4s: source %.4s",
	      (char *)&fourcc, (char *)&s.fmt.pix.pixelformat);
	CHECK(d.fmt.pix.pixelformat == fourcc && d.fmt.pix.width == w &&
	      d.fmt.pix.height == h);
	CHECK(d.fmt.pix.bytesperline == stride, "%.4s: bytesperline %u",
	      (char *)&fourcc, d.fmt.pix.bytesperline);
	CHECK(d.fmt.pix.sizeimage == (fake > frame ? fake : frame),
	      "%.4s: sizeimage %u", (char *)&fourcc, d.fmt.pix.sizeimage);
	CHECK(!v4lconvert_needs_conversion(cv, &s, &d), "%.4s",
	      (char *)&fourcc);
	printf("%.4s: %ux%u bytesperline %u sizeimage %u\n", (char *)&fourcc,
	       d.fmt.pix.width, d.fmt.pix.height, d.fmt.pix.bytesperline,
	       d.fmt.pix.sizeimage);
	v4lconvert_destroy(cv);
}

int main(void)
{
	/* planar 4:2:0: the luma row, and 1.5 bytes a pixel */
	check_native(V4L2_PIX_FMT_YUV420, W, W * H * 3 / 2);
	check_native(V4L2_PIX_FMT_YVU420, W, W * H * 3 / 2);
	check_native(V4L2_PIX_FMT_RGB24, W * 3, W * H * 3);
	check_native(V4L2_PIX_FMT_BGR24, W * 3, W * H * 3);
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
