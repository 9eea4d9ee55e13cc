/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A hostile driver under libv4l2: the virtual camera wrapped (through the
 * test variant's plugin hook) by a plugin that, for chosen frames, reports
 * bytesused beyond the buffer's length, 0 bytes, a few bytes, fills the
 * buffer with garbage (MJPEG), dequeues a buffer index it never had, or
 * fails DQBUF with EIO and then ENODEV (unplugged); and whose formats carry
 * absurd bytesperline and sizeimage values. Each time the application
 * sees a clear errno or a correct frame, never a length beyond the buffer,
 * and the stream goes on with the next frame; close is clean.
 * Expected frames come from the camera's renderer and a separate
 * libv4lconvert instance, never from libv4l2.
 */
#include <errno.h>
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

#define W 64
#define H 48

enum fault {
	F_NONE,
	F_HUGE_BYTESUSED,
	F_OVER_BYTESUSED,
	F_ZERO_BYTESUSED,
	F_SHORT,
	F_GARBAGE,
	F_BAD_INDEX,
	F_EIO,
	F_ENODEV,
};

/* The fault of each sequence number (F_NONE when not listed). */
static enum fault faults[64];
static int absurd_fmt;
static int gone;

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	struct v4l2_buffer *b = arg;
	int r;

	if (gone) {
		errno = ENODEV;
		return -1;
	}
	r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
	if (r == 0 && absurd_fmt &&
	    (req == VIDIOC_G_FMT || req == VIDIOC_S_FMT ||
	     req == VIDIOC_TRY_FMT)) {
		struct v4l2_format *f = arg;

		f->fmt.pix.bytesperline = absurd_fmt == 1 ? 0xffffffffu : 0;
		f->fmt.pix.sizeimage = absurd_fmt == 1 ? 0 : 0xffffffffu;
	}
	if (r != 0 || req != VIDIOC_DQBUF || b->sequence >= 64)
		return r;
	switch (faults[b->sequence]) {
	case F_HUGE_BYTESUSED:
		b->bytesused = 0xffffffffu;
		break;
	case F_OVER_BYTESUSED:
		b->bytesused = b->length + 4096;
		break;
	case F_ZERO_BYTESUSED:
		b->bytesused = 0;
		break;
	case F_SHORT:
		b->bytesused = 7;
		break;
	case F_GARBAGE: {
		uint8_t junk[4096];
		struct v4l2_buffer q = { .type = b->type,
					 .memory = b->memory,
					 .index = b->index };

		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)(i * 151 + b->sequence);
		/* the buffer lives in the memfd at its offset */
		if (v4lc_vcam_ops.ioctl(priv, fd, VIDIOC_QUERYBUF, &q) < 0 ||
		    pwrite(fd, junk,
			   b->bytesused < sizeof(junk) ? b->bytesused
						       : sizeof(junk),
			   q.m.offset) < 0)
			abort();
		break;
	}
	case F_BAD_INDEX:
		b->index = 1000;
		break;
	case F_EIO:
		faults[b->sequence] = F_NONE;
		errno = EIO;
		return -1;
	case F_ENODEV:
		gone = 1;
		errno = ENODEV;
		return -1;
	default:
		break;
	}
	return r;
}

static struct libv4l_dev_ops wrapped;
static struct v4lconvert_data *ref_conv;

/* Frame `seq` of the camera, raw, converted to `fourcc` by a separate
 * libv4lconvert. */
static uint8_t *expected(uint32_t cam_fmt, uint32_t fourcc, uint32_t seq,
			 size_t *n)
{
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE }, dst;
	size_t raw_size = v4lc_vcam_sizeimage(cam_fmt, W, H);
	uint8_t *raw = malloc(raw_size), *out;
	int len = v4lc_vcam_render(cam_fmt, W, H, seq, raw, raw_size);

	src.fmt.pix.width = W;
	src.fmt.pix.height = H;
	src.fmt.pix.pixelformat = cam_fmt;
	src.fmt.pix.bytesperline = v4lc_vcam_bytesperline(cam_fmt, W);
	src.fmt.pix.sizeimage = (uint32_t)raw_size;
	src.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	dst = src;
	dst.fmt.pix.pixelformat = fourcc;
	v4lconvert_fixup_fmt(&dst);
	if (fourcc == cam_fmt) {
		*n = (size_t)len;
		return raw;
	}
	out = malloc(dst.fmt.pix.sizeimage);
	*n = dst.fmt.pix.sizeimage;
	CHECK(v4lconvert_convert(ref_conv, &src, &dst, raw, len, out,
				 (int)*n) == (int)*n);
	free(raw);
	return out;
}

struct stream {
	int fd;
	uint8_t *maps[4];
	size_t len;
};

static int start(struct stream *s, const char *spec, uint32_t fourcc)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	s->fd = v4lc_vcam_create(spec);
	CHECK(s->fd >= 0 && v4l2_fd_open(s->fd, 0) == s->fd);
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	if (v4l2_ioctl(s->fd, VIDIOC_S_FMT, &f) != 0 ||
	    f.fmt.pix.pixelformat != fourcc) {
		CHECK(!"S_FMT");
		return -1;
	}
	CHECK(v4l2_ioctl(s->fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 4);
	for (unsigned int i = 0; i < 4; i++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(s->fd, VIDIOC_QUERYBUF, &b) == 0);
		s->len = b.length;
		s->maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				       MAP_SHARED, s->fd, b.m.offset);
		CHECK(s->maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(s->fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(s->fd, VIDIOC_STREAMON, &type) == 0);
	return 0;
}

static void stop(struct stream *s)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	v4l2_ioctl(s->fd, VIDIOC_STREAMOFF, &type);
	for (int i = 0; i < 4; i++)
		if (s->maps[i] != MAP_FAILED)
			CHECK(v4l2_munmap(s->maps[i], s->len) == 0);
	CHECK(v4l2_close(s->fd) == 0);
}

/*
 * Dequeue `n` frames; each is either an error with an errno from `ok_errs`
 * or a frame whose content matches its sequence number.
 */
static void pull(struct stream *s, uint32_t cam_fmt, uint32_t fourcc, int n,
		 const char *what)
{
	for (int k = 0; k < n; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };
		uint8_t *want;
		size_t wn;

		errno = 0;
		if (v4l2_ioctl(s->fd, VIDIOC_DQBUF, &b) != 0) {
			/* a fault the application must see: EIO, EINVAL */
			if (errno != EIO && errno != EINVAL) {
				printf("FAIL %s: DQBUF errno %s\n", what,
				       strerror(errno));
				failures++;
			}
			continue;
		}
		CHECK(b.index < 4);
		CHECK(b.bytesused <= b.length);
		if (b.index >= 4 || b.bytesused > b.length)
			continue;
		want = expected(cam_fmt, fourcc, b.sequence, &wn);
		if (fourcc == cam_fmt && faults[b.sequence] != F_NONE) {
			/* raw: the frame as the driver left it, bounded */
			CHECK(b.bytesused <= s->len);
		} else if (b.bytesused != wn ||
			   memcmp(s->maps[b.index], want, wn)) {
			printf("FAIL %s: frame %u wrong (%u bytes, want %zu)\n",
			       what, b.sequence, b.bytesused, wn);
			failures++;
		}
		free(want);
		CHECK(v4l2_ioctl(s->fd, VIDIOC_QBUF, &b) == 0);
	}
}

static void scenario(const char *spec, uint32_t cam_fmt, uint32_t fourcc,
		     const enum fault *list, int n_list, const char *what)
{
	struct stream s;

	memset(faults, 0, sizeof(faults));
	for (int i = 0; i < n_list; i++)
		faults[i] = list[i];
	gone = 0;
	if (start(&s, spec, fourcc) == 0)
		pull(&s, cam_fmt, fourcc, n_list + 4, what);
	stop(&s);
}

/* Unplugged while streaming: ENODEV, no hang, a clean close. */
static void unplug(uint32_t fourcc)
{
	struct stream s;
	int nodev = 0;

	memset(faults, 0, sizeof(faults));
	faults[2] = F_ENODEV;
	gone = 0;
	if (start(&s, "YUYV:64x48:nopace", fourcc) == 0)
		for (int k = 0; k < 6; k++) {
			struct v4l2_buffer b = {
				.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP,
			};

			errno = 0;
			if (v4l2_ioctl(s.fd, VIDIOC_DQBUF, &b) == 0) {
				CHECK(!nodev && b.sequence < 2);
				CHECK(v4l2_ioctl(s.fd, VIDIOC_QBUF, &b) == 0 ||
				      errno == ENODEV);
			} else {
				CHECK(errno == ENODEV);
				nodev++;
			}
		}
	CHECK(nodev >= 1);
	/* every further call: ENODEV, and close works */
	{
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		uint8_t buf[64];

		errno = 0;
		CHECK(v4l2_ioctl(s.fd, VIDIOC_S_FMT, &f) == -1);
		errno = 0;
		CHECK(v4l2_read(s.fd, buf, sizeof(buf)) == -1);
	}
	stop(&s);
	gone = 0;
}

/* A driver whose formats carry absurd bytesperline / sizeimage. */
static void absurd_formats(int kind)
{
	struct stream s;
	uint8_t *buf = malloc(W * H * 3);

	memset(faults, 0, sizeof(faults));
	absurd_fmt = kind;
	if (start(&s, "YUYV:64x48:nopace", V4L2_PIX_FMT_RGB24) == 0) {
		/* either the frames convert right, or a clear error */
		pull(&s, V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, 3,
		     kind == 1 ? "bytesperline ~0" : "sizeimage ~0");
	}
	stop(&s);
	/* read() on such a driver */
	s.fd = v4lc_vcam_create("YUYV:64x48:nopace");
	CHECK(s.fd >= 0 && v4l2_fd_open(s.fd, 0) == s.fd);
	{
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		ssize_t r;

		f.fmt.pix.width = W;
		f.fmt.pix.height = H;
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
		CHECK(v4l2_ioctl(s.fd, VIDIOC_S_FMT, &f) == 0);
		errno = 0;
		r = v4l2_read(s.fd, buf, W * H * 3);
		CHECK(r == W * H * 3 || (r == -1 && errno != 0));
	}
	CHECK(v4l2_close(s.fd) == 0);
	absurd_fmt = 0;
	free(buf);
}

int main(void)
{
	static const enum fault bytesused[] = {
		F_NONE,           F_HUGE_BYTESUSED, F_NONE,
		F_OVER_BYTESUSED, F_ZERO_BYTESUSED, F_NONE,
		F_HUGE_BYTESUSED,
	};
	static const enum fault shorts[] = {
		F_NONE, F_SHORT, F_NONE, F_SHORT,     F_SHORT,
		F_NONE, F_EIO,   F_NONE, F_BAD_INDEX, F_NONE,
	};
	static const enum fault garbage[] = {
		F_NONE,    F_GARBAGE, F_NONE,  F_GARBAGE,
		F_GARBAGE, F_NONE,    F_SHORT, F_NONE,
	};
	int ref_fd = v4lc_vcam_create("YUYV:64x48");
	void *ref_priv = v4lc_vcam_ops.init(ref_fd);

	ref_conv = v4lconvert_create_with_dev_ops(ref_fd, ref_priv,
						  &v4lc_vcam_ops);
	if (!ref_conv) {
		printf("FAIL: reference converter\n");
		return 1;
	}
	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);

	/* bytesused beyond the buffer: converted, and passed through raw */
	scenario("YUYV:64x48:nopace", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24,
		 bytesused, 7, "bytesused, converting");
	scenario("YUYV:64x48:nopace", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV,
		 bytesused, 7, "bytesused, raw");
	/* short frames, an I/O error, a buffer index never handed out */
	scenario("YUYV:64x48:nopace", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420,
		 shorts, 10, "short frames");
	/* garbage MJPEG */
	scenario("MJPG:64x48:nopace", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_BGR24,
		 garbage, 8, "garbage MJPEG");
	unplug(V4L2_PIX_FMT_RGB24);
	unplug(V4L2_PIX_FMT_YUYV);
	absurd_formats(1);
	absurd_formats(2);

	v4lconvert_destroy(ref_conv);
	v4lc_vcam_ops.close(ref_priv);
	close(ref_fd);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
