/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Emulated controls through the public API on a fake camera with two real
 * controls (BRIGHTNESS, CONTRAST): which fake controls exist, enumeration
 * with V4L2_CTRL_FLAG_NEXT_CTRL merged in id order, G/S_CTRL with range
 * checks, extended controls split between fake and real with error_idx
 * mapped back, and the flip controls acting on the picture (inverted on a
 * camera flagged upside down).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

enum { W = 6, H = 4 };

static struct fakedev camera(void)
{
	struct fakedev d = {
		.driver = "fakecam",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_RGB24, 1, { { W, H } } } },
		.n_ctrls = 2,
		.ctrl_ids = { V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST },
		.ctrl_values = { 10, 20 },
	};
	return d;
}

/* Flip applied to an RGB24 frame: bit 0 mirrored, bit 1 upside down. */
static int flip_of(struct v4lconvert_data *cv)
{
	struct v4l2_format f;
	uint8_t src[W * H * 3], out[W * H * 3];

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.bytesperline = W * 3;
	for (int i = 0; i < W * H * 3; i++)
		src[i] = (uint8_t)(i * 5 + 3);
	if (v4lconvert_convert(cv, &f, &f, src, sizeof(src), out, sizeof(out)) <
	    0)
		return -1;
	for (int flip = 0; flip < 4; flip++) {
		int same = 1;

		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++)
				same &= !memcmp(out + (y * W + x) * 3,
						src + ((flip & 2 ? H - 1 - y
								 : y) *
							       W +
						       (flip & 1 ? W - 1 - x
								 : x)) *
								3,
						3);
		if (same)
			return flip;
	}
	return -1;
}

static int set(struct v4lconvert_data *cv, uint32_t id, int32_t v)
{
	struct v4l2_control c = { .id = id, .value = v };

	return v4lconvert_vidioc_s_ctrl(cv, &c);
}

static int get(struct v4lconvert_data *cv, uint32_t id)
{
	struct v4l2_control c = { .id = id };

	return v4lconvert_vidioc_g_ctrl(cv, &c) ? -1000 : c.value;
}

int main(void)
{
	struct fakedev dev = camera();
	struct v4lconvert_data *cv;
	struct v4l2_queryctrl q;
	uint32_t ids[16];
	int n = 0;

	/* A plain camera: no fake controls, everything from the device. */
	unsetenv("LIBV4LCONTROL_CONTROLS");
	unsetenv("LIBV4LCONTROL_FLAGS");
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_HFLIP;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == -1,
	      "plain camera has no fake HFLIP");
	CHECK(get(cv, V4L2_CID_BRIGHTNESS) == 10, "device control");
	CHECK(flip_of(cv) == 0, "no flip");
	v4lconvert_destroy(cv);

	/* Upside down: white balance, flips and gamma are emulated. */
	setenv("LIBV4LCONTROL_FLAGS", "3", 1);
	dev = camera();
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	for (uint32_t id = V4L2_CTRL_FLAG_NEXT_CTRL; n < 16;) {
		memset(&q, 0, sizeof(q));
		q.id = id;
		if (v4lconvert_vidioc_queryctrl(cv, &q))
			break;
		ids[n++] = q.id;
		id = q.id | V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	CHECK(n == 6 && ids[0] == V4L2_CID_BRIGHTNESS &&
		      ids[1] == V4L2_CID_CONTRAST &&
		      ids[2] == V4L2_CID_AUTO_WHITE_BALANCE &&
		      ids[3] == V4L2_CID_GAMMA && ids[4] == V4L2_CID_HFLIP &&
		      ids[5] == V4L2_CID_VFLIP,
	      "enumeration: %d controls", n);
	for (int i = 1; i < n; i++)
		CHECK(ids[i] > ids[i - 1], "ascending ids");
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_GAMMA;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == 0 && q.minimum == 500 &&
		      q.maximum == 3000 && q.default_value == 1000,
	      "gamma range");
	CHECK(get(cv, V4L2_CID_HFLIP) == 0 && flip_of(cv) == 3,
	      "corrected: HFLIP=0 shows the picture upright (flip %d)",
	      flip_of(cv));
	CHECK(set(cv, V4L2_CID_HFLIP, 1) == 0 && flip_of(cv) == 2,
	      "HFLIP=1 mirrors relative to upright");
	errno = 0;
	CHECK(set(cv, V4L2_CID_GAMMA, 4000) == -1 && errno == EINVAL,
	      "gamma out of range");
	CHECK(set(cv, V4L2_CID_GAMMA, 1500) == 0 &&
		      get(cv, V4L2_CID_GAMMA) == 1500,
	      "gamma set");
	/* back to no processing: flip_of compares pixels exactly */
	set(cv, V4L2_CID_GAMMA, 1000);

	/* extended controls: fake and real in one call */
	struct v4l2_ext_control c[3] = {
		{ .id = V4L2_CID_CONTRAST, .value = 99 },
		{ .id = V4L2_CID_VFLIP, .value = 1 },
		{ .id = V4L2_CID_BRIGHTNESS, .value = 300 }, /* out of range */
	};
	struct v4l2_ext_controls ec = { .which = V4L2_CTRL_WHICH_CUR_VAL,
					.count = 3,
					.controls = c };
	CHECK(v4lconvert_vidioc_s_ext_ctrls(cv, &ec) == -1 && ec.error_idx == 2,
	      "device error mapped to index 2 (got %u)", ec.error_idx);
	CHECK(get(cv, V4L2_CID_VFLIP) == 0 && dev.ctrl_values[1] == 20,
	      "nothing applied on error");
	c[2].value = 30;
	CHECK(v4lconvert_vidioc_s_ext_ctrls(cv, &ec) == 0 &&
		      dev.ctrl_values[0] == 30 && dev.ctrl_values[1] == 99 &&
		      get(cv, V4L2_CID_VFLIP) == 1 && flip_of(cv) == 0,
	      "set fake and real together");
	c[1].value = 7;
	CHECK(v4lconvert_vidioc_try_ext_ctrls(cv, &ec) == -1 &&
		      ec.error_idx == 1,
	      "fake out of range at index 1");
	set(cv, V4L2_CID_GAMMA, 1500);
	memset(c, 0, sizeof(c));
	c[0].id = V4L2_CID_GAMMA;
	c[1].id = V4L2_CID_BRIGHTNESS;
	ec.count = 2;
	CHECK(v4lconvert_vidioc_g_ext_ctrls(cv, &ec) == 0 &&
		      c[0].value == 1500 && c[1].value == 30,
	      "get fake and real together");
	v4lconvert_destroy(cv);

	/* LIBV4LCONTROL_CONTROLS chooses the set: only VFLIP (bit 2) */
	setenv("LIBV4LCONTROL_CONTROLS", "4", 1);
	dev = camera();
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_HFLIP;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == -1, "HFLIP switched off");
	q.id = V4L2_CID_VFLIP;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == 0, "VFLIP kept");
	v4lconvert_destroy(cv);

	printf("controls: %d failures\n", failures);
	return failures != 0;
}
