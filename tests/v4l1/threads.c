/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Thread safety per fd: two virtual cameras, each captured by one thread
 * (read() on the first, mmap + MCAPTURE/SYNC on the second) while other
 * threads keep asking both for their capabilities, picture, window,
 * channel and (V4L2) format. Every frame must still be the next frame of
 * the stream, byte for byte as libv4l2 captures it on a fresh camera, and
 * every answer must stay what it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l1.h>
#include <libv4l2.h>

#include "vcam/vcam.h"
#include "../common/check.h"

#define W 320
#define H 240
#define FRAMES 20
#define SPEC "YUYV:320x240:nopace"

static atomic_int done;

static uint8_t *ref_frames(uint32_t fourcc, int n, size_t *size)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = v4lc_vcam_create(SPEC);
	uint8_t *out;

	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0 &&
	      f.fmt.pix.pixelformat == fourcc);
	*size = f.fmt.pix.sizeimage;
	out = malloc(*size * n);
	for (int i = 0; i < n; i++)
		CHECK(v4l2_read(fd, out + *size * i, *size) == (ssize_t)*size);
	v4l2_close(fd);
	return out;
}

struct cam {
	int memfd, fd;
	int palette;
	uint32_t fourcc;
	uint8_t *ref;
	size_t size;
};

static int open_cam(struct cam *c)
{
	char path[64];
	struct video_picture p;

	c->memfd = v4lc_vcam_create(SPEC);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", c->memfd);
	c->fd = v4l1_open(path, O_RDWR);
	CHECK(c->fd >= 0);
	CHECK(v4l1_ioctl(c->fd, VIDIOCGPICT, &p) == 0);
	p.palette = (uint16_t)c->palette;
	CHECK(v4l1_ioctl(c->fd, VIDIOCSPICT, &p) == 0);
	c->ref = ref_frames(c->fourcc, FRAMES, &c->size);
	return c->fd;
}

static void *reader(void *arg)
{
	struct cam *c = arg;
	uint8_t *buf = malloc(c->size);

	for (int i = 0; i < FRAMES; i++) {
		CHECK(v4l1_read(c->fd, buf, c->size) == (ssize_t)c->size);
		CHECK(!memcmp(buf, c->ref + c->size * i, c->size));
	}
	free(buf);
	done++;
	return NULL;
}

static void *syncer(void *arg)
{
	struct cam *c = arg;
	struct video_mbuf mb;
	struct video_mmap vm = { .width = W,
				 .height = H,
				 .format = (unsigned)c->palette };
	uint8_t *base;

	CHECK(v4l1_ioctl(c->fd, VIDIOCGMBUF, &mb) == 0);
	base = v4l1_mmap(NULL, (size_t)mb.size, PROT_READ, MAP_SHARED, c->fd,
			 0);
	CHECK(base != MAP_FAILED);
	if (base == MAP_FAILED) {
		done++;
		return NULL;
	}
	for (int f = 0; f < 2; f++) {
		vm.frame = (unsigned)f;
		CHECK(v4l1_ioctl(c->fd, VIDIOCMCAPTURE, &vm) == 0);
	}
	for (int i = 0; i < FRAMES; i++) {
		int f = i % 2;

		CHECK(v4l1_ioctl(c->fd, VIDIOCSYNC, &f) == 0);
		CHECK(!memcmp(base + mb.offsets[f], c->ref + c->size * i,
			      c->size));
		vm.frame = (unsigned)f;
		CHECK(v4l1_ioctl(c->fd, VIDIOCMCAPTURE, &vm) == 0);
	}
	CHECK(v4l1_munmap(base, (size_t)mb.size) == 0);
	done++;
	return NULL;
}

static void *asker(void *arg)
{
	struct cam *c = arg;

	while (done < 2) {
		struct video_capability cap;
		struct video_picture p;
		struct video_window w;
		struct video_channel ch = { .channel = 0 };
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		CHECK(v4l1_ioctl(c->fd, VIDIOCGCAP, &cap) == 0 &&
		      cap.type == VID_TYPE_CAPTURE);
		CHECK(v4l1_ioctl(c->fd, VIDIOCGPICT, &p) == 0 &&
		      p.palette == c->palette);
		CHECK(v4l1_ioctl(c->fd, VIDIOCGWIN, &w) == 0 && w.width == W);
		CHECK(v4l1_ioctl(c->fd, VIDIOCGCHAN, &ch) == 0);
		CHECK(v4l1_ioctl(c->fd, VIDIOC_G_FMT, &f) == 0 &&
		      f.fmt.pix.pixelformat == c->fourcc);
	}
	return NULL;
}

int main(void)
{
	struct cam a = { .palette = VIDEO_PALETTE_RGB24,
			 .fourcc = V4L2_PIX_FMT_BGR24 };
	struct cam b = { .palette = VIDEO_PALETTE_YUV420P,
			 .fourcc = V4L2_PIX_FMT_YUV420 };
	pthread_t t[6];

	if (open_cam(&a) < 0 || open_cam(&b) < 0)
		return 1;
	pthread_create(&t[0], NULL, reader, &a);
	pthread_create(&t[1], NULL, syncer, &b);
	pthread_create(&t[2], NULL, asker, &a);
	pthread_create(&t[3], NULL, asker, &a);
	pthread_create(&t[4], NULL, asker, &b);
	pthread_create(&t[5], NULL, asker, &b);
	for (int i = 0; i < 6; i++)
		pthread_join(t[i], NULL);
	CHECK(v4l1_close(a.fd) == 0);
	CHECK(v4l1_close(b.fd) == 0);
	close(a.memfd);
	close(b.memfd);
	free(a.ref);
	free(b.ref);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
