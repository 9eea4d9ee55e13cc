/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Call sequences of Debian programs linked with libv4l-0 that worked on
 * Debian's libv4l2 and not on ours (issue 27), reduced to the calls that
 * matter, on the virtual camera:
 *  - qvidcap dequeues with memory 0 (v4l-utils' cv4l_buffer(type)): the
 *    kernel and the original ignore memory on DQBUF (QBUF checks it);
 * Each test says what the original (v4l-utils 1.22) does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "../common/check.h"

#define W 640
#define H 480
#define NBUF 4

static int open_cam(const char *spec)
{
	int fd = memfd_create(spec, 0);

	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	return fd;
}

static int set_fmt(int fd, uint32_t fourcc)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	return v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0 &&
	       f.fmt.pix.pixelformat == fourcc;
}

/* REQBUFS(MMAP), every buffer mapped and queued, STREAMON. */
static void mmap_stream(int fd, void **maps, size_t *len)
{
	struct v4l2_requestbuffers req = { .count = NBUF,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == NBUF);
	for (unsigned int i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		*len = b.length;
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
}

static void mmap_stop(int fd, void **maps, size_t len)
{
	struct v4l2_requestbuffers req = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (int i = 0; i < NBUF; i++)
		if (maps[i] != MAP_FAILED)
			CHECK(v4l2_munmap(maps[i], len) == 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
}

/*
 * qvidcap -P RGB3: DQBUF with memory 0 while converting returns a frame
 * (memory MMAP in the answer, as the kernel fills it), which qvidcap then
 * queues back as it came.
 */
static void test_dqbuf_memory_zero(void)
{
	int fd = open_cam("libv4l-vcam:YUYV:640x480:nopace");
	void *maps[NBUF];
	size_t len = 0;

	CHECK(set_fmt(fd, V4L2_PIX_FMT_RGB24));
	mmap_stream(fd, maps, &len);
	for (int k = 0; k < 3; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.memory == V4L2_MEMORY_MMAP);
		CHECK(b.index < NBUF && b.bytesused == W * H * 3);
		/* QBUF checks memory, as the kernel (and so the original,
		 * which passes it on) does */
		{
			struct v4l2_buffer q = b;

			q.memory = 0;
			errno = 0;
			CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &q) == -1 &&
			      errno == EINVAL);
		}
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	mmap_stop(fd, maps, len);
	CHECK(v4l2_close(fd) == 0);
}

int main(void)
{
	test_dqbuf_memory_zero();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
