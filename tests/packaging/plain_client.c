/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An unmodified camera program, for the launcher test: plain libc calls
 * only (open, ioctl, mmap, read), linked with none of our libraries.
 *   plain-client v4l2   V4L2: RGB24 frames from an MJPEG-only camera
 *                       (libv4l2 converts), one streamed frame via mmap
 *   plain-client v4l1   V4L1: VIDIOCGCAP, an RGB24 picture and read()
 * The camera is libv4l2's virtual camera (a memfd named "libv4l-vcam:...",
 * opened again through /proc/self/fd as a device node would be): only a
 * preloaded shim makes it answer, a bare memfd fails the first ioctl.
 * Prints one line saying what it got and whether the descriptor is
 * direct or shared (a frame-server socket), or why it failed (exit 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l1-videodev.h>

#define W 320
#define H 240

static int fail(const char *what)
{
	printf("plain-client: %s: %s\n", what, strerror(errno));
	return 1;
}

static int open_camera(const char *spec)
{
	char name[128], path[64];
	int mfd, fd;

	snprintf(name, sizeof(name), "libv4l-vcam:%s", spec);
	mfd = memfd_create(name, MFD_CLOEXEC);
	if (mfd < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	fd = open(path, O_RDWR);
	close(mfd);
	return fd;
}

static const char *kind(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return "?";
	return S_ISSOCK(st.st_mode) ? "shared" : "direct";
}

static int nonzero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 1;
	return 0;
}

static int stream_one(int fd, struct v4l2_buffer *b, void **mem, size_t *len)
{
	struct v4l2_requestbuffers rb = {
		.count = 2,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (ioctl(fd, VIDIOC_REQBUFS, &rb) < 0 || rb.count < 1)
		return fail("VIDIOC_REQBUFS");
	for (unsigned i = 0; i < rb.count && i < 2; i++) {
		memset(b, 0, sizeof(*b));
		b->index = i;
		b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b->memory = V4L2_MEMORY_MMAP;
		if (ioctl(fd, VIDIOC_QUERYBUF, b) < 0)
			return fail("VIDIOC_QUERYBUF");
		len[i] = b->length;
		mem[i] = mmap(NULL, b->length, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, b->m.offset);
		if (mem[i] == MAP_FAILED)
			return fail("mmap");
		if (ioctl(fd, VIDIOC_QBUF, b) < 0)
			return fail("VIDIOC_QBUF");
	}
	if (ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		return fail("VIDIOC_STREAMON");
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	if (ioctl(fd, VIDIOC_DQBUF, b) < 0)
		return fail("VIDIOC_DQBUF");
	if (ioctl(fd, VIDIOC_STREAMOFF, &type) < 0)
		return fail("VIDIOC_STREAMOFF");
	return 0;
}

static int run_v4l2(void)
{
	struct v4l2_capability cap;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_buffer b;
	void *mem[2] = { NULL, NULL };
	size_t len[2] = { 0, 0 };
	int fd = open_camera("MJPG:320x240:nopace");

	if (fd < 0)
		return fail("opening the virtual camera");
	if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return fail("not a V4L2 device (no shim?): VIDIOC_QUERYCAP");
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	if (ioctl(fd, VIDIOC_S_FMT, &f) < 0)
		return fail("VIDIOC_S_FMT RGB3");
	if (f.fmt.pix.pixelformat != V4L2_PIX_FMT_RGB24 ||
	    f.fmt.pix.width != W || f.fmt.pix.height != H) {
		printf("plain-client: got %.4s %ux%u, not RGB3 %dx%d\n",
		       (char *)&f.fmt.pix.pixelformat, f.fmt.pix.width,
		       f.fmt.pix.height, W, H);
		return 1;
	}
	if (stream_one(fd, &b, mem, len))
		return 1;
	if (b.bytesused != W * H * 3 || b.index > 1 ||
	    !nonzero(mem[b.index], b.bytesused)) {
		printf("plain-client: bad frame: %u bytes in buffer %u\n",
		       b.bytesused, b.index);
		return 1;
	}
	printf("v4l2: %s (%s): RGB3 %dx%d frame of %u bytes from MJPG, %s\n",
	       (char *)cap.card, (char *)cap.driver, W, H, b.bytesused,
	       kind(fd));
	for (int i = 0; i < 2; i++)
		if (mem[i] && munmap(mem[i], len[i]) < 0)
			return fail("munmap");
	close(fd);
	return 0;
}

static int run_v4l1(void)
{
	struct video_capability cap;
	struct video_picture pic;
	struct video_window win;
	size_t size = W * H * 3;
	unsigned char *frame = malloc(size);
	int fd = open_camera("YUYV:320x240:nopace");
	ssize_t n;

	if (fd < 0 || !frame)
		return fail("opening the virtual camera");
	memset(&cap, 0, sizeof(cap));
	if (ioctl(fd, VIDIOCGCAP, &cap) < 0)
		return fail("not a V4L1 device (no shim?): VIDIOCGCAP");
	if (!(cap.type & VID_TYPE_CAPTURE))
		return fail("VIDIOCGCAP: no VID_TYPE_CAPTURE");
	if (ioctl(fd, VIDIOCGPICT, &pic) < 0)
		return fail("VIDIOCGPICT");
	pic.palette = VIDEO_PALETTE_RGB24;
	pic.depth = 24;
	if (ioctl(fd, VIDIOCSPICT, &pic) < 0)
		return fail("VIDIOCSPICT RGB24");
	memset(&win, 0, sizeof(win));
	win.width = W;
	win.height = H;
	if (ioctl(fd, VIDIOCSWIN, &win) < 0)
		return fail("VIDIOCSWIN");
	n = read(fd, frame, size);
	if (n != (ssize_t)size || !nonzero(frame, size)) {
		printf("plain-client: read() gave %zd bytes, want %zu\n", n,
		       size);
		return 1;
	}
	printf("v4l1: %s: RGB24 %dx%d frame of %zd bytes from YUYV, %s\n",
	       cap.name, W, H, n, kind(fd));
	close(fd);
	free(frame);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "v4l2"))
		return run_v4l2();
	if (argc == 2 && !strcmp(argv[1], "v4l1"))
		return run_v4l1();
	fprintf(stderr, "usage: plain-client v4l2|v4l1\n");
	return 2;
}
