/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Latency libv4l2's conversion adds to DQBUF, on the virtual camera
 * (src/vcam, "nopace": frames are made when DQBUF asks, no waiting).
 *
 *   latency [--frames=N] [--runs=N]
 *
 * For YUYV and MJPG at 640x480 and 1280x720: the median wall time of
 * v4l2_ioctl(VIDIOC_DQBUF) with conversion to RGB24 against the same camera
 * opened with V4L2_DISABLE_CONVERSION (the camera's own rendering, JPEG
 * encoding included, is in both figures; the difference is the
 * conversion). Median over N frames (default 30) of each run, then the
 * median of the runs (default 5). ms per frame.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#define NBUF 4
#define MAX_FRAMES 1000

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median ms of DQBUF over `frames` frames; < 0 on error. */
static double run(const char *fmt, int w, int h, int convert, int frames)
{
	char name[64];
	struct v4l2_format f;
	struct v4l2_requestbuffers rb;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd, n = 0;
	static double t[MAX_FRAMES];
	double med = -1;

	snprintf(name, sizeof(name), "libv4l-vcam:%s:%dx%d:nopace", fmt, w, h);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (v4l2_fd_open(fd, convert ? 0 : V4L2_DISABLE_CONVERSION) != fd) {
		close(fd);
		return -1;
	}
	memset(&f, 0, sizeof(f));
	f.type = type;
	if (v4l2_ioctl(fd, VIDIOC_G_FMT, &f) < 0)
		goto out;
	if (convert) {
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
		if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0 ||
		    f.fmt.pix.pixelformat != V4L2_PIX_FMT_RGB24)
			goto out;
	}
	if ((int)f.fmt.pix.width != w || (int)f.fmt.pix.height != h)
		goto out;
	memset(&rb, 0, sizeof(rb));
	rb.count = NBUF;
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	if (v4l2_ioctl(fd, VIDIOC_REQBUFS, &rb) < 0)
		goto out;
	for (unsigned int i = 0; i < rb.count; i++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		if (v4l2_ioctl(fd, VIDIOC_QBUF, &b) < 0)
			goto free;
	}
	if (v4l2_ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		goto free;
	for (int k = 0; k < frames; k++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };
		double t0 = now_ms();

		if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0)
			break;
		t[n++] = now_ms() - t0;
		if (v4l2_ioctl(fd, VIDIOC_QBUF, &b) < 0)
			break;
	}
	v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
	if (n == frames) {
		qsort(t, (size_t)n, sizeof(t[0]), cmp_d);
		med = t[n / 2];
	}
free:
	rb.count = 0;
	v4l2_ioctl(fd, VIDIOC_REQBUFS, &rb);
out:
	v4l2_close(fd);
	return med;
}

static double median_runs(const char *fmt, int w, int h, int convert,
			  int frames, int runs)
{
	double r[32];

	for (int i = 0; i < runs; i++) {
		r[i] = run(fmt, w, h, convert, frames);
		if (r[i] < 0)
			return -1;
	}
	qsort(r, (size_t)runs, sizeof(r[0]), cmp_d);
	return r[runs / 2];
}

int main(int argc, char **argv)
{
	static const char *const fmts[] = { "YUYV", "MJPG" };
	static const int sizes[][2] = { { 640, 480 }, { 1280, 720 } };
	int frames = 30, runs = 5, bad = 0;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--frames=", 9))
			frames = atoi(argv[i] + 9);
		else if (!strncmp(argv[i], "--runs=", 7))
			runs = atoi(argv[i] + 7);
		else {
			fprintf(stderr, "usage: %s [--frames=N] [--runs=N]\n",
				argv[0]);
			return 2;
		}
	}
	if (frames < 1 || frames > MAX_FRAMES || runs < 1 || runs > 32) {
		fprintf(stderr, "frames 1..%d, runs 1..32\n", MAX_FRAMES);
		return 2;
	}
	printf("DQBUF on the virtual camera (nopace), median ms per frame "
	       "(%d frames x %d runs)\n",
	       frames, runs);
	printf("%-5s %-10s %10s %10s %10s\n", "fmt", "size", "raw", "->RGB24",
	       "added");
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		for (size_t s = 0; s < 2; s++) {
			int w = sizes[s][0], h = sizes[s][1];
			double raw =
				median_runs(fmts[i], w, h, 0, frames, runs);
			double conv =
				median_runs(fmts[i], w, h, 1, frames, runs);
			char sz[16];

			snprintf(sz, sizeof(sz), "%dx%d", w, h);
			if (raw < 0 || conv < 0) {
				printf("%-5s %-10s failed (%s)\n", fmts[i], sz,
				       strerror(errno));
				bad = 1;
				continue;
			}
			printf("%-5s %-10s %10.3f %10.3f %10.3f\n", fmts[i], sz,
			       raw, conv, conv - raw);
		}
	}
	return bad;
}
