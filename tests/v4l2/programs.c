/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Call sequences of Debian programs linked with libv4l-0 that worked on
 * Debian's libv4l2 and not on ours (issue 27), reduced to the calls that
 * matter, on the virtual camera:
 *  - qvidcap leaves the buffer's memory field 0 when it dequeues; the
 *    kernel and the original ignore that field on DQBUF (QBUF checks it);
 *  - zbarcam and qvidcap start from G_FMT right after open: on a camera
 *    whose formats all need conversion (vivid's Bayer, upside down) it
 *    must answer a converted format that ENUM_FMT lists, not the raw one;
 *  - zbarcam probes REQBUFS(USERPTR) before S_FMT and requests it again
 *    after: it must be refused both times (EINVAL, as the original
 *    answers whenever conversion is enabled), or zbar neither records
 *    USERPTR nor falls back to MMAP, and reads with the plain read(),
 *    which the driver refuses (EBUSY) for the buffers libv4l2 holds.
 * Each test says what the original (Debian 12's libv4l2) does.
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
#include "../common/vcam_open.h"

#define W 640
#define H 480
#define NBUF 4

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
	int fd = vcam_open("libv4l-vcam:YUYV:640x480:nopace", 0);
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

/* The driver's S_FMT calls, counted under the camera (wrap_ops). */
static int driver_s_fmts;
static uint32_t driver_s_fmt_last;

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	if (req == VIDIOC_S_FMT) {
		driver_s_fmts++;
		driver_s_fmt_last =
			((struct v4l2_format *)arg)->fmt.pix.pixelformat;
	}
	return v4lc_vcam_ops.ioctl(priv, fd, req, arg);
}

static struct libv4l_dev_ops wrapped;

static int lists(int fd, uint32_t fourcc)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	for (d.index = 0; v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == 0; d.index++)
		if (d.pixelformat == fourcc)
			return 1;
	return 0;
}

/*
 * G_FMT right after open: a camera whose formats all need conversion
 * (chip formats; an upside-down sensor) answers RGB24 at the driver's size, a
 * format ENUM_FMT lists, as the original does: its first format or buffer
 * ioctl sets RGB24 (v4lconvert_supported_dst_fmt_only and a current
 * format that is not a destination one). Before that call, QUERYCAP and
 * ENUM_FMT leave the driver's format alone. A camera with nothing to
 * convert, or a flipped YUYV one (flipped in place, listed), keeps its
 * format.
 */
static void check_default(const char *spec, uint32_t want, int s_fmts)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_capability cap;
	int fd;

	driver_s_fmts = 0;
	fd = vcam_open(spec, 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(lists(fd, V4L2_PIX_FMT_RGB24));
	CHECK(driver_s_fmts == 0, "%s: %d S_FMT before G_FMT", spec,
	      driver_s_fmts);
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == want, "%s: G_FMT %.4s", spec,
	      (char *)&f.fmt.pix.pixelformat);
	CHECK(lists(fd, f.fmt.pix.pixelformat), "%s: %.4s not listed", spec,
	      (char *)&f.fmt.pix.pixelformat);
	CHECK(f.fmt.pix.width == W && f.fmt.pix.height == H);
	if (want == V4L2_PIX_FMT_RGB24)
		CHECK(f.fmt.pix.bytesperline == W * 3 &&
		      f.fmt.pix.sizeimage == W * H * 3);
	CHECK(driver_s_fmts == s_fmts, "%s: %d S_FMT", spec, driver_s_fmts);
	/* once only */
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(driver_s_fmts == s_fmts);
	CHECK(v4l2_close(fd) == 0);
}

static void test_default_format(void)
{
	/* a chip format only: the fake controls make every format converted */
	check_default("libv4l-vcam:S910:640x480:nopace", V4L2_PIX_FMT_RGB24, 1);
	/* 8-bit Bayer needs no conversion for the original (programs may
	 * decode it), so an upright Bayer camera keeps it, as there */
	check_default("libv4l-vcam:BA81:640x480:nopace", V4L2_PIX_FMT_SBGGR8,
		      0);
	check_default("libv4l-vcam:RGB3:640x480:flip=hv:nopace",
		      V4L2_PIX_FMT_RGB24, 0);
	check_default("libv4l-vcam:BA81,RGB3:640x480:flip=v:nopace",
		      V4L2_PIX_FMT_RGB24, 1);
	check_default("libv4l-vcam:YUYV:640x480:flip=hv:nopace",
		      V4L2_PIX_FMT_YUYV, 0);
	check_default("libv4l-vcam:YUYV:640x480:nopace", V4L2_PIX_FMT_YUYV, 0);
}

static int reqbufs(int fd, uint32_t memory, uint32_t count)
{
	struct v4l2_requestbuffers req = { .count = count,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = memory };
	int r = v4l2_ioctl(fd, VIDIOC_REQBUFS, &req);

	return r == 0 && count && !req.count ? -1 : r;
}

/* The capabilities REQBUFS(MMAP) count 0 answers (what
 * v4l2-compliance compares with the memory types it is granted). */
static uint32_t mmap_caps(int fd)
{
	struct v4l2_requestbuffers req = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };

	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	return req.capabilities;
}

static uint32_t g_fmt_size(int fd)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	return f.fmt.pix.sizeimage;
}

/*
 * Three frames into the application's memory (USERPTR), each checked:
 * the whole frame, the application's pointer back, and the picture (the
 * camera's own, no conversion).
 */
static void userptr_stream(int fd)
{
	uint32_t size = g_fmt_size(fd);
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	uint8_t *mem[NBUF], *want = malloc(size);

	for (unsigned int i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_USERPTR,
					 .index = i,
					 .length = size };

		mem[i] = malloc(size);
		memset(mem[i], 0x55, size);
		b.m.userptr = (unsigned long)mem[i];
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	for (int k = 0; k < 3; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_USERPTR };

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.memory == V4L2_MEMORY_USERPTR && b.index < NBUF);
		if (b.index >= NBUF)
			break;
		CHECK(b.m.userptr == (unsigned long)mem[b.index]);
		CHECK(b.bytesused == size);
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, b.sequence,
				       want, size) == (int)size);
		CHECK(!memcmp(mem[b.index], want, size));
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, 0) == 0);
	for (int i = 0; i < NBUF; i++)
		free(mem[i]);
	free(want);
}

/*
 * zbarcam's order: REQBUFS(USERPTR) before any S_FMT (its probe), S_FMT,
 * REQBUFS(USERPTR) again. One answer on a camera whatever the order and
 * the format: EINVAL whenever conversion is enabled, also on a camera
 * with nothing to convert, as the original answers (zbar then falls back
 * to MMAP). MMAP is granted afterwards.
 */
static void check_userptr_refused(const char *spec, uint32_t fourcc)
{
	int fd = vcam_open(spec, 0);

	errno = 0;
	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, NBUF) == -1 && errno == EINVAL,
	      "%s: USERPTR before S_FMT", spec);
	errno = 0;
	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, 0) == -1 && errno == EINVAL,
	      "%s: USERPTR count 0", spec);
	CHECK(set_fmt(fd, fourcc));
	errno = 0;
	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, NBUF) == -1 && errno == EINVAL,
	      "%s: USERPTR after S_FMT %.4s", spec, (char *)&fourcc);
	CHECK(reqbufs(fd, V4L2_MEMORY_MMAP, NBUF) == 0);
	CHECK(reqbufs(fd, V4L2_MEMORY_MMAP, 0) == 0);
	/* the capabilities say so too */
	CHECK((mmap_caps(fd) &
	       (V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_USERPTR)) ==
		      V4L2_BUF_CAP_SUPPORTS_MMAP,
	      "%s: REQBUFS(MMAP) claims USERPTR", spec);
	CHECK(v4l2_close(fd) == 0);
}

/* With V4L2_DISABLE_CONVERSION the driver answers USERPTR (the virtual
 * camera grants it), in both orders, and frames arrive in the
 * application's memory. */
static void check_userptr_unconverted(const char *spec)
{
	int fd = vcam_open(spec, V4L2_DISABLE_CONVERSION);

	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, NBUF) == 0,
	      "%s: USERPTR before S_FMT, conversion disabled", spec);
	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, 0) == 0);
	CHECK(mmap_caps(fd) & V4L2_BUF_CAP_SUPPORTS_USERPTR);
	CHECK(set_fmt(fd, V4L2_PIX_FMT_YUYV));
	CHECK(reqbufs(fd, V4L2_MEMORY_USERPTR, NBUF) == 0,
	      "%s: USERPTR after S_FMT, conversion disabled", spec);
	userptr_stream(fd);
	CHECK(v4l2_close(fd) == 0);
}

static void test_userptr_orders(void)
{
	check_userptr_refused("libv4l-vcam:YUYV:640x480:nopace",
			      V4L2_PIX_FMT_RGB24);
	check_userptr_refused("libv4l-vcam:YUYV:640x480:nopace",
			      V4L2_PIX_FMT_YUYV);
	check_userptr_refused("libv4l-vcam:YUYV:640x480:flip=hv:nopace",
			      V4L2_PIX_FMT_YUYV);
	check_userptr_refused("libv4l-vcam:BA81,RGB3:640x480:flip=v:nopace",
			      V4L2_PIX_FMT_RGB24);
	check_userptr_unconverted("libv4l-vcam:YUYV:640x480:nopace");
}

/*
 * Buffers requested and not freed make read() EBUSY, used or not, as the
 * kernel answers: v4l2-compliance -w (testReqBufs) reads one byte through
 * libv4l2 after REQBUFS(1) of each memory type it is granted and wants
 * -1/EBUSY. After REQBUFS 0, read() gives frames. USERPTR is granted only
 * with conversion disabled (check_userptr_refused).
 */
static void check_read_after_reqbufs(const char *spec, int v4l2_flags,
				     uint32_t fourcc, uint32_t memory)
{
	int fd = vcam_open(spec, v4l2_flags);
	uint32_t size;
	uint8_t *buf;

	CHECK(set_fmt(fd, fourcc));
	size = g_fmt_size(fd);
	buf = malloc(size);
	CHECK(reqbufs(fd, memory, NBUF) == 0, "%s: REQBUFS", spec);
	errno = 0;
	CHECK(v4l2_read(fd, buf, 1) == -1 && errno == EBUSY,
	      "%s memory %u: read() after REQBUFS", spec, memory);
	CHECK(reqbufs(fd, memory, 0) == 0);
	CHECK(v4l2_read(fd, buf, size) == (ssize_t)size, "%s: read", spec);
	free(buf);
	CHECK(v4l2_close(fd) == 0);
}

static void test_read_after_reqbufs(void)
{
	check_read_after_reqbufs("libv4l-vcam:YUYV:640x480:nopace", 0,
				 V4L2_PIX_FMT_YUYV, V4L2_MEMORY_MMAP);
	check_read_after_reqbufs("libv4l-vcam:YUYV:640x480:nopace", 0,
				 V4L2_PIX_FMT_RGB24, V4L2_MEMORY_MMAP);
	check_read_after_reqbufs("libv4l-vcam:BA81,RGB3:640x480:flip=v:nopace",
				 0, V4L2_PIX_FMT_RGB24, V4L2_MEMORY_MMAP);
	check_read_after_reqbufs("libv4l-vcam:YUYV:640x480:nopace",
				 V4L2_DISABLE_CONVERSION, V4L2_PIX_FMT_YUYV,
				 V4L2_MEMORY_USERPTR);
}

/*
 * Found by diff-libv4l2's random sequences: QUERYBUF while read() streams
 * under the hood showed the read stream's own driver buffers (their raw
 * length and offset) to the program. It ends the read stream first, as
 * QBUF, DQBUF, REQBUFS and STREAMON do here and as the original does; the
 * program has no buffers then: EINVAL.
 */
static void test_querybuf_during_read(void)
{
	int fd = vcam_open("libv4l-vcam:YUYV:640x480:nopace", 0);
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };
	uint8_t *buf = malloc(W * H * 3);

	CHECK(set_fmt(fd, V4L2_PIX_FMT_RGB24));
	CHECK(v4l2_read(fd, buf, W * H * 3) == W * H * 3);
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == -1 && errno == EINVAL,
	      "QUERYBUF answered length %u", b.length);
	/* read() starts again */
	CHECK(v4l2_read(fd, buf, W * H * 3) == W * H * 3);
	free(buf);
	CHECK(v4l2_close(fd) == 0);
}

/*
 * Found by diff-libv4l2's random sequences: S_FMT while the program holds
 * requested buffers (neither mapped nor queued) of a converted format
 * freed them behind its back and set the format, so its QUERYBUF and
 * QBUF then failed. EBUSY, as the kernel answers with buffers allocated
 * (uvcvideo, vb2's drivers) and so the original on them; after REQBUFS 0
 * the format changes.
 */
static void test_s_fmt_with_buffers(void)
{
	int fd = vcam_open("libv4l-vcam:YUYV:640x480:nopace", 0);
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };

	CHECK(set_fmt(fd, V4L2_PIX_FMT_RGB24));
	CHECK(reqbufs(fd, V4L2_MEMORY_MMAP, NBUF) == 0);
	f.fmt.pix.width = 320;
	f.fmt.pix.height = 240;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_BGR24;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == -1 && errno == EBUSY);
	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
	CHECK(reqbufs(fd, V4L2_MEMORY_MMAP, 0) == 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0 && f.fmt.pix.width == 320);
	CHECK(v4l2_close(fd) == 0);
}

int main(void)
{
	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);
	test_dqbuf_memory_zero();
	test_default_format();
	test_userptr_orders();
	test_read_after_reqbufs();
	test_querybuf_during_read();
	test_s_fmt_with_buffers();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
