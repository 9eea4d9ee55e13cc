/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulated autofocus controls of libv4l2 (src/v4l2/autofocus.h) on a
 * virtual camera with a lens, shared through the frame server:
 *   focus-auto V4L2_FRAMESERVER V4L2_AUTOFOCUS
 * FOCUS_AUTO and AUTO_FOCUS_START/STOP/STATUS are offered (and enumerated
 * once each); FOCUS_AUTO=1 brings the application's own picture into focus
 * (STATUS goes BUSY then REACHED); FOCUS_AUTO=0 stops the daemon and a
 * manual FOCUS_ABSOLUTE then stays; AUTO_FOCUS_START focuses once and the
 * daemon ends by itself; close leaves no process behind; without sharing
 * the controls are not offered.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "dispatch/dsp.h"
#include "focus/measure.h"
#include "../common/check.h"

#define W 160
#define H 120
#define INFOCUS 700
#define SPEC "libv4l-vcam:YU12:160x120:lens=700"

static int fd;
static uint8_t *maps[4];
static double sharp_last;

static int ctrl(unsigned long req, uint32_t id, int value)
{
	struct v4l2_control c = { id, value };

	if (v4l2_ioctl(fd, req, &c) < 0)
		return -1000000 - errno;
	return c.value;
}

/* One frame: dequeue, measure, requeue. */
static int frame(void)
{
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };

	if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0 || b.index >= 4)
		return -1;
	sharp_last = v4lc_focus_measure(v4lc_dsp_get(), maps[b.index], W, W, H);
	return v4l2_ioctl(fd, VIDIOC_QBUF, &b);
}

/* Frames until STATUS is `want` (at most `max`); returns frames or -1. */
static int until_status(int want, int max)
{
	for (int n = 0; n < max; n++) {
		if (frame() < 0)
			return -1;
		if (ctrl(VIDIOC_G_CTRL, V4L2_CID_AUTO_FOCUS_STATUS, 0) == want)
			return n;
	}
	return -1;
}

static void start_stream(void)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers r = { .count = 4,
					 .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.width == W && f.fmt.pix.bytesperline == W);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &r) == 0 && r.count == 4);
	for (unsigned i = 0; i < 4; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
				    b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
}

static void test_enumeration(void)
{
	struct v4l2_queryctrl q = { .id = V4L2_CID_FOCUS_AUTO };
	int seen[4] = { 0 }, abs_seen = 0;
	static const uint32_t ids[4] = {
		V4L2_CID_FOCUS_AUTO,
		V4L2_CID_AUTO_FOCUS_START,
		V4L2_CID_AUTO_FOCUS_STOP,
		V4L2_CID_AUTO_FOCUS_STATUS,
	};

	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0 &&
	      q.type == V4L2_CTRL_TYPE_BOOLEAN);
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	for (int n = 0; n < 200 && v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0;
	     n++) {
		for (int k = 0; k < 4; k++)
			seen[k] += q.id == ids[k];
		abs_seen += q.id == V4L2_CID_FOCUS_ABSOLUTE;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	for (int k = 0; k < 4; k++)
		CHECK(seen[k] == 1);
	CHECK(abs_seen == 1);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_AUTO, 0) == 0);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_AUTO_FOCUS_STATUS, 0) ==
	      V4L2_AUTO_FOCUS_STATUS_IDLE);
	/* The status is read-only, the buttons write-only. */
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_AUTO_FOCUS_STATUS, 1) ==
	      -1000000 - EACCES);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_AUTO_FOCUS_START, 0) ==
	      -1000000 - EACCES);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/focus-auto.XXXXXX";
	double blurred;
	int n, pos;

	if (argc != 3 || !mkdtemp(dir))
		return 2;
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("LIBV4L2_FRAMESERVER", argv[1], 1);
	setenv("LIBV4L2_AUTOFOCUS", argv[2], 1);

	/* Not shared: not offered (the daemon could not join the camera). */
	unsetenv("LIBV4L2_SHARE");
	fd = memfd_create(SPEC, 0);
	CHECK(v4l2_fd_open(fd, 0) == fd);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_AUTO, 0) == -1000000 - EINVAL);
	v4l2_close(fd);

	setenv("LIBV4L2_SHARE", "1", 1);
	fd = memfd_create(SPEC, 0);
	CHECK(v4l2_fd_open(fd, 0) == fd);
	test_enumeration();
	start_stream();
	CHECK(frame() == 0);
	blurred = sharp_last;

	/* Continuous: the application's picture comes into focus. */
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_FOCUS_AUTO, 1) == 1);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_AUTO, 0) == 1);
	n = until_status(V4L2_AUTO_FOCUS_STATUS_REACHED, 400);
	pos = ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_ABSOLUTE, 0);
	for (int k = 0; k < 10; k++)
		frame(); /* the last move settles */
	printf("continuous: reached after %d frames at %d (in focus at %d), "
	       "sharpness %.1f -> %.1f\n",
	       n, pos, INFOCUS, blurred, sharp_last);
	CHECK(n >= 0);
	CHECK(abs(pos - INFOCUS) <= 20);
	CHECK(sharp_last > 2 * blurred);
	/* Buttons are refused while continuous focus runs. */
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_AUTO_FOCUS_START, 0) ==
	      -1000000 - EBUSY);

	/* Off: the daemon stops, manual focus is the application's. */
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_FOCUS_AUTO, 0) == 0);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_AUTO_FOCUS_STATUS, 0) ==
	      V4L2_AUTO_FOCUS_STATUS_IDLE);
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_FOCUS_ABSOLUTE, 100) == 100);
	for (int k = 0; k < 60; k++)
		frame();
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_ABSOLUTE, 0) == 100);

	/* One run: focus, then the daemon ends by itself. */
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_AUTO_FOCUS_START, 0) == 0);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_AUTO_FOCUS_STATUS, 0) ==
	      V4L2_AUTO_FOCUS_STATUS_BUSY);
	n = until_status(V4L2_AUTO_FOCUS_STATUS_REACHED, 400);
	pos = ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_ABSOLUTE, 0);
	printf("one run: reached after %d frames at %d\n", n, pos);
	CHECK(n >= 0);
	CHECK(abs(pos - INFOCUS) <= 20);
	for (int k = 0; k < 30; k++)
		frame();
	/* Ended: still REACHED, FOCUS_AUTO off, and no child left. */
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_AUTO_FOCUS_STATUS, 0) ==
	      V4L2_AUTO_FOCUS_STATUS_REACHED);
	CHECK(ctrl(VIDIOC_G_CTRL, V4L2_CID_FOCUS_AUTO, 0) == 0);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);

	/* Close while running: the daemon goes too. */
	CHECK(ctrl(VIDIOC_S_CTRL, V4L2_CID_FOCUS_AUTO, 1) == 1);
	for (int k = 0; k < 10; k++)
		frame();
	CHECK(v4l2_close(fd) == 0);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
