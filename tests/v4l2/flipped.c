/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A camera mounted upside down (vcam flip=hv, reported by ENUMINPUT), so
 * that libv4l2 flips every frame, also those of a native format:
 * VIDIOC_ENUM_FMT flags every format it lists V4L2_FMT_FLAG_EMULATED
 * (GStreamer's v4l2src exports DMABUF unless the chosen format carries the
 * flag), and VIDIOC_EXPBUF on such a stream fails with EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "vcam/vcam.h"
#include "../common/check.h"

void v4l2_test_set_plugin(const struct libv4l_dev_ops *ops);

#define W 640
#define H 480

static int open_cam(const char *spec)
{
	int fd = memfd_create(spec, 0);

	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	return fd;
}

/* Whether fourcc is listed, and with which flags (-1: not listed). */
static int listed_flags(int fd, uint32_t fourcc, int *all_emulated)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int flags = -1;

	*all_emulated = 1;
	for (d.index = 0; v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == 0; d.index++) {
		if (!(d.flags & V4L2_FMT_FLAG_EMULATED))
			*all_emulated = 0;
		if (d.pixelformat == fourcc)
			flags = (int)d.flags;
	}
	return flags;
}

static void test_enum_fmt(void)
{
	int fd = open_cam("libv4l-vcam:BA81,YUYV,RGB3:640x480:flip=hv:nopace");
	int all, f;

	/* flipped: every format is delivered by conversion */
	f = listed_flags(fd, V4L2_PIX_FMT_YUYV, &all);
	CHECK(f >= 0 && (f & V4L2_FMT_FLAG_EMULATED));
	f = listed_flags(fd, V4L2_PIX_FMT_RGB24, &all);
	CHECK(f >= 0 && (f & V4L2_FMT_FLAG_EMULATED));
	f = listed_flags(fd, V4L2_PIX_FMT_YUV420, &all);
	CHECK(f >= 0 && (f & V4L2_FMT_FLAG_EMULATED));
	CHECK(all);
	CHECK(v4l2_close(fd) == 0);

	/* upright: native formats as the driver gives them, unflagged */
	fd = open_cam("libv4l-vcam:BA81,YUYV,RGB3:640x480:nopace");
	CHECK(listed_flags(fd, V4L2_PIX_FMT_YUYV, &all) == 0);
	CHECK(listed_flags(fd, V4L2_PIX_FMT_RGB24, &all) == 0);
	CHECK(listed_flags(fd, V4L2_PIX_FMT_SBGGR8, &all) == 0);
	f = listed_flags(fd, V4L2_PIX_FMT_YUV420, &all);
	CHECK(f >= 0 && (f & V4L2_FMT_FLAG_EMULATED));
	CHECK(!all);
	CHECK(v4l2_close(fd) == 0);
}

/*
 * The application's buffers are ours, not the driver's: no DMABUF export,
 * EINVAL as the kernel answers for a queue that cannot export.
 */
static void test_expbuf(uint32_t fourcc)
{
	int fd = open_cam("libv4l-vcam:BA81,YUYV,RGB3:640x480:flip=hv:nopace");
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 2, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_exportbuffer e = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == fourcc);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 2);
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_EXPBUF, &e) == -1 && errno == EINVAL);
	req.count = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(v4l2_close(fd) == 0);
}

int main(void)
{
	v4l2_test_set_plugin(&v4lc_vcam_ops);
	test_enum_fmt();
	test_expbuf(V4L2_PIX_FMT_YUYV);
	test_expbuf(V4L2_PIX_FMT_RGB24);
	test_expbuf(V4L2_PIX_FMT_YUV420);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
