/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A camera whose driver lists sizes but no frame interval for them, as
 * gspca's chip drivers do (sq905c: ENUM_FRAMEINTERVALS EINVAL at index 0,
 * G_PARM timeperframe 0/0). PipeWire's V4L2 node keeps only the sizes
 * with an interval, so it showed no format of such a camera. Through
 * libv4l2 each listed size, native or converted, has one discrete
 * interval: G_PARM's when the driver says one, else 1/30; index 1 EINVAL.
 * A size not listed stays EINVAL, and a driver with intervals is
 * answered as it answers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"
#include "../common/vcam_open.h"

/* How the wrapped camera answers: intervals at all, G_PARM's frame time */
static int no_intervals, no_enotty;
static struct v4l2_fract parm_time;

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	int r;

	if (req == VIDIOC_ENUM_FRAMEINTERVALS && no_intervals) {
		errno = no_enotty ? ENOTTY : EINVAL;
		return -1;
	}
	r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
	if (r == 0 && req == VIDIOC_G_PARM && no_intervals)
		((struct v4l2_streamparm *)arg)->parm.capture.timeperframe =
			parm_time;
	return r;
}

static struct libv4l_dev_ops wrapped;

static int enum_ival(int fd, uint32_t fourcc, uint32_t w, uint32_t h,
		     uint32_t index, struct v4l2_frmivalenum *e)
{
	memset(e, 0, sizeof(*e));
	e->index = index;
	e->pixel_format = fourcc;
	e->width = w;
	e->height = h;
	errno = 0;
	return v4l2_ioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, e);
}

/* fourcc at w x h: exactly one discrete interval, num/den. */
static void check_one(int fd, uint32_t fourcc, uint32_t w, uint32_t h,
		      uint32_t num, uint32_t den)
{
	struct v4l2_frmivalenum e;

	CHECK(enum_ival(fd, fourcc, w, h, 0, &e) == 0);
	CHECK(e.type == V4L2_FRMIVAL_TYPE_DISCRETE);
	CHECK(e.discrete.numerator == num && e.discrete.denominator == den);
	CHECK(e.pixel_format == fourcc && e.width == w && e.height == h);
	CHECK(enum_ival(fd, fourcc, w, h, 1, &e) == -1 && errno == EINVAL);
}

static void test_chip_camera(struct v4l2_fract t, uint32_t num, uint32_t den)
{
	int fd = vcam_open("libv4l-vcam:BA81:640x480:nopace", 0);
	struct v4l2_frmivalenum e;

	no_intervals = 1;
	parm_time = t;
	/* the driver's own format and the converted ones, every size */
	check_one(fd, V4L2_PIX_FMT_SBGGR8, 640, 480, num, den);
	check_one(fd, V4L2_PIX_FMT_SBGGR8, 320, 240, num, den);
	check_one(fd, V4L2_PIX_FMT_RGB24, 640, 480, num, den);
	check_one(fd, V4L2_PIX_FMT_YUV420, 320, 240, num, den);
	/* a size nobody lists: the driver's answer */
	CHECK(enum_ival(fd, V4L2_PIX_FMT_SBGGR8, 800, 600, 0, &e) == -1 &&
	      errno == (no_enotty ? ENOTTY : EINVAL));
	CHECK(enum_ival(fd, V4L2_PIX_FMT_RGB24, 800, 600, 0, &e) == -1 &&
	      errno == EINVAL);
	CHECK(v4l2_close(fd) == 0);
	no_intervals = 0;
}

/* A driver without the ioctl at all (ENOTTY). */
static void test_no_ioctl(void)
{
	no_enotty = 1;
	test_chip_camera((struct v4l2_fract){ 0, 0 }, 1, 30);
	no_enotty = 0;
}

/* A driver with intervals: its list, untouched. */
static void test_driver_intervals(void)
{
	int fd = vcam_open("libv4l-vcam:BA81:640x480:nopace", 0);
	struct v4l2_frmivalenum e;
	uint32_t n = 0;

	while (enum_ival(fd, V4L2_PIX_FMT_SBGGR8, 640, 480, n, &e) == 0)
		n++;
	CHECK(n == 2 && errno == EINVAL); /* the virtual camera's two */
	CHECK(v4l2_close(fd) == 0);
}

int main(void)
{
	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);
	test_chip_camera((struct v4l2_fract){ 0, 0 }, 1, 30);
	test_chip_camera((struct v4l2_fract){ 1, 15 }, 1, 15);
	test_no_ioctl();
	test_driver_intervals();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
