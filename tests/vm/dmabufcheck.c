/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * DMABUF capture through libv4l2 on a real driver (in the vivid VM):
 *   vm-dmabufcheck LIBV4L2 EXPORTER CAPTURE
 * buffers exported (VIDIOC_EXPBUF) by one vivid instance are imported by
 * the other, opened with v4l2_open of the libv4l2 given (ours by path, or
 * the distribution's "libv4l2.so.0"), capturing its native YUYV: no
 * conversion, so libv4l2 must pass DMABUF straight to the driver (the
 * original refuses it). Checks five frames: full size, and a picture
 * (vivid's colour bars, not a constant buffer). Exit 0 when all pass.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#define NBUF 4
#define W 640
#define H 480

static int (*v4l2_open)(const char *, int, ...);
static int (*v4l2_ioctl)(int, unsigned long, ...);
static int (*v4l2_close)(int);

static int set_yuyv(int fd, int (*ctl)(int, unsigned long, ...),
		    struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = W;
	f->fmt.pix.height = H;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	if (ctl(fd, VIDIOC_S_FMT, f) < 0)
		return -1;
	return f->fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
			       f->fmt.pix.width == W && f->fmt.pix.height == H
		       ? 0
		       : -1;
}

static int plain_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return ioctl(fd, req, arg);
}

/* Distinct byte values in a buffer: bars give many, a blank buffer one. */
static int distinct(const unsigned char *p, size_t n)
{
	unsigned char seen[256] = { 0 };
	int k = 0;

	for (size_t i = 0; i < n; i++)
		if (!seen[p[i]]++)
			k++;
	return k;
}

int main(int argc, char **argv)
{
	struct v4l2_format f;
	struct v4l2_requestbuffers req = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
	};
	int dmafd[NBUF], exp, cap, type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size;
	int good = 0;

	void *lib;

	if (argc != 4) {
		fprintf(stderr, "usage: %s LIBV4L2 EXPORTER CAPTURE\n",
			argv[0]);
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW);
	if (!lib) {
		fprintf(stderr, "%s\n", dlerror());
		return 2;
	}
	v4l2_open = (int (*)(const char *, int, ...))dlsym(lib, "v4l2_open");
	v4l2_ioctl = (int (*)(int, unsigned long, ...))dlsym(lib, "v4l2_ioctl");
	v4l2_close = (int (*)(int))dlsym(lib, "v4l2_close");
	if (!v4l2_open || !v4l2_ioctl || !v4l2_close)
		return 2;
	exp = open(argv[2], O_RDWR);
	if (exp < 0 || set_yuyv(exp, plain_ioctl, &f) < 0) {
		perror("exporter");
		return 2;
	}
	size = f.fmt.pix.sizeimage;
	req.memory = V4L2_MEMORY_MMAP;
	if (ioctl(exp, VIDIOC_REQBUFS, &req) < 0 || req.count < NBUF) {
		perror("exporter REQBUFS");
		return 2;
	}
	for (int i = 0; i < NBUF; i++) {
		struct v4l2_exportbuffer e = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.index = (unsigned)i,
			.flags = O_RDWR,
		};

		if (ioctl(exp, VIDIOC_EXPBUF, &e) < 0) {
			perror("EXPBUF");
			return 2;
		}
		dmafd[i] = e.fd;
	}

	cap = v4l2_open(argv[3], O_RDWR);
	if (cap < 0 || set_yuyv(cap, v4l2_ioctl, &f) < 0 ||
	    f.fmt.pix.sizeimage > size) {
		perror("capture device");
		return 1;
	}
	req.count = NBUF;
	req.memory = V4L2_MEMORY_DMABUF;
	if (v4l2_ioctl(cap, VIDIOC_REQBUFS, &req) < 0) {
		printf("REQBUFS(DMABUF) refused: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_DMABUF,
			.index = (unsigned)i,
		};

		b.m.fd = dmafd[i];
		b.length = (unsigned)size;
		if (v4l2_ioctl(cap, VIDIOC_QBUF, &b) < 0) {
			printf("QBUF(DMABUF) failed: %s\n", strerror(errno));
			return 1;
		}
	}
	if (v4l2_ioctl(cap, VIDIOC_STREAMON, &type) < 0) {
		printf("STREAMON failed: %s\n", strerror(errno));
		return 1;
	}
	for (int n = 0; n < 5; n++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_DMABUF,
		};
		unsigned char *p;

		if (v4l2_ioctl(cap, VIDIOC_DQBUF, &b) < 0 || b.index >= NBUF) {
			printf("DQBUF failed: %s\n", strerror(errno));
			return 1;
		}
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, dmafd[b.index], 0);
		if (p == MAP_FAILED) {
			perror("mmap dmabuf");
			return 1;
		}
		if (b.bytesused == f.fmt.pix.sizeimage &&
		    distinct(p, f.fmt.pix.sizeimage) > 16)
			good++;
		else
			printf("frame %d: %u bytes, %d distinct values\n", n,
			       b.bytesused, distinct(p, f.fmt.pix.sizeimage));
		munmap(p, size);
		if (v4l2_ioctl(cap, VIDIOC_QBUF, &b) < 0) {
			printf("re-QBUF failed: %s\n", strerror(errno));
			return 1;
		}
	}
	v4l2_ioctl(cap, VIDIOC_STREAMOFF, &type);
	v4l2_close(cap);
	printf("DMABUF capture: %d of 5 frames good\n", good);
	return good == 5 ? 0 : 1;
}
