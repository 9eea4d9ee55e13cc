/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2 end to end on the virtual camera plugin: format emulation
 * (YUYV device, RGB24 for the application) through fake mmap buffers and
 * through read(), USERPTR refused with conversion enabled and passed
 * through with it disabled, controls,
 * dup/close. Expected frames come from the camera's own renderer and an
 * independent libv4lconvert instance, never from libv4l2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "vcam/vcam.h"
#include "../common/check.h"

#define W 640
#define H 480

static struct v4lconvert_data *ref_conv;
static void *ref_priv;

/* Raw YUYV frame seq, converted to RGB24 by a separate libv4lconvert. */
static uint8_t *expected_rgb(uint32_t seq)
{
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format dst;
	size_t raw_size = v4lc_vcam_sizeimage(V4L2_PIX_FMT_YUYV, W, H);
	uint8_t *raw = malloc(raw_size), *rgb = malloc(W * H * 3);
	int n;

	src.fmt.pix.width = W;
	src.fmt.pix.height = H;
	src.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	src.fmt.pix.field = V4L2_FIELD_NONE;
	src.fmt.pix.bytesperline = v4lc_vcam_bytesperline(V4L2_PIX_FMT_YUYV, W);
	src.fmt.pix.sizeimage = (uint32_t)raw_size;
	src.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	dst = src;
	dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	v4lconvert_fixup_fmt(&dst);
	n = v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, seq, raw, raw_size);
	CHECK(n == (int)raw_size);
	n = v4lconvert_convert(ref_conv, &src, &dst, raw, (int)raw_size, rgb,
			       W * H * 3);
	CHECK(n == W * H * 3);
	free(raw);
	return rgb;
}

static int same_frame(const uint8_t *got, uint32_t seq)
{
	uint8_t *want = expected_rgb(seq);
	int ok = !memcmp(got, want, W * H * 3);

	if (!ok)
		printf("frame %u differs\n", seq);
	free(want);
	return ok;
}

static void test_mmap_conversion(int fd)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t fake_len = (W * H * 3 + page - 1) / page * page;
	void *maps[4] = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
	CHECK(f.fmt.pix.width == W && f.fmt.pix.height == H);
	CHECK(f.fmt.pix.bytesperline == W * 3);
	CHECK(f.fmt.pix.sizeimage == W * H * 3);
	memset(&f.fmt, 0, sizeof(f.fmt));
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);

	/* Converting: MMAP only, as the original (USERPTR: test_userptr) */
	req.memory = V4L2_MEMORY_DMABUF;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == -1 && errno == EINVAL);
	req.memory = V4L2_MEMORY_USERPTR;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == -1 && errno == EINVAL);
	req.memory = V4L2_MEMORY_MMAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(req.count == 4);
	for (unsigned int i = 0; i < req.count && i < 4; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
			.index = i,
		};

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		CHECK((b.m.offset & ~0xffu) == 0xABCDEF00u);
		CHECK(b.length == fake_len);
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(b.flags & V4L2_BUF_FLAG_MAPPED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	/* Buffers mapped: the format cannot change. */
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == -1 && errno == EBUSY);
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	for (int k = 0; k < 6; k++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.index < 4);
		CHECK(b.bytesused == W * H * 3);
		CHECK(b.sequence == (uint32_t)k);
		CHECK(b.index < 4 && same_frame(maps[b.index], b.sequence));
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (int i = 0; i < 4; i++)
		CHECK(v4l2_munmap(maps[i], fake_len) == 0);
	errno = 0;
	CHECK(v4l2_munmap(maps[0], fake_len) == -1 && errno == EINVAL);
	req.count = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
}

static void test_read(int fd)
{
	uint8_t *buf = malloc(W * H * 3), *small = malloc(100);

	/* Stream started under the hood: frames 0, 1, 2... */
	CHECK(v4l2_read(fd, buf, W * H * 3) == W * H * 3);
	CHECK(same_frame(buf, 0));
	CHECK(v4l2_read(fd, buf, W * H * 3) == W * H * 3);
	CHECK(same_frame(buf, 1));
	/* A short read gets the start of the next frame. */
	CHECK(v4l2_read(fd, small, 100) == 100);
	{
		uint8_t *want = expected_rgb(2);

		CHECK(!memcmp(small, want, 100));
		free(want);
	}
	free(small);
	free(buf);
}

/*
 * USERPTR: refused whenever conversion is enabled, also with a format
 * that needs none (YUYV here), as the original; with
 * V4L2_DISABLE_CONVERSION it passes through to the driver (a second fd on
 * the same camera).
 */
static void test_userptr(int conv_fd)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 2,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_USERPTR,
	};
	size_t size = v4lc_vcam_sizeimage(V4L2_PIX_FMT_YUYV, W, H);
	uint8_t *mem[2], *want = malloc(size);
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	int fd = memfd_create("libv4l-vcam:YUYV", 0);

	/* Changing the format ends the read() stream. */
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	CHECK(v4l2_ioctl(conv_fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);
	CHECK(f.fmt.pix.sizeimage == size);
	errno = 0;
	CHECK(v4l2_ioctl(conv_fd, VIDIOC_REQBUFS, &req) == -1 &&
	      errno == EINVAL);

	CHECK(fd >= 0 && v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION) == fd);
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(req.count == 2);
	for (unsigned int i = 0; i < 2; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_USERPTR,
			.index = i,
			.length = (uint32_t)size,
		};

		mem[i] = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
		memset(mem[i], 0x55, size);
		b.m.userptr = (unsigned long)mem[i];
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	for (int k = 0; k < 3; k++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_USERPTR,
		};

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.m.userptr == (unsigned long)mem[b.index & 1]);
		CHECK(b.bytesused == size);
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, b.sequence,
				       want, size) == (int)size);
		CHECK(!memcmp((void *)b.m.userptr, want, size));
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	req.count = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(v4l2_close(fd) == 0);
	free(mem[0]);
	free(mem[1]);
	free(want);
}

static void test_controls(int fd)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };

	CHECK(v4l2_set_control(fd, V4L2_CID_BRIGHTNESS, 65535) == 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) == 0 && c.value == 255);
	CHECK(v4l2_get_control(fd, V4L2_CID_BRIGHTNESS) == 65535);
	CHECK(v4l2_set_control(fd, V4L2_CID_BRIGHTNESS, 0) == 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) == 0 && c.value == 0);
	CHECK(v4l2_get_control(fd, V4L2_CID_BRIGHTNESS) == 0);
	/* 0..255: half scale is 128 (rounded), read back as 128/255. */
	CHECK(v4l2_set_control(fd, V4L2_CID_BRIGHTNESS, 32768) == 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) == 0 && c.value == 128);
	CHECK(v4l2_get_control(fd, V4L2_CID_BRIGHTNESS) == 32896);
	/* No such control: 0 (as the original). */
	CHECK(v4l2_set_control(fd, V4L2_CID_HUE, 1000) == 0);
	/*
	 * Reserved fields mean nothing to the library: a value there (here
	 * "KFAK") still gets the driver's control.
	 */
	{
		struct v4l2_queryctrl q = { .id = V4L2_CID_BRIGHTNESS };

		q.reserved[0] = 0x4b41464bu;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0 &&
		      q.id == V4L2_CID_BRIGHTNESS && q.maximum == 255);
	}
}

int main(void)
{
	int fd = memfd_create("libv4l-vcam:YUYV", 0);
	int ref_fd = memfd_create("libv4l-vcam:YUYV", 0);
	struct v4l2_capability cap;
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int rgb = 0;

	CHECK(fd >= 0 && ref_fd >= 0);
	ref_priv = v4lc_vcam_ops.init(ref_fd);
	CHECK(ref_priv != NULL);
	ref_conv = v4lconvert_create_with_dev_ops(ref_fd, ref_priv,
						  &v4lc_vcam_ops);
	CHECK(ref_conv != NULL);
	if (!ref_conv)
		return 1;

	CHECK(v4l2_fd_open(fd, 0) == fd);
	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(cap.capabilities & V4L2_CAP_READWRITE);
	CHECK(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE);
	CHECK(cap.device_caps & V4L2_CAP_READWRITE);
	for (d.index = 0; v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == 0; d.index++)
		if (d.pixelformat == V4L2_PIX_FMT_RGB24)
			rgb = (d.flags & V4L2_FMT_FLAG_EMULATED) != 0;
	CHECK(rgb);

	test_mmap_conversion(fd);
	test_read(fd);
	test_userptr(fd);
	test_controls(fd);

	/* dup counts; the last close closes the fd. */
	CHECK(v4l2_dup(fd) == fd);
	CHECK(v4l2_close(fd) == 0);
	CHECK(fcntl(fd, F_GETFD) >= 0);
	CHECK(v4l2_close(fd) == 0);
	errno = 0;
	CHECK(fcntl(fd, F_GETFD) == -1 && errno == EBADF);

	v4lconvert_destroy(ref_conv);
	v4lc_vcam_ops.close(ref_priv);
	close(ref_fd);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
