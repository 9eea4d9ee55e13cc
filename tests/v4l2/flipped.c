/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A camera mounted upside down (vcam flip=hv, reported by ENUMINPUT), so
 * that libv4l2 flips every frame, also those of a native format:
 *  - VIDIOC_ENUM_FMT flags every format it lists V4L2_FMT_FLAG_EMULATED
 *    (GStreamer's v4l2src exports DMABUF unless the chosen format carries
 *    the flag); VIDIOC_EXPBUF on such a stream gives a memfd of the
 *    converted buffer (test_expbuf);
 *  - mplayer's S_FMT sequence: a Bayer format first (answered RGB3, 1920
 *    bytes per line at 640 wide), then YUYV in the same struct with that
 *    stale bytesperline. The answer and the frames must be tightly packed
 *    (mplayer reads 1280-byte rows whatever the answer says).
 *  - GStreamer's v4l2src sequence on such a format (test_gst_sequence).
 * The camera is wrapped by a plugin that honours a requested bytesperline
 * in TRY_FMT/S_FMT answers, as vivid and most vb2 drivers do.
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

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"
#include "../common/vcam_open.h"

#define W 640
#define H 480
#define NBUF 4

/* The largest bytesperline the driver was asked for with YUYV. */
static uint32_t yuyv_bpl_asked;

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	struct v4l2_format *f = arg;
	uint32_t want = 0;
	int r;

	if (req == VIDIOC_TRY_FMT || req == VIDIOC_S_FMT) {
		want = f->fmt.pix.bytesperline;
		if (f->fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
		    want > yuyv_bpl_asked)
			yuyv_bpl_asked = want;
	}
	r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
	if (r == 0 && want && want > f->fmt.pix.bytesperline && want < 65536) {
		/* padding honoured, as vivid does */
		f->fmt.pix.bytesperline = want;
		f->fmt.pix.sizeimage = want * f->fmt.pix.height;
	}
	return r;
}

static struct libv4l_dev_ops wrapped;

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
	int fd = vcam_open("libv4l-vcam:BA81,YUYV,RGB3:640x480:flip=hv:nopace",
			   0);
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
	fd = vcam_open("libv4l-vcam:BA81,YUYV,RGB3:640x480:nopace", 0);
	CHECK(listed_flags(fd, V4L2_PIX_FMT_YUYV, &all) == 0);
	CHECK(listed_flags(fd, V4L2_PIX_FMT_RGB24, &all) == 0);
	CHECK(listed_flags(fd, V4L2_PIX_FMT_SBGGR8, &all) == 0);
	f = listed_flags(fd, V4L2_PIX_FMT_YUV420, &all);
	CHECK(f >= 0 && (f & V4L2_FMT_FLAG_EMULATED));
	CHECK(!all);
	CHECK(v4l2_close(fd) == 0);
}

/* mplayer outfmt=yuy2: Bayer first, then YUYV with the answer's stride. */
static void mplayer_s_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = W;
	f->fmt.pix.height = H;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_SBGGR8;
	f->fmt.pix.field = V4L2_FIELD_ANY;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, f) == 0);
	CHECK(f->fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
	CHECK(f->fmt.pix.bytesperline == W * 3);

	f->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	{
		struct v4l2_format t = *f;

		CHECK(v4l2_ioctl(fd, VIDIOC_TRY_FMT, &t) == 0);
		CHECK(t.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);
		CHECK(t.fmt.pix.bytesperline == W * 2);
		CHECK(t.fmt.pix.sizeimage == W * H * 2);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, f) == 0);
	CHECK(f->fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);
	CHECK(f->fmt.pix.width == W && f->fmt.pix.height == H);
	CHECK(f->fmt.pix.bytesperline == W * 2);
	CHECK(f->fmt.pix.sizeimage == W * H * 2);
	/* the stale padding is not passed on to the driver */
	CHECK(yuyv_bpl_asked <= W * 2);
	memset(&f->fmt, 0, sizeof(f->fmt));
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, f) == 0);
	CHECK(f->fmt.pix.bytesperline == W * 2);
	CHECK(f->fmt.pix.sizeimage == W * H * 2);
}

/* Every buffer mapped and queued; try_export: each exported too. */
static void map_and_queue(int fd, uint8_t **maps, size_t *len, int try_export)
{
	struct v4l2_exportbuffer e = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	for (unsigned int i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };
		void *p;

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		*len = b.length;
		p = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, b.m.offset);
		CHECK(p != MAP_FAILED);
		maps[i] = p == MAP_FAILED ? NULL : p;
		if (try_export) {
			e.index = i;
			CHECK(v4l2_ioctl(fd, VIDIOC_EXPBUF, &e) == 0 &&
			      e.fd >= 0);
			if (e.fd >= 0)
				close(e.fd);
			e.fd = -1;
		}
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
}

/*
 * EXPBUF of a converted stream (PipeWire's V4L2 node exports every buffer
 * for its clients): a file per buffer whose mapping is that buffer, the
 * converted and upright frame the application's mapping shows, opened
 * with the access mode and close-on-exec asked for. Exported before the
 * buffers are mapped (as PipeWire does) or after (export_late).
 */
static int export_buf(int fd, unsigned int i, uint32_t flags)
{
	struct v4l2_exportbuffer e = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				       .index = i,
				       .flags = flags };

	errno = 0;
	if (v4l2_ioctl(fd, VIDIOC_EXPBUF, &e) < 0)
		return -1;
	return e.fd;
}

static void check_export_refusals(int fd)
{
	errno = 0;
	CHECK(export_buf(fd, NBUF, O_CLOEXEC) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(export_buf(fd, 0, O_CLOEXEC | O_NONBLOCK) == -1 &&
	      errno == EINVAL);
}

static void test_expbuf(uint32_t fourcc, int export_late)
{
	int fd = vcam_open("libv4l-vcam:BA81,YUYV,RGB3:640x480:flip=hv:nopace",
			   0);
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, xfd[NBUF];
	uint8_t *maps[NBUF] = { 0 }, *xmap[NBUF] = { 0 }, *want;
	size_t len = 0;

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == fourcc);
	want = malloc(f.fmt.pix.sizeimage);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == NBUF);
	check_export_refusals(fd);
	for (unsigned int i = 0; i < NBUF && !export_late; i++)
		xfd[i] = export_buf(fd, i, O_CLOEXEC | O_RDONLY);
	map_and_queue(fd, maps, &len, 0);
	for (unsigned int i = 0; i < NBUF && export_late; i++)
		xfd[i] = export_buf(fd, i, i & 1 ? O_RDWR : O_RDONLY);
	for (unsigned int i = 0; i < NBUF; i++) {
		void *p;

		CHECK(xfd[i] >= 0);
		if (xfd[i] < 0)
			continue;
		CHECK(!!(fcntl(xfd[i], F_GETFD) & FD_CLOEXEC) == !export_late);
		CHECK((fcntl(xfd[i], F_GETFL) & O_ACCMODE) ==
		      (export_late && (i & 1) ? O_RDWR : O_RDONLY));
		p = mmap(NULL, len, PROT_READ, MAP_SHARED, xfd[i], 0);
		CHECK(p != MAP_FAILED);
		xmap[i] = p == MAP_FAILED ? NULL : p;
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	for (int k = 0; k < 3; k++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.bytesused == f.fmt.pix.sizeimage && b.index < NBUF);
		if (b.index >= NBUF || !maps[b.index] || !xmap[b.index])
			continue;
		/* one buffer: what the application sees is exported */
		CHECK(!memcmp(maps[b.index], xmap[b.index], b.bytesused));
		if (fourcc == V4L2_PIX_FMT_YUYV) {
			CHECK(v4lc_vcam_render(fourcc, W, H, b.sequence, want,
					       b.bytesused) ==
			      (int)b.bytesused);
			CHECK(!memcmp(xmap[b.index], want, b.bytesused));
		}
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (int i = 0; i < NBUF; i++) {
		if (maps[i])
			CHECK(v4l2_munmap(maps[i], len) == 0);
		if (xmap[i])
			munmap(xmap[i], len);
		if (xfd[i] >= 0)
			close(xfd[i]);
	}
	req.count = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(v4l2_close(fd) == 0);
	free(want);
}

static void test_stale_bytesperline(void)
{
	int fd = vcam_open("libv4l-vcam:BA81,YUYV,RGB3:640x480:flip=hv:nopace",
			   0);
	struct v4l2_format f;
	struct v4l2_requestbuffers req = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = (size_t)W * H * 2, len = 0;
	uint8_t *maps[NBUF] = { 0 }, *want = malloc(size);

	mplayer_s_fmt(fd, &f);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == NBUF);
	map_and_queue(fd, maps, &len, 0);
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	for (int k = 0; k < 3; k++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.bytesused == size);
		/* the sensor's rotation undone: the upright picture, rows of
		 * exactly 1280 bytes */
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, b.sequence,
				       want, size) == (int)size);
		CHECK(b.index < NBUF && maps[b.index] &&
		      !memcmp(maps[b.index], want, size));
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (int i = 0; i < NBUF; i++)
		if (maps[i])
			CHECK(v4l2_munmap(maps[i], len) == 0);
	CHECK(v4l2_close(fd) == 0);
	free(want);
}

/*
 * GStreamer's v4l2src (GST_V4L2_USE_LIBV4L2=1, io-mode auto) on a native
 * format flipped in place, as libv4l2's log shows it in the VM: memory
 * types probed with REQBUFS count 0 (MMAP only: USERPTR and DMABUF are
 * refused whenever conversion is enabled, as the original), CREATE_BUFS
 * refused and EXPBUF answered once the pool exists, two frames
 * with one kept downstream over STREAMOFF, and the pool's memory unmapped
 * after the device is closed (a buffer that outlives its pool): the frames
 * must stay readable and the late munmap succeed.
 */
static void gst_probe_memory(int fd)
{
	struct v4l2_requestbuffers req = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};

	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	req.memory = V4L2_MEMORY_USERPTR;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == -1 && errno == EINVAL);
	req.memory = V4L2_MEMORY_DMABUF;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == -1 && errno == EINVAL);
}

static void gst_pool_start(int fd, uint8_t **maps, size_t *len)
{
	struct v4l2_requestbuffers req = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_create_buffers c = { .count = 1,
					 .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == NBUF);
	c.format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &c.format) == 0);
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_CREATE_BUFS, &c) == -1 && errno == EINVAL);
	map_and_queue(fd, maps, len, 1);
	CHECK(*len >= (size_t)W * H * 2);
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
}

static void test_gst_sequence(void)
{
	int fd = vcam_open("libv4l-vcam:BA81,YUYV,RGB3:640x480:flip=hv:nopace",
			   0);
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_buffer held = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = (size_t)W * H * 2, len = 0;
	uint8_t *maps[NBUF] = { 0 }, *want = malloc(size);
	uint32_t seq = 0;

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
	      f.fmt.pix.sizeimage == size);
	gst_probe_memory(fd);
	gst_pool_start(fd, maps, &len);
	for (int k = 0; k < 2; k++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.bytesused == size && b.bytesused <= b.length);
		CHECK(b.index < NBUF && maps[b.index]);
		/* the last one stays downstream, not given back */
		if (k == 1)
			held = b;
		else
			CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	seq = held.sequence;
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	/* the pool is freed while its memory is still mapped */
	CHECK(v4l2_close(fd) == 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, seq, want, size) ==
	      (int)size);
	CHECK(held.index < NBUF && maps[held.index] &&
	      !memcmp(maps[held.index], want, size));
	for (int i = 0; i < NBUF; i++)
		if (maps[i])
			CHECK(v4l2_munmap(maps[i], len) == 0);
	free(want);
}

int main(void)
{
	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);
	test_enum_fmt();
	test_expbuf(V4L2_PIX_FMT_YUYV, 0);
	test_expbuf(V4L2_PIX_FMT_RGB24, 0);
	test_expbuf(V4L2_PIX_FMT_YUV420, 1);
	test_expbuf(V4L2_PIX_FMT_YUYV, 1);
	test_stale_bytesperline();
	test_gst_sequence();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
