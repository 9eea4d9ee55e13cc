/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Corrupt frames while converting: libv4l2 requeues a short frame and takes
 * the next (up to 4 tries); when every try fails it repeats the last good
 * frame instead of failing. Built on the test variant of the library (the
 * same sources plus lv2_test_set_plugin), with the virtual camera wrapped
 * by a plugin that truncates chosen frames.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"

/* Frames delivered short (sequence numbers). */
static int is_bad(uint32_t seq)
{
	return seq == 1 || (seq >= 4 && seq <= 7);
}

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	int r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
	struct v4l2_buffer *b = arg;

	if (r == 0 && req == VIDIOC_DQBUF && is_bad(b->sequence))
		b->bytesused = 10;
	return r;
}

static struct libv4l_dev_ops wrapped;

int main(void)
{
	int fd = memfd_create("libv4l-vcam:YUYV:320x240:nopace", 0);
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 8,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	uint8_t *maps[8], *frame3 = malloc(320 * 240 * 3);
	size_t len = 0;

	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);
	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	f.fmt.pix.width = 320;
	f.fmt.pix.height = 240;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_BGR24;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_BGR24);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 8);
	for (unsigned int i = 0; i < 8; i++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		len = b.length;
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	/* seq 0 good; 1 short, skipped: 2; then 3. */
	{
		static const uint32_t want[] = { 0, 2, 3 };

		for (int k = 0; k < 3; k++) {
			struct v4l2_buffer b = { .type = type,
						 .memory = V4L2_MEMORY_MMAP };

			CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
			CHECK(b.sequence == want[k]);
			CHECK(b.bytesused == 320 * 240 * 3);
			if (k == 2)
				memcpy(frame3, maps[b.index], 320 * 240 * 3);
			CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
		}
	}
	/* 4..7 all short: the last good frame (3) again, no error. */
	{
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.sequence == 7);
		CHECK(b.bytesused == 320 * 240 * 3);
		CHECK(!memcmp(maps[b.index], frame3, 320 * 240 * 3));
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
		/* and the stream goes on: 8 */
		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.sequence == 8);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (int i = 0; i < 8; i++)
		CHECK(v4l2_munmap(maps[i], len) == 0);
	CHECK(v4l2_close(fd) == 0);
	free(frame3);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
