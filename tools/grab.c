/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-grab: stream frames through libv4l2 and write them as images, from
 * a V4L2 device when one is given, from the virtual camera otherwise (the
 * plugin module libv4l-vcam.so in libv4l2's plugin directory; from the
 * build tree, LIBV4L2_PLUGIN_DIR=build/src/vcam names that directory). libv4l2 converts whatever the camera sends (MJPEG by default on
 * the virtual camera) into the format asked for.
 *
 *   v4l2-grab [--device /dev/videoN] [--camera SPEC] [--format FOURCC]
 *             [--size WxH] [--frames N] [--out DIR] [--read]
 *
 * --camera: the virtual camera's spec (see src/vcam/vcam.h), default
 * "MJPG:640x480". --format: RGB3 (default), BGR3, YU12 or YV12; RGB frames
 * are written as PNG, YUV ones as raw .yuv files. --read uses read()
 * (emulated by libv4l2 on devices that only stream) instead of mmap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "png.h"

#define NBUF 4

struct opts {
	const char *device, *camera, *out;
	uint32_t fourcc;
	int width, height, frames, use_read;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int xioctl(int fd, unsigned long req, void *arg, const char *what)
{
	int r;

	do
		r = v4l2_ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		fprintf(stderr, "v4l2-grab: %s: %s\n", what, strerror(errno));
	return r;
}

static int open_camera(const struct opts *o)
{
	char name[160];
	int fd;

	if (o->device) {
		fd = v4l2_open(o->device, O_RDWR);
		if (fd < 0)
			fprintf(stderr, "v4l2-grab: %s: %s\n", o->device,
				strerror(errno));
		return fd;
	}
	/* The virtual camera: a memfd whose name the camera's plugin
	 * recognises. */
	snprintf(name, sizeof(name), "libv4l-vcam:%s", o->camera);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0 || v4l2_fd_open(fd, 0) != fd) {
		fprintf(stderr, "v4l2-grab: virtual camera \"%s\": %s\n",
			o->camera, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int save(const struct opts *o, const struct v4l2_pix_format *pix,
		const uint8_t *data, size_t size, int n)
{
	char path[512];
	int rgb = pix->pixelformat == V4L2_PIX_FMT_RGB24 ||
		  pix->pixelformat == V4L2_PIX_FMT_BGR24;
	FILE *f;

	snprintf(path, sizeof(path), "%s/frame-%03d.%s", o->out, n,
		 rgb ? "png" : "yuv");
	if (rgb)
		return png_write(path, data, (int)pix->width, (int)pix->height,
				 pix->bytesperline,
				 pix->pixelformat == V4L2_PIX_FMT_BGR24);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size) {
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f);
}

static void progress(const struct opts *o, int n, uint32_t seq, double t0)
{
	double t = now() - t0;

	printf("\rframe %d/%d  sequence %u  %.1f fps   ", n + 1, o->frames, seq,
	       t > 0 ? (n + 1) / t : 0.0);
	fflush(stdout);
}

static int grab_mmap(int fd, const struct opts *o,
		     const struct v4l2_pix_format *pix)
{
	struct v4l2_requestbuffers req = { .count = NBUF,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
	void *map[NBUF];
	size_t len[NBUF];
	enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	double t0;
	int ret = 0;

	if (xioctl(fd, VIDIOC_REQBUFS, &req, "REQBUFS") || req.count < 1)
		return -1;
	for (unsigned i = 0; i < req.count && i < NBUF; i++) {
		struct v4l2_buffer b = { .index = i,
					 .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		if (xioctl(fd, VIDIOC_QUERYBUF, &b, "QUERYBUF"))
			return -1;
		len[i] = b.length;
		map[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, b.m.offset);
		if (map[i] == MAP_FAILED || xioctl(fd, VIDIOC_QBUF, &b, "QBUF"))
			return -1;
	}
	if (xioctl(fd, VIDIOC_STREAMON, &type, "STREAMON"))
		return -1;
	t0 = now();
	for (int n = 0; n < o->frames && !ret; n++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		if (xioctl(fd, VIDIOC_DQBUF, &b, "DQBUF")) {
			ret = -1;
			break;
		}
		progress(o, n, b.sequence, t0);
		ret = save(o, pix, map[b.index], b.bytesused, n);
		if (xioctl(fd, VIDIOC_QBUF, &b, "QBUF"))
			ret = -1;
	}
	printf("\ncaptured %d frames in %.2f s (%.1f fps)\n", o->frames,
	       now() - t0, o->frames / (now() - t0));
	xioctl(fd, VIDIOC_STREAMOFF, &type, "STREAMOFF");
	for (unsigned i = 0; i < req.count && i < NBUF; i++)
		v4l2_munmap(map[i], len[i]);
	return ret;
}

static int grab_read(int fd, const struct opts *o,
		     const struct v4l2_pix_format *pix)
{
	uint8_t *buf = malloc(pix->sizeimage);
	double t0 = now();
	int ret = 0;

	for (int n = 0; buf && n < o->frames && !ret; n++) {
		ssize_t got = v4l2_read(fd, buf, pix->sizeimage);

		if (got < 0) {
			fprintf(stderr, "v4l2-grab: read: %s\n",
				strerror(errno));
			ret = -1;
			break;
		}
		progress(o, n, (uint32_t)n, t0);
		ret = save(o, pix, buf, (size_t)got, n);
	}
	printf("\nread %d frames in %.2f s (%.1f fps)\n", o->frames, now() - t0,
	       o->frames / (now() - t0));
	free(buf);
	return buf ? ret : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: v4l2-grab [--device PATH] [--camera SPEC] "
			"[--format FOURCC] [--size WxH] [--frames N] "
			"[--out DIR] [--read]\n");
}

int main(int argc, char **argv)
{
	struct opts o = { .camera = "MJPG:640x480",
			  .out = "out/grab",
			  .fourcc = V4L2_PIX_FMT_RGB24,
			  .width = 640,
			  .height = 480,
			  .frames = 30 };
	struct v4l2_format fmt;
	int fd, ret;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--read")) {
			o.use_read = 1;
			continue;
		}
		if (!v) {
			usage();
			return 2;
		}
		i++;
		if (!strcmp(a, "--device"))
			o.device = v;
		else if (!strcmp(a, "--camera"))
			o.camera = v;
		else if (!strcmp(a, "--out"))
			o.out = v;
		else if (!strcmp(a, "--frames"))
			o.frames = atoi(v);
		else if (!strcmp(a, "--size") &&
			 sscanf(v, "%dx%d", &o.width, &o.height) == 2)
			;
		else if (!strcmp(a, "--format") && strlen(v) == 4)
			o.fourcc = v4l2_fourcc(v[0], v[1], v[2], v[3]);
		else {
			usage();
			return 2;
		}
	}
	if (o.frames < 1 || o.width < 1 || o.height < 1) {
		usage();
		return 2;
	}
	if (mkdir(o.out, 0755) && errno != EEXIST) {
		/* one level of parents is enough for the default out/grab */
		char parent[512];

		snprintf(parent, sizeof(parent), "%s", o.out);
		if (strrchr(parent, '/'))
			*strrchr(parent, '/') = '\0';
		if (mkdir(parent, 0755) && errno != EEXIST) {
			perror(o.out);
			return 1;
		}
		if (mkdir(o.out, 0755) && errno != EEXIST) {
			perror(o.out);
			return 1;
		}
	}

	fd = open_camera(&o);
	if (fd < 0)
		return 1;
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	fmt.fmt.pix.pixelformat = o.fourcc;
	fmt.fmt.pix.width = (uint32_t)o.width;
	fmt.fmt.pix.height = (uint32_t)o.height;
	fmt.fmt.pix.field = V4L2_FIELD_ANY;
	if (xioctl(fd, VIDIOC_S_FMT, &fmt, "S_FMT")) {
		v4l2_close(fd);
		return 1;
	}
	printf("%s: %ux%u %.4s, %d frames to %s (%s)\n",
	       o.device ? o.device : "virtual camera", fmt.fmt.pix.width,
	       fmt.fmt.pix.height, (char *)&fmt.fmt.pix.pixelformat, o.frames,
	       o.out, o.use_read ? "read()" : "mmap streaming");
	ret = o.use_read ? grab_read(fd, &o, &fmt.fmt.pix)
			 : grab_mmap(fd, &o, &fmt.fmt.pix);
	v4l2_close(fd);
	return ret ? 1 : 0;
}
