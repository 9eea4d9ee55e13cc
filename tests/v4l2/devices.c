/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Device bookkeeping of libv4l2 on the virtual camera: a driver that
 * changes its format on S_STD / S_INPUT (as a TV card switching PAL to
 * NTSC does) is followed by G_FMT and read() with the application's
 * destination format kept; and the table of managed devices is bounded
 * (16, as the original), the 17th open fails with EBUSY until one closes;
 * and a plugin whose operation unmaps memory through v4l2_munmap (what a
 * preload shim makes of its plain munmap) while libv4l2 holds the
 * device's lock does not deadlock.
 * Built on the test variant of the library (lv2_test_set_plugin).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"

/* The size the wrapped driver switches to on S_STD / S_INPUT (one of the
 * camera's sizes: 320x240, 640x480, 1280x720). */
static uint32_t switch_w, switch_h;

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	if (req == VIDIOC_S_STD || req == VIDIOC_S_INPUT) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		if (v4lc_vcam_ops.ioctl(priv, fd, VIDIOC_G_FMT, &f) < 0)
			return -1;
		f.fmt.pix.width = switch_w;
		f.fmt.pix.height = switch_h;
		return v4lc_vcam_ops.ioctl(priv, fd, VIDIOC_S_FMT, &f);
	}
	return v4lc_vcam_ops.ioctl(priv, fd, req, arg);
}

static struct libv4l_dev_ops wrapped;

/* Frame `seq` of the YUYV camera at w x h as RGB24, by a separate converter. */
static int is_frame(const uint8_t *rgb, uint32_t w, uint32_t h, uint32_t seq)
{
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format dst;
	size_t raw_size =
		v4lc_vcam_sizeimage(V4L2_PIX_FMT_YUYV, (int)w, (int)h);
	uint8_t *raw = malloc(raw_size), *want = malloc((size_t)w * h * 3);
	struct v4lconvert_data *conv = v4lconvert_create(-1);
	int ok;

	src.fmt.pix.width = w;
	src.fmt.pix.height = h;
	src.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	src.fmt.pix.field = V4L2_FIELD_NONE;
	src.fmt.pix.bytesperline =
		v4lc_vcam_bytesperline(V4L2_PIX_FMT_YUYV, (int)w);
	src.fmt.pix.sizeimage = (uint32_t)raw_size;
	src.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	dst = src;
	dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	v4lconvert_fixup_fmt(&dst);
	ok = conv &&
	     v4lc_vcam_render(V4L2_PIX_FMT_YUYV, (int)w, (int)h, seq, raw,
			      raw_size) == (int)raw_size &&
	     v4lconvert_convert(conv, &src, &dst, raw, (int)raw_size, want,
				(int)(w * h * 3)) == (int)(w * h * 3) &&
	     !memcmp(rgb, want, (size_t)w * h * 3);
	if (conv)
		v4lconvert_destroy(conv);
	free(raw);
	free(want);
	return ok;
}

static void expect_rgb(int fd, uint32_t w, uint32_t h)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	uint8_t *rgb = malloc((size_t)w * h * 3 + 1);

	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
	CHECK(f.fmt.pix.width == w && f.fmt.pix.height == h);
	CHECK(f.fmt.pix.sizeimage == w * h * 3);
	/* read() starts a stream: its first frame is frame 0. */
	CHECK(v4l2_read(fd, rgb, (size_t)w * h * 3 + 1) ==
	      (ssize_t)(w * h * 3));
	CHECK(is_frame(rgb, w, h, 0));
	free(rgb);
}

static void test_format_switch(void)
{
	int fd = memfd_create("libv4l-vcam:YUYV:nopace", 0);
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	v4l2_std_id std = V4L2_STD_NTSC;
	int input = 0;

	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);
	CHECK(v4l2_fd_open(fd, 0) == fd);
	f.fmt.pix.width = 640;
	f.fmt.pix.height = 480;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	expect_rgb(fd, 640, 480);

	/* read() streaming must end before the driver may switch. */
	CHECK(v4l2_close(fd) == 0);
	fd = memfd_create("libv4l-vcam:YUYV:nopace", 0);
	CHECK(v4l2_fd_open(fd, 0) == fd);
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	switch_w = 320, switch_h = 240;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_STD, &std) == 0);
	expect_rgb(fd, 320, 240);
	CHECK(v4l2_close(fd) == 0);

	fd = memfd_create("libv4l-vcam:YUYV:nopace", 0);
	CHECK(v4l2_fd_open(fd, 0) == fd);
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	switch_w = 1280, switch_h = 720;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_INPUT, &input) == 0);
	expect_rgb(fd, 1280, 720);
	CHECK(v4l2_close(fd) == 0);
	lv2_test_set_plugin(NULL);
}

#define MAX_DEVICES 16

static void test_device_limit(void)
{
	int fds[MAX_DEVICES + 1];

	for (int i = 0; i <= MAX_DEVICES; i++)
		fds[i] = memfd_create("libv4l-vcam:GREY:64x48", 0);
	for (int i = 0; i < MAX_DEVICES; i++)
		CHECK(v4l2_fd_open(fds[i], 0) == fds[i]);
	errno = 0;
	CHECK(v4l2_fd_open(fds[MAX_DEVICES], 0) == -1 && errno == EBUSY);
	/* The refused fd stays the caller's, untouched and open. */
	CHECK(fcntl(fds[MAX_DEVICES], F_GETFD) >= 0);
	CHECK(v4l2_close(fds[3]) == 0);
	CHECK(v4l2_fd_open(fds[MAX_DEVICES], 0) == fds[MAX_DEVICES]);
	for (int i = 0; i <= MAX_DEVICES; i++)
		if (i != 3)
			CHECK(v4l2_close(fds[i]) == 0);
}

static int unmapped_inside;

static int unmapping_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	if (req == VIDIOC_REQBUFS) {
		long page = sysconf(_SC_PAGESIZE);
		void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p != MAP_FAILED && v4l2_munmap(p, (size_t)page) == 0)
			unmapped_inside++;
	}
	return v4lc_vcam_ops.ioctl(priv, fd, req, arg);
}

static void test_munmap_inside(void)
{
	int fd = memfd_create("libv4l-vcam:YUYV:64x48:nopace", 0);
	struct v4l2_requestbuffers req = {
		.count = 2,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};

	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = unmapping_ioctl;
	lv2_test_set_plugin(&wrapped);
	alarm(20); /* a deadlock fails the test instead of hanging it */
	CHECK(v4l2_fd_open(fd, 0) == fd);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(unmapped_inside >= 1);
	CHECK(v4l2_close(fd) == 0);
	alarm(0);
	lv2_test_set_plugin(NULL);
}

int main(void)
{
	test_format_switch();
	test_device_limit();
	test_munmap_inside();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
